// sundial-run on the element-wise ops (tensor_tensor, tensor_scalar, scalar_tensor_tensor,
// reciprocal, tensor_copy, memset, iota, affine_select), on SBUF arguments so that each
// kernel is the op itself. Every expected value is worked out by hand in the comment above
// its CHECK line.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py write %t/a.npy '<f4' 2,4 1.5,-2,3.25,0,7,-0.5,4,8 + write %t/b.npy '<f4' 2,4 iota + write %t/c.npy '<f4' 2,4 2,4,3,16,0.5,9,1,4 + write %t/e.npy '<f4' 2,4 3,0.5,2,0.5,2,0.5,7,-1 + write %t/i.npy '<i4' 2,4 2147483647,-5,7,0,-2147483648,1,2,3 + write %t/one.npy '<i4' 2,4 1,1,1,1,-1,-1,-1,-1 + write %t/u.npy '<u2' 2,4 0xff00,0x0f0f,1,2,3,4,5,0xffff + write %t/w.npy '<u2' 2,4 0x00ff,0x0f0f,0,0,0,0,0,0x8000
//
// tensor_tensor: a - b on Vector; lhs ** rhs on GpSimd; int32 add on GpSimd, which wraps;
// xor on raw uint16 bits.
// RUN: sundial-run %s --func tensor_tensor --arg 0=%t/a.npy --arg 1=%t/b.npy --arg 3=%t/c.npy --arg 4=%t/e.npy --arg 6=%t/i.npy --arg 7=%t/one.npy --arg 9=%t/u.npy --arg 10=%t/w.npy --save 2=%t/sub.npy --save 5=%t/pow.npy --save 8=%t/iadd.npy --save 11=%t/xor.npy
// RUN: python3 %S/Inputs/npy.py dump %t/sub.npy + dump %t/pow.npy + dump %t/iadd.npy + dump %t/xor.npy | FileCheck %s --check-prefix=TT
// a - b = [1.5-0, -2-1, 3.25-2, 0-3, 7-4, -0.5-5, 4-6, 8-7]
// TT: {{^}}1.5 -3.0 1.25 -3.0 3.0 -5.5 -2.0 1.0{{$}}
// c ** e = [2^3, 4^0.5, 3^2, 16^0.5, 0.5^2, 9^0.5, 1^7, 4^-1]
// TT: {{^}}8.0 2.0 9.0 4.0 0.25 3.0 1.0 0.25{{$}}
// i + one: 2^31-1 + 1 wraps to -2^31, -2^31 - 1 wraps to 2^31-1.
// TT: {{^}}-2147483648 -4 8 1 2147483647 0 1 2{{$}}
// u ^ w: 0xff00^0x00ff = 0xffff, 0x0f0f^0x0f0f = 0, 0xffff^0x8000 = 0x7fff.
// TT: {{^}}65535 0 1 2 3 4 5 32767{{$}}
//
// tensor_scalar: (a * 2) + -1 with immediates; (c0 - a) max c1 with [P, 1] tiles and
// reverse0; rsqrt (unary, GpSimd); bitvec (u >> 4) & 0xff... as two stages; 64-bit address
// arithmetic.
// RUN: python3 %S/Inputs/npy.py write %t/c0.npy '<f4' 2,1 10,1 + write %t/c1.npy '<f4' 2,1 5,-3 + write %t/sq.npy '<f4' 2,4 4,16,0.25,1,64,0.0625,100,1 + write %t/ad.npy '<i8' 2,1 4096,-8
// RUN: sundial-run %s --func tensor_scalar --arg 0=%t/a.npy --arg 2=%t/c0.npy --arg 3=%t/c1.npy --arg 5=%t/sq.npy --arg 7=%t/u.npy --arg 9=%t/ad.npy --save 1=%t/ts.npy --save 4=%t/tile.npy --save 6=%t/rsqrt.npy --save 8=%t/bits.npy --save 10=%t/addr.npy
// RUN: python3 %S/Inputs/npy.py dump %t/ts.npy + dump %t/tile.npy + dump %t/rsqrt.npy + dump %t/bits.npy + dump %t/addr.npy | FileCheck %s --check-prefix=TS
// a*2-1 = [2, -5, 5.5, -1, 13, -2, 7, 15]
// TS: {{^}}2.0 -5.0 5.5 -1.0 13.0 -2.0 7.0 15.0{{$}}
// partition 0: max(10 - a, 5) = [8.5, 12, 6.75, 10]; partition 1: max(1 - a, -3) = [-3, 1.5, -3, -3]
// TS: {{^}}8.5 12.0 6.75 10.0 -3.0 1.5 -3.0 -3.0{{$}}
// 1/sqrt(x) = [0.5, 0.25, 2, 1, 0.125, 4, 0.1, 1]; 0.1 is the f32 nearest to 1/10.
// TS: {{^}}0.5 0.25 2.0 1.0 0.125 4.0 0.10000000149011612 1.0{{$}}
// (u >> 4) & 0xff: 0xff00 -> 0x0ff0 & 0xff = 0xf0; 0x0f0f -> 0x00f0; 1..5 -> 0; 0xffff -> 0xff.
// TS: {{^}}240 240 0 0 0 0 0 255{{$}}
// ad * 3 (wrapping int64): 4096*3, -8*3.
// TS: {{^}}12288 -24{{$}}
//
// scalar_tensor_tensor: b - (a * 3) (reverse1 puts operand1 on the left); reciprocal; a
// tensor_copy to bf16 (raw bits) and back; memset of a float and an int.
// RUN: sundial-run %s --func others --arg 0=%t/a.npy --arg 1=%t/b.npy --arg 3=%t/c.npy --save 2=%t/stt.npy --save 4=%t/rec.npy --save 5=%t/bf.npy --save 6=%t/back.npy --save 7=%t/fill.npy --save 8=%t/ifill.npy
// RUN: python3 %S/Inputs/npy.py dump %t/stt.npy + dump %t/rec.npy + dump %t/bf.npy + dump %t/back.npy + dump %t/fill.npy + dump %t/ifill.npy | FileCheck %s --check-prefix=OTHERS
// b - 3a = [0-4.5, 1+6, 2-9.75, 3-0, 4-21, 5+1.5, 6-12, 7-24]
// OTHERS: {{^}}-4.5 7.0 -7.75 3.0 -17.0 6.5 -6.0 -17.0{{$}}
// 1/c = [1/2, 1/4, 1/3, 1/16, 2, 1/9, 1, 1/4]; 1/3 and 1/9 are their nearest f32.
// OTHERS: {{^}}0.5 0.25 0.3333333432674408 0.0625 2.0 0.1111111119389534 1.0 0.25{{$}}
// bf16 bits of a: 1.5 = 0x3fc0, -2 = 0xc000, 3.25 = 0x4050, 0, 7 = 0x40e0, -0.5 = 0xbf00, 4 = 0x4080, 8 = 0x4100
// OTHERS: descr=<u2
// OTHERS-NEXT: {{^}}16320 49152 16464 0 16608 48896 16512 16640{{$}}
// OTHERS: {{^}}1.5 -2.0 3.25 0.0 7.0 -0.5 4.0 8.0{{$}}
// OTHERS: {{^}}1.5 1.5 1.5 1.5 1.5 1.5 1.5 1.5{{$}}
// OTHERS: {{^}}-7 -7 -7 -7 -7 -7 -7 -7{{$}}
//
// iota: offset 10 + 100 * partition + i; affine_select keeps on_true where i - p >= 0 (a
// causal mask), else writes -9.
// RUN: sundial-run %s --func affine --arg 1=%t/a.npy --save 0=%t/iota.npy --save 2=%t/mask.npy
// RUN: python3 %S/Inputs/npy.py dump %t/iota.npy + dump %t/mask.npy | FileCheck %s --check-prefix=AFFINE
// AFFINE: {{^}}10 11 12 13 110 111 112 113{{$}}
// partition 1, i = 0: 0 - 1 < 0, so -9; the rest keep a.
// AFFINE: {{^}}1.5 -2.0 3.25 0.0 -9.0 -0.5 4.0 8.0{{$}}

