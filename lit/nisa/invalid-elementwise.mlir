// Op rules of the elementwise NISA ops: matching shapes, "immediate or tile" operands,
// per-partition operands, op1 pairing, engine restrictions (PSUM on GpSimd, the Scalar and
// GpSimd tensor_scalar forms), selects, predicated copies and fills.
// RUN: sundial-opt %s -split-input-file -verify-diagnostics

// Elementwise operands have dst's shape.
func.func @shapes(%d: memref<128x64xf32, "sbuf">, %a: memref<128x64xf32, "sbuf">, %b: memref<128x32xf32, "sbuf">) {
  // expected-error@+1 {{operand 'rhs' has shape 128x32 but 'dst' has shape 128x64 (rule: shapes agree)}}
  "nisa.tensor_tensor_arith"(%d, %a, %b) {op = "add"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x32xf32, "sbuf">) -> ()
  return
}

// -----

// tensor_tensor cannot read both operands from PSUM.
func.func @both_psum(%d: memref<128x64xf32, "sbuf">, %p: memref<128x64xf32, "psum">) {
  // expected-error@+1 {{operands 'lhs' and 'rhs' cannot both be in PSUM (rule: tensor_tensor psum)}}
  "nisa.tensor_tensor_arith"(%d, %p, %p) {op = "mult"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "psum">, memref<128x64xf32, "psum">) -> ()
  return
}

// -----

