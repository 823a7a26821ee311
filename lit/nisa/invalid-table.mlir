// Table rules of the semantic verifier: attribute names, kinds and values, engines, operand
// spaces and dtypes, and target gating, all read from each op's row in the NISA table.
// RUN: sundial-opt %s -split-input-file -verify-diagnostics

// An attribute the op does not have (dialect-prefixed attributes like sundial.note are
// discardable annotations and pass); the message lists what the op accepts.
func.func @unknown_attr(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{'nisa.tensor_copy' op unknown attribute 'mode' (this op accepts: engine)}}
  "nisa.tensor_copy"(%t, %t) {sundial.note = "ok", mode = 1} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// An op that runs on no engine takes no engine attribute.
func.func @engine_not_an_attr() {
  // expected-error@+1 {{'nisa.alloc' op unknown attribute 'engine' (this op accepts: name)}}
  %a = "nisa.alloc"() {engine = "vector"} : () -> memref<128x64xf32, "sbuf">
  return
}

// -----

// operandSegmentSizes is only an attribute of ops with several optional or variadic groups.
func.func @segments_not_needed(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{unknown attribute 'operandSegmentSizes' (this op accepts: oob_mode, dge_mode, priority, engine)}}
  "nisa.dma_copy"(%t, %t) {operandSegmentSizes = array<i32: 1, 1>} : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// An enum attribute must be a string (an optional one: IRDL only checks required ones).
func.func @enum_kind(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'dge_mode': expected a string, one of unknown|swdge|hwdge|none}}
  "nisa.dma_copy"(%t, %t) {dge_mode = 2} : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// An enum value outside the vocabulary.
func.func @enum_unknown(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'dge_mode': unknown dge_mode "fast" (expected one of unknown|swdge|hwdge|none)}}
  "nisa.dma_copy"(%t, %t) {dge_mode = "fast"} : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// A subset enum (the partition reductions of one ALU form) must be a string too.
func.func @enum_subset_kind(%t: memref<128x128xbf16, "sbuf">) {
  // expected-error@+1 {{attribute 'cmp_op': expected a string, one of is_equal|not_equal|is_gt|is_ge|is_lt|is_le}}
  "nisa.tensor_scalar_affine_select"(%t, %t) {pattern = array<i64: 1, 128>, on_false_value = 0.0 : f32, cmp_op = 1}
      : (memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "sbuf">) -> ()
  return
}

// -----

// An ALU op that exists but is not allowed for this op.
func.func @enum_not_allowed(%d: memref<1x64xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'op': alu_op "subtract" is not allowed here (allowed: add|average|max)}}
  "nisa.cross_lane_reduce_arith"(%d, %s) {op = "subtract"} : (memref<1x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// A spelling that is no ALU op at all.
func.func @enum_subset_unknown(%d: memref<1x64xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'op': unknown alu_op "sum" (allowed here: add|average|max)}}
  "nisa.cross_lane_reduce_arith"(%d, %s) {op = "sum"} : (memref<1x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// A bool attribute written as an integer.
func.func @bool_kind(%t: memref<128x1xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'negate': expected true or false}}
  "nisa.dve_read_accumulator"(%t) {negate = 1} : (memref<128x1xf32, "sbuf">) -> ()
  return
}

// -----

// An integer attribute written as a float.
func.func @int_kind(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'priority': expected an integer}}
  "nisa.dma_copy"(%t, %t) {priority = 1.0 : f32} : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// true / false are MLIR i1 integers, but not integers here (they used to read as -1 / 0).
func.func @int_not_bool(%t: memref<128x8xi32, "sbuf">) {
  // expected-error@+1 {{attribute 'offset': expected an integer}}
  "nisa.iota"(%t) {pattern = array<i64: 1, 8>, offset = true} : (memref<128x8xi32, "sbuf">) -> ()
  return
}

// -----

// An integer outside the attribute's range.
func.func @int_range(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'priority': value 4 is out of range [0, 3]}}
  "nisa.dma_copy"(%t, %t) {priority = 4} : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// An unsigned value is read as unsigned (255 : ui8 used to read as -1).
