// BIR's indirect family: gathers, tensor-indirect loads/saves, indirect DMA and transposes,
// and the MX instructions whose operands (and their scales) may be tensor-indirect.
// RUN: sundial-opt %s | FileCheck %s
// RUN: sundial-opt %s -o %t.1 && sundial-opt %t.1 -o %t.2 && diff %t.1 %t.2

// The MX instructions are NeuronCore v4 (mariana) only.
module attributes {sundial.target = "mariana"} {

// Gather of 1024 indices per partition: {0x68, 0x67} once per 512-element chunk.
// CHECK-LABEL: func.func @gather
// CHECK: "bir.gather"() {data = {{{.*}}space = "sbuf"}, dst = {{{.*}}}, engine = "gpsimd", index = {dtype = "uint32", {{.*}}pattern = array<i64: 1, 1024>{{.*}}}, opcodes = array<i64: 104, 103, 104, 103>}
func.func @gather() {
  "bir.gather"() {opcodes = array<i64: 0x68, 0x67, 0x68, 0x67>, engine = "gpsimd",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1024>, dtype = "bfloat16"},
    data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 2048, pattern = array<i64: 1, 2048>, dtype = "bfloat16"},
    index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 8192, pattern = array<i64: 1, 1024>, dtype = "uint32"}} : () -> ()
  return
}

// local_gather: a tensor-indirect source (uint16 index pattern + data pattern), static dst.
// CHECK-LABEL: func.func @indirect_copy
// CHECK: "bir.indirect_copy"() {dst = {{{.*}}}, engine = "gpsimd", num_elem_per_idx = 2 : i64, opcodes = array<i64: 231>, src = {data = {{{.*}}}, index = {{{.*}}}, index_arg = 0 : i64, kind = "indirect", num_indices = 64 : i64}, src_buffer_size = 128 : i64}
func.func @indirect_copy() {
  "bir.indirect_copy"() {opcodes = array<i64: 0xE7>, engine = "gpsimd", num_elem_per_idx = 2, src_buffer_size = 128,
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 8>, dtype = "float32"},
    src = {kind = "indirect", num_indices = 64, index_arg = 0,
           index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 64, pattern = array<i64: 1, 4>, dtype = "uint16"},
           data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 128, pattern = array<i64: 1, 32>, dtype = "float32"}}} : () -> ()
  return
}

