//! Op encoders, one file per op family. Each lowers one instruction of the model into its
//! bundle sequence through a [`Sink`], writing every byte through the field constants of
//! `formats.rs`. This module owns the dispatch, the per-target gate and the shared helpers.
//!
//! Each op file has two encoders: `encode`, the reference, which follows the spec step by step
//! and returns its exact errors (COLLECT, RUN_ISA_CHECKS and every error path use it), and
//! `generate`, the GENERATE fast path, which writes the same bytes straight into the output and
//! gives up on anything it does not accept (see `fast`).
//! The 4D-slot compute ops (`tr4d`, `pool`, `cross_lane_reduce`, `iota`, `memset`,
//! `affine_select`) have the reference encoder only: the fast path declines them.

// 3D-slot compute formats (reference encoders only; the fast path declines them).
mod compute3d;
mod dropout;
mod fast;
mod gather;
mod indirect_copy;
// IndirectSaveAccumulate (BIR op 46).
mod indirect_save_accumulate;
mod range_select;
mod stream_shuffle;
mod stream_transpose;
// 4D-slot compute ops (reference encoders only; the fast path declines them).
mod affine_select;
mod cross_lane_reduce;
mod iota;
mod memset;
mod pool;
mod tr4d;
// PE, MX, DMA and event ops (reference encoders only: the fast path declines them).
mod dma;
mod event_semaphore;
mod matmul;
mod mx;
// The `more` group (0xBF, 0xF1, 0x7B, 0x65) (reference encoders only).
mod more;

use crate::arch::{ArchModel, CAYMAN, CAYMAN_MODEL, MARIANA, MARIANA_MODEL, SUNDA, SUNDA_MODEL};
use crate::bundle::{Bundle, Sink};
use crate::dtype::{BirDtype, bir_to_wire};
use crate::error::EncodeError;
use crate::formats::compute4d::opcode as c4d;
use crate::model::{
    AccessPattern, Engine, Instruction, MemLoc, Op, OpKind, Space, Start, StaticAp, TensorScalar,
    TsForm,
};

/// Gather streams its index in chunks of this many elements (seed: chunk size 0x200).
pub const GATHER_CHUNK: u64 = 512;

/// StreamTranspose takes the {0x6B, 0x69} path when the dst spans at least this many partitions
/// (seed: `cmp ebx,0x1f`).
pub const TRANSPOSE_WIDE_PARTITIONS: u32 = 32;

/// Family and engine gate, run before anything is filled.
pub(crate) fn check_target(inst: &Instruction, arch: &ArchModel) -> Result<(), EncodeError> {
    check_kind(inst.op.kind(), inst, arch)
}

/// [`check_target`] for an op kind known to the caller (a constant in the fast path, so the
/// op-table row folds away).
#[inline(always)]
pub(crate) fn check_kind(
    kind: OpKind,
    inst: &Instruction,
    arch: &ArchModel,
) -> Result<(), EncodeError> {
    let info = kind.info();
    if !arch.has(info.family) {
        return Err(EncodeError::NotOnTarget {
            target: arch.target,
            family: info.family,
        });
    }
    // EventSemaphore is issued on whichever engine's queue it synchronises.
    if !kind.runs_on_fast(inst.engine) && !matches!(inst.op, Op::EventSemaphore(_)) {
        return Err(EncodeError::EngineMismatch {
            op: info.name,
            engine: inst.engine,
        });
    }
    // A lowering that needs bundles no source pins is refused in every mode, COLLECT included
    // (the dropout's seed setter has no pinned opcode either).
    if let Op::Dropout(d) = &inst.op
        && d.rng_seed.is_some()
    {
        return Err(dropout::SEED_SETTER_UNPINNED);
    }
    compute3d::form_gate(inst, arch)
}

/// Number of Gather chunks: ceil(n / 512). CONFLICT settled: the seed writes
/// `chunks = floor(n x 1/512)`, which would emit nothing below 512 indices; the NKI docs say
/// ceil(elems/512) sub-instructions. The two agree on exact multiples of 512.
pub fn gather_chunks(index_elements: u64) -> u64 {
    index_elements.div_ceil(GATHER_CHUNK)
}

