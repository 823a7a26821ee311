// Elementwise NISA ops on Vector / Scalar / GpSimd: tensor-tensor, tensor-scalar, scans,
// selects, copies and fills.
// RUN: sundial-opt %s | FileCheck %s
// RUN: sundial-opt %s -o %t.1 && sundial-opt %t.1 -o %t.2 && diff %t.1 %t.2

// tensor_tensor on the default engine, and int32 add on GpSimd (native integer math).
// CHECK-LABEL: func.func @tensor_tensor_arith
// CHECK: "nisa.tensor_tensor_arith"(%{{.*}}, %{{.*}}, %{{.*}}) {op = "divide"}
// CHECK: "nisa.tensor_tensor_arith"(%{{.*}}, %{{.*}}, %{{.*}}) {engine = "gpsimd", op = "add"}
func.func @tensor_tensor_arith(%d: memref<128x512xf32, "sbuf">, %a: memref<128x512xf32, "psum">, %b: memref<128x512xbf16, "sbuf">,
                               %i: memref<64x32xi32, "sbuf">) {
  // One operand may be in PSUM.
  "nisa.tensor_tensor_arith"(%d, %a, %b) {op = "divide"}
      : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "psum">, memref<128x512xbf16, "sbuf">) -> ()
  "nisa.tensor_tensor_arith"(%i, %i, %i) {op = "add", engine = "gpsimd"}
      : (memref<64x32xi32, "sbuf">, memref<64x32xi32, "sbuf">, memref<64x32xi32, "sbuf">) -> ()
  return
}

// tensor_tensor on raw integer bits.
// CHECK-LABEL: func.func @tensor_tensor_bitvec
// CHECK: "nisa.tensor_tensor_bitvec"(%{{.*}}, %{{.*}}, %{{.*}}) {op = "bitwise_xor"}
func.func @tensor_tensor_bitvec(%d: memref<128x64xui16, "sbuf">, %a: memref<128x64xui16, "sbuf">, %b: memref<128x64xui16, "psum">) {
  "nisa.tensor_tensor_bitvec"(%d, %a, %b) {op = "bitwise_xor"}
      : (memref<128x64xui16, "sbuf">, memref<128x64xui16, "sbuf">, memref<128x64xui16, "psum">) -> ()
  return
}

