//! Physical access patterns: where an operand of a NISA op lives once `sundial-allocate` ran,
//! as the BIR dialect's access-pattern dictionary.
//!
//! An operand is a kernel argument (HBM tensor `k` for argument `k`, from byte 0), a
//! `nisa.alloc` result (its `sundial.partition` / `sundial.offset`, or `sundial.tensor` in
//! HBM) or a chain of views of one of those: `nisa.ap`, `nisa.reshape`, `nisa.slice`,
//! `nisa.permute`, `nisa.broadcast`, and `nisa.dynamic_ap` whose dynamic offset is a
//! constant. Every chain (a whole tile is the empty one) is folded by
//! `sundial_dialects::fold::fold`, the function the verifier and the emulator driver use,
//! into one pattern counting elements of the view's dtype over the flattened tensor (NKI's
//! `.ap()`); on chip its first pair is the partition dimension, whose step is the tensor's
//! free size, so the element offset splits into a start partition and a byte offset inside
//! it. The folded free pairs are split back along the view's logical dimensions where they
//! split (so a whole tile keeps one dimension per dimension of its shape, and an access
//! pattern its own pairs), before canonicalisation.
//!
//! The free dimensions are canonical: unit dimensions dropped, adjacent dimensions that are
//! contiguous merged (while the count fits the 16-bit `num` field), a count past 65535 split,
//! outermost first. A pattern that still needs more than four free dimensions, or a step
//! outside the field it lands in, is an error naming the operand.

use crate::allocate::{Placed, placed};
use crate::ir::dict;
use melior::{
    ContextRef,
    ir::{Attribute, Value, ValueLike, attribute::AttributeLike, operation::OperationLike},
};
use sundial_codegen::dtype::BirDtype;
use sundial_dialects::view::FastMap;
use sundial_dialects::{
    build::Attrs,
    dtype::Dtype,
    enums::Space,
    fold::{Base, Folded, ViewStep, fold},
    loops::eval_index,
    tile::Tile,
    verify::{defining_op, view_rules},
    view::View,
};

/// What selection remembers while it runs over one function ([`with_cache`]).
#[derive(Default)]
struct Cache {
    /// [`resolve`] by operand value.
    resolved: FastMap<usize, Result<Phys, String>>,
    /// [`Phys::to_attr`] by pattern.
    attrs: FastMap<Phys, mlir_sys::MlirAttribute>,
}

thread_local! {
    static CACHE: std::cell::RefCell<Option<Cache>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with [`resolve`] remembering the pattern of every operand value and
/// [`Phys::to_attr`] every dictionary it built. The IR must not change under `f` in a way
/// that changes a pattern (selection only inserts BIR ops, and erases the NISA ops after `f`):
/// a value then has one pattern, and a dictionary lives as long as its context. Nested calls
/// share the outer cache.
pub fn with_cache<R>(f: impl FnOnce() -> R) -> R {
    let outermost = CACHE.with(|c| {
        let mut c = c.borrow_mut();
        let fresh = c.is_none();
        if fresh {
            *c = Some(Cache::default());
        }
        fresh
    });
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            if self.0 {
                CACHE.with(|c| *c.borrow_mut() = None);
            }
        }
    }
    let _reset = Reset(outermost);
    f()
}

/// Most free dimensions of a physical pattern (TENSOR4D, the widest slot).
pub const MAX_FREE_DIMS: usize = 4;
/// Largest count of one dimension (the 16-bit `num` fields).
pub const MAX_NUM: i64 = u16::MAX as i64;

/// A static physical access pattern.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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

    /// The BIR dictionary of the pattern (remembered under [`with_cache`]: a kernel names
    /// the same few patterns over and over, and MLIR uniques the dictionary anyway).
    pub fn to_attr<'c>(&self, context: ContextRef<'c>) -> Result<Attribute<'c>, String> {
        let cached = CACHE.with(|c| c.borrow().as_ref().and_then(|m| m.attrs.get(self).copied()));
        if let Some(raw) = cached {
            // SAFETY: built in this context during the same `with_cache` scope, which the
            // context outlives.
            return Ok(unsafe { Attribute::from_raw(raw) });
        }
        let attr = self.build_attr(context)?;
        CACHE.with(|c| {
            if let Some(m) = c.borrow_mut().as_mut() {
                m.attrs.insert(self.clone(), attr.to_raw());
            }
        });
        Ok(attr)
    }

    fn build_attr<'c>(&self, context: ContextRef<'c>) -> Result<Attribute<'c>, String> {
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

/// Where a tile value starts: (partition, byte offset, HBM tensor), before any view.
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
            "the operand is a result of '{name}': selection takes tiles that are kernel arguments, nisa.alloc results or views of them (nisa.ap, nisa.reshape, nisa.slice, nisa.permute, nisa.broadcast, nisa.dynamic_ap with a constant offset)"
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

