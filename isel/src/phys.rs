//! Physical access patterns: where an operand of a NISA op lives once `sundial-allocate` ran,
//! as the BIR dialect's access-pattern dictionary.
//!
//! An operand is a kernel argument (HBM tensor `k` for argument `k`, from byte 0), a
//! `nisa.alloc` result (its `sundial.partition` / `sundial.offset`, or `sundial.tensor` in
//! HBM) or a static `nisa.ap` view of one of those. A view's pattern counts elements of the
//! view's dtype over the flattened tensor (NKI's `.ap()`); on chip its first pair is the
//! partition dimension, whose step is the tensor's free size, so the element offset splits
//! into a start partition and a byte offset inside it.
//!
//! The free dimensions are canonical: unit dimensions dropped, adjacent dimensions that are
//! contiguous merged (while the count fits the 16-bit `num` field), a count past 65535 split,
//! outermost first. A pattern that still needs more than four free dimensions, or a step
//! outside the field it lands in, is an error naming the operand.

use crate::allocate::{Placed, placed};
use crate::ir::dict;
use melior::{
    ContextRef,
    ir::{Attribute, Value, ValueLike},
};
use sundial_codegen::dtype::BirDtype;
use sundial_dialects::{
    build::Attrs, dtype::Dtype, enums::Space, tile::Tile, verify::defining_op, view::View,
};

/// Most free dimensions of a physical pattern (TENSOR4D, the widest slot).
pub const MAX_FREE_DIMS: usize = 4;
/// Largest count of one dimension (the 16-bit `num` fields).
pub const MAX_NUM: i64 = u16::MAX as i64;

/// A static physical access pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phys {
    /// Memory space.
    pub space: Space,
    /// First partition (on chip).
    pub partition: i64,
    /// Partition count (on chip; 1 in HBM).
    pub partitions: i64,
    /// Byte offset inside the partition (on chip) or the tensor (HBM).
    pub offset: i64,
    /// Free dimensions, outermost first: (step in elements, count).
    pub dims: Vec<(i64, i64)>,
    /// Element type.
    pub dtype: Dtype,
    /// The HBM tensor number (HBM only).
    pub tensor: Option<i64>,
}

impl Phys {
    /// The BIR dtype of the elements.
    pub fn bir_dtype(&self) -> Result<BirDtype, String> {
        self.dtype.bir().ok_or_else(|| {
            format!(
                "{} has no BIR dtype (a matmul mode, not a storage type)",
                self.dtype.mlir_name()
            )
        })
    }

    /// Elements per partition.
    pub fn elements(&self) -> i64 {
        self.dims.iter().map(|d| d.1).product()
    }

    /// The pattern with canonical free dimensions.
    pub fn canonical(mut self) -> Result<Phys, String> {
        self.dims = canonical_dims(&self.dims, step_limit(self.space))?;
        Ok(self)
    }

    /// The pattern with the free dimensions before `at` and from `at` on canonical each on
    /// their own (so that a reduction over the trailing ones keeps its boundary), and the
    /// number of dimensions the trailing part became.
    pub fn canonical_split(mut self, at: usize) -> Result<(Phys, usize), String> {
        let at = at.min(self.dims.len());
        let limit = step_limit(self.space);
        let inner = canonical_dims(&self.dims[at..], limit)?;
        let mut outer = canonical_dims(&self.dims[..at], limit)?;
        if outer == [(1, 1)] {
            outer.clear();
        }
        let n = inner.len();
        outer.extend(inner);
        if outer.len() > MAX_FREE_DIMS {
            return Err(format!(
                "the access needs {} free dimensions; a physical pattern has at most {MAX_FREE_DIMS}",
                outer.len()
            ));
        }
        self.dims = outer;
        Ok((self, n))
    }

