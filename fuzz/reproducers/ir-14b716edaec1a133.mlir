
func.func @ge() {
  // e}
  "bir.generic_indirect_load"() {opcodes = array<i64: 0xBB>, engine = "dma",
    dst = {rn = array<i64:192>,e = "32"},src = {kind = "indirect", num_indices = 65536, index  , data = {s= "sbuf", ern = array<i64: 1, 64>, dtype = "float32"}}} : () -> ()
  return
}

