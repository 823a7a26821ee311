// sundial-isel{target=...} selects for the option's target when the module names none; the
// ISA table's target rule is then the selector's own refusal (the verifier, which knows no
// target here, accepts the ops).
// RUN: sundial-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sundial-isel{target=sunda})'

func.func @nonzero(%dst: memref<16x65xi32, "sbuf">, %src: memref<16x64xf32, "sbuf">) {
  // expected-error@+1 {{'nisa.nonzero_with_count' op cannot be selected on sunda: nonzero_with_count: not on sunda: needs cayman or later}}
  "nisa.nonzero_with_count"(%dst, %src) : (memref<16x65xi32, "sbuf">, memref<16x64xf32, "sbuf">) -> ()
  return
}

// -----

func.func @quantize(%q: memref<128x128xvector<4xf8E4M3FN>, "sbuf">, %qs: memref<128x128xf8E8M0FNU, "sbuf">, %x: memref<128x512xbf16, "sbuf">) {
  // expected-error@+1 {{'nisa.quantize_mx' op cannot be selected on sunda: quantize_mx: not on sunda: needs mariana or later}}
  "nisa.quantize_mx"(%q, %qs, %x) : (memref<128x128xvector<4xf8E4M3FN>, "sbuf">, memref<128x128xf8E8M0FNU, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
  return
}
