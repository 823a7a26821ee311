module attributes {sundial.grid = array<i64: 64, 32>} {
  func.func @k(%x: memref<4xf32, "hbm">) {
    return
  }
}
