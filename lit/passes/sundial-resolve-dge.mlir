// sundial-resolve-dge: every DMA's dge_mode "unknown" becomes swdge, hwdge or none.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-resolve-dge)' | FileCheck %s
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-resolve-dge{enable-dge-on-io-dma=false})' | FileCheck %s --check-prefix=NOIO
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-resolve-dge{dge-par-min-size=32})' | FileCheck %s --check-prefix=PAR
// Idempotent.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-resolve-dge)' -o %t.1
// RUN: sundial-opt %t.1 -split-input-file --pass-pipeline='builtin.module(sundial-resolve-dge)' -o %t.2
// RUN: diff %t.1 %t.2

module attributes {sundial.target = "cayman"} {
// The default rule: hwdge when 128 partitions are accessed, the dtypes match and no side is
// in PSUM; else none. An explicit mode is kept (swdge is legal for a static copy, just never
// chosen). With enable-dge-on-io-dma=false, copies touching kernel arguments get none; with
// dge-par-min-size=32, 64 accessed partitions are enough.
// CHECK-LABEL: func.func @copies
// CHECK: "nisa.dma_copy"{{.*}}{dge_mode = "hwdge"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">)
// CHECK: "nisa.dma_copy"{{.*}}{dge_mode = "none"} : (memref<64x64xf32, "sbuf">
// CHECK: "nisa.dma_copy"{{.*}}{dge_mode = "none"} : (memref<128x64xbf16, "sbuf">, memref<128x64xf32, "hbm">)
// CHECK: "nisa.dma_copy"{{.*}}{dge_mode = "none"} : (memref<128x64xf32, "psum">
// CHECK: "nisa.dma_copy"{{.*}}{dge_mode = "swdge"}
// CHECK: "nisa.dma_copy"{{.*}}{dge_mode = "hwdge"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">)
// NOIO-LABEL: func.func @copies
// NOIO: "nisa.dma_copy"{{.*}}{dge_mode = "none"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">)
// NOIO: "nisa.dma_copy"{{.*}}{dge_mode = "hwdge"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">)
// PAR-LABEL: func.func @copies
// PAR: "nisa.dma_copy"{{.*}}{dge_mode = "hwdge"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">)
// PAR: "nisa.dma_copy"{{.*}}{dge_mode = "hwdge"} : (memref<64x64xf32, "sbuf">
func.func @copies(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "hbm">, %d64: memref<64x64xf32, "sbuf">,
                  %s64: memref<64x64xf32, "hbm">, %b: memref<128x64xbf16, "sbuf">, %p: memref<128x64xf32, "psum">) {
  "nisa.dma_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  "nisa.dma_copy"(%d64, %s64) {dge_mode = "unknown"} : (memref<64x64xf32, "sbuf">, memref<64x64xf32, "hbm">) -> ()
  "nisa.dma_copy"(%b, %s) : (memref<128x64xbf16, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  "nisa.dma_copy"(%p, %s) : (memref<128x64xf32, "psum">, memref<128x64xf32, "hbm">) -> ()
  "nisa.dma_copy"(%d, %s) {dge_mode = "swdge"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  %t = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.dma_copy"(%t, %t) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// A vector_offset gather goes to swdge (HWDGE cannot gather); an explicit none (the DMA
// engine's own indirect descriptor) is kept; a register offset takes the default rule.
// CHECK-LABEL: func.func @indirect
// CHECK: "nisa.dma_copy_indirect"{{.*}}{dge_mode = "swdge"}
// CHECK: "nisa.dma_copy_indirect"{{.*}}{dge_mode = "none"}
// CHECK: "nisa.dma_copy_indirect"{{.*}}{dge_mode = "hwdge"}
func.func @indirect(%table: memref<4096x128xbf16, "hbm">, %idx: memref<128x1xi32, "sbuf">, %rows: memref<128x128xbf16, "sbuf">,
                    %sidx: memref<1x1xi32, "sbuf">) {
  %g = "nisa.ap"(%table, %idx) {pattern = array<i64: 128, 128, 1, 128>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<4096x128xbf16, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x128xbf16, "hbm">
  "nisa.dma_copy_indirect"(%rows, %g) : (memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "hbm">) -> ()
  "nisa.dma_copy_indirect"(%rows, %g) {dge_mode = "none"} : (memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "hbm">) -> ()
  %r = "nisa.load_register"(%sidx) {engine = "dma"} : (memref<1x1xi32, "sbuf">) -> !nisa.reg
  %s = "nisa.ap"(%table, %r) {pattern = array<i64: 128, 128, 1, 128>, operandSegmentSizes = array<i32: 1, 0, 1>}
      : (memref<4096x128xbf16, "hbm">, !nisa.reg) -> memref<128x128xbf16, "hbm">
  "nisa.dma_copy_indirect"(%rows, %s) : (memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "hbm">) -> ()
  return
}

// A static transpose takes hwdge when its shape allows (first dim 16, last <= 128), else
// none; the indirect transpose takes swdge.
// CHECK-LABEL: func.func @transposes
// CHECK: "nisa.dma_transpose"{{.*}}dge_mode = "hwdge"{{.*}} : (memref<64x16xbf16, "sbuf">, memref<16x64xbf16, "hbm">)
// CHECK: "nisa.dma_transpose"{{.*}}dge_mode = "none"{{.*}} : (memref<64x128xbf16, "sbuf">, memref<128x64xbf16, "hbm">)
// CHECK: "nisa.dma_gather_transpose"{{.*}}dge_mode = "swdge"
func.func @transposes(%d: memref<64x16xbf16, "sbuf">, %s: memref<16x64xbf16, "hbm">,
                      %d2: memref<64x128xbf16, "sbuf">, %s2: memref<128x64xbf16, "hbm">,
                      %t: memref<1024x64xf16, "hbm">, %idx: memref<32x1xui32, "sbuf">, %dt: memref<64x32xf16, "sbuf">) {
  "nisa.dma_transpose"(%d, %s) {axes = array<i64: 1, 0>} : (memref<64x16xbf16, "sbuf">, memref<16x64xbf16, "hbm">) -> ()
  "nisa.dma_transpose"(%d2, %s2) {axes = array<i64: 1, 0>} : (memref<64x128xbf16, "sbuf">, memref<128x64xbf16, "hbm">) -> ()
  %g = "nisa.ap"(%t, %idx) {pattern = array<i64: 64, 32, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<1024x64xf16, "hbm">, memref<32x1xui32, "sbuf">) -> memref<32x64xf16, "hbm">
  "nisa.dma_gather_transpose"(%dt, %g) {axes = array<i64: 1, 0>} : (memref<64x32xf16, "sbuf">, memref<32x64xf16, "hbm">) -> ()
  return
}

// A 4-byte transpose of the hwdge shape is none: the hardware DGE moves 2-byte elements.
// CHECK-LABEL: func.func @transpose_four_bytes
// CHECK: "nisa.dma_transpose"{{.*}}dge_mode = "none"{{.*}} : (memref<64x16xi32, "sbuf">, memref<16x64xi32, "hbm">)
func.func @transpose_four_bytes(%d4: memref<64x16xi32, "sbuf">, %s4: memref<16x64xi32, "hbm">) {
  "nisa.dma_transpose"(%d4, %s4) {axes = array<i64: 1, 0>} : (memref<64x16xi32, "sbuf">, memref<16x64xi32, "hbm">) -> ()
  return
}
}

// -----

// sunda (NeuronCore v2) has no DGE: everything is none.
// CHECK-LABEL: func.func @sunda
// CHECK: "nisa.dma_copy"{{.*}}{dge_mode = "none"}
// CHECK: "nisa.dma_copy_indirect"{{.*}}{dge_mode = "none"}
module attributes {sundial.target = "sunda"} {
func.func @sunda(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "hbm">,
                 %table: memref<4096x64xf32, "hbm">, %idx: memref<128x1xi32, "sbuf">) {
  "nisa.dma_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  %g = "nisa.ap"(%table, %idx) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<4096x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "hbm">
  "nisa.dma_copy_indirect"(%d, %g) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  return
}
}
// CHECK-NOT: dge_mode = "unknown"

// -----

// hwdge is triggered from the Sync or Scalar engine [docs]: a DMA naming one resolves to
// hwdge even below dge-par-min-size (16 partitions here: the kernel asked for the hardware
// DGE); a DMA on engine dma keeps the default rule (none).
// CHECK-LABEL: func.func @triggers
// CHECK: "nisa.dma_copy"(%{{.*}}, %arg0) {dge_mode = "hwdge", engine = "sync"}
// CHECK: "nisa.dma_copy"(%arg1, %{{.*}}) {dge_mode = "hwdge", engine = "scalar"}
// CHECK: "nisa.dma_copy"(%arg1, %{{.*}}) {dge_mode = "none"}
module attributes {sundial.target = "cayman"} {
func.func @triggers(%h: memref<16x64xbf16, "hbm">, %o: memref<16x64xbf16, "hbm">) {
  %s = "nisa.alloc"() : () -> memref<16x64xbf16, "sbuf">
  "nisa.dma_copy"(%s, %h) {engine = "sync"} : (memref<16x64xbf16, "sbuf">, memref<16x64xbf16, "hbm">) -> ()
  "nisa.dma_copy"(%o, %s) {engine = "scalar"} : (memref<16x64xbf16, "hbm">, memref<16x64xbf16, "sbuf">) -> ()
  "nisa.dma_copy"(%o, %s) : (memref<16x64xbf16, "hbm">, memref<16x64xbf16, "sbuf">) -> ()
  return
}
}
