// sundial-infer-intrinsic: elementwise chains fold into single intrinsics (InferIntrinsicOnCC).
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-infer-intrinsic{fuse-unpinned=true})' | FileCheck %s
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-infer-intrinsic{contract=true fuse-unpinned=true})' | FileCheck %s --check-prefix=CONTRACT
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-infer-intrinsic{fuse-io=false fuse-unpinned=true})' | FileCheck %s --check-prefix=NOIO
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-infer-intrinsic{min-nonlocals=2 fuse-unpinned=true})' | FileCheck %s --check-prefix=NONLOCAL
// By default no fold produces an op the ISA table leaves unpinned on every target
// (scalar_tensor_tensor, 0x9d: no source gives its descriptor offsets), so a kernel that
// selects before the pass still selects after it.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-infer-intrinsic)' | FileCheck %s --check-prefix=PINNED
// PINNED-LABEL: func.func @fma_two_step
// PINNED-NOT: nisa.scalar_tensor_tensor_arith
// Idempotent.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-infer-intrinsic{fuse-unpinned=true})' -o %t.1
// RUN: sundial-opt %t.1 -split-input-file --pass-pipeline='builtin.module(sundial-infer-intrinsic{fuse-unpinned=true})' -o %t.2
// RUN: diff %t.1 %t.2

