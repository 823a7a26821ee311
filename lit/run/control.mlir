// Structured control flow beyond plain loops: scf.for with loop-carried values (iter_args) of
// every kind a run binds (index, float, register, tile), unsigned loops, scf.if with and
// without results and else regions, float arith scalars reaching the kernel through integers,
// and index / register arguments given on the command line. The expected values are worked
// out by hand from the inputs (x = iota: x[i, j] = 8 i + j, element k of x is k).
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py write %t/x.npy '<f4' 4,8 iota + write %t/idx.npy '<i4' 3,1 5,2,7 + write %t/lo.npy '<i8' '' 1
//
// A carried offset walks the rows backwards (24, 16, 8, 0; each iteration yields acc - 8);
// the loop's result is -8, and -8 + 8 = 0 prints row 0 again.
// RUN: sundial-run %s --func carried_index --arg 0=%t/x.npy | FileCheck %s --check-prefix=INDEX
// INDEX: {{^}}row 1x8xfloat32: 24.0 25.0 26.0 27.0 28.0 29.0 30.0 31.0{{$}}
// INDEX-NEXT: {{^}}row 1x8xfloat32: 16.0 17.0
// INDEX-NEXT: {{^}}row 1x8xfloat32: 8.0 9.0
// INDEX-NEXT: {{^}}row 1x8xfloat32: 0.0 1.0
// INDEX-NEXT: {{^}}after 1x8xfloat32: 0.0 1.0 2.0 3.0 4.0 5.0 6.0 7.0{{$}}
//
// A carried f32 triples three times: 0.5 * 27 = 13.5, fptosi 13 (x[13] = 13.0); 13.5 > 10.0
// takes the then branch; 7 / 2 = 3.5 (sitofp, divf), fptosi 3; select(3.5 < 0, 1, 3) = 3;
// a bf16 constant 2.5 extended to f32 times 2 is 5.0, fptoui 5 (x[5] = 5.0). A loop that runs
// no iteration returns its initial value (0.25, times 4 is 1.0: x[1] = 1.0).
// RUN: sundial-run %s --func carried_float --arg 0=%t/x.npy | FileCheck %s --check-prefix=FLOAT
// FLOAT: {{^}}x[13] 1x1xfloat32: 13.0{{$}}
// FLOAT-NEXT: {{^}}big 1x1xfloat32: 13.0{{$}}
// FLOAT-NEXT: {{^}}x[3] 1x1xfloat32: 3.0{{$}}
// FLOAT-NEXT: {{^}}x[5] 1x1xfloat32: 5.0{{$}}
// FLOAT-NEXT: {{^}}x[1] 1x1xfloat32: 1.0{{$}}
//
// A register carried through the loop: each iteration loads idx[i] (5, 2, 7) into a new
// register and yields it; after the loop the register holds 7 (x[7] = 7.0).
// RUN: sundial-run %s --func carried_register --arg 0=%t/x.npy --arg 1=%t/idx.npy | FileCheck %s --check-prefix=REG
// REG: {{^}}x[r] 1x1xfloat32: 7.0{{$}}
//
// Two tiles swap roles every iteration (ping-pong): dst = src + 1 three times from a zero
// tile, so the first result is 3 and the second 2.
// RUN: sundial-run %s --func carried_tiles | FileCheck %s --check-prefix=TILES
// TILES: {{^}}first 1x4xfloat32: 3.0 3.0 3.0 3.0{{$}}
// TILES-NEXT: {{^}}second 1x4xfloat32: 2.0 2.0 2.0 2.0{{$}}
//
// An unsigned i8 loop from 0 to -1 (255 unsigned) step 100 runs 3 iterations (0, 100, 200;
// signed it would run none): the count is 3 (x[3]) and the sum of the induction variable,
// zero-extended, 300, which is 12 modulo 32 (x[12]).
// RUN: sundial-run %s --func unsigned_loop --arg 0=%t/x.npy | FileCheck %s --check-prefix=UNSIGNED
// UNSIGNED: {{^}}count 1x1xfloat32: 3.0{{$}}
// UNSIGNED-NEXT: {{^}}sum 1x1xfloat32: 12.0{{$}}
//
// scf.if without results (with and without else) and with a result, on an index argument:
// n = 2 < 4 prints x[2] in both then branches and picks n; n = 9 prints x[0] from the else
// branch, nothing from the if without else, and picks 0 (arith.select picks 1 for n = 9).
// RUN: sundial-run %s --func branches --arg 0=%t/x.npy --arg 1=2 | FileCheck %s --check-prefix=SMALL
// SMALL: {{^}}small 1x1xfloat32: 2.0{{$}}
// SMALL-NEXT: {{^}}then-only 1x1xfloat32: 2.0{{$}}
// SMALL-NEXT: {{^}}chosen 1x1xfloat32: 2.0{{$}}
// SMALL-NEXT: {{^}}selected 1x1xfloat32: 2.0{{$}}
// RUN: sundial-run %s --func branches --arg 0=%t/x.npy --arg 1=9 | FileCheck %s --check-prefix=LARGE
// LARGE: {{^}}large 1x1xfloat32: 0.0{{$}}
// LARGE-NEXT: {{^}}chosen 1x1xfloat32: 0.0{{$}}
// LARGE-NEXT: {{^}}selected 1x1xfloat32: 1.0{{$}}
//
// Run-time loop bounds from index arguments (a number, or a .npy file of shape ()): i from 1
// to 7 step 2 copies x[0, 1], x[0, 3], x[0, 5] into out; the rest stays zero.
// RUN: sundial-run %s --func runtime_bounds --arg 0=%t/x.npy --arg 2=%t/lo.npy --arg 3=7 --arg 4=0x2 --save 1=%t/out.npy
// RUN: python3 %S/Inputs/npy.py dump %t/out.npy | FileCheck %s --check-prefix=BOUNDS
// BOUNDS: shape=(1, 8)
// BOUNDS-NEXT: 0.0 1.0 0.0 3.0 0.0 5.0 0.0 0.0
//
// A register argument: its value (3) is the trip count of a dynamic_range loop that copies 3
// rows; the kernel then sets it to 42, which --save writes as a 0-d int64 array.
// RUN: sundial-run %s --func register_arg --arg 0=%t/x.npy --arg 2=3 --save 1=%t/rows.npy --save 2=%t/r.npy
// RUN: python3 %S/Inputs/npy.py dump %t/rows.npy + dump %t/r.npy | FileCheck %s --check-prefix=REGARG
// REGARG: shape=(4, 8)
// REGARG-NEXT: 0.0 1.0 2.0 3.0 4.0 5.0 6.0 7.0 8.0 9.0 10.0 11.0 12.0 13.0 14.0 15.0 16.0 17.0 18.0 19.0 20.0 21.0 22.0 23.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0
// REGARG: descr=<i8 fortran=False shape=()
// REGARG-NEXT: {{^}}42{{$}}
//
// Every kernel computes the same after sundial-unroll.
// RUN: sundial-run %s --func carried_index --random-inputs 1 --compare-pipeline='builtin.module(sundial-unroll)' | FileCheck %s --check-prefix=UNROLL
// RUN: sundial-run %s --func carried_float --random-inputs 1 --compare-pipeline='builtin.module(sundial-unroll)' | FileCheck %s --check-prefix=UNROLL
// RUN: sundial-run %s --func carried_tiles --compare-pipeline='builtin.module(sundial-unroll)' | FileCheck %s --check-prefix=UNROLL
// RUN: sundial-run %s --func branches --arg 1=3 --random-inputs 1 --compare-pipeline='builtin.module(sundial-unroll)' | FileCheck %s --check-prefix=UNROLL
// UNROLL: computes the same after 'builtin.module(sundial-unroll)'

