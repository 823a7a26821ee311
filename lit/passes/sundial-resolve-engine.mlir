// sundial-resolve-engine: every NISA op that takes an engine gets an explicit, concrete one.
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-resolve-engine)' | FileCheck %s
// Idempotent: a second run changes nothing.
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-resolve-engine)' -o %t.1
// RUN: sundial-opt %t.1 --pass-pipeline='builtin.module(sundial-resolve-engine)' -o %t.2
// RUN: diff %t.1 %t.2

// The seed's rule: int32/uint32 add, subtract and mult with no PSUM operand go to GpSimd
// (native 32-bit wrapping integers); everything else tensor_tensor takes goes to Vector.
// CHECK-LABEL: func.func @tensor_tensor
// CHECK: "nisa.tensor_tensor_arith"{{.*}}{engine = "gpsimd", op = "add"}
// CHECK: "nisa.tensor_tensor_arith"{{.*}}{engine = "gpsimd", op = "subtract"}
// CHECK: "nisa.tensor_tensor_arith"{{.*}}{engine = "gpsimd", op = "mult"}
// CHECK: "nisa.tensor_tensor_arith"{{.*}}{engine = "vector", op = "divide"}
// CHECK: "nisa.tensor_tensor_arith"{{.*}}{engine = "vector", op = "add"}{{.*}}"psum"
// CHECK: "nisa.tensor_tensor_arith"{{.*}}{engine = "vector", op = "add"}{{.*}}xf32
// CHECK: "nisa.tensor_tensor_arith"{{.*}}{engine = "vector", op = "add"}{{.*}}xi16
// An explicit engine is kept.
// CHECK: "nisa.tensor_tensor_arith"{{.*}}{engine = "vector", op = "mult"}{{.*}}xi32
func.func @tensor_tensor(%a: memref<128x64xi32, "sbuf">, %b: memref<128x64xui32, "sbuf">,
                         %p: memref<128x64xi32, "psum">, %f: memref<128x64xf32, "sbuf">,
                         %h: memref<128x64xi16, "sbuf">) {
  "nisa.tensor_tensor_arith"(%a, %a, %b) {op = "add"} : (memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">, memref<128x64xui32, "sbuf">) -> ()
  "nisa.tensor_tensor_arith"(%a, %a, %b) {op = "subtract", engine = "unknown"} : (memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">, memref<128x64xui32, "sbuf">) -> ()
  "nisa.tensor_tensor_arith"(%b, %a, %b) {op = "mult"} : (memref<128x64xui32, "sbuf">, memref<128x64xi32, "sbuf">, memref<128x64xui32, "sbuf">) -> ()
  "nisa.tensor_tensor_arith"(%a, %a, %b) {op = "divide"} : (memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">, memref<128x64xui32, "sbuf">) -> ()
  "nisa.tensor_tensor_arith"(%a, %a, %p) {op = "add"} : (memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">, memref<128x64xi32, "psum">) -> ()
  "nisa.tensor_tensor_arith"(%f, %f, %f) {op = "add"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_tensor_arith"(%h, %h, %h) {op = "add"} : (memref<128x64xi16, "sbuf">, memref<128x64xi16, "sbuf">, memref<128x64xi16, "sbuf">) -> ()
  "nisa.tensor_tensor_arith"(%a, %a, %a) {op = "mult", engine = "vector"} : (memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
  return
}

// The other polymorphic ops take the emit default, Vector; fixed-engine ops their engine.
// Ops without an engine (alloc, device_print) and generic ops are untouched.
// CHECK-LABEL: func.func @defaults
// CHECK: "nisa.alloc"() : ()
// CHECK: "nisa.tensor_scalar_arith"{{.*}}engine = "vector"
// CHECK: "nisa.tensor_copy"{{.*}}{engine = "vector"}
// CHECK: "nisa.memset"{{.*}}{engine = "vector", value = 0.000000e+00 : f32}
// CHECK: "nisa.memset"{{.*}}{engine = "gpsimd", value = 1.000000e+00 : f32}
// CHECK: "nisa.iota"{{.*}}engine = "gpsimd"
// CHECK: "nisa.activation"{{.*}}engine = "scalar"
// CHECK: "nisa.matmul"{{.*}}{engine = "tensor"}
// CHECK: "nisa.dma_copy"{{.*}}{engine = "dma"}
// CHECK: "nisa.rand2"{{.*}}{engine = "vector"}
// CHECK: "nisa.rand_get_state"{{.*}}{engine = "gpsimd"}
// CHECK: "nisa.generic_load"(%{{.*}}, %{{.*}}) : (
// CHECK: "nisa.device_print"(%{{.*}}) {prefix = "x"}
func.func @defaults(%x: memref<128x64xf32, "sbuf">, %h: memref<128x64xf32, "hbm">,
                    %w: memref<128x128xbf16, "sbuf">, %ps: memref<128x64xf32, "psum">, %m: memref<128x64xbf16, "sbuf">,
                    %st: memref<128x6xui32, "sbuf">, %io: memref<128x64xi32, "sbuf">) {
  %t = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.tensor_scalar_arith"(%t, %x) {op0 = "mult", imm0 = 2.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_copy"(%x, %t) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.memset"(%t) {value = 0.0 : f32} : (memref<128x64xf32, "sbuf">) -> ()
  "nisa.memset"(%t) {value = 1.0 : f32, engine = "gpsimd"} : (memref<128x64xf32, "sbuf">) -> ()
  "nisa.iota"(%io) {pattern = array<i64: 1, 64>} : (memref<128x64xi32, "sbuf">) -> ()
  "nisa.activation"(%t, %x) {op = "exp", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.matmul"(%ps, %w, %m) : (memref<128x64xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
  "nisa.dma_copy"(%x, %h) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  "nisa.rand2"(%t) : (memref<128x64xf32, "sbuf">) -> ()
  "nisa.rand_get_state"(%st) : (memref<128x6xui32, "sbuf">) -> ()
  "nisa.generic_load"(%x, %h) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  "nisa.device_print"(%x) {prefix = "x"} : (memref<128x64xf32, "sbuf">) -> ()
  return
}

// nc_transpose takes the best engine for the shape (NKI): Vector up to 32 x 32, the Tensor
// engine (SBUF to PSUM through the PE array) beyond; an explicit engine is kept.
// CHECK-LABEL: func.func @nc_transpose
// CHECK: "nisa.nc_transpose"{{.*}}{engine = "vector"}{{.*}}memref<32x16xf32, "sbuf">
// CHECK: "nisa.nc_transpose"{{.*}}{engine = "tensor"}{{.*}}memref<128x64xbf16, "sbuf">
// CHECK: "nisa.nc_transpose"{{.*}}{engine = "tensor"}{{.*}}memref<16x32xbf16, "sbuf">
func.func @nc_transpose(%s: memref<32x16xf32, "sbuf">, %d: memref<16x32xf32, "sbuf">,
                        %b: memref<128x64xbf16, "sbuf">, %p: memref<64x128xbf16, "psum">,
                        %c: memref<16x32xbf16, "sbuf">, %q: memref<32x16xbf16, "psum">) {
  "nisa.nc_transpose"(%d, %s) : (memref<16x32xf32, "sbuf">, memref<32x16xf32, "sbuf">) -> ()
  "nisa.nc_transpose"(%p, %b) {engine = "unknown"} : (memref<64x128xbf16, "psum">, memref<128x64xbf16, "sbuf">) -> ()
  "nisa.nc_transpose"(%q, %c) {engine = "tensor"} : (memref<32x16xbf16, "psum">, memref<16x32xbf16, "sbuf">) -> ()
  return
}

// A register lives in the sequencer of the ops that share it: here the DMA that reads the
// access pattern its value offsets (register ops whose engine is written are kept).
// CHECK-LABEL: func.func @registers
// CHECK: "nisa.load_register"(%{{.*}}) {engine = "dma"}
// CHECK: "nisa.dma_copy_indirect"{{.*}}engine = "dma"
// CHECK: "nisa.load_register"(%{{.*}}) {engine = "sync"}
// CHECK: "nisa.store_register"(%{{.*}}, %{{.*}}) {engine = "sync"}
func.func @registers(%table: memref<4096x128xbf16, "hbm">, %rows: memref<128x128xbf16, "sbuf">,
                     %sidx: memref<1x1xi32, "sbuf">) {
  %r = "nisa.load_register"(%sidx) : (memref<1x1xi32, "sbuf">) -> !nisa.reg
  %s = "nisa.ap"(%table, %r) {pattern = array<i64: 128, 128, 1, 128>, operandSegmentSizes = array<i32: 1, 0, 1>}
      : (memref<4096x128xbf16, "hbm">, !nisa.reg) -> memref<128x128xbf16, "hbm">
  "nisa.dma_copy_indirect"(%rows, %s) : (memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "hbm">) -> ()
  %q = "nisa.load_register"(%sidx) {engine = "sync"} : (memref<1x1xi32, "sbuf">) -> !nisa.reg
  "nisa.store_register"(%sidx, %q) : (memref<1x1xi32, "sbuf">, !nisa.reg) -> ()
  return
}
// CHECK-NOT: engine = "unknown"
