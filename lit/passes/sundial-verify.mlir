// sundial-verify: the semantic verifier as a pass, with the phase checks of the middle end.
// This module is ready for instruction selection, so every phase accepts it: engines and DGE
// modes are explicit and concrete, the mod step is marked as sundial-decompose's, ops that
// take no engine (alloc, ap, device_print) carry none, and HBM tensors have no partition
// limit. (Logical tiles, accepted by the default phase only: sundial-verify-invalid.mlir.)
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-verify)' | FileCheck %s
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-verify{phase=logical})' | FileCheck %s
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-verify{phase=tiled})' | FileCheck %s
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-verify{phase=selection target=cayman})' | FileCheck %s

// CHECK-LABEL: func.func @selection
// CHECK: "nisa.dma_copy"{{.*}}dge_mode = "hwdge"
// CHECK: "nisa.tensor_scalar_arith"{{.*}}engine = "vector"{{.*}}op0 = "mod"{{.*}}sundial.expanded
// CHECK: "nisa.device_print"
func.func @selection(%d: memref<128x64xf32, "sbuf">, %t: memref<4096x64xf32, "hbm">) {
  %a = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  %v = "nisa.ap"(%t) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<4096x64xf32, "hbm">) -> memref<128x64xf32, "hbm">
  "nisa.dma_copy"(%a, %v) {dge_mode = "hwdge", engine = "dma"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  "nisa.tensor_scalar_arith"(%d, %a) {op0 = "mod", imm0 = 3.0 : f32, engine = "vector", sundial.expanded, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.device_print"(%d) {prefix = "d"} : (memref<128x64xf32, "sbuf">) -> ()
  return
}
