// Cross-entropy loss per row, as NKI's cross-entropy kernels compute it: loss[i] =
// logsumexp(x[i, :]) - x[i, label[i]] for logits x[256, 64] in HBM and int32 labels, one
// affine_range iteration per tile of 128 rows. logsumexp is m + ln(sum(exp(x - m))) with m
// the row maximum (exp's add-reduce gives the sum); the label's logit is picked with a
// one-hot mask: iota gives each column's index, is_equal against the row's label (cast to
// fp32) gives 1.0 there and 0.0 elsewhere, and the mask times x, add-reduced, is x[i, label].
// RUN: rm -rf %t && mkdir -p %t
// RUN: sundial-opt %s | FileCheck %s --check-prefix=LOOP
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-middle-end)' | FileCheck %s --check-prefix=LOOP
// LOOP: "nisa.iota"
// LOOP: scf.for
// LOOP: "nisa.activation"{{.*}}op = "ln"
// RUN: python3 %S/../run/Inputs/npy.py write %t/labels.npy '<i4' 256,1 iota*0+5
// RUN: sundial-run %s --random-inputs 8 --arg 1=%t/labels.npy --compare-pipeline='builtin.module(sundial-middle-end)' | FileCheck %s --check-prefix=SAME
// RUN: sundial-run %s --random-inputs 8 --arg 1=%t/labels.npy --compare-pipeline='builtin.module(sundial-unroll)' | FileCheck %s --check-prefix=SAME
// SAME: @cross_entropy computes the same after
//
// Worked by hand: all-zero logits give logsumexp = ln(64) = 4.1588830..., minus the picked
// logit 0: every loss is ln 64 (to the precision of the Scalar engine's ln).
// RUN: sundial-run %s --arg 1=%t/labels.npy --save 2=%t/loss.npy
// RUN: python3 %S/../run/Inputs/npy.py dump %t/loss.npy | FileCheck %s --check-prefix=ZERO
// ZERO: shape=(256, 1)
// ZERO-NEXT: {{^}}4.15888{{[0-9]*}} 4.15888
// Logits x[i, j] = 64 i + j (iota) and label 5: the row maximum is 64 i + 63, logsumexp is
// 64 i + 63 + ln(sum_k e^-k over k = 0..63) = 64 i + 63.4586751..., the picked logit 64 i + 5:
// row 0's loss is 58.4586751... (later rows round the large logits in fp32).
// RUN: python3 %S/../run/Inputs/npy.py write %t/x.npy '<f4' 256,64 iota
// RUN: sundial-run %s --arg 0=%t/x.npy --arg 1=%t/labels.npy --save 2=%t/loss2.npy
// RUN: python3 %S/../run/Inputs/npy.py dump %t/loss2.npy | FileCheck %s --check-prefix=IOTA
// IOTA: shape=(256, 1)
// IOTA-NEXT: {{^}}58.4586{{[0-9]*}} 58.4

module attributes {sundial.target = "cayman"} {
func.func @cross_entropy(%x: memref<256x64xf32, "hbm">, %labels: memref<256x1xi32, "hbm">,
                         %loss: memref<256x1xf32, "hbm">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %rows = arith.constant 8192 : index
  %c128 = arith.constant 128 : index
  %cols = "nisa.alloc"() {name = "cols"} : () -> memref<128x64xf32, "sbuf">
  "nisa.iota"(%cols) {pattern = array<i64: 1, 64>} : (memref<128x64xf32, "sbuf">) -> ()
  %x_sb = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  %lab_i = "nisa.alloc"() : () -> memref<128x1xi32, "sbuf">
  %lab = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
  %max = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
  %neg = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
  %e = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  %sum = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
  %lse = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
  %mask = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  %picked_all = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  %picked = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
  %out = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
  scf.for %t = %c0 to %c2 step %c1 {
    %off = arith.muli %t, %rows : index
    %x_tile = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 64, 128, 1, 64>}
        : (memref<256x64xf32, "hbm">, index) -> memref<128x64xf32, "hbm">
    "nisa.dma_copy"(%x_sb, %x_tile) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    %row_off = arith.muli %t, %c128 : index
    %lab_tile = "nisa.dynamic_ap"(%labels, %row_off) {pattern = array<i64: 1, 128, 1, 1>}
        : (memref<256x1xi32, "hbm">, index) -> memref<128x1xi32, "hbm">
    "nisa.dma_copy"(%lab_i, %lab_tile) : (memref<128x1xi32, "sbuf">, memref<128x1xi32, "hbm">) -> ()
    "nisa.tensor_copy"(%lab, %lab_i) : (memref<128x1xf32, "sbuf">, memref<128x1xi32, "sbuf">) -> ()
    // logsumexp
    "nisa.tensor_reduce_arith"(%max, %x_sb) {op = "max", axis = array<i64: 1>, keepdims = true}
        : (memref<128x1xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_arith"(%neg, %max) {op0 = "mult", imm0 = -1.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.activation"(%e, %x_sb, %neg, %sum) {op = "exp", reduce_op = "add", reduce_cmd = "reset_reduce", operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.activation"(%lse, %sum) {op = "ln", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}
        : (memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.tensor_tensor_arith"(%lse, %lse, %max) {op = "add"}
        : (memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    // x[i, label[i]] through a one-hot mask
    "nisa.tensor_scalar_arith"(%mask, %cols, %lab) {op0 = "is_equal", operandSegmentSizes = array<i32: 1, 1, 1, 0>}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.tensor_tensor_arith"(%picked_all, %mask, %x_sb) {op = "mult"}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    "nisa.tensor_reduce_arith"(%picked, %picked_all) {op = "add", axis = array<i64: 1>, keepdims = true}
        : (memref<128x1xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    "nisa.tensor_tensor_arith"(%out, %lse, %picked) {op = "subtract"}
        : (memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    %loss_tile = "nisa.dynamic_ap"(%loss, %row_off) {pattern = array<i64: 1, 128, 1, 1>}
        : (memref<256x1xf32, "hbm">, index) -> memref<128x1xf32, "hbm">
    "nisa.dma_copy"(%loss_tile, %out) : (memref<128x1xf32, "hbm">, memref<128x1xf32, "sbuf">) -> ()
  } {sundial.range = "affine"}
  return
}
}
