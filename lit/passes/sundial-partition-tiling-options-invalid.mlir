// sundial-partition-tiling's option refusal: a block of more partitions than SBUF has, at the
// module the pass runs on.
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-partition-tiling{partition-max-elts=129})' -verify-diagnostics

// expected-error@+1 {{'builtin.module' op sundial-partition-tiling: partition-max-elts=129 must be in 1..=128 (rule: partition tiling options)}}
module {
func.func @k(%d: memref<128x64xf32, "sbuf">) {
  "nisa.memset"(%d) {value = 0.0 : f32, engine = "vector"} : (memref<128x64xf32, "sbuf">) -> ()
  return
}
}
