// Input of errors.mlir: an activation on mariana, whose ACTIVATE2 opcode 0x25 has no field table.
module attributes {sundial.target = "mariana"} {
  func.func @act(%o: memref<128x64xf32, "hbm">) {
    %x = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    %y = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    "nisa.memset"(%x) {value = 1.0 : f32, engine = "vector"} : (memref<128x64xf32, "sbuf">) -> ()
    "nisa.activation"(%y, %x) {op = "relu", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    "nisa.dma_copy"(%o, %y) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">) -> ()
    return
  }
}
