// sundial-translate's errors, each with its exit status (1: the kernel does not compile or
// the output cannot be written; 2: the command line is wrong) and nothing written.
// RUN: rm -rf %t && mkdir -p %t
// The target is the module's or --target's, and they agree.
// RUN: python3 %S/../tools/Inputs/status.py sundial-translate %S/Inputs/no-target.mlir -o %t/a | FileCheck %s --check-prefix=STATUS1
// RUN: not sundial-translate %S/Inputs/no-target.mlir -o %t/a 2>&1 | FileCheck %s --check-prefix=NOTARGET
// RUN: sundial-translate %S/Inputs/no-target.mlir --target=mariana --disassemble | FileCheck %s --check-prefix=GIVEN
// RUN: not sundial-translate %S/../../examples/kernels/elementwise.mlir -target=sunda -o %t/b 2>&1 | FileCheck %s --check-prefix=DISAGREE
// One kernel per module.
// RUN: not sundial-translate %S/Inputs/two-kernels.mlir -o %t/c 2>&1 | FileCheck %s --check-prefix=TWO
// An op that cannot be selected, at its location, naming the missing fact.
// RUN: not sundial-translate %S/Inputs/unpinned.mlir --disassemble 2>&1 | FileCheck %s --check-prefix=UNPINNED
// An encoding failure, at the op it came from.
// RUN: not sundial-translate %S/Inputs/four-dims.mlir -o %t/d 2>&1 | FileCheck %s --check-prefix=ENCODE
// A DMA-indirect transfer the DMA_INDIRECT1D bundle cannot hold: fewer than its 128 index
// channels, 16-bit indices.
// RUN: not sundial-translate %S/Inputs/indirect-channels.mlir -o %t/h 2>&1 | FileCheck %s --check-prefix=CHANNELS
// RUN: not sundial-translate %S/Inputs/indirect-index-dtype.mlir -o %t/i 2>&1 | FileCheck %s --check-prefix=INDEXDTYPE
// RUN: not sundial-translate %S/Inputs/indirect-strided.mlir -o %t/j 2>&1 | FileCheck %s --check-prefix=STRIDED
// RUN: not sundial-translate %S/Inputs/bir-indirect.mlir -o %t/k 2>&1 | FileCheck %s --check-prefix=COUNTS
// RUN: not sundial-translate %S/Inputs/bir-indirect-static.mlir -o %t/l 2>&1 | FileCheck %s --check-prefix=NOINDIRECT
// RUN: not sundial-translate %S/Inputs/bir-indirect-sbuf.mlir -o %t/m 2>&1 | FileCheck %s --check-prefix=ONCHIP
// RUN: not sundial-translate %S/Inputs/indirect-hbm-to-hbm.mlir -o %t/n 2>&1 | FileCheck %s --check-prefix=HBMHBM
// A DMA priority no source maps onto the descriptor.
// RUN: not sundial-translate %S/Inputs/dma-priority.mlir -o %t/o 2>&1 | FileCheck %s --check-prefix=PRIORITY
// A middle-end pipeline that does not parse.
// RUN: not sundial-translate %S/../../examples/kernels/elementwise.mlir --pass-pipeline='builtin.module(nope)' -o %t/e 2>&1 | FileCheck %s --check-prefix=PIPELINE
// --pass-pipeline='' runs no middle end: a logical 256-partition tile reaches allocation.
// RUN: not sundial-translate %S/Inputs/logical-tile.mlir --pass-pipeline='' -o %t/p 2>&1 | FileCheck %s --check-prefix=NOMIDDLE
// Command-line errors.
// RUN: python3 %S/../tools/Inputs/status.py sundial-translate %S/../../examples/kernels/elementwise.mlir | FileCheck %s --check-prefix=STATUS2
// RUN: not sundial-translate %S/../../examples/kernels/elementwise.mlir 2>&1 | FileCheck %s --check-prefix=NOOUT
// RUN: python3 %S/../tools/Inputs/status.py sundial-translate %S/../../examples/kernels/elementwise.mlir --disassemble --emit=bir | FileCheck %s --check-prefix=STATUS2
// RUN: not sundial-translate %S/../../examples/kernels/elementwise.mlir --disassemble --emit=bir 2>&1 | FileCheck %s --check-prefix=EXCLUSIVE
// RUN: python3 %S/../tools/Inputs/status.py sundial-translate %S/../../examples/kernels/elementwise.mlir --target=tonga -o %t/f | FileCheck %s --check-prefix=STATUS2
// RUN: python3 %S/../tools/Inputs/status.py sundial-translate %t/missing.mlir -o %t/g | FileCheck %s --check-prefix=STATUS1
// Nothing was written by any of them.
// RUN: ls %t | FileCheck %s --check-prefix=EMPTY --allow-empty

