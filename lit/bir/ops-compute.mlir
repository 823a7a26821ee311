// BIR compute instructions on the Vector, Scalar, GpSimd and Tensor engines.
// RUN: sundial-opt %s | FileCheck %s
// RUN: sundial-opt %s -o %t.1 && sundial-opt %t.1 -o %t.2 && diff %t.1 %t.2

// RangeSelect is CoreV3 and Exponential CoreV4.
module attributes {sundial.target = "mariana"} {

// The DVE datamove micro-pairs: StreamShuffle {0x6A, 0x69}; StreamTranspose {0x6B} below 32
// destination partitions and {0x6B, 0x69} from 32.
// CHECK-LABEL: func.func @datamove
// CHECK: "bir.stream_shuffle"() {{{.*}}opcodes = array<i64: 106, 105>, shuffle_mask = array<i64: 1, 0,
// CHECK: "bir.stream_transpose"() {{{.*}}opcodes = array<i64: 107>
// CHECK: "bir.stream_transpose"() {{{.*}}lane_mask = array<i64: 1, 0, 3, 2, 4,{{.*}}opcodes = array<i64: 107, 105>
func.func @datamove() {
  "bir.stream_shuffle"() {opcodes = array<i64: 0x6A, 0x69>, engine = "vector",
    shuffle_mask = array<i64: 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 17, 16, 19, 18, 21, 20, 23, 22, 25, 24, 27, 26, 29, 28, 255, 255>,
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  "bir.stream_transpose"() {opcodes = array<i64: 0x6B>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 16, offset = 0, pattern = array<i64: 1, 32>, dtype = "bfloat16"},
    src = {space = "sbuf", partition = 32, num_partitions = 32, offset = 0, pattern = array<i64: 4, 4, 1, 4>, dtype = "bfloat16"}} : () -> ()
  // A 4-D source pattern whose outermost num is 1 (the transpose's num_elem[3] rule).
  "bir.stream_transpose"() {opcodes = array<i64: 0x6B, 0x69>, engine = "vector", lane_mask = array<i64: 1, 0, 3, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31>,
    dst = {space = "sbuf", partition = 0, num_partitions = 32, offset = 0, pattern = array<i64: 1, 32>, dtype = "bfloat16"},
    src = {space = "sbuf", partition = 32, num_partitions = 32, offset = 0, pattern = array<i64: 0, 1, 16, 2, 4, 4, 1, 4>, dtype = "bfloat16"}} : () -> ()
  return
}

// Dropout (threshold pointer and RNG mode) and RangeSelect with its read-out companion.
// CHECK-LABEL: func.func @dropout_range_select
// CHECK: "bir.dropout"() {{{.*}}opcodes = array<i64: 127>, rng_mode = 1 : i64, {{.*}}threshold_dtype = "float32", threshold_imm_ptr = 35 : i64}
// CHECK: "bir.range_select"() {bound0 = 0.000000e+00 : f32, bound1 = 3.200000e+01 : f32, comp_op0 = "is_ge", comp_op1 = "is_lt", {{.*}}fill_value = -3.40282347E+38 : f32, opcodes = array<i64: 188, 155>, range_start = 64 : i64, reduce_cmd = "reset_reduce", reduce_res = {{{.*}}}
// CHECK: "bir.range_select"() {bound0_ap = {{{.*}}}, bound1 = 3.200000e+01 : f32,
func.func @dropout_range_select() {
  "bir.dropout"() {opcodes = array<i64: 0x7F>, engine = "vector", threshold_imm_ptr = 0x23, threshold_dtype = "float32", rng_mode = 1,
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "bfloat16"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 128, pattern = array<i64: 8, 8, 1, 8>, dtype = "bfloat16"}} : () -> ()
  "bir.range_select"() {opcodes = array<i64: 0xBC, 0x9B>, engine = "vector", comp_op0 = "is_ge", comp_op1 = "is_lt",
    bound0 = 0.0 : f32, bound1 = 32.0 : f32, range_start = 64, fill_value = -3.40282347e+38 : f32, reduce_cmd = "reset_reduce",
    reduce_res = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 1>, dtype = "float32"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "psum", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  "bir.range_select"() {opcodes = array<i64: 0xBC, 0x9B>, engine = "vector", comp_op0 = "is_ge", comp_op1 = "is_lt",
    bound0_ap = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1028, pattern = array<i64: 1, 1>, dtype = "float32"}, bound1 = 32.0 : f32,
    reduce_res = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 1>, dtype = "float32"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "psum", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// Dense matmul {LdWeights 0x01, Matmul 0x02}, in TF32 mode with a transposed stationary.
// CHECK-LABEL: func.func @matmult
// CHECK: "bir.matmult"() {accumulate_flags = 0 : i64, dst = {{{.*}}space = "psum"}, engine = "tensor", is_transpose = true, moving = {{{.*}}}, opcodes = array<i64: 1, 2>, perf_mode = "none", stationary = {{{.*}}}, tf32 = true}
func.func @matmult() {
  "bir.matmult"() {opcodes = array<i64: 0x01, 0x02>, engine = "tensor", accumulate_flags = 0, is_transpose = true, perf_mode = "none", tf32 = true,
    dst = {space = "psum", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 512>, dtype = "float32"},
    stationary = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 128>, dtype = "float32"},
    moving = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 512>, dtype = "float32"}} : () -> ()
  return
}

