// Row softmax written with a loop, as NKI's softmax tutorial is: y = exp(x - max(x)) /
// sum(exp(x - max(x))) along the free axis, for x[256, 64] in HBM, one affine_range
// iteration per tile of 128 rows. In the loop: the row maximum (tensor_reduce max), its
// negation as the per-partition bias of exp, whose add-reduce gives the row sum in the same
// instruction, the reciprocal of the sum, and the scale of every element by it.
// Verified as written, passed through the middle end (which keeps the loop), and run before
// and after the middle end and sundial-unroll.
// RUN: rm -rf %t && mkdir -p %t
// RUN: sundial-opt %s | FileCheck %s --check-prefix=LOOP
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-middle-end)' | FileCheck %s --check-prefix=MIDDLE
// RUN: sundial-run %s --random-inputs 4 --compare-pipeline='builtin.module(sundial-middle-end)' | FileCheck %s --check-prefix=SAME
// RUN: sundial-run %s --random-inputs 4 --compare-pipeline='builtin.module(sundial-unroll)' | FileCheck %s --check-prefix=SAME
// SAME: @softmax computes the same after
//
// Worked by hand: a row of 64 equal values gives 64 times exp(0) = 1, so every element is
// 1/64 = 0.015625 exactly.
// RUN: python3 %S/../run/Inputs/npy.py write %t/x.npy '<f4' 256,64 iota*0+2.5
// RUN: sundial-run %s --arg 0=%t/x.npy --save 1=%t/y.npy
// RUN: python3 %S/../run/Inputs/npy.py write %t/want.npy '<f4' 256,64 iota*0+0.015625
// RUN: python3 %S/../run/Inputs/npy.py dump %t/y.npy > %t/y.txt
// RUN: python3 %S/../run/Inputs/npy.py dump %t/want.npy > %t/want.txt
// RUN: diff %t/y.txt %t/want.txt

// LOOP: scf.for
// LOOP: "nisa.tensor_reduce_arith"
// LOOP: "nisa.activation"
// LOOP: } {sundial.range = "affine"}
// The middle end keeps the loop (unrolling is sundial-unroll's, before selection).
// MIDDLE-LABEL: func.func @softmax
// MIDDLE: scf.for
// MIDDLE: "nisa.activation"{{.*}}op = "exp"
// MIDDLE: "nisa.reciprocal"

module attributes {sundial.target = "cayman"} {
func.func @softmax(%x: memref<256x64xf32, "hbm">, %y: memref<256x64xf32, "hbm">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %rows = arith.constant 8192 : index
  %x_sb = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  %max = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
  %neg_max = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
  %e = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  %sum = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
  %inv = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
  %y_sb = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  scf.for %t = %c0 to %c2 step %c1 {
    %off = arith.muli %t, %rows : index
    %x_tile = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 64, 128, 1, 64>}
        : (memref<256x64xf32, "hbm">, index) -> memref<128x64xf32, "hbm">
    "nisa.dma_copy"(%x_sb, %x_tile) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    "nisa.tensor_reduce_arith"(%max, %x_sb) {op = "max", axis = array<i64: 1>, keepdims = true}
        : (memref<128x1xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_arith"(%neg_max, %max) {op0 = "mult", imm0 = -1.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.activation"(%e, %x_sb, %neg_max, %sum) {op = "exp", reduce_op = "add", reduce_cmd = "reset_reduce", operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.reciprocal"(%inv, %sum) : (memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_arith"(%y_sb, %e, %inv) {op0 = "mult", operandSegmentSizes = array<i32: 1, 1, 1, 0>}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    %y_tile = "nisa.dynamic_ap"(%y, %off) {pattern = array<i64: 64, 128, 1, 64>}
        : (memref<256x64xf32, "hbm">, index) -> memref<128x64xf32, "hbm">
    "nisa.dma_copy"(%y_tile, %y_sb) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">) -> ()
  } {sundial.range = "affine"}
  return
}
}
