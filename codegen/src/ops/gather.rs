//! Gather (`visitInstGather`): one {0x68 reg_load, 0x67 pool_buffer_load} pair per 512-element
//! chunk of the index. The 0x68 half carries the data source and the destination; the 0x67 half
//! carries the index (CC S4_PB layout), the chunk's element count and the constant 0x1FF.
//!
//! ASSUMPTION: the chunks differ only in the continuation flag (0x68 +0x24: 0 on chunk 0, 1
//! after; the seed says it "chains" the chunks) and in the chunk's element count (0x67 +0x28);
//! the access patterns are the same in every chunk. The seed does not say more.

use super::fast::{self, Ctx, Words};
use super::{active, gather_chunk, gather_chunks, wire};
use crate::arch::ArchModel;
use crate::bundle::{Bundle, Sink, setup_header, setup_sync};
use crate::error::EncodeError;
use crate::formats::{POOL_BUFFER_LOAD, REG_LOAD, pool_buffer_load as pb, reg_load as rl};
use crate::indirect::assign_access_4d;
use crate::model::{AccessPattern, Gather, Instruction};
use crate::tensor::assign_static_pattern;

/// 0x68 +0x28 `vector_depth`: written 0 (seed).
const REG_LOAD_VECTOR_DEPTH: u32 = 0;

/// 0x67 +0x2C `vector_depth`: the constant 0x1FF (seed master table, CC S4_PB).
const POOL_VECTOR_DEPTH: u32 = 0x1FF;

pub(super) fn encode<S: Sink>(
    inst: &Instruction,
    op: &Gather,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    if op.data.is_tensor_indirect_dynamic_ap() {
        return Err(EncodeError::PoolBufferLoadIndirect);
    }
    // The index rides in the plain 0x67 slot, which is the POOL_BUFFER_LOAD the assert names.
    let AccessPattern::Static(index) = &op.index else {
        return Err(EncodeError::PoolBufferLoadIndirect);
    };
    let n = index.num_elements_per_partition();
    if n == 0 {
        return Err(EncodeError::ZeroNumElem);
    }
    let chunks = gather_chunks(n);

    // Chunk-0 templates without sync; later chunks copy and patch them.
    let mut t68: Bundle = [0; 64];
    setup_header(&mut t68, REG_LOAD.opcode);
    rl::IN_DTYPE.put_u8(&mut t68, wire(op.data.dtype(), arch));
    rl::OUT_DTYPE.put_u8(&mut t68, wire(op.dst.dtype(), arch));
    rl::ACTIVE.put_u8(&mut t68, active(&op.data, arch)?);
    rl::VECTOR_DEPTH.put_u32(&mut t68, REG_LOAD_VECTOR_DEPTH);
    assign_access_4d(rl::SRC.slot(&mut t68), &op.data, arch)?;
    assign_access_4d(rl::DST.slot(&mut t68), &op.dst, arch)?;

    let mut t67: Bundle = [0; 64];
    setup_header(&mut t67, POOL_BUFFER_LOAD.opcode);
    pb::IN_DTYPE.put_u8(&mut t67, wire(index.dtype, arch));
    pb::ACTIVE.put_u8(&mut t67, active(&op.index, arch)?);
    pb::VECTOR_DEPTH.put_u32(&mut t67, POOL_VECTOR_DEPTH);
    assign_static_pattern(pb::SRC.slot::<20>(&mut t67), index, 4, arch)?;

    for k in 0..chunks {
        let first = k == 0;
        let last = k + 1 == chunks;
        let (continuation, count) = gather_chunk(k, n);
        let b = sink.begin()?;
        *b = t68;
        rl::OPTIONS.put_u16(b, continuation);
        setup_sync(b, &inst.sync, first, false)?;
        sink.end();

        let b = sink.begin()?;
        *b = t67;
        pb::ELEM_COUNT.put_u32(b, count);
        setup_sync(b, &inst.sync, false, last)?;
        sink.end();
    }
    Ok(())
}

/// The GENERATE fast path (see `fast`): the same chunk pairs, or `None`. Chunk 0 is built in
/// place; every later chunk is a copy of it (whole bundles) with its continuation flag and
/// element count patched; the sync bands go on the first and the last bundle at the end.
#[inline(always)]
pub(super) fn generate(
    inst: &Instruction,
    op: &Gather,
    cx: Ctx,
    out: &mut [Bundle],
) -> Option<usize> {
    let (AccessPattern::Static(data), AccessPattern::Static(index)) = (&op.data, &op.index) else {
        return None;
    };
    let idx = fast::tensor::<4>(index, cx.arch)?;
    // A successful pack has no zero count and at most four counts below 2^16, so n is the exact
    // element count and n >= 1.
    let n = fast::lanes_product::<4>(idx.nums);
    let chunks = gather_chunks(n);
    let out = out.get_mut(..usize::try_from(chunks).ok()?.checked_mul(2)?)?;
    let src = fast::tensor::<4>(data, cx.arch)?;
    let dst = fast::operand::<4>(&op.dst, cx.arch)?;
    let (a_active, c_active) = (cx.active(data.partitions)?, cx.active(index.partitions)?);
    let (head, rest) = out.split_at_mut(2);
    let [a0, c0] = head else {
        return None;
    };

    let mut w = Words::new(a0, REG_LOAD.opcode);
    w.u8(rl::IN_DTYPE, cx.wire(data.dtype));
    w.u8(rl::OUT_DTYPE, cx.wire(dst.dtype));
    w.u8(rl::ACTIVE, a_active);
    w.u32(rl::VECTOR_DEPTH, REG_LOAD_VECTOR_DEPTH);
    w.slot::<4>(rl::SRC, src);
    w.slot::<4>(rl::DST, dst.slot);

    let mut w = Words::new(c0, POOL_BUFFER_LOAD.opcode);
    w.u8(pb::IN_DTYPE, cx.wire(index.dtype));
    w.u8(pb::ACTIVE, c_active);
    w.u32(pb::VECTOR_DEPTH, POOL_VECTOR_DEPTH);
    w.slot::<4>(pb::SRC, idx);

    for (k, pair) in (1..).zip(rest.chunks_exact_mut(2)) {
        let [a, c] = pair else { continue };
        let (continuation, count) = gather_chunk(k, n);
        *a = *a0;
        rl::OPTIONS.put_u16(a, continuation);
        *c = *c0;
        pb::ELEM_COUNT.put_u32(c, count);
    }
    let (continuation, count) = gather_chunk(0, n);
    rl::OPTIONS.put_u16(a0, continuation);
    pb::ELEM_COUNT.put_u32(c0, count);
    let (first, last) = fast::events_pair(&inst.sync);
    if (first | last) != 0 {
        fast::put_events(a0, first);
        if let Some(c) = out.last_mut() {
            fast::put_events(c, last);
        }
    }
    Some(out.len())
}
