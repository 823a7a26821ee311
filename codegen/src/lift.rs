//! Decoding back to the instruction model: bytes -> [`Instruction`]s.
//!
//! [`decode_instructions`] splits the input into bundles, groups them into the sequences the op
//! encoders emit (StreamShuffle {0x6A, 0x69}; StreamTranspose {0x6B} or {0x6B, 0x69}; Gather one
//! {0x68, 0x67} pair per 512-element chunk, chained by the continuation flag; Dropout 0x7F;
//! IndirectCopy 0xE7; RangeSelect {0xBC, 0x9B}; Matmul {0x01, 0x02}; MatmulMx {0x09, 0x0A};
//! QuantizeMx 0xE3; DmaDirect2d 0xB8; DmaIndirect 0xBB; EventSemaphore 0xA0; the one-bundle
//! 4D-slot compute ops 0x42, 0x52, 0x46, 0x47, 0x48, 0x45, 0x7C, 0x7D, 0x7E, 0x49, 0x92, whose
//! canonical forms `compute4d` documents), rebuilds each instruction from the field tables
//! of `formats.rs`, and re-encodes it with [`generate`]: the input must be exactly what the
//! encoder writes for the decoded instruction. Anything else is a [`DecodeError`] naming the
//! bundle and the byte offset (from the start of the input) where the input departs from
//! encoder output. Nothing here panics, whatever the bytes.
//!
//! Rebuilding is total: a field with no model value (a dtype code no BIR dtype maps to, an
//! unknown enum byte) decodes to a placeholder, and the re-encoding check then reports the exact
//! byte. So the only checks written here are the grouping ones; every field-level rule is the
//! encoder's.
//!
//! # Canonical forms
//!
//! The bundles do not carry everything the model holds. Where several instructions encode to the
//! same bytes, the decoder returns this one:
//!
//! * `Instruction::id` 0 and the op's default engine; `StaticAp::parent` 0.
//! * Free dims outermost first with the unit dims dropped (packing drops them and back-fills the
//!   spare slots with {step 1, num 1}, so the bytes cannot tell a unit dim from a spare slot).
//! * Starts as [`addr4::unfold`] gives them: PSUM inside the PSUM window, SBUF otherwise, with the
//!   in-partition offset below the stride (an offset past the stride carries into the partition
//!   when folded, so both forms encode alike).
//! * Dtypes as [`crate::dtype::wire_to_bir`] gives them: the BIR dtype a wire code is named after
//!   (`float8_e4m3fn` and `float8e4` are both `fp8e4` on the wire; the decoder says `float8e4`).
//! * Partition counts the wire does not carry take the active-channels byte of the bundle: every
//!   destination operand (and the 0x69 source), an indirect AP's index, Gather's destination.
//!   StreamTranspose's destination count selects the path instead, so it is `min(active, 31)` for
//!   {0x6B} and `max(active, 32)` for {0x6B, 0x69}.
//! * Indirect APs: a data operand with no dims, an index operand with no dims, dtype `uint32` and
//!   the data's partition count, `index_arg_id` 0.
//! * Lane maps: every lane byte as the literal lane value, so a lane equal to the passthrough
//!   sentinel comes back as that value rather than 0xFF (both encode alike); a 0xFF byte stays
//!   0xFF, which re-encodes only where the sentinel is 0xFF.
//! * The narrow StreamTranspose's mask is empty (that path reads none).
//! * A dropout's `rng_seed` is `None` (the 0x7F bundle carries no seed).
//! * Sync: the wait from the first bundle, the update from the last; an increment or decrement
//!   update has value 0 (the encoder does not write it).
//! * RangeSelect's `lower_bound` is the +0x10 f32 converted to `i32` (saturating); its
//!   `upper_bound` is the +0x14 bits as they are.
//! * The 3D-slot compute formats (TENSOR_TENSOR, TENSOR_SCALAR with its {0x9A, 0x9B} pair,
//!   TENSOR_SCALAR_SELECT, 0x24): see `lift/compute3d.rs` (engines, immediate kinds).

