// BIR op rules: micro-pair opcode sequences, shuffle masks, transpose patterns, target
// gating, RangeSelect's fill, element counts, local_gather's indirect source, dropout, and the
// MX scale rules (same indirection as the data, scales in SBUF).
// RUN: sundial-opt %s -split-input-file -verify-diagnostics

// StreamShuffle is the pair {0x6A, 0x69} ...
func.func @shuffle_sequence() {
  // expected-error@+1 {{attribute 'opcodes': expected [0x6A, 0x69], got [0x69, 0x6A]: StreamShuffle lowers to {0x6A, 0x69} (rule: opcode sequence)}}
  "bir.stream_shuffle"() {opcodes = array<i64: 0x69, 0x6A>, engine = "vector",
    shuffle_mask = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31>,
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... whose mask entries are 0..31 or 255.
func.func @shuffle_mask() {
  // expected-error@+1 {{attribute 'shuffle_mask': entries are 0..31 or 255 (rule: mask entries)}}
  "bir.stream_shuffle"() {opcodes = array<i64: 0x6A, 0x69>, engine = "vector",
    shuffle_mask = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, -1>,
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// StreamTranspose to 32 or more partitions needs the 0x69 companion ...
func.func @transpose_wide() {
  // expected-error@+1 {{attribute 'opcodes': expected [0x6B, 0x69], got [0x6B]: StreamTranspose is {0x6B}, or {0x6B, 0x69} when dst has >= 32 partitions (rule: opcode sequence)}}
  "bir.stream_transpose"() {opcodes = array<i64: 0x6B>, engine = "vector", lane_mask = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31>,
    dst = {space = "sbuf", partition = 0, num_partitions = 32, offset = 0, pattern = array<i64: 1, 32>, dtype = "bfloat16"},
    src = {space = "sbuf", partition = 32, num_partitions = 32, offset = 0, pattern = array<i64: 1, 32>, dtype = "bfloat16"}} : () -> ()
  return
}

// -----

// ... and below 32 it is a single 0x6B.
func.func @transpose_narrow() {
  // expected-error@+1 {{attribute 'opcodes': expected [0x6B], got [0x6B, 0x69]}}
  "bir.stream_transpose"() {opcodes = array<i64: 0x6B, 0x69>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 16, offset = 0, pattern = array<i64: 1, 32>, dtype = "bfloat16"},
    src = {space = "sbuf", partition = 32, num_partitions = 32, offset = 0, pattern = array<i64: 1, 16>, dtype = "bfloat16"}} : () -> ()
  return
}

// -----

// The wide transpose carries the lane map of its 0x69 half ...
func.func @transpose_no_mask() {
  // expected-error@+1 {{attribute 'lane_mask': the wide transpose {0x6B, 0x69} needs the 32-lane map of its 0x69 half (rule: transpose lane mask)}}
  "bir.stream_transpose"() {opcodes = array<i64: 0x6B, 0x69>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 32, offset = 0, pattern = array<i64: 1, 32>, dtype = "bfloat16"},
    src = {space = "sbuf", partition = 32, num_partitions = 32, offset = 0, pattern = array<i64: 1, 32>, dtype = "bfloat16"}} : () -> ()
  return
}

// -----

// ... which the narrow one has no bundle for.
func.func @transpose_narrow_mask() {
  // expected-error@+1 {{attribute 'lane_mask': a transpose to fewer than 32 partitions is {0x6B} alone, with no 0x69 half to hold a lane map (rule: transpose lane mask)}}
  "bir.stream_transpose"() {opcodes = array<i64: 0x6B>, engine = "vector", lane_mask = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31>,
    dst = {space = "sbuf", partition = 0, num_partitions = 16, offset = 0, pattern = array<i64: 1, 32>, dtype = "bfloat16"},
    src = {space = "sbuf", partition = 32, num_partitions = 32, offset = 0, pattern = array<i64: 4, 4, 1, 4>, dtype = "bfloat16"}} : () -> ()
  return
}

// -----

// A 4-D transpose source has num 1 in its outermost dimension.
func.func @transpose_num3() {
  // expected-error@+1 {{attribute 'src': instr.src_mem_pattern.num_elem[3] == 1 failed (rule: transpose num_elem[3])}}
  "bir.stream_transpose"() {opcodes = array<i64: 0x6B>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 16, offset = 0, pattern = array<i64: 1, 32>, dtype = "bfloat16"},
    src = {space = "sbuf", partition = 32, num_partitions = 32, offset = 0, pattern = array<i64: 0, 2, 8, 2, 4, 2, 1, 4>, dtype = "bfloat16"}} : () -> ()
  return
}

// -----

// Gather emits {0x68, 0x67} per 512 indices: 1024 indices need two pairs.
func.func @gather_chunks() {
  // expected-error@+1 {{attribute 'opcodes': expected [0x68, 0x67, 0x68, 0x67], got [0x68, 0x67]: Gather emits {0x68, 0x67} once per 512-element chunk (2 chunks) (rule: opcode sequence)}}
  "bir.gather"() {opcodes = array<i64: 0x68, 0x67>, engine = "gpsimd",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1024>, dtype = "bfloat16"},
    data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 2048, pattern = array<i64: 1, 2048>, dtype = "bfloat16"},
    index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 8192, pattern = array<i64: 1, 1024>, dtype = "uint32"}} : () -> ()
  return
}

