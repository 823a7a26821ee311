//! `dma_copy_indirect` (DMA_INDIRECT 0xbb): GenericIndirectLoad / GenericIndirectSave.
//!
//! Semantics restated from `nki.isa.dma_copy` with `.ap(vector_offset=…,
//! indirect_dim=…)` / `scalar_offset`: one side (or both) is addressed through an index
//! tile; `oob_mode` decides what an out-of-range index does:
//!
//! - `error` (NKI default): the op fails with an error naming the op, the source
//!   dimension, the position in the index tile and the value; nothing is written;
//! - `skip`: a skipped read yields zero in the tile, a skipped write is dropped.
//!
//! Duplicate destination indices in a save: the last writer in enumeration order wins
//! (the DGE docs call duplicates a data hazard; the emulator defines the result).
//! Dtypes convert through fp32 as for `dma_copy`. The index tiles may live in any
//! memory: NKI reads vector offsets from SBUF, but the BIR-level ops this emulator also
//! serves do not pin that, so the emulator does not enforce it.

use super::{DmaOperand, Mode, PartRef, forbid_psum_read, transfer_refs};
use crate::access::{Access, OobMode};
use crate::error::Result;
use crate::memory::Memory;
use crate::view::View;

const OP: &str = "dma_copy_indirect";

/// `dst = src` where either side may be an indirect access.
pub fn dma_copy_indirect(
    mem: &mut Memory,
    dst: DmaOperand<'_>,
    src: DmaOperand<'_>,
    oob: OobMode,
) -> Result<()> {
    forbid_psum_read(mem, OP, "the source", src.view())?;
    let part = PartRef { src, dst };
    transfer_refs(mem, OP, &[part], Mode::Copy, oob)
}

/// GenericIndirectLoad: the tile `dst` (row-major) receives the points of `src`.
pub fn indirect_load(mem: &mut Memory, dst: &View, src: &Access, oob: OobMode) -> Result<()> {
    dma_copy_indirect(mem, DmaOperand::View(dst), DmaOperand::Access(src), oob)
}

