// Input of outdir.test: a kernel whose tile does not fit cayman's SBUF.
module attributes {sundial.target = "cayman"} {
  func.func @oom() {
    %big = "nisa.alloc"() {name = "big"} : () -> memref<128x65536xf32, "sbuf">
    "nisa.memset"(%big) {value = 0.0 : f32, engine = "vector"} : (memref<128x65536xf32, "sbuf">) -> ()
    return
  }
}