use crate::addr4;
use crate::arch::ArchModel;
use crate::bundle::{Bundle, bundle_count, generate};
use crate::decode;
use crate::dtype::{BirDtype, wire_to_bir};
use crate::enums::{BirAccumulation, BirAluOp, BirUpdateMode, BirWaitMode};
use crate::enums::{accum_from_wire, alu_from_wire};
use crate::error::{DecodeError, EncodeError, SequenceProblem};
use crate::fields::{Field, Value};
use crate::formats::{
    self, dropout as dr, events, indirect_copy as ic, pool_buffer_load as pb, range_select as rs,
    read_acc as rd, reg_load as rl, shuffle, tr,
};
use crate::indirect::{IndirectSlot, MemSlot};
use crate::model::*;
use crate::tensor::TensorSlot;

// Lifting of the 4D-slot compute formats.
mod compute4d;
// 3D-slot compute formats.
mod compute3d;
// The opcodes the grouping matches on, each read from its format (`const`s so that they can be
// patterns).
const SHUFFLE: u8 = formats::STREAM_SHUFFLE.opcode;
const TR_FWD: u8 = formats::STREAM_TRANSPOSE_FWD.opcode;
const TR: u8 = formats::STREAM_TRANSPOSE.opcode;
const RL: u8 = formats::REG_LOAD.opcode;
const PB: u8 = formats::POOL_BUFFER_LOAD.opcode;
const DR: u8 = formats::DROPOUT.opcode;
const IC: u8 = formats::INDIRECT_COPY.opcode;
const RS: u8 = formats::RANGE_SELECT.opcode;
const RD: u8 = formats::DVE_READ_ACCUMULATOR.opcode;
const CR: u8 = formats::compute3d::TENSOR_SCALAR_CACHE_REDUCE.opcode;
// PE, DMA and event sequences.
mod pe_dma;
const LW: u8 = formats::LDWEIGHTS.opcode;
const MM: u8 = formats::MATMUL.opcode;
const LW_MX: u8 = formats::LDWEIGHTS_MX.opcode;
const MM_MX: u8 = formats::MATMUL_MX.opcode;
const QMX: u8 = formats::QUANTIZE_MX.opcode;
const DD: u8 = formats::DMA_DIRECT2D.opcode;
const DI: u8 = formats::DMA_INDIRECT.opcode;
const ES: u8 = formats::EVENT_SEMAPHORE.opcode;
// The `more` group (0xBF, 0xF1, 0x7B, 0x65) (one bundle each).
mod more;

/// Decodes a stream of bundles into the instructions that encode to it (see the module docs for
/// the canonical forms). `generate` of each returned instruction, concatenated, reproduces
/// `bytes` exactly; any input for which that cannot hold is an error naming the bundle and byte.
pub fn decode_instructions(
    bytes: &[u8],
    arch: &ArchModel,
) -> Result<Vec<Instruction>, DecodeError> {
    let bundles = decode::split(bytes)?;
    let mut insts = Vec::new();
    let mut i = 0;
    while i < bundles.len() {
        let n = group_len(&bundles, i, bytes.len())?;
        let group = &bundles[i..i + n];
        let inst = lift(group, arch);
        check(&inst, group, i, arch)?;
        insts.push(inst);
        i += n;
    }
    Ok(insts)
}

fn problem(bundle: usize, offset: usize, problem: SequenceProblem) -> DecodeError {
    DecodeError::Sequence {
        bundle,
        offset,
        problem,
    }
}

