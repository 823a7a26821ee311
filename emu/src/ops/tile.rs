//! Shared plumbing of the compute ops: operand checks, tile reads and writes, scalar
//! operands, the engine choice.
//!
//! A compute operand is an on-chip tile: a [`View`] of SBUF or PSUM whose dimension 0 is
//! the partition dimension (at most the memory's partitions: 128, or more on a logical
//! machine, `Memory::logical`) and whose other dimensions are the free
//! dimensions, read row-major (partition `p`'s elements are `p * free .. (p + 1) * free`
//! of the flat tile). Operands of one op agree on the partition count and on the number of
//! elements per partition, not necessarily on the free shape (NKI: "the same partition
//! axis size and the same number of elements per partition").
//!
//! Every read goes through [`Memory::read_bits`] and every write through
//! [`Memory::write_bits`], so memory-level checks (uninitialised-read detection, partial
//! tiles) apply to compute ops as to DMA. An op validates every operand, reads every
//! input, computes, and proves every destination writable before its first write, so a
//! failing op leaves memory (and the accumulators) untouched.

use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::{MemSpace, Memory};
use crate::offsets;
use crate::target::Target;
use crate::view::View;
use crate::{Access, OobMode};

/// The engine an engine-polymorphic op runs on: the shared vocabulary (NKI `engine`).
/// Compute ops take `Option<Engine>`, where `None` is `engine.unknown` and lets the
/// emulator choose the way the NKI docs say the compiler does.
pub use sundial_codegen::model::Engine;

/// Refuses an engine that runs no compute op here (Tensor, DMA, sync), naming it.
pub(crate) fn compute_engine(op: &'static str, engine: Option<Engine>) -> Result<()> {
    match engine {
        None | Some(Engine::Vector | Engine::Scalar | Engine::GpSimd) => Ok(()),
        Some(e) => Err(EmuError::unsupported(
            op,
            format!("the {} engine runs no element-wise compute op", e.name()),
        )),
    }
}

/// A "scalar or per-partition vector" operand: an fp32 immediate broadcast to every
/// element, or a tile with one element per partition broadcast along the free dimensions.
#[derive(Debug, Clone, Copy)]
pub enum Scalar<'a> {
    /// A compile-time constant.
    Imm(f32),
    /// A `[P, 1]` tile (one element per partition).
    Tile(&'a View),
}

/// Where an operand may live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Space {
    /// SBUF or PSUM.
    OnChip,
    /// SBUF only (GpSimd operands, iota, affine_select).
    Sbuf,
}

/// The partition count and the elements per partition of a checked tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shape {
    pub parts: usize,
    pub free: usize,
}

/// Checks that `view` is an on-chip tile in `space` with at most the memory's partitions
/// (128 physical, more on a logical machine: these ops are partition-parallel) and no
/// more than [`crate::MAX_ELEMENTS`] elements, and returns its shape.
pub(crate) fn tile(
    mem: &Memory,
    who: &'static str,
    what: &str,
    view: &View,
    space: Space,
) -> Result<Shape> {
    EmuError::check_elements(who, what, view.num_elements())?;
    let got = mem.space(view.alloc())?;
    let ok = match space {
        Space::OnChip => matches!(got, MemSpace::Sbuf | MemSpace::Psum),
        Space::Sbuf => got == MemSpace::Sbuf,
    };
    if !ok {
        let want = match space {
            Space::OnChip => "SBUF or PSUM",
            Space::Sbuf => "SBUF",
        };
        return Err(EmuError::memory(
            who,
            format!("{what} must be in {want}, not {got:?}"),
        ));
    }
    let parts = *view
        .shape()
        .first()
        .ok_or_else(|| EmuError::shape(who, format!("{what} has no partition dimension")))?;
    let limit = mem.partitions();
    if parts > limit {
        return Err(EmuError::shape(
            who,
            format!("{what} has {parts} partitions, more than {limit}"),
        ));
    }
    let free = view.shape()[1..].iter().product();
    Ok(Shape { parts, free })
}

/// Fails unless `b` has `a`'s partition count and elements per partition.
pub(crate) fn same_shape(who: &'static str, a: (&str, Shape), b: (&str, Shape)) -> Result<()> {
    if a.1 != b.1 {
        return Err(EmuError::shape(
            who,
            format!(
                "{} is {} partitions x {} elements but {} is {} x {}",
                a.0, a.1.parts, a.1.free, b.0, b.1.parts, b.1.free
            ),
        ));
    }
    Ok(())
}

