// sundial-allocate: home partition and byte offset of every SBUF/PSUM tile, space reused
// between tiles whose live ranges do not meet, per-dtype alignment, PSUM banks per target,
// HBM tensor numbers after the kernel arguments. Offsets below are worked out by hand from
// the live ranges (op positions in the block) and the placement rule (first fit by start of
// range, larger first).
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-allocate)' | FileCheck %s

// a is live over its DMA and the first copy; b from that copy to the second; c from the
// second copy to the store. b meets a (it is written while a is read), c meets b but not a,
// so c takes a's bytes.
// CHECK-LABEL: func.func @reuse
// CHECK: "nisa.alloc"() {name = "a", sundial.offset = 0 : i64, sundial.partition = 0 : i64}
// CHECK: "nisa.alloc"() {name = "b", sundial.offset = 2048 : i64, sundial.partition = 0 : i64}
// CHECK: "nisa.alloc"() {name = "c", sundial.offset = 0 : i64, sundial.partition = 0 : i64}
module attributes {sundial.target = "cayman"} {
  func.func @reuse(%in: memref<128x512xf32, "hbm">, %out: memref<128x512xf32, "hbm">) {
    %a = "nisa.alloc"() {name = "a"} : () -> memref<128x512xf32, "sbuf">
    %b = "nisa.alloc"() {name = "b"} : () -> memref<128x512xf32, "sbuf">
    %c = "nisa.alloc"() {name = "c"} : () -> memref<128x512xf32, "sbuf">
    "nisa.dma_copy"(%a, %in) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
    "nisa.tensor_copy"(%b, %a) {engine = "vector"} : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
    "nisa.tensor_copy"(%c, %b) {engine = "vector"} : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
    "nisa.dma_copy"(%out, %c) : (memref<128x512xf32, "hbm">, memref<128x512xf32, "sbuf">) -> ()
    return
  }
}

// -----

// A 6-byte bf16 row is followed by an fp32 tile live at the same time: the fp32 tile starts
// on the next 4-byte boundary (8), not at 6.
// CHECK-LABEL: func.func @alignment
// CHECK: "nisa.alloc"() {name = "h", sundial.offset = 0 : i64, sundial.partition = 0 : i64}
// CHECK: "nisa.alloc"() {name = "f", sundial.offset = 8 : i64, sundial.partition = 0 : i64}
module attributes {sundial.target = "cayman"} {
  func.func @alignment() {
    %h = "nisa.alloc"() {name = "h"} : () -> memref<128x3xbf16, "sbuf">
    %f = "nisa.alloc"() {name = "f"} : () -> memref<128x3xf32, "sbuf">
    "nisa.memset"(%h) {value = 0.0 : f32, engine = "vector"} : (memref<128x3xbf16, "sbuf">) -> ()
    "nisa.tensor_copy"(%f, %h) {engine = "vector"} : (memref<128x3xf32, "sbuf">, memref<128x3xbf16, "sbuf">) -> ()
    return
  }
}

// -----

// A view fixes the alignment too: the ui8 tile `raw` is read as fp32 through a nisa.ap, so it
// starts 4-byte aligned (4) after the 1-byte tile `u` rather than at 1.
// CHECK-LABEL: func.func @view_alignment
// CHECK: "nisa.alloc"() {name = "u", sundial.offset = 0 : i64, sundial.partition = 0 : i64}
// CHECK: "nisa.alloc"() {name = "raw", sundial.offset = 4 : i64, sundial.partition = 0 : i64}
module attributes {sundial.target = "cayman"} {
  func.func @view_alignment() {
    %u = "nisa.alloc"() {name = "u"} : () -> memref<128x1xui8, "sbuf">
    %raw = "nisa.alloc"() {name = "raw"} : () -> memref<128x8xui8, "sbuf">
    %as_f32 = "nisa.ap"(%raw) {pattern = array<i64: 2, 128, 1, 2>, operandSegmentSizes = array<i32: 1, 0, 0>}
        : (memref<128x8xui8, "sbuf">) -> memref<128x2xf32, "sbuf">
    "nisa.memset"(%u) {value = 0, engine = "vector"} : (memref<128x1xui8, "sbuf">) -> ()
    "nisa.memset"(%as_f32) {value = 1.0 : f32, engine = "vector"} : (memref<128x2xf32, "sbuf">) -> ()
    "nisa.tensor_copy"(%raw, %raw) {engine = "vector"} : (memref<128x8xui8, "sbuf">, memref<128x8xui8, "sbuf">) -> ()
    "nisa.tensor_copy"(%u, %u) {engine = "vector"} : (memref<128x1xui8, "sbuf">, memref<128x1xui8, "sbuf">) -> ()
    return
  }
}

// -----

// PSUM on cayman has 2 KiB banks: two 1536-byte tiles live together cannot share a bank, and
// the second may not straddle the boundary at 2048, so it starts there.
// CHECK-LABEL: func.func @psum_banks_cayman
// CHECK: "nisa.alloc"() {name = "p0", sundial.offset = 0 : i64, sundial.partition = 0 : i64}
// CHECK: "nisa.alloc"() {name = "p1", sundial.offset = 2048 : i64, sundial.partition = 0 : i64}
module attributes {sundial.target = "cayman"} {
  func.func @psum_banks_cayman() {
    %p0 = "nisa.alloc"() {name = "p0"} : () -> memref<128x384xf32, "psum">
    %p1 = "nisa.alloc"() {name = "p1"} : () -> memref<128x384xf32, "psum">
    "nisa.memset"(%p0) {value = 0.0 : f32, engine = "vector"} : (memref<128x384xf32, "psum">) -> ()
    "nisa.tensor_copy"(%p1, %p0) {engine = "vector"} : (memref<128x384xf32, "psum">, memref<128x384xf32, "psum">) -> ()
    return
  }
}

