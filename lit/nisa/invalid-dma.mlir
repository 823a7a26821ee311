// Op rules of the DMA NISA ops: element counts, direct versus indirect operands, transpose
// axes and shapes, DMA compute sources and scales, and [1, 1] register tiles.
// RUN: sundial-opt %s -split-input-file -verify-diagnostics

// A DMA copy keeps the element count.
func.func @count(%d: memref<128x64xf32, "sbuf">, %s: memref<128x32xf32, "hbm">) {
  // expected-error@+1 {{operand 'src' (128x32) and 'dst' (128x64) must have the same number of elements (rule: element counts agree)}}
  "nisa.dma_copy"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x32xf32, "hbm">) -> ()
  return
}

// -----

// An indirect source belongs to dma_copy_indirect ...
func.func @direct_src(%t: memref<1024x64xf32, "hbm">, %i: memref<128x1xui32, "sbuf">, %d: memref<128x64xf32, "sbuf">) {
  %g = "nisa.ap"(%t, %i) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<1024x64xf32, "hbm">, memref<128x1xui32, "sbuf">) -> memref<128x64xf32, "hbm">
  // expected-error@+1 {{operand 'src' is an indirect access pattern: use nisa.dma_copy_indirect (rule: direct dma)}}
  "nisa.dma_copy"(%d, %g) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// ... and so does an indirect destination (a scatter).
func.func @direct_dst(%t: memref<1024x64xf32, "hbm">, %r: !nisa.reg, %s: memref<128x64xf32, "sbuf">) {
  %g = "nisa.ap"(%t, %r) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 0, 1>}
      : (memref<1024x64xf32, "hbm">, !nisa.reg) -> memref<128x64xf32, "hbm">
  // expected-error@+1 {{operand 'dst' is an indirect access pattern: use nisa.dma_copy_indirect (rule: direct dma)}}
  "nisa.dma_copy"(%g, %s) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// dma_copy_indirect needs an indirect operand.
func.func @indirect_none(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{needs an indirect access pattern (nisa.ap with vector_offset or scalar_offset) on 'src' (gather) or 'dst' (scatter) (rule: indirect operand)}}
  "nisa.dma_copy_indirect"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// Transpose axes are (1, 0), (2, 1, 0) or (3, 1, 2, 0) ...
func.func @axes_legal(%d: memref<4x2x8xbf16, "hbm">, %s: memref<2x4x8xbf16, "hbm">) {
  // expected-error@+1 {{attribute 'axes': [1, 0, 2] is not supported (supported: [1, 0], [2, 1, 0], [3, 1, 2, 0]) (rule: dma transpose axes)}}
  "nisa.dma_transpose"(%d, %s) {axes = array<i64: 1, 0, 2>} : (memref<4x2x8xbf16, "hbm">, memref<2x4x8xbf16, "hbm">) -> ()
  return
}

// -----

// ... one per dimension of src ...
func.func @axes_rank(%d: memref<8x4x2xbf16, "hbm">, %s: memref<2x4x8xbf16, "hbm">) {
  // expected-error@+1 {{operand 'src' has rank 3 but 'axes' has 2 entries (rule: dma transpose axes)}}
  "nisa.dma_transpose"(%d, %s) {axes = array<i64: 1, 0>} : (memref<8x4x2xbf16, "hbm">, memref<2x4x8xbf16, "hbm">) -> ()
  return
}

// -----

// ... giving dst's shape.
func.func @transpose_shape(%d: memref<128x64xbf16, "sbuf">, %s: memref<128x64xbf16, "hbm">) {
  // expected-error@+1 {{operand 'dst' must have shape 64x128 (src permuted by axes), got 128x64 (rule: transpose shape)}}
  "nisa.dma_transpose"(%d, %s) {axes = array<i64: 1, 0>} : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "hbm">) -> ()
  return
}

// -----

