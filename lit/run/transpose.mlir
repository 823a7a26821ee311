// sundial-run on the transposes: Vector's stream_transpose, the DMA transpose and the
// indirect DMA transpose (rows gathered through a vector_offset, then transposed).
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py write %t/m.npy '<f4' 2,3 1,2,3,4,5,6 + write %t/h.npy '<f2' 2,3 1,2,3,4,5,6 + write %t/table.npy '<f2' 4,3 iota + write %t/idx.npy '<u4' 2,1 3,1
// RUN: sundial-run %s --arg 0=%t/m.npy --arg 2=%t/h.npy --arg 4=%t/table.npy --arg 5=%t/idx.npy --save 1=%t/st.npy --save 3=%t/dt.npy --save 6=%t/gt.npy
// RUN: python3 %S/Inputs/npy.py dump %t/st.npy + dump %t/dt.npy + dump %t/gt.npy | FileCheck %s
// [[1, 2, 3], [4, 5, 6]] transposed, on Vector (f32) and by DMA (f16):
// CHECK: shape=(3, 2)
// CHECK-NEXT: {{^}}1.0 4.0 2.0 5.0 3.0 6.0{{$}}
// CHECK: descr=<f2 fortran=False shape=(3, 2)
// CHECK-NEXT: {{^}}1.0 4.0 2.0 5.0 3.0 6.0{{$}}
// rows 3 and 1 of the 4 x 3 table (9 10 11, 3 4 5), transposed:
// CHECK: {{^}}9.0 3.0 10.0 4.0 11.0 5.0{{$}}

module attributes {sundial.target = "cayman"} {
  func.func @transposes(%m: memref<2x3xf32, "sbuf">, %st: memref<3x2xf32, "sbuf">, %h: memref<2x3xf16, "hbm">,
                        %dt: memref<3x2xf16, "sbuf">, %table: memref<4x3xf16, "hbm">, %idx: memref<2x1xui32, "sbuf">,
                        %gt: memref<3x2xf16, "sbuf">) {
    "nisa.stream_transpose"(%st, %m) : (memref<3x2xf32, "sbuf">, memref<2x3xf32, "sbuf">) -> ()
    "nisa.dma_transpose"(%dt, %h) {axes = array<i64: 1, 0>} : (memref<3x2xf16, "sbuf">, memref<2x3xf16, "hbm">) -> ()
    %g = "nisa.ap"(%table, %idx) {pattern = array<i64: 3, 2, 1, 3>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<4x3xf16, "hbm">, memref<2x1xui32, "sbuf">) -> memref<2x3xf16, "hbm">
    "nisa.dma_gather_transpose"(%gt, %g) {axes = array<i64: 1, 0>} : (memref<3x2xf16, "sbuf">, memref<2x3xf16, "hbm">) -> ()
    return
  }
}
