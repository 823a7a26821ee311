// Structural errors MLIR reports while parsing, from the IRDL generated from the op table:
// unknown ops, operand and result counts and base types, required attributes and
// operandSegmentSizes. The semantic verifier never runs on such ops.
// RUN: sundial-opt %s -split-input-file -verify-diagnostics

// A misspelt op name in the nisa dialect.
func.func @unknown_op(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{unregistered operation 'nisa.tensor_cpy' found in dialect ('nisa')}}
  "nisa.tensor_cpy"(%t, %t) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// Too few operands for an op without optional operands.
func.func @operand_count(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{op expects exactly 3 operands, but got 2}}
  "nisa.tensor_tensor_arith"(%t, %t) {op = "add"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// One optional group (exponential's reduce_res) takes at most one value.
func.func @optional_count(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{op expects at most 3 operands, but got 4}}
  "nisa.exponential"(%t, %t, %t, %t) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// A variadic group still needs the fixed operands (dma_compute's dst and first source).
func.func @variadic_count() {
  // expected-error@+1 {{op expects at least 2 operands, but got 0}}
  "nisa.dma_compute"() : () -> ()
  return
}

// -----

// A required attribute (here the ALU op) is missing.
func.func @missing_required(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute "op" is expected but not provided}}
  "nisa.tensor_tensor_arith"(%t, %t, %t) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// A required enum attribute must be a string.
func.func @required_kind(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{expected base attribute 'builtin.string' but got 'builtin.integer'}}
  "nisa.tensor_tensor_arith"(%t, %t, %t) {op = 4} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// A required number (memset value) must be an integer or a float.
func.func @required_number(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{'"zero"' does not satisfy the constraint}}
  "nisa.memset"(%t) {value = "zero"} : (memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// A tile operand must be a memref, not a tensor.
func.func @tensor_operand(%t: tensor<128x64xf32>, %s: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{expected base type 'builtin.memref' but got 'builtin.tensor'}}
  "nisa.tensor_copy"(%s, %t) : (memref<128x64xf32, "sbuf">, tensor<128x64xf32>) -> ()
  return
}

// -----

// An unranked memref is not a tile either.
func.func @unranked_operand(%t: memref<*xf32>, %s: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{expected base type 'builtin.memref' but got 'builtin.unranked_memref'}}
  "nisa.tensor_copy"(%s, %t) : (memref<128x64xf32, "sbuf">, memref<*xf32>) -> ()
  return
}

// -----

// A register operand must be a !nisa.reg, not a tile ...
func.func @register_operand(%d: memref<1x1xi32, "sbuf">) {
  // expected-error@+1 {{expected base type 'nisa.reg' but got 'builtin.memref'}}
  "nisa.store_register"(%d, %d) : (memref<1x1xi32, "sbuf">, memref<1x1xi32, "sbuf">) -> ()
  return
}

// -----

// ... nor a register of the other dialect.
func.func @bir_register(%d: memref<1x1xi32, "sbuf">, %r: !bir.reg) {
  // expected-error@+1 {{expected base type 'nisa.reg' but got 'bir.reg'}}
  "nisa.store_register"(%d, %r) : (memref<1x1xi32, "sbuf">, !bir.reg) -> ()
  return
}

// -----

// rank_id produces a register, not a tile.
func.func @result_type() {
  // expected-error@+1 {{expected base type 'nisa.reg' but got 'builtin.memref'}}
  %r = "nisa.rank_id"() : () -> memref<1x1xi32, "sbuf">
  return
}

// -----

// An op with several optional groups needs operandSegmentSizes ...
func.func @segments_missing(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{'operandSegmentSizes' attribute is expected but not provided}}
  "nisa.tensor_scalar_arith"(%t, %t) {op0 = "add", imm0 = 1.0 : f32} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// ... with one entry per operand group ...
func.func @segments_length(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{'operandSegmentSizes' attribute for specifying operand segments must have 4 elements, but got 3}}
  "nisa.tensor_scalar_arith"(%t, %t) {op0 = "add", imm0 = 1.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// ... as array<i32> ...
func.func @segments_type(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{'operandSegmentSizes' attribute is expected to be a dense i32 array}}
  "nisa.tensor_scalar_arith"(%t, %t) {op0 = "add", imm0 = 1.0 : f32, operandSegmentSizes = array<i64: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// ... summing to the operand count ...
func.func @segments_sum(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{sum of elements in 'operandSegmentSizes' attribute must be equal to the number of operands}}
  "nisa.tensor_scalar_arith"(%t, %t) {op0 = "add", operandSegmentSizes = array<i32: 1, 1, 1, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// ... never negative ...
func.func @segments_negative(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{'operandSegmentSizes' attribute for specifying operand segments must have non-negative values}}
  "nisa.tensor_scalar_arith"(%t, %t) {op0 = "add", imm0 = 1.0 : f32, operandSegmentSizes = array<i32: 1, 1, -1, 1>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// ... and at most 1 for an optional group.
func.func @segments_optional(%t: memref<128x64xf32, "sbuf">, %c: memref<128x1xf32, "sbuf">) {
  // expected-error@+1 {{element 2 in 'operandSegmentSizes' attribute must be equal to 0 or 1}}
  "nisa.tensor_scalar_arith"(%t, %t, %c, %c) {op0 = "add", operandSegmentSizes = array<i32: 1, 1, 2, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  return
}

// -----

// Every value of a variadic group has the same type (IRDL binds one type per group), so a
// coalesced collective over tensors of different shapes is refused while parsing.
func.func @variadic_types(%a: memref<256x64xf32, "hbm">, %b: memref<16xf32, "hbm">) {
  // expected-error@+1 {{expected 'memref<256x64xf32, "hbm">' but got 'memref<16xf32, "hbm">'}}
  "nisa.all_reduce"(%a, %b, %a, %b) {replica_group = [array<i64: 0, 1>], op = "add", operandSegmentSizes = array<i32: 2, 2>}
      : (memref<256x64xf32, "hbm">, memref<16xf32, "hbm">, memref<256x64xf32, "hbm">, memref<16xf32, "hbm">) -> ()
  return
}