// A DMA transpose does not convert.
func.func @transpose_dtype(%d: memref<64x128xi16, "sbuf">, %s: memref<128x64xbf16, "hbm">) {
  // expected-error@+1 {{operand 'src' (bf16) and 'dst' (i16) must have the same dtype (rule: same dtype)}}
  "nisa.dma_transpose"(%d, %s) {axes = array<i64: 1, 0>} : (memref<64x128xi16, "sbuf">, memref<128x64xbf16, "hbm">) -> ()
  return
}

// -----

// An indirect transpose source belongs to dma_gather_transpose ...
func.func @transpose_indirect(%t: memref<1024x64xbf16, "hbm">, %i: memref<32x1xui32, "sbuf">, %d: memref<64x32xbf16, "sbuf">) {
  %g = "nisa.ap"(%t, %i) {pattern = array<i64: 64, 32, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<1024x64xbf16, "hbm">, memref<32x1xui32, "sbuf">) -> memref<32x64xbf16, "hbm">
  // expected-error@+1 {{operand 'src' is an indirect access pattern: use nisa.dma_gather_transpose (rule: direct dma)}}
  "nisa.dma_transpose"(%d, %g) {axes = array<i64: 1, 0>} : (memref<64x32xbf16, "sbuf">, memref<32x64xbf16, "hbm">) -> ()
  return
}

// -----

// ... which needs one.
func.func @gather_transpose_static(%s: memref<32x64xbf16, "hbm">, %d: memref<64x32xbf16, "sbuf">) {
  // expected-error@+1 {{operand 'src' must be an indirect access pattern (nisa.ap with vector_offset) (rule: indirect operand)}}
  "nisa.dma_gather_transpose"(%d, %s) {axes = array<i64: 1, 0>} : (memref<64x32xbf16, "sbuf">, memref<32x64xbf16, "hbm">) -> ()
  return
}

// -----

// DMA compute takes 1 to 16 sources (the first is an operand of its own: none is a
// structural error) ...
func.func @compute_none(%d: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{op expects at least 2 operands, but got 1}}
  "nisa.dma_compute"(%d) : (memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// ... (17 is too many) ...
func.func @compute_many(%t: memref<4x4xf32, "hbm">) {
  // expected-error@+1 {{needs 1 to 16 source tensors, got 17 (rule: dma_compute srcs)}}
  "nisa.dma_compute"(%t, %t, %t, %t, %t, %t, %t, %t, %t, %t, %t, %t, %t, %t, %t, %t, %t, %t)
      : (memref<4x4xf32, "hbm">, memref<4x4xf32, "hbm">, memref<4x4xf32, "hbm">, memref<4x4xf32, "hbm">, memref<4x4xf32, "hbm">,
         memref<4x4xf32, "hbm">, memref<4x4xf32, "hbm">, memref<4x4xf32, "hbm">, memref<4x4xf32, "hbm">, memref<4x4xf32, "hbm">,
         memref<4x4xf32, "hbm">, memref<4x4xf32, "hbm">, memref<4x4xf32, "hbm">, memref<4x4xf32, "hbm">, memref<4x4xf32, "hbm">,
         memref<4x4xf32, "hbm">, memref<4x4xf32, "hbm">, memref<4x4xf32, "hbm">) -> ()
  return
}

// -----

// ... the sources after the first share one type (one variadic operand group) ...
func.func @compute_mixed_rest(%d: memref<128x64xf32, "hbm">, %s: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{expected 'memref<128x64xf32, "sbuf">' but got 'memref<128x64xf32, "hbm">'}}
  "nisa.dma_compute"(%d, %d, %s, %d) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// ... of dst's shape ...
func.func @compute_shape(%d: memref<128x64xf32, "hbm">, %s: memref<64x128xf32, "hbm">) {
  // expected-error@+1 {{source #0 has shape 64x128 but 'dst' has 128x64 (rule: shapes agree)}}
  "nisa.dma_compute"(%d, %s) : (memref<128x64xf32, "hbm">, memref<64x128xf32, "hbm">) -> ()
  return
}

// -----

// ... with one scale per source ...
func.func @compute_scales_count(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'scales' has 1 entries for 2 sources (rule: dma_compute scales)}}
  "nisa.dma_compute"(%t, %t, %t) {scales = array<f32: 1.0>} : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// ... all 1.0 ...
