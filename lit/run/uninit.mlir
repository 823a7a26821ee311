// The uninitialised-read check (issue 11 §2), on by default: an op that reads bytes nothing
// wrote fails at its file:line:col, naming the tile (its nisa.alloc name, or its position)
// and the first unwritten byte; nothing is saved. Arguments count as written (the host fills
// them: from --arg, --random-inputs or zeros). --no-uninit-check turns the check off, and
// the reads then see the emulator's fill (NaN for floats, 4 for integers, as NKI's simulator
// fills new tensors) - which for an index tile silently reads row 4.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py write %t/table.npy '<f4' 8,2 iota
//
// A compute op reading a named tile never written:
// RUN: not sundial-run %s --func compute --save 0=%t/never.npy 2>&1 | FileCheck %s --check-prefix=COMPUTE
// RUN: not ls %t/never.npy
// An indirect DMA whose index tile was never written (the index values are a read too):
// RUN: not sundial-run %s --func index --arg 0=%t/table.npy 2>&1 | FileCheck %s --check-prefix=INDEX
// An unnamed tile is named by its position; a tile written in its first partition only
// fails on the second; an HBM tensor of nisa.alloc is checked as well; device_print reads.
// RUN: not sundial-run %s --func unnamed 2>&1 | FileCheck %s --check-prefix=UNNAMED
// RUN: not sundial-run %s --func partial --arg 0=%t/table.npy 2>&1 | FileCheck %s --check-prefix=PARTIAL
// RUN: not sundial-run %s --func hbm_scratch 2>&1 | FileCheck %s --check-prefix=HBM
// RUN: not sundial-run %s --func print 2>&1 | FileCheck %s --check-prefix=PRINT
//
// Arguments nobody gave are zero-filled and count as written: reading one is no error.
// RUN: sundial-run %s --func read_output --save 1=%t/copied.npy
// RUN: python3 %S/Inputs/npy.py dump %t/copied.npy | FileCheck %s --check-prefix=ZEROS
// ZEROS: {{^}}0.0 0.0{{$}}
//
// Without the check the index tile reads as 4s: both gathered rows are row 4 (8, 9).
// RUN: sundial-run %s --func index --arg 0=%t/table.npy --save 1=%t/rows.npy --no-uninit-check
// RUN: python3 %S/Inputs/npy.py dump %t/rows.npy | FileCheck %s --check-prefix=FILL
// FILL: {{^}}8.0 9.0 8.0 9.0{{$}}

module {
  func.func @compute(%out: memref<2x4xf32, "sbuf">) {
    %a = "nisa.alloc"() {name = "a_tile"} : () -> memref<2x4xf32, "sbuf">
    "nisa.memset"(%a) {value = 1.0 : f32} : (memref<2x4xf32, "sbuf">) -> ()
    %b = "nisa.alloc"() {name = "b_tile"} : () -> memref<2x4xf32, "sbuf">
    "nisa.tensor_tensor_arith"(%out, %a, %b) {op = "add"}
        : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
// COMPUTE: uninit.mlir:[[@LINE-2]]:5: error: 'nisa.tensor_tensor_arith' op failed in the emulator: tensor_tensor_arith: reads byte 0 of partition 0 of tile 'b_tile' before anything wrote it
// COMPUTE: note: operand 'rhs': tile 'b_tile' (sbuf 2x4xfloat32)
    return
  }
  func.func @index(%table: memref<8x2xf32, "hbm">, %rows: memref<2x2xf32, "sbuf">) {
    %i = "nisa.alloc"() {name = "idx"} : () -> memref<2x1xi32, "sbuf">
    %g = "nisa.ap"(%table, %i) {pattern = array<i64: 2, 2, 1, 2>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<8x2xf32, "hbm">, memref<2x1xi32, "sbuf">) -> memref<2x2xf32, "hbm">
    "nisa.dma_copy_indirect"(%rows, %g) : (memref<2x2xf32, "sbuf">, memref<2x2xf32, "hbm">) -> ()
// INDEX: uninit.mlir:[[@LINE-1]]:5: error: 'nisa.dma_copy_indirect' op failed in the emulator: dma_copy_indirect: reads byte 0 of partition 0 of tile 'idx' before anything wrote it
    return
  }
  func.func @unnamed(%out: memref<2x4xf32, "sbuf">) {
    %t = "nisa.alloc"() : () -> memref<2x4xf32, "sbuf">
// UNNAMED: uninit.mlir:[[@LINE+1]]:5: error: 'nisa.reciprocal' op failed in the emulator: reciprocal: reads byte 0 of partition 0 of tile <nisa.alloc at [[@LINE-1]]:10> before anything wrote it
    "nisa.reciprocal"(%out, %t) : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    return
  }
  func.func @partial(%table: memref<8x2xf32, "hbm">) {
    %t = "nisa.alloc"() {name = "half"} : () -> memref<2x2xf32, "sbuf">
    %top = "nisa.ap"(%t) {pattern = array<i64: 2, 1, 1, 2>, operandSegmentSizes = array<i32: 1, 0, 0>}
        : (memref<2x2xf32, "sbuf">) -> memref<1x2xf32, "sbuf">
    %row = "nisa.ap"(%table) {pattern = array<i64: 2, 1, 1, 2>, operandSegmentSizes = array<i32: 1, 0, 0>}
        : (memref<8x2xf32, "hbm">) -> memref<1x2xf32, "hbm">
    "nisa.dma_copy"(%top, %row) : (memref<1x2xf32, "sbuf">, memref<1x2xf32, "hbm">) -> ()
    %two = "nisa.ap"(%table) {pattern = array<i64: 2, 2, 1, 2>, operandSegmentSizes = array<i32: 1, 0, 0>}
        : (memref<8x2xf32, "hbm">) -> memref<2x2xf32, "hbm">
    "nisa.dma_copy"(%two, %t) : (memref<2x2xf32, "hbm">, memref<2x2xf32, "sbuf">) -> ()
// PARTIAL: uninit.mlir:[[@LINE-1]]:5: error: 'nisa.dma_copy' op {{.*}}: reads byte 0 of partition 1 of tile 'half' before anything wrote it
    return
  }
  func.func @hbm_scratch(%out: memref<4xf32, "hbm">) {
    %s = "nisa.alloc"() {name = "scratch"} : () -> memref<4xf32, "hbm">
    "nisa.dma_copy"(%out, %s) : (memref<4xf32, "hbm">, memref<4xf32, "hbm">) -> ()
// HBM: uninit.mlir:[[@LINE-1]]:5: error: 'nisa.dma_copy' op failed in the emulator: dma_copy: reads byte 0 of tile 'scratch' before anything wrote it
    return
  }
  func.func @print() {
    %t = "nisa.alloc"() {name = "shown"} : () -> memref<1x2xf32, "sbuf">
    "nisa.device_print"(%t) {prefix = "t"} : (memref<1x2xf32, "sbuf">) -> ()
// PRINT: uninit.mlir:[[@LINE-1]]:5: error: 'nisa.device_print' op failed in the emulator: device_print: reads byte 0 of partition 0 of tile 'shown' before anything wrote it
    return
  }
  func.func @read_output(%in: memref<1x2xf32, "hbm">, %out: memref<1x2xf32, "hbm">) {
    "nisa.dma_copy"(%out, %in) : (memref<1x2xf32, "hbm">, memref<1x2xf32, "hbm">) -> ()
    return
  }
}
