// View rules: each view keeps its tensor's space and dtype, on-chip views keep the partition
// dimension, shapes and bounds fit, and the chain folds into one access pattern.
// RUN: sundial-opt %s -split-input-file -verify-diagnostics

// A view stays in its tensor's memory space.
func.func @space(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{result memory space "hbm" must be the tensor's ("sbuf") (rule: view space)}}
  %r = "nisa.reshape"(%t) : (memref<128x64xf32, "sbuf">) -> memref<128x8x8xf32, "hbm">
  return
}

// -----

// Only an access pattern on an allocation reinterprets the dtype.
func.func @dtype(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{result dtype bf16 must be the tensor's (f32); only nisa.ap on an allocation reinterprets (rule: view dtype)}}
  %r = "nisa.permute"(%t) {dims = array<i64: 0, 1>} : (memref<128x64xf32, "sbuf">) -> memref<128x64xbf16, "sbuf">
  return
}

// -----

// An access pattern on a view keeps the view's dtype.
func.func @ap_dtype(%t: memref<128x64xf32, "sbuf">) {
  %s = "nisa.slice"(%t) {start = array<i64: 0, 0>} : (memref<128x64xf32, "sbuf">) -> memref<128x32xf32, "sbuf">
  // expected-error@+1 {{an access pattern on a view keeps its 4-byte dtype (only one on the allocation reinterprets), got 2-byte elements (rule: view dtype)}}
  %a = "nisa.ap"(%s) {pattern = array<i64: 32, 128, 1, 32>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x32xf32, "sbuf">) -> memref<128x32xbf16, "sbuf">
  return
}

// -----

// The result is a tile.
func.func @result(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{result: tile must name its memory space}}
  %r = "nisa.reshape"(%t) : (memref<128x64xf32, "sbuf">) -> memref<128x64xf32>
  return
}

// -----

// An on-chip reshape keeps the partitions.
func.func @reshape_partitions(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{an on-chip reshape keeps the partition dimension (128 partitions), got 64 (rule: view partition)}}
  %r = "nisa.reshape"(%t) : (memref<128x64xf32, "sbuf">) -> memref<64x128xf32, "sbuf">
  return
}

// -----

// An on-chip permute keeps the partition dimension first: only free axes transpose.
func.func @permute_partitions(%t: memref<128x64xf32, "psum">) {
  // expected-error@+1 {{an on-chip permute keeps the partition dimension first (dims[0] = 0), got 1 (rule: view partition)}}
  %r = "nisa.permute"(%t) {dims = array<i64: 1, 0>} : (memref<128x64xf32, "psum">) -> memref<64x128xf32, "psum">
  return
}

// -----

// An on-chip slice takes contiguous partitions.
func.func @slice_partitions(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{an on-chip slice takes contiguous partitions (step 1), got step 2 (rule: view partition)}}
  %r = "nisa.slice"(%t) {start = array<i64: 0, 0>, step = array<i64: 2, 1>} : (memref<128x64xf32, "sbuf">) -> memref<64x64xf32, "sbuf">
  return
}

// -----

// Partitions are separate memories: no view repeats one (nisa.stream_shuffle does).
func.func @broadcast_partitions(%t: memref<1x64xf32, "sbuf">) {
  // expected-error@+1 {{an on-chip broadcast cannot repeat the partition dimension (partitions are separate memories; use nisa.stream_shuffle) (rule: view partition)}}
  %r = "nisa.broadcast"(%t) : (memref<1x64xf32, "sbuf">) -> memref<32x64xf32, "sbuf">
  return
}

// -----

// A reshape keeps the element count.
func.func @reshape_count(%t: memref<4096xf32, "hbm">) {
  // expected-error@+1 {{a reshape keeps the element count: 4096 has 4096 elements, 64x32 has 2048 (rule: view shape)}}
  %r = "nisa.reshape"(%t) : (memref<4096xf32, "hbm">) -> memref<64x32xf32, "hbm">
  return
}

// -----

// dims is a permutation.
func.func @permute_dims(%t: memref<4x8xf32, "hbm">) {
  // expected-error@+1 {{[1, 1] is not a permutation of the 2 dimensions of the input (rule: view shape)}}
  %r = "nisa.permute"(%t) {dims = array<i64: 1, 1>} : (memref<4x8xf32, "hbm">) -> memref<8x8xf32, "hbm">
  return
}

// -----

