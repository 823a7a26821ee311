// Op rules of the Scalar and Tensor NISA ops: activation operands, matmul geometry and dtype
// pairing, and MX geometry (quantize_mx and matmul_mx).
// RUN: sundial-opt %s -split-input-file -verify-diagnostics

// activation's bias is a [P, 1] column.
func.func @bias(%t: memref<128x64xf32, "sbuf">, %b: memref<1x64xf32, "sbuf">) {
  // expected-error@+1 {{operand 'bias' must be a [128, 1] per-partition tile, got 1x64 (rule: per-partition operand)}}
  "nisa.activation"(%t, %t, %b) {op = "exp", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<1x64xf32, "sbuf">) -> ()
  return
}

// -----

// The scale is a tile or an immediate, not both.
func.func @scale_both(%t: memref<128x64xf32, "sbuf">, %s: memref<128x1xf32, "sbuf">) {
  // expected-error@+1 {{give either operand 'scale' or attribute 'scale_value', not both (rule: immediate or tile)}}
  "nisa.activation"(%t, %t, %s) {op = "exp", scale_value = 2.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 1, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  return
}

// -----

// Reducing needs somewhere to reduce into.
func.func @reduce_accumulator(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'reduce_cmd' needs operand 'reduce_res' (rule: reduce needs accumulator)}}
  "nisa.activation"(%t, %t) {op = "exp", reduce_op = "add", reduce_cmd = "reset_reduce", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// activation only add-reduces.
func.func @reduce_op(%t: memref<128x64xf32, "sbuf">, %r: memref<128x1xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'reduce_op': alu_op "max" is not allowed here (allowed: add)}}
  "nisa.activation"(%t, %t, %r) {op = "exp", reduce_op = "max", reduce_cmd = "reset_reduce", operandSegmentSizes = array<i32: 1, 1, 0, 0, 1>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  return
}

// -----