/// The number of bundles of the sequence starting at `i`.
fn group_len(b: &[&Bundle], i: usize, input_len: usize) -> Result<usize, DecodeError> {
    let op = b[i][0];
    let opcode_at = |k: usize| b.get(k).map(|x| x[0]);
    // The second half must be the very next bundle.
    let unpaired = |k: usize, opcode: u8, expected: u8| {
        problem(
            k,
            (k * 64).min(input_len),
            SequenceProblem::Unpaired {
                opcode,
                expected,
                found: opcode_at(k),
            },
        )
    };
    match op {
        TR_FWD if opcode_at(i + 1) == Some(SHUFFLE) => Ok(2),
        TR_FWD => Err(unpaired(i + 1, TR_FWD, SHUFFLE)),
        TR => Ok(if opcode_at(i + 1) == Some(SHUFFLE) {
            2
        } else {
            1
        }),
        RS if opcode_at(i + 1) == Some(RD) => Ok(2),
        RS => Err(unpaired(i + 1, RS, RD)),
        DR | IC => Ok(1),
        // 4D-slot compute ops: one bundle each.
        op if compute4d::OPCODES.contains(&op) => Ok(1),
        RL => {
            let flag = options(b[i]);
            if flag != 0 {
                let at = i * 64 + rl::OPTIONS.offset as usize;
                return Err(problem(i, at, SequenceProblem::Continuation(flag)));
            }
            // Chunk pairs follow while the next 0x68 continues (flag != 0); a 0x68 with flag 0
            // starts the next gather.
            let mut n = 0;
            loop {
                if opcode_at(i + n + 1) != Some(PB) {
                    return Err(unpaired(i + n + 1, RL, PB));
                }
                n += 2;
                match b.get(i + n) {
                    Some(x) if x[0] == RL && options(x) != 0 => {}
                    _ => return Ok(n),
                }
            }
        }
        // 3D-slot compute formats: one bundle, or the {0x9A, 0x9B} cache-reduce pair.
        CR if opcode_at(i + 1) == Some(RD) => Ok(2),
        CR => Err(unpaired(i + 1, CR, RD)),
        op if formats::compute3d::owns(op) => Ok(1),
        // PE, DMA and event sequences.
        LW if opcode_at(i + 1) == Some(MM) => Ok(2),
        LW => Err(unpaired(i + 1, LW, MM)),
        LW_MX if opcode_at(i + 1) == Some(MM_MX) => Ok(2),
        LW_MX => Err(unpaired(i + 1, LW_MX, MM_MX)),
        DD | DI | ES | QMX => Ok(1),
        // The `more` group (0xBF, 0xF1, 0x7B, 0x65).
        op if formats::more::owns(op) => Ok(1),
        SHUFFLE | PB | RD | MM | MM_MX => Err(problem(i, i * 64, SequenceProblem::Orphan(op))),
        op if formats::by_opcode(op).is_some() => {
            Err(problem(i, i * 64, SequenceProblem::NoInstruction(op)))
        }
        op => Err(problem(i, i * 64, SequenceProblem::UnknownOpcode(op))),
    }
}

/// Re-encodes `inst` and compares it with the bundles it was decoded from.
fn check(
    inst: &Instruction,
    group: &[&Bundle],
    first: usize,
    arch: &ArchModel,
) -> Result<(), DecodeError> {
    let at = |k: usize, byte: usize, p| problem(first + k, (first + k) * 64 + byte, p);
    // The encoder decides the chunk count from the index; compare before encoding so a short or
    // long chain is reported as such rather than as a full output buffer.
    let needed = bundle_count(inst);
    if needed != group.len() {
        return Err(at(
            0,
            0,
            SequenceProblem::ChunkCount {
                needed: needed / 2,
                found: group.len() / 2,
            },
        ));
    }
    let mut again = vec![[0u8; 64]; group.len()];
    match generate(inst, arch, &mut again) {
        Ok(n) if n == group.len() => {}
        Ok(n) => {
            let p = SequenceProblem::ChunkCount {
                needed: n / 2,
                found: group.len() / 2,
            };
            return Err(at(0, 0, p));
        }
        Err(e) => {
            // A failed ISA check names its bundle and byte; other encoder errors the sequence.
            let (k, byte) = match &e {
                EncodeError::IsaCheck(d) => (d.bundle, d.offset),
                _ => (0, 0),
            };
            return Err(at(k, byte, SequenceProblem::NotEncodable(e)));
        }
    }
    for (k, (want, got)) in again.iter().zip(group).enumerate() {
        if let Some(byte) = (0..64).find(|&j| want[j] != got[j]) {
            let p = SequenceProblem::Differs {
                expected: want[byte],
                found: got[byte],
            };
            return Err(at(k, byte, p));
        }
    }
    Ok(())
}

