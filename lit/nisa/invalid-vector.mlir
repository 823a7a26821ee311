// Op rules of the Vector-engine NISA ops: reduce axes and shapes, top-8, range_select's fill,
// dropout, batch-norm statistics, quadrant shuffles and transposes.
// RUN: sundial-opt %s -split-input-file -verify-diagnostics

// A reduce axis listed twice.
func.func @axes_twice(%d: memref<128x1xf32, "sbuf">, %s: memref<128x4x16xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'axis': axis 2 is listed twice (rule: reduce axes)}}
  "nisa.tensor_reduce_arith"(%d, %s) {op = "add", axis = array<i64: 2, 2>} : (memref<128x1xf32, "sbuf">, memref<128x4x16xf32, "sbuf">) -> ()
  return
}

// -----

// The partition axis is never reduced.
func.func @axis_partition(%d: memref<128x1xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'axis': 0 is not a free axis of the 2-D 'data' (axis 0 is the partition dimension and is never reduced) (rule: reduce axes)}}
  "nisa.tensor_reduce_arith"(%d, %s) {op = "add", axis = array<i64: 0>} : (memref<128x1xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// Only the trailing free axes can be reduced.
func.func @axes_trailing(%d: memref<128x16xf32, "sbuf">, %s: memref<128x4x16xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'axis': only the trailing contiguous free axes can be reduced (rule: reduce axes)}}
  "nisa.tensor_reduce_arith"(%d, %s) {op = "add", axis = array<i64: 1>} : (memref<128x16xf32, "sbuf">, memref<128x4x16xf32, "sbuf">) -> ()
  return
}

// -----

// dst is data without (or with 1s for) the reduced axes.
func.func @reduce_shape(%d: memref<128x16xi32, "sbuf">, %s: memref<128x4x16xi32, "sbuf">) {
  // expected-error@+1 {{operand 'dst' has shape 128x16 but reducing axes [2] of 128x4x16 gives 128x4x1 (rule: reduce shape)}}
  "nisa.tensor_reduce_bitvec"(%d, %s) {op = "bitwise_or", axis = array<i64: 2>} : (memref<128x16xi32, "sbuf">, memref<128x4x16xi32, "sbuf">) -> ()
  return
}

// -----

// max8 writes 8 values per partition ...
func.func @max8_dst(%d: memref<128x4xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{operand 'dst' must hold 8 values per partition, got 4 (rule: max8 dst)}}
  "nisa.max8"(%d, %s) : (memref<128x4xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// ... from 8 to 16384 elements.
func.func @max8_src(%d: memref<128x8xf32, "sbuf">, %s: memref<128x4xf32, "sbuf">) {
  // expected-error@+1 {{operand 'src' must have 8 to 16384 elements per partition, got 4 (rule: max8 src)}}
  "nisa.max8"(%d, %s) : (memref<128x8xf32, "sbuf">, memref<128x4xf32, "sbuf">) -> ()
  return
}

// -----

// find_index8 looks up 8 values ...
func.func @find_index8_vals(%d: memref<128x8xui32, "sbuf">, %s: memref<128x64xf32, "sbuf">, %v: memref<128x4xf32, "sbuf">) {
  // expected-error@+1 {{operand 'vals' must hold 8 values per partition, got 4 (rule: 8 values)}}
  "nisa.find_index8"(%d, %s, %v) : (memref<128x8xui32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x4xf32, "sbuf">) -> ()
  return
}

// -----

// ... and writes 8 indices.
func.func @find_index8_dst(%d: memref<128x16xui32, "sbuf">, %s: memref<128x64xf32, "sbuf">, %v: memref<128x8xf32, "sbuf">) {
  // expected-error@+1 {{operand 'dst' must hold 8 indices per partition, got 16 (rule: 8 values)}}
  "nisa.find_index8"(%d, %s, %v) : (memref<128x16xui32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x8xf32, "sbuf">) -> ()
  return
}

// -----

// ... into a 2-D [P, 8] tile (the emulator writes exactly that; 2x4 per partition was accepted).
func.func @find_index8_dst_rank(%d: memref<128x2x4xui32, "sbuf">, %s: memref<128x64xf32, "sbuf">, %v: memref<128x8xf32, "sbuf">) {
  // expected-error@+1 {{operand 'dst' must be a [128, 8] tile, got 128x2x4 (rule: 8 values)}}
  "nisa.find_index8"(%d, %s, %v) : (memref<128x2x4xui32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x8xf32, "sbuf">) -> ()
  return
}

// -----

// The searched data has 8 to 16384 elements per partition.
func.func @find_index8_data(%d: memref<128x8xui16, "sbuf">, %s: memref<128x4xf32, "sbuf">, %v: memref<128x8xf32, "sbuf">) {
  // expected-error@+1 {{operand 'data' must have 8 to 16384 elements per partition, got 4 (rule: top-8 data)}}
  "nisa.find_index8"(%d, %s, %v) : (memref<128x8xui16, "sbuf">, memref<128x4xf32, "sbuf">, memref<128x8xf32, "sbuf">) -> ()
  return
}

// -----

// max8's dst is a 2-D [P, 8] tile too.
func.func @max8_dst_rank(%d: memref<128x2x4xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{operand 'dst' must be a [128, 8] tile, got 128x2x4 (rule: 8 values)}}
  "nisa.max8"(%d, %s) : (memref<128x2x4xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// match_replace8 rewrites data in place of dst.
func.func @match_replace_shape(%d: memref<128x32xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">, %v: memref<128x8xf32, "sbuf">) {
  // expected-error@+1 {{operand 'data' has shape 128x64 but 'dst' has shape 128x32 (rule: shapes agree)}}
  "nisa.max_index_and_match_replace"(%d, %s, %v) {imm_value = 0.0 : f32}
      : (memref<128x32xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x8xf32, "sbuf">) -> ()
  return
}

// -----

// range_select's start is an integer ...
func.func @range_select_frac(%d: memref<128x64xf32, "sbuf">, %b: memref<128x1xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'range_start': 1.5 is not an integer (rule: range_select start)}}
  "nisa.range_select"(%d, %d, %b, %b) {comp_op0 = "is_ge", comp_op1 = "is_lt", range_start = 1.5 : f32}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  return
}

