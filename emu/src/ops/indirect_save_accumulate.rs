//! IndirectSaveAccumulate (CoreV2 family): scatter-add of a tile into indirect targets.
//!
//! `dst[points of the access] += tile`, with `oob_mode` deciding out-of-range indices
//! (error: nothing written; skip: the element's contribution is dropped). Duplicate
//! targets accumulate, each in enumeration order (indirect-emulation rule 6).
//!
//! The arithmetic is the DMA read-modify-write rule documented for `dma_compute`:
//! both operands are cast to fp32, added, and the sum is cast to the destination dtype
//! (round to nearest even for floats; truncation with saturation for integers). The
//! public docs do not state IndirectSaveAccumulate's own precision; this is the one
//! DMA accumulate rule they do state, and the emulator uses it for both ops.

use super::{Mode, Part, forbid_psum_read, transfer};
use crate::access::{Access, OobMode};
use crate::error::Result;
use crate::memory::Memory;
use crate::view::View;

const OP: &str = "indirect_save_accumulate";

/// `dst[indices] += src`: see the module doc.
pub fn indirect_save_accumulate(
    mem: &mut Memory,
    dst: &Access,
    src: &View,
    oob: OobMode,
) -> Result<()> {
    forbid_psum_read(mem, OP, "the source", src)?;
    let part = Part {
        src: Access::direct(src),
        dst: dst.clone(),
    };
    transfer(mem, OP, &[part], Mode::Accumulate, oob)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;
    use crate::error::EmuError;
    use crate::target::Target;

    #[test]
    fn duplicates_accumulate_and_skips_drop() {
        let mut m = Memory::new(Target::Sunda);
        let table = m.alloc_hbm("t", DType::F32, &[4, 2]).unwrap();
        m.write_f32(&table, &[0.0; 8]).unwrap();
        let idx = m.alloc_sbuf(DType::I32, &[5, 1]).unwrap();
        m.write_i64(&idx, &[1, 3, 1, 4, 1]).unwrap();
        let src = m.alloc_sbuf(DType::F32, &[5, 2]).unwrap();
        m.write_f32(&src, &[1., 2., 3., 4., 5., 6., 7., 8., 9., 10.])
            .unwrap();
        let acc = Access::vector_offset(&table, 0, &idx).unwrap();
        let before = m.read_bits(&table).unwrap();
        let err = indirect_save_accumulate(&mut m, &acc, &src, OobMode::Error).unwrap_err();
        assert!(matches!(err, EmuError::IndexOutOfBounds { value: 4, .. }));
        assert_eq!(m.read_bits(&table).unwrap(), before);
        indirect_save_accumulate(&mut m, &acc, &src, OobMode::Skip).unwrap();
        // numpy: np.add.at(t, idx[idx < 4], src[idx < 4])
        assert_eq!(
            m.read_f32(&table).unwrap(),
            vec![0., 0., 15., 18., 0., 0., 3., 4.]
        );
    }

    #[test]
    fn low_precision_destinations_round_after_an_f32_add() {
        let mut m = Memory::new(Target::Sunda);
        let t = m.alloc_hbm("t", DType::Bf16, &[1, 1]).unwrap();
        m.write_f32(&t, &[256.0]).unwrap();
        let idx = m.alloc_sbuf(DType::I32, &[2, 1]).unwrap();
        m.write_i64(&idx, &[0, 0]).unwrap();
        let src = m.alloc_sbuf(DType::F32, &[2, 1]).unwrap();
        m.write_f32(&src, &[1.0, 1.0]).unwrap();
        let acc = Access::vector_offset(&t, 0, &idx).unwrap();
        indirect_save_accumulate(&mut m, &acc, &src, OobMode::Error).unwrap();
        // Each add is rounded to bf16 (8 significand bits): 256 + 1 = 257 -> 256, twice.
        assert_eq!(m.read_f32(&t).unwrap(), vec![256.0]);
    }
}
