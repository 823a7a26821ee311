// nisa.device_print writes "PREFIX SHAPExDTYPE: values" to stdout (row-major, as --save
// would write them), once per rank with --ranks; --timing reports the phases of the run on
// stderr in the layout of mlir-opt's --mlir-timing. A failed run prints nothing to stdout.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py write %t/a.npy '<f4' 2,3 1.5,-2,3.25,0,7,-0.5 + write %t/i.npy '<i4' 1,2 -3,4
// RUN: sundial-run %s --arg 0=%t/a.npy --arg 1=%t/i.npy | FileCheck %s
// CHECK: {{^}}a 2x3xfloat32: 1.5 -2.0 3.25 0.0 7.0 -0.5{{$}}
// CHECK-NEXT: {{^}}twice a 2x3xfloat32: 3.0 -4.0 6.5 0.0 14.0 -1.0{{$}}
// CHECK-NEXT: {{^}}i 1x2xint32: -3 4{{$}}
// RUN: sundial-run %s --arg 0=%t/a.npy --arg 1=%t/i.npy --ranks 2 | FileCheck %s --check-prefix=RANKS
// RANKS: {{^}}rank 0: a 2x3xfloat32: 1.5
// RANKS-NEXT: {{^}}rank 1: a 2x3xfloat32: 1.5
// RANKS-NEXT: {{^}}rank 0: twice a
// RUN: sundial-run %s --arg 0=%t/a.npy --arg 1=%t/i.npy --timing 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING
// TIMING: ... sundial-run execution time report ...
// TIMING: Total Execution Time: {{[0-9.]+}} seconds
// TIMING: ----Wall Time----  ----Name----
// TIMING: {{[0-9.]+}} ({{ *[0-9.]+}}%)  parse and verify the kernel
// TIMING: {{[0-9.]+}} ({{ *[0-9.]+}}%)  run the kernel
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)    set up the machine and the arguments
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)    execute the ops
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)    read the arguments back
// TIMING: {{[0-9.]+}} (100.0%)  Total
// A run that fails after a device_print prints nothing on stdout.
// RUN: not sundial-run %s --func fails 2>/dev/null | count 0

module {
  func.func @print(%a: memref<2x3xf32, "sbuf">, %i: memref<1x2xi32, "sbuf">) {
    "nisa.device_print"(%a) {prefix = "a"} : (memref<2x3xf32, "sbuf">) -> ()
    %t = "nisa.alloc"() {name = "t"} : () -> memref<2x3xf32, "sbuf">
    "nisa.tensor_scalar_arith"(%t, %a) {op0 = "mult", imm0 = 2.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<2x3xf32, "sbuf">, memref<2x3xf32, "sbuf">) -> ()
    "nisa.device_print"(%t) {prefix = "twice a"} : (memref<2x3xf32, "sbuf">) -> ()
    "nisa.device_print"(%i) {prefix = "i"} : (memref<1x2xi32, "sbuf">) -> ()
    return
  }
  func.func @fails(%a: memref<2x3xf32, "sbuf">) {
    "nisa.device_print"(%a) {prefix = "a"} : (memref<2x3xf32, "sbuf">) -> ()
    %t = "nisa.alloc"() {name = "t"} : () -> memref<2x3xf32, "sbuf">
    "nisa.device_print"(%t) {prefix = "never written"} : (memref<2x3xf32, "sbuf">) -> ()
    return
  }
}
