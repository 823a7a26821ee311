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
// Each program has its own SBUF and PSUM, so a grid kernel takes HBM tensors only; a
// private_hbm argument (one copy per program) has no one array to read or save.
// RUN: not sundial-run %s --func on_chip_arg 2>&1 | FileCheck %s --check-prefix=ONCHIP
// RUN: not sundial-run %s --func private_arg 2>&1 | FileCheck %s --check-prefix=PRIVATE
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
  func.func @on_chip_arg(%t: memref<4x4xf32, "sbuf">) {
// ONCHIP: grid.mlir:[[@LINE-1]]:3: error: argument 0 of @on_chip_arg is an on-chip tile (memref<4x4xf32, "sbuf">), but the kernel runs on a launch grid of 2 programs, each with its own SBUF and PSUM: pass HBM tensors
    return
  }
  func.func @private_arg(%x: memref<4x4xf32, "hbm"> {sundial.buffer = "private_hbm"}) {
// PRIVATE: grid.mlir:[[@LINE-1]]:3: error: argument 0 of @private_arg is in private_hbm, one copy per program of the launch grid: sundial-run has one array per argument (use shared_hbm or hbm)
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
