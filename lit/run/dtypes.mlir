// Every element type through .npy and back, bit for bit: numpy's own dtypes by their descr,
// bfloat16 / fp8 / the MX types as raw bits ('<u2' written; '|V2', '<V2', 'bfloat16' and
// big-endian '>u2' read), big-endian and Fortran-order files, and version 2 and 3 headers.
// Each @f copies argument 2k into argument 2k+1 with an HBM -> HBM dma_copy (a bit copy).
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py write %t/i8.npy '|i1' 3 -128,127,-1 \
// RUN:   + write %t/i16.npy '<i2' 3 -32768,32767,-1 \
// RUN:   + write %t/i32.npy '>i4' 3 -2147483648,2147483647,-1 \
// RUN:   + write %t/i64.npy '<i8' 3 -9223372036854775808,9223372036854775807,-1 \
// RUN:   + write %t/u8.npy '|u1' 3 0,255,7 \
// RUN:   + write %t/u16.npy '>u2' 3 0,65535,7 \
// RUN:   + write %t/u32.npy '<u4' 3 0,4294967295,7 \
// RUN:   + write %t/u64.npy '<u8' 3 0,18446744073709551615,7 \
// RUN:   + write %t/f16.npy '<f2' 3 1.5,-0.0,65504 --version 2 \
// RUN:   + write %t/f32.npy '>f4' 3 0.1,-inf,3.0 --version 3 \
// RUN:   + write %t/bf16.npy '|V2' 3 0x3fc0,0x7f80,0xffc1 \
// RUN:   + write %t/e4m3fn.npy '|u1' 3 0x38,0x7f,0x80 \
// RUN:   + write %t/e5m2.npy '|V1' 3 0x3c,0x7c,0x7f \
// RUN:   + write %t/mx.npy '<u4' 3 0x01020304,0xffffffff,0 \
// RUN:   + write %t/e8m0.npy '|u1' 3 127,0,255
// RUN: sundial-run %s --func scalar_types \
// RUN:   --arg 0=%t/i8.npy --arg 2=%t/i16.npy --arg 4=%t/i32.npy --arg 6=%t/i64.npy \
// RUN:   --arg 8=%t/u8.npy --arg 10=%t/u16.npy --arg 12=%t/u32.npy --arg 14=%t/u64.npy \
// RUN:   --arg 16=%t/f16.npy --arg 18=%t/f32.npy --arg 20=%t/bf16.npy --arg 22=%t/e4m3fn.npy \
// RUN:   --arg 24=%t/e5m2.npy --arg 26=%t/mx.npy --arg 28=%t/e8m0.npy \
// RUN:   --save 1=%t/o-i8.npy --save 3=%t/o-i16.npy --save 5=%t/o-i32.npy --save 7=%t/o-i64.npy \
// RUN:   --save 9=%t/o-u8.npy --save 11=%t/o-u16.npy --save 13=%t/o-u32.npy --save 15=%t/o-u64.npy \
// RUN:   --save 17=%t/o-f16.npy --save 19=%t/o-f32.npy --save 21=%t/o-bf16.npy --save 23=%t/o-e4m3fn.npy \
// RUN:   --save 25=%t/o-e5m2.npy --save 27=%t/o-mx.npy --save 29=%t/o-e8m0.npy
// RUN: python3 %S/Inputs/npy.py dump %t/o-i8.npy \
// RUN:   + dump %t/o-i16.npy \
// RUN:   + dump %t/o-i32.npy \
// RUN:   + dump %t/o-i64.npy \
// RUN:   + dump %t/o-u8.npy \
// RUN:   + dump %t/o-u16.npy \
// RUN:   + dump %t/o-u32.npy \
// RUN:   + dump %t/o-u64.npy \
// RUN:   + dump %t/o-f16.npy \
// RUN:   + dump %t/o-f32.npy \
// RUN:   + dump %t/o-bf16.npy \
// RUN:   + dump %t/o-e4m3fn.npy \
// RUN:   + dump %t/o-e5m2.npy \
// RUN:   + dump %t/o-mx.npy \
// RUN:   + dump %t/o-e8m0.npy \
// RUN:   | FileCheck %s --check-prefixes=I8,I16,I32,I64,U8,U16,U32,U64,F16,F32,BF16,E4M3FN,E5M2,MX,E8M0
// I8: descr=|i1 fortran=False shape=(3,)
// I8-NEXT: {{^}}-128 127 -1{{$}}
// I16: descr=<i2
// I16-NEXT: {{^}}-32768 32767 -1{{$}}
// I32: descr=<i4
// I32-NEXT: {{^}}-2147483648 2147483647 -1{{$}}
// I64: descr=<i8
// I64-NEXT: {{^}}-9223372036854775808 9223372036854775807 -1{{$}}
// U8: descr=|u1
// U8-NEXT: {{^}}0 255 7{{$}}
// U16: descr=<u2
// U16-NEXT: {{^}}0 65535 7{{$}}
// U32: descr=<u4
// U32-NEXT: {{^}}0 4294967295 7{{$}}
// U64: descr=<u8
// U64-NEXT: {{^}}0 18446744073709551615 7{{$}}
// F16: descr=<f2
// F16-NEXT: {{^}}1.5 -0.0 65504.0{{$}}
// 0.1 is the f32 nearest 0.1, printed as a double by the helper.
// F32: descr=<f4
// F32-NEXT: {{^}}0.10000000149011612 -inf 3.0{{$}}
// bfloat16 is written as its bits in '<u2': 1.5, +inf and a NaN with a payload, unchanged.
// BF16: descr=<u2 fortran=False shape=(3,)
// BF16-NEXT: {{^}}16320 32640 65473{{$}}
// E4M3FN: descr=|u1
// E4M3FN-NEXT: {{^}}56 127 128{{$}}
// E5M2: descr=|u1
// E5M2-NEXT: {{^}}60 124 127{{$}}
// MX: descr=<u4
// MX-NEXT: {{^}}16909060 4294967295 0{{$}}
// E8M0: descr=|u1
// E8M0-NEXT: {{^}}127 0 255{{$}}
//
// bfloat16 from '<u2', '<V2', the ml_dtypes name and big-endian '>u2' reads the same bits.
// RUN: python3 %S/Inputs/npy.py write %t/bf16-u2.npy '<u2' 3 0x3fc0,0x7f80,0xffc1 \
// RUN:   + write %t/bf16-v2.npy '<V2' 3 0x3fc0,0x7f80,0xffc1 \
// RUN:   + write %t/bf16-name.npy 'bfloat16' 3 0x3fc0,0x7f80,0xffc1 \
// RUN:   + write %t/bf16-be.npy '>u2' 3 0x3fc0,0x7f80,0xffc1
// RUN: sundial-run %s --func bf16 --arg 0=%t/bf16-u2.npy --arg 1=%t/bf16-v2.npy --arg 2=%t/bf16-name.npy --arg 3=%t/bf16-be.npy \
// RUN:   --save 0=%t/b0.npy --save 1=%t/b1.npy --save 2=%t/b2.npy --save 3=%t/b3.npy
// RUN: python3 %S/Inputs/npy.py dump %t/b0.npy + dump %t/b1.npy + dump %t/b2.npy + dump %t/b3.npy | FileCheck %s --check-prefix=FOURBF16
// FOURBF16-COUNT-4: {{^}}16320 32640 65473{{$}}
//
// A Fortran-order file is read in its own order: element [i, j] is the same number.
// RUN: python3 %S/Inputs/npy.py write %t/fortran.npy '<i4' 2,3 iota --fortran
// RUN: python3 %S/Inputs/npy.py dump %t/fortran.npy | FileCheck %s --check-prefix=FILE
// FILE: descr=<i4 fortran=True shape=(2, 3)
// FILE-NEXT: {{^}}0 3 1 4 2 5{{$}}
// RUN: sundial-run %s --func matrix --arg 0=%t/fortran.npy --save 1=%t/c-order.npy
// RUN: python3 %S/Inputs/npy.py dump %t/c-order.npy | FileCheck %s --check-prefix=CORDER
// CORDER: descr=<i4 fortran=False shape=(2, 3)
// CORDER-NEXT: {{^}}0 1 2 3 4 5{{$}}
//
// tf32 arguments are fp32 storage ('<f4').
// RUN: python3 %S/Inputs/npy.py write %t/tf32.npy '<f4' 2 0.5,2.0
// RUN: sundial-run %s --func tf32 --arg 0=%t/tf32.npy --save 0=%t/o-tf32.npy
// RUN: python3 %S/Inputs/npy.py dump %t/o-tf32.npy | FileCheck %s --check-prefix=TF32
// TF32: descr=<f4 fortran=False shape=(2,)
// TF32-NEXT: {{^}}0.5 2.0{{$}}