/// GenericIndirectSave: the points of `dst` receive the tile `src` (row-major).
pub fn indirect_save(mem: &mut Memory, dst: &Access, src: &View, oob: OobMode) -> Result<()> {
    dma_copy_indirect(mem, DmaOperand::Access(dst), DmaOperand::View(src), oob)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;
    use crate::error::EmuError;
    use crate::target::Target;

    fn setup() -> (Memory, View, View) {
        let mut m = Memory::new(Target::Cayman);
        let table = m.alloc_hbm("table", DType::F32, &[6, 4]).unwrap();
        let vals: Vec<f32> = (0..24).map(|i| i as f32).collect();
        m.write_f32(&table, &vals).unwrap();
        let idx = m.alloc_sbuf(DType::I32, &[3, 1]).unwrap();
        (m, table, idx)
    }

    #[test]
    fn vector_offset_gathers_rows() {
        let (mut m, table, idx) = setup();
        m.write_i64(&idx, &[4, 0, 4]).unwrap();
        let acc = Access::vector_offset(&table, 0, &idx).unwrap();
        let out = m.alloc_sbuf(DType::F32, &[3, 4]).unwrap();
        indirect_load(&mut m, &out, &acc, OobMode::Error).unwrap();
        // numpy: out = table[idx[:, 0], :]
        assert_eq!(
            m.read_f32(&out).unwrap(),
            vec![16., 17., 18., 19., 0., 1., 2., 3., 16., 17., 18., 19.]
        );
    }

    #[test]
    fn oob_error_names_everything_and_leaves_the_destination_untouched() {
        let (mut m, table, idx) = setup();
        m.write_i64(&idx, &[1, 6, -1]).unwrap();
        let acc = Access::vector_offset(&table, 0, &idx).unwrap();
        let out = m.alloc_sbuf(DType::F32, &[3, 4]).unwrap();
        let before = m.read_bits(&out).unwrap();
        let err = indirect_load(&mut m, &out, &acc, OobMode::Error).unwrap_err();
        assert_eq!(
            err,
            EmuError::IndexOutOfBounds {
                op: "dma_copy_indirect",
                dim: 0,
                index_view: 0,
                position: vec![1, 0],
                value: 6,
                coordinate: 6,
                extent: 6,
            }
        );
        let msg = err.to_string();
        assert!(
            msg.contains("dma_copy_indirect")
                && msg.contains("dimension 0")
                && msg.contains("[1, 0]")
                && msg.contains('6')
        );
        assert_eq!(m.read_bits(&out).unwrap(), before);
    }

    #[test]
    fn oob_skip_reads_zero_rows() {
        let (mut m, table, idx) = setup();
        m.write_i64(&idx, &[2, -3, 100]).unwrap();
        let acc = Access::vector_offset(&table, 0, &idx).unwrap();
        let out = m.alloc_sbuf(DType::F32, &[3, 4]).unwrap();
        indirect_load(&mut m, &out, &acc, OobMode::Skip).unwrap();
        assert_eq!(
            m.read_f32(&out).unwrap(),
            vec![8., 9., 10., 11., 0., 0., 0., 0., 0., 0., 0., 0.]
        );
    }

    #[test]
    fn save_scatters_rows_drops_skipped_and_last_writer_wins() {
        let (mut m, table, idx) = setup();
        m.write_i64(&idx, &[5, 9, 5]).unwrap();
        let src = m.alloc_sbuf(DType::F32, &[3, 4]).unwrap();
        m.write_f32(&src, &(100..112).map(|i| i as f32).collect::<Vec<_>>())
            .unwrap();
        let acc = Access::vector_offset(&table, 0, &idx).unwrap();
        // Error mode: index 9 fails and nothing is written.
        assert!(indirect_save(&mut m, &acc, &src, OobMode::Error).is_err());
        assert_eq!(m.read_f32(&table).unwrap()[20..], [20., 21., 22., 23.]);
        indirect_save(&mut m, &acc, &src, OobMode::Skip).unwrap();
        let t = m.read_f32(&table).unwrap();
        // numpy: for i in order: table[idx[i]] = src[i] (skipping 9): row 5 gets row 2.
        assert_eq!(t[20..], [108., 109., 110., 111.]);
        assert_eq!(t[..20], (0..20).map(|i| i as f32).collect::<Vec<_>>()[..]);
    }

    #[test]
    fn scalar_offset_reads_a_window_and_checks_it_per_element() {
        let (mut m, table, _) = setup();
        let s = m.alloc_sbuf(DType::I32, &[1, 1]).unwrap();
        m.write_i64(&s, &[2]).unwrap();
        let acc = Access::scalar_offset(&table, 0, &s, &[3, 2]).unwrap();
        let out = m.alloc_sbuf(DType::F32, &[3, 2]).unwrap();
        indirect_load(&mut m, &out, &acc, OobMode::Error).unwrap();
        // numpy: table[2:5, 0:2]
        assert_eq!(m.read_f32(&out).unwrap(), vec![8., 9., 12., 13., 16., 17.]);
        m.write_i64(&s, &[4]).unwrap();
        // Rows 4, 5, 6: row 6 is out of bounds.
        let err = indirect_load(&mut m, &out, &acc, OobMode::Error).unwrap_err();
        assert!(matches!(
            err,
            EmuError::IndexOutOfBounds {
                value: 4,
                coordinate: 6,
                dim: 0,
                ..
            }
        ));
        indirect_load(&mut m, &out, &acc, OobMode::Skip).unwrap();
        assert_eq!(m.read_f32(&out).unwrap(), vec![16., 17., 20., 21., 0., 0.]);
    }

    #[test]
    fn loads_convert_dtype_through_f32() {
        let (mut m, table, idx) = setup();
        m.write_i64(&idx, &[1, 1, 1]).unwrap();
        let acc = Access::vector_offset(&table, 0, &idx).unwrap();
        let out = m.alloc_sbuf(DType::I8, &[3, 4]).unwrap();
        indirect_load(&mut m, &out, &acc, OobMode::Error).unwrap();
        assert_eq!(m.read_i64(&out).unwrap(), [4, 5, 6, 7].repeat(3));
    }
}