pub(crate) use compute3d::invert_imm_src;
pub(crate) use cross_lane_reduce::dst_count as cross_lane_dst_count;
pub use matmul::psum_dtype;
/// Chunk `k` of a Gather over `n` index elements: its continuation flag (0x68 +0x24: 0 on chunk
/// 0, 1 after) and its element count (0x67 +0x28: 512, the rest on the last chunk).
#[inline(always)]
pub(crate) fn gather_chunk(k: u64, n: u64) -> (u16, u32) {
    let count = n.saturating_sub(k * GATHER_CHUNK).min(GATHER_CHUNK);
    ((k != 0) as u16, count as u32)
}

/// Number of bundles `inst` lowers to.
pub(crate) fn bundle_count(inst: &Instruction) -> usize {
    match &inst.op {
        Op::StreamShuffle(_) => 2,
        Op::StreamTranspose(t) => {
            if t.dst.partitions() >= TRANSPOSE_WIDE_PARTITIONS {
                2
            } else {
                1
            }
        }
        // Saturating: a count past usize (or past the cap) is refused by the callers' cap.
        Op::Gather(g) => usize::try_from(gather_chunks(g.index.num_elements_per_partition()))
            .unwrap_or(usize::MAX)
            .saturating_mul(2),
        // With a seed, the sequence would be {seed setter, 0x7F} (refused as unpinned).
        Op::Dropout(d) => 1 + d.rng_seed.is_some() as usize,
        Op::IndirectCopy(_) => 1,
        Op::RangeSelect(_) => 2,
        // One bundle by the seed's description (a plain RMW); refused as unpinned.
        Op::IndirectSaveAccumulate(_) => 1,
        // 4D-slot compute ops: one bundle each.
        Op::TensorReduceArith(_)
        | Op::TensorReduceBitvec(_)
        | Op::TensorCopy(_)
        | Op::Reciprocal(_)
        | Op::Memset(_)
        | Op::Pool(_)
        | Op::CrossLaneReduceArith(_)
        | Op::CrossLaneReduceBitvec(_)
        | Op::Iota(_)
        | Op::AffineSelect(_) => 1,
        // 3D-slot compute formats.
        Op::TensorScalar(TensorScalar {
            form: TsForm::CacheReduce { .. },
            ..
        }) => 2,
        Op::TensorTensor(_)
        | Op::CopyPredicated(_)
        | Op::TensorScalar(_)
        | Op::TensorScalarSelect(_)
        | Op::Activation(_)
        | Op::ActivationReadAccumulator(_) => 1,
        // PE, MX, DMA and event ops.
        Op::Matmul(_) | Op::MatmulMx(_) => 2,
        Op::QuantizeMx(_) => 1,
        Op::DmaDirect2d(_) | Op::DmaIndirect(_) | Op::EventSemaphore(_) => 1,
        // The `more` group (0xBF, 0xF1, 0x7B, 0x65): one bundle each.
        Op::Sb2sbCollective(_)
        | Op::TensorDequantize(_)
        | Op::BatchNormBackProp(_)
        | Op::DmaGatherTranspose(_) => 1,
    }
}

/// The opcodes of `inst`'s lowering (the COLLECT set; both halves of every micro-pair).
pub(crate) fn opcodes(inst: &Instruction, arch: &ArchModel) -> &'static [u8] {
    /// The narrow StreamTranspose emits the 0x6B half alone.
    const NARROW: &[u8] = &[crate::formats::STREAM_TRANSPOSE.opcode];
    match &inst.op {
        Op::StreamTranspose(t) if t.dst.partitions() < TRANSPOSE_WIDE_PARTITIONS => NARROW,
        // TensorCopy emits one of Copy / Cast.
        Op::TensorCopy(c) if tr4d::copy_opcode(c) == c4d::COPY => &[c4d::COPY],
        Op::TensorCopy(_) => &[c4d::CAST],
        // 3D-slot compute formats: the opcode depends on the op, dtypes, engine and target.
        Op::TensorTensor(_) | Op::CopyPredicated(_) | Op::TensorScalar(_) => {
            compute3d::opcodes(inst, arch)
        }
        op => op.kind().info().opcodes,
    }
}

