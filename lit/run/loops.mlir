// Loops: scf.for with constant bounds (NKI affine_range / sequential_range), nested loops
// with a lower bound and a step, nisa.dynamic_ap offsets computed with arith from induction
// variables, registers (register_alloc / register_move / load_register / register_index) and
// a loop whose trip count lives in a register (NKI dynamic_range). The expected values are
// worked out by hand from the inputs (x = iota: x[i, j] = 8 i + j).
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py write %t/x.npy '<f4' 4,8 iota + write %t/n.npy '<i4' 1,1 3
//
// Column sums through a loop over the rows: each iteration prints its row, the accumulator
// ends with sum_i (8 i + j) = 48 + 4 j.
// RUN: sundial-run %s --func column_sums --arg 0=%t/x.npy | FileCheck %s --check-prefix=SUMS
// SUMS: {{^}}row 1x8xfloat32: 0.0 1.0 2.0 3.0 4.0 5.0 6.0 7.0{{$}}
// SUMS-NEXT: {{^}}row 1x8xfloat32: 8.0 9.0 10.0 11.0 12.0 13.0 14.0 15.0{{$}}
// SUMS-NEXT: {{^}}row 1x8xfloat32: 16.0 17.0
// SUMS-NEXT: {{^}}row 1x8xfloat32: 24.0 25.0
// SUMS-NEXT: {{^}}sums 1x8xfloat32: 48.0 52.0 56.0 60.0 64.0 68.0 72.0 76.0{{$}}
//
// A transpose element by element: out[j', i] = x[i, j'] for the columns j' = 1, 3, 5, 7 (a
// loop from 1 to 9 step 2) and rows i = 0..4, the rest of out left as given (zeros).
// RUN: sundial-run %s --func transpose --arg 0=%t/x.npy --save 1=%t/t.npy
// RUN: python3 %S/Inputs/npy.py dump %t/t.npy | FileCheck %s --check-prefix=TRANSPOSE
// TRANSPOSE: shape=(8, 4)
// TRANSPOSE-NEXT: 0.0 0.0 0.0 0.0 1.0 9.0 17.0 25.0 0.0 0.0 0.0 0.0 3.0 11.0 19.0 27.0 0.0 0.0 0.0 0.0 5.0 13.0 21.0 29.0 0.0 0.0 0.0 0.0 7.0 15.0 23.0 31.0
//
// A dynamic_range loop: the trip count (3) is read from an argument into a register; rows
// 0..3 of x are copied, row 3 of out stays zero. The register is then moved to another
// (register_move), counted down by an immediate move and stored back.
// RUN: sundial-run %s --func dynamic_range --arg 0=%t/x.npy --arg 1=%t/n.npy --save 2=%t/d.npy --save 1=%t/n2.npy
// RUN: python3 %S/Inputs/npy.py dump %t/d.npy + dump %t/n2.npy | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: shape=(4, 8)
// DYNAMIC-NEXT: 0.0 1.0 2.0 3.0 4.0 5.0 6.0 7.0 8.0 9.0 10.0 11.0 12.0 13.0 14.0 15.0 16.0 17.0 18.0 19.0 20.0 21.0 22.0 23.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0
// DYNAMIC: shape=(1, 1)
// DYNAMIC-NEXT: {{^}}7{{$}}
//
// Index arithmetic beyond add and multiply (divisions, remainders, min/max, casts) computes
// the offsets of a loop over the 32 elements read as 4 blocks of 8: element k goes to
// out[k % 4, k / 4] through arith.remui / arith.divui, and the loop's bound is a min.
// RUN: sundial-run %s --func index_math --arg 0=%t/x.npy --save 1=%t/m.npy
// RUN: python3 %S/Inputs/npy.py dump %t/m.npy | FileCheck %s --check-prefix=MATH
// MATH: shape=(4, 8)
// MATH-NEXT: 0.0 4.0 8.0 12.0 16.0 20.0 24.0 28.0 1.0 5.0 9.0 13.0 17.0 21.0 25.0 29.0 2.0 6.0 10.0 14.0 18.0 22.0 26.0 30.0 3.0 7.0 11.0 15.0 19.0 23.0 27.0 31.0
//
// An indirect access in a loop: rows 5 and 2 of an 8x8 table (x8 = iota), one column block
// of 4 per iteration through the dynamic offset j * 4.
// RUN: python3 %S/Inputs/npy.py write %t/x8.npy '<f4' 8,8 iota + write %t/rows.npy '<i4' 2,1 5,2
// RUN: sundial-run %s --func gather_blocks --arg 0=%t/x8.npy --arg 1=%t/rows.npy | FileCheck %s --check-prefix=GATHER
// GATHER: {{^}}block 2x4xfloat32: 40.0 41.0 42.0 43.0 16.0 17.0 18.0 19.0{{$}}
// GATHER-NEXT: {{^}}block 2x4xfloat32: 44.0 45.0 46.0 47.0 20.0 21.0 22.0 23.0{{$}}
//
// A loop that never runs leaves its body unexecuted (its out-of-range offset is never made).
// RUN: sundial-run %s --func never_runs --arg 0=%t/x.npy | count 0
//
// Every loop kernel computes the same after sundial-unroll (which keeps the register loop).
// RUN: sundial-run %s --func column_sums --random-inputs 1 --compare-pipeline='builtin.module(sundial-unroll)' | FileCheck %s --check-prefix=UNROLL
// RUN: sundial-run %s --func transpose --random-inputs 1 --compare-pipeline='builtin.module(sundial-unroll)' | FileCheck %s --check-prefix=UNROLL
// RUN: sundial-run %s --func dynamic_range --arg 1=%t/n.npy --random-inputs 2 --compare-pipeline='builtin.module(sundial-unroll)' | FileCheck %s --check-prefix=UNROLL
// RUN: sundial-run %s --func index_math --random-inputs 3 --compare-pipeline='builtin.module(sundial-unroll)' | FileCheck %s --check-prefix=UNROLL
// UNROLL: computes the same after 'builtin.module(sundial-unroll)'

