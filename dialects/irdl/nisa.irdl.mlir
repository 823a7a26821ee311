// The nisa dialect in IRDL. GENERATED from the op table in dialects/src/nisa.rs: do not edit by hand;
// run `SUNDIAL_BLESS=1 cargo test --test mlir irdl` after changing the table.
irdl.dialect @nisa {
  irdl.type @reg {
    irdl.parameters()
  }
  irdl.operation @alloc {
    %r0 = irdl.base "!builtin.memref"
    irdl.results(result: %r0)
  }
  irdl.operation @ap {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2m = irdl.base "!builtin.memref"
    %o2r = irdl.base @nisa::@reg
    %o2 = irdl.any_of(%o2m, %o2r)
    irdl.operands(tensor: %o0, vector_offset: optional %o1, scalar_offset: optional %o2)
    %r0 = irdl.base "!builtin.memref"
    irdl.results(result: %r0)
    %a0 = irdl.base "#builtin.dense_array"
    irdl.attributes {"pattern" = %a0}
  }
  irdl.operation @reshape {
    %o0 = irdl.base "!builtin.memref"
    irdl.operands(tensor: %o0)
    %r0 = irdl.base "!builtin.memref"
    irdl.results(result: %r0)
  }
  irdl.operation @slice {
    %o0 = irdl.base "!builtin.memref"
    irdl.operands(tensor: %o0)
    %r0 = irdl.base "!builtin.memref"
    irdl.results(result: %r0)
    %a0 = irdl.base "#builtin.dense_array"
    irdl.attributes {"start" = %a0}
  }
  irdl.operation @permute {
    %o0 = irdl.base "!builtin.memref"
    irdl.operands(tensor: %o0)
    %r0 = irdl.base "!builtin.memref"
    irdl.results(result: %r0)
    %a0 = irdl.base "#builtin.dense_array"
    irdl.attributes {"dims" = %a0}
  }
  irdl.operation @broadcast {
    %o0 = irdl.base "!builtin.memref"
    irdl.operands(tensor: %o0)
    %r0 = irdl.base "!builtin.memref"
    irdl.results(result: %r0)
  }
  irdl.operation @iota {
    %o0 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0)
    %a0 = irdl.base "#builtin.dense_array"
    irdl.attributes {"pattern" = %a0}
  }
  irdl.operation @tensor_scalar_affine_select {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, on_true: %o1)
    %a0 = irdl.base "#builtin.dense_array"
    %a2 = irdl.base "#builtin.float"
    irdl.attributes {"pattern" = %a0, "on_false_value" = %a2}
  }
  irdl.operation @cross_lane_reduce_arith {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1)
    %a0 = irdl.base "#builtin.string"
    irdl.attributes {"op" = %a0}
  }
  irdl.operation @cross_lane_reduce_bitvec {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1)
    %a0 = irdl.base "#builtin.string"
    irdl.attributes {"op" = %a0}
  }
  irdl.operation @gather {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, data: %o1, indices: %o2)
  }
  irdl.operation @indirect_copy {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src_buffer: %o1, index: %o2)
  }
  irdl.operation @nonzero_with_count {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1)
  }
  irdl.operation @quantize_mx {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, dst_scale: %o1, src: %o2)
  }
  irdl.operation @sequence_bounds {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, segment_ids: %o1)
  }
  irdl.operation @tensor_tensor_arith {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, lhs: %o1, rhs: %o2)
    %a0 = irdl.base "#builtin.string"
    irdl.attributes {"op" = %a0}
  }
  irdl.operation @tensor_tensor_power {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, lhs: %o1, rhs: %o2)
  }
  irdl.operation @tensor_scalar_arith {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    %o3 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, data: %o1, operand0: optional %o2, operand1: optional %o3)
    %a0 = irdl.base "#builtin.string"
    irdl.attributes {"op0" = %a0}
  }
  irdl.operation @tensor_scalar_addr {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, data: %o1)
    %a0 = irdl.base "#builtin.string"
    %a1 = irdl.base "#builtin.integer"
    irdl.attributes {"op0" = %a0, "imm0" = %a1}
  }
  irdl.operation @tensor_scalar_cache_reduce {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    %o3 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, data: %o1, operand0: optional %o2, reduce_res: optional %o3)
    %a0 = irdl.base "#builtin.string"
    %a3 = irdl.base "#builtin.string"
    irdl.attributes {"op0" = %a0, "reduce_op" = %a3}
  }
  irdl.operation @tensor_scalar_cache_cumulative {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1)
    %a0 = irdl.base "#builtin.string"
    %a1 = irdl.base "#builtin.string"
    %a2i = irdl.base "#builtin.integer"
    %a2f = irdl.base "#builtin.float"
    %a2 = irdl.any_of(%a2i, %a2f)
    irdl.attributes {"op0" = %a0, "op1" = %a1, "imm0" = %a2}
  }
  irdl.operation @tensor_tensor_scan {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    %o3 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, data0: %o1, data1: %o2, initial: optional %o3)
    %a0 = irdl.base "#builtin.string"
    %a1 = irdl.base "#builtin.string"
    irdl.attributes {"op0" = %a0, "op1" = %a1}
  }
  irdl.operation @scalar_tensor_tensor_arith {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    %o3 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, data: %o1, operand0: optional %o2, operand1: %o3)
    %a0 = irdl.base "#builtin.string"
    %a1 = irdl.base "#builtin.string"
    irdl.attributes {"op0" = %a0, "op1" = %a1}
  }
  irdl.operation @scalar_tensor_tensor_bitvec {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    %o3 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, data: %o1, operand0: optional %o2, operand1: %o3)
    %a0 = irdl.base "#builtin.string"
    %a1 = irdl.base "#builtin.string"
    irdl.attributes {"op0" = %a0, "op1" = %a1}
  }
  irdl.operation @select_reduce {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    %o3 = irdl.base "!builtin.memref"
    %o4 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, predicate: %o1, on_true: %o2, on_false: optional %o3, reduce_res: optional %o4)
  }
  irdl.operation @copy_predicated {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1, predicate: %o2)
  }
  irdl.operation @memset {
    %o0 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0)
    %a0i = irdl.base "#builtin.integer"
    %a0f = irdl.base "#builtin.float"
    %a0 = irdl.any_of(%a0i, %a0f)
    irdl.attributes {"value" = %a0}
  }
  irdl.operation @tensor_copy {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1)
  }
  irdl.operation @reciprocal {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, data: %o1)
  }
  irdl.operation @tensor_tensor_bitvec {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, lhs: %o1, rhs: %o2)
    %a0 = irdl.base "#builtin.string"
    irdl.attributes {"op" = %a0}
  }
  irdl.operation @tensor_scalar_bitvec {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, data: %o1)
    %a0 = irdl.base "#builtin.string"
    %a1 = irdl.base "#builtin.integer"
    irdl.attributes {"op0" = %a0, "imm0" = %a1}
  }
  irdl.operation @tensor_reduce_arith {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, data: %o1)
    %a0 = irdl.base "#builtin.string"
    %a1 = irdl.base "#builtin.dense_array"
    irdl.attributes {"op" = %a0, "axis" = %a1}
  }
  irdl.operation @tensor_reduce_bitvec {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, data: %o1)
    %a0 = irdl.base "#builtin.string"
    %a1 = irdl.base "#builtin.dense_array"
    irdl.attributes {"op" = %a0, "axis" = %a1}
  }
  irdl.operation @dve_read_accumulator {
    %o0 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0)
  }
  irdl.operation @max8 {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1)
  }
  irdl.operation @find_index8 {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, data: %o1, vals: %o2)
  }
  irdl.operation @max_index_and_match_replace {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    %o3 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, data: %o1, vals: %o2, dst_idx: optional %o3)
    %a0 = irdl.base "#builtin.float"
    irdl.attributes {"imm_value" = %a0}
  }
  irdl.operation @range_select {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    %o3 = irdl.base "!builtin.memref"
    %o4 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, on_true: %o1, bound0: %o2, bound1: %o3, reduce_res: optional %o4)
    %a0 = irdl.base "#builtin.string"
    %a1 = irdl.base "#builtin.string"
    irdl.attributes {"comp_op0" = %a0, "comp_op1" = %a1}
  }
  irdl.operation @dropout {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, data: %o1, prob_tile: optional %o2)
  }
  irdl.operation @bn_stats {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, data: %o1)
  }
  irdl.operation @bn_aggr {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, data: %o1)
  }
  irdl.operation @stream_shuffle {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1)
    %a0 = irdl.base "#builtin.dense_array"
    irdl.attributes {"shuffle_mask" = %a0}
  }
  irdl.operation @stream_transpose {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1)
  }
  irdl.operation @exponential {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1, reduce_res: optional %o2)
  }
  irdl.operation @activation {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    %o3 = irdl.base "!builtin.memref"
    %o4 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, data: %o1, bias: optional %o2, scale: optional %o3, reduce_res: optional %o4)
    %a0 = irdl.base "#builtin.string"
    irdl.attributes {"op" = %a0}
  }
  irdl.operation @activation_read_accumulator {
    %o0 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0)
  }
  irdl.operation @matmul {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, stationary: %o1, moving: %o2)
  }
  irdl.operation @matmul_mx {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    %o3 = irdl.base "!builtin.memref"
    %o4 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, stationary: %o1, moving: %o2, stationary_scale: %o3, moving_scale: %o4)
  }
  irdl.operation @all_reduce {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dsts: variadic %o0, srcs: variadic %o1)
    %a0 = irdl.base "#builtin.array"
    %a1 = irdl.base "#builtin.string"
    irdl.attributes {"replica_group" = %a0, "op" = %a1}
  }
  irdl.operation @all_gather {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dsts: variadic %o0, srcs: variadic %o1)
    %a0 = irdl.base "#builtin.array"
    irdl.attributes {"replica_group" = %a0}
  }
  irdl.operation @reduce_scatter {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dsts: variadic %o0, srcs: variadic %o1)
    %a0 = irdl.base "#builtin.array"
    %a2 = irdl.base "#builtin.string"
    irdl.attributes {"replica_group" = %a0, "op" = %a2}
  }
  irdl.operation @all_to_all {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dsts: variadic %o0, srcs: variadic %o1)
    %a0 = irdl.base "#builtin.array"
    irdl.attributes {"replica_group" = %a0}
  }
  irdl.operation @all_to_all_v {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1, metadata: %o2)
    %a0 = irdl.base "#builtin.array"
    irdl.attributes {"replica_group" = %a0}
  }
  irdl.operation @collective_permute {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1)
    %a0 = irdl.base "#builtin.array"
    irdl.attributes {"source_target_pairs" = %a0}
  }
  irdl.operation @collective_permute_implicit {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dsts: variadic %o0, srcs: variadic %o1)
    %a0 = irdl.base "#builtin.array"
    irdl.attributes {"replica_group" = %a0}
  }
  irdl.operation @collective_permute_implicit_reduce {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    irdl.operands(dsts: variadic %o0, srcs0: variadic %o1, srcs1: variadic %o2)
    %a0 = irdl.base "#builtin.array"
    %a1 = irdl.base "#builtin.string"
    irdl.attributes {"replica_group" = %a0, "op" = %a1}
  }
  irdl.operation @collective_permute_implicit_current_processing_rank_id {
    %o0 = irdl.base @nisa::@reg
    irdl.operands(iteration_id: %o0)
    %r0 = irdl.base @nisa::@reg
    irdl.results(result: %r0)
    %a0 = irdl.base "#builtin.array"
    irdl.attributes {"replica_group" = %a0}
  }
  irdl.operation @rank_id {
    %r0 = irdl.base @nisa::@reg
    irdl.results(result: %r0)
  }
  irdl.operation @collective_permute_reduce {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src0: %o1, src1: %o2)
    %a0 = irdl.base "#builtin.array"
    %a1 = irdl.base "#builtin.string"
    irdl.attributes {"source_target_pairs" = %a0, "op" = %a1}
  }
  irdl.operation @rank_id_store {
    %o0 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0)
  }
  irdl.operation @send_recv {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1)
    %a0 = irdl.base "#builtin.integer"
    %a1 = irdl.base "#builtin.integer"
    irdl.attributes {"send_to_rank" = %a0, "recv_from_rank" = %a1}
  }
  irdl.operation @dma_copy {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1)
  }
  irdl.operation @dma_copy_indirect {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1)
  }
  irdl.operation @dma_transpose {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1)
    %a0 = irdl.base "#builtin.dense_array"
    irdl.attributes {"axes" = %a0}
  }
  irdl.operation @dma_gather_transpose {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1)
    %a0 = irdl.base "#builtin.dense_array"
    irdl.attributes {"axes" = %a0}
  }
  irdl.operation @load_register {
    %o0 = irdl.base "!builtin.memref"
    irdl.operands(src: %o0)
    %r0 = irdl.base @nisa::@reg
    irdl.results(result: %r0)
  }
  irdl.operation @store_register {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base @nisa::@reg
    irdl.operands(dst: %o0, src: %o1)
  }
  irdl.operation @device_print {
    %o0 = irdl.base "!builtin.memref"
    irdl.operands(src: %o0)
    %a0 = irdl.base "#builtin.string"
    irdl.attributes {"prefix" = %a0}
  }
  irdl.operation @rand2 {
    %o0 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0)
  }
  irdl.operation @rng {
    %o0 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0)
  }
  irdl.operation @rand_get_state {
    %o0 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0)
  }
  irdl.operation @rand_set_state {
    %o0 = irdl.base "!builtin.memref"
    irdl.operands(src: %o0)
  }
  irdl.operation @set_rng_seed {
    %o0 = irdl.base "!builtin.memref"
    irdl.operands(seed: %o0)
  }
  irdl.operation @dma_compute {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src0: %o1, srcs: variadic %o2)
  }
  irdl.operation @nc_transpose {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, data: %o1)
  }
  irdl.operation @core_barrier {
    %o0 = irdl.base "!builtin.memref"
    irdl.operands(data: %o0)
    %a0 = irdl.base "#builtin.dense_array"
    irdl.attributes {"cores" = %a0}
  }
  irdl.operation @generic_load {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1)
  }
  irdl.operation @generic_indirect_load {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1, indices: %o2)
  }
  irdl.operation @generic_indirect_save {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    %o2 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1, indices: %o2)
  }
  irdl.operation @dynamic_ap {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.is index
    %o2 = irdl.base "!builtin.memref"
    %o3m = irdl.base "!builtin.memref"
    %o3r = irdl.base @nisa::@reg
    %o3 = irdl.any_of(%o3m, %o3r)
    irdl.operands(tensor: %o0, dynamic_offset: %o1, vector_offset: optional %o2, scalar_offset: optional %o3)
    %r0 = irdl.base "!builtin.memref"
    irdl.results(result: %r0)
    %a0 = irdl.base "#builtin.dense_array"
    irdl.attributes {"pattern" = %a0}
  }
  irdl.operation @register_alloc {
    %r0 = irdl.base @nisa::@reg
    irdl.results(result: %r0)
  }
  irdl.operation @register_move {
    %o0 = irdl.base @nisa::@reg
    %o1 = irdl.base @nisa::@reg
    irdl.operands(dst: %o0, src: optional %o1)
  }
  irdl.operation @register_index {
    %o0 = irdl.base @nisa::@reg
    irdl.operands(src: %o0)
    %r0 = irdl.is index
    irdl.results(result: %r0)
  }
  irdl.operation @program_id {
    %r0 = irdl.is index
    irdl.results(result: %r0)
  }
  irdl.operation @num_programs {
    %r0 = irdl.is index
    irdl.results(result: %r0)
  }
  irdl.operation @tensor_partition_reduce {
    %o0 = irdl.base "!builtin.memref"
    %o1 = irdl.base "!builtin.memref"
    irdl.operands(dst: %o0, src: %o1)
    %a0 = irdl.base "#builtin.string"
    irdl.attributes {"op" = %a0}
  }
}
