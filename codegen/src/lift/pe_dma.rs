//! Lifting of the PE, MX, DMA and event formats: {0x01, 0x02} -> `Matmul`, {0x09, 0x0A} ->
//! `MatmulMx`, 0xE3 -> `QuantizeMx`, 0xB8 -> `DmaDirect2d`, 0xBB -> `DmaIndirect`, 0xA0 ->
//! `EventSemaphore`, read through the target's layout.
//!
//! Canonical forms (beyond the parent module's): a Matmul's weights and moving operands take the
//! row count K of the MATMUL bundle as their partition count and its dst the column count N; on
//! sunda/cayman (no dst dtype byte) the dst dtype is `float32`; an fp32r PE input (written as the
//! fp32 tag with fp32_mode High) lifts as `float32`; an EventSemaphore or Matmul
//! update is never lifted (the encoders write none). An MX slot lifts to a data AP with the
//! slot's partition count and the dtype byte (its canonical BIR dtype) and one dim (step +-1,
//! `k_extent`, or a quarter of it when the canonical dtype is an x4 container, as fp4's is;
//! none for a count of 1), and a
//! scale AP in SBUF at (`scale_part`, the word's in-partition offset), dtype `float8_e8m0fnu`;
//! the indirect arm lifts both to TensorIndirect APs sharing the index (index_arg_id 0). Bytes the model cannot express decode to
//! placeholders that the re-encoding check reports.

use super::{byte, dtype, dword, int, start, sync, tensor_ap};
use crate::arch::{ArchModel, CoreGen};
use crate::bundle::Bundle;
use crate::dtype::BirDtype;
use crate::enums::{BirUpdateMode, BirWaitMode};
use crate::fields::Field;
use crate::fields::Value;
use crate::formats::pe_dma::{
    DMA_FLAGS_DIRECTION, DMA_FLAGS_IDX_BOUND_IS_ERR, DMA_FLAGS_NON_UNIQUE_DST_IDX,
};
use crate::formats::{
    dma_direct2d as d2, dma_indirect as di, event_semaphore as es, events, ldweights as lw,
    matmul as mm, mx_pe, quantize_mx as qm,
};
use crate::indirect::MxSlot;
use crate::model::*;

/// Lifts one sequence of this group (`group_len` fixed its shape).
pub(super) fn lift(g: &[&Bundle], arch: &ArchModel) -> Instruction {
    use crate::formats::{DMA_DIRECT2D, DMA_INDIRECT, LDWEIGHTS, LDWEIGHTS_MX, QUANTIZE_MX};
    match *g {
        [a, b] if a[0] == LDWEIGHTS.opcode => {
            let mut i = Instruction::new(Op::Matmul(matmul(a, b, arch)));
            i.sync.wait = sync(a, a).wait;
            i
        }
        [a, b] if a[0] == LDWEIGHTS_MX.opcode => {
            let mut i = Instruction::new(Op::MatmulMx(matmul_mx(a, b, arch)));
            i.sync.wait = sync(a, a).wait;
            i
        }
        [a] if a[0] == QUANTIZE_MX.opcode => {
            Instruction::new(Op::QuantizeMx(quantize_mx(a, arch))).with_sync(sync(a, a))
        }
        [a] if a[0] == DMA_DIRECT2D.opcode => {
            Instruction::new(Op::DmaDirect2d(direct2d(a, arch))).with_sync(sync(a, a))
        }
        [a] if a[0] == DMA_INDIRECT.opcode => {
            Instruction::new(Op::DmaIndirect(indirect(a, arch))).with_sync(sync(a, a))
        }
        _ => Instruction::new(Op::EventSemaphore(event_semaphore(g[0]))),
    }
}

fn matmul(a: &Bundle, b: &Bundle, arch: &ArchModel) -> Matmul {
    let v4 = arch.core == CoreGen::V4;
    let k = byte(mm::NUM_ACTIVE_ROWS, b) as u32;
    let n = byte(mm::NUM_ACTIVE_COLS, b) as u32;
    let dst_dtype = if v4 {
        dtype(byte(mm::OUT_DTYPE, b), arch)
    } else {
        BirDtype::Float32
    };
    let transpose = if v4 {
        byte(lw::FLAGS, a) & 1 != 0
    } else {
        byte(lw::TRANSPOSE_MODE, a) != 0
    };
    let fp32 = byte(mm::FP32_MODE, b) as usize;
    // mariana's MATMUL has no perf_opt / quant_offset bytes: the LDWEIGHTS perf_opt stands in.
    let perf = byte(lw::PERF_OPT, a) as usize;
    Matmul {
        weights: tensor_ap(lw::SRC, a, k, dtype(byte(lw::IN_DTYPE, a), arch), arch).into(),
        moving: tensor_ap(mm::SRC, b, k, dtype(byte(mm::IN_DTYPE, b), arch), arch).into(),
        dst: tensor_ap(mm::DST, b, n, dst_dtype, arch).into(),
        fp32_mode: PeFp32Mode::ALL
            .get(fp32)
            .copied()
            .unwrap_or(PeFp32Mode::None),
        perf_opt: PerfOptMode::ALL
            .get(perf)
            .copied()
            .unwrap_or(PerfOptMode::None),
        quant_offset: if v4 {
            0
        } else {
            int(mm::QUANT_OFFSET, b) as u16
        },
        psum_accumulate_flags: byte(mm::PSUM_ACCUMULATE_FLAGS, b),
        psum_zero_region: byte(mm::PSUM_ZERO_REGION, b),
        transpose,
    }
}

