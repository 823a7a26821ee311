// sundial-run on the selects (select_reduce, copy_predicated, range_select), the top-8 family
// (max8, find_index8, match_replace8) and the GpSimd compactions (nonzero_with_count,
// sequence_bounds). Expected values are worked out by hand above each CHECK line, or are the
// public docstrings' own examples where they give one.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py write %t/a.npy '<f4' 2,4 1.5,-2,3.25,0,7,-0.5,4,8 + write %t/b.npy '<f4' 2,4 iota + write %t/p.npy '|u1' 2,4 1,0,1,0,0,0,1,1 + write %t/lo.npy '<f4' 2,1 1,0 + write %t/hi.npy '<f4' 2,1 3,2
//
// select_reduce: where(p, a, -1) with its max into reduce_res; where(!p, a, 0.5).
// copy_predicated: a where p, dst's own contents (b) elsewhere. range_select: a where
// lo <= i < hi, else FP32_MIN, with its max into reduce_res.
// RUN: sundial-run %s --func select --arg 0=%t/a.npy --arg 1=%t/p.npy --arg 5=%t/b.npy --arg 6=%t/lo.npy --arg 7=%t/hi.npy --save 2=%t/sel.npy --save 3=%t/selmax.npy --save 4=%t/rev.npy --save 5=%t/pred.npy --save 8=%t/range.npy --save 9=%t/rangemax.npy
// RUN: python3 %S/Inputs/npy.py dump %t/sel.npy + dump %t/selmax.npy + dump %t/rev.npy + dump %t/pred.npy + dump %t/range.npy + dump %t/rangemax.npy | FileCheck %s --check-prefix=SELECT
// SELECT: {{^}}1.5 -1.0 3.25 -1.0 -1.0 -1.0 4.0 8.0{{$}}
// SELECT: {{^}}3.25 8.0{{$}}
// SELECT: {{^}}0.5 -2.0 0.5 0.0 7.0 -0.5 0.5 0.5{{$}}
// SELECT: {{^}}1.5 1.0 3.25 3.0 4.0 5.0 4.0 8.0{{$}}
// p0 keeps i = 1, 2; p1 keeps i = 0, 1.
// SELECT: {{^}}-3.4028234663852886e+38 -2.0 3.25 -3.4028234663852886e+38 7.0 -0.5 -3.4028234663852886e+38 -3.4028234663852886e+38{{$}}
// SELECT: {{^}}3.25 7.0{{$}}
//
// select_reduce with on_false a [P, 1] tile (NKI's "vector of shape (on_true.shape[0], 1)",
// which the verifier now asks for too; it used to ask for dst's shape, which the emulator
// refused): where(p, a, lo[partition]) with lo = (1, 0). copy_predicated with a signed int8
// predicate: every nonzero value (-1, -128, 1) counts as true, 0 as false, in the verifier's
// and the emulator's reading alike.
// RUN: python3 %S/Inputs/npy.py write %t/sp.npy '|i1' 2,4 -1,0,1,-128,0,0,0,-1
// RUN: sundial-run %s --func tiles --arg 0=%t/a.npy --arg 1=%t/p.npy --arg 2=%t/lo.npy --arg 4=%t/sp.npy --arg 5=%t/b.npy --save 3=%t/tsel.npy --save 5=%t/spred.npy
// RUN: python3 %S/Inputs/npy.py dump %t/tsel.npy + dump %t/spred.npy | FileCheck %s --check-prefix=TILES
// TILES: {{^}}1.5 1.0 3.25 1.0 0.0 0.0 4.0 8.0{{$}}
// TILES: {{^}}1.5 1.0 3.25 0.0 4.0 5.0 6.0 8.0{{$}}
//
// range_select with an integer range_start (NKI's type): index = 2 + i, kept where
// lo <= index < hi: p0 (1, 3) keeps i = 0 (index 2) only; p1 (0, 2) keeps nothing.
// RUN: sundial-run %s --func int_start --arg 0=%t/a.npy --arg 1=%t/lo.npy --arg 2=%t/hi.npy --save 3=%t/istart.npy
// RUN: python3 %S/Inputs/npy.py dump %t/istart.npy | FileCheck %s --check-prefix=ISTART
// ISTART: {{^}}1.5 -3.4028234663852886e+38 -3.4028234663852886e+38 -3.4028234663852886e+38 -3.4028234663852886e+38 -3.4028234663852886e+38 -3.4028234663852886e+38 -3.4028234663852886e+38{{$}}
//
// max8 of [5, 1, 9, 3, 7, 2, 8, 6, 4, 0]: the 8 largest, descending; find_index8: where
// each of 9, 8, 7, 6, 5, 4, 3, 11 first occurs (11 is absent: all ones); match_replace8:
// the docstring's example (data [1, 2, 3, 4, 8 x 7], vals [3, 8 x 7] give dst_idx
// [2, 10, 9, 8, 7, 6, 5, 4]), the matches replaced by -1.
// RUN: python3 %S/Inputs/npy.py write %t/ten.npy '<f4' 1,10 5,1,9,3,7,2,8,6,4,0 + write %t/vals.npy '<f4' 1,8 9,8,7,6,5,4,3,11 + write %t/doc.npy '<f4' 1,11 1,2,3,4,8,8,8,8,8,8,8 + write %t/docvals.npy '<f4' 1,8 3,8,8,8,8,8,8,8
// RUN: sundial-run %s --func top8 --arg 0=%t/ten.npy --arg 2=%t/vals.npy --arg 4=%t/doc.npy --arg 5=%t/docvals.npy --save 1=%t/max8.npy --save 3=%t/find.npy --save 6=%t/replaced.npy --save 7=%t/idx.npy --save 8=%t/find16.npy
// RUN: python3 %S/Inputs/npy.py dump %t/max8.npy + dump %t/find.npy + dump %t/replaced.npy + dump %t/idx.npy + dump %t/find16.npy | FileCheck %s --check-prefix=TOP8
// TOP8: {{^}}9.0 8.0 7.0 6.0 5.0 4.0 3.0 2.0{{$}}
// TOP8: {{^}}2 6 4 7 0 8 3 4294967295{{$}}
// TOP8: {{^}}1.0 2.0 -1.0 4.0 -1.0 -1.0 -1.0 -1.0 -1.0 -1.0 -1.0{{$}}
// TOP8: {{^}}2 10 9 8 7 6 5 4{{$}}
// find_index8 into uint16 (which the verifier now accepts, as the emulator did): a miss is 0xFFFF.
// TOP8: {{^}}2 6 4 7 0 8 3 65535{{$}}
//
// nonzero_with_count: the docstring's example ([0, 1, 1, 0, 0, 1, 0, 0], index_offset 16,
// padding -1 give [17, 18, 21, -1 x 5, 3]); sequence_bounds of ids [1, 1, 2, 2, 2, 0, 3, 3]:
// starts [0, 0, 2, 2, 2, 8 (padding), 6, 6], ends [2, 2, 5, 5, 5, -1 (padding), 8, 8].
// RUN: python3 %S/Inputs/npy.py write %t/nz.npy '<f4' 1,8 0,1,1,0,0,1,0,0 + write %t/ids.npy '<i4' 1,8 1,1,2,2,2,0,3,3
// RUN: sundial-run %s --func compact --arg 0=%t/nz.npy --arg 2=%t/ids.npy --save 1=%t/nonzero.npy --save 3=%t/bounds.npy
// RUN: python3 %S/Inputs/npy.py dump %t/nonzero.npy + dump %t/bounds.npy | FileCheck %s --check-prefix=COMPACT
// COMPACT: {{^}}17 18 21 -1 -1 -1 -1 -1 3{{$}}
// COMPACT: shape=(1, 2, 8)
// COMPACT-NEXT: {{^}}0 0 2 2 2 8 6 6 2 2 5 5 5 -1 8 8{{$}}

