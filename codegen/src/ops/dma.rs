//! The DMA descriptors: DMA_DIRECT2D 0xB8 and DMA_INDIRECT1D 0xBB (header structs, GPSIMD
//! wiki; no seed or CC encoder). Addresses are ADDR8 immediates the caller resolved (a tensor
//! identity plus byte offset becomes a 64-bit address before encoding).
//!
//! ADDR8 (ASSUMPTION, the immediate width is not public): byte 7 is the marker (bundle-layouts
//! §4x.6, mask 0xFC; 0x00 = immediate), bytes 0..6 hold the address, byte 6 included in the
//! reserved high bits, so an immediate must fit 48 bits; a larger one is an error rather than a
//! silent truncation. Every DMA side is immediate here (no register or shape-register form).

use super::{in_wire, wire};
use crate::addr4::{ADDR_MASK, REG_BIT};
use crate::arch::ArchModel;
use crate::bundle::{Sink, setup_header, setup_sync};
use crate::error::EncodeError;
use crate::formats::pe_dma::{
    ADDR8_IMM_BITS, DMA_FLAGS_IDX_BOUND_IS_ERR, DMA_FLAGS_NON_UNIQUE_DST_IDX,
    DMA_INDIRECT_IDX_CHANNELS, DMA_INDIRECT_MAX_NUM,
};
use crate::formats::{dma_direct2d as d2, dma_indirect as di};
use crate::model::{
    BoundCheckReg, DmaCompletion, DmaDirect2d, DmaIndirect, DmaPattern2d, Instruction, Start,
};

/// The ADDR8 word of an immediate address (marker 0x00 in byte 7).
pub fn addr8(addr: u64) -> Result<u64, EncodeError> {
    if addr >> ADDR8_IMM_BITS != 0 {
        return Err(EncodeError::Addr8OutOfRange(addr));
    }
    Ok(addr)
}

fn bit(on: bool, b: u8) -> u8 {
    if on { b } else { 0 }
}

pub(super) fn bound(r: BoundCheckReg) -> Result<u8, EncodeError> {
    r.byte().ok_or(EncodeError::BoundCheckReg(r))
}

pub(super) fn configs(c: &DmaCompletion) -> Result<u8, EncodeError> {
    if c.priority_class > 4 {
        return Err(EncodeError::DmaPriorityClass(c.priority_class));
    }
    Ok(c.priority_class)
}

pub(super) fn nonzero(v: u16, what: &'static str) -> Result<u16, EncodeError> {
    if v == 0 {
        Err(EncodeError::DmaZero(what))
    } else {
        Ok(v)
    }
}

fn side_2d(p: &DmaPattern2d, which: &'static str) -> Result<(), EncodeError> {
    let (num, size) = match which {
        "src" => ("src_num_elem", "src_elem_size"),
        _ => ("dst_num_elem", "dst_elem_size"),
    };
    nonzero(p.num[0], num)?;
    nonzero(p.num[1], num)?;
    nonzero(p.elem_size, size)?;
    Ok(())
}

pub(super) fn encode_direct2d<S: Sink>(
    inst: &Instruction,
    op: &DmaDirect2d,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    side_2d(&op.src, "src")?;
    side_2d(&op.dst, "dst")?;
    if op.compute_op == crate::model::DgeComputeOp::None && op.src.bytes() != op.dst.bytes() {
        return Err(EncodeError::DmaMemcpySize {
            src: op.src.bytes(),
            dst: op.dst.bytes(),
        });
    }
    let (src_addr, dst_addr) = (addr8(op.src.addr)?, addr8(op.dst.addr)?);
    let (src_bound, dst_bound) = (bound(op.src_bound_reg)?, bound(op.dst_bound_reg)?);
    let cfg = configs(&op.completion)?;
    let in_dtype = in_wire(op.in_dtype, arch)?;
    let b = sink.begin()?;
    setup_header(b, 0xB8);
    setup_sync(b, &inst.sync, true, true)?;
    d2::DMA_CONFIGS.put_u8(b, cfg);
    d2::SEMAPHORE.put_u8(b, op.completion.semaphore);
    d2::SEM_INCREMENT.put_u8(b, op.completion.sem_increment);
    d2::COMPUTE_OP.put_u8(b, op.compute_op as u8);
    put_u64(b, d2::SRC_START_ADDR.offset, src_addr);
    d2::SRC_STEP_ELEM0.put_u32(b, op.src.step[0] as u32);
    d2::SRC_STEP_ELEM1.put_u32(b, op.src.step[1] as u32);
    d2::SRC_NUM_ELEM0.put_u16(b, op.src.num[0]);
    d2::SRC_NUM_ELEM1.put_u16(b, op.src.num[1]);
    d2::SRC_ELEM_SIZE.put_u16(b, op.src.elem_size);
    d2::SRC_BOUND_REG.put_u8(b, src_bound);
    d2::DST_BOUND_REG.put_u8(b, dst_bound);
    put_u64(b, d2::DST_START_ADDR.offset, dst_addr);
    d2::DST_STEP_ELEM0.put_u32(b, op.dst.step[0] as u32);
    d2::DST_STEP_ELEM1.put_u32(b, op.dst.step[1] as u32);
    d2::DST_NUM_ELEM0.put_u16(b, op.dst.num[0]);
    d2::DST_NUM_ELEM1.put_u16(b, op.dst.num[1]);
    d2::DST_ELEM_SIZE.put_u16(b, op.dst.elem_size);
    d2::IN_DTYPE.put_u8(b, in_dtype);
    d2::OUT_DTYPE.put_u8(b, wire(op.out_dtype, arch));
    sink.end();
    Ok(())
}

