// A barrier of cores [0, 1] on a grid of three programs (lit/run/grid.mlir).
module attributes {sundial.grid = array<i64: 3>} {
  func.func @k(%x: memref<4xf32, "hbm">) {
    %pid = "nisa.program_id"() {axis = 0} : () -> index
    "nisa.core_barrier"(%x) {cores = array<i64: 0, 1>} : (memref<4xf32, "hbm">) -> ()
    return
  }
}
