// An expectation that no diagnostic meets (input of verify-diagnostics.mlir).
func.func @f() {
  // expected-error@+1 {{this error is never produced}}
  return
}
