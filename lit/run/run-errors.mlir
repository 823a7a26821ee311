// Errors found in the kernel or while it runs: each names the op (or function) with its
// file:line:col and a source snippet, and leaves no output file. The CHECK lines sit next to
// the IR they are about.
// RUN: rm -rf %t && mkdir -p %t
//
// An op that cannot run is refused by name before anything runs, with the reason of the
// op table's REFUSED row: an op the emulator refuses (its reason quoted), an op whose
// attributes cannot say what a run needs; and a collective without --ranks. Ops of other
// dialects (but the arith index ops) and ops with regions (but scf.for) have no semantics at
// all; arith on floats is refused when it runs.
// RUN: not sundial-run %s --func stt_bitvec --save 0=%t/never.npy 2>&1 | FileCheck %s --check-prefix=STT
// RUN: not ls %t/never.npy
// RUN: not sundial-run %s --func swap_cores --ranks 2 2>&1 | FileCheck %s --check-prefix=SENDRECV
// RUN: not sundial-run %s --func permute_reduce --ranks 2 2>&1 | FileCheck %s --check-prefix=PERMREDUCE
// RUN: not sundial-run %s --func reduce_all 2>&1 | FileCheck %s --check-prefix=NORANKS
// RUN: not sundial-run %s --func region 2>&1 | FileCheck %s --check-prefix=REGION
// RUN: not sundial-run %s --func constant 2>&1 | FileCheck %s --check-prefix=CONSTANT
//
// An out-of-bounds index with oob_mode = error fails the op, names the index and the tiles
// of its operands, and writes nothing.
// RUN: python3 %S/Inputs/npy.py write %t/idx.npy '<i4' 2,1 1,8
// RUN: not sundial-run %s --func oob --arg 1=%t/idx.npy --save 2=%t/out.npy 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: not ls %t/out.npy
//
// A static access pattern whose free part runs into the next partition's row cannot be
// emulated (the verifier accepts it: it stays inside the tile as a flat array).
// RUN: not sundial-run %s --func cross_row 2>&1 | FileCheck %s --check-prefix=CROSS
//
// Functions sundial-run cannot call: a non-tile argument, results, no body.
// RUN: not sundial-run %s --func scalar_arg 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: not sundial-run %s --func returns 2>&1 | FileCheck %s --check-prefix=RETURNS
// RUN: not sundial-run %s --func decl 2>&1 | FileCheck %s --check-prefix=DECL
//
// An index tile with two dimensions longer than 1 has no element order to read it in.
//
// On-chip memory: a PSUM argument larger than all 8 banks (a logical PSUM tile, before the
// free-axis cut, may span banks but not exceed the PSUM), and SBUF filled by two big tiles.
// RUN: not sundial-run %s --func psum_arg 2>&1 | FileCheck %s --check-prefix=PSUM
// RUN: not sundial-run %s --func sbuf_full 2>&1 | FileCheck %s --check-prefix=SBUF
//
// Logical tiles (before partition tiling) run on a logical machine of at most 2048
// partitions: a wider tile is refused before anything runs, at the op or the argument.
// RUN: not sundial-run %s --func too_wide 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: not sundial-run %s --func too_wide_arg 2>&1 | FileCheck %s --check-prefix=WIDEARG
//
// Sizes: arguments and HBM allocations beyond the 1 GiB sundial-run allocates.
// RUN: not sundial-run %s --func huge_arg 2>&1 | FileCheck %s --check-prefix=HUGEARG
// HUGEARG: sundial-run: error: the arguments of @huge_arg hold 1099511627776 bytes, more than the 1073741824 sundial-run allocates
// RUN: not sundial-run %s --func huge_alloc 2>&1 | FileCheck %s --check-prefix=HUGEALLOC
//
// The same failures as JSON, one object per line.
// RUN: not sundial-run %s --func oob --arg 1=%t/idx.npy --diagnostics-format=json 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: not sundial-run %s --func huge_arg -diagnostics-format=json 2>&1 | FileCheck %s --check-prefix=JSONDRIVER
// JSONDRIVER: {"col":null,"file":"{{.*}}run-errors.mlir","help":null,"line":null,"message":"the arguments of @huge_arg hold 1099511627776 bytes{{.*}}","notes":[],"rule":null,"severity":"error"}

