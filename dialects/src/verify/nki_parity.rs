//! Op rules that bring NISA level with NKI's public API: the two public functions without an
//! emit builder (`nc_transpose`, `core_barrier`), and the rules where the first rule set was
//! stricter than NKI (broadcasting `stream_shuffle`, 4-byte DMA transposes, integer
//! immediates) or looser (`keepdims`, the indirection shapes shared with the emulator).
//!
//! Each rule restates the public docstring it comes from (`nki.isa.*`, `nki.lnc.*`); like the
//! other op rules they run after the table rules passed.

use melior::ir::{ValueLike, attribute::AttributeLike};

use super::{OpView, int_value};
use crate::{
    dtype::DtypeSet,
    enums::{Engine, Space},
    tile::InlineTile,
};
use sundial_emu::indirection::{self, IndirectionError};

/// The Vector engine's transpose limit (`nki.isa.nc_transpose`: "[32, 32] or smaller").
pub const VECTOR_TRANSPOSE_MAX: i64 = 32;

/// `nki.isa.nc_transpose`: dst is data with its partition and flattened free axes swapped,
/// dtype kept; the Tensor engine reads SBUF and writes PSUM up to 128 x 128, the Vector engine
/// takes either memory up to 32 x 32, and an unknown engine beyond 32 x 32 can only be the
/// Tensor engine.
pub fn nc_transpose(v: &mut OpView<'_, '_, '_>) {
    let (Some(d), Some(s)) = (v.tile("dst"), v.tile("data")) else {
        return;
    };
    let p = s.partitions();
    let f = s.free_size().unwrap_or(0);
    if d.dtype != s.dtype {
        v.error(format!(
            "operands 'data' ({}) and 'dst' ({}) must have the same dtype (rule: same dtype)",
            s.dtype.mlir_name(),
            d.dtype.mlir_name()
        ));
        return;
    }
    if d.partitions() != f || d.free_size() != Some(p) {
        v.error(format!(
            "operand 'dst' must be {f}x{p} (the transpose of 'data' {}), got {} (rule: transpose shape)",
            s.shape_str(),
            d.shape_str()
        ));
        return;
    }
    let small = p <= VECTOR_TRANSPOSE_MAX && f <= VECTOR_TRANSPOSE_MAX;
    match v.engine() {
        Engine::Vector if !small => v.error(format!(
            "operand 'data' is {p}x{f}; the Vector transpose handles at most {VECTOR_TRANSPOSE_MAX}x{VECTOR_TRANSPOSE_MAX} (use the Tensor engine) (rule: vector transpose size)"
        )),
        Engine::Vector => {}
        // Tensor, or unknown on a tile only the PE array can transpose. Its 128 x 128 limit
        // needs no rule of its own: dst has data's free size as partitions, at most 128.
        e if (e == Engine::Tensor || !small)
            && (s.space != Space::Sbuf || d.space != Space::Psum) =>
        {
            v.error(format!(
                "the Tensor-engine transpose reads 'data' from SBUF and writes 'dst' to PSUM, got {} to {} (rule: pe transpose spaces)",
                s.space, d.space
            ))
        }
        _ => {}
    }
}

/// `nki.isa.core_barrier`: only `cores = (0, 1)`, the two cores sharing an HBM stack.
pub fn core_barrier(v: &mut OpView<'_, '_, '_>) {
    if let Some(cores) = v.i64_array("cores")
        && cores != [0, 1]
    {
        v.error(format!(
            "attribute 'cores': {cores:?} is not supported; the barrier synchronises cores [0, 1] (the two NeuronCores sharing an HBM stack) (rule: core barrier cores)"
        ));
    }
    // NKI: "The data parameter represents the shared data that all cores need to synchronize
    // on. This must be data in shared HBM that multiple cores are accessing." A private
    // tensor (private_hbm, or a kernel's own hbm allocation: NKI's nl.hbm is private_hbm)
    // is seen by one program only. Kernel arguments are the launch's tensors, seen by all.
    if let Some(data) = v.value("data") {
        let origin = crate::loops::hbm_origin(data.to_raw());
        let private =
            origin.buffer == "private_hbm" || (origin.buffer == "hbm" && !origin.argument);
        if private {
            v.error(format!(
                "operand 'data': a {} tensor is private to one program, but the barrier synchronises on data in shared HBM that both cores access: allocate it with sundial.buffer = \"shared_hbm\" or pass it as a kernel argument (rule: core barrier shared hbm)",
                if origin.argument {
                    "private_hbm argument"
                } else if origin.buffer == "private_hbm" {
                    "private_hbm"
                } else {
                    "kernel-allocated hbm (NKI's nl.hbm, private_hbm)"
                }
            ));
        }
    }
}

/// `nki.isa.nc_stream_shuffle` shapes: equal elements per partition, and either equal
/// partition counts or, inside one 32-partition quadrant, a `src` of fewer (or more)
/// partitions that every used mask entry reads from (nki-library's broadcast helper shuffles
/// a `[1, F]` row into 32 partitions with a mask of zeros).
pub fn stream_shuffle_shapes(v: &mut OpView<'_, '_, '_>) {
    let (Some(d), Some(s)) = (v.tile("dst"), v.tile("src")) else {
        return;
    };
    if d.free_size() != s.free_size() {
        v.error(format!(
            "operand 'src' has shape {} but 'dst' has shape {}; a shuffle keeps the elements per partition (rule: shapes agree)",
            s.shape_str(),
            d.shape_str()
        ));
        return;
    }
    let (sp, dp) = (s.partitions(), d.partitions());
    if sp == dp {
        return;
    }
    if sp.max(dp) > VECTOR_TRANSPOSE_MAX {
        v.error(format!(
            "operand 'src' has {sp} partitions and 'dst' {dp}: a shuffle between different partition counts stays inside one 32-partition quadrant (rule: shuffle partitions)"
        ));
        return;
    }
    let Some(mask) = v.i64_array("shuffle_mask") else {
        return;
    };
    for (i, &m) in mask.iter().enumerate().take(dp as usize) {
        if m != 255 && m >= sp {
            v.error(format!(
                "attribute 'shuffle_mask': entry {i} reads partition {m} but 'src' has {sp} (rule: shuffle partitions)"
            ));
            return;
        }
    }
}