// CHANNELS: indirect-channels.mlir:9:5: error: 'bir.dma_indirect' op attribute 'dst': partitions 0..64: a DMA_INDIRECT1D transfer has 128 index channels (idx_num_active_channels), one per partition from partition 0
// INDEXDTYPE: indirect-index-dtype.mlir:9:5: error: 'bir.dma_indirect' op attribute 'src': uint16 indices: the DMA engine reads 32-bit indices (bundle-layouts §5: the DGE index dtype is UINT32)
// STRIDED: indirect-strided.mlir:10:5: error: 'bir.dma_indirect' op attribute 'src': the elements of one index are not contiguous ([(2, 32)]): DMA_INDIRECT1D's pattern is one-dimensional
// COUNTS: bir-indirect.mlir:5:5: error: 'bir.dma_indirect' op attributes 'src' and 'dst': 64 elements per index on one side, 32 on the other
// NOINDIRECT: bir-indirect-static.mlir:4:5: error: 'bir.dma_indirect' op needs exactly one of 'src' and 'dst' to be tensor-indirect (the load or the save direction)
// ONCHIP: bir-indirect-sbuf.mlir:4:5: error: 'bir.dma_indirect' op attribute 'src': the indirect data is in sbuf: this lowering gathers from or scatters into an HBM table (an on-chip table is a gather or an indirect_copy)
// HBMHBM: indirect-hbm-to-hbm.mlir:8:5: error: 'bir.dma_indirect' op attribute 'dst': an HBM side: this lowering moves between an HBM table and an on-chip tile (one partition per index channel); an HBM-to-HBM indirect transfer is not derived
// PRIORITY: dma-priority.mlir:5:5: error: 'bir.dma_copy' op attribute 'priority': no source maps NKI's DMA priority onto DMA_CONFIGS priority_class (the descriptor is written with class 0)
// STATUS1: exit status 1
// STATUS2: exit status 2
// NOTARGET: error: no target: give one (--target sunda|cayman|mariana) or set sundial.target on the module
// GIVEN: # dma.bin: 1 bundles
// DISAGREE: error: the module's sundial.target is "cayman" but the target option says "sunda"
// TWO: error: the module holds 2 functions with a body: compile one kernel per module
// UNPINNED: unpinned.mlir:7:5: error: 'nisa.activation' op cannot be selected on mariana: activation: unpinned: no field table for opcode 0x25
// ENCODE: four-dims.mlir:10:5: error: 'bir.tensor_tensor' op cannot be encoded: TENSOR3D access pattern must be [1, 3]D after dropping unit dims; found 4 free dims
// NOMIDDLE: logical-tile.mlir:7:10: error: 'nisa.alloc' op tile #0 (unnamed) has 256 partitions: allocation places tiled tiles of at most 128 partitions (run the middle end's partition tiling first)
// PIPELINE: error: 'nope': MLIR Textual PassPipeline Parser:1:1: error: 'nope' does not refer to a registered pass or pass pipeline
// NOOUT: sundial-translate: error: bundles go to a directory: give -o OUTDIR (or --disassemble / --emit=bir)
// EXCLUSIVE: sundial-translate: error: --disassemble and --emit=bir are exclusive
// EMPTY-NOT: {{.}}
