// sundial-isel: NISA -> BIR per op family, after sundial-allocate: the opcodes and engine the
// ISA table selects, physical access patterns (home partition, byte offset, free dims as
// [step, num] outermost first, libBIR dtype; HBM patterns name their tensor), immediates.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-allocate,sundial-isel)' | FileCheck %s

// DMA: whole tensors both ways (an HBM pattern covers every dim, contiguous dims merge while
// the count fits 16 bits: 128 x 512 = 65536 stays two dims), a view of rows 64..127 of
// argument 1 (byte offset 64 * 512 * 2; its 64 x 512 = 32768 elements merge into one dim),
// and the selected kernel holds no NISA op.
// CHECK-LABEL: func.func @dma
// CHECK-NOT: nisa.
// CHECK: "bir.dma_copy"() {dge_mode = "hwdge", dst = {dtype = "bfloat16", num_partitions = 128 : i64, offset = 0 : i64, partition = 0 : i64, pattern = array<i64: 1, 512>, space = "sbuf"}, engine = "dma", opcodes = array<i64: 184>, src = {dtype = "bfloat16", offset = 0 : i64, pattern = array<i64: 512, 128, 1, 512>, space = "hbm", tensor = 0 : i64}}
// CHECK: "bir.dma_copy"() {dge_mode = "unknown", dst = {dtype = "bfloat16", num_partitions = 64 : i64, offset = 1024 : i64, partition = 0 : i64, pattern = array<i64: 1, 512>, space = "sbuf"}, engine = "dma", opcodes = array<i64: 184>, priority = 2 : i64, src = {dtype = "bfloat16", offset = 65536 : i64, pattern = array<i64: 1, 32768>, space = "hbm", tensor = 1 : i64}}
// CHECK: "bir.dma_copy"() {dge_mode = "unknown", dst = {{{.*}}space = "hbm", tensor = 2 : i64}, engine = "dma", opcodes = array<i64: 184>, src = {{{.*}}offset = 0 : i64, partition = 0 : i64{{.*}}space = "sbuf"}}
// CHECK-NOT: nisa.
module attributes {sundial.target = "cayman"} {
  func.func @dma(%a: memref<128x512xbf16, "hbm">, %b: memref<128x512xbf16, "hbm">, %out: memref<128x512xbf16, "hbm">) {
    %x = "nisa.alloc"() {name = "x"} : () -> memref<128x512xbf16, "sbuf">
    %y = "nisa.alloc"() {name = "y"} : () -> memref<64x512xbf16, "sbuf">
    %rows = "nisa.ap"(%b) {pattern = array<i64: 512, 64, 1, 512>, offset = 32768, operandSegmentSizes = array<i32: 1, 0, 0>}
        : (memref<128x512xbf16, "hbm">) -> memref<64x512xbf16, "hbm">
    "nisa.dma_copy"(%x, %a) {dge_mode = "hwdge"} : (memref<128x512xbf16, "sbuf">, memref<128x512xbf16, "hbm">) -> ()
    "nisa.dma_copy"(%y, %rows) {priority = 2} : (memref<64x512xbf16, "sbuf">, memref<64x512xbf16, "hbm">) -> ()
    "nisa.dma_copy"(%out, %x) : (memref<128x512xbf16, "hbm">, memref<128x512xbf16, "sbuf">) -> ()
    return
  }
}

// -----

// A view of an SBUF tile: element offset 32 * 64 + 8 of a 64-element fp32 row is partition 32,
// byte 32 of it (plus the tile's own offset); the first pair is the partition dimension.
// CHECK-LABEL: func.func @sbuf_view
// CHECK: "bir.memset"() {dst = {dtype = "float32", num_partitions = 128 : i64, offset = 0 : i64, partition = 0 : i64, pattern = array<i64: 1, 64>, space = "sbuf"}, engine = "vector", opcodes = array<i64: 73>, value = 0.000000e+00 : f32}
// CHECK: "bir.memset"() {dst = {dtype = "float32", num_partitions = 16 : i64, offset = 32 : i64, partition = 32 : i64, pattern = array<i64: 2, 4>, space = "sbuf"}, engine = "vector", opcodes = array<i64: 73>, value = 1.000000e+00 : f32}
module attributes {sundial.target = "cayman"} {
  func.func @sbuf_view() {
    %t = "nisa.alloc"() {name = "t"} : () -> memref<128x64xf32, "sbuf">
    %v = "nisa.ap"(%t) {pattern = array<i64: 64, 16, 2, 4>, offset = 2056, operandSegmentSizes = array<i32: 1, 0, 0>}
        : (memref<128x64xf32, "sbuf">) -> memref<16x4xf32, "sbuf">
    "nisa.memset"(%t) {value = 0.0 : f32, engine = "vector"} : (memref<128x64xf32, "sbuf">) -> ()
    "nisa.memset"(%v) {value = 1.0 : f32, engine = "vector"} : (memref<16x4xf32, "sbuf">) -> ()
    return
  }
}

