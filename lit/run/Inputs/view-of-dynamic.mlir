// A view of a dynamic access pattern that no strided pattern addresses (loop-errors.mlir).
module attributes {sundial.target = "cayman"} {
  func.func @view_of_dynamic(%x: memref<8x8xf32, "hbm">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    scf.for %i = %c0 to %c2 step %c1 {
      %blk = "nisa.dynamic_ap"(%x, %i) {pattern = array<i64: 8, 2, 1, 4>}
          : (memref<8x8xf32, "hbm">, index) -> memref<2x4xf32, "hbm">
      %flat = "nisa.reshape"(%blk) : (memref<2x4xf32, "hbm">) -> memref<8xf32, "hbm">
      // Elements 1..4 of the two 4-element rows, which lie 8 apart.
      %mid = "nisa.slice"(%flat) {start = array<i64: 1>} : (memref<8xf32, "hbm">) -> memref<4xf32, "hbm">
    }
    return
  }
}