// GpSimd cannot access PSUM.
func.func @gpsimd_psum(%d: memref<128x64xi32, "psum">, %a: memref<128x64xi32, "sbuf">) {
  // expected-error@+1 {{operand 'dst': GpSimd engine cannot access PSUM (rule: gpsimd psum)}}
  "nisa.tensor_tensor_arith"(%d, %a, %a) {op = "add", engine = "gpsimd"} : (memref<128x64xi32, "psum">, memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
  return
}

// -----

// The same rule on a GpSimd memset.
func.func @gpsimd_psum_memset(%d: memref<128x64xf32, "psum">) {
  // expected-error@+1 {{operand 'dst': GpSimd engine cannot access PSUM (rule: gpsimd psum)}}
  "nisa.memset"(%d) {value = 0, engine = "gpsimd"} : (memref<128x64xf32, "psum">) -> ()
  return
}

// -----

// tensor_scalar needs imm0 or operand0 ...
func.func @imm_or_tile_neither(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{needs attribute 'imm0' or operand 'operand0' (rule: immediate or tile)}}
  "nisa.tensor_scalar_arith"(%t, %t) {op0 = "add", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// ... not both ...
func.func @imm_or_tile_both(%t: memref<128x64xf32, "sbuf">, %c: memref<128x1xf32, "sbuf">) {
  // expected-error@+1 {{give either attribute 'imm0' or operand 'operand0', not both (rule: immediate or tile)}}
  "nisa.tensor_scalar_arith"(%t, %t, %c) {op0 = "add", imm0 = 1.0 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  return
}

// -----

// ... and the tile is a [P, 1] column of data's partitions.
func.func @per_partition(%t: memref<128x64xf32, "sbuf">, %c: memref<128x2xf32, "sbuf">) {
  // expected-error@+1 {{operand 'operand0' must be a [128, 1] per-partition tile, got 128x2 (rule: per-partition operand)}}
  "nisa.tensor_scalar_arith"(%t, %t, %c) {op0 = "add", operandSegmentSizes = array<i32: 1, 1, 1, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x2xf32, "sbuf">) -> ()
  return
}

// -----

// imm1 without op1 ...
func.func @op1_missing(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{'imm1'/'operand1' given without attribute 'op1' (rule: op1 pairs)}}
  "nisa.tensor_scalar_arith"(%t, %t) {op0 = "add", imm0 = 1.0 : f32, imm1 = 2.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// ... op1 without its operand (bit-vector form) ...
func.func @op1_operand(%t: memref<128x64xi32, "sbuf">) {
  // expected-error@+1 {{attribute 'op1' needs 'imm1' (rule: op1 pairs)}}
  "nisa.tensor_scalar_bitvec"(%t, %t) {op0 = "bitwise_and", imm0 = 1, op1 = "bitwise_or"}
      : (memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
  return
}

// -----

// ... and op1's operand as both an immediate and a tile.
func.func @op1_both(%t: memref<128x64xf32, "sbuf">, %c: memref<128x1xf32, "sbuf">) {
  // expected-error@+1 {{give either attribute 'imm1' or its tile operand, not both (rule: immediate or tile)}}
  "nisa.tensor_scalar_arith"(%t, %t, %c) {op0 = "add", imm0 = 1.0 : f32, op1 = "mult", imm1 = 2.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 1>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  return
}

// -----

// operand1 is per-partition too.
func.func @operand1_per_partition(%t: memref<128x64xf32, "sbuf">, %c: memref<64x1xf32, "sbuf">) {
  // expected-error@+1 {{operand 'operand1' must be a [128, 1] per-partition tile, got 64x1 (rule: per-partition operand)}}
  "nisa.tensor_scalar_arith"(%t, %t, %c) {op0 = "add", imm0 = 1.0 : f32, op1 = "mult", operandSegmentSizes = array<i32: 1, 1, 0, 1>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<64x1xf32, "sbuf">) -> ()
  return
}

// -----

// tensor_scalar on GpSimd is only rsqrt.
func.func @gpsimd_tensor_scalar(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{tensor_scalar on GpSimd is only allowed for rsqrt (rule: gpsimd tensor_scalar)}}
  "nisa.tensor_scalar_arith"(%t, %t) {op0 = "add", imm0 = 1.0 : f32, engine = "gpsimd", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// tensor_scalar on the Scalar engine before NeuronCore v4: (mult, add), (mult, -), (add, -).
module attributes {sundial.target = "cayman"} {
  func.func @scalar_tensor_scalar(%t: memref<128x64xf32, "sbuf">) {
    // expected-error@+1 {{tensor_scalar on the Scalar engine supports only (mult, add), (mult, -) and (add, -) (rule: scalar tensor_scalar)}}
    "nisa.tensor_scalar_arith"(%t, %t) {op0 = "max", imm0 = 0.0 : f32, engine = "scalar", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    return
  }
}

// -----

// tensor_scalar_reduce's accumulator is a [P, 1] column.
func.func @reduce_res(%t: memref<128x64xf32, "sbuf">, %r: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{operand 'reduce_res' must be a [128, 1] per-partition tile, got 128x64 (rule: per-partition operand)}}
  "nisa.tensor_scalar_cache_reduce"(%t, %t, %r) {op0 = "add", imm0 = 1.0 : f32, reduce_op = "add", operandSegmentSizes = array<i32: 1, 1, 0, 1>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// A scan's initial value is an immediate or a [P, 1] tile.
func.func @scan_initial(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{needs attribute 'initial_value' or operand 'initial' (rule: immediate or tile)}}
  "nisa.tensor_tensor_scan"(%t, %t, %t) {op0 = "add", op1 = "add"}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// scalar_tensor_tensor's second tensor has dst's shape.
func.func @stt_shape(%d: memref<128x64xf32, "sbuf">, %o: memref<128x32xf32, "sbuf">) {
  // expected-error@+1 {{operand 'operand1' has shape 128x32 but 'dst' has shape 128x64 (rule: shapes agree)}}
  "nisa.scalar_tensor_tensor_arith"(%d, %d, %o) {op0 = "add", imm0 = 1.0 : f32, op1 = "mult"}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x32xf32, "sbuf">) -> ()
  return
}

// -----

// select_reduce's on_false is a tile or a value ...
func.func @select_neither(%d: memref<128x64xf32, "sbuf">, %p: memref<128x64xui8, "sbuf">) {
  // expected-error@+1 {{needs operand 'on_false' or attribute 'on_false_value' (rule: immediate or tile)}}
  "nisa.select_reduce"(%d, %p, %d) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xui8, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// ... not both ...
func.func @select_both(%d: memref<128x64xf32, "sbuf">, %p: memref<128x64xui8, "sbuf">) {
  // expected-error@+1 {{give either operand 'on_false' or attribute 'on_false_value', not both (rule: immediate or tile)}}
  "nisa.select_reduce"(%d, %p, %d, %d) {on_false_value = 0.0 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xui8, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// ... and a tile on_false is NKI's "vector of shape (on_true.shape[0], 1)", one value per
// partition (it was required to have dst's shape, which the emulator refuses).
func.func @select_on_false_shape(%d: memref<128x64xf32, "sbuf">, %p: memref<128x64xui8, "sbuf">, %f: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{operand 'on_false' must be a [128, 1] per-partition tile, got 128x64 (rule: per-partition operand)}}
  "nisa.select_reduce"(%d, %p, %d, %f) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xui8, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// on_true and predicate cannot both be in PSUM.
func.func @select_psum(%d: memref<128x64xf32, "sbuf">, %p: memref<128x64xui8, "psum">, %t: memref<128x64xf32, "psum">) {
  // expected-error@+1 {{operands 'on_true' and 'predicate' cannot both be in PSUM (rule: select_reduce psum)}}
  "nisa.select_reduce"(%d, %p, %t) {on_false_value = 0.0 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xui8, "psum">, memref<128x64xf32, "psum">) -> ()
  return
}

// -----

// reduce_res is a float tile ...
func.func @select_int_res(%d: memref<128x64xf32, "sbuf">, %p: memref<128x64xui8, "sbuf">, %r: memref<128x1xi32, "sbuf">) {
  // expected-error@+1 {{operand 'reduce_res': dtype i32 is not legal here}}
  "nisa.select_reduce"(%d, %p, %d, %r) {on_false_value = 0.0 : f32, reduce_cmd = "reset_reduce", operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xui8, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xi32, "sbuf">) -> ()
  return
}

// -----

// ... that needs a reduction to read (the default idle leaves none) ...
func.func @select_idle_res(%d: memref<128x64xf32, "sbuf">, %p: memref<128x64xui8, "sbuf">, %r: memref<128x1xf32, "sbuf">) {
  // expected-error@+1 {{operand 'reduce_res' needs reduce_cmd reset_reduce or reduce: with idle the accumulators hold no result (rule: max-reduce command)}}
  "nisa.select_reduce"(%d, %p, %d, %r) {on_false_value = 0.0 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xui8, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  return
}

// -----

// ... and the max-reduce starts, continues or idles: no load_reduce.
func.func @select_load_reduce(%d: memref<128x64xf32, "sbuf">, %p: memref<128x64xui8, "sbuf">) {
  // expected-error@+1 {{attribute 'reduce_cmd': select_reduce takes idle, reset_reduce or reduce, not load_reduce (rule: max-reduce command)}}
  "nisa.select_reduce"(%d, %p, %d) {on_false_value = 0.0 : f32, reduce_cmd = "load_reduce", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xui8, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// copy_predicated: src and predicate cannot both be in PSUM.
func.func @copy_predicated_psum(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "psum">, %p: memref<128x64xui8, "psum">) {
  // expected-error@+1 {{operands 'src' and 'predicate' cannot both be in PSUM (rule: copy_predicated psum)}}
  "nisa.copy_predicated"(%d, %s, %p) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "psum">, memref<128x64xui8, "psum">) -> ()
  return
}

// -----

// scalar_tensor_tensor: data and operand1 cannot both be in PSUM.
func.func @stt_psum(%d: memref<128x64xf32, "sbuf">, %x: memref<128x64xf32, "psum">) {
  // expected-error@+1 {{operands 'data' and 'operand1' cannot both be in PSUM (rule: scalar_tensor_tensor psum)}}
  "nisa.scalar_tensor_tensor_arith"(%d, %x, %x) {op0 = "add", op1 = "mult", imm0 = 1.0 : f32}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "psum">, memref<128x64xf32, "psum">) -> ()
  return
}

// -----

// tensor_tensor_scan: data0 and data1 cannot both be in PSUM.
func.func @scan_psum(%d: memref<128x64xf32, "sbuf">, %x: memref<128x64xf32, "psum">) {
  // expected-error@+1 {{operands 'data0' and 'data1' cannot both be in PSUM (rule: tensor_tensor_scan psum)}}
  "nisa.tensor_tensor_scan"(%d, %x, %x) {op0 = "mult", op1 = "add", initial_value = 0.0 : f32}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "psum">, memref<128x64xf32, "psum">) -> ()
  return
}

// -----

// on_true cannot be a 32-bit integer.
func.func @select_dtype(%d: memref<128x64xi32, "sbuf">, %p: memref<128x64xui8, "sbuf">) {
  // expected-error@+1 {{operand 'on_true' cannot be int32/uint32 (rule: select_reduce dtype)}}
  "nisa.select_reduce"(%d, %p, %d) {on_false_value = 0.0 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}
      : (memref<128x64xi32, "sbuf">, memref<128x64xui8, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
  return
}

// -----

// A predicated copy does not convert.
func.func @copy_predicated_dtype(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xbf16, "sbuf">, %p: memref<128x64xui8, "sbuf">) {
  // expected-error@+1 {{operand 'src' (bf16) and 'dst' (f32) must have the same dtype (rule: same dtype)}}
  "nisa.copy_predicated"(%d, %s, %p) : (memref<128x64xf32, "sbuf">, memref<128x64xbf16, "sbuf">, memref<128x64xui8, "sbuf">) -> ()
  return
}

// -----

// An MX x4 tile can only be zeroed.
func.func @x4_memset(%d: memref<128x16xvector<4xf8E5M2>, "sbuf">) {
  // expected-error@+1 {{memset of an x4 MX tile only supports value 0 (rule: x4 memset)}}
  "nisa.memset"(%d) {value = 1.0 : f32} : (memref<128x16xvector<4xf8E5M2>, "sbuf">) -> ()
  return
}

// -----

// tensor_copy keeps the element count.
func.func @copy_count(%d: memref<128x64xf32, "sbuf">, %s: memref<128x32xf32, "sbuf">) {
  // expected-error@+1 {{operand 'src' (128x32) and 'dst' (128x64) must have the same number of elements (rule: element counts agree)}}
  "nisa.tensor_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x32xf32, "sbuf">) -> ()
  return
}

// -----

// NeuronCore v2's Scalar engine has no tensor_copy.
module attributes {sundial.target = "sunda"} {
  func.func @scalar_copy(%t: memref<128x64xf32, "sbuf">) {
    // expected-error@+1 {{tensor_copy is not available on the Scalar engine of NeuronCore v2 (rule: scalar tensor_copy)}}
    "nisa.tensor_copy"(%t, %t) {engine = "scalar"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    return
  }
}
