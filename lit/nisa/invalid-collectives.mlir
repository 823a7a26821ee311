// Op rules of the collective NISA ops: replica groups, operand counts and spaces, channels,
// permute pairs and all_to_all_v metadata.
// RUN: sundial-opt %s -split-input-file -verify-diagnostics

// A replica group needs at least one rank list ...
func.func @group_empty(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'replica_group': needs at least one non-empty rank list (rule: replica group)}}
  "nisa.all_reduce"(%t, %t) {replica_group = [], op = "add", operandSegmentSizes = array<i32: 1, 1>}
      : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// ... of non-negative ranks ...
func.func @group_negative(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'replica_group': rank -1 is negative (rule: replica group)}}
  "nisa.all_gather"(%t, %t) {replica_group = [array<i64: 0, -1>], operandSegmentSizes = array<i32: 1, 1>}
      : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// ... each in one list only.
func.func @group_duplicate(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'replica_group': rank 1 appears in more than one place; each rank participates in one rank list (rule: replica group)}}
  "nisa.all_to_all"(%t, %t) {replica_group = [array<i64: 0, 1>, array<i64: 1, 2>], operandSegmentSizes = array<i32: 1, 1>}
      : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// One dst per src.
func.func @operands(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{needs one dst per src and at least one of each (got 2 dsts, 1 srcs) (rule: collective operands)}}
  "nisa.all_reduce"(%t, %t, %t) {replica_group = [array<i64: 0, 1>], op = "add", operandSegmentSizes = array<i32: 2, 1>}
      : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// All tensors on HBM or all on SBUF.
func.func @spaces(%h: memref<128x64xf32, "hbm">, %s: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{all tensors must be on HBM or all on SBUF; mixing memory spaces is not supported (rule: collective spaces)}}
  "nisa.all_reduce"(%h, %s) {replica_group = [array<i64: 0, 1>], op = "add", operandSegmentSizes = array<i32: 1, 1>}
      : (memref<128x64xf32, "hbm">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// Coalesced collectives (several tensors) are HBM only.
func.func @coalesced(%s: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{coalesced collectives (several tensors) are only supported on HBM (rule: coalesced on HBM)}}
  "nisa.all_reduce"(%s, %s, %s, %s) {replica_group = [array<i64: 0, 1>], op = "add", operandSegmentSizes = array<i32: 2, 2>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// Collective reductions are add, min and max.
func.func @collective_op(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'op': alu_op "mult" is not allowed here (allowed: add|min|max)}}
  "nisa.reduce_scatter"(%t, %t) {replica_group = [array<i64: 0, 1>], op = "mult", operandSegmentSizes = array<i32: 1, 1>}
      : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// collective_dim is 0.
func.func @collective_dim(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'collective_dim': value 1 is out of range [0, 0]}}
  "nisa.all_gather"(%t, %t) {replica_group = [array<i64: 0, 1>], collective_dim = 1, operandSegmentSizes = array<i32: 1, 1>}
      : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// Ring channel ids count from 0.
