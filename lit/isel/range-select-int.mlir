// sundial-isel: an integer range_start (the verifier takes i64 as well as an integral float)
// is RangeSelect's base as it is.
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-allocate,sundial-isel)' | FileCheck %s

// CHECK-LABEL: func.func @integer_start
// CHECK: "bir.range_select"(){{.*}}range_start = -5 : i64
module attributes {sundial.target = "cayman"} {
  func.func @integer_start(%scores: memref<128x64xf32, "hbm">) {
    %s = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    %lo = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
    %m = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
    "nisa.dma_copy"(%s, %scores) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    "nisa.memset"(%lo) {value = 0.0 : f32, engine = "vector"} : (memref<128x1xf32, "sbuf">) -> ()
    "nisa.range_select"(%s, %s, %lo, %lo, %m) {comp_op0 = "is_ge", comp_op1 = "is_lt", range_start = -5 : i64}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.dma_copy"(%scores, %s) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">) -> ()
    return
  }
}