    /// The BIR dictionary of the pattern.
    pub fn to_attr<'c>(&self, context: ContextRef<'c>) -> Result<Attribute<'c>, String> {
        let a = Attrs::new(context);
        let pattern: Vec<i64> = self.dims.iter().flat_map(|&(s, n)| [s, n]).collect();
        let dtype = self.bir_dtype()?;
        let mut entries = vec![
            ("space", a.string(self.space.as_str())),
            ("offset", a.i64(self.offset)),
            ("pattern", a.i64_array(&pattern)),
            ("dtype", a.string(dtype.name())),
        ];
        match self.space {
            Space::Hbm => {
                if let Some(t) = self.tensor {
                    entries.push(("tensor", a.i64(t)));
                }
            }
            _ => {
                entries.push(("partition", a.i64(self.partition)));
                entries.push(("num_partitions", a.i64(self.partitions)));
            }
        }
        Ok(dict(context, &entries))
    }
}

/// Row-major strides (in elements) of `shape`, outermost first.
fn strides(shape: &[i64]) -> Vec<i64> {
    let mut out = vec![1i64; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        out[i] = out[i + 1].saturating_mul(shape[i + 1]);
    }
    out
}

/// The canonical free dimensions of `dims` (see the module docs); `step_limit` is the largest
/// step magnitude the pattern's step field holds.
pub fn canonical_dims(dims: &[(i64, i64)], step_limit: i64) -> Result<Vec<(i64, i64)>, String> {
    let mut out: Vec<(i64, i64)> = Vec::new();
    for &(step, num) in dims {
        if num == 1 {
            continue;
        }
        if let Some(last) = out.last_mut()
            && last.0 == step.saturating_mul(num)
            && last.1.saturating_mul(num) <= MAX_NUM
        {
            *last = (step, last.1 * num);
            continue;
        }
        out.push((step, num));
    }
    // Split counts past the field: (s, n) -> (s*k, n/k), (s, k) with the largest k that divides.
    let mut split = Vec::new();
    for (step, num) in out {
        if num <= MAX_NUM {
            split.push((step, num));
            continue;
        }
        let k = (2..=MAX_NUM)
            .rev()
            .find(|k| num % k == 0 && num / k <= MAX_NUM)
            .ok_or_else(|| {
                format!("a dimension of {num} elements cannot be split into two counts of at most {MAX_NUM}")
            })?;
        split.push((step.saturating_mul(k), num / k));
        split.push((step, k));
    }
    if split.is_empty() {
        split.push((1, 1));
    }
    if split.len() > MAX_FREE_DIMS {
        return Err(format!(
            "the access needs {} free dimensions; a physical pattern has at most {MAX_FREE_DIMS}",
            split.len()
        ));
    }
    if let Some(&(step, _)) = split.iter().find(|d| d.0.abs() > step_limit) {
        return Err(format!(
            "step {step} does not fit the pattern's step field (at most {step_limit} in magnitude)"
        ));
    }
    Ok(split)
}

/// The largest step of an on-chip pattern (the signed 16-bit `step_elem` of TENSORnD).
pub const ON_CHIP_STEP: i64 = i16::MAX as i64;
/// The largest step of an HBM pattern (the signed 32-bit DMA `step_elem`).
pub const HBM_STEP: i64 = i32::MAX as i64;

fn step_limit(space: Space) -> i64 {
    if space == Space::Hbm {
        HBM_STEP
    } else {
        ON_CHIP_STEP
    }
}

/// Where a tile value starts: (space, partition or tensor, byte offset), before any view.
fn root_place(value: Value<'_, '_>, tile: &Tile) -> Result<(i64, i64, Option<i64>), String> {
    let raw = value.to_raw();
    if unsafe { mlir_sys::mlirValueIsABlockArgument(raw) } {
        let index = unsafe { mlir_sys::mlirBlockArgumentGetArgNumber(raw) } as i64;
        if tile.space != Space::Hbm {
            return Err(format!(
                "kernel argument #{index} is a {} tile: kernel arguments are HBM tensors",
                tile.space
            ));
        }
        return Ok((0, 0, Some(index)));
    }
    let Some(op) = defining_op(value) else {
        return Err("the operand is neither a kernel argument nor an op result".into());
    };
    let name = crate::ir::op_name(&op);
    if name != "nisa.alloc" {
        return Err(format!(
            "the operand is a result of '{name}': selection takes tiles that are kernel arguments, nisa.alloc results or nisa.ap views of them"
        ));
    }
    match placed(&op) {
        Some(Placed::OnChip { partition, offset }) if tile.space != Space::Hbm => {
            Ok((partition, offset, None))
        }
        Some(Placed::Hbm { tensor }) if tile.space == Space::Hbm => Ok((0, 0, Some(tensor))),
        _ => Err("the tile is not allocated: run sundial-allocate before sundial-isel".into()),
    }
}

