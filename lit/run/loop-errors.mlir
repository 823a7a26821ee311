// Errors of loops, dynamic offsets, registers and index arithmetic: each names the op with
// its file:line:col, and leaves no output file. Trip counts are checked before a loop runs:
// constant-bound nests before anything runs, register-bound loops when they are reached.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py write %t/big.npy '<i4' 1,1 2000000 + write %t/far.npy '<i4' 1,1 40 + write %t/neg.npy '<i4' 1,1 -3
// RUN: not sundial-run %s --func too_long --save 0=%t/never.npy 2>&1 | FileCheck %s --check-prefix=LONG
// RUN: not ls %t/never.npy
// The budget is checked before any input is read: a missing file is not what is reported.
// RUN: not sundial-run %s --func too_long --arg 0=%t/missing.npy 2>&1 | FileCheck %s --check-prefix=LONG
// RUN: not sundial-run %s --func nest_too_long 2>&1 | FileCheck %s --check-prefix=NEST
// RUN: not sundial-run %s --func register_too_long --arg 1=%t/big.npy 2>&1 | FileCheck %s --check-prefix=REGLONG
// --max-loop-iterations sets the budget: lower, the outer loop of the nest is refused; a run
// of exactly the budget runs; the budget is a positive number.
// RUN: not sundial-run %s --func nest_too_long --max-loop-iterations 1000 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: not sundial-run %s --func register_too_long --arg 1=%t/big.npy --max-loop-iterations=1999999 2>&1 | FileCheck %s --check-prefix=REGLIMIT
// RUN: sundial-run %s --func too_long --max-loop-iterations 2097152
// RUN: not sundial-run %s --func too_long --max-loop-iterations 0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: invalid value '0' for '--max-loop-iterations <N>'
// RUN: not sundial-run %s --func too_long --max-loop-iterations many 2>&1 | FileCheck %s --check-prefix=MANY
// MANY: error: invalid value 'many' for '--max-loop-iterations <N>'
// RUN: not sundial-run %s --func zero_step 2>&1 | FileCheck %s --check-prefix=STEP
// RUN: not sundial-run %s --func poison 2>&1 | FileCheck %s --check-prefix=POISON
// RUN: not sundial-run %s --func register_offset --arg 1=%t/far.npy --save 0=%t/never.npy 2>&1 | FileCheck %s --check-prefix=FAR
// RUN: not ls %t/never.npy
// RUN: not sundial-run %s --func register_offset --arg 1=%t/neg.npy 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not sundial-run %s --func divide_by_zero 2>&1 | FileCheck %s --check-prefix=DIV
// RUN: not sundial-run %s --func unwritten_register 2>&1 | FileCheck %s --check-prefix=UNWRITTEN
// RUN: not sundial-run %s --func barrier 2>&1 | FileCheck %s --check-prefix=BARRIER
// A view of a dynamic access pattern folds over the allocation the pattern indexes, in the
// verifier as in the run: a slice that is no strided pattern there is refused before anything
// runs.
// RUN: not sundial-run %S/Inputs/view-of-dynamic.mlir --save 0=%t/never.npy 2>&1 | FileCheck %s --check-prefix=VIEWDYN
// RUN: not ls %t/never.npy
// VIEWDYN: view-of-dynamic.mlir:12:14: error: 'nisa.slice' op the walk crosses a boundary of the view's layout {{.*}} (rule: view folds)
// The ranks run in lockstep: a loop bound that differs between ranks (each rank's own count)
// cannot run.
// RUN: python3 %S/Inputs/npy.py write %t/counts.npy '<i4' 2,1,1 1,2
// RUN: not sundial-run %s --func register_too_long --ranks 2 --arg 1=%t/counts.npy 2>&1 | FileCheck %s --check-prefix=LOCKSTEP
// LOCKSTEP: error: 'scf.for' op runs 1 iterations on rank 0 but 2 on rank 1: the ranks of a run execute in lockstep
// RUN: not sundial-run %s --func lockstep_if --ranks 2 --arg 1=%t/counts.npy 2>&1 | FileCheck %s --check-prefix=LOCKIF
// Loops nest at most 64 deep; a launch grid has at most 1024 programs.
// RUN: not sundial-run %S/Inputs/deep-loops.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: deep-loops.mlir:69:131: error: 'scf.for' op is nested 65 loops deep, more than the 64 sundial-run runs
// RUN: not sundial-run %S/Inputs/big-grid.mlir 2>&1 | FileCheck %s --check-prefix=GRID
// GRID: big-grid.mlir:2:3: error: the launch grid [64, 32] has more than the 1024 programs sundial-run runs

