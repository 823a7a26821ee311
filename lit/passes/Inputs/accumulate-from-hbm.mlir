// An accumulating indirect save from HBM rows (sundial-generic-load-to-gather.mlir).
module attributes {sundial.target = "cayman"} {
func.func @dge(%table: memref<4096x64xf32, "hbm">, %idx: memref<128x1xi32, "sbuf">,
               %hrows: memref<128x64xf32, "hbm">) {
  // The pass turns this save into dma_compute.
  "nisa.generic_indirect_save"(%table, %hrows, %idx) {accumulate = true}
      : (memref<4096x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> ()
  return
}
}