module attributes {sundial.target = "mariana"} {
  func.func @select(%a: memref<2x4xf32, "sbuf">, %p: memref<2x4xui8, "sbuf">,
                    %sel: memref<2x4xf32, "sbuf">, %selmax: memref<2x1xf32, "sbuf">, %rev: memref<2x4xf32, "sbuf">,
                    %pred: memref<2x4xf32, "sbuf">, %lo: memref<2x1xf32, "sbuf">, %hi: memref<2x1xf32, "sbuf">,
                    %range: memref<2x4xf32, "sbuf">, %rangemax: memref<2x1xf32, "sbuf">) {
    "nisa.select_reduce"(%sel, %p, %a, %selmax) {on_false_value = -1.0 : f32, reduce_cmd = "reset_reduce",
                                                 operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}
        : (memref<2x4xf32, "sbuf">, memref<2x4xui8, "sbuf">, memref<2x4xf32, "sbuf">, memref<2x1xf32, "sbuf">) -> ()
    "nisa.select_reduce"(%rev, %p, %a) {on_false_value = 0.5 : f32, reverse_pred = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}
        : (memref<2x4xf32, "sbuf">, memref<2x4xui8, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    "nisa.copy_predicated"(%pred, %a, %p) : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">, memref<2x4xui8, "sbuf">) -> ()
    "nisa.range_select"(%range, %a, %lo, %hi, %rangemax) {comp_op0 = "is_ge", comp_op1 = "is_lt"}
        : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">, memref<2x1xf32, "sbuf">, memref<2x1xf32, "sbuf">, memref<2x1xf32, "sbuf">) -> ()
    return
  }
  func.func @tiles(%a: memref<2x4xf32, "sbuf">, %p: memref<2x4xui8, "sbuf">, %f: memref<2x1xf32, "sbuf">,
                   %d: memref<2x4xf32, "sbuf">, %sp: memref<2x4xi8, "sbuf">, %pred: memref<2x4xf32, "sbuf">) {
    "nisa.select_reduce"(%d, %p, %a, %f) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}
        : (memref<2x4xf32, "sbuf">, memref<2x4xui8, "sbuf">, memref<2x4xf32, "sbuf">, memref<2x1xf32, "sbuf">) -> ()
    "nisa.copy_predicated"(%pred, %a, %sp) : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">, memref<2x4xi8, "sbuf">) -> ()
    return
  }
  func.func @int_start(%a: memref<2x4xf32, "sbuf">, %lo: memref<2x1xf32, "sbuf">, %hi: memref<2x1xf32, "sbuf">,
                       %range: memref<2x4xf32, "sbuf">) {
    "nisa.range_select"(%range, %a, %lo, %hi) {comp_op0 = "is_ge", comp_op1 = "is_lt", range_start = 2 : i64}
        : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">, memref<2x1xf32, "sbuf">, memref<2x1xf32, "sbuf">) -> ()
    return
  }
  func.func @top8(%ten: memref<1x10xf32, "sbuf">, %max8: memref<1x8xf32, "sbuf">, %vals: memref<1x8xf32, "sbuf">,
                  %find: memref<1x8xui32, "sbuf">, %doc: memref<1x11xf32, "sbuf">, %docvals: memref<1x8xf32, "sbuf">,
                  %replaced: memref<1x11xf32, "sbuf">, %idx: memref<1x8xui32, "sbuf">, %find16: memref<1x8xui16, "sbuf">) {
    "nisa.max8"(%max8, %ten) : (memref<1x8xf32, "sbuf">, memref<1x10xf32, "sbuf">) -> ()
    "nisa.find_index8"(%find, %ten, %vals) : (memref<1x8xui32, "sbuf">, memref<1x10xf32, "sbuf">, memref<1x8xf32, "sbuf">) -> ()
    "nisa.find_index8"(%find16, %ten, %vals) : (memref<1x8xui16, "sbuf">, memref<1x10xf32, "sbuf">, memref<1x8xf32, "sbuf">) -> ()
    "nisa.max_index_and_match_replace"(%replaced, %doc, %docvals, %idx) {imm_value = -1.0 : f32}
        : (memref<1x11xf32, "sbuf">, memref<1x11xf32, "sbuf">, memref<1x8xf32, "sbuf">, memref<1x8xui32, "sbuf">) -> ()
    return
  }
  func.func @compact(%nz: memref<1x8xf32, "sbuf">, %nonzero: memref<1x9xi32, "sbuf">, %ids: memref<1x8xi32, "sbuf">,
                     %bounds: memref<1x2x8xi32, "sbuf">) {
    "nisa.nonzero_with_count"(%nonzero, %nz) {index_offset = 16} : (memref<1x9xi32, "sbuf">, memref<1x8xf32, "sbuf">) -> ()
    "nisa.sequence_bounds"(%bounds, %ids) : (memref<1x2x8xi32, "sbuf">, memref<1x8xi32, "sbuf">) -> ()
    return
  }
}