// -----

// ... whose indices stay exact in fp32: the last one here is 16777154 + 63 = 2^24 + 1.
func.func @range_select_far(%d: memref<128x64xf32, "sbuf">, %b: memref<128x1xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'range_start': the indices reach 16777217, outside the exact fp32 range of +-2^24 (rule: range_select start)}}
  "nisa.range_select"(%d, %d, %b, %b) {comp_op0 = "is_ge", comp_op1 = "is_lt", range_start = 16777154 : i64}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  return
}

// -----

// range_select's max-reduce takes idle, reset_reduce or reduce.
func.func @range_select_cmd(%d: memref<128x64xf32, "sbuf">, %b: memref<128x1xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'reduce_cmd': range_select takes idle, reset_reduce or reduce, not reset (rule: max-reduce command)}}
  "nisa.range_select"(%d, %d, %b, %b) {comp_op0 = "is_ge", comp_op1 = "is_lt", reduce_cmd = "reset"}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  return
}

// -----

// range_select's fill value must be -FLT_MAX.
func.func @range_select_fill(%d: memref<128x64xf32, "sbuf">, %b: memref<128x1xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'on_false_value': fill_val in RangeSelect must be float MAX_NEG (-3.40282347e+38) (rule: range_select fill)}}
  "nisa.range_select"(%d, %d, %b, %b) {comp_op0 = "is_ge", comp_op1 = "is_lt", on_false_value = 0.0 : f32}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  return
}

// -----

// range_select's bounds are per-partition columns.
func.func @range_select_bounds(%d: memref<128x64xf32, "sbuf">, %b: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{operand 'bound0' must be a [128, 1] per-partition tile, got 128x64 (rule: per-partition operand)}}
  "nisa.range_select"(%d, %d, %b, %b) {comp_op0 = "is_ge", comp_op1 = "is_lt"}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// not_equal is not a RangeSelect comparison.
func.func @range_select_cmp(%d: memref<128x64xf32, "sbuf">, %b: memref<128x1xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'comp_op0': alu_op "not_equal" is not allowed here (allowed: is_equal|is_gt|is_ge|is_le|is_lt)}}
  "nisa.range_select"(%d, %d, %b, %b) {comp_op0 = "not_equal", comp_op1 = "is_lt"}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  return
}

// -----

// A dropout probability lies in [0, 1].
func.func @dropout_prob(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'prob': 1.5 is not a probability in [0, 1] (rule: dropout prob)}}
  "nisa.dropout"(%t, %t) {prob = 1.5 : f32} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// dropout needs prob or prob_tile.
