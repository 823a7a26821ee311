// Structural NISA ops: nisa.alloc (a tile) and nisa.ap (NKI's .ap(), static and indirect).
// RUN: sundial-opt %s | FileCheck %s
// RUN: sundial-opt %s -o %t.1 && sundial-opt %t.1 -o %t.2 && diff %t.1 %t.2

// Tiles in each memory space, with and without a name.
// CHECK-LABEL: func.func @alloc
// CHECK: "nisa.alloc"() {name = "a_tile"} : () -> memref<128x512xbf16, "sbuf">
// CHECK: "nisa.alloc"() : () -> memref<128x512xf32, "psum">
// CHECK: "nisa.alloc"() : () -> memref<4096x4x2x2x2x2xi8, "hbm">
func.func @alloc() {
  %a = "nisa.alloc"() {name = "a_tile"} : () -> memref<128x512xbf16, "sbuf">
  %b = "nisa.alloc"() : () -> memref<128x512xf32, "psum">
  // A rank-6 HBM tensor: the widest tile, and HBM is not limited to 128 rows.
  %c = "nisa.alloc"() : () -> memref<4096x4x2x2x2x2xi8, "hbm">
  return
}

// A static pattern on an SBUF tile: partitions 32..95, every other element of a row.
// CHECK-LABEL: func.func @ap_static_sbuf
// CHECK: %[[T:.*]] = "nisa.alloc"()
// CHECK: "nisa.ap"(%[[T]]) {offset = 2048 : i64, operandSegmentSizes = array<i32: 1, 0, 0>, pattern = array<i64: 64, 64, 2, 32>}
// CHECK-SAME: -> memref<64x32xf32, "sbuf">
func.func @ap_static_sbuf() {
  %t = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  %v = "nisa.ap"(%t) {pattern = array<i64: 64, 64, 2, 32>, offset = 2048,
                         operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">) -> memref<64x32xf32, "sbuf">
  return
}

// A reinterpreting pattern: a bf16 row read as f32 words (NKI's reinterpret cast).
// CHECK-LABEL: func.func @ap_reinterpret
// CHECK: "nisa.ap"(%{{.*}}) {operandSegmentSizes = array<i32: 1, 0, 0>, pattern = array<i64: 32, 128, 1, 32>} : (memref<128x64xbf16, "sbuf">) -> memref<128x32xf32, "sbuf">
func.func @ap_reinterpret(%t: memref<128x64xbf16, "sbuf">) {
  %v = "nisa.ap"(%t) {pattern = array<i64: 32, 128, 1, 32>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x64xbf16, "sbuf">) -> memref<128x32xf32, "sbuf">
  return
}

// Gather rows of an HBM table through a vector_offset (one uint32 index per partition).
// CHECK-LABEL: func.func @ap_vector_offset
// CHECK: "nisa.ap"(%{{.*}}, %{{.*}}) {indirect_dim = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 0>, pattern = array<i64: 64, 128, 1, 64>}
func.func @ap_vector_offset(%table: memref<1024x64xf32, "hbm">, %idx: memref<128x1xui32, "sbuf">) {
  %v = "nisa.ap"(%table, %idx) {pattern = array<i64: 64, 128, 1, 64>, indirect_dim = 0,
                                operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<1024x64xf32, "hbm">, memref<128x1xui32, "sbuf">) -> memref<128x64xf32, "hbm">
  return
}

// A scalar_offset given as a [1, 1] SBUF tile, on the second dimension.
// CHECK-LABEL: func.func @ap_scalar_offset_tile
// CHECK: "nisa.ap"(%{{.*}}, %{{.*}}) {indirect_dim = 1 : i64, operandSegmentSizes = array<i32: 1, 0, 1>, pattern = array<i64: 4096, 4, 64, 16, 1, 64>}
func.func @ap_scalar_offset_tile(%t: memref<64x64x64xbf16, "hbm">, %s: memref<1x1xi32, "sbuf">) {
  %v = "nisa.ap"(%t, %s) {pattern = array<i64: 4096, 4, 64, 16, 1, 64>, indirect_dim = 1,
                          operandSegmentSizes = array<i32: 1, 0, 1>}
      : (memref<64x64x64xbf16, "hbm">, memref<1x1xi32, "sbuf">) -> memref<4x16x64xbf16, "hbm">
  return
}

// A scalar_offset held in a sequencer register (loaded from SBUF).
// CHECK-LABEL: func.func @ap_scalar_offset_reg
// CHECK: %[[R:.*]] = "nisa.load_register"(%{{.*}}) : (memref<1x1xi32, "sbuf">) -> !nisa.reg
// CHECK: "nisa.ap"(%{{.*}}, %[[R]]) {operandSegmentSizes = array<i32: 1, 0, 1>, pattern = array<i64: 64, 8, 1, 64>} : (memref<1024x64xf32, "hbm">, !nisa.reg) -> memref<8x64xf32, "hbm">
func.func @ap_scalar_offset_reg(%t: memref<1024x64xf32, "hbm">, %s: memref<1x1xi32, "sbuf">) {
  %r = "nisa.load_register"(%s) : (memref<1x1xi32, "sbuf">) -> !nisa.reg
  %v = "nisa.ap"(%t, %r) {pattern = array<i64: 64, 8, 1, 64>, operandSegmentSizes = array<i32: 1, 0, 1>}
      : (memref<1024x64xf32, "hbm">, !nisa.reg) -> memref<8x64xf32, "hbm">
  return
}
