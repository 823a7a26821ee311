// A BIR DMA-indirect gather from an on-chip table.
module attributes {sundial.target = "cayman"} {
  func.func @on_chip() {
    "bir.dma_indirect"() {opcodes = array<i64: 0xBB>, engine = "dma",
      dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 32>, dtype = "float32"},
      src = {kind = "indirect", num_indices = 128, index = {space = "sbuf", partition = 0, num_partitions = 128, offset = 512, pattern = array<i64: 1, 1>, dtype = "uint32"}, data = {space = "sbuf", partition = 0, num_partitions = 128, offset = 1024, pattern = array<i64: 1, 32>, dtype = "float32"}}} : () -> ()
    return
  }
}