func.func @compute_scales_value(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'scales': only 1.0 is supported (rule: dma_compute scales)}}
  "nisa.dma_compute"(%t, %t, %t) {scales = array<f32: 1.0, 0.5>} : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// ... and an add reduction.
func.func @compute_op(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'reduce_op': alu_op "max" is not allowed here (allowed: add)}}
  "nisa.dma_compute"(%t, %t) {reduce_op = "max"} : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// A register is loaded from a [1, 1] tile ...
func.func @load_register(%s: memref<1x4xi32, "sbuf">) {
  // expected-error@+1 {{operand 'src' must be a [1, 1] tile, got 1x4 (rule: scalar tile)}}
  %r = "nisa.load_register"(%s) : (memref<1x4xi32, "sbuf">) -> !nisa.reg
  return
}

// -----

// ... and stored into one.
func.func @store_register(%d: memref<2x1xi64, "sbuf">, %r: !nisa.reg) {
  // expected-error@+1 {{operand 'dst' must be a [1, 1] tile, got 2x1 (rule: scalar tile)}}
  "nisa.store_register"(%d, %r) : (memref<2x1xi64, "sbuf">, !nisa.reg) -> ()
  return
}

// -----

// device_print needs its prefix.
func.func @device_print(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute "prefix" is expected but not provided}}
  "nisa.device_print"(%t) : (memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// A generic load moves every element of src: the counts must agree.
func.func @generic_load_count(%d: memref<128x64xf32, "sbuf">, %s: memref<128x32xf32, "hbm">) {
  // expected-error@+1 {{operand 'src' (128x32) and 'dst' (128x64) must have the same number of elements (rule: element counts agree)}}
  "nisa.generic_load"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x32xf32, "hbm">) -> ()
  return
}

// -----

// GenericIndirectLoad: dst is src with the indirect dimension replaced by the index count.
func.func @generic_indirect_shape(%d: memref<64x64xbf16, "sbuf">, %s: memref<4096x64xbf16, "hbm">, %i: memref<128x1xui32, "sbuf">) {
  // expected-error@+1 {{operand 'dst' must be 128x64 ('src' 4096x64 with dimension 0 replaced by the 128 indices), got 64x64 (rule: generic indirect shape)}}
  "nisa.generic_indirect_load"(%d, %s, %i) : (memref<64x64xbf16, "sbuf">, memref<4096x64xbf16, "hbm">, memref<128x1xui32, "sbuf">) -> ()
  return
}

// -----

// GenericIndirectSave: indirect_dim must be a dimension of the scattered-into tensor.
func.func @generic_indirect_dim(%d: memref<4096x64xbf16, "hbm">, %s: memref<128x64xbf16, "sbuf">, %i: memref<128x1xui32, "sbuf">) {
  // expected-error@+1 {{attribute 'indirect_dim': 2 is not a dimension of the 2-D 'dst' (rule: indirect dim)}}
  "nisa.generic_indirect_save"(%d, %s, %i) {indirect_dim = 2} : (memref<4096x64xbf16, "hbm">, memref<128x64xbf16, "sbuf">, memref<128x1xui32, "sbuf">) -> ()
  return
}

// -----

// Gathered rows keep the table's dtype.
func.func @generic_indirect_dtype(%d: memref<128x64xf32, "sbuf">, %s: memref<4096x64xbf16, "hbm">, %i: memref<128x1xui32, "sbuf">) {
  // expected-error@+1 {{operands 'src' (bf16) and 'dst' (f32) must have the same dtype (rule: same dtype)}}
  "nisa.generic_indirect_load"(%d, %s, %i) : (memref<128x64xf32, "sbuf">, memref<4096x64xbf16, "hbm">, memref<128x1xui32, "sbuf">) -> ()
  return
}

// -----

