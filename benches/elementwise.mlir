// The elementwise benchmark kernel of issue 11 "Measured": out = (a + b) * scale on a
// 128 x 4096 fp32 tensor, staged through SBUF (two loads, an add on Vector, a multiply by
// an immediate, one store). benches/run_vs_numpy.py times it against NumPy.
module attributes {sundial.target = "mariana"} {
  func.func @add_scale(%a: memref<128x4096xf32, "hbm">, %b: memref<128x4096xf32, "hbm">,
                       %out: memref<128x4096xf32, "hbm">) {
    %ta = "nisa.alloc"() {name = "a"} : () -> memref<128x4096xf32, "sbuf">
    %tb = "nisa.alloc"() {name = "b"} : () -> memref<128x4096xf32, "sbuf">
    "nisa.dma_copy"(%ta, %a) : (memref<128x4096xf32, "sbuf">, memref<128x4096xf32, "hbm">) -> ()
    "nisa.dma_copy"(%tb, %b) : (memref<128x4096xf32, "sbuf">, memref<128x4096xf32, "hbm">) -> ()
    "nisa.tensor_tensor_arith"(%ta, %ta, %tb) {op = "add", engine = "vector"}
        : (memref<128x4096xf32, "sbuf">, memref<128x4096xf32, "sbuf">, memref<128x4096xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_arith"(%ta, %ta) {op0 = "mult", imm0 = 1.250000e-01 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<128x4096xf32, "sbuf">, memref<128x4096xf32, "sbuf">) -> ()
    "nisa.dma_copy"(%out, %ta) : (memref<128x4096xf32, "hbm">, memref<128x4096xf32, "sbuf">) -> ()
    return
  }
}
