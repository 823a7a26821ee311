// Input of errors.mlir: two functions with a body.
module attributes {sundial.target = "cayman"} {
  func.func @a() {
    return
  }
  func.func @b() {
    return
  }
}