// -----

// An index pattern of 65535^4 elements is reported, not expanded (this used to crash).
func.func @gather_huge() {
  // expected-error@+1 {{attribute 'opcodes': Gather emits {0x68, 0x67} once per 512-element chunk (18014398509481984 chunks), more than one instruction's 64 opcodes hold (rule: opcode sequence)}}
  "bir.gather"() {opcodes = array<i64: 0x68, 0x67>, engine = "gpsimd",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 512>, dtype = "float32"},
    data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 4096, pattern = array<i64: 1, 1024>, dtype = "float32"},
    index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 8192, pattern = array<i64: 1, 65535, 1, 65535, 1, 65535, 1, 65535>, dtype = "uint32"}} : () -> ()
  return
}

// -----

// Matmult is {LdWeights 0x01, Matmul 0x02}.
func.func @matmult_sequence() {
  // expected-error@+1 {{attribute 'opcodes': expected [0x01, 0x02], got [0x02]: Matmult is {LdWeights 0x01, Matmul 0x02} (rule: opcode sequence)}}
  "bir.matmult"() {opcodes = array<i64: 0x02>, engine = "tensor",
    dst = {space = "psum", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 512>, dtype = "float32"},
    stationary = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 128>, dtype = "bfloat16"},
    moving = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 512>, dtype = "bfloat16"}} : () -> ()
  return
}

// -----

