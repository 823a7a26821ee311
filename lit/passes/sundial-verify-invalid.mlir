// sundial-verify's phase checks, each refused at the op. Every case is valid logical IR: the
// default phase accepts all of it (LOGICAL), the selection phase (which includes the tiled
// one) refuses each.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-verify{phase=selection})' -verify-diagnostics
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-verify)' | FileCheck %s --check-prefix=LOGICAL
// RUN: not sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-verify{phase=tiled})' 2>&1 | FileCheck %s --check-prefix=TILED

// A logical SBUF tile of 256 partitions: fine before partition tiling, not after.
// LOGICAL-LABEL: func.func @partitions
// LOGICAL: "nisa.tensor_copy"(%{{.*}}, %{{.*}}) {engine = "vector"} : (memref<256x64xf32, "sbuf">, memref<256x64xf32, "sbuf">) -> ()
// TILED: sundial-verify-invalid.mlir:[[@LINE+3]]:3: error: 'nisa.tensor_copy' op operand 'dst': partition dimension 256 exceeds 128 (rule: partitions <= 128)
func.func @partitions(%d: memref<256x64xf32, "sbuf">, %s: memref<256x64xf32, "sbuf">) {
  // expected-error@+1 {{operand 'dst': partition dimension 256 exceeds 128 (rule: partitions <= 128)}}
  "nisa.tensor_copy"(%d, %s) {engine = "vector"} : (memref<256x64xf32, "sbuf">, memref<256x64xf32, "sbuf">) -> ()
  return
}

// -----

// PSUM has 128 partitions as well; results (an alloc's tile) count.
// TILED: sundial-verify-invalid.mlir:[[@LINE+3]]:8: error: 'nisa.alloc' op result: partition dimension 129 exceeds 128 (rule: partitions <= 128)
func.func @alloc_partitions() {
  // expected-error@+1 {{'nisa.alloc' op result: partition dimension 129 exceeds 128 (rule: partitions <= 128)}}
  %a = "nisa.alloc"() : () -> memref<129x64xf32, "psum">
  return
}

// -----

// A generic load has no instruction of its own.
func.func @generic(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{'nisa.generic_load' op is a generic op that instruction selection does not take; sundial-generic-load-to-gather lowers it (rule: no generic ops at selection)}}
  "nisa.generic_load"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// An engine-polymorphic op with no engine, or with engine "unknown".
func.func @engine(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{has no 'engine' attribute; instruction selection needs a concrete engine (sundial-resolve-engine sets it) (rule: engine resolved)}}
  "nisa.tensor_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  // expected-error@+1 {{engine is "unknown"; instruction selection needs a concrete engine (sundial-resolve-engine sets it) (rule: engine resolved)}}
  "nisa.tensor_copy"(%d, %s) {engine = "unknown"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// A DMA with no dge_mode (its default is unknown), or with dge_mode "unknown".
func.func @dge(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{has no 'dge_mode' attribute; instruction selection needs swdge, hwdge or none (sundial-resolve-dge sets it) (rule: dge resolved)}}
  "nisa.dma_copy"(%d, %s) {engine = "dma"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  // expected-error@+1 {{dge_mode is "unknown"; instruction selection needs swdge, hwdge or none (sundial-resolve-dge sets it) (rule: dge resolved)}}
  "nisa.dma_copy"(%d, %s) {engine = "dma", dge_mode = "unknown"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// pow and mod in tensor_scalar_arith are composite forms (sundial-decompose rewrites them);
// only its own marked mod step is accepted. pow in tensor_tensor_arith is tensor_tensor_power.
func.func @composite(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'op0': "pow" is a composite form with no tensor_scalar instruction; sundial-decompose rewrites it (rule: no composite ops at selection)}}
  "nisa.tensor_scalar_arith"(%d, %s) {op0 = "pow", imm0 = 2.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  // expected-error@+1 {{attribute 'op1': "mod" is a composite form}}
  "nisa.tensor_scalar_arith"(%d, %s) {op0 = "add", imm0 = 2.0 : f32, op1 = "mod", imm1 = 3.0 : f32, engine = "vector", operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  // expected-error@+1 {{attribute 'op': "pow" is tensor_tensor_power's form; sundial-decompose rewrites it (rule: no composite ops at selection)}}
  "nisa.tensor_tensor_arith"(%d, %s, %s) {op = "pow", engine = "vector"}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}
