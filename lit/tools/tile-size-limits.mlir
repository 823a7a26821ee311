// Tiles whose sizes do not fit in 64 bits are refused by type, with the operand's name, before
// any rule multiplies their sizes (nothing wraps, nothing panics): an element count that
// overflows, and a byte size above 2^63 - 1 (the largest signed 64-bit byte offset) even when
// the element count fits. An access pattern whose extent overflows even 128-bit arithmetic is
// an error too. Each is an error at the op with exit status 1 and no output.
// RUN: sundial-opt %s -split-input-file -verify-diagnostics
// RUN: not sundial-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: not sundial-opt %s -split-input-file 2>/dev/null | count 0

// CHECK: tile-size-limits.mlir:[[@LINE+8]]:3: error: 'nisa.tensor_copy' op operand 'src': tile memref<128x36028797018963968xf32, "sbuf"> is too large: 4611686018427387904 elements of 4 bytes are 18446744073709551616 bytes, more than the 9223372036854775807 a 64-bit byte offset can address (rule: tile size)
// CHECK: tile-size-limits.mlir:[[@LINE+16]]:3: error: 'nisa.dma_copy' op operand 'src': tile memref<2305843009213693952xf32, "hbm"> is too large: 2305843009213693952 elements of 4 bytes are 9223372036854775808 bytes
// CHECK: tile-size-limits.mlir:[[@LINE+24]]:3: error: 'nisa.dma_copy' op operand 'src': tile has too many elements (element count overflows 64 bits): memref<9223372036854775807x9223372036854775807xf32, "hbm"> (rule: tile size)
// CHECK: tile-size-limits.mlir:[[@LINE+33]]:3: error: 'nisa.tensor_copy' op operand 'src': tile has too many elements

// 2^62 elements of f32: the element count fits in 64 bits, the byte size (2^64) does not.
func.func @bytes_overflow_u64(%d: memref<128x64xf32, "sbuf">, %s: memref<128x36028797018963968xf32, "sbuf">) {
  // expected-error@+1 {{operand 'src': tile memref<128x36028797018963968xf32, "sbuf"> is too large: 4611686018427387904 elements of 4 bytes are 18446744073709551616 bytes, more than the 9223372036854775807 a 64-bit byte offset can address (rule: tile size)}}
  "nisa.tensor_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x36028797018963968xf32, "sbuf">) -> ()
  return
}

// -----

// 2^63 bytes: one more than a signed 64-bit byte offset can address.
func.func @bytes_overflow_i64(%d: memref<128x64xf32, "hbm">, %s: memref<2305843009213693952xf32, "hbm">) {
  // expected-error@+1 {{operand 'src': tile memref<2305843009213693952xf32, "hbm"> is too large: 2305843009213693952 elements of 4 bytes are 9223372036854775808 bytes}}
  "nisa.dma_copy"(%d, %s) : (memref<128x64xf32, "hbm">, memref<2305843009213693952xf32, "hbm">) -> ()
  return
}

// -----

// The largest static dimensions MLIR accepts: the element count itself overflows.
func.func @elements_overflow(%d: memref<128x64xf32, "hbm">, %s: memref<9223372036854775807x9223372036854775807xf32, "hbm">) {
  // expected-error@+1 {{operand 'src': tile has too many elements (element count overflows 64 bits): memref<9223372036854775807x9223372036854775807xf32, "hbm"> (rule: tile size)}}
  "nisa.dma_copy"(%d, %s) : (memref<128x64xf32, "hbm">, memref<9223372036854775807x9223372036854775807xf32, "hbm">) -> ()
  return
}

// -----

// On chip too: tiles are logical before partition tiling (any partition count), but their
// element count must still fit in 64 bits.
func.func @on_chip(%d: memref<128x64xf32, "sbuf">, %s: memref<9223372036854775807x9223372036854775807xf32, "sbuf">) {
  // expected-error@+1 {{operand 'src': tile has too many elements (element count overflows 64 bits): memref<9223372036854775807x9223372036854775807xf32, "sbuf"> (rule: tile size)}}
  "nisa.tensor_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<9223372036854775807x9223372036854775807xf32, "sbuf">) -> ()
  return
}

// -----

// The largest i64 tile is accepted: (2^60 - 1) x 8 = 2^63 - 8 bytes.
func.func @largest(%d: memref<1152921504606846975xi64, "hbm">, %s: memref<1152921504606846975xi64, "hbm">) {
  "nisa.dma_copy"(%d, %s) : (memref<1152921504606846975xi64, "hbm">, memref<1152921504606846975xi64, "hbm">) -> ()
  return
}

// -----

// An access pattern of five [step, num] pairs of 2^63 - 1: its extent overflows even 128-bit
// arithmetic. The first broken rule is reported; the bounds arithmetic saturates instead of
// overflowing (the verifier panicked here).
func.func @ap_extent_overflow(%t: memref<4x8xf32, "hbm">) {
  // expected-error@+1 {{result shape 4x8 must equal the pattern's nums 9223372036854775807x9223372036854775807x9223372036854775807x9223372036854775807x9223372036854775807 (rule: ap shape)}}
  %v = "nisa.ap"(%t) {pattern = array<i64: 9223372036854775807, 9223372036854775807, 9223372036854775807, 9223372036854775807, 9223372036854775807, 9223372036854775807, 9223372036854775807, 9223372036854775807, 9223372036854775807, 9223372036854775807>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<4x8xf32, "hbm">) -> memref<4x8xf32, "hbm">
  return
}