// RangeSelect is {0xBC, 0x9B} ...
func.func @range_select_sequence() {
  // expected-error@+1 {{attribute 'opcodes': expected [0xBC, 0x9B], got [0xBC]: RangeSelect is {0xBC, 0x9B} (rule: opcode sequence)}}
  "bir.range_select"() {opcodes = array<i64: 0xBC>, engine = "vector", comp_op0 = "is_ge", comp_op1 = "is_lt", bound0 = 0.0 : f32, bound1 = 8.0 : f32,
    reduce_res = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 1>, dtype = "float32"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... a CoreV3 instruction ...
module attributes {sundial.target = "sunda"} {
  func.func @range_select_target() {
    // expected-error@+1 {{RangeSelect is a CoreV3 instruction: not available on sunda (rule: target)}}
    "bir.range_select"() {opcodes = array<i64: 0xBC, 0x9B>, engine = "vector", comp_op0 = "is_ge", comp_op1 = "is_lt", bound0 = 0.0 : f32, bound1 = 8.0 : f32,
      reduce_res = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 1>, dtype = "float32"},
      dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
      src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
    return
  }
}

// -----

// ... whose fill value is -FLT_MAX ...
func.func @range_select_fill() {
  // expected-error@+1 {{attribute 'fill_value': fill_val in RangeSelect must be float MAX_NEG (rule: range_select fill)}}
  "bir.range_select"() {opcodes = array<i64: 0xBC, 0x9B>, engine = "vector", comp_op0 = "is_ge", comp_op1 = "is_lt", bound0 = 0.0 : f32, bound1 = 8.0 : f32,
    fill_value = 0.0 : f32,
    reduce_res = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 1>, dtype = "float32"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... whose bounds are each an immediate or an operand pattern ...
func.func @range_select_bound() {
  // expected-error@+1 {{attributes 'bound1' / 'bound1_ap': a RangeSelect bound is an immediate or an operand pattern, exactly one of them (rule: range_select bound)}}
  "bir.range_select"() {opcodes = array<i64: 0xBC, 0x9B>, engine = "vector", comp_op0 = "is_ge", comp_op1 = "is_lt", bound0 = 0.0 : f32,
    reduce_res = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 1>, dtype = "float32"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... whose accumulator command is idle, reduce or reset_reduce ...
func.func @range_select_cmd() {
  // expected-error@+1 {{attribute 'reduce_cmd': 'load_reduce': RangeSelect's ACCUM_CMD is IDLE, ACCUMULATE or ZERO_ACCUMULATE (idle, reduce, reset_reduce) (rule: range_select reduce_cmd)}}
  "bir.range_select"() {opcodes = array<i64: 0xBC, 0x9B>, engine = "vector", comp_op0 = "is_ge", comp_op1 = "is_lt", bound0 = 0.0 : f32, bound1 = 8.0 : f32,
    reduce_cmd = "load_reduce",
    reduce_res = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 1>, dtype = "float32"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... whose indices stay exact in fp32 ...
func.func @range_select_base() {
  // expected-error@+1 {{attribute 'range_start': 16777200 + 64 indices passes 2^24: base + count <= 2^24 (rule: range_select base)}}
  "bir.range_select"() {opcodes = array<i64: 0xBC, 0x9B>, engine = "vector", comp_op0 = "is_ge", comp_op1 = "is_lt", bound0 = 0.0 : f32, bound1 = 8.0 : f32,
    range_start = 16777200,
    reduce_res = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 1>, dtype = "float32"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... and that keeps the element count.
func.func @range_select_count() {
  // expected-error@+1 {{attributes 'src' (8192 elements) and 'dst' (4096 elements): inNumEles == outNumEles failed (rule: element counts agree)}}
  "bir.range_select"() {opcodes = array<i64: 0xBC, 0x9B>, engine = "vector", comp_op0 = "is_ge", comp_op1 = "is_lt", bound0 = 0.0 : f32, bound1 = 8.0 : f32,
    reduce_res = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 1>, dtype = "float32"},
    dst = {space = "sbuf", partition = 0, num_partitions = 64, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// INDIRECT_COPY must not have a static source ...
func.func @indirect_copy_source() {
  // expected-error@+1 {{attribute 'src': INDIRECT_COPY is a prototype instruction of Tensor Indirect on TRN1, it must not have a static source (rule: indirect_copy source)}}
  "bir.indirect_copy"() {opcodes = array<i64: 0xE7>, engine = "gpsimd",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 8>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 128, pattern = array<i64: 1, 8>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... and is one bundle.
func.func @indirect_copy_single() {
  // expected-error@+1 {{attribute 'opcodes': this instruction is one bundle, got 2 opcodes (rule: opcode sequence)}}
  "bir.indirect_copy"() {opcodes = array<i64: 0xE7, 0xE7>, engine = "gpsimd",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 8>, dtype = "float32"},
    src = {kind = "indirect", num_indices = 64,
           index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 64, pattern = array<i64: 1, 4>, dtype = "uint16"},
           data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 128, pattern = array<i64: 1, 32>, dtype = "float32"}}} : () -> ()
  return
}

// -----

// Dropout keeps the dtype ...
func.func @dropout_dtype() {
  // expected-error@+1 {{attributes 'src' and 'dst': d3_dropout_same_src_dst_type failed (rule: same src/dst dtype)}}
  "bir.dropout"() {opcodes = array<i64: 0x7F>, engine = "vector", threshold_imm_ptr = 0x23, threshold_dtype = "float32",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "bfloat16"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// -----

// ... and the element count.
func.func @dropout_count() {
  // expected-error@+1 {{attributes 'src' (4096 elements) and 'dst' (8192 elements): d3_dropout_src_dst_count_check failed (rule: element counts agree)}}
  "bir.dropout"() {opcodes = array<i64: 0x7F>, engine = "vector", threshold_imm_ptr = 0x23, threshold_dtype = "float32",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 32>, dtype = "float32"}} : () -> ()
  return
}

// -----

// MX instructions are CoreV4 only.
module attributes {sundial.target = "cayman"} {
  func.func @mx_target() {
    // expected-error@+1 {{MX instructions are CoreV4 (mariana) only (rule: target)}}
    "bir.quantize_mx"() {opcodes = array<i64: 0xE3>, engine = "vector",
      src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 512>, dtype = "bfloat16"},
      dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 2048, pattern = array<i64: 1, 128>, dtype = "float8_e4m3fn_x4"},
      dst_scale = {space = "sbuf", partition = 0, num_partitions = 16, offset = 4096, pattern = array<i64: 1, 128>, dtype = "float8_e8m0fnu"}} : () -> ()
    return
  }
}

// -----

// An indirect MX operand needs an indirect scale ...
func.func @mx_scale_static() {
  // expected-error@+1 {{attribute 'moving_scale': If the argument of matmult MX is indirect, the corresponding scale should also have indirection ('moving' is indirect) (rule: MX scale indirection)}}
  "bir.matmult_mx"() {opcodes = array<i64: 0x09, 0x0A>, engine = "tensor",
    dst = {space = "psum", partition = 0, num_partitions = 64, offset = 0, pattern = array<i64: 1, 256>, dtype = "float32"},
    stationary = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float8_e5m2_x4"},
    stationary_scale = {space = "sbuf", partition = 0, num_partitions = 16, offset = 256, pattern = array<i64: 1, 64>, dtype = "uint8"},
    moving = {kind = "indirect", num_indices = 128,
              index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 1>, dtype = "uint32"},
              data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 256>, dtype = "float8_e5m2_x4"}},
    moving_scale = {space = "sbuf", partition = 0, num_partitions = 16, offset = 2048, pattern = array<i64: 1, 256>, dtype = "uint8"}} : () -> ()
  return
}

// -----

// ... an indirect scale needs an indirect operand ...
func.func @mx_data_static() {
  // expected-error@+1 {{attribute 'stationary': DataAP must be a Tensor Indirect AP when its scale 'stationary_scale' is indirect (rule: MX scale indirection)}}
  "bir.matmult_mx"() {opcodes = array<i64: 0x09, 0x0A>, engine = "tensor",
    dst = {space = "psum", partition = 0, num_partitions = 64, offset = 0, pattern = array<i64: 1, 256>, dtype = "float32"},
    stationary = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float8_e5m2_x4"},
    stationary_scale = {kind = "indirect", num_indices = 128,
                        index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 1>, dtype = "uint32"},
                        data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 2048, pattern = array<i64: 1, 64>, dtype = "uint8"}},
    moving = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 256>, dtype = "float8_e5m2_x4"},
    moving_scale = {space = "sbuf", partition = 0, num_partitions = 16, offset = 4096, pattern = array<i64: 1, 256>, dtype = "uint8"}} : () -> ()
  return
}

// -----

// ... with exactly the same indirection (here: another index argument).
func.func @mx_same_indirection() {
  // expected-error@+1 {{attribute 'dst_scale': Furthermore, the corresponding scale must have exactly the same indirection as the argument 'dst' (rule: MX scale indirection)}}
  "bir.quantize_mx"() {opcodes = array<i64: 0xE3>, engine = "vector",
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 512>, dtype = "bfloat16"},
    dst = {kind = "indirect", num_indices = 128, index_arg = 2,
           index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 1>, dtype = "uint32"},
           data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 2048, pattern = array<i64: 1, 128>, dtype = "float8_e4m3fn_x4"}},
    dst_scale = {kind = "indirect", num_indices = 128, index_arg = 3,
                 index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 1>, dtype = "uint32"},
                 data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 4096, pattern = array<i64: 1, 128>, dtype = "float8_e8m0fnu"}}} : () -> ()
  return
}

