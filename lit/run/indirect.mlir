// The data-movement ops the emulator executes, on hand-checked inputs: nisa.ap (static on an
// SBUF tile, a reinterpret cast, vector_offset gathers, a scalar_offset window through a
// register), dma_copy_indirect, generic_load / generic_indirect_load / generic_indirect_save,
// gather (nc_n_gather), indirect_copy (local_gather), dma_compute and the registers.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py write %t/table.npy '<f4' 8,4 iota \
// RUN:   + write %t/idx.npy '<i4' 3,1 5,0,7
//
// Gather rows 5, 0 and 7 of an 8 x 4 table through .ap(vector_offset=idx).
// RUN: sundial-run %s --func gather_rows --arg 0=%t/table.npy --arg 1=%t/idx.npy --save 2=%t/rows.npy
// RUN: python3 %S/Inputs/npy.py dump %t/rows.npy | FileCheck %s --check-prefix=ROWS
// ROWS: shape=(3, 4)
// ROWS-NEXT: {{^}}20.0 21.0 22.0 23.0 0.0 1.0 2.0 3.0 28.0 29.0 30.0 31.0{{$}}
//
// The same through generic_load with oob_mode = skip: index 9 is out of the table and reads
// zeros.
// RUN: python3 %S/Inputs/npy.py write %t/idx-oob.npy '<i4' 3,1 5,9,0
// RUN: sundial-run %s --func generic_load_skip --arg 0=%t/table.npy --arg 1=%t/idx-oob.npy --save 2=%t/skip.npy
// RUN: python3 %S/Inputs/npy.py dump %t/skip.npy | FileCheck %s --check-prefix=SKIP
// SKIP: {{^}}20.0 21.0 22.0 23.0 0.0 0.0 0.0 0.0 0.0 1.0 2.0 3.0{{$}}
//
// A scatter into rows 2 and 3 through .ap(scalar_offset=register), the register read back
// through store_register.
// RUN: python3 %S/Inputs/npy.py write %t/two.npy '<i4' 1,1 2 \
// RUN:   + write %t/src.npy '<f4' 2,4 iota*1+100
// RUN: sundial-run %s --func scatter_window --arg 1=%t/two.npy --arg 2=%t/src.npy --save 0=%t/window.npy --save 3=%t/reg.npy
// RUN: python3 %S/Inputs/npy.py dump %t/window.npy | FileCheck %s --check-prefix=WINDOW
// WINDOW: {{^}}0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 100.0 101.0 102.0 103.0 104.0 105.0 106.0 107.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0{{$}}
// RUN: python3 %S/Inputs/npy.py dump %t/reg.npy | FileCheck %s --check-prefix=REG
// REG: shape=(1, 1)
// REG-NEXT: {{^}}2{{$}}
//
// generic_indirect_load of rows [1, 3, 1], and generic_indirect_save with accumulate, whose
// duplicate row 1 adds both contributions: np.add.at(t, [1, 3, 1], src).
// RUN: python3 %S/Inputs/npy.py write %t/small.npy '<f4' 4,2 iota \
// RUN:   + write %t/sidx.npy '<i4' 3,1 1,3,1 \
// RUN:   + write %t/add.npy '<f4' 3,2 1,2,3,4,5,6
// RUN: sundial-run %s --func generic_indirect --arg 0=%t/small.npy --arg 1=%t/sidx.npy --arg 2=%t/add.npy --save 3=%t/loaded.npy --save 4=%t/acc.npy
// RUN: python3 %S/Inputs/npy.py dump %t/loaded.npy | FileCheck %s --check-prefix=LOADED
// LOADED: {{^}}2.0 3.0 6.0 7.0 2.0 3.0{{$}}
// RUN: python3 %S/Inputs/npy.py dump %t/acc.npy | FileCheck %s --check-prefix=ACC
// ACC: {{^}}0.0 0.0 6.0 8.0 0.0 0.0 3.0 4.0{{$}}
//
// A static .ap on an SBUF tile (partitions 1-2, columns 1-2 of a 4 x 4 tile: offset 5) and an
// HBM .ap that reads an f32 tensor as uint16 halves (1.0 = 0x3f800000, -2.0 = 0xc0000000).
// RUN: python3 %S/Inputs/npy.py write %t/sq.npy '<f4' 4,4 iota \
// RUN:   + write %t/pair.npy '<f4' 2 1.0,-2.0
// RUN: sundial-run %s --func static_ap --arg 0=%t/sq.npy --arg 2=%t/pair.npy --save 1=%t/corner.npy --save 3=%t/halves.npy
// RUN: python3 %S/Inputs/npy.py dump %t/corner.npy | FileCheck %s --check-prefix=CORNER
// CORNER: {{^}}5.0 6.0 9.0 10.0{{$}}
// RUN: python3 %S/Inputs/npy.py dump %t/halves.npy | FileCheck %s --check-prefix=HALVES
// HALVES: descr=<u2
// HALVES-NEXT: {{^}}0 16256 0 49152{{$}}
//
// nc_n_gather within each partition (index 9 is past the 6 elements of a row: reads 0), and
// local_gather on one 16-partition core with num_valid_indices = 2: the core's index list is
// index[0:16].flatten('F') = [index[0, 0], index[1, 0], ...] = [3, 2, ...], and
// dst[p, j] = src[p, list[j]] for the first 2 slots. (The verifier sizes dst as index-free x
// num_elem_per_idx per partition, while the emulator follows the NumPy reference, in which
// every partition gathers all 16 x index-free slots of its core; with num_valid_indices equal
// to the index-free size both accept the same dst.)
// RUN: python3 %S/Inputs/npy.py write %t/data.npy '<i4' 2,6 iota \
// RUN:   + write %t/gidx.npy '<u4' 2,3 5,0,9,1,1,4 \
// RUN:   + write %t/lsrc.npy '<i4' 16,4 iota \
// RUN:   + write %t/lidx.npy '<u2' 16,2 3,0,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
// RUN: sundial-run %s --func gpsimd_gathers --arg 0=%t/data.npy --arg 1=%t/gidx.npy --arg 3=%t/lsrc.npy --arg 4=%t/lidx.npy --save 2=%t/ng.npy --save 5=%t/lg.npy
// RUN: python3 %S/Inputs/npy.py dump %t/ng.npy | FileCheck %s --check-prefix=NGATHER
// NGATHER: {{^}}5 0 0 7 7 10{{$}}
// RUN: python3 %S/Inputs/npy.py dump %t/lg.npy | FileCheck %s --check-prefix=LGATHER
// LGATHER: shape=(16, 2)
// LGATHER-NEXT: {{^}}3 2 7 6 11 10 15 14 19 18 23 22 27 26 31 30 35 34 39 38 43 42 47 46 51 50 55 54 59 58 63 62{{$}}
//
// dma_compute: the f32 sum of three sources, cast once to bf16 (1 + 0.5 + 0.25 = 1.75 =
// 0x3fe0; 100 + 0.5 + 0.25 = 100.75 lies halfway between the bf16 neighbours 100.5 and 101,
// and rounds to the even one, 101 = 0x42ca).
// RUN: python3 %S/Inputs/npy.py write %t/x.npy '<f4' 2 1,100 \
// RUN:   + write %t/y.npy '<f4' 2 0.5,0.5 \
// RUN:   + write %t/z.npy '<f4' 2 0.25,0.25
// RUN: sundial-run %s --func sum3 --arg 0=%t/x.npy --arg 1=%t/y.npy --arg 2=%t/z.npy --save 3=%t/sum.npy
// RUN: python3 %S/Inputs/npy.py dump %t/sum.npy | FileCheck %s --check-prefix=SUM
// SUM: descr=<u2
// SUM-NEXT: {{^}}16352 17098{{$}}