// -----

// Elementwise: tensor_tensor arith (0x41) and bitvec (0x51), power (0x41 with op pow, on
// GpSimd), tensor_scalar with an immediate (0x43), with a [P, 1] operand tile, and its bitvec
// form (0x53).
// CHECK-LABEL: func.func @elementwise
// CHECK: "bir.tensor_tensor"() {{{.*}}engine = "vector", op = "subtract", opcodes = array<i64: 65>
// CHECK: "bir.tensor_tensor"() {{{.*}}engine = "vector", op = "bitwise_xor", opcodes = array<i64: 81>
// CHECK: "bir.tensor_tensor"() {{{.*}}engine = "gpsimd", op = "pow", opcodes = array<i64: 65>
// CHECK: "bir.tensor_scalar"() {{{.*}}engine = "vector", imm0 = 2.000000e+00 : f32, imm1 = 1.000000e+00 : f32, op0 = "mult", op1 = "add", opcodes = array<i64: 67>, reverse1 = true
// CHECK: "bir.tensor_scalar"() {{{.*}}engine = "vector", op0 = "divide", opcodes = array<i64: 67>, operand0 = {dtype = "float32", num_partitions = 128 : i64, offset = 512 : i64, partition = 0 : i64, pattern = array<i64: 1, 1>, space = "sbuf"}
// CHECK: "bir.tensor_scalar"() {{{.*}}engine = "vector", imm0 = 255 : i64, op0 = "bitwise_and", opcodes = array<i64: 83>
module attributes {sundial.target = "cayman"} {
  func.func @elementwise() {
    %a = "nisa.alloc"() {name = "a"} : () -> memref<128x128xf32, "sbuf">
    %b = "nisa.alloc"() {name = "b"} : () -> memref<128x1xf32, "sbuf">
    %i = "nisa.alloc"() {name = "i"} : () -> memref<128x128xi32, "sbuf">
    "nisa.memset"(%a) {value = 1.0 : f32, engine = "vector"} : (memref<128x128xf32, "sbuf">) -> ()
    "nisa.memset"(%b) {value = 2.0 : f32, engine = "vector"} : (memref<128x1xf32, "sbuf">) -> ()
    "nisa.memset"(%i) {value = 7, engine = "vector"} : (memref<128x128xi32, "sbuf">) -> ()
    "nisa.tensor_tensor_arith"(%a, %a, %a) {op = "subtract", engine = "vector"}
        : (memref<128x128xf32, "sbuf">, memref<128x128xf32, "sbuf">, memref<128x128xf32, "sbuf">) -> ()
    "nisa.tensor_tensor_bitvec"(%i, %i, %i) {op = "bitwise_xor"}
        : (memref<128x128xi32, "sbuf">, memref<128x128xi32, "sbuf">, memref<128x128xi32, "sbuf">) -> ()
    "nisa.tensor_tensor_power"(%a, %a, %a) : (memref<128x128xf32, "sbuf">, memref<128x128xf32, "sbuf">, memref<128x128xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_arith"(%a, %a) {op0 = "mult", imm0 = 2.0 : f32, op1 = "add", imm1 = 1.0 : f32, reverse1 = true, engine = "vector",
                                        operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<128x128xf32, "sbuf">, memref<128x128xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_arith"(%a, %a, %b) {op0 = "divide", engine = "vector", operandSegmentSizes = array<i32: 1, 1, 1, 0>}
        : (memref<128x128xf32, "sbuf">, memref<128x128xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_bitvec"(%i, %i) {op0 = "bitwise_and", imm0 = 255} : (memref<128x128xi32, "sbuf">, memref<128x128xi32, "sbuf">) -> ()
    return
  }
}

// -----

// Dtype dispatch on sunda: bf16 add, mult and subtract with every operand bf16 are the
// lowering targets 0x8a, 0x8b, 0x8f; an fp32 add stays 0x41.
// CHECK-LABEL: func.func @bf16_sunda
// CHECK: "bir.tensor_tensor"() {{{.*}}op = "add", opcodes = array<i64: 138>
// CHECK: "bir.tensor_tensor"() {{{.*}}op = "mult", opcodes = array<i64: 139>
// CHECK: "bir.tensor_tensor"() {{{.*}}op = "subtract", opcodes = array<i64: 143>
// CHECK: "bir.tensor_tensor"() {{{.*}}op = "add", opcodes = array<i64: 65>
module attributes {sundial.target = "sunda"} {
  func.func @bf16_sunda() {
    %h = "nisa.alloc"() : () -> memref<128x64xbf16, "sbuf">
    %f = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    "nisa.memset"(%h) {value = 1.0 : f32, engine = "vector"} : (memref<128x64xbf16, "sbuf">) -> ()
    "nisa.memset"(%f) {value = 1.0 : f32, engine = "vector"} : (memref<128x64xf32, "sbuf">) -> ()
    "nisa.tensor_tensor_arith"(%h, %h, %h) {op = "add", engine = "vector"} : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
    "nisa.tensor_tensor_arith"(%h, %h, %h) {op = "mult", engine = "vector"} : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
    "nisa.tensor_tensor_arith"(%h, %h, %h) {op = "subtract", engine = "vector"} : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
    "nisa.tensor_tensor_arith"(%f, %f, %f) {op = "add", engine = "vector"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    return
  }
}

// -----

// The same bf16 add on cayman is 0x41 (the bf16 opcodes are sunda's); an int32 add with no
// engine resolves to GpSimd (the tensor_tensor front-end rule), still 0x41.
// CHECK-LABEL: func.func @resolution
// CHECK: "bir.tensor_tensor"() {{{.*}}engine = "vector", op = "add", opcodes = array<i64: 65>
// CHECK: "bir.tensor_tensor"() {{{.*}}engine = "gpsimd", op = "add", opcodes = array<i64: 65>
module attributes {sundial.target = "cayman"} {
  func.func @resolution() {
    %h = "nisa.alloc"() : () -> memref<128x64xbf16, "sbuf">
    %i = "nisa.alloc"() : () -> memref<128x64xi32, "sbuf">
    "nisa.memset"(%h) {value = 1.0 : f32, engine = "vector"} : (memref<128x64xbf16, "sbuf">) -> ()
    "nisa.memset"(%i) {value = 1, engine = "vector"} : (memref<128x64xi32, "sbuf">) -> ()
    "nisa.tensor_tensor_arith"(%h, %h, %h) {op = "add", engine = "vector"} : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
    "nisa.tensor_tensor_arith"(%i, %i, %i) {op = "add"} : (memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
    return
  }
}

// -----

// Copy vs cast (0x46 / 0x47 by dtype), reciprocal (0x48), memset (0x49), iota (0x7e: the
// pattern, offset as base, channel multiplier).
// CHECK-LABEL: func.func @unary
// CHECK: "bir.iota"() {base = 5 : i64, channel_multiplier = 64 : i64, dst = {{{.*}}dtype = "int32"{{.*}}}, engine = "gpsimd", opcodes = array<i64: 126>, pattern = array<i64: 1, 64>}
// CHECK: "bir.tensor_copy"() {{{.*}}engine = "vector", opcodes = array<i64: 71>
// CHECK: "bir.tensor_copy"() {{{.*}}engine = "gpsimd", opcodes = array<i64: 70>
// CHECK: "bir.reciprocal"() {{{.*}}engine = "vector", opcodes = array<i64: 72>
module attributes {sundial.target = "mariana"} {
  func.func @unary() {
    %i = "nisa.alloc"() : () -> memref<128x64xi32, "sbuf">
    %f = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    %g = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    "nisa.iota"(%i) {pattern = array<i64: 1, 64>, offset = 5, channel_multiplier = 64} : (memref<128x64xi32, "sbuf">) -> ()
    "nisa.tensor_copy"(%f, %i) {engine = "vector"} : (memref<128x64xf32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
    "nisa.tensor_copy"(%g, %f) {engine = "gpsimd"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    "nisa.reciprocal"(%f, %g) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    return
  }
}

// -----

// Free-axis reduction: the reduced trailing axes keep their boundary (axis 2 of [128, 4, 8]:
// pattern [8, 4, 1, 8], one reduced dim); reducing both free axes merges them ([1, 32]).
// CHECK-LABEL: func.func @reduce
// CHECK: "bir.tensor_reduce"() {{{.*}}num_reduce_dims = 1 : i64, op = "max", opcodes = array<i64: 66>, src = {{{.*}}pattern = array<i64: 8, 4, 1, 8>
// CHECK: "bir.tensor_reduce"() {{{.*}}negate = true, num_reduce_dims = 1 : i64, op = "add", opcodes = array<i64: 66>, src = {{{.*}}pattern = array<i64: 1, 32>
// CHECK: "bir.tensor_reduce"() {{{.*}}num_reduce_dims = 1 : i64, op = "bitwise_or", opcodes = array<i64: 82>
module attributes {sundial.target = "cayman"} {
  func.func @reduce() {
    %x = "nisa.alloc"() : () -> memref<128x4x8xf32, "sbuf">
    %r4 = "nisa.alloc"() : () -> memref<128x4xf32, "sbuf">
    %r1 = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
    %u = "nisa.alloc"() : () -> memref<128x16xui32, "sbuf">
    %ur = "nisa.alloc"() : () -> memref<128x1xui32, "sbuf">
    "nisa.memset"(%x) {value = 1.0 : f32, engine = "vector"} : (memref<128x4x8xf32, "sbuf">) -> ()
    "nisa.memset"(%u) {value = 3, engine = "vector"} : (memref<128x16xui32, "sbuf">) -> ()
    "nisa.tensor_reduce_arith"(%r4, %x) {op = "max", axis = array<i64: 2>} : (memref<128x4xf32, "sbuf">, memref<128x4x8xf32, "sbuf">) -> ()
    "nisa.tensor_reduce_arith"(%r1, %x) {op = "add", axis = array<i64: 1, 2>, negate = true} : (memref<128x1xf32, "sbuf">, memref<128x4x8xf32, "sbuf">) -> ()
    "nisa.tensor_reduce_bitvec"(%ur, %u) {op = "bitwise_or", axis = array<i64: 1>} : (memref<128x1xui32, "sbuf">, memref<128x16xui32, "sbuf">) -> ()
    return
  }
}

// -----

// The accumulator forms: tensor_scalar_cache_reduce {0x9a, 0x9b} with its read-out pattern
// and reduce command, the cumulative scan 0xe6, the Scalar engine's read-out 0x24.
// CHECK-LABEL: func.func @accumulate
// CHECK: "bir.tensor_scalar_cache"() {{{.*}}engine = "vector", imm0 = 2.000000e+00 : f32, op0 = "mult", opcodes = array<i64: 154, 155>, reduce_cmd = "reset_reduce", reduce_op = "add", reduce_res = {dtype = "float32", num_partitions = 128 : i64, offset = 256 : i64, partition = 0 : i64, pattern = array<i64: 1, 1>, space = "sbuf"}
// CHECK: "bir.tensor_scalar_cache"() {{{.*}}engine = "vector", imm0 = 0.000000e+00 : f32, op0 = "add", op1 = "max", opcodes = array<i64: 230>, reduce_cmd = "reduce"
// CHECK: "bir.read_accumulator"() {dst = {{{.*}}}, engine = "scalar", opcodes = array<i64: 36>}
module attributes {sundial.target = "cayman"} {
  func.func @accumulate() {
    %x = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    %r = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
    "nisa.memset"(%x) {value = 1.0 : f32, engine = "vector"} : (memref<128x64xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_cache_reduce"(%x, %x, %r) {op0 = "mult", imm0 = 2.0 : f32, reduce_op = "add", operandSegmentSizes = array<i32: 1, 1, 0, 1>}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_cache_cumulative"(%x, %x) {op0 = "add", op1 = "max", imm0 = 0.0 : f32, reduce_cmd = "reduce"}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    "nisa.activation_read_accumulator"(%r) : (memref<128x1xf32, "sbuf">) -> ()
    return
  }
}

// -----

// Predicated copy (0x72; NISA keeps src and dst of one dtype, so never the cast 0x99); a
// partition-axis max on GpSimd (0x7c) into one row, and a bitwise or (0x7d); a quadrant shuffle {0x6a, 0x69} with its lane mask; a narrow
// transpose {0x6b} (dst of 16 partitions).
// CHECK-LABEL: func.func @datamove
// CHECK: "bir.copy_predicated"() {{{.*}}engine = "vector", opcodes = array<i64: 114>, predicate = {{{.*}}dtype = "uint8"
// CHECK: "bir.cross_lane_reduce"() {dst = {{{.*}}num_partitions = 1 : i64{{.*}}}, engine = "gpsimd", op = "max", opcodes = array<i64: 124>
// CHECK: "bir.cross_lane_reduce"() {{{.*}}engine = "gpsimd", op = "bitwise_or", opcodes = array<i64: 125>
// CHECK: "bir.stream_shuffle"() {{{.*}}engine = "vector", opcodes = array<i64: 106, 105>, shuffle_mask = array<i64: 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 17, 16, 19, 18, 21, 20, 23, 22, 25, 24, 27, 26, 29, 28, 31, 30>
// CHECK: "bir.stream_transpose"() {dst = {{{.*}}num_partitions = 16 : i64, offset = 0 : i64, partition = 0 : i64, pattern = array<i64: 1, 16>{{.*}}}, engine = "vector", opcodes = array<i64: 107>
module attributes {sundial.target = "cayman"} {
  func.func @datamove() {
    %x = "nisa.alloc"() : () -> memref<32x64xf32, "sbuf">
    %m = "nisa.alloc"() : () -> memref<32x64xui8, "sbuf">
    %row = "nisa.alloc"() : () -> memref<1x64xf32, "sbuf">
    %t = "nisa.alloc"() : () -> memref<16x16xf32, "sbuf">
    %tt = "nisa.alloc"() : () -> memref<16x16xf32, "sbuf">
    %u = "nisa.alloc"() : () -> memref<32x64xui32, "sbuf">
    %urow = "nisa.alloc"() : () -> memref<1x64xui32, "sbuf">
    "nisa.memset"(%x) {value = 1.0 : f32, engine = "vector"} : (memref<32x64xf32, "sbuf">) -> ()
    "nisa.memset"(%m) {value = 1, engine = "vector"} : (memref<32x64xui8, "sbuf">) -> ()
    "nisa.memset"(%tt) {value = 1.0 : f32, engine = "vector"} : (memref<16x16xf32, "sbuf">) -> ()
    "nisa.copy_predicated"(%x, %x, %m) : (memref<32x64xf32, "sbuf">, memref<32x64xf32, "sbuf">, memref<32x64xui8, "sbuf">) -> ()
    "nisa.cross_lane_reduce_arith"(%row, %x) {op = "max"} : (memref<1x64xf32, "sbuf">, memref<32x64xf32, "sbuf">) -> ()
    "nisa.memset"(%u) {value = 5, engine = "vector"} : (memref<32x64xui32, "sbuf">) -> ()
    "nisa.cross_lane_reduce_bitvec"(%urow, %u) {op = "bitwise_or"} : (memref<1x64xui32, "sbuf">, memref<32x64xui32, "sbuf">) -> ()
    "nisa.stream_shuffle"(%x, %x) {shuffle_mask = array<i64: 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 17, 16, 19, 18, 21, 20, 23, 22, 25, 24, 27, 26, 29, 28, 31, 30>}
        : (memref<32x64xf32, "sbuf">, memref<32x64xf32, "sbuf">) -> ()
    "nisa.stream_transpose"(%t, %tt) : (memref<16x16xf32, "sbuf">, memref<16x16xf32, "sbuf">) -> ()
    return
  }
}

// -----

// Gather {0x68, 0x67} once per 512-element chunk: 600 indices per partition are two chunks;
// a bf16 matmul into PSUM {0x01, 0x02} on the Tensor engine.
// CHECK-LABEL: func.func @gather_matmul
// CHECK: "bir.gather"() {data = {{{.*}}}, dst = {{{.*}}}, engine = "gpsimd", index = {{{.*}}dtype = "uint32"{{.*}}pattern = array<i64: 1, 600>{{.*}}}, opcodes = array<i64: 104, 103, 104, 103>}
// CHECK: "bir.matmult"() {accumulate_flags = 3 : i64, dst = {{{.*}}space = "psum"}, engine = "tensor", moving = {{{.*}}dtype = "bfloat16"{{.*}}}, opcodes = array<i64: 1, 2>, stationary = {{{.*}}}}
module attributes {sundial.target = "cayman"} {
  func.func @gather_matmul() {
    %d = "nisa.alloc"() : () -> memref<128x1024xf32, "sbuf">
    %i = "nisa.alloc"() : () -> memref<128x600xui32, "sbuf">
    %g = "nisa.alloc"() : () -> memref<128x600xf32, "sbuf">
    %w = "nisa.alloc"() : () -> memref<128x128xbf16, "sbuf">
    %x = "nisa.alloc"() : () -> memref<128x512xbf16, "sbuf">
    %p = "nisa.alloc"() : () -> memref<128x512xf32, "psum">
    "nisa.memset"(%d) {value = 1.0 : f32, engine = "vector"} : (memref<128x1024xf32, "sbuf">) -> ()
    "nisa.iota"(%i) {pattern = array<i64: 1, 600>} : (memref<128x600xui32, "sbuf">) -> ()
    "nisa.gather"(%g, %d, %i) : (memref<128x600xf32, "sbuf">, memref<128x1024xf32, "sbuf">, memref<128x600xui32, "sbuf">) -> ()
    "nisa.memset"(%w) {value = 1.0 : f32, engine = "vector"} : (memref<128x128xbf16, "sbuf">) -> ()
    "nisa.memset"(%x) {value = 1.0 : f32, engine = "vector"} : (memref<128x512xbf16, "sbuf">) -> ()
    "nisa.matmul"(%p, %w, %x) : (memref<128x512xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
    return
  }
}

// -----

// MX on mariana: quantize_mx 0xe3 (the fp8 x4 data and its E8M0 scale pattern, static) and
// matmul_mx {0x09, 0x0a} with the stationary and moving scales.
// CHECK-LABEL: func.func @mx
// CHECK: "bir.quantize_mx"() {dst = {dtype = "float8_e4m3fn_x4", {{.*}}pattern = array<i64: 1, 128>, space = "sbuf"}, dst_scale = {dtype = "float8_e8m0fnu", {{.*}}}, engine = "vector", opcodes = array<i64: 227>, src = {dtype = "bfloat16", {{.*}}}}
// CHECK: "bir.matmult_mx"() {accumulate_flags = 3 : i64, dst = {{{.*}}space = "psum"}, engine = "tensor", moving = {dtype = "float8_e5m2_x4", {{.*}}}, moving_scale = {{{.*}}}, opcodes = array<i64: 9, 10>, stationary = {dtype = "float4_e2m1fn_x4", {{.*}}}, stationary_scale = {dtype = "uint8", {{.*}}}}
module attributes {sundial.target = "mariana"} {
  func.func @mx() {
    %x = "nisa.alloc"() : () -> memref<128x512xbf16, "sbuf">
    %q = "nisa.alloc"() : () -> memref<128x128xvector<4xf8E4M3FN>, "sbuf">
    %qs = "nisa.alloc"() : () -> memref<128x128xf8E8M0FNU, "sbuf">
    %st = "nisa.alloc"() : () -> memref<128x64xvector<4xf4E2M1FN>, "sbuf">
    %sts = "nisa.alloc"() : () -> memref<16x64xui8, "sbuf">
    %mv = "nisa.alloc"() : () -> memref<128x256xvector<4xf8E5M2>, "sbuf">
    %mvs = "nisa.alloc"() : () -> memref<16x256xf8E8M0FNU, "sbuf">
    %dst = "nisa.alloc"() : () -> memref<64x256xf32, "psum">
    "nisa.memset"(%x) {value = 1.0 : f32, engine = "vector"} : (memref<128x512xbf16, "sbuf">) -> ()
    "nisa.quantize_mx"(%q, %qs, %x) : (memref<128x128xvector<4xf8E4M3FN>, "sbuf">, memref<128x128xf8E8M0FNU, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
    "nisa.memset"(%st) {value = 0, engine = "vector"} : (memref<128x64xvector<4xf4E2M1FN>, "sbuf">) -> ()
    "nisa.memset"(%mv) {value = 0, engine = "vector"} : (memref<128x256xvector<4xf8E5M2>, "sbuf">) -> ()
    "nisa.matmul_mx"(%dst, %st, %mv, %sts, %mvs) : (memref<64x256xf32, "psum">, memref<128x64xvector<4xf4E2M1FN>, "sbuf">, memref<128x256xvector<4xf8E5M2>, "sbuf">, memref<16x64xui8, "sbuf">, memref<16x256xf8E8M0FNU, "sbuf">) -> ()
    return
  }
}
