// sundial-run on a DMA kernel: HBM -> SBUF -> HBM, a conversion to f16 on the way out, an
// argument nobody gives (zero-filled), LLVM's single-dash spellings and stdin.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py write %t/a.npy '<f4' 2,3 1.5,-2,3.25,0,7,-0.5
// RUN: sundial-run %s --arg 0=%t/a.npy --save 1=%t/out.npy --save 2=%t/half.npy --save 3=%t/zero.npy
// RUN: python3 %S/Inputs/npy.py dump %t/out.npy | FileCheck %s --check-prefix=OUT
// RUN: python3 %S/Inputs/npy.py dump %t/half.npy | FileCheck %s --check-prefix=HALF
// RUN: python3 %S/Inputs/npy.py dump %t/zero.npy | FileCheck %s --check-prefix=ZERO
// The input comes back unchanged, the f16 copy holds the same (exactly representable) values,
// and the argument no --arg gave is all zeros.
// OUT: descr=<f4 fortran=False shape=(2, 3)
// OUT-NEXT: {{^}}1.5 -2.0 3.25 0.0 7.0 -0.5{{$}}
// HALF: descr=<f2 fortran=False shape=(2, 3)
// HALF-NEXT: {{^}}1.5 -2.0 3.25 0.0 7.0 -0.5{{$}}
// ZERO: descr=<i4 fortran=False shape=(4,)
// ZERO-NEXT: {{^}}0 0 0 0{{$}}
//
// The same run from stdin, with single-dash options, writes the same file.
// RUN: sundial-run -arg 0=%t/a.npy -save=1=%t/stdin.npy < %s
// RUN: python3 %S/Inputs/npy.py dump %t/stdin.npy | FileCheck %s --check-prefix=OUT
// RUN: sundial-run - -arg 0=%t/a.npy -save=1=%t/dash.npy < %s
// RUN: python3 %S/Inputs/npy.py dump %t/dash.npy | FileCheck %s --check-prefix=OUT
//
// --func picks another function of the module: @swap writes argument 0 into argument 1.
// RUN: python3 %S/Inputs/npy.py write %t/b.npy '<f4' 2,3 iota
// RUN: sundial-run %s --func swap --arg 0=%t/b.npy --save 1=%t/swapped.npy
// RUN: python3 %S/Inputs/npy.py dump %t/swapped.npy | FileCheck %s --check-prefix=SWAP
// SWAP: {{^}}0.0 1.0 2.0 3.0 4.0 5.0{{$}}
//
// A run without --save writes nothing and prints nothing.
// RUN: sundial-run %s --arg 0=%t/a.npy 2>&1 | count 0

module {
  func.func @copy(%a: memref<2x3xf32, "hbm">, %out: memref<2x3xf32, "hbm">,
                  %half: memref<2x3xf16, "hbm">, %zero: memref<4xi32, "hbm">) {
    %t = "nisa.alloc"() {name = "t"} : () -> memref<2x3xf32, "sbuf">
    "nisa.dma_copy"(%t, %a) : (memref<2x3xf32, "sbuf">, memref<2x3xf32, "hbm">) -> ()
    "nisa.dma_copy"(%out, %t) : (memref<2x3xf32, "hbm">, memref<2x3xf32, "sbuf">) -> ()
    "nisa.dma_copy"(%half, %t) : (memref<2x3xf16, "hbm">, memref<2x3xf32, "sbuf">) -> ()
    return
  }
  func.func @swap(%a: memref<2x3xf32, "hbm">, %b: memref<2x3xf32, "hbm">) {
    "nisa.dma_copy"(%b, %a) : (memref<2x3xf32, "hbm">, memref<2x3xf32, "hbm">) -> ()
    return
  }
}
