// A directive without its closing braces (input of verify-diagnostics.mlir).
func.func @f() {
  // expected-error@+1 {{unterminated
  return
}
