// Loops and dynamic addressing: scf.for loops (NKI affine_range / sequential_range) whose
// bodies address HBM tensors and tiles through nisa.dynamic_ap offsets computed with arith
// from induction variables, nested loops, indirect access inside a loop, register loops
// (dynamic_range), program ids of a launch grid, HBM buffers, and the static nisa.ap written
// without operandSegmentSizes.
// RUN: sundial-opt %s | FileCheck %s
// RUN: sundial-opt %s -o %t.1 && sundial-opt %t.1 -o %t.2 && diff %t.1 %t.2

// A static access pattern needs no operandSegmentSizes in the text: it is implied (and printed).
// CHECK-LABEL: func.func @static_ap_implied_segments
// CHECK: "nisa.ap"(%{{.*}}) {offset = 64 : i64, operandSegmentSizes = array<i32: 1, 0, 0>, pattern = array<i64: 128, 128, 1, 64>}
func.func @static_ap_implied_segments(%t: memref<128x128xf32, "sbuf">) {
  %a = "nisa.ap"(%t) {pattern = array<i64: 128, 128, 1, 64>, offset = 64}
      : (memref<128x128xf32, "sbuf">) -> memref<128x64xf32, "sbuf">
  return
}


// An affine_range loop over the column blocks of an HBM tensor: the dynamic offset i * 512
// reaches element 3584 + 127 * 4096 + 511 = 523775 < 128 * 4096 at the last iteration.
// CHECK-LABEL: func.func @column_blocks
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[OFF:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK: "nisa.dynamic_ap"(%{{.*}}, %[[OFF]]) {operandSegmentSizes = array<i32: 1, 1, 0, 0>, pattern = array<i64: 4096, 128, 1, 512>}
// CHECK: } {sundial.range = "affine"}
func.func @column_blocks(%x: memref<128x4096xf32, "hbm">, %y: memref<128x4096xf32, "hbm">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c512 = arith.constant 512 : index
  %t = "nisa.alloc"() : () -> memref<128x512xf32, "sbuf">
  scf.for %i = %c0 to %c8 step %c1 {
    %off = arith.muli %i, %c512 : index
    %src = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 4096, 128, 1, 512>}
        : (memref<128x4096xf32, "hbm">, index) -> memref<128x512xf32, "hbm">
    "nisa.dma_copy"(%t, %src) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
    "nisa.activation"(%t, %t) {op = "exp", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}
        : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
    %dst = "nisa.dynamic_ap"(%y, %off) {pattern = array<i64: 4096, 128, 1, 512>}
        : (memref<128x4096xf32, "hbm">, index) -> memref<128x512xf32, "hbm">
    "nisa.dma_copy"(%dst, %t) : (memref<128x512xf32, "hbm">, memref<128x512xf32, "sbuf">) -> ()
  } {sundial.range = "affine"}
  return
}


// Nested loops address an SBUF tile through both induction variables (offset 128 * i + 64 * j
// plus a static 32), the inner one a sequential_range with a non-zero lower bound and a step:
// the free offset is at most 32 + 3 * 128 + 7 * 64 = 864, and 864 + 31 < 1024.
// CHECK-LABEL: func.func @nested
// CHECK: scf.for
// CHECK: scf.for
// CHECK: "nisa.dynamic_ap"(%{{.*}}, %{{.*}}) {offset = 32 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>, pattern = array<i64: 1024, 128, 1, 32>}
// CHECK: } {sundial.range = "sequential"}
func.func @nested(%t: memref<128x1024xbf16, "sbuf">, %d: memref<128x32xbf16, "sbuf">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c9 = arith.constant 9 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c1 to %c9 step %c2 {
      %a = arith.muli %i, %c128 : index
      %b = arith.muli %j, %c64 : index
      %off = arith.addi %a, %b : index
      %v = "nisa.dynamic_ap"(%t, %off) {pattern = array<i64: 1024, 128, 1, 32>, offset = 32}
          : (memref<128x1024xbf16, "sbuf">, index) -> memref<128x32xbf16, "sbuf">
      "nisa.tensor_copy"(%d, %v) : (memref<128x32xbf16, "sbuf">, memref<128x32xbf16, "sbuf">) -> ()
    } {sundial.range = "sequential"}
  }
  return
}

