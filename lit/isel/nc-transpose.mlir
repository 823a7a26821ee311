// sundial-isel: nc_transpose on the Vector engine is the standalone stream transpose {0x6b}
// (the ISA table's nc_transpose row; a destination of 32 or more partitions would need the
// lane map of a 0x69 half, which the op does not carry: sundial-isel-invalid.mlir).
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-allocate,sundial-isel)' | FileCheck %s

// CHECK-LABEL: func.func @vector_transpose
// CHECK: "bir.stream_transpose"() {dst = {dtype = "bfloat16", num_partitions = 16 : i64, offset = 32 : i64, partition = 0 : i64, pattern = array<i64: 1, 16>, space = "sbuf"}, engine = "vector", opcodes = array<i64: 107>, src = {dtype = "bfloat16", num_partitions = 16 : i64, offset = 0 : i64, partition = 0 : i64, pattern = array<i64: 1, 16>, space = "sbuf"}}
module attributes {sundial.target = "cayman"} {
  func.func @vector_transpose(%in: memref<16x16xbf16, "hbm">, %out: memref<16x16xbf16, "hbm">) {
    %a = "nisa.alloc"() : () -> memref<16x16xbf16, "sbuf">
    %t = "nisa.alloc"() : () -> memref<16x16xbf16, "sbuf">
    "nisa.dma_copy"(%a, %in) : (memref<16x16xbf16, "sbuf">, memref<16x16xbf16, "hbm">) -> ()
    "nisa.nc_transpose"(%t, %a) {engine = "vector"} : (memref<16x16xbf16, "sbuf">, memref<16x16xbf16, "sbuf">) -> ()
    "nisa.dma_copy"(%out, %t) : (memref<16x16xbf16, "hbm">, memref<16x16xbf16, "sbuf">) -> ()
    return
  }
}
