// Input of errors.mlir: a kernel whose module names no target.
func.func @k(%o: memref<128x64xf32, "hbm">) {
  %t = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.memset"(%t) {value = 1.0 : f32, engine = "vector"} : (memref<128x64xf32, "sbuf">) -> ()
  "nisa.dma_copy"(%o, %t) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">) -> ()
  return
}