fn compute_op(f: Field, a: &Bundle) -> DgeComputeOp {
    DgeComputeOp::ALL
        .get(byte(f, a) as usize)
        .copied()
        .unwrap_or(DgeComputeOp::None)
}

fn i32_of(f: Field, a: &Bundle) -> i32 {
    int(f, a) as u32 as i32
}

fn direct2d(a: &Bundle, arch: &ArchModel) -> DmaDirect2d {
    let side = |addr, s0, s1, n0, n1, size| DmaPattern2d {
        addr: int(addr, a),
        step: [i32_of(s0, a), i32_of(s1, a)],
        num: [int(n0, a) as u16, int(n1, a) as u16],
        elem_size: int(size, a) as u16,
    };
    DmaDirect2d {
        src: side(
            d2::SRC_START_ADDR,
            d2::SRC_STEP_ELEM0,
            d2::SRC_STEP_ELEM1,
            d2::SRC_NUM_ELEM0,
            d2::SRC_NUM_ELEM1,
            d2::SRC_ELEM_SIZE,
        ),
        dst: side(
            d2::DST_START_ADDR,
            d2::DST_STEP_ELEM0,
            d2::DST_STEP_ELEM1,
            d2::DST_NUM_ELEM0,
            d2::DST_NUM_ELEM1,
            d2::DST_ELEM_SIZE,
        ),
        in_dtype: dtype(byte(d2::IN_DTYPE, a), arch),
        out_dtype: dtype(byte(d2::OUT_DTYPE, a), arch),
        compute_op: compute_op(d2::COMPUTE_OP, a),
        src_bound_reg: BoundCheckReg::from_byte(byte(d2::SRC_BOUND_REG, a)),
        dst_bound_reg: BoundCheckReg::from_byte(byte(d2::DST_BOUND_REG, a)),
        completion: DmaCompletion {
            semaphore: byte(d2::SEMAPHORE, a),
            sem_increment: byte(d2::SEM_INCREMENT, a),
            priority_class: byte(d2::DMA_CONFIGS, a),
        },
    }
}

fn indirect(a: &Bundle, arch: &ArchModel) -> DmaIndirect {
    let side = |addr, step, num, size| DmaPattern1d {
        addr: int(addr, a),
        step: i32_of(step, a),
        num: int(num, a) as u16,
        elem_size: int(size, a) as u16,
    };
    let flags = byte(di::FLAGS, a);
    DmaIndirect {
        direction: if flags & DMA_FLAGS_DIRECTION == DmaIndirectDirection::Save as u8 {
            DmaIndirectDirection::Save
        } else {
            DmaIndirectDirection::Load
        },
        idx_bound_is_err: flags & DMA_FLAGS_IDX_BOUND_IS_ERR != 0,
        non_unique_dst_idx: flags & DMA_FLAGS_NON_UNIQUE_DST_IDX != 0,
        src: side(
            di::SRC_START_ADDR,
            di::SRC_STEP_ELEM,
            di::SRC_NUM_ELEM,
            di::SRC_ELEM_SIZE,
        ),
        dst: side(
            di::DST_START_ADDR,
            di::DST_STEP_ELEM,
            di::DST_NUM_ELEM,
            di::DST_ELEM_SIZE,
        ),
        src_idx: start(dword(a, di::SRC_IDX_START_ADDR.offset as usize), arch),
        dst_idx: start(dword(a, di::DST_IDX_START_ADDR.offset as usize), arch),
        in_dtype: dtype(byte(di::IN_DTYPE, a), arch),
        out_dtype: dtype(byte(di::OUT_DTYPE, a), arch),
        src_idx_bound_reg: BoundCheckReg::from_byte(byte(di::SRC_IDX_BOUND_REG, a)),
        dst_idx_bound_reg: BoundCheckReg::from_byte(byte(di::DST_IDX_BOUND_REG, a)),
        compute_op: compute_op(di::COMPUTE_OP, a),
        completion: DmaCompletion {
            semaphore: byte(di::SEMAPHORE, a),
            sem_increment: byte(di::SEM_INCREMENT, a),
            priority_class: byte(di::DMA_CONFIGS, a),
        },
    }
}

