// Loop and dynamic-addressing rules: nisa.dynamic_ap bounds over the whole iteration space
// (the error names the loop and the value of its induction variable at the extreme), loop
// steps and kinds, launch grids and program axes, registers, HBM buffers, and the verifier
// walking into loop bodies.
// RUN: sundial-opt %s -split-input-file -verify-diagnostics

// The last iteration of an 8-iteration loop reads column 4096 of a 4096-wide HBM tensor.
func.func @past_the_end(%x: memref<128x4096xf32, "hbm">, %t: memref<128x512xf32, "sbuf">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c520 = arith.constant 520 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %off = arith.muli %i, %c520 : index
    // expected-error@+1 {{access pattern reaches element 524343 but the tensor has 524288 elements of f32, with the loop at 13:3 at 7 (dynamic offset 3640) (rule: ap bounds)}}
    %a = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 4096, 128, 1, 512>}
        : (memref<128x4096xf32, "hbm">, index) -> memref<128x512xf32, "hbm">
    "nisa.dma_copy"(%t, %a) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
  }
  return
}

// -----

// A negative static offset is fine as long as every iteration stays inside: here the first
// one (i = 0) reads element -64.
func.func @before_the_start(%x: memref<128x4096xf32, "hbm">, %t: memref<128x512xf32, "sbuf">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c512 = arith.constant 512 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %off = arith.muli %i, %c512 : index
    // expected-error@+1 {{access pattern reaches element -64 but the tensor has 524288 elements of f32, with the loop at 32:3 at 0 (dynamic offset 0) (rule: ap bounds)}}
    %a = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 4096, 128, 1, 512>, offset = -64}
        : (memref<128x4096xf32, "hbm">, index) -> memref<128x512xf32, "hbm">
    "nisa.dma_copy"(%t, %a) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
  }
  return
}

// -----

// Two nested loops: the extreme names both (a descending term takes the inner loop's first
// value).
func.func @nested(%t: memref<128x1024xbf16, "sbuf">, %d: memref<128x32xbf16, "sbuf">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %c64 = arith.constant 64 : index
  %c1000 = arith.constant 1000 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %a = arith.muli %i, %c256 : index
      %b = arith.muli %j, %c64 : index
      %e = arith.subi %a, %b : index
      %off = arith.addi %e, %c1000 : index
      // expected-error@+1 {{access covers partitions 1..129 but the tensor has 128, with the loop at 54:3 at 3 and the loop at 55:5 at 0 (dynamic offset 1768) (rule: ap bounds)}}
      %v = "nisa.dynamic_ap"(%t, %off) {pattern = array<i64: 1024, 128, 1, 32>}
          : (memref<128x1024xbf16, "sbuf">, index) -> memref<128x32xbf16, "sbuf">
      "nisa.tensor_copy"(%d, %v) : (memref<128x32xbf16, "sbuf">, memref<128x32xbf16, "sbuf">) -> ()
    }
  }
  return
}

// -----

// Program ids range over the launch grid: the second of three programs already reads past
// the rows of the tensor.
module attributes {sundial.grid = array<i64: 3>} {
func.func @program_rows(%x: memref<256x512xf32, "hbm">, %t: memref<128x512xf32, "sbuf">) {
  %pid = "nisa.program_id"() : () -> index
  %rows = arith.constant 65536 : index
  %off = arith.muli %pid, %rows : index
  // expected-error@+1 {{access pattern reaches element 196607 but the tensor has 131072 elements of f32, with program_id(0) = 2 (dynamic offset 131072) (rule: ap bounds)}}
  %a = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 512, 128, 1, 512>}
      : (memref<256x512xf32, "hbm">, index) -> memref<128x512xf32, "hbm">
  "nisa.dma_copy"(%t, %a) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
  return
}
}

// -----

// A constant dynamic offset is checked like a static one.
func.func @constant_offset(%x: memref<128x512xf32, "hbm">, %t: memref<128x512xf32, "sbuf">) {
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{access pattern reaches element 65536 but the tensor has 65536 elements of f32, with dynamic offset 1 (rule: ap bounds)}}
  %a = "nisa.dynamic_ap"(%x, %c1) {pattern = array<i64: 512, 128, 1, 512>}
      : (memref<128x512xf32, "hbm">, index) -> memref<128x512xf32, "hbm">
  "nisa.dma_copy"(%t, %a) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
  return
}

// -----

