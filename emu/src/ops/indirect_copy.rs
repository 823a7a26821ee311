//! `indirect_copy` (INDIRECT_COPY 0xe7): NKI `local_gather` on the 8 GpSimd cores.
//!
//! Semantics restated from `nki.isa.local_gather` and its exact NumPy reference in the
//! public test `test_nki_isa_local_gather.py` (nki-semantics):
//!
//! ```text
//! for core c in 0..P/16:                       # core c owns partitions 16c..16c+16
//!     idx = index[16c:16c+16].flatten('F')[:num_valid]   # partition dimension first
//!     for p in 16c..16c+16, j in 0..num_valid, e in 0..num_elem_per_idx:
//!         dst[p, j*num_elem_per_idx + e] = src_flat[p, idx[j] + e]
//! ```
//!
//! The index values are hardware indices in element units (`index x num_elem_per_idx`
//! in the docs' example). Rules kept:
//!
//! - `src`, `index`, `dst` in SBUF; `index` is `uint16`; `src.shape[0] == index.shape[0]`,
//!   a multiple of 16, at most 128 (on a logical machine, `Memory::logical`, at most its
//!   partitions: a logical tile's core `c` is partitions `16c..16c+16` as on the 8 physical
//!   cores, each core gathering within its own partitions); `num_elem_per_idx` in {1, 2, 4, 8, 16, 32};
//!   `num_valid_indices` (default: every slot, `16 x index free size`) at most the slots
//!   and at most 4096; `dst` has the dtype of `src` (no casting).
//! - An index slot beyond `num_valid_indices` is a skip (seed: "an index >
//!   num_valid_indices is a −1 skip"): its destination elements are not written. We
//!   read the seed's "index" as the slot position in the flattened index list (what
//!   the docs' `num_valid_indices` counts), not as the index value. `dst`
//!   may therefore be sized for all slots (`16 x index free size x num_elem_per_idx` per
//!   partition) or only for the valid ones.
//! - The docs leave out-of-bounds indices undefined; the emulator reports them as an
//!   `oob_mode = error` failure (nothing written), so no kernel can depend on them.
//!
//! Conflict noted: the docstring prose says the indices are used as "partition
//! offsets", while its NumPy reference gathers along the free axis (`np.take(...,
//! axis=1)`) within each partition. The reference is exact and is what we follow.

use super::{Mode, Part, require_space, transfer};
use crate::access::{Access, Affine, OobMode, Subscript, VarSpace};
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::{MemSpace, Memory};
use crate::target::PARTITIONS_PER_GPSIMD_CORE;
use crate::view::View;

const OP: &str = "indirect_copy";

/// Largest number of indices one GpSimd core gathers with (docs: "must be less than or
/// equal to 4096").
pub const MAX_INDICES_PER_CORE: usize = 4096;

/// The allowed `num_elem_per_idx` values.
pub const ELEMS_PER_INDEX: [usize; 6] = [1, 2, 4, 8, 16, 32];

/// The `dst` elements per partition `local_gather` accepts, from the NumPy reference
/// (`out[16c:16c+16] = np.take(src, idx[:num_valid], axis=1)`, `num_elem_per_idx` elements
/// per index): at least the valid slots' elements, at most every slot's, a whole number of
/// `num_elem_per_idx` groups. `slots` is the index slots per core (`16 x index free size`),
/// `num_valid` the valid ones. `None` when the bounds overflow. The dialect verifier checks
/// the same rule through this function, so a kernel that verifies never fails it here.
pub fn dst_free_range(
    slots: usize,
    num_valid: usize,
    num_elem_per_idx: usize,
) -> Option<std::ops::RangeInclusive<usize>> {
    Some(num_valid.checked_mul(num_elem_per_idx)?..=slots.checked_mul(num_elem_per_idx)?)
}