/// Fails when `dtype` has no scalar value (the x4 containers).
pub(crate) fn scalar_dtype(who: &'static str, what: &str, dtype: DType) -> Result<()> {
    if dtype.is_x4() {
        return Err(EmuError::dtype(
            who,
            format!("{what} is {dtype}, a packed container with no scalar arithmetic"),
        ));
    }
    Ok(())
}

/// Fails unless `dtype` is an integer type (bitvec operands).
pub(crate) fn int_dtype(who: &'static str, what: &str, dtype: DType) -> Result<()> {
    if !dtype.is_integer() {
        return Err(EmuError::dtype(
            who,
            format!("{what} is {dtype}; bitvec operators need integer types"),
        ));
    }
    Ok(())
}

/// Fails unless `dtype` is one of `allowed`.
pub(crate) fn dtype_in(
    who: &'static str,
    what: &str,
    dtype: DType,
    allowed: &[DType],
) -> Result<()> {
    if !allowed.contains(&dtype) {
        let names: Vec<&str> = allowed.iter().map(|d| d.name()).collect();
        return Err(EmuError::dtype(
            who,
            format!("{what} is {dtype}; accepted: {}", names.join(", ")),
        ));
    }
    Ok(())
}

/// Fails unless the target is at least `min` (ops NKI marks "available only on
/// NeuronCore-vN and newer").
pub(crate) fn require_target(mem: &Memory, who: &'static str, min: Target) -> Result<()> {
    let t = mem.target();
    if t.nc_version() < min.nc_version() {
        return Err(EmuError::unsupported(
            who,
            format!(
                "needs NeuronCore-v{} ({}) or newer; the target is {} (v{})",
                min.nc_version(),
                min.name(),
                t.name(),
                t.nc_version()
            ),
        ));
    }
    Ok(())
}

/// True when `view` lives in PSUM.
pub(crate) fn in_psum(mem: &Memory, view: &View) -> Result<bool> {
    Ok(mem.space(view.alloc())? == MemSpace::Psum)
}

/// Fails when both inputs are in PSUM (NKI: "cannot both reside in PSUM").
pub(crate) fn not_both_psum(
    mem: &Memory,
    who: &'static str,
    a: (&str, &View),
    b: (&str, &View),
) -> Result<()> {
    if in_psum(mem, a.1)? && in_psum(mem, b.1)? {
        return Err(EmuError::memory(
            who,
            format!("{} and {} cannot both be in PSUM", a.0, b.0),
        ));
    }
    Ok(())
}

/// The raw element bits of `view`, row-major, read on behalf of op `who` (which the
/// uninitialised-read check names).
pub(crate) fn read_bits(mem: &Memory, who: &'static str, view: &View) -> Result<Vec<u64>> {
    mem.read_bits_for(who, view)
}

/// The elements of `view` as fp32 (the arithmetic operators' input cast).
pub(crate) fn read_f32(
    mem: &Memory,
    who: &'static str,
    what: &str,
    view: &View,
) -> Result<Vec<f32>> {
    let d = view.dtype();
    scalar_dtype(who, what, d)?;
    if d == DType::F32 {
        // The common case straight from the bytes, without the bit-pattern vector: from the
        // rows in memory when they are contiguous, else through the offsets.
        if let Some(rows) = mem.row_ranges(view) {
            mem.check_ranges_written(who, view.alloc(), &rows)?;
            let bytes = mem.bytes(view.alloc())?;
            let mut out = Vec::with_capacity(view.num_elements());
            for r in rows {
                out.extend(
                    bytes[r]
                        .chunks_exact(4)
                        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
                );
            }
            return Ok(out);
        }
        let bytes = mem.read_bytes_for(who, view)?;
        return Ok(bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect());
    }
    // Scalar dtype checked, so every element has an fp32 value.
    Ok(read_bits(mem, who, view)?
        .into_iter()
        .map(|b| d.to_f32(b).unwrap_or(f32::NAN))
        .collect())
}

/// fp32 values encoded as `dtype` (the output cast: see the numerics table in `dtype`).
pub(crate) fn encode_f32(
    who: &'static str,
    what: &str,
    dtype: DType,
    values: &[f32],
) -> Result<Vec<u64>> {
    scalar_dtype(who, what, dtype)?;
    Ok(values
        .iter()
        .map(|&v| dtype.from_f32(v).unwrap_or(0))
        .collect())
}

