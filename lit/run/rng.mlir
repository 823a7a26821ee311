// sundial-run on the random generators and dropout: their state lives across ops. The
// generator is the emulator's XORWOW model, not the hardware's bits, so the checks are the
// published recurrence (Marsaglia 2003) from a state set by hand, and properties that hold
// for any generator: a reseed repeats the stream, rand2 stays in [min, max], dropout with
// probability 0 keeps everything and with probability 1 nothing.
// RUN: rm -rf %t && mkdir -p %t
//
// From x, y, z, w, v, d = 1, 2, 3, 4, 5, 0 (rand_set_state on GpSimd), two steps of
// t = x ^ (x >> 2); (x, y, z, w) = (y, z, w, v); v = (v ^ (v << 4)) ^ (t ^ (t << 1));
// d += 362437; out = v + d:
//   t = 1, v = (5 ^ 80) ^ (1 ^ 2) = 86, d = 362437, out = 362523;
//   t = 2, v = (86 ^ 1376) ^ (2 ^ 4) = 1328, d = 724874, out = 726202;
// and rand_get_state reads the state after them.
// RUN: python3 %S/Inputs/npy.py write %t/state.npy '<u4' 1,6 1,2,3,4,5,0
// RUN: sundial-run %s --func xorwow --arg 0=%t/state.npy --save 1=%t/bits.npy --save 2=%t/after.npy
// RUN: python3 %S/Inputs/npy.py dump %t/bits.npy + dump %t/after.npy | FileCheck %s --check-prefix=XORWOW
// XORWOW: {{^}}362523 726202{{$}}
// XORWOW: {{^}}3 4 5 86 1328 724874{{$}}
//
// The same seed gives the same bits, another seed others.
// RUN: python3 %S/Inputs/npy.py write %t/seed7.npy '<u4' 1,1 7 + write %t/seed8.npy '<u4' 1,1 8
// RUN: sundial-run %s --func seeded --arg 0=%t/seed7.npy --arg 1=%t/seed7.npy --save 2=%t/r1.npy --save 3=%t/r2.npy
// RUN: cmp %t/r1.npy %t/r2.npy
// RUN: sundial-run %s --func seeded --arg 0=%t/seed7.npy --arg 1=%t/seed8.npy --save 2=%t/s1.npy --save 3=%t/s2.npy
// RUN: not cmp %t/s1.npy %t/s2.npy
// RUN: cmp %t/r1.npy %t/s1.npy
//
// rand2 in [-2, 3]: every one of the 2 x 8 values passes x >= -2 and x <= 3.
// RUN: sundial-run %s --func rand2 --save 0=%t/count.npy
// RUN: python3 %S/Inputs/npy.py dump %t/count.npy | FileCheck %s --check-prefix=RAND2
// RAND2: {{^}}8.0 8.0{{$}}
//
// dropout: probability 0 keeps a, 1 zeroes it, a [P, 1] tile (0, 1) keeps partition 0 only.
// RUN: python3 %S/Inputs/npy.py write %t/a.npy '<f4' 2,4 1.5,-2,3.25,0,7,-0.5,4,8 + write %t/probs.npy '<f4' 2,1 0,1
// RUN: sundial-run %s --func dropout --arg 0=%t/a.npy --arg 3=%t/probs.npy --save 1=%t/kept.npy --save 2=%t/dropped.npy --save 4=%t/half.npy
// RUN: python3 %S/Inputs/npy.py dump %t/kept.npy + dump %t/dropped.npy + dump %t/half.npy | FileCheck %s --check-prefix=DROPOUT
// DROPOUT: {{^}}1.5 -2.0 3.25 0.0 7.0 -0.5 4.0 8.0{{$}}
// DROPOUT: {{^}}0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0{{$}}
// DROPOUT: {{^}}1.5 -2.0 3.25 0.0 0.0 0.0 0.0 0.0{{$}}

module attributes {sundial.target = "mariana"} {
  func.func @xorwow(%state: memref<1x6xui32, "sbuf">, %bits: memref<1x2xui32, "sbuf">, %after: memref<1x6xui32, "sbuf">) {
    "nisa.rand_set_state"(%state) : (memref<1x6xui32, "sbuf">) -> ()
    "nisa.rng"(%bits) {engine = "gpsimd"} : (memref<1x2xui32, "sbuf">) -> ()
    "nisa.rand_get_state"(%after) : (memref<1x6xui32, "sbuf">) -> ()
    return
  }
  func.func @seeded(%s1: memref<1x1xui32, "sbuf">, %s2: memref<1x1xui32, "sbuf">, %r1: memref<2x4xui32, "sbuf">,
                    %r2: memref<2x4xui32, "sbuf">) {
    "nisa.set_rng_seed"(%s1) : (memref<1x1xui32, "sbuf">) -> ()
    "nisa.rng"(%r1) : (memref<2x4xui32, "sbuf">) -> ()
    "nisa.set_rng_seed"(%s2) : (memref<1x1xui32, "sbuf">) -> ()
    "nisa.rng"(%r2) : (memref<2x4xui32, "sbuf">) -> ()
    return
  }
  func.func @rand2(%count: memref<2x1xf32, "sbuf">) {
    %x = "nisa.alloc"() {name = "x"} : () -> memref<2x8xf32, "sbuf">
    "nisa.rand2"(%x) {min = -2.0 : f32, max = 3.0 : f32} : (memref<2x8xf32, "sbuf">) -> ()
    %ge = "nisa.alloc"() {name = "ge"} : () -> memref<2x8xf32, "sbuf">
    "nisa.tensor_scalar_arith"(%ge, %x) {op0 = "is_ge", imm0 = -2.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<2x8xf32, "sbuf">, memref<2x8xf32, "sbuf">) -> ()
    %le = "nisa.alloc"() {name = "le"} : () -> memref<2x8xf32, "sbuf">
    "nisa.tensor_scalar_arith"(%le, %x) {op0 = "is_le", imm0 = 3.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<2x8xf32, "sbuf">, memref<2x8xf32, "sbuf">) -> ()
    "nisa.tensor_tensor_arith"(%ge, %ge, %le) {op = "mult"}
        : (memref<2x8xf32, "sbuf">, memref<2x8xf32, "sbuf">, memref<2x8xf32, "sbuf">) -> ()
    "nisa.tensor_reduce_arith"(%count, %ge) {op = "add", axis = array<i64: 1>}
        : (memref<2x1xf32, "sbuf">, memref<2x8xf32, "sbuf">) -> ()
    return
  }
  func.func @dropout(%a: memref<2x4xf32, "sbuf">, %kept: memref<2x4xf32, "sbuf">, %dropped: memref<2x4xf32, "sbuf">,
                     %probs: memref<2x1xf32, "sbuf">, %half: memref<2x4xf32, "sbuf">) {
    "nisa.dropout"(%kept, %a) {prob = 0.0 : f32} : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    "nisa.dropout"(%dropped, %a) {prob = 1.0 : f32} : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    "nisa.dropout"(%half, %a, %probs) : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">, memref<2x1xf32, "sbuf">) -> ()
    return
  }
}
