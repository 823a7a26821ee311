// -verify-diagnostics passes when every diagnostic is expected (this file), and fails with
// exit status 1 when an expectation is not met, when a diagnostic is unexpected, or when a
// directive is malformed; `@below`, `@above` and absolute line designators work.
// RUN: sundial-opt %s -split-input-file -verify-diagnostics
// RUN: not sundial-opt %S/Inputs/diag-missing.mlir -verify-diagnostics 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not sundial-opt %S/Inputs/diag-unexpected.mlir -verify-diagnostics 2>&1 | FileCheck %s --check-prefix=UNEXPECTED
// RUN: not sundial-opt %S/Inputs/diag-malformed.mlir -verify-diagnostics 2>&1 | FileCheck %s --check-prefix=MALFORMED

// MISSING: diag-missing.mlir:3:6: error: expected error "this error is never produced" was not produced
// UNEXPECTED: diag-unexpected.mlir:3:{{[0-9]+}}: error: unexpected error: operation being parsed with an unregistered dialect
// MALFORMED: diag-malformed.mlir:3:6: error: expected '}}' to close the expected message

// The diagnostic is on the line below the directive.
func.func @below() {
  // expected-error@below {{operation being parsed with an unregistered dialect}}
  "tosa.identity"() : () -> ()
  return
}

// -----

// The diagnostic is on the line above the directive.
func.func @above() {
  "tosa.identity"() : () -> ()
  // expected-error@above {{operation being parsed with an unregistered dialect}}
  return
}

// -----

// An absolute line number.
// expected-error@34 {{operation being parsed with an unregistered dialect}}
func.func @absolute() {
  "tosa.identity"() : () -> ()
  return
}
