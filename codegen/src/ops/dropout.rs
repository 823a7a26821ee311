//! Dropout (`visitInstDropout`, 0x7F, S3D3_DROPOUT): one bundle, TENSOR3D slots, the threshold
//! as a scalar-bank pointer and its dtype, and the RNG mode byte.
//!
//! The RNG seed (seed GOTCHA): the bundle has no seed field; "the RNG seed/state is established
//! out-of-band by a separate PseudoSetRngSeed pseudo-instruction (s_rng_opcode) ... a
//! reimplementation must emit a seed-setter ahead of the dropout". What the sources pin of that
//! setter: its name (PseudoSetRngSeed), that it is a pseudo-instruction (the PSEUDO band
//! 0xC1..0xDF, compiler-generated and runtime-translated) and its validator predicate name
//! (`s_rng_opcode`). Not pinned: its opcode within the band and every byte of its layout (the
//! irbuilder's `set_rng_seed` / `rand_set_state` (0x78) are other surfaces with no byte map
//! either). So a dropout that asks for a seed (`rng_seed: Some`) is refused in every mode with
//! [`SEED_SETTER_UNPINNED`] (the gate in `ops::check_target`) instead of inventing a setter; a
//! dropout without one draws from the current RNG stream and is the single 0x7F bundle.

use super::fast::{self, Ctx, Words};
use super::{active, wire};
use crate::arch::ArchModel;
use crate::bundle::{Bundle, Sink, setup_header, setup_sync};
use crate::error::EncodeError;
use crate::formats::{DROPOUT, dropout as dr};
use crate::indirect::assign_access_3d;
use crate::model::{Dropout, Instruction};

/// The refusal of a dropout that asks for its RNG seed to be set.
pub(crate) const SEED_SETTER_UNPINNED: EncodeError = EncodeError::Unpinned {
    op: "dropout seed setter PseudoSetRngSeed",
    missing: "no source gives its opcode or bytes (the seed names only the pseudo-instruction \
              and its validator s_rng_opcode); drop `rng_seed` to draw from the current RNG \
              stream",
};

pub(super) fn encode<S: Sink>(
    inst: &Instruction,
    op: &Dropout,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    let b = sink.begin()?;
    setup_header(b, DROPOUT.opcode);
    setup_sync(b, &inst.sync, true, true)?;
    dr::IN_DTYPE.put_u8(b, wire(op.src.dtype(), arch));
    dr::OUT_DTYPE.put_u8(b, wire(op.dst.dtype(), arch));
    dr::ACTIVE.put_u8(b, active(&op.src, arch)?);
    dr::THRESHOLD_IMM_PTR.put_u8(b, op.threshold_imm_ptr);
    dr::THRESHOLD_DTYPE.put_u8(b, wire(op.threshold_dtype, arch));
    dr::RNG_MODE.put_u8(b, op.rng_mode);
    assign_access_3d(dr::SRC.slot(b), &op.src, arch)?;
    assign_access_3d(dr::DST.slot(b), &op.dst, arch)?;
    sink.end();
    Ok(())
}

/// The GENERATE fast path (see `fast`): the same bundle, or `None`.
#[inline(always)]
pub(super) fn generate(
    inst: &Instruction,
    op: &Dropout,
    cx: Ctx,
    out: &mut [Bundle],
) -> Option<usize> {
    // A seed needs the unpinned setter: the reference encoder refuses it.
    if op.rng_seed.is_some() {
        return None;
    }
    let [b] = fast::room::<1>(out)?;
    // Each field is stored as soon as it is known (short live ranges, no spills); a later
    // failure leaves a partial bundle, which the reference encoder then overwrites.
    let mut w = Words::new(b, DROPOUT.opcode);
    w.band(fast::events_single(&inst.sync)?);
    let src = fast::operand::<3>(&op.src, cx.arch)?;
    w.slot::<3>(dr::SRC, src.slot);
    w.u8(dr::IN_DTYPE, cx.wire(src.dtype));
    w.u8(dr::ACTIVE, cx.active(src.partitions)?);
    let dst = fast::operand::<3>(&op.dst, cx.arch)?;
    w.slot::<3>(dr::DST, dst.slot);
    w.u8(dr::OUT_DTYPE, cx.wire(dst.dtype));
    w.u8(dr::THRESHOLD_IMM_PTR, op.threshold_imm_ptr);
    w.u8(dr::THRESHOLD_DTYPE, cx.wire(op.threshold_dtype));
    w.u8(dr::RNG_MODE, op.rng_mode);
    Some(1)
}
