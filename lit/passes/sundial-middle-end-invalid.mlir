// sundial-middle-end's refusals are its passes' and phase checks', reported at the op; its own
// options are checked like a pass's.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-middle-end)' -verify-diagnostics
// RUN: not sundial-opt %s --pass-pipeline='builtin.module(sundial-middle-end{contract=maybe})' 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: sundial-opt: error: pipeline 'sundial-middle-end' option 'contract': invalid value 'maybe' (expected true or false)
// RUN: not sundial-opt %s --pass-pipeline='builtin.module(sundial-middle-end{tiling=on})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: sundial-opt: error: pipeline 'sundial-middle-end' has no option 'tiling' (options: target, contract)

// Partition tiling refuses an on-chip kernel argument beyond 128 partitions (the caller fixes
// its layout): the pipeline stops there.
module attributes {sundial.target = "cayman"} {
func.func @logical(%d: memref<256x64xf32, "sbuf">, %s: memref<256x64xf32, "sbuf">) {
  // expected-error@+1 {{'nisa.tensor_copy' op operand 'dst': an on-chip kernel argument of 256 partitions (more than 128) cannot be tiled}}
  "nisa.tensor_copy"(%d, %s) : (memref<256x64xf32, "sbuf">, memref<256x64xf32, "sbuf">) -> ()
  return
}
}

// -----

// A pass's refusal stops the pipeline at the op (here sundial-decompose's).
func.func @pow(%d: memref<128x64xf32, "sbuf">, %x: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{"pow" in a two-op tensor_scalar: tensorvectorscalar doesn't support power, use tensor_tensor instead. (rule: pow in a two-op form)}}
  "nisa.tensor_scalar_arith"(%d, %x) {op0 = "pow", imm0 = 2.0 : f32, op1 = "add", imm1 = 1.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// Without a target the DGE modes cannot be resolved.
func.func @no_target(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{'nisa.dma_copy' op dge_mode "unknown" cannot be resolved without a target}}
  "nisa.dma_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// A Tensor-engine nc_transpose of a logical tile beyond the 128 x 128 PE array is not made a
// matmul by sundial-decompose (it would be cut over K): partition tiling refuses the transpose.
module attributes {sundial.target = "cayman"} {
  func.func @wide_pe_transpose(%d: memref<64x256xbf16, "psum">) {
    %t = "nisa.alloc"() : () -> memref<256x64xbf16, "sbuf">
    "nisa.memset"(%t) {value = 0.0 : f32, engine = "vector"} : (memref<256x64xbf16, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.nc_transpose' op cannot be tiled over 256 partitions (blocks of 128): it moves the partition axis into the free axes}}
    "nisa.nc_transpose"(%d, %t) {engine = "tensor"} : (memref<64x256xbf16, "psum">, memref<256x64xbf16, "sbuf">) -> ()
    return
  }
}