// An indirect operand makes dma_compute a read-modify-write (NKI: "Scatter RMW:
// dst(HBM)[indices] = dst(HBM)[indices] + src(SB)"): the data source must be in SBUF, not HBM.
func.func @compute_scatter_from_hbm(%table: memref<4096x64xf32, "hbm">, %idx: memref<128x1xi32, "sbuf">,
                                    %rows: memref<128x64xf32, "hbm">) {
  %a = "nisa.ap"(%table, %idx) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<4096x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "hbm">
  // expected-error@+1 {{a scatter read-modify-write writes an indirect HBM 'dst' from an SBUF source (rule: dma_compute read-modify-write)}}
  "nisa.dma_compute"(%a, %a, %rows) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// It takes exactly two sources ...
func.func @compute_rmw_three(%table: memref<4096x64xf32, "hbm">, %idx: memref<128x1xi32, "sbuf">,
                             %rows: memref<128x64xf32, "hbm">) {
  %a = "nisa.ap"(%table, %idx) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<4096x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "hbm">
  // expected-error@+1 {{an indirect operand makes this a read-modify-write, which takes exactly 2 sources (the destination and the data), got 3 (rule: dma_compute read-modify-write)}}
  "nisa.dma_compute"(%a, %a, %rows, %rows) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// ... one of them the destination itself ...
func.func @compute_rmw_not_dst(%table: memref<4096x64xf32, "hbm">, %idx: memref<128x1xi32, "sbuf">,
                               %rows: memref<128x64xf32, "hbm">) {
  %a = "nisa.ap"(%table, %idx) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<4096x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "hbm">
  // expected-error@+1 {{a read-modify-write needs one source to be 'dst' itself (rule: dma_compute read-modify-write)}}
  "nisa.dma_compute"(%a, %rows, %rows) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// ... with unique indices ...
func.func @compute_rmw_repeats(%table: memref<4096x64xf32, "hbm">, %idx: memref<128x1xi32, "sbuf">,
                               %rows: memref<128x64xf32, "hbm">) {
  %a = "nisa.ap"(%table, %idx) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<4096x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "hbm">
  // expected-error@+1 {{a read-modify-write needs unique_indices = true (NKI: non-unique indices are not supported) (rule: dma_compute read-modify-write)}}
  "nisa.dma_compute"(%a, %a, %rows) {unique_indices = false} : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// ... and a gather reads HBM into SBUF ("Gather RMW: dst(SB) = dst(SB) + src(HBM)[indices]").
func.func @compute_gather_from_sbuf(%t: memref<128x64xf32, "sbuf">, %idx: memref<128x1xi32, "sbuf">,
                                    %d: memref<128x64xf32, "sbuf">) {
  %g = "nisa.ap"(%t, %idx) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "sbuf">
  // expected-error@+1 {{a gather read-modify-write reads an indirect HBM source into an SBUF 'dst' (rule: dma_compute read-modify-write)}}
  "nisa.dma_compute"(%d, %d, %g) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// engine= on a DMA (the hwdge trigger, Sync or Scalar) only with hwdge ...
func.func @trigger_not_hwdge(%h: memref<128x64xbf16, "hbm">, %s: memref<128x64xbf16, "sbuf">) {
  // expected-error@+1 {{attribute 'engine': "sync" triggers a hardware-DGE DMA; engine= on a DMA is accepted only with dge_mode "hwdge", not "swdge" (rule: dma trigger engine)}}
  "nisa.dma_copy"(%s, %h) {engine = "sync", dge_mode = "swdge"} : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "hbm">) -> ()
  return
}

// -----

// ... which sunda does not have.
module attributes {sundial.target = "sunda"} {
func.func @trigger_sunda(%h: memref<128x64xbf16, "hbm">, %s: memref<128x64xbf16, "sbuf">) {
  // expected-error@+1 {{attribute 'engine': "scalar" triggers a hardware-DGE DMA, which needs cayman (NeuronCore v3) or newer (rule: dma trigger engine)}}
  "nisa.dma_transpose"(%s, %h) {engine = "scalar", axes = array<i64: 1, 0>} : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "hbm">) -> ()
  return
}
}
