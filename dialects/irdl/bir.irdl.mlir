// The bir dialect in IRDL. GENERATED from the op table in dialects/src/bir.rs: do not edit by hand;
// run `SUNDIAL_BLESS=1 cargo test --test mlir irdl` after changing the table.
irdl.dialect @bir {
  irdl.type @reg {
    irdl.parameters()
  }
  irdl.operation @gather {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "data" = %a3, "index" = %a4}
  }
  irdl.operation @indirect_copy {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3}
  }
  irdl.operation @generic_indirect_load {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3}
  }
  irdl.operation @generic_indirect_save {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3}
  }
  irdl.operation @indirect_save_accumulate {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3}
  }
  irdl.operation @stream_shuffle {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.dense_array"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3, "shuffle_mask" = %a4}
  }
  irdl.operation @stream_transpose {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3}
  }
  irdl.operation @dropout {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.integer"
    %a5 = irdl.base "#builtin.string"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3, "threshold_imm_ptr" = %a4, "threshold_dtype" = %a5}
  }
  irdl.operation @range_select {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.string"
    %a5 = irdl.base "#builtin.string"
    %a10 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3, "comp_op0" = %a4, "comp_op1" = %a5, "reduce_res" = %a10}
  }
  irdl.operation @quantize_mx {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "dst_scale" = %a3, "src" = %a4}
  }
  irdl.operation @matmult_mx {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.dictionary"
    %a5 = irdl.base "#builtin.dictionary"
    %a6 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "stationary" = %a3, "stationary_scale" = %a4, "moving" = %a5, "moving_scale" = %a6}
  }
  irdl.operation @matmult {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "stationary" = %a3, "moving" = %a4}
  }
  irdl.operation @tensor_tensor {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.dictionary"
    %a5 = irdl.base "#builtin.string"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src0" = %a3, "src1" = %a4, "op" = %a5}
  }
  irdl.operation @tensor_scalar {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.string"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3, "op0" = %a4}
  }
  irdl.operation @tensor_scalar_cache {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.string"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3, "op0" = %a4}
  }
  irdl.operation @tensor_tensor_scan {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.dictionary"
    %a5 = irdl.base "#builtin.string"
    %a6 = irdl.base "#builtin.string"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src0" = %a3, "src1" = %a4, "op0" = %a5, "op1" = %a6}
  }
  irdl.operation @scalar_tensor_tensor {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.dictionary"
    %a5 = irdl.base "#builtin.string"
    %a6 = irdl.base "#builtin.string"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src0" = %a3, "src1" = %a4, "op0" = %a5, "op1" = %a6}
  }
  irdl.operation @tensor_reduce {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.string"
    %a5 = irdl.base "#builtin.integer"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3, "op" = %a4, "num_reduce_dims" = %a5}
  }
  irdl.operation @cross_lane_reduce {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.string"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3, "op" = %a4}
  }
  irdl.operation @activation {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.string"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3, "func" = %a4}
  }
  irdl.operation @read_accumulator {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2}
  }
  irdl.operation @iota {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dense_array"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "pattern" = %a3}
  }
  irdl.operation @select {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3, "predicate" = %a4}
  }
  irdl.operation @select_reduce {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "predicate" = %a3, "on_true" = %a4}
  }
  irdl.operation @copy_predicated {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3, "predicate" = %a4}
  }
  irdl.operation @tensor_scalar_affine_select {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.dense_array"
    %a7 = irdl.base "#builtin.string"
    %a8 = irdl.base "#builtin.float"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3, "pattern" = %a4, "cmp_op" = %a7, "fill_value" = %a8}
  }
  irdl.operation @nonzero_with_count {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3}
  }
  irdl.operation @get_sequence_bounds {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3}
  }
  irdl.operation @memset {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3i = irdl.base "#builtin.integer"
    %a3f = irdl.base "#builtin.float"
    %a3 = irdl.any_of(%a3i, %a3f)
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "value" = %a3}
  }
  irdl.operation @tensor_copy {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3}
  }
  irdl.operation @reciprocal {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3}
  }
  irdl.operation @exponential {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3}
  }
  irdl.operation @max8 {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3}
  }
  irdl.operation @find_index8 {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3, "vals" = %a4}
  }
  irdl.operation @match_replace8 {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.dictionary"
    %a5 = irdl.base "#builtin.float"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3, "vals" = %a4, "imm_value" = %a5}
  }
  irdl.operation @bn_stats {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3}
  }
  irdl.operation @bn_aggr {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3}
  }
  irdl.operation @rng {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2}
  }
  irdl.operation @rand_state {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "state" = %a2}
  }
  irdl.operation @dma_copy {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3}
  }
  irdl.operation @dma_indirect {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3}
  }
  irdl.operation @dma_transpose {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.dense_array"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3, "axes" = %a4}
  }
  irdl.operation @register_load {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.integer"
    %a3 = irdl.base "#builtin.dictionary"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "reg" = %a2, "src" = %a3}
  }
  irdl.operation @collective {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.string"
    %a3 = irdl.base "#builtin.array"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "kind" = %a2, "replica_group" = %a3}
  }
  irdl.operation @sb2sb_collective {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.dictionary"
    %a3 = irdl.base "#builtin.dictionary"
    %a4 = irdl.base "#builtin.integer"
    %a5 = irdl.base "#builtin.integer"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "dst" = %a2, "src" = %a3, "send_to_rank" = %a4, "recv_from_rank" = %a5}
  }
  irdl.operation @inline_asm_bytes {
    %a0 = irdl.base "#builtin.dense_array"
    %a1 = irdl.base "#builtin.string"
    %a2 = irdl.base "#builtin.string"
    irdl.attributes {"opcodes" = %a0, "engine" = %a1, "bytes" = %a2}
  }
}
