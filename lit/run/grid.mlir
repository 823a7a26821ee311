// A kernel on a launch grid (sundial.grid): every program runs the body in turn, with its
// own nisa.program_id, over the same HBM arguments. Here program p of 2 copies row block
// (n - 1 - p) of x to row block p of out (n = nisa.num_programs): the halves swap. The
// expected values are worked out by hand (x = iota over 4x4).
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py write %t/x.npy '<f4' 4,4 iota
// RUN: sundial-run %s --func swap_halves --arg 0=%t/x.npy --save 1=%t/out.npy | FileCheck %s --check-prefix=PRINT
// PRINT: {{^}}x[pid] 1x1xfloat32: 0.0{{$}}
// PRINT-NEXT: {{^}}x[pid] 1x1xfloat32: 1.0{{$}}
// RUN: python3 %S/Inputs/npy.py dump %t/out.npy | FileCheck %s
// CHECK: shape=(4, 4)
// CHECK-NEXT: 8.0 9.0 10.0 11.0 12.0 13.0 14.0 15.0 0.0 1.0 2.0 3.0 4.0 5.0 6.0 7.0
// RUN: sundial-run %s --func swap_halves --random-inputs 5 --compare-pipeline='builtin.module(sundial-unroll)' | FileCheck %s --check-prefix=SAME
// SAME: computes the same after 'builtin.module(sundial-unroll)'
//
// Each program is a NeuronCore with its own SBUF, PSUM and private_hbm: an on-chip or
// private_hbm argument has one copy per program. --arg gives every program the same array
// or a stack of one per program ((2, 1, 4) here); --save writes the stack. Program p first
// copies its own t to row p of out, then row p of x into t.
// RUN: python3 %S/Inputs/npy.py write %t/t2.npy '<f4' 2,1,4 9,9,9,9,8,8,8,8 + write %t/t1.npy '<f4' 1,4 5,5,5,5
// RUN: sundial-run %s --func on_chip_arg --arg 0=%t/x.npy --arg 1=%t/t2.npy --save 1=%t/t.npy --save 2=%t/o.npy
// RUN: python3 %S/Inputs/npy.py dump %t/t.npy + dump %t/o.npy | FileCheck %s --check-prefix=ONCHIP
// ONCHIP: shape=(2, 1, 4)
// ONCHIP-NEXT: 0.0 1.0 2.0 3.0 4.0 5.0 6.0 7.0
// ONCHIP: shape=(2, 4)
// ONCHIP-NEXT: 9.0 9.0 9.0 9.0 8.0 8.0 8.0 8.0
// RUN: sundial-run %s --func on_chip_arg --arg 0=%t/x.npy --arg 1=%t/t1.npy --save 2=%t/o1.npy
// RUN: python3 %S/Inputs/npy.py dump %t/o1.npy | FileCheck %s --check-prefix=ONCHIP1
// ONCHIP1: 5.0 5.0 5.0 5.0 5.0 5.0 5.0 5.0
// RUN: sundial-run %s --func private_arg --arg 0=%t/x.npy --save 1=%t/p.npy
// RUN: python3 %S/Inputs/npy.py dump %t/p.npy | FileCheck %s --check-prefix=PRIVATE
// PRIVATE: shape=(2, 1, 4)
// PRIVATE-NEXT: 0.0 1.0 2.0 3.0 4.0 5.0 6.0 7.0
// RUN: not sundial-run %s --func on_chip_arg --arg 1=%t/x.npy 2>&1 | FileCheck %s --check-prefix=STACK
// STACK: sundial-run: error: --arg 1={{.*}}x.npy: shape mismatch: the file holds (4, 4), the argument is (1, 4), or (2, 1, 4) for every program (argument 1 is memref<1x4xf32, "sbuf">)
//
// core_barrier: the programs run as coroutines. Program p writes row p of in to the shared
// scratch and waits; once both arrived, each reads the other's row (without the barrier
// program 0 would read row 1 before program 1 wrote it). Each program's SBUF is its own:
// after the barrier, t still holds what that program wrote, though both used one address.
// RUN: sundial-run %s --func barrier_swap --arg 0=%t/x.npy --save 2=%t/swapped.npy | FileCheck %s --check-prefix=BARRIER
// BARRIER: {{^}}wrote 1x4xfloat32: 0.0 1.0 2.0 3.0{{$}}
// BARRIER-NEXT: {{^}}wrote 1x4xfloat32: 4.0 5.0 6.0 7.0{{$}}
// BARRIER-NEXT: {{^}}read 1x4xfloat32: 4.0 5.0 6.0 7.0{{$}}
// BARRIER-NEXT: {{^}}kept 1x4xfloat32: 0.0 1.0 2.0 3.0{{$}}
// BARRIER-NEXT: {{^}}read 1x4xfloat32: 0.0 1.0 2.0 3.0{{$}}
// BARRIER-NEXT: {{^}}kept 1x4xfloat32: 4.0 5.0 6.0 7.0{{$}}
// RUN: python3 %S/Inputs/npy.py dump %t/swapped.npy | FileCheck %s --check-prefix=SWAPPED
// SWAPPED: 4.0 5.0 6.0 7.0 0.0 1.0 2.0 3.0
// RUN: sundial-run %s --func barrier_swap --random-inputs 3 --compare-pipeline='builtin.module(sundial-unroll)' | FileCheck %s --check-prefix=SAME
// A barrier only some programs reach deadlocks: the error names the op and the programs.
// RUN: not sundial-run %s --func deadlock 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// Per-program arguments and --ranks do not combine.
// RUN: not sundial-run %s --func on_chip_arg --ranks 2 2>&1 | FileCheck %s --check-prefix=RANKS
// RANKS: sundial-run: error: argument 1 (memref<1x4xf32, "sbuf">) has one copy per program of the launch grid: sundial-run runs such a kernel on one rank, not with --ranks
// On a grid of 3 programs, program 2 is not one of the cores [0, 1] the barrier synchronises.
// RUN: not sundial-run %S/Inputs/barrier-3.mlir 2>&1 | FileCheck %s --check-prefix=THIRD
// THIRD: barrier-3.mlir:5:5: error: 'nisa.core_barrier' op is reached by program 2, which is not one of the programs [0, 1] it synchronises
// THIRD: note: in program [2] of the launch grid [3]
// An error inside one program says which (pid * pid * 12 is not affine: the verifier leaves
// it to this run-time check).
// RUN: not sundial-run %s --func second_fails --arg 0=%t/x.npy 2>&1 | FileCheck %s --check-prefix=WHICH