func.func @int_unsigned(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'priority': value 255 is out of range [0, 3]}}
  "nisa.dma_copy"(%t, %t) {priority = 255 : ui8} : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// An unsigned 64-bit value above i64::MAX does not wrap to a negative number.
func.func @int_u64(%d: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'send_to_rank': value 18446744073709551615 does not fit in a signed 64-bit integer}}
  "nisa.send_recv"(%d, %d) {send_to_rank = 18446744073709551615 : ui64, recv_from_rank = 0}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// An integer wider than 64 bits is refused rather than truncated (2^64 used to read as 0).
func.func @int_wide(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'priority': 128-bit integers are not supported (at most 64 bits)}}
  "nisa.dma_copy"(%t, %t) {priority = 18446744073709551616 : i128} : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// A float attribute written as an integer (arithmetic immediates may be integers on integer
// data: invalid-nki-parity.mlir).
func.func @float_kind(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'max_value': expected a float (e.g. 1.0 : f32)}}
  "nisa.exponential"(%t, %t) {max_value = 1}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// NaN is never a legal immediate.
func.func @float_nan(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'imm0': NaN is not a legal immediate}}
  "nisa.tensor_scalar_arith"(%t, %t) {op0 = "add", imm0 = 0x7FC00000 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// Immediates are f32 on the hardware: a larger f64 does not fit.
func.func @float_f32_range(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'max_value': value 1e300 does not fit in f32}}
  "nisa.exponential"(%t, %t) {max_value = 1.0e300 : f64} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// A number (memset value) may be an integer or a float, but not a bool.
func.func @number_kind(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'value': expected an integer or a float}}
  "nisa.memset"(%t) {value = true} : (memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// A NaN number.
func.func @number_nan(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'value': NaN is not a legal immediate}}
  "nisa.memset"(%t) {value = 0x7FC00000 : f32} : (memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// An i64 array written as i32.
func.func @i64_array_kind(%d: memref<128x512xf32, "psum">, %s: memref<128x128xbf16, "sbuf">, %m: memref<128x512xbf16, "sbuf">) {
  // expected-error@+1 {{attribute 'tile_position': expected array<i64: ...>}}
  "nisa.matmul"(%d, %s, %m) {tile_position = array<i32: 0, 0>}
      : (memref<128x512xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
  return
}

// -----

// An array of fixed length.
func.func @i64_array_exact(%d: memref<128x512xf32, "psum">, %s: memref<128x128xbf16, "sbuf">, %m: memref<128x512xbf16, "sbuf">) {
  // expected-error@+1 {{attribute 'tile_size': expected exactly 2 elements, got 3}}
  "nisa.matmul"(%d, %s, %m) {tile_size = array<i64: 128, 128, 1>}
      : (memref<128x512xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
  return
}

// -----

// An array with a length range (1 to 4 reduce axes).
func.func @i64_array_range(%d: memref<128x1xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'axis': expected 1 to 4 elements, got 0}}
  "nisa.tensor_reduce_arith"(%d, %s) {op = "add", axis = array<i64>} : (memref<128x1xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// A replica group is a list of i64 arrays, not a flat list.
func.func @i64_array_list_kind(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'replica_group': expected an array of array<i64: ...> (e.g. [array<i64: 0, 1>])}}
  "nisa.all_reduce"(%t, %t) {replica_group = [0, 1], op = "add", operandSegmentSizes = array<i32: 1, 1>}
      : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// DMA compute scales are array<f32>.
func.func @f32_array_kind(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'scales': expected array<f32: ...>}}
  "nisa.dma_compute"(%t, %t) {scales = array<f64: 1.0>} : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// A string attribute (an allocation's name).
func.func @str_kind() {
  // expected-error@+1 {{attribute 'name': expected a string}}
  %a = "nisa.alloc"() {name = 7} : () -> memref<128x64xf32, "sbuf">
  return
}

// -----

// The engine attribute must be a string ...
func.func @engine_kind(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'engine': expected a string (one of unknown|tensor|scalar|gpsimd|dma|vector|sync)}}
  "nisa.tensor_copy"(%t, %t) {engine = 5} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// ... naming an engine (the deprecated `vector_engine` aliases are not accepted) ...
