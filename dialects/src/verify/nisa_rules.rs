//! Op rules of the NISA dialect (what the table alone cannot say).
//!
//! Each rule restates a documented NKI constraint (nki-semantics.md, the NKI access-pattern
//! guide, the seeds' engine rules) and is named in its message after `rule:` so that a user
//! can find it here. Table rules have already passed when these run.

use melior::ir::attribute::AttributeLike;

use super::{OpView, defining_op, i64_array_list};
use crate::{
    dtype::Dtype,
    enums::{Engine, Space, Target},
    ffi::op_name,
    tile::{InlineTile, Tile},
};
use melior::ir::{ValueLike, operation::OperationLike};

/// Runs the op rules of `v` (a NISA op).
pub fn check(v: &mut OpView<'_, '_, '_>, target: Option<Target>) {
    super::nki_parity::integer_immediates(v);
    // Every op: GpSimd cannot reach PSUM (it was checked for four ops only, so a PSUM source of
    // cross_lane_reduce_arith, a fixed-GpSimd op, was accepted).
    no_psum_on_gpsimd(v);
    match v.spec.name {
        "alloc" => alloc(v),
        "ap" => ap(v),
        "reshape" | "slice" | "permute" | "broadcast" => super::view_rules::check(v),
        "nc_transpose" => super::nki_parity::nc_transpose(v),
        "core_barrier" => super::nki_parity::core_barrier(v),
        "iota" => pattern_fills(v, "dst"),
        "tensor_scalar_affine_select" => {
            same_shape(v, "on_true", "dst");
            pattern_fills(v, "dst");
        }
        "cross_lane_reduce_arith" | "cross_lane_reduce_bitvec" => partition_reduce(v),
        "gather" => gather(v),
        "indirect_copy" => indirect_copy(v),
        "nonzero_with_count" => nonzero_with_count(v),
        "quantize_mx" => quantize_mx(v),
        "sequence_bounds" => sequence_bounds(v),
        "tensor_tensor_arith" | "tensor_tensor_bitvec" | "tensor_tensor_power" => tensor_tensor(v),
        "tensor_scalar_arith" => tensor_scalar(v, target),
        "tensor_scalar_bitvec" => {
            same_shape(v, "data", "dst");
            op1_pairs(v, "imm1", None);
        }
        "tensor_scalar_addr" => same_shape(v, "data", "dst"),
        "tensor_scalar_cache_reduce" => {
            same_shape(v, "data", "dst");
            imm_or_tile(v, "imm0", "operand0", "data");
            reduce_res(v, "data");
        }
        "tensor_scalar_cache_cumulative" => same_shape(v, "src", "dst"),
        "tensor_tensor_scan" => {
            same_shape(v, "data0", "dst");
            same_shape(v, "data1", "dst");
            imm_or_tile(v, "initial_value", "initial", "data0");
            not_both_psum(v, "data0", "data1", "(rule: tensor_tensor_scan psum)");
        }
        "scalar_tensor_tensor_arith" | "scalar_tensor_tensor_bitvec" => {
            same_shape(v, "data", "dst");
            same_shape(v, "operand1", "dst");
            imm_or_tile(v, "imm0", "operand0", "data");
            not_both_psum(v, "data", "operand1", "(rule: scalar_tensor_tensor psum)");
        }
        "select_reduce" => select_reduce(v),
        "copy_predicated" => {
            same_shape(v, "src", "dst");
            same_shape(v, "predicate", "dst");
            same_dtype(v, "src", "dst");
            not_both_psum(v, "src", "predicate", "(rule: copy_predicated psum)");
        }
        "memset" => memset(v),
        "tensor_copy" => tensor_copy(v, target),
        "reciprocal" => same_shape(v, "data", "dst"),
        "tensor_reduce_arith" | "tensor_reduce_bitvec" => tensor_reduce(v),
        "dve_read_accumulator" | "activation_read_accumulator" => {}
        "max8" => max8(v),
        "find_index8" | "max_index_and_match_replace" => find_index8(v),
        "range_select" => range_select(v),
        "rand2" => rand2(v),
        "rand_get_state" | "rand_set_state" => rand_state(v),
        "set_rng_seed" => set_rng_seed(v),
        "dropout" => dropout(v),
        "bn_stats" => bn_stats(v),
        "bn_aggr" => bn_aggr(v),
        "stream_shuffle" => stream_shuffle(v),
        "stream_transpose" => stream_transpose(v),
        "exponential" => {
            same_shape(v, "src", "dst");
            reduce_res(v, "src");
        }
        "activation" => activation(v),
        "matmul" => matmul(v, target),
        "matmul_mx" => matmul_mx(v),
        "all_reduce" | "all_gather" | "reduce_scatter" | "all_to_all" => collective(v, 1),
        "collective_permute_implicit" | "collective_permute_implicit_reduce" => {
            collective_implicit(v)
        }
        "collective_permute" | "collective_permute_reduce" => pairs(v),
        "all_to_all_v" => all_to_all_v(v),
        "collective_permute_implicit_current_processing_rank_id" => {
            replica_group(v);
            // Absent attributes take their table defaults (channel 0 of 1 channel): comparing
            // only when both were written let `channel_id = 1` alone through.
            let id = v.int_attr("channel_id").unwrap_or(0);
            let n = v.int_attr("num_channels").unwrap_or(1);
            if id >= n {
                v.error(format!("attribute 'channel_id': {id} must be below num_channels {n} (rule: channel range)"));
            }
        }
        "send_recv" => same_shape(v, "src", "dst"),
        "dma_copy" => {
            dma_trigger(v, target);
            dma_copy(v)
        }
        "dma_copy_indirect" => {
            dma_trigger(v, target);
            dma_copy_indirect(v)
        }
        "dma_transpose" => {
            dma_trigger(v, target);
            dma_transpose(v, false)
        }
        "dma_gather_transpose" => dma_transpose(v, true),
        "load_register" => scalar_tile(v, "src"),
        "store_register" | "rank_id_store" => scalar_tile(v, "dst"),
        "dma_compute" => dma_compute(v),
        "generic_load" => same_elements(v, "src", "dst"),
        "generic_indirect_load" => generic_indirect(v, "src", "dst"),
        "generic_indirect_save" => generic_indirect(v, "dst", "src"),
        "dynamic_ap" => super::loop_rules::dynamic_ap(v),
        "register_move" => super::loop_rules::register_move(v),
        "program_id" | "num_programs" => super::loop_rules::program_axes(v),
        "tensor_partition_reduce" => generic_partition_reduce(v),
        _ => {}
    }
}

