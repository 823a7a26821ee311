func.func @f() {
  "bir.gather"() {data = {pattern = array<
// x
  index = 3>}} : () -> ()
  return
}
