// Op rules of the GpSimd NISA ops: generated patterns, partition reductions, gathers,
// local_gather, nonzero_with_count and sequence_bounds.
// RUN: sundial-opt %s -split-input-file -verify-diagnostics

// iota's pattern is [step, num] pairs ...
func.func @iota_pairs(%t: memref<128x8xi32, "sbuf">) {
  // expected-error@+1 {{attribute 'pattern': expected [step, num] pairs, got 3 values (rule: pattern pairs)}}
  "nisa.iota"(%t) {pattern = array<i64: 1, 8, 1>} : (memref<128x8xi32, "sbuf">) -> ()
  return
}

// -----

// ... with nums of at least 1 ...
func.func @iota_num(%t: memref<128x8xi32, "sbuf">) {
  // expected-error@+1 {{attribute 'pattern': every num must be at least 1 (rule: pattern pairs)}}
  "nisa.iota"(%t) {pattern = array<i64: 1, 8, 1, 0>} : (memref<128x8xi32, "sbuf">) -> ()
  return
}

// -----

// ... generating exactly dst's free elements.
func.func @iota_covers(%t: memref<128x8xi32, "sbuf">) {
  // expected-error@+1 {{attribute 'pattern' generates 16 elements per partition but 'dst' has 8 (rule: pattern covers dst)}}
  "nisa.iota"(%t) {pattern = array<i64: 1, 16>} : (memref<128x8xi32, "sbuf">) -> ()
  return
}

// -----

// affine_select writes on_true's shape.
func.func @affine_select_shape(%d: memref<128x64xf32, "sbuf">, %s: memref<128x32xf32, "sbuf">) {
  // expected-error@+1 {{operand 'on_true' has shape 128x32 but 'dst' has shape 128x64 (rule: shapes agree)}}
  "nisa.tensor_scalar_affine_select"(%d, %s) {pattern = array<i64: 1, 64>, on_false_value = 0.0 : f32}
      : (memref<128x64xf32, "sbuf">, memref<128x32xf32, "sbuf">) -> ()
  return
}

// -----