// Elementwise tensor-tensor (a bf16 add, with an indirect source: 0x41 on mariana, the bf16
// opcode 0x8A being sunda's, rule `dtype dispatch`) and tensor-scalar
// (immediates; then per-partition operand patterns with reversed operands).
// CHECK-LABEL: func.func @elementwise
// CHECK: "bir.tensor_tensor"() {{{.*}}op = "add", opcodes = array<i64: 65>, src0 = {{{.*}}kind = "indirect"{{.*}}}
// CHECK: "bir.tensor_scalar"() {{{.*}}imm0 = 2.000000e+00 : f32, imm1 = 1 : i64, op0 = "mult", op1 = "add", opcodes = array<i64: 67>
// CHECK: "bir.tensor_scalar"() {{{.*}}engine = "gpsimd", op0 = "subtract", op1 = "max", opcodes = array<i64: 67>, operand0 = {{{.*}}}, operand1 = {{{.*}}}, reverse0 = true, reverse1 = true
func.func @elementwise() {
  "bir.tensor_tensor"() {opcodes = array<i64: 0x41>, engine = "vector", op = "add",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "bfloat16"},
    src0 = {kind = "indirect", num_indices = 128,
            index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 128, pattern = array<i64: 1, 1>, dtype = "uint32"},
            data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "bfloat16"}},
    src1 = {space = "psum", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "bfloat16"}} : () -> ()
  "bir.tensor_scalar"() {opcodes = array<i64: 0x43>, engine = "scalar", op0 = "mult", imm0 = 2.0 : f32, op1 = "add", imm1 = 1,
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  "bir.tensor_scalar"() {opcodes = array<i64: 0x43>, engine = "gpsimd", op0 = "subtract", op1 = "max", reverse0 = true, reverse1 = true,
    operand0 = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 0, 1>, dtype = "float32"},
    operand1 = {space = "sbuf", partition = 0, num_partitions = 128, offset = 516, pattern = array<i64: 0, 1>, dtype = "float32"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// Tensor-scalar fused with a reduce (0x9A + read-out 0x9B) and the cumulative scan (0xE6);
// the two-op tensor-tensor scan; scalar-tensor-tensor with an operand pattern.
// CHECK-LABEL: func.func @scans
// CHECK: "bir.tensor_scalar_cache"() {{{.*}}opcodes = array<i64: 154, 155>, reduce_cmd = "reset_reduce", reduce_op = "max", reduce_res = {{{.*}}}
// CHECK: "bir.tensor_scalar_cache"() {{{.*}}imm1 = 0.000000e+00 : f32, op0 = "mult", op1 = "add", opcodes = array<i64: 230>
// CHECK: "bir.tensor_tensor_scan"() {{{.*}}initial = 0.000000e+00 : f32, op0 = "mult", op1 = "add", opcodes = array<i64: 229>
// CHECK: "bir.tensor_tensor_scan"() {{{.*}}initial_ap = {{{.*}}}, op0 = "add"
// CHECK: "bir.scalar_tensor_tensor"() {{{.*}}op0 = "bitwise_and", op1 = "bitwise_or", opcodes = array<i64: 158>, operand0 = {{{.*}}}, reverse0 = true
func.func @scans() {
  "bir.tensor_scalar_cache"() {opcodes = array<i64: 0x9A, 0x9B>, engine = "vector", op0 = "add", imm0 = 1.0 : f32,
    reduce_op = "max", reduce_cmd = "reset_reduce",
    reduce_res = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 1>, dtype = "float32"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  "bir.tensor_scalar_cache"() {opcodes = array<i64: 0xE6>, engine = "vector", op0 = "mult", imm0 = 1.0 : f32, op1 = "add", imm1 = 0.0 : f32,
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  "bir.tensor_tensor_scan"() {opcodes = array<i64: 0xE5>, engine = "vector", op0 = "mult", op1 = "add", initial = 0.0 : f32,
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src0 = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"},
    src1 = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  "bir.tensor_tensor_scan"() {opcodes = array<i64: 0xE5>, engine = "vector", op0 = "add", op1 = "max",
    initial_ap = {space = "sbuf", partition = 0, num_partitions = 128, offset = 768, pattern = array<i64: 1, 1>, dtype = "float32"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src0 = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"},
    src1 = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  "bir.scalar_tensor_tensor"() {opcodes = array<i64: 0x9E>, engine = "vector", op0 = "bitwise_and", op1 = "bitwise_or", reverse0 = true, reverse1 = false,
    operand0 = {space = "sbuf", partition = 0, num_partitions = 128, offset = 768, pattern = array<i64: 0, 1>, dtype = "uint32"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "uint32"},
    src0 = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "uint32"},
    src1 = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 64>, dtype = "uint32"}} : () -> ()
  return
}

// Free-axis and partition-axis reductions.
// CHECK-LABEL: func.func @reductions
// CHECK: "bir.tensor_reduce"() {{{.*}}negate = true, num_reduce_dims = 2 : i64, op = "max", opcodes = array<i64: 66>
// CHECK: "bir.cross_lane_reduce"() {{{.*}}engine = "gpsimd", op = "bitwise_xor", opcodes = array<i64: 125>
func.func @reductions() {
  "bir.tensor_reduce"() {opcodes = array<i64: 0x42>, engine = "vector", op = "max", num_reduce_dims = 2, negate = true,
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 16, 4, 1, 16>, dtype = "bfloat16"}} : () -> ()
  "bir.cross_lane_reduce"() {opcodes = array<i64: 0x7D>, engine = "gpsimd", op = "bitwise_xor",
    dst = {space = "sbuf", partition = 0, num_partitions = 1, offset = 0, pattern = array<i64: 1, 64>, dtype = "int32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "int32"}} : () -> ()
  return
}

// ACTIVATE2 (CoreV4) with scale/bias patterns and a reduce; both accumulator read-outs.
// CHECK-LABEL: func.func @activation
// CHECK: "bir.activation"() {alpha = 5.000000e-01 : f32, bias_ap = {{{.*}}}, {{.*}}func = "silu", opcodes = array<i64: 37>, reduce_cmd = "reset_reduce", reduce_res = {{{.*}}}, scale = 1.000000e+00 : f32, scale_ap = {{{.*}}}
// CHECK: "bir.read_accumulator"() {{{.*}}engine = "vector", negate = true, opcodes = array<i64: 155>}
// CHECK: "bir.read_accumulator"() {{{.*}}engine = "scalar", opcodes = array<i64: 36>}
func.func @activation() {
  "bir.activation"() {opcodes = array<i64: 0x25>, engine = "scalar", func = "silu", scale = 1.0 : f32, alpha = 0.5 : f32, reduce_cmd = "reset_reduce",
    scale_ap = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 0, 1>, dtype = "float32"},
    bias_ap = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1028, pattern = array<i64: 0, 1>, dtype = "float32"},
    reduce_res = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1032, pattern = array<i64: 1, 1>, dtype = "float32"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 256>, dtype = "bfloat16"},
    src = {space = "psum", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 256>, dtype = "float32"}} : () -> ()
  "bir.read_accumulator"() {opcodes = array<i64: 0x9B>, engine = "vector", negate = true,
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "float32"}} : () -> ()
  "bir.read_accumulator"() {opcodes = array<i64: 0x24>, engine = "scalar",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "float32"}} : () -> ()
  return
}

// Generators and selects: IOTA, affine select (0x92), data-predicate select (0x98),
// select-reduce and predicated copy.
// CHECK-LABEL: func.func @selects
// CHECK: "bir.iota"() {base = 7 : i64, channel_multiplier = 64 : i64, {{.*}}opcodes = array<i64: 126>, pattern = array<i64: 1, 64>}
// CHECK: "bir.tensor_scalar_affine_select"() {{{.*}}cmp_op = "is_ge", {{.*}}fill_value = -1.000000e+04 : f32, opcodes = array<i64: 146>, pattern = array<i64: -1, 64>
// CHECK: "bir.select"() {{{.*}}imm = 1.000000e+00 : f32, opcodes = array<i64: 152>, predicate = {{{.*}}}, reverse_pred = true
// CHECK: "bir.select_reduce"() {{{.*}}on_false_value = 0.000000e+00 : f32, on_true = {{{.*}}}, opcodes = array<i64: 234, 155>, predicate = {{{.*}}}, reduce_cmd = "reset_reduce", reduce_res = {{{.*}}}
// CHECK: "bir.select_reduce"() {{{.*}}on_false = {{{.*}}}, on_true = {{{.*}}}, opcodes = array<i64: 234>
// CHECK: "bir.copy_predicated"() {{{.*}}opcodes = array<i64: 114>, predicate = {{{.*}}}
func.func @selects() {
  "bir.iota"() {opcodes = array<i64: 0x7E>, engine = "gpsimd", pattern = array<i64: 1, 64>, base = 7, channel_multiplier = 64,
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "int32"}} : () -> ()
  "bir.tensor_scalar_affine_select"() {opcodes = array<i64: 0x92>, engine = "gpsimd", pattern = array<i64: -1, 64>, base = 0,
    channel_multiplier = 1, cmp_op = "is_ge", fill_value = -1.0e4 : f32,
    dst = {space = "sbuf", partition = 0, num_partitions = 64, offset = 0, pattern = array<i64: 1, 64>, dtype = "bfloat16"},
    src = {space = "sbuf", partition = 64, num_partitions = 64, offset = 0, pattern = array<i64: 1, 64>, dtype = "bfloat16"}} : () -> ()
  "bir.select"() {opcodes = array<i64: 0x98>, engine = "vector", imm = 1.0 : f32, reverse_pred = true,
    predicate = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 64>, dtype = "uint8"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  "bir.select_reduce"() {opcodes = array<i64: 0xEA, 0x9B>, engine = "vector", on_false_value = 0.0 : f32, reduce_cmd = "reset_reduce",
    reduce_res = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 1>, dtype = "float32"},
    predicate = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 64>, dtype = "uint16"},
    on_true = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  "bir.select_reduce"() {opcodes = array<i64: 0xEA>, engine = "vector",
    predicate = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 64>, dtype = "int8"},
    on_true = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"},
    on_false = {space = "psum", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  "bir.copy_predicated"() {opcodes = array<i64: 0x72>, engine = "vector",
    predicate = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 64>, dtype = "uint32"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "bfloat16"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "bfloat16"}} : () -> ()
  return
}