// (x * 2) + 1 through a dead fp32 tile: one two-op tensor_scalar; the tile is gone.
// CHECK-LABEL: func.func @fma_two_step
// CHECK-NEXT: "nisa.tensor_scalar_arith"(%arg0, %arg1) {engine = "vector", imm0 = 2.000000e+00 : f32, imm1 = 1.000000e+00 : f32, op0 = "mult", op1 = "add", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
// CHECK-NEXT: return
// NOIO-LABEL: func.func @fma_two_step
// NOIO: "nisa.alloc"
// NONLOCAL-LABEL: func.func @fma_two_step
// NONLOCAL: "nisa.alloc"
func.func @fma_two_step(%y: memref<128x64xbf16, "sbuf">, %x: memref<128x64xbf16, "sbuf">) {
  %t = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.tensor_scalar_arith"(%t, %x) {op0 = "mult", imm0 = 2.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%y, %t) {op0 = "add", imm0 = 1.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xbf16, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// (x * c) - z and z - (x * c) with a per-partition c: scalar_tensor_tensor (reverse1 for the
// second). c·x + d·z: one product folds into the sum, 3 ops -> 2. Both products read kernel
// arguments, so min-nonlocals=2 still fuses the sums.
// CHECK-LABEL: func.func @fma_tensor
// CHECK-NEXT: "nisa.scalar_tensor_tensor_arith"(%arg0, %arg1, %arg3, %arg2) {engine = "vector", op0 = "mult", op1 = "subtract"}
// CHECK-NEXT: "nisa.scalar_tensor_tensor_arith"(%arg0, %arg1, %arg3, %arg2) {engine = "vector", op0 = "mult", op1 = "subtract", reverse1 = true}
// CHECK-NEXT: %[[D:.*]] = "nisa.alloc"
// CHECK-NEXT: "nisa.tensor_scalar_arith"(%[[D]], %arg2) {engine = "vector", imm0 = 3.000000e+00 : f32, op0 = "mult"
// CHECK-NEXT: "nisa.scalar_tensor_tensor_arith"(%arg0, %arg1, %[[D]]) {engine = "vector", imm0 = 2.000000e+00 : f32, op0 = "mult", op1 = "add"}
// CHECK-NEXT: return
func.func @fma_tensor(%y: memref<128x64xf32, "sbuf">, %x: memref<128x64xf32, "sbuf">, %z: memref<128x64xf32, "sbuf">,
                      %c: memref<128x1xf32, "sbuf">) {
  %t = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.tensor_scalar_arith"(%t, %x, %c) {op0 = "mult", engine = "vector", operandSegmentSizes = array<i32: 1, 1, 1, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  "nisa.tensor_tensor_arith"(%y, %t, %z) {op = "subtract", engine = "vector"}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  %u = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.tensor_scalar_arith"(%u, %x, %c) {op0 = "mult", engine = "vector", operandSegmentSizes = array<i32: 1, 1, 1, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  "nisa.tensor_tensor_arith"(%y, %z, %u) {op = "subtract", engine = "vector"}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  %cx = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  %dz = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.tensor_scalar_arith"(%cx, %x) {op0 = "mult", imm0 = 2.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%dz, %z) {op0 = "mult", imm0 = 3.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_tensor_arith"(%y, %cx, %dz) {op = "add", engine = "vector"}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// A broadcast constant: memset then tensor_tensor is one tensor_scalar (reverse0 when the
// constant is the left operand); exact because 0.5 is a bf16 value.
// CHECK-LABEL: func.func @broadcast
// CHECK-NEXT: "nisa.tensor_scalar_arith"(%arg0, %arg1) {engine = "vector", imm0 = 5.000000e-01 : f32, op0 = "mult"
// CHECK-NEXT: "nisa.tensor_scalar_arith"(%arg0, %arg1) {engine = "vector", imm0 = 5.000000e-01 : f32, op0 = "subtract", operandSegmentSizes = array<i32: 1, 1, 0, 0>, reverse0 = true}
// A constant the tile's dtype rounds (0.1 in bf16) is not folded.
// CHECK-NEXT: %[[R:.*]] = "nisa.alloc"
// CHECK-NEXT: "nisa.memset"(%[[R]])
// CHECK-NEXT: "nisa.tensor_tensor_arith"
func.func @broadcast(%y: memref<128x64xf32, "sbuf">, %x: memref<128x64xf32, "sbuf">) {
  %t = "nisa.alloc"() : () -> memref<128x64xbf16, "sbuf">
  "nisa.memset"(%t) {value = 0.5 : f32, engine = "vector"} : (memref<128x64xbf16, "sbuf">) -> ()
  "nisa.tensor_tensor_arith"(%y, %x, %t) {op = "mult", engine = "vector"}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
  %u = "nisa.alloc"() : () -> memref<128x64xbf16, "sbuf">
  "nisa.memset"(%u) {value = 0.5 : f32, engine = "vector"} : (memref<128x64xbf16, "sbuf">) -> ()
  "nisa.tensor_tensor_arith"(%y, %u, %x) {op = "subtract", engine = "vector"}
      : (memref<128x64xf32, "sbuf">, memref<128x64xbf16, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  %r = "nisa.alloc"() : () -> memref<128x64xbf16, "sbuf">
  "nisa.memset"(%r) {value = 0.1 : f32, engine = "vector"} : (memref<128x64xbf16, "sbuf">) -> ()
  "nisa.tensor_tensor_arith"(%y, %x, %r) {op = "add", engine = "vector"}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
  return
}

// -----

// Casts: an fp32 producer writes the copy's bf16 destination itself; a widening copy from
// bf16 folds into its consumer; together with an fma the chain is one op.
// CHECK-LABEL: func.func @casts
// CHECK-NEXT: "nisa.tensor_scalar_arith"(%arg0, %arg1) {engine = "vector", imm0 = 2.000000e+00 : f32, op0 = "mult"
// CHECK-NEXT: "nisa.tensor_scalar_arith"(%arg2, %arg0) {engine = "vector", imm0 = 1.000000e+00 : f32, op0 = "add"
// CHECK-NEXT: "nisa.tensor_scalar_arith"(%arg2, %arg0) {engine = "vector", imm0 = 3.000000e+00 : f32, imm1 = 4.000000e+00 : f32, op0 = "mult", op1 = "add"
// CHECK-NEXT: return
func.func @casts(%y: memref<128x64xbf16, "sbuf">, %x: memref<128x64xf32, "sbuf">, %z: memref<128x64xf32, "sbuf">) {
  %t = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.tensor_scalar_arith"(%t, %x) {op0 = "mult", imm0 = 2.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_copy"(%y, %t) {engine = "vector"} : (memref<128x64xbf16, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  %w = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.tensor_copy"(%w, %y) {engine = "gpsimd"} : (memref<128x64xf32, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%z, %w) {op0 = "add", imm0 = 1.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  %a = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  %b = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.tensor_copy"(%a, %y) {engine = "vector"} : (memref<128x64xf32, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%b, %a) {op0 = "mult", imm0 = 3.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%z, %b) {op0 = "add", imm0 = 4.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// The copy's destination is allocated after the producer: the producer cannot write it (its
// definition would follow its use), so the output cast is not folded.
// CHECK-LABEL: func.func @cast_after
// CHECK: %[[T:.*]] = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
// CHECK-NEXT: "nisa.tensor_scalar_arith"(%[[T]], %arg0)
// CHECK-NEXT: %[[Y:.*]] = "nisa.alloc"() : () -> memref<128x64xbf16, "sbuf">
// CHECK-NEXT: "nisa.tensor_copy"(%[[Y]], %[[T]])
func.func @cast_after(%x: memref<128x64xf32, "sbuf">, %o: memref<128x64xbf16, "hbm">) {
  %t = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.tensor_scalar_arith"(%t, %x) {op0 = "mult", imm0 = 2.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  %y = "nisa.alloc"() : () -> memref<128x64xbf16, "sbuf">
  "nisa.tensor_copy"(%y, %t) {engine = "vector"} : (memref<128x64xbf16, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.dma_copy"(%o, %y) {engine = "dma"} : (memref<128x64xbf16, "hbm">, memref<128x64xbf16, "sbuf">) -> ()
  return
}

// -----

// A bf16 intermediate rounds: folding drops that rounding, so only with contract=true (or
// both ops marked sundial.contract).
// CHECK-LABEL: func.func @narrow
// CHECK: "nisa.tensor_scalar_arith"(%[[T:.*]], %arg1) {engine = "vector", imm0 = 2.000000e+00 : f32, op0 = "mult"
// CHECK: "nisa.tensor_scalar_arith"(%arg0, %[[T]])
// CHECK: "nisa.tensor_scalar_arith"(%arg0, %arg1) {engine = "vector", imm0 = 5.000000e+00 : f32, imm1 = 6.000000e+00 : f32, op0 = "mult", op1 = "add"
// CONTRACT-LABEL: func.func @narrow
// CONTRACT-NEXT: "nisa.tensor_scalar_arith"(%arg0, %arg1) {engine = "vector", imm0 = 2.000000e+00 : f32, imm1 = 1.000000e+00 : f32, op0 = "mult", op1 = "add"
func.func @narrow(%y: memref<128x64xf32, "sbuf">, %x: memref<128x64xf32, "sbuf">) {
  %t = "nisa.alloc"() : () -> memref<128x64xbf16, "sbuf">
  "nisa.tensor_scalar_arith"(%t, %x) {op0 = "mult", imm0 = 2.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xbf16, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%y, %t) {op0 = "add", imm0 = 1.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
  %u = "nisa.alloc"() : () -> memref<128x64xbf16, "sbuf">
  "nisa.tensor_scalar_arith"(%u, %x) {op0 = "mult", imm0 = 5.0 : f32, engine = "vector", sundial.contract, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xbf16, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%y, %u) {op0 = "add", imm0 = 6.0 : f32, engine = "vector", sundial.contract, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
  return
}

// -----

// Not fused: an integer chain; a second reader of the intermediate; a view aliasing it; a leaf
// written between the two ops; an intermediate that is a kernel argument; engines that differ
// (GpSimd); the Scalar engine's two-op form other than (mult, add).
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-16: "nisa.tensor_scalar_arith"
// CHECK-NOT: "nisa.tensor_scalar_arith"
// CHECK: "nisa.tensor_scalar_arith"(%arg1, %arg0) {engine = "scalar", imm0 = 2.000000e+00 : f32, imm1 = 1.000000e+00 : f32, op0 = "mult", op1 = "add"
func.func @kept(%y: memref<128x64xf32, "sbuf">, %x: memref<128x64xf32, "sbuf">, %i: memref<128x64xi32, "sbuf">,
                %arg: memref<128x64xf32, "sbuf">) {
  %ti = "nisa.alloc"() : () -> memref<128x64xi32, "sbuf">
  "nisa.tensor_scalar_arith"(%ti, %i) {op0 = "add", imm0 = 1.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%i, %ti) {op0 = "mult", imm0 = 2.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
  %t2 = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.tensor_scalar_arith"(%t2, %x) {op0 = "mult", imm0 = 2.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%y, %t2) {op0 = "add", imm0 = 1.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%x, %t2) {op0 = "add", imm0 = 1.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  %t3 = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  %v3 = "nisa.ap"(%t3) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">) -> memref<128x64xf32, "sbuf">
  "nisa.tensor_scalar_arith"(%t3, %x) {op0 = "mult", imm0 = 2.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%y, %v3) {op0 = "add", imm0 = 1.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  %t4 = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.tensor_scalar_arith"(%t4, %x) {op0 = "mult", imm0 = 2.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%x, %y) {op0 = "add", imm0 = 7.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%y, %t4) {op0 = "add", imm0 = 1.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%arg, %x) {op0 = "mult", imm0 = 2.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%y, %arg) {op0 = "add", imm0 = 1.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  %t5 = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.tensor_scalar_arith"(%t5, %x) {op0 = "rsqrt", imm0 = 0.0 : f32, engine = "gpsimd", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%y, %t5) {op0 = "add", imm0 = 1.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  %t6 = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.tensor_scalar_arith"(%t6, %x) {op0 = "add", imm0 = 2.0 : f32, engine = "scalar", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%y, %t6) {op0 = "mult", imm0 = 1.0 : f32, engine = "scalar", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  // The Scalar engine's (mult, add) does fold.
  %t7 = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.tensor_scalar_arith"(%t7, %y) {op0 = "mult", imm0 = 2.0 : f32, engine = "scalar", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%x, %t7) {op0 = "add", imm0 = 1.0 : f32, engine = "scalar", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}
