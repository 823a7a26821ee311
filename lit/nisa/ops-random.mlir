// The random-number NISA ops outside the 62 emit builders: rand2, rng, the XORWOW state
// read/write and the seed.
// RUN: sundial-opt %s | FileCheck %s
// RUN: sundial-opt %s -o %t.1 && sundial-opt %t.1 -o %t.2 && diff %t.1 %t.2

// Uniform values on Vector (defaults) and GpSimd (explicit range); raw bits.
// CHECK-LABEL: func.func @rand
// CHECK: "nisa.rand2"(%{{.*}}) : (memref<128x64xf32, "sbuf">) -> ()
// CHECK: "nisa.rand2"(%{{.*}}) {engine = "gpsimd", max = 1.000000e+00 : f32, min = -1.000000e+00 : f32} : (memref<128x64xbf16, "sbuf">) -> ()
// CHECK: "nisa.rng"(%{{.*}}) {engine = "vector"} : (memref<128x64xui32, "psum">) -> ()
func.func @rand(%f: memref<128x64xf32, "sbuf">, %b: memref<128x64xbf16, "sbuf">, %u: memref<128x64xui32, "psum">) {
  "nisa.rand2"(%f) : (memref<128x64xf32, "sbuf">) -> ()
  "nisa.rand2"(%b) {min = -1.0 : f32, max = 1.0 : f32, engine = "gpsimd"} : (memref<128x64xbf16, "sbuf">) -> ()
  "nisa.rng"(%u) {engine = "vector"} : (memref<128x64xui32, "psum">) -> ()
  return
}

// Save and restore the generator state (6 words per partition on GpSimd, 24 on Vector), and
// seed it from a [P, 1] tile.
// CHECK-LABEL: func.func @state
// CHECK: "nisa.rand_get_state"(%{{.*}}) : (memref<128x6xui32, "sbuf">) -> ()
// CHECK: "nisa.rand_set_state"(%{{.*}}) {engine = "vector"} : (memref<128x24xui32, "sbuf">) -> ()
// CHECK: "nisa.set_rng_seed"(%{{.*}}) {engine = "gpsimd"} : (memref<128x1xui32, "sbuf">) -> ()
func.func @state(%g: memref<128x6xui32, "sbuf">, %v: memref<128x24xui32, "sbuf">, %seed: memref<128x1xui32, "sbuf">) {
  "nisa.rand_get_state"(%g) : (memref<128x6xui32, "sbuf">) -> ()
  "nisa.rand_set_state"(%v) {engine = "vector"} : (memref<128x24xui32, "sbuf">) -> ()
  "nisa.set_rng_seed"(%seed) {engine = "gpsimd"} : (memref<128x1xui32, "sbuf">) -> ()
  return
}