module attributes {sundial.target = "mariana"} {
  func.func @stt_bitvec(%d: memref<128x64xui8, "sbuf">, %c: memref<128x1xui8, "sbuf">) {
    "nisa.scalar_tensor_tensor_bitvec"(%d, %d, %c, %d) {op0 = "bitwise_and", op1 = "bitwise_or"}
        : (memref<128x64xui8, "sbuf">, memref<128x64xui8, "sbuf">, memref<128x1xui8, "sbuf">, memref<128x64xui8, "sbuf">) -> ()
// STT: run-errors.mlir:[[@LINE-2]]:5: error: op 'nisa.scalar_tensor_tensor_bitvec' cannot run on the emulator: the emulator refuses it: scalar_tensor_tensor_bitvec: refused: the op scalar_tensor_tensor_bitvec has no public semantics: nki.isa.scalar_tensor_tensor says "Bitvec operators are not supported"
    return
  }
  func.func @swap_cores(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">) {
    "nisa.send_recv"(%d, %s) {send_to_rank = 1, recv_from_rank = 1} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
// SENDRECV: run-errors.mlir:[[@LINE-1]]:5: error: op 'nisa.send_recv' cannot run on the emulator: send_to_rank and recv_from_rank are attributes, the same on every rank of an SPMD run
    return
  }
  func.func @permute_reduce(%h: memref<4x2xf32, "hbm">) {
    "nisa.collective_permute_reduce"(%h, %h, %h) {source_target_pairs = [array<i64: 0, 1>, array<i64: 1, 0>], op = "add"}
        : (memref<4x2xf32, "hbm">, memref<4x2xf32, "hbm">, memref<4x2xf32, "hbm">) -> ()
// PERMREDUCE: run-errors.mlir:[[@LINE-2]]:5: error: op 'nisa.collective_permute_reduce' cannot run on the emulator: the emulator refuses it: collective_permute_reduce: refused: the op collective_permute_reduce has no public semantics
    return
  }
  func.func @reduce_all(%h: memref<4x2xf32, "hbm">) {
    "nisa.all_reduce"(%h, %h) {replica_group = [array<i64: 0, 1>], op = "add", operandSegmentSizes = array<i32: 1, 1>}
        : (memref<4x2xf32, "hbm">, memref<4x2xf32, "hbm">) -> ()
// NORANKS: run-errors.mlir:[[@LINE-2]]:5: error: 'nisa.all_reduce' is a collective: run the kernel on a rank group with --ranks N
    return
  }
  func.func @region(%a: memref<4xf32, "hbm">) {
    scf.execute_region {
      scf.yield
    }
// REGION: run-errors.mlir:[[@LINE-3]]:5: error: op 'scf.execute_region' has no emulator semantics yet
    return
  }
  func.func @constant(%a: memref<4xf32, "hbm">) {
    %c = arith.constant 1.0 : f8E4M3FN
// CONSTANT: run-errors.mlir:[[@LINE-1]]:10: error: 'arith.constant' op sundial-run evaluates arith on f16, bf16, f32 and f64 scalars, not on this type
    return
  }
  func.func @oob(%table: memref<8x4xf32, "hbm">, %idx: memref<2x1xi32, "hbm">, %out: memref<2x4xf32, "hbm">) {
    %i = "nisa.alloc"() : () -> memref<2x1xi32, "sbuf">
    "nisa.dma_copy"(%i, %idx) : (memref<2x1xi32, "sbuf">, memref<2x1xi32, "hbm">) -> ()
    %g = "nisa.ap"(%table, %i) {pattern = array<i64: 4, 2, 1, 4>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<8x4xf32, "hbm">, memref<2x1xi32, "sbuf">) -> memref<2x4xf32, "hbm">
    %rows = "nisa.alloc"() {name = "rows"} : () -> memref<2x4xf32, "sbuf">
    "nisa.dma_copy_indirect"(%rows, %g) : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "hbm">) -> ()
// OOB: run-errors.mlir:[[@LINE-1]]:5: error: 'nisa.dma_copy_indirect' op failed in the emulator: dma_copy_indirect: index value 8 read at position [1, 0] of index view 0 puts source dimension 0 at 8, outside [0, 8)
// OOB: note: operand 'dst': tile 'rows' (sbuf 2x4xfloat32)
// OOB: note: operand 'src': an indirect access pattern on argument 0 (hbm 8x4xfloat32)
// JSON: {"col":5,"file":"{{.*}}run-errors.mlir","help":null,"line":[[@LINE-4]],"message":"'nisa.dma_copy_indirect' op failed in the emulator: {{.*}}","notes":[{"col":5,{{.*}}"message":"operand 'dst': tile 'rows' (sbuf 2x4xfloat32)"
    "nisa.dma_copy"(%out, %rows) : (memref<2x4xf32, "hbm">, memref<2x4xf32, "sbuf">) -> ()
    return
  }
  func.func @cross_row(%a: memref<4x4xf32, "hbm">) {
    %t = "nisa.alloc"() : () -> memref<4x4xf32, "sbuf">
    %v = "nisa.ap"(%t) {pattern = array<i64: 4, 2, 1, 3>, offset = 2, operandSegmentSizes = array<i32: 1, 0, 0>}
        : (memref<4x4xf32, "sbuf">) -> memref<2x3xf32, "sbuf">
// CROSS: run-errors.mlir:[[@LINE-2]]:10: error: 'nisa.ap' op cannot be emulated: the free pattern reaches element 4 of a partition row of 4 float32 elements: it would run into the next partition (rule: ap row)
    return
  }
  func.func @scalar_arg(%a: memref<4xf32, "hbm">, %n: f32) {
// SCALAR: run-errors.mlir:[[@LINE-1]]:3: error: argument 1 of @scalar_arg has type 'f32': sundial-run passes tiles (memref<..., "hbm"|"sbuf"|"psum">), index and integer values (i8 to i64) and registers (!nisa.reg) (expected a tile (memref<... , "space">), got 'f32')
    return
  }
  func.func @returns(%a: memref<4xf32, "hbm">) -> memref<4xf32, "hbm"> {
    return %a : memref<4xf32, "hbm">
// RETURNS: run-errors.mlir:[[@LINE-1]]:5: error: function @returns returns values; sundial-run runs destination-passing kernels (results are written to arguments)
  }
  func.func private @decl(%a: memref<4xf32, "hbm">)
