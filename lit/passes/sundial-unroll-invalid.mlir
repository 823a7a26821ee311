// sundial-unroll's size limit: a loop nest whose unrolled form would pass max-unroll ops is an
// error at the loop, naming it and the size; a nest exactly at the limit unrolls. A bad option
// value is a pipeline error.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-unroll{max-unroll=6})' -verify-diagnostics
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-unroll{max-unroll=6})' -verify-diagnostics -o - | FileCheck %s
// RUN: not sundial-opt %s --pass-pipeline='builtin.module(sundial-unroll{max-unroll=many})' 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: error: pass 'sundial-unroll' option 'max-unroll': invalid value 'many' (expected a non-negative integer)

// 2 x 3 iterations of one op each is 6 ops: at the limit, unrolled.
// CHECK-LABEL: func.func @at_the_limit
// CHECK-COUNT-6: "nisa.memset"
// CHECK-NOT: scf.for
func.func @at_the_limit(%t: memref<128x64xf32, "sbuf">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      "nisa.memset"(%t) {value = 0.0 : f32} : (memref<128x64xf32, "sbuf">) -> ()
    }
  }
  return
}

// -----

// One loop of 7 iterations is 7 ops.
func.func @one_loop(%t: memref<128x64xf32, "sbuf">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  // expected-error@+1 {{'scf.for' op unrolling the loop at 34:3 would produce 7 ops (7 iterations), more than max-unroll=6}}
  scf.for %i = %c0 to %c7 step %c1 {
    "nisa.memset"(%t) {value = 0.0 : f32} : (memref<128x64xf32, "sbuf">) -> ()
  }
  return
}

// -----

// A nest is counted whole and reported at its outer loop: 2 x 2 iterations of the memset and
// the inner loop's index arithmetic (2 ops) is 8 ops.
func.func @nest(%t: memref<128x64xf32, "sbuf">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // expected-error@+1 {{'scf.for' op unrolling the loop at 49:3 would produce 8 ops (2 iterations), more than max-unroll=6}}
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      %k = arith.addi %i, %j : index
      "nisa.memset"(%t) {value = 0.0 : f32} : (memref<128x64xf32, "sbuf">) -> ()
    }
  }
  return
}

// -----

// A loop kept (its trip count lives in a register) counts once with one copy of its body: the
// static loop around it unrolls to 3 x (the kept loop and its memset) = 6 ops.
// CHECK-LABEL: func.func @kept_inside
// CHECK-COUNT-3: scf.for
func.func @kept_inside(%t: memref<128x64xf32, "sbuf">, %r: !nisa.reg) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %n = "nisa.register_index"(%r) : (!nisa.reg) -> index
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      "nisa.memset"(%t) {value = 0.0 : f32} : (memref<128x64xf32, "sbuf">) -> ()
    }
  }
  return
}

// -----

// A loop counts at least one op per iteration, even with an empty body.
func.func @empty_body() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 1000000000000 : index
  // expected-error@+1 {{'scf.for' op unrolling the loop at 85:3 would produce 1000000000000 ops (1000000000000 iterations), more than max-unroll=6}}
  scf.for %i = %c0 to %big step %c1 {
  }
  return
}
