// A tiled matmul written with loops, as NKI's tiled matmul is: C[256, 512] = A[256, 512] @
// B[512, 512], with A given transposed (A_T[512, 256], K-major: nc_matmul's stationary
// operand is [K, M]). For each M tile m (2 of 128 rows) an affine_range over the K tiles k
// (4 of 128) loads the stationary A_T[k, m] and the moving B[k, :] and accumulates their
// product in one PSUM tile; the tile is then copied to SBUF and stored to C[m, :].
// Verified as written (every access checked over the whole iteration space), then unrolled
// into the static form selection takes; the offsets below are worked out by hand:
// A_T[k, m] starts at k * 128 * 256 + m * 128, B[k, :] at k * 128 * 512, C[m, :] at
// m * 128 * 512.
// RUN: sundial-opt %s | FileCheck %s --check-prefix=LOOPS
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-unroll,sundial-verify)' | FileCheck %s
// Run through the middle end, and run before and after it and sundial-unroll on the same
// random inputs: bit-identical.
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-middle-end)' -o /dev/null
// RUN: sundial-run %s --random-inputs 6 --compare-pipeline='builtin.module(sundial-middle-end)' | FileCheck %s --check-prefix=SAME
// RUN: sundial-run %s --random-inputs 6 --compare-pipeline='builtin.module(sundial-unroll)' | FileCheck %s --check-prefix=SAME
// SAME: @matmul computes the same after

// LOOPS: scf.for
// LOOPS: scf.for
// LOOPS: "nisa.matmul"
// LOOPS: } {sundial.range = "affine"}

// CHECK-LABEL: func.func @matmul
// CHECK-NOT: scf.for
// CHECK-NOT: nisa.dynamic_ap
// m = 0
// CHECK: "nisa.memset"(%[[ACC:[0-9]+]])
// CHECK: "nisa.ap"(%arg0) {offset = 0 : i64, {{.*}}pattern = array<i64: 256, 128, 1, 128>}
// CHECK: "nisa.ap"(%arg1) {offset = 0 : i64, {{.*}}pattern = array<i64: 512, 128, 1, 512>}
// CHECK: "nisa.matmul"(%[[ACC]]
// CHECK: "nisa.ap"(%arg0) {offset = 32768 : i64,
// CHECK: "nisa.ap"(%arg1) {offset = 65536 : i64,
// CHECK: "nisa.matmul"(%[[ACC]]
// CHECK: "nisa.ap"(%arg0) {offset = 65536 : i64,
// CHECK: "nisa.ap"(%arg1) {offset = 131072 : i64,
// CHECK: "nisa.matmul"(%[[ACC]]
// CHECK: "nisa.ap"(%arg0) {offset = 98304 : i64,
// CHECK: "nisa.ap"(%arg1) {offset = 196608 : i64,
// CHECK: "nisa.matmul"(%[[ACC]]
// CHECK: "nisa.tensor_copy"
// CHECK: "nisa.ap"(%arg2) {offset = 0 : i64, {{.*}}pattern = array<i64: 512, 128, 1, 512>}
// m = 1
// CHECK: "nisa.memset"(%[[ACC]])
// CHECK: "nisa.ap"(%arg0) {offset = 128 : i64,
// CHECK: "nisa.ap"(%arg1) {offset = 0 : i64,
// CHECK: "nisa.ap"(%arg0) {offset = 32896 : i64,
// CHECK: "nisa.ap"(%arg1) {offset = 65536 : i64,
// CHECK: "nisa.ap"(%arg0) {offset = 65664 : i64,
// CHECK: "nisa.ap"(%arg1) {offset = 131072 : i64,
// CHECK: "nisa.ap"(%arg0) {offset = 98432 : i64,
// CHECK: "nisa.ap"(%arg1) {offset = 196608 : i64,
// CHECK: "nisa.matmul"(%[[ACC]]
// CHECK: "nisa.tensor_copy"
// CHECK: "nisa.ap"(%arg2) {offset = 65536 : i64,
// CHECK-NOT: "nisa.matmul"
// CHECK: return

module attributes {sundial.target = "cayman"} {
func.func @matmul(%a_t: memref<512x256xbf16, "hbm">, %b: memref<512x512xbf16, "hbm">, %c: memref<256x512xf32, "hbm">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %m_tile = arith.constant 128 : index
  %a_k_tile = arith.constant 32768 : index
  %b_k_tile = arith.constant 65536 : index
  %c_m_tile = arith.constant 65536 : index
  %stationary = "nisa.alloc"() : () -> memref<128x128xbf16, "sbuf">
  %moving = "nisa.alloc"() : () -> memref<128x512xbf16, "sbuf">
  %acc = "nisa.alloc"() : () -> memref<128x512xf32, "psum">
  %res = "nisa.alloc"() : () -> memref<128x512xf32, "sbuf">
  scf.for %m = %c0 to %c2 step %c1 {
    "nisa.memset"(%acc) {value = 0.0 : f32} : (memref<128x512xf32, "psum">) -> ()
    %a_m = arith.muli %m, %m_tile : index
    scf.for %k = %c0 to %c4 step %c1 {
      %a_k = arith.muli %k, %a_k_tile : index
      %a_off = arith.addi %a_k, %a_m : index
      %a_tile = "nisa.dynamic_ap"(%a_t, %a_off) {pattern = array<i64: 256, 128, 1, 128>}
          : (memref<512x256xbf16, "hbm">, index) -> memref<128x128xbf16, "hbm">
      "nisa.dma_copy"(%stationary, %a_tile) : (memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "hbm">) -> ()
      %b_off = arith.muli %k, %b_k_tile : index
      %b_tile = "nisa.dynamic_ap"(%b, %b_off) {pattern = array<i64: 512, 128, 1, 512>}
          : (memref<512x512xbf16, "hbm">, index) -> memref<128x512xbf16, "hbm">
      "nisa.dma_copy"(%moving, %b_tile) : (memref<128x512xbf16, "sbuf">, memref<128x512xbf16, "hbm">) -> ()
      "nisa.matmul"(%acc, %stationary, %moving) {accumulate = true}
          : (memref<128x512xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
    } {sundial.range = "affine"}
    "nisa.tensor_copy"(%res, %acc) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "psum">) -> ()
    %c_off = arith.muli %m, %c_m_tile : index
    %c_tile = "nisa.dynamic_ap"(%c, %c_off) {pattern = array<i64: 512, 128, 1, 512>}
        : (memref<256x512xf32, "hbm">, index) -> memref<128x512xf32, "hbm">
    "nisa.dma_copy"(%c_tile, %res) : (memref<128x512xf32, "hbm">, memref<128x512xf32, "sbuf">) -> ()
  } {sundial.range = "affine"}
  return
}
}