module attributes {sundial.grid = array<i64: 2>} {
  func.func @swap_halves(%x: memref<4x4xf32, "hbm"> {sundial.buffer = "shared_hbm"}, %out: memref<4x4xf32, "hbm">) {
    %pid = "nisa.program_id"() {axis = 0} : () -> index
    %n = "nisa.num_programs"() : () -> index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %last = arith.subi %n, %c1 : index
    %other = arith.subi %last, %pid : index
    %src_off = arith.muli %other, %c8 : index
    %dst_off = arith.muli %pid, %c8 : index
    %src = "nisa.dynamic_ap"(%x, %src_off) {pattern = array<i64: 4, 2, 1, 4>}
        : (memref<4x4xf32, "hbm">, index) -> memref<2x4xf32, "hbm">
    %t = "nisa.alloc"() : () -> memref<2x4xf32, "sbuf">
    "nisa.dma_copy"(%t, %src) : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "hbm">) -> ()
    %dst = "nisa.dynamic_ap"(%out, %dst_off) {pattern = array<i64: 4, 2, 1, 4>}
        : (memref<4x4xf32, "hbm">, index) -> memref<2x4xf32, "hbm">
    "nisa.dma_copy"(%dst, %t) : (memref<2x4xf32, "hbm">, memref<2x4xf32, "sbuf">) -> ()
    %e = "nisa.dynamic_ap"(%x, %pid) {pattern = array<i64: 1, 1, 1, 1>}
        : (memref<4x4xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
    "nisa.device_print"(%e) {prefix = "x[pid]"} : (memref<1x1xf32, "hbm">) -> ()
    return
  }
  func.func @on_chip_arg(%x: memref<4x4xf32, "hbm">, %t: memref<1x4xf32, "sbuf">, %out: memref<2x4xf32, "hbm">) {
    %pid = "nisa.program_id"() {axis = 0} : () -> index
    %c4 = arith.constant 4 : index
    %off = arith.muli %pid, %c4 : index
    %dst = "nisa.dynamic_ap"(%out, %off) {pattern = array<i64: 4, 1, 1, 4>}
        : (memref<2x4xf32, "hbm">, index) -> memref<1x4xf32, "hbm">
    "nisa.dma_copy"(%dst, %t) : (memref<1x4xf32, "hbm">, memref<1x4xf32, "sbuf">) -> ()
    %src = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 4, 1, 1, 4>}
        : (memref<4x4xf32, "hbm">, index) -> memref<1x4xf32, "hbm">
    "nisa.dma_copy"(%t, %src) : (memref<1x4xf32, "sbuf">, memref<1x4xf32, "hbm">) -> ()
    return
  }
  func.func @private_arg(%x: memref<4x4xf32, "hbm">, %p: memref<1x4xf32, "hbm"> {sundial.buffer = "private_hbm"}) {
    %pid = "nisa.program_id"() {axis = 0} : () -> index
    %c4 = arith.constant 4 : index
    %off = arith.muli %pid, %c4 : index
    %src = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 4, 1, 1, 4>}
        : (memref<4x4xf32, "hbm">, index) -> memref<1x4xf32, "hbm">
    "nisa.dma_copy"(%p, %src) : (memref<1x4xf32, "hbm">, memref<1x4xf32, "hbm">) -> ()
    return
  }
  func.func @barrier_swap(%in: memref<4x4xf32, "hbm">, %scratch: memref<2x4xf32, "hbm"> {sundial.buffer = "shared_hbm"},
                          %out: memref<2x4xf32, "hbm">) {
    %pid = "nisa.program_id"() {axis = 0} : () -> index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %other = arith.subi %c1, %pid : index
    %off = arith.muli %pid, %c4 : index
    %ooff = arith.muli %other, %c4 : index
    %src = "nisa.dynamic_ap"(%in, %off) {pattern = array<i64: 4, 1, 1, 4>}
        : (memref<4x4xf32, "hbm">, index) -> memref<1x4xf32, "hbm">
    %t = "nisa.alloc"() {name = "t"} : () -> memref<1x4xf32, "sbuf">
    "nisa.dma_copy"(%t, %src) : (memref<1x4xf32, "sbuf">, memref<1x4xf32, "hbm">) -> ()
    %mine = "nisa.dynamic_ap"(%scratch, %off) {pattern = array<i64: 4, 1, 1, 4>}
        : (memref<2x4xf32, "hbm">, index) -> memref<1x4xf32, "hbm">
    "nisa.dma_copy"(%mine, %t) : (memref<1x4xf32, "hbm">, memref<1x4xf32, "sbuf">) -> ()
    "nisa.device_print"(%t) {prefix = "wrote"} : (memref<1x4xf32, "sbuf">) -> ()
    "nisa.core_barrier"(%scratch) {cores = array<i64: 0, 1>} : (memref<2x4xf32, "hbm">) -> ()
    %theirs = "nisa.dynamic_ap"(%scratch, %ooff) {pattern = array<i64: 4, 1, 1, 4>}
        : (memref<2x4xf32, "hbm">, index) -> memref<1x4xf32, "hbm">
    %u = "nisa.alloc"() {name = "u"} : () -> memref<1x4xf32, "sbuf">
    "nisa.dma_copy"(%u, %theirs) : (memref<1x4xf32, "sbuf">, memref<1x4xf32, "hbm">) -> ()
    "nisa.device_print"(%u) {prefix = "read"} : (memref<1x4xf32, "sbuf">) -> ()
    "nisa.device_print"(%t) {prefix = "kept"} : (memref<1x4xf32, "sbuf">) -> ()
    %dst = "nisa.dynamic_ap"(%out, %off) {pattern = array<i64: 4, 1, 1, 4>}
        : (memref<2x4xf32, "hbm">, index) -> memref<1x4xf32, "hbm">
    "nisa.dma_copy"(%dst, %u) : (memref<1x4xf32, "hbm">, memref<1x4xf32, "sbuf">) -> ()
    return
  }
  func.func @deadlock(%x: memref<4xf32, "hbm">) {
    %pid = "nisa.program_id"() {axis = 0} : () -> index
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %pid, %c0 : index
    scf.if %first {
      "nisa.core_barrier"(%x) {cores = array<i64: 0, 1>} : (memref<4xf32, "hbm">) -> ()
// DEADLOCK: grid.mlir:[[@LINE-1]]:7: error: 'nisa.core_barrier' op deadlocks: program [0] of the launch grid [2] waits here for the programs [0, 1], but program [1] ended without reaching it
    }
    return
  }
  func.func @second_fails(%x: memref<4x4xf32, "hbm">) {
    %pid = "nisa.program_id"() {axis = 0} : () -> index
    %c12 = arith.constant 12 : index
    %sq = arith.muli %pid, %pid : index
    %off = arith.muli %sq, %c12 : index
    %src = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 4, 2, 1, 4>}
        : (memref<4x4xf32, "hbm">, index) -> memref<2x4xf32, "hbm">
// WHICH: grid.mlir:[[@LINE-2]]:12: error: 'nisa.dynamic_ap' op dynamic offset 12 (element offset 12) is out of range: access pattern reaches element 19 of an input of 16 elements (rule: ap bounds)
// WHICH: note: in program [1] of the launch grid [2]
    return
  }
}