/// An operand folded for selection: where the tensor its chain of views starts from is
/// placed, and the chain folded into one pattern over it by `sundial_dialects::fold::fold`
/// (the verifier's and the emulator driver's function).
struct FoldedOperand {
    /// The tensor the chain starts from (an argument or a `nisa.alloc` result).
    base: Tile,
    /// Its first partition (on chip).
    partition: i64,
    /// Its byte offset (inside the partition on chip, inside the tensor in HBM).
    offset: i64,
    /// Its HBM tensor number (HBM only).
    tensor: Option<i64>,
    /// The folded pattern (a whole tile is the empty chain).
    folded: Folded,
    /// The element type of the operand (the view's).
    dtype: Dtype,
}

/// Reads the chain of views `value` ends (see [`view_rules::step_of`]) and folds it over the
/// tensor it starts from. A `nisa.dynamic_ap` is a step when its dynamic offset is a
/// constant (added to its static offset); one whose offset depends on a loop variable, a
/// program id or a register has no static pattern.
fn fold_operand(value: Value<'_, '_>) -> Result<FoldedOperand, String> {
    let mut steps = Vec::new();
    let mut current = value;
    while let Some(op) = defining_op(current).filter(view_rules::is_chain_op) {
        if steps.len() >= view_rules::MAX_CHAIN {
            return Err(format!(
                "the operand ends a chain of more than {} views",
                view_rules::MAX_CHAIN
            ));
        }
        let mut step = view_rules::step_of(&op)?;
        if view_rules::is_dynamic_ap(&op) {
            let dynamic = op
                .operand(1)
                .ok()
                .and_then(|d| eval_index(d.to_raw()))
                .and_then(|e| e.as_constant())
                .and_then(|d| i64::try_from(d).ok())
                .ok_or(
                    "the operand is a nisa.dynamic_ap whose dynamic offset is not a constant (it depends on a loop variable, a program id or a register): a static pattern takes a constant start",
                )?;
            if let ViewStep::Ap { offset, .. } = &mut step {
                *offset = offset
                    .checked_add(dynamic)
                    .ok_or("the view's offset overflows")?;
            }
        }
        steps.push(step);
        current = op
            .operand(0)
            .map_err(|_| "a view op without its tensor operand".to_string())?;
    }
    steps.reverse();
    let base = Tile::from_type(current.r#type())?;
    let (partition, offset, tensor) = root_place(current, &base)?;
    let folded = fold(
        &Base {
            shape: base.shape.clone(),
            elem_bytes: base.dtype.byte_size() as i64,
            on_chip: base.space != Space::Hbm,
        },
        &steps,
    )
    .map_err(|e| {
        let op = steps.get(e.step).map_or("view", ViewStep::op_name);
        format!(
            "the view does not fold ({op}, step {} of the chain): {}",
            e.step,
            view_rules::fold_message(&e)
        )
    })?;
    Ok(FoldedOperand {
        base,
        partition,
        offset,
        tensor,
        folded,
        dtype: Tile::from_type(value.r#type())?.dtype,
    })
}

/// The pairs of a folded walk split along the view's logical dimensions `shape` (outermost
/// first): one group of pairs per dimension (empty for a unit dimension), which concatenated
/// walk as `pairs` do. A dimension covers whole pairs, or the inner part of one pair whose
/// count it divides. `None` when a dimension does not split the pairs so.
fn split_logical(pairs: &[(i64, i64)], shape: &[i64]) -> Option<Vec<Vec<(i64, i64)>>> {
    let mut rest: Vec<(i64, i64)> = pairs.iter().copied().filter(|p| p.1 != 1).collect();
    let mut groups = Vec::with_capacity(shape.len());
    for &n in shape.iter().rev() {
        let mut need = n;
        let mut group = Vec::new();
        while need > 1 {
            let &(step, num) = rest.last()?;
            if need % num == 0 {
                rest.pop();
                group.push((step, num));
                need /= num;
            } else if num % need == 0 {
                let last = rest.len() - 1;
                rest[last] = (step.checked_mul(need)?, num / need);
                group.push((step, need));
                need = 1;
            } else {
                return None;
            }
        }
        group.reverse();
        groups.push(group);
    }
    if !rest.is_empty() {
        return None;
    }
    groups.reverse();
    Some(groups)
}

/// The physical pattern of a folded static operand with its free pairs split along the view's
/// logical free dimensions where they split ([`split_logical`]; else the folded pairs), and
/// how many pairs each logical free dimension became (`None` when they do not split).
fn static_phys(f: &FoldedOperand) -> Result<(Phys, Option<Vec<usize>>), String> {
    let folded = &f.folded;
    if folded.indirect_dim.is_some() {
        return Err(
            "the operand is an indirect access pattern (vector_offset / scalar_offset): this instruction takes static operands".into(),
        );
    }
    let elem = folded.elem_bytes;
    let dtype = f.dtype;
    let on_chip = f.base.space != Space::Hbm;
    let (free_pairs, free_shape) = if on_chip {
        (&folded.pattern[1..], folded.shape.get(1..).unwrap_or(&[]))
    } else {
        (&folded.pattern[..], &folded.shape[..])
    };
    let (dims, groups) = match split_logical(free_pairs, free_shape) {
        Some(groups) => {
            let sizes = groups.iter().map(Vec::len).collect();
            (groups.into_iter().flatten().collect(), Some(sizes))
        }
        None => (free_pairs.to_vec(), None),
    };
    let phys = if on_chip {
        let (row, partitions) = folded.pattern[0];
        let row = row.max(1);
        let byte = (folded.offset % row)
            .checked_mul(elem)
            .ok_or("the view's offset overflows")?;
        Phys {
            space: f.base.space,
            partition: f.partition + folded.offset / row,
            partitions,
            offset: f.offset + byte,
            dims,
            dtype,
            tensor: None,
        }
    } else {
        let byte = folded
            .offset
            .checked_mul(elem)
            .ok_or("the view's offset overflows")?;
        Phys {
            space: Space::Hbm,
            partition: 0,
            partitions: 1,
            offset: f.offset + byte,
            dims,
            dtype,
            tensor: f.tensor,
        }
    };
    Ok((phys, groups))
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

/// The indirect access of operand `value`: an `nisa.ap` (or constant-offset
/// `nisa.dynamic_ap`) of an HBM table, or of a view of one, with a `vector_offset` index tile
/// of one element per partition, indirect on its first dimension. The chain folds like a
/// static one ([`fold_operand`]): the table's pattern is the access pattern's own, moved to
/// the block of the table its views select.
pub fn resolve_indirect(value: Value<'_, '_>) -> Result<IndirectPhys, String> {
    let tile = Tile::from_type(value.r#type())?;
    let Some(view) = defining_op(value)
        .filter(|op| matches!(&*crate::ir::op_name(op), "nisa.ap" | "nisa.dynamic_ap"))
        .and_then(View::of)
    else {
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
    if view.value("tensor").is_none() {
        return Err("nisa.ap has no tensor".into());
    }
    let f = fold_operand(value)?;
    if f.base.space != Space::Hbm {
        return Err(format!(
            "the indexed tensor is in {}: a DMA-indirect transfer addresses an HBM table",
            f.base.space
        ));
    }
    let mut pairs = f.folded.pattern.clone();
    if pairs.is_empty() {
        return Err("nisa.ap has an empty pattern".into());
    }
    let byte_offset = f
        .folded
        .offset
        .checked_mul(f.folded.elem_bytes)
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
            offset: f.offset + byte_offset,
            dims: pairs,
            dtype: tile.dtype,
            tensor: f.tensor,
        },
        num_indices,
    })
}

/// The physical pattern of operand `value` (a static access), free dimensions canonical
/// (remembered under [`with_cache`]).
pub fn resolve(value: Value<'_, '_>) -> Result<Phys, String> {
    let key = value.to_raw().ptr as usize;
    let cached = CACHE.with(|c| {
        c.borrow()
            .as_ref()
            .and_then(|m| m.resolved.get(&key).cloned())
    });
    if let Some(hit) = cached {
        return hit;
    }
    let resolved = resolve_raw(value).and_then(Phys::canonical);
    CACHE.with(|c| {
        if let Some(m) = c.borrow_mut().as_mut() {
            m.resolved.insert(key, resolved.clone());
        }
    });
    resolved
}

/// The physical pattern of operand `value` with the free dimensions one per dimension of the
/// view (as the tile's shape, or the view's logical shape, gives them; not canonical).
pub fn resolve_raw(value: Value<'_, '_>) -> Result<Phys, String> {
    let f = fold_operand(value)?;
    Ok(static_phys(&f)?.0)
}

/// The physical pattern of operand `value` whose `reduced` trailing logical dimensions are
/// reduced: the free dimensions before them and the reduced ones canonical each on their own
/// ([`Phys::canonical_split`]), and how many dimensions the reduced part became.
pub fn resolve_reduced(value: Value<'_, '_>, reduced: usize) -> Result<(Phys, usize), String> {
    let f = fold_operand(value)?;
    let (phys, groups) = static_phys(&f)?;
    let Some(groups) = groups else {
        return Err(
            "the view's folded pattern does not split along its dimensions, so the reduced axes have no boundary in it".into(),
        );
    };
    let kept = groups.len().saturating_sub(reduced);
    let at = groups[..kept].iter().sum();
    phys.canonical_split(at)
}