/// Rebuilds the instruction of one sequence (`group_len` fixed its shape).
fn lift(g: &[&Bundle], arch: &ArchModel) -> Instruction {
    let (first, last) = (g[0], g[g.len() - 1]);
    // 3D-slot compute formats (they also pick the engine).
    if formats::compute3d::owns(first[0]) {
        return compute3d::lift(g, arch).with_sync(sync(first, last));
    }
    if matches!(first[0], LW | LW_MX | QMX | DD | DI | ES) {
        return pe_dma::lift(g, arch);
    }
    // The `more` group (0xBF, 0xF1, 0x7B, 0x65).
    if formats::more::owns(first[0]) {
        return more::lift(first, arch).with_sync(sync(first, last));
    }
    let op = match *g {
        [a, b] if a[0] == TR_FWD => stream_shuffle(a, b, arch),
        [a] if a[0] == TR => stream_transpose(a, None, arch),
        [a, b] if a[0] == TR => stream_transpose(a, Some(b), arch),
        [a] if a[0] == DR => dropout(a, arch),
        [a] if a[0] == IC => indirect_copy(a, arch),
        [a, b] if a[0] == RS => range_select(a, b, arch),
        [a] if compute4d::OPCODES.contains(&a[0]) => compute4d::lift(a, arch),
        _ => gather(g, arch),
    };
    Instruction::new(op).with_sync(sync(first, last))
}

// ---------------------------------------------------------------- field readers

fn int(f: Field, b: &Bundle) -> u64 {
    match f.read(b) {
        Value::Int(x) => x,
        _ => 0,
    }
}

fn byte(f: Field, b: &Bundle) -> u8 {
    int(f, b) as u8
}

fn dword(b: &Bundle, off: usize) -> u32 {
    addr4::get_u32(b, off)
}

fn options(b: &Bundle) -> u16 {
    int(rl::OPTIONS, b) as u16
}

fn dtype(code: u8, arch: &ArchModel) -> BirDtype {
    // No BIR dtype for the code: a placeholder the re-encoding check reports at this byte.
    wire_to_bir(code, arch.core).unwrap_or(BirDtype::Uint8)
}

fn start(word: u32, arch: &ArchModel) -> Start {
    addr4::unfold(word, arch).unwrap_or(Start::Reg(0))
}

/// Free dims from the lanes of a TENSORnD, outermost first, unit lanes dropped.
fn dims(t: &TensorSlot) -> Dims {
    let mut out = Dims::new();
    for i in (0..(t.n as usize).min(MAX_DIMS)).rev() {
        if t.num[i] != 1 {
            // At most four lanes: the push cannot fail.
            let _ = out.try_push(Dim::new(t.step[i], t.num[i]));
        }
    }
    out
}

fn static_ap(t: &TensorSlot, partitions: u32, dtype: BirDtype, arch: &ArchModel) -> StaticAp {
    StaticAp {
        start: start(t.addr, arch),
        partitions,
        dims: dims(t),
        dtype,
        parent: 0,
    }
}

/// An indirect AP from the record's words (INDEX without its marker).
fn indirect_ap(
    index: u32,
    data: u32,
    num: u16,
    partitions: u32,
    dtype: BirDtype,
    arch: &ArchModel,
) -> AccessPattern {
    AccessPattern::TensorIndirect(IndirectAp {
        data: StaticAp {
            start: start(data, arch),
            partitions,
            dims: Dims::new(),
            dtype,
            parent: 0,
        },
        index: StaticAp {
            start: start(index, arch),
            partitions,
            dims: Dims::new(),
            dtype: BirDtype::Uint32,
            parent: 0,
        },
        num_indirect_indices: num as u32,
        index_arg_id: 0,
    })
}

