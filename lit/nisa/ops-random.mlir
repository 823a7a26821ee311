// The random-number NISA ops outside the 62 emit builders: rand2, rng, the XORWOW state
// read/write and the seed.
// RUN: sundial-opt %s | FileCheck %s
// RUN: sundial-opt %s -o %t.1 && sundial-opt %t.1 -o %t.2 && diff %t.1 %t.2

// Uniform values on Vector (the only engine of rand2; defaults, then an explicit range); raw
// bits on Vector and GpSimd.
// CHECK-LABEL: func.func @rand
// CHECK: "nisa.rand2"(%{{.*}}) : (memref<128x64xf32, "sbuf">) -> ()
// CHECK: "nisa.rand2"(%{{.*}}) {max = 1.000000e+00 : f32, min = -1.000000e+00 : f32} : (memref<128x64xbf16, "sbuf">) -> ()
// CHECK: "nisa.rng"(%{{.*}}) {engine = "vector"} : (memref<128x64xui32, "psum">) -> ()
// CHECK: "nisa.rng"(%{{.*}}) {engine = "gpsimd"} : (memref<128x64xi8, "sbuf">) -> ()
func.func @rand(%f: memref<128x64xf32, "sbuf">, %b: memref<128x64xbf16, "sbuf">, %u: memref<128x64xui32, "psum">,
                %i: memref<128x64xi8, "sbuf">) {
  "nisa.rand2"(%f) : (memref<128x64xf32, "sbuf">) -> ()
  "nisa.rand2"(%b) {min = -1.0 : f32, max = 1.0 : f32} : (memref<128x64xbf16, "sbuf">) -> ()
  "nisa.rng"(%u) {engine = "vector"} : (memref<128x64xui32, "psum">) -> ()
  "nisa.rng"(%i) {engine = "gpsimd"} : (memref<128x64xi8, "sbuf">) -> ()
  return
}

// Save and restore the generator state (uint32: 6 words per partition on GpSimd, 24 on
// Vector), and seed the Vector engine from a [1, 1] 32-bit tile (in SBUF or PSUM).
// CHECK-LABEL: func.func @state
// CHECK: "nisa.rand_get_state"(%{{.*}}) : (memref<128x6xui32, "sbuf">) -> ()
// CHECK: "nisa.rand_set_state"(%{{.*}}) {engine = "vector"} : (memref<128x24xui32, "sbuf">) -> ()
// CHECK: "nisa.set_rng_seed"(%{{.*}}) : (memref<1x1xui32, "sbuf">) -> ()
// CHECK: "nisa.set_rng_seed"(%{{.*}}) : (memref<1x1xi32, "psum">) -> ()
func.func @state(%g: memref<128x6xui32, "sbuf">, %v: memref<128x24xui32, "sbuf">, %seed: memref<1x1xui32, "sbuf">,
                 %pseed: memref<1x1xi32, "psum">) {
  "nisa.rand_get_state"(%g) : (memref<128x6xui32, "sbuf">) -> ()
  "nisa.rand_set_state"(%v) {engine = "vector"} : (memref<128x24xui32, "sbuf">) -> ()
  "nisa.set_rng_seed"(%seed) : (memref<1x1xui32, "sbuf">) -> ()
  "nisa.set_rng_seed"(%pseed) : (memref<1x1xi32, "psum">) -> ()
  return
}
