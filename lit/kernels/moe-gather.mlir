// The token gather of a mixture-of-experts layer, with a dynamic block loop as NKI's MoE
// kernels write it: the number of 128-token blocks routed to this expert is known only on
// the device (here an argument, loaded into a register), so the loop over the blocks is a
// dynamic_range (an scf.for bounded by nisa.register_index) that stays a loop through
// sundial-unroll. Block b reads its 128 token indices (row b of token_idx, as a [128, 1]
// index tile), gathers those rows of hidden through an indirect access pattern, scales them
// by the expert's routing weight 2.0 and stores them to block b of out.
// RUN: rm -rf %t && mkdir -p %t
// RUN: sundial-opt %s | FileCheck %s --check-prefix=LOOP
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-middle-end)' | FileCheck %s --check-prefix=LOOP
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-unroll)' | FileCheck %s --check-prefix=LOOP
// LOOP: "nisa.register_index"
// LOOP: scf.for
// LOOP: "nisa.dynamic_ap"
// LOOP: "nisa.dma_copy_indirect"
//
// Worked by hand: hidden = iota (hidden[r, c] = 64 r + c), token_idx[b, t] = 511 - (128 b +
// t) and 3 blocks: out[r, c] = 2 (64 (511 - r) + c) for r < 384, zero after. Row 0 starts
// 2 * 32704 = 65408; row 383 ends 2 * (64 * 128 + 63) = 16510, then zeros.
// RUN: python3 %S/../run/Inputs/npy.py write %t/h.npy '<f4' 512,64 iota + write %t/idx.npy '<i4' 4,128 iota*-1+511 + write %t/n.npy '<i4' 1,1 3
// RUN: sundial-run %s --arg 0=%t/h.npy --arg 1=%t/idx.npy --arg 2=%t/n.npy --save 3=%t/out.npy
// RUN: python3 %S/../run/Inputs/npy.py dump %t/out.npy | FileCheck %s --check-prefix=VALUES
// VALUES: shape=(512, 64)
// VALUES-NEXT: {{^}}65408.0 65410.0 65412.0 {{.*}} 16508.0 16510.0 0.0 0.0 {{.*}} 0.0 0.0{{$}}
//
// The same outputs after the middle end and after sundial-unroll, on these inputs and on
// random weights.
// RUN: sundial-run %s --arg 0=%t/h.npy --arg 1=%t/idx.npy --arg 2=%t/n.npy --compare-pipeline='builtin.module(sundial-middle-end)' | FileCheck %s --check-prefix=SAME
// RUN: sundial-run %s --random-inputs 9 --arg 1=%t/idx.npy --arg 2=%t/n.npy --compare-pipeline='builtin.module(sundial-unroll)' | FileCheck %s --check-prefix=SAME
// SAME: @moe_gather computes the same after

module attributes {sundial.target = "cayman"} {
func.func @moe_gather(%hidden: memref<512x64xf32, "hbm">, %token_idx: memref<4x128xi32, "hbm">,
                      %blocks: memref<1x1xi32, "sbuf">, %out: memref<512x64xf32, "hbm">) {
  // The loop runs on the GpSimd sequencer, which holds the block count.
  %r = "nisa.load_register"(%blocks) {engine = "gpsimd"} : (memref<1x1xi32, "sbuf">) -> !nisa.reg
  %n = "nisa.register_index"(%r) : (!nisa.reg) -> index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %block_elems = arith.constant 8192 : index
  %idx = "nisa.alloc"() {name = "idx"} : () -> memref<128x1xi32, "sbuf">
  %rows = "nisa.alloc"() {name = "rows"} : () -> memref<128x64xf32, "sbuf">
  %scaled = "nisa.alloc"() {name = "scaled"} : () -> memref<128x64xf32, "sbuf">
  scf.for %b = %c0 to %n step %c1 {
    %idx_off = arith.muli %b, %c128 : index
    %idx_blk = "nisa.dynamic_ap"(%token_idx, %idx_off) {pattern = array<i64: 1, 128, 1, 1>}
        : (memref<4x128xi32, "hbm">, index) -> memref<128x1xi32, "hbm">
    "nisa.dma_copy"(%idx, %idx_blk) : (memref<128x1xi32, "sbuf">, memref<128x1xi32, "hbm">) -> ()
    %g = "nisa.ap"(%hidden, %idx) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<512x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "hbm">
    "nisa.dma_copy_indirect"(%rows, %g) {dge_mode = "swdge"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    "nisa.tensor_scalar_arith"(%scaled, %rows) {op0 = "mult", imm0 = 2.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    %out_off = arith.muli %b, %block_elems : index
    %dst = "nisa.dynamic_ap"(%out, %out_off) {pattern = array<i64: 64, 128, 1, 64>}
        : (memref<512x64xf32, "hbm">, index) -> memref<128x64xf32, "hbm">
    "nisa.dma_copy"(%dst, %scaled) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">) -> ()
  }
  return
}
}
