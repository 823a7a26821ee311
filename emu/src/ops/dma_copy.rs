//! `dma_copy` (DMAMEMCPY): `dst = src` by a DMA engine.
//!
//! Semantics restated from `nki.isa.dma_copy`: both operands are HBM or SBUF tiles
//! with the same number of elements, copied in row-major order; when the dtypes differ
//! the DMA converts through fp32 (nki-semantics op table). PSUM is not readable by DMA
//! (NKI 0.5). `oob_mode` only matters for dynamic (indirect) addressing, which is
//! [`super::dma_copy_indirect`]; a static copy has no index to be out of bounds, and a
//! view reaching past its allocation follows the partial-tile rule (zero read, dropped
//! write).

use super::{DmaOperand, Mode, PartRef, forbid_psum_read, transfer_refs};
use crate::access::OobMode;
use crate::error::{EmuError, Result};
use crate::memory::Memory;
use crate::view::View;

const OP: &str = "dma_copy";

/// Copies every element of `src` to `dst` (row-major on both sides).
pub fn dma_copy(mem: &mut Memory, dst: &View, src: &View) -> Result<()> {
    forbid_psum_read(mem, OP, "the source", src)?;
    if dst.num_elements() != src.num_elements() {
        return Err(EmuError::shape(
            OP,
            format!(
                "source {:?} has {} elements, destination {:?} has {}",
                src.shape(),
                src.num_elements(),
                dst.shape(),
                dst.num_elements()
            ),
        ));
    }
    let part = PartRef {
        src: DmaOperand::View(src),
        dst: DmaOperand::View(dst),
    };
    transfer_refs(mem, OP, &[part], Mode::Copy, OobMode::Error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;
    use crate::target::Target;

    #[test]
    fn copies_hbm_to_sbuf_and_converts_through_f32() {
        let mut m = Memory::new(Target::Cayman);
        let src = m.alloc_hbm("x", DType::F32, &[4, 3]).unwrap();
        let vals: Vec<f32> = (0..12).map(|i| i as f32 * 0.3 - 1.0).collect();
        m.write_f32(&src, &vals).unwrap();
        let dst = m.alloc_sbuf(DType::Bf16, &[4, 3]).unwrap();
        dma_copy(&mut m, &dst, &src).unwrap();
        // numpy reference: x.astype(bfloat16) (round to nearest even).
        let want: Vec<f32> = vals
            .iter()
            .map(|&v| half::bf16::from_f32(v).to_f32())
            .collect();
        assert_eq!(m.read_f32(&dst).unwrap(), want);
    }

    #[test]
    fn copies_strided_views_in_row_major_order() {
        let mut m = Memory::new(Target::Cayman);
        let src = m.alloc_hbm("x", DType::I32, &[3, 4]).unwrap();
        m.write_i64(&src, &(0..12).collect::<Vec<_>>()).unwrap();
        let dst = m.alloc_hbm("y", DType::I32, &[4, 3]).unwrap();
        // numpy: y[...] = x.T
        dma_copy(&mut m, &dst, &src.permute(&[1, 0]).unwrap()).unwrap();
        assert_eq!(
            m.read_i64(&dst).unwrap(),
            vec![0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]
        );
    }

    #[test]
    fn rejects_psum_sources_and_size_mismatch() {
        let mut m = Memory::new(Target::Cayman);
        let p = m.alloc_psum(DType::F32, &[2, 2]).unwrap();
        let h = m.alloc_hbm("h", DType::F32, &[2, 2]).unwrap();
        assert!(matches!(
            dma_copy(&mut m, &h, &p),
            Err(EmuError::Memory { .. })
        ));
        let h3 = m.alloc_hbm("h3", DType::F32, &[3]).unwrap();
        assert!(matches!(
            dma_copy(&mut m, &h3, &h),
            Err(EmuError::Shape { .. })
        ));
    }

    #[test]
    fn x4_containers_copy_bit_exactly_but_never_convert() {
        let mut m = Memory::new(Target::Mariana);
        let a = m.alloc_hbm("a", DType::Fp8E4m3FnX4, &[2]).unwrap();
        m.write_bits(&a, &[0x0102_0304, 0xFFEE_DDCC]).unwrap();
        let b = m.alloc_sbuf(DType::Fp8E4m3FnX4, &[1, 2]).unwrap();
        dma_copy(&mut m, &b, &a).unwrap();
        assert_eq!(m.read_bits(&b).unwrap(), vec![0x0102_0304, 0xFFEE_DDCC]);
        let c = m.alloc_sbuf(DType::F32, &[1, 2]).unwrap();
        assert!(matches!(
            dma_copy(&mut m, &c, &a),
            Err(EmuError::DType { .. })
        ));
    }

    #[test]
    fn a_view_past_its_allocation_reads_zeros_and_drops_writes() {
        let mut m = Memory::new(Target::Cayman);
        let small = m.alloc_hbm("s", DType::F16, &[5]).unwrap();
        m.write_f32(&small, &[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        // An 8-element tile declared over a 5-element allocation (issue #182 shape).
        let tile = View::contiguous(small.alloc(), DType::F16, 0, vec![8]).unwrap();
        let dst = m.alloc_hbm("d", DType::F16, &[8]).unwrap();
        dma_copy(&mut m, &dst, &tile).unwrap();
        assert_eq!(
            m.read_f32(&dst).unwrap(),
            vec![1.0, 2.0, 3.0, 4.0, 5.0, 0.0, 0.0, 0.0]
        );
        m.write_f32(&dst, &[9.0; 8]).unwrap();
        dma_copy(&mut m, &tile, &dst).unwrap();
        assert_eq!(m.read_f32(&small).unwrap(), vec![9.0; 5]);
        assert_eq!(m.bytes(small.alloc()).unwrap().len(), 10);
    }
}