/// Encodes `inst` into `sink`.
#[inline]
pub(crate) fn encode<S: Sink>(
    inst: &Instruction,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    check_target(inst, arch)?;
    match &inst.op {
        Op::StreamShuffle(o) => stream_shuffle::encode(inst, o, arch, sink),
        Op::StreamTranspose(o) => stream_transpose::encode(inst, o, arch, sink),
        Op::Gather(o) => gather::encode(inst, o, arch, sink),
        Op::Dropout(o) => dropout::encode(inst, o, arch, sink),
        Op::IndirectCopy(o) => indirect_copy::encode(inst, o, arch, sink),
        Op::RangeSelect(o) => range_select::encode(inst, o, arch, sink),
        Op::IndirectSaveAccumulate(_) => Err(indirect_save_accumulate::UNPINNED),
        // 4D-slot compute ops.
        Op::TensorReduceArith(o) => {
            tr4d::encode_reduce(inst, o, c4d::TENSOR_REDUCE_ARITH, arch, sink)
        }
        Op::TensorReduceBitvec(o) => {
            tr4d::encode_reduce(inst, o, c4d::TENSOR_REDUCE_BITVEC, arch, sink)
        }
        Op::TensorCopy(o) => tr4d::encode_copy(inst, o, arch, sink),
        Op::Reciprocal(o) => tr4d::encode_reciprocal(inst, o, arch, sink),
        Op::Memset(o) => memset::encode(inst, o, arch, sink),
        Op::Pool(o) => pool::encode(inst, o, arch, sink),
        Op::CrossLaneReduceArith(o) => {
            cross_lane_reduce::encode(inst, o, c4d::CROSS_LANE_REDUCE_ARITH, arch, sink)
        }
        Op::CrossLaneReduceBitvec(o) => {
            cross_lane_reduce::encode(inst, o, c4d::CROSS_LANE_REDUCE_BITVEC, arch, sink)
        }
        Op::Iota(o) => iota::encode(inst, o, arch, sink),
        Op::AffineSelect(o) => affine_select::encode(inst, o, arch, sink),
        // 3D-slot compute formats.
        Op::TensorTensor(o) => compute3d::encode_tt(inst, o, arch, sink),
        Op::CopyPredicated(o) => compute3d::encode_predicated(inst, o, arch, sink),
        Op::TensorScalar(o) => compute3d::encode_ts(inst, o, arch, sink),
        Op::TensorScalarSelect(o) => compute3d::encode_tss(inst, o, arch, sink),
        Op::Activation(o) => compute3d::encode_activation(inst, o, arch, sink),
        Op::ActivationReadAccumulator(o) => compute3d::encode_act_read(inst, o, arch, sink),
        // PE, MX, DMA and event ops.
        Op::Matmul(o) => matmul::encode(inst, o, arch, sink),
        Op::MatmulMx(o) => mx::encode_matmul(inst, o, arch, sink),
        Op::QuantizeMx(o) => mx::encode_quantize(inst, o, arch, sink),
        Op::DmaDirect2d(o) => dma::encode_direct2d(inst, o, arch, sink),
        Op::DmaIndirect(o) => dma::encode_indirect(inst, o, arch, sink),
        Op::EventSemaphore(o) => event_semaphore::encode(inst, o, sink),
        // The `more` group (0xBF, 0xF1, 0x7B, 0x65).
        Op::Sb2sbCollective(o) => more::encode_sb2sb(inst, o, arch, sink),
        Op::TensorDequantize(o) => more::encode_dequant(inst, o, arch, sink),
        Op::BatchNormBackProp(o) => more::encode_bn_back_prop(inst, o, arch, sink),
        Op::DmaGatherTranspose(o) => more::encode_gather_transpose(inst, o, arch, sink),
    }
}

