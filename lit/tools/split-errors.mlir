// --split-input-file with errors: every chunk is still checked (both errors are reported, at
// their lines in this file), a valid chunk in between does not hide them, and the exit status
// is 1 with nothing on stdout.
// RUN: not sundial-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: not sundial-opt %s -split-input-file 2>/dev/null | count 0

// CHECK: split-errors.mlir:[[@LINE+4]]:3: error: 'nisa.tensor_copy' op unknown attribute 'mode'
// CHECK: split-errors.mlir:[[@LINE+18]]:3: error: 'nisa.memset' op attribute 'value': NaN is not a legal immediate
// Chunk 1: an unknown attribute.
func.func @bad_attr(%t: memref<128x64xf32, "sbuf">) {
  "nisa.tensor_copy"(%t, %t) {mode = "fast"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// Chunk 2: valid.
func.func @fine(%t: memref<128x64xf32, "sbuf">) {
  return
}

// -----

// Chunk 3: a NaN immediate.
func.func @bad_value(%t: memref<128x64xf32, "sbuf">) {
  "nisa.memset"(%t) {value = 0x7FC00000 : f32} : (memref<128x64xf32, "sbuf">) -> ()
  return
}
