// Collective NISA ops (nki.collectives), rank queries and the LNC2 send/receive.
// RUN: sundial-opt %s | FileCheck %s
// RUN: sundial-opt %s -o %t.1 && sundial-opt %t.1 -o %t.2 && diff %t.1 %t.2

// send_recv needs NeuronCore v3.
module attributes {sundial.target = "cayman"} {

// all_reduce on one SBUF tile, then coalesced over two HBM tensors with two rank lists
// (IRDL gives every value of a variadic group the same type, so the two tensors match).
// CHECK-LABEL: func.func @all_reduce
// CHECK: "nisa.all_reduce"(%{{.*}}, %{{.*}}) {op = "add", operandSegmentSizes = array<i32: 1, 1>, replica_group = [array<i64: 0, 1, 2, 3>]}
// CHECK: "nisa.all_reduce"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {engine = "gpsimd", op = "max", operandSegmentSizes = array<i32: 2, 2>, replica_group = [array<i64: 0, 1>, array<i64: 2, 3>]}
func.func @all_reduce(%s: memref<128x64xbf16, "sbuf">, %h0: memref<256x64xf32, "hbm">, %h1: memref<256x64xf32, "hbm">) {
  "nisa.all_reduce"(%s, %s) {replica_group = [array<i64: 0, 1, 2, 3>], op = "add", operandSegmentSizes = array<i32: 1, 1>}
      : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
  "nisa.all_reduce"(%h0, %h1, %h0, %h1) {replica_group = [array<i64: 0, 1>, array<i64: 2, 3>], op = "max", engine = "gpsimd",
                                         operandSegmentSizes = array<i32: 2, 2>}
      : (memref<256x64xf32, "hbm">, memref<256x64xf32, "hbm">, memref<256x64xf32, "hbm">, memref<256x64xf32, "hbm">) -> ()
  return
}

// all_gather, reduce_scatter (with a priority) and all_to_all.
// CHECK-LABEL: func.func @gather_scatter
// CHECK: "nisa.all_gather"(%{{.*}}, %{{.*}}) {collective_dim = 0 : i64, operandSegmentSizes = array<i32: 1, 1>, replica_group = [array<i64: 0, 1>]}
// CHECK: "nisa.reduce_scatter"(%{{.*}}, %{{.*}}) {op = "min", operandSegmentSizes = array<i32: 1, 1>, priority = 3 : i64, replica_group = [array<i64: 1, 0>]}
// CHECK: "nisa.all_to_all"(%{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1>, replica_group = [array<i64: 0, 1, 2, 3, 4, 5, 6, 7>]}
func.func @gather_scatter(%big: memref<256x64xf32, "hbm">, %small: memref<128x64xf32, "hbm">) {
  "nisa.all_gather"(%big, %small) {replica_group = [array<i64: 0, 1>], collective_dim = 0, operandSegmentSizes = array<i32: 1, 1>}
      : (memref<256x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  "nisa.reduce_scatter"(%small, %big) {replica_group = [array<i64: 1, 0>], op = "min", priority = 3, operandSegmentSizes = array<i32: 1, 1>}
      : (memref<128x64xf32, "hbm">, memref<256x64xf32, "hbm">) -> ()
  "nisa.all_to_all"(%big, %big) {replica_group = [array<i64: 0, 1, 2, 3, 4, 5, 6, 7>], operandSegmentSizes = array<i32: 1, 1>}
      : (memref<256x64xf32, "hbm">, memref<256x64xf32, "hbm">) -> ()
  return
}

// all_to_all_v: metadata rows are send counts, send displacements, receive counts (always
// present: the collective fills them unless recv_counts_known) and, with has_rdispls, receive
// displacements; one column per rank of a rank list; (rows, G) in HBM, (1, rows, G) in SBUF.
// CHECK-LABEL: func.func @all_to_all_v
// CHECK: "nisa.all_to_all_v"(%{{.*}}, %{{.*}}, %{{.*}}) {has_rdispls = true, recv_counts_known = true, replica_group = [array<i64: 0, 1, 2, 3>]}
// CHECK: "nisa.all_to_all_v"(%{{.*}}, %{{.*}}, %{{.*}}) {replica_group = [array<i64: 0, 1, 2, 3>]} : (memref<1024x64xbf16, "hbm">, memref<1024x64xbf16, "hbm">, memref<1x3x4xui32, "sbuf">) -> ()
// CHECK: "nisa.all_to_all_v"(%{{.*}}, %{{.*}}, %{{.*}}) {recv_counts_known = true, replica_group = [array<i64: 0, 1>, array<i64: 2, 3>]} : (memref<1024x64xbf16, "hbm">, memref<1024x64xbf16, "hbm">, memref<3x2xui32, "hbm">) -> ()
func.func @all_to_all_v(%d: memref<1024x64xbf16, "hbm">, %s: memref<1024x64xbf16, "hbm">, %m4: memref<4x4xui32, "hbm">, %m3: memref<1x3x4xui32, "sbuf">,
                        %m32: memref<3x2xui32, "hbm">) {
  "nisa.all_to_all_v"(%d, %s, %m4) {replica_group = [array<i64: 0, 1, 2, 3>], recv_counts_known = true, has_rdispls = true}
      : (memref<1024x64xbf16, "hbm">, memref<1024x64xbf16, "hbm">, memref<4x4xui32, "hbm">) -> ()
  "nisa.all_to_all_v"(%d, %s, %m3) {replica_group = [array<i64: 0, 1, 2, 3>]}
      : (memref<1024x64xbf16, "hbm">, memref<1024x64xbf16, "hbm">, memref<1x3x4xui32, "sbuf">) -> ()
  "nisa.all_to_all_v"(%d, %s, %m32) {replica_group = [array<i64: 0, 1>, array<i64: 2, 3>], recv_counts_known = true}
      : (memref<1024x64xbf16, "hbm">, memref<1024x64xbf16, "hbm">, memref<3x2xui32, "hbm">) -> ()
  return
}

// Explicit-pair permutes, plain and with a reduction of two sources.
// CHECK-LABEL: func.func @collective_permute
// CHECK: "nisa.collective_permute"(%{{.*}}, %{{.*}}) {source_target_pairs = [array<i64: 0, 1>, array<i64: 1, 0>]}
// CHECK: "nisa.collective_permute_reduce"(%{{.*}}, %{{.*}}, %{{.*}}) {op = "add", source_target_pairs = [array<i64: 0, 1>, array<i64: 1, 2>, array<i64: 2, 0>]}
func.func @collective_permute(%d: memref<128x64xf32, "hbm">, %s: memref<128x64xf32, "hbm">) {
  "nisa.collective_permute"(%d, %s) {source_target_pairs = [array<i64: 0, 1>, array<i64: 1, 0>]}
      : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  "nisa.collective_permute_reduce"(%d, %s, %s) {source_target_pairs = [array<i64: 0, 1>, array<i64: 1, 2>, array<i64: 2, 0>], op = "add"}
      : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// Ring permutes: one tensor per channel (the default single channel, then two channels),
// and the rank a ring iteration processes, read from a register.
// CHECK-LABEL: func.func @ring
// CHECK: "nisa.collective_permute_implicit"(%{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1>, replica_group = [array<i64: 0, 1, 2, 3>]}
// CHECK: "nisa.collective_permute_implicit_reduce"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {channel_ids = array<i64: 0, 1>, op = "add", operandSegmentSizes = array<i32: 2, 2, 2>, replica_group = [array<i64: 0, 1, 2, 3>]}
// CHECK: %[[IT:.*]] = "nisa.load_register"
// CHECK: "nisa.collective_permute_implicit_current_processing_rank_id"(%[[IT]]) {channel_id = 1 : i64, num_channels = 2 : i64, replica_group = [array<i64: 0, 1, 2, 3>]} : (!nisa.reg) -> !nisa.reg
func.func @ring(%a: memref<128x64xf32, "sbuf">, %b: memref<128x64xf32, "sbuf">, %it: memref<1x1xi32, "sbuf">) {
  "nisa.collective_permute_implicit"(%a, %b) {replica_group = [array<i64: 0, 1, 2, 3>], operandSegmentSizes = array<i32: 1, 1>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.collective_permute_implicit_reduce"(%a, %b, %a, %b, %a, %b)
      {replica_group = [array<i64: 0, 1, 2, 3>], op = "add", channel_ids = array<i64: 0, 1>, operandSegmentSizes = array<i32: 2, 2, 2>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  %i = "nisa.load_register"(%it) : (memref<1x1xi32, "sbuf">) -> !nisa.reg
  %r = "nisa.collective_permute_implicit_current_processing_rank_id"(%i)
      {replica_group = [array<i64: 0, 1, 2, 3>], channel_id = 1, num_channels = 2} : (!nisa.reg) -> !nisa.reg
  return
}

// The rank id as a register and stored into a [1, 1] tile.
// CHECK-LABEL: func.func @rank
// CHECK: "nisa.rank_id"() : () -> !nisa.reg
// CHECK: "nisa.rank_id_store"(%{{.*}}) : (memref<1x1xui32, "sbuf">) -> ()
func.func @rank(%d: memref<1x1xui32, "sbuf">) {
  %r = "nisa.rank_id"() : () -> !nisa.reg
  "nisa.rank_id_store"(%d) : (memref<1x1xui32, "sbuf">) -> ()
  return
}

// Swap SBUF tiles with the neighbouring core through the GpSimd DMA.
// CHECK-LABEL: func.func @send_recv
// CHECK: "nisa.send_recv"(%{{.*}}, %{{.*}}) {dma_engine = "gpsimd_dma", pipe_id = 1 : i64, recv_from_rank = 1 : i64, send_to_rank = 1 : i64}
func.func @send_recv(%d: memref<128x64xbf16, "sbuf">, %s: memref<128x64xbf16, "sbuf">) {
  "nisa.send_recv"(%d, %s) {send_to_rank = 1, recv_from_rank = 1, pipe_id = 1, dma_engine = "gpsimd_dma"}
      : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
  return
}

}
