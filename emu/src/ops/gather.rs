//! `gather` (GATHER 0x68): NKI `nc_n_gather`, a per-partition gather on GpSimd.
//!
//! Semantics restated from `nki.isa.nc_n_gather`: `data`, `indices` and `dst` are SBUF
//! tiles with the same partition count (at most 128); within each partition the free
//! dimensions of `data` are flattened, and
//!
//! ```text
//! dst[p, i...] = data_flat[p, indices[p, i...]]
//! ```
//!
//! The free dimensions of `indices` give the shape of `dst`; `indices` must be `uint32`;
//! `dst` has the dtype of `data`. An index past the flattened free size reads 0 (the
//! public simulator's rule, nki-semantics): that is the engine's `oob_mode = skip` on a
//! read, fixed for this op.

use super::{DmaOperand, Mode, PartRef, require_space, transfer_refs};
use crate::access::{Access, Affine, OobMode, Subscript, VarSpace};
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::{MemSpace, Memory};
use crate::view::View;

const OP: &str = "gather";

/// `dst[p, i..] = data[p, flat indices[p, i..]]`, out-of-range indices reading 0.
pub fn gather(mem: &mut Memory, dst: &View, data: &View, indices: &View) -> Result<()> {
    for (what, v) in [("data", data), ("indices", indices), ("dst", dst)] {
        require_space(mem, OP, what, v, MemSpace::Sbuf)?;
        if v.rank() < 2 {
            return Err(EmuError::shape(
                OP,
                format!("{what} needs a partition and a free dimension"),
            ));
        }
    }
    if indices.dtype() != DType::U32 {
        return Err(EmuError::dtype(
            OP,
            format!("indices must be uint32, not {}", indices.dtype()),
        ));
    }
    if dst.dtype() != data.dtype() {
        return Err(EmuError::dtype(
            OP,
            format!(
                "dst dtype {} differs from data dtype {}",
                dst.dtype(),
                data.dtype()
            ),
        ));
    }
    // Partition-parallel: a logical machine (`Memory::logical`) takes its own width.
    let p = data.shape()[0];
    let limit = mem.partitions();
    if p > limit || indices.shape()[0] != p || dst.shape()[0] != p {
        return Err(EmuError::shape(
            OP,
            format!(
                "partition counts data {p}, indices {}, dst {} must match and be at most {limit}",
                indices.shape()[0],
                dst.shape()[0]
            ),
        ));
    }
    let per_part = indices.num_elements() / p.max(1);
    if dst.num_elements() != indices.num_elements() {
        return Err(EmuError::shape(
            OP,
            format!(
                "dst has {} elements per partition but indices have {per_part}",
                dst.num_elements() / p.max(1)
            ),
        ));
    }
    let flat = data.flatten_free()?;
    // Variables: p, then one per free dimension of `indices`.
    let rank = indices.rank();
    let src = Access {
        source: flat,
        index_views: vec![indices.clone()],
        subscripts: vec![
            Subscript::var(0),
            Subscript::indirect(0, (0..rank).map(Affine::var).collect()),
        ],
        space: VarSpace::from_extents(indices.shape()),
        order: None,
    };
    // The destination as a plain view: no identity access is built for it per call.
    let part = PartRef {
        src: DmaOperand::Access(&src),
        dst: DmaOperand::View(dst),
    };
    transfer_refs(mem, OP, &[part], Mode::Copy, OobMode::Skip)
}

/// The NKI name of [`gather`].
pub use self::gather as nc_n_gather;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::Target;

    #[test]
    fn gathers_within_each_partition_and_reads_zero_out_of_range() {
        let mut m = Memory::new(Target::Cayman);
        let data = m.alloc_sbuf(DType::F32, &[2, 2, 3]).unwrap();
        m.write_f32(&data, &(0..12).map(|i| i as f32 + 0.5).collect::<Vec<_>>())
            .unwrap();
        let idx = m.alloc_sbuf(DType::U32, &[2, 4]).unwrap();
        m.write_i64(&idx, &[5, 0, 6, 2, 1, 1, 4, 4_000_000_000])
            .unwrap();
        let dst = m.alloc_sbuf(DType::F32, &[2, 4]).unwrap();
        gather(&mut m, &dst, &data, &idx).unwrap();
        // numpy: np.take_along_axis(data.reshape(2, 6), idx, 1), zero where idx >= 6.
        assert_eq!(
            m.read_f32(&dst).unwrap(),
            vec![5.5, 0.5, 0.0, 2.5, 7.5, 7.5, 10.5, 0.0]
        );
    }

    #[test]
    fn checks_dtypes_spaces_and_shapes() {
        let mut m = Memory::new(Target::Cayman);
        let data = m.alloc_sbuf(DType::F32, &[2, 6]).unwrap();
        let i32idx = m.alloc_sbuf(DType::I32, &[2, 4]).unwrap();
        let dst = m.alloc_sbuf(DType::F32, &[2, 4]).unwrap();
        assert!(matches!(
            gather(&mut m, &dst, &data, &i32idx),
            Err(EmuError::DType { .. })
        ));
        let idx = m.alloc_sbuf(DType::U32, &[2, 4]).unwrap();
        let hbm = m.alloc_hbm("h", DType::F32, &[2, 6]).unwrap();
        assert!(matches!(
            gather(&mut m, &dst, &hbm, &idx),
            Err(EmuError::Memory { .. })
        ));
        let dst3 = m.alloc_sbuf(DType::F32, &[2, 3]).unwrap();
        assert!(matches!(
            gather(&mut m, &dst3, &data, &idx),
            Err(EmuError::Shape { .. })
        ));
        let dstb = m.alloc_sbuf(DType::Bf16, &[2, 4]).unwrap();
        assert!(matches!(
            gather(&mut m, &dstb, &data, &idx),
            Err(EmuError::DType { .. })
        ));
    }
}
