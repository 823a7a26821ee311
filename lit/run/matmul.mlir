// sundial-run on the Tensor engine: matmul into a PSUM tile with its accumulation groups
// (the first write to a location overwrites, later ones accumulate, accumulate = false
// overwrites again), the PE transpose, and MX: quantize_mx under both --mx-scale-rule
// values and matmul_mx of the quantised tiles. PSUM is copied out with tensor_copy (DMA
// cannot read PSUM). Expected values are worked out by hand above each CHECK line.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py write %t/st.npy '<f4' 2,2 1,2,3,4 + write %t/mv.npy '<f4' 2,3 1,0,2,0,1,3 + write %t/tst.npy '<f4' 2,3 1,2,3,4,5,6 + write %t/id.npy '<f4' 2,2 1,0,0,1
// RUN: sundial-run %s --func matmul --arg 0=%t/st.npy --arg 1=%t/mv.npy --arg 5=%t/tst.npy --arg 6=%t/id.npy --save 2=%t/first.npy --save 3=%t/second.npy --save 4=%t/third.npy --save 7=%t/tr.npy
// RUN: python3 %S/Inputs/npy.py dump %t/first.npy + dump %t/second.npy + dump %t/third.npy + dump %t/tr.npy | FileCheck %s --check-prefix=MM
// st.T @ mv: [1*1+3*0, 1*0+3*1, 1*2+3*3], [2*1+4*0, 2*0+4*1, 2*2+4*3]
// MM: {{^}}1.0 3.0 11.0 2.0 4.0 16.0{{$}}
// the same again accumulates onto the written PSUM locations: twice that
// MM: {{^}}2.0 6.0 22.0 4.0 8.0 32.0{{$}}
// MM: {{^}}1.0 3.0 11.0 2.0 4.0 16.0{{$}}
// the PE transpose of [[1, 2, 3], [4, 5, 6]]
// MM: shape=(3, 2)
// MM-NEXT: {{^}}1.0 4.0 2.0 5.0 3.0 6.0{{$}}
//
// quantize_mx of ones (bf16 0x3f80): the largest biased exponent of every 8 x 4 group is 127.
// golden-emax (the default): scale code 127 - 8 = 119 (2^-8), so each value is 1 / 2^-8 =
// 256 = e4m3fn 0x78; twice-ocp: code 120 (2^-7), 128 = 0x70. matmul_mx of the dequantised
// ones sums 32 partitions x 4 lanes of 1 * 1 = 128 under either rule.
// RUN: python3 %S/Inputs/npy.py write %t/ones8.npy '<u2' 32,8 'iota*0+16256' + write %t/ones4.npy '<u2' 32,4 'iota*0+16256'
// RUN: sundial-run %s --func mx --arg 0=%t/ones8.npy --arg 3=%t/ones4.npy --save 1=%t/q.npy --save 2=%t/qs.npy --save 6=%t/mm.npy
// RUN: python3 %S/Inputs/npy.py dump %t/q.npy + dump %t/qs.npy + dump %t/mm.npy | FileCheck %s --check-prefix=GOLDEN
// GOLDEN: descr=<u4 fortran=False shape=(32, 2)
// GOLDEN-NEXT: {{^(2021161080 ){63}2021161080$}}
// GOLDEN: {{^}}119 119 119 119 119 119 119 119{{$}}
// GOLDEN: {{^}}128.0 128.0{{$}}
// RUN: sundial-run %s --func mx --mx-scale-rule=twice-ocp --arg 0=%t/ones8.npy --arg 3=%t/ones4.npy --save 1=%t/q2.npy --save 2=%t/qs2.npy --save 6=%t/mm2.npy
// RUN: python3 %S/Inputs/npy.py dump %t/q2.npy + dump %t/qs2.npy + dump %t/mm2.npy | FileCheck %s --check-prefix=TWICE
// TWICE: {{^(1886417008 ){63}1886417008$}}
// TWICE: {{^}}120 120 120 120 120 120 120 120{{$}}
// TWICE: {{^}}128.0 128.0{{$}}
// The option's values are checked.
// RUN: not sundial-run %s --func mx --mx-scale-rule=ocp 2>&1 | FileCheck %s --check-prefix=BADRULE
// BADRULE: error: invalid value 'ocp' for '--mx-scale-rule <RULE>'
// BADRULE: [possible values: golden-emax, twice-ocp]