// The generic indirect DMA pair: a load (indirect src) and a save (indirect dst) sharing
// index argument 1, with an HBM side.
// CHECK-LABEL: func.func @generic_indirect
// CHECK: "bir.generic_indirect_load"() {dst = {dtype = "float32", offset = 0 : i64, pattern = array<i64: 1, 8192>, space = "hbm"}, engine = "dma", oob_mode = "skip", opcodes = array<i64: 187>, src = {{{.*}}index_arg = 1 : i64, kind = "indirect", num_indices = 128 : i64}}
// CHECK: "bir.generic_indirect_save"() {dst = {{{.*}}kind = "indirect"{{.*}}}, engine = "dma", oob_mode = "error", opcodes = array<i64: 187>, src = {{{.*}}}, unique_indices = false}
func.func @generic_indirect() {
  "bir.generic_indirect_load"() {opcodes = array<i64: 0xBB>, engine = "dma", oob_mode = "skip",
    dst = {space = "hbm", offset = 0, pattern = array<i64: 1, 8192>, dtype = "float32"},
    src = {kind = "indirect", num_indices = 128, index_arg = 1,
           index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "int32"},
           data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 64>, dtype = "float32"}}} : () -> ()
  "bir.generic_indirect_save"() {opcodes = array<i64: 0xBB>, engine = "dma", oob_mode = "error", unique_indices = false,
    dst = {kind = "indirect", num_indices = 128, index_arg = 1,
           index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "int32"},
           data = {space = "psum", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"}},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  return
}

// Scatter-add on the CoreV2 path, on both legal engines.
// CHECK-LABEL: func.func @indirect_save_accumulate
// CHECK: "bir.indirect_save_accumulate"() {dst = {{{.*}}kind = "indirect"{{.*}}}, engine = "gpsimd", opcodes = array<i64: 202>
// CHECK: "bir.indirect_save_accumulate"() {dst = {{{.*}}}, engine = "dma"
func.func @indirect_save_accumulate() {
  "bir.indirect_save_accumulate"() {opcodes = array<i64: 0xCA>, engine = "gpsimd",
    dst = {kind = "indirect", num_indices = 32,
           index = {space = "sbuf", partition = 0, num_partitions = 32, offset = 0, pattern = array<i64: 1, 1>, dtype = "uint32"},
           data = {space = "sbuf", partition = 0, num_partitions = 32, offset = 64, pattern = array<i64: 1, 16>, dtype = "bfloat16"}},
    src = {space = "sbuf", partition = 32, num_partitions = 32, offset = 0, pattern = array<i64: 1, 16>, dtype = "bfloat16"}} : () -> ()
  "bir.indirect_save_accumulate"() {opcodes = array<i64: 0xCA>, engine = "dma",
    dst = {kind = "indirect", num_indices = 32,
           index = {space = "sbuf", partition = 0, num_partitions = 32, offset = 0, pattern = array<i64: 1, 1>, dtype = "uint32"},
           data = {space = "sbuf", partition = 0, num_partitions = 32, offset = 64, pattern = array<i64: 1, 16>, dtype = "bfloat16"}},
    src = {space = "sbuf", partition = 32, num_partitions = 32, offset = 0, pattern = array<i64: 1, 16>, dtype = "bfloat16"}} : () -> ()
  return
}

// DMA_INDIRECT with both sides indirect and a compute op; then a gather with a static dst and
// a register-sourced start address on the index pattern.
// CHECK-LABEL: func.func @dma_indirect
// CHECK: "bir.dma_indirect"() {compute_op = "add", dst = {{{.*}}kind = "indirect"{{.*}}}, engine = "dma", opcodes = array<i64: 187>, src = {{{.*}}kind = "indirect"{{.*}}}, unique_indices = false}
// CHECK: "bir.dma_indirect"() {dst = {{{.*}}space = "sbuf"}, engine = "dma", oob_mode = "skip", opcodes = array<i64: 187>, src = {data = {{{.*}}}, index = {{{.*}}start_reg = 5 : i64}, kind = "indirect", num_indices = 16 : i64}}
func.func @dma_indirect() {
  "bir.dma_indirect"() {opcodes = array<i64: 0xBB>, engine = "dma", compute_op = "add", unique_indices = false,
    dst = {kind = "indirect", num_indices = 128, index_arg = 0,
           index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 1>, dtype = "uint32"},
           data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 4, pattern = array<i64: 1, 32>, dtype = "float32"}},
    src = {kind = "indirect", num_indices = 128, index_arg = 1,
           index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 256, pattern = array<i64: 1, 1>, dtype = "uint32"},
           data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 260, pattern = array<i64: 1, 32>, dtype = "float32"}}} : () -> ()
  "bir.dma_indirect"() {opcodes = array<i64: 0xBB>, engine = "dma", oob_mode = "skip",
    dst = {kind = "static", space = "sbuf", partition = 0, num_partitions = 16, offset = 0, pattern = array<i64: 1, 32>, dtype = "int8"},
    src = {kind = "indirect", num_indices = 16,
           index = {space = "sbuf", partition = 0, num_partitions = 16, start_reg = 5, pattern = array<i64: 1, 1>, dtype = "uint16"},
           data = {space = "sbuf", partition = 16, num_partitions = 16, offset = 0, pattern = array<i64: 1, 32>, dtype = "int8"}}} : () -> ()
  return
}

