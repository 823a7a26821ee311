// DMA NISA ops (direct, indirect, transposes, DMA compute), sequencer registers and
// device_print.
// RUN: sundial-opt %s | FileCheck %s
// RUN: sundial-opt %s -o %t.1 && sundial-opt %t.1 -o %t.2 && diff %t.1 %t.2

// dma_gather_transpose needs NeuronCore v3.
module attributes {sundial.target = "cayman"} {

// dma_copy HBM -> SBUF with every attribute, SBUF -> PSUM with a dtype conversion, and an
// HBM -> HBM copy that reshapes (same element count).
// CHECK-LABEL: func.func @dma_copy
// CHECK: "nisa.dma_copy"(%{{.*}}, %{{.*}}) {dge_mode = "hwdge", engine = "dma", oob_mode = "skip", priority = 2 : i64}
// CHECK: "nisa.dma_copy"(%{{.*}}, %{{.*}}) : (memref<128x64xf32, "psum">, memref<128x64xbf16, "sbuf">) -> ()
// CHECK: "nisa.dma_copy"(%{{.*}}, %{{.*}}) : (memref<64x128xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
func.func @dma_copy(%s: memref<128x64xbf16, "sbuf">, %h: memref<128x64xbf16, "hbm">, %p: memref<128x64xf32, "psum">,
                    %a: memref<128x64xf32, "hbm">, %b: memref<64x128xf32, "hbm">) {
  "nisa.dma_copy"(%s, %h) {dge_mode = "hwdge", oob_mode = "skip", priority = 2, engine = "dma"}
      : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "hbm">) -> ()
  "nisa.dma_copy"(%p, %s) : (memref<128x64xf32, "psum">, memref<128x64xbf16, "sbuf">) -> ()
  "nisa.dma_copy"(%b, %a) : (memref<64x128xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// A static nisa.ap (no offsets) is a plain DMA operand: MX containers and scales move too.
// CHECK-LABEL: func.func @dma_copy_ap
// CHECK: %[[V:.*]] = "nisa.ap"
// CHECK: "nisa.dma_copy"(%{{.*}}, %[[V]]) : (memref<32x16xvector<4xf8E5M2>, "sbuf">, memref<32x16xvector<4xf8E5M2>, "hbm">) -> ()
func.func @dma_copy_ap(%t: memref<64x16xvector<4xf8E5M2>, "hbm">, %s: memref<32x16xvector<4xf8E5M2>, "sbuf">) {
  %v = "nisa.ap"(%t) {pattern = array<i64: 16, 32, 1, 16>, offset = 512, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<64x16xvector<4xf8E5M2>, "hbm">) -> memref<32x16xvector<4xf8E5M2>, "hbm">
  "nisa.dma_copy"(%s, %v) : (memref<32x16xvector<4xf8E5M2>, "sbuf">, memref<32x16xvector<4xf8E5M2>, "hbm">) -> ()
  return
}

// Indirect DMA: a gather (indirect src, vector_offset) and a scatter (indirect dst,
// scalar_offset register) with non-unique indices.
// CHECK-LABEL: func.func @dma_copy_indirect
// CHECK: %[[G:.*]] = "nisa.ap"(%{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 0>
// CHECK: "nisa.dma_copy_indirect"(%{{.*}}, %[[G]]) {dge_mode = "swdge", oob_mode = "skip"}
// CHECK: %[[S:.*]] = "nisa.ap"(%{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 0, 1>
// CHECK: "nisa.dma_copy_indirect"(%[[S]], %{{.*}}) {priority = 0 : i64, unique_indices = false}
func.func @dma_copy_indirect(%table: memref<4096x128xbf16, "hbm">, %idx: memref<128x1xi32, "sbuf">, %rows: memref<128x128xbf16, "sbuf">,
                             %sidx: memref<1x1xi32, "sbuf">) {
  %g = "nisa.ap"(%table, %idx) {pattern = array<i64: 128, 128, 1, 128>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<4096x128xbf16, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x128xbf16, "hbm">
  "nisa.dma_copy_indirect"(%rows, %g) {dge_mode = "swdge", oob_mode = "skip"}
      : (memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "hbm">) -> ()
  %r = "nisa.load_register"(%sidx) : (memref<1x1xi32, "sbuf">) -> !nisa.reg
  %s = "nisa.ap"(%table, %r) {pattern = array<i64: 128, 128, 1, 128>, operandSegmentSizes = array<i32: 1, 0, 1>}
      : (memref<4096x128xbf16, "hbm">, !nisa.reg) -> memref<128x128xbf16, "hbm">
  "nisa.dma_copy_indirect"(%s, %rows) {unique_indices = false, priority = 0}
      : (memref<128x128xbf16, "hbm">, memref<128x128xbf16, "sbuf">) -> ()
  return
}

// DMA transposes along (1, 0) and (2, 1, 0). The hwdge one has a shape the hardware DGE
// transposes (pass-rules §8 [docs]: 2-byte dtype, last dimension <= 128, first dimension 16 in
// 2-D), so that sundial-resolve-dge keeps the explicit mode.
// CHECK-LABEL: func.func @dma_transpose
// CHECK: "nisa.dma_transpose"(%{{.*}}, %{{.*}}) {axes = array<i64: 1, 0>, dge_mode = "hwdge"} : (memref<128x16xbf16, "sbuf">, memref<16x128xbf16, "hbm">) -> ()
// CHECK: "nisa.dma_transpose"(%{{.*}}, %{{.*}}) {axes = array<i64: 2, 1, 0>, oob_mode = "error"} : (memref<8x4x2xi16, "hbm">, memref<2x4x8xi16, "hbm">) -> ()
func.func @dma_transpose(%d: memref<128x16xbf16, "sbuf">, %s: memref<16x128xbf16, "hbm">,
                         %d3: memref<8x4x2xi16, "hbm">, %s3: memref<2x4x8xi16, "hbm">) {
  "nisa.dma_transpose"(%d, %s) {axes = array<i64: 1, 0>, dge_mode = "hwdge"}
      : (memref<128x16xbf16, "sbuf">, memref<16x128xbf16, "hbm">) -> ()
  "nisa.dma_transpose"(%d3, %s3) {axes = array<i64: 2, 1, 0>, oob_mode = "error"}
      : (memref<8x4x2xi16, "hbm">, memref<2x4x8xi16, "hbm">) -> ()
  return
}

// The indirect transpose: rows gathered through a vector_offset, then transposed.
// CHECK-LABEL: func.func @dma_gather_transpose
// CHECK: %[[G:.*]] = "nisa.ap"
// CHECK: "nisa.dma_gather_transpose"(%{{.*}}, %[[G]]) {axes = array<i64: 1, 0>} : (memref<64x32xf16, "sbuf">, memref<32x64xf16, "hbm">) -> ()
func.func @dma_gather_transpose(%t: memref<1024x64xf16, "hbm">, %idx: memref<32x1xui32, "sbuf">, %d: memref<64x32xf16, "sbuf">) {
  %g = "nisa.ap"(%t, %idx) {pattern = array<i64: 64, 32, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<1024x64xf16, "hbm">, memref<32x1xui32, "sbuf">) -> memref<32x64xf16, "hbm">
  "nisa.dma_gather_transpose"(%d, %g) {axes = array<i64: 1, 0>} : (memref<64x32xf16, "sbuf">, memref<32x64xf16, "hbm">) -> ()
  return
}

// DMA compute: the sum of three sources with explicit 1.0 scales, and a single source.
// CHECK-LABEL: func.func @dma_compute
// CHECK: "nisa.dma_compute"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {oob_mode = "error", reduce_op = "add", scales = array<f32: 1.000000e+00, 1.000000e+00, 1.000000e+00>, unique_indices = true}
// CHECK: "nisa.dma_compute"(%{{.*}}, %{{.*}}) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
func.func @dma_compute(%d: memref<128x64xf32, "hbm">, %a: memref<128x64xf32, "hbm">, %s: memref<128x64xf32, "sbuf">) {
  "nisa.dma_compute"(%d, %a, %a, %a) {reduce_op = "add", scales = array<f32: 1.0, 1.0, 1.0>, unique_indices = true, oob_mode = "error"}
      : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  "nisa.dma_compute"(%s, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// NKI's two read-modify-write modes mix an HBM and an SBUF operand (the first source may
// have a type of its own): a scatter, dst(HBM)[idx] += rows(SBUF), and a gather,
// dst(SB) += table(HBM)[idx]; and a plain sum of an SBUF and two HBM sources.
// CHECK-LABEL: func.func @dma_compute_rmw
// CHECK: "nisa.dma_compute"(%[[A:.*]], %[[A]], %arg2) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">) -> ()
// CHECK: "nisa.dma_compute"(%arg2, %arg2, %[[A]]) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
// CHECK: "nisa.dma_compute"(%arg3, %arg2, %arg3, %arg3) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
func.func @dma_compute_rmw(%table: memref<4096x64xf32, "hbm">, %idx: memref<128x1xi32, "sbuf">,
                           %rows: memref<128x64xf32, "sbuf">, %h: memref<128x64xf32, "hbm">) {
  %a = "nisa.ap"(%table, %idx) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<4096x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "hbm">
  "nisa.dma_compute"(%a, %a, %rows) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.dma_compute"(%rows, %rows, %a) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  "nisa.dma_compute"(%h, %rows, %h, %h) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// A hardware-DGE DMA names its trigger engine, Sync or Scalar (NKI's engine=).
// CHECK-LABEL: func.func @dma_trigger
// CHECK: "nisa.dma_copy"(%arg1, %arg0) {dge_mode = "hwdge", engine = "sync"}
// CHECK: "nisa.dma_copy"(%arg0, %arg1) {engine = "scalar"}
func.func @dma_trigger(%h: memref<128x64xbf16, "hbm">, %s: memref<128x64xbf16, "sbuf">) {
  "nisa.dma_copy"(%s, %h) {engine = "sync", dge_mode = "hwdge"} : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "hbm">) -> ()
  "nisa.dma_copy"(%h, %s) {engine = "scalar"} : (memref<128x64xbf16, "hbm">, memref<128x64xbf16, "sbuf">) -> ()
  return
}

// Register load and store on an explicit sequencer engine (int64 and int32 tiles).
// CHECK-LABEL: func.func @registers
// CHECK: %[[R:.*]] = "nisa.load_register"(%{{.*}}) {engine = "sync"} : (memref<1x1xi64, "sbuf">) -> !nisa.reg
// CHECK: "nisa.store_register"(%{{.*}}, %[[R]]) {engine = "tensor"} : (memref<1x1xi32, "sbuf">, !nisa.reg) -> ()
func.func @registers(%a: memref<1x1xi64, "sbuf">, %b: memref<1x1xi32, "sbuf">) {
  %r = "nisa.load_register"(%a) {engine = "sync"} : (memref<1x1xi64, "sbuf">) -> !nisa.reg
  "nisa.store_register"(%b, %r) {engine = "tensor"} : (memref<1x1xi32, "sbuf">, !nisa.reg) -> ()
  return
}

// device_print of a PSUM tile (any space can be printed).
// CHECK-LABEL: func.func @device_print
// CHECK: "nisa.device_print"(%{{.*}}) {prefix = "acc: "} : (memref<128x512xf32, "psum">) -> ()
func.func @device_print(%p: memref<128x512xf32, "psum">) {
  "nisa.device_print"(%p) {prefix = "acc: "} : (memref<128x512xf32, "psum">) -> ()
  return
}

}
