// A BIR DMA-indirect transfer with no tensor-indirect side.
module attributes {sundial.target = "cayman"} {
  func.func @static() {
    "bir.dma_indirect"() {opcodes = array<i64: 0xBB>, engine = "dma",
      dst = {space = "sbuf", partition = 0, num_partitions = 128, offset = 0, pattern = array<i64: 1, 32>, dtype = "float32"},
      src = {space = "hbm", tensor = 0, offset = 0, pattern = array<i64: 1, 4096>, dtype = "float32"}} : () -> ()
    return
  }
}
