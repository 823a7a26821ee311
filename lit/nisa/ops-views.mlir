// Views: nisa.reshape, nisa.slice, nisa.permute, nisa.broadcast and nisa.ap on a view. A chain
// of views over one tensor folds into one access pattern (dialects/src/view.rs).
// RUN: sundial-opt %s | FileCheck %s
// RUN: sundial-opt %s -o %t.1 && sundial-opt %t.1 -o %t.2 && diff %t.1 %t.2

// One HBM tensor under two shapes, as kernels load a [4096, 64] weight both as rows and as
// [64, 64, 64] blocks.
// CHECK-LABEL: func.func @two_shapes
// CHECK: %[[R:.*]] = "nisa.reshape"(%{{.*}}) : (memref<4096x64xbf16, "hbm">) -> memref<64x64x64xbf16, "hbm">
// CHECK: "nisa.dma_copy"(%{{.*}}, %[[R]])
func.func @two_shapes(%w: memref<4096x64xbf16, "hbm">, %rows: memref<128x2048xbf16, "sbuf">,
                      %blocks: memref<64x64x64xbf16, "sbuf">) {
  "nisa.dma_copy"(%rows, %w) : (memref<128x2048xbf16, "sbuf">, memref<4096x64xbf16, "hbm">) -> ()
  %b = "nisa.reshape"(%w) : (memref<4096x64xbf16, "hbm">) -> memref<64x64x64xbf16, "hbm">
  "nisa.dma_copy"(%blocks, %b) : (memref<64x64x64xbf16, "sbuf">, memref<64x64x64xbf16, "hbm">) -> ()
  return
}

// Slices: every other column of partitions 32..96, and a row window of an HBM tensor.
// CHECK-LABEL: func.func @slices
// CHECK: "nisa.slice"(%{{.*}}) {start = array<i64: 32, 0>, step = array<i64: 1, 2>} : (memref<128x512xf32, "sbuf">) -> memref<64x256xf32, "sbuf">
// CHECK: "nisa.slice"(%{{.*}}) {start = array<i64: 100, 0>} : (memref<1024x64xf32, "hbm">) -> memref<128x64xf32, "hbm">
func.func @slices(%t: memref<128x512xf32, "sbuf">, %d: memref<64x256xf32, "sbuf">,
                  %h: memref<1024x64xf32, "hbm">, %rows: memref<128x64xf32, "sbuf">) {
  %s = "nisa.slice"(%t) {start = array<i64: 32, 0>, step = array<i64: 1, 2>}
      : (memref<128x512xf32, "sbuf">) -> memref<64x256xf32, "sbuf">
  "nisa.tensor_copy"(%d, %s) : (memref<64x256xf32, "sbuf">, memref<64x256xf32, "sbuf">) -> ()
  %w = "nisa.slice"(%h) {start = array<i64: 100, 0>} : (memref<1024x64xf32, "hbm">) -> memref<128x64xf32, "hbm">
  "nisa.dma_copy"(%rows, %w) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  return
}

// A transpose of free axes (the partition dimension stays first), and of an HBM tensor.
// CHECK-LABEL: func.func @permutes
// CHECK: "nisa.permute"(%{{.*}}) {dims = array<i64: 0, 2, 1>} : (memref<128x4x16xbf16, "sbuf">) -> memref<128x16x4xbf16, "sbuf">
// CHECK: "nisa.permute"(%{{.*}}) {dims = array<i64: 1, 0>} : (memref<64x32xf32, "hbm">) -> memref<32x64xf32, "hbm">
func.func @permutes(%t: memref<128x4x16xbf16, "sbuf">, %d: memref<128x64xbf16, "sbuf">,
                    %h: memref<64x32xf32, "hbm">, %o: memref<32x64xf32, "sbuf">) {
  %p = "nisa.permute"(%t) {dims = array<i64: 0, 2, 1>} : (memref<128x4x16xbf16, "sbuf">) -> memref<128x16x4xbf16, "sbuf">
  // dst [128, 64] and the [128, 16, 4] view agree: same partitions, same elements per partition.
  "nisa.tensor_copy"(%d, %p) : (memref<128x64xbf16, "sbuf">, memref<128x16x4xbf16, "sbuf">) -> ()
  %q = "nisa.permute"(%h) {dims = array<i64: 1, 0>} : (memref<64x32xf32, "hbm">) -> memref<32x64xf32, "hbm">
  "nisa.dma_copy"(%o, %q) : (memref<32x64xf32, "sbuf">, memref<32x64xf32, "hbm">) -> ()
  return
}

// A per-partition column broadcast over the free axis (stride 0), as RMSNorm scales rows.
// CHECK-LABEL: func.func @broadcast
// CHECK: "nisa.broadcast"(%{{.*}}) : (memref<128x1xf32, "sbuf">) -> memref<128x512xf32, "sbuf">
func.func @broadcast(%x: memref<128x512xf32, "sbuf">, %rms: memref<128x1xf32, "sbuf">,
                     %y: memref<128x512xf32, "sbuf">) {
  %b = "nisa.broadcast"(%rms) : (memref<128x1xf32, "sbuf">) -> memref<128x512xf32, "sbuf">
  "nisa.tensor_tensor_arith"(%y, %x, %b) {op = "mult"}
      : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
  return
}

