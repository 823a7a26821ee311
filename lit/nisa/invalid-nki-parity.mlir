// NKI parity rules: nc_transpose and core_barrier, the relaxed rules' remaining limits, and
// the tightened ones (keepdims, the index tiles shared with the emulator).
// RUN: sundial-opt %s -split-input-file -verify-diagnostics

// A transpose keeps the dtype.
func.func @transpose_dtype(%d: memref<64x128xf32, "psum">, %s: memref<128x64xbf16, "sbuf">) {
  // expected-error@+1 {{operands 'data' (bf16) and 'dst' (f32) must have the same dtype (rule: same dtype)}}
  "nisa.nc_transpose"(%d, %s) : (memref<64x128xf32, "psum">, memref<128x64xbf16, "sbuf">) -> ()
  return
}

// -----

// dst is data with partition and flattened free axes swapped.
func.func @transpose_shape(%d: memref<128x64xbf16, "psum">, %s: memref<128x4x16xbf16, "sbuf">) {
  // expected-error@+1 {{operand 'dst' must be 64x128 (the transpose of 'data' 128x4x16), got 128x64 (rule: transpose shape)}}
  "nisa.nc_transpose"(%d, %s) : (memref<128x64xbf16, "psum">, memref<128x4x16xbf16, "sbuf">) -> ()
  return
}

// -----

// The Vector engine transposes at most 32x32.
func.func @vector_size(%d: memref<64x64xf32, "sbuf">, %s: memref<64x64xf32, "sbuf">) {
  // expected-error@+1 {{operand 'data' is 64x64; the Vector transpose handles at most 32x32 (use the Tensor engine) (rule: vector transpose size)}}
  "nisa.nc_transpose"(%d, %s) {engine = "vector"} : (memref<64x64xf32, "sbuf">, memref<64x64xf32, "sbuf">) -> ()
  return
}

// -----

// The Tensor engine reads SBUF and writes PSUM; beyond 32x32 an unknown engine is the Tensor
// engine.
func.func @pe_spaces(%d: memref<64x64xf32, "sbuf">, %s: memref<64x64xf32, "sbuf">) {
  // expected-error@+1 {{the Tensor-engine transpose reads 'data' from SBUF and writes 'dst' to PSUM, got sbuf to sbuf (rule: pe transpose spaces)}}
  "nisa.nc_transpose"(%d, %s) : (memref<64x64xf32, "sbuf">, memref<64x64xf32, "sbuf">) -> ()
  return
}

// -----

// Only the two cores sharing an HBM stack.
module attributes {sundial.target = "mariana"} {
func.func @barrier_cores(%t: memref<256x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'cores': [1, 2] is not supported; the barrier synchronises cores [0, 1] (the two NeuronCores sharing an HBM stack) (rule: core barrier cores)}}
  "nisa.core_barrier"(%t) {cores = array<i64: 1, 2>} : (memref<256x64xf32, "hbm">) -> ()
  return
}
}

// -----

// The barrier exists from NeuronCore v3, and synchronises on shared HBM.
module attributes {sundial.target = "sunda"} {
func.func @barrier_target(%t: memref<256x64xf32, "hbm">) {
  // expected-error@+1 {{is not available on sunda (NeuronCore v2); it needs cayman (v3) or newer (rule: target)}}
  "nisa.core_barrier"(%t) {cores = array<i64: 0, 1>} : (memref<256x64xf32, "hbm">) -> ()
  return
}
}

// -----

// The barrier's data is in shared HBM (NKI: "This must be data in shared HBM that multiple
// cores are accessing"): not a private tensor, nor the kernel's own hbm allocation (NKI's
// nl.hbm is private_hbm), through views too.
module attributes {sundial.target = "cayman"} {
func.func @barrier_private(%p: memref<256x64xf32, "hbm"> {sundial.buffer = "private_hbm"}) {
  // expected-error@+1 {{operand 'data': a private_hbm argument tensor is private to one program, but the barrier synchronises on data in shared HBM that both cores access: allocate it with sundial.buffer = "shared_hbm" or pass it as a kernel argument (rule: core barrier shared hbm)}}
  "nisa.core_barrier"(%p) {cores = array<i64: 0, 1>} : (memref<256x64xf32, "hbm">) -> ()
  %t = "nisa.alloc"() : () -> memref<256x64xf32, "hbm">
  %v = "nisa.slice"(%t) {start = array<i64: 128, 0>} : (memref<256x64xf32, "hbm">) -> memref<128x64xf32, "hbm">
  // expected-error@+1 {{operand 'data': a kernel-allocated hbm (NKI's nl.hbm, private_hbm) tensor is private to one program}}
  "nisa.core_barrier"(%v) {cores = array<i64: 0, 1>} : (memref<128x64xf32, "hbm">) -> ()
  %q = "nisa.alloc"() {sundial.buffer = "private_hbm"} : () -> memref<256x64xf32, "hbm">
  // expected-error@+1 {{operand 'data': a private_hbm tensor is private to one program}}
  "nisa.core_barrier"(%q) {cores = array<i64: 0, 1>} : (memref<256x64xf32, "hbm">) -> ()
  return
}
}

