// A function whose body branches (two blocks): not a straight-line kernel.
module {
  func.func @branchy(%a: memref<4xf32, "hbm">) {
    cf.br ^next
  ^next:
    return
  }
}
