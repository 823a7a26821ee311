// --list-passes and --list-ops print the registries and exit 0 without reading any input.
// RUN: sundial-opt --list-passes | FileCheck %s --check-prefix=PASSES
// RUN: sundial-opt -list-passes < /dev/null | FileCheck %s --check-prefix=PASSES
// RUN: sundial-opt --list-ops | FileCheck %s --check-prefix=OPS

// The Rust pass with its option, then the upstream passes.
// PASSES: Sundial passes:
// PASSES-NEXT: sundial-verify {{.*}}Check the semantic rules of the NISA and BIR dialects
// PASSES-NEXT: {target=...} {{.*}}Target for target-gated rules
// PASSES: sundial-unroll {{.*}}Fully unroll constant-bound loops
// PASSES-NEXT: {max-unroll=...} {{.*}}(default 65536)
// PASSES: Upstream MLIR passes:
// PASSES: canonicalize
// PASSES: cse

// Both tables, with their sizes, API names, opcodes and libBIR op numbers.
// OPS: NISA ops ({{[0-9]+}}):
// OPS-NEXT: nisa.alloc{{ +}}- nl.ndarray
// OPS: nisa.iota{{ +}}#1 nki.isa.iota
// OPS: nisa.device_print{{ +}}#62 nl.device_print
// OPS: nisa.dma_compute{{ +}}- nki.isa.dma_compute
// OPS: BIR ops ({{[0-9]+}}):
// OPS-NEXT: bir.gather{{ +}}0x67,0x68{{ +}}op 92 InstGather
// OPS: bir.inline_asm_bytes{{ +}}0xF0{{ +}}InstInlineASMBytes
