// sundial-isel: tensor_scalar_cache_reduce with a per-partition operand: op0's operand is the
// [P, 1] operand0 tile (an operand pattern the lowering passes by pointer, IMM_SRC ptr),
// reverse0 swaps its operand order, and the free-axis sum is read out to reduce_res
// {0x9a, 0x9b}.
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-allocate,sundial-isel)' | FileCheck %s
// RUN: sundial-translate %s --disassemble | FileCheck %s --check-prefix=ASM

// Centre each row on its mean and sum the centred values (x - mean), then (mean - x).
// CHECK-LABEL: func.func @centre
// CHECK: "bir.tensor_scalar_cache"() {dst = {{{.*}}}, engine = "vector", op0 = "subtract", opcodes = array<i64: 154, 155>, operand0 = {dtype = "float32", num_partitions = 128 : i64, offset = 256 : i64, partition = 0 : i64, pattern = array<i64: 1, 1>, space = "sbuf"}, reduce_cmd = "reset_reduce", reduce_op = "add", reduce_res = {{{.*}}offset = 260 : i64{{.*}}}, src = {{{.*}}}}
// CHECK: "bir.tensor_scalar_cache"() {{{.*}}op0 = "subtract", opcodes = array<i64: 154, 155>, operand0 = {{{.*}}offset = 256 : i64{{.*}}}, reduce_cmd = "reset_reduce", reduce_op = "add", reduce_res = {{{.*}}}, reverse0 = true, src = {{{.*}}}}
// ASM: # vector.bin: 4 bundles
// ASM-NEXT: tensor_scalar_cache_reduce {{.*}}imm0_src=ptr op0=subtract op1=add reverse_operands=0
// ASM-NEXT: dve_read_accumulator
// ASM-NEXT: tensor_scalar_cache_reduce {{.*}}imm0_src=ptr op0=subtract op1=add reverse_operands=1
// ASM-NEXT: dve_read_accumulator
module attributes {sundial.target = "cayman"} {
  func.func @centre(%in: memref<128x64xf32, "hbm">, %mean: memref<128x1xf32, "hbm">) {
    %x = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    %m = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
    %s = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
    "nisa.dma_copy"(%x, %in) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    "nisa.dma_copy"(%m, %mean) : (memref<128x1xf32, "sbuf">, memref<128x1xf32, "hbm">) -> ()
    "nisa.tensor_scalar_cache_reduce"(%x, %x, %m, %s) {op0 = "subtract", reduce_op = "add", operandSegmentSizes = array<i32: 1, 1, 1, 1>}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_cache_reduce"(%x, %x, %m, %s) {op0 = "subtract", reverse0 = true, reduce_op = "add", operandSegmentSizes = array<i32: 1, 1, 1, 1>}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.dma_copy"(%in, %x) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">) -> ()
    return
  }
}