func.func @engine_unknown(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'engine': unknown engine "vector_engine" (expected one of unknown|tensor|scalar|gpsimd|dma|vector|sync)}}
  "nisa.tensor_copy"(%t, %t) {engine = "vector_engine"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// ... that runs this op.
func.func @engine_illegal(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{engine "tensor" is not legal for this op (legal: vector, scalar, gpsimd, or unknown) (rule: engine)}}
  "nisa.tensor_copy"(%t, %t) {engine = "tensor"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// PSUM is not readable by DMA.
func.func @operand_space(%s: memref<128x64xf32, "sbuf">, %p: memref<128x64xf32, "psum">) {
  // expected-error@+1 {{operand 'src': memory space "psum" is not allowed (allowed: hbm, sbuf) (rule: operand space)}}
  "nisa.dma_copy"(%s, %p) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "psum">) -> ()
  return
}

// -----

// gather indices are uint32.
func.func @operand_dtype(%d: memref<128x64xf32, "sbuf">, %i: memref<128x64xi32, "sbuf">) {
  // expected-error@+1 {{operand 'indices': dtype i32 is not legal here (legal: ui32) (rule: operand dtype)}}
  "nisa.gather"(%d, %d, %i) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
  return
}

// -----

// tf32 is a matmul mode, with a hint saying so.
func.func @operand_tf32(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xtf32, "sbuf">) {
  // expected-error@+1 {{(tf32 is a matmul mode: only nisa.matmul operands may be tf32) (rule: operand dtype)}}
  "nisa.tensor_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xtf32, "sbuf">) -> ()
  return
}

// -----

// nonzero_with_count is NeuronCore v3+: refused on sunda (v2).
module attributes {sundial.target = "sunda"} {
  func.func @target_v3(%d: memref<16x65xi32, "sbuf">, %s: memref<16x64xf32, "sbuf">) {
    // expected-error@+1 {{'nisa.nonzero_with_count' op is not available on sunda (NeuronCore v2); it needs cayman (v3) or newer (rule: target)}}
    "nisa.nonzero_with_count"(%d, %s) : (memref<16x65xi32, "sbuf">, memref<16x64xf32, "sbuf">) -> ()
    return
  }
}

// -----

// exponential is NeuronCore v4 only: refused on cayman (v3).
module attributes {sundial.target = "cayman"} {
  func.func @target_v4(%t: memref<128x64xf32, "sbuf">) {
    // expected-error@+1 {{is not available on cayman (NeuronCore v3); it needs mariana (v4) or newer (rule: target)}}
    "nisa.exponential"(%t, %t) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    return
  }
}

// -----

// The nearest module's target applies: a v2 module nested in a v4 one.
module attributes {sundial.target = "mariana"} {
  module attributes {sundial.target = "sunda"} {
    func.func @target_nested(%d: memref<16x65xi32, "sbuf">, %s: memref<16x64xf32, "sbuf">) {
      // expected-error@+1 {{'nisa.nonzero_with_count' op is not available on sunda (NeuronCore v2); it needs cayman (v3) or newer (rule: target)}}
      "nisa.nonzero_with_count"(%d, %s) : (memref<16x65xi32, "sbuf">, memref<16x64xf32, "sbuf">) -> ()
      return
    }
  }
}

// -----

// A malformed target on a nested module is reported on that module.
module attributes {sundial.target = "cayman"} {
  // expected-error@+1 {{attribute 'sundial.target': unknown target "v5" (expected sunda|cayman|mariana)}}
  module attributes {sundial.target = "v5"} {
  }
}

// -----

// An unknown target name (the error is on the module).
// expected-error@+1 {{attribute 'sundial.target': unknown target "trn2" (expected sunda|cayman|mariana)}}
module attributes {sundial.target = "trn2"} {
  func.func @target_unknown(%t: memref<128x64xf32, "sbuf">) {
    "nisa.tensor_copy"(%t, %t) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    return
  }
}

// -----

// The target must be a string.
// expected-error@+1 {{attribute 'sundial.target' must be a string (sunda|cayman|mariana)}}
module attributes {sundial.target = 3} {
  func.func @target_kind() {
    return
  }
}