// The rules that do not depend on the offset hold for a run-time offset too.
func.func @runtime_offset_shape(%x: memref<128x512xf32, "hbm">, %off: index) {
  // expected-error@+1 {{result shape 128x256 must equal the pattern's nums 128x512 (rule: ap shape)}}
  %a = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 512, 128, 1, 512>}
      : (memref<128x512xf32, "hbm">, index) -> memref<128x256xf32, "hbm">
  return
}

// -----

// A view of a dynamic access pattern folds over the allocation the pattern indexes: elements
// 1..4 of its two 4-element rows (8 apart in %x) are no strided pattern.
func.func @view_of_dynamic(%x: memref<8x8xf32, "hbm">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %blk = "nisa.dynamic_ap"(%x, %i) {pattern = array<i64: 8, 2, 1, 4>}
        : (memref<8x8xf32, "hbm">, index) -> memref<2x4xf32, "hbm">
    %flat = "nisa.reshape"(%blk) : (memref<2x4xf32, "hbm">) -> memref<8xf32, "hbm">
    // expected-error@+1 {{the walk crosses a boundary of the view's layout (a run of 4 elements of stride 1 is entered at several points), so no strided access pattern addresses it: copy the data instead (rule: view folds)}}
    %mid = "nisa.slice"(%flat) {start = array<i64: 1>} : (memref<8xf32, "hbm">) -> memref<4xf32, "hbm">
  }
  return
}

// -----

// So does an access pattern on a dynamic one, with an offset only known at run time.
func.func @ap_on_dynamic(%x: memref<8x8xf32, "hbm">, %off: index) {
  %blk = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 8, 2, 1, 4>}
      : (memref<8x8xf32, "hbm">, index) -> memref<2x4xf32, "hbm">
  // expected-error@+1 {{(rule: view folds)}}
  %w = "nisa.ap"(%blk) {pattern = array<i64: 1, 4>, offset = 1}
      : (memref<2x4xf32, "hbm">) -> memref<4xf32, "hbm">
  return
}

// -----

// A view of an indirect dynamic access pattern has no fixed addresses.
func.func @view_of_indirect_dynamic(%table: memref<1024x512xbf16, "hbm">, %idx: memref<128x1xi32, "sbuf">, %off: index) {
  %g = "nisa.dynamic_ap"(%table, %off, %idx) {pattern = array<i64: 512, 128, 1, 128>, operandSegmentSizes = array<i32: 1, 1, 1, 0>}
      : (memref<1024x512xbf16, "hbm">, index, memref<128x1xi32, "sbuf">) -> memref<128x128xbf16, "hbm">
  // expected-error@+1 {{(rule: view indirect)}}
  %s = "nisa.slice"(%g) {start = array<i64: 0, 0>} : (memref<128x128xbf16, "hbm">) -> memref<64x128xbf16, "hbm">
  return
}

// -----

// A dynamic access pattern on a view folds at the smallest and the largest offset the loop
// gives: at offset 1 four consecutive elements of the 8x4 slice cross its first row.
func.func @dynamic_on_a_view_crosses(%x: memref<8x8xf32, "hbm">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %half = "nisa.slice"(%x) {start = array<i64: 0, 0>} : (memref<8x8xf32, "hbm">) -> memref<8x4xf32, "hbm">
  scf.for %i = %c0 to %c2 step %c1 {
    // expected-error@+1 {{(rule: view folds)}}
    %row = "nisa.dynamic_ap"(%half, %i) {pattern = array<i64: 1, 4>}
        : (memref<8x4xf32, "hbm">, index) -> memref<4xf32, "hbm">
  }
  return
}

// -----

// An indirect dynamic access pattern needs the indirect DMA.
func.func @indirect_needs_indirect_dma(%table: memref<1024x512xbf16, "hbm">, %idx: memref<128x1xi32, "sbuf">,
                                       %rows: memref<128x128xbf16, "sbuf">, %off: index) {
  %g = "nisa.dynamic_ap"(%table, %off, %idx) {pattern = array<i64: 512, 128, 1, 128>, operandSegmentSizes = array<i32: 1, 1, 1, 0>}
      : (memref<1024x512xbf16, "hbm">, index, memref<128x1xi32, "sbuf">) -> memref<128x128xbf16, "hbm">
  // expected-error@+1 {{operand 'src' is an indirect access pattern: use nisa.dma_copy_indirect (rule: direct dma)}}
  "nisa.dma_copy"(%rows, %g) : (memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "hbm">) -> ()
  return
}

