// sundial-isel: nisa.activation -> bir.activation, ACTIVATE 0x21 (33) on the Scalar engine:
// the function, scale_value or a per-partition [P, 1] scale tile, a per-partition bias tile,
// alpha (the second immediate of prelu/copy/reciprocal). The accumulate form (reduce_res) is
// refused (unselectable.mlir); nisa.activation_read_accumulator is 0x24 = 36.
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-allocate,sundial-isel)' | FileCheck %s
// RUN: sundial-translate %s --disassemble | FileCheck %s --check-prefix=ASM

// CHECK-LABEL: func.func @act
// CHECK: "bir.activation"() {bias_ap = {{{.*}}offset = 256 : i64{{.*}}}, dst = {{{.*}}}, engine = "scalar", func = "exp", opcodes = array<i64: 33>, reduce_cmd = "idle", scale = 2.000000e+00 : f32, src = {{{.*}}}}
// CHECK: "bir.activation"() {alpha = 2.500000e-01 : f32, dst = {{{.*}}}, engine = "scalar", func = "prelu", opcodes = array<i64: 33>, reduce_cmd = "idle", scale_ap = {{{.*}}offset = 256 : i64{{.*}}}, src = {{{.*}}}}
// CHECK: "bir.read_accumulator"() {dst = {{{.*}}}, engine = "scalar", opcodes = array<i64: 36>}
// ASM: # scalar.bin: 3 bundles
// ASM-NEXT: activate {{.*}} imm_src=inst scale_src=inst accumulator_cmd=zero_accumulate bias_src_n=ptr {{.*}} in_dtype=fp32 out_dtype=bf16 num_active_channels=128 activation_func=exp scale_value=0x40000000 {{.*}} imm=0x0
// ASM-NEXT: activate {{.*}} imm_src=inst scale_src=ptr accumulator_cmd=zero_accumulate bias_src_n=inst {{.*}} activation_func=prelu {{.*}} bias=0x0 imm=0x3e800000
// ASM-NEXT: activation_read_accumulator
module attributes {sundial.target = "cayman"} {
  func.func @act(%in: memref<128x64xf32, "hbm">, %b: memref<128x1xf32, "hbm">, %out: memref<128x64xbf16, "hbm">, %r: memref<128x1xf32, "hbm">) {
    %x = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    %bias = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
    %y = "nisa.alloc"() : () -> memref<128x64xbf16, "sbuf">
    %z = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    %s = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
    "nisa.dma_copy"(%x, %in) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    "nisa.dma_copy"(%bias, %b) : (memref<128x1xf32, "sbuf">, memref<128x1xf32, "hbm">) -> ()
    "nisa.activation"(%y, %x, %bias) {op = "exp", scale_value = 2.0 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}
        : (memref<128x64xbf16, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.activation"(%z, %x, %bias) {op = "prelu", alpha = 0.25 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 1, 0>}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.activation_read_accumulator"(%s) : (memref<128x1xf32, "sbuf">) -> ()
    "nisa.dma_copy"(%out, %y) : (memref<128x64xbf16, "hbm">, memref<128x64xbf16, "sbuf">) -> ()
    "nisa.dma_copy"(%r, %s) : (memref<128x1xf32, "hbm">, memref<128x1xf32, "sbuf">) -> ()
    return
  }
}
