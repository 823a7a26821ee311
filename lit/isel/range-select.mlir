// sundial-isel: range_select -> bir.range_select {0xbc, 0x9b} on cayman. The [P, 1] bound tiles
// become per-partition operand patterns (bound0_ap / bound1_ap), range_start the integer
// index origin (the S2D2_RS header's base, +0x10), on_false_value the fill value (fill_val,
// +0x14: -FLT_MAX), and the max-reduction is read out to reduce_res (the 0x9b companion).
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-allocate,sundial-isel)' | FileCheck %s

// Keep the scores of columns in [lo, hi) of each row (a causal or sliding-window mask), and
// their maximum.
// CHECK-LABEL: func.func @window
// CHECK: "bir.range_select"() {bound0_ap = {dtype = "float32", num_partitions = 128 : i64, offset = 256 : i64, partition = 0 : i64, pattern = array<i64: 1, 1>, space = "sbuf"}, bound1_ap = {dtype = "float32", num_partitions = 128 : i64, offset = 260 : i64, partition = 0 : i64, pattern = array<i64: 1, 1>, space = "sbuf"}, comp_op0 = "is_ge", comp_op1 = "is_lt", dst = {dtype = "float32", num_partitions = 128 : i64, offset = 0 : i64, partition = 0 : i64, pattern = array<i64: 1, 64>, space = "sbuf"}, engine = "vector", opcodes = array<i64: 188, 155>, range_start = 64 : i64, reduce_cmd = "reset_reduce", reduce_res = {dtype = "float32", num_partitions = 128 : i64, offset = 264 : i64, partition = 0 : i64, pattern = array<i64: 1, 1>, space = "sbuf"}, src = {dtype = "float32", num_partitions = 128 : i64, offset = 0 : i64, partition = 0 : i64, pattern = array<i64: 1, 64>, space = "sbuf"}}
module attributes {sundial.target = "cayman"} {
  func.func @window(%scores: memref<128x64xf32, "hbm">, %bounds: memref<128x2xf32, "hbm">, %out: memref<128x64xf32, "hbm">, %peak: memref<128x1xf32, "hbm">) {
    %s = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    %lo = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
    %hi = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
    %m = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
    "nisa.dma_copy"(%s, %scores) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    %b0 = "nisa.ap"(%bounds) {pattern = array<i64: 2, 128, 1, 1>, operandSegmentSizes = array<i32: 1, 0, 0>} : (memref<128x2xf32, "hbm">) -> memref<128x1xf32, "hbm">
    %b1 = "nisa.ap"(%bounds) {pattern = array<i64: 2, 128, 1, 1>, offset = 1, operandSegmentSizes = array<i32: 1, 0, 0>} : (memref<128x2xf32, "hbm">) -> memref<128x1xf32, "hbm">
    "nisa.dma_copy"(%lo, %b0) : (memref<128x1xf32, "sbuf">, memref<128x1xf32, "hbm">) -> ()
    "nisa.dma_copy"(%hi, %b1) : (memref<128x1xf32, "sbuf">, memref<128x1xf32, "hbm">) -> ()
    "nisa.range_select"(%s, %s, %lo, %hi, %m) {comp_op0 = "is_ge", comp_op1 = "is_lt", range_start = 64.0 : f32}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.dma_copy"(%out, %s) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">) -> ()
    "nisa.dma_copy"(%peak, %m) : (memref<128x1xf32, "hbm">, memref<128x1xf32, "sbuf">) -> ()
    return
  }
}

