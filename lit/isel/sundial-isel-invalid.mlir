// sundial-isel's refusals of ops the ISA table selects: a DMA it cannot express, loops left in
// the kernel, and values an instruction needs that the op does not give. (Ops the table
// itself refuses are in unselectable.mlir.)
// RUN: sundial-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sundial-allocate,sundial-isel)'

// A DMA_DIRECT2D copy moves as many bytes as it writes: a converting DMA is refused.
module attributes {sundial.target = "cayman"} {
  func.func @converting_dma(%in: memref<128x64xf32, "hbm">) {
    %t = "nisa.alloc"() : () -> memref<128x64xbf16, "sbuf">
    // expected-error@+1 {{'nisa.dma_copy' op converts f32 to bf16: a DMA_DIRECT2D copy moves as many bytes as it writes, and no source pins the descriptor of a converting DMA (its DGE compute form)}}
    "nisa.dma_copy"(%t, %in) : (memref<128x64xbf16, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    return
  }
}

// -----

// Loops reach selection unrolled.
module attributes {sundial.target = "cayman"} {
  func.func @loop() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    // expected-error@+1 {{'scf.for' op holds NISA ops in a region: loops and other regions reach instruction selection unrolled (run sundial-unroll first) (rule: static kernel)}}
    scf.for %i = %c0 to %c4 step %c1 {
      "nisa.memset"(%t) {value = 1.0 : f32, engine = "vector"} : (memref<128x64xf32, "sbuf">) -> ()
    }
    return
  }
}

// -----

// The values an instruction needs that the op does not state.
module attributes {sundial.target = "cayman"} {
  func.func @needs() {
    %x = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    %w = "nisa.alloc"() : () -> memref<128x128xbf16, "sbuf">
    %wf = "nisa.alloc"() : () -> memref<128x128xf32, "sbuf">
    %m = "nisa.alloc"() : () -> memref<128x64xbf16, "sbuf">
    %p = "nisa.alloc"() : () -> memref<128x64xf32, "psum">
    %q = "nisa.alloc"() : () -> memref<128x128xf32, "psum">
    %wide = "nisa.alloc"() : () -> memref<32x32xf32, "sbuf">
    %mask = "nisa.alloc"() : () -> memref<128x64xui8, "sbuf">
    %rect = "nisa.alloc"() : () -> memref<8x16xf32, "sbuf">
    %rectt = "nisa.alloc"() : () -> memref<16x8xf32, "sbuf">
    "nisa.memset"(%x) {value = 1.0 : f32, engine = "vector"} : (memref<128x64xf32, "sbuf">) -> ()
    "nisa.memset"(%w) {value = 1.0 : f32, engine = "vector"} : (memref<128x128xbf16, "sbuf">) -> ()
    "nisa.memset"(%wf) {value = 1.0 : f32, engine = "vector"} : (memref<128x128xf32, "sbuf">) -> ()
    "nisa.memset"(%m) {value = 1.0 : f32, engine = "vector"} : (memref<128x64xbf16, "sbuf">) -> ()
    "nisa.memset"(%wide) {value = 1.0 : f32, engine = "vector"} : (memref<32x32xf32, "sbuf">) -> ()
    "nisa.memset"(%mask) {value = 1, engine = "vector"} : (memref<128x64xui8, "sbuf">) -> ()
    "nisa.memset"(%rectt) {value = 1.0 : f32, engine = "vector"} : (memref<16x8xf32, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.stream_transpose' op transposes 16 x 8 elements: the 0x6b bundle holds equal source and destination element counts per partition (the seed's d4_tr_same_src_dst_count), so only a square transpose is encodable}}
    "nisa.stream_transpose"(%rect, %rectt) : (memref<8x16xf32, "sbuf">, memref<16x8xf32, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.tensor_scalar_cache_reduce' op the 0x9b read-out of the reduction needs a 'reduce_res' destination}}
    "nisa.tensor_scalar_cache_reduce"(%x, %x) {op0 = "mult", imm0 = 2.0 : f32, reduce_op = "add", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.matmul' op attribute 'accumulate': which psum_accumulate_flags an accumulating matmul takes (a middle 0 or the END 2 of its accumulation group) depends on whether it ends the group, which the op does not say}}
    "nisa.matmul"(%p, %w, %m) {accumulate = true} : (memref<128x64xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.matmul' op operand 'stationary' is f32: the PE_FP32MODE split of an fp32 operand (low, high or both halves) is not derived here}}
    "nisa.matmul"(%q, %wf, %wf) : (memref<128x128xf32, "psum">, memref<128x128xf32, "sbuf">, memref<128x128xf32, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.stream_transpose' op a destination of 32 partitions selects {0x6b, 0x69}, whose 0x69 half needs a 32-lane map that no source gives for a plain transpose}}
    "nisa.stream_transpose"(%wide, %wide) : (memref<32x32xf32, "sbuf">, memref<32x32xf32, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.copy_predicated' op attribute 'reverse_pred': the S3S3D3_TT bundle of COPY_PREDICATED has no field for an inverted predicate}}
    "nisa.copy_predicated"(%x, %x, %mask) {reverse_pred = true} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xui8, "sbuf">) -> ()
    return
  }
}
