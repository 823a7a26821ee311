// sundial-unroll: constant-bound loops (nested too) become straight-line static NISA, every
// nisa.dynamic_ap with a now-constant offset a static nisa.ap with the offset folded in;
// loop-invariant access patterns are hoisted; register loops (dynamic_range) stay loops.
// The offsets below are computed by hand from the loop bounds.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-unroll)' | FileCheck %s
// The result verifies again and is a fixed point of the pass.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-unroll)' -o %t.1
// RUN: sundial-opt %t.1 -split-input-file --pass-pipeline='builtin.module(sundial-unroll)' -o %t.2
// RUN: diff %t.1 %t.2

// One loop of four column blocks: offsets 0, 512, 1024, 1536; no loop and no index
// arithmetic are left.
// CHECK-LABEL: func.func @one_loop
// CHECK-NOT: scf.for
// CHECK-NOT: arith.
// CHECK: "nisa.ap"(%arg0) {offset = 0 : i64, operandSegmentSizes = array<i32: 1, 0, 0>, pattern = array<i64: 4096, 128, 1, 512>}
// CHECK-NEXT: "nisa.dma_copy"
// CHECK-NEXT: "nisa.ap"(%arg0) {offset = 512 : i64, operandSegmentSizes = array<i32: 1, 0, 0>, pattern = array<i64: 4096, 128, 1, 512>}
// CHECK-NEXT: "nisa.dma_copy"
// CHECK-NEXT: "nisa.ap"(%arg0) {offset = 1024 : i64, operandSegmentSizes = array<i32: 1, 0, 0>, pattern = array<i64: 4096, 128, 1, 512>}
// CHECK-NEXT: "nisa.dma_copy"
// CHECK-NEXT: "nisa.ap"(%arg0) {offset = 1536 : i64, operandSegmentSizes = array<i32: 1, 0, 0>, pattern = array<i64: 4096, 128, 1, 512>}
// CHECK-NEXT: "nisa.dma_copy"
// CHECK-NEXT: return
func.func @one_loop(%x: memref<128x4096xf32, "hbm">, %t: memref<128x512xf32, "sbuf">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c512 = arith.constant 512 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %off = arith.muli %i, %c512 : index
    %a = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 4096, 128, 1, 512>}
        : (memref<128x4096xf32, "hbm">, index) -> memref<128x512xf32, "hbm">
    "nisa.dma_copy"(%t, %a) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
  } {sundial.range = "affine"}
  return
}

// -----

// Nested loops (i in 0..2, j in 1..5 step 2) with offset 100 + 1024 * i + 64 * j: 164, 292,
// 1188, 1316 in program order. The loop-invariant pattern on %d is built once, before them.
// CHECK-LABEL: func.func @nested
// CHECK-NOT: scf.for
// CHECK: %[[D:.*]] = "nisa.ap"(%arg1) {operandSegmentSizes = array<i32: 1, 0, 0>, pattern = array<i64: 32, 128, 1, 32>}
// CHECK: "nisa.ap"(%arg0) {offset = 164 : i64
// CHECK: "nisa.tensor_copy"(%[[D]]
// CHECK: "nisa.ap"(%arg0) {offset = 292 : i64
// CHECK: "nisa.tensor_copy"(%[[D]]
// CHECK: "nisa.ap"(%arg0) {offset = 1188 : i64
// CHECK: "nisa.tensor_copy"(%[[D]]
// CHECK: "nisa.ap"(%arg0) {offset = 1316 : i64
// CHECK: "nisa.tensor_copy"(%[[D]]
// CHECK-NOT: "nisa.ap"
// CHECK: return
func.func @nested(%t: memref<128x2048xbf16, "sbuf">, %d: memref<128x32xbf16, "sbuf">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c1 to %c5 step %c2 {
      %a = arith.muli %i, %c1024 : index
      %b = arith.muli %j, %c64 : index
      %off = arith.addi %a, %b : index
      %v = "nisa.dynamic_ap"(%t, %off) {pattern = array<i64: 2048, 128, 1, 32>, offset = 100}
          : (memref<128x2048xbf16, "sbuf">, index) -> memref<128x32xbf16, "sbuf">
      %dv = "nisa.ap"(%d) {pattern = array<i64: 32, 128, 1, 32>}
          : (memref<128x32xbf16, "sbuf">) -> memref<128x32xbf16, "sbuf">
      "nisa.tensor_copy"(%dv, %v) : (memref<128x32xbf16, "sbuf">, memref<128x32xbf16, "sbuf">) -> ()
    }
  }
  return
}

// -----

