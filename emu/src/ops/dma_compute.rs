//! `dma_compute`: arithmetic inside the DMA engines (add only).
//!
//! Semantics restated from `nki.isa.dma_compute`:
//!
//! - **Plain**: `dst = reduce_op(srcs[0]*scales[0], srcs[1]*scales[1], ...)` with
//!   `reduce_op = add`, all scales 1.0 (or none), at most 16 sources. Every source is
//!   cast to fp32, summed left to right in fp32, and the sum is cast to `dst`'s dtype.
//! - **Scatter RMW** (`dst(HBM)[indices] = dst(HBM)[indices] + src(SB)`): `dst` is an
//!   indirect access, one source is that same access, the other an SBUF tile.
//! - **Gather RMW** (`dst(SB) = dst(SB) + src(HBM)[indices]`): `dst` is an SBUF tile,
//!   one source is an indirect access, the other is `dst` itself.
//!
//! Both RMW modes take exactly two sources and `unique_indices = True` (non-unique
//! indices are "not yet supported"; when the indices do repeat anyway the emulator
//! accumulates each duplicate in enumeration order rather than modelling the hazard).
//! Out-of-bounds indices follow `oob_mode`: in skip mode a skipped scatter element is
//! dropped and a skipped gather element adds zero.

use super::alu::add_f32;
use super::{DmaOperand, Mode, Part, forbid_psum_read, transfer};
use crate::access::{Access, OobMode};
use crate::data::Combine;
use crate::error::{EmuError, Result};
use crate::memory::{MemSpace, Memory};
use crate::offsets::Plan;

const OP: &str = "dma_compute";

/// Most sources a plain `dma_compute` accepts.
pub const MAX_SOURCES: usize = 16;

/// The reduction `dma_compute` applies across sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReduceOp {
    /// `nl.add`, the only one supported.
    Add,
}