// -----

// An access pattern that gives an optional operand still writes operandSegmentSizes: a tile
// could be either the vector or the scalar offset.
func.func @indirect_needs_segments(%table: memref<1024x512xbf16, "hbm">, %idx: memref<128x1xi32, "sbuf">) {
  // expected-error@+1 {{'operandSegmentSizes' attribute is expected but not provided}}
  %g = "nisa.ap"(%table, %idx) {pattern = array<i64: 512, 128, 1, 128>}
      : (memref<1024x512xbf16, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x128xbf16, "hbm">
  return
}

// -----

// The dynamic offset is an index.
func.func @offset_type(%x: memref<128x512xf32, "hbm">, %off: i32) {
  // expected-error@+1 {{expected 'index' but got 'i32'}}
  %a = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 512, 128, 1, 512>}
      : (memref<128x512xf32, "hbm">, i32) -> memref<128x512xf32, "hbm">
  return
}

// -----

// The verifier walks into loop bodies.
func.func @rule_in_body(%a: memref<128x64xf32, "sbuf">, %b: memref<128x32xf32, "sbuf">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      // expected-error@+1 {{operand 'lhs' has shape 128x64 but 'dst' has shape 128x32 (rule: shapes agree)}}
      "nisa.tensor_tensor_arith"(%b, %a, %a) {op = "add"}
          : (memref<128x32xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    }
  }
  return
}

// -----

// A loop over register values (dynamic_range) takes a compile-time step: the hardware loop
// encodes it as an immediate.
func.func @register_step(%r: !nisa.reg, %t: memref<128x64xf32, "sbuf">) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %step = "nisa.register_index"(%r) : (!nisa.reg) -> index
  // expected-error@+1 {{'scf.for' op a loop over register values (NKI's dynamic_range) needs a compile-time constant step: the hardware loop instruction encodes it as an immediate (rule: loop step)}}
  scf.for %i = %c0 to %c8 step %step {
    "nisa.memset"(%t) {value = 0.0 : f32} : (memref<128x64xf32, "sbuf">) -> ()
  }
  return
}

// -----

// sundial.range names one of NKI's static iterators.
func.func @range_kind(%t: memref<128x64xf32, "sbuf">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  // expected-error@+1 {{'scf.for' op attribute 'sundial.range' must be one of affine|sequential (NKI's affine_range / sequential_range) (rule: loop range)}}
  scf.for %i = %c0 to %c8 step %c1 {
    "nisa.memset"(%t) {value = 0.0 : f32} : (memref<128x64xf32, "sbuf">) -> ()
  } {sundial.range = "static"}
  return
}

// -----

// A launch grid has positive extents ...
// expected-error@+1 {{attribute 'sundial.grid': every extent must be at least 1, got 0 (rule: launch grid)}}
module attributes {sundial.grid = array<i64: 0>} {
}

// -----

// ... on 1 to 3 axes, as array<i64>.
// expected-error@+1 {{attribute 'sundial.grid' must be array<i64: ...> (one extent per launch-grid axis) (rule: launch grid)}}
module attributes {sundial.grid = 2 : i64} {
}

// -----

// program_id names an axis of the grid ...
module attributes {sundial.grid = array<i64: 2>} {
func.func @program_axis() {
  // expected-error@+1 {{attribute 'axis': 1 is not an axis of the launch grid [2] (sundial.grid) (rule: program axis)}}
  %p = "nisa.program_id"() {axis = 1} : () -> index
  return
}
}

// -----

// ... and num_programs each axis once.
func.func @num_programs_axes() {
  // expected-error@+1 {{attribute 'axes': axis 0 is named twice (rule: program axis)}}
  %n = "nisa.num_programs"() {axes = array<i64: 0, 0>} : () -> index
  return
}

// -----

// register_move takes an immediate or a register ...
func.func @move_both(%r: !nisa.reg, %s: !nisa.reg) {
  // expected-error@+1 {{give either attribute 'imm' or operand 'src', not both (rule: immediate or register)}}
  "nisa.register_move"(%r, %s) {imm = 3} : (!nisa.reg, !nisa.reg) -> ()
  return
}

// -----