/// `local_gather`: see the module doc.
pub fn indirect_copy(
    mem: &mut Memory,
    dst: &View,
    src: &View,
    index: &View,
    num_elem_per_idx: usize,
    num_valid_indices: Option<usize>,
) -> Result<()> {
    for (what, v) in [("src", src), ("index", index), ("dst", dst)] {
        require_space(mem, OP, what, v, MemSpace::Sbuf)?;
        if v.rank() < 2 {
            return Err(EmuError::shape(
                OP,
                format!("{what} needs a partition and a free dimension"),
            ));
        }
    }
    if index.dtype() != DType::U16 {
        return Err(EmuError::dtype(
            OP,
            format!("index must be uint16, not {}", index.dtype()),
        ));
    }
    if dst.dtype() != src.dtype() {
        return Err(EmuError::dtype(
            OP,
            format!(
                "dst dtype {} differs from src dtype {} (no casting)",
                dst.dtype(),
                src.dtype()
            ),
        ));
    }
    let p = src.shape()[0];
    const G: usize = PARTITIONS_PER_GPSIMD_CORE;
    let limit = mem.partitions();
    if index.shape()[0] != p || dst.shape()[0] != p || !p.is_multiple_of(G) || p > limit || p == 0 {
        return Err(EmuError::shape(
            OP,
            format!(
                "partition counts src {p}, index {}, dst {} must match, be a multiple of {G} and at most {limit}",
                index.shape()[0],
                dst.shape()[0]
            ),
        ));
    }
    if !ELEMS_PER_INDEX.contains(&num_elem_per_idx) {
        return Err(EmuError::invalid(
            OP,
            format!("num_elem_per_idx {num_elem_per_idx} is not one of {ELEMS_PER_INDEX:?}"),
        ));
    }
    let index = index.flatten_free()?;
    let cols = index.shape()[1];
    let slots = G * cols;
    let nvalid = num_valid_indices.unwrap_or(slots);
    if nvalid > slots || nvalid > MAX_INDICES_PER_CORE {
        return Err(EmuError::invalid(
            OP,
            format!(
                "num_valid_indices {nvalid} exceeds the {slots} index slots per core or {MAX_INDICES_PER_CORE}"
            ),
        ));
    }
    let src = src.flatten_free()?;
    let dst = dst.flatten_free()?;
    let nepi = num_elem_per_idx;
    let dst_free = dst.shape()[1];
    let range = dst_free_range(slots, nvalid, nepi)
        .ok_or_else(|| EmuError::invalid(OP, "index slots x num_elem_per_idx overflows"))?;
    if dst_free % nepi != 0 || !range.contains(&dst_free) {
        return Err(EmuError::shape(
            OP,
            format!(
                "dst has {dst_free} elements per partition; expected a multiple of {nepi} between {} and {}",
                range.start(),
                range.end()
            ),
        ));
    }

    // Slot j of core c reads index[16c + j % 16, j / 16] (column-major flatten). Whole
    // index columns and the final partial column are two boxes of the variable space.
    let full_cols = nvalid / G;
    let tail = nvalid % G;
    let cores = p / G;
    let mut parts = Vec::new();
    // Variables: 0 = core c, 1 = partition q in the core, 2 = slot row jq,
    // 3 = element e, 4 = column jc (full columns only).
    let part_for = |rows: usize, col: Option<usize>| -> Part {
        let partition = Affine::scaled(0, G as i64).plus_term(1, 1);
        let index_row = Affine::scaled(0, G as i64).plus_term(2, 1);
        let (index_col, slot) = match col {
            // slot = 16 * jc + jq
            None => (Affine::var(4), Affine::scaled(4, G as i64).plus_term(2, 1)),
            // slot = 16 * full_cols + jq
            Some(c) => (
                Affine::constant(c as i64),
                Affine::var(2).plus_const((G * c) as i64),
            ),
        };
        let mut upper = vec![cores as i64, G as i64, rows as i64, nepi as i64];
        if col.is_none() {
            upper.push(full_cols as i64);
        }
        let nv = upper.len();
        let space = VarSpace::new(vec![0; nv], upper);
        // Enumerate core, partition, slot, element: the destination's row-major order.
        let order = if col.is_none() {
            vec![0, 1, 4, 2, 3]
        } else {
            vec![0, 1, 2, 3]
        };
        let src_access = Access {
            source: src.clone(),
            index_views: vec![index.clone()],
            subscripts: vec![
                Subscript::affine(partition.clone()),
                Subscript::indirect_plus(0, vec![index_row, index_col], Affine::var(3)),
            ],
            space: space.clone(),
            order: Some(order.clone()),
        };
        let mut dst_elem = Affine::var(3);
        for (v, c) in slot.terms {
            dst_elem = dst_elem.plus_term(v, c * nepi as i64);
        }
        let dst_elem = dst_elem.plus_const(slot.constant * nepi as i64);
        let dst_access = Access {
            source: dst.clone(),
            index_views: Vec::new(),
            subscripts: vec![Subscript::affine(partition), Subscript::affine(dst_elem)],
            space,
            order: Some(order),
        };
        Part {
            src: src_access,
            dst: dst_access,
        }
    };
    if full_cols > 0 {
        parts.push(part_for(G, None));
    }
    if tail > 0 {
        parts.push(part_for(tail, Some(full_cols)));
    }
    transfer(mem, OP, &parts, Mode::Copy, OobMode::Error)
}

