// --split-input-file parses each chunk on its own but at its line in this file: the printed
// locations (--mlir-print-debuginfo) of ops and block arguments are this file's, a location
// written in the input is kept, and diagnostics point into this file, also for the last chunk
// (parsed in place, up to the end of the buffer) and for input from stdin.
// RUN: sundial-opt %s -split-input-file -mlir-print-debuginfo | FileCheck %s
// RUN: printf 'func.func @f() {\n  return\n}\n// -----\n\nfunc' > %t.eof
// RUN: not sundial-opt %t.eof -split-input-file 2>&1 | FileCheck %s --check-prefix=EOF
// RUN: not sundial-opt -split-input-file < %t.eof 2>&1 | FileCheck %s --check-prefix=STDIN

// EOF: {{.*}}.eof:6:1: error: custom op 'func' is unknown
// STDIN: <stdin>:6:1: error: custom op 'func' is unknown

// CHECK: #loc2 = loc("-":[[@LINE+12]]:18)
// CHECK-LABEL: func.func @first
// CHECK: #loc1 = loc("-":[[@LINE+10]]:1)
// CHECK-NEXT: #loc3 = loc("-":[[@LINE+10]]:3)
// CHECK-NEXT: // -----
// CHECK-NEXT: #loc2 = loc("-":[[@LINE+14]]:19)
// CHECK-NEXT: #loc3 = loc("elsewhere.mlir":3:4)
// CHECK-LABEL: func.func @second
// CHECK: #loc1 = loc("-":[[@LINE+11]]:1)
// CHECK-NEXT: #loc4 = loc("-":[[@LINE+11]]:3)
// CHECK-NEXT: #loc5 = loc("-":[[@LINE+11]]:3)

func.func @first(%t: memref<128x64xf32, "sbuf">) {
  return
}

// -----

// The second chunk.
func.func @second(%t: memref<128x64xf32, "sbuf">, %u: memref<128x64xf32, "sbuf"> loc("elsewhere.mlir":3:4)) {
  "nisa.tensor_copy"(%t, %t) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}
