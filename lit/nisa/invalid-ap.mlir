// nisa.ap rules: [step, num] pairs, result shape and space, contiguous partitions, bounds,
// reinterpretation, and the indirection operands.
// RUN: sundial-opt %s -split-input-file -verify-diagnostics

// The pattern is a list of [step, num] pairs.
func.func @odd_pattern(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'pattern': expected [step, num] pairs, got 3 values (rule: pattern pairs)}}
  %v = "nisa.ap"(%t) {pattern = array<i64: 64, 128, 1>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">) -> memref<128x64xf32, "sbuf">
  return
}

// -----

// Every num is at least 1.
func.func @zero_num(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'pattern': dimension 1 has num 0; every num must be at least 1 (rule: pattern pairs)}}
  %v = "nisa.ap"(%t) {pattern = array<i64: 64, 128, 1, 0>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x64xf32, "hbm">) -> memref<128x64xf32, "hbm">
  return
}

// -----

// An access pattern composes with an access pattern (ops-views.mlir), but not with an
// indirect one: its addresses depend on the index values.
func.func @nested(%t: memref<1024x64xf32, "hbm">, %i: memref<128x1xui32, "sbuf">) {
  %v = "nisa.ap"(%t, %i) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<1024x64xf32, "hbm">, memref<128x1xui32, "sbuf">) -> memref<128x64xf32, "hbm">
  // expected-error@+1 {{operand 'tensor': cannot specify an access pattern on an indirect access pattern, whose addresses depend on the index values (rule: no nested ap)}}
  %w = "nisa.ap"(%v) {pattern = array<i64: 64, 128, 1, 32>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x64xf32, "hbm">) -> memref<128x32xf32, "hbm">
  return
}

// -----

// The result is a tile.
func.func @result_tile(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{result: tile must name its memory space}}
  %v = "nisa.ap"(%t) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x64xf32, "hbm">) -> memref<128x64xf32>
  return
}

// -----

// The result's shape is the pattern's nums.
func.func @shape(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{result shape 128x64 must equal the pattern's nums 128x32 (rule: ap shape)}}
  %v = "nisa.ap"(%t) {pattern = array<i64: 64, 128, 1, 32>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">) -> memref<128x64xf32, "sbuf">
  return
}

// -----

// The result stays in the tensor's memory space.
func.func @space(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{result memory space "hbm" must be the tensor's ("sbuf") (rule: ap space)}}
  %v = "nisa.ap"(%t) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">) -> memref<128x64xf32, "hbm">
  return
}

// -----

// A vector offset and a scalar offset cannot both be given.
func.func @two_offsets(%t: memref<1024x64xf32, "hbm">, %i: memref<128x1xui32, "sbuf">, %s: memref<1x1xi32, "sbuf">) {
  // expected-error@+1 {{give at most one of 'vector_offset' and 'scalar_offset' (rule: one indirection)}}
  %v = "nisa.ap"(%t, %i, %s) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 1>}
      : (memref<1024x64xf32, "hbm">, memref<128x1xui32, "sbuf">, memref<1x1xi32, "sbuf">) -> memref<128x64xf32, "hbm">
  return
}

// -----

// indirect_dim names a dimension of the pattern.
func.func @indirect_dim_range(%t: memref<1024x64xf32, "hbm">, %i: memref<128x1xui32, "sbuf">) {
  // expected-error@+1 {{attribute 'indirect_dim': 2 is not a dimension of the 2-D pattern (rule: indirect dim)}}
  %v = "nisa.ap"(%t, %i) {pattern = array<i64: 64, 128, 1, 64>, indirect_dim = 2, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<1024x64xf32, "hbm">, memref<128x1xui32, "sbuf">) -> memref<128x64xf32, "hbm">
  return
}

// -----

// indirect_dim means nothing without an offset operand.
func.func @indirect_dim_alone(%t: memref<1024x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'indirect_dim' needs 'vector_offset' or 'scalar_offset' (rule: indirect dim)}}
  %v = "nisa.ap"(%t) {pattern = array<i64: 64, 128, 1, 64>, indirect_dim = 1, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<1024x64xf32, "hbm">) -> memref<128x64xf32, "hbm">
  return
}

// -----

// One index per element of the indirect dimension.
func.func @vector_offset_size(%t: memref<1024x64xf32, "hbm">, %i: memref<64x1xui32, "sbuf">) {
  // expected-error@+1 {{operand 'vector_offset' (64x1) must hold one index per element of indirect dimension 0 (128) (rule: vector offset size)}}
  %v = "nisa.ap"(%t, %i) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<1024x64xf32, "hbm">, memref<64x1xui32, "sbuf">) -> memref<128x64xf32, "hbm">
  return
}

// -----

// Offsets are integer indices.
func.func @vector_offset_dtype(%t: memref<1024x64xf32, "hbm">, %i: memref<128x1xf32, "sbuf">) {
  // expected-error@+1 {{operand 'vector_offset': dtype f32 is not legal here (legal: i32, i64, ui16, ui32, ui64) (rule: operand dtype)}}
  %v = "nisa.ap"(%t, %i) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<1024x64xf32, "hbm">, memref<128x1xf32, "sbuf">) -> memref<128x64xf32, "hbm">
  return
}

// -----

// A reinterpreting pattern must divide a partition row: 3 bf16 (6 bytes) are no whole f32s.
func.func @reinterpret(%t: memref<128x3xbf16, "sbuf">) {
  // expected-error@+1 {{result dtype does not divide a partition row of the tensor (rule: ap reinterpret)}}
  %v = "nisa.ap"(%t) {pattern = array<i64: 1, 128, 1, 1>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x3xbf16, "sbuf">) -> memref<128x1xf32, "sbuf">
  return
}

// -----

// On chip, the first pair walks whole partitions: its step is the tensor's row length.
func.func @partition_step(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'pattern': the partition step must be the tensor's free size (64 elements), got 32; partitions are accessed contiguously (rule: partition step)}}
  %v = "nisa.ap"(%t) {pattern = array<i64: 32, 64, 1, 32>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">) -> memref<64x32xf32, "sbuf">
  return
}

// -----

// Starting at partition 100, 64 partitions run past the tensor's 128.
func.func @partition_bounds(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{access covers partitions 100..164 but the tensor has 128 (rule: ap bounds)}}
  %v = "nisa.ap"(%t) {pattern = array<i64: 64, 64, 1, 64>, offset = 6400, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">) -> memref<64x64xf32, "sbuf">
  return
}

// -----

// Element bounds of an HBM pattern (row 128 of a 128-row tensor).
func.func @element_bounds(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{access pattern reaches element 8255 but the tensor has 8192 elements of f32 (rule: ap bounds)}}
  %v = "nisa.ap"(%t) {pattern = array<i64: 64, 128, 1, 64>, offset = 64, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x64xf32, "hbm">) -> memref<128x64xf32, "hbm">
  return
}

// -----

// A negative step walking below element 0.
func.func @negative_bounds(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{access pattern reaches element -63 but the tensor has 8192 elements of f32 (rule: ap bounds)}}
  %v = "nisa.ap"(%t) {pattern = array<i64: 64, 1, -1, 64>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x64xf32, "hbm">) -> memref<1x64xf32, "hbm">
  return
}
