// Every NISA op that sundial-isel does not select, with the reason: the ISA table's missing
// fact (an unpinned opcode or sequence), the target rule, a value the instruction needs that
// no source gives, or an instruction this selector does not build yet. The test
// `every_emit_row_is_selected_or_refused` (tests/lit.rs) holds this file and the selection
// tests to every emit row of the ISA table. Target-gated ops on an older target are refused by
// the verifier already (rule: target); sundial-isel-target.mlir shows the selector's own
// target rule.
// RUN: sundial-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sundial-isel)'

// tensor_scalar_affine_select (0x92) is pinned, but its fill value rides a register.
module attributes {sundial.target = "cayman"} {
  func.func @k0(%dst: memref<128x128xbf16, "sbuf">, %src: memref<128x128xbf16, "sbuf">) {
    // expected-error@+1 {{'nisa.tensor_scalar_affine_select' op is pinned on cayman (bir.tensor_scalar_affine_select [0x92]) but cannot be built: its fill value rides a register (S2D2_TS_AS fill_reg), and no pinned instruction loads an fp32 immediate into a register (REG_LOAD 0x4a has no field table)}}
    "nisa.tensor_scalar_affine_select"(%dst, %src) {pattern = array<i64: -1, 128>, channel_multiplier = 1, on_false_value = -3.0e4 : f32, cmp_op = "is_ge"}
        : (memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "sbuf">) -> ()
    return
  }
}

// -----


// indirect_copy (0xe7) is pinned, but the unit of src_buffer_size is not stated.
module attributes {sundial.target = "cayman"} {
  func.func @k1(%dst: memref<128x120xf32, "sbuf">, %src: memref<128x32xf32, "sbuf">, %idx: memref<128x4xui16, "sbuf">) {
    // expected-error@+1 {{'nisa.indirect_copy' op is pinned on cayman (bir.indirect_copy [0xe7]) but cannot be built: the unit of INDIRECT_COPY's src_buffer_size (elements or bytes) and where num_valid_indices goes are not stated by any source}}
    "nisa.indirect_copy"(%dst, %src, %idx) {num_elem_per_idx = 2, num_valid_indices = 60}
        : (memref<128x120xf32, "sbuf">, memref<128x32xf32, "sbuf">, memref<128x4xui16, "sbuf">) -> ()
    return
  }
}

// -----


// nonzero_with_count needs cayman ...
module attributes {sundial.target = "sunda"} {
  func.func @k2(%dst: memref<16x65xi32, "sbuf">, %src: memref<16x64xf32, "sbuf">) {
    // expected-error@+1 {{'nisa.nonzero_with_count' op is not available on sunda (NeuronCore v2); it needs cayman (v3) or newer (rule: target)}}
    "nisa.nonzero_with_count"(%dst, %src) : (memref<16x65xi32, "sbuf">, memref<16x64xf32, "sbuf">) -> ()
    return
  }
}

// -----


// ... and is unpinned there: 0xf2 has no field table.
module attributes {sundial.target = "cayman"} {
  func.func @k3(%dst: memref<16x65xi32, "sbuf">, %src: memref<16x64xf32, "sbuf">) {
    // expected-error@+1 {{'nisa.nonzero_with_count' op cannot be selected on cayman: nonzero_with_count: unpinned: no field table for opcode 0xf2: no source gives its byte layout}}
    "nisa.nonzero_with_count"(%dst, %src) : (memref<16x65xi32, "sbuf">, memref<16x64xf32, "sbuf">) -> ()
    return
  }
}

// -----