// An access pattern of an access pattern, and a chain of every view: reshape, slice, permute,
// then an access pattern on the result.
// CHECK-LABEL: func.func @chains
// CHECK: %[[A:.*]] = "nisa.ap"(%{{.*}}) {operandSegmentSizes = array<i32: 1, 0, 0>, pattern = array<i64: 64, 128, 2, 32>}
// CHECK: "nisa.ap"(%[[A]]) {offset = 1 : i64, operandSegmentSizes = array<i32: 1, 0, 0>, pattern = array<i64: 32, 128, 2, 16>}
// CHECK: "nisa.reshape"
// CHECK: "nisa.slice"
// CHECK: "nisa.permute"
// CHECK: "nisa.ap"
func.func @chains(%t: memref<128x64xf32, "sbuf">, %d: memref<128x16xf32, "sbuf">,
                  %h: memref<4096xf32, "hbm">, %o: memref<8x4xf32, "sbuf">) {
  // Even columns, then the odd ones of those: columns 2, 6, 10, ... of the tile.
  %a = "nisa.ap"(%t) {pattern = array<i64: 64, 128, 2, 32>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">) -> memref<128x32xf32, "sbuf">
  %b = "nisa.ap"(%a) {pattern = array<i64: 32, 128, 2, 16>, offset = 1, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x32xf32, "sbuf">) -> memref<128x16xf32, "sbuf">
  "nisa.tensor_copy"(%d, %b) : (memref<128x16xf32, "sbuf">, memref<128x16xf32, "sbuf">) -> ()
  %r = "nisa.reshape"(%h) : (memref<4096xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %s = "nisa.slice"(%r) {start = array<i64: 8, 16>, step = array<i64: 2, 1>}
      : (memref<64x64xf32, "hbm">) -> memref<4x32xf32, "hbm">
  %p = "nisa.permute"(%s) {dims = array<i64: 1, 0>} : (memref<4x32xf32, "hbm">) -> memref<32x4xf32, "hbm">
  // Every fourth row of the [32, 4] view.
  %q = "nisa.ap"(%p) {pattern = array<i64: 16, 8, 1, 4>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<32x4xf32, "hbm">) -> memref<8x4xf32, "hbm">
  "nisa.dma_copy"(%o, %q) : (memref<8x4xf32, "sbuf">, memref<8x4xf32, "hbm">) -> ()
  return
}

// An access pattern that reinterprets the allocation (bf16 read as f32 words), then a view.
// CHECK-LABEL: func.func @reinterpret_then_view
// CHECK: "nisa.reshape"(%{{.*}}) : (memref<128x32xf32, "sbuf">) -> memref<128x4x8xf32, "sbuf">
func.func @reinterpret_then_view(%t: memref<128x64xbf16, "sbuf">, %d: memref<128x8x4xf32, "sbuf">) {
  %w = "nisa.ap"(%t) {pattern = array<i64: 32, 128, 1, 32>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x64xbf16, "sbuf">) -> memref<128x32xf32, "sbuf">
  %r = "nisa.reshape"(%w) : (memref<128x32xf32, "sbuf">) -> memref<128x4x8xf32, "sbuf">
  %p = "nisa.permute"(%r) {dims = array<i64: 0, 2, 1>} : (memref<128x4x8xf32, "sbuf">) -> memref<128x8x4xf32, "sbuf">
  "nisa.tensor_copy"(%d, %p) : (memref<128x8x4xf32, "sbuf">, memref<128x8x4xf32, "sbuf">) -> ()
  return
}

// MoE-style gather from a reshaped expert table: an indirect access pattern on a view that is
// one contiguous block of the allocation.
// CHECK-LABEL: func.func @gather_from_a_view
// CHECK: %[[E:.*]] = "nisa.reshape"(%{{.*}}) : (memref<8x512x64xbf16, "hbm">) -> memref<4096x64xbf16, "hbm">
// CHECK: "nisa.ap"(%[[E]], %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 0>, pattern = array<i64: 64, 128, 1, 64>}
func.func @gather_from_a_view(%experts: memref<8x512x64xbf16, "hbm">, %idx: memref<128x1xui32, "sbuf">,
                              %rows: memref<128x64xbf16, "sbuf">) {
  %e = "nisa.reshape"(%experts) : (memref<8x512x64xbf16, "hbm">) -> memref<4096x64xbf16, "hbm">
  %g = "nisa.ap"(%e, %idx) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<4096x64xbf16, "hbm">, memref<128x1xui32, "sbuf">) -> memref<128x64xbf16, "hbm">
  "nisa.dma_copy_indirect"(%rows, %g) : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "hbm">) -> ()
  return
}