// Indirect access in a loop (a gather of 128 rows, one column block per iteration): the
// dynamic_ap carries both the dynamic offset and the vector_offset, so it writes
// operandSegmentSizes to say which optional operand it gives.
// CHECK-LABEL: func.func @gather_blocks
// CHECK: "nisa.dynamic_ap"(%{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 0>, pattern = array<i64: 512, 128, 1, 128>}
// CHECK: "nisa.dma_copy_indirect"
func.func @gather_blocks(%table: memref<1024x512xbf16, "hbm">, %idx: memref<128x1xi32, "sbuf">, %rows: memref<128x128xbf16, "sbuf">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  scf.for %j = %c0 to %c4 step %c1 {
    %off = arith.muli %j, %c128 : index
    %g = "nisa.dynamic_ap"(%table, %off, %idx) {pattern = array<i64: 512, 128, 1, 128>, operandSegmentSizes = array<i32: 1, 1, 1, 0>}
        : (memref<1024x512xbf16, "hbm">, index, memref<128x1xi32, "sbuf">) -> memref<128x128xbf16, "hbm">
    "nisa.dma_copy_indirect"(%rows, %g) {dge_mode = "swdge"} : (memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "hbm">) -> ()
  }
  return
}

// Registers (NKI register_alloc / register_move / register_load) and a dynamic_range loop:
// the trip count lives in a register, read as an index by nisa.register_index. Offsets from
// its induction variable are left to a run-time check; the body's static pattern still is
// checked.
// CHECK-LABEL: func.func @dynamic_range
// CHECK: %[[R:.*]] = "nisa.register_alloc"() {value = 4 : i64} : () -> !nisa.reg
// CHECK: %[[Z:.*]] = "nisa.register_alloc"() : () -> !nisa.reg
// CHECK: "nisa.register_move"(%[[Z]]) {imm = 0 : i64} : (!nisa.reg) -> ()
// CHECK: %[[L:.*]] = "nisa.load_register"
// CHECK: "nisa.register_move"(%[[R]], %[[L]]) : (!nisa.reg, !nisa.reg) -> ()
// CHECK: %[[N:.*]] = "nisa.register_index"(%[[R]]) : (!nisa.reg) -> index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} {
func.func @dynamic_range(%x: memref<4096x512xf32, "hbm">, %count: memref<1x1xi32, "sbuf">, %t: memref<128x512xf32, "sbuf">) {
  %r = "nisa.register_alloc"() {value = 4} : () -> !nisa.reg
  %zero = "nisa.register_alloc"() : () -> !nisa.reg
  "nisa.register_move"(%zero) {imm = 0} : (!nisa.reg) -> ()
  %loaded = "nisa.load_register"(%count) : (memref<1x1xi32, "sbuf">) -> !nisa.reg
  "nisa.register_move"(%r, %loaded) : (!nisa.reg, !nisa.reg) -> ()
  %n = "nisa.register_index"(%r) : (!nisa.reg) -> index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.constant 65536 : index
  scf.for %b = %c0 to %n step %c1 {
    %off = arith.muli %b, %rows : index
    %blk = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 512, 128, 1, 512>}
        : (memref<4096x512xf32, "hbm">, index) -> memref<128x512xf32, "hbm">
    "nisa.dma_copy"(%t, %blk) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
  }
  "nisa.store_register"(%count, %r) : (memref<1x1xi32, "sbuf">, !nisa.reg) -> ()
  return
}

// A loop that never runs: its access is never made, so it is not bounds-checked.
// CHECK-LABEL: func.func @never_runs
func.func @never_runs(%x: memref<128x512xf32, "hbm">, %t: memref<128x512xf32, "sbuf">) {
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %c9999 = arith.constant 9999 : index
  scf.for %i = %c4 to %c4 step %c1 {
    %off = arith.muli %i, %c9999 : index
    %a = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 512, 128, 1, 512>}
        : (memref<128x512xf32, "hbm">, index) -> memref<128x512xf32, "hbm">
    "nisa.dma_copy"(%t, %a) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
  }
  return
}