// Activation functions come from a closed vocabulary.
func.func @activation_func(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'op': unknown activation_func "softmax"}}
  "nisa.activation"(%t, %t) {op = "softmax", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// stationary and moving share the contraction (partition) dimension.
func.func @matmul_k(%d: memref<64x512xf32, "psum">, %s: memref<128x64xbf16, "sbuf">, %m: memref<64x512xbf16, "sbuf">) {
  // expected-error@+1 {{operands 'stationary' and 'moving' must share the contraction dimension (partitions 128 vs 64) (rule: matmul K)}}
  "nisa.matmul"(%d, %s, %m) : (memref<64x512xf32, "psum">, memref<128x64xbf16, "sbuf">, memref<64x512xbf16, "sbuf">) -> ()
  return
}

// -----

// M is at most 128.
func.func @matmul_m(%d: memref<128x512xf32, "psum">, %s: memref<128x256xbf16, "sbuf">, %m: memref<128x512xbf16, "sbuf">) {
  // expected-error@+1 {{operand 'stationary' has M = 256; at most 128 (rule: matmul M <= 128)}}
  "nisa.matmul"(%d, %s, %m) : (memref<128x512xf32, "psum">, memref<128x256xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
  return
}

// -----

// N is at most 512 before NeuronCore v4 (and when the target is unknown).
func.func @matmul_n(%d: memref<128x1024xf32, "psum">, %s: memref<128x128xbf16, "sbuf">, %m: memref<128x1024xbf16, "sbuf">) {
  // expected-error@+1 {{operand 'moving' has N = 1024; at most 512 without sundial.target (the limit of every target) (rule: matmul N)}}
  "nisa.matmul"(%d, %s, %m) : (memref<128x1024xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x1024xbf16, "sbuf">) -> ()
  return
}

// -----

// On NeuronCore v4, 4096 with an fp32 result.
module attributes {sundial.target = "mariana"} {
  func.func @matmul_n_v4(%d: memref<128x8192xf32, "psum">, %s: memref<128x128xbf16, "sbuf">, %m: memref<128x8192xbf16, "sbuf">) {
    // expected-error@+1 {{operand 'moving' has N = 8192; at most 4096 on mariana with an fp32 result (rule: matmul N)}}
    "nisa.matmul"(%d, %s, %m) : (memref<128x8192xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x8192xbf16, "sbuf">) -> ()
    return
  }
}

// -----

// dst is [M, N].
func.func @matmul_dst(%d: memref<128x512xf32, "psum">, %s: memref<128x64xbf16, "sbuf">, %m: memref<128x512xbf16, "sbuf">) {
  // expected-error@+1 {{operand 'dst' must be [64, 512] (M x N), got 128x512 (rule: matmul dst shape)}}
  "nisa.matmul"(%d, %s, %m) : (memref<128x512xf32, "psum">, memref<128x64xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
  return
}

// -----

// A bf16 result needs NeuronCore v4.
module attributes {sundial.target = "cayman"} {
  func.func @matmul_bf16_dst(%d: memref<128x512xbf16, "psum">, %s: memref<128x128xbf16, "sbuf">, %m: memref<128x512xbf16, "sbuf">) {
    // expected-error@+1 {{operand 'dst': a bf16 matmul result needs NeuronCore v4 (mariana) (rule: matmul dst dtype)}}
    "nisa.matmul"(%d, %s, %m) : (memref<128x512xbf16, "psum">, memref<128x128xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
    return
  }
}

// -----

// A transpose (is_transpose) keeps the data's dtype: no conversion to fp32.
func.func @matmul_transpose_dtype(%d: memref<64x128xf32, "psum">, %s: memref<128x64xbf16, "sbuf">, %m: memref<128x128xbf16, "sbuf">) {
  // expected-error@+1 {{operand 'dst' (f32) must have the dtype of 'stationary' (bf16) in transpose mode (rule: matmul transpose dtype)}}
  "nisa.matmul"(%d, %s, %m) {is_transpose = true} : (memref<64x128xf32, "psum">, memref<128x64xbf16, "sbuf">, memref<128x128xbf16, "sbuf">) -> ()
  return
}

// -----

// fp32 on one side forces fp32/tf32 on the other.
func.func @matmul_fp32_pairing(%d: memref<128x512xf32, "psum">, %s: memref<128x128xf32, "sbuf">, %m: memref<128x512xbf16, "sbuf">) {
  // expected-error@+1 {{an fp32/tf32 operand forces fp32/tf32 on the other operand (rule: matmul fp32 pairing)}}
  "nisa.matmul"(%d, %s, %m) : (memref<128x512xf32, "psum">, memref<128x128xf32, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
  return
}

// -----

// float8_e4m3fn and float8_e4m3 do not mix.
func.func @matmul_fp8_pairing(%d: memref<128x512xf32, "psum">, %s: memref<128x128xf8E4M3FN, "sbuf">, %m: memref<128x512xf8E4M3, "sbuf">) {
  // expected-error@+1 {{float8_e4m3fn cannot be mixed with float8_e4m3 (rule: matmul fp8 pairing)}}
  "nisa.matmul"(%d, %s, %m) : (memref<128x512xf32, "psum">, memref<128x128xf8E4M3FN, "sbuf">, memref<128x512xf8E4M3, "sbuf">) -> ()
  return
}

// -----

// The double-row performance modes are fp8 only.
func.func @matmul_double_row(%d: memref<128x512xf32, "psum">, %s: memref<128x128xbf16, "sbuf">, %m: memref<128x512xbf16, "sbuf">) {
  // expected-error@+1 {{attribute 'perf_mode': double_row modes need fp8 operands (rule: double_row fp8)}}
  "nisa.matmul"(%d, %s, %m) {perf_mode = "double_row_sw_interleave"}
      : (memref<128x512xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
  return
}

// -----

// matmul results live in PSUM.
func.func @matmul_psum(%d: memref<128x512xf32, "sbuf">, %s: memref<128x128xbf16, "sbuf">, %m: memref<128x512xbf16, "sbuf">) {
  // expected-error@+1 {{operand 'dst': memory space "sbuf" is not allowed (allowed: psum) (rule: operand space)}}
  "nisa.matmul"(%d, %s, %m) : (memref<128x512xf32, "sbuf">, memref<128x128xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
  return
}

// -----

// MX operands share K ...
func.func @mx_k(%d: memref<64x256xf32, "psum">, %s: memref<128x64xvector<4xf8E5M2>, "sbuf">, %m: memref<64x256xvector<4xf8E5M2>, "sbuf">,
                %ss: memref<16x64xui8, "sbuf">, %ms: memref<8x256xui8, "sbuf">) {
  // expected-error@+1 {{operands 'stationary' and 'moving' must share the contraction dimension (partitions 128 vs 64) (rule: matmul K)}}
  "nisa.matmul_mx"(%d, %s, %m, %ss, %ms)
      : (memref<64x256xf32, "psum">, memref<128x64xvector<4xf8E5M2>, "sbuf">, memref<64x256xvector<4xf8E5M2>, "sbuf">, memref<16x64xui8, "sbuf">, memref<8x256xui8, "sbuf">) -> ()
  return
}

// -----

// ... a multiple of 32 ...
func.func @mx_k32(%d: memref<64x256xf32, "psum">, %s: memref<48x64xvector<4xf8E5M2>, "sbuf">, %m: memref<48x256xvector<4xf8E5M2>, "sbuf">,
                  %ss: memref<48x64xui8, "sbuf">, %ms: memref<48x256xui8, "sbuf">) {
  // expected-error@+1 {{contraction dimension 48 must be a multiple of 32 (rule: MX K % 32 == 0)}}
  "nisa.matmul_mx"(%d, %s, %m, %ss, %ms)
      : (memref<64x256xf32, "psum">, memref<48x64xvector<4xf8E5M2>, "sbuf">, memref<48x256xvector<4xf8E5M2>, "sbuf">, memref<48x64xui8, "sbuf">, memref<48x256xui8, "sbuf">) -> ()
  return
}

// -----

// ... with an even stationary free size ...
func.func @mx_stationary(%d: memref<63x256xf32, "psum">, %s: memref<128x63xvector<4xf8E5M2>, "sbuf">, %m: memref<128x256xvector<4xf8E5M2>, "sbuf">,
                         %ss: memref<16x63xui8, "sbuf">, %ms: memref<16x256xui8, "sbuf">) {
  // expected-error@+1 {{operand 'stationary' free size 63 must be even and at most 128 (rule: MX stationary)}}
  "nisa.matmul_mx"(%d, %s, %m, %ss, %ms)
      : (memref<63x256xf32, "psum">, memref<128x63xvector<4xf8E5M2>, "sbuf">, memref<128x256xvector<4xf8E5M2>, "sbuf">, memref<16x63xui8, "sbuf">, memref<16x256xui8, "sbuf">) -> ()
  return
}

// -----

// ... a [M, N] result ...
func.func @mx_dst(%d: memref<64x128xf32, "psum">, %s: memref<128x64xvector<4xf8E5M2>, "sbuf">, %m: memref<128x256xvector<4xf8E5M2>, "sbuf">,
                  %ss: memref<16x64xui8, "sbuf">, %ms: memref<16x256xui8, "sbuf">) {
  // expected-error@+1 {{operand 'dst' must be [64, 256], got 64x128 (rule: matmul dst shape)}}
  "nisa.matmul_mx"(%d, %s, %m, %ss, %ms)
      : (memref<64x128xf32, "psum">, memref<128x64xvector<4xf8E5M2>, "sbuf">, memref<128x256xvector<4xf8E5M2>, "sbuf">, memref<16x64xui8, "sbuf">, memref<16x256xui8, "sbuf">) -> ()
  return
}

// -----

// ... and one scale per 8 partitions x 4 elements.
func.func @mx_scale(%d: memref<64x256xf32, "psum">, %s: memref<128x64xvector<4xf8E5M2>, "sbuf">, %m: memref<128x256xvector<4xf8E5M2>, "sbuf">,
                    %ss: memref<16x64xui8, "sbuf">, %ms: memref<16x64xui8, "sbuf">) {
  // expected-error@+1 {{operand 'moving_scale' must be [128, 256] (one E8M0 scale per 8 partitions x 4 elements; [P/8, F/4], quadrant layout [P, F/4] when P > 32), got 16x64 (rule: MX scale geometry)}}
  "nisa.matmul_mx"(%d, %s, %m, %ss, %ms)
      : (memref<64x256xf32, "psum">, memref<128x64xvector<4xf8E5M2>, "sbuf">, memref<128x256xvector<4xf8E5M2>, "sbuf">, memref<16x64xui8, "sbuf">, memref<16x64xui8, "sbuf">) -> ()
  return
}

// -----

// MX data must be an x4 container type.
func.func @mx_dtype(%d: memref<64x256xf32, "psum">, %s: memref<128x64xf8E5M2, "sbuf">, %m: memref<128x256xvector<4xf8E5M2>, "sbuf">,
                    %ss: memref<16x64xui8, "sbuf">, %ms: memref<16x256xui8, "sbuf">) {
  // expected-error@+1 {{operand 'stationary': dtype f8E5M2 is not legal here (legal: vector<4xf8E4M3FN>, vector<4xf8E5M2>, vector<4xf4E2M1FN>) (rule: operand dtype)}}
  "nisa.matmul_mx"(%d, %s, %m, %ss, %ms)
      : (memref<64x256xf32, "psum">, memref<128x64xf8E5M2, "sbuf">, memref<128x256xvector<4xf8E5M2>, "sbuf">, memref<16x64xui8, "sbuf">, memref<16x256xui8, "sbuf">) -> ()
  return
}

// -----

// quantize_mx needs a multiple of 32 partitions ...
func.func @quantize_p(%d: memref<16x16xvector<4xf8E4M3FN>, "sbuf">, %sc: memref<2x16xf8E8M0FNU, "sbuf">, %s: memref<16x64xbf16, "sbuf">) {
  // expected-error@+1 {{operand 'src' has 16 partitions; quantize_mx needs a multiple of 32 (rule: MX partitions % 32 == 0)}}
  "nisa.quantize_mx"(%d, %sc, %s) : (memref<16x16xvector<4xf8E4M3FN>, "sbuf">, memref<2x16xf8E8M0FNU, "sbuf">, memref<16x64xbf16, "sbuf">) -> ()
  return
}

// -----

// ... a multiple of 4 elements per partition ...
func.func @quantize_f(%d: memref<32x16xvector<4xf8E4M3FN>, "sbuf">, %sc: memref<4x16xf8E8M0FNU, "sbuf">, %s: memref<32x66xbf16, "sbuf">) {
  // expected-error@+1 {{operand 'src' has 66 elements per partition; quantize_mx needs a multiple of 4 (rule: MX free % 4 == 0)}}
  "nisa.quantize_mx"(%d, %sc, %s) : (memref<32x16xvector<4xf8E4M3FN>, "sbuf">, memref<4x16xf8E8M0FNU, "sbuf">, memref<32x66xbf16, "sbuf">) -> ()
  return
}

// -----

// ... packs 4 elements per container ...
func.func @quantize_pack(%d: memref<32x64xvector<4xf8E4M3FN>, "sbuf">, %sc: memref<4x16xf8E8M0FNU, "sbuf">, %s: memref<32x64xbf16, "sbuf">) {
  // expected-error@+1 {{operand 'dst' must be [32, 16] x4 containers for a 32x64 source, got 32x64 (rule: MX x4 packing)}}
  "nisa.quantize_mx"(%d, %sc, %s) : (memref<32x64xvector<4xf8E4M3FN>, "sbuf">, memref<4x16xf8E8M0FNU, "sbuf">, memref<32x64xbf16, "sbuf">) -> ()
  return
}

// -----

// ... and writes [P/8, F/4] scales.
func.func @quantize_scale(%d: memref<32x16xvector<4xf8E4M3FN>, "sbuf">, %sc: memref<32x64xf8E8M0FNU, "sbuf">, %s: memref<32x64xbf16, "sbuf">) {
  // expected-error@+1 {{operand 'dst_scale' must be [4, 16] (one E8M0 scale per 8 partitions x 4 elements; [P/8, F/4], quadrant layout [P, F/4] when P > 32), got 32x64 (rule: MX scale geometry)}}
  "nisa.quantize_mx"(%d, %sc, %s) : (memref<32x16xvector<4xf8E4M3FN>, "sbuf">, memref<32x64xf8E8M0FNU, "sbuf">, memref<32x64xbf16, "sbuf">) -> ()
  return
}

// -----

// quantize_mx produces fp8 containers only (no fp4).
func.func @quantize_fp4(%d: memref<32x16xvector<4xf4E2M1FN>, "sbuf">, %sc: memref<4x16xf8E8M0FNU, "sbuf">, %s: memref<32x64xbf16, "sbuf">) {
  // expected-error@+1 {{operand 'dst': dtype vector<4xf4E2M1FN> is not legal here (legal: vector<4xf8E4M3FN>, vector<4xf8E5M2>) (rule: operand dtype)}}
  "nisa.quantize_mx"(%d, %sc, %s) : (memref<32x16xvector<4xf4E2M1FN>, "sbuf">, memref<4x16xf8E8M0FNU, "sbuf">, memref<32x64xbf16, "sbuf">) -> ()
  return
}

// -----

// A product accumulates in fp32 (bf16 on v4); fp16 results exist only in transpose mode.
func.func @matmul_product_dtype(%d: memref<64x512xf16, "psum">, %s: memref<128x64xbf16, "sbuf">, %m: memref<128x512xbf16, "sbuf">) {
  // expected-error@+1 {{operand 'dst': a matmul product is fp32 (or bf16 on v4), got f16; only transpose mode keeps a narrower dtype (rule: matmul dst dtype)}}
  "nisa.matmul"(%d, %s, %m) : (memref<64x512xf16, "psum">, memref<128x64xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
  return
}
