// Physical access-pattern dictionaries of BIR ops: every decoding error of a static and of a
// tensor-indirect pattern (all reported under the `access pattern` rule).
// RUN: sundial-opt %s -split-input-file -verify-diagnostics

// A static pattern has a closed set of keys.
func.func @unknown_key() {
  // expected-error@+1 {{attribute 'dst': unknown key 'stride' (expected space, partition, num_partitions, offset, start_reg, pattern, dtype, tensor) (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32", stride = 2},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// The space is required ...
func.func @missing_space() {
  // expected-error@+1 {{attribute 'dst': missing 'space' (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... a string ...
func.func @space_kind() {
  // expected-error@+1 {{attribute 'dst': 'space' must be a string (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = 1, partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... naming a memory space.
func.func @space_unknown() {
  // expected-error@+1 {{attribute 'dst': unknown space "dram" (expected hbm|sbuf|psum) (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "dram", offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// Integer keys hold integers.
func.func @int_kind() {
  // expected-error@+1 {{attribute 'dst': 'partition' must be an integer (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = "p0", num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// A bool is not an integer (true used to read as -1).
func.func @int_bool() {
  // expected-error@+1 {{attribute 'dst': 'offset' must be an integer (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = true, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// Integers wider than 64 bits are refused, not truncated.
func.func @int_wide() {
  // expected-error@+1 {{attribute 'dst': 'offset': 128-bit integers are not supported (at most 64 bits) (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 18446744073709551616 : i128, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// The first partition is 0..127 ...
func.func @partition_range() {
  // expected-error@+1 {{attribute 'dst': 'partition' 128 is out of range [0, 127] (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = 128, num_partitions = 1, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... and the partitions stay within the 128.
func.func @partitions_128() {
  // expected-error@+1 {{attribute 'dst': partitions 96..160 exceed the 128 partitions (rule: partitions <= 128) (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "psum", partition = 96, num_partitions = 64, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// An HBM pattern has no partitions.
func.func @hbm_partition() {
  // expected-error@+1 {{attribute 'dst': an HBM pattern has no 'partition' / 'num_partitions' (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "hbm", partition = 0, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// The start is an offset or a register, not both ...
func.func @offset_and_reg() {
  // expected-error@+1 {{attribute 'dst': give 'offset' or 'start_reg', not both (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, start_reg = 3, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... never negative ...
func.func @negative_start() {
  // expected-error@+1 {{attribute 'dst': start -4 is negative (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = -4, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... and a register is one of the 64.
func.func @start_reg() {
  // expected-error@+1 {{attribute 'dst': 'start_reg' 64 is not a register (0..63) (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, start_reg = 64, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// The pattern is required ...
func.func @missing_pattern() {
  // expected-error@+1 {{attribute 'dst': missing 'pattern' (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... an i64 array ...
func.func @pattern_kind() {
  // expected-error@+1 {{attribute 'dst': 'pattern' must be array<i64: step, num, ...> (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = [1, 64], dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... of 1 to 4 [step, num] pairs ...
func.func @pattern_dims() {
  // expected-error@+1 {{attribute 'dst': 'pattern' must hold 1 to 4 [step, num] pairs, got 10 values (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 2, 1, 2, 1, 2, 1, 2, 1, 2>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... steps fit the signed 16-bit field ...
func.func @pattern_step() {
  // expected-error@+1 {{attribute 'dst': step 40000 does not fit the signed 16-bit step field (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 40000, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... and nums are 1..65535.
func.func @pattern_num() {
  // expected-error@+1 {{attribute 'dst': num 0 is out of range [1, 65535] (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 0>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// The dtype is required ...
func.func @missing_dtype() {
  // expected-error@+1 {{attribute 'dst': missing 'dtype' (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... a string ...
func.func @dtype_kind() {
  // expected-error@+1 {{attribute 'dst': 'dtype' must be a string (a libBIR dtype name) (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = f32},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... with a libBIR name (not an MLIR type name).
func.func @dtype_name() {
  // expected-error@+1 {{attribute 'dst': unknown BIR dtype "f32" (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "f32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// A byte offset lies inside the partition (256 KiB of SBUF) ...
func.func @offset_sbuf() {
  // expected-error@+1 {{attribute 'dst': byte offset 262144 is beyond the 262144-byte sbuf partition (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 262144, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... or 16 KiB of PSUM ...
func.func @offset_psum() {
  // expected-error@+1 {{attribute 'dst': byte offset 16384 is beyond the 16384-byte psum partition (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "psum", partition = 0, num_partitions = 128, offset = 16384, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... aligned to the element size.
func.func @alignment() {
  // expected-error@+1 {{attribute 'dst': byte offset 6 is not aligned to 4 bytes for float32 (rule: dtype alignment) (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 6, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// The pattern kind is a string ...
func.func @kind_kind() {
  // expected-error@+1 {{attribute 'dst': 'kind' must be "static" or "indirect" (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {kind = 1, space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... static or indirect.
func.func @kind_name() {
  // expected-error@+1 {{attribute 'dst': unknown pattern kind "strided" (expected static or indirect) (rule: access pattern)}}
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {kind = "strided", space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// An indirect pattern has a closed set of keys ...
func.func @indirect_key() {
  // expected-error@+1 {{attribute 'src': unknown key 'step' in an indirect pattern (expected kind, index, data, num_indices, index_arg) (rule: access pattern)}}
  "bir.generic_indirect_load"() {opcodes = array<i64: 0xBB>, engine = "dma",
    dst = {space = "hbm", offset = 0, pattern = array<i64: 1, 8192>, dtype = "float32"},
    src = {kind = "indirect", num_indices = 128, index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "uint32"}, data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 64, pattern = array<i64: 1, 64>, dtype = "float32"}, step = 1}} : () -> ()
  return
}

// -----

// ... needs its index pattern ...
func.func @indirect_index() {
  // expected-error@+1 {{attribute 'src': missing 'index' (rule: access pattern)}}
  "bir.generic_indirect_load"() {opcodes = array<i64: 0xBB>, engine = "dma",
    dst = {space = "hbm", offset = 0, pattern = array<i64: 1, 8192>, dtype = "float32"},
    src = {kind = "indirect", num_indices = 128, data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 64, pattern = array<i64: 1, 64>, dtype = "float32"}}} : () -> ()
  return
}

// -----

// ... and its data pattern ...
func.func @indirect_data() {
  // expected-error@+1 {{attribute 'src': missing 'data' (rule: access pattern)}}
  "bir.generic_indirect_load"() {opcodes = array<i64: 0xBB>, engine = "dma",
    dst = {space = "hbm", offset = 0, pattern = array<i64: 1, 8192>, dtype = "float32"},
    src = {kind = "indirect", num_indices = 128, index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "uint32"}}} : () -> ()
  return
}

// -----

// ... both valid static patterns ...
func.func @indirect_inner() {
  // expected-error@+1 {{attribute 'src': 'data': missing 'dtype' (rule: access pattern)}}
  "bir.generic_indirect_load"() {opcodes = array<i64: 0xBB>, engine = "dma",
    dst = {space = "hbm", offset = 0, pattern = array<i64: 1, 8192>, dtype = "float32"},
    src = {kind = "indirect", num_indices = 128, index = {space = "sbuf", pattern = array<i64: 1, 1>, dtype = "uint32"}, data = {space = "sbuf", pattern = array<i64: 1, 64>}}} : () -> ()
  return
}

// -----

// ... (the index one too) ...
func.func @indirect_index_inner() {
  // expected-error@+1 {{attribute 'src': 'index': unknown BIR dtype "u32" (rule: access pattern)}}
  "bir.generic_indirect_load"() {opcodes = array<i64: 0xBB>, engine = "dma",
    dst = {space = "hbm", offset = 0, pattern = array<i64: 1, 8192>, dtype = "float32"},
    src = {kind = "indirect", num_indices = 128, index = {space = "sbuf", pattern = array<i64: 1, 1>, dtype = "u32"}, data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 64, pattern = array<i64: 1, 64>, dtype = "float32"}}} : () -> ()
  return
}

// -----

// ... a count of indices ...
func.func @indirect_count() {
  // expected-error@+1 {{attribute 'src': missing 'num_indices' (rule: access pattern)}}
  "bir.generic_indirect_load"() {opcodes = array<i64: 0xBB>, engine = "dma",
    dst = {space = "hbm", offset = 0, pattern = array<i64: 1, 8192>, dtype = "float32"},
    src = {kind = "indirect", index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "uint32"}, data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 64, pattern = array<i64: 1, 64>, dtype = "float32"}}} : () -> ()
  return
}

// -----

// ... that fits the 16-bit NUM field ...
func.func @indirect_count_range() {
  // expected-error@+1 {{attribute 'src': 'num_indices' 65536 does not fit the 16-bit NUM field (rule: access pattern)}}
  "bir.generic_indirect_load"() {opcodes = array<i64: 0xBB>, engine = "dma",
    dst = {space = "hbm", offset = 0, pattern = array<i64: 1, 8192>, dtype = "float32"},
    src = {kind = "indirect", num_indices = 65536, index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "uint32"}, data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 64, pattern = array<i64: 1, 64>, dtype = "float32"}}} : () -> ()
  return
}

// -----

// ... a non-negative index argument ...
func.func @indirect_arg() {
  // expected-error@+1 {{attribute 'src': 'index_arg' must be non-negative (rule: access pattern)}}
  "bir.generic_indirect_load"() {opcodes = array<i64: 0xBB>, engine = "dma",
    dst = {space = "hbm", offset = 0, pattern = array<i64: 1, 8192>, dtype = "float32"},
    src = {kind = "indirect", num_indices = 128, index_arg = -1, index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "uint32"}, data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 64, pattern = array<i64: 1, 64>, dtype = "float32"}}} : () -> ()
  return
}

// -----

// ... an on-chip index ...
func.func @indirect_hbm_index() {
  // expected-error@+1 {{attribute 'src': a tensor-indirect index pattern lives in SBUF or PSUM (rule: access pattern)}}
  "bir.dma_indirect"() {opcodes = array<i64: 0xBB>, engine = "dma",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {kind = "indirect", num_indices = 128, index = {space = "hbm", tensor = 1, offset = 0, pattern = array<i64: 1, 128>, dtype = "uint32"}, data = {space = "hbm", tensor = 0, offset = 0, pattern = array<i64: 64, 128, 1, 64>, dtype = "float32"}}} : () -> ()
  return
}

// -----

// ... HBM data naming its table ...
func.func @indirect_hbm_no_tensor() {
  // expected-error@+1 {{attribute 'src': an HBM data pattern of an indirect access needs 'tensor' (the table the indices address) (rule: access pattern)}}
  "bir.dma_indirect"() {opcodes = array<i64: 0xBB>, engine = "dma",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {kind = "indirect", num_indices = 128, index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "uint32"}, data = {space = "hbm", offset = 0, pattern = array<i64: 64, 128, 1, 64>, dtype = "float32"}}} : () -> ()
  return
}

// -----

// ... and HBM data only on a DMA-indirect transfer.
func.func @indirect_hbm() {
  // expected-error@+1 {{attribute 'src': indirect data in HBM is read only by a DMA-indirect transfer (bir.dma_indirect); compute engines address SBUF/PSUM (rule: indirect data space)}}
  "bir.generic_indirect_load"() {opcodes = array<i64: 0xBB>, engine = "dma",
    dst = {space = "hbm", offset = 0, pattern = array<i64: 1, 8192>, dtype = "float32"},
    src = {kind = "indirect", num_indices = 128, index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "uint32"}, data = {space = "hbm", tensor = 0, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"}}} : () -> ()
  return
}

// -----

// A key without a value (a unit attribute) where a pattern dictionary belongs is reported,
// not read as a dictionary (the C API's dictionary getters made this allocate petabytes and
// abort; found by sundial-fuzz).
func.func @indirect_index_not_a_dict() {
  // expected-error@+1 {{attribute 'src': 'index': expected an access pattern dictionary {space = ..., pattern = ..., ...} (rule: access pattern)}}
  "bir.generic_indirect_load"() {opcodes = array<i64: 0xBB>, engine = "dma",
    dst = {space = "sbuf", partition = 0, num_partitions = 1, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {kind = "indirect", num_indices = 64, index, data = {space = "hbm", offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"}}} : () -> ()
  return
}

// -----

// `tensor` names the HBM tensor of a DMA pattern: an on-chip pattern has none ...
func.func @tensor_on_chip() {
  // expected-error@+1 {{attribute 'dst': 'tensor' names an HBM tensor: a sbuf pattern has none (rule: access pattern)}}
  "bir.dma_copy"() {opcodes = array<i64: 0xB8>, engine = "dma",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32", tensor = 0},
    src = {space = "hbm", tensor = 0, offset = 0, pattern = array<i64: 64, 128, 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... and a tensor index is never negative.
func.func @tensor_negative() {
  // expected-error@+1 {{attribute 'src': 'tensor' -1 is negative (rule: access pattern)}}
  "bir.dma_copy"() {opcodes = array<i64: 0xB8>, engine = "dma",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "hbm", tensor = -1, offset = 0, pattern = array<i64: 64, 128, 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// An HBM pattern feeds a DMA descriptor, whose steps are 32-bit: a step past 2^31 is refused
// (a 16-bit step past 32767 is fine there).
func.func @hbm_step_too_large() {
  // expected-error@+1 {{attribute 'src': step 3000000000 does not fit the DMA's signed 32-bit step field (rule: access pattern)}}
  "bir.dma_copy"() {opcodes = array<i64: 0xB8>, engine = "dma",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "hbm", tensor = 0, offset = 0, pattern = array<i64: 3000000000, 128, 1, 64>, dtype = "float32"}} : () -> ()
  return
}