func.func @dropout_no_prob(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{needs attribute 'prob' or operand 'prob_tile' (rule: immediate or tile)}}
  "nisa.dropout"(%t, %t) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// bn_stats reads at most 512 elements per partition ...
func.func @bn_stats_f(%d: memref<128x6xf32, "sbuf">, %s: memref<128x1024xf32, "sbuf">) {
  // expected-error@+1 {{operand 'data' has 1024 elements per partition; bn_stats takes at most 512 (rule: bn_stats F <= 512)}}
  "nisa.bn_stats"(%d, %s) : (memref<128x6xf32, "sbuf">, memref<128x1024xf32, "sbuf">) -> ()
  return
}

// -----

// ... and writes 6 statistics.
func.func @bn_stats_dst(%d: memref<128x2xf32, "sbuf">, %s: memref<128x512xf32, "sbuf">) {
  // expected-error@+1 {{operand 'dst' must hold 6 statistics per partition, got 2 (rule: bn_stats dst)}}
  "nisa.bn_stats"(%d, %s) : (memref<128x2xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
  return
}

// -----

// bn_aggr reads whole groups of 6 statistics ...
func.func @bn_aggr_input(%d: memref<128x2xf32, "sbuf">, %s: memref<128x8xf32, "sbuf">) {
  // expected-error@+1 {{operand 'data' must hold a multiple of 6 bn_stats values per partition (rule: bn_aggr input)}}
  "nisa.bn_aggr"(%d, %s) : (memref<128x2xf32, "sbuf">, memref<128x8xf32, "sbuf">) -> ()
  return
}

// -----

// ... and writes (mean, var).
func.func @bn_aggr_dst(%d: memref<128x6xf32, "sbuf">, %s: memref<128x12xf32, "sbuf">) {
  // expected-error@+1 {{operand 'dst' must hold (mean, var) per partition, got 6 values (rule: bn_aggr dst)}}
  "nisa.bn_aggr"(%d, %s) : (memref<128x6xf32, "sbuf">, memref<128x12xf32, "sbuf">) -> ()
  return
}

// -----

// Batch-norm statistics stay in their partitions.
func.func @bn_partitions(%d: memref<64x6xf32, "sbuf">, %s: memref<128x512xf32, "sbuf">) {
  // expected-error@+1 {{operand 'data' has 128 partitions but 'dst' has 64 (rule: partitions agree)}}
  "nisa.bn_stats"(%d, %s) : (memref<64x6xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
  return
}

// -----

// A shuffle mask has 32 entries (a table rule) ...
func.func @mask_size(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'shuffle_mask': expected exactly 32 elements, got 2}}
  "nisa.stream_shuffle"(%t, %t) {shuffle_mask = array<i64: 1, 0>} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// ... each a partition of the quadrant (0..31) or 255.
func.func @mask_entries(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'shuffle_mask': entry 3 is 32; entries select a partition 0..31 of the quadrant, or 255 to leave it unchanged (rule: mask entries)}}
  "nisa.stream_shuffle"(%t, %t)
      {shuffle_mask = array<i64: 0, 1, 2, 32, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// The Vector transpose handles at most 32 x 32 ...
func.func @transpose_size(%d: memref<64x64xf32, "sbuf">, %s: memref<64x64xf32, "sbuf">) {
  // expected-error@+1 {{operand 'src' is 64x64; the Vector transpose handles at most 32x32 (rule: vector transpose size)}}
  "nisa.stream_transpose"(%d, %s) : (memref<64x64xf32, "sbuf">, memref<64x64xf32, "sbuf">) -> ()
  return
}

// -----

// ... into the transposed shape ...
func.func @transpose_shape(%d: memref<32x16xf32, "sbuf">, %s: memref<32x16xf32, "sbuf">) {
  // expected-error@+1 {{operand 'dst' must be 16x32 (the transpose of 'src'), got 32x16 (rule: transpose shape)}}
  "nisa.stream_transpose"(%d, %s) : (memref<32x16xf32, "sbuf">, memref<32x16xf32, "sbuf">) -> ()
  return
}

// -----

// ... without converting.
func.func @transpose_dtype(%d: memref<16x32xf32, "sbuf">, %s: memref<32x16xbf16, "sbuf">) {
  // expected-error@+1 {{operand 'src' (bf16) and 'dst' (f32) must have the same dtype (rule: same dtype)}}
  "nisa.stream_transpose"(%d, %s) : (memref<16x32xf32, "sbuf">, memref<32x16xbf16, "sbuf">) -> ()
  return
}