// The permuted shape is the result's.
func.func @permute_shape(%t: memref<4x8xf32, "hbm">) {
  // expected-error@+1 {{result shape 4x8 must be the tensor's dimensions in the order of dims (8x4) (rule: view shape)}}
  %r = "nisa.permute"(%t) {dims = array<i64: 1, 0>} : (memref<4x8xf32, "hbm">) -> memref<4x8xf32, "hbm">
  return
}

// -----

// Only a size-1 dimension broadcasts.
func.func @broadcast_shape(%t: memref<128x2xf32, "sbuf">) {
  // expected-error@+1 {{dimension 1 has size 2; only a size-1 dimension broadcasts (to 64) (rule: view shape)}}
  %r = "nisa.broadcast"(%t) : (memref<128x2xf32, "sbuf">) -> memref<128x64xf32, "sbuf">
  return
}

// -----

// One start (and step) per dimension.
func.func @slice_rank(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{a slice of a rank-2 view needs 2 starts, steps and sizes (got 1, 2, 2) (rule: view shape)}}
  %r = "nisa.slice"(%t) {start = array<i64: 0>} : (memref<128x64xf32, "sbuf">) -> memref<128x32xf32, "sbuf">
  return
}

// -----

// A slice stays inside its tensor.
func.func @slice_bounds(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{dimension 1 reaches index 67 but the input has 64 there (rule: view bounds)}}
  %r = "nisa.slice"(%t) {start = array<i64: 0, 60>} : (memref<128x64xf32, "sbuf">) -> memref<128x8xf32, "sbuf">
  return
}

// -----

// An access pattern on an on-chip view steps its partitions by the view's free size.
func.func @ap_partition_step(%t: memref<128x64xf32, "sbuf">) {
  %s = "nisa.slice"(%t) {start = array<i64: 0, 0>} : (memref<128x64xf32, "sbuf">) -> memref<128x32xf32, "sbuf">
  // expected-error@+1 {{the partition step must be the input's free size (32 elements), got 64; partitions are accessed contiguously (rule: view pattern)}}
  %a = "nisa.ap"(%s) {pattern = array<i64: 64, 128, 1, 32>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x32xf32, "sbuf">) -> memref<128x32xf32, "sbuf">
  return
}

// -----

// ... and walks inside the view's partition.
func.func @ap_bounds(%t: memref<128x64xf32, "sbuf">) {
  %s = "nisa.slice"(%t) {start = array<i64: 0, 0>} : (memref<128x64xf32, "sbuf">) -> memref<128x32xf32, "sbuf">
  // expected-error@+1 {{access pattern reaches element 32 of a partition row of 32 elements (rule: view bounds)}}
  %a = "nisa.ap"(%s) {pattern = array<i64: 32, 128, 1, 32>, offset = 1, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x32xf32, "sbuf">) -> memref<128x32xf32, "sbuf">
  return
}

// -----

// Three of six columns reshaped to [6, 2] keep their order (that folds), but column 0 of the
// [6, 2] is elements 0, 2, 7, 12, 14, 19 of the tensor: no strided pattern walks them.
func.func @folds(%t: memref<4x6xf32, "hbm">) {
  %s = "nisa.slice"(%t) {start = array<i64: 0, 0>} : (memref<4x6xf32, "hbm">) -> memref<4x3xf32, "hbm">
  %r = "nisa.reshape"(%s) : (memref<4x3xf32, "hbm">) -> memref<6x2xf32, "hbm">
  // expected-error@+1 {{the walk crosses a boundary of the view's layout (a run of 3 elements of stride 1 is entered at several points), so no strided access pattern addresses it: copy the data instead (rule: view folds)}}
  %c = "nisa.slice"(%r) {start = array<i64: 0, 0>} : (memref<6x2xf32, "hbm">) -> memref<6x1xf32, "hbm">
  return
}

// -----

// Six dimensions that do not coalesce are one [step, num] pair too many.
func.func @pairs(%t: memref<2x3x2x3x2x3xf32, "hbm">) {
  // expected-error@+1 {{the view folds to 6 [step, num] pairs; an access pattern has at most 5 (the partition pair and four free dimensions) (rule: view pairs)}}
  %p = "nisa.permute"(%t) {dims = array<i64: 5, 4, 3, 2, 1, 0>} : (memref<2x3x2x3x2x3xf32, "hbm">) -> memref<3x2x3x2x3x2xf32, "hbm">
  return
}

// -----

// No view of an indirect access pattern.
func.func @view_of_indirect(%t: memref<1024x64xf32, "hbm">, %i: memref<128x1xui32, "sbuf">) {
  %g = "nisa.ap"(%t, %i) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<1024x64xf32, "hbm">, memref<128x1xui32, "sbuf">) -> memref<128x64xf32, "hbm">
  // expected-error@+1 {{nisa.reshape of an indirect access pattern: its addresses depend on the index values, so no view can be taken on it (rule: view indirect)}}
  %r = "nisa.reshape"(%g) : (memref<128x64xf32, "hbm">) -> memref<128x8x8xf32, "hbm">
  return
}

