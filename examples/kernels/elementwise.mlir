// A NISA kernel: out = (a + b) * 0.5 on a 128 x 512 fp32 tile, staged through SBUF.
// Run: scripts/example.sh   (or: sundial-translate examples/kernels/elementwise.mlir --disassemble)
module attributes {sundial.target = "cayman"} {
  func.func @add_half(%a: memref<128x512xf32, "hbm">, %b: memref<128x512xf32, "hbm">,
                      %out: memref<128x512xf32, "hbm">) {
    %sa = "nisa.alloc"() {name = "a_tile"} : () -> memref<128x512xf32, "sbuf">
    %sb = "nisa.alloc"() {name = "b_tile"} : () -> memref<128x512xf32, "sbuf">
    "nisa.dma_copy"(%sa, %a) {dge_mode = "unknown"} : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
    "nisa.dma_copy"(%sb, %b) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
    "nisa.tensor_tensor_arith"(%sa, %sa, %sb) {op = "add", engine = "vector"}
        : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_arith"(%sa, %sa) {op0 = "mult", imm0 = 5.000000e-01 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
    "nisa.dma_copy"(%out, %sa) : (memref<128x512xf32, "hbm">, memref<128x512xf32, "sbuf">) -> ()
    return
  }
}