/// A plain TENSORnD field as a static AP.
fn tensor_ap(f: Field, b: &Bundle, partitions: u32, dtype: BirDtype, arch: &ArchModel) -> StaticAp {
    let t = match f.read(b) {
        Value::Tensor(t) | Value::Mem(MemSlot::Static(t)) => t,
        _ => TensorSlot::read(&[0; 20], 1),
    };
    static_ap(&t, partitions, dtype, arch)
}

/// A MEM_PATTERN3D/4D field: TENSORnD or INDIRECT16B/20B by the mode nibble.
fn mem_ap(
    f: Field,
    b: &Bundle,
    partitions: u32,
    dtype: BirDtype,
    arch: &ArchModel,
) -> AccessPattern {
    match f.read(b) {
        Value::Mem(MemSlot::Indirect(i)) => {
            indirect_ap(i.index, i.data, i.num, partitions, dtype, arch)
        }
        _ => AccessPattern::Static(tensor_ap(f, b, partitions, dtype, arch)),
    }
}

fn lanes(b: &Bundle) -> Vec<u8> {
    match shuffle::IMMEDIATE.read(b) {
        Value::Lanes(l) => l.to_vec(),
        _ => Vec::new(),
    }
}

fn sync(first: &Bundle, last: &Bundle) -> SyncInfo {
    let value = |b: &Bundle| dword(b, events::SEMAPHORE_VALUE.offset as usize);
    let wait = BirWaitMode::from_wire(byte(events::WAIT_MODE, first)).map(|mode| SyncWait {
        mode,
        sem: byte(events::WAIT_IDX, first),
        value: value(first),
    });
    let update = BirUpdateMode::from_wire(byte(events::UPDATE_MODE, last)).map(|mode| SyncUpdate {
        mode,
        sem: byte(events::UPDATE_IDX, last),
        value: if mode.writes_value() { value(last) } else { 0 },
    });
    SyncInfo { wait, update }
}

// ---------------------------------------------------------------- ops

fn stream_shuffle(a: &Bundle, b: &Bundle, arch: &ArchModel) -> Op {
    let parts = byte(tr::ACTIVE, a) as u32;
    Op::StreamShuffle(StreamShuffle {
        src: mem_ap(tr::SRC, a, parts, dtype(byte(tr::IN_DTYPE, a), arch), arch),
        dst: mem_ap(tr::DST, a, parts, dtype(byte(tr::OUT_DTYPE, a), arch), arch),
        mask: lanes(b),
    })
}

fn stream_transpose(a: &Bundle, wide: Option<&Bundle>, arch: &ArchModel) -> Op {
    let parts = byte(tr::ACTIVE, a) as u32;
    let dst_parts = match wide {
        Some(_) => parts.max(crate::TRANSPOSE_WIDE_PARTITIONS),
        None => parts.min(crate::TRANSPOSE_WIDE_PARTITIONS - 1),
    };
    Op::StreamTranspose(StreamTranspose {
        src: mem_ap(tr::SRC, a, parts, dtype(byte(tr::IN_DTYPE, a), arch), arch),
        dst: mem_ap(
            tr::DST,
            a,
            dst_parts,
            dtype(byte(tr::OUT_DTYPE, a), arch),
            arch,
        ),
        mask: wide.map(lanes).unwrap_or_default(),
    })
}

