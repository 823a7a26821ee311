// A diagnostic that no expectation announces (input of verify-diagnostics.mlir).
func.func @f() {
  "tosa.identity"() : () -> ()
  return
}
