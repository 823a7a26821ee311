// --random-inputs SEED: deterministic, per-argument streams, documented distributions.
// RUN: rm -rf %t && mkdir -p %t
//
// Pinned values. With SEED = 0x9E3779B97F4A7C15 = 11400714819323198485, argument 0's
// SplitMix64 state starts at 0, whose first draw is the published test vector
// 0xe220a8397b1dcdaf. By the distributions of src/run/random.rs: uint8 takes draw % 128 = 47;
// int32 takes draw % 128 - 64 = -17; float32 takes ((draw >> 40) - 2^23) / 2^23
// = 6430888 / 8388608 = 0.7666215896606445; bfloat16 rounds that to 1.53125 * 2^-1 = 0.765625
// = 0x3f44 = 16196; float16 to 1570 / 2048 = 0.7666015625; float8_e8m0fnu takes
// 2^(draw % 17 - 8) = 2^4, code 127 + 4 = 131.
// RUN: sundial-run %s --func u8 --random-inputs 11400714819323198485 --save 0=%t/u8.npy
// RUN: python3 %S/Inputs/npy.py dump %t/u8.npy | FileCheck %s --check-prefix=U8
// U8: {{^}}47{{$}}
// RUN: sundial-run %s --func i32 --random-inputs 11400714819323198485 --save 0=%t/i32.npy
// RUN: python3 %S/Inputs/npy.py dump %t/i32.npy | FileCheck %s --check-prefix=I32
// I32: {{^}}-17{{$}}
// RUN: sundial-run %s --func f32 --random-inputs 11400714819323198485 --save 0=%t/f32.npy
// RUN: python3 %S/Inputs/npy.py dump %t/f32.npy | FileCheck %s --check-prefix=F32
// F32: {{^}}0.7666215896606445{{$}}
// RUN: sundial-run %s --func bf16 --random-inputs 11400714819323198485 --save 0=%t/bf16.npy
// RUN: python3 %S/Inputs/npy.py dump %t/bf16.npy | FileCheck %s --check-prefix=BF16
// BF16: {{^}}16196{{$}}
// RUN: sundial-run %s --func f16 --random-inputs 11400714819323198485 --save 0=%t/f16.npy
// RUN: python3 %S/Inputs/npy.py dump %t/f16.npy | FileCheck %s --check-prefix=F16
// F16: {{^}}0.7666015625{{$}}
// RUN: sundial-run %s --func e8m0 --random-inputs 11400714819323198485 --save 0=%t/e8m0.npy
// RUN: python3 %S/Inputs/npy.py dump %t/e8m0.npy | FileCheck %s --check-prefix=E8M0
// E8M0: {{^}}131{{$}}
//
// The same seed gives the same arrays; another seed other arrays; an --arg for one argument
// leaves the others' streams unchanged; the values stay in the documented ranges.
// RUN: sundial-run %s --func many --random-inputs 7 --save 0=%t/a0.npy --save 1=%t/a1.npy
// RUN: sundial-run %s --func many --random-inputs 7 --save 0=%t/b0.npy --save 1=%t/b1.npy
// RUN: cmp %t/a0.npy %t/b0.npy
// RUN: cmp %t/a1.npy %t/b1.npy
// RUN: sundial-run %s --func many --random-inputs 8 --save 0=%t/c0.npy --save 1=%t/c1.npy
// RUN: not cmp %t/a1.npy %t/c1.npy
// RUN: sundial-run %s --func many --random-inputs 7 --arg 0=%t/c0.npy --save 1=%t/d1.npy
// RUN: cmp %t/a1.npy %t/d1.npy
// RUN: python3 %S/Inputs/npy.py dump %t/a0.npy | FileCheck %s --check-prefix=RANGE
// RANGE: shape=(64,)
// RANGE-NEXT: {{^((-64|-?([1-5]?[0-9]|6[0-3])) ?)+$}}
// RUN: python3 %S/Inputs/npy.py dump %t/a1.npy | FileCheck %s --check-prefix=UNIT
// UNIT: shape=(64,)
// UNIT-NEXT: {{^(-?0\.[0-9e-]+ ?|-1\.0 ?)+$}}

module {
  func.func @u8(%a: memref<1xui8, "hbm">) {
    return
  }
  func.func @i32(%a: memref<1xi32, "hbm">) {
    return
  }
  func.func @f32(%a: memref<1xf32, "hbm">) {
    return
  }
  func.func @bf16(%a: memref<1xbf16, "hbm">) {
    return
  }
  func.func @f16(%a: memref<1xf16, "hbm">) {
    return
  }
  func.func @e8m0(%a: memref<1xf8E8M0FNU, "hbm">) {
    return
  }
  func.func @many(%a: memref<64xi32, "hbm">, %b: memref<64xf32, "hbm">) {
    return
  }
}
