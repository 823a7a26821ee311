// Ops of dialects Sundial does not load are errors (no -allow-unregistered-dialect), with the
// position of the op and exit status 1.
// RUN: not sundial-opt %s 2>&1 | FileCheck %s
// RUN: sundial-opt %s -verify-diagnostics

// CHECK: unknown-dialect.mlir:[[@LINE+4]]:{{[0-9]+}}: error: operation being parsed with an unregistered dialect
// A TOSA op: TOSA is not among the dialects Sundial registers.
func.func @f() {
  // expected-error@+1 {{operation being parsed with an unregistered dialect}}
  "tosa.identity"() : () -> ()
  return
}