// -----

func.func @barrier_space(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{operand 'data': memory space "sbuf" is not allowed (allowed: hbm) (rule: operand space)}}
  "nisa.core_barrier"(%t) {cores = array<i64: 0, 1>} : (memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// "shapes agree" still needs equal partitions and equal elements per partition.
func.func @shapes_partitions(%d: memref<64x4xf32, "sbuf">, %s: memref<32x8xf32, "sbuf">) {
  // expected-error@+1 {{operand 'data' has shape 32x8 but 'dst' has shape 64x4 (rule: shapes agree)}}
  "nisa.tensor_scalar_arith"(%d, %s) {op0 = "mult", imm0 = 2.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<64x4xf32, "sbuf">, memref<32x8xf32, "sbuf">) -> ()
  return
}

// -----

// A shuffle keeps the elements per partition.
func.func @shuffle_elements(%d: memref<32x2xf32, "sbuf">, %s: memref<1x1xf32, "sbuf">) {
  // expected-error@+1 {{operand 'src' has shape 1x1 but 'dst' has shape 32x2; a shuffle keeps the elements per partition (rule: shapes agree)}}
  "nisa.stream_shuffle"(%d, %s) {shuffle_mask = array<i64: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>}
      : (memref<32x2xf32, "sbuf">, memref<1x1xf32, "sbuf">) -> ()
  return
}

// -----

// A broadcasting shuffle reads only the source's partitions...
func.func @shuffle_reads(%d: memref<32x1xf32, "sbuf">, %s: memref<1x1xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'shuffle_mask': entry 1 reads partition 1 but 'src' has 1 (rule: shuffle partitions)}}
  "nisa.stream_shuffle"(%d, %s) {shuffle_mask = array<i64: 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>}
      : (memref<32x1xf32, "sbuf">, memref<1x1xf32, "sbuf">) -> ()
  return
}

// -----

// ... inside one quadrant (every quadrant applies the same mask to its own partitions).
func.func @shuffle_quadrant(%d: memref<64x1xf32, "sbuf">, %s: memref<1x1xf32, "sbuf">) {
  // expected-error@+1 {{operand 'src' has 1 partitions and 'dst' 64: a shuffle between different partition counts stays inside one 32-partition quadrant (rule: shuffle partitions)}}
  "nisa.stream_shuffle"(%d, %s) {shuffle_mask = array<i64: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>}
      : (memref<64x1xf32, "sbuf">, memref<1x1xf32, "sbuf">) -> ()
  return
}

// -----

// The hardware DGE transposes 2-byte elements only.
func.func @dma_transpose_hwdge(%d: memref<64x128xi32, "sbuf">, %s: memref<128x64xi32, "hbm">) {
  // expected-error@+1 {{operand 'src': a 4-byte dtype (i32) cannot be transposed by the hardware DGE, which moves 2-byte elements; use dge_mode unknown, swdge or none (rule: dma transpose dtype)}}
  "nisa.dma_transpose"(%d, %s) {axes = array<i64: 1, 0>, dge_mode = "hwdge"} : (memref<64x128xi32, "sbuf">, memref<128x64xi32, "hbm">) -> ()
  return
}

// -----

// An indirect transpose (software DGE) stays 2-byte.
func.func @gather_transpose_dtype(%d: memref<64x32xi32, "sbuf">, %s: memref<32x64xi32, "hbm">) {
  // expected-error@+1 {{operand 'dst': dtype i32 is not legal here (legal: bf16, f16, i16, ui16) (rule: operand dtype)}}
  "nisa.dma_gather_transpose"(%d, %s) {axes = array<i64: 1, 0>} : (memref<64x32xi32, "sbuf">, memref<32x64xi32, "hbm">) -> ()
  return
}

