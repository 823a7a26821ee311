// Driver conventions: stdin, -o, round trip, single-dash long options.
// RUN: sundial-opt %s | FileCheck %s
// RUN: sundial-opt < %s | FileCheck %s
// RUN: sundial-opt %s -o %t && FileCheck %s < %t
// RUN: sundial-opt %s | sundial-opt | FileCheck %s
// RUN: sundial-opt -mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @copy
// CHECK: "nisa.tensor_copy"(%{{.*}}, %{{.*}}) {engine = "vector"}
// GENERIC: "func.func"()
func.func @copy(%a: memref<128x64xbf16, "sbuf">, %b: memref<128x64xf32, "sbuf">) {
  "nisa.tensor_copy"(%b, %a) {engine = "vector"} : (memref<128x64xf32, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
  return
}
