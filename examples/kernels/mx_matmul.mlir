// An MX kernel for mariana: quantize a bf16 tile to fp8 x4 data and E8M0 block scales, then an
// MX matmul of fp4 x4 weights (with their scales, loaded from HBM) by fp8 x4 activations into
// PSUM, copied out through SBUF.
// Run: scripts/example.sh   (or: sundial-translate examples/kernels/mx_matmul.mlir --disassemble)
module attributes {sundial.target = "mariana"} {
  func.func @mx(%in: memref<128x512xbf16, "hbm">, %wq_in: memref<128x64xvector<4xf4E2M1FN>, "hbm">, %ws_in: memref<16x64xui8, "hbm">, %out: memref<64x256xf32, "hbm">) {
    %x = "nisa.alloc"() : () -> memref<128x512xbf16, "sbuf">
    %q = "nisa.alloc"() : () -> memref<128x128xvector<4xf8E4M3FN>, "sbuf">
    %qs = "nisa.alloc"() : () -> memref<128x128xf8E8M0FNU, "sbuf">
    %st = "nisa.alloc"() : () -> memref<128x64xvector<4xf4E2M1FN>, "sbuf">
    %sts = "nisa.alloc"() : () -> memref<16x64xui8, "sbuf">
    %mv = "nisa.alloc"() : () -> memref<128x256xvector<4xf8E5M2>, "sbuf">
    %mvs = "nisa.alloc"() : () -> memref<16x256xf8E8M0FNU, "sbuf">
    %dst = "nisa.alloc"() : () -> memref<64x256xf32, "psum">
    %o = "nisa.alloc"() : () -> memref<64x256xf32, "sbuf">
    "nisa.dma_copy"(%x, %in) : (memref<128x512xbf16, "sbuf">, memref<128x512xbf16, "hbm">) -> ()
    "nisa.quantize_mx"(%q, %qs, %x) : (memref<128x128xvector<4xf8E4M3FN>, "sbuf">, memref<128x128xf8E8M0FNU, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
    "nisa.dma_copy"(%st, %wq_in) : (memref<128x64xvector<4xf4E2M1FN>, "sbuf">, memref<128x64xvector<4xf4E2M1FN>, "hbm">) -> ()
    "nisa.dma_copy"(%sts, %ws_in) : (memref<16x64xui8, "sbuf">, memref<16x64xui8, "hbm">) -> ()
    "nisa.memset"(%mv) {value = 0, engine = "vector"} : (memref<128x256xvector<4xf8E5M2>, "sbuf">) -> ()
    "nisa.matmul_mx"(%dst, %st, %mv, %sts, %mvs) : (memref<64x256xf32, "psum">, memref<128x64xvector<4xf4E2M1FN>, "sbuf">, memref<128x256xvector<4xf8E5M2>, "sbuf">, memref<16x64xui8, "sbuf">, memref<16x256xf8E8M0FNU, "sbuf">) -> ()
    "nisa.tensor_copy"(%o, %dst) {engine = "vector"} : (memref<64x256xf32, "sbuf">, memref<64x256xf32, "psum">) -> ()
    "nisa.dma_copy"(%out, %o) : (memref<64x256xf32, "hbm">, memref<64x256xf32, "sbuf">) -> ()
    return
  }
}
