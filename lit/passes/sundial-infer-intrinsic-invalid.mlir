// sundial-infer-intrinsic refuses nothing: a DAG it cannot fold is left as it is
// (sundial-infer-intrinsic.mlir, @kept). What it never produces is what the verifier refuses
// in its input, before the pass runs: here the GpSimd tensor_scalar form a fused float chain
// on GpSimd would need (rsqrt-only without a fused-intrinsic marker, which the dialect does
// not model).
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-infer-intrinsic)' -verify-diagnostics

func.func @gpsimd_two_step(%y: memref<128x64xf32, "sbuf">, %x: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{tensor_scalar on GpSimd is only allowed for rsqrt (rule: gpsimd tensor_scalar)}}
  "nisa.tensor_scalar_arith"(%y, %x) {op0 = "mult", imm0 = 2.0 : f32, op1 = "add", imm1 = 1.0 : f32, engine = "gpsimd", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}