/// `dma_compute`: see the module doc.
pub fn dma_compute(
    mem: &mut Memory,
    dst: DmaOperand<'_>,
    srcs: &[DmaOperand<'_>],
    reduce_op: ReduceOp,
    scales: Option<&[f32]>,
    unique_indices: bool,
    oob: OobMode,
) -> Result<()> {
    let ReduceOp::Add = reduce_op;
    if let Some(s) = scales {
        if s.len() != srcs.len() {
            return Err(EmuError::shape(
                OP,
                format!("{} scales for {} sources", s.len(), srcs.len()),
            ));
        }
        if s.iter().any(|&x| x != 1.0) {
            return Err(EmuError::unsupported(OP, "scales other than 1.0"));
        }
    }
    if srcs.is_empty() || srcs.len() > MAX_SOURCES {
        return Err(EmuError::shape(
            OP,
            format!(
                "{} sources; between 1 and {MAX_SOURCES} are accepted",
                srcs.len()
            ),
        ));
    }
    for s in srcs {
        forbid_psum_read(mem, OP, "a source", s.view())?;
    }
    let indirect = dst.is_indirect() || srcs.iter().any(|s| s.is_indirect());
    if !indirect {
        return plain(mem, dst, srcs);
    }
    if srcs.len() != 2 {
        return Err(EmuError::unsupported(
            OP,
            format!(
                "read-modify-write with {} sources; exactly 2 are required",
                srcs.len()
            ),
        ));
    }
    if !unique_indices {
        return Err(EmuError::unsupported(
            OP,
            "read-modify-write with unique_indices = False",
        ));
    }
    let dst_access = dst.to_access();
    let other = if srcs[0].to_access() == dst_access {
        &srcs[1]
    } else if srcs[1].to_access() == dst_access {
        &srcs[0]
    } else {
        return Err(EmuError::invalid(
            OP,
            "read-modify-write needs one source to be the destination itself",
        ));
    };
    if dst.is_indirect() {
        // Scatter RMW: dst(HBM)[indices] += src(SB).
        if mem.space(dst.view().alloc())? != MemSpace::Hbm
            || mem.space(other.view().alloc())? != MemSpace::Sbuf
        {
            return Err(EmuError::memory(
                OP,
                "scatter read-modify-write needs an HBM destination and an SBUF source",
            ));
        }
        if other.is_indirect() {
            return Err(EmuError::unsupported(
                OP,
                "both operands of a scatter read-modify-write are indirect",
            ));
        }
        let part = Part {
            src: other.to_access(),
            dst: dst_access,
        };
        transfer(mem, OP, &[part], Mode::Accumulate, oob)
    } else {
        // Gather RMW: dst(SB) += src(HBM)[indices].
        if mem.space(dst.view().alloc())? != MemSpace::Sbuf
            || mem.space(other.view().alloc())? != MemSpace::Hbm
        {
            return Err(EmuError::memory(
                OP,
                "gather read-modify-write needs an SBUF destination and an HBM source",
            ));
        }
        let part = Part {
            src: other.to_access(),
            dst: dst_access,
        };
        transfer(mem, OP, &[part], Mode::Accumulate, oob)
    }
}

/// Plain mode: f32 sum of every source, cast to the destination dtype.
fn plain(mem: &mut Memory, dst: DmaOperand<'_>, srcs: &[DmaOperand<'_>]) -> Result<()> {
    let dst_access = dst.to_access();
    let dplan = Plan::new(mem, &dst_access, OP)?;
    let n = dplan.num_points();
    let dd = dplan.source_dtype();
    if dd.is_x4() {
        return Err(EmuError::dtype(OP, format!("cannot compute into {dd}")));
    }
    let mut sum = vec![0f32; n];
    for (i, s) in srcs.iter().enumerate() {
        let acc: Access = s.to_access();
        let plan = Plan::new(mem, &acc, OP)?;
        if plan.num_points() != n {
            return Err(EmuError::shape(
                OP,
                format!(
                    "source {i} has {} elements, destination {n}",
                    plan.num_points()
                ),
            ));
        }
        let sd = plan.source_dtype();
        if sd.is_x4() {
            return Err(EmuError::dtype(
                OP,
                format!("source {i} is {sd}, which has no scalar values"),
            ));
        }
        let offs = plan.compute(mem, OobMode::Error, mem.path_choice())?;
        let mut tile = vec![0u8; n * sd.size()];
        mem.read_list(OP, acc.source.alloc(), sd.size(), offs.as_list(), &mut tile)?;
        for (acc_v, c) in sum.iter_mut().zip(tile.chunks_exact(sd.size())) {
            // Scalar dtype checked above, so the conversion exists.
            *acc_v = add_f32(*acc_v, sd.to_f32(sd.load(c)).unwrap_or(f32::NAN));
        }
    }
    let doffs = dplan.compute(mem, OobMode::Error, mem.path_choice())?;
    let mut out = vec![0u8; n * dd.size()];
    for (v, o) in sum.iter().zip(out.chunks_exact_mut(dd.size())) {
        dd.store(dd.from_f32(*v).unwrap_or(0), o);
    }
    mem.write_list(
        OP,
        dst_access.source.alloc(),
        dd.size(),
        doffs.as_list(),
        &out,
        Combine::Replace,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;
    use crate::target::Target;
    use crate::view::View;

    fn tile(m: &mut Memory, vals: &[f32], shape: &[usize]) -> View {
        let t = m.alloc_sbuf(DType::F32, shape).unwrap();
        m.write_f32(&t, vals).unwrap();
        t
    }

    #[test]
    fn plain_mode_sums_in_f32_and_casts_once() {
        let mut m = Memory::new(Target::Cayman);
        let a = tile(&mut m, &[1.0, 2.0, 3.0, 4.0], &[2, 2]);
        let b = tile(&mut m, &[0.5, 0.25, -3.0, 1e-3], &[2, 2]);
        let h = m.alloc_hbm("h", DType::F16, &[2, 2]).unwrap();
        m.write_f32(&h, &[10.0, 20.0, 30.0, 40.0]).unwrap();
        let d = m.alloc_hbm("d", DType::Bf16, &[2, 2]).unwrap();
        let srcs = [
            DmaOperand::View(&a),
            DmaOperand::View(&b),
            DmaOperand::View(&h),
        ];
        dma_compute(
            &mut m,
            DmaOperand::View(&d),
            &srcs,
            ReduceOp::Add,
            None,
            true,
            OobMode::Error,
        )
        .unwrap();
        // numpy: (a.astype(f32) + b + h.astype(f32)).astype(bfloat16)
        let want: Vec<f32> = [11.5f32, 22.25, 30.0, 44.001]
            .iter()
            .map(|&v| half::bf16::from_f32(v).to_f32())
            .collect();
        assert_eq!(m.read_f32(&d).unwrap(), want);
    }

    #[test]
    fn scatter_rmw_adds_into_indirect_rows() {
        let mut m = Memory::new(Target::Cayman);
        let t = m.alloc_hbm("t", DType::F32, &[3, 2]).unwrap();
        m.write_f32(&t, &[1.0; 6]).unwrap();
        let idx = m.alloc_sbuf(DType::I32, &[2, 1]).unwrap();
        m.write_i64(&idx, &[2, 7]).unwrap();
        let acc = Access::vector_offset(&t, 0, &idx).unwrap();
        let s = tile(&mut m, &[5.0, 6.0, 7.0, 8.0], &[2, 2]);
        let srcs = [DmaOperand::Access(&acc), DmaOperand::View(&s)];
        let r = dma_compute(
            &mut m,
            DmaOperand::Access(&acc),
            &srcs,
            ReduceOp::Add,
            None,
            true,
            OobMode::Error,
        );
        assert!(matches!(
            r,
            Err(EmuError::IndexOutOfBounds { value: 7, .. })
        ));
        assert_eq!(m.read_f32(&t).unwrap(), vec![1.0; 6]);
        dma_compute(
            &mut m,
            DmaOperand::Access(&acc),
            &srcs,
            ReduceOp::Add,
            None,
            true,
            OobMode::Skip,
        )
        .unwrap();
        assert_eq!(m.read_f32(&t).unwrap(), vec![1., 1., 1., 1., 6., 7.]);
    }

    #[test]
    fn gather_rmw_adds_indirect_rows_into_the_tile() {
        let mut m = Memory::new(Target::Cayman);
        let t = m.alloc_hbm("t", DType::F32, &[3, 2]).unwrap();
        m.write_f32(&t, &[1., 2., 3., 4., 5., 6.]).unwrap();
        let idx = m.alloc_sbuf(DType::I32, &[2, 1]).unwrap();
        m.write_i64(&idx, &[2, -1]).unwrap();
        let acc = Access::vector_offset(&t, 0, &idx).unwrap();
        let d = tile(&mut m, &[10.0, 20.0, 30.0, 40.0], &[2, 2]);
        let srcs = [DmaOperand::View(&d), DmaOperand::Access(&acc)];
        dma_compute(
            &mut m,
            DmaOperand::View(&d),
            &srcs,
            ReduceOp::Add,
            Some(&[1.0, 1.0]),
            true,
            OobMode::Skip,
        )
        .unwrap();
        // Skipped row -1 adds zero.
        assert_eq!(m.read_f32(&d).unwrap(), vec![15.0, 26.0, 30.0, 40.0]);
    }

    #[test]
    fn rejects_what_the_docs_reject() {
        let mut m = Memory::new(Target::Cayman);
        let a = tile(&mut m, &[1.0; 4], &[2, 2]);
        let d = m.alloc_hbm("d", DType::F32, &[2, 2]).unwrap();
        let one = [DmaOperand::View(&a)];
        let r = dma_compute(
            &mut m,
            DmaOperand::View(&d),
            &one,
            ReduceOp::Add,
            Some(&[2.0]),
            true,
            OobMode::Error,
        );
        assert!(matches!(r, Err(EmuError::Unsupported { .. })));
        let many: Vec<DmaOperand<'_>> = (0..17).map(|_| DmaOperand::View(&a)).collect();
        let r = dma_compute(
            &mut m,
            DmaOperand::View(&d),
            &many,
            ReduceOp::Add,
            None,
            true,
            OobMode::Error,
        );
        assert!(matches!(r, Err(EmuError::Shape { .. })));
        let idx = m.alloc_sbuf(DType::I32, &[2, 1]).unwrap();
        m.write_i64(&idx, &[0, 1]).unwrap();
        let acc = Access::vector_offset(&d, 0, &idx).unwrap();
        let srcs = [DmaOperand::Access(&acc), DmaOperand::View(&a)];
        let r = dma_compute(
            &mut m,
            DmaOperand::Access(&acc),
            &srcs,
            ReduceOp::Add,
            None,
            false,
            OobMode::Error,
        );
        assert!(matches!(r, Err(EmuError::Unsupported { .. })));
        // Neither source is the destination.
        let other = tile(&mut m, &[0.0; 4], &[2, 2]);
        let r = dma_compute(
            &mut m,
            DmaOperand::View(&other),
            &srcs,
            ReduceOp::Add,
            None,
            true,
            OobMode::Error,
        );
        assert!(matches!(r, Err(EmuError::InvalidAccess { .. })));
    }
}