fn gather(g: &[&Bundle], arch: &ArchModel) -> Op {
    let (a, b) = (g[0], g.get(1).copied().unwrap_or(g[0]));
    let data_parts = byte(rl::ACTIVE, a) as u32;
    let index_parts = byte(pb::ACTIVE, b) as u32;
    Op::Gather(Gather {
        data: mem_ap(
            rl::SRC,
            a,
            data_parts,
            dtype(byte(rl::IN_DTYPE, a), arch),
            arch,
        ),
        index: AccessPattern::Static(tensor_ap(
            pb::SRC,
            b,
            index_parts,
            dtype(byte(pb::IN_DTYPE, b), arch),
            arch,
        )),
        dst: mem_ap(
            rl::DST,
            a,
            data_parts,
            dtype(byte(rl::OUT_DTYPE, a), arch),
            arch,
        ),
    })
}

fn dropout(a: &Bundle, arch: &ArchModel) -> Op {
    let parts = byte(dr::ACTIVE, a) as u32;
    Op::Dropout(Dropout {
        src: mem_ap(dr::SRC, a, parts, dtype(byte(dr::IN_DTYPE, a), arch), arch),
        dst: mem_ap(dr::DST, a, parts, dtype(byte(dr::OUT_DTYPE, a), arch), arch),
        threshold_imm_ptr: byte(dr::THRESHOLD_IMM_PTR, a),
        threshold_dtype: dtype(byte(dr::THRESHOLD_DTYPE, a), arch),
        rng_mode: byte(dr::RNG_MODE, a),
        rng_seed: None,
    })
}

fn indirect_copy(a: &Bundle, arch: &ArchModel) -> Op {
    let parts = byte(ic::ACTIVE, a) as u32;
    // The embedded descriptor is always the indirect record (the marker is checked by the
    // re-encoding).
    let r = IndirectSlot::read(&a[ic::SRC.range()], 4);
    let src = indirect_ap(
        r.index,
        r.data,
        r.num,
        parts,
        dtype(byte(ic::IN_DTYPE, a), arch),
        arch,
    );
    Op::IndirectCopy(IndirectCopy {
        src,
        dst: mem_ap(ic::DST, a, parts, dtype(byte(ic::OUT_DTYPE, a), arch), arch),
        num_elem_per_idx: byte(ic::SRC_NUM_ELEM_PER_IDX, a),
        src_buffer_size: int(ic::SRC_BUFFER_SIZE, a) as u16,
    })
}

fn range_select(a: &Bundle, b: &Bundle, arch: &ArchModel) -> Op {
    let parts = byte(rs::ACTIVE, a) as u32;
    let pair = byte(rs::IN_OUT_DTYPE, a);
    let comp = |f| alu_from_wire(byte(f, a), arch.core).unwrap_or(BirAluOp::IsEqual);
    let bound = |src: Field, val: Field| {
        let v = int(val, a) as u32;
        match byte(src, a) {
            1 => ScalarOperand::Ptr(v),
            2 => ScalarOperand::RegPtr(v as u8),
            _ => ScalarOperand::Imm(f32::from_bits(v)),
        }
    };
    Op::RangeSelect(RangeSelect {
        src: AccessPattern::Static(tensor_ap(rs::SRC, a, parts, dtype(pair & 0xF, arch), arch)),
        dst: AccessPattern::Static(tensor_ap(rs::DST, a, parts, dtype(pair >> 4, arch), arch)),
        lower_bound: f32::from_bits(int(rs::LOWER_BOUND, a) as u32) as i32,
        upper_bound: f32::from_bits(int(rs::UPPER_BOUND, a) as u32),
        comp_op0: comp(rs::COMP_OP0),
        comp_op1: comp(rs::COMP_OP1),
        bound0: bound(rs::BOUND0_SRC, rs::BOUND0),
        bound1: bound(rs::BOUND1_SRC, rs::BOUND1),
        reduce_cmd: accum_from_wire(byte(rs::REDUCE_CMD, a)).unwrap_or(BirAccumulation::Idle),
        reduce_res: AccessPattern::Static(tensor_ap(
            rd::DST,
            b,
            byte(rd::ACTIVE, b) as u32,
            dtype(byte(rd::DTYPE, b), arch),
            arch,
        )),
    })
}
