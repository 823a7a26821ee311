// Scalar (Activation) and Tensor (PE) NISA ops, and the MX quantize / matmul pair.
// RUN: sundial-opt %s | FileCheck %s
// RUN: sundial-opt %s -o %t.1 && sundial-opt %t.1 -o %t.2 && diff %t.1 %t.2

// matmul_mx and quantize_mx need NeuronCore v4 (and so does a bf16 matmul result).
module attributes {sundial.target = "mariana"} {

// activation with every optional operand: bias and scale tiles, an add-reduce into reduce_res;
// then the immediate-scale form with alpha.
// CHECK-LABEL: func.func @activation
// CHECK: "nisa.activation"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {op = "gelu_apprx_tanh", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>, reduce_cmd = "reset_reduce", reduce_op = "add"}
// CHECK: "nisa.activation"(%{{.*}}, %{{.*}}) {alpha = 2.500000e-01 : f32, op = "lrelu", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>, scale_value = 2.000000e+00 : f32}
func.func @activation(%d: memref<128x512xbf16, "sbuf">, %x: memref<128x512xf32, "psum">, %bias: memref<128x1xf32, "sbuf">,
                      %scale: memref<128x1xf32, "sbuf">, %r: memref<128x1xf32, "sbuf">) {
  "nisa.activation"(%d, %x, %bias, %scale, %r)
      {op = "gelu_apprx_tanh", reduce_op = "add", reduce_cmd = "reset_reduce", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}
      : (memref<128x512xbf16, "sbuf">, memref<128x512xf32, "psum">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  "nisa.activation"(%d, %x) {op = "lrelu", scale_value = 2.0 : f32, alpha = 0.25 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}
      : (memref<128x512xbf16, "sbuf">, memref<128x512xf32, "psum">) -> ()
  return
}

// The Scalar engine's accumulator read-out.
// CHECK-LABEL: func.func @activation_read_accumulator
// CHECK: "nisa.activation_read_accumulator"(%{{.*}}) {engine = "scalar"} : (memref<128x1xf32, "sbuf">) -> ()
func.func @activation_read_accumulator(%d: memref<128x1xf32, "sbuf">) {
  "nisa.activation_read_accumulator"(%d) {engine = "scalar"} : (memref<128x1xf32, "sbuf">) -> ()
  return
}

// matmul: bf16 in, fp32 PSUM out with accumulation and tiling; tf32 operands; fp8 with
// double_row; and a bf16 result with N = 8192 (NeuronCore v4 limits).
// CHECK-LABEL: func.func @matmul
// CHECK: "nisa.matmul"(%{{.*}}, %{{.*}}, %{{.*}}) {accumulate = true, is_transpose = false, tile_position = array<i64: 0, 64>, tile_size = array<i64: 64, 64>}
// CHECK: "nisa.matmul"(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<128x512xf32, "psum">, memref<64x128xtf32, "sbuf">, memref<64x512xf32, "sbuf">) -> ()
// CHECK: "nisa.matmul"(%{{.*}}, %{{.*}}, %{{.*}}) {is_moving_onezero = false, is_stationary_onezero = false, perf_mode = "double_row"}
// CHECK: "nisa.matmul"(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<128x8192xbf16, "psum">, memref<128x128xbf16, "sbuf">, memref<128x8192xbf16, "sbuf">) -> ()
func.func @matmul(%acc: memref<64x512xf32, "psum">, %st: memref<128x64xbf16, "sbuf">, %mv: memref<128x512xf16, "sbuf">,
                  %acc2: memref<128x512xf32, "psum">, %st32: memref<64x128xtf32, "sbuf">, %mv32: memref<64x512xf32, "sbuf">,
                  %st8: memref<128x128xf8E4M3, "sbuf">, %mv8: memref<128x512xf8E5M2, "sbuf">,
                  %accb: memref<128x8192xbf16, "psum">, %stb: memref<128x128xbf16, "sbuf">, %mvb: memref<128x8192xbf16, "sbuf">) {
  "nisa.matmul"(%acc, %st, %mv) {accumulate = true, is_transpose = false, tile_position = array<i64: 0, 64>, tile_size = array<i64: 64, 64>}
      : (memref<64x512xf32, "psum">, memref<128x64xbf16, "sbuf">, memref<128x512xf16, "sbuf">) -> ()
  // tf32 with fp32: the fp32 pairing rule is met.
  "nisa.matmul"(%acc2, %st32, %mv32) : (memref<128x512xf32, "psum">, memref<64x128xtf32, "sbuf">, memref<64x512xf32, "sbuf">) -> ()
  "nisa.matmul"(%acc2, %st8, %mv8) {perf_mode = "double_row", is_stationary_onezero = false, is_moving_onezero = false}
      : (memref<128x512xf32, "psum">, memref<128x128xf8E4M3, "sbuf">, memref<128x512xf8E5M2, "sbuf">) -> ()
  "nisa.matmul"(%accb, %stb, %mvb) : (memref<128x8192xbf16, "psum">, memref<128x128xbf16, "sbuf">, memref<128x8192xbf16, "sbuf">) -> ()
  return
}

// Quantize a [128, 512] bf16 tile to fp8 x4 containers and E8M0 scales in the quadrant
// layout ([P, F/4] since P > 32), then an MX matmul with logical [K/8, F] scales.
// CHECK-LABEL: func.func @mx
// CHECK: "nisa.quantize_mx"(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<128x128xvector<4xf8E4M3FN>, "sbuf">, memref<128x128xf8E8M0FNU, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
// CHECK: "nisa.matmul_mx"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {accumulate = false, tile_position = array<i64: 0, 0>, tile_size = array<i64: 128, 128>}
func.func @mx(%q: memref<128x128xvector<4xf8E4M3FN>, "sbuf">, %qs: memref<128x128xf8E8M0FNU, "sbuf">, %x: memref<128x512xbf16, "sbuf">,
              %dst: memref<64x256xf32, "psum">, %st: memref<128x64xvector<4xf4E2M1FN>, "sbuf">, %mv: memref<128x256xvector<4xf8E5M2>, "sbuf">,
              %sts: memref<16x64xui8, "sbuf">, %mvs: memref<16x256xf8E8M0FNU, "sbuf">) {
  "nisa.quantize_mx"(%q, %qs, %x) : (memref<128x128xvector<4xf8E4M3FN>, "sbuf">, memref<128x128xf8E8M0FNU, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
  "nisa.matmul_mx"(%dst, %st, %mv, %sts, %mvs) {accumulate = false, tile_position = array<i64: 0, 0>, tile_size = array<i64: 128, 128>}
      : (memref<64x256xf32, "psum">, memref<128x64xvector<4xf4E2M1FN>, "sbuf">, memref<128x256xvector<4xf8E5M2>, "sbuf">, memref<16x64xui8, "sbuf">, memref<16x256xf8E8M0FNU, "sbuf">) -> ()
  return
}

}