// tensor_scalar: immediates for both ops; then [P, 1] tiles for both operands with the
// reverse flags; then the Scalar engine's (mult, add) form and GpSimd's rsqrt.
// CHECK-LABEL: func.func @tensor_scalar_arith
// CHECK: "nisa.tensor_scalar_arith"(%[[D:.*]], %[[S:.*]]) {imm0 = 2.000000e+00 : f32, imm1 = -1.000000e+00 : f32, op0 = "mult", op1 = "add", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
// CHECK: "nisa.tensor_scalar_arith"(%[[D]], %[[S]], %{{.*}}, %{{.*}}) {op0 = "subtract", op1 = "max", operandSegmentSizes = array<i32: 1, 1, 1, 1>, reverse0 = true, reverse1 = false}
// CHECK: {engine = "scalar", imm0 = 5.000000e-01 : f32, op0 = "mult", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
// CHECK: {engine = "gpsimd", imm0 = 0.000000e+00 : f32, op0 = "rsqrt", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
func.func @tensor_scalar_arith(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">,
                               %c0: memref<128x1xf32, "sbuf">, %c1: memref<128x1xf32, "psum">) {
  "nisa.tensor_scalar_arith"(%d, %s) {op0 = "mult", imm0 = 2.0 : f32, op1 = "add", imm1 = -1.0 : f32,
                                      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%d, %s, %c0, %c1) {op0 = "subtract", reverse0 = true, op1 = "max", reverse1 = false,
                                                operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "psum">) -> ()
  "nisa.tensor_scalar_arith"(%d, %s) {op0 = "mult", imm0 = 0.5 : f32, engine = "scalar",
                                      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%d, %s) {op0 = "rsqrt", imm0 = 0.0 : f32, engine = "gpsimd",
                                      operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// tensor_scalar on raw bits, with and without the second op.
// CHECK-LABEL: func.func @tensor_scalar_bitvec
// CHECK: "nisa.tensor_scalar_bitvec"(%{{.*}}, %{{.*}}) {imm0 = 4 : i64, op0 = "logical_shift_right"}
// CHECK: "nisa.tensor_scalar_bitvec"(%{{.*}}, %{{.*}}) {imm0 = 255 : i64, imm1 = 1 : i64, op0 = "bitwise_and", op1 = "arith_shift_left", reverse0 = false}
func.func @tensor_scalar_bitvec(%d: memref<128x64xi32, "sbuf">, %s: memref<128x64xi32, "sbuf">) {
  "nisa.tensor_scalar_bitvec"(%d, %s) {op0 = "logical_shift_right", imm0 = 4}
      : (memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
  "nisa.tensor_scalar_bitvec"(%d, %s) {op0 = "bitwise_and", imm0 = 255, reverse0 = false, op1 = "arith_shift_left", imm1 = 1}
      : (memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
  return
}

// tensor_scalar_reduce: a [P, 1] operand and an accumulator tile.
// CHECK-LABEL: func.func @tensor_scalar_cache_reduce
// CHECK: "nisa.tensor_scalar_cache_reduce"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {op0 = "mult", operandSegmentSizes = array<i32: 1, 1, 1, 1>, reduce_cmd = "reset_reduce", reduce_init = 0xFF800000 : f32, reduce_op = "max", reduce_res_negate = true, reverse0 = false}
// CHECK: "nisa.tensor_scalar_cache_reduce"(%{{.*}}, %{{.*}}) {imm0 = 1.000000e+00 : f32, op0 = "add", operandSegmentSizes = array<i32: 1, 1, 0, 0>, reduce_op = "add"}
func.func @tensor_scalar_cache_reduce(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xbf16, "sbuf">,
                                      %c: memref<128x1xf32, "sbuf">, %acc: memref<128x1xf32, "sbuf">) {
  // reduce_init is -inf, the identity of max: infinities are legal immediates.
  "nisa.tensor_scalar_cache_reduce"(%d, %s, %c, %acc)
      {op0 = "mult", reverse0 = false, reduce_op = "max", reduce_cmd = "reset_reduce",
       reduce_init = 0xFF800000 : f32, reduce_res_negate = true, operandSegmentSizes = array<i32: 1, 1, 1, 1>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xbf16, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  // The reduction may stay in the engine's accumulator (no reduce_res).
  "nisa.tensor_scalar_cache_reduce"(%d, %s) {op0 = "add", imm0 = 1.0 : f32, reduce_op = "add",
                                             operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
  return
}

// tensor_scalar_cumulative: a running sum.
// CHECK-LABEL: func.func @tensor_scalar_cache_cumulative
// CHECK: "nisa.tensor_scalar_cache_cumulative"(%{{.*}}, %{{.*}}) {imm0 = 1.000000e+00 : f32, imm1 = 0.000000e+00 : f32, op0 = "mult", op1 = "add", reduce_cmd = "reset_reduce"}
func.func @tensor_scalar_cache_cumulative(%d: memref<128x64xbf16, "sbuf">, %s: memref<128x64xi16, "sbuf">) {
  "nisa.tensor_scalar_cache_cumulative"(%d, %s) {op0 = "mult", imm0 = 1.0 : f32, op1 = "add", imm1 = 0.0 : f32, reduce_cmd = "reset_reduce"}
      : (memref<128x64xbf16, "sbuf">, memref<128x64xi16, "sbuf">) -> ()
  return
}

// tensor_tensor_scan with an immediate initial value, then with a [P, 1] initial tile.
// CHECK-LABEL: func.func @tensor_tensor_scan
// CHECK: "nisa.tensor_tensor_scan"(%{{.*}}, %{{.*}}, %{{.*}}) {initial_value = 0.000000e+00 : f32, op0 = "mult", op1 = "add"}
// CHECK: "nisa.tensor_tensor_scan"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {op0 = "add", op1 = "max", reverse0 = true, reverse1 = true}
func.func @tensor_tensor_scan(%d: memref<128x64xf32, "sbuf">, %a: memref<128x64xf32, "sbuf">, %b: memref<128x64xf32, "sbuf">,
                              %init: memref<128x1xf32, "sbuf">) {
  "nisa.tensor_tensor_scan"(%d, %a, %b) {op0 = "mult", op1 = "add", initial_value = 0.0 : f32}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_tensor_scan"(%d, %a, %b, %init) {op0 = "add", op1 = "max", reverse0 = true, reverse1 = true}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  return
}

// scalar_tensor_tensor, arith with an immediate and bitvec with a [P, 1] tile.
// CHECK-LABEL: func.func @scalar_tensor_tensor
// CHECK: "nisa.scalar_tensor_tensor_arith"(%{{.*}}, %{{.*}}, %{{.*}}) {imm0 = 3.000000e+00 : f32, op0 = "mult", op1 = "add", reverse1 = true}
// CHECK: "nisa.scalar_tensor_tensor_bitvec"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {op0 = "bitwise_and", op1 = "bitwise_or", reverse0 = true}
func.func @scalar_tensor_tensor(%d: memref<128x64xf32, "sbuf">, %a: memref<128x64xf32, "sbuf">, %b: memref<128x64xf32, "psum">,
                                %di: memref<128x64xui8, "sbuf">, %c: memref<128x1xui8, "sbuf">) {
  "nisa.scalar_tensor_tensor_arith"(%d, %a, %b) {op0 = "mult", imm0 = 3.0 : f32, op1 = "add", reverse1 = true}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "psum">) -> ()
  "nisa.scalar_tensor_tensor_bitvec"(%di, %di, %c, %di) {op0 = "bitwise_and", op1 = "bitwise_or", reverse0 = true}
      : (memref<128x64xui8, "sbuf">, memref<128x64xui8, "sbuf">, memref<128x1xui8, "sbuf">, memref<128x64xui8, "sbuf">) -> ()
  return
}

// select_reduce: on_false as a [P, 1] tile with a max-reduce into reduce_res, then as a value.
// CHECK-LABEL: func.func @select_reduce
// CHECK: "nisa.select_reduce"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>, reduce_cmd = "reset_reduce", reduce_op = "max", reverse_pred = true}
// CHECK: "nisa.select_reduce"(%{{.*}}, %{{.*}}, %{{.*}}) {on_false_value = -1.000000e+00 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}
func.func @select_reduce(%d: memref<128x64xf32, "sbuf">, %p: memref<128x64xui8, "sbuf">, %t: memref<128x64xbf16, "sbuf">,
                         %f: memref<128x1xf32, "sbuf">, %r: memref<128x1xf32, "sbuf">) {
  "nisa.select_reduce"(%d, %p, %t, %f, %r) {reduce_cmd = "reset_reduce", reduce_op = "max", reverse_pred = true,
                                            operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xui8, "sbuf">, memref<128x64xbf16, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  "nisa.select_reduce"(%d, %p, %t) {on_false_value = -1.0 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xui8, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
  return
}

// tensor_copy_predicated with a uint32 predicate.
// CHECK-LABEL: func.func @copy_predicated
// CHECK: "nisa.copy_predicated"(%{{.*}}, %{{.*}}, %{{.*}}) {reverse_pred = true}
func.func @copy_predicated(%d: memref<128x64xbf16, "sbuf">, %s: memref<128x64xbf16, "psum">, %p: memref<128x64xui32, "sbuf">) {
  "nisa.copy_predicated"(%d, %s, %p) {reverse_pred = true}
      : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "psum">, memref<128x64xui32, "sbuf">) -> ()
  return
}

// memset with a float, an integer, and 0 on an MX x4 tile.
// CHECK-LABEL: func.func @memset
// CHECK: "nisa.memset"(%{{.*}}) {engine = "vector", value = 1.500000e+00 : f32}
// CHECK: "nisa.memset"(%{{.*}}) {engine = "gpsimd", value = -7 : i64}
// CHECK: "nisa.memset"(%{{.*}}) {value = 0 : i64} : (memref<128x16xvector<4xf8E4M3FN>, "sbuf">) -> ()
func.func @memset(%f: memref<128x64xf32, "psum">, %i: memref<128x64xi32, "sbuf">, %x: memref<128x16xvector<4xf8E4M3FN>, "sbuf">) {
  "nisa.memset"(%f) {value = 1.5 : f32, engine = "vector"} : (memref<128x64xf32, "psum">) -> ()
  "nisa.memset"(%i) {value = -7, engine = "gpsimd"} : (memref<128x64xi32, "sbuf">) -> ()
  "nisa.memset"(%x) {value = 0} : (memref<128x16xvector<4xf8E4M3FN>, "sbuf">) -> ()
  return
}

// tensor_copy: a cast from PSUM on Vector, and a reshaping copy (same element count).
// CHECK-LABEL: func.func @tensor_copy
// CHECK: "nisa.tensor_copy"(%{{.*}}, %{{.*}}) {engine = "vector"} : (memref<128x64xbf16, "sbuf">, memref<128x64xf32, "psum">) -> ()
// CHECK: "nisa.tensor_copy"(%{{.*}}, %{{.*}}) : (memref<128x8x8xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
func.func @tensor_copy(%d: memref<128x64xbf16, "sbuf">, %s: memref<128x64xf32, "psum">, %r: memref<128x8x8xbf16, "sbuf">) {
  "nisa.tensor_copy"(%d, %s) {engine = "vector"} : (memref<128x64xbf16, "sbuf">, memref<128x64xf32, "psum">) -> ()
  "nisa.tensor_copy"(%r, %d) : (memref<128x8x8xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
  return
}

// reciprocal.
// CHECK-LABEL: func.func @reciprocal
// CHECK: "nisa.reciprocal"(%{{.*}}, %{{.*}}) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "psum">) -> ()
func.func @reciprocal(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "psum">) {
  "nisa.reciprocal"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "psum">) -> ()
  return
}
