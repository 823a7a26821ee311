// --pass-pipeline: a pipeline mixing Sundial's Rust pass and upstream passes, the Rust pass's
// target option, and every kind of pipeline error (syntax, unknown pass, unknown option, bad
// option value, repeated option), each exiting non-zero with a message.

// A valid pipeline runs and prints the module.
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-verify{target=cayman},cse,canonicalize)' | FileCheck %s
// RUN: sundial-opt %s -pass-pipeline='builtin.module(sundial-verify)' | FileCheck %s
// CHECK-LABEL: func.func @count
// CHECK: "nisa.nonzero_with_count"

// The target option overrides the module's target: nonzero_with_count is v3+.
// RUN: not sundial-opt %s --pass-pipeline='builtin.module(sundial-verify{target=sunda})' 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: pass-pipeline.mlir:[[@LINE+21]]:3: error: 'nisa.nonzero_with_count' op is not available on sunda (NeuronCore v2); it needs cayman (v3) or newer (rule: target)

// A syntax error points at the offset.
// RUN: not sundial-opt %s --pass-pipeline='builtin.module(cse' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: sundial-opt: error: invalid pass pipeline at offset 18: expected ')'

// An unknown pass.
// RUN: not sundial-opt %s --pass-pipeline='builtin.module(frobnicate)' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: 'frobnicate': {{.*}}'frobnicate' does not refer to a registered pass or pass pipeline

// An option the Rust pass does not have, a bad value, and an option given twice.
// RUN: not sundial-opt %s --pass-pipeline='builtin.module(sundial-verify{level=3})' 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: error: pass 'sundial-verify' has no option 'level' (options: target, phase)
// RUN: not sundial-opt %s --pass-pipeline='builtin.module(sundial-verify{target=trn2})' 2>&1 | FileCheck %s --check-prefix=VALUE
// VALUE: error: pass 'sundial-verify' option 'target': invalid value 'trn2' (expected one of sunda|cayman|mariana)
// RUN: not sundial-opt %s --pass-pipeline='builtin.module(sundial-verify{target=sunda target=cayman})' 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: pass 'sundial-verify' option 'target' is given twice

// The input: a v3 op in a v3 module.
module attributes {sundial.target = "cayman"} {
func.func @count(%dst: memref<16x65xi32, "sbuf">, %src: memref<16x64xf32, "sbuf">) {
  "nisa.nonzero_with_count"(%dst, %src) : (memref<16x65xi32, "sbuf">, memref<16x64xf32, "sbuf">) -> ()
  return
}
}
