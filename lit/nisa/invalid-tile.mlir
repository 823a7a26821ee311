// Tile rules (every memref operand and result of a NISA op): rank, static positive shape,
// identity layout, a named memory space, a NISA element type and an element count that fits
// in 64 bits. (At most 128 partitions on chip is a phase check once tiles are physical:
// lit/passes/sundial-verify-invalid.mlir.)
// RUN: sundial-opt %s -split-input-file -verify-diagnostics

// A rank-0 memref has no partition dimension.
func.func @rank0(%d: memref<128x64xf32, "sbuf">, %s: memref<f32, "sbuf">) {
  // expected-error@+1 {{operand 'src': tile must have at least one dimension}}
  "nisa.tensor_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<f32, "sbuf">) -> ()
  return
}

// -----

// Dynamic dimensions are not tiles.
func.func @dynamic(%d: memref<128x64xf32, "sbuf">, %s: memref<128x?xf32, "sbuf">) {
  // expected-error@+1 {{operand 'src': tile dimension 1 must be static}}
  "nisa.tensor_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x?xf32, "sbuf">) -> ()
  return
}

// -----

// Zero-sized dimensions.
func.func @zero(%d: memref<128x64xf32, "sbuf">, %s: memref<0x64xf32, "sbuf">) {
  // expected-error@+1 {{operand 'src': tile dimension 0 must be positive, got 0}}
  "nisa.tensor_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<0x64xf32, "sbuf">) -> ()
  return
}

// -----

// Rank 7 is past the widest tile (6).
func.func @rank7(%d: memref<1x1xf32, "hbm">, %s: memref<1x1x1x1x1x1x1xf32, "hbm">) {
  // expected-error@+1 {{operand 'src': tile rank 7 exceeds the maximum of 6}}
  "nisa.dma_copy"(%d, %s) : (memref<1x1xf32, "hbm">, memref<1x1x1x1x1x1x1xf32, "hbm">) -> ()
  return
}

// -----

// Strided views are written with nisa.ap, not with a memref layout.
func.func @layout(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, strided<[1, 128]>, "sbuf">) {
  // expected-error@+1 {{operand 'src': tile must have the identity layout (use nisa.ap for strided access)}}
  "nisa.tensor_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, strided<[1, 128]>, "sbuf">) -> ()
  return
}

// -----

// A memref without a memory space ...
func.func @no_space(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32>) {
  // expected-error@+1 {{operand 'src': tile must name its memory space: memref<... , "hbm" | "sbuf" | "psum">}}
  "nisa.tensor_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf32>) -> ()
  return
}

// -----

// ... or with a numeric one.
func.func @numeric_space(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, 1>) {
  // expected-error@+1 {{operand 'src': tile must name its memory space}}
  "nisa.tensor_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, 1>) -> ()
  return
}

// -----

// An unknown space name.
func.func @unknown_space(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "dram">) {
  // expected-error@+1 {{operand 'src': unknown memory space "dram" (expected "hbm", "sbuf" or "psum")}}
  "nisa.tensor_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "dram">) -> ()
  return
}

// -----

// f64 is no NISA dtype.
func.func @f64(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf64, "sbuf">) {
  // expected-error@+1 {{operand 'src': 'f64' is not a NISA dtype}}
  "nisa.tensor_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf64, "sbuf">) -> ()
  return
}

// -----

// Signed integers have one spelling (signless), with a hint.
func.func @si32(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xsi32, "sbuf">) {
  // expected-error@+1 {{operand 'src': 'si32' is not a NISA dtype (write signed integers as i8/i16/i32/i64)}}
  "nisa.tensor_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xsi32, "sbuf">) -> ()
  return
}

// -----

// A vector element type other than the MX x4 containers.
func.func @vector_elem(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xvector<4xf32>, "sbuf">) {
  // expected-error@+1 {{operand 'src': 'vector<4xf32>' is not a NISA dtype}}
  "nisa.tensor_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xvector<4xf32>, "sbuf">) -> ()
  return
}

// -----

// An HBM tensor whose element count does not fit in 64 bits.
func.func @overflow(%d: memref<128x64xf32, "hbm">, %s: memref<4294967296x4294967296xf32, "hbm">) {
  // expected-error@+1 {{operand 'src': tile has too many elements (element count overflows 64 bits)}}
  "nisa.dma_copy"(%d, %s) : (memref<128x64xf32, "hbm">, memref<4294967296x4294967296xf32, "hbm">) -> ()
  return
}

// -----

// Results are tiles too: an allocation of a rank-0 memref.
func.func @alloc_result() {
  // expected-error@+1 {{'nisa.alloc' op result: tile must have at least one dimension}}
  %a = "nisa.alloc"() : () -> memref<f32, "sbuf">
  return
}