fn event_semaphore(a: &Bundle) -> EventSemaphore {
    let wait = |mode: Field, idx: Field, value: Field| {
        BirWaitMode::from_wire(byte(mode, a)).map(|mode| SyncWait {
            mode,
            sem: byte(idx, a),
            value: int(value, a) as u32,
        })
    };
    let update = BirUpdateMode::from_wire(byte(es::EXT_UPDATE_MODE, a)).map(|mode| SyncUpdate {
        mode,
        sem: byte(es::EXT_UPDATE_IDX, a),
        value: if mode.writes_value() {
            int(es::EXT_UPDATE_VALUE, a) as u32
        } else {
            0
        },
    });
    EventSemaphore {
        wait0: wait(events::WAIT_MODE, events::WAIT_IDX, events::SEMAPHORE_VALUE),
        wait1: wait(es::EXT_WAIT_MODE, es::EXT_WAIT_IDX, es::EXT_WAIT_VALUE),
        update,
    }
}

/// The (data, scale) access patterns of an MX slot.
fn mx_aps(
    f: Field,
    b: &Bundle,
    parts: u32,
    dt: BirDtype,
    arch: &ArchModel,
) -> (AccessPattern, AccessPattern) {
    let slot = match f.read(b) {
        Value::Mx(m) => m,
        _ => MxSlot::read(&[0; 16]),
    };
    let stride = arch.sbuf_partition_stride;
    let scale_start = |w: u32, part: u8| match start(w, arch) {
        Start::Imm(_) => Start::Imm(MemLoc {
            space: Space::Sbuf,
            partition: part as u32,
            offset: w.checked_rem(stride).unwrap_or(w),
        }),
        s => s,
    };
    let st = |s: Start, dims: Dims, dtype: BirDtype| StaticAp {
        start: s,
        partitions: parts,
        dims,
        dtype,
        parent: 0,
    };
    match slot {
        MxSlot::Static {
            data,
            scale,
            k_extent,
            step_dir,
            scale_part,
            ..
        } => {
            let step = if step_dir == 0xFF { -1 } else { 1 };
            // `k_extent` counts elements; a wire code named after an x4 container (fp4 is
            // `float4_e2m1fn_x4`) holds four per element of the pattern, as the encoder wrote.
            let count = if dt.is_x4_packed() && k_extent % 4 == 0 {
                k_extent / 4
            } else {
                k_extent
            };
            let dims = if count == 1 {
                Dims::new()
            } else {
                Dims::from([Dim::new(step, count)])
            };
            (
                st(start(data, arch), dims, dt).into(),
                st(
                    scale_start(scale, scale_part),
                    Dims::new(),
                    BirDtype::Float8E8m0fnu,
                )
                .into(),
            )
        }
        MxSlot::Indirect {
            index,
            data,
            scale,
            num,
            scale_part,
            ..
        } => {
            let index_ap = st(start(index, arch), Dims::new(), BirDtype::Uint32);
            let ind = |data: StaticAp| {
                AccessPattern::TensorIndirect(IndirectAp {
                    data,
                    index: index_ap.clone(),
                    num_indirect_indices: num as u32,
                    index_arg_id: 0,
                })
            };
            (
                ind(st(start(data, arch), Dims::new(), dt)),
                ind(st(
                    scale_start(scale, scale_part),
                    Dims::new(),
                    BirDtype::Float8E8m0fnu,
                )),
            )
        }
    }
}

fn matmul_mx(a: &Bundle, b: &Bundle, arch: &ArchModel) -> MatmulMx {
    let k = byte(mx_pe::NUM_ACTIVE_ROWS, b) as u32;
    let n = byte(mx_pe::NUM_ACTIVE_COLS, b) as u32;
    let (weights, weights_scale) = mx_aps(
        mx_pe::SRC,
        a,
        k,
        dtype(byte(mx_pe::IN_DTYPE, a), arch),
        arch,
    );
    let (moving, moving_scale) = mx_aps(
        mx_pe::SRC,
        b,
        k,
        dtype(byte(mx_pe::IN_DTYPE, b), arch),
        arch,
    );
    MatmulMx {
        weights,
        weights_scale,
        moving,
        moving_scale,
        dst: tensor_ap(
            mx_pe::DST,
            b,
            n,
            dtype(byte(mx_pe::OUT_DTYPE, b), arch),
            arch,
        )
        .into(),
        psum_accumulate_flags: byte(mx_pe::PSUM_ACCUMULATE_FLAGS, b),
        psum_zero_region: byte(mx_pe::PSUM_ZERO_REGION, b),
    }
}

fn quantize_mx(a: &Bundle, arch: &ArchModel) -> QuantizeMx {
    let parts = byte(qm::ACTIVE, a) as u32;
    let (dst, dst_scale) = mx_aps(qm::DST, a, parts, dtype(byte(qm::OUT_DTYPE, a), arch), arch);
    QuantizeMx {
        src: super::mem_ap(qm::SRC, a, parts, dtype(byte(qm::IN_DTYPE, a), arch), arch),
        dst,
        dst_scale,
    }
}
