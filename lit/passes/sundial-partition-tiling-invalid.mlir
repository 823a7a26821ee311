// sundial-partition-tiling's refusals: what it cannot cut into 128-partition blocks (its option
// refusal: sundial-partition-tiling-options-invalid.mlir).
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-partition-tiling)' -verify-diagnostics
// RUN: not sundial-opt %s --pass-pipeline='builtin.module(sundial-partition-tiling{partition-max-elts=-1})' 2>&1 | FileCheck %s --check-prefix=UINT
// UINT: option 'partition-max-elts': invalid value '-1' (expected a non-negative integer)

// An on-chip kernel argument: its caller fixes the layout.
func.func @argument(%d: memref<256x64xf32, "sbuf">, %s: memref<256x64xf32, "sbuf">) {
  // expected-error@+1 {{'nisa.tensor_copy' op operand 'dst': an on-chip kernel argument of 256 partitions (more than 128) cannot be tiled: its caller fixes the layout; pass it in HBM or in tiles of at most 128 partitions (rule: partition tiling)}}
  "nisa.tensor_copy"(%d, %s) {engine = "vector"} : (memref<256x64xf32, "sbuf">, memref<256x64xf32, "sbuf">) -> ()
  return
}

// -----

// A view of a logical tile.
func.func @view(%d: memref<128x64xf32, "sbuf">) {
  %t = "nisa.alloc"() : () -> memref<256x64xf32, "sbuf">
  "nisa.memset"(%t) {value = 0.0 : f32, engine = "vector"} : (memref<256x64xf32, "sbuf">) -> ()
  // expected-error@+1 {{'nisa.slice' op a view of the logical tile of 256 partitions (more than 128) cannot be tiled; write the ops on the logical tile itself (rule: partition tiling)}}
  %v = "nisa.slice"(%t) {start = array<i64: 64, 0>} : (memref<256x64xf32, "sbuf">) -> memref<128x64xf32, "sbuf">
  "nisa.tensor_copy"(%d, %v) {engine = "vector"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// Ops that move data across partitions with no combine step.
func.func @transpose(%d: memref<64x256xbf16, "psum">) {
  %t = "nisa.alloc"() : () -> memref<256x64xbf16, "sbuf">
  "nisa.memset"(%t) {value = 0.0 : f32, engine = "vector"} : (memref<256x64xbf16, "sbuf">) -> ()
  // expected-error@+1 {{'nisa.nc_transpose' op cannot be tiled over 256 partitions (blocks of 128): it moves the partition axis into the free axes, so its blocks are not independent (no combine step) (rule: partition tiling)}}
  "nisa.nc_transpose"(%d, %t) {engine = "tensor"} : (memref<64x256xbf16, "psum">, memref<256x64xbf16, "sbuf">) -> ()
  return
}

// -----

// Operands cut at different rows: the HBM side of a copy has another shape.
func.func @rows(%h: memref<128x128xf32, "hbm">) {
  %t = "nisa.alloc"() : () -> memref<256x64xf32, "sbuf">
  // expected-error@+1 {{'nisa.dma_copy' op operand 'src': 128 rows where the op's logical tiles have 256 partitions; partition tiling cuts every operand at the same rows (rule: partition tiling)}}
  "nisa.dma_copy"(%t, %h) {dge_mode = "none"} : (memref<256x64xf32, "sbuf">, memref<128x128xf32, "hbm">) -> ()
  return
}

// -----

// A core-group op needs blocks of whole GpSimd cores: blocks of 120 partitions are not.
// GROUPS: error: 'nisa.indirect_copy' op 256 partitions in blocks of 120: it works on groups of 16 partitions (one GpSimd core each), so both must be multiples of 16 (rule: partition tiling groups)
// RUN: not sundial-opt %s --pass-pipeline='builtin.module(sundial-partition-tiling{partition-max-elts=120})' 2>&1 | FileCheck %s --check-prefix=GROUPS
func.func @groups(%src: memref<256x16xf32, "hbm">, %ih: memref<256x16xui16, "hbm">) {
  %s = "nisa.alloc"() : () -> memref<256x16xf32, "sbuf">
  %i = "nisa.alloc"() : () -> memref<256x16xui16, "sbuf">
  %d = "nisa.alloc"() : () -> memref<256x16xf32, "sbuf">
  "nisa.dma_copy"(%s, %src) : (memref<256x16xf32, "sbuf">, memref<256x16xf32, "hbm">) -> ()
  "nisa.dma_copy"(%i, %ih) : (memref<256x16xui16, "sbuf">, memref<256x16xui16, "hbm">) -> ()
  "nisa.indirect_copy"(%d, %s, %i) {engine = "gpsimd", num_valid_indices = 16} : (memref<256x16xf32, "sbuf">, memref<256x16xf32, "sbuf">, memref<256x16xui16, "sbuf">) -> ()
  return
}

// -----

// stream_shuffle permutes within 32-partition quadrants: 144 partitions are not whole
// quadrants, so no block boundary keeps them.
func.func @quadrants() {
  %t = "nisa.alloc"() : () -> memref<144x16xf32, "sbuf">
  "nisa.memset"(%t) {value = 0.0 : f32, engine = "vector"} : (memref<144x16xf32, "sbuf">) -> ()
  %u = "nisa.alloc"() : () -> memref<144x16xf32, "sbuf">
  // expected-error@+1 {{'nisa.stream_shuffle' op 144 partitions in blocks of 128: it works on groups of 32 partitions (stream-shuffle quadrants), so both must be multiples of 32 (rule: partition tiling groups)}}
  "nisa.stream_shuffle"(%u, %t) {shuffle_mask = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31>} : (memref<144x16xf32, "sbuf">, memref<144x16xf32, "sbuf">) -> ()
  return
}

// -----

// A partition reduction with no cross-partition form cannot be combined from blocks.
func.func @mult(%d: memref<1x64xf32, "sbuf">) {
  %t = "nisa.alloc"() : () -> memref<256x64xf32, "sbuf">
  "nisa.memset"(%t) {value = 1.0 : f32, engine = "vector"} : (memref<256x64xf32, "sbuf">) -> ()
  // expected-error@+1 {{'nisa.tensor_partition_reduce' op attribute 'op': no cross-partition form for mult, so its 256 partitions cannot be combined from blocks (rule: partition reduce op)}}
  "nisa.tensor_partition_reduce"(%d, %t) {op = "mult"} : (memref<1x64xf32, "sbuf">, memref<256x64xf32, "sbuf">) -> ()
  return
}

// -----

// The physical tile a logical one becomes must fit max-tile-bytes per partition: 2 blocks x
// 8192 fp32 = 65536 bytes.
func.func @too_big() {
  // expected-error@+1 {{'nisa.alloc' op result: the logical tile of 256 partitions becomes [128, 2, ...] with 65536 bytes per partition, more than max-tile-bytes=32768 (rule: partition tiling size)}}
  %t = "nisa.alloc"() : () -> memref<256x8192xf32, "sbuf">
  "nisa.memset"(%t) {value = 1.0 : f32, engine = "vector"} : (memref<256x8192xf32, "sbuf">) -> ()
  return
}

// -----

// A matmul whose PE geometry is pinned cannot be cut.
func.func @pinned(%d: memref<128x512xf32, "psum">, %m: memref<256x512xbf16, "hbm">) {
  %s = "nisa.alloc"() : () -> memref<256x128xbf16, "sbuf">
  %mv = "nisa.alloc"() : () -> memref<256x512xbf16, "sbuf">
  "nisa.memset"(%s) {value = 1.0 : f32, engine = "vector"} : (memref<256x128xbf16, "sbuf">) -> ()
  "nisa.dma_copy"(%mv, %m) : (memref<256x512xbf16, "sbuf">, memref<256x512xbf16, "hbm">) -> ()
  // expected-error@+1 {{'nisa.matmul' op tile_position / tile_size pin the PE geometry, but dst [128, 512] needs cutting (128 partitions at most, 512 f32 per PSUM bank) (rule: partition tiling)}}
  "nisa.matmul"(%d, %s, %mv) {tile_position = array<i64: 0, 0>, tile_size = array<i64: 128, 128>} : (memref<128x512xf32, "psum">, memref<256x128xbf16, "sbuf">, memref<256x512xbf16, "sbuf">) -> ()
  return
}

// -----

// A rank-6 logical tile: a block's access pattern addresses the partition and four free dims.
func.func @rank() {
  %t = "nisa.alloc"() : () -> memref<256x2x2x2x2x2xf32, "sbuf">
  // expected-error@+1 {{'nisa.memset' op operand 'dst': a rank-6 tile has more dimensions than a block's access pattern can address (5: the partition and four free dims) (rule: partition tiling)}}
  "nisa.memset"(%t) {value = 0.0 : f32, engine = "vector"} : (memref<256x2x2x2x2x2xf32, "sbuf">) -> ()
  return
}

// -----

// The free-axis cut keeps a reduction's reduced axes whole: in PSUM they must fit one bank
// (1024 fp32 = 4096 bytes per partition here).
func.func @reduce_bank(%p: memref<128x2x1024xf32, "psum">, %d: memref<128x2xf32, "sbuf">) {
  // expected-error@+1 {{'nisa.tensor_reduce_arith' op reduced axis 2 must stay whole but exceeds one PSUM bank (1024 elements per partition where a 2048-byte bank holds 512) (rule: partition tiling free cut)}}
  "nisa.tensor_reduce_arith"(%d, %p) {op = "add", axis = array<i64: 2>} : (memref<128x2xf32, "sbuf">, memref<128x2x1024xf32, "psum">) -> ()
  return
}

// -----

// An op over a limit is cut along one iteration shape (dst's): operands of another free shape (with
// the same elements per partition, as NKI accepts) cannot follow the cut.
func.func @cut_shapes(%q: memref<128x2048xf32, "psum">, %s: memref<128x4x512xf32, "sbuf">) {
  // expected-error@+1 {{'nisa.tensor_copy' op operand 'src' has 8192 bytes per partition, more than one PSUM bank (2048 bytes), so the op must be cut along its free axes, but operand 'src' (128x2048) does not have the iteration shape 4x512 (dst's) (write its operands with one free shape) (rule: partition tiling free cut)}}
  "nisa.tensor_copy"(%s, %q) {engine = "vector"} : (memref<128x4x512xf32, "sbuf">, memref<128x2048xf32, "psum">) -> ()
  return
}