fn shape_str(shape: &[i64]) -> String {
    shape
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

/// Reports `message(a, b)` when operands `a` and `b` (both tiles) differ in `key`.
fn agree<T: PartialEq>(
    v: &mut OpView<'_, '_, '_>,
    a: &str,
    b: &str,
    key: impl Fn(&InlineTile) -> T,
    message: impl Fn(&InlineTile, &InlineTile) -> String,
) {
    if let (Some(ta), Some(tb)) = (v.tile(a), v.tile(b))
        && key(&ta) != key(&tb)
    {
        v.error(message(&ta, &tb));
    }
}

/// Rule `shapes agree`: operand `a` has the partitions and the elements per partition of
/// operand `b` (NKI's rule: a `64x1x4` tile and a `64x4` tile agree).
fn same_shape(v: &mut OpView<'_, '_, '_>, a: &str, b: &str) {
    agree(
        v,
        a,
        b,
        |t| (t.partitions(), t.free_size()),
        |ta, tb| {
            format!(
                "operand '{a}' has shape {} but '{b}' has shape {} (rule: shapes agree)",
                ta.shape_str(),
                tb.shape_str()
            )
        },
    );
}

/// Rule `element counts agree`.
fn same_elements(v: &mut OpView<'_, '_, '_>, a: &str, b: &str) {
    agree(v, a, b, Tile::num_elements, |ta, tb| {
        format!(
            "operand '{a}' ({}) and '{b}' ({}) must have the same number of elements (rule: element counts agree)",
            ta.shape_str(),
            tb.shape_str()
        )
    });
}

/// Rule `same dtype`.
fn same_dtype(v: &mut OpView<'_, '_, '_>, a: &str, b: &str) {
    agree(
        v,
        a,
        b,
        |t| t.dtype,
        |ta, tb| {
            format!(
                "operand '{a}' ({}) and '{b}' ({}) must have the same dtype (rule: same dtype)",
                ta.dtype.mlir_name(),
                tb.dtype.mlir_name()
            )
        },
    );
}

/// Rule `partitions agree`.
fn same_partitions(v: &mut OpView<'_, '_, '_>, a: &str, b: &str) {
    agree(v, a, b, Tile::partitions, |ta, tb| {
        format!(
            "operand '{a}' has {} partitions but '{b}' has {} (rule: partitions agree)",
            ta.partitions(),
            tb.partitions()
        )
    });
}

/// Rule `per-partition operand`: a `[P, 1]` tile whose P matches `data`.
fn per_partition(v: &mut OpView<'_, '_, '_>, name: &str, data: &str) {
    let (Some(t), Some(d)) = (v.tile(name), v.tile(data)) else {
        return;
    };
    if t.shape.len() != 2 || t.shape[1] != 1 || t.partitions() != d.partitions() {
        v.error(format!(
            "operand '{name}' must be a [{}, 1] per-partition tile, got {} (rule: per-partition operand)",
            d.partitions(),
            t.shape_str()
        ));
    }
}

/// Rule `immediate or tile`: exactly one of attribute `imm` and operand `tile`.
fn imm_or_tile(v: &mut OpView<'_, '_, '_>, imm: &str, tile: &str, data: &str) {
    let has_imm = v.attr(imm).is_some();
    let has_tile = v.value(tile).is_some();
    match (has_imm, has_tile) {
        (true, true) => v.error(format!(
            "give either attribute '{imm}' or operand '{tile}', not both (rule: immediate or tile)"
        )),
        (false, false) => v.error(format!(
            "needs attribute '{imm}' or operand '{tile}' (rule: immediate or tile)"
        )),
        (false, true) => per_partition(v, tile, data),
        (true, false) => {}
    }
}

fn no_psum_on_gpsimd(v: &mut OpView<'_, '_, '_>) {
    if v.engine() != Engine::Gpsimd {
        return;
    }
    for operand in v.spec.operands {
        for t in v.tiles(operand.name) {
            if t.space == Space::Psum {
                v.error(format!(
                    "operand '{}': GpSimd engine cannot access PSUM (rule: gpsimd psum)",
                    operand.name
                ));
                return;
            }
        }
    }
}

fn alloc(v: &mut OpView<'_, '_, '_>) {
    let Some(result) = v.op.result(0).ok() else {
        return;
    };
    if let Err(msg) = Tile::from_type(result.r#type()) {
        v.error(format!("result: {msg}"));
    }
}

/// NKI `.ap()`: pattern pairs, bounds, partition contiguity, indirection.
fn ap(v: &mut OpView<'_, '_, '_>) {
    let offset = v.int_attr("offset").unwrap_or(0);
    ap_at(v, offset, Some(""));
}

/// The `.ap()` rules with the element offset `offset`. `bounds` is `None` to skip the
/// bounds rules (a dynamic offset left to a run-time check), else a text appended to their
/// messages (where in the iteration space the offset is reached).
pub(super) fn ap_at(v: &mut OpView<'_, '_, '_>, offset: i64, bounds: Option<&str>) {
    let Some(src_value) = v.value("tensor") else {
        return;
    };
    let Some(src) = v.tile("tensor") else { return };
    // An access pattern on a view (an `ap` or a `dynamic_ap` included) composes with it
    // (view_rules); one on an indirect access pattern cannot.
    let def = defining_op(src_value);
    let on_view = def.is_some_and(|d| super::view_rules::is_chain_op(&d));
    if on_view && is_indirect_ap(src_value) {
        v.error("operand 'tensor': cannot specify an access pattern on an indirect access pattern, whose addresses depend on the index values (rule: no nested ap)");
        return;
    }
    let Some(pattern) = v.i64_array("pattern") else {
        return;
    };
    if pattern.len() % 2 != 0 {
        v.error(format!(
            "attribute 'pattern': expected [step, num] pairs, got {} values (rule: pattern pairs)",
            pattern.len()
        ));
        return;
    }
    let pairs: Vec<(i64, i64)> = pattern.chunks(2).map(|c| (c[0], c[1])).collect();
    for (i, &(_, num)) in pairs.iter().enumerate() {
        if num < 1 {
            v.error(format!("attribute 'pattern': dimension {i} has num {num}; every num must be at least 1 (rule: pattern pairs)"));
            return;
        }
    }
    let Ok(result) = v.op.result(0) else { return };
    let Ok(res) = Tile::from_type(result.r#type()) else {
        if let Err(msg) = Tile::from_type(result.r#type()) {
            v.error(format!("result: {msg}"));
        }
        return;
    };
    let nums: Vec<i64> = pairs.iter().map(|p| p.1).collect();
    if res.shape != nums {
        v.error(format!(
            "result shape {} must equal the pattern's nums {} (rule: ap shape)",
            res.shape_str(),
            shape_str(&nums)
        ));
    }
    if res.space != src.space {
        v.error(format!(
            "result memory space \"{}\" must be the tensor's (\"{}\") (rule: ap space)",
            res.space, src.space
        ));
    }
    // Sizes in bytes: the pattern counts elements of the result dtype (NKI reinterpret cast).
    // `Tile::from_type` refused tiles whose byte size overflows, so these are always present.
    let elem = res.dtype.byte_size() as i64;
    let Some(src_bytes) = src.byte_size() else {
        return;
    };
    let indirect_dim = v.int_attr("indirect_dim").unwrap_or(0);
    let vector = v.value("vector_offset");
    let scalar = v.value("scalar_offset");
    if vector.is_some() && scalar.is_some() {
        v.error("give at most one of 'vector_offset' and 'scalar_offset' (rule: one indirection)");
    }
    let indirect = vector.is_some() || scalar.is_some();
    if indirect && !super::nki_parity::indirect_dim(v, indirect_dim, pairs.len(), "pattern") {
        return;
    }
    if !indirect && v.attr("indirect_dim").is_some() && indirect_dim != 0 {
        v.error("attribute 'indirect_dim' needs 'vector_offset' or 'scalar_offset' (rule: indirect dim)");
    }
    if vector.is_some() {
        // One index per element of the indirect dimension, in an [n], [n, 1] or [1, n] tile.
        let n = pairs[indirect_dim as usize].1;
        super::nki_parity::vector_offset(v, "vector_offset", indirect_dim, Some(n));
    }
    if scalar.is_some() {
        super::nki_parity::scalar_offset(v);
    }
    if on_view {
        // The view's own layout decides the rest: fold the chain.
        super::view_rules::fold_at(v);
        return;
    }
    if src.space != Space::Hbm {
        // The first pair is the partition dimension: contiguous partitions, whole free rows.
        let Some(free_bytes) = src.free_bytes() else {
            return;
        };
        if free_bytes % elem != 0 {
            v.error(
                "result dtype does not divide a partition row of the tensor (rule: ap reinterpret)",
            );
            return;
        }
        let row = free_bytes / elem;
        let (pstep, pnum) = pairs[0];
        if pstep != row {
            v.error(format!(
                "attribute 'pattern': the partition step must be the tensor's free size ({row} elements), got {pstep}; partitions are accessed contiguously (rule: partition step)"
            ));
            return;
        }
        // pnum needs no check of its own: the result's shape equals the nums (rule `ap shape`),
        // and its partition count is the tiled phase's check (tiles are logical before).
        let start_partition = offset / row;
        if let Some(at) = bounds
            && start_partition
                .checked_add(pnum)
                .is_none_or(|end| end > src.partitions())
        {
            v.error(format!(
                "access covers partitions {start_partition}..{} but the tensor has {}{at} (rule: ap bounds)",
                start_partition.saturating_add(pnum),
                src.partitions()
            ));
            return;
        }
    }
    let Some(at) = bounds else { return };
    // Static bounds: the largest and smallest flat element index of the non-indirect dims.
    // One span (an i64 step times an i64 num) fits in i128; five summed may not (a pattern of
    // huge nums, already reported against the result shape, but still computed here), so the
    // sums saturate: a saturated bound is out of range either way.
    let mut lo = offset as i128;
    let mut hi = offset as i128;
    for (i, &(step, num)) in pairs.iter().enumerate() {
        if indirect && i as i64 == indirect_dim {
            continue;
        }
        let span = step as i128 * (num as i128 - 1);
        if span >= 0 {
            hi = hi.saturating_add(span);
        } else {
            lo = lo.saturating_add(span);
        }
    }
    let limit = (src_bytes / elem) as i128;
    if lo < 0 || hi >= limit {
        v.error(format!(
            "access pattern reaches element {} but the tensor has {limit} elements of {}{at} (rule: ap bounds)",
            if lo < 0 { lo } else { hi },
            res.dtype.mlir_name()
        ));
    }
}

/// iota / affine_select: the generated pattern covers the destination's free elements.
fn pattern_fills(v: &mut OpView<'_, '_, '_>, dst: &str) {
    let Some(pattern) = v.i64_array("pattern") else {
        return;
    };
    if pattern.len() % 2 != 0 {
        v.error(format!(
            "attribute 'pattern': expected [step, num] pairs, got {} values (rule: pattern pairs)",
            pattern.len()
        ));
        return;
    }
    let count = pattern.chunks(2).try_fold(1i64, |acc, c| {
        if c[1] < 1 {
            None
        } else {
            acc.checked_mul(c[1])
        }
    });
    let Some(t) = v.tile(dst) else { return };
    match count {
        None => v.error("attribute 'pattern': every num must be at least 1 (rule: pattern pairs)"),
        Some(n) if Some(n) != t.free_size() => v.error(format!(
            "attribute 'pattern' generates {n} elements per partition but '{dst}' has {} (rule: pattern covers dst)",
            t.free_size().unwrap_or(0)
        )),
        _ => {}
    }
}

fn partition_reduce(v: &mut OpView<'_, '_, '_>) {
    let (Some(d), Some(s)) = (v.tile("dst"), v.tile("src")) else {
        return;
    };
    if d.free_shape() != s.free_shape() {
        v.error(format!(
            "operand 'dst' ({}) must keep the free shape of 'src' ({}) (rule: partition reduce shape)",
            d.shape_str(),
            s.shape_str()
        ));
    }
}

fn gather(v: &mut OpView<'_, '_, '_>) {
    same_shape(v, "indices", "dst");
    same_partitions(v, "data", "dst");
    same_dtype(v, "data", "dst");
}

fn indirect_copy(v: &mut OpView<'_, '_, '_>) {
    same_partitions(v, "src_buffer", "dst");
    same_dtype(v, "src_buffer", "dst");
    let Some(src) = v.tile("src_buffer") else {
        return;
    };
    if src.partitions() % 16 != 0 {
        v.error(format!(
            "operand 'src_buffer' has {} partitions; local_gather works on whole 16-partition GpSimd cores (rule: partitions % 16 == 0)",
            src.partitions()
        ));
    }
    let k = v.int_attr("num_elem_per_idx").unwrap_or(1);
    if ![1, 2, 4, 8, 16, 32].contains(&k) {
        v.error(format!("attribute 'num_elem_per_idx': {k} is not one of 1, 2, 4, 8, 16, 32 (rule: num_elem_per_idx)"));
    }
    let Some(index) = v.tile("index") else { return };
    let per_core = index.free_size().unwrap_or(0).saturating_mul(16);
    if per_core > 4096 {
        v.error(format!("operand 'index' gives {per_core} indices per core; at most 4096 (rule: indices per core)"));
        // The shape rule below multiplies per_core by num_elem_per_idx: with a huge index tile
        // that overflowed (a panic in debug builds). Nothing more is meaningful here anyway.
        return;
    }
    let valid = v.int_attr("num_valid_indices").unwrap_or(per_core);
    if valid > per_core {
        v.error(format!("attribute 'num_valid_indices': {valid} exceeds the {per_core} indices per core (rule: num_valid_indices)"));
        return;
    }
    // A negative count is refused by the attribute's declared range already.
    let Ok(valid) = usize::try_from(valid) else {
        return;
    };
    // NKI's NumPy reference gathers num_valid_indices x num_elem_per_idx elements into each
    // partition of dst; the emulator's shape rule is this one (one definition).
    if let Some(d) = v.tile("dst")
        && let Some(dst_free) = d.free_size()
        && let Some(range) = sundial_emu::ops::indirect_copy::dst_free_range(
            per_core as usize,
            valid,
            k.max(1) as usize,
        )
        && (dst_free < 0 || dst_free % k.max(1) != 0 || !range.contains(&(dst_free as usize)))
    {
        v.error(format!(
            "operand 'dst' has {dst_free} elements per partition; expected a multiple of {k} from {} (num_valid_indices x num_elem_per_idx) to {} (every index slot of a core x num_elem_per_idx) (rule: local_gather shape)",
            range.start(),
            range.end()
        ));
    }
}

fn nonzero_with_count(v: &mut OpView<'_, '_, '_>) {
    let (Some(d), Some(s)) = (v.tile("dst"), v.tile("src")) else {
        return;
    };
    if d.free_size().map(|f| f - 1) != s.free_size() {
        v.error(format!(
            "operand 'dst' needs one more element per partition than 'src' for the count ({} vs {}) (rule: nonzero count slot)",
            d.free_size().unwrap_or(0),
            s.free_size().unwrap_or(0)
        ));
    }
    same_partitions(v, "src", "dst");
}

fn quantize_mx(v: &mut OpView<'_, '_, '_>) {
    let (Some(src), Some(dst), Some(scale)) = (v.tile("src"), v.tile("dst"), v.tile("dst_scale"))
    else {
        return;
    };
    let p = src.partitions();
    let f = src.free_size().unwrap_or(0);
    if p % 32 != 0 {
        v.error(format!("operand 'src' has {p} partitions; quantize_mx needs a multiple of 32 (rule: MX partitions % 32 == 0)"));
    }
    if f % 4 != 0 {
        v.error(format!("operand 'src' has {f} elements per partition; quantize_mx needs a multiple of 4 (rule: MX free % 4 == 0)"));
        return;
    }
    if dst.partitions() != p || dst.free_size() != Some(f / 4) {
        v.error(format!(
            "operand 'dst' must be [{p}, {}] x4 containers for a {} source, got {} (rule: MX x4 packing)",
            f / 4,
            src.shape_str(),
            dst.shape_str()
        ));
    }
    mx_scale_geometry(v, "dst_scale", &scale, p, f / 4);
}

/// MX scale rule: one E8M0 scale per 8 partitions x 4 free elements; logically [P/8, F/4],
/// physically [P, F/4] in the quadrant layout when P > 32.
fn mx_scale_geometry(
    v: &mut OpView<'_, '_, '_>,
    name: &str,
    scale: &InlineTile,
    p: i64,
    containers: i64,
) {
    let want_p = if p <= 32 { p / 8 } else { p };
    if scale.free_size() != Some(containers)
        || (scale.partitions() != want_p && scale.partitions() != p / 8)
    {
        v.error(format!(
            "operand '{name}' must be [{want_p}, {containers}] (one E8M0 scale per 8 partitions x 4 elements; [P/8, F/4], quadrant layout [P, F/4] when P > 32), got {} (rule: MX scale geometry)",
            scale.shape_str()
        ));
    }
}

fn sequence_bounds(v: &mut OpView<'_, '_, '_>) {
    let (Some(d), Some(s)) = (v.tile("dst"), v.tile("segment_ids")) else {
        return;
    };
    if s.partitions() != 1 {
        v.error(format!(
            "operand 'segment_ids' must have 1 partition, got {} (rule: sequence_bounds P == 1)",
            s.partitions()
        ));
    }
    let n = s.free_size().unwrap_or(0);
    if d.shape != [1, 2, n] {
        v.error(format!("operand 'dst' must be 1x2x{n} ([start, end) per element), got {} (rule: sequence_bounds shape)", d.shape_str()));
    }
}

fn tensor_tensor(v: &mut OpView<'_, '_, '_>) {
    same_shape(v, "lhs", "dst");
    same_shape(v, "rhs", "dst");
    not_both_psum(v, "lhs", "rhs", "(rule: tensor_tensor psum)");
}

/// NKI's "cannot both be in PSUM" for the two inputs `a` and `b`; `rule` is the message's
/// `(rule: <op> psum)` tail, written out at each use so that each rule is named in the source.
fn not_both_psum(v: &mut OpView<'_, '_, '_>, a: &str, b: &str, rule: &str) {
    if let (Some(ta), Some(tb)) = (v.tile(a), v.tile(b))
        && ta.space == Space::Psum
        && tb.space == Space::Psum
    {
        v.error(format!(
            "operands '{a}' and '{b}' cannot both be in PSUM {rule}"
        ));
    }
}

/// `op1` present iff its operand is: NKI's op1=None form has neither.
fn op1_pairs(v: &mut OpView<'_, '_, '_>, imm1: &str, operand1: Option<&str>) {
    let has_op1 = v.attr("op1").is_some();
    let has_imm = v.attr(imm1).is_some();
    let has_tile = operand1.is_some_and(|o| v.value(o).is_some());
    if !has_op1 && (has_imm || has_tile) {
        v.error(format!(
            "'{imm1}'{} given without attribute 'op1' (rule: op1 pairs)",
            operand1.map(|o| format!("/'{o}'")).unwrap_or_default()
        ));
    }
    if has_op1 && !has_imm && !has_tile {
        v.error(format!(
            "attribute 'op1' needs '{imm1}'{} (rule: op1 pairs)",
            operand1
                .map(|o| format!(" or operand '{o}'"))
                .unwrap_or_default()
        ));
    }
    if has_imm && has_tile {
        v.error(format!(
            "give either attribute '{imm1}' or its tile operand, not both (rule: immediate or tile)"
        ));
    }
}

fn tensor_scalar(v: &mut OpView<'_, '_, '_>, target: Option<Target>) {
    same_shape(v, "data", "dst");
    imm_or_tile(v, "imm0", "operand0", "data");
    op1_pairs(v, "imm1", Some("operand1"));
    if v.value("operand1").is_some() {
        per_partition(v, "operand1", "data");
    }
    let op0 = v.str_attr("op0").unwrap_or_default();
    let op1 = v.str_attr("op1");
    match v.engine() {
        Engine::Gpsimd if op0 != "rsqrt" || op1.is_some() => {
            v.error(
                "tensor_scalar on GpSimd is only allowed for rsqrt (rule: gpsimd tensor_scalar)",
            );
        }
        Engine::Scalar => {
            let ok = matches!(
                (op0.as_str(), op1.as_deref()),
                ("mult", Some("add")) | ("mult", None) | ("add", None)
            );
            if !ok && target != Some(Target::Mariana) {
                v.error("tensor_scalar on the Scalar engine supports only (mult, add), (mult, -) and (add, -) (rule: scalar tensor_scalar)");
            }
        }
        _ => {}
    }
}

fn reduce_res(v: &mut OpView<'_, '_, '_>, data: &str) {
    if v.value("reduce_res").is_some() {
        per_partition(v, "reduce_res", data);
    }
}

/// NKI select_reduce: `on_false` is an fp32 scalar or a `(on_true.shape[0], 1)` tile (the
/// emulator broadcasts it along the free axis), `on_true` and `predicate` not both in PSUM.
fn select_reduce(v: &mut OpView<'_, '_, '_>) {
    same_shape(v, "on_true", "dst");
    same_shape(v, "predicate", "dst");
    let has_tile = v.value("on_false").is_some();
    let has_imm = v.attr("on_false_value").is_some();
    match (has_tile, has_imm) {
        (true, true) => v.error("give either operand 'on_false' or attribute 'on_false_value', not both (rule: immediate or tile)"),
        (false, false) => v.error("needs operand 'on_false' or attribute 'on_false_value' (rule: immediate or tile)"),
        (true, false) => per_partition(v, "on_false", "on_true"),
        _ => {}
    }
    not_both_psum(v, "on_true", "predicate", "(rule: select_reduce psum)");
    max_reduce(v);
    reduce_res(v, "on_true");
    if let Some(t) = v.tile("on_true")
        && matches!(t.dtype, Dtype::I32 | Dtype::U32)
    {
        v.error("operand 'on_true' cannot be int32/uint32 (rule: select_reduce dtype)");
    }
}

fn memset(v: &mut OpView<'_, '_, '_>) {
    let Some(d) = v.tile("dst") else { return };
    if crate::dtype::DtypeSet::MX_DATA.contains(d.dtype) {
        let zero = v
            .int_attr("value")
            .map(|x| x == 0)
            .or_else(|| v.float_attr("value").map(|x| x == 0.0))
            .unwrap_or(false);
        if !zero {
            v.error("memset of an x4 MX tile only supports value 0 (rule: x4 memset)");
        }
    }
}

fn tensor_copy(v: &mut OpView<'_, '_, '_>, target: Option<Target>) {
    same_elements(v, "src", "dst");
    if v.engine() == Engine::Scalar && target == Some(Target::Sunda) {
        v.error("tensor_copy is not available on the Scalar engine of NeuronCore v2 (rule: scalar tensor_copy)");
    }
}

fn tensor_reduce(v: &mut OpView<'_, '_, '_>) {
    let (Some(d), Some(s)) = (v.tile("dst"), v.tile("data")) else {
        return;
    };
    let Some(mut axes) = v.i64_array("axis") else {
        return;
    };
    let rank = s.shape.len() as i64;
    axes.sort_unstable();
    for w in axes.windows(2) {
        if w[0] == w[1] {
            v.error(format!(
                "attribute 'axis': axis {} is listed twice (rule: reduce axes)",
                w[0]
            ));
            return;
        }
    }
    for &a in &axes {
        if a <= 0 || a >= rank {
            v.error(format!(
                "attribute 'axis': {a} is not a free axis of the {rank}-D 'data' (axis 0 is the partition dimension and is never reduced) (rule: reduce axes)"
            ));
            return;
        }
    }
    // The reduced axes are the trailing contiguous free axes.
    let first = rank - axes.len() as i64;
    if axes.iter().enumerate().any(|(i, &a)| a != first + i as i64) {
        v.error("attribute 'axis': only the trailing contiguous free axes can be reduced (rule: reduce axes)");
        return;
    }
    let kept: Vec<i64> = s.shape[..first as usize].to_vec();
    let keepdims: Vec<i64> = kept
        .iter()
        .copied()
        .chain(std::iter::repeat_n(1, axes.len()))
        .collect();
    if v.bool_attr("keepdims") {
        if d.shape != keepdims {
            v.error(format!(
                "operand 'dst' has shape {} but keepdims = true keeps each reduced axis as size 1: reducing axes {:?} of {} gives {} (rule: reduce keepdims)",
                d.shape_str(),
                axes,
                s.shape_str(),
                shape_str(&keepdims)
            ));
        }
        return;
    }
    let ok = d.shape == kept || d.shape == keepdims || (kept.len() == 1 && d.shape == [kept[0], 1]);
    if !ok {
        v.error(format!(
            "operand 'dst' has shape {} but reducing axes {:?} of {} gives {} (rule: reduce shape)",
            d.shape_str(),
            axes,
            s.shape_str(),
            shape_str(&keepdims)
        ));
    }
}

fn max8(v: &mut OpView<'_, '_, '_>) {
    same_partitions(v, "src", "dst");
    let Some(d) = v.tile("dst") else {
        return;
    };
    if d.free_size() != Some(8) {
        v.error(format!(
            "operand 'dst' must hold 8 values per partition, got {} (rule: max8 dst)",
            d.free_size().unwrap_or(0)
        ));
    } else {
        eight_wide(v, "dst");
    }
    top8_data(v, "src");
}

/// Rule `top-8 data`: the searched tile of the top-8 family has at most 3 dimensions and 8
/// to 16384 elements per partition.
fn top8_data(v: &mut OpView<'_, '_, '_>, name: &str) {
    let Some(s) = v.tile(name) else { return };
    let n = s.free_size().unwrap_or(0);
    if !(8..=16384).contains(&n) {
        let message =
            format!("operand '{name}' must have 8 to 16384 elements per partition, got {n}");
        if v.spec.name == "max8" {
            v.error(format!("{message} (rule: max8 src)"));
        } else {
            v.error(format!("{message} (rule: top-8 data)"));
        }
    } else if s.shape.len() > 3 {
        v.error(format!(
            "operand '{name}' has {} dimensions, at most 3 (rule: top-8 data)",
            s.shape.len()
        ));
    }
}

/// Rule `8 values`: a per-partition result of the top-8 family is a 2-D `[P, 8]` tile.
fn eight_wide(v: &mut OpView<'_, '_, '_>, name: &str) {
    if let Some(t) = v.tile(name)
        && t.shape.len() != 2
    {
        v.error(format!(
            "operand '{name}' must be a [{}, 8] tile, got {} (rule: 8 values)",
            t.partitions(),
            t.shape_str()
        ));
    }
}

fn find_index8(v: &mut OpView<'_, '_, '_>) {
    same_partitions(v, "data", "dst");
    same_partitions(v, "vals", "data");
    top8_data(v, "data");
    if let Some(t) = v.tile("vals") {
        if t.free_size() != Some(8) {
            v.error(format!(
                "operand 'vals' must hold 8 values per partition, got {} (rule: 8 values)",
                t.free_size().unwrap_or(0)
            ));
        } else if t.shape.len() > 3 {
            v.error(format!(
                "operand 'vals' has {} dimensions, at most 3 (rule: 8 values)",
                t.shape.len()
            ));
        }
    }
    let index = if v.spec.name == "find_index8" {
        "dst"
    } else {
        same_shape(v, "data", "dst");
        same_partitions(v, "dst_idx", "data");
        "dst_idx"
    };
    if let Some(t) = v.tile(index) {
        if t.free_size() != Some(8) {
            v.error(format!(
                "operand '{index}' must hold 8 indices per partition, got {} (rule: 8 values)",
                t.free_size().unwrap_or(0)
            ));
        } else {
            eight_wide(v, index);
        }
    }
}

/// NKI rand2: a non-empty range. (Its engine, Vector, and its floor, NeuronCore v4, are the ISA
/// row's, checked with the op table.)
fn rand2(v: &mut OpView<'_, '_, '_>) {
    let min = v.float_attr("min").unwrap_or(0.0);
    let max = v.float_attr("max").unwrap_or(1.0);
    if min.is_nan() || max.is_nan() || min >= max {
        v.error(format!(
            "attributes 'min' ({min}) and 'max' ({max}): min must be less than max (rule: rand2 range)"
        ));
    }
}

/// NKI rand_get_state / rand_set_state: one lane's XORWOW state per partition, 6 words on
/// GpSimd, 24 on Vector. (Their floors, NeuronCore v3 and on Vector v4, are the ISA row's,
/// checked with the op table.)
fn rand_state(v: &mut OpView<'_, '_, '_>) {
    let engine = v.engine();
    let words = if engine == Engine::Vector { 24 } else { 6 };
    let name = if v.spec.name == "rand_get_state" {
        "dst"
    } else {
        "src"
    };
    if let Some(t) = v.tile(name)
        && t.free_size() != Some(words)
    {
        v.error(format!(
            "operand '{name}' must hold the {words} state words of a {} lane per partition, got {} (rule: prng state size)",
            if engine == Engine::Vector { "Vector" } else { "GpSimd" },
            t.free_size().unwrap_or(0)
        ));
    }
}

/// NKI set_rng_seed: the Vector engine's generator (its one engine, the ISA row's), from one
/// 32-bit seed, a `[1, 1]` tile.
fn set_rng_seed(v: &mut OpView<'_, '_, '_>) {
    if let Some(t) = v.tile("seed")
        && t.num_elements() != Some(1)
    {
        v.error(format!(
            "operand 'seed' must be a [1, 1] tile holding one 32-bit seed, got {} (rule: rng seed)",
            t.shape_str()
        ));
    }
}

/// The max-reduce half of select_reduce and range_select: the Vector accumulators start
/// (`reset_reduce`), continue (`reduce`) or are left alone (`idle`, which leaves no result for
/// `reduce_res` to read).
fn max_reduce(v: &mut OpView<'_, '_, '_>) {
    let cmd = v.str_attr("reduce_cmd").unwrap_or_default();
    let cmd = cmd.as_str();
    if !matches!(cmd, "idle" | "reset_reduce" | "reduce") {
        v.error(format!(
            "attribute 'reduce_cmd': {} takes idle, reset_reduce or reduce, not {cmd} (rule: max-reduce command)",
            v.spec.name
        ));
    } else if cmd == "idle" && v.value("reduce_res").is_some() {
        v.error("operand 'reduce_res' needs reduce_cmd reset_reduce or reduce: with idle the accumulators hold no result (rule: max-reduce command)");
    }
}

/// The range start must be an integer whose indices `range_start + i` stay exact in fp32
/// (within 2^24), as the emulator computes them.
fn range_start(v: &mut OpView<'_, '_, '_>) {
    let start = match (v.int_attr("range_start"), v.float_attr("range_start")) {
        (Some(i), _) => i as f64,
        (None, Some(f)) if f.fract() == 0.0 => f,
        (None, Some(f)) => {
            v.error(format!(
                "attribute 'range_start': {f} is not an integer (rule: range_select start)"
            ));
            return;
        }
        (None, None) => 0.0,
    };
    let free = v.tile("on_true").and_then(|t| t.free_size()).unwrap_or(1);
    let last = start + (free.max(1) - 1) as f64;
    let limit = f64::from(1u32 << 24);
    if start.abs() > limit || last.abs() > limit {
        v.error(format!(
            "attribute 'range_start': the indices reach {last}, outside the exact fp32 range of +-2^24 (rule: range_select start)"
        ));
    }
}

fn range_select(v: &mut OpView<'_, '_, '_>) {
    same_shape(v, "on_true", "dst");
    per_partition(v, "bound0", "on_true");
    per_partition(v, "bound1", "on_true");
    max_reduce(v);
    range_start(v);
    reduce_res(v, "on_true");
    if let Some(f) = v.float_attr("on_false_value")
        && (f as f32) != f32::MIN
    {
        v.error("attribute 'on_false_value': fill_val in RangeSelect must be float MAX_NEG (-3.40282347e+38) (rule: range_select fill)");
    }
}

fn dropout(v: &mut OpView<'_, '_, '_>) {
    same_shape(v, "data", "dst");
    imm_or_tile(v, "prob", "prob_tile", "data");
    if let Some(p) = v.float_attr("prob")
        && !(0.0..=1.0).contains(&p)
    {
        v.error(format!(
            "attribute 'prob': {p} is not a probability in [0, 1] (rule: dropout prob)"
        ));
    }
}

fn bn_stats(v: &mut OpView<'_, '_, '_>) {
    same_partitions(v, "data", "dst");
    let (Some(d), Some(s)) = (v.tile("dst"), v.tile("data")) else {
        return;
    };
    if s.free_size().unwrap_or(0) > 512 {
        v.error(format!("operand 'data' has {} elements per partition; bn_stats takes at most 512 (rule: bn_stats F <= 512)", s.free_size().unwrap_or(0)));
    }
    if d.free_size() != Some(6) {
        v.error(format!(
            "operand 'dst' must hold 6 statistics per partition, got {} (rule: bn_stats dst)",
            d.free_size().unwrap_or(0)
        ));
    }
}

fn bn_aggr(v: &mut OpView<'_, '_, '_>) {
    same_partitions(v, "data", "dst");
    let (Some(d), Some(s)) = (v.tile("dst"), v.tile("data")) else {
        return;
    };
    if s.free_size().unwrap_or(0) % 6 != 0 {
        v.error("operand 'data' must hold a multiple of 6 bn_stats values per partition (rule: bn_aggr input)");
    }
    if d.free_size() != Some(2) {
        v.error(format!(
            "operand 'dst' must hold (mean, var) per partition, got {} values (rule: bn_aggr dst)",
            d.free_size().unwrap_or(0)
        ));
    }
}

fn stream_shuffle(v: &mut OpView<'_, '_, '_>) {
    // The table already requires exactly 32 entries (a length check here could never fire).
    let Some(mask) = v.i64_array("shuffle_mask") else {
        return;
    };
    for (i, &m) in mask.iter().enumerate() {
        if !(0..32).contains(&m) && m != 255 {
            v.error(format!("attribute 'shuffle_mask': entry {i} is {m}; entries select a partition 0..31 of the quadrant, or 255 to leave it unchanged (rule: mask entries)"));
            return;
        }
    }
    super::nki_parity::stream_shuffle_shapes(v);
}

fn stream_transpose(v: &mut OpView<'_, '_, '_>) {
    let (Some(d), Some(s)) = (v.tile("dst"), v.tile("src")) else {
        return;
    };
    let sp = s.partitions();
    let sf = s.free_size().unwrap_or(0);
    if sp > 32 || sf > 32 {
        v.error(format!("operand 'src' is {sp}x{sf}; the Vector transpose handles at most 32x32 (rule: vector transpose size)"));
        return;
    }
    if d.partitions() != sf || d.free_size() != Some(sp) {
        v.error(format!("operand 'dst' must be {sf}x{sp} (the transpose of 'src'), got {} (rule: transpose shape)", d.shape_str()));
    }
    same_dtype(v, "src", "dst");
}

fn activation(v: &mut OpView<'_, '_, '_>) {
    same_shape(v, "data", "dst");
    if v.value("bias").is_some() {
        per_partition(v, "bias", "data");
    }
    if v.value("scale").is_some() {
        per_partition(v, "scale", "data");
        if v.attr("scale_value").is_some() {
            v.error("give either operand 'scale' or attribute 'scale_value', not both (rule: immediate or tile)");
        }
    }
    reduce_res(v, "data");
    let reduces = v.str_attr("reduce_cmd").is_some_and(|c| c != "idle");
    if reduces && v.value("reduce_res").is_none() {
        v.error(
            "attribute 'reduce_cmd' needs operand 'reduce_res' (rule: reduce needs accumulator)",
        );
    }
}

fn matmul(v: &mut OpView<'_, '_, '_>, target: Option<Target>) {
    let (Some(st), Some(mv), Some(d)) = (v.tile("stationary"), v.tile("moving"), v.tile("dst"))
    else {
        return;
    };
    let k = st.partitions();
    if mv.partitions() != k {
        v.error(format!(
            "operands 'stationary' and 'moving' must share the contraction dimension (partitions {k} vs {}) (rule: matmul K)",
            mv.partitions()
        ));
        return;
    }
    let m = st.free_size().unwrap_or(0);
    let n = mv.free_size().unwrap_or(0);
    if m > 128 {
        v.error(format!(
            "operand 'stationary' has M = {m}; at most 128 (rule: matmul M <= 128)"
        ));
    }
    let (n_max, which) = match (target, d.dtype) {
        (Some(Target::Mariana), Dtype::Bf16) => (8192, "on mariana with a bf16 result"),
        (Some(Target::Mariana), _) => (4096, "on mariana with an fp32 result"),
        (Some(_), _) => (512, "on NeuronCore v2/v3"),
        // Without a target, the limit every target accepts.
        (None, _) => (512, "without sundial.target (the limit of every target)"),
    };
    if n > n_max {
        v.error(format!(
            "operand 'moving' has N = {n}; at most {n_max} {which} (rule: matmul N)"
        ));
    }
    if d.partitions() != m || d.free_size() != Some(n) {
        v.error(format!(
            "operand 'dst' must be [{m}, {n}] (M x N), got {} (rule: matmul dst shape)",
            d.shape_str()
        ));
    }
    if v.bool_attr("is_transpose") {
        // PE transpose (NKI's nc_transpose on the Tensor engine is this op with an identity
        // moving tensor): dst keeps the data's dtype bit for bit, on every target. The v4-only
        // bf16 result rule below rejected valid bf16 transposes on sunda and cayman.
        let storage = |t: Dtype| if t == Dtype::Tf32 { Dtype::F32 } else { t };
        if d.dtype != storage(st.dtype) {
            v.error(format!(
                "operand 'dst' ({}) must have the dtype of 'stationary' ({}) in transpose mode (rule: matmul transpose dtype)",
                d.dtype.mlir_name(),
                storage(st.dtype).mlir_name()
            ));
        }
    } else if !matches!(d.dtype, Dtype::F32 | Dtype::Bf16) {
        // The table admits fp16/fp8 results for transposes only; a product accumulates in fp32.
        v.error(format!(
            "operand 'dst': a matmul product is fp32 (or bf16 on v4), got {}; only transpose mode keeps a narrower dtype (rule: matmul dst dtype)",
            d.dtype.mlir_name()
        ));
    } else if d.dtype == Dtype::Bf16 && target.is_some_and(|t| t != Target::Mariana) {
        v.error("operand 'dst': a bf16 matmul result needs NeuronCore v4 (mariana) (rule: matmul dst dtype)");
    }
    let fp32ish = |t: Dtype| matches!(t, Dtype::F32 | Dtype::Tf32);
    if fp32ish(st.dtype) != fp32ish(mv.dtype) {
        v.error("an fp32/tf32 operand forces fp32/tf32 on the other operand (rule: matmul fp32 pairing)");
    }
    if (st.dtype == Dtype::F8E4M3Fn) != (mv.dtype == Dtype::F8E4M3Fn)
        && (st.dtype == Dtype::F8E4M3 || mv.dtype == Dtype::F8E4M3)
    {
        v.error("float8_e4m3fn cannot be mixed with float8_e4m3 (rule: matmul fp8 pairing)");
    }
    if v.str_attr("perf_mode").is_some_and(|p| p != "none")
        && !(crate::dtype::DtypeSet::FP8.contains(st.dtype)
            && crate::dtype::DtypeSet::FP8.contains(mv.dtype))
    {
        v.error("attribute 'perf_mode': double_row modes need fp8 operands (rule: double_row fp8)");
    }
}

fn matmul_mx(v: &mut OpView<'_, '_, '_>) {
    let (Some(st), Some(mv), Some(d)) = (v.tile("stationary"), v.tile("moving"), v.tile("dst"))
    else {
        return;
    };
    let k = st.partitions();
    if mv.partitions() != k {
        v.error(format!("operands 'stationary' and 'moving' must share the contraction dimension (partitions {k} vs {}) (rule: matmul K)", mv.partitions()));
        return;
    }
    if k % 32 != 0 {
        v.error(format!(
            "contraction dimension {k} must be a multiple of 32 (rule: MX K % 32 == 0)"
        ));
    }
    let m = st.free_size().unwrap_or(0);
    if m % 2 != 0 || m > 128 {
        v.error(format!(
            "operand 'stationary' free size {m} must be even and at most 128 (rule: MX stationary)"
        ));
    }
    let n = mv.free_size().unwrap_or(0);
    if d.partitions() != m || d.free_size() != Some(n) {
        v.error(format!(
            "operand 'dst' must be [{m}, {n}], got {} (rule: matmul dst shape)",
            d.shape_str()
        ));
    }
    if let Some(s) = v.tile("stationary_scale") {
        mx_scale_geometry(v, "stationary_scale", &s, k, m);
    }
    if let Some(s) = v.tile("moving_scale") {
        mx_scale_geometry(v, "moving_scale", &s, k, n);
    }
}

fn replica_group(v: &mut OpView<'_, '_, '_>) {
    let Some(attr) = v.attr("replica_group") else {
        return;
    };
    let Some(groups) = i64_array_list(attr) else {
        return;
    };
    if groups.is_empty() || groups.iter().any(|g| g.is_empty()) {
        v.error("attribute 'replica_group': needs at least one non-empty rank list (rule: replica group)");
        return;
    }
    let mut seen = std::collections::HashSet::new();
    for g in &groups {
        for &r in g {
            if r < 0 {
                v.error(format!(
                    "attribute 'replica_group': rank {r} is negative (rule: replica group)"
                ));
                return;
            }
            if !seen.insert(r) {
                v.error(format!("attribute 'replica_group': rank {r} appears in more than one place; each rank participates in one rank list (rule: replica group)"));
                return;
            }
        }
    }
}

fn collective_spaces(v: &mut OpView<'_, '_, '_>) -> Vec<InlineTile> {
    let mut all = Vec::new();
    for operand in v.spec.operands {
        all.extend(v.tiles(operand.name));
    }
    if let Some(first) = all.first()
        && all.iter().any(|t| t.space != first.space)
    {
        v.error("all tensors must be on HBM or all on SBUF; mixing memory spaces is not supported (rule: collective spaces)");
    }
    all
}

fn collective(v: &mut OpView<'_, '_, '_>, _min: usize) {
    replica_group(v);
    let d = v.values("dsts").len();
    let s = v.values("srcs").len();
    if d == 0 || d != s {
        v.error(format!("needs one dst per src and at least one of each (got {d} dsts, {s} srcs) (rule: collective operands)"));
        return;
    }
    let all = collective_spaces(v);
    if d > 1 && all.iter().any(|t| t.space != Space::Hbm) {
        v.error("coalesced collectives (several tensors) are only supported on HBM (rule: coalesced on HBM)");
    }
}

fn collective_implicit(v: &mut OpView<'_, '_, '_>) {
    replica_group(v);
    let channels = v.i64_array("channel_ids").unwrap_or_else(|| vec![0]);
    if channels.iter().enumerate().any(|(i, &c)| c != i as i64) {
        v.error("attribute 'channel_ids': channel ids must be consecutive integers starting at 0 (rule: channel ids)");
    }
    let n = channels.len();
    for group in ["dsts", "srcs", "srcs0", "srcs1"] {
        if v.spec.operand_index(group).is_some() && v.values(group).len() != n {
            v.error(format!("operand group '{group}' needs exactly one tensor per channel ({n}), got {} (rule: one tensor per channel)", v.values(group).len()));
        }
    }
    collective_spaces(v);
}

fn pairs(v: &mut OpView<'_, '_, '_>) {
    let Some(attr) = v.attr("source_target_pairs") else {
        return;
    };
    let Some(list) = i64_array_list(attr) else {
        return;
    };
    if list.is_empty() {
        v.error("attribute 'source_target_pairs': needs at least one (source, target) pair (rule: permute pairs)");
    }
    for p in &list {
        if p.len() != 2 || p.iter().any(|r| *r < 0) {
            v.error("attribute 'source_target_pairs': every entry must be a (source, target) pair of rank ids (rule: permute pairs)");
            return;
        }
    }
}

/// NKI all_to_all_v: the uint32 metadata has `rows` = 3 (send counts, send displacements,
/// receive counts; the collective fills the receive counts unless `recv_counts_known`) or 4
/// (with `has_rdispls`, the receive displacements), one column per member of a rank list:
/// `(rows, G)` in HBM, `(1, rows, G)` in SBUF. Every rank list therefore has the same size G.
fn all_to_all_v(v: &mut OpView<'_, '_, '_>) {
    replica_group(v);
    let Some(meta) = v.tile("metadata") else {
        return;
    };
    let rows = 3 + v.bool_attr("has_rdispls") as i64;
    let sizes: Vec<i64> = v
        .attr("replica_group")
        .and_then(i64_array_list)
        .map(|g| g.iter().map(|l| l.len() as i64).collect())
        .unwrap_or_default();
    let Some(&g) = sizes.first() else { return };
    if sizes.iter().any(|&n| n != g) {
        v.error(format!(
            "attribute 'replica_group': rank lists of different sizes ({}) cannot share one metadata tensor (rule: all_to_all_v metadata)",
            sizes.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ")
        ));
        return;
    }
    let (want, space) = match meta.space {
        Space::Sbuf => (vec![1, rows, g], "SBUF"),
        _ => (vec![rows, g], "HBM"),
    };
    if meta.shape != want {
        v.error(format!(
            "operand 'metadata' must be {} in {space} (send counts, send displacements, recv counts{}; one column per rank of a rank list), got {} (rule: all_to_all_v metadata)",
            shape_str(&want),
            if v.bool_attr("has_rdispls") { ", recv displacements" } else { "" },
            meta.shape_str()
        ));
    }
}

fn dma_copy(v: &mut OpView<'_, '_, '_>) {
    same_elements(v, "src", "dst");
    for name in ["src", "dst"] {
        if let Some(value) = v.value(name)
            && is_indirect_ap(value)
        {
            v.error(format!("operand '{name}' is an indirect access pattern: use nisa.dma_copy_indirect (rule: direct dma)"));
        }
    }
}

/// Whether `value` is a `nisa.ap` or `nisa.dynamic_ap` with a vector or scalar offset.
pub fn is_indirect_ap(value: melior::ir::Value<'_, '_>) -> bool {
    defining_op(value).is_some_and(|def| {
        (op_name(def.to_raw()) == "nisa.ap" && def.operand_count() > 1)
            || crate::loops::is_indirect_dynamic_ap(def.to_raw())
    })
}

fn dma_copy_indirect(v: &mut OpView<'_, '_, '_>) {
    same_elements(v, "src", "dst");
    let src = v.value("src").is_some_and(is_indirect_ap);
    let dst = v.value("dst").is_some_and(is_indirect_ap);
    if !src && !dst {
        v.error("needs an indirect access pattern (nisa.ap with vector_offset or scalar_offset) on 'src' (gather) or 'dst' (scatter) (rule: indirect operand)");
    }
}

fn dma_transpose(v: &mut OpView<'_, '_, '_>, gather: bool) {
    same_dtype(v, "src", "dst");
    if !gather {
        super::nki_parity::dma_transpose_dtype(v);
    }
    let Some(axes) = v.i64_array("axes") else {
        return;
    };
    let legal: [&[i64]; 3] = [&[1, 0], &[2, 1, 0], &[3, 1, 2, 0]];
    if !legal.contains(&axes.as_slice()) {
        v.error(format!("attribute 'axes': {axes:?} is not supported (supported: [1, 0], [2, 1, 0], [3, 1, 2, 0]) (rule: dma transpose axes)"));
        return;
    }
    if let (Some(s), Some(d)) = (v.tile("src"), v.tile("dst")) {
        if s.shape.len() != axes.len() {
            v.error(format!(
                "operand 'src' has rank {} but 'axes' has {} entries (rule: dma transpose axes)",
                s.shape.len(),
                axes.len()
            ));
        } else {
            let permuted: Vec<i64> = axes.iter().map(|&a| s.shape[a as usize]).collect();
            if d.shape != permuted {
                v.error(format!("operand 'dst' must have shape {} (src permuted by axes), got {} (rule: transpose shape)", shape_str(&permuted), d.shape_str()));
            }
        }
    }
    let indirect = v.value("src").is_some_and(is_indirect_ap);
    if gather && !indirect {
        v.error("operand 'src' must be an indirect access pattern (nisa.ap with vector_offset) (rule: indirect operand)");
    }
    if !gather && indirect {
        v.error("operand 'src' is an indirect access pattern: use nisa.dma_gather_transpose (rule: direct dma)");
    }
}

fn scalar_tile(v: &mut OpView<'_, '_, '_>, name: &str) {
    if let Some(t) = v.tile(name)
        && t.num_elements() != Some(1)
    {
        v.error(format!(
            "operand '{name}' must be a [1, 1] tile, got {} (rule: scalar tile)",
            t.shape_str()
        ));
    }
}

/// A DMA naming a trigger engine (`sync` or `scalar`, NKI's `engine=`): only with hwdge
/// (`dge_mode` hwdge, or unknown for `sundial-resolve-dge` to make hwdge), which needs
/// cayman or newer [docs].
fn dma_trigger(v: &mut OpView<'_, '_, '_>, target: Option<Target>) {
    let Some(engine) = v.str_attr("engine").filter(|_| v.attr("engine").is_some()) else {
        return;
    };
    if !crate::nisa::HWDGE_TRIGGERS
        .iter()
        .any(|e| e.as_str() == engine)
    {
        return;
    }
    let mode = v.str_attr("dge_mode").unwrap_or_default();
    if mode != "hwdge" && mode != "unknown" {
        v.error(format!(
            "attribute 'engine': \"{engine}\" triggers a hardware-DGE DMA; engine= on a DMA is accepted only with dge_mode \"hwdge\", not \"{mode}\" (rule: dma trigger engine)"
        ));
    } else if target.is_some_and(|t| t < Target::Cayman) {
        v.error(format!(
            "attribute 'engine': \"{engine}\" triggers a hardware-DGE DMA, which needs cayman (NeuronCore v3) or newer (rule: dma trigger engine)"
        ));
    }
}

/// `dma_compute`: 1 to 16 sources of dst's shape, scales 1.0, and the two read-modify-write
/// modes of NKI's `dma_compute` when an operand is an indirect access pattern ([`dma_rmw`]).
fn dma_compute(v: &mut OpView<'_, '_, '_>) {
    dma_rmw(v);
    let srcs: Vec<InlineTile> = crate::nisa::DMA_COMPUTE_SOURCES
        .iter()
        .flat_map(|g| v.tiles(g))
        .collect();
    if srcs.is_empty() || srcs.len() > 16 {
        v.error(format!(
            "needs 1 to 16 source tensors, got {} (rule: dma_compute srcs)",
            srcs.len()
        ));
    }
    if let Some(d) = v.tile("dst") {
        for (i, s) in srcs.iter().enumerate() {
            if s.shape != d.shape {
                v.error(format!(
                    "source #{i} has shape {} but 'dst' has {} (rule: shapes agree)",
                    s.shape_str(),
                    d.shape_str()
                ));
            }
        }
    }
    if let Some(attr) = v.attr("scales")
        && unsafe { mlir_sys::mlirAttributeIsADenseF32Array(attr.to_raw()) }
    {
        let n = unsafe { mlir_sys::mlirDenseArrayGetNumElements(attr.to_raw()) }.max(0) as usize;
        let all_one = (0..n).all(
            |i| unsafe { mlir_sys::mlirDenseF32ArrayGetElement(attr.to_raw(), i as isize) } == 1.0,
        );
        if n != srcs.len() {
            v.error(format!(
                "attribute 'scales' has {n} entries for {} sources (rule: dma_compute scales)",
                srcs.len()
            ));
        } else if !all_one {
            v.error("attribute 'scales': only 1.0 is supported (rule: dma_compute scales)");
        }
    }
}

/// The read-modify-write modes of `dma_compute` (NKI `dma_compute`: "Scatter RMW:
/// dst(HBM)[indices] = dst(HBM)[indices] + src(SB)", "Gather RMW: dst(SB) = dst(SB) +
/// src(HBM)[indices]"), as the emulator runs them: exactly two sources, one of them `dst`
/// itself, `unique_indices = true`; a scatter writes an indirect HBM `dst` from an SBUF
/// source, a gather reads an indirect HBM source into an SBUF `dst`.
fn dma_rmw(v: &mut OpView<'_, '_, '_>) {
    let Some(dst) = v.value("dst") else { return };
    let srcs: Vec<_> = crate::nisa::DMA_COMPUTE_SOURCES
        .iter()
        .flat_map(|g| v.values(g))
        .collect();
    let scatter = is_indirect_ap(dst);
    if !scatter && !srcs.iter().any(|s| is_indirect_ap(*s)) {
        return;
    }
    const RULE: &str = "(rule: dma_compute read-modify-write)";
    if srcs.len() != 2 {
        v.error(format!(
            "an indirect operand makes this a read-modify-write, which takes exactly 2 sources (the destination and the data), got {} {RULE}",
            srcs.len()
        ));
        return;
    }
    let Some(other) = (if srcs[0] == dst {
        Some(srcs[1])
    } else if srcs[1] == dst {
        Some(srcs[0])
    } else {
        None
    }) else {
        v.error(format!(
            "a read-modify-write needs one source to be 'dst' itself {RULE}"
        ));
        return;
    };
    if !v.bool_attr("unique_indices") {
        v.error(format!(
            "a read-modify-write needs unique_indices = true (NKI: non-unique indices are not supported) {RULE}"
        ));
        return;
    }
    let space =
        |value: melior::ir::Value<'_, '_>| Tile::from_type(value.r#type()).ok().map(|t| t.space);
    let (want_dst, want_other, what) = if scatter {
        (
            Space::Hbm,
            Space::Sbuf,
            "a scatter read-modify-write writes an indirect HBM 'dst' from an SBUF source",
        )
    } else {
        (
            Space::Sbuf,
            Space::Hbm,
            "a gather read-modify-write reads an indirect HBM source into an SBUF 'dst'",
        )
    };
    if scatter && is_indirect_ap(other) {
        v.error(format!(
            "both operands of a scatter read-modify-write are indirect {RULE}"
        ));
        return;
    }
    if space(dst) != Some(want_dst) || space(other) != Some(want_other) {
        v.error(format!("{what} {RULE}"));
    }
}

/// GenericIndirectLoad/Save: `gathered` is `table` with dimension `indirect_dim` replaced by
/// the number of indices (a load gathers rows of `src` into `dst`; a save scatters rows of
/// `src` into `dst`).
fn generic_indirect(v: &mut OpView<'_, '_, '_>, table: &str, gathered: &str) {
    let (Some(t), Some(g), Some(idx)) = (v.tile(table), v.tile(gathered), v.tile("indices")) else {
        return;
    };
    let dim = v.int_attr("indirect_dim").unwrap_or(0);
    if !super::nki_parity::indirect_dim(v, dim, t.shape.len(), &format!("'{table}'")) {
        return;
    }
    super::nki_parity::vector_offset(v, "indices", dim, None);
    if v.errors > 0 {
        return;
    }
    let Some(n) = idx.num_elements() else { return };
    let mut want = t.shape;
    want[dim as usize] = n;
    if g.shape != want {
        v.error(format!(
            "operand '{gathered}' must be {} ('{table}' {} with dimension {dim} replaced by the {n} indices), got {} (rule: generic indirect shape)",
            shape_str(&want),
            t.shape_str(),
            g.shape_str()
        ));
    }
    if t.dtype != g.dtype {
        v.error(format!(
            "operands '{table}' ({}) and '{gathered}' ({}) must have the same dtype (rule: same dtype)",
            t.dtype.mlir_name(),
            g.dtype.mlir_name()
        ));
    }
}

/// The generic partition reduction: axis 0 plus trailing contiguous free axes; dst is
/// `[1, kept free dims...]` (`[1, 1]` when every free axis is reduced); bit-vector ops on
/// integers.
fn generic_partition_reduce(v: &mut OpView<'_, '_, '_>) {
    let (Some(d), Some(s)) = (v.tile("dst"), v.tile("src")) else {
        return;
    };
    let mut axes = v.i64_array("axis").unwrap_or_else(|| vec![0]);
    axes.sort_unstable();
    let rank = s.shape.len() as i64;
    let trailing = axes.len() as i64 - 1;
    let ok = axes.first() == Some(&0)
        && axes.windows(2).all(|w| w[0] != w[1])
        && axes[1..]
            .iter()
            .enumerate()
            .all(|(i, &a)| a == rank - trailing + i as i64)
        && axes.iter().all(|&a| a < rank);
    if !ok {
        v.error(format!(
            "attribute 'axis': {axes:?} must be the partition axis 0 plus trailing contiguous free axes of the {rank}-D 'src' (rule: partition reduce axes)"
        ));
        return;
    }
    let kept = &s.shape[1..(rank - trailing) as usize];
    let want: Vec<i64> = if kept.is_empty() {
        vec![1, 1]
    } else {
        std::iter::once(1).chain(kept.iter().copied()).collect()
    };
    if d.shape != want {
        v.error(format!(
            "operand 'dst' must be {} for axes {axes:?} of {}, got {} (rule: partition reduce shape)",
            shape_str(&want),
            s.shape_str(),
            d.shape_str()
        ));
    }
    let bitvec = v.str_attr("op").is_some_and(|o| o.starts_with("bitwise_"));
    if bitvec && !(s.dtype.is_int() && d.dtype.is_int()) {
        v.error("a bit-vector reduction needs integer tiles (rule: bitvec reduce dtype)");
    }
}