module attributes {sundial.target = "mariana"} {
  func.func @matmul(%st: memref<2x2xf32, "sbuf">, %mv: memref<2x3xf32, "sbuf">, %first: memref<2x3xf32, "sbuf">,
                    %second: memref<2x3xf32, "sbuf">, %third: memref<2x3xf32, "sbuf">, %tst: memref<2x3xf32, "sbuf">,
                    %id: memref<2x2xf32, "sbuf">, %tr: memref<3x2xf32, "sbuf">) {
    %ps = "nisa.alloc"() {name = "acc"} : () -> memref<2x3xf32, "psum">
    "nisa.matmul"(%ps, %st, %mv) : (memref<2x3xf32, "psum">, memref<2x2xf32, "sbuf">, memref<2x3xf32, "sbuf">) -> ()
    "nisa.tensor_copy"(%first, %ps) : (memref<2x3xf32, "sbuf">, memref<2x3xf32, "psum">) -> ()
    "nisa.matmul"(%ps, %st, %mv) : (memref<2x3xf32, "psum">, memref<2x2xf32, "sbuf">, memref<2x3xf32, "sbuf">) -> ()
    "nisa.tensor_copy"(%second, %ps) : (memref<2x3xf32, "sbuf">, memref<2x3xf32, "psum">) -> ()
    "nisa.matmul"(%ps, %st, %mv) {accumulate = false} : (memref<2x3xf32, "psum">, memref<2x2xf32, "sbuf">, memref<2x3xf32, "sbuf">) -> ()
    "nisa.tensor_copy"(%third, %ps) : (memref<2x3xf32, "sbuf">, memref<2x3xf32, "psum">) -> ()
    %pt = "nisa.alloc"() {name = "transposed"} : () -> memref<3x2xf32, "psum">
    "nisa.matmul"(%pt, %tst, %id) {is_transpose = true} : (memref<3x2xf32, "psum">, memref<2x3xf32, "sbuf">, memref<2x2xf32, "sbuf">) -> ()
    "nisa.tensor_copy"(%tr, %pt) : (memref<3x2xf32, "sbuf">, memref<3x2xf32, "psum">) -> ()
    return
  }
  func.func @mx(%s8: memref<32x8xbf16, "sbuf">, %q: memref<32x2xvector<4xf8E4M3FN>, "sbuf">, %qs: memref<4x2xui8, "sbuf">,
                %s4: memref<32x4xbf16, "sbuf">, %m: memref<32x1xvector<4xf8E4M3FN>, "sbuf">, %ms: memref<4x1xui8, "sbuf">,
                %mm: memref<2x1xf32, "sbuf">) {
    "nisa.quantize_mx"(%q, %qs, %s8) : (memref<32x2xvector<4xf8E4M3FN>, "sbuf">, memref<4x2xui8, "sbuf">, memref<32x8xbf16, "sbuf">) -> ()
    "nisa.quantize_mx"(%m, %ms, %s4) : (memref<32x1xvector<4xf8E4M3FN>, "sbuf">, memref<4x1xui8, "sbuf">, memref<32x4xbf16, "sbuf">) -> ()
    %ps = "nisa.alloc"() {name = "mx"} : () -> memref<2x1xf32, "psum">
    "nisa.matmul_mx"(%ps, %q, %m, %qs, %ms)
        : (memref<2x1xf32, "psum">, memref<32x2xvector<4xf8E4M3FN>, "sbuf">, memref<32x1xvector<4xf8E4M3FN>, "sbuf">,
           memref<4x2xui8, "sbuf">, memref<4x1xui8, "sbuf">) -> ()
    "nisa.tensor_copy"(%mm, %ps) : (memref<2x1xf32, "sbuf">, memref<2x1xf32, "psum">) -> ()
    return
  }
}
