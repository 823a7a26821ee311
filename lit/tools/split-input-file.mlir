// --split-input-file: each chunk is parsed and verified on its own, outputs are joined with
// the `// -----` marker, and diagnostics keep the line numbers of the original file.
// RUN: sundial-opt %s -split-input-file | FileCheck %s
// RUN: sundial-opt %s -split-input-file | sundial-opt -split-input-file | FileCheck %s
// Without the option the whole file is one module, so @first and @second are in one output.
// RUN: sundial-opt %s | FileCheck %s --check-prefix=WHOLE

// CHECK: module {
// CHECK-LABEL: func.func @first
// CHECK: "nisa.tensor_copy"
// CHECK: {{^}}}
// CHECK-NEXT: // -----
// CHECK-NEXT: module attributes {sundial.target = "cayman"} {
// CHECK-LABEL: func.func @second
// CHECK: "nisa.nonzero_with_count"

// WHOLE-NOT: // -----
// WHOLE: func.func @first
// WHOLE: func.func @second

// Chunk 1: no target.
func.func @first(%t: memref<128x64xf32, "sbuf">) {
  "nisa.tensor_copy"(%t, %t) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// Chunk 2: its own module, with a target.
module attributes {sundial.target = "cayman"} {
  func.func @second(%d: memref<16x65xi32, "sbuf">, %s: memref<16x64xf32, "sbuf">) {
    "nisa.nonzero_with_count"(%d, %s) : (memref<16x65xi32, "sbuf">, memref<16x64xf32, "sbuf">) -> ()
    return
  }
}
