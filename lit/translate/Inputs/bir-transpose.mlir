// A kernel written in BIR (a front end's own selection): the wide stream transpose
// {0x6B, 0x69} with the lane map of its 0x69 half, which swaps neighbouring lanes.
module attributes {sundial.target = "cayman"} {
  func.func @wide_transpose() {
    "bir.stream_transpose"() {opcodes = array<i64: 0x6B, 0x69>, engine = "vector",
      lane_mask = array<i64: 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 17, 16, 19, 18, 21, 20, 23, 22, 25, 24, 27, 26, 29, 28, 31, 30>,
      dst = {space = "sbuf", partition = 0, num_partitions = 32, offset = 0, pattern = array<i64: 1, 32>, dtype = "bfloat16"},
      src = {space = "sbuf", partition = 32, num_partitions = 32, offset = 0, pattern = array<i64: 1, 32>, dtype = "bfloat16"}} : () -> ()
    return
  }
}
