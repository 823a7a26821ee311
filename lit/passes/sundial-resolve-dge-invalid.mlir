// sundial-resolve-dge's refusals: explicit modes an op cannot use, and unknown modes nothing
// can decide.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-resolve-dge)' -verify-diagnostics

module attributes {sundial.target = "cayman"} {
func.func @hwdge(%table: memref<4096x128xbf16, "hbm">, %idx: memref<128x1xi32, "sbuf">, %rows: memref<128x128xbf16, "sbuf">,
                 %b: memref<128x64xbf16, "sbuf">, %s: memref<128x64xf32, "hbm">, %p: memref<128x64xf32, "psum">) {
  %g = "nisa.ap"(%table, %idx) {pattern = array<i64: 128, 128, 1, 128>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<4096x128xbf16, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x128xbf16, "hbm">
  // expected-error@+1 {{'nisa.dma_copy_indirect' op dge_mode "hwdge" is not legal here: hwdge: hwdge cannot gather or scatter (a vector_offset access pattern needs swdge, or none for the DMA engine's own descriptor) (rule: dge mode)}}
  "nisa.dma_copy_indirect"(%rows, %g) {dge_mode = "hwdge"} : (memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "hbm">) -> ()
  // expected-error@+1 {{dge_mode "hwdge" is not legal here: hwdge: hwdge does not cast (f32 to bf16) (rule: dge mode)}}
  "nisa.dma_copy"(%b, %s) {dge_mode = "hwdge"} : (memref<128x64xbf16, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  // expected-error@+1 {{dge_mode "hwdge" is not legal here: hwdge: hwdge cannot access PSUM (rule: dge mode)}}
  "nisa.dma_copy"(%p, %s) {dge_mode = "hwdge"} : (memref<128x64xf32, "psum">, memref<128x64xf32, "hbm">) -> ()
  return
}
}

// -----

module attributes {sundial.target = "cayman"} {
func.func @transposes(%d: memref<64x128xbf16, "sbuf">, %s: memref<128x64xbf16, "hbm">,
                      %t: memref<1024x64xf16, "hbm">, %idx: memref<32x1xui32, "sbuf">, %dt: memref<64x32xf16, "sbuf">,
                      %idx16: memref<32x1xui16, "sbuf">) {
  // expected-error@+1 {{'nisa.dma_transpose' op dge_mode "hwdge" is not legal here: hwdge: the hwdge transpose needs the first dimension 16 (2-D) or 1, 2, 4, 8 or 16 with first x second-to-last a multiple of 16 (3-D, 4-D), got 128x64 (rule: dge mode)}}
  "nisa.dma_transpose"(%d, %s) {axes = array<i64: 1, 0>, dge_mode = "hwdge"} : (memref<64x128xbf16, "sbuf">, memref<128x64xbf16, "hbm">) -> ()
  // expected-error@+1 {{dge_mode "swdge" is not legal here: swdge: a static dma_transpose takes none or hwdge (the swdge transpose is the indirect one, dma_gather_transpose) (rule: dge mode)}}
  "nisa.dma_transpose"(%d, %s) {axes = array<i64: 1, 0>, dge_mode = "swdge"} : (memref<64x128xbf16, "sbuf">, memref<128x64xbf16, "hbm">) -> ()
  %g = "nisa.ap"(%t, %idx) {pattern = array<i64: 64, 32, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<1024x64xf16, "hbm">, memref<32x1xui32, "sbuf">) -> memref<32x64xf16, "hbm">
  // expected-error@+1 {{'nisa.dma_gather_transpose' op dge_mode "none" is not legal here: an indirect transpose needs swdge (rule: dge mode)}}
  "nisa.dma_gather_transpose"(%dt, %g) {axes = array<i64: 1, 0>, dge_mode = "none"} : (memref<64x32xf16, "sbuf">, memref<32x64xf16, "hbm">) -> ()
  // expected-error@+1 {{dge_mode "hwdge" is not legal here: an indirect transpose needs swdge (rule: dge mode)}}
  "nisa.dma_gather_transpose"(%dt, %g) {axes = array<i64: 1, 0>, dge_mode = "hwdge"} : (memref<64x32xf16, "sbuf">, memref<32x64xf16, "hbm">) -> ()
  %h = "nisa.ap"(%t, %idx16) {pattern = array<i64: 64, 32, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<1024x64xf16, "hbm">, memref<32x1xui16, "sbuf">) -> memref<32x64xf16, "hbm">
  // expected-error@+1 {{'nisa.dma_gather_transpose' op dge_mode: no legal DGE mode: the swdge indirect transpose needs 2-D uint32 SBUF indices with a multiple of 16 rows in [16, 128], got 32x1 of ui16 (rule: dge mode)}}
  "nisa.dma_gather_transpose"(%dt, %h) {axes = array<i64: 1, 0>} : (memref<64x32xf16, "sbuf">, memref<32x64xf16, "hbm">) -> ()
  return
}
}

// -----

// No DGE on sunda.
module attributes {sundial.target = "sunda"} {
func.func @sunda(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{'nisa.dma_copy' op dge_mode "hwdge" is not legal here: hwdge: sunda (NeuronCore v2) has no DGE Sundial can encode; use none (rule: dge mode)}}
  "nisa.dma_copy"(%d, %s) {dge_mode = "hwdge"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  return
}
}

// -----

// Without a target an unknown mode cannot be resolved (explicit modes are kept).
func.func @no_target(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "hbm">) {
  "nisa.dma_copy"(%d, %s) {dge_mode = "hwdge"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  // expected-error@+1 {{'nisa.dma_copy' op dge_mode "unknown" cannot be resolved without a target (DGE differs by NeuronCore version): name one with sundial.target or the pass option target (rule: dge needs a target)}}
  "nisa.dma_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// A DMA triggered from Sync needs hwdge, which does not cast.
module attributes {sundial.target = "cayman"} {
func.func @trigger_cast(%h: memref<128x64xf32, "hbm">) {
  %s = "nisa.alloc"() : () -> memref<128x64xbf16, "sbuf">
  // expected-error@+1 {{'nisa.dma_copy' op dge_mode: no legal DGE mode: engine "sync" triggers the DMA through hwdge, but hwdge does not cast (f32 to bf16) (rule: dge mode)}}
  "nisa.dma_copy"(%s, %h) {engine = "sync"} : (memref<128x64xbf16, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  return
}
}