/// Writes fp32 `values` over every element of `dst`, cast to its dtype (the output cast of
/// [`encode_f32`]); an fp32 `dst` takes the values' bytes as they are.
pub(crate) fn store_f32(
    mem: &mut Memory,
    who: &'static str,
    what: &str,
    dst: &View,
    values: &[f32],
) -> Result<()> {
    if dst.dtype() == DType::F32 {
        if let Some(rows) = mem.row_ranges(dst)
            && rows.iter().map(|r| r.len() / 4).sum::<usize>() == values.len()
        {
            let mut bytes = Vec::new();
            let mut at = 0;
            for r in rows {
                let n = r.len() / 4;
                bytes.clear();
                bytes.extend(values[at..at + n].iter().flat_map(|v| v.to_le_bytes()));
                mem.write_range(dst.alloc(), r.start, &bytes)?;
                at += n;
            }
            return Ok(());
        }
        let mut bytes = vec![0u8; values.len() * 4];
        for (c, v) in bytes.chunks_exact_mut(4).zip(values) {
            c.copy_from_slice(&v.to_le_bytes());
        }
        return mem.write_bytes_for(who, dst, &bytes);
    }
    let bits = encode_f32(who, what, dst.dtype(), values)?;
    mem.write_bits_for(who, dst, &bits)
}

/// The fast path of an element-wise fp32 op, row by row: when `dst` and every input are
/// fp32 tiles whose partition rows are contiguous in-bounds runs ([`Memory::row_ranges`]),
/// and `dst` either is an input's very tile or shares no byte with any input, each partition
/// row `p` is decoded from memory into a row buffer, `f(p, out, rest)` computes it in place
/// (`out` holds row `p` of `inputs[0]` on entry and the result on return, `rest` the rows of
/// the other inputs), and the result is encoded straight into `dst`'s row. No whole-tile
/// temporary, the dtype resolved once per op. Every input is checked for unwritten bytes
/// before the first write, so a failing op still writes nothing. Returns `Ok(false)` without
/// touching anything when the conditions do not hold (or `inputs` is empty): the caller then
/// runs its general path, which computes the same values.
pub(crate) fn map_rows_f32(
    mem: &mut Memory,
    who: &'static str,
    dst: &View,
    inputs: &[&View],
    mut f: impl FnMut(usize, &mut [f32], &[&[f32]]),
) -> Result<bool> {
    if inputs.is_empty()
        || dst.dtype() != DType::F32
        || inputs.iter().any(|v| v.dtype() != DType::F32)
    {
        return Ok(false);
    }
    let Some(out_rows) = mem.row_ranges(dst) else {
        return Ok(false);
    };
    let mut in_rows = Vec::with_capacity(inputs.len());
    for v in inputs {
        let Some(rows) = mem.row_ranges(v) else {
            return Ok(false);
        };
        if rows.len() != out_rows.len()
            || rows.iter().zip(&out_rows).any(|(a, b)| a.len() != b.len())
        {
            return Ok(false);
        }
        // Row p of dst may be row p of this input (written after it is read), or else no
        // byte of dst may be one of this input's.
        let same = v.alloc() == dst.alloc() && rows == out_rows;
        if !same && v.alloc() == dst.alloc() && overlap(&rows, &out_rows) {
            return Ok(false);
        }
        in_rows.push(rows);
    }
    for (v, rows) in inputs.iter().zip(&in_rows) {
        mem.check_ranges_written(who, v.alloc(), rows)?;
    }
    let free = out_rows.first().map_or(0, |r| r.len() / 4);
    let mut out = vec![0f32; free];
    let mut bufs: Vec<Vec<f32>> = inputs[1..].iter().map(|_| vec![0f32; free]).collect();
    for (p, dst_row) in out_rows.iter().enumerate() {
        decode_f32(
            &mem.bytes(inputs[0].alloc())?[in_rows[0][p].clone()],
            &mut out,
        );
        for ((v, rows), buf) in inputs[1..].iter().zip(&in_rows[1..]).zip(bufs.iter_mut()) {
            decode_f32(&mem.bytes(v.alloc())?[rows[p].clone()], buf);
        }
        {
            let rest: smallvec::SmallVec<[&[f32]; 4]> = bufs.iter().map(Vec::as_slice).collect();
            f(p, &mut out, &rest);
        }
        encode_f32_into(&out, mem.range_mut(dst.alloc(), dst_row.clone())?);
    }
    Ok(true)
}

