// sundial-partition-tiling: logical tiles of more than 128 partitions become [128, k, F...]
// physical tiles; every op over one runs once per 128-partition block, through a static view
// of the block (pattern [k F, rows] then the free dims, offset c F); HBM sides are sliced by
// rows; partition reductions combine per-block partials; matmul K blocks accumulate.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-partition-tiling)' | FileCheck %s
// Afterwards no SBUF/PSUM tile has more than 128 partitions, and a second run changes nothing.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-partition-tiling{verify=tiled})' -o %t.1
// RUN: sundial-opt %t.1 -split-input-file --pass-pipeline='builtin.module(sundial-partition-tiling)' -o %t.2
// RUN: diff %t.1 %t.2
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-partition-tiling{max-tile-bytes=4096})' | FileCheck %s --check-prefix=SMALL
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-partition-tiling{max-tile-bytes=4096 free-tile-elements=300 uniform-tiles=true})' | FileCheck %s --check-prefix=UNIFORM

// 300 partitions: blocks of 128, 128 and 44 (3 x 64 elements per physical partition); the
// HBM rows of the DMA are sliced at 0, 128 and 256.
// CHECK-LABEL: func.func @elementwise
// CHECK-NOT: memref<300x64xf32, "sbuf">
// CHECK: %[[T:.*]] = "nisa.alloc"() : () -> memref<128x3x64xf32, "sbuf">
// CHECK: %[[U:.*]] = "nisa.alloc"() : () -> memref<128x3x64xf32, "sbuf">
// CHECK: %[[B0:.*]] = "nisa.ap"(%[[T]]) {operandSegmentSizes = array<i32: 1, 0, 0>, pattern = array<i64: 192, 128, 1, 64>} : (memref<128x3x64xf32, "sbuf">) -> memref<128x64xf32, "sbuf">
// CHECK: %[[H0:.*]] = "nisa.slice"(%arg0) {start = array<i64: 0, 0>} : (memref<300x64xf32, "hbm">) -> memref<128x64xf32, "hbm">
// CHECK: "nisa.dma_copy"(%[[B0]], %[[H0]])
// CHECK: "nisa.ap"(%[[T]]) {offset = 64 : i64, {{.*}}pattern = array<i64: 192, 128, 1, 64>}
// CHECK: "nisa.slice"(%arg0) {start = array<i64: 128, 0>}
// CHECK: "nisa.dma_copy"
// CHECK: "nisa.ap"(%[[T]]) {offset = 128 : i64, {{.*}}pattern = array<i64: 192, 44, 1, 64>} : (memref<128x3x64xf32, "sbuf">) -> memref<44x64xf32, "sbuf">
// CHECK: "nisa.slice"(%arg0) {start = array<i64: 256, 0>} : (memref<300x64xf32, "hbm">) -> memref<44x64xf32, "hbm">
// CHECK: "nisa.dma_copy"
// CHECK-COUNT-2: "nisa.tensor_scalar_arith"({{.*}}) {engine = "vector", imm0 = 2.000000e+00 : f32, op0 = "mult", {{.*}}} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
// CHECK: "nisa.tensor_scalar_arith"({{.*}} : (memref<44x64xf32, "sbuf">, memref<44x64xf32, "sbuf">) -> ()
// CHECK-COUNT-3: "nisa.dma_copy"
// CHECK: return
module attributes {sundial.target = "cayman"} {
func.func @elementwise(%in: memref<300x64xf32, "hbm">, %out: memref<300x64xf32, "hbm">) {
  %t = "nisa.alloc"() : () -> memref<300x64xf32, "sbuf">
  %u = "nisa.alloc"() : () -> memref<300x64xf32, "sbuf">
  "nisa.dma_copy"(%t, %in) : (memref<300x64xf32, "sbuf">, memref<300x64xf32, "hbm">) -> ()
  "nisa.tensor_scalar_arith"(%u, %t) {op0 = "mult", imm0 = 2.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (memref<300x64xf32, "sbuf">, memref<300x64xf32, "sbuf">) -> ()
  "nisa.dma_copy"(%out, %u) : (memref<300x64xf32, "hbm">, memref<300x64xf32, "sbuf">) -> ()
  return
}
}

// -----

// iota's values depend on the partition: block c starts at offset -5 + 128 c * 2 (channel
// multiplier 2); the physical tile keeps the free pattern.
// CHECK-LABEL: func.func @iota
// CHECK: %[[I:.*]] = "nisa.alloc"() : () -> memref<128x2x16xi32, "sbuf">
// CHECK: "nisa.iota"(%{{.*}}) {channel_multiplier = 2 : i64, engine = "gpsimd", offset = -5 : i64, pattern = array<i64: 1, 16>} : (memref<128x16xi32, "sbuf">) -> ()
// CHECK: "nisa.iota"(%{{.*}}) {channel_multiplier = 2 : i64, engine = "gpsimd", offset = 251 : i64, pattern = array<i64: 1, 16>} : (memref<128x16xi32, "sbuf">) -> ()
func.func @iota(%out: memref<256x16xi32, "hbm">) {
  %t = "nisa.alloc"() : () -> memref<256x16xi32, "sbuf">
  "nisa.iota"(%t) {pattern = array<i64: 1, 16>, offset = -5, channel_multiplier = 2, engine = "gpsimd"} : (memref<256x16xi32, "sbuf">) -> ()
  "nisa.dma_copy"(%out, %t) : (memref<256x16xi32, "hbm">, memref<256x16xi32, "sbuf">) -> ()
  return
}

// -----

// An average over 256 partitions: each block adds into a [1, 8] fp32 partial, the partials
// are added on Vector, and one multiply by 1 / 256 writes dst.
// CHECK-LABEL: func.func @average
// CHECK: %[[ACC:.*]] = "nisa.alloc"() : () -> memref<1x8xf32, "sbuf">
// CHECK: %[[PART:.*]] = "nisa.alloc"() : () -> memref<1x8xf32, "sbuf">
// CHECK: "nisa.tensor_partition_reduce"(%[[ACC]], %{{.*}}) {op = "add"} : (memref<1x8xf32, "sbuf">, memref<128x8xf32, "sbuf">) -> ()
// CHECK: "nisa.tensor_partition_reduce"(%[[PART]], %{{.*}}) {op = "add"} : (memref<1x8xf32, "sbuf">, memref<128x8xf32, "sbuf">) -> ()
// CHECK: "nisa.tensor_tensor_arith"(%[[ACC]], %[[ACC]], %[[PART]]) {engine = "vector", op = "add"}
// CHECK: "nisa.tensor_scalar_arith"(%arg1, %[[ACC]]) {engine = "vector", imm0 = 3.906250e-03 : f32, op0 = "mult"
// CHECK-NOT: "nisa.tensor_partition_reduce"
func.func @average(%in: memref<256x8xf32, "hbm">, %d: memref<1x8xf32, "sbuf">) {
  %t = "nisa.alloc"() : () -> memref<256x8xf32, "sbuf">
  "nisa.dma_copy"(%t, %in) : (memref<256x8xf32, "sbuf">, memref<256x8xf32, "hbm">) -> ()
  "nisa.tensor_partition_reduce"(%d, %t) {op = "average"} : (memref<1x8xf32, "sbuf">, memref<256x8xf32, "sbuf">) -> ()
  return
}

// -----

// A max over 3 blocks: the last combine writes dst (bit-vector ops combine with
// tensor_tensor_bitvec, the physical cross-lane op is cut the same way).
// CHECK-LABEL: func.func @max_and_or
// CHECK: "nisa.tensor_tensor_arith"(%[[A:.*]], %[[A]], %{{.*}}) {engine = "vector", op = "max"}
// CHECK: "nisa.tensor_tensor_arith"(%arg0, %[[A]], %{{.*}}) {engine = "vector", op = "max"}
// CHECK: "nisa.cross_lane_reduce_bitvec"(%{{.*}}, %{{.*}}) {engine = "gpsimd", op = "bitwise_or"} : (memref<1x4xui32, "sbuf">, memref<128x4xui32, "sbuf">) -> ()
// CHECK: "nisa.cross_lane_reduce_bitvec"
// CHECK: "nisa.tensor_tensor_bitvec"(%arg1, %{{.*}}, %{{.*}}) {engine = "vector", op = "bitwise_or"}
func.func @max_and_or(%d: memref<1x64xf32, "sbuf">, %di: memref<1x4xui32, "sbuf">) {
  %s = "nisa.alloc"() : () -> memref<300x64xf32, "sbuf">
  "nisa.memset"(%s) {value = 1.0 : f32, engine = "vector"} : (memref<300x64xf32, "sbuf">) -> ()
  "nisa.tensor_partition_reduce"(%d, %s) {op = "max"} : (memref<1x64xf32, "sbuf">, memref<300x64xf32, "sbuf">) -> ()
  %si = "nisa.alloc"() : () -> memref<256x4xui32, "sbuf">
  "nisa.memset"(%si) {value = 1.0 : f32, engine = "vector"} : (memref<256x4xui32, "sbuf">) -> ()
  "nisa.cross_lane_reduce_bitvec"(%di, %si) {op = "bitwise_or", engine = "gpsimd"} : (memref<1x4xui32, "sbuf">, memref<256x4xui32, "sbuf">) -> ()
  return
}

// -----

// K = 256: two K blocks of the stationary and moving tiles accumulate into one PSUM tile, the
// first with the op's own accumulate flag (absent here), the second accumulating.
// CHECK-LABEL: func.func @matmul_k
// CHECK: %[[S:.*]] = "nisa.alloc"() : () -> memref<128x2x128xbf16, "sbuf">
// CHECK: %[[M:.*]] = "nisa.alloc"() : () -> memref<128x2x512xbf16, "sbuf">
// CHECK-COUNT-4: "nisa.dma_copy"
// CHECK: %[[S0:.*]] = "nisa.ap"(%[[S]]) {{.*}}pattern = array<i64: 256, 128, 1, 128>}
// CHECK: %[[M0:.*]] = "nisa.ap"(%[[M]]) {{.*}}pattern = array<i64: 1024, 128, 1, 512>}
// CHECK: "nisa.matmul"(%[[D:.*]], %[[S0]], %[[M0]]) : (memref<128x512xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
// CHECK: %[[S1:.*]] = "nisa.ap"(%[[S]]) {offset = 128 : i64,
// CHECK: %[[M1:.*]] = "nisa.ap"(%[[M]]) {offset = 512 : i64,
// CHECK: "nisa.matmul"(%[[D]], %[[S1]], %[[M1]]) {accumulate = true}
// CHECK-NOT: "nisa.matmul"
func.func @matmul_k(%sh: memref<256x128xbf16, "hbm">, %mh: memref<256x512xbf16, "hbm">, %d: memref<128x512xf32, "psum">) {
  %s = "nisa.alloc"() : () -> memref<256x128xbf16, "sbuf">
  %m = "nisa.alloc"() : () -> memref<256x512xbf16, "sbuf">
  "nisa.dma_copy"(%s, %sh) : (memref<256x128xbf16, "sbuf">, memref<256x128xbf16, "hbm">) -> ()
  "nisa.dma_copy"(%m, %mh) : (memref<256x512xbf16, "sbuf">, memref<256x512xbf16, "hbm">) -> ()
  "nisa.matmul"(%d, %s, %m) : (memref<128x512xf32, "psum">, memref<256x128xbf16, "sbuf">, memref<256x512xbf16, "sbuf">) -> ()
  return
}

// -----

// indirect_copy keeps its groups of 16 partitions: 256 partitions are two blocks of eight
// whole GpSimd cores. Each core gathers num_valid_indices = 16 of its 16 x 16 index slots,
// 16 elements per partition of dst (without it, local_gather gathers every slot: 256).
// CHECK-LABEL: func.func @core_groups
// CHECK-COUNT-2: "nisa.indirect_copy"({{.*}}num_valid_indices = 16 : i64{{.*}} : (memref<128x16xf32, "sbuf">, memref<128x16xf32, "sbuf">, memref<128x16xui16, "sbuf">) -> ()
func.func @core_groups(%src: memref<256x16xf32, "hbm">, %ih: memref<256x16xui16, "hbm">, %out: memref<256x16xf32, "hbm">) {
  %s = "nisa.alloc"() : () -> memref<256x16xf32, "sbuf">
  %i = "nisa.alloc"() : () -> memref<256x16xui16, "sbuf">
  %d = "nisa.alloc"() : () -> memref<256x16xf32, "sbuf">
  "nisa.dma_copy"(%s, %src) : (memref<256x16xf32, "sbuf">, memref<256x16xf32, "hbm">) -> ()
  "nisa.dma_copy"(%i, %ih) : (memref<256x16xui16, "sbuf">, memref<256x16xui16, "hbm">) -> ()
  "nisa.indirect_copy"(%d, %s, %i) {engine = "gpsimd", num_valid_indices = 16} : (memref<256x16xf32, "sbuf">, memref<256x16xf32, "sbuf">, memref<256x16xui16, "sbuf">) -> ()
  "nisa.dma_copy"(%out, %d) : (memref<256x16xf32, "hbm">, memref<256x16xf32, "sbuf">) -> ()
  return
}

// -----

// Physical tiles are left alone.
// CHECK-LABEL: func.func @physical
// CHECK-NEXT: "nisa.tensor_copy"(%arg0, %arg1) {engine = "vector"}
// CHECK-NEXT: return
func.func @physical(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">) {
  "nisa.tensor_copy"(%d, %s) {engine = "vector"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// 1000 partitions are seven full blocks and one of 104: more than max-unrolled-blocks (4), so
// the full blocks run in a loop, each operand a dynamic access pattern (the physical tile at
// %c * 64, the HBM rows at %c * 128 * 64), and the partial block follows as a static copy.
// CHECK-LABEL: func.func @loop
// CHECK: %[[T:.*]] = "nisa.alloc"() : () -> memref<128x8x64xf32, "sbuf">
// CHECK: %[[N:.*]] = arith.constant 7 : index
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK: %[[R:.*]] = arith.constant 64 : index
// CHECK: %[[O:.*]] = arith.muli %[[C]], %[[R]] : index
// CHECK: %[[B:.*]] = "nisa.dynamic_ap"(%[[T]], %[[O]]) {{.*}}pattern = array<i64: 512, 128, 1, 64>} : (memref<128x8x64xf32, "sbuf">, index) -> memref<128x64xf32, "sbuf">
// CHECK: %[[HR:.*]] = arith.constant 8192 : index
// CHECK: %[[HO:.*]] = arith.muli %[[C]], %[[HR]] : index
// CHECK: %[[H:.*]] = "nisa.dynamic_ap"(%arg0, %[[HO]]) {{.*}}pattern = array<i64: 64, 128, 1, 64>} : (memref<1000x64xf32, "hbm">, index) -> memref<128x64xf32, "hbm">
// CHECK: "nisa.dma_copy"(%[[B]], %[[H]])
// CHECK: } {sundial.range = "affine"}
// CHECK: "nisa.ap"(%[[T]]) {offset = 448 : i64, {{.*}}pattern = array<i64: 512, 104, 1, 64>}
// CHECK: "nisa.slice"(%arg0) {start = array<i64: 896, 0>}
// CHECK: "nisa.dma_copy"({{.*}} : (memref<104x64xf32, "sbuf">, memref<104x64xf32, "hbm">) -> ()
// CHECK: scf.for
// CHECK: "nisa.activation"({{.*}} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
// CHECK: "nisa.activation"({{.*}} : (memref<104x64xf32, "sbuf">, memref<104x64xf32, "sbuf">) -> ()
func.func @loop(%in: memref<1000x64xf32, "hbm">) {
  %t = "nisa.alloc"() : () -> memref<1000x64xf32, "sbuf">
  "nisa.dma_copy"(%t, %in) {dge_mode = "none"} : (memref<1000x64xf32, "sbuf">, memref<1000x64xf32, "hbm">) -> ()
  "nisa.activation"(%t, %t) {op = "exp", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>} : (memref<1000x64xf32, "sbuf">, memref<1000x64xf32, "sbuf">) -> ()
  return
}

// -----

// The free-axis cut (pass-rules §5.4-5.7): a PSUM operand of more than one bank (2048 bytes
// per partition) is cut along its free axes into pieces of free-tile-elements (512 fp32 = one
// bank), one copy per piece through static slices; a reduction keeps its reduced axis whole
// and cuts the others ([4, 256] with 256 reduced: 2 x 256 per piece). The three PSUM arguments
// take 4 + 2 + 1 of the 8 banks.
// CHECK-LABEL: func.func @free_cut_psum
// CHECK: %[[S0:.*]] = "nisa.slice"(%arg1) {start = array<i64: 0, 0>} : (memref<128x2048xf32, "sbuf">) -> memref<128x512xf32, "sbuf">
// CHECK: %[[P0:.*]] = "nisa.slice"(%arg0) {start = array<i64: 0, 0>} : (memref<128x2048xf32, "psum">) -> memref<128x512xf32, "psum">
// CHECK: "nisa.tensor_copy"(%[[S0]], %[[P0]]) {engine = "vector"} : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "psum">) -> ()
// CHECK: "nisa.slice"(%arg0) {start = array<i64: 0, 512>}
// CHECK: "nisa.slice"(%arg0) {start = array<i64: 0, 1024>}
// CHECK: "nisa.slice"(%arg0) {start = array<i64: 0, 1536>}
// CHECK: "nisa.tensor_copy"({{.*}} : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "psum">) -> ()
// CHECK-NOT: "nisa.tensor_copy"
// CHECK: %[[D:.*]] = "nisa.slice"(%arg3) {start = array<i64: 0, 2>} : (memref<128x4xf32, "sbuf">) -> memref<128x2xf32, "sbuf">
// CHECK: %[[R:.*]] = "nisa.slice"(%arg2) {start = array<i64: 0, 2, 0>} : (memref<128x4x256xf32, "psum">) -> memref<128x2x256xf32, "psum">
// CHECK: "nisa.tensor_reduce_arith"(%[[D]], %[[R]]) {axis = array<i64: 2>, op = "add"}
// CHECK-NOT: "nisa.tensor_reduce_arith"
// Within the limits nothing is cut: a bank-sized PSUM copy stays one op.
// CHECK: "nisa.tensor_copy"(%arg4, %arg5) {engine = "vector"} : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "psum">) -> ()
func.func @free_cut_psum(%q: memref<128x2048xf32, "psum">, %s: memref<128x2048xf32, "sbuf">,
                         %p: memref<128x4x256xf32, "psum">, %d: memref<128x4xf32, "sbuf">,
                         %s1: memref<128x512xf32, "sbuf">, %q1: memref<128x512xf32, "psum">) {
  "nisa.tensor_copy"(%s, %q) {engine = "vector"} : (memref<128x2048xf32, "sbuf">, memref<128x2048xf32, "psum">) -> ()
  "nisa.tensor_reduce_arith"(%d, %p) {op = "add", axis = array<i64: 2>} : (memref<128x4xf32, "sbuf">, memref<128x4x256xf32, "psum">) -> ()
  "nisa.tensor_copy"(%s1, %q1) {engine = "vector"} : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "psum">) -> ()
  return
}

// -----

// An SBUF operand over max-tile-bytes (here 4096 with {max-tile-bytes=4096} below; 32768 by
// default) is cut too; its elementwise producer over the same shape takes the same cut (rate
// matching) although its own bf16 tiles fit; a [P, 1] per-partition operand stays whole.
// By default (8 KiB of fp32 per partition) nothing is cut.
// CHECK-LABEL: func.func @free_cut_sbuf
// CHECK: "nisa.tensor_scalar_arith"(%{{.*}}, %arg0, %arg2)
// CHECK: "nisa.tensor_tensor_arith"(%arg1, %{{.*}}, %arg1)
// CHECK-NOT: nisa.slice
// SMALL-LABEL: func.func @free_cut_sbuf
// SMALL: %[[X:.*]] = "nisa.slice"(%[[T:.*]]) {start = array<i64: 0, 0, 0>} : (memref<128x4x512xbf16, "sbuf">) -> memref<128x1x512xbf16, "sbuf">
// SMALL: %[[A:.*]] = "nisa.slice"(%arg0) {start = array<i64: 0, 0, 0>} : (memref<128x4x512xbf16, "sbuf">) -> memref<128x1x512xbf16, "sbuf">
// SMALL: "nisa.tensor_scalar_arith"(%[[X]], %[[A]], %arg2) {engine = "vector", op0 = "mult", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (memref<128x1x512xbf16, "sbuf">, memref<128x1x512xbf16, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
// SMALL-COUNT-3: "nisa.tensor_scalar_arith"
// SMALL: "nisa.slice"(%arg1) {start = array<i64: 0, 3, 0>} : (memref<128x4x512xf32, "sbuf">) -> memref<128x1x512xf32, "sbuf">
// SMALL: "nisa.tensor_tensor_arith"
// SMALL-NOT: "nisa.tensor_tensor_arith"
// With uniform-tiles and a budget of 300, pieces of 256 (the largest divisor of 512 not
// above 300): 8 equal pieces, more than max-unrolled-blocks (4), so one affine loop over the
// piece index, each cut operand a dynamic access pattern at (n / 2) * 512 + (n mod 2) * 256.
// UNIFORM-LABEL: func.func @free_cut_sbuf
// UNIFORM: %[[N:.*]] = arith.constant 8 : index
// UNIFORM: scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// UNIFORM: %[[Q:.*]] = arith.divui %[[I]], %{{.*}} : index
// UNIFORM: %[[R:.*]] = arith.remui %[[I]], %{{.*}} : index
// UNIFORM: %[[L:.*]] = arith.muli %[[R]], %{{.*}} : index
// UNIFORM: %[[H:.*]] = arith.muli %[[Q]], %{{.*}} : index
// UNIFORM: %[[O:.*]] = arith.addi %[[H]], %[[L]] : index
// UNIFORM: %[[X:.*]] = "nisa.dynamic_ap"(%{{.*}}, %[[O]]) {{.*}}pattern = array<i64: 2048, 128, 512, 1, 1, 256>} : (memref<128x4x512xbf16, "sbuf">, index) -> memref<128x1x256xbf16, "sbuf">
// UNIFORM: "nisa.tensor_scalar_arith"(%[[X]], %{{.*}}, %arg2) {{.*}} : (memref<128x1x256xbf16, "sbuf">, memref<128x1x256xbf16, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
// UNIFORM: } {sundial.range = "affine"}
// UNIFORM: scf.for
// UNIFORM: "nisa.tensor_tensor_arith"{{.*}}memref<128x1x256xf32, "sbuf">
// UNIFORM-NOT: "nisa.tensor_scalar_arith"
func.func @free_cut_sbuf(%a: memref<128x4x512xbf16, "sbuf">, %y: memref<128x4x512xf32, "sbuf">, %k: memref<128x1xf32, "sbuf">) {
  %x = "nisa.alloc"() : () -> memref<128x4x512xbf16, "sbuf">
  "nisa.tensor_scalar_arith"(%x, %a, %k) {op0 = "mult", engine = "vector", operandSegmentSizes = array<i32: 1, 1, 1, 0>}
      : (memref<128x4x512xbf16, "sbuf">, memref<128x4x512xbf16, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  "nisa.tensor_tensor_arith"(%y, %x, %y) {op = "add", engine = "vector"}
      : (memref<128x4x512xf32, "sbuf">, memref<128x4x512xbf16, "sbuf">, memref<128x4x512xf32, "sbuf">) -> ()
  return
}

// -----

// By default an SBUF operand over 32768 bytes per partition is cut: [128, 16384] fp32 (64
// KiB) into 32 pieces of 512 (more than max-unrolled-blocks: one loop); a reduction over
// [16, 1024] keeps its 1024 reduced elements whole (over the 512 budget, within the limit)
// and loops over the 16 rows, its dst [128, 16] addressed one column per piece.
// CHECK-LABEL: func.func @free_cut_loop
// SMALL-LABEL: func.func @free_cut_loop
// UNIFORM-LABEL: func.func @free_cut_loop
// CHECK: %[[N:.*]] = arith.constant 32 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK: %[[O:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK: "nisa.dynamic_ap"(%arg0, %[[O]]) {{.*}}pattern = array<i64: 16384, 128, 1, 512>} : (memref<128x16384xf32, "sbuf">, index) -> memref<128x512xf32, "sbuf">
// CHECK: "nisa.tensor_tensor_arith"({{.*}} : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
// CHECK: } {sundial.range = "affine"}
// CHECK: %[[M:.*]] = arith.constant 16 : index
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[M]] step %{{.*}} {
// CHECK: %[[D:.*]] = "nisa.dynamic_ap"(%arg3, %[[J]]) {{.*}}pattern = array<i64: 16, 128, 1, 1>} : (memref<128x16xf32, "sbuf">, index) -> memref<128x1xf32, "sbuf">
// CHECK: %[[R:.*]] = "nisa.dynamic_ap"(%arg2, %{{.*}}) {{.*}}pattern = array<i64: 16384, 128, 1024, 1, 1, 1024>} : (memref<128x16x1024xf32, "sbuf">, index) -> memref<128x1x1024xf32, "sbuf">
// CHECK: "nisa.tensor_reduce_arith"(%[[D]], %[[R]]) {axis = array<i64: 2>, op = "max"}
func.func @free_cut_loop(%a: memref<128x16384xf32, "sbuf">, %b: memref<128x16384xf32, "sbuf">,
                         %x: memref<128x16x1024xf32, "sbuf">, %m: memref<128x16xf32, "sbuf">) {
  "nisa.tensor_tensor_arith"(%a, %a, %b) {op = "add", engine = "vector"}
      : (memref<128x16384xf32, "sbuf">, memref<128x16384xf32, "sbuf">, memref<128x16384xf32, "sbuf">) -> ()
  "nisa.tensor_reduce_arith"(%m, %x) {op = "max", axis = array<i64: 2>} : (memref<128x16xf32, "sbuf">, memref<128x16x1024xf32, "sbuf">) -> ()
  return
}
