// Views run folded into one access pattern over their allocation (dialects::fold): reshape,
// slice, permute, broadcast, an access pattern of an access pattern, a chain of every view,
// a reinterpreting pattern followed by views, an indirect pattern on a reshaped table, and
// the Tensor- and Vector-engine transposes and the quadrant shuffle. nisa.device_print reads
// each view, so the printed values are the view's elements in its row-major order; the
// expected values are worked out by hand (x = iota).
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py write %t/x.npy '<f4' 4,4 iota + write %t/t.npy '<f4' 4,8 iota + write %t/h.npy '<f4' 64 iota + write %t/idx.npy '<i4' 2,1 3,0
// RUN: sundial-run %s --func views --arg 0=%t/x.npy --arg 1=%t/t.npy | FileCheck %s --check-prefix=VIEWS
// x[1::2, 1::2] of a 4x4 HBM tensor
// VIEWS: {{^}}slice 2x2xfloat32: 5.0 7.0 13.0 15.0{{$}}
// the transpose of x
// VIEWS-NEXT: {{^}}permute 4x4xfloat32: 0.0 4.0 8.0 12.0 1.0 5.0 9.0 13.0 2.0 6.0 10.0 14.0 3.0 7.0 11.0 15.0{{$}}
// x as 2x8, then its second row
// VIEWS-NEXT: {{^}}reshape 2x8xfloat32: 0.0 1.0 2.0 3.0 4.0 5.0 6.0 7.0 8.0 9.0 10.0 11.0 12.0 13.0 14.0 15.0{{$}}
// VIEWS-NEXT: {{^}}row 1 1x8xfloat32: 8.0 9.0 10.0 11.0 12.0 13.0 14.0 15.0{{$}}
// an SBUF tile's even columns, then the odd ones of those: columns 2 and 6 of each row
// VIEWS-NEXT: {{^}}ap of ap 4x2xfloat32: 2.0 6.0 10.0 14.0 18.0 22.0 26.0 30.0{{$}}
// column 0 of the tile broadcast over 8 columns, added to the tile: t[p, f] + t[p, 0]
// VIEWS-NEXT: {{^}}broadcast 4x8xfloat32: 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 8.0 8.0 8.0 8.0 8.0 8.0 8.0 8.0 16.0
// VIEWS-NEXT: {{^}}plus 4x8xfloat32: 0.0 1.0 2.0 3.0 4.0 5.0 6.0 7.0 16.0 17.0 18.0 19.0 20.0 21.0 22.0 23.0 32.0 33.0
// the tile as [4, 2, 4], permuted to [4, 4, 2]: row p reads 8p + (0 4 1 5 2 6 3 7)
// VIEWS-NEXT: {{^}}free transpose 4x4x2xfloat32: 0.0 4.0 1.0 5.0 2.0 6.0 3.0 7.0 8.0 12.0
//
// A chain of every view on a 64-element HBM tensor: reshape to 8x8, rows 2, 4 and 6 from
// column 1 (a [3, 4] slice), transposed, then every other row of that: elements
// (c, r) of the slice for c = 0, 2 and r = 0..3: 17 33 49 / 19 35 51.
// RUN: sundial-run %s --func chain --arg 0=%t/h.npy | FileCheck %s --check-prefix=CHAIN
// CHAIN: {{^}}chain 2x3xfloat32: 17.0 33.0 49.0 19.0 35.0 51.0{{$}}
//
// A gather through an indirect access pattern on a reshaped table: rows 3 and 0 of the
// 64-element tensor read as 16 rows of 4.
// RUN: sundial-run %s --func gather --arg 0=%t/h.npy --arg 1=%t/idx.npy | FileCheck %s --check-prefix=GATHER
// GATHER: {{^}}rows 2x4xfloat32: 12.0 13.0 14.0 15.0 0.0 1.0 2.0 3.0{{$}}
//
// nc_transpose on the Vector engine (a 2x3 tile: unknown engine, at most 32x32) and on the
// Tensor engine (SBUF to PSUM), and a one-partition row broadcast to 4 partitions with
// stream_shuffle (a mask of zeros; the source starts on partition 0, as 32 active
// partitions require).
// RUN: sundial-run %s --func transposes --arg 0=%t/t.npy | FileCheck %s --check-prefix=TRANSPOSE
// TRANSPOSE: {{^}}vector 8x4xfloat32: 0.0 8.0 16.0 24.0 1.0 9.0 17.0 25.0 2.0 10.0 18.0 26.0 3.0 11.0 19.0 27.0 4.0 12.0 20.0 28.0 5.0 13.0 21.0 29.0 6.0 14.0 22.0 30.0 7.0 15.0 23.0 31.0{{$}}
// TRANSPOSE-NEXT: {{^}}tensor 8x4xfloat32: 0.0 8.0 16.0 24.0 1.0 9.0 17.0 25.0
// TRANSPOSE-NEXT: {{^}}shuffled 4x8xfloat32: 0.0 1.0 2.0 3.0 4.0 5.0 6.0 7.0 0.0 1.0 2.0 3.0 4.0 5.0 6.0 7.0 0.0 1.0 2.0 3.0 4.0 5.0 6.0 7.0 0.0 1.0 2.0 3.0 4.0 5.0 6.0 7.0{{$}}
//
// A view whose walk is no strided pattern is the verifier's error; one a run cannot make
// (the free pattern of an on-chip view running into the next partition) is the driver's.
// RUN: not sundial-run %s --func cross_row_view 2>&1 | FileCheck %s --check-prefix=CROSS