// -----

// An integer immediate needs integer data (float data computes with an f32 immediate).
func.func @integer_on_float(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'imm0': an integer immediate needs integer 'data', got f32; write a float (1.0 : f32) (rule: integer immediate)}}
  "nisa.tensor_scalar_arith"(%t, %t) {op0 = "add", imm0 = 1, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// ... and fits the instruction's 32-bit immediate.
func.func @integer_range(%t: memref<128x64xi16, "sbuf">) {
  // expected-error@+1 {{attribute 'imm0': 4294967296 does not fit the 32-bit immediate (from -2147483648 to 4294967295) (rule: integer immediate)}}
  "nisa.tensor_scalar_cache_cumulative"(%t, %t) {op0 = "add", op1 = "add", imm0 = 4294967296}
      : (memref<128x64xi16, "sbuf">, memref<128x64xi16, "sbuf">) -> ()
  return
}

// -----

// name= is a string, and diagnostics print it.
func.func @name_kind(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'name': expected a string (NKI's name=)}}
  "nisa.tensor_copy"(%t, %t) {name = 3} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

func.func @name_printed(%d: memref<128x64xf32, "sbuf">, %s: memref<64x64xf32, "sbuf">) {
  // expected-error@+1 {{'nisa.tensor_copy' op (name "load_q") operand 'src' (64x64) and 'dst' (128x64) must have the same number of elements (rule: element counts agree)}}
  "nisa.tensor_copy"(%d, %s) {name = "load_q"} : (memref<128x64xf32, "sbuf">, memref<64x64xf32, "sbuf">) -> ()
  return
}

// -----

// keepdims = true keeps every reduced axis as a size-1 dimension.
func.func @keepdims_dropped(%d: memref<128x1xf32, "sbuf">, %s: memref<128x4x8xf32, "sbuf">) {
  // expected-error@+1 {{operand 'dst' has shape 128x1 but keepdims = true keeps each reduced axis as size 1: reducing axes [1, 2] of 128x4x8 gives 128x1x1 (rule: reduce keepdims)}}
  "nisa.tensor_reduce_arith"(%d, %s) {op = "add", axis = array<i64: 1, 2>, keepdims = true}
      : (memref<128x1xf32, "sbuf">, memref<128x4x8xf32, "sbuf">) -> ()
  return
}

// -----

// An index tile is [n], [n, 1] or [1, n], as the emulator takes it (a [64, 1, 1] tile verified but
// failed there).
func.func @vector_offset_shape(%t: memref<1024x64xf32, "hbm">, %i: memref<64x1x1xui32, "sbuf">) {
  // expected-error@+1 {{operand 'vector_offset' (64x1x1) must be an [n], [n, 1] or [1, n] tile (rule: vector offset shape)}}
  %v = "nisa.ap"(%t, %i) {pattern = array<i64: 64, 64, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<1024x64xf32, "hbm">, memref<64x1x1xui32, "sbuf">) -> memref<64x64xf32, "hbm">
  return
}

// -----

// A generic indirect load's indices follow the same definition: a 2-D tile is one column or
// one row.
func.func @generic_indices_shape(%d: memref<128x64xbf16, "sbuf">, %s: memref<4096x64xbf16, "hbm">, %i: memref<64x2xui32, "sbuf">) {
  // expected-error@+1 {{operand 'indices' (64x2) must be an [n], [n, 1] or [1, n] tile (rule: vector offset shape)}}
  "nisa.generic_indirect_load"(%d, %s, %i) : (memref<128x64xbf16, "sbuf">, memref<4096x64xbf16, "hbm">, memref<64x2xui32, "sbuf">) -> ()
  return
}

// -----

// A scalar offset is one element.
func.func @scalar_offset_shape(%t: memref<1024x64xf32, "hbm">, %s: memref<2x1xi32, "sbuf">) {
  // expected-error@+1 {{operand 'scalar_offset' (2x1) must hold exactly one element (rule: scalar offset shape)}}
  %v = "nisa.ap"(%t, %s) {pattern = array<i64: 64, 8, 1, 64>, operandSegmentSizes = array<i32: 1, 0, 1>}
      : (memref<1024x64xf32, "hbm">, memref<2x1xi32, "sbuf">) -> memref<8x64xf32, "hbm">
  return
}