/// The GENERATE fast path: `Some(n)` after writing the `n` bundles of `inst` to the front of
/// `out`, `None` when the fast path declines (any failing check, a short `out`, or an input
/// outside what it handles); the caller then runs [`encode`], which writes the same bytes or
/// returns the exact error.
#[inline(always)]
pub(crate) fn generate(inst: &Instruction, arch: &ArchModel, out: &mut [Bundle]) -> Option<usize> {
    // Handed one of the built-in models (immutable statics), an inlined copy of the fast path
    // reads the same values from a constant, so every field folds to an immediate: the strides
    // become shifts, the window and limits immediates, the family gate and the dtype LUT
    // constants. Any other model, a clone of a built-in one included, takes the general copy.
    if std::ptr::eq(arch, &MARIANA) {
        generate_with(inst, &MARIANA_MODEL, out)
    } else if std::ptr::eq(arch, &CAYMAN) {
        generate_with(inst, &CAYMAN_MODEL, out)
    } else if std::ptr::eq(arch, &SUNDA) {
        generate_with(inst, &SUNDA_MODEL, out)
    } else {
        generate_with(inst, arch, out)
    }
}

/// The GENERATE fast path over a whole stream for one target: the model is recognised once
/// (not per instruction) and the per-model copy of the fast path runs in one loop. Each
/// instruction the fast path declines goes through the reference encoder, exactly as in
/// [`generate`]. Returns the bundles written, or the failing instruction's index and error.
pub(crate) fn generate_stream(
    insts: &[Instruction],
    arch: &ArchModel,
    out: &mut [Bundle],
) -> Result<usize, (usize, EncodeError)> {
    if std::ptr::eq(arch, &MARIANA) {
        stream_with(insts, &MARIANA_MODEL, arch, out)
    } else if std::ptr::eq(arch, &CAYMAN) {
        stream_with(insts, &CAYMAN_MODEL, arch, out)
    } else if std::ptr::eq(arch, &SUNDA) {
        stream_with(insts, &SUNDA_MODEL, arch, out)
    } else {
        stream_with(insts, arch, arch, out)
    }
}

/// [`generate_stream`] for one model (`model` is the constant copy of `arch` when there is one).
/// The loop carries the instruction pointer and the unwritten tail of `out`; an instruction's
/// index is only worked out on the error path.
#[inline(always)]
fn stream_with(
    insts: &[Instruction],
    model: &ArchModel,
    arch: &ArchModel,
    out: &mut [Bundle],
) -> Result<usize, (usize, EncodeError)> {
    let total = out.len();
    let mut rest = out;
    for inst in insts {
        let n = match generate_with(inst, model, rest) {
            // GENERATE's ISA check on the fast path's bundles (the fallback runs its own).
            Some(n) => match crate::bundle::isa_check(&rest[..n.min(rest.len())], arch) {
                Ok(()) => n,
                Err(e) => return Err((index_of(insts, inst), e)),
            },
            None => stream_fallback(insts, inst, arch, rest)?,
        };
        // Both paths write at most `rest.len()` bundles; the `min` states it for the compiler,
        // so the split has no panic path.
        let done = n.min(rest.len());
        rest = &mut std::mem::take(&mut rest)[done..];
    }
    Ok(total - rest.len())
}

/// The reference encoder for an instruction of a stream, with the instruction's index on error.
#[inline(never)]
fn stream_fallback(
    insts: &[Instruction],
    inst: &Instruction,
    arch: &ArchModel,
    out: &mut [Bundle],
) -> Result<usize, (usize, EncodeError)> {
    crate::bundle::generate_reference(inst, arch, out).map_err(|e| (index_of(insts, inst), e))
}