/// The physical pattern of a whole tile (`nisa.alloc` result or kernel argument).
fn whole(value: Value<'_, '_>, tile: &Tile) -> Result<Phys, String> {
    let (partition, offset, tensor) = root_place(value, tile)?;
    let (partitions, free): (i64, &[i64]) = if tile.space == Space::Hbm {
        (1, &tile.shape)
    } else {
        (tile.partitions(), tile.free_shape())
    };
    let st = strides(free);
    let dims: Vec<(i64, i64)> = st.iter().copied().zip(free.iter().copied()).collect();
    Ok(Phys {
        space: tile.space,
        partition,
        partitions,
        offset,
        dims,
        dtype: tile.dtype,
        tensor,
    })
}

/// A tensor-indirect access of an HBM table (`nisa.ap` with `vector_offset` on a kernel
/// argument or an HBM `nisa.alloc`): each index of an on-chip index vector replaces the
/// counter of the view's indirect dimension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndirectPhys {
    /// The index vector (static, on chip).
    pub index: Phys,
    /// The table: its first dimension is the indirect one (its step scales an index, its
    /// count is the number of indices), the rest is one index's elements.
    pub data: Phys,
    /// How many indices.
    pub num_indices: i64,
}

impl IndirectPhys {
    /// The BIR dictionary (`kind = "indirect"`; `index_arg` 0: one indirection per op).
    pub fn to_attr<'c>(&self, context: ContextRef<'c>) -> Result<Attribute<'c>, String> {
        let a = Attrs::new(context);
        let entries = [
            ("kind", a.string("indirect")),
            ("index", self.index.to_attr(context)?),
            ("data", self.data.to_attr(context)?),
            ("num_indices", a.i64(self.num_indices)),
            ("index_arg", a.i64(0)),
        ];
        Ok(dict(context, &entries))
    }
}

