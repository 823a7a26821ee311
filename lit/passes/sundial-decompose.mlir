// sundial-decompose: power and mod become the instructions that exist, and the Tensor-engine
// nc_transpose a matmul with is_transpose against an identity.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-decompose)' | FileCheck %s
// The result is ready for selection as far as composite forms go, and a second run changes
// nothing.
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-decompose,sundial-verify{phase=selection})' -o %t.1 -split-input-file
// RUN: sundial-opt %t.1 -split-input-file --pass-pipeline='builtin.module(sundial-decompose)' -o %t.2
// RUN: diff %t.1 %t.2

// x ** 3: memset an fp32 exponent tile, then tensor_tensor_power on GpSimd.
// CHECK-LABEL: func.func @pow_imm
// CHECK: %[[E:.*]] = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
// CHECK: "nisa.memset"(%[[E]]) {engine = "vector", value = 3.000000e+00 : f32}
// CHECK: "nisa.tensor_tensor_power"(%arg0, %arg1, %[[E]]) {engine = "gpsimd"}
// CHECK-NOT: "pow"
func.func @pow_imm(%d: memref<128x64xbf16, "sbuf">, %x: memref<128x64xbf16, "sbuf">) {
  "nisa.tensor_scalar_arith"(%d, %x) {op0 = "pow", imm0 = 3.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
  return
}

// 2 ** x (reverse0) with a per-partition exponent base: the [P, 1] tile is broadcast into the
// exponent tile by a Vector add; the PSUM input is copied to SBUF and the PSUM result written
// through SBUF (GpSimd cannot reach PSUM).
// CHECK-LABEL: func.func @pow_tile_psum
// CHECK: %[[E:.*]] = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
// CHECK: "nisa.memset"(%[[E]]) {engine = "vector", value = 0.000000e+00 : f32}
// CHECK: "nisa.tensor_scalar_arith"(%[[E]], %[[E]], %arg2) {engine = "vector", op0 = "add"
// CHECK: %[[X:.*]] = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
// CHECK: "nisa.tensor_copy"(%[[X]], %arg1) {engine = "vector"}
// CHECK: %[[O:.*]] = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
// CHECK: "nisa.tensor_tensor_power"(%[[O]], %[[E]], %[[X]]) {engine = "gpsimd"}
// CHECK: "nisa.tensor_copy"(%arg0, %[[O]]) {engine = "vector"}
func.func @pow_tile_psum(%d: memref<128x64xf32, "psum">, %x: memref<128x64xf32, "psum">, %c: memref<128x1xf32, "sbuf">) {
  "nisa.tensor_scalar_arith"(%d, %x, %c) {op0 = "pow", reverse0 = true, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 1, 0>}
      : (memref<128x64xf32, "psum">, memref<128x64xf32, "psum">, memref<128x1xf32, "sbuf">) -> ()
  return
}

// tensor_tensor with pow is tensor_tensor_power.
// CHECK-LABEL: func.func @pow_tensor
// CHECK: "nisa.tensor_tensor_power"(%arg0, %arg1, %arg2) {engine = "gpsimd"}
func.func @pow_tensor(%d: memref<128x64xf32, "sbuf">, %a: memref<128x64xf32, "sbuf">, %b: memref<128x64xf32, "sbuf">) {
  "nisa.tensor_tensor_arith"(%d, %a, %b) {op = "pow", engine = "vector"}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// x mod -3, floored: r = x mod -3 (marked), m = (r * -1) < 0, out = m * -3 + r.
// CHECK-LABEL: func.func @mod_imm
// CHECK: %[[R:.*]] = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
// CHECK: "nisa.tensor_scalar_arith"(%[[R]], %arg1) {engine = "vector", imm0 = -3.000000e+00 : f32, op0 = "mod", operandSegmentSizes = array<i32: 1, 1, 0, 0>, sundial.expanded}
// CHECK: %[[M:.*]] = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
// CHECK: "nisa.tensor_scalar_arith"(%[[M]], %[[R]]) {engine = "vector", imm0 = -1.000000e+00 : f32, imm1 = 0.000000e+00 : f32, op0 = "mult", op1 = "is_lt"
// CHECK: "nisa.scalar_tensor_tensor_arith"(%arg0, %[[M]], %[[R]]) {engine = "vector", imm0 = -3.000000e+00 : f32, op0 = "mult", op1 = "add"
func.func @mod_imm(%d: memref<128x64xbf16, "sbuf">, %x: memref<128x64xf32, "sbuf">) {
  "nisa.tensor_scalar_arith"(%d, %x) {op0 = "mod", imm0 = -3.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xbf16, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// (x + 1) mod b with a [P, 1] divisor: the add step first (into fp32), then the mod with the
// divisor's sign computed once as 2 * (b >= 0) - 1.
// CHECK-LABEL: func.func @mod_tile_second
// CHECK: %[[T:.*]] = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
// CHECK: "nisa.tensor_scalar_arith"(%[[T]], %arg1) {engine = "vector", imm0 = 1.000000e+00 : f32, op0 = "add"
// CHECK: "nisa.tensor_scalar_arith"(%[[R:.*]], %[[T]], %arg2) {engine = "vector", op0 = "mod", {{.*}}sundial.expanded}
// CHECK: %[[S:.*]] = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
// CHECK: "nisa.tensor_scalar_arith"(%[[S]], %arg2) {engine = "vector", imm0 = 0.000000e+00 : f32, imm1 = 2.000000e+00 : f32, op0 = "is_ge", op1 = "mult"
// CHECK: "nisa.tensor_scalar_arith"(%[[S]], %[[S]]) {engine = "vector", imm0 = 1.000000e+00 : f32, op0 = "subtract"
// CHECK: "nisa.tensor_scalar_arith"(%[[M:.*]], %[[R]], %[[S]]) {engine = "vector", imm1 = 0.000000e+00 : f32, op0 = "mult", op1 = "is_lt"
// CHECK: "nisa.scalar_tensor_tensor_arith"(%arg0, %[[M]], %arg2, %[[R]]) {engine = "vector", op0 = "mult", op1 = "add"
func.func @mod_tile_second(%d: memref<128x64xf32, "sbuf">, %x: memref<128x64xf32, "sbuf">, %b: memref<128x1xf32, "sbuf">) {
  "nisa.tensor_scalar_arith"(%d, %x, %b) {op0 = "add", imm0 = 1.0 : f32, op1 = "mod", engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 1>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  return
}

// Other ops, a marked mod step and mod_int (an integer ALU op of its own) are left alone.
// CHECK-LABEL: func.func @untouched
// CHECK: "nisa.tensor_scalar_arith"(%arg0, %arg1) {engine = "vector", imm0 = 3.000000e+00 : f32, op0 = "mod", operandSegmentSizes = array<i32: 1, 1, 0, 0>, sundial.expanded}
// CHECK: op0 = "mod_int"
// CHECK: op0 = "mult"
func.func @untouched(%d: memref<128x64xf32, "sbuf">, %x: memref<128x64xf32, "sbuf">) {
  "nisa.tensor_scalar_arith"(%d, %x) {op0 = "mod", imm0 = 3.0 : f32, engine = "vector", sundial.expanded, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%d, %x) {op0 = "mod_int", imm0 = 3.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%d, %x) {op0 = "mult", imm0 = 3.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// nc_transpose on the Tensor engine (cayman: the PE transpose mode is a bit copy): an int32
// iota of partition - column, is_equal 0 into a bf16 [128, 128] identity, and the matmul of
// data (stationary) by the identity (moving) with is_transpose, dst[64, 128] = data^T. The
// Vector-engine transpose is left alone.
// CHECK-LABEL: func.func @pe_transpose
// CHECK: %[[I:.*]] = "nisa.alloc"() : () -> memref<128x128xi32, "sbuf">
// CHECK-NEXT: "nisa.iota"(%[[I]]) {channel_multiplier = 1 : i64, engine = "gpsimd", pattern = array<i64: -1, 128>} : (memref<128x128xi32, "sbuf">) -> ()
// CHECK-NEXT: %[[ID:.*]] = "nisa.alloc"() : () -> memref<128x128xbf16, "sbuf">
// CHECK-NEXT: "nisa.tensor_scalar_arith"(%[[ID]], %[[I]]) {engine = "vector", imm0 = 0.000000e+00 : f32, op0 = "is_equal", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
// CHECK-NEXT: "nisa.matmul"(%arg0, %arg1, %[[ID]]) {engine = "tensor", is_transpose = true} : (memref<64x128xbf16, "psum">, memref<128x64xbf16, "sbuf">, memref<128x128xbf16, "sbuf">) -> ()
// CHECK-NOT: nc_transpose"(%arg0
// CHECK: "nisa.iota"({{.*}}pattern = array<i64: -1, 16>} : (memref<16x16xi32, "sbuf">)
// CHECK: "nisa.tensor_scalar_arith"({{.*}}op0 = "is_equal"{{.*}} : (memref<16x16xf32, "sbuf">, memref<16x16xi32, "sbuf">)
// CHECK: "nisa.matmul"(%arg2, %arg3, %{{.*}}) {engine = "tensor", is_transpose = true} : (memref<32x16xf32, "psum">, memref<16x32xf32, "sbuf">, memref<16x16xf32, "sbuf">)
// CHECK: "nisa.nc_transpose"(%arg4, %arg5) {engine = "vector"}
module attributes {sundial.target = "cayman"} {
  func.func @pe_transpose(%d: memref<64x128xbf16, "psum">, %x: memref<128x64xbf16, "sbuf">,
                          %fd: memref<32x16xf32, "psum">, %fx: memref<16x32xf32, "sbuf">,
                          %vd: memref<8x4xf32, "sbuf">, %vx: memref<4x8xf32, "sbuf">) {
    "nisa.nc_transpose"(%d, %x) {engine = "tensor"} : (memref<64x128xbf16, "psum">, memref<128x64xbf16, "sbuf">) -> ()
    "nisa.nc_transpose"(%fd, %fx) {engine = "tensor"} : (memref<32x16xf32, "psum">, memref<16x32xf32, "sbuf">) -> ()
    "nisa.nc_transpose"(%vd, %vx) {engine = "vector"} : (memref<8x4xf32, "sbuf">, memref<4x8xf32, "sbuf">) -> ()
    return
  }
}

// -----

// On sunda the PE transpose is not bit-accurate for NaN and Inf (the v2 hardware), so the
// Tensor-engine nc_transpose is kept (instruction selection refuses it with that reason).
// CHECK-LABEL: func.func @pe_transpose_v2
// CHECK-NOT: nisa.matmul
// CHECK: "nisa.nc_transpose"(%arg0, %arg1) {engine = "tensor"}
// CHECK-NOT: nisa.matmul
module attributes {sundial.target = "sunda"} {
  func.func @pe_transpose_v2(%d: memref<64x128xbf16, "psum">, %x: memref<128x64xbf16, "sbuf">) {
    "nisa.nc_transpose"(%d, %x) {engine = "tensor"} : (memref<64x128xbf16, "psum">, memref<128x64xbf16, "sbuf">) -> ()
    return
  }
}