/// The index of `inst`, an element of `insts`.
fn index_of(insts: &[Instruction], inst: &Instruction) -> usize {
    let size = std::mem::size_of::<Instruction>();
    (std::ptr::from_ref(inst).addr() - insts.as_ptr().addr()) / size
}

/// [`generate`] for one model.
#[inline(always)]
fn generate_with(inst: &Instruction, arch: &ArchModel, out: &mut [Bundle]) -> Option<usize> {
    use fast::gate;
    let cx = fast::Ctx::new(arch);
    // The gate sits in each arm so that its op-table row is a constant.
    match &inst.op {
        Op::StreamShuffle(o) => {
            gate(inst, arch, OpKind::StreamShuffle)?;
            stream_shuffle::generate(inst, o, cx, out)
        }
        Op::StreamTranspose(o) => {
            gate(inst, arch, OpKind::StreamTranspose)?;
            stream_transpose::generate(inst, o, cx, out)
        }
        Op::Gather(o) => {
            gate(inst, arch, OpKind::Gather)?;
            gather::generate(inst, o, cx, out)
        }
        Op::Dropout(o) => {
            gate(inst, arch, OpKind::Dropout)?;
            dropout::generate(inst, o, cx, out)
        }
        Op::IndirectCopy(o) => {
            gate(inst, arch, OpKind::IndirectCopy)?;
            indirect_copy::generate(inst, o, cx, out)
        }
        Op::RangeSelect(o) => {
            gate(inst, arch, OpKind::RangeSelect)?;
            range_select::generate(inst, o, cx, out)
        }
        // Unpinned: the reference encoder returns the error.
        Op::IndirectSaveAccumulate(_) => None,
        // 4D-slot compute ops have no fast path: declining sends them to the reference encoder.
        Op::TensorReduceArith(_)
        | Op::TensorReduceBitvec(_)
        | Op::TensorCopy(_)
        | Op::Reciprocal(_)
        | Op::Memset(_)
        | Op::Pool(_)
        | Op::CrossLaneReduceArith(_)
        | Op::CrossLaneReduceBitvec(_)
        | Op::Iota(_)
        | Op::AffineSelect(_) => None,
        // 3D-slot compute formats: no fast path; declining sends them to the reference encoder.
        Op::TensorTensor(_)
        | Op::CopyPredicated(_)
        | Op::TensorScalar(_)
        | Op::TensorScalarSelect(_)
        | Op::Activation(_)
        | Op::ActivationReadAccumulator(_) => None,
        // PE, MX, DMA and event ops have no fast path: declining sends them to `encode`.
        Op::Matmul(_)
        | Op::MatmulMx(_)
        | Op::QuantizeMx(_)
        | Op::DmaDirect2d(_)
        | Op::DmaIndirect(_)
        | Op::EventSemaphore(_) => None,
        // The `more` group (0xBF, 0xF1, 0x7B, 0x65): no fast path.
        Op::Sb2sbCollective(_)
        | Op::TensorDequantize(_)
        | Op::BatchNormBackProp(_)
        | Op::DmaGatherTranspose(_) => None,
    }
}

/// Whether an access pattern starts in PSUM (register starts are unknown until run time).
pub(crate) fn in_psum(ap: &AccessPattern) -> bool {
    matches!(
        ap.base().start,
        Start::Imm(MemLoc {
            space: Space::Psum,
            ..
        })
    )
}