pub(super) fn put_u64(b: &mut [u8; 64], off: u8, v: u64) {
    let o = off as usize;
    b[o..o + 8].copy_from_slice(&v.to_le_bytes());
}

/// The `src_idx_start_addr` word: register mode, or an immediate the validator's index checks
/// accept (u32-aligned; in SBUF only from partition 0, since 128 index channels follow).
pub(super) fn src_index_word(s: &Start, arch: &ArchModel) -> Result<u32, EncodeError> {
    let w = crate::addr4::word(s, arch)?;
    if w & REG_BIT != 0 {
        return Ok(w);
    }
    let a = w & ADDR_MASK;
    if !a.is_multiple_of(4) {
        return Err(EncodeError::DmaIndirectIndex(
            "src_idx_start_addr must be 4-byte aligned (u32 indices)",
        ));
    }
    let part = a.checked_div(arch.sbuf_partition_stride).unwrap_or(0);
    if arch.in_sbuf(a) && part + DMA_INDIRECT_IDX_CHANNELS as u32 > arch.partitions {
        return Err(EncodeError::DmaIndirectIndex(
            "src_idx_start_addr in SBUF must start at partition 0 (128 index channels)",
        ));
    }
    Ok(w)
}

pub(super) fn encode_indirect<S: Sink>(
    inst: &Instruction,
    op: &DmaIndirect,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    for (p, num, size) in [
        (&op.src, "src_num_elem", "src_elem_size"),
        (&op.dst, "dst_num_elem", "dst_elem_size"),
    ] {
        nonzero(p.num, num)?;
        nonzero(p.elem_size, size)?;
        if p.num > DMA_INDIRECT_MAX_NUM {
            return Err(EncodeError::DmaIndirectNum(p.num));
        }
    }
    let (src_addr, dst_addr) = (addr8(op.src.addr)?, addr8(op.dst.addr)?);
    let src_idx = src_index_word(&op.src_idx, arch)?;
    let dst_idx = crate::addr4::word(&op.dst_idx, arch)?;
    if dst_idx & REG_BIT != 0 {
        return Err(EncodeError::DmaIndirectIndex(
            "dst_idx_start_addr cannot be register-mode",
        ));
    }
    // The index variant of BOUND_CHECK_REG: a disabled OOB notification needs idx_bound_is_err.
    for r in [op.src_idx_bound_reg, op.dst_idx_bound_reg] {
        if r.disable_oob_error_notif && !op.idx_bound_is_err {
            return Err(EncodeError::BoundCheckReg(r));
        }
    }
    let (src_bound, dst_bound) = (bound(op.src_idx_bound_reg)?, bound(op.dst_idx_bound_reg)?);
    let cfg = configs(&op.completion)?;
    let in_dtype = in_wire(op.in_dtype, arch)?;
    let flags = op.direction as u8
        | bit(op.idx_bound_is_err, DMA_FLAGS_IDX_BOUND_IS_ERR)
        | bit(op.non_unique_dst_idx, DMA_FLAGS_NON_UNIQUE_DST_IDX);
    let b = sink.begin()?;
    setup_header(b, 0xBB);
    setup_sync(b, &inst.sync, true, true)?;
    di::SEMAPHORE.put_u8(b, op.completion.semaphore);
    di::SEM_INCREMENT.put_u8(b, op.completion.sem_increment);
    di::IDX_NUM_ACTIVE_CHANNELS.put_u8(b, DMA_INDIRECT_IDX_CHANNELS);
    di::FLAGS.put_u8(b, flags);
    put_u64(b, di::SRC_START_ADDR.offset, src_addr);
    di::SRC_STEP_ELEM.put_u32(b, op.src.step as u32);
    di::SRC_NUM_ELEM.put_u16(b, op.src.num);
    di::SRC_ELEM_SIZE.put_u16(b, op.src.elem_size);
    put_u64(b, di::DST_START_ADDR.offset, dst_addr);
    di::DST_STEP_ELEM.put_u32(b, op.dst.step as u32);
    di::DST_NUM_ELEM.put_u16(b, op.dst.num);
    di::DST_ELEM_SIZE.put_u16(b, op.dst.elem_size);
    di::SRC_IDX_START_ADDR.put_u32(b, src_idx);
    di::DST_IDX_START_ADDR.put_u32(b, dst_idx);
    di::IN_DTYPE.put_u8(b, in_dtype);
    di::OUT_DTYPE.put_u8(b, wire(op.out_dtype, arch));
    di::SRC_IDX_BOUND_REG.put_u8(b, src_bound);
    di::DST_IDX_BOUND_REG.put_u8(b, dst_bound);
    di::COMPUTE_OP.put_u8(b, op.compute_op as u8);
    di::DMA_CONFIGS.put_u8(b, cfg);
    sink.end();
    Ok(())
}
