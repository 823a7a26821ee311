// Views selection cannot encode: the chain folds (the verifier accepts it), but the folded
// pattern breaks a limit of the instruction's access-pattern fields.
// RUN: sundial-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sundial-allocate,sundial-isel)'

// Every 40000th bf16 element of a partition row: an on-chip step is the signed 16-bit
// step_elem of TENSORnD.
module attributes {sundial.target = "cayman"} {
  func.func @step_too_large() {
    %t = "nisa.alloc"() : () -> memref<128x40001xbf16, "sbuf">
    %d = "nisa.alloc"() : () -> memref<128x2xbf16, "sbuf">
    "nisa.memset"(%t) {value = 0.0 : f32, engine = "vector"} : (memref<128x40001xbf16, "sbuf">) -> ()
    %s = "nisa.slice"(%t) {start = array<i64: 0, 0>, step = array<i64: 1, 40000>} : (memref<128x40001xbf16, "sbuf">) -> memref<128x2xbf16, "sbuf">
    // expected-error@+1 {{'nisa.tensor_copy' op operand 'src': step 40000 does not fit the pattern's step field (at most 32767 in magnitude)}}
    "nisa.tensor_copy"(%d, %s) {engine = "vector"} : (memref<128x2xbf16, "sbuf">, memref<128x2xbf16, "sbuf">) -> ()
    return
  }
}

// -----

// A 5-D HBM tensor with its dimensions reversed: five strides (1, 6, 30, 120, 360) that do not
// merge, and a physical pattern has at most four free dimensions.
module attributes {sundial.target = "cayman"} {
  func.func @five_dims(%h: memref<2x3x4x5x6xf32, "hbm">) {
    %t = "nisa.alloc"() : () -> memref<6x5x4x3x2xf32, "sbuf">
    %p = "nisa.permute"(%h) {dims = array<i64: 4, 3, 2, 1, 0>} : (memref<2x3x4x5x6xf32, "hbm">) -> memref<6x5x4x3x2xf32, "hbm">
    // expected-error@+1 {{'nisa.dma_copy' op operand 'src': the access needs 5 free dimensions; a physical pattern has at most 4}}
    "nisa.dma_copy"(%t, %p) : (memref<6x5x4x3x2xf32, "sbuf">, memref<6x5x4x3x2xf32, "hbm">) -> ()
    return
  }
}

// -----

// An LNC=2 kernel whose rows depend on the program id: selection has no register-addressed
// pattern, so a dynamic_ap offset that is not a constant cannot be selected (nor can the
// program id itself: no instruction reads it).
module attributes {sundial.target = "cayman", sundial.grid = array<i64: 2>} {
  func.func @per_program(%x: memref<256x512xf32, "hbm"> {sundial.buffer = "shared_hbm"}) {
    %t = "nisa.alloc"() : () -> memref<128x512xf32, "sbuf">
    // expected-error@+1 {{'nisa.program_id' op cannot be selected on cayman: program_id: unknown op (no row in the ISA table)}}
    %pid = "nisa.program_id"() {axis = 0} : () -> index
    %half = arith.constant 65536 : index
    %off = arith.muli %pid, %half : index
    %mine = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 512, 128, 1, 512>}
        : (memref<256x512xf32, "hbm">, index) -> memref<128x512xf32, "hbm">
    // expected-error@+1 {{'nisa.dma_copy' op operand 'src': the operand is a nisa.dynamic_ap whose dynamic offset is not a constant (it depends on a loop variable, a program id or a register): a static pattern takes a constant start}}
    "nisa.dma_copy"(%t, %mine) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
    return
  }
}
