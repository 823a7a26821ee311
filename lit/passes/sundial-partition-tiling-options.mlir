// sundial-partition-tiling's options: a smaller block size (partition-max-elts) cuts 300
// partitions at 64 (five blocks, the last of 44), and a larger max-tile-bytes lets a bigger
// physical tile through; max-unrolled-blocks=8 copies 1000 partitions' eight blocks instead of
// looping over them.
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-partition-tiling{max-unrolled-blocks=8 max-tile-bytes=65536})' | FileCheck %s --check-prefix=UNROLLED
// UNROLLED-LABEL: func.func @loop
// UNROLLED-NOT: scf.for
// UNROLLED-COUNT-8: "nisa.memset"
// UNROLLED: return
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-partition-tiling{partition-max-elts=64 max-tile-bytes=131072})' | FileCheck %s --check-prefix=B64
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-partition-tiling{max-tile-bytes=65536})' | FileCheck %s --check-prefix=BYTES

// B64-LABEL: func.func @elementwise
// B64: "nisa.alloc"() : () -> memref<64x5x64xf32, "sbuf">
// B64-COUNT-4: "nisa.dma_copy"({{.*}} : (memref<64x64xf32, "sbuf">, memref<64x64xf32, "hbm">) -> ()
// B64: "nisa.dma_copy"({{.*}} : (memref<44x64xf32, "sbuf">, memref<44x64xf32, "hbm">) -> ()
// BYTES: "nisa.alloc"() : () -> memref<128x2x8192xf32, "sbuf">
// BYTES-COUNT-2: "nisa.memset"
// B64: "nisa.alloc"() : () -> memref<64x4x8192xf32, "sbuf">
func.func @elementwise(%in: memref<300x64xf32, "hbm">, %out: memref<256x8192xf32, "hbm">) {
  %t = "nisa.alloc"() : () -> memref<300x64xf32, "sbuf">
  "nisa.dma_copy"(%t, %in) {dge_mode = "none"} : (memref<300x64xf32, "sbuf">, memref<300x64xf32, "hbm">) -> ()
  return
}

func.func @big(%out: memref<256x8192xf32, "hbm">) {
  %t = "nisa.alloc"() : () -> memref<256x8192xf32, "sbuf">
  "nisa.memset"(%t) {value = 0.0 : f32, engine = "vector"} : (memref<256x8192xf32, "sbuf">) -> ()
  "nisa.dma_copy"(%out, %t) {dge_mode = "none"} : (memref<256x8192xf32, "hbm">, memref<256x8192xf32, "sbuf">) -> ()
  return
}

func.func @loop() {
  %t = "nisa.alloc"() : () -> memref<1000x64xf32, "sbuf">
  "nisa.memset"(%t) {value = 0.0 : f32, engine = "vector"} : (memref<1000x64xf32, "sbuf">) -> ()
  return
}
