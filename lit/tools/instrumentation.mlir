// --mlir-timing and --mlir-print-ir-after-all report on stderr; the output is unchanged.
// RUN: sundial-opt %s --mlir-timing 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING
// RUN: sundial-opt %s --mlir-timing --pass-pipeline='builtin.module(sundial-verify)' 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING-PASS
// RUN: sundial-opt %s --mlir-print-ir-after-all --pass-pipeline='builtin.module(sundial-verify,cse)' 2>&1 >/dev/null | FileCheck %s --check-prefix=IR
// RUN: sundial-opt %s --mlir-timing --mlir-print-ir-after-all --pass-pipeline='builtin.module(cse)' 2>/dev/null | FileCheck %s

// TIMING: Execution time report
// TIMING: Total Execution Time:
// TIMING-PASS: Execution time report
// TIMING-PASS: SundialVerify

// IR: // -----// IR Dump After SundialVerify (sundial-verify) ('builtin.module' operation) //----- //
// IR-NEXT: module {
// IR: "nisa.tensor_copy"
// IR: // -----// IR Dump After CSE (cse) ('builtin.module' operation) //----- //

// CHECK-LABEL: func.func @copy
// CHECK: "nisa.tensor_copy"
// The input: one valid op.
func.func @copy(%t: memref<128x64xf32, "sbuf">) {
  "nisa.tensor_copy"(%t, %t) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}
