// Errors in what the command line gives: the kernel file, the .npy files and the --arg /
// --save options. Each is one clear line, exit status 1 (2 for a malformed option), and no
// output file is written.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py write %t/a.npy '<f4' 2,3 iota
//
// The kernel: missing, without a function, rejected by the verifier, against --target.
// RUN: not sundial-run %t/none.mlir 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// NOKERNEL: sundial-run: error: cannot read '{{.*}}none.mlir': No such file or directory
// RUN: not sundial-run %S/Inputs/no-func.mlir 2>&1 | FileCheck %s --check-prefix=NOFUNC
// NOFUNC: sundial-run: error: the module has no func.func to run
// RUN: not sundial-run %s --func nope 2>&1 | FileCheck %s --check-prefix=NOPE
// NOPE: sundial-run: error: the module has no function @nope (functions: @f, @scalars)
// RUN: not sundial-run %S/Inputs/bad-verify.mlir 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: bad-verify.mlir:4:5: error: 'nisa.dma_copy' op operand 'src' (128x64) and 'dst' (64x64) must have the same number of elements (rule: element counts agree)
// VERIFY-NEXT: ┌─ {{.*}}bad-verify.mlir:4:5
// RUN: not sundial-run %S/Inputs/cayman-op.mlir --target sunda 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: cayman-op.mlir:6:5: error: 'nisa.dma_gather_transpose' op is not available on sunda (NeuronCore v2); it needs cayman (v3) or newer (rule: target)
// RUN: not sundial-run %S/Inputs/two-blocks.mlir 2>&1 | FileCheck %s --check-prefix=BLOCKS
// BLOCKS: two-blocks.mlir:3:3: error: function @branchy has more than one block; sundial-run executes structured bodies (scf.for and scf.if, no branches)
//
// .npy files: missing, not .npy at all, a header longer than the file, a malformed header
// dictionary, the wrong dtype, the wrong shape, too few and too many data bytes.
// RUN: not sundial-run %s --arg 0=%t/missing.npy --save 1=%t/out.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: sundial-run: error: --arg 0={{.*}}missing.npy: cannot read: No such file or directory (os error 2) (argument 0 is memref<2x3xf32, "hbm">)
// RUN: python3 %S/Inputs/npy.py raw %t/junk.npy 00112233445566778899
// RUN: not sundial-run %s --arg 0=%t/junk.npy --save 1=%t/out.npy 2>&1 | FileCheck %s --check-prefix=JUNK
// JUNK: sundial-run: error: --arg 0={{.*}}junk.npy: not a valid .npy file: error parsing header: start does not match magic string (argument 0 is memref<2x3xf32, "hbm">)
// RUN: python3 %S/Inputs/npy.py write %t/long.npy '<f4' 2,3 iota --header-len 60000
// RUN: not sundial-run %s --arg 0=%t/long.npy --save 1=%t/out.npy 2>&1 | FileCheck %s --check-prefix=LONG
// LONG: sundial-run: error: --arg 0={{.*}}long.npy: not a valid .npy file: the header is 60000 bytes long but only 142 bytes follow
// RUN: python3 %S/Inputs/npy.py write %t/long2.npy '<f4' 2,3 iota --header-len 4000000000 --version 2
// RUN: not sundial-run %s --arg 0=%t/long2.npy --save 1=%t/out.npy 2>&1 | FileCheck %s --check-prefix=LONG2
// LONG2: sundial-run: error: --arg 0={{.*}}long2.npy: not a valid .npy file: the header is 4000000000 bytes long but only 140 bytes follow
// The dictionary "{'x': 1} \n" (10 bytes) after a version 1.0 preamble.
// RUN: python3 %S/Inputs/npy.py raw %t/dict.npy 934e554d505901000a007b2778273a20317d200a
// RUN: not sundial-run %s --arg 0=%t/dict.npy --save 1=%t/out.npy 2>&1 | FileCheck %s --check-prefix=DICT
// DICT: sundial-run: error: --arg 0={{.*}}dict.npy: not a valid .npy file: error parsing header: unknown key: 'x'
// RUN: python3 %S/Inputs/npy.py write %t/f8.npy '<f8' 2,3 iota
// RUN: not sundial-run %s --arg 0=%t/f8.npy --save 1=%t/out.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: sundial-run: error: --arg 0={{.*}}f8.npy: dtype mismatch: the file holds '<f8', the argument is f32 (accepted: '<f4', '>f4') (argument 0 is memref<2x3xf32, "hbm">)
// RUN: python3 %S/Inputs/npy.py write %t/rec.npy '<f4' 2,3 iota --descr-literal "[('x', '<f4')]"
// RUN: not sundial-run %s --arg 0=%t/rec.npy --save 1=%t/out.npy 2>&1 | FileCheck %s --check-prefix=RECORD
// RECORD: sundial-run: error: --arg 0={{.*}}rec.npy: dtype mismatch: the file holds the structured dtype [('x', '<f4')], the argument is f32 (accepted: '<f4', '>f4')
// RUN: python3 %S/Inputs/npy.py write %t/t.npy '<f4' 3,2 iota
// RUN: not sundial-run %s --arg 0=%t/t.npy --save 1=%t/out.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: sundial-run: error: --arg 0={{.*}}t.npy: shape mismatch: the file holds (3, 2), the argument is (2, 3) (argument 0 is memref<2x3xf32, "hbm">)
// RUN: python3 %S/Inputs/npy.py write %t/short.npy '<f4' 2,3 iota --truncate 4
// RUN: not sundial-run %s --arg 0=%t/short.npy --save 1=%t/out.npy 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: sundial-run: error: --arg 0={{.*}}short.npy: the data is truncated: 20 bytes after the header, 24 expected
// RUN: python3 %S/Inputs/npy.py write %t/extra.npy '<f4' 2,3 iota --trailing 3
// RUN: not sundial-run %s --arg 0=%t/extra.npy --save 1=%t/out.npy 2>&1 | FileCheck %s --check-prefix=EXTRA
// EXTRA: sundial-run: error: --arg 0={{.*}}extra.npy: 3 bytes follow the 24 bytes of data
// None of the failed runs wrote its --save file.
// RUN: not ls %t/out.npy
//
// --arg and --save against the function's arguments: an unknown index, an argument given
// twice, a --save of a non-argument and one file saved twice are all reported, together.
// RUN: not sundial-run %s --arg 5=%t/a.npy --arg 0=%t/a.npy --arg 0=%t/t.npy --save 2=%t/out.npy --save 0=%t/o.npy --save 1=%t/o.npy 2>&1 | FileCheck %s --check-prefix=BIND
// BIND: sundial-run: error: --arg 5={{.*}}a.npy: unknown argument index 5: @f has 2 arguments (0..1)
// BIND-NEXT: sundial-run: error: argument 0 is given twice: --arg 0={{.*}}a.npy and --arg 0={{.*}}t.npy
// BIND-NEXT: sundial-run: error: --save 2={{.*}}out.npy: 2 is not an argument: @f has 2 arguments (0..1)
// BIND-NEXT: sundial-run: error: '{{.*}}o.npy' would be written twice: --save 0={{.*}}o.npy and --save 1={{.*}}o.npy
// RUN: not ls %t/out.npy
// RUN: not ls %t/o.npy
//
// An unwritable --save path fails the run and leaves none of its files (not even the
// temporary ones) behind.
// RUN: mkdir -p %t/w
// RUN: not sundial-run %s --arg 0=%t/a.npy --save 0=%t/w/ok.npy --save 1=%t/w/no/such/dir.npy 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: sundial-run: error: cannot write '{{.*}}no/such/dir.npy': No such file or directory
// RUN: ls -A %t/w | count 0
//
// Malformed options are usage errors (exit status 2).
// RUN: not sundial-run %s --arg 0 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: error: invalid value '0' for '--arg <I=FILE.npy|I=VALUE>': expected I=FILE.npy (an argument index and a file) or I=VALUE (a number, for an index, integer or !nisa.reg argument), got '0'
// RUN: not sundial-run %s --save x=%t/o.npy 2>&1 | FileCheck %s --check-prefix=INDEX
// INDEX: error: invalid value 'x={{.*}}o.npy' for '--save <I=FILE.npy>': 'x' is not an argument index (0, 1, ...)
// RUN: not sundial-run %s --arg 0= 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: error: invalid value '0=' for '--arg <I=FILE.npy|I=VALUE>': no file or value after '0='
// RUN: python3 %S/../tools/Inputs/status.py sundial-run %s --arg 0 | FileCheck %s --check-prefix=USAGE
// USAGE: exit status 2
// RUN: python3 %S/../tools/Inputs/status.py sundial-run %s --arg 0=%t/f8.npy | FileCheck %s --check-prefix=FAILED
// FAILED: exit status 1
// RUN: python3 %S/../tools/Inputs/status.py sundial-run %s --arg 0=%t/a.npy | FileCheck %s --check-prefix=OK
// OK: exit status 0
//
// Index, integer and register arguments take a number or a .npy file of shape (); each error
// names the argument and its type.
// RUN: not sundial-run %s --func scalars --arg 1=abc 2>&1 | FileCheck %s --check-prefix=NOTINT
// NOTINT: sundial-run: error: --arg 1=abc: expected an integer (--arg 1=5) or a .npy file of shape (): cannot read: {{.*}} (argument 1 is index)
// RUN: not sundial-run %s --func scalars --arg 1=%t/a.npy 2>&1 | FileCheck %s --check-prefix=NOTSCALAR
// NOTSCALAR: sundial-run: error: --arg 1={{.*}}a.npy: expected an integer (--arg 1=5) or a .npy file of shape (): dtype mismatch: the file holds '<f4', the argument is i64 {{.*}} (argument 1 is index)
// RUN: not sundial-run %s --func scalars --arg 2=300 2>&1 | FileCheck %s --check-prefix=WIDE
// WIDE: sundial-run: error: --arg 2=300: 300 does not fit: the argument takes -128..=255 (argument 2 is i8)
// RUN: not sundial-run %s --func scalars --arg 3=0x100000000 2>&1 | FileCheck %s --check-prefix=REGWIDE
// REGWIDE: sundial-run: error: --arg 3=0x100000000: 4294967296 does not fit: the argument takes -2147483648..=4294967295 (argument 3 is !nisa.reg)
// RUN: not sundial-run %s --func scalars --arg 0=5 2>&1 | FileCheck %s --check-prefix=TILENUM
// TILENUM: sundial-run: error: --arg 0=5: a tile takes a .npy file, not a number (a number initialises an index, integer or !nisa.reg argument) (argument 0 is memref<2x3xf32, "hbm">)
// RUN: not sundial-run %s --func scalars --save 1=%t/n.npy 2>&1 | FileCheck %s --check-prefix=SAVEVALUE
// SAVEVALUE: sundial-run: error: --save 1={{.*}}n.npy: argument 1 of @scalars is a value of type index, which the run cannot change: --save writes tiles and registers
// RUN: not ls %t/n.npy

module {
  func.func @f(%a: memref<2x3xf32, "hbm">, %b: memref<2x3xf32, "hbm">) {
    "nisa.dma_copy"(%b, %a) : (memref<2x3xf32, "hbm">, memref<2x3xf32, "hbm">) -> ()
    return
  }
  func.func @scalars(%a: memref<2x3xf32, "hbm">, %n: index, %k: i8, %r: !nisa.reg) {
    return
  }
}