module attributes {sundial.target = "cayman"} {
  func.func @too_long(%x: memref<4xf32, "hbm">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %big = arith.constant 2097152 : index
    scf.for %i = %c0 to %big step %c1 {
    }
// LONG: loop-errors.mlir:[[@LINE-2]]:5: error: 'scf.for' op runs 2097152 iterations, which brings the run to 2097152 loop iterations, more than the 1048576 sundial-run executes (--max-loop-iterations): unroll less, run a smaller problem or raise the limit
    return
  }
  func.func @nest_too_long(%x: memref<4xf32, "hbm">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1024 = arith.constant 1024 : index
    %c2048 = arith.constant 2048 : index
    scf.for %i = %c0 to %c2048 step %c1 {
      scf.for %j = %c0 to %c1024 step %c1 {
      }
// NEST: loop-errors.mlir:[[@LINE-2]]:7: error: 'scf.for' op runs 1024 iterations 2048 times, which brings the run to 2099200 loop iterations, more than the 1048576 sundial-run executes (--max-loop-iterations)
// LIMIT: loop-errors.mlir:[[@LINE-4]]:5: error: 'scf.for' op runs 2048 iterations, which brings the run to 2048 loop iterations, more than the 1000 sundial-run executes (--max-loop-iterations): unroll less, run a smaller problem or raise the limit
    }
    return
  }
  func.func @register_too_long(%x: memref<4xf32, "hbm">, %n: memref<1x1xi32, "sbuf">) {
    %r = "nisa.load_register"(%n) : (memref<1x1xi32, "sbuf">) -> !nisa.reg
    %bound = "nisa.register_index"(%r) : (!nisa.reg) -> index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %bound step %c1 {
    }
// REGLONG: loop-errors.mlir:[[@LINE-2]]:5: error: 'scf.for' op would run 2000000 iterations, which brings the run to 2000000 loop iterations, more than the 1048576 sundial-run executes (--max-loop-iterations)
// REGLIMIT: loop-errors.mlir:[[@LINE-3]]:5: error: 'scf.for' op would run 2000000 iterations, which brings the run to 2000000 loop iterations, more than the 1999999 sundial-run executes (--max-loop-iterations)
    return
  }
  func.func @zero_step(%x: memref<4xf32, "hbm">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %step = arith.subi %c1, %c1 : index
    scf.for %i = %c0 to %c4 step %step {
    }
// STEP: loop-errors.mlir:[[@LINE-2]]:5: error: 'scf.for' op has step 0; a loop's step must be positive
    return
  }
  func.func @poison(%x: memref<4xf32, "hbm">) {
    %f = arith.constant 1.0e10 : f32
    %i = arith.fptosi %f : f32 to i32
// POISON: loop-errors.mlir:[[@LINE-1]]:10: error: 'arith.fptosi' op converts 10000000000 to a signed 32-bit integer, which cannot hold it (arith's poison)
    return
  }
  // The offset comes from a register: the verifier cannot bound it, the run checks it.
  func.func @register_offset(%x: memref<4x8xf32, "hbm">, %k: memref<1x1xi32, "sbuf">) {
    %r = "nisa.load_register"(%k) : (memref<1x1xi32, "sbuf">) -> !nisa.reg
    %off = "nisa.register_index"(%r) : (!nisa.reg) -> index
    %row = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 8, 1, 1, 8>}
        : (memref<4x8xf32, "hbm">, index) -> memref<1x8xf32, "hbm">
// FAR: loop-errors.mlir:[[@LINE-2]]:12: error: 'nisa.dynamic_ap' op dynamic offset 40 (element offset 40) is out of range: access pattern reaches element 47 of an input of 32 elements (rule: ap bounds)
// NEG: loop-errors.mlir:[[@LINE-3]]:12: error: 'nisa.dynamic_ap' op dynamic offset -3 (element offset -3) is out of range: offset -3 is negative (rule: ap bounds)
    %t = "nisa.alloc"() : () -> memref<1x8xf32, "sbuf">
    "nisa.dma_copy"(%t, %row) : (memref<1x8xf32, "sbuf">, memref<1x8xf32, "hbm">) -> ()
    "nisa.dma_copy"(%row, %t) : (memref<1x8xf32, "hbm">, memref<1x8xf32, "sbuf">) -> ()
    return
  }
  func.func @divide_by_zero(%x: memref<4xf32, "hbm">) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %q = arith.divui %c4, %c0 : index
// DIV: loop-errors.mlir:[[@LINE-1]]:10: error: 'arith.divui' op divides by zero (4, 0)
    return
  }
  func.func @unwritten_register(%x: memref<4xf32, "hbm">) {
    %r = "nisa.register_alloc"() : () -> !nisa.reg
    %i = "nisa.register_index"(%r) : (!nisa.reg) -> index
// UNWRITTEN: loop-errors.mlir:[[@LINE-1]]:10: error: 'nisa.register_index' op failed in the emulator: {{.*}}register 0 is read before anything was written to it
    return
  }
  // Each rank's own count decides the branch: the ranks of a run execute in lockstep.
  func.func @lockstep_if(%x: memref<4xf32, "hbm">, %n: memref<1x1xi32, "sbuf">) {
    %r = "nisa.load_register"(%n) : (memref<1x1xi32, "sbuf">) -> !nisa.reg
    %v = "nisa.register_index"(%r) : (!nisa.reg) -> index
    %c1 = arith.constant 1 : index
    %one = arith.cmpi eq, %v, %c1 : index
    scf.if %one {
    }
// LOCKIF: loop-errors.mlir:[[@LINE-2]]:5: error: 'scf.if' op: the condition is true on rank 0 but false on rank 1: the ranks of a run execute in lockstep
    return
  }
  func.func @barrier(%x: memref<4xf32, "hbm">) {
    "nisa.core_barrier"(%x) {cores = array<i64: 0, 1>} : (memref<4xf32, "hbm">) -> ()
// BARRIER: loop-errors.mlir:[[@LINE-1]]:5: error: 'nisa.core_barrier' op synchronises the programs [0, 1], but the launch grid has 1 program (0..0): the barrier would wait forever
    return
  }
}