/// The NKI name of [`indirect_copy`].
pub use self::indirect_copy as local_gather;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::Target;

    /// The public NumPy reference, restated.
    fn reference(
        src: &[f32],
        f: usize,
        index: &[i64],
        cols: usize,
        p: usize,
        nepi: usize,
        nvalid: usize,
    ) -> Vec<Vec<f32>> {
        let mut out = vec![Vec::new(); p];
        for c in 0..p / 16 {
            let idx: Vec<i64> = (0..16 * cols)
                .map(|k| index[(16 * c + k % 16) * cols + k / 16])
                .take(nvalid)
                .collect();
            for q in 0..16 {
                let row = 16 * c + q;
                for &i in &idx {
                    for e in 0..nepi {
                        out[row].push(src[row * f + i as usize + e]);
                    }
                }
            }
        }
        out
    }

    fn run(nepi: usize, nvalid: Option<usize>, dst_slots: usize) {
        let (p, f, cols) = (32, 64, 3);
        let mut m = Memory::new(Target::Sunda);
        let src = m.alloc_sbuf(DType::F32, &[p, f]).unwrap();
        let sv: Vec<f32> = (0..p * f).map(|i| i as f32).collect();
        m.write_f32(&src, &sv).unwrap();
        let index = m.alloc_sbuf(DType::U16, &[p, cols]).unwrap();
        // Hardware indices in element units: (logical index) * nepi.
        let iv: Vec<i64> = (0..p * cols)
            .map(|i| ((i * 7 + 3) % (f / nepi)) as i64 * nepi as i64)
            .collect();
        m.write_i64(&index, &iv).unwrap();
        let dst = m.alloc_sbuf(DType::F32, &[p, dst_slots * nepi]).unwrap();
        indirect_copy(&mut m, &dst, &src, &index, nepi, nvalid).unwrap();
        let nv = nvalid.unwrap_or(16 * cols);
        let want = reference(&sv, f, &iv, cols, p, nepi, nv);
        let got = m.read_f32(&dst).unwrap();
        for row in 0..p {
            let g = &got[row * dst_slots * nepi..(row + 1) * dst_slots * nepi];
            assert_eq!(&g[..nv * nepi], &want[row][..], "row {row}");
            // Slots beyond num_valid_indices are skipped: still the NaN fill.
            assert!(g[nv * nepi..].iter().all(|v| v.is_nan()), "row {row}");
        }
    }

    #[test]
    fn matches_the_numpy_reference_with_all_slots() {
        run(1, None, 48);
        run(4, None, 48);
    }

    #[test]
    fn slots_beyond_num_valid_indices_are_skipped() {
        run(2, Some(21), 48);
        run(8, Some(5), 5);
        run(1, Some(32), 40);
    }

    #[test]
    fn rejects_bad_parameters_and_reports_oob_as_error() {
        let mut m = Memory::new(Target::Sunda);
        let src = m.alloc_sbuf(DType::F32, &[16, 8]).unwrap();
        let index = m.alloc_sbuf(DType::U16, &[16, 1]).unwrap();
        m.write_i64(&index, &[0; 16]).unwrap();
        let dst = m.alloc_sbuf(DType::F32, &[16, 16]).unwrap();
        assert!(indirect_copy(&mut m, &dst, &src, &index, 3, None).is_err());
        assert!(indirect_copy(&mut m, &dst, &src, &index, 1, Some(17)).is_err());
        let i32i = m.alloc_sbuf(DType::I32, &[16, 1]).unwrap();
        assert!(matches!(
            indirect_copy(&mut m, &dst, &src, &i32i, 1, None),
            Err(EmuError::DType { .. })
        ));
        let src8 = m.alloc_sbuf(DType::F32, &[8, 8]).unwrap();
        assert!(matches!(
            indirect_copy(&mut m, &dst, &src8, &index, 1, None),
            Err(EmuError::Shape { .. })
        ));
        // Index 7 with 2 elements per index runs past the 8-element partition.
        let mut iv = vec![0i64; 16];
        iv[3] = 7;
        m.write_i64(&index, &iv).unwrap();
        let d2 = m.alloc_sbuf(DType::F32, &[16, 32]).unwrap();
        let before = m.read_bits(&d2).unwrap();
        let err = indirect_copy(&mut m, &d2, &src, &index, 2, None).unwrap_err();
        assert!(
            matches!(
                err,
                EmuError::IndexOutOfBounds {
                    value: 7,
                    coordinate: 8,
                    dim: 1,
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!(m.read_bits(&d2).unwrap(), before);
    }
}
