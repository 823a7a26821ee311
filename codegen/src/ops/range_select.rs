//! RangeSelect (`CoreV3GenImpl::visitInstRangeSelect`, 0xBC, S2D2_RS) and its companion 0x9B
//! (DveReadAccumulator, D1_RD: the header layout; the seed does not transcribe it) that reads the
//! max-reduced result out to `reduce_res`.
//!
//! The two f32 words at +0x10/+0x14 are the seed's lower bound (the integer operand converted
//! to f32) and upper bound (raw f32), see `formats::range_select`. The seed says the compiler's
//! `backend::checkBoundRange` helpers validate them just before the stores but not what they
//! check, so no bound check is made here.

use super::fast::{self, Ctx, Words};
use super::{active, static_only, wire};
use crate::arch::ArchModel;
use crate::arch::CoreGen;
use crate::bundle::{Bundle, Sink, setup_header, setup_sync};
use crate::enums::{ALU_MAX, BirAluOp, RS_COMP_OPS, accum_to_wire, alu_to_wire};
use crate::error::EncodeError;
use crate::formats::{DVE_READ_ACCUMULATOR, RANGE_SELECT, range_select as rs, read_acc as rd};
use crate::model::{AccessPattern, Instruction, RangeSelect, ScalarOperand};
use crate::tensor::assign_static_pattern;

/// The wire byte of a comparison op, if RangeSelect accepts it.
fn comp_wire(op: BirAluOp, arch: &ArchModel) -> Option<u8> {
    alu_to_wire(op, arch.core).filter(|w| RS_COMP_OPS.contains(w))
}

/// [`comp_wire`] as a table per core generation (V2/V3, V4), 0 where RangeSelect rejects the
/// op (0 is no comparison op): one load in the fast path instead of a jump table. A `const` so
/// that the crate inlining the fast path holds the table itself.
const COMP_WIRE: [[u8; 33]; 2] = {
    const fn row(core: CoreGen) -> [u8; 33] {
        let mut t = [0u8; 33];
        let mut i = 0;
        while i < 33 {
            let op = BirAluOp::ALL[i];
            if let Some(w) = alu_to_wire(op, core) {
                let mut k = 0;
                while k < RS_COMP_OPS.len() {
                    if RS_COMP_OPS[k] == w {
                        t[i] = w;
                    }
                    k += 1;
                }
            }
            i += 1;
        }
        t
    }
    [row(CoreGen::V3), row(CoreGen::V4)]
};

/// The fast path's [`comp_wire`].
#[inline(always)]
fn comp_wire_fast(op: BirAluOp, arch: &ArchModel) -> Option<u8> {
    let w = COMP_WIRE[(arch.core == CoreGen::V4) as usize][op as usize];
    (w != 0).then_some(w)
}

fn comp(op: BirAluOp, arch: &ArchModel) -> Result<u8, EncodeError> {
    comp_wire(op, arch).ok_or(EncodeError::AluNotEncodable(op))
}

/// The reduce command's wire byte, if RangeSelect accepts it (idle, accumulate, zero-accumulate).
#[inline(always)]
fn cmd_wire(a: crate::enums::BirAccumulation) -> Option<u8> {
    accum_to_wire(a).filter(|c| matches!(c, 0 | 2 | 3))
}

#[inline(always)]
fn bound(o: ScalarOperand) -> (u8, u32) {
    match o {
        ScalarOperand::Imm(f) => (0, f.to_bits()),
        ScalarOperand::Ptr(p) => (1, p),
        ScalarOperand::RegPtr(r) => (2, r as u32),
    }
}