// -----

// An indirect access pattern on a view needs one contiguous block (a transpose is not).
func.func @indirect_on_view(%t: memref<64x1024xf32, "hbm">, %i: memref<128x1xui32, "sbuf">) {
  %p = "nisa.permute"(%t) {dims = array<i64: 1, 0>} : (memref<64x1024xf32, "hbm">) -> memref<1024x64xf32, "hbm">
  // expected-error@+1 {{an indirect access pattern on a view needs the view to be one contiguous block of the allocation; this 1024x64 view is not (rule: view indirect)}}
  %g = "nisa.ap"(%p, %i) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<1024x64xf32, "hbm">, memref<128x1xui32, "sbuf">) -> memref<128x64xf32, "hbm">
  return
}

// -----

// A view ends a chain of at most 64 views (each view folds its whole chain).
func.func @chain(%t: memref<64x64xf32, "hbm">) {
  %v0 = "nisa.reshape"(%t) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v1 = "nisa.reshape"(%v0) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v2 = "nisa.reshape"(%v1) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v3 = "nisa.reshape"(%v2) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v4 = "nisa.reshape"(%v3) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v5 = "nisa.reshape"(%v4) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v6 = "nisa.reshape"(%v5) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v7 = "nisa.reshape"(%v6) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v8 = "nisa.reshape"(%v7) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v9 = "nisa.reshape"(%v8) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v10 = "nisa.reshape"(%v9) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v11 = "nisa.reshape"(%v10) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v12 = "nisa.reshape"(%v11) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v13 = "nisa.reshape"(%v12) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v14 = "nisa.reshape"(%v13) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v15 = "nisa.reshape"(%v14) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v16 = "nisa.reshape"(%v15) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v17 = "nisa.reshape"(%v16) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v18 = "nisa.reshape"(%v17) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v19 = "nisa.reshape"(%v18) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v20 = "nisa.reshape"(%v19) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v21 = "nisa.reshape"(%v20) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v22 = "nisa.reshape"(%v21) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v23 = "nisa.reshape"(%v22) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v24 = "nisa.reshape"(%v23) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v25 = "nisa.reshape"(%v24) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v26 = "nisa.reshape"(%v25) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v27 = "nisa.reshape"(%v26) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v28 = "nisa.reshape"(%v27) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v29 = "nisa.reshape"(%v28) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v30 = "nisa.reshape"(%v29) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v31 = "nisa.reshape"(%v30) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v32 = "nisa.reshape"(%v31) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v33 = "nisa.reshape"(%v32) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v34 = "nisa.reshape"(%v33) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v35 = "nisa.reshape"(%v34) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v36 = "nisa.reshape"(%v35) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v37 = "nisa.reshape"(%v36) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v38 = "nisa.reshape"(%v37) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v39 = "nisa.reshape"(%v38) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v40 = "nisa.reshape"(%v39) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v41 = "nisa.reshape"(%v40) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v42 = "nisa.reshape"(%v41) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v43 = "nisa.reshape"(%v42) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v44 = "nisa.reshape"(%v43) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v45 = "nisa.reshape"(%v44) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v46 = "nisa.reshape"(%v45) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v47 = "nisa.reshape"(%v46) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v48 = "nisa.reshape"(%v47) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v49 = "nisa.reshape"(%v48) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v50 = "nisa.reshape"(%v49) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v51 = "nisa.reshape"(%v50) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v52 = "nisa.reshape"(%v51) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v53 = "nisa.reshape"(%v52) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v54 = "nisa.reshape"(%v53) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v55 = "nisa.reshape"(%v54) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v56 = "nisa.reshape"(%v55) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v57 = "nisa.reshape"(%v56) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v58 = "nisa.reshape"(%v57) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v59 = "nisa.reshape"(%v58) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v60 = "nisa.reshape"(%v59) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v61 = "nisa.reshape"(%v60) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v62 = "nisa.reshape"(%v61) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %v63 = "nisa.reshape"(%v62) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  // expected-error@+1 {{this view ends a chain of more than 64 views (each view folds its whole chain); copy the data, or take one access pattern, instead (rule: view chain)}}
  %last = "nisa.reshape"(%v63) : (memref<64x64xf32, "hbm">) -> memref<64x64xf32, "hbm">
  return
}