// -----

// sunda's PSUM banks are 1 KiB (the header's 16 x 1024 B): two 768-byte tiles live together
// give 0 and 1024; a 1536-byte tile is larger than a bank and starts on a bank boundary
// (2048, after the second tile's bank).
// CHECK-LABEL: func.func @psum_banks_sunda
// CHECK: "nisa.alloc"() {name = "q0", sundial.offset = 0 : i64, sundial.partition = 0 : i64}
// CHECK: "nisa.alloc"() {name = "q1", sundial.offset = 1024 : i64, sundial.partition = 0 : i64}
// CHECK: "nisa.alloc"() {name = "big", sundial.offset = 2048 : i64, sundial.partition = 0 : i64}
module attributes {sundial.target = "sunda"} {
  func.func @psum_banks_sunda() {
    %q0 = "nisa.alloc"() {name = "q0"} : () -> memref<128x192xf32, "psum">
    %q1 = "nisa.alloc"() {name = "q1"} : () -> memref<128x192xf32, "psum">
    %big = "nisa.alloc"() {name = "big"} : () -> memref<128x384xf32, "psum">
    "nisa.memset"(%q0) {value = 0.0 : f32, engine = "vector"} : (memref<128x192xf32, "psum">) -> ()
    "nisa.memset"(%q1) {value = 0.0 : f32, engine = "vector"} : (memref<128x192xf32, "psum">) -> ()
    "nisa.memset"(%big) {value = 0.0 : f32, engine = "vector"} : (memref<128x384xf32, "psum">) -> ()
    "nisa.tensor_copy"(%q1, %q0) {engine = "vector"} : (memref<128x192xf32, "psum">, memref<128x192xf32, "psum">) -> ()
    "nisa.tensor_copy"(%big, %big) {engine = "vector"} : (memref<128x384xf32, "psum">, memref<128x384xf32, "psum">) -> ()
    return
  }
}

// -----

// A kernel-local HBM tensor is numbered after the two arguments; a tile nothing touches takes
// no space at any point (offset 0, meeting nobody).
// CHECK-LABEL: func.func @hbm_and_dead
// CHECK: "nisa.alloc"() {name = "scratch", sundial.tensor = 2 : i64}
// CHECK: "nisa.alloc"() {name = "live", sundial.offset = 0 : i64, sundial.partition = 0 : i64}
// CHECK: "nisa.alloc"() {name = "dead", sundial.offset = 0 : i64, sundial.partition = 0 : i64}
module attributes {sundial.target = "mariana"} {
  func.func @hbm_and_dead(%in: memref<128x64xf32, "hbm">, %out: memref<128x64xf32, "hbm">) {
    %scratch = "nisa.alloc"() {name = "scratch"} : () -> memref<128x64xf32, "hbm">
    %live = "nisa.alloc"() {name = "live"} : () -> memref<128x64xf32, "sbuf">
    %dead = "nisa.alloc"() {name = "dead"} : () -> memref<128x64xf32, "sbuf">
    "nisa.dma_copy"(%live, %in) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    "nisa.dma_copy"(%scratch, %live) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">) -> ()
    "nisa.dma_copy"(%out, %scratch) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
    return
  }
}

// -----

// A loop that reached allocation un-unrolled: a tile its body uses is live for the whole loop
// op, and so is a tile allocated in the body. `outer` and `inner` meet in the loop; `after`
// starts after the loop, when `outer` is still live (the copy reads it) but `inner` is not,
// so `after` takes `inner`'s bytes.
// CHECK-LABEL: func.func @loop
// CHECK: "nisa.alloc"() {name = "outer", sundial.offset = 0 : i64, sundial.partition = 0 : i64}
// CHECK: "nisa.alloc"() {name = "after", sundial.offset = 256 : i64, sundial.partition = 0 : i64}
// CHECK: "nisa.alloc"() {name = "inner", sundial.offset = 256 : i64, sundial.partition = 0 : i64}
module attributes {sundial.target = "cayman"} {
  func.func @loop(%out: memref<128x64xf32, "hbm">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %outer = "nisa.alloc"() {name = "outer"} : () -> memref<128x64xf32, "sbuf">
    %after = "nisa.alloc"() {name = "after"} : () -> memref<128x64xf32, "sbuf">
    scf.for %i = %c0 to %c4 step %c1 {
      %inner = "nisa.alloc"() {name = "inner"} : () -> memref<128x64xf32, "sbuf">
      "nisa.memset"(%inner) {value = 1.0 : f32, engine = "vector"} : (memref<128x64xf32, "sbuf">) -> ()
      "nisa.tensor_tensor_arith"(%outer, %outer, %inner) {op = "add", engine = "vector"}
          : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    }
    "nisa.tensor_copy"(%after, %outer) {engine = "vector"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    "nisa.dma_copy"(%out, %after) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">) -> ()
    return
  }
}
