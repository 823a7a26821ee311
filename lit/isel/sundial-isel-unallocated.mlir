// sundial-isel reads the placement sundial-allocate wrote: without it, an on-chip operand has
// no address.
// RUN: sundial-opt %s -verify-diagnostics --pass-pipeline='builtin.module(sundial-isel)'

module attributes {sundial.target = "cayman"} {
  func.func @unallocated() {
    %t = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    // expected-error@+1 {{'nisa.memset' op operand 'dst': the tile is not allocated: run sundial-allocate before sundial-isel}}
    "nisa.memset"(%t) {value = 1.0 : f32, engine = "vector"} : (memref<128x64xf32, "sbuf">) -> ()
    return
  }
}
