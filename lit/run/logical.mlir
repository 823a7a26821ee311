// sundial-run on a kernel with logical tiles (before sundial-partition-tiling): SBUF tiles of
// 300 partitions run on a logical machine of 3 x 128 partitions, with the target's bytes per
// partition; the partition-parallel ops take every partition and the partition reduction
// reduces all 300. After partition tiling the kernel computes the same bits on these inputs
// (integers, whose sums are exact in fp32; on random floats the tiled sum, block partials
// then their sum, differs in the last bits: the translation test's REASSOCIATED list).
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py write %t/in.npy '<f4' 300,2 iota
// RUN: sundial-run %s --arg 0=%t/in.npy --save 1=%t/out.npy --save 2=%t/sum.npy
// RUN: python3 %S/Inputs/npy.py dump %t/sum.npy | FileCheck %s
// 2 * (sum of 2p over p < 300) = 2 * 89700; 2 * (sum of 2p + 1) = 2 * 90000
// CHECK: {{^}}179400.0 180000.0{{$}}
// RUN: python3 %S/Inputs/npy.py dump %t/out.npy | FileCheck %s --check-prefix=ROWS
// Row p holds 2 * (2p, 2p + 1): rows 0 and 299.
// ROWS: {{^}}0.0 2.0 4.0 {{.*}} 1196.0 1198.0{{$}}
// RUN: sundial-run %s --arg 0=%t/in.npy --compare-pipeline='builtin.module(sundial-partition-tiling)' | FileCheck %s --check-prefix=SAME
// SAME: sundial-run: @logical computes the same after 'builtin.module(sundial-partition-tiling)' (3 arguments compared bit-exactly

module attributes {sundial.target = "cayman"} {
  func.func @logical(%in: memref<300x2xf32, "hbm">, %out: memref<300x2xf32, "hbm">, %sum: memref<1x2xf32, "sbuf">) {
    %t = "nisa.alloc"() : () -> memref<300x2xf32, "sbuf">
    %u = "nisa.alloc"() : () -> memref<300x2xf32, "sbuf">
    "nisa.dma_copy"(%t, %in) : (memref<300x2xf32, "sbuf">, memref<300x2xf32, "hbm">) -> ()
    "nisa.tensor_scalar_arith"(%u, %t) {op0 = "mult", imm0 = 2.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (memref<300x2xf32, "sbuf">, memref<300x2xf32, "sbuf">) -> ()
    "nisa.tensor_partition_reduce"(%sum, %u) {op = "max"} : (memref<1x2xf32, "sbuf">, memref<300x2xf32, "sbuf">) -> ()
    "nisa.tensor_partition_reduce"(%sum, %u) {op = "add"} : (memref<1x2xf32, "sbuf">, memref<300x2xf32, "sbuf">) -> ()
    "nisa.dma_copy"(%out, %u) : (memref<300x2xf32, "hbm">, memref<300x2xf32, "sbuf">) -> ()
    return
  }
}