module {
  func.func @column_sums(%x: memref<4x8xf32, "hbm">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %acc = "nisa.alloc"() {name = "acc"} : () -> memref<1x8xf32, "sbuf">
    "nisa.memset"(%acc) {value = 0.0 : f32} : (memref<1x8xf32, "sbuf">) -> ()
    scf.for %i = %c0 to %c4 step %c1 {
      %off = arith.muli %i, %c8 : index
      %src = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 8, 1, 1, 8>}
          : (memref<4x8xf32, "hbm">, index) -> memref<1x8xf32, "hbm">
      %row = "nisa.alloc"() {name = "row"} : () -> memref<1x8xf32, "sbuf">
      "nisa.dma_copy"(%row, %src) : (memref<1x8xf32, "sbuf">, memref<1x8xf32, "hbm">) -> ()
      "nisa.device_print"(%row) {prefix = "row"} : (memref<1x8xf32, "sbuf">) -> ()
      "nisa.tensor_tensor_arith"(%acc, %acc, %row) {op = "add"}
          : (memref<1x8xf32, "sbuf">, memref<1x8xf32, "sbuf">, memref<1x8xf32, "sbuf">) -> ()
    } {sundial.range = "sequential"}
    "nisa.device_print"(%acc) {prefix = "sums"} : (memref<1x8xf32, "sbuf">) -> ()
    return
  }

  func.func @transpose(%x: memref<4x8xf32, "hbm">, %out: memref<8x4xf32, "hbm">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c9 = arith.constant 9 : index
    %e = "nisa.alloc"() : () -> memref<1x1xf32, "sbuf">
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c1 to %c9 step %c2 {
        %a = arith.muli %i, %c8 : index
        %src_off = arith.addi %a, %j : index
        %src = "nisa.dynamic_ap"(%x, %src_off) {pattern = array<i64: 1, 1, 1, 1>}
            : (memref<4x8xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
        "nisa.dma_copy"(%e, %src) : (memref<1x1xf32, "sbuf">, memref<1x1xf32, "hbm">) -> ()
        %b = arith.muli %j, %c4 : index
        %dst_off = arith.addi %b, %i : index
        %dst = "nisa.dynamic_ap"(%out, %dst_off) {pattern = array<i64: 1, 1, 1, 1>}
            : (memref<8x4xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
        "nisa.dma_copy"(%dst, %e) : (memref<1x1xf32, "hbm">, memref<1x1xf32, "sbuf">) -> ()
      } {sundial.range = "affine"}
    } {sundial.range = "affine"}
    return
  }

  func.func @dynamic_range(%x: memref<4x8xf32, "hbm">, %count: memref<1x1xi32, "sbuf">, %out: memref<4x8xf32, "hbm">) {
    %r = "nisa.register_alloc"() {value = 100} : () -> !nisa.reg
    %loaded = "nisa.load_register"(%count) : (memref<1x1xi32, "sbuf">) -> !nisa.reg
    "nisa.register_move"(%r, %loaded) : (!nisa.reg, !nisa.reg) -> ()
    %n = "nisa.register_index"(%r) : (!nisa.reg) -> index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %t = "nisa.alloc"() : () -> memref<1x8xf32, "sbuf">
    scf.for %b = %c0 to %n step %c1 {
      %off = arith.muli %b, %c8 : index
      %src = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 8, 1, 1, 8>}
          : (memref<4x8xf32, "hbm">, index) -> memref<1x8xf32, "hbm">
      "nisa.dma_copy"(%t, %src) : (memref<1x8xf32, "sbuf">, memref<1x8xf32, "hbm">) -> ()
      %dst = "nisa.dynamic_ap"(%out, %off) {pattern = array<i64: 8, 1, 1, 8>}
          : (memref<4x8xf32, "hbm">, index) -> memref<1x8xf32, "hbm">
      "nisa.dma_copy"(%dst, %t) : (memref<1x8xf32, "hbm">, memref<1x8xf32, "sbuf">) -> ()
    }
    "nisa.register_move"(%r) {imm = 7} : (!nisa.reg) -> ()
    "nisa.store_register"(%count, %r) : (memref<1x1xi32, "sbuf">, !nisa.reg) -> ()
    return
  }

  func.func @index_math(%x: memref<4x8xf32, "hbm">, %out: memref<4x8xf32, "hbm">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c99 = arith.constant 99 : index
    %n = arith.minsi %c32, %c99 : index
    %e = "nisa.alloc"() : () -> memref<1x1xf32, "sbuf">
    scf.for %k = %c0 to %n step %c1 {
      %k32 = arith.index_cast %k : index to i32
      %k64 = arith.index_castui %k32 : i32 to index
      %src = "nisa.dynamic_ap"(%x, %k64) {pattern = array<i64: 1, 1, 1, 1>}
          : (memref<4x8xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
      "nisa.dma_copy"(%e, %src) : (memref<1x1xf32, "sbuf">, memref<1x1xf32, "hbm">) -> ()
      %row = arith.remui %k, %c4 : index
      %col = arith.divui %k, %c4 : index
      %r8 = arith.muli %row, %c8 : index
      %off = arith.addi %r8, %col : index
      %dst = "nisa.dynamic_ap"(%out, %off) {pattern = array<i64: 1, 1, 1, 1>}
          : (memref<4x8xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
      "nisa.dma_copy"(%dst, %e) : (memref<1x1xf32, "hbm">, memref<1x1xf32, "sbuf">) -> ()
    }
    return
  }

  func.func @gather_blocks(%table: memref<8x8xf32, "hbm">, %idx: memref<2x1xi32, "sbuf">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %rows = "nisa.alloc"() : () -> memref<2x4xf32, "sbuf">
    scf.for %j = %c0 to %c2 step %c1 {
      %off = arith.muli %j, %c4 : index
      %g = "nisa.dynamic_ap"(%table, %off, %idx) {pattern = array<i64: 8, 2, 1, 4>, operandSegmentSizes = array<i32: 1, 1, 1, 0>}
          : (memref<8x8xf32, "hbm">, index, memref<2x1xi32, "sbuf">) -> memref<2x4xf32, "hbm">
      "nisa.dma_copy_indirect"(%rows, %g) : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "hbm">) -> ()
      "nisa.device_print"(%rows) {prefix = "block"} : (memref<2x4xf32, "sbuf">) -> ()
    }
    return
  }

  func.func @never_runs(%x: memref<4x8xf32, "hbm">) {
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c9999 = arith.constant 9999 : index
    %t = "nisa.alloc"() : () -> memref<1x8xf32, "sbuf">
    scf.for %i = %c4 to %c4 step %c1 {
      %off = arith.muli %i, %c9999 : index
      %a = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 8, 1, 1, 8>}
          : (memref<4x8xf32, "hbm">, index) -> memref<1x8xf32, "hbm">
      "nisa.dma_copy"(%t, %a) : (memref<1x8xf32, "sbuf">, memref<1x8xf32, "hbm">) -> ()
      "nisa.device_print"(%t) {prefix = "never"} : (memref<1x8xf32, "sbuf">) -> ()
    }
    return
  }
}