// -----

// MX scales live in SBUF (static ...
func.func @mx_scale_space() {
  // expected-error@+1 {{attribute 'dst_scale': MX Scale Tensor can only be in SB (rule: MX scale space)}}
  "bir.quantize_mx"() {opcodes = array<i64: 0xE3>, engine = "vector",
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 512>, dtype = "bfloat16"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 2048, pattern = array<i64: 1, 128>, dtype = "float8_e4m3fn_x4"},
    dst_scale = {space = "psum", partition = 0, num_partitions = 16, offset = 0, pattern = array<i64: 1, 128>, dtype = "float8_e8m0fnu"}} : () -> ()
  return
}

// -----

// ... and indirect).
func.func @mx_scale_space_indirect() {
  // expected-error@+1 {{attribute 'dst_scale': MX Scale Tensor can only be in SB (rule: MX scale space)}}
  "bir.quantize_mx"() {opcodes = array<i64: 0xE3>, engine = "vector",
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 512>, dtype = "bfloat16"},
    dst = {kind = "indirect", num_indices = 128,
           index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 1>, dtype = "uint32"},
           data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 2048, pattern = array<i64: 1, 128>, dtype = "float8_e4m3fn_x4"}},
    dst_scale = {kind = "indirect", num_indices = 128,
                 index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 1>, dtype = "uint32"},
                 data = {space = "psum", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 128>, dtype = "float8_e8m0fnu"}}} : () -> ()
  return
}

