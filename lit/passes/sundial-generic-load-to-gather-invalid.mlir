// sundial-generic-load-to-gather's refusals: DGE modes a generic gather or scatter cannot have,
// and accumulating scatters with no legal dma_compute read-modify-write.
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-generic-load-to-gather)' -verify-diagnostics

module attributes {sundial.target = "cayman"} {
func.func @hwdge(%table: memref<4096x64xf32, "hbm">, %idx: memref<128x1xi32, "sbuf">, %rows: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{'nisa.generic_indirect_load' op dge_mode "hwdge": HWDGE cannot gather or scatter (rule: dge on indirect dma)}}
  "nisa.generic_indirect_load"(%rows, %table, %idx) {dge_mode = "hwdge"}
      : (memref<128x64xf32, "sbuf">, memref<4096x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> ()
  return
}
}

// -----

// swdge asked for an indirect copy that is not eligible (sunda has no DGE).
module attributes {sundial.target = "sunda"} {
func.func @swdge(%table: memref<4096x64xf32, "hbm">, %idx: memref<128x1xi32, "sbuf">, %rows: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{'nisa.generic_indirect_save' op dge_mode "swdge": this indirect copy is not eligible for DGE (cayman or newer, an HBM table indexed along dimension 0 by a [n, 1] 32-bit SBUF index, with DGE on indirect DMA enabled) (rule: dge on indirect dma)}}
  "nisa.generic_indirect_save"(%table, %rows, %idx) {dge_mode = "swdge"}
      : (memref<4096x64xf32, "hbm">, memref<128x64xf32, "sbuf">, memref<128x1xi32, "sbuf">) -> ()
  return
}
}

// -----

// An accumulating scatter is dma_compute's scatter read-modify-write, which NKI supports only
// with unique indices.
module attributes {sundial.target = "cayman"} {
func.func @repeats(%table: memref<4096x64xf32, "hbm">, %idx: memref<128x1xi32, "sbuf">, %rows: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{'nisa.generic_indirect_save' op attribute 'unique_indices': an accumulating scatter is dma_compute's scatter read-modify-write, which needs unique_indices = true (NKI: non-unique indices are not supported) (rule: dma_compute read-modify-write)}}
  "nisa.generic_indirect_save"(%table, %rows, %idx) {accumulate = true, unique_indices = false}
      : (memref<4096x64xf32, "hbm">, memref<128x64xf32, "sbuf">, memref<128x1xi32, "sbuf">) -> ()
  return
}
}

// -----

// HBM rows are staged in SBUF for the read-modify-write: rows wider than one SBUF partition
// (224 KiB on cayman) cannot be.
module attributes {sundial.target = "cayman"} {
func.func @wide(%table: memref<4096x65536xf32, "hbm">, %idx: memref<128x1xi32, "sbuf">, %rows: memref<128x65536xf32, "hbm">) {
  // expected-error@+1 {{'nisa.generic_indirect_save' op operand 'src': an accumulating scatter from HBM rows 128x65536 stages them in SBUF for dma_compute's scatter read-modify-write (dst(HBM)[indices] += src(SBUF)), and they do not fit (at most 128 partitions of 229376 bytes) (rule: dma_compute read-modify-write)}}
  "nisa.generic_indirect_save"(%table, %rows, %idx) {accumulate = true}
      : (memref<4096x65536xf32, "hbm">, memref<128x65536xf32, "hbm">, memref<128x1xi32, "sbuf">) -> ()
  return
}
}