// A register loop (dynamic_range) is kept: its invariant access pattern moves in front of it,
// the static loop in its body is unrolled in place, and the offset that depends on its
// induction variable stays dynamic, rebuilt from the variable with the constant part (3 * 8)
// folded into the offset attribute.
// CHECK-LABEL: func.func @register_loop
// CHECK: %[[N:.*]] = "nisa.register_index"
// CHECK: %[[W:.*]] = "nisa.ap"(%arg1) {operandSegmentSizes = array<i32: 1, 0, 0>, pattern = array<i64: 8, 128, 1, 8>}
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK: %[[OFF:.*]] = arith.muli %[[B]], %{{.*}} : index
// CHECK: "nisa.dynamic_ap"(%arg0, %[[OFF]]) {offset = 0 : i64
// CHECK: "nisa.dynamic_ap"(%arg0, %[[OFF]]) {offset = 8 : i64
// CHECK: "nisa.dynamic_ap"(%arg0, %[[OFF]]) {offset = 16 : i64
// CHECK: "nisa.dynamic_ap"(%arg0, %[[OFF]]) {offset = 24 : i64
// CHECK-NOT: "nisa.dynamic_ap"
// CHECK: }
func.func @register_loop(%x: memref<1024x8xf32, "hbm">, %w: memref<128x8xf32, "sbuf">, %r: !nisa.reg) {
  %n = "nisa.register_index"(%r) : (!nisa.reg) -> index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c1024 = arith.constant 1024 : index
  scf.for %b = %c0 to %n step %c1 {
    %base = arith.muli %b, %c1024 : index
    %wv = "nisa.ap"(%w) {pattern = array<i64: 8, 128, 1, 8>} : (memref<128x8xf32, "sbuf">) -> memref<128x8xf32, "sbuf">
    scf.for %k = %c0 to %c4 step %c1 {
      %col = arith.muli %k, %c8 : index
      %off = arith.addi %base, %col : index
      %a = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 8, 128, 1, 8>}
          : (memref<1024x8xf32, "hbm">, index) -> memref<128x8xf32, "hbm">
      "nisa.dma_copy"(%wv, %a) : (memref<128x8xf32, "sbuf">, memref<128x8xf32, "hbm">) -> ()
    }
  }
  return
}

// -----

// Loop-carried values (iter_args) are threaded through the copies: the running sum of
// 0 + 128 + 256 becomes the constant offset 384 of the pattern after the loop.
// CHECK-LABEL: func.func @iter_args
// CHECK-NOT: scf.for
// CHECK: "nisa.ap"(%arg0) {offset = 384 : i64, operandSegmentSizes = array<i32: 1, 0, 0>, pattern = array<i64: 512, 128, 1, 128>}
func.func @iter_args(%x: memref<128x512xf32, "hbm">, %t: memref<128x128xf32, "sbuf">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c128 = arith.constant 128 : index
  %sum = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %c0) -> (index) {
    %step = arith.muli %i, %c128 : index
    %next = arith.addi %acc, %step : index
    scf.yield %next : index
  }
  %a = "nisa.dynamic_ap"(%x, %sum) {pattern = array<i64: 512, 128, 1, 128>}
      : (memref<128x512xf32, "hbm">, index) -> memref<128x128xf32, "hbm">
  "nisa.dma_copy"(%t, %a) : (memref<128x128xf32, "sbuf">, memref<128x128xf32, "hbm">) -> ()
  return
}

// -----

// Offsets that depend on program_id stay dynamic, one shared offset value, the constant
// column part folded per copy; a loop that never runs disappears.
// CHECK-LABEL: func.func @per_program
// CHECK: %[[P:.*]] = "nisa.program_id"
// CHECK: %[[OFF:.*]] = arith.muli %[[P]], %{{.*}} : index
// CHECK: "nisa.dynamic_ap"(%arg0, %[[OFF]]) {offset = 0 : i64
// CHECK: "nisa.dynamic_ap"(%arg0, %[[OFF]]) {offset = 256 : i64
// CHECK-NOT: scf.for
// CHECK: return
module attributes {sundial.grid = array<i64: 2>} {
func.func @per_program(%x: memref<256x512xf32, "hbm">, %t: memref<128x256xf32, "sbuf">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %rows = arith.constant 65536 : index
  %pid = "nisa.program_id"() : () -> index
  scf.for %j = %c0 to %c2 step %c1 {
    %p = arith.muli %pid, %rows : index
    %q = arith.muli %j, %c256 : index
    %off = arith.addi %p, %q : index
    %a = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 512, 128, 1, 256>}
        : (memref<256x512xf32, "hbm">, index) -> memref<128x256xf32, "hbm">
    "nisa.dma_copy"(%t, %a) : (memref<128x256xf32, "sbuf">, memref<128x256xf32, "hbm">) -> ()
  }
  scf.for %k = %c2 to %c1 step %c1 {
    "nisa.memset"(%t) {value = 0.0 : f32} : (memref<128x256xf32, "sbuf">) -> ()
  }
  return
}
}

