
//or
func.func @e(%t: memref<128x64xf32, "sbuf">, %r: !nisa.reg) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 32768 : index
  %n = "nisa.register_index"(%r) : (!nisa.reg) -> index
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %n step %c1 {
 "nisa.memset"(%t) {value = 0.32} : (memref<128x64xf32, "sbuf">) -> ()}
  }
  return
}

