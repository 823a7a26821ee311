// Kernels written in BIR whose DMA-indirect transfer the DMA_INDIRECT1D bundle cannot hold.
module attributes {sundial.target = "cayman"} {
  func.func @counts() {
    // 64 elements per index on the table side, 32 on chip.
    "bir.dma_indirect"() {opcodes = array<i64: 0xBB>, engine = "dma",
      dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 32>, dtype = "float32"},
      src = {kind = "indirect", num_indices = 128, index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 1>, dtype = "uint32"}, data = {space = "hbm", tensor = 0, offset = 0, pattern = array<i64: 64, 128, 1, 64>, dtype = "float32"}}} : () -> ()
    return
  }
}
