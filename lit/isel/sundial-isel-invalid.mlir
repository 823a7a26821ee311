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
    // expected-error@+1 {{'nisa.matmul' op operand 'stationary' is f32: the PE_FP32MODE split of an fp32 operand (low, high or both halves) is not derived here}}
    "nisa.matmul"(%q, %wf, %wf) : (memref<128x128xf32, "psum">, memref<128x128xf32, "sbuf">, memref<128x128xf32, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.stream_transpose' op a destination of 32 partitions selects {0x6b, 0x69}, whose 0x69 half needs a 32-lane map that no source gives for a plain transpose}}
    "nisa.stream_transpose"(%wide, %wide) : (memref<32x32xf32, "sbuf">, memref<32x32xf32, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.copy_predicated' op attribute 'reverse_pred': the S3S3D3_TT bundle of COPY_PREDICATED has no field for an inverted predicate}}
    "nisa.copy_predicated"(%x, %x, %mask) {reverse_pred = true} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xui8, "sbuf">) -> ()
    return
  }
}

// -----

// dma_copy_indirect: a DMA-indirect transfer addresses an HBM table on its outermost
// dimension, and a skipping oob_mode needs a bound-check register nothing can load.
module attributes {sundial.target = "cayman"} {
  func.func @indirect(%table: memref<1024x64xf32, "hbm">, %idx: memref<128x1xi32, "hbm">) {
    %i = "nisa.alloc"() : () -> memref<128x1xi32, "sbuf">
    %rows = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    %local = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    "nisa.dma_copy"(%i, %idx) : (memref<128x1xi32, "sbuf">, memref<128x1xi32, "hbm">) -> ()
    "nisa.memset"(%local) {value = 0.0 : f32, engine = "vector"} : (memref<128x64xf32, "sbuf">) -> ()
    %g = "nisa.ap"(%table, %i) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<1024x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "hbm">
    // expected-error@+1 {{'nisa.dma_copy_indirect' op attribute 'oob_mode': skipping out-of-bounds indices needs a bound-check register holding the table's extent (BOUND_CHECK_REG), and no pinned instruction loads a register (REG_LOAD 0x4a has no field table)}}
    "nisa.dma_copy_indirect"(%rows, %g) {oob_mode = "skip"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    // expected-error@+1 {{'nisa.dma_copy_indirect' op attribute 'priority': no source maps NKI's DMA priority onto DMA_CONFIGS priority_class}}
    "nisa.dma_copy_indirect"(%rows, %g) {priority = 1} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    %l = "nisa.ap"(%local, %i) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<128x64xf32, "sbuf">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "sbuf">
    %t2 = "nisa.alloc"() : () -> memref<1024x64xf32, "hbm">
    %both = "nisa.ap"(%t2, %i) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<1024x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "hbm">
    // expected-error@+1 {{'nisa.dma_copy_indirect' op both sides are indirect: the index-to-index form (SRC_DST_INDIRECTION) has no pinned direction code (the seed's validator accepts load 1 and save 2 only)}}
    "nisa.dma_copy_indirect"(%both, %g) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
    // expected-error@+1 {{'nisa.dma_copy_indirect' op operand 'src': the indexed tensor is in sbuf: a DMA-indirect transfer addresses an HBM table}}
    "nisa.dma_copy_indirect"(%rows, %l) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    %cols = "nisa.alloc"() : () -> memref<64x128xf32, "sbuf">
    %c = "nisa.ap"(%table, %i) {pattern = array<i64: 1, 64, 64, 128>, indirect_dim = 1, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<1024x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<64x128xf32, "hbm">
    // expected-error@+1 {{'nisa.dma_copy_indirect' op operand 'src': indirect_dim 1: an immediate-start DMA_INDIRECT1D indexes the outermost dimension only (bundle-layouts §5: the indirect dim of an immediate start is X)}}
    "nisa.dma_copy_indirect"(%cols, %c) : (memref<64x128xf32, "sbuf">, memref<64x128xf32, "hbm">) -> ()
    return
  }
}

// -----

// range_select: the 0x9b companion reads the reduction out to reduce_res. (A fractional range
// start is the verifier's: lit/nisa, rule range_select start.)
module attributes {sundial.target = "cayman"} {
  func.func @range_select(%in: memref<128x64xf32, "hbm">) {
    %s = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    %lo = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
    "nisa.dma_copy"(%s, %in) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    "nisa.memset"(%lo) {value = 0.0 : f32, engine = "vector"} : (memref<128x1xf32, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.range_select' op the 0x9b read-out companion of RangeSelect needs a 'reduce_res' destination}}
    "nisa.range_select"(%s, %s, %lo, %lo) {comp_op0 = "is_ge", comp_op1 = "is_lt"}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    return
  }
}

// -----

// nc_transpose: the Tensor-engine form reaches selection only where sundial-decompose did not
// turn it into a matmul against an identity (here: sundial-isel alone), and
// the Vector form to 32 or more partitions needs the lane map of a 0x69 half.
module attributes {sundial.target = "cayman"} {
  func.func @nc_transpose(%in: memref<64x64xbf16, "hbm">) {
    %a = "nisa.alloc"() : () -> memref<64x64xbf16, "sbuf">
    %p = "nisa.alloc"() : () -> memref<64x64xbf16, "psum">
    %w = "nisa.alloc"() : () -> memref<32x32xbf16, "sbuf">
    "nisa.dma_copy"(%a, %in) : (memref<64x64xbf16, "sbuf">, memref<64x64xbf16, "hbm">) -> ()
    "nisa.memset"(%w) {value = 0.0 : f32, engine = "vector"} : (memref<32x32xbf16, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.nc_transpose' op cannot be selected on cayman: nc_transpose: unpinned: the Tensor-engine transpose is LDWEIGHTS + MATMUL of data by an identity moving tile: sundial-decompose builds that matmul (is_transpose) on cayman and newer for the dtypes matmul takes, and keeps this op on sunda, whose PE transpose is not bit-accurate for NaN/Inf}}
    "nisa.nc_transpose"(%p, %a) {engine = "tensor"} : (memref<64x64xbf16, "psum">, memref<64x64xbf16, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.nc_transpose' op a destination of 32 partitions selects {0x6b, 0x69}, whose 0x69 half needs a 32-lane map that no source gives for a plain transpose}}
    "nisa.nc_transpose"(%w, %w) {engine = "vector"} : (memref<32x32xbf16, "sbuf">, memref<32x32xbf16, "sbuf">) -> ()
    return
  }
}

// -----

// nisa.activation's accumulate form: the ISA table pins no 0x21 + read-out sequence.
module attributes {sundial.target = "cayman"} {
  func.func @activation_reduce(%in: memref<128x64xf32, "hbm">) {
    %x = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    %y = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    %s = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
    "nisa.dma_copy"(%x, %in) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    // expected-error@+1 {{'nisa.activation' op operand 'reduce_res': the ISA table gives activation the one bundle 0x21 and pins no sequence reading its accumulation out into reduce_res (0x21 then the 0x24 read-out)}}
    "nisa.activation"(%y, %x, %s) {op = "exp", reduce_op = "add", reduce_cmd = "reset_reduce", operandSegmentSizes = array<i32: 1, 1, 0, 0, 1>}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    return
  }
}

// -----

// ACTIVATE writes the second immediate (alpha) only for prelu, copy and reciprocal.
module attributes {sundial.target = "cayman"} {
  func.func @activation_alpha(%in: memref<128x64xf32, "hbm">) {
    %x = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    %y = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    "nisa.dma_copy"(%x, %in) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    // expected-error@+1 {{'nisa.activation' op attribute 'alpha': ACTIVATE writes its second immediate only for prelu, copy and reciprocal, not 'exp'}}
    "nisa.activation"(%y, %x) {op = "exp", alpha = 0.5 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    return
  }
}

// -----

// A hardware-DGE DMA triggered from Sync: the ISA table has no Sync or Scalar DMA queue, so
// selection refuses it rather than drop the engine.
module attributes {sundial.target = "cayman"} {
  func.func @dma_trigger(%in: memref<128x64xbf16, "hbm">) {
    %t = "nisa.alloc"() : () -> memref<128x64xbf16, "sbuf">
    // expected-error@+1 {{'nisa.dma_copy' op cannot be selected on cayman: dma_copy: engine sync is not legal; legal engines: dma}}
    "nisa.dma_copy"(%t, %in) {engine = "sync", dge_mode = "hwdge"} : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "hbm">) -> ()
    return
  }
}

// -----

// NKI lets a v4 matmul write bf16 into PSUM, but the only pinned PSUM write of the PE bundles
// is a 4-byte dtype: selection refuses the bf16 result at the op (not the encoder, later).
module attributes {sundial.target = "mariana"} {
  func.func @bf16_psum_matmul(%o: memref<128x512xbf16, "hbm">) {
    %acc = "nisa.alloc"() : () -> memref<128x512xbf16, "psum">
    %w = "nisa.alloc"() : () -> memref<128x128xbf16, "sbuf">
    %x = "nisa.alloc"() : () -> memref<128x512xbf16, "sbuf">
    "nisa.memset"(%w) {value = 1.0 : f32, engine = "vector"} : (memref<128x128xbf16, "sbuf">) -> ()
    "nisa.memset"(%x) {value = 1.0 : f32, engine = "vector"} : (memref<128x512xbf16, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.matmul' op unpinned: operand 'dst' is bf16: the pinned encodings write a matmul result into PSUM as a 4-byte dtype (fp32, fp32r, int32, uint32); how the PE writes a 2-byte result is not stated by any source}}
    "nisa.matmul"(%acc, %w, %x) : (memref<128x512xbf16, "psum">, memref<128x128xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
    return
  }
}
