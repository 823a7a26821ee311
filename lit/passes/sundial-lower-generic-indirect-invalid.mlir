// sundial-lower-generic-indirect's refusals: what the DMA engine's indirect form cannot do.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-lower-generic-indirect)' -verify-diagnostics

func.func @dge(%table: memref<4096x64xf32, "hbm">, %idx: memref<128x1xi32, "sbuf">, %rows: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{'nisa.generic_indirect_load' op dge_mode "swdge": the DMA engine's own indirect descriptor takes no DGE (sundial-generic-load-to-gather selects the swdge form where it applies) (rule: indirect dma dge)}}
  "nisa.generic_indirect_load"(%rows, %table, %idx) {dge_mode = "swdge"}
      : (memref<128x64xf32, "sbuf">, memref<4096x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> ()
  return
}

// -----

func.func @accumulate(%table: memref<4096x64xf32, "hbm">, %idx: memref<128x1xi32, "sbuf">, %rows: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{'nisa.generic_indirect_save' op attribute 'accumulate': an accumulating scatter has no DMA-engine form here (CoreV2's IndirectSaveAccumulate is not in the dialect; on cayman and later sundial-generic-load-to-gather selects dma_compute) (rule: indirect save accumulate)}}
  "nisa.generic_indirect_save"(%table, %rows, %idx) {accumulate = true}
      : (memref<4096x64xf32, "hbm">, memref<128x64xf32, "sbuf">, memref<128x1xi32, "sbuf">) -> ()
  return
}

// -----

func.func @sbuf_table(%table: memref<128x64xf32, "sbuf">, %idx: memref<16x1xi32, "sbuf">, %rows: memref<16x64xf32, "sbuf">) {
  // expected-error@+1 {{operand 'src': the DMA engine's indirect descriptor indexes a DRAM (hbm) tensor, not sbuf (an SBUF table is gathered by nisa.gather) (rule: indirect dma table)}}
  "nisa.generic_indirect_load"(%rows, %table, %idx)
      : (memref<16x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<16x1xi32, "sbuf">) -> ()
  return
}

// -----

func.func @dim(%t3: memref<8x512x16xf32, "hbm">, %part: memref<8x4x16xf32, "sbuf">, %idx4: memref<4x1xi32, "sbuf">) {
  // expected-error@+1 {{attribute 'indirect_dim': 1; the DMA engine's indirect descriptor gathers rows (dimension 0): its address pattern is [rows, row elements] (rule: indirect dim 0)}}
  "nisa.generic_indirect_load"(%part, %t3, %idx4) {indirect_dim = 1}
      : (memref<8x4x16xf32, "sbuf">, memref<8x512x16xf32, "hbm">, memref<4x1xi32, "sbuf">) -> ()
  return
}

// -----

func.func @per_partition(%table: memref<4096x64xf32, "hbm">, %idx: memref<1x8xi32, "sbuf">, %rows: memref<8x64xf32, "sbuf">) {
  // expected-error@+1 {{operand 'indices' (1x8) must hold one index per partition (rule: index one per partition)}}
  "nisa.generic_indirect_load"(%rows, %table, %idx)
      : (memref<8x64xf32, "sbuf">, memref<4096x64xf32, "hbm">, memref<1x8xi32, "sbuf">) -> ()
  return
}

// -----

// A logical index tile of 8192 partitions: more than one DMA-engine indirect copy takes.
func.func @too_many(%table: memref<65536x4xf32, "hbm">, %idx: memref<8192x1xi32, "sbuf">, %rows: memref<8192x4xf32, "sbuf">) {
  // expected-error@+1 {{operand 'indices' has 8192 indices; one DMA-engine indirect copy takes at most 4096 (rule: indices per dma)}}
  "nisa.generic_indirect_load"(%rows, %table, %idx)
      : (memref<8192x4xf32, "sbuf">, memref<65536x4xf32, "hbm">, memref<8192x1xi32, "sbuf">) -> ()
  return
}

// -----

func.func @wide_index(%table: memref<4096x64xf32, "hbm">, %idx: memref<128x1xi64, "sbuf">, %rows: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{operand 'indices': i64 indices; the DMA engine's indirect descriptor takes 32-bit ones (rule: index dtype)}}
  "nisa.generic_indirect_load"(%rows, %table, %idx)
      : (memref<128x64xf32, "sbuf">, memref<4096x64xf32, "hbm">, memref<128x1xi64, "sbuf">) -> ()
  return
}