module attributes {sundial.target = "mariana"} {
  func.func @scalar_types(
      %i8: memref<3xi8, "hbm">, %oi8: memref<3xi8, "hbm">,
      %i16: memref<3xi16, "hbm">, %oi16: memref<3xi16, "hbm">,
      %i32: memref<3xi32, "hbm">, %oi32: memref<3xi32, "hbm">,
      %i64: memref<3xi64, "hbm">, %oi64: memref<3xi64, "hbm">,
      %u8: memref<3xui8, "hbm">, %ou8: memref<3xui8, "hbm">,
      %u16: memref<3xui16, "hbm">, %ou16: memref<3xui16, "hbm">,
      %u32: memref<3xui32, "hbm">, %ou32: memref<3xui32, "hbm">,
      %u64: memref<3xui64, "hbm">, %ou64: memref<3xui64, "hbm">,
      %f16: memref<3xf16, "hbm">, %of16: memref<3xf16, "hbm">,
      %f32: memref<3xf32, "hbm">, %of32: memref<3xf32, "hbm">,
      %bf16: memref<3xbf16, "hbm">, %obf16: memref<3xbf16, "hbm">,
      %e4m3fn: memref<3xf8E4M3FN, "hbm">, %oe4m3fn: memref<3xf8E4M3FN, "hbm">,
      %e5m2: memref<3xf8E5M2, "hbm">, %oe5m2: memref<3xf8E5M2, "hbm">,
      %mx: memref<3xvector<4xf8E4M3FN>, "hbm">, %omx: memref<3xvector<4xf8E4M3FN>, "hbm">,
      %e8m0: memref<3xf8E8M0FNU, "hbm">, %oe8m0: memref<3xf8E8M0FNU, "hbm">) {
    "nisa.dma_copy"(%oi8, %i8) : (memref<3xi8, "hbm">, memref<3xi8, "hbm">) -> ()
    "nisa.dma_copy"(%oi16, %i16) : (memref<3xi16, "hbm">, memref<3xi16, "hbm">) -> ()
    "nisa.dma_copy"(%oi32, %i32) : (memref<3xi32, "hbm">, memref<3xi32, "hbm">) -> ()
    "nisa.dma_copy"(%oi64, %i64) : (memref<3xi64, "hbm">, memref<3xi64, "hbm">) -> ()
    "nisa.dma_copy"(%ou8, %u8) : (memref<3xui8, "hbm">, memref<3xui8, "hbm">) -> ()
    "nisa.dma_copy"(%ou16, %u16) : (memref<3xui16, "hbm">, memref<3xui16, "hbm">) -> ()
    "nisa.dma_copy"(%ou32, %u32) : (memref<3xui32, "hbm">, memref<3xui32, "hbm">) -> ()
    "nisa.dma_copy"(%ou64, %u64) : (memref<3xui64, "hbm">, memref<3xui64, "hbm">) -> ()
    "nisa.dma_copy"(%of16, %f16) : (memref<3xf16, "hbm">, memref<3xf16, "hbm">) -> ()
    "nisa.dma_copy"(%of32, %f32) : (memref<3xf32, "hbm">, memref<3xf32, "hbm">) -> ()
    "nisa.dma_copy"(%obf16, %bf16) : (memref<3xbf16, "hbm">, memref<3xbf16, "hbm">) -> ()
    "nisa.dma_copy"(%oe4m3fn, %e4m3fn) : (memref<3xf8E4M3FN, "hbm">, memref<3xf8E4M3FN, "hbm">) -> ()
    "nisa.dma_copy"(%oe5m2, %e5m2) : (memref<3xf8E5M2, "hbm">, memref<3xf8E5M2, "hbm">) -> ()
    "nisa.dma_copy"(%omx, %mx) : (memref<3xvector<4xf8E4M3FN>, "hbm">, memref<3xvector<4xf8E4M3FN>, "hbm">) -> ()
    "nisa.dma_copy"(%oe8m0, %e8m0) : (memref<3xf8E8M0FNU, "hbm">, memref<3xf8E8M0FNU, "hbm">) -> ()
    return
  }
  func.func @bf16(%a: memref<3xbf16, "hbm">, %b: memref<3xbf16, "hbm">, %c: memref<3xbf16, "hbm">, %d: memref<3xbf16, "hbm">) {
    return
  }
  func.func @matrix(%a: memref<2x3xi32, "hbm">, %b: memref<2x3xi32, "hbm">) {
    "nisa.dma_copy"(%b, %a) : (memref<2x3xi32, "hbm">, memref<2x3xi32, "hbm">) -> ()
    return
  }
  func.func @tf32(%a: memref<2xtf32, "hbm">) {
    return
  }
}