// quantize_mx needs mariana (where it is selected: sundial-isel.mlir).
module attributes {sundial.target = "cayman"} {
  func.func @k4(%q: memref<128x128xvector<4xf8E4M3FN>, "sbuf">, %qs: memref<128x128xf8E8M0FNU, "sbuf">, %x: memref<128x512xbf16, "sbuf">) {
    // expected-error@+1 {{'nisa.quantize_mx' op is not available on cayman (NeuronCore v3); it needs mariana (v4) or newer (rule: target)}}
    "nisa.quantize_mx"(%q, %qs, %x) : (memref<128x128xvector<4xf8E4M3FN>, "sbuf">, memref<128x128xf8E8M0FNU, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
    return
  }
}

// -----


// sequence_bounds: 0xbe has no field table.
module attributes {sundial.target = "cayman"} {
  func.func @k5(%dst: memref<1x2x512xi32, "sbuf">, %ids: memref<1x512xi32, "sbuf">) {
    // expected-error@+1 {{'nisa.sequence_bounds' op cannot be selected on cayman: sequence_bounds: unpinned: no field table for opcode 0xbe: no source gives its byte layout}}
    "nisa.sequence_bounds"(%dst, %ids) : (memref<1x2x512xi32, "sbuf">, memref<1x512xi32, "sbuf">) -> ()
    return
  }
}

// -----


// tensor_scalar_addr: 0x74 has no field table.
module attributes {sundial.target = "cayman"} {
  func.func @k6(%d: memref<1x8xui64, "sbuf">, %s: memref<1x8xi64, "sbuf">) {
    // expected-error@+1 {{'nisa.tensor_scalar_addr' op cannot be selected on cayman: tensor_scalar_addr: unpinned: no field table for opcode 0x74: no source gives its byte layout}}
    "nisa.tensor_scalar_addr"(%d, %s) {op0 = "add", imm0 = 4096} : (memref<1x8xui64, "sbuf">, memref<1x8xi64, "sbuf">) -> ()
    return
  }
}

// -----


// tensor_tensor_scan: 0xe5 has no field table.
module attributes {sundial.target = "cayman"} {
  func.func @k7(%d: memref<128x64xf32, "sbuf">, %a: memref<128x64xf32, "sbuf">, %b: memref<128x64xf32, "sbuf">) {
    // expected-error@+1 {{'nisa.tensor_tensor_scan' op cannot be selected on cayman: tensor_tensor_scan: unpinned: no field table for opcode 0xe5: S2S2D2_STT (scan): no source gives the offsets of the three TENSOR2D descriptors or of the scalar value (§4.2)}}
    "nisa.tensor_tensor_scan"(%d, %a, %b) {op0 = "mult", op1 = "add", initial_value = 0.0 : f32}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    return
  }
}

// -----


// scalar_tensor_tensor: 0x9d and 0x9e have no field tables.
module attributes {sundial.target = "cayman"} {
  func.func @k8(%d: memref<128x64xf32, "sbuf">, %a: memref<128x64xf32, "sbuf">, %b: memref<128x64xf32, "sbuf">, %di: memref<128x64xui8, "sbuf">, %c: memref<128x1xui8, "sbuf">) {
    // expected-error@+1 {{'nisa.scalar_tensor_tensor_arith' op cannot be selected on cayman: scalar_tensor_tensor_arith: unpinned: no field table for opcode 0x9d: S2S2D2_STT: no source gives the offsets of the three TENSOR2D descriptors or of the scalar value (§4.2 gives the control band +0x24..+0x2C only)}}
    "nisa.scalar_tensor_tensor_arith"(%d, %a, %b) {op0 = "mult", imm0 = 3.0 : f32, op1 = "add"}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.scalar_tensor_tensor_bitvec' op cannot be selected on cayman: scalar_tensor_tensor_bitvec: unpinned: no field table for opcode 0x9e: S2S2D2_STT (bitvec): no source gives the offsets of the three TENSOR2D descriptors or of the scalar value (§4.2)}}
    "nisa.scalar_tensor_tensor_bitvec"(%di, %di, %c, %di) {op0 = "bitwise_and", op1 = "bitwise_or"}
        : (memref<128x64xui8, "sbuf">, memref<128x64xui8, "sbuf">, memref<128x1xui8, "sbuf">, memref<128x64xui8, "sbuf">) -> ()
    return
  }
}

// -----


// select_reduce: 0xea has no field table.
module attributes {sundial.target = "cayman"} {
  func.func @k9(%d: memref<128x64xf32, "sbuf">, %p: memref<128x64xui8, "sbuf">, %t: memref<128x64xbf16, "sbuf">) {
    // expected-error@+1 {{'nisa.select_reduce' op cannot be selected on cayman: select_reduce: unpinned: no field table for opcode 0xea: no source gives its byte layout}}
    "nisa.select_reduce"(%d, %p, %t) {on_false_value = -1.0 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}
        : (memref<128x64xf32, "sbuf">, memref<128x64xui8, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
    return
  }
}

// -----


// dve_read_accumulator: 0x9b is pinned, but only as a companion bundle.
module attributes {sundial.target = "cayman"} {
  func.func @k10(%d: memref<128x1xf32, "sbuf">) {
    // expected-error@+1 {{'nisa.dve_read_accumulator' op is pinned on cayman (bir.read_accumulator [0x9b]) but cannot be built: a standalone 0x9b read-out has no instruction-model op in codegen (it is encoded only as the companion of 0x9a and 0xbc)}}
    "nisa.dve_read_accumulator"(%d) : (memref<128x1xf32, "sbuf">) -> ()
    return
  }
}

// -----


// max8, find_index8, max_index_and_match_replace: 0x6c, 0x6e, 0x6f have no field tables.
module attributes {sundial.target = "cayman"} {
  func.func @k11(%d: memref<128x8xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">, %i: memref<128x8xui32, "sbuf">, %r: memref<128x64xf32, "sbuf">) {
    // expected-error@+1 {{'nisa.max8' op cannot be selected on cayman: max8: unpinned: no field table for opcode 0x6c: no source gives its byte layout}}
    "nisa.max8"(%d, %s) : (memref<128x8xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.find_index8' op cannot be selected on cayman: find_index8: unpinned: no field table for opcode 0x6e: no source gives its byte layout}}
    "nisa.find_index8"(%i, %s, %d) : (memref<128x8xui32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x8xf32, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.max_index_and_match_replace' op cannot be selected on cayman: max_index_and_match_replace: unpinned: no field table for opcode 0x6f: no source gives its byte layout}}
    "nisa.max_index_and_match_replace"(%r, %s, %d) {imm_value = 0.0 : f32}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x8xf32, "sbuf">) -> ()
    return
  }
}

// -----


// range_select is a CoreV3 instruction: not on sunda ...
module attributes {sundial.target = "sunda"} {
  func.func @k12(%d: memref<128x64xf32, "sbuf">, %t: memref<128x64xf32, "sbuf">, %b0: memref<128x1xf32, "sbuf">, %b1: memref<128x1xf32, "sbuf">) {
    // expected-error@+1 {{'nisa.range_select' op is not available on sunda (NeuronCore v2); it needs cayman (v3) or newer (rule: target)}}
    "nisa.range_select"(%d, %t, %b0, %b1) {comp_op0 = "is_gt", comp_op1 = "is_le"}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    return
  }
}

// -----


// ... and unpinned on mariana (the seed's CoreV3-only RangeSelect: no encoder family there).
// (On cayman it is selected: range-select.mlir.)
module attributes {sundial.target = "mariana"} {
  func.func @k14(%d: memref<128x64xf32, "sbuf">, %t: memref<128x64xf32, "sbuf">, %b0: memref<128x1xf32, "sbuf">, %b1: memref<128x1xf32, "sbuf">) {
    // expected-error@+1 {{'nisa.range_select' op cannot be selected on mariana: range_select: unpinned: opcode 0xbc's format family RangeSelect is not on mariana}}
    "nisa.range_select"(%d, %t, %b0, %b1) {comp_op0 = "is_gt", comp_op1 = "is_le"}
        : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    return
  }
}

// -----


// dropout (0x7f) is pinned, but its threshold is a scalar-bank index.
module attributes {sundial.target = "cayman"} {
  func.func @k15(%d: memref<128x64xbf16, "sbuf">, %s: memref<128x64xbf16, "sbuf">) {
    // expected-error@+1 {{'nisa.dropout' op is pinned on cayman (bir.dropout [0x7f]) but cannot be built: the threshold is an index into the engine's scalar-operand bank (threshold_imm_ptr), and no source describes how that bank is filled}}
    "nisa.dropout"(%d, %s) {prob = 0.1 : f32} : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
    return
  }
}

// -----


// bn_stats, bn_aggr: 0x61, 0x62 have no field tables.
module attributes {sundial.target = "cayman"} {
  func.func @k16(%st: memref<128x6xf32, "sbuf">, %x: memref<128x512xf32, "sbuf">, %ag: memref<128x2xf32, "sbuf">) {
    // expected-error@+1 {{'nisa.bn_stats' op cannot be selected on cayman: bn_stats: unpinned: no field table for opcode 0x61: no source gives its byte layout}}
    "nisa.bn_stats"(%st, %x) : (memref<128x6xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.bn_aggr' op cannot be selected on cayman: bn_aggr: unpinned: no field table for opcode 0x62: no source gives its byte layout}}
    "nisa.bn_aggr"(%ag, %st) : (memref<128x2xf32, "sbuf">, memref<128x6xf32, "sbuf">) -> ()
    return
  }
}

// -----


// exponential needs mariana ...
module attributes {sundial.target = "cayman"} {
  func.func @k17(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">) {
    // expected-error@+1 {{'nisa.exponential' op is not available on cayman (NeuronCore v3); it needs mariana (v4) or newer (rule: target)}}
    "nisa.exponential"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    return
  }
}

// -----


// ... where 0x30 is pinned and its operand mapping is not.
module attributes {sundial.target = "mariana"} {
  func.func @k18(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">) {
    // expected-error@+1 {{'nisa.exponential' op is pinned on mariana (bir.exponential [0x30]) but cannot be built: how max_value, reduce_res and reduce_cmd map onto the EXPONENTIAL 0x30 bundle (the S3D3_TS fields) is not stated by any source}}
    "nisa.exponential"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
    return
  }
}

// -----


// activation on mariana: the ISA table's case is ACTIVATE2 0x25, whose src/dst slot offsets no
// source gives (0x21 is selected elsewhere: activation.mlir).
module attributes {sundial.target = "mariana"} {
  func.func @k19(%d: memref<128x512xbf16, "sbuf">, %x: memref<128x512xf32, "psum">) {
    // expected-error@+1 {{'nisa.activation' op cannot be selected on mariana: activation: unpinned: no field table for opcode 0x25: ACTIVATE2: no source gives the MEM_PATTERN2D src/dst slot offsets (§4.13 gives the control band; family A's TENSOR3D at +0x10 would overlap it)}}
    "nisa.activation"(%d, %x) {op = "relu", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}
        : (memref<128x512xbf16, "sbuf">, memref<128x512xf32, "psum">) -> ()
    return
  }
}

// -----


// Collectives lower into the PSEUDO band, which has no public layout.
module attributes {sundial.target = "cayman"} {
  func.func @k20(%s: memref<128x64xbf16, "sbuf">, %h: memref<128x64xbf16, "hbm">, %h2: memref<128x64xbf16, "hbm">, %m: memref<3x2xui32, "hbm">, %it: memref<1x1xi32, "sbuf">, %rs: memref<1x1xi32, "sbuf">) {
    // expected-error@+1 {{'nisa.all_reduce' op cannot be selected on cayman: all_reduce: unpinned: collectives lower into the PSEUDO band 0xc1-0xdf (compiler-generated, translated by the runtime): no public byte layout and no per-op pseudo sequence is recovered}}
    "nisa.all_reduce"(%s, %s) {replica_group = [array<i64: 0, 1>], op = "add", operandSegmentSizes = array<i32: 1, 1>}
        : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.all_gather' op cannot be selected on cayman: all_gather: unpinned: collectives lower into the PSEUDO band 0xc1-0xdf (compiler-generated, translated by the runtime): no public byte layout and no per-op pseudo sequence is recovered}}
    "nisa.all_gather"(%h, %h2) {replica_group = [array<i64: 0, 1>], operandSegmentSizes = array<i32: 1, 1>}
        : (memref<128x64xbf16, "hbm">, memref<128x64xbf16, "hbm">) -> ()
    // expected-error@+1 {{'nisa.reduce_scatter' op cannot be selected on cayman: reduce_scatter: unpinned: collectives lower into the PSEUDO band 0xc1-0xdf (compiler-generated, translated by the runtime): no public byte layout and no per-op pseudo sequence is recovered}}
    "nisa.reduce_scatter"(%h, %h2) {replica_group = [array<i64: 0, 1>], op = "max", operandSegmentSizes = array<i32: 1, 1>}
        : (memref<128x64xbf16, "hbm">, memref<128x64xbf16, "hbm">) -> ()
    // expected-error@+1 {{'nisa.all_to_all' op cannot be selected on cayman: all_to_all: unpinned: collectives lower into the PSEUDO band 0xc1-0xdf (compiler-generated, translated by the runtime): no public byte layout and no per-op pseudo sequence is recovered}}
    "nisa.all_to_all"(%h, %h2) {replica_group = [array<i64: 0, 1>], operandSegmentSizes = array<i32: 1, 1>}
        : (memref<128x64xbf16, "hbm">, memref<128x64xbf16, "hbm">) -> ()
    // expected-error@+1 {{'nisa.all_to_all_v' op cannot be selected on cayman: all_to_all_v: unpinned: collectives lower into the PSEUDO band 0xc1-0xdf (compiler-generated, translated by the runtime): no public byte layout and no per-op pseudo sequence is recovered}}
    "nisa.all_to_all_v"(%h, %h2, %m) {replica_group = [array<i64: 0, 1>]}
        : (memref<128x64xbf16, "hbm">, memref<128x64xbf16, "hbm">, memref<3x2xui32, "hbm">) -> ()
    // expected-error@+1 {{'nisa.collective_permute' op cannot be selected on cayman: collective_permute: unpinned: collectives lower into the PSEUDO band 0xc1-0xdf (compiler-generated, translated by the runtime): no public byte layout and no per-op pseudo sequence is recovered}}
    "nisa.collective_permute"(%h, %h2) {source_target_pairs = [array<i64: 0, 1>, array<i64: 1, 0>]}
        : (memref<128x64xbf16, "hbm">, memref<128x64xbf16, "hbm">) -> ()
    // expected-error@+1 {{'nisa.collective_permute_implicit' op cannot be selected on cayman: collective_permute_implicit: unpinned: collectives lower into the PSEUDO band 0xc1-0xdf (compiler-generated, translated by the runtime): no public byte layout and no per-op pseudo sequence is recovered}}
    "nisa.collective_permute_implicit"(%s, %s) {replica_group = [array<i64: 0, 1>], operandSegmentSizes = array<i32: 1, 1>}
        : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.collective_permute_implicit_reduce' op cannot be selected on cayman: collective_permute_implicit_reduce: unpinned: collectives lower into the PSEUDO band 0xc1-0xdf (compiler-generated, translated by the runtime): no public byte layout and no per-op pseudo sequence is recovered}}
    "nisa.collective_permute_implicit_reduce"(%s, %s, %s) {replica_group = [array<i64: 0, 1>], op = "add", operandSegmentSizes = array<i32: 1, 1, 1>}
        : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.collective_permute_reduce' op cannot be selected on cayman: collective_permute_reduce: unpinned: collectives lower into the PSEUDO band 0xc1-0xdf (compiler-generated, translated by the runtime): no public byte layout and no per-op pseudo sequence is recovered}}
    "nisa.collective_permute_reduce"(%h, %h2, %h2) {source_target_pairs = [array<i64: 0, 1>], op = "add"}
        : (memref<128x64xbf16, "hbm">, memref<128x64xbf16, "hbm">, memref<128x64xbf16, "hbm">) -> ()
    // expected-error@+1 {{'nisa.rank_id_store' op cannot be selected on cayman: rank_id_store: unpinned: collectives lower into the PSEUDO band 0xc1-0xdf (compiler-generated, translated by the runtime): no public byte layout and no per-op pseudo sequence is recovered}}
    "nisa.rank_id_store"(%rs) : (memref<1x1xi32, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.rank_id' op cannot be selected on cayman: rank_id: unpinned: collectives lower into the PSEUDO band 0xc1-0xdf (compiler-generated, translated by the runtime): no public byte layout and no per-op pseudo sequence is recovered}}
    %rank = "nisa.rank_id"() : () -> !nisa.reg
    // expected-error@+1 {{'nisa.collective_permute_implicit_current_processing_rank_id' op cannot be selected on cayman: collective_permute_implicit_current_processing_rank_id: unpinned: collectives lower into the PSEUDO band 0xc1-0xdf (compiler-generated, translated by the runtime): no public byte layout and no per-op pseudo sequence is recovered}}
    %it_reg = "nisa.collective_permute_implicit_current_processing_rank_id"(%rank) {replica_group = [array<i64: 0, 1>]} : (!nisa.reg) -> !nisa.reg
    return
  }
}

// -----


// send_recv over gpsimd_dma (0xbf) is pinned, but SB2SB_COLLECTIVE carries no ranks ...
module attributes {sundial.target = "cayman"} {
  func.func @k21(%d: memref<128x64xbf16, "sbuf">, %s: memref<128x64xbf16, "sbuf">) {
    // expected-error@+1 {{'nisa.send_recv' op is pinned on cayman (bir.sb2sb_collective [0xbf]) but cannot be built: SB2SB_COLLECTIVE 0xbf has no field for send_to_rank / recv_from_rank, and its lnc_size_fmt byte has no known codes}}
    "nisa.send_recv"(%d, %s) {send_to_rank = 1, recv_from_rank = 1, dma_engine = "gpsimd_dma"}
        : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
    return
  }
}

// -----


// ... and over the shared DMA it lowers into the PSEUDO band.
module attributes {sundial.target = "cayman"} {
  func.func @k22(%d: memref<128x64xbf16, "sbuf">, %s: memref<128x64xbf16, "sbuf">) {
    // expected-error@+1 {{'nisa.send_recv' op cannot be selected on cayman: send_recv: unpinned: send_recv over the shared DMA (dma_engine = dma) lowers into the PSEUDO band, which has no public byte layout}}
    "nisa.send_recv"(%d, %s) {send_to_rank = 1, recv_from_rank = 1}
        : (memref<128x64xbf16, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
    return
  }
}

// -----


// dma_gather_transpose (0xf1) is pinned, but how an indirect pattern maps onto its descriptor
// is not stated. (dma_copy_indirect is selected: dma-indirect.mlir.)
module attributes {sundial.target = "cayman"} {
  func.func @k23(%t: memref<1024x64xf16, "hbm">, %gi: memref<32x1xui32, "sbuf">, %gd: memref<64x32xf16, "sbuf">) {
    %gt = "nisa.ap"(%t, %gi) {pattern = array<i64: 64, 32, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<1024x64xf16, "hbm">, memref<32x1xui32, "sbuf">) -> memref<32x64xf16, "hbm">
    // expected-error@+1 {{'nisa.dma_gather_transpose' op is pinned on cayman (bir.dma_transpose [0xf1]) but cannot be built: how the indirect source and the transpose axes map onto DMA_GATHER_XPOSE's two-dimensional patterns and gather_dim is not stated by any source}}
    "nisa.dma_gather_transpose"(%gd, %gt) {axes = array<i64: 1, 0>} : (memref<64x32xf16, "sbuf">, memref<32x64xf16, "hbm">) -> ()
    return
  }
}

// -----


// dma_transpose: 0xbd has no field table.
module attributes {sundial.target = "cayman"} {
  func.func @k24(%d: memref<64x128xbf16, "sbuf">, %s: memref<128x64xbf16, "hbm">) {
    // expected-error@+1 {{'nisa.dma_transpose' op cannot be selected on cayman: dma_transpose: unpinned: no field table for opcode 0xbd: no source gives its byte layout}}
    "nisa.dma_transpose"(%d, %s) {axes = array<i64: 1, 0>} : (memref<64x128xbf16, "sbuf">, memref<128x64xbf16, "hbm">) -> ()
    return
  }
}

// -----


// Registers: REG_LOAD 0x4a has no field table, and no source gives the register store's opcode.
module attributes {sundial.target = "cayman"} {
  func.func @k25(%a: memref<1x1xi64, "sbuf">, %b: memref<1x1xi32, "sbuf">) {
    // expected-error@+1 {{'nisa.load_register' op cannot be selected on cayman: load_register: unpinned: no field table for opcode 0x4a: no source gives its byte layout}}
    %r = "nisa.load_register"(%a) {engine = "sync"} : (memref<1x1xi64, "sbuf">) -> !nisa.reg
    // expected-error@+1 {{'nisa.store_register' op cannot be selected on cayman: store_register: unpinned: no source gives the register-store opcode (isa-table: "register store")}}
    "nisa.store_register"(%b, %r) {engine = "tensor"} : (memref<1x1xi32, "sbuf">, !nisa.reg) -> ()
    return
  }
}

// -----


// device_print is host side: no device instruction.
module attributes {sundial.target = "cayman"} {
  func.func @k26(%p: memref<128x512xf32, "psum">) {
    // expected-error@+1 {{'nisa.device_print' op cannot be selected on cayman: device_print: unpinned: device_print is host side (nl.device_print): no device instruction}}
    "nisa.device_print"(%p) {prefix = "acc: "} : (memref<128x512xf32, "psum">) -> ()
    return
  }
}

// -----


// The irbuilder's random ops: 0xe2, 0x4d, 0x77, 0x78 have no field tables, and the seed-setter has no opcode.
// (rand2 exists on NeuronCore v4 only.)
module attributes {sundial.target = "mariana"} {
  func.func @k27_rand2(%f: memref<128x64xf32, "sbuf">) {
    // expected-error@+1 {{'nisa.rand2' op cannot be selected on mariana: rand2: unpinned: no field table for opcode 0xe2: no source gives its byte layout}}
    "nisa.rand2"(%f) : (memref<128x64xf32, "sbuf">) -> ()
    return
  }
}

// -----

module attributes {sundial.target = "cayman"} {
  func.func @k27(%u: memref<128x64xui32, "sbuf">, %st: memref<128x6xui32, "sbuf">, %seed: memref<1x1xui32, "sbuf">) {
    // expected-error@+1 {{'nisa.rng' op cannot be selected on cayman: rng: unpinned: no field table for opcode 0x4d: no source gives its byte layout}}
    "nisa.rng"(%u) : (memref<128x64xui32, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.rand_get_state' op cannot be selected on cayman: rand_get_state: unpinned: no field table for opcode 0x77: no source gives its byte layout}}
    "nisa.rand_get_state"(%st) : (memref<128x6xui32, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.rand_set_state' op cannot be selected on cayman: rand_set_state: unpinned: no field table for opcode 0x78: no source gives its byte layout}}
    "nisa.rand_set_state"(%st) : (memref<128x6xui32, "sbuf">) -> ()
    // expected-error@+1 {{'nisa.set_rng_seed' op cannot be selected on cayman: set_rng_seed: unpinned: PseudoSetRngSeed (s_rng_opcode): the seed names the pseudo-instruction but gives no opcode}}
    "nisa.set_rng_seed"(%seed) : (memref<1x1xui32, "sbuf">) -> ()
    return
  }
}

// -----


// dma_compute (a DGE sum) is pinned as DMA_DIRECT2D with compute_op, but which source is the
// destination operand is not stated.
module attributes {sundial.target = "cayman"} {
  func.func @k28(%d: memref<128x64xf32, "hbm">, %a: memref<128x64xf32, "hbm">) {
    // expected-error@+1 {{'nisa.dma_compute' op is pinned on cayman (bir.dma_copy [0xb8]) but cannot be built: which source of the DGE sum is DMA_DIRECT2D's src and which its destination operand (compute_op reads the destination) is not stated by any source}}
    "nisa.dma_compute"(%d, %a, %a) : (memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">, memref<128x64xf32, "hbm">) -> ()
    return
  }
}

// -----


// The generic loads and stores never reach selection: middle-end passes lower them.
module attributes {sundial.target = "cayman"} {
  func.func @k29(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "hbm">) {
    // expected-error@+1 {{'nisa.generic_load' op cannot be selected on cayman: generic_load: never reaches selection: sundial-generic-load-to-gather lowers it first}}
    "nisa.generic_load"(%d, %s) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    return
  }
}
