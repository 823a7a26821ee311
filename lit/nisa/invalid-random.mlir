// Op rules of the random-number NISA ops (rand2, rng, the XORWOW state transfers and the
// seed): the engines, versions, dtypes and sizes of NKI's docstrings, which the emulator's
// generators enforce; each used to verify and then fail in the emulator.
// RUN: sundial-opt %s -split-input-file -verify-diagnostics

// rand2 runs on the Vector engine only (its ISA row's one engine).
func.func @rand2_gpsimd(%f: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{engine "gpsimd" is not legal for this op (legal: vector, or unknown) (rule: engine)}}
  "nisa.rand2"(%f) {engine = "gpsimd"} : (memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// ... of NeuronCore v4 (the row's floor).
module attributes {sundial.target = "cayman"} {
  func.func @rand2_cayman(%f: memref<128x64xf32, "sbuf">) {
    // expected-error@+1 {{'nisa.rand2' op is not available on cayman (NeuronCore v3); it needs mariana (v4) or newer (rule: target)}}
    "nisa.rand2"(%f) : (memref<128x64xf32, "sbuf">) -> ()
    return
  }
}

// -----

// Its range is not empty.
func.func @rand2_range(%f: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attributes 'min' (1) and 'max' (1): min must be less than max (rule: rand2 range)}}
  "nisa.rand2"(%f) {min = 1.0 : f32, max = 1.0 : f32} : (memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// rng writes 32 bits per element at most.
func.func @rng_i64(%t: memref<128x64xi64, "sbuf">) {
  // expected-error@+1 {{operand 'dst': dtype i64 is not legal here}}
  "nisa.rng"(%t) : (memref<128x64xi64, "sbuf">) -> ()
  return
}

// -----

// rng on GpSimd needs NeuronCore v3 (the row's per-engine floor).
module attributes {sundial.target = "sunda"} {
  func.func @rng_gpsimd_sunda(%t: memref<128x64xui32, "sbuf">) {
    // expected-error@+1 {{engine "gpsimd" needs cayman (NeuronCore v3) or newer for this op, not sunda (v2); on sunda use vector (rule: engine target)}}
    "nisa.rng"(%t) {engine = "gpsimd"} : (memref<128x64xui32, "sbuf">) -> ()
    return
  }
}

// -----

// set_rng_seed seeds the Vector engine only (GpSimd's state is set with rand_set_state) ...
func.func @seed_gpsimd(%s: memref<1x1xui32, "sbuf">) {
  // expected-error@+1 {{engine "gpsimd" is not legal for this op (legal: vector, or unknown) (rule: engine)}}
  "nisa.set_rng_seed"(%s) {engine = "gpsimd"} : (memref<1x1xui32, "sbuf">) -> ()
  return
}

// -----

// ... from one 32-bit value.
func.func @seed_shape(%s: memref<128x1xui32, "sbuf">) {
  // expected-error@+1 {{operand 'seed' must be a [1, 1] tile holding one 32-bit seed, got 128x1 (rule: rng seed)}}
  "nisa.set_rng_seed"(%s) : (memref<128x1xui32, "sbuf">) -> ()
  return
}

// -----

// A Vector lane's state is 24 words ...
func.func @state_words(%s: memref<128x6xui32, "sbuf">) {
  // expected-error@+1 {{operand 'src' must hold the 24 state words of a Vector lane per partition, got 6 (rule: prng state size)}}
  "nisa.rand_set_state"(%s) {engine = "vector"} : (memref<128x6xui32, "sbuf">) -> ()
  return
}

// -----

// ... in uint32 ...
func.func @state_dtype(%s: memref<128x6xi32, "sbuf">) {
  // expected-error@+1 {{operand 'dst': dtype i32 is not legal here}}
  "nisa.rand_get_state"(%s) : (memref<128x6xi32, "sbuf">) -> ()
  return
}

// -----

// ... and the Vector engine holds one only from NeuronCore v4.
module attributes {sundial.target = "cayman"} {
  func.func @state_vector_cayman(%s: memref<128x24xui32, "sbuf">) {
    // expected-error@+1 {{engine "vector" needs mariana (NeuronCore v4) or newer for this op, not cayman (v3); on cayman use gpsimd (rule: engine target)}}
    "nisa.rand_get_state"(%s) {engine = "vector"} : (memref<128x24xui32, "sbuf">) -> ()
    return
  }
}

// -----

// The state transfers need NeuronCore v3.
module attributes {sundial.target = "sunda"} {
  func.func @state_sunda(%s: memref<128x6xui32, "sbuf">) {
    // expected-error@+1 {{'nisa.rand_set_state' op is not available on sunda (NeuronCore v2); it needs cayman (v3) or newer (rule: target)}}
    "nisa.rand_set_state"(%s) : (memref<128x6xui32, "sbuf">) -> ()
    return
  }
}
