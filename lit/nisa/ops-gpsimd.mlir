// GpSimd NISA ops: generators, cross-partition reductions, gathers, segment and address ops.
// RUN: sundial-opt %s | FileCheck %s
// RUN: sundial-opt %s -o %t.1 && sundial-opt %t.1 -o %t.2 && diff %t.1 %t.2

// nonzero_with_count needs NeuronCore v3.
module attributes {sundial.target = "cayman"} {

// iota over a 2-D free pattern (8 x 16 = the 128 free elements of dst), with the optional
// offset and channel multiplier.
// CHECK-LABEL: func.func @iota
// CHECK: "nisa.iota"(%{{.*}}) {channel_multiplier = 128 : i64, offset = -5 : i64, pattern = array<i64: 16, 8, 1, 16>}
// CHECK: "nisa.iota"(%{{.*}}) {engine = "gpsimd", pattern = array<i64: 1, 128>}
func.func @iota(%dst: memref<128x8x16xi32, "sbuf">, %f: memref<128x128xf32, "sbuf">) {
  "nisa.iota"(%dst) {pattern = array<i64: 16, 8, 1, 16>, offset = -5, channel_multiplier = 128}
      : (memref<128x8x16xi32, "sbuf">) -> ()
  // Defaults only, with the engine spelled out; the generated ints are cast to fp32.
  "nisa.iota"(%f) {pattern = array<i64: 1, 128>, engine = "gpsimd"} : (memref<128x128xf32, "sbuf">) -> ()
  return
}

// affine_select: keep the lower triangle (partition - column >= 0), fill the rest.
// CHECK-LABEL: func.func @affine_select
// CHECK: "nisa.tensor_scalar_affine_select"(%{{.*}}, %{{.*}}) {channel_multiplier = 1 : i64, cmp_op = "is_ge", offset = 0 : i64, on_false_value = -3.000000e+04 : f32, pattern = array<i64: -1, 128>}
func.func @affine_select(%dst: memref<128x128xbf16, "sbuf">, %src: memref<128x128xbf16, "sbuf">) {
  "nisa.tensor_scalar_affine_select"(%dst, %src)
      {pattern = array<i64: -1, 128>, channel_multiplier = 1, on_false_value = -3.0e4 : f32,
       cmp_op = "is_ge", offset = 0}
      : (memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "sbuf">) -> ()
  return
}

// Partition reductions keep the free shape: arith (fp32 math) and bit-vector (raw bits), both
// on SBUF (GpSimd cannot reach PSUM). average and xor are firmware ops beyond NKI's surface.
// CHECK-LABEL: func.func @cross_lane_reduce
// CHECK: "nisa.cross_lane_reduce_arith"(%{{.*}}, %{{.*}}) {op = "average"}
// CHECK: "nisa.cross_lane_reduce_bitvec"(%{{.*}}, %{{.*}}) {engine = "unknown", op = "bitwise_or"}
// CHECK: "nisa.cross_lane_reduce_bitvec"(%{{.*}}, %{{.*}}) {op = "bitwise_xor"}
func.func @cross_lane_reduce(%d: memref<1x64xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">,
                             %di: memref<1x64xui32, "sbuf">, %si: memref<128x64xui32, "sbuf">) {
  "nisa.cross_lane_reduce_arith"(%d, %s) {op = "average"} : (memref<1x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.cross_lane_reduce_bitvec"(%di, %si) {op = "bitwise_or", engine = "unknown"}
      : (memref<1x64xui32, "sbuf">, memref<128x64xui32, "sbuf">) -> ()
  "nisa.cross_lane_reduce_bitvec"(%di, %si) {op = "bitwise_xor"}
      : (memref<1x64xui32, "sbuf">, memref<128x64xui32, "sbuf">) -> ()
  return
}

// nc_n_gather: 1024 uint32 indices per partition into a 2048-element row.
// CHECK-LABEL: func.func @gather
// CHECK: "nisa.gather"(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<128x1024xbf16, "sbuf">, memref<128x2048xbf16, "sbuf">, memref<128x1024xui32, "sbuf">) -> ()
func.func @gather(%dst: memref<128x1024xbf16, "sbuf">, %data: memref<128x2048xbf16, "sbuf">,
                  %idx: memref<128x1024xui32, "sbuf">) {
  "nisa.gather"(%dst, %data, %idx) : (memref<128x1024xbf16, "sbuf">, memref<128x2048xbf16, "sbuf">, memref<128x1024xui32, "sbuf">) -> ()
  return
}

// local_gather: 4 uint16 indices per partition (64 per 16-partition core), 2 elements each;
// each partition of dst receives the 60 valid indices' elements (NKI's NumPy reference:
// np.take(src, idx[:60], axis=1)), so it holds 120 to 128 (every slot) elements.
// CHECK-LABEL: func.func @indirect_copy
// CHECK: "nisa.indirect_copy"(%{{.*}}, %{{.*}}, %{{.*}}) {num_elem_per_idx = 2 : i64, num_valid_indices = 60 : i64}
// CHECK: "nisa.indirect_copy"(%{{.*}}, %{{.*}}, %{{.*}}) {num_elem_per_idx = 2 : i64, num_valid_indices = 60 : i64}
func.func @indirect_copy(%dst: memref<128x120xf32, "sbuf">, %src: memref<128x32xf32, "sbuf">,
                         %idx: memref<128x4xui16, "sbuf">, %all: memref<128x128xf32, "sbuf">) {
  "nisa.indirect_copy"(%dst, %src, %idx) {num_elem_per_idx = 2, num_valid_indices = 60}
      : (memref<128x120xf32, "sbuf">, memref<128x32xf32, "sbuf">, memref<128x4xui16, "sbuf">) -> ()
  "nisa.indirect_copy"(%all, %src, %idx) {num_elem_per_idx = 2, num_valid_indices = 60}
      : (memref<128x128xf32, "sbuf">, memref<128x32xf32, "sbuf">, memref<128x4xui16, "sbuf">) -> ()
  return
}

// nonzero_with_count: one more slot than src for the count.
// CHECK-LABEL: func.func @nonzero_with_count
// CHECK: "nisa.nonzero_with_count"(%{{.*}}, %{{.*}}) {index_offset = 100 : i64, padding_val = 0 : i64}
func.func @nonzero_with_count(%dst: memref<16x65xi32, "sbuf">, %src: memref<16x64xf32, "sbuf">) {
  "nisa.nonzero_with_count"(%dst, %src) {index_offset = 100, padding_val = 0}
      : (memref<16x65xi32, "sbuf">, memref<16x64xf32, "sbuf">) -> ()
  return
}

// sequence_bounds: [start, end) per element of one row of segment ids.
// CHECK-LABEL: func.func @sequence_bounds
// CHECK: "nisa.sequence_bounds"(%{{.*}}, %{{.*}}) : (memref<1x2x512xi32, "sbuf">, memref<1x512xi32, "sbuf">) -> ()
func.func @sequence_bounds(%dst: memref<1x2x512xi32, "sbuf">, %ids: memref<1x512xi32, "sbuf">) {
  "nisa.sequence_bounds"(%dst, %ids) : (memref<1x2x512xi32, "sbuf">, memref<1x512xi32, "sbuf">) -> ()
  return
}

// tensor_tensor with op=power runs on GpSimd.
// CHECK-LABEL: func.func @tensor_tensor_power
// CHECK: "nisa.tensor_tensor_power"(%{{.*}}, %{{.*}}, %{{.*}})
func.func @tensor_tensor_power(%d: memref<128x64xf32, "sbuf">, %a: memref<128x64xf32, "sbuf">, %b: memref<128x64xf32, "sbuf">) {
  "nisa.tensor_tensor_power"(%d, %a, %b) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// 64-bit address arithmetic.
// CHECK-LABEL: func.func @tensor_scalar_addr
// CHECK: "nisa.tensor_scalar_addr"(%{{.*}}, %{{.*}}) {imm0 = 4096 : i64, op0 = "add"} : (memref<1x8xui64, "sbuf">, memref<1x8xi64, "sbuf">) -> ()
func.func @tensor_scalar_addr(%d: memref<1x8xui64, "sbuf">, %s: memref<1x8xi64, "sbuf">) {
  "nisa.tensor_scalar_addr"(%d, %s) {op0 = "add", imm0 = 4096} : (memref<1x8xui64, "sbuf">, memref<1x8xi64, "sbuf">) -> ()
  return
}

}
