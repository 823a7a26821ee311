// Rendered diagnostics: the first line stays mlir-opt's `file:line:col: error: message`;
// below it a source snippet labels the op and, where the message names one, the attribute at
// its own column; the rule is a note and the fix a help line. Plain text when piped or with
// --color=never; ANSI colour with --color=always; JSON lines with --diagnostics-format=json.
// RUN: not sundial-opt %s 2>&1 | FileCheck %s
// RUN: not sundial-opt %s --color=never 2>&1 | FileCheck %s
// RUN: not sundial-opt %s -color=always 2>&1 | FileCheck %s --check-prefix=COLOR
// RUN: not sundial-opt %s --diagnostics-format=json 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: not sundial-opt %s -diagnostics-format=json 2>/dev/null | count 0
// RUN: not sundial-opt %s --diagnostics-format=xml 2>&1 | FileCheck %s --check-prefix=BADFMT
// RUN: not sundial-opt %s --color=sometimes 2>&1 | FileCheck %s --check-prefix=BADCOLOR
// RUN: not sundial-opt --pass-pipeline='builtin.module(nope)' --diagnostics-format=json %s 2>&1 | FileCheck %s --check-prefix=JSONPIPE

// CHECK: diagnostics-render.mlir:[[@LINE+18]]:3: error: 'nisa.tensor_copy' op engine "dma" is not legal for this op (legal: vector, scalar, gpsimd, or unknown) (rule: engine)
// CHECK-NEXT: ┌─ {{.*}}diagnostics-render.mlir:[[@LINE+18]]:5
// CHECK:      [[@LINE+16]] │   "nisa.tensor_copy"(%a, %b) {
// CHECK-NEXT:    │   ------------------ of this op
// CHECK-NEXT: [[@LINE+15]] │     engine = "dma"} : (memref<64x4xf32, "sbuf">, memref<64x4xf32, "sbuf">) -> ()
// CHECK-NEXT:    │     ^^^^^^ this attribute
// CHECK:         = rule: engine
// CHECK-NEXT:    = help: use one of: vector, scalar, gpsimd, or unknown
// CHECK-NOT: {{.}}[{{[0-9]+}}m

// COLOR: diagnostics-render.mlir:[[@LINE+8]]:3: error: 'nisa.tensor_copy'
// COLOR: {{.}}[31m^^^^^^

// JSON: {"col":3,"file":"{{.*}}diagnostics-render.mlir","help":"use one of: vector, scalar, gpsimd, or unknown","line":[[@LINE+5]],"message":"'nisa.tensor_copy' op engine \"dma\" is not legal for this op (legal: vector, scalar, gpsimd, or unknown) (rule: engine)","notes":[],"rule":"engine","severity":"error"}
// BADFMT: error: invalid value 'xml' for '--diagnostics-format <FORMAT>'
// BADCOLOR: error: invalid value 'sometimes' for '--color <WHEN>'
// JSONPIPE: {"col":null,"file":"{{.*}}","help":null,"line":null,"message":"{{.*}}nope{{.*}}","notes":[],"rule":null,"severity":"error"}
func.func @k(%a: memref<64x4xf32, "sbuf">, %b: memref<64x4xf32, "sbuf">) {
  "nisa.tensor_copy"(%a, %b) {
    engine = "dma"} : (memref<64x4xf32, "sbuf">, memref<64x4xf32, "sbuf">) -> ()
  return
}
