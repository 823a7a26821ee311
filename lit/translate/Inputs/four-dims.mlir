// Input of errors.mlir: a tensor_tensor whose operand view has four free dimensions that do
// not merge, which the three-dimensional TENSOR3D slot cannot hold.
module attributes {sundial.target = "cayman"} {
  func.func @four_dims() {
    %t = "nisa.alloc"() : () -> memref<128x4x4x4x8xf32, "sbuf">
    %o = "nisa.alloc"() : () -> memref<128x2x2x2x4xf32, "sbuf">
    %v = "nisa.ap"(%t) {pattern = array<i64: 512, 128, 128, 2, 32, 2, 8, 2, 1, 4>, operandSegmentSizes = array<i32: 1, 0, 0>}
        : (memref<128x4x4x4x8xf32, "sbuf">) -> memref<128x2x2x2x4xf32, "sbuf">
    "nisa.memset"(%t) {value = 1.0 : f32, engine = "vector"} : (memref<128x4x4x4x8xf32, "sbuf">) -> ()
    "nisa.tensor_tensor_arith"(%o, %v, %v) {op = "add", engine = "vector"}
        : (memref<128x2x2x2x4xf32, "sbuf">, memref<128x2x2x2x4xf32, "sbuf">, memref<128x2x2x2x4xf32, "sbuf">) -> ()
    return
  }
}