// ... and needs one of them.
func.func @move_neither(%r: !nisa.reg) {
  // expected-error@+1 {{needs attribute 'imm' (an integer) or operand 'src' (a register) (rule: immediate or register)}}
  "nisa.register_move"(%r) : (!nisa.reg) -> ()
  return
}

// -----

// A register holds 32 bits.
func.func @register_value() {
  // expected-error@+1 {{attribute 'value': value 4294967296 is out of range [-2147483648, 2147483647]}}
  %r = "nisa.register_alloc"() {value = 4294967296} : () -> !nisa.reg
  return
}

// -----

// An HBM buffer is named for an HBM tile only ...
func.func @buffer_on_sbuf() {
  // expected-error@+1 {{'nisa.alloc' op attribute 'sundial.buffer' names HBM buffer "shared_hbm" but the tile is in "sbuf" (rule: hbm buffer)}}
  %t = "nisa.alloc"() {sundial.buffer = "shared_hbm"} : () -> memref<128x64xf32, "sbuf">
  return
}

// -----

// ... is one of NKI's three ...
func.func @buffer_name() {
  // expected-error@+1 {{'nisa.alloc' op attribute 'sundial.buffer' must be one of hbm|shared_hbm|private_hbm (rule: hbm buffer)}}
  %t = "nisa.alloc"() {sundial.buffer = "global"} : () -> memref<128x64xf32, "hbm">
  return
}

// -----

// ... also on function arguments ...
// expected-error@+1 {{'func.func' op argument #1: attribute 'sundial.buffer' names HBM buffer "private_hbm" but the tile is in "sbuf" (rule: hbm buffer)}}
func.func @buffer_argument(%x: memref<128x64xf32, "hbm"> {sundial.buffer = "shared_hbm"}, %t: memref<128x64xf32, "sbuf"> {sundial.buffer = "private_hbm"}) {
  return
}

// -----

// ... and only on allocations and arguments.
func.func @buffer_elsewhere(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{'nisa.memset' op attribute 'sundial.buffer' belongs on a nisa.alloc of an HBM tile (or on an HBM tensor argument) (rule: hbm buffer)}}
  "nisa.memset"(%t) {value = 0.0 : f32, sundial.buffer = "hbm"} : (memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// ... argument attributes name one of the three ...
// expected-error@+1 {{'func.func' op argument #0: attribute 'sundial.buffer' must be one of hbm|shared_hbm|private_hbm (rule: hbm buffer)}}
func.func @buffer_argument_name(%x: memref<128x64xf32, "hbm"> {sundial.buffer = 3 : i64}) {
  return
}

// -----

// ... for a tile argument.
// expected-error@+1 {{'func.func' op argument #0: attribute 'sundial.buffer' names HBM buffer "hbm" for a value that is not a tile (rule: hbm buffer)}}
func.func @buffer_argument_index(%i: index {sundial.buffer = "hbm"}) {
  return
}

// -----

// A launch grid has 1 to 3 axes.
// expected-error@+1 {{attribute 'sundial.grid' needs 1 to 3 axes, got 4 (rule: launch grid)}}
module attributes {sundial.grid = array<i64: 1, 2, 2, 2>} {
}

// -----

// num_programs names axes that exist ...
func.func @num_programs_negative() {
  // expected-error@+1 {{attribute 'axes': axis -1 is negative (rule: program axis)}}
  %n = "nisa.num_programs"() {axes = array<i64: -1>} : () -> index
  return
}

// -----

// ... in the grid.
module attributes {sundial.grid = array<i64: 2>} {
func.func @num_programs_axis() {
  // expected-error@+1 {{attribute 'axes': 1 is not an axis of the launch grid [2] (sundial.grid) (rule: program axis)}}
  %n = "nisa.num_programs"() {axes = array<i64: 0, 1>} : () -> index
  return
}
}

// -----

// An element offset past 64 bits is an error, not a wrapped value.
func.func @offset_overflow(%x: memref<128x512xf32, "hbm">, %t: memref<128x512xf32, "sbuf">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %huge = arith.constant 4611686018427387904 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %off = arith.muli %i, %huge : index
    // expected-error@+1 {{the element offset does not fit in 64 bits, with the loop at 392:3 at 3 (dynamic offset 13835058055282163712) (rule: ap bounds)}}
    %a = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 512, 128, 1, 512>}
        : (memref<128x512xf32, "hbm">, index) -> memref<128x512xf32, "hbm">
    "nisa.dma_copy"(%t, %a) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
  }
  return
}