/// Little-endian fp32 bytes into values (`out.len()` values of the front of `bytes`).
#[inline]
pub(crate) fn decode_f32(bytes: &[u8], out: &mut [f32]) {
    for (x, c) in out.iter_mut().zip(bytes.chunks_exact(4)) {
        *x = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
}

/// Values into little-endian fp32 bytes (the front of `bytes`).
#[inline]
pub(crate) fn encode_f32_into(values: &[f32], bytes: &mut [u8]) {
    for (c, v) in bytes.chunks_exact_mut(4).zip(values) {
        c.copy_from_slice(&v.to_le_bytes());
    }
}

/// Whether any range of `a` shares a byte with any range of `b` (a sweep over both, sorted).
fn overlap(a: &[std::ops::Range<usize>], b: &[std::ops::Range<usize>]) -> bool {
    let mut a: Vec<_> = a.iter().filter(|r| !r.is_empty()).cloned().collect();
    let mut b: Vec<_> = b.iter().filter(|r| !r.is_empty()).cloned().collect();
    a.sort_by_key(|r| r.start);
    b.sort_by_key(|r| r.start);
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i].start < b[j].end && b[j].start < a[i].end {
            return true;
        }
        if a[i].end <= b[j].end {
            i += 1;
        } else {
            j += 1;
        }
    }
    false
}

/// Computes `view`'s offsets now, so that a later write of it cannot fail.
pub(crate) fn check_writable(mem: &Memory, who: &'static str, view: &View) -> Result<()> {
    offsets::compute(mem, &Access::direct(view), OobMode::Error, who).map(|_| ())
}

/// Writes raw bits over every element of `view`.
pub(crate) fn write_bits(mem: &mut Memory, view: &View, bits: &[u64]) -> Result<()> {
    mem.write_bits(view, bits)
}

/// Writes `bits[i]` to element `i` of `view` (row-major) where `mask[i]` holds; other
/// elements are neither read nor written. Consecutive selected elements at consecutive
/// addresses go out as one write.
pub(crate) fn write_masked(
    mem: &mut Memory,
    view: &View,
    bits: &[u64],
    mask: &[bool],
) -> Result<()> {
    let offs = element_offsets(view);
    let mut i = 0;
    while i < offs.len() {
        if !mask[i] {
            i += 1;
            continue;
        }
        let start = i;
        while i + 1 < offs.len() && mask[i + 1] && offs[i + 1] == offs[i] + 1 {
            i += 1;
        }
        let len = i + 1 - start;
        let run = View::new(view.alloc(), view.dtype(), offs[start], vec![len], vec![1])?;
        mem.write_bits(&run, &bits[start..start + len])?;
        i += 1;
    }
    Ok(())
}

/// The element offset of every element of `view`, row-major (in-extent coordinates, so
/// the arithmetic was checked when the view was built).
fn element_offsets(view: &View) -> Vec<i64> {
    let n = view.num_elements();
    let mut out = Vec::with_capacity(n);
    if n == 0 {
        return out;
    }
    let shape = view.shape();
    let strides = view.strides();
    let mut coord = vec![0usize; shape.len()];
    let mut off = view.offset();
    for _ in 0..n {
        out.push(off);
        for d in (0..shape.len()).rev() {
            coord[d] += 1;
            off += strides[d];
            if coord[d] < shape[d] {
                break;
            }
            off -= strides[d] * shape[d] as i64;
            coord[d] = 0;
        }
    }
    out
}

/// The per-partition fp32 values of a scalar operand for a `parts`-partition op. A tile
/// must be on-chip with `parts` partitions and one element each; with `require_f32` it
/// must also be fp32 (NKI: tensor_scalar operands, activation `scale`, ... "must be
/// float32").
pub(crate) fn scalar_values(
    mem: &Memory,
    who: &'static str,
    what: &str,
    s: &Scalar<'_>,
    parts: usize,
    require_f32: bool,
) -> Result<Vec<f32>> {
    match s {
        Scalar::Imm(v) => Ok(vec![*v; parts]),
        Scalar::Tile(view) => {
            let sh = tile(mem, who, what, view, Space::OnChip)?;
            if sh.parts != parts || sh.free != 1 {
                return Err(EmuError::shape(
                    who,
                    format!(
                        "{what} must be {parts} partitions x 1 element, not {} x {}",
                        sh.parts, sh.free
                    ),
                ));
            }
            if require_f32 && view.dtype() != DType::F32 {
                return Err(EmuError::dtype(
                    who,
                    format!("{what} is {}; it must be float32", view.dtype()),
                ));
            }
            read_f32(mem, who, what, view)
        }
    }
}

/// Checks a `[P, 1]` destination for per-partition results (`reduce_res`, read-outs).
pub(crate) fn lane_tile(
    mem: &Memory,
    who: &'static str,
    what: &str,
    view: &View,
    parts: usize,
) -> Result<()> {
    let sh = tile(mem, who, what, view, Space::OnChip)?;
    if sh.parts != parts || sh.free != 1 {
        return Err(EmuError::shape(
            who,
            format!(
                "{what} must be {parts} partitions x 1 element, not {} x {}",
                sh.parts, sh.free
            ),
        ));
    }
    scalar_dtype(who, what, view.dtype())?;
    check_writable(mem, who, view)
}
