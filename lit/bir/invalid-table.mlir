// BIR table rules and structure: required opcodes / engine, the engine and opcode
// vocabularies, attribute kinds, static-only operands and EXTENDED_INST byte strings.
// RUN: sundial-opt %s -split-input-file -verify-diagnostics

// A misspelt BIR op.
func.func @unknown_op() {
  // expected-error@+1 {{unregistered operation 'bir.matmul' found in dialect ('bir')}}
  "bir.matmul"() : () -> ()
  return
}

// -----

// BIR ops take no SSA operands: everything is an access-pattern attribute.
func.func @operands(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{op expects exactly 0 operands, but got 1}}
  "bir.reciprocal"(%t) {opcodes = array<i64: 0x48>, engine = "vector"} : (memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// Every BIR op names its opcodes ...
func.func @no_opcodes() {
  // expected-error@+1 {{attribute "opcodes" is expected but not provided}}
  "bir.read_accumulator"() {engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... and its engine.
func.func @no_engine() {
  // expected-error@+1 {{attribute "engine" is expected but not provided}}
  "bir.read_accumulator"() {opcodes = array<i64: 0x9B>,
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "float32"}} : () -> ()
  return
}

// -----

// The engine is a real engine name ...
func.func @engine_unknown_name() {
  // expected-error@+1 {{attribute 'engine': unknown engine "dve" (expected one of unknown|tensor|scalar|gpsimd|dma|vector|sync)}}
  "bir.read_accumulator"() {opcodes = array<i64: 0x9B>, engine = "dve",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... never "unknown" after selection ...
func.func @engine_unknown() {
  // expected-error@+1 {{engine "unknown" is not legal for this op (legal: vector, scalar) (rule: engine)}}
  "bir.read_accumulator"() {opcodes = array<i64: 0x9B>, engine = "unknown",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... and one that runs the instruction.
func.func @engine_illegal() {
  // expected-error@+1 {{engine "dma" is not legal for this op (legal: gpsimd) (rule: engine)}}
  "bir.iota"() {opcodes = array<i64: 0x7E>, engine = "dma", pattern = array<i64: 1, 64>,
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "int32"}} : () -> ()
  return
}

// -----

// opcodes is array<i64> ...
func.func @opcodes_kind() {
  // expected-error@+1 {{attribute 'opcodes': expected array<i64: ...>}}
  "bir.read_accumulator"() {opcodes = array<i32: 0x9B>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... with at least one opcode ...
func.func @opcodes_empty() {
  // expected-error@+1 {{attribute 'opcodes': expected 1 to 64 elements, got 0}}
  "bir.read_accumulator"() {opcodes = array<i64>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... each one of the instruction's opcodes.
func.func @opcode() {
  // expected-error@+1 {{attribute 'opcodes': 0x41 is not an opcode of InstReadAccumulator (legal: 0x24, 0x9B) (rule: opcode)}}
  "bir.read_accumulator"() {opcodes = array<i64: 0x41>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "float32"}} : () -> ()
  return
}

// -----

// Opcodes are bytes.
func.func @opcode_byte() {
  // expected-error@+1 {{attribute 'opcodes': 0x148 is not an opcode of InstReciprocal (legal: 0x48) (rule: opcode)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x148>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// A required access pattern that is not a dictionary is refused while parsing ...
func.func @ap_required_kind() {
  // expected-error@+1 {{expected base attribute 'builtin.dictionary' but got 'builtin.integer'}}
  "bir.read_accumulator"() {opcodes = array<i64: 0x9B>, engine = "vector", dst = 0} : () -> ()
  return
}

// -----

// ... and an optional one by the verifier.
func.func @ap_kind() {
  // expected-error@+1 {{attribute 'reduce_res': expected an access pattern dictionary {space = ..., ...}}}
  "bir.exponential"() {opcodes = array<i64: 0x30>, engine = "vector", reduce_res = "acc",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// Operands that are not tensor-indirect in hardware take static patterns only.
func.func @static_operand() {
  // expected-error@+1 {{attribute 'dst': must be a static access pattern (this operand cannot be tensor-indirect) (rule: static operand)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {kind = "indirect", num_indices = 128,
           index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "uint32"},
           data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 64, pattern = array<i64: 1, 64>, dtype = "float32"}},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// Dropout's threshold dtype is a libBIR dtype name.
func.func @bir_dtype_enum() {
  // expected-error@+1 {{attribute 'threshold_dtype': unknown bir dtype "f32"}}
  "bir.dropout"() {opcodes = array<i64: 0x7F>, engine = "vector", threshold_imm_ptr = 0x23, threshold_dtype = "f32",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// A collective's kind is one of the NISA collectives.
func.func @collective_kind() {
  // expected-error@+1 {{attribute 'kind': unknown collective kind "broadcast"}}
  "bir.collective"() {opcodes = array<i64: 0xC8>, engine = "gpsimd", kind = "broadcast", replica_group = [array<i64: 0, 1>]} : () -> ()
  return
}

// -----

// There are 64 sequencer registers.
func.func @register() {
  // expected-error@+1 {{attribute 'reg': value 64 is out of range [0, 63]}}
  "bir.register_load"() {opcodes = array<i64: 0x4A>, engine = "sync", reg = 64,
    src = {space = "sbuf", partition = 0, num_partitions = 1, offset = 0, pattern = array<i64: 1, 1>, dtype = "int32"}} : () -> ()
  return
}

// -----

// tensor_scalar's immediates are numbers.
func.func @number_kind() {
  // expected-error@+1 {{attribute 'imm0': expected an integer or a float}}
  "bir.tensor_scalar"() {opcodes = array<i64: 0x43>, engine = "vector", op0 = "add", imm0 = "one",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// EXTENDED_INST bytes: the string is not empty ...
func.func @asm_empty() {
  // expected-error@+1 {{attribute 'bytes': the byte string is empty}}
  "bir.inline_asm_bytes"() {opcodes = array<i64: 0xF0>, engine = "gpsimd", bytes = ""} : () -> ()
  return
}

// -----

// ... bytes are two hex digits ...
func.func @asm_hex() {
  // expected-error@+1 {{attribute 'bytes': 'g0' is not a two-hex-digit byte}}
  "bir.inline_asm_bytes"() {opcodes = array<i64: 0xF0>, engine = "gpsimd", bytes = "f0_g0"} : () -> ()
  return
}

// -----

// ... never a lone digit ...
func.func @asm_truncated() {
  // expected-error@+1 {{attribute 'bytes': truncated byte near "0"}}
  "bir.inline_asm_bytes"() {opcodes = array<i64: 0xF0>, engine = "gpsimd", bytes = "f0_0"} : () -> ()
  return
}

// -----

// ... separated by '_' ...
func.func @asm_separator() {
  // expected-error@+1 {{attribute 'bytes': expected '_' between bytes near "10"}}
  "bir.inline_asm_bytes"() {opcodes = array<i64: 0xF0>, engine = "gpsimd", bytes = "f010"} : () -> ()
  return
}

// -----

// ... placeholders are closed ...
func.func @asm_unterminated() {
  // expected-error@+1 {{attribute 'bytes': unterminated placeholder '{'}}
  "bir.inline_asm_bytes"() {opcodes = array<i64: 0xF0>, engine = "gpsimd", bytes = "f0_{srcs[0]:addr"} : () -> ()
  return
}

// -----

// ... written kind:descriptor ...
func.func @asm_descriptor() {
  // expected-error@+1 {{attribute 'bytes': placeholder {srcs[0]} needs 'kind:descriptor'}}
  "bir.inline_asm_bytes"() {opcodes = array<i64: 0xF0>, engine = "gpsimd", bytes = "f0_{srcs[0]}"} : () -> ()
  return
}

// -----

// ... of a known kind ...
func.func @asm_kind() {
  // expected-error@+1 {{attribute 'bytes': unknown placeholder kind 'srcs[x]' (expected events, srcs[N] or dsts[N])}}
  "bir.inline_asm_bytes"() {opcodes = array<i64: 0xF0>, engine = "gpsimd", bytes = "f0_{srcs[x]:addr}"} : () -> ()
  return
}

// -----

// ... and events use the datapath sync type only.
func.func @asm_events() {
  // expected-error@+1 {{attribute 'bytes': only the datapath sync type is supported in {events:...}, got 'semaphore'}}
  "bir.inline_asm_bytes"() {opcodes = array<i64: 0xF0>, engine = "gpsimd", bytes = "f0_{events:semaphore}"} : () -> ()
  return
}
