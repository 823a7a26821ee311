// Output is written only on success: -o does not create (or overwrite) a file when the input
// has an error, and the exit status is 1.
// RUN: rm -f %t.out
// RUN: not sundial-opt %s -o %t.out 2>&1 | FileCheck %s
// RUN: not ls %t.out
// RUN: echo keep > %t.kept
// RUN: not sundial-opt %s -o %t.kept
// RUN: FileCheck %s --check-prefix=KEPT < %t.kept

// CHECK: output-on-error.mlir:[[@LINE+6]]:3: error: 'nisa.tensor_copy' op engine "dma" is not legal for this op
// KEPT: keep

// A valid op followed by an invalid one: nothing is printed at all.
func.func @f(%t: memref<128x64xf32, "sbuf">) {
  "nisa.tensor_copy"(%t, %t) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_copy"(%t, %t) {engine = "dma"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}