module {
  func.func @tensor_tensor(%a: memref<2x4xf32, "sbuf">, %b: memref<2x4xf32, "sbuf">, %sub: memref<2x4xf32, "sbuf">,
                           %c: memref<2x4xf32, "sbuf">, %e: memref<2x4xf32, "sbuf">, %pow: memref<2x4xf32, "sbuf">,
                           %i: memref<2x4xi32, "sbuf">, %one: memref<2x4xi32, "sbuf">, %iadd: memref<2x4xi32, "sbuf">,
                           %u: memref<2x4xui16, "sbuf">, %w: memref<2x4xui16, "sbuf">, %xor: memref<2x4xui16, "sbuf">) {
    "nisa.tensor_tensor_arith"(%sub, %a, %b) {op = "subtract", engine = "vector"}
        : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    "nisa.tensor_tensor_power"(%pow, %c, %e)
        : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    "nisa.tensor_tensor_arith"(%iadd, %i, %one) {op = "add", engine = "gpsimd"}
        : (memref<2x4xi32, "sbuf">, memref<2x4xi32, "sbuf">, memref<2x4xi32, "sbuf">) -> ()
    "nisa.tensor_tensor_bitvec"(%xor, %u, %w) {op = "bitwise_xor"}
        : (memref<2x4xui16, "sbuf">, memref<2x4xui16, "sbuf">, memref<2x4xui16, "sbuf">) -> ()
    return
  }
  func.func @tensor_scalar(%a: memref<2x4xf32, "sbuf">, %ts: memref<2x4xf32, "sbuf">, %c0: memref<2x1xf32, "sbuf">,
                           %c1: memref<2x1xf32, "sbuf">, %tile: memref<2x4xf32, "sbuf">, %sq: memref<2x4xf32, "sbuf">,
                           %rsqrt: memref<2x4xf32, "sbuf">, %u: memref<2x4xui16, "sbuf">, %bits: memref<2x4xui16, "sbuf">,
                           %ad: memref<2x1xi64, "sbuf">, %addr: memref<2x1xi64, "sbuf">) {
    "nisa.tensor_scalar_arith"(%ts, %a) {op0 = "mult", imm0 = 2.0 : f32, op1 = "add", imm1 = -1.0 : f32,
                                         operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_arith"(%tile, %a, %c0, %c1) {op0 = "subtract", reverse0 = true, op1 = "max",
                                                     operandSegmentSizes = array<i32: 1, 1, 1, 1>}
        : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">, memref<2x1xf32, "sbuf">, memref<2x1xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_arith"(%rsqrt, %sq) {op0 = "rsqrt", imm0 = 0.0 : f32, engine = "gpsimd",
                                             operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_bitvec"(%bits, %u) {op0 = "logical_shift_right", imm0 = 4, op1 = "bitwise_and", imm1 = 255}
        : (memref<2x4xui16, "sbuf">, memref<2x4xui16, "sbuf">) -> ()
    "nisa.tensor_scalar_addr"(%addr, %ad) {op0 = "mult", imm0 = 3}
        : (memref<2x1xi64, "sbuf">, memref<2x1xi64, "sbuf">) -> ()
    return
  }
  func.func @others(%a: memref<2x4xf32, "sbuf">, %b: memref<2x4xf32, "sbuf">, %stt: memref<2x4xf32, "sbuf">,
                    %c: memref<2x4xf32, "sbuf">, %rec: memref<2x4xf32, "sbuf">, %bf: memref<2x4xbf16, "sbuf">,
                    %back: memref<2x4xf32, "sbuf">, %fill: memref<2x4xf32, "sbuf">, %ifill: memref<2x4xi32, "sbuf">) {
    "nisa.scalar_tensor_tensor_arith"(%stt, %a, %b) {op0 = "mult", imm0 = 3.0 : f32, op1 = "subtract", reverse1 = true}
        : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    "nisa.reciprocal"(%rec, %c) : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    "nisa.tensor_copy"(%bf, %a) : (memref<2x4xbf16, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    "nisa.tensor_copy"(%back, %bf) {engine = "scalar"} : (memref<2x4xf32, "sbuf">, memref<2x4xbf16, "sbuf">) -> ()
    "nisa.memset"(%fill) {value = 1.5 : f32, engine = "vector"} : (memref<2x4xf32, "sbuf">) -> ()
    "nisa.memset"(%ifill) {value = -7, engine = "gpsimd"} : (memref<2x4xi32, "sbuf">) -> ()
    return
  }
  func.func @affine(%iota: memref<2x4xi32, "sbuf">, %a: memref<2x4xf32, "sbuf">, %mask: memref<2x4xf32, "sbuf">) {
    "nisa.iota"(%iota) {pattern = array<i64: 1, 4>, offset = 10, channel_multiplier = 100}
        : (memref<2x4xi32, "sbuf">) -> ()
    "nisa.tensor_scalar_affine_select"(%mask, %a) {pattern = array<i64: 1, 4>, channel_multiplier = -1,
                                                   on_false_value = -9.0 : f32, cmp_op = "is_ge"}
        : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    return
  }
}
