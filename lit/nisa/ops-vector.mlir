// Vector-engine NISA ops: free-axis reductions, top-8, range select, dropout, batch-norm
// statistics, quadrant shuffles and transposes, exponential.
// RUN: sundial-opt %s | FileCheck %s
// RUN: sundial-opt %s -o %t.1 && sundial-opt %t.1 -o %t.2 && diff %t.1 %t.2

// range_select needs NeuronCore v3 and exponential v4.
module attributes {sundial.target = "mariana"} {

// Reduce the two trailing free axes (dst drops them), keep them as 1s, or reduce one axis
// into a [P, 1] column; then the bit-vector form.
// CHECK-LABEL: func.func @tensor_reduce
// CHECK: "nisa.tensor_reduce_arith"(%{{.*}}, %{{.*}}) {axis = array<i64: 1, 2>, negate = true, op = "abs_max"} : (memref<128xf32, "sbuf">, memref<128x4x16xbf16, "sbuf">) -> ()
// CHECK: "nisa.tensor_reduce_arith"(%{{.*}}, %{{.*}}) {axis = array<i64: 2, 1>, keepdims = true, op = "add"} : (memref<128x1x1xf32, "sbuf">, memref<128x4x16xbf16, "sbuf">) -> ()
// CHECK: "nisa.tensor_reduce_arith"(%{{.*}}, %{{.*}}) {axis = array<i64: 2>, op = "min"} : (memref<128x4x1xf32, "psum">, memref<128x4x16xbf16, "sbuf">) -> ()
// CHECK: "nisa.tensor_reduce_bitvec"(%{{.*}}, %{{.*}}) {axis = array<i64: 1>, op = "bitwise_and"} : (memref<128x1xi32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
func.func @tensor_reduce(%d1: memref<128xf32, "sbuf">, %d2: memref<128x1x1xf32, "sbuf">, %d3: memref<128x4x1xf32, "psum">,
                         %s: memref<128x4x16xbf16, "sbuf">, %di: memref<128x1xi32, "sbuf">, %si: memref<128x64xi32, "sbuf">) {
  "nisa.tensor_reduce_arith"(%d1, %s) {op = "abs_max", axis = array<i64: 1, 2>, negate = true}
      : (memref<128xf32, "sbuf">, memref<128x4x16xbf16, "sbuf">) -> ()
  // Axes may be listed in any order.
  "nisa.tensor_reduce_arith"(%d2, %s) {op = "add", axis = array<i64: 2, 1>, keepdims = true}
      : (memref<128x1x1xf32, "sbuf">, memref<128x4x16xbf16, "sbuf">) -> ()
  "nisa.tensor_reduce_arith"(%d3, %s) {op = "min", axis = array<i64: 2>}
      : (memref<128x4x1xf32, "psum">, memref<128x4x16xbf16, "sbuf">) -> ()
  "nisa.tensor_reduce_bitvec"(%di, %si) {op = "bitwise_and", axis = array<i64: 1>}
      : (memref<128x1xi32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
  return
}

// Accumulator read-out of the Vector engine.
// CHECK-LABEL: func.func @dve_read_accumulator
// CHECK: "nisa.dve_read_accumulator"(%{{.*}}) {negate = true} : (memref<128x1xf32, "sbuf">) -> ()
func.func @dve_read_accumulator(%d: memref<128x1xf32, "sbuf">) {
  "nisa.dve_read_accumulator"(%d) {negate = true} : (memref<128x1xf32, "sbuf">) -> ()
  return
}

// max8, then the indices of those 8 values, then replace them (and write their indices).
// CHECK-LABEL: func.func @top8
// CHECK: "nisa.max8"(%[[M:.*]], %[[S:.*]]) : (memref<128x8xf32, "sbuf">, memref<128x1024xf32, "sbuf">) -> ()
// CHECK: "nisa.find_index8"(%{{.*}}, %[[S]], %[[M]]) : (memref<128x8xui32, "sbuf">, memref<128x1024xf32, "sbuf">, memref<128x8xf32, "sbuf">) -> ()
// CHECK: "nisa.max_index_and_match_replace"(%{{.*}}, %[[S]], %[[M]], %{{.*}}) {imm_value = 0xFF800000 : f32}
// CHECK: "nisa.max_index_and_match_replace"(%{{.*}}, %[[S]], %[[M]]) {imm_value = 0.000000e+00 : f32}
// CHECK: "nisa.find_index8"(%{{.*}}, %[[S]], %[[M]]) : (memref<128x8xui16, "sbuf">, memref<128x1024xf32, "sbuf">, memref<128x8xf32, "sbuf">) -> ()
func.func @top8(%m: memref<128x8xf32, "sbuf">, %s: memref<128x1024xf32, "sbuf">, %idx: memref<128x8xui32, "sbuf">,
                %r: memref<128x1024xf32, "sbuf">, %idx16: memref<128x8xui16, "sbuf">) {
  "nisa.max8"(%m, %s) : (memref<128x8xf32, "sbuf">, memref<128x1024xf32, "sbuf">) -> ()
  "nisa.find_index8"(%idx, %s, %m) : (memref<128x8xui32, "sbuf">, memref<128x1024xf32, "sbuf">, memref<128x8xf32, "sbuf">) -> ()
  "nisa.max_index_and_match_replace"(%r, %s, %m, %idx) {imm_value = 0xFF800000 : f32}
      : (memref<128x1024xf32, "sbuf">, memref<128x1024xf32, "sbuf">, memref<128x8xf32, "sbuf">, memref<128x8xui32, "sbuf">) -> ()
  "nisa.max_index_and_match_replace"(%r, %s, %m) {imm_value = 0.0 : f32}
      : (memref<128x1024xf32, "sbuf">, memref<128x1024xf32, "sbuf">, memref<128x8xf32, "sbuf">) -> ()
  // nc_find_index8 also writes uint16 indices (a miss is 0xFFFF), as the emulator does.
  "nisa.find_index8"(%idx16, %s, %m) : (memref<128x8xui16, "sbuf">, memref<128x1024xf32, "sbuf">, memref<128x8xf32, "sbuf">) -> ()
  return
}

// range_select with per-partition bounds and a max-reduce into reduce_res; on_false_value is
// the only legal fill (-FLT_MAX), written out.
// CHECK-LABEL: func.func @range_select
// CHECK: "nisa.range_select"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {comp_op0 = "is_ge", comp_op1 = "is_lt", on_false_value = -3.40282347E+38 : f32, range_start = 6.400000e+01 : f32, reduce_cmd = "reset_reduce", reduce_op = "max"}
// CHECK: "nisa.range_select"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {comp_op0 = "is_gt", comp_op1 = "is_le"}
// CHECK: "nisa.range_select"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {comp_op0 = "is_ge", comp_op1 = "is_lt", range_start = 16777152 : i64}
func.func @range_select(%d: memref<128x64xf32, "sbuf">, %t: memref<128x64xf32, "sbuf">, %b0: memref<128x1xf32, "sbuf">,
                        %b1: memref<128x1xf32, "sbuf">, %r: memref<128x1xf32, "sbuf">) {
  "nisa.range_select"(%d, %t, %b0, %b1, %r)
      {comp_op0 = "is_ge", comp_op1 = "is_lt", range_start = 64.0 : f32, on_false_value = -3.40282347e+38 : f32,
       reduce_cmd = "reset_reduce", reduce_op = "max"}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  "nisa.range_select"(%d, %t, %b0, %b1) {comp_op0 = "is_gt", comp_op1 = "is_le"}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  // NKI's range_start is an integer; the last index, 2^24 - 64 + 63, is still exact in fp32.
  "nisa.range_select"(%d, %t, %b0, %b1) {comp_op0 = "is_ge", comp_op1 = "is_lt", range_start = 16777152 : i64}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  return
}

// dropout with an immediate probability, then with a [P, 1] probability tile.
// CHECK-LABEL: func.func @dropout
// CHECK: "nisa.dropout"(%{{.*}}, %{{.*}}) {prob = 1.000000e-01 : f32}
// CHECK: "nisa.dropout"(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
func.func @dropout(%d: memref<128x64xbf16, "sbuf">, %s: memref<128x64xbf16, "sbuf">, %p: memref<128x1xf32, "sbuf">) {
  "nisa.dropout"(%d, %s) {prob = 0.1 : f32} : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
  "nisa.dropout"(%d, %s, %p) : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  return
}

// bn_stats on a 512-element row (the limit), then bn_aggr over two bn_stats results.
// CHECK-LABEL: func.func @batch_norm
// CHECK: "nisa.bn_stats"(%{{.*}}, %{{.*}}) : (memref<128x6xf32, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
// CHECK: "nisa.bn_aggr"(%{{.*}}, %{{.*}}) : (memref<128x2xf32, "sbuf">, memref<128x2x6xf32, "sbuf">) -> ()
func.func @batch_norm(%st: memref<128x6xf32, "sbuf">, %x: memref<128x512xbf16, "sbuf">,
                      %mv: memref<128x2xf32, "sbuf">, %all: memref<128x2x6xf32, "sbuf">) {
  "nisa.bn_stats"(%st, %x) : (memref<128x6xf32, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
  "nisa.bn_aggr"(%mv, %all) : (memref<128x2xf32, "sbuf">, memref<128x2x6xf32, "sbuf">) -> ()
  return
}

// A quadrant shuffle (reverse the first 4 partitions, leave the rest with 255).
// CHECK-LABEL: func.func @stream_shuffle
// CHECK: "nisa.stream_shuffle"(%{{.*}}, %{{.*}}) {shuffle_mask = array<i64: 3, 2, 1, 0, 255,
func.func @stream_shuffle(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">) {
  "nisa.stream_shuffle"(%d, %s)
      {shuffle_mask = array<i64: 3, 2, 1, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
                                 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 31>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// Vector transpose of a 32 x (4 x 4) tile into 16 x 32.
// CHECK-LABEL: func.func @stream_transpose
// CHECK: "nisa.stream_transpose"(%{{.*}}, %{{.*}}) : (memref<16x32xbf16, "sbuf">, memref<32x4x4xbf16, "sbuf">) -> ()
func.func @stream_transpose(%d: memref<16x32xbf16, "sbuf">, %s: memref<32x4x4xbf16, "sbuf">) {
  "nisa.stream_transpose"(%d, %s) : (memref<16x32xbf16, "sbuf">, memref<32x4x4xbf16, "sbuf">) -> ()
  return
}

// exp(src - max) with a sum into reduce_res, then the plain form.
// CHECK-LABEL: func.func @exponential
// CHECK: "nisa.exponential"(%{{.*}}, %{{.*}}, %{{.*}}) {max_value = 4.000000e+00 : f32, reduce_cmd = "reset_reduce", reduce_init = 0.000000e+00 : f32}
// CHECK: "nisa.exponential"(%{{.*}}, %{{.*}}) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
func.func @exponential(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">, %r: memref<128x1xf32, "sbuf">) {
  "nisa.exponential"(%d, %s, %r) {max_value = 4.0 : f32, reduce_cmd = "reset_reduce", reduce_init = 0.0 : f32}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  "nisa.exponential"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

}