// A partition reduction keeps the free shape.
func.func @partition_reduce(%d: memref<1x32xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{operand 'dst' (1x32) must keep the free shape of 'src' (128x64) (rule: partition reduce shape)}}
  "nisa.cross_lane_reduce_arith"(%d, %s) {op = "max"} : (memref<1x32xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// The bit-vector partition reductions are the firmware's or, and, xor (no shifts).
func.func @partition_reduce_shift(%d: memref<1x64xi32, "sbuf">, %s: memref<128x64xi32, "sbuf">) {
  // expected-error@+1 {{attribute 'op': alu_op "logical_shift_left" is not allowed here (allowed: bitwise_or|bitwise_and|bitwise_xor)}}
  "nisa.cross_lane_reduce_bitvec"(%d, %s) {op = "logical_shift_left"} : (memref<1x64xi32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
  return
}

// -----

// GpSimd cannot read PSUM: a partition reduction of a PSUM tile (the matmul result) needs a
// copy to SBUF first (sundial-legalize-partition-reduce inserts it for the generic form).
func.func @partition_reduce_psum(%d: memref<1x64xf32, "sbuf">, %s: memref<128x64xf32, "psum">) {
  // expected-error@+1 {{operand 'src': GpSimd engine cannot access PSUM (rule: gpsimd psum)}}
  "nisa.cross_lane_reduce_arith"(%d, %s) {op = "add"} : (memref<1x64xf32, "sbuf">, memref<128x64xf32, "psum">) -> ()
  return
}

// -----

// Nor write it.
func.func @partition_reduce_psum_dst(%d: memref<1x64xi32, "psum">, %s: memref<128x64xi32, "sbuf">) {
  // expected-error@+1 {{operand 'dst': GpSimd engine cannot access PSUM (rule: gpsimd psum)}}
  "nisa.cross_lane_reduce_bitvec"(%d, %s) {op = "bitwise_and"} : (memref<1x64xi32, "psum">, memref<128x64xi32, "sbuf">) -> ()
  return
}

// -----

// nc_n_gather: one index per dst element ...
func.func @gather_shape(%d: memref<128x64xf32, "sbuf">, %data: memref<128x256xf32, "sbuf">, %i: memref<128x32xui32, "sbuf">) {
  // expected-error@+1 {{operand 'indices' has shape 128x32 but 'dst' has shape 128x64 (rule: shapes agree)}}
  "nisa.gather"(%d, %data, %i) : (memref<128x64xf32, "sbuf">, memref<128x256xf32, "sbuf">, memref<128x32xui32, "sbuf">) -> ()
  return
}

// -----

// ... within the same partitions ...
func.func @gather_partitions(%d: memref<128x64xf32, "sbuf">, %data: memref<64x256xf32, "sbuf">, %i: memref<128x64xui32, "sbuf">) {
  // expected-error@+1 {{operand 'data' has 64 partitions but 'dst' has 128 (rule: partitions agree)}}
  "nisa.gather"(%d, %data, %i) : (memref<128x64xf32, "sbuf">, memref<64x256xf32, "sbuf">, memref<128x64xui32, "sbuf">) -> ()
  return
}

// -----

// ... without converting.
func.func @gather_dtype(%d: memref<128x64xf32, "sbuf">, %data: memref<128x256xbf16, "sbuf">, %i: memref<128x64xui32, "sbuf">) {
  // expected-error@+1 {{operand 'data' (bf16) and 'dst' (f32) must have the same dtype (rule: same dtype)}}
  "nisa.gather"(%d, %data, %i) : (memref<128x64xf32, "sbuf">, memref<128x256xbf16, "sbuf">, memref<128x64xui32, "sbuf">) -> ()
  return
}

// -----

// local_gather works on whole 16-partition cores.
func.func @local_gather_cores(%d: memref<8x4xf32, "sbuf">, %s: memref<8x32xf32, "sbuf">, %i: memref<8x4xui16, "sbuf">) {
  // expected-error@+1 {{operand 'src_buffer' has 8 partitions; local_gather works on whole 16-partition GpSimd cores (rule: partitions % 16 == 0)}}
  "nisa.indirect_copy"(%d, %s, %i) : (memref<8x4xf32, "sbuf">, memref<8x32xf32, "sbuf">, memref<8x4xui16, "sbuf">) -> ()
  return
}

// -----

// num_elem_per_idx is a power of two up to 32.
func.func @local_gather_elems(%d: memref<16x12xf32, "sbuf">, %s: memref<16x32xf32, "sbuf">, %i: memref<16x4xui16, "sbuf">) {
  // expected-error@+1 {{attribute 'num_elem_per_idx': 3 is not one of 1, 2, 4, 8, 16, 32 (rule: num_elem_per_idx)}}
  "nisa.indirect_copy"(%d, %s, %i) {num_elem_per_idx = 3} : (memref<16x12xf32, "sbuf">, memref<16x32xf32, "sbuf">, memref<16x4xui16, "sbuf">) -> ()
  return
}

// -----

// At most 4096 indices per core (16 partitions x 512 is too many).
func.func @local_gather_indices(%d: memref<16x512xf32, "sbuf">, %s: memref<16x32xf32, "sbuf">, %i: memref<16x512xui16, "sbuf">) {
  // expected-error@+1 {{operand 'index' gives 8192 indices per core; at most 4096 (rule: indices per core)}}
  "nisa.indirect_copy"(%d, %s, %i) : (memref<16x512xf32, "sbuf">, memref<16x32xf32, "sbuf">, memref<16x512xui16, "sbuf">) -> ()
  return
}

// -----

// A huge index tile is reported, not an arithmetic overflow (this used to crash).
func.func @local_gather_huge(%d: memref<16x8xf32, "sbuf">, %s: memref<16x4xf32, "sbuf">, %i: memref<1x576460752303423488xui16, "sbuf">) {
  // expected-error@+1 {{operand 'index' gives 9223372036854775807 indices per core; at most 4096 (rule: indices per core)}}
  "nisa.indirect_copy"(%d, %s, %i) {num_elem_per_idx = 2}
      : (memref<16x8xf32, "sbuf">, memref<16x4xf32, "sbuf">, memref<1x576460752303423488xui16, "sbuf">) -> ()
  return
}

// -----

// num_valid_indices counts indices of one core.
func.func @local_gather_valid(%d: memref<16x4xf32, "sbuf">, %s: memref<16x32xf32, "sbuf">, %i: memref<16x4xui16, "sbuf">) {
  // expected-error@+1 {{attribute 'num_valid_indices': 65 exceeds the 64 indices per core (rule: num_valid_indices)}}
  "nisa.indirect_copy"(%d, %s, %i) {num_valid_indices = 65} : (memref<16x4xf32, "sbuf">, memref<16x32xf32, "sbuf">, memref<16x4xui16, "sbuf">) -> ()
  return
}

// -----

// Each partition of dst receives num_valid_indices x num_elem_per_idx elements (NKI's NumPy
// reference: np.take(src, idx[:num_valid], axis=1)); by default every slot of the core is valid.
func.func @local_gather_shape(%d: memref<16x8xf32, "sbuf">, %s: memref<16x32xf32, "sbuf">, %i: memref<16x4xui16, "sbuf">) {
  // expected-error@+1 {{operand 'dst' has 8 elements per partition; expected a multiple of 2 from 128 (num_valid_indices x num_elem_per_idx) to 128 (every index slot of a core x num_elem_per_idx) (rule: local_gather shape)}}
  "nisa.indirect_copy"(%d, %s, %i) {num_elem_per_idx = 2} : (memref<16x8xf32, "sbuf">, memref<16x32xf32, "sbuf">, memref<16x4xui16, "sbuf">) -> ()
  return
}

// -----

// Fewer elements than the valid indices need.
func.func @local_gather_short(%d: memref<16x6xf32, "sbuf">, %s: memref<16x32xf32, "sbuf">, %i: memref<16x1xui16, "sbuf">) {
  // expected-error@+1 {{operand 'dst' has 6 elements per partition; expected a multiple of 1 from 10 (num_valid_indices x num_elem_per_idx) to 16 (every index slot of a core x num_elem_per_idx) (rule: local_gather shape)}}
  "nisa.indirect_copy"(%d, %s, %i) {num_valid_indices = 10} : (memref<16x6xf32, "sbuf">, memref<16x32xf32, "sbuf">, memref<16x1xui16, "sbuf">) -> ()
  return
}

// -----

// A partial group of num_elem_per_idx elements.
func.func @local_gather_group(%d: memref<16x42xf32, "sbuf">, %s: memref<16x32xf32, "sbuf">, %i: memref<16x1xui16, "sbuf">) {
  // expected-error@+1 {{operand 'dst' has 42 elements per partition; expected a multiple of 4 from 40 (num_valid_indices x num_elem_per_idx) to 64 (every index slot of a core x num_elem_per_idx) (rule: local_gather shape)}}
  "nisa.indirect_copy"(%d, %s, %i) {num_elem_per_idx = 4, num_valid_indices = 10} : (memref<16x42xf32, "sbuf">, memref<16x32xf32, "sbuf">, memref<16x1xui16, "sbuf">) -> ()
  return
}

// -----

// nonzero_with_count writes the count in one extra slot.
func.func @nonzero_slot(%d: memref<16x64xi32, "sbuf">, %s: memref<16x64xf32, "sbuf">) {
  // expected-error@+1 {{operand 'dst' needs one more element per partition than 'src' for the count (64 vs 64) (rule: nonzero count slot)}}
  "nisa.nonzero_with_count"(%d, %s) : (memref<16x64xi32, "sbuf">, memref<16x64xf32, "sbuf">) -> ()
  return
}

// -----

// sequence_bounds reads one row of segment ids ...
func.func @sequence_bounds_rows(%d: memref<1x2x64xi32, "sbuf">, %s: memref<2x64xi32, "sbuf">) {
  // expected-error@+1 {{operand 'segment_ids' must have 1 partition, got 2 (rule: sequence_bounds P == 1)}}
  "nisa.sequence_bounds"(%d, %s) : (memref<1x2x64xi32, "sbuf">, memref<2x64xi32, "sbuf">) -> ()
  return
}

// -----

// ... and writes (1, 2, n).
func.func @sequence_bounds_shape(%d: memref<1x64x2xi32, "sbuf">, %s: memref<1x64xi32, "sbuf">) {
  // expected-error@+1 {{operand 'dst' must be 1x2x64 ([start, end) per element), got 1x64x2 (rule: sequence_bounds shape)}}
  "nisa.sequence_bounds"(%d, %s) : (memref<1x64x2xi32, "sbuf">, memref<1x64xi32, "sbuf">) -> ()
  return
}

// -----

// The generic partition reduction: axis 0 plus trailing free axes only.
func.func @generic_partition_reduce_axes(%d: memref<1x16xf32, "sbuf">, %s: memref<128x8x16xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'axis': [0, 1] must be the partition axis 0 plus trailing contiguous free axes of the 3-D 'src' (rule: partition reduce axes)}}
  "nisa.tensor_partition_reduce"(%d, %s) {op = "add", axis = array<i64: 0, 1>} : (memref<1x16xf32, "sbuf">, memref<128x8x16xf32, "sbuf">) -> ()
  return
}

