// sundial-allocate's errors: a tile that does not fit (naming the tile, its size, the
// capacity and the peak demand), an on-chip kernel argument, a logical tile of more than 128
// partitions.
// RUN: sundial-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sundial-allocate)'

// Two 128 KiB tiles live at the same time need 256 KiB per partition; cayman has 224 KiB.
module attributes {sundial.target = "cayman"} {
  func.func @oom() {
    %a = "nisa.alloc"() {name = "a"} : () -> memref<128x32768xf32, "sbuf">
    // expected-error@+1 {{'nisa.alloc' op tile "b" (128x32768xf32 in sbuf: 131072 bytes per partition) does not fit: SBUF has 229376 bytes per partition on cayman, and the peak demand of simultaneously live SBUF tiles is 262144 bytes per partition (rule: out of memory)}}
    %b = "nisa.alloc"() {name = "b"} : () -> memref<128x32768xf32, "sbuf">
    "nisa.memset"(%a) {value = 0.0 : f32, engine = "vector"} : (memref<128x32768xf32, "sbuf">) -> ()
    "nisa.tensor_copy"(%b, %a) {engine = "vector"} : (memref<128x32768xf32, "sbuf">, memref<128x32768xf32, "sbuf">) -> ()
    return
  }
}

// -----

// The same two tiles one after the other fit (b reuses a's bytes); a third one live with b
// does not, and an unnamed tile is named by its position.
module attributes {sundial.target = "cayman"} {
  func.func @oom_unnamed() {
    %a = "nisa.alloc"() {name = "a"} : () -> memref<128x32768xf32, "sbuf">
    %b = "nisa.alloc"() {name = "b"} : () -> memref<128x32768xf32, "sbuf">
    // expected-error@+1 {{'nisa.alloc' op tile #2 (unnamed) (128x32768xf32 in sbuf: 131072 bytes per partition) does not fit: SBUF has 229376 bytes per partition on cayman, and the peak demand of simultaneously live SBUF tiles is 262144 bytes per partition (rule: out of memory)}}
    %c = "nisa.alloc"() : () -> memref<128x32768xf32, "sbuf">
    "nisa.memset"(%a) {value = 0.0 : f32, engine = "vector"} : (memref<128x32768xf32, "sbuf">) -> ()
    "nisa.memset"(%b) {value = 0.0 : f32, engine = "vector"} : (memref<128x32768xf32, "sbuf">) -> ()
    "nisa.tensor_copy"(%c, %b) {engine = "vector"} : (memref<128x32768xf32, "sbuf">, memref<128x32768xf32, "sbuf">) -> ()
    return
  }
}

// -----

// PSUM has 16 KiB per partition: one 20 KiB tile is larger than the whole space.
module attributes {sundial.target = "mariana"} {
  func.func @psum_oom() {
    // expected-error@+1 {{'nisa.alloc' op tile "acc" (128x5120xf32 in psum: 20480 bytes per partition) does not fit: PSUM has 16384 bytes per partition on mariana, and the peak demand of simultaneously live PSUM tiles is 20480 bytes per partition (rule: out of memory)}}
    %acc = "nisa.alloc"() {name = "acc"} : () -> memref<128x5120xf32, "psum">
    "nisa.memset"(%acc) {value = 0.0 : f32, engine = "vector"} : (memref<128x5120xf32, "psum">) -> ()
    return
  }
}

// -----

// Kernel arguments are HBM tensors.
module attributes {sundial.target = "cayman"} {
  // expected-error@+1 {{'func.func' op kernel argument #1 is a sbuf tile: kernel arguments are HBM tensors, on-chip tiles are nisa.alloc results (rule: kernel arguments)}}
  func.func @sbuf_argument(%a: memref<128x64xf32, "hbm">, %t: memref<128x64xf32, "sbuf">) {
    "nisa.dma_copy"(%t, %a) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    return
  }
}

// -----

// ... and tiles, not other values.
module attributes {sundial.target = "cayman"} {
  // expected-error@+1 {{'func.func' op kernel argument #0 is not a tile: kernel arguments are HBM tensors (rule: kernel arguments)}}
  func.func @index_argument(%i: index) {
    return
  }
}

// -----

// Allocation places tiled tiles: a logical tile of 256 partitions is the middle end's to cut.
module attributes {sundial.target = "cayman"} {
  func.func @logical() {
    // expected-error@+1 {{'nisa.alloc' op tile "big" has 256 partitions: allocation places tiled tiles of at most 128 partitions (run the middle end's partition tiling first) (rule: partitions <= 128)}}
    %big = "nisa.alloc"() {name = "big"} : () -> memref<256x64xf32, "sbuf">
    "nisa.memset"(%big) {value = 0.0 : f32, engine = "vector"} : (memref<256x64xf32, "sbuf">) -> ()
    return
  }
}