func.func @channel_ids(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{attribute 'channel_ids': channel ids must be consecutive integers starting at 0 (rule: channel ids)}}
  "nisa.collective_permute_implicit"(%t, %t, %t, %t) {replica_group = [array<i64: 0, 1>], channel_ids = array<i64: 1, 2>, operandSegmentSizes = array<i32: 2, 2>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// One tensor of each group per channel.
func.func @per_channel(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{operand group 'srcs1' needs exactly one tensor per channel (2), got 1 (rule: one tensor per channel)}}
  "nisa.collective_permute_implicit_reduce"(%t, %t, %t, %t, %t)
      {replica_group = [array<i64: 0, 1>], op = "add", channel_ids = array<i64: 0, 1>, operandSegmentSizes = array<i32: 2, 2, 1>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// The processed-rank query's channel lies below num_channels ...
func.func @channel_range(%r: !nisa.reg) {
  // expected-error@+1 {{attribute 'channel_id': 2 must be below num_channels 2 (rule: channel range)}}
  %x = "nisa.collective_permute_implicit_current_processing_rank_id"(%r) {replica_group = [array<i64: 0, 1>], channel_id = 2, num_channels = 2}
      : (!nisa.reg) -> !nisa.reg
  return
}

// -----

// ... also when num_channels is left at its default of 1 (this used to pass).
func.func @channel_range_default(%r: !nisa.reg) {
  // expected-error@+1 {{attribute 'channel_id': 1 must be below num_channels 1 (rule: channel range)}}
  %x = "nisa.collective_permute_implicit_current_processing_rank_id"(%r) {replica_group = [array<i64: 0, 1>], channel_id = 1}
      : (!nisa.reg) -> !nisa.reg
  return
}

// -----

// A permute needs at least one (source, target) pair ...
func.func @pairs_empty(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'source_target_pairs': needs at least one (source, target) pair (rule: permute pairs)}}
  "nisa.collective_permute"(%t, %t) {source_target_pairs = []} : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// ... and every entry is a pair.
func.func @pairs_shape(%t: memref<128x64xf32, "hbm">) {
  // expected-error@+1 {{attribute 'source_target_pairs': every entry must be a (source, target) pair of rank ids (rule: permute pairs)}}
  "nisa.collective_permute_reduce"(%t, %t, %t) {source_target_pairs = [array<i64: 0, 1, 2>], op = "add"}
      : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
  return
}

// -----

// all_to_all_v metadata always has the receive-count row (the emulator reads rows 0, 1 and 3
// and fills row 2): 2 rows were accepted here and refused by the emulator.
func.func @a2av_metadata(%t: memref<1024x64xf32, "hbm">, %m: memref<2x4xui32, "hbm">) {
  // expected-error@+1 {{operand 'metadata' must be 3x4 in HBM (send counts, send displacements, recv counts; one column per rank of a rank list), got 2x4 (rule: all_to_all_v metadata)}}
  "nisa.all_to_all_v"(%t, %t, %m) {replica_group = [array<i64: 0, 1, 2, 3>]}
      : (memref<1024x64xf32, "hbm">, memref<1024x64xf32, "hbm">, memref<2x4xui32, "hbm">) -> ()
  return
}

// -----

// The columns are the ranks of one rank list, not the world.
func.func @a2av_columns(%t: memref<1024x64xf32, "hbm">, %m: memref<4x4xui32, "hbm">) {
  // expected-error@+1 {{operand 'metadata' must be 4x2 in HBM (send counts, send displacements, recv counts, recv displacements; one column per rank of a rank list), got 4x4 (rule: all_to_all_v metadata)}}
  "nisa.all_to_all_v"(%t, %t, %m) {replica_group = [array<i64: 0, 1>, array<i64: 2, 3>], has_rdispls = true}
      : (memref<1024x64xf32, "hbm">, memref<1024x64xf32, "hbm">, memref<4x4xui32, "hbm">) -> ()
  return
}

// -----

// In SBUF the metadata is (1, rows, G).
func.func @a2av_sbuf(%t: memref<1024x64xf32, "hbm">, %m: memref<3x4xui32, "sbuf">) {
  // expected-error@+1 {{operand 'metadata' must be 1x3x4 in SBUF (send counts, send displacements, recv counts; one column per rank of a rank list), got 3x4 (rule: all_to_all_v metadata)}}
  "nisa.all_to_all_v"(%t, %t, %m) {replica_group = [array<i64: 0, 1, 2, 3>]}
      : (memref<1024x64xf32, "hbm">, memref<1024x64xf32, "hbm">, memref<3x4xui32, "sbuf">) -> ()
  return
}

// -----

// One metadata tensor serves every rank list, so they have one size.
func.func @a2av_uneven(%t: memref<1024x64xf32, "hbm">, %m: memref<3x2xui32, "hbm">) {
  // expected-error@+1 {{attribute 'replica_group': rank lists of different sizes (2, 1) cannot share one metadata tensor (rule: all_to_all_v metadata)}}
  "nisa.all_to_all_v"(%t, %t, %m) {replica_group = [array<i64: 0, 1>, array<i64: 2>]}
      : (memref<1024x64xf32, "hbm">, memref<1024x64xf32, "hbm">, memref<3x2xui32, "hbm">) -> ()
  return
}

// -----

// all_to_all is HBM only.
func.func @all_to_all_space(%t: memref<128x64xf32, "sbuf">) {
  // expected-error@+1 {{operand 'dsts': memory space "sbuf" is not allowed (allowed: hbm) (rule: operand space)}}
  "nisa.all_to_all"(%t, %t) {replica_group = [array<i64: 0, 1>], operandSegmentSizes = array<i32: 1, 1>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}

// -----

// send_recv swaps tiles of one shape.
func.func @send_recv_shape(%d: memref<128x64xf32, "sbuf">, %s: memref<128x32xf32, "sbuf">) {
  // expected-error@+1 {{operand 'src' has shape 128x32 but 'dst' has shape 128x64 (rule: shapes agree)}}
  "nisa.send_recv"(%d, %s) {send_to_rank = 1, recv_from_rank = 1} : (memref<128x64xf32, "sbuf">, memref<128x32xf32, "sbuf">) -> ()
  return
}

// -----

// rank_id_store writes a [1, 1] tile.
func.func @rank_id_store(%d: memref<1x2xi32, "sbuf">) {
  // expected-error@+1 {{operand 'dst' must be a [1, 1] tile, got 1x2 (rule: scalar tile)}}
  "nisa.rank_id_store"(%d) : (memref<1x2xi32, "sbuf">) -> ()
  return
}