/// The indirect access of operand `value`: an `nisa.ap` view of an HBM table with a
/// `vector_offset` index tile of one element per partition, indirect on its first dimension.
pub fn resolve_indirect(value: Value<'_, '_>) -> Result<IndirectPhys, String> {
    let tile = Tile::from_type(value.r#type())?;
    let Some(view) = defining_op(value).and_then(|op| View::nisa(op, "ap")) else {
        return Err(
            "the operand is not an indirect access pattern (an nisa.ap with vector_offset)".into(),
        );
    };
    if view.value("scalar_offset").is_some() {
        return Err("a scalar_offset (register) indirection is a dynamic start, not an index vector: DMA_INDIRECT1D reads one index per channel".into());
    }
    let index = view
        .value("vector_offset")
        .ok_or("the access pattern has no vector_offset index")?;
    let indirect_dim = view.int_attr("indirect_dim").unwrap_or(0);
    if indirect_dim != 0 {
        return Err(format!(
            "indirect_dim {indirect_dim}: an immediate-start DMA_INDIRECT1D indexes the outermost dimension only (bundle-layouts §5: the indirect dim of an immediate start is X)"
        ));
    }
    let Some(tensor) = view.value("tensor") else {
        return Err("nisa.ap has no tensor".into());
    };
    let base_tile = Tile::from_type(tensor.r#type())?;
    if base_tile.space != Space::Hbm {
        return Err(format!(
            "the indexed tensor is in {}: a DMA-indirect transfer addresses an HBM table",
            base_tile.space
        ));
    }
    let (_, offset, tensor_id) = root_place(tensor, &base_tile)?;
    let pattern = view.i64_array("pattern").unwrap_or_default();
    let mut pairs: Vec<(i64, i64)> = pattern.chunks(2).map(|c| (c[0], c[1])).collect();
    if pairs.is_empty() {
        return Err("nisa.ap has an empty pattern".into());
    }
    let elem = tile.dtype.byte_size() as i64;
    let byte_offset = view
        .int_attr("offset")
        .unwrap_or(0)
        .checked_mul(elem)
        .ok_or("the view's offset overflows")?;
    let index_tile = Tile::from_type(index.r#type())?;
    if index_tile.free_size() != Some(1) {
        return Err(format!(
            "the index tile {:?} holds more than one index per partition: DMA_INDIRECT1D reads one index per channel",
            index_tile.shape
        ));
    }
    let index_phys = resolve(index).map_err(|m| format!("the index: {m}"))?;
    let num_indices = index_phys.partitions;
    if pairs[0].1 != num_indices {
        return Err(format!(
            "the indirect dimension counts {} but the index tile has {num_indices} indices",
            pairs[0].1
        ));
    }
    let rest = canonical_dims(&pairs[1..], HBM_STEP)?;
    pairs.truncate(1);
    pairs.extend(rest);
    Ok(IndirectPhys {
        index: index_phys,
        data: Phys {
            space: Space::Hbm,
            partition: 0,
            partitions: 1,
            offset: offset + byte_offset,
            dims: pairs,
            dtype: tile.dtype,
            tensor: tensor_id,
        },
        num_indices,
    })
}

/// The physical pattern of operand `value` (a static access), free dimensions canonical.
pub fn resolve(value: Value<'_, '_>) -> Result<Phys, String> {
    resolve_raw(value)?.canonical()
}

/// The physical pattern of operand `value` with the free dimensions as the tile's shape or
/// the view's pattern gives them (one per dimension, not canonical).
pub fn resolve_raw(value: Value<'_, '_>) -> Result<Phys, String> {
    let tile = Tile::from_type(value.r#type())?;
    let Some(view) = defining_op(value).and_then(|op| View::nisa(op, "ap")) else {
        return whole(value, &tile);
    };
    if view.value("vector_offset").is_some() || view.value("scalar_offset").is_some() {
        return Err(
            "the operand is an indirect access pattern (vector_offset / scalar_offset): this instruction takes static operands".into(),
        );
    }
    let Some(tensor) = view.value("tensor") else {
        return Err("nisa.ap has no tensor".into());
    };
    let base_tile = Tile::from_type(tensor.r#type())?;
    let (partition, offset, tensor_id) = root_place(tensor, &base_tile)?;
    let pattern = view.i64_array("pattern").unwrap_or_default();
    let pairs: Vec<(i64, i64)> = pattern.chunks(2).map(|c| (c[0], c[1])).collect();
    let elem = tile.dtype.byte_size() as i64;
    let element_offset = view.int_attr("offset").unwrap_or(0);
    let byte_offset = element_offset
        .checked_mul(elem)
        .ok_or("the view's offset overflows")?;
    if base_tile.space == Space::Hbm {
        return Ok(Phys {
            space: Space::Hbm,
            partition: 0,
            partitions: 1,
            offset: offset + byte_offset,
            dims: pairs,
            dtype: tile.dtype,
            tensor: tensor_id,
        });
    }
    let Some(&(_, partitions)) = pairs.first() else {
        return Err("nisa.ap has an empty pattern".into());
    };
    let row = base_tile.free_bytes().ok_or("tile size overflows")?;
    Ok(Phys {
        space: base_tile.space,
        partition: partition + byte_offset / row,
        partitions,
        offset: offset + byte_offset % row,
        dims: pairs[1..].to_vec(),
        dtype: tile.dtype,
        tensor: None,
    })
}
