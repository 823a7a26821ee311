// NKI parity: nisa.nc_transpose, nisa.core_barrier, and the rules relaxed to NKI's (each from
// the kernel that hit it), plus NKI's name= on any instruction.
// RUN: sundial-opt %s | FileCheck %s
// RUN: sundial-opt %s -o %t.1 && sundial-opt %t.1 -o %t.2 && diff %t.1 %t.2

// core_barrier needs NeuronCore v3.
module attributes {sundial.target = "cayman"} {

// nc_transpose through the PE array (SBUF -> PSUM, up to 128x128; attention transposes
// [128, 64] Q tiles), on Vector (up to 32x32, either memory), and with the engine left to the
// compiler (a 32x32 tile may go either way; a larger one is the Tensor engine's).
// CHECK-LABEL: func.func @nc_transpose
// CHECK: "nisa.nc_transpose"(%{{.*}}, %{{.*}}) {engine = "tensor"} : (memref<64x128xbf16, "psum">, memref<128x64xbf16, "sbuf">) -> ()
// CHECK: "nisa.nc_transpose"(%{{.*}}, %{{.*}}) {engine = "vector"} : (memref<16x32xf32, "sbuf">, memref<32x16xf32, "psum">) -> ()
// CHECK: "nisa.nc_transpose"(%{{.*}}, %{{.*}}) : (memref<32x32xf32, "sbuf">, memref<32x32xf32, "sbuf">) -> ()
// CHECK: "nisa.nc_transpose"(%{{.*}}, %{{.*}}) : (memref<128x1xf32, "psum">, memref<1x128xf32, "sbuf">) -> ()
func.func @nc_transpose(%qt: memref<64x128xbf16, "psum">, %q: memref<128x64xbf16, "sbuf">,
                        %vt: memref<16x32xf32, "sbuf">, %v: memref<32x16xf32, "psum">,
                        %s: memref<32x32xf32, "sbuf">, %col: memref<128x1xf32, "psum">,
                        %row: memref<1x128xf32, "sbuf">) {
  "nisa.nc_transpose"(%qt, %q) {engine = "tensor"} : (memref<64x128xbf16, "psum">, memref<128x64xbf16, "sbuf">) -> ()
  "nisa.nc_transpose"(%vt, %v) {engine = "vector"} : (memref<16x32xf32, "sbuf">, memref<32x16xf32, "psum">) -> ()
  "nisa.nc_transpose"(%s, %s) : (memref<32x32xf32, "sbuf">, memref<32x32xf32, "sbuf">) -> ()
  "nisa.nc_transpose"(%col, %row) : (memref<128x1xf32, "psum">, memref<1x128xf32, "sbuf">) -> ()
  return
}

// Two cores write halves of a shared HBM tensor, then meet at the barrier.
// CHECK-LABEL: func.func @core_barrier
// CHECK: "nisa.core_barrier"(%{{.*}}) {cores = array<i64: 0, 1>} : (memref<256x64xf32, "hbm">) -> ()
// CHECK: "nisa.core_barrier"(%{{.*}}) {cores = array<i64: 0, 1>, engine = "sync"}
// A kernel's own shared_hbm tensor, through a view.
// CHECK: "nisa.core_barrier"(%{{.*}}) {cores = array<i64: 0, 1>} : (memref<128x64xf32, "hbm">) -> ()
func.func @core_barrier(%shared: memref<256x64xf32, "hbm">) {
  "nisa.core_barrier"(%shared) {cores = array<i64: 0, 1>} : (memref<256x64xf32, "hbm">) -> ()
  "nisa.core_barrier"(%shared) {cores = array<i64: 0, 1>, engine = "sync"} : (memref<256x64xf32, "hbm">) -> ()
  %own = "nisa.alloc"() {sundial.buffer = "shared_hbm"} : () -> memref<256x64xf32, "hbm">
  %half = "nisa.slice"(%own) {start = array<i64: 128, 0>} : (memref<256x64xf32, "hbm">) -> memref<128x64xf32, "hbm">
  "nisa.core_barrier"(%half) {cores = array<i64: 0, 1>} : (memref<128x64xf32, "hbm">) -> ()
  return
}

// "shapes agree" is NKI's rule: equal partitions and equal elements per partition. The
// attention kernel's scale of a [64, 1, 4] tile into a [64, 4] one was refused as
// "operand 'data' has shape 64x1x4 but 'dst' has shape 64x4".
// CHECK-LABEL: func.func @shapes_agree
// CHECK: "nisa.tensor_scalar_arith"(%{{.*}}, %{{.*}}) {imm0 = 1.250000e-01 : f32, op0 = "mult", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (memref<64x4xf32, "sbuf">, memref<64x1x4xf32, "sbuf">) -> ()
func.func @shapes_agree(%d: memref<64x4xf32, "sbuf">, %s: memref<64x1x4xf32, "sbuf">) {
  "nisa.tensor_scalar_arith"(%d, %s) {op0 = "mult", imm0 = 0.125 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<64x4xf32, "sbuf">, memref<64x1x4xf32, "sbuf">) -> ()
  return
}

// nki-library's broadcast helper: nc_stream_shuffle of one partition (a [1, 1] source) into
// the 32 partitions of a quadrant, every mask entry reading partition 0.
// CHECK-LABEL: func.func @shuffle_broadcast
// CHECK: "nisa.stream_shuffle"(%{{.*}}, %{{.*}}) {shuffle_mask = array<i64: 0, 0,
// CHECK-SAME: (memref<32x1xf32, "sbuf">, memref<1x1xf32, "sbuf">) -> ()
func.func @shuffle_broadcast(%dst: memref<32x1xf32, "sbuf">, %src: memref<1x1xf32, "sbuf">) {
  "nisa.stream_shuffle"(%dst, %src) {shuffle_mask = array<i64: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                               0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>}
      : (memref<32x1xf32, "sbuf">, memref<1x1xf32, "sbuf">) -> ()
  return
}

// The MoE router transposes int32 token ids by DMA: 4-byte dtypes are fine outside the
// hardware DGE.
// CHECK-LABEL: func.func @dma_transpose_int32
// CHECK: "nisa.dma_transpose"(%{{.*}}, %{{.*}}) {axes = array<i64: 1, 0>} : (memref<64x128xi32, "sbuf">, memref<128x64xi32, "hbm">) -> ()
// CHECK: "nisa.dma_transpose"(%{{.*}}, %{{.*}}) {axes = array<i64: 1, 0>, dge_mode = "swdge"}
func.func @dma_transpose_int32(%d: memref<64x128xi32, "sbuf">, %s: memref<128x64xi32, "hbm">) {
  "nisa.dma_transpose"(%d, %s) {axes = array<i64: 1, 0>} : (memref<64x128xi32, "sbuf">, memref<128x64xi32, "hbm">) -> ()
  "nisa.dma_transpose"(%d, %s) {axes = array<i64: 1, 0>, dge_mode = "swdge"} : (memref<64x128xi32, "sbuf">, memref<128x64xi32, "hbm">) -> ()
  return
}

// Integer immediates on integer data keep their value: 16777217 (2^24 + 1) is no f32. The
// MoE gather offsets token ids by an expert's row base.
// CHECK-LABEL: func.func @integer_immediates
// CHECK: "nisa.tensor_scalar_arith"(%{{.*}}, %{{.*}}) {imm0 = 16777217 : i32, op0 = "add", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
// CHECK: "nisa.tensor_scalar_arith"(%{{.*}}, %{{.*}}) {imm0 = 4294967295 : i64, imm1 = -2147483648 : i64, op0 = "bypass", op1 = "max"
// CHECK: "nisa.scalar_tensor_tensor_arith"(%{{.*}}, %{{.*}}, %{{.*}}) {imm0 = 3 : i32
func.func @integer_immediates(%ids: memref<128x8xi32, "sbuf">, %u: memref<128x8xui32, "sbuf">) {
  "nisa.tensor_scalar_arith"(%ids, %ids) {op0 = "add", imm0 = 16777217 : i32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x8xi32, "sbuf">, memref<128x8xi32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%u, %u) {op0 = "bypass", imm0 = 4294967295, op1 = "max", imm1 = -2147483648, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x8xui32, "sbuf">, memref<128x8xui32, "sbuf">) -> ()
  "nisa.scalar_tensor_tensor_arith"(%ids, %ids, %ids) {op0 = "mult", imm0 = 3 : i32, op1 = "add"}
      : (memref<128x8xi32, "sbuf">, memref<128x8xi32, "sbuf">, memref<128x8xi32, "sbuf">) -> ()
  return
}

// NKI's name= on instructions.
// CHECK-LABEL: func.func @names
// CHECK: "nisa.tensor_copy"(%{{.*}}, %{{.*}}) {name = "load_q"}
// CHECK: "nisa.matmul"(%{{.*}}, %{{.*}}, %{{.*}}) {name = "qk"}
func.func @names(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">, %p: memref<64x64xf32, "psum">) {
  "nisa.tensor_copy"(%d, %s) {name = "load_q"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.matmul"(%p, %s, %s) {name = "qk"} : (memref<64x64xf32, "psum">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// keepdims = true keeps each reduced axis as size 1 (false drops them).
// CHECK-LABEL: func.func @keepdims
// CHECK: "nisa.tensor_reduce_arith"(%{{.*}}, %{{.*}}) {axis = array<i64: 1>, keepdims = true, op = "max"} : (memref<128x1xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
// CHECK: "nisa.tensor_reduce_arith"(%{{.*}}, %{{.*}}) {axis = array<i64: 2>, op = "add"} : (memref<128x4xf32, "sbuf">, memref<128x4x8xf32, "sbuf">) -> ()
func.func @keepdims(%m: memref<128x1xf32, "sbuf">, %x: memref<128x512xf32, "sbuf">,
                    %s: memref<128x4xf32, "sbuf">, %y: memref<128x4x8xf32, "sbuf">) {
  "nisa.tensor_reduce_arith"(%m, %x) {op = "max", axis = array<i64: 1>, keepdims = true}
      : (memref<128x1xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
  "nisa.tensor_reduce_arith"(%s, %y) {op = "add", axis = array<i64: 2>}
      : (memref<128x4xf32, "sbuf">, memref<128x4x8xf32, "sbuf">) -> ()
  return
}

// Index tiles are [n], [n, 1] or [1, n] (the emulator's definition, shared): a gather with a [128]
// index tile and a scalar offset in a [1] tile.
// CHECK-LABEL: func.func @index_tiles
func.func @index_tiles(%t: memref<1024x64xf32, "hbm">, %i: memref<128xui32, "sbuf">, %s: memref<1xi32, "sbuf">) {
  %g = "nisa.ap"(%t, %i) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<1024x64xf32, "hbm">, memref<128xui32, "sbuf">) -> memref<128x64xf32, "hbm">
  %w = "nisa.ap"(%t, %s) {pattern = array<i64: 64, 8, 1, 64>, operandSegmentSizes = array<i32: 1, 0, 1>}
      : (memref<1024x64xf32, "hbm">, memref<1xi32, "sbuf">) -> memref<8x64xf32, "hbm">
  return
}

}