pub(super) fn encode<S: Sink>(
    inst: &Instruction,
    op: &RangeSelect,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    if op.src.num_elements_per_partition() != op.dst.num_elements_per_partition() {
        return Err(EncodeError::NumElesMismatch);
    }
    let src = static_only(&op.src, "range_select src_mem_pattern")?;
    let dst = static_only(&op.dst, "range_select dst_mem_pattern")?;
    let res = static_only(&op.reduce_res, "dve_read_accumulator dst_mem_pattern")?;
    let (lo, hi) = (wire(src.dtype, arch), wire(dst.dtype, arch));
    if lo > 0xF {
        return Err(EncodeError::DtypeNotEncodable(src.dtype));
    }
    if hi > 0xF {
        return Err(EncodeError::DtypeNotEncodable(dst.dtype));
    }
    let cmd = cmd_wire(op.reduce_cmd).ok_or(EncodeError::AccumNotEncodable(op.reduce_cmd))?;

    let b = sink.begin()?;
    setup_header(b, RANGE_SELECT.opcode);
    setup_sync(b, &inst.sync, true, false)?;
    rs::ACTIVE.put_u8(b, active(&op.src, arch)?);
    rs::IN_OUT_DTYPE.put_u8(b, lo | hi << 4);
    rs::REDUCE_CMD.put_u8(b, cmd);
    rs::REDUCE_OP.put_u8(b, ALU_MAX);
    rs::LOWER_BOUND.put_u32(b, (op.lower_bound as f32).to_bits());
    rs::UPPER_BOUND.put_u32(b, op.upper_bound.to_bits());
    assign_static_pattern(rs::SRC.slot::<12>(b), src, 2, arch)?;
    rs::COMP_OP0.put_u8(b, comp(op.comp_op0, arch)?);
    rs::COMP_OP1.put_u8(b, comp(op.comp_op1, arch)?);
    let (s0, v0) = bound(op.bound0);
    let (s1, v1) = bound(op.bound1);
    rs::BOUND0_SRC.put_u8(b, s0);
    rs::BOUND1_SRC.put_u8(b, s1);
    rs::BOUND0.put_u32(b, v0);
    rs::BOUND1.put_u32(b, v1);
    assign_static_pattern(rs::DST.slot::<12>(b), dst, 2, arch)?;
    sink.end();

    let b = sink.begin()?;
    setup_header(b, DVE_READ_ACCUMULATOR.opcode);
    setup_sync(b, &inst.sync, false, true)?;
    rd::DST_ELEMENT_COUNT.put_u32(b, 1);
    rd::DTYPE.put_u8(b, wire(res.dtype, arch));
    rd::ACTIVE.put_u8(b, active(&op.reduce_res, arch)?);
    assign_static_pattern(rd::DST.slot::<8>(b), res, 1, arch)?;
    sink.end();
    Ok(())
}

/// The GENERATE fast path (see `fast`): the same two bundles, or `None`. The element-count
/// assert compares the products of the packed count runs, which equal the reference's products
/// whenever both packs succeed.
#[inline(always)]
pub(super) fn generate(
    inst: &Instruction,
    op: &RangeSelect,
    cx: Ctx,
    out: &mut [Bundle],
) -> Option<usize> {
    let (AccessPattern::Static(src), AccessPattern::Static(dst), AccessPattern::Static(res)) =
        (&op.src, &op.dst, &op.reduce_res)
    else {
        return None;
    };
    let arch = cx.arch;
    let s = fast::tensor::<2>(src, cx.arch)?;
    let d = fast::tensor::<2>(dst, cx.arch)?;
    let (lo, hi) = (cx.wire(src.dtype), cx.wire(dst.dtype));
    let ok = (fast::lanes_product::<2>(s.nums) == fast::lanes_product::<2>(d.nums))
        & (lo <= 0xF)
        & (hi <= 0xF);
    if !ok {
        return None;
    }
    let [b0, b1] = fast::room::<2>(out)?;
    let (first, last) = fast::events_pair(&inst.sync);
    let mut w = Words::new(b0, RANGE_SELECT.opcode);
    w.band(first);
    w.u8(rs::ACTIVE, cx.active(src.partitions)?);
    w.u8(rs::IN_OUT_DTYPE, lo | hi << 4);
    w.u8(rs::REDUCE_CMD, cmd_wire(op.reduce_cmd)?);
    w.u8(rs::REDUCE_OP, ALU_MAX);
    w.u32(rs::LOWER_BOUND, (op.lower_bound as f32).to_bits());
    w.u32(rs::UPPER_BOUND, op.upper_bound.to_bits());
    w.slot::<2>(rs::SRC, s);
    w.u8(rs::COMP_OP0, comp_wire_fast(op.comp_op0, arch)?);
    w.u8(rs::COMP_OP1, comp_wire_fast(op.comp_op1, arch)?);
    let (s0, v0) = bound(op.bound0);
    let (s1, v1) = bound(op.bound1);
    w.u8(rs::BOUND0_SRC, s0);
    w.u8(rs::BOUND1_SRC, s1);
    w.u32(rs::BOUND0, v0);
    w.u32(rs::BOUND1, v1);
    w.slot::<2>(rs::DST, d);

    let mut w = Words::new(b1, DVE_READ_ACCUMULATOR.opcode);
    w.band(last);
    w.u32(rd::DST_ELEMENT_COUNT, 1);
    w.u8(rd::DTYPE, cx.wire(res.dtype));
    w.u8(rd::ACTIVE, cx.active(res.partitions)?);
    w.slot::<1>(rd::DST, fast::tensor::<1>(res, cx.arch)?);
    Some(2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::Target;

    #[test]
    fn comparison_table_matches_the_converter() {
        for t in Target::ALL {
            for op in BirAluOp::ALL {
                assert_eq!(
                    comp_wire_fast(op, t.model()),
                    comp_wire(op, t.model()),
                    "{op:?}"
                );
            }
        }
    }
}
