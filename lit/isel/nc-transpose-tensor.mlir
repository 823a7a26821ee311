// The Tensor-engine nc_transpose through the middle end and selection (cayman):
// sundial-decompose makes it an int32 iota of partition - column (0x7e), an is_equal 0
// tensor_scalar into a bf16 identity (0x43) and a matmul of data by that identity with
// is_transpose (LDWEIGHTS 0x01 + MATMUL 0x02).
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-middle-end,sundial-allocate,sundial-isel)' | FileCheck %s
// The bundles are not written: the LDWEIGHTS transpose_mode code of sunda/cayman is not
// pinned (the header names the field without codes).
// RUN: not sundial-translate %s --disassemble 2>&1 | FileCheck %s --check-prefix=ENCODE

// CHECK-LABEL: func.func @pe_transpose
// CHECK: "bir.iota"() {base = 0 : i64, channel_multiplier = 1 : i64, dst = {dtype = "int32", num_partitions = 128 : i64, offset = [[I:[0-9]+]] : i64, partition = 0 : i64, pattern = array<i64: 1, 128>, space = "sbuf"}, engine = "gpsimd", opcodes = array<i64: 126>, pattern = array<i64: -1, 128>}
// CHECK-NEXT: "bir.tensor_scalar"() {dst = {dtype = "bfloat16", num_partitions = 128 : i64, offset = [[ID:[0-9]+]] : i64, partition = 0 : i64, pattern = array<i64: 1, 128>, space = "sbuf"}, engine = "vector", imm0 = 0.000000e+00 : f32, op0 = "is_equal", opcodes = array<i64: 67>, src = {dtype = "int32", num_partitions = 128 : i64, offset = [[I]] : i64,
// CHECK-NEXT: "bir.matmult"() {accumulate_flags = 3 : i64, dst = {dtype = "bfloat16", num_partitions = 64 : i64, offset = 0 : i64, partition = 0 : i64, pattern = array<i64: 1, 128>, space = "psum"}, engine = "tensor", is_transpose = true, moving = {dtype = "bfloat16", num_partitions = 128 : i64, offset = [[ID]] : i64, partition = 0 : i64, pattern = array<i64: 1, 128>, space = "sbuf"}, opcodes = array<i64: 1, 2>, stationary = {dtype = "bfloat16", num_partitions = 128 : i64, offset = 0 : i64, partition = 0 : i64, pattern = array<i64: 1, 64>, space = "sbuf"}}
// CHECK-NOT: nc_transpose
// ENCODE: nc-transpose-tensor.mlir:[[# @LINE + 7]]:5: error: 'bir.matmult' op cannot be encoded: {{.*}}the LDWEIGHTS transpose_mode code of a transpose on sunda/cayman
module attributes {sundial.target = "cayman"} {
  func.func @pe_transpose(%in: memref<128x64xbf16, "hbm">, %out: memref<64x128xbf16, "hbm">) {
    %a = "nisa.alloc"() : () -> memref<128x64xbf16, "sbuf">
    %p = "nisa.alloc"() : () -> memref<64x128xbf16, "psum">
    %o = "nisa.alloc"() : () -> memref<64x128xbf16, "sbuf">
    "nisa.dma_copy"(%a, %in) : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "hbm">) -> ()
    "nisa.nc_transpose"(%p, %a) {engine = "tensor"} : (memref<64x128xbf16, "psum">, memref<128x64xbf16, "sbuf">) -> ()
    "nisa.tensor_copy"(%o, %p) {engine = "vector"} : (memref<64x128xbf16, "sbuf">, memref<64x128xbf16, "psum">) -> ()
    "nisa.dma_copy"(%out, %o) : (memref<64x128xbf16, "hbm">, memref<64x128xbf16, "sbuf">) -> ()
    return
  }
}
