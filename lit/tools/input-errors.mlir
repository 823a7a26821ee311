// Driver errors about the input itself: a missing file, empty input, binary garbage and
// nesting past the parser's limit. Each failure exits non-zero (`not`) with one diagnostic.

// A missing input file is an error naming the file, not a crash.
// RUN: not sundial-opt %t.nonexistent 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: sundial-opt: error: cannot read '{{.*}}.nonexistent': No such file or directory

// Empty input is an empty module (as in mlir-opt), from a file and from stdin.
// RUN: printf '' > %t.empty
// RUN: sundial-opt %t.empty | FileCheck %s --check-prefix=EMPTY
// RUN: sundial-opt < %t.empty | FileCheck %s --check-prefix=EMPTY
// EMPTY: module {
// EMPTY-NEXT: }

// Binary input (NUL and invalid UTF-8 bytes) is rejected at its first byte.
// RUN: printf '\000\001\377\376 garbage' > %t.bin
// RUN: not sundial-opt %t.bin 2>&1 | FileCheck %s --check-prefix=BINARY
// BINARY: {{.*}}.bin:1:1: error: unexpected NUL byte at offset 0 (the input is not MLIR text)

// Invalid UTF-8 without NUL bytes reaches MLIR's parser, which reports it.
// RUN: printf 'module {} \377\376' > %t.utf8
// RUN: not sundial-opt %t.utf8 2>&1 | FileCheck %s --check-prefix=UTF8
// UTF8: {{.*}}.utf8:1:11: error: unexpected character

// Nesting deeper than 512 brackets is refused before MLIR's recursive parser sees it, at the
// first bracket past the limit.
// RUN: python3 -c "print('(' * 600)" > %t.deep
// RUN: not sundial-opt %t.deep 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: {{.*}}.deep:1:513: error: nesting deeper than 512 levels is not supported

// The same limit holds for nested regions of real IR.
// RUN: python3 -c "print('func.func @f() {' + ' scf.execute_region {' * 600 + ' }' * 600 + ' return }')" > %t.regions
// RUN: not sundial-opt %t.regions 2>&1 | FileCheck %s --check-prefix=REGIONS
// REGIONS: error: nesting deeper than 512 levels is not supported

// `array<index ...>` crashes MLIR 22's dense-array parser (mlir-opt segfaults on it): it is
// refused with a position before MLIR parses (found by the mutation fuzzer).
// RUN: printf 'func.func @f() attributes {a = array<\n  index = 1>} {\n  return\n}\n' > %t.array
// RUN: not sundial-opt %t.array 2>&1 | FileCheck %s --check-prefix=ARRAY
// ARRAY: {{.*}}.array:1:37: error: 'array<index ...>' is not a dense array: its element type must be an integer or float type

// The guard follows MLIR's lexer: a comment or line break between the tokens does not hide
// the construct (the minimised fuzz crash, which made sundial-opt exit 139).
// RUN: not sundial-opt %S/Inputs/array-index-comment.mlir 2>&1 | FileCheck %s --check-prefix=ARRAYCOMMENT
// ARRAYCOMMENT: array-index-comment.mlir:2:42: error: 'array<index ...>' is not a dense array
// RUN: printf 'func.func @f() attributes {a = array // c\n <\n index>} {\n  return\n}\n' > %t.array2
// RUN: not sundial-opt %t.array2 2>&1 | FileCheck %s --check-prefix=ARRAYSPACED
// ARRAYSPACED: {{.*}}.array2:2:2: error: 'array<index ...>' is not a dense array
