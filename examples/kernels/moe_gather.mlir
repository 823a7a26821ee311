// An MoE dispatch/combine step: gather the 128 tokens routed to one expert from a 4096 x 256
// bf16 token table (DMA_INDIRECT1D 0xbb through an index tile, one token row per partition),
// scale each by its fp32 router weight (a per-partition tensor_scalar operand), and scatter the
// scaled rows back into the output at the same token rows (0xbb in the save direction).
// Run: scripts/example.sh   (or: sundial-translate examples/kernels/moe_gather.mlir --disassemble)
module attributes {sundial.target = "cayman"} {
  func.func @moe_gather(%tokens: memref<4096x256xbf16, "hbm">, %route: memref<128x1xi32, "hbm">,
                        %gate: memref<128x1xf32, "hbm">, %out: memref<4096x256xbf16, "hbm">) {
    %idx = "nisa.alloc"() {name = "route"} : () -> memref<128x1xi32, "sbuf">
    %w = "nisa.alloc"() {name = "gate"} : () -> memref<128x1xf32, "sbuf">
    %rows = "nisa.alloc"() {name = "rows"} : () -> memref<128x256xbf16, "sbuf">
    "nisa.dma_copy"(%idx, %route) : (memref<128x1xi32, "sbuf">, memref<128x1xi32, "hbm">) -> ()
    "nisa.dma_copy"(%w, %gate) : (memref<128x1xf32, "sbuf">, memref<128x1xf32, "hbm">) -> ()
    %picked = "nisa.ap"(%tokens, %idx) {pattern = array<i64: 256, 128, 1, 256>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<4096x256xbf16, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x256xbf16, "hbm">
    "nisa.dma_copy_indirect"(%rows, %picked) : (memref<128x256xbf16, "sbuf">, memref<128x256xbf16, "hbm">) -> ()
    "nisa.tensor_scalar_arith"(%rows, %rows, %w) {op0 = "mult", engine = "vector", operandSegmentSizes = array<i32: 1, 1, 1, 0>}
        : (memref<128x256xbf16, "sbuf">, memref<128x256xbf16, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    %back = "nisa.ap"(%out, %idx) {pattern = array<i64: 256, 128, 1, 256>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<4096x256xbf16, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x256xbf16, "hbm">
    "nisa.dma_copy_indirect"(%back, %rows) : (memref<128x256xbf16, "hbm">, memref<128x256xbf16, "sbuf">) -> ()
    return
  }
}
