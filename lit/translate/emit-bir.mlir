// --emit=bir stops after selection and prints the BIR module (the same text as sundial-opt
// with sundial-allocate,sundial-isel).
// RUN: sundial-translate %S/../../examples/kernels/elementwise.mlir --emit=bir | FileCheck %s
// RUN: sundial-translate %S/../../examples/kernels/elementwise.mlir --emit=bir -o %t && sundial-opt %t | FileCheck %s

// CHECK: module attributes {sundial.target = "cayman"}
// CHECK: func.func @add_half
// CHECK-COUNT-2: "bir.dma_copy"
// CHECK: "bir.tensor_tensor"(){{.*}}op = "add", opcodes = array<i64: 65>
// CHECK: "bir.tensor_scalar"(){{.*}}imm0 = 5.000000e-01 : f32, op0 = "mult", opcodes = array<i64: 67>
// CHECK: "bir.dma_copy"(){{.*}}tensor = 2 : i64
// CHECK-NOT: nisa.