// -----

// Its dst is [1, kept free dims...].
func.func @generic_partition_reduce_shape(%d: memref<1x8x1xf32, "sbuf">, %s: memref<128x8x16xf32, "sbuf">) {
  // expected-error@+1 {{operand 'dst' must be 1x8 for axes [0, 2] of 128x8x16, got 1x8x1 (rule: partition reduce shape)}}
  "nisa.tensor_partition_reduce"(%d, %s) {op = "add", axis = array<i64: 0, 2>} : (memref<1x8x1xf32, "sbuf">, memref<128x8x16xf32, "sbuf">) -> ()
  return
}

// -----

// Bit-vector reductions work on integer bits.
func.func @generic_partition_reduce_bitvec(%d: memref<1x8xf32, "sbuf">, %s: memref<128x8xf32, "sbuf">) {
  // expected-error@+1 {{a bit-vector reduction needs integer tiles (rule: bitvec reduce dtype)}}
  "nisa.tensor_partition_reduce"(%d, %s) {op = "bitwise_or"} : (memref<1x8xf32, "sbuf">, memref<128x8xf32, "sbuf">) -> ()
  return
}

// -----

// The PRNG state transfers take uint32 tiles (NKI rand_get_state / rand_set_state: "must be
// uint32"), as the emulator reads and writes them.
func.func @rand_get_state_int32(%st: memref<128x6xi32, "sbuf">) {
  // expected-error@+1 {{operand 'dst': dtype i32 is not legal here (legal: ui32) (rule: operand dtype)}}
  "nisa.rand_get_state"(%st) : (memref<128x6xi32, "sbuf">) -> ()
  return
}

// -----

func.func @rand_set_state_int32(%st: memref<128x24xi32, "sbuf">) {
  // expected-error@+1 {{operand 'src': dtype i32 is not legal here (legal: ui32) (rule: operand dtype)}}
  "nisa.rand_set_state"(%st) {engine = "vector"} : (memref<128x24xi32, "sbuf">) -> ()
  return
}
