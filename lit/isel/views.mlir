// Views in selection: every chain of views (nisa.slice, nisa.permute, nisa.reshape,
// nisa.broadcast, nisa.ap on a view, nisa.dynamic_ap with a constant offset) is folded by
// sundial_dialects::fold::fold into the one pattern the instruction reads; the view ops are
// erased with the allocations. Patterns are [step, num] pairs in elements, outermost first,
// with the free pairs one per dimension of the view before contiguous ones merge.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-allocate,sundial-isel)' | FileCheck %s

// DMA, HBM side:
// - a slice of rows 32, 34, .., 62 and columns 8..39 of a 128x64 f32 tensor: element
//   32 * 64 + 8 = 2056 (byte 8224), rows 2 * 64 = 128 elements apart, 32 contiguous columns;
// - a permute (1, 0, 2) of a 4x8x16 tensor (strides 128, 16, 1): steps 16, 128, 1, which do
//   not merge;
// - a reshape of 16x64 bf16 to 32x32: still one contiguous run of 1024;
// - a broadcast of row 5 (byte 5 * 64 * 4 = 1280) to 128 rows: step 0;
// - a dynamic_ap whose offset is the constant 64: byte 256.
// CHECK-LABEL: func.func @dma_views
// CHECK-NOT: nisa.
// CHECK: "bir.dma_copy"() {dge_mode = "unknown", dst = {dtype = "float32", num_partitions = 16 : i64, offset = 0 : i64, partition = 0 : i64, pattern = array<i64: 1, 32>, space = "sbuf"}, engine = "dma", opcodes = array<i64: 184>, src = {dtype = "float32", offset = 8224 : i64, pattern = array<i64: 128, 16, 1, 32>, space = "hbm", tensor = 1 : i64}}
// CHECK: "bir.dma_copy"() {dge_mode = "unknown", dst = {dtype = "float32", num_partitions = 8 : i64, offset = 0 : i64, partition = 0 : i64, pattern = array<i64: 1, 64>, space = "sbuf"}, engine = "dma", opcodes = array<i64: 184>, src = {dtype = "float32", offset = 0 : i64, pattern = array<i64: 16, 8, 128, 4, 1, 16>, space = "hbm", tensor = 0 : i64}}
// CHECK: "bir.dma_copy"() {dge_mode = "unknown", dst = {dtype = "bfloat16", offset = 0 : i64, pattern = array<i64: 1, 1024>, space = "hbm", tensor = 2 : i64}, engine = "dma", opcodes = array<i64: 184>, src = {dtype = "bfloat16", num_partitions = 32 : i64, offset = 0 : i64, partition = 0 : i64, pattern = array<i64: 1, 32>, space = "sbuf"}}
// CHECK: "bir.dma_copy"() {dge_mode = "unknown", dst = {dtype = "float32", num_partitions = 128 : i64, offset = 0 : i64, partition = 0 : i64, pattern = array<i64: 1, 64>, space = "sbuf"}, engine = "dma", opcodes = array<i64: 184>, src = {dtype = "float32", offset = 1280 : i64, pattern = array<i64: 0, 128, 1, 64>, space = "hbm", tensor = 1 : i64}}
// CHECK: "bir.dma_copy"() {dge_mode = "unknown", dst = {dtype = "float32", num_partitions = 16 : i64, offset = 0 : i64, partition = 0 : i64, pattern = array<i64: 1, 64>, space = "sbuf"}, engine = "dma", opcodes = array<i64: 184>, src = {dtype = "float32", offset = 256 : i64, pattern = array<i64: 128, 16, 1, 64>, space = "hbm", tensor = 1 : i64}}
// CHECK-NOT: nisa.
module attributes {sundial.target = "cayman"} {
  func.func @dma_views(%a: memref<4x8x16xf32, "hbm">, %b: memref<128x64xf32, "hbm">, %c: memref<16x64xbf16, "hbm">) {
    %t0 = "nisa.alloc"() {name = "t0"} : () -> memref<16x32xf32, "sbuf">
    %t1 = "nisa.alloc"() {name = "t1"} : () -> memref<8x4x16xf32, "sbuf">
    %t2 = "nisa.alloc"() {name = "t2"} : () -> memref<32x32xbf16, "sbuf">
    %t3 = "nisa.alloc"() {name = "t3"} : () -> memref<128x64xf32, "sbuf">
    %t4 = "nisa.alloc"() {name = "t4"} : () -> memref<16x64xf32, "sbuf">
    %s = "nisa.slice"(%b) {start = array<i64: 32, 8>, step = array<i64: 2, 1>} : (memref<128x64xf32, "hbm">) -> memref<16x32xf32, "hbm">
    "nisa.dma_copy"(%t0, %s) : (memref<16x32xf32, "sbuf">, memref<16x32xf32, "hbm">) -> ()
    %p = "nisa.permute"(%a) {dims = array<i64: 1, 0, 2>} : (memref<4x8x16xf32, "hbm">) -> memref<8x4x16xf32, "hbm">
    "nisa.dma_copy"(%t1, %p) : (memref<8x4x16xf32, "sbuf">, memref<8x4x16xf32, "hbm">) -> ()
    %r = "nisa.reshape"(%c) : (memref<16x64xbf16, "hbm">) -> memref<32x32xbf16, "hbm">
    "nisa.dma_copy"(%r, %t2) : (memref<32x32xbf16, "hbm">, memref<32x32xbf16, "sbuf">) -> ()
    %row = "nisa.slice"(%b) {start = array<i64: 5, 0>} : (memref<128x64xf32, "hbm">) -> memref<1x64xf32, "hbm">
    %bc = "nisa.broadcast"(%row) : (memref<1x64xf32, "hbm">) -> memref<128x64xf32, "hbm">
    "nisa.dma_copy"(%t3, %bc) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    %off = arith.constant 64 : index
    %d = "nisa.dynamic_ap"(%b, %off) {pattern = array<i64: 128, 16, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (memref<128x64xf32, "hbm">, index) -> memref<16x64xf32, "hbm">
    "nisa.dma_copy"(%t4, %d) : (memref<16x64xf32, "sbuf">, memref<16x64xf32, "hbm">) -> ()
    return
  }
}

// -----

// Compute ops on on-chip views (f32 rows: x at byte 0, y at 256, z at 512, col at 768, in
// order of first use; w at 0, since x is dead once its slice was last read):
// - tensor_copy from a slice of x (partitions 32..95, columns 16..47: partition 32, byte
//   16 * 4 = 64) into a slice of y (every other column from 1: byte 256 + 4, step 2);
// - tensor_copy from a permute (0, 2, 1) of z (128x4x16, strides 16, 1 per partition): the
//   16 outer elements 1 apart, the 4 inner 16 apart;
// - tensor_tensor of a reshape of w (one run of 64) and a broadcast of the [128, 1] col (step
//   0);
// - tensor_reduce over the last axis of the permuted z (num_reduce_dims 1: the [16, 4] pair)
//   into a slice of the 128x160 tile big. The view keeps z live to the reduce, so big (640
//   bytes) cannot take z's bytes: it starts after them, at 768 (col and w are dead by then).
// CHECK-LABEL: func.func @compute_views
// CHECK: "bir.tensor_copy"() {dst = {dtype = "float32", num_partitions = 64 : i64, offset = 260 : i64, partition = 0 : i64, pattern = array<i64: 2, 32>, space = "sbuf"}, engine = "vector", opcodes = array<i64: 70>, src = {dtype = "float32", num_partitions = 64 : i64, offset = 64 : i64, partition = 32 : i64, pattern = array<i64: 1, 32>, space = "sbuf"}}
// CHECK: "bir.tensor_copy"() {dst = {dtype = "float32", num_partitions = 128 : i64, offset = 0 : i64, partition = 0 : i64, pattern = array<i64: 1, 64>, space = "sbuf"}, engine = "vector", opcodes = array<i64: 70>, src = {dtype = "float32", num_partitions = 128 : i64, offset = 512 : i64, partition = 0 : i64, pattern = array<i64: 1, 16, 16, 4>, space = "sbuf"}}
// CHECK: "bir.tensor_tensor"() {dst = {dtype = "float32", num_partitions = 128 : i64, offset = 256 : i64, partition = 0 : i64, pattern = array<i64: 1, 64>, space = "sbuf"}, engine = "vector", op = "add", opcodes = array<i64: 65>, src0 = {dtype = "float32", num_partitions = 128 : i64, offset = 0 : i64, partition = 0 : i64, pattern = array<i64: 1, 64>, space = "sbuf"}, src1 = {dtype = "float32", num_partitions = 128 : i64, offset = 768 : i64, partition = 0 : i64, pattern = array<i64: 0, 64>, space = "sbuf"}}
// CHECK: "bir.tensor_reduce"() {dst = {dtype = "float32", num_partitions = 128 : i64, offset = 768 : i64, partition = 0 : i64, pattern = array<i64: 1, 16>, space = "sbuf"}, engine = "vector", num_reduce_dims = 1 : i64, op = "add", opcodes = array<i64: 66>, src = {dtype = "float32", num_partitions = 128 : i64, offset = 512 : i64, partition = 0 : i64, pattern = array<i64: 1, 16, 16, 4>, space = "sbuf"}}
// CHECK-NOT: nisa.
module attributes {sundial.target = "cayman"} {
  func.func @compute_views() {
    %x = "nisa.alloc"() {name = "x"} : () -> memref<128x64xf32, "sbuf">
    %y = "nisa.alloc"() {name = "y"} : () -> memref<128x64xf32, "sbuf">
    %z = "nisa.alloc"() {name = "z"} : () -> memref<128x4x16xf32, "sbuf">
    %w = "nisa.alloc"() {name = "w"} : () -> memref<128x16x4xf32, "sbuf">
    %col = "nisa.alloc"() {name = "col"} : () -> memref<128x1xf32, "sbuf">
    %big = "nisa.alloc"() {name = "big"} : () -> memref<128x160xf32, "sbuf">
    "nisa.memset"(%x) {value = 1.0 : f32, engine = "vector"} : (memref<128x64xf32, "sbuf">) -> ()
    "nisa.memset"(%y) {value = 2.0 : f32, engine = "vector"} : (memref<128x64xf32, "sbuf">) -> ()
    "nisa.memset"(%z) {value = 3.0 : f32, engine = "vector"} : (memref<128x4x16xf32, "sbuf">) -> ()
    "nisa.memset"(%col) {value = 4.0 : f32, engine = "vector"} : (memref<128x1xf32, "sbuf">) -> ()
    %xs = "nisa.slice"(%x) {start = array<i64: 32, 16>} : (memref<128x64xf32, "sbuf">) -> memref<64x32xf32, "sbuf">
    %ys = "nisa.slice"(%y) {start = array<i64: 0, 1>, step = array<i64: 1, 2>} : (memref<128x64xf32, "sbuf">) -> memref<64x32xf32, "sbuf">
    "nisa.tensor_copy"(%ys, %xs) {engine = "vector"} : (memref<64x32xf32, "sbuf">, memref<64x32xf32, "sbuf">) -> ()
    %zp = "nisa.permute"(%z) {dims = array<i64: 0, 2, 1>} : (memref<128x4x16xf32, "sbuf">) -> memref<128x16x4xf32, "sbuf">
    "nisa.tensor_copy"(%w, %zp) {engine = "vector"} : (memref<128x16x4xf32, "sbuf">, memref<128x16x4xf32, "sbuf">) -> ()
    %wr = "nisa.reshape"(%w) : (memref<128x16x4xf32, "sbuf">) -> memref<128x64xf32, "sbuf">
    %cb = "nisa.broadcast"(%col) : (memref<128x1xf32, "sbuf">) -> memref<128x64xf32, "sbuf">
    "nisa.tensor_tensor_arith"(%y, %wr, %cb) {op = "add", engine = "vector"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    %sum = "nisa.slice"(%big) {start = array<i64: 0, 0>} : (memref<128x160xf32, "sbuf">) -> memref<128x16xf32, "sbuf">
    "nisa.tensor_reduce_arith"(%sum, %zp) {op = "add", axis = array<i64: 2>, engine = "vector"} : (memref<128x16xf32, "sbuf">, memref<128x16x4xf32, "sbuf">) -> ()
    return
  }
}
