// The PV step of paged attention: the 256 context tokens of a sequence live in a paged V cache
// (8192 token slots x 128 head-dim bf16, one slot per row); the slot table gives each
// context token's slot. Two DMA-indirect loads (0xbb) fetch 128 tokens' V rows each (tokens on
// partitions), and out[q, d] = sum_t P[q, t] V[t, d] is one accumulation group of two matmuls
// into PSUM (psum_accumulate_flags BEGIN 1, then END 2), with the transposed probabilities
// P^T (tokens x queries) stationary; the result is copied out through SBUF.
// Run: scripts/example.sh   (or: sundial-translate examples/kernels/paged_attention.mlir --disassemble)
module attributes {sundial.target = "cayman"} {
  func.func @paged_attention_pv(%v_cache: memref<8192x128xbf16, "hbm">, %slots: memref<256x1xi32, "hbm">,
                                %probs_t: memref<256x128xbf16, "hbm">, %out: memref<128x128xf32, "hbm">) {
    %s0 = "nisa.alloc"() {name = "slots0"} : () -> memref<128x1xi32, "sbuf">
    %s1 = "nisa.alloc"() {name = "slots1"} : () -> memref<128x1xi32, "sbuf">
    %p0 = "nisa.alloc"() {name = "probs0"} : () -> memref<128x128xbf16, "sbuf">
    %p1 = "nisa.alloc"() {name = "probs1"} : () -> memref<128x128xbf16, "sbuf">
    %v0 = "nisa.alloc"() {name = "v0"} : () -> memref<128x128xbf16, "sbuf">
    %v1 = "nisa.alloc"() {name = "v1"} : () -> memref<128x128xbf16, "sbuf">
    %acc = "nisa.alloc"() {name = "acc"} : () -> memref<128x128xf32, "psum">
    %o = "nisa.alloc"() {name = "o"} : () -> memref<128x128xf32, "sbuf">
    %slots0 = "nisa.ap"(%slots) {pattern = array<i64: 1, 128, 1, 1>, operandSegmentSizes = array<i32: 1, 0, 0>}
        : (memref<256x1xi32, "hbm">) -> memref<128x1xi32, "hbm">
    %slots1 = "nisa.ap"(%slots) {pattern = array<i64: 1, 128, 1, 1>, offset = 128, operandSegmentSizes = array<i32: 1, 0, 0>}
        : (memref<256x1xi32, "hbm">) -> memref<128x1xi32, "hbm">
    %pt0 = "nisa.ap"(%probs_t) {pattern = array<i64: 128, 128, 1, 128>, operandSegmentSizes = array<i32: 1, 0, 0>}
        : (memref<256x128xbf16, "hbm">) -> memref<128x128xbf16, "hbm">
    %pt1 = "nisa.ap"(%probs_t) {pattern = array<i64: 128, 128, 1, 128>, offset = 16384, operandSegmentSizes = array<i32: 1, 0, 0>}
        : (memref<256x128xbf16, "hbm">) -> memref<128x128xbf16, "hbm">
    "nisa.dma_copy"(%s0, %slots0) : (memref<128x1xi32, "sbuf">, memref<128x1xi32, "hbm">) -> ()
    "nisa.dma_copy"(%s1, %slots1) : (memref<128x1xi32, "sbuf">, memref<128x1xi32, "hbm">) -> ()
    "nisa.dma_copy"(%p0, %pt0) : (memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "hbm">) -> ()
    "nisa.dma_copy"(%p1, %pt1) : (memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "hbm">) -> ()
    %page0 = "nisa.ap"(%v_cache, %s0) {pattern = array<i64: 128, 128, 1, 128>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<8192x128xbf16, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x128xbf16, "hbm">
    %page1 = "nisa.ap"(%v_cache, %s1) {pattern = array<i64: 128, 128, 1, 128>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<8192x128xbf16, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x128xbf16, "hbm">
    "nisa.dma_copy_indirect"(%v0, %page0) : (memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "hbm">) -> ()
    "nisa.dma_copy_indirect"(%v1, %page1) : (memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "hbm">) -> ()
    "nisa.matmul"(%acc, %p0, %v0) : (memref<128x128xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "sbuf">) -> ()
    "nisa.matmul"(%acc, %p1, %v1) {accumulate = true} : (memref<128x128xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "sbuf">) -> ()
    "nisa.tensor_copy"(%o, %acc) {engine = "vector"} : (memref<128x128xf32, "sbuf">, memref<128x128xf32, "psum">) -> ()
    "nisa.dma_copy"(%out, %o) : (memref<128x128xf32, "hbm">, memref<128x128xf32, "sbuf">) -> ()
    return
  }
}