/// Rule `gpsimd_no_psum`: on GpSimd no operand of `op` (named as the spec names the slot)
/// may start in PSUM (CC: "GPSIMD engine cannot access PSUM"; the POOL cores reach SBUF only).
pub(crate) fn gpsimd_no_psum(
    engine: Engine,
    op: &'static str,
    operands: &[(&AccessPattern, &'static str)],
) -> Result<(), EncodeError> {
    if engine != Engine::GpSimd {
        return Ok(());
    }
    match operands.iter().find(|(ap, _)| in_psum(ap)) {
        Some(&(_, operand)) => Err(EncodeError::GpsimdPsum { op, operand }),
        None => Ok(()),
    }
}

/// The engine legality of an ISA row ([`crate::isa::Row::engines`]), for an encoder whose
/// op kind spans several rows with different engines (TensorTensor and TensorScalar: the
/// bitvec rows are Vector only).
pub(crate) fn row_engine(row: &crate::isa::Row, engine: Engine) -> Result<(), EncodeError> {
    if row.engines.contains(&engine) {
        Ok(())
    } else {
        Err(EncodeError::EngineMismatch {
            op: row.name,
            engine,
        })
    }
}

/// The wire dtype byte on this target.
#[inline(always)]
pub(crate) fn wire(d: BirDtype, arch: &ArchModel) -> u8 {
    bir_to_wire(d, arch.core).0
}

/// The wire byte of an input dtype (a field named `in_dtype`): FP32R is an output-only dtype
/// (rule `valid_dtype`), so it is refused.
#[inline]
pub(crate) fn in_wire(d: BirDtype, arch: &ArchModel) -> Result<u8, EncodeError> {
    if d == BirDtype::Float32r {
        return Err(EncodeError::DtypeNotEncodable(d));
    }
    Ok(wire(d, arch))
}

/// The active-channels byte: the partition count, 1..=partitions.
#[inline(always)]
pub(crate) fn active(ap: &AccessPattern, arch: &ArchModel) -> Result<u8, EncodeError> {
    active_count(ap.partitions(), arch)
}

/// The active-channels byte of a partition count `p`: 1..=min(partitions, 255).
#[inline(always)]
pub(crate) fn active_count(p: u32, arch: &ArchModel) -> Result<u8, EncodeError> {
    // Unsigned compares on p - 1: a zero count wraps to u32::MAX and fails both.
    let q = p.wrapping_sub(1);
    if (q >= arch.partitions) | (q >= 255) {
        return Err(EncodeError::PartitionCount(p));
    }
    Ok(p as u8)
}

/// The static AP of a plain TENSOR slot.
#[inline(always)]
pub(crate) fn static_only<'a>(
    ap: &'a AccessPattern,
    slot: &'static str,
) -> Result<&'a StaticAp, EncodeError> {
    match ap {
        AccessPattern::Static(s) => Ok(s),
        AccessPattern::TensorIndirect(_) => Err(EncodeError::StaticOnly(slot)),
    }
}

/// The passthrough sentinel of the 0x69 lane map: `partition_count | 0x20`, with the partition
/// count the minimum of the source and destination partition counts (seed: the pre-amble pmins
/// the src Pattern[] against the dst sizes).
#[inline(always)]
pub(crate) fn passthrough_sentinel(src: &AccessPattern, dst: &AccessPattern) -> u8 {
    sentinel(src.partitions(), dst.partitions())
}

/// [`passthrough_sentinel`] from the two partition counts.
#[inline(always)]
pub(crate) fn sentinel(src_partitions: u32, dst_partitions: u32) -> u8 {
    (src_partitions.min(dst_partitions) as u8) | 0x20
}

/// The 0x69 lane map: mask 0xFF becomes the passthrough sentinel; the mask has 32 entries.
#[inline(always)]
pub(crate) fn lane_map(mask: &[u8], sentinel: u8) -> Result<[u8; 32], EncodeError> {
    let mask: &[u8; 32] = mask.try_into().map_err(|_| EncodeError::MaskSize)?;
    // An indexed loop over fixed arrays vectorises to a compare-and-select per 16 bytes.
    let mut l = [0u8; 32];
    for i in 0..32 {
        l[i] = if mask[i] == 0xFF { sentinel } else { mask[i] };
    }
    Ok(l)
}

/// Fills the 0x69 lane map ([`lane_map`]).
#[inline(always)]
pub(crate) fn fill_lanes(
    b: &mut crate::bundle::Bundle,
    mask: &[u8],
    sentinel: u8,
) -> Result<(), EncodeError> {
    *crate::formats::shuffle::IMMEDIATE.slot::<32>(b) = lane_map(mask, sentinel)?;
    Ok(())
}
