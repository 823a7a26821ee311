// The rmsnorm-style benchmark kernel of issue 11 "Measured": for x of 128 x 4096 fp32 and a
// gamma row of 4096, y = x / sqrt(mean(x^2 along the row) + eps) * gamma. As an NKI kernel
// writes it: the sum of squares is the Scalar engine's activation(square) with its add
// reduction, the row statistic two tensor_scalar ops (scale and eps, then rsqrt), the
// normalisation a tensor_scalar by the [P, 1] statistic and a tensor_tensor by gamma, which is
// loaded once per partition through a partition-step-0 access pattern.
// benches/run_vs_numpy.py times it against NumPy.
module attributes {sundial.target = "mariana"} {
  func.func @rmsnorm(%x: memref<128x4096xf32, "hbm">, %gamma: memref<1x4096xf32, "hbm">,
                     %out: memref<128x4096xf32, "hbm">) {
    %tx = "nisa.alloc"() {name = "x"} : () -> memref<128x4096xf32, "sbuf">
    "nisa.dma_copy"(%tx, %x) : (memref<128x4096xf32, "sbuf">, memref<128x4096xf32, "hbm">) -> ()
    %bg = "nisa.ap"(%gamma) {pattern = array<i64: 0, 128, 1, 4096>, operandSegmentSizes = array<i32: 1, 0, 0>}
        : (memref<1x4096xf32, "hbm">) -> memref<128x4096xf32, "hbm">
    %tg = "nisa.alloc"() {name = "gamma"} : () -> memref<128x4096xf32, "sbuf">
    "nisa.dma_copy"(%tg, %bg) : (memref<128x4096xf32, "sbuf">, memref<128x4096xf32, "hbm">) -> ()
    %sq = "nisa.alloc"() {name = "squares"} : () -> memref<128x4096xf32, "sbuf">
    %ss = "nisa.alloc"() {name = "sum_sq"} : () -> memref<128x1xf32, "sbuf">
    "nisa.activation"(%sq, %tx, %ss) {op = "square", reduce_op = "add", reduce_cmd = "reset_reduce",
                                      operandSegmentSizes = array<i32: 1, 1, 0, 0, 1>}
        : (memref<128x4096xf32, "sbuf">, memref<128x4096xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    %r = "nisa.alloc"() {name = "rstd"} : () -> memref<128x1xf32, "sbuf">
    "nisa.tensor_scalar_arith"(%r, %ss) {op0 = "mult", imm0 = 2.44140625e-04 : f32, op1 = "add", imm1 = 9.99999997e-07 : f32,
                                         operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_arith"(%r, %r) {op0 = "rsqrt", imm0 = 0.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_arith"(%tx, %tx, %r) {op0 = "mult", operandSegmentSizes = array<i32: 1, 1, 1, 0>}
        : (memref<128x4096xf32, "sbuf">, memref<128x4096xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.tensor_tensor_arith"(%tx, %tx, %tg) {op = "mult", engine = "vector"}
        : (memref<128x4096xf32, "sbuf">, memref<128x4096xf32, "sbuf">, memref<128x4096xf32, "sbuf">) -> ()
    "nisa.dma_copy"(%out, %tx) : (memref<128x4096xf32, "hbm">, memref<128x4096xf32, "sbuf">) -> ()
    return
  }
}
