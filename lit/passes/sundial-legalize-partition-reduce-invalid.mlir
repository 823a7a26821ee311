// sundial-legalize-partition-reduce's refusals: reductions with no cross-partition form (the
// generic op's own shape and axis rules are the verifier's).
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-legalize-partition-reduce)' -verify-diagnostics

func.func @mult(%d: memref<1x64xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{'nisa.tensor_partition_reduce' op attribute 'op': no cross-partition form for mult (rule: partition reduce op)}}
  "nisa.tensor_partition_reduce"(%d, %s) {op = "mult"} : (memref<1x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  // expected-error@+1 {{no cross-partition form for abs_max (rule: partition reduce op)}}
  "nisa.tensor_partition_reduce"(%d, %s) {op = "abs_max"} : (memref<1x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

func.func @int_min(%d: memref<1x64xi32, "sbuf">, %s: memref<128x64xi32, "sbuf">) {
  // expected-error@+1 {{attribute 'op': no cross-partition form for min on integers (the float form negates around max, which i32 cannot do exactly) (rule: partition reduce op)}}
  "nisa.tensor_partition_reduce"(%d, %s) {op = "min"} : (memref<1x64xi32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
  return
}