// An LNC=2 kernel: each program takes its half of the rows of a shared-HBM input (program_id
// ranges over the launch grid [2]), counts the programs, and keeps a private scratch tensor.
// CHECK-LABEL: func.func @lnc_halves
// CHECK-SAME: {sundial.buffer = "shared_hbm"}
// CHECK: "nisa.program_id"() {axis = 0 : i64} : () -> index
// CHECK: "nisa.num_programs"() : () -> index
// CHECK: "nisa.alloc"() {sundial.buffer = "private_hbm"} : () -> memref<128x512xf32, "hbm">
module attributes {sundial.grid = array<i64: 2>} {
func.func @lnc_halves(%x: memref<256x512xf32, "hbm"> {sundial.buffer = "shared_hbm"}, %t: memref<128x512xf32, "sbuf">) {
  %pid = "nisa.program_id"() {axis = 0} : () -> index
  %n = "nisa.num_programs"() : () -> index
  %half = arith.constant 65536 : index
  %off = arith.muli %pid, %half : index
  %mine = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 512, 128, 1, 512>}
      : (memref<256x512xf32, "hbm">, index) -> memref<128x512xf32, "hbm">
  "nisa.dma_copy"(%t, %mine) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
  %scratch = "nisa.alloc"() {sundial.buffer = "private_hbm"} : () -> memref<128x512xf32, "hbm">
  "nisa.dma_copy"(%scratch, %t) : (memref<128x512xf32, "hbm">, memref<128x512xf32, "sbuf">) -> ()
  return
}
}

// A loop with a run-time step and bounds (no NKI iterator, accepted as before loops were NISA
// forms): its offsets are left to a run-time check, and sundial-unroll keeps it.
// CHECK-LABEL: func.func @runtime_step
// CHECK: scf.for %{{.*}} = %arg2 to %arg3 step %arg4 {
func.func @runtime_step(%x: memref<128x512xf32, "hbm">, %t: memref<128x512xf32, "sbuf">, %lo: index, %hi: index, %step: index) {
  scf.for %i = %lo to %hi step %step {
    %a = "nisa.dynamic_ap"(%x, %i) {pattern = array<i64: 512, 128, 1, 512>}
        : (memref<128x512xf32, "hbm">, index) -> memref<128x512xf32, "hbm">
    "nisa.dma_copy"(%t, %a) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
  }
  return
}

// Views of a dynamic access pattern fold over the allocation it indexes, as they do at run
// time: a slice of each 2x4 block, and an access pattern on a dynamic one (one row of it).
// CHECK-LABEL: func.func @views_of_dynamic
// CHECK: "nisa.slice"
// CHECK: "nisa.ap"
func.func @views_of_dynamic(%x: memref<8x8xf32, "hbm">, %t: memref<128x64xf32, "sbuf">, %o: memref<2x2xf32, "hbm">,
                            %r: memref<1x32xf32, "sbuf">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %blk = "nisa.dynamic_ap"(%x, %i) {pattern = array<i64: 8, 2, 1, 4>}
        : (memref<8x8xf32, "hbm">, index) -> memref<2x4xf32, "hbm">
    %s = "nisa.slice"(%blk) {start = array<i64: 0, 1>} : (memref<2x4xf32, "hbm">) -> memref<2x2xf32, "hbm">
    "nisa.dma_copy"(%o, %s) : (memref<2x2xf32, "hbm">, memref<2x2xf32, "hbm">) -> ()
    %off = arith.muli %i, %c2 : index
    %v = "nisa.dynamic_ap"(%t, %off) {pattern = array<i64: 64, 128, 1, 32>}
        : (memref<128x64xf32, "sbuf">, index) -> memref<128x32xf32, "sbuf">
    %w = "nisa.ap"(%v) {pattern = array<i64: 32, 1, 1, 32>, offset = 32}
        : (memref<128x32xf32, "sbuf">) -> memref<1x32xf32, "sbuf">
    "nisa.tensor_copy"(%r, %w) : (memref<1x32xf32, "sbuf">, memref<1x32xf32, "sbuf">) -> ()
  }
  return
}

// A dynamic access pattern on a slice: four consecutive elements of the 8x4 view start a row
// at every offset the loop gives (0 and 4), so the pattern folds at both.
// CHECK-LABEL: func.func @dynamic_on_a_view
func.func @dynamic_on_a_view(%x: memref<8x8xf32, "hbm">, %o: memref<4xf32, "hbm">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %half = "nisa.slice"(%x) {start = array<i64: 0, 0>} : (memref<8x8xf32, "hbm">) -> memref<8x4xf32, "hbm">
  scf.for %i = %c0 to %c2 step %c1 {
    %off = arith.muli %i, %c4 : index
    %row = "nisa.dynamic_ap"(%half, %off) {pattern = array<i64: 1, 4>}
        : (memref<8x4xf32, "hbm">, index) -> memref<4xf32, "hbm">
    "nisa.dma_copy"(%o, %row) : (memref<4xf32, "hbm">, memref<4xf32, "hbm">) -> ()
  }
  return
}