// DMA transpose (static) and gather-transpose (0xF1, indirect src).
// CHECK-LABEL: func.func @dma_transpose
// CHECK: "bir.dma_transpose"() {axes = array<i64: 1, 0>, dst = {{{.*}}}, engine = "dma", opcodes = array<i64: 189>, src = {{{.*}}space = "hbm"}}
// CHECK: "bir.dma_transpose"() {axes = array<i64: 1, 0>, dst = {{{.*}}}, engine = "dma", opcodes = array<i64: 241>, src = {{{.*}}kind = "indirect"{{.*}}}}
func.func @dma_transpose() {
  "bir.dma_transpose"() {opcodes = array<i64: 0xBD>, engine = "dma", axes = array<i64: 1, 0>,
    dst = {space = "sbuf", partition = 0, num_partitions = 64, offset = 0, pattern = array<i64: 1, 128>, dtype = "bfloat16"},
    src = {space = "hbm", offset = 0, pattern = array<i64: 64, 128, 1, 64>, dtype = "bfloat16"}} : () -> ()
  "bir.dma_transpose"() {opcodes = array<i64: 0xF1>, engine = "dma", axes = array<i64: 1, 0>,
    dst = {space = "sbuf", partition = 0, num_partitions = 64, offset = 0, pattern = array<i64: 1, 32>, dtype = "float16"},
    src = {kind = "indirect", num_indices = 32,
           index = {space = "sbuf", partition = 0, num_partitions = 32, offset = 0, pattern = array<i64: 1, 1>, dtype = "uint32"},
           data = {space = "sbuf", partition = 0, num_partitions = 32, offset = 64, pattern = array<i64: 1, 64>, dtype = "float16"}}} : () -> ()
  return
}

// MX quantization: static src, indirect data and scale outputs with the same indirection.
// CHECK-LABEL: func.func @quantize_mx
// CHECK: "bir.quantize_mx"() {dst = {{{.*}}index_arg = 2 : i64, kind = "indirect"{{.*}}}, dst_scale = {{{.*}}index_arg = 2 : i64, kind = "indirect"{{.*}}}, engine = "vector", opcodes = array<i64: 227>
func.func @quantize_mx() {
  "bir.quantize_mx"() {opcodes = array<i64: 0xE3>, engine = "vector",
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 512>, dtype = "bfloat16"},
    dst = {kind = "indirect", num_indices = 128, index_arg = 2,
           index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 1>, dtype = "uint32"},
           data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 2048, pattern = array<i64: 1, 128>, dtype = "float8_e4m3fn_x4"}},
    dst_scale = {kind = "indirect", num_indices = 128, index_arg = 2,
                 index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 1>, dtype = "uint32"},
                 data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 4096, pattern = array<i64: 1, 128>, dtype = "float8_e8m0fnu"}}} : () -> ()
  return
}

// MX matmul: static stationary and scale; a tensor-indirect moving operand whose scale has
// exactly the same indirection (MXINDIRECT16B).
// CHECK-LABEL: func.func @matmult_mx
// CHECK: "bir.matmult_mx"() {accumulate_flags = 1 : i64, dst = {{{.*}}space = "psum"}, engine = "tensor", moving = {{{.*}}kind = "indirect"{{.*}}}, moving_scale = {{{.*}}kind = "indirect"{{.*}}}, opcodes = array<i64: 9, 10>, stationary = {{{.*}}}, stationary_scale = {{{.*}}dtype = "uint8"{{.*}}}}
func.func @matmult_mx() {
  "bir.matmult_mx"() {opcodes = array<i64: 0x09, 0x0A>, engine = "tensor", accumulate_flags = 1,
    dst = {space = "psum", partition = 0, num_partitions = 64, offset = 0, pattern = array<i64: 1, 256>, dtype = "float32"},
    stationary = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float4_e2m1fn_x4"},
    stationary_scale = {space = "sbuf", partition = 0, num_partitions = 16, offset = 256, pattern = array<i64: 1, 64>, dtype = "uint8"},
    moving = {kind = "indirect", num_indices = 128, index_arg = 3,
              index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 1>, dtype = "uint32"},
              data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 256>, dtype = "float8_e5m2_x4"}},
    moving_scale = {kind = "indirect", num_indices = 128, index_arg = 3,
                    index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 1>, dtype = "uint32"},
                    data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 2048, pattern = array<i64: 1, 256>, dtype = "float8_e8m0fnu"}}} : () -> ()
  return
}

}