// GpSimd compaction and segment bounds.
// CHECK-LABEL: func.func @gpsimd_misc
// CHECK: "bir.nonzero_with_count"() {{{.*}}index_offset = 16 : i64, opcodes = array<i64: 242>, padding_val = 0 : i64
// CHECK: "bir.get_sequence_bounds"() {{{.*}}opcodes = array<i64: 190>
func.func @gpsimd_misc() {
  "bir.nonzero_with_count"() {opcodes = array<i64: 0xF2>, engine = "gpsimd", index_offset = 16, padding_val = 0,
    dst = {space = "sbuf", partition = 16, num_partitions = 16, offset = 0, pattern = array<i64: 1, 65>, dtype = "int32"},
    src = {space = "sbuf", partition = 16, num_partitions = 16, offset = 512, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  "bir.get_sequence_bounds"() {opcodes = array<i64: 0xBE>, engine = "gpsimd",
    dst = {space = "sbuf", partition = 0, num_partitions = 1, offset = 0, pattern = array<i64: 512, 2, 1, 512>, dtype = "int32"},
    src = {space = "sbuf", partition = 0, num_partitions = 1, offset = 4096, pattern = array<i64: 1, 512>, dtype = "int32"}} : () -> ()
  return
}

// Fill, copy / cast, reciprocal and exponential (with a sum).
// CHECK-LABEL: func.func @unary
// CHECK: "bir.memset"() {{{.*}}engine = "gpsimd", opcodes = array<i64: 73>, value = 0 : i64}
// CHECK: "bir.memset"() {{{.*}}engine = "vector", opcodes = array<i64: 73>, value = -1.500000e+00 : f32}
// CHECK: "bir.tensor_copy"() {{{.*}}engine = "scalar", opcodes = array<i64: 71>
// CHECK: "bir.reciprocal"() {{{.*}}opcodes = array<i64: 72>
// CHECK: "bir.exponential"() {{{.*}}max_value = 1.000000e+00 : f32, opcodes = array<i64: 48>, reduce_res = {{{.*}}}
func.func @unary() {
  "bir.memset"() {opcodes = array<i64: 0x49>, engine = "gpsimd", value = 0,
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float8_e4m3fn_x4"}} : () -> ()
  "bir.memset"() {opcodes = array<i64: 0x49>, engine = "vector", value = -1.5 : f32,
    dst = {space = "psum", partition = 0, num_partitions = 128, offset = 2048, pattern = array<i64: 1, 512>, dtype = "float32"}} : () -> ()
  "bir.tensor_copy"() {opcodes = array<i64: 0x47>, engine = "scalar",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "bfloat16"},
    src = {space = "psum", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  "bir.reciprocal"() {opcodes = array<i64: 0x48>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  "bir.exponential"() {opcodes = array<i64: 0x30>, engine = "vector", max_value = 1.0 : f32,
    reduce_res = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 1>, dtype = "float32"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// Top-8, find-index-8, match-replace-8 (with indices), batch-norm stats and aggregate.
// CHECK-LABEL: func.func @top8_batchnorm
// CHECK: "bir.max8"() {{{.*}}opcodes = array<i64: 108>
// CHECK: "bir.find_index8"() {{{.*}}opcodes = array<i64: 110>, {{.*}}vals = {{{.*}}}
// CHECK: "bir.match_replace8"() {dst = {{{.*}}}, dst_idx = {{{.*}}}, engine = "vector", imm_value = 0xFF800000 : f32, opcodes = array<i64: 111>
// CHECK: "bir.bn_stats"() {{{.*}}opcodes = array<i64: 97>
// CHECK: "bir.bn_aggr"() {{{.*}}opcodes = array<i64: 98>
func.func @top8_batchnorm() {
  "bir.max8"() {opcodes = array<i64: 0x6C>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 8>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 1024>, dtype = "float32"}} : () -> ()
  "bir.find_index8"() {opcodes = array<i64: 0x6E>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 64, pattern = array<i64: 1, 8>, dtype = "uint32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 1024>, dtype = "float32"},
    vals = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 8>, dtype = "float32"}} : () -> ()
  "bir.match_replace8"() {opcodes = array<i64: 0x6F>, engine = "vector", imm_value = 0xFF800000 : f32,
    dst_idx = {space = "sbuf", partition = 0, num_partitions = 128, offset = 64, pattern = array<i64: 1, 8>, dtype = "uint32"},
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 8192, pattern = array<i64: 1, 1024>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 1024>, dtype = "float32"},
    vals = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 8>, dtype = "float32"}} : () -> ()
  "bir.bn_stats"() {opcodes = array<i64: 0x61>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 6>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 512>, dtype = "bfloat16"}} : () -> ()
  "bir.bn_aggr"() {opcodes = array<i64: 0x62>, engine = "vector",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 32, pattern = array<i64: 1, 2>, dtype = "float32"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 6>, dtype = "float32"}} : () -> ()
  return
}

}