/// `nki.isa.dma_transpose`: "If hwdge ... src.dtype is 2 bytes"; the other DGE modes also
/// move 4-byte elements (e.g. int32 token ids).
pub fn dma_transpose_dtype(v: &mut OpView<'_, '_, '_>) {
    let Some(s) = v.tile("src") else { return };
    if s.dtype.byte_size() == 4 && v.str_attr("dge_mode").as_deref() == Some("hwdge") {
        v.error(format!(
            "operand 'src': a 4-byte dtype ({}) cannot be transposed by the hardware DGE, which moves 2-byte elements; use dge_mode unknown, swdge or none (rule: dma transpose dtype)",
            s.dtype.mlir_name()
        ));
    }
}

/// The arithmetic ops whose immediates may be integers, and the tile each combines with.
const INTEGER_IMMEDIATES: &[(&str, &[&str], &str)] = &[
    ("tensor_scalar_arith", &["imm0", "imm1"], "data"),
    ("tensor_scalar_cache_reduce", &["imm0"], "data"),
    ("tensor_scalar_cache_cumulative", &["imm0", "imm1"], "src"),
    ("scalar_tensor_tensor_arith", &["imm0"], "data"),
];

/// Integer immediates on integer ops: an integer attribute is kept exact (an f32 immediate
/// loses integers above 2^24) in the instruction's 32-bit immediate slot (signed or unsigned),
/// and only where the data it combines with is an integer tile.
pub fn integer_immediates(v: &mut OpView<'_, '_, '_>) {
    let Some(&(_, attrs, data)) = INTEGER_IMMEDIATES.iter().find(|r| r.0 == v.spec.name) else {
        return;
    };
    for &name in attrs {
        let Some(attr) = v.attr(name) else { continue };
        if !attr.is_integer() {
            continue;
        }
        let Some(value) = int_value(attr) else {
            continue; // the table rule reported it
        };
        if let Some(t) = v.tile(data)
            && !DtypeSet::INT.contains(t.dtype)
        {
            v.error(format!(
                "attribute '{name}': an integer immediate needs integer '{data}', got {}; write a float ({value}.0 : f32) (rule: integer immediate)",
                t.dtype.mlir_name()
            ));
            return;
        }
        if !(i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&value) {
            v.error(format!(
                "attribute '{name}': {value} does not fit the 32-bit immediate (from {} to {}) (rule: integer immediate)",
                i32::MIN,
                u32::MAX
            ));
            return;
        }
    }
}

fn dims(t: &InlineTile) -> Vec<usize> {
    t.shape.iter().map(|&d| d as usize).collect()
}

/// The vector offset of an access pattern (or the indices of a generic indirect op): an `[n]`,
/// `[n, 1]` or `[1, n]` tile with one index per element of the `num`-element indirect dimension, as
/// [`sundial_emu::indirection`] defines it.
pub fn vector_offset(v: &mut OpView<'_, '_, '_>, operand: &str, dim: i64, num: Option<i64>) {
    let Some(idx) = v.tile(operand) else { return };
    let shape = dims(&idx);
    let checked = match num {
        Some(n) => indirection::vector_offset_count(&shape, n as usize),
        None => indirection::vector_offset_rows(&shape).map(|_| ()),
    };
    match checked {
        Ok(()) => {}
        Err(IndirectionError::VectorCount { num, .. }) => v.error(format!(
            "operand '{operand}' ({}) must hold one index per element of indirect dimension {dim} ({num}) (rule: vector offset size)",
            idx.shape_str()
        )),
        Err(_) => v.error(format!(
            "operand '{operand}' ({}) must be an [n], [n, 1] or [1, n] tile (rule: vector offset shape)",
            idx.shape_str()
        )),
    }
}

/// A scalar offset tile holds one element (a register needs no check).
pub fn scalar_offset(v: &mut OpView<'_, '_, '_>) {
    let Some(t) = v.tile("scalar_offset") else {
        return;
    };
    if indirection::scalar_offset_shape(&dims(&t)).is_err() {
        v.error(format!(
            "operand 'scalar_offset' ({}) must hold exactly one element (rule: scalar offset shape)",
            t.shape_str()
        ));
    }
}

/// `indirect_dim` as [`sundial_emu::indirection::indirect_dim`] defines it: one of the `rank`
/// dimensions of the access; `what` names them in the message.
pub fn indirect_dim(v: &mut OpView<'_, '_, '_>, dim: i64, rank: usize, what: &str) -> bool {
    match indirection::indirect_dim(dim, rank) {
        Ok(_) => true,
        Err(_) => {
            v.error(format!(
                "attribute 'indirect_dim': {dim} is not a dimension of the {rank}-D {what} (rule: indirect dim)"
            ));
            false
        }
    }
}