module {
  func.func @views(%x: memref<4x4xf32, "hbm">, %t: memref<4x8xf32, "sbuf">) {
    %s = "nisa.slice"(%x) {start = array<i64: 1, 1>, step = array<i64: 2, 2>}
        : (memref<4x4xf32, "hbm">) -> memref<2x2xf32, "hbm">
    "nisa.device_print"(%s) {prefix = "slice"} : (memref<2x2xf32, "hbm">) -> ()
    %p = "nisa.permute"(%x) {dims = array<i64: 1, 0>} : (memref<4x4xf32, "hbm">) -> memref<4x4xf32, "hbm">
    "nisa.device_print"(%p) {prefix = "permute"} : (memref<4x4xf32, "hbm">) -> ()
    %r = "nisa.reshape"(%x) : (memref<4x4xf32, "hbm">) -> memref<2x8xf32, "hbm">
    "nisa.device_print"(%r) {prefix = "reshape"} : (memref<2x8xf32, "hbm">) -> ()
    %r1 = "nisa.ap"(%r) {pattern = array<i64: 8, 1, 1, 8>, offset = 8}
        : (memref<2x8xf32, "hbm">) -> memref<1x8xf32, "hbm">
    "nisa.device_print"(%r1) {prefix = "row 1"} : (memref<1x8xf32, "hbm">) -> ()
    %even = "nisa.ap"(%t) {pattern = array<i64: 8, 4, 2, 4>}
        : (memref<4x8xf32, "sbuf">) -> memref<4x4xf32, "sbuf">
    %odd = "nisa.ap"(%even) {pattern = array<i64: 4, 4, 2, 2>, offset = 1}
        : (memref<4x4xf32, "sbuf">) -> memref<4x2xf32, "sbuf">
    "nisa.device_print"(%odd) {prefix = "ap of ap"} : (memref<4x2xf32, "sbuf">) -> ()
    %col = "nisa.slice"(%t) {start = array<i64: 0, 0>} : (memref<4x8xf32, "sbuf">) -> memref<4x1xf32, "sbuf">
    %b = "nisa.broadcast"(%col) : (memref<4x1xf32, "sbuf">) -> memref<4x8xf32, "sbuf">
    "nisa.device_print"(%b) {prefix = "broadcast"} : (memref<4x8xf32, "sbuf">) -> ()
    %sum = "nisa.alloc"() : () -> memref<4x8xf32, "sbuf">
    "nisa.tensor_tensor_arith"(%sum, %t, %b) {op = "add"}
        : (memref<4x8xf32, "sbuf">, memref<4x8xf32, "sbuf">, memref<4x8xf32, "sbuf">) -> ()
    "nisa.device_print"(%sum) {prefix = "plus"} : (memref<4x8xf32, "sbuf">) -> ()
    %r3 = "nisa.reshape"(%t) : (memref<4x8xf32, "sbuf">) -> memref<4x2x4xf32, "sbuf">
    %pt = "nisa.permute"(%r3) {dims = array<i64: 0, 2, 1>} : (memref<4x2x4xf32, "sbuf">) -> memref<4x4x2xf32, "sbuf">
    "nisa.device_print"(%pt) {prefix = "free transpose"} : (memref<4x4x2xf32, "sbuf">) -> ()
    return
  }

  func.func @chain(%h: memref<64xf32, "hbm">) {
    %r = "nisa.reshape"(%h) : (memref<64xf32, "hbm">) -> memref<8x8xf32, "hbm">
    %s = "nisa.slice"(%r) {start = array<i64: 2, 1>, step = array<i64: 2, 1>}
        : (memref<8x8xf32, "hbm">) -> memref<3x4xf32, "hbm">
    %p = "nisa.permute"(%s) {dims = array<i64: 1, 0>} : (memref<3x4xf32, "hbm">) -> memref<4x3xf32, "hbm">
    %q = "nisa.ap"(%p) {pattern = array<i64: 6, 2, 1, 3>}
        : (memref<4x3xf32, "hbm">) -> memref<2x3xf32, "hbm">
    "nisa.device_print"(%q) {prefix = "chain"} : (memref<2x3xf32, "hbm">) -> ()
    return
  }

  func.func @gather(%h: memref<64xf32, "hbm">, %idx: memref<2x1xi32, "sbuf">) {
    %table = "nisa.reshape"(%h) : (memref<64xf32, "hbm">) -> memref<16x4xf32, "hbm">
    %g = "nisa.ap"(%table, %idx) {pattern = array<i64: 4, 2, 1, 4>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<16x4xf32, "hbm">, memref<2x1xi32, "sbuf">) -> memref<2x4xf32, "hbm">
    %rows = "nisa.alloc"() : () -> memref<2x4xf32, "sbuf">
    "nisa.dma_copy_indirect"(%rows, %g) : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "hbm">) -> ()
    "nisa.device_print"(%rows) {prefix = "rows"} : (memref<2x4xf32, "sbuf">) -> ()
    return
  }

  func.func @transposes(%t: memref<4x8xf32, "sbuf">) {
    %v = "nisa.alloc"() : () -> memref<8x4xf32, "sbuf">
    "nisa.nc_transpose"(%v, %t) : (memref<8x4xf32, "sbuf">, memref<4x8xf32, "sbuf">) -> ()
    "nisa.device_print"(%v) {prefix = "vector"} : (memref<8x4xf32, "sbuf">) -> ()
    %pt = "nisa.alloc"() : () -> memref<8x4xf32, "psum">
    "nisa.nc_transpose"(%pt, %t) {engine = "tensor"} : (memref<8x4xf32, "psum">, memref<4x8xf32, "sbuf">) -> ()
    "nisa.device_print"(%pt) {prefix = "tensor"} : (memref<8x4xf32, "psum">) -> ()
    %row0 = "nisa.slice"(%t) {start = array<i64: 0, 0>} : (memref<4x8xf32, "sbuf">) -> memref<1x8xf32, "sbuf">
    %sh = "nisa.alloc"() : () -> memref<4x8xf32, "sbuf">
    "nisa.stream_shuffle"(%sh, %row0)
      {shuffle_mask = array<i64: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>}
      : (memref<4x8xf32, "sbuf">, memref<1x8xf32, "sbuf">) -> ()
    "nisa.device_print"(%sh) {prefix = "shuffled"} : (memref<4x8xf32, "sbuf">) -> ()
    return
  }

  func.func @cross_row_view(%a: memref<4x4xf32, "hbm">) {
    %t = "nisa.alloc"() : () -> memref<4x4xf32, "sbuf">
    "nisa.memset"(%t) {value = 0.0 : f32} : (memref<4x4xf32, "sbuf">) -> ()
    %v = "nisa.ap"(%t) {pattern = array<i64: 4, 2, 1, 6>}
        : (memref<4x4xf32, "sbuf">) -> memref<2x6xf32, "sbuf">
// CROSS: views.mlir:[[@LINE-2]]:10: error: 'nisa.ap' op cannot be emulated: the free pattern reaches element 5 of a partition row of 4 float32 elements: it would run into the next partition (rule: ap row)
    %r = "nisa.reshape"(%v) : (memref<2x6xf32, "sbuf">) -> memref<2x3x2xf32, "sbuf">
    return
  }
}
