// An rmsnorm-style reduction: y = x * rsqrt(mean(x^2) + eps) * gamma on 128 rows of 512 fp32
// (one row per partition): the squares on Vector, their free-axis sum (TENSOR_REDUCE 0x42),
// the per-row scale (mean and eps, then rsqrt) as tensor_scalar immediates, and the row scale
// applied as a per-partition operand. (rsqrt is unary: its immediate is not read.)
// Run: scripts/example.sh   (or: sundial-translate examples/kernels/rmsnorm.mlir --disassemble)
module attributes {sundial.target = "cayman"} {
  func.func @rmsnorm(%x: memref<128x512xf32, "hbm">, %gamma: memref<128x512xf32, "hbm">,
                     %out: memref<128x512xf32, "hbm">) {
    %xs = "nisa.alloc"() {name = "x"} : () -> memref<128x512xf32, "sbuf">
    %g = "nisa.alloc"() {name = "gamma"} : () -> memref<128x512xf32, "sbuf">
    %sq = "nisa.alloc"() {name = "squares"} : () -> memref<128x512xf32, "sbuf">
    %ss = "nisa.alloc"() {name = "sum_sq"} : () -> memref<128x1xf32, "sbuf">
    %rstd = "nisa.alloc"() {name = "rstd"} : () -> memref<128x1xf32, "sbuf">
    "nisa.dma_copy"(%xs, %x) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
    "nisa.dma_copy"(%g, %gamma) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
    "nisa.tensor_tensor_arith"(%sq, %xs, %xs) {op = "mult", engine = "vector"}
        : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
    "nisa.tensor_reduce_arith"(%ss, %sq) {op = "add", axis = array<i64: 1>}
        : (memref<128x1xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_arith"(%rstd, %ss) {op0 = "mult", imm0 = 1.953125e-03 : f32, op1 = "add", imm1 = 9.99999997e-07 : f32,
                                            engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_arith"(%rstd, %rstd) {op0 = "rsqrt", imm0 = 0.000000e+00 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_arith"(%sq, %xs, %rstd) {op0 = "mult", engine = "vector", operandSegmentSizes = array<i32: 1, 1, 1, 0>}
        : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.tensor_tensor_arith"(%sq, %sq, %g) {op = "mult", engine = "vector"}
        : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
    "nisa.dma_copy"(%out, %sq) : (memref<128x512xf32, "hbm">, memref<128x512xf32, "sbuf">) -> ()
    return
  }
}
