// Ops of dialects Sundial does not load are errors (no -allow-unregistered-dialect), with the
// position of the op and exit status 1.
// RUN: not sundial-opt %s 2>&1 | FileCheck %s
// RUN: sundial-opt %s -verify-diagnostics

// CHECK: unknown-dialect.mlir:[[@LINE+3]]:{{[0-9]+}}: error: operation being parsed with an unregistered dialect
func.func @f() {
  // expected-error@+1 {{operation being parsed with an unregistered dialect}}
  "tosa.identity"() : () -> ()
  return
}
