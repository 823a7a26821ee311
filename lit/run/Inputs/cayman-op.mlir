// A kernel whose op needs NeuronCore v3 (cayman); it names no target of its own.
module {
  func.func @transpose(%t: memref<1024x64xf16, "hbm">, %idx: memref<32x1xui32, "sbuf">, %d: memref<64x32xf16, "sbuf">) {
    %g = "nisa.ap"(%t, %idx) {pattern = array<i64: 64, 32, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<1024x64xf16, "hbm">, memref<32x1xui32, "sbuf">) -> memref<32x64xf16, "hbm">
    "nisa.dma_gather_transpose"(%d, %g) {axes = array<i64: 1, 0>} : (memref<64x32xf16, "sbuf">, memref<32x64xf16, "hbm">) -> ()
    return
  }
}
