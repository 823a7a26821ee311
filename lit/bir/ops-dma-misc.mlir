// BIR DMA, register, collective, RNG and custom-bytes instructions.
// RUN: sundial-opt %s | FileCheck %s
// RUN: sundial-opt %s -o %t.1 && sundial-opt %t.1 -o %t.2 && diff %t.1 %t.2

// Direct DMA HBM -> SBUF with a DGE mode and priority; an HBM pattern has no partitions and
// names its tensor (kernel argument 2).
// CHECK-LABEL: func.func @dma_copy
// CHECK: "bir.dma_copy"() {dge_mode = "hwdge", dst = {{{.*}}space = "sbuf"}, engine = "dma", opcodes = array<i64: 184>, priority = 4 : i64, src = {dtype = "bfloat16", offset = 1024 : i64, pattern = array<i64: 512, 128, 1, 64>, space = "hbm", tensor = 2 : i64}}
func.func @dma_copy() {
  "bir.dma_copy"() {opcodes = array<i64: 0xB8>, engine = "dma", dge_mode = "hwdge", priority = 4,
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "bfloat16"},
    src = {space = "hbm", tensor = 2, offset = 1024, pattern = array<i64: 512, 128, 1, 64>, dtype = "bfloat16"}} : () -> ()
  return
}

// REG_LOAD into register 63 (the last) from a one-element pattern.
// CHECK-LABEL: func.func @register_load
// CHECK: "bir.register_load"() {engine = "sync", opcodes = array<i64: 74>, reg = 63 : i64, src = {{{.*}}}}
func.func @register_load() {
  "bir.register_load"() {opcodes = array<i64: 0x4A>, engine = "sync", reg = 63,
    src = {space = "sbuf", partition = 5, num_partitions = 1, offset = 16, pattern = array<i64: 1, 1>, dtype = "int32"}} : () -> ()
  return
}

// A collective in the PSEUDO band (trigger, group-id load, completion), and the SB-to-SB swap.
// CHECK-LABEL: func.func @collectives
// CHECK: "bir.collective"() {engine = "gpsimd", kind = "all_reduce", op = "add", opcodes = array<i64: 220, 200, 222>, replica_group = [array<i64: 0, 1>, array<i64: 2, 3>]}
// CHECK: "bir.collective"() {engine = "gpsimd", kind = "rank_id", opcodes = array<i64: 220>, replica_group = [array<i64: 0>]}
// CHECK: "bir.sb2sb_collective"() {dst = {{{.*}}}, engine = "gpsimd", opcodes = array<i64: 191>, recv_from_rank = 0 : i64, send_to_rank = 0 : i64, src = {{{.*}}}}
func.func @collectives() {
  "bir.collective"() {opcodes = array<i64: 0xDC, 0xC8, 0xDE>, engine = "gpsimd", kind = "all_reduce", op = "add",
    replica_group = [array<i64: 0, 1>, array<i64: 2, 3>]} : () -> ()
  "bir.collective"() {opcodes = array<i64: 0xDC>, engine = "gpsimd", kind = "rank_id", replica_group = [array<i64: 0>]} : () -> ()
  "bir.sb2sb_collective"() {opcodes = array<i64: 0xBF>, engine = "gpsimd", send_to_rank = 0, recv_from_rank = 0,
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 256>, dtype = "bfloat16"},
    src = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 256>, dtype = "bfloat16"}} : () -> ()
  return
}

// RNG raw bits (0x4D) and uniform values (0xE2); reading and writing the XORWOW state.
// CHECK-LABEL: func.func @random
// CHECK: "bir.rng"() {dst = {{{.*}}}, engine = "gpsimd", opcodes = array<i64: 77>}
// CHECK: "bir.rng"() {dst = {{{.*}}}, engine = "vector", max = 1.000000e+00 : f32, min = -1.000000e+00 : f32, opcodes = array<i64: 226>}
// CHECK: "bir.rand_state"() {engine = "gpsimd", opcodes = array<i64: 119>, state = {{{.*}}pattern = array<i64: 1, 6>{{.*}}}}
// CHECK: "bir.rand_state"() {engine = "vector", opcodes = array<i64: 120>, state = {{{.*}}pattern = array<i64: 1, 24>{{.*}}}}
func.func @random() {
  "bir.rng"() {opcodes = array<i64: 0x4D>, engine = "gpsimd",
    dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "uint32"}} : () -> ()
  "bir.rng"() {opcodes = array<i64: 0xE2>, engine = "vector", min = -1.0 : f32, max = 1.0 : f32,
    dst = {space = "psum", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 64>, dtype = "float32"}} : () -> ()
  "bir.rand_state"() {opcodes = array<i64: 0x77>, engine = "gpsimd",
    state = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 6>, dtype = "uint32"}} : () -> ()
  "bir.rand_state"() {opcodes = array<i64: 0x78>, engine = "vector",
    state = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 24>, dtype = "uint32"}} : () -> ()
  return
}

// EXTENDED_INST with literal bytes and each placeholder kind (datapath sync events).
// CHECK-LABEL: func.func @inline_asm_bytes
// CHECK: "bir.inline_asm_bytes"() {bytes = "f0_10_{events:datapath_wait}_{srcs[0]:addr}_{dsts[12]:addr}_ff", engine = "tensor", opcodes = array<i64: 240>, srcs = array<i64: 3, 4>}
// CHECK: "bir.inline_asm_bytes"() {bytes = "F0", engine = "gpsimd", opcodes = array<i64: 240>}
func.func @inline_asm_bytes() {
  "bir.inline_asm_bytes"() {opcodes = array<i64: 0xF0>, engine = "tensor", srcs = array<i64: 3, 4>,
    bytes = "f0_10_{events:datapath_wait}_{srcs[0]:addr}_{dsts[12]:addr}_ff"} : () -> ()
  "bir.inline_asm_bytes"() {opcodes = array<i64: 0xF0>, engine = "gpsimd", bytes = "F0"} : () -> ()
  return
}