module attributes {sundial.target = "cayman"} {
  func.func @gather_rows(%table: memref<8x4xf32, "hbm">, %idx: memref<3x1xi32, "hbm">, %out: memref<3x4xf32, "hbm">) {
    %i = "nisa.alloc"() {name = "idx"} : () -> memref<3x1xi32, "sbuf">
    "nisa.dma_copy"(%i, %idx) : (memref<3x1xi32, "sbuf">, memref<3x1xi32, "hbm">) -> ()
    %g = "nisa.ap"(%table, %i) {pattern = array<i64: 4, 3, 1, 4>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<8x4xf32, "hbm">, memref<3x1xi32, "sbuf">) -> memref<3x4xf32, "hbm">
    %rows = "nisa.alloc"() {name = "rows"} : () -> memref<3x4xf32, "sbuf">
    "nisa.dma_copy_indirect"(%rows, %g) : (memref<3x4xf32, "sbuf">, memref<3x4xf32, "hbm">) -> ()
    "nisa.dma_copy"(%out, %rows) : (memref<3x4xf32, "hbm">, memref<3x4xf32, "sbuf">) -> ()
    return
  }
  func.func @generic_load_skip(%table: memref<8x4xf32, "hbm">, %idx: memref<3x1xi32, "hbm">, %out: memref<3x4xf32, "hbm">) {
    %i = "nisa.alloc"() : () -> memref<3x1xi32, "sbuf">
    "nisa.dma_copy"(%i, %idx) : (memref<3x1xi32, "sbuf">, memref<3x1xi32, "hbm">) -> ()
    %g = "nisa.ap"(%table, %i) {pattern = array<i64: 4, 3, 1, 4>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<8x4xf32, "hbm">, memref<3x1xi32, "sbuf">) -> memref<3x4xf32, "hbm">
    %rows = "nisa.alloc"() : () -> memref<3x4xf32, "sbuf">
    "nisa.generic_load"(%rows, %g) {oob_mode = "skip"} : (memref<3x4xf32, "sbuf">, memref<3x4xf32, "hbm">) -> ()
    "nisa.dma_copy"(%out, %rows) : (memref<3x4xf32, "hbm">, memref<3x4xf32, "sbuf">) -> ()
    return
  }
  func.func @scatter_window(%table: memref<8x4xf32, "hbm">, %s: memref<1x1xi32, "hbm">, %src: memref<2x4xf32, "hbm">,
                            %back: memref<1x1xi32, "hbm">) {
    %st = "nisa.alloc"() : () -> memref<1x1xi32, "sbuf">
    "nisa.dma_copy"(%st, %s) : (memref<1x1xi32, "sbuf">, memref<1x1xi32, "hbm">) -> ()
    %r = "nisa.load_register"(%st) : (memref<1x1xi32, "sbuf">) -> !nisa.reg
    %w = "nisa.ap"(%table, %r) {pattern = array<i64: 4, 2, 1, 4>, operandSegmentSizes = array<i32: 1, 0, 1>}
        : (memref<8x4xf32, "hbm">, !nisa.reg) -> memref<2x4xf32, "hbm">
    %t = "nisa.alloc"() : () -> memref<2x4xf32, "sbuf">
    "nisa.dma_copy"(%t, %src) : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "hbm">) -> ()
    "nisa.dma_copy_indirect"(%w, %t) : (memref<2x4xf32, "hbm">, memref<2x4xf32, "sbuf">) -> ()
    %b = "nisa.alloc"() : () -> memref<1x1xi32, "sbuf">
    "nisa.store_register"(%b, %r) : (memref<1x1xi32, "sbuf">, !nisa.reg) -> ()
    "nisa.dma_copy"(%back, %b) : (memref<1x1xi32, "hbm">, memref<1x1xi32, "sbuf">) -> ()
    return
  }
  func.func @generic_indirect(%table: memref<4x2xf32, "hbm">, %idx: memref<3x1xi32, "hbm">, %add: memref<3x2xf32, "hbm">,
                              %loaded: memref<3x2xf32, "hbm">, %acc: memref<4x2xf32, "hbm">) {
    %i = "nisa.alloc"() : () -> memref<3x1xi32, "sbuf">
    "nisa.dma_copy"(%i, %idx) : (memref<3x1xi32, "sbuf">, memref<3x1xi32, "hbm">) -> ()
    "nisa.generic_indirect_load"(%loaded, %table, %i) {indirect_dim = 0}
        : (memref<3x2xf32, "hbm">, memref<4x2xf32, "hbm">, memref<3x1xi32, "sbuf">) -> ()
    %a = "nisa.alloc"() : () -> memref<3x2xf32, "sbuf">
    "nisa.dma_copy"(%a, %add) : (memref<3x2xf32, "sbuf">, memref<3x2xf32, "hbm">) -> ()
    "nisa.generic_indirect_save"(%acc, %a, %i) {accumulate = true}
        : (memref<4x2xf32, "hbm">, memref<3x2xf32, "sbuf">, memref<3x1xi32, "sbuf">) -> ()
    return
  }
  func.func @static_ap(%sq: memref<4x4xf32, "hbm">, %corner: memref<2x2xf32, "hbm">, %pair: memref<2xf32, "hbm">,
                       %halves: memref<4xui16, "hbm">) {
    %t = "nisa.alloc"() : () -> memref<4x4xf32, "sbuf">
    "nisa.dma_copy"(%t, %sq) : (memref<4x4xf32, "sbuf">, memref<4x4xf32, "hbm">) -> ()
    %v = "nisa.ap"(%t) {pattern = array<i64: 4, 2, 1, 2>, offset = 5, operandSegmentSizes = array<i32: 1, 0, 0>}
        : (memref<4x4xf32, "sbuf">) -> memref<2x2xf32, "sbuf">
    "nisa.dma_copy"(%corner, %v) : (memref<2x2xf32, "hbm">, memref<2x2xf32, "sbuf">) -> ()
    %h = "nisa.ap"(%pair) {pattern = array<i64: 1, 4>, operandSegmentSizes = array<i32: 1, 0, 0>}
        : (memref<2xf32, "hbm">) -> memref<4xui16, "hbm">
    "nisa.dma_copy"(%halves, %h) : (memref<4xui16, "hbm">, memref<4xui16, "hbm">) -> ()
    return
  }
  func.func @gpsimd_gathers(%data: memref<2x6xi32, "hbm">, %gidx: memref<2x3xui32, "hbm">, %ng: memref<2x3xi32, "hbm">,
                            %lsrc: memref<16x4xi32, "hbm">, %lidx: memref<16x2xui16, "hbm">, %lg: memref<16x2xi32, "hbm">) {
    %d = "nisa.alloc"() : () -> memref<2x6xi32, "sbuf">
    "nisa.dma_copy"(%d, %data) : (memref<2x6xi32, "sbuf">, memref<2x6xi32, "hbm">) -> ()
    %gi = "nisa.alloc"() : () -> memref<2x3xui32, "sbuf">
    "nisa.dma_copy"(%gi, %gidx) : (memref<2x3xui32, "sbuf">, memref<2x3xui32, "hbm">) -> ()
    %gd = "nisa.alloc"() : () -> memref<2x3xi32, "sbuf">
    "nisa.gather"(%gd, %d, %gi) : (memref<2x3xi32, "sbuf">, memref<2x6xi32, "sbuf">, memref<2x3xui32, "sbuf">) -> ()
    "nisa.dma_copy"(%ng, %gd) : (memref<2x3xi32, "hbm">, memref<2x3xi32, "sbuf">) -> ()
    %s = "nisa.alloc"() : () -> memref<16x4xi32, "sbuf">
    "nisa.dma_copy"(%s, %lsrc) : (memref<16x4xi32, "sbuf">, memref<16x4xi32, "hbm">) -> ()
    %li = "nisa.alloc"() : () -> memref<16x2xui16, "sbuf">
    "nisa.dma_copy"(%li, %lidx) : (memref<16x2xui16, "sbuf">, memref<16x2xui16, "hbm">) -> ()
    %ld = "nisa.alloc"() : () -> memref<16x2xi32, "sbuf">
    "nisa.indirect_copy"(%ld, %s, %li) {num_valid_indices = 2}
        : (memref<16x2xi32, "sbuf">, memref<16x4xi32, "sbuf">, memref<16x2xui16, "sbuf">) -> ()
    "nisa.dma_copy"(%lg, %ld) : (memref<16x2xi32, "hbm">, memref<16x2xi32, "sbuf">) -> ()
    return
  }
  func.func @sum3(%x: memref<2xf32, "hbm">, %y: memref<2xf32, "hbm">, %z: memref<2xf32, "hbm">, %out: memref<2xbf16, "hbm">) {
    "nisa.dma_compute"(%out, %x, %y, %z) : (memref<2xbf16, "hbm">, memref<2xf32, "hbm">, memref<2xf32, "hbm">, memref<2xf32, "hbm">) -> ()
    return
  }
}
