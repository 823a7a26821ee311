// sundial-allocate{target=...}: the option gives the target of a module that names none. A
// 200 KiB-per-partition tile fits mariana's 256 KiB SBUF partitions and not sunda's 192 KiB.
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-allocate{target=mariana})' | FileCheck %s
// RUN: not sundial-opt %s --pass-pipeline='builtin.module(sundial-allocate{target=sunda})' 2>&1 | FileCheck %s --check-prefix=SUNDA

// CHECK: "nisa.alloc"() {name = "wide", sundial.offset = 0 : i64, sundial.partition = 0 : i64}
// SUNDA: error: 'nisa.alloc' op tile "wide" (128x51200xf32 in sbuf: 204800 bytes per partition) does not fit: SBUF has 196608 bytes per partition on sunda
func.func @wide() {
  %w = "nisa.alloc"() {name = "wide"} : () -> memref<128x51200xf32, "sbuf">
  "nisa.memset"(%w) {value = 0.0 : f32, engine = "vector"} : (memref<128x51200xf32, "sbuf">) -> ()
  return
}
