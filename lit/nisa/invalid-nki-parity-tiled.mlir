// NKI parity rules that hold once tiles are physical (sundial-verify{phase=tiled}); before
// partition tiling a logical tile may have more than 128 partitions.
// RUN: sundial-opt %s --pass-pipeline='builtin.module(sundial-verify{phase=tiled})' -verify-diagnostics

// The PE array is 128x128: dst takes data's free size as partitions, at most 128.
func.func @pe_size(%d: memref<256x64xbf16, "psum">, %s: memref<64x256xbf16, "sbuf">) {
  // expected-error@+1 {{operand 'dst': partition dimension 256 exceeds 128 (rule: partitions <= 128)}}
  "nisa.nc_transpose"(%d, %s) {engine = "tensor"} : (memref<256x64xbf16, "psum">, memref<64x256xbf16, "sbuf">) -> ()
  return
}