// -----

// The dtype-dispatch rule (with a known target): 0x8a is sunda's bf16 add, not an fp32 one ...
module attributes {sundial.target = "sunda"} {
  func.func @dispatch_bf16_opcode_on_f32() {
    // expected-error@+1 {{attribute 'opcodes': [0x8A] is not what the ISA table selects on sunda for add of float32, float32 -> float32 on vector ([0x41]) (rule: dtype dispatch)}}
    "bir.tensor_tensor"() {opcodes = array<i64: 0x8A>, engine = "vector", op = "add",
      dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
      src0 = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"},
      src1 = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
    return
  }
}

// -----

// ... a bf16 add on sunda is 0x8a, not 0x41 ...
module attributes {sundial.target = "sunda"} {
  func.func @dispatch_plain_opcode_on_bf16() {
    // expected-error@+1 {{attribute 'opcodes': [0x41] is not what the ISA table selects on sunda for add of bfloat16, bfloat16 -> bfloat16 on vector ([0x8A]) (rule: dtype dispatch)}}
    "bir.tensor_tensor"() {opcodes = array<i64: 0x41>, engine = "vector", op = "add",
      dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "bfloat16"},
      src0 = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "bfloat16"},
      src1 = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 64>, dtype = "bfloat16"}} : () -> ()
    return
  }
}

// -----

// ... and a dtype-changing copy is the cast 0x47.
module attributes {sundial.target = "cayman"} {
  func.func @dispatch_copy_that_casts() {
    // expected-error@+1 {{attribute 'opcodes': [0x46] is not what the ISA table selects on cayman for bfloat16 -> float32 on vector ([0x47]) (rule: dtype dispatch)}}
    "bir.tensor_copy"() {opcodes = array<i64: 0x46>, engine = "vector",
      dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
      src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "bfloat16"}} : () -> ()
    return
  }
}
