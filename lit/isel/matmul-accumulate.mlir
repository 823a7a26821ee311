// sundial-isel: accumulation groups of matmuls into PSUM. A group is a run of matmuls into the
// same PSUM pattern, each after the first with accumulate = true, and no other op naming the
// destination tile between them. psum_accumulate_flags (bundle-layouts §4.9, common.h):
// BEGIN_MATMUL_GROUP 1, END_MATMUL_GROUP 2, BEGIN_ACCUM_MATMUL_GROUP 4; a lone matmul is
// SINGLE 3, or 6 when it accumulates onto what PSUM held. (The grouping by program order is
// our assumption: no source says how NKI's per-op accumulate becomes the group flags.)
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-allocate,sundial-isel)' | FileCheck %s

// K = 384 split into three 128-row chunks: BEGIN, middle, END; the copy out observes the sum,
// so the next accumulating matmul starts a new group onto it (BEGIN_ACCUM | END = 6); a
// plain matmul into another PSUM tile in between does not break the group of the first.
// CHECK-LABEL: func.func @k_split
// CHECK: "bir.matmult"() {accumulate_flags = 1 : i64, {{.*}}opcodes = array<i64: 1, 2>
// CHECK: "bir.matmult"() {accumulate_flags = 3 : i64, dst = {{{.*}}offset = 2048 : i64
// CHECK: "bir.matmult"() {accumulate_flags = 0 : i64,
// CHECK: "bir.matmult"() {accumulate_flags = 2 : i64,
// CHECK: "bir.tensor_copy"
// CHECK: "bir.matmult"() {accumulate_flags = 6 : i64,
module attributes {sundial.target = "cayman"} {
  func.func @k_split(%w: memref<128x384xbf16, "hbm">, %x: memref<128x1536xbf16, "hbm">, %out: memref<128x512xf32, "hbm">) {
    %sw = "nisa.alloc"() : () -> memref<128x384xbf16, "sbuf">
    %sx = "nisa.alloc"() : () -> memref<128x1536xbf16, "sbuf">
    %acc = "nisa.alloc"() : () -> memref<128x512xf32, "psum">
    %other = "nisa.alloc"() : () -> memref<128x512xf32, "psum">
    %o = "nisa.alloc"() : () -> memref<128x512xf32, "sbuf">
    "nisa.dma_copy"(%sw, %w) : (memref<128x384xbf16, "sbuf">, memref<128x384xbf16, "hbm">) -> ()
    "nisa.dma_copy"(%sx, %x) : (memref<128x1536xbf16, "sbuf">, memref<128x1536xbf16, "hbm">) -> ()
    %w0 = "nisa.ap"(%sw) {pattern = array<i64: 384, 128, 1, 128>, offset = 0, operandSegmentSizes = array<i32: 1, 0, 0>} : (memref<128x384xbf16, "sbuf">) -> memref<128x128xbf16, "sbuf">
    %w1 = "nisa.ap"(%sw) {pattern = array<i64: 384, 128, 1, 128>, offset = 128, operandSegmentSizes = array<i32: 1, 0, 0>} : (memref<128x384xbf16, "sbuf">) -> memref<128x128xbf16, "sbuf">
    %w2 = "nisa.ap"(%sw) {pattern = array<i64: 384, 128, 1, 128>, offset = 256, operandSegmentSizes = array<i32: 1, 0, 0>} : (memref<128x384xbf16, "sbuf">) -> memref<128x128xbf16, "sbuf">
    %x0 = "nisa.ap"(%sx) {pattern = array<i64: 1536, 128, 1, 512>, offset = 0, operandSegmentSizes = array<i32: 1, 0, 0>} : (memref<128x1536xbf16, "sbuf">) -> memref<128x512xbf16, "sbuf">
    %x1 = "nisa.ap"(%sx) {pattern = array<i64: 1536, 128, 1, 512>, offset = 512, operandSegmentSizes = array<i32: 1, 0, 0>} : (memref<128x1536xbf16, "sbuf">) -> memref<128x512xbf16, "sbuf">
    %x2 = "nisa.ap"(%sx) {pattern = array<i64: 1536, 128, 1, 512>, offset = 1024, operandSegmentSizes = array<i32: 1, 0, 0>} : (memref<128x1536xbf16, "sbuf">) -> memref<128x512xbf16, "sbuf">
    "nisa.matmul"(%acc, %w0, %x0) : (memref<128x512xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
    "nisa.matmul"(%other, %w0, %x0) : (memref<128x512xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
    "nisa.matmul"(%acc, %w1, %x1) {accumulate = true} : (memref<128x512xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
    "nisa.matmul"(%acc, %w2, %x2) {accumulate = true} : (memref<128x512xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
    "nisa.tensor_copy"(%o, %acc) {engine = "vector"} : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "psum">) -> ()
    "nisa.matmul"(%acc, %w0, %x0) {accumulate = true} : (memref<128x512xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
    "nisa.tensor_copy"(%o, %other) {engine = "vector"} : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "psum">) -> ()
    "nisa.dma_copy"(%out, %o) : (memref<128x512xf32, "hbm">, memref<128x512xf32, "sbuf">) -> ()
    return
  }
}

// -----

// A matmul into a different pattern of the same tile does not continue the group (the first
// ends: SINGLE), nor does accumulate = false (a new group begins: BEGIN, then END).
// CHECK-LABEL: func.func @regroup
// CHECK: "bir.matmult"() {accumulate_flags = 3 : i64,
// CHECK: "bir.matmult"() {accumulate_flags = 6 : i64,
// CHECK: "bir.matmult"() {accumulate_flags = 1 : i64,
// CHECK: "bir.matmult"() {accumulate_flags = 2 : i64,
module attributes {sundial.target = "sunda"} {
  func.func @regroup(%w: memref<128x128xbf16, "hbm">, %x: memref<128x512xbf16, "hbm">) {
    %sw = "nisa.alloc"() : () -> memref<128x128xbf16, "sbuf">
    %sx = "nisa.alloc"() : () -> memref<128x512xbf16, "sbuf">
    %acc = "nisa.alloc"() : () -> memref<128x512xf32, "psum">
    "nisa.dma_copy"(%sw, %w) : (memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "hbm">) -> ()
    "nisa.dma_copy"(%sx, %x) : (memref<128x512xbf16, "sbuf">, memref<128x512xbf16, "hbm">) -> ()
    %half = "nisa.ap"(%acc) {pattern = array<i64: 512, 128, 1, 128>, offset = 0, operandSegmentSizes = array<i32: 1, 0, 0>} : (memref<128x512xf32, "psum">) -> memref<128x128xf32, "psum">
    "nisa.matmul"(%acc, %sw, %sx) : (memref<128x512xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
    "nisa.matmul"(%half, %sw, %sw) {accumulate = true} : (memref<128x128xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "sbuf">) -> ()
    "nisa.matmul"(%acc, %sw, %sx) {accumulate = false} : (memref<128x512xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
    "nisa.matmul"(%acc, %sw, %sx) {accumulate = true} : (memref<128x512xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
    return
  }
}

// -----

// The MX matmul groups the same way (mariana): BEGIN 1, then END 2.
// CHECK-LABEL: func.func @mx_group
// CHECK: "bir.matmult_mx"() {accumulate_flags = 1 : i64,
// CHECK: "bir.matmult_mx"() {accumulate_flags = 2 : i64,
module attributes {sundial.target = "mariana"} {
  func.func @mx_group(%wq_in: memref<128x64xvector<4xf4E2M1FN>, "hbm">, %ws_in: memref<16x64xui8, "hbm">, %ms_in: memref<16x256xf8E8M0FNU, "hbm">) {
    %st = "nisa.alloc"() : () -> memref<128x64xvector<4xf4E2M1FN>, "sbuf">
    %sts = "nisa.alloc"() : () -> memref<16x64xui8, "sbuf">
    %mv = "nisa.alloc"() : () -> memref<128x256xvector<4xf8E5M2>, "sbuf">
    %mvs = "nisa.alloc"() : () -> memref<16x256xf8E8M0FNU, "sbuf">
    %dst = "nisa.alloc"() : () -> memref<64x256xf32, "psum">
    "nisa.dma_copy"(%st, %wq_in) : (memref<128x64xvector<4xf4E2M1FN>, "sbuf">, memref<128x64xvector<4xf4E2M1FN>, "hbm">) -> ()
    "nisa.dma_copy"(%sts, %ws_in) : (memref<16x64xui8, "sbuf">, memref<16x64xui8, "hbm">) -> ()
    "nisa.memset"(%mv) {value = 0, engine = "vector"} : (memref<128x256xvector<4xf8E5M2>, "sbuf">) -> ()
    "nisa.dma_copy"(%mvs, %ms_in) : (memref<16x256xf8E8M0FNU, "sbuf">, memref<16x256xf8E8M0FNU, "hbm">) -> ()
    "nisa.matmul_mx"(%dst, %st, %mv, %sts, %mvs) : (memref<64x256xf32, "psum">, memref<128x64xvector<4xf4E2M1FN>, "sbuf">, memref<128x256xvector<4xf8E5M2>, "sbuf">, memref<16x64xui8, "sbuf">, memref<16x256xf8E8M0FNU, "sbuf">) -> ()
    "nisa.matmul_mx"(%dst, %st, %mv, %sts, %mvs) {accumulate = true} : (memref<64x256xf32, "psum">, memref<128x64xvector<4xf4E2M1FN>, "sbuf">, memref<128x256xvector<4xf8E5M2>, "sbuf">, memref<16x64xui8, "sbuf">, memref<16x256xf8E8M0FNU, "sbuf">) -> ()
    return
  }
}