// DECL: run-errors.mlir:[[@LINE-1]]:3: error: function @decl is a declaration: it has no body to run
  func.func @psum_arg(%p: memref<128x4097xf32, "psum">) {
// PSUM: run-errors.mlir:[[@LINE-1]]:3: error: cannot allocate argument 0: memory: memory error: a PSUM tile holds at most 16384 bytes per partition, not 16388
    return
  }
  func.func @sbuf_full(%a: memref<4xf32, "hbm">) {
    %x = "nisa.alloc"() {name = "x"} : () -> memref<128x40000xf32, "sbuf">
    %y = "nisa.alloc"() {name = "y"} : () -> memref<128x40000xf32, "sbuf">
// SBUF: run-errors.mlir:[[@LINE-1]]:10: error: 'nisa.alloc' op cannot allocate the tile: memory: memory error: SBUF full: a tile of 160000 bytes per partition at offset 160000 exceeds 262144
    return
  }
  func.func @too_wide(%a: memref<4xf32, "hbm">) {
    %x = "nisa.alloc"() {name = "x"} : () -> memref<2049x4xf32, "sbuf">
// WIDE: run-errors.mlir:[[@LINE-1]]:10: error: 'nisa.alloc' op: a logical tile of 2049 partitions is wider than the 2048 partitions of the emulator's logical machine (MAX_LOGICAL_PARTITIONS): run the kernel after sundial-partition-tiling
    return
  }
  func.func @too_wide_arg(%a: memref<4096x1xf32, "psum">) {
// WIDEARG: run-errors.mlir:[[@LINE-1]]:3: error: function @too_wide_arg: a logical tile of 4096 partitions is wider than the 2048 partitions of the emulator's logical machine (MAX_LOGICAL_PARTITIONS): run the kernel after sundial-partition-tiling
    return
  }
  func.func @huge_arg(%a: memref<1099511627776xi8, "hbm">) {
    return
  }
  func.func @huge_alloc(%a: memref<4xf32, "hbm">) {
    %t = "nisa.alloc"() {name = "big"} : () -> memref<536870912xf32, "hbm">
// HUGEALLOC: run-errors.mlir:[[@LINE-1]]:10: error: 'nisa.alloc' op cannot allocate the tile: tile 'big' needs 2147483648 bytes of HBM, which would bring the run to 2147483664 bytes, more than the 1073741824 sundial-run allocates
    return
  }
}