module {
  func.func @carried_index(%x: memref<4x8xf32, "hbm">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c24 = arith.constant 24 : index
    %end = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %c24) -> (index) {
      %row = "nisa.dynamic_ap"(%x, %acc) {pattern = array<i64: 8, 1, 1, 8>}
          : (memref<4x8xf32, "hbm">, index) -> memref<1x8xf32, "hbm">
      "nisa.device_print"(%row) {prefix = "row"} : (memref<1x8xf32, "hbm">) -> ()
      %next = arith.subi %acc, %c8 : index
      scf.yield %next : index
    }
    %back = arith.addi %end, %c8 : index
    %a = "nisa.dynamic_ap"(%x, %back) {pattern = array<i64: 8, 1, 1, 8>}
        : (memref<4x8xf32, "hbm">, index) -> memref<1x8xf32, "hbm">
    "nisa.device_print"(%a) {prefix = "after"} : (memref<1x8xf32, "hbm">) -> ()
    return
  }

  func.func @carried_float(%x: memref<4x8xf32, "hbm">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %half = arith.constant 0.5 : f32
    %three = arith.constant 3.0 : f32
    %ten = arith.constant 10.0 : f32
    %v = scf.for %i = %c0 to %c3 step %c1 iter_args(%f = %half) -> (f32) {
      %g = arith.mulf %f, %three : f32
      scf.yield %g : f32
    }
    %k = arith.fptosi %v : f32 to i32
    %ki = arith.index_cast %k : i32 to index
    %e = "nisa.dynamic_ap"(%x, %ki) {pattern = array<i64: 1, 1, 1, 1>}
        : (memref<4x8xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
    "nisa.device_print"(%e) {prefix = "x[13]"} : (memref<1x1xf32, "hbm">) -> ()
    %big = arith.cmpf ogt, %v, %ten : f32
    scf.if %big {
      "nisa.device_print"(%e) {prefix = "big"} : (memref<1x1xf32, "hbm">) -> ()
    } else {
      "nisa.device_print"(%e) {prefix = "small"} : (memref<1x1xf32, "hbm">) -> ()
    }
    %seven = arith.constant 7 : i32
    %two = arith.constant 2.0 : f32
    %zero = arith.constant 0.0 : f32
    %sf = arith.sitofp %seven : i32 to f32
    %q = arith.divf %sf, %two : f32
    %neg = arith.cmpf olt, %q, %zero : f32
    %qi = arith.fptosi %q : f32 to i64
    %one = arith.constant 1 : i64
    %pick = arith.select %neg, %one, %qi : i64
    %pi = arith.index_cast %pick : i64 to index
    %e3 = "nisa.dynamic_ap"(%x, %pi) {pattern = array<i64: 1, 1, 1, 1>}
        : (memref<4x8xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
    "nisa.device_print"(%e3) {prefix = "x[3]"} : (memref<1x1xf32, "hbm">) -> ()
    %b = arith.constant 2.5 : bf16
    %bf = arith.extf %b : bf16 to f32
    %b2 = arith.mulf %bf, %two : f32
    %bu = arith.fptoui %b2 : f32 to i32
    %bi = arith.index_castui %bu : i32 to index
    %e5 = "nisa.dynamic_ap"(%x, %bi) {pattern = array<i64: 1, 1, 1, 1>}
        : (memref<4x8xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
    "nisa.device_print"(%e5) {prefix = "x[5]"} : (memref<1x1xf32, "hbm">) -> ()
    %quarter = arith.constant 0.25 : f32
    %four = arith.constant 4.0 : f32
    %w = scf.for %i = %c3 to %c1 step %c1 iter_args(%f = %quarter) -> (f32) {
      %g = arith.mulf %f, %three : f32
      scf.yield %g : f32
    }
    %w4 = arith.mulf %w, %four : f32
    %wi = arith.fptosi %w4 : f32 to i32
    %wx = arith.index_cast %wi : i32 to index
    %e1 = "nisa.dynamic_ap"(%x, %wx) {pattern = array<i64: 1, 1, 1, 1>}
        : (memref<4x8xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
    "nisa.device_print"(%e1) {prefix = "x[1]"} : (memref<1x1xf32, "hbm">) -> ()
    return
  }

  func.func @carried_register(%x: memref<4x8xf32, "hbm">, %idx: memref<3x1xi32, "sbuf">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r0 = "nisa.register_alloc"() {value = 0} : () -> !nisa.reg
    %last = scf.for %i = %c0 to %c3 step %c1 iter_args(%r = %r0) -> (!nisa.reg) {
      %e = "nisa.dynamic_ap"(%idx, %i) {pattern = array<i64: 1, 1, 1, 1>}
          : (memref<3x1xi32, "sbuf">, index) -> memref<1x1xi32, "sbuf">
      %n = "nisa.load_register"(%e) : (memref<1x1xi32, "sbuf">) -> !nisa.reg
      scf.yield %n : !nisa.reg
    }
    %k = "nisa.register_index"(%last) : (!nisa.reg) -> index
    %a = "nisa.dynamic_ap"(%x, %k) {pattern = array<i64: 1, 1, 1, 1>}
        : (memref<4x8xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
    "nisa.device_print"(%a) {prefix = "x[r]"} : (memref<1x1xf32, "hbm">) -> ()
    return
  }

  func.func @carried_tiles() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %a = "nisa.alloc"() {name = "a"} : () -> memref<1x4xf32, "sbuf">
    %b = "nisa.alloc"() {name = "b"} : () -> memref<1x4xf32, "sbuf">
    "nisa.memset"(%a) {value = 0.0 : f32} : (memref<1x4xf32, "sbuf">) -> ()
    %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%src = %a, %dst = %b)
        -> (memref<1x4xf32, "sbuf">, memref<1x4xf32, "sbuf">) {
      "nisa.tensor_scalar_arith"(%dst, %src) {op0 = "add", imm0 = 1.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
          : (memref<1x4xf32, "sbuf">, memref<1x4xf32, "sbuf">) -> ()
      scf.yield %dst, %src : memref<1x4xf32, "sbuf">, memref<1x4xf32, "sbuf">
    }
    "nisa.device_print"(%r#0) {prefix = "first"} : (memref<1x4xf32, "sbuf">) -> ()
    "nisa.device_print"(%r#1) {prefix = "second"} : (memref<1x4xf32, "sbuf">) -> ()
    return
  }

  func.func @unsigned_loop(%x: memref<4x8xf32, "hbm">) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %lo = arith.constant 0 : i8
    %hi = arith.constant -1 : i8
    %step = arith.constant 100 : i8
    %n:2 = scf.for unsigned %i = %lo to %hi step %step iter_args(%count = %c0, %sum = %c0) -> (index, index) : i8 {
      %next = arith.addi %count, %c1 : index
      %w = arith.extui %i : i8 to i64
      %wi = arith.index_cast %w : i64 to index
      %s = arith.addi %sum, %wi : index
      scf.yield %next, %s : index, index
    }
    %a = "nisa.dynamic_ap"(%x, %n#0) {pattern = array<i64: 1, 1, 1, 1>}
        : (memref<4x8xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
    "nisa.device_print"(%a) {prefix = "count"} : (memref<1x1xf32, "hbm">) -> ()
    %m = arith.remui %n#1, %c32 : index
    %b = "nisa.dynamic_ap"(%x, %m) {pattern = array<i64: 1, 1, 1, 1>}
        : (memref<4x8xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
    "nisa.device_print"(%b) {prefix = "sum"} : (memref<1x1xf32, "hbm">) -> ()
    return
  }

  func.func @branches(%x: memref<4x8xf32, "hbm">, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %lt = arith.cmpi slt, %n, %c4 : index
    scf.if %lt {
      %a = "nisa.dynamic_ap"(%x, %n) {pattern = array<i64: 1, 1, 1, 1>}
          : (memref<4x8xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
      "nisa.device_print"(%a) {prefix = "small"} : (memref<1x1xf32, "hbm">) -> ()
    } else {
      %a = "nisa.dynamic_ap"(%x, %c0) {pattern = array<i64: 1, 1, 1, 1>}
          : (memref<4x8xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
      "nisa.device_print"(%a) {prefix = "large"} : (memref<1x1xf32, "hbm">) -> ()
    }
    scf.if %lt {
      %a = "nisa.dynamic_ap"(%x, %n) {pattern = array<i64: 1, 1, 1, 1>}
          : (memref<4x8xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
      "nisa.device_print"(%a) {prefix = "then-only"} : (memref<1x1xf32, "hbm">) -> ()
    }
    %off = scf.if %lt -> (index) {
      scf.yield %n : index
    } else {
      scf.yield %c0 : index
    }
    %a = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 1, 1, 1, 1>}
        : (memref<4x8xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
    "nisa.device_print"(%a) {prefix = "chosen"} : (memref<1x1xf32, "hbm">) -> ()
    %sel = arith.select %lt, %n, %c1 : index
    %b = "nisa.dynamic_ap"(%x, %sel) {pattern = array<i64: 1, 1, 1, 1>}
        : (memref<4x8xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
    "nisa.device_print"(%b) {prefix = "selected"} : (memref<1x1xf32, "hbm">) -> ()
    return
  }

  func.func @runtime_bounds(%x: memref<4x8xf32, "hbm">, %out: memref<1x8xf32, "hbm">, %lo: index, %hi: index, %step: index) {
    %e = "nisa.alloc"() : () -> memref<1x1xf32, "sbuf">
    scf.for %i = %lo to %hi step %step {
      %src = "nisa.dynamic_ap"(%x, %i) {pattern = array<i64: 1, 1, 1, 1>}
          : (memref<4x8xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
      "nisa.dma_copy"(%e, %src) : (memref<1x1xf32, "sbuf">, memref<1x1xf32, "hbm">) -> ()
      %dst = "nisa.dynamic_ap"(%out, %i) {pattern = array<i64: 1, 1, 1, 1>}
          : (memref<1x8xf32, "hbm">, index) -> memref<1x1xf32, "hbm">
      "nisa.dma_copy"(%dst, %e) : (memref<1x1xf32, "hbm">, memref<1x1xf32, "sbuf">) -> ()
    }
    return
  }

  func.func @register_arg(%x: memref<4x8xf32, "hbm">, %out: memref<4x8xf32, "hbm">, %r: !nisa.reg) {
    %n = "nisa.register_index"(%r) : (!nisa.reg) -> index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %t = "nisa.alloc"() : () -> memref<1x8xf32, "sbuf">
    scf.for %b = %c0 to %n step %c1 {
      %off = arith.muli %b, %c8 : index
      %src = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 8, 1, 1, 8>}
          : (memref<4x8xf32, "hbm">, index) -> memref<1x8xf32, "hbm">
      "nisa.dma_copy"(%t, %src) : (memref<1x8xf32, "sbuf">, memref<1x8xf32, "hbm">) -> ()
      %dst = "nisa.dynamic_ap"(%out, %off) {pattern = array<i64: 8, 1, 1, 8>}
          : (memref<4x8xf32, "hbm">, index) -> memref<1x8xf32, "hbm">
      "nisa.dma_copy"(%dst, %t) : (memref<1x8xf32, "hbm">, memref<1x8xf32, "sbuf">) -> ()
    }
    "nisa.register_move"(%r) {imm = 42} : (!nisa.reg) -> ()
    return
  }
}
