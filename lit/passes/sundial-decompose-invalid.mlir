// sundial-decompose's refusals: forms of power and mod with no decomposition.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-decompose)' -verify-diagnostics

// The seed's assert: tensorvectorscalar (the two-op form) has no power.
func.func @pow_two_op(%d: memref<128x64xf32, "sbuf">, %x: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{'nisa.tensor_scalar_arith' op attribute 'op0': "pow" in a two-op tensor_scalar: tensorvectorscalar doesn't support power, use tensor_tensor instead. (rule: pow in a two-op form)}}
  "nisa.tensor_scalar_arith"(%d, %x) {op0 = "pow", imm0 = 2.0 : f32, op1 = "add", imm1 = 1.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  // expected-error@+1 {{attribute 'op1': "pow" in a two-op tensor_scalar}}
  "nisa.tensor_scalar_arith"(%d, %x) {op0 = "add", imm0 = 2.0 : f32, op1 = "pow", imm1 = 1.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

func.func @pow_stt(%d: memref<128x64xf32, "sbuf">, %x: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{'nisa.scalar_tensor_tensor_arith' op attribute 'op1': "pow" in scalar_tensor_tensor: tensorvectorscalar doesn't support power, use tensor_tensor instead. (rule: pow in a two-op form)}}
  "nisa.scalar_tensor_tensor_arith"(%d, %x, %x) {op0 = "mult", imm0 = 2.0 : f32, op1 = "pow"}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// The fused scan has no power step to decompose into.
func.func @pow_scan(%d: memref<128x64xf32, "sbuf">, %x: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{'nisa.tensor_tensor_scan' op attribute 'op0': "pow" has no instruction, and this fused form has no power step to decompose it into; compute the power with tensor_tensor_power first (rule: pow in a fused form)}}
  "nisa.tensor_tensor_scan"(%d, %x, %x) {op0 = "pow", op1 = "add", initial_value = 0.0 : f32}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// b mod x: the divisor is the tensor.
func.func @mod_reversed(%d: memref<128x64xf32, "sbuf">, %x: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{'nisa.tensor_scalar_arith' op attribute 'op0': a reversed mod (scalar mod tensor) has no decomposed form: the divisor is the tensor, so its sign varies per element (rule: reversed mod)}}
  "nisa.tensor_scalar_arith"(%d, %x) {op0 = "mod", imm0 = 7.0 : f32, reverse0 = true, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}
