//! Reference encoders of the 3D-slot compute formats: TensorTensor (S3S3D3_TT: 0x41, 0x51, the
//! sunda bf16 opcodes 0x8a/0x8b/0x8f, the GpSimd int32 form 0x41 with an integer ALU byte), CopyPredicated
//! (0x72/0x99), TensorScalar (S3D3_TS: 0x43, 0x53, 0x93, 0x9a + 0x9b, 0xe6, 0x30),
//! TensorScalarSelect (0x98) and ActivationReadAccumulator (0x24).
//!
//! Which opcode (and GpSimd int32 ALU byte) an instruction takes is the ISA table's: the
//! encoders and COLLECT ask [`isa::dispatch`] with the instruction's op, dtypes, engine and
//! target; only the ALU-class tables (`formats::compute3d`) and the engine and form gates stay
//! here.
//!
//! There is no GENERATE fast path for these: `ops::generate` declines them and the reference
//! encoder here writes every bundle, through the field constants of `formats::compute3d`.

use super::{active, static_only, wire};
use crate::arch::{ArchModel, Family};
use crate::bundle::{Sink, setup_header, setup_sync};
use crate::dtype::{BirDtype, WireDtype};
use crate::enums::{BirAccumulation, BirAluOp, accum_to_wire, alu_to_wire};
use crate::error::EncodeError;
use crate::formats::compute3d::{self as c3, act, ts, tss, tt};
use crate::formats::read_acc as rd;
use crate::indirect::assign_access_3d;
use crate::isa::{self, SelectQuery};
use crate::model::*;
use crate::tensor::assign_static;

/// The dispatch of an instruction's ISA row ([`isa::dispatch`]): the cases `arch` has the
/// formats for. An error here means the ISA table and the formats table disagree (the
/// `isa_dispatch` tests check they do not), reported as unpinned.
fn table(
    row: &'static isa::Row,
    q: &SelectQuery,
    admit: impl Fn(&isa::Case) -> bool,
) -> Result<isa::Dispatch, EncodeError> {
    isa::dispatch(row, q, admit).map_err(|_| EncodeError::Unpinned {
        op: row.name,
        missing: "an ISA-table case this target has the formats for",
    })
}

/// The ISA rows this group's encoders read (resolved at compile time).
const TT_ARITH: &isa::Row = isa::row_const("tensor_tensor_arith");
const TT_BITVEC: &isa::Row = isa::row_const("tensor_tensor_bitvec");
const COPY_PREDICATED: &isa::Row = isa::row_const("copy_predicated");

/// The (opcode, ALU byte) of a TensorTensor on `engine` and the target, read from the ISA
/// table: the row by the op's ALU class (a bitvec byte, [`c3::BITVEC_OPS`], is
/// `tensor_tensor_bitvec`, else `tensor_tensor_arith`), then the row's first case this target
/// has the formats for (the sunda bf16 opcodes, the GpSimd int32 form 0x41 with its
/// integer-band ALU byte, else the plain opcode with the op's own byte).
pub(crate) fn tt_select(
    o: &TensorTensor,
    engine: Engine,
    arch: &ArchModel,
) -> Result<(&'static [u8], u8), EncodeError> {
    let w = alu_to_wire(o.op, arch.core).ok_or(EncodeError::AluNotEncodable(o.op))?;
    super::gpsimd_no_psum(
        engine,
        "tensor_tensor",
        &[(&o.in0, "in0"), (&o.in1, "in1"), (&o.dst, "dst")],
    )?;
    let bitvec = c3::BITVEC_OPS.contains(&w);
    let row = if bitvec { TT_BITVEC } else { TT_ARITH };
    // The row's engines are the legal ones: a bitvec TensorTensor is Vector only (isa-table
    // row 24), whatever engines the arith form allows.
    super::row_engine(row, engine)?;
    let q = SelectQuery::new(arch.target)
        .on_engine(engine)
        .with_dtypes(o.dst.dtype(), &[o.in0.dtype(), o.in1.dtype()])
        .with_alu(o.op);
    // The sunda bf16 opcodes apply on every engine: the seed (compiler-map-emit-to-opcode hop 4
    // and §4.3 S3/S4) puts the bf16 dispatch in ISel on the dtypes alone and says the engine
    // never changes the opcode, so a GpSimd bf16 add is 0x8a exactly as the table selects.
    let d = table(row, &q, |c| c.encodable(arch))?;
    match d.alu_byte {
        Some(alu) => Ok((d.opcodes, alu)),
        None if bitvec || c3::tt_arith_ok(w) => Ok((d.opcodes, w)),
        None => Err(EncodeError::AluNotEncodable(o.op)),
    }
}

/// The `DTYPE_PAIR` byte: both wire codes must fit a nibble.
pub(super) fn dtype_pair(lo: BirDtype, hi: BirDtype, arch: &ArchModel) -> Result<u8, EncodeError> {
    let (l, h) = (wire(lo, arch), wire(hi, arch));
    if l > 0xF {
        return Err(EncodeError::DtypeNotEncodable(lo));
    }
    if h > 0xF {
        return Err(EncodeError::DtypeNotEncodable(hi));
    }
    Ok(l | h << 4)
}

/// The TENSOR3D slots of an S3S3D3_TT bundle and its control band.
pub(super) fn put_tt<S: Sink>(
    inst: &Instruction,
    sink: &mut S,
    arch: &ArchModel,
    header: (u8, u8, u8),
    aps: [(&AccessPattern, &'static str); 3],
    channels: &AccessPattern,
) -> Result<(), EncodeError> {
    let (opcode, pair, alu) = header;
    let [(a0, n0), (a1, n1), (d, nd)] = aps;
    let (s0, s1, sd) = (
        static_only(a0, n0)?,
        static_only(a1, n1)?,
        static_only(d, nd)?,
    );
    let b = sink.begin()?;
    setup_header(b, opcode);
    setup_sync(b, &inst.sync, true, true)?;
    tt::IN0_IN1_DTYPE.put_u8(b, pair);
    tt::OUT_DTYPE.put_u8(b, wire(sd.dtype, arch));
    tt::OP.put_u8(b, alu);
    tt::ACTIVE.put_u8(b, active(channels, arch)?);
    assign_static::<3>(tt::SRC0.slot::<16>(b), s0, arch)?;
    assign_static::<3>(tt::SRC1.slot::<16>(b), s1, arch)?;
    assign_static::<3>(tt::DST.slot::<16>(b), sd, arch)?;
    sink.end();
    Ok(())
}

/// TensorTensor: one S3S3D3_TT bundle.
pub(super) fn encode_tt<S: Sink>(
    inst: &Instruction,
    o: &TensorTensor,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    let (opcodes, alu) = tt_select(o, inst.engine, arch)?;
    let opcode = one_opcode(opcodes, "tensor_tensor")?;
    let pair = dtype_pair(o.in0.dtype(), o.in1.dtype(), arch)?;
    let aps = [
        (&o.in0, "tensor_tensor src0_mem_pattern"),
        (&o.in1, "tensor_tensor src1_mem_pattern"),
        (&o.dst, "tensor_tensor dst_mem_pattern"),
    ];
    put_tt(inst, sink, arch, (opcode, pair, alu), aps, &o.in0)
}

/// The opcode of a CopyPredicated, from the ISA table's `copy_predicated` row (0x72, or 0x99
/// when the dtype changes). CONFLICT, unsettled (kept as encoded): the row compares the BIR
/// dtypes, this encoder the wire dtypes (two BIR dtypes sharing a wire code, e.g.
/// `float8_e4m3fn` and `float8e4`, copy with 0x72), so the query states the data dtype as dst's
/// when their wire codes agree.
pub(crate) fn predicated_select(
    inst: &Instruction,
    o: &CopyPredicated,
    arch: &ArchModel,
) -> Result<&'static [u8], EncodeError> {
    let (src, dst) = (o.src.dtype(), o.dst.dtype());
    let data = if wire(src, arch) == wire(dst, arch) {
        dst
    } else {
        src
    };
    let q = SelectQuery::new(arch.target)
        .on_engine(inst.engine)
        .with_dtypes(dst, &[data]);
    Ok(table(COPY_PREDICATED, &q, |c| c.encodable(arch))?.opcodes)
}

/// The single opcode of a one-bundle sequence.
fn one_opcode(opcodes: &[u8], row: &'static str) -> Result<u8, EncodeError> {
    match opcodes {
        [op] => Ok(*op),
        _ => Err(EncodeError::Unpinned {
            op: row,
            missing: "a one-bundle ISA-table sequence",
        }),
    }
}

/// CopyPredicated / CastPredicated: one S3S3D3_TT bundle with the op byte BYPASS.
pub(super) fn encode_predicated<S: Sink>(
    inst: &Instruction,
    o: &CopyPredicated,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    let opcode = one_opcode(predicated_select(inst, o, arch)?, "copy_predicated")?;
    let pair = dtype_pair(o.mask.dtype(), o.src.dtype(), arch)?;
    let aps = [
        (&o.mask, "copy_predicated src0_mem_pattern"),
        (&o.src, "copy_predicated src1_mem_pattern"),
        (&o.dst, "copy_predicated dst_mem_pattern"),
    ];
    put_tt(inst, sink, arch, (opcode, pair, 0), aps, &o.src)
}

/// The ALU class of a wire byte for the 0x43/0x53 fork: `None` for BYPASS (either class).
fn bitvec_class(w: u8) -> Option<bool> {
    (w != 0).then(|| c3::BITVEC_OPS.contains(&w))
}

/// The opcode sequence of a TensorScalar and its ALU bytes. The ALU class (a bitvec op byte,
/// [`c3::BITVEC_OPS`]; BYPASS is either class) and the form name the ISA row
/// ([`isa::tensor_scalar_row`]); the row's case gives the opcodes (0x53, 0x43, 0x93,
/// 0x9a + 0x9b, 0xe6, 0x30).
pub(crate) fn ts_select(
    inst: &Instruction,
    o: &TensorScalar,
    arch: &ArchModel,
) -> Result<(&'static [u8], u8, u8), EncodeError> {
    let alu = |op: BirAluOp| alu_to_wire(op, arch.core).ok_or(EncodeError::AluNotEncodable(op));
    let (w0, w1) = (alu(o.op0)?, alu(o.op1)?);
    let (c0, c1) = (bitvec_class(w0), bitvec_class(w1));
    if let (Some(a), Some(b)) = (c0, c1)
        && a != b
    {
        return Err(EncodeError::AluClassMix(o.op0, o.op1));
    }
    let bitvec = c0 == Some(true) || c1 == Some(true);
    let (row, transpose) = isa::tensor_scalar_row(&o.form, bitvec);
    // The row's engines are the legal ones: a bitvec TensorScalar is Vector only (isa-table
    // row 25), whatever engines the arith form allows.
    super::row_engine(row, inst.engine)?;
    let q = SelectQuery {
        transpose,
        ..SelectQuery::new(arch.target)
            .on_engine(inst.engine)
            .with_dtypes(o.dst.dtype(), &[o.src.dtype()])
            .with_alu(o.op0)
    };
    // Every case is admitted: the target gate of EXPONENTIAL is `form_gate`'s (a family check),
    // which COLLECT does not run.
    Ok((table(row, &q, |_| true)?.opcodes, w0, w1))
}

/// `IMM_SRC` and `IMM_VAL_INST_FIELD` of a scalar operand; `int` says whether an inline value
/// must be an integer (else fp32).
fn imm(o: ImmOperand, int: bool, field: &'static str) -> Result<(u8, u32), EncodeError> {
    match o {
        ImmOperand::Fp32(x) if !int => Ok((0, x.to_bits())),
        ImmOperand::Int(x) if int => Ok((0, x)),
        ImmOperand::Fp32(_) | ImmOperand::Int(_) => Err(EncodeError::ImmKind {
            field,
            expected: if int { "an integer" } else { "fp32" },
        }),
        ImmOperand::Ptr(p) => Ok((1, p)),
        ImmOperand::Reg(r) if r < crate::addr4::NUM_ADDR_REGISTERS => Ok((2, r as u32)),
        ImmOperand::Reg(r) => Err(EncodeError::RegisterOutOfRange(r)),
    }
}

/// The per-form gates `check_target` adds for this group: EXPONENTIAL exists on mariana only,
/// and only the plain TENSOR_SCALAR runs on another engine than Vector (the cache forms are
/// Vector ops per the irbuilder docstrings; EXPONENTIAL is listed for Vector).
pub(crate) fn form_gate(inst: &Instruction, arch: &ArchModel) -> Result<(), EncodeError> {
    if let Op::TensorScalar(o) = &inst.op {
        if matches!(o.form, TsForm::Exponential) && !arch.has(Family::Exponential) {
            return Err(EncodeError::NotOnTarget {
                target: arch.target,
                family: Family::Exponential,
            });
        }
        let plain = matches!(o.form, TsForm::Plain);
        if !plain && inst.engine != Engine::Vector {
            return Err(EncodeError::EngineMismatch {
                op: "tensor_scalar (cache, transpose and exponential forms)",
                engine: inst.engine,
            });
        }
    }
    Ok(())
}

/// TensorScalar: one S3D3_TS bundle, and the 0x9b read-out after the cache-reduce form.
pub(super) fn encode_ts<S: Sink>(
    inst: &Instruction,
    o: &TensorScalar,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    let (opcodes, w0, w1) = ts_select(inst, o, arch)?;
    let int = opcodes == [c3::TENSOR_SCALAR_BITVEC.opcode];
    let acc = match o.form {
        TsForm::Plain | TsForm::Transpose if o.accumulate != BirAccumulation::Idle => {
            return Err(EncodeError::AccumulateNotIdle);
        }
        _ => accum_to_wire(o.accumulate).ok_or(EncodeError::AccumNotEncodable(o.accumulate))?,
    };
    let (s0, v0) = imm(o.imm0, int, "imm0")?;
    let (s1, v1) = imm(o.imm1, int, "imm1")?;
    let dst = static_only(&o.dst, "tensor_scalar dst_mem_pattern")?;
    // The sequence is the S3D3_TS bundle and, for the cache-reduce form, the D1_RD read-out of
    // reduce_res (the table's 0x9a, 0x9b).
    let (opcode, readout) = match (&o.form, opcodes) {
        (TsForm::CacheReduce { reduce_res }, [op, rd]) => (*op, Some((reduce_res, *rd))),
        (TsForm::CacheReduce { .. }, _) | (_, [] | [_, _, ..]) => {
            return Err(EncodeError::Unpinned {
                op: "tensor_scalar",
                missing: "an ISA-table sequence of the form's bundle count",
            });
        }
        (_, [op]) => (*op, None),
    };

    let b = sink.begin()?;
    setup_header(b, opcode);
    setup_sync(b, &inst.sync, true, readout.is_none())?;
    ts::ACCUMULATOR_CMD.put_u8(b, acc);
    assign_access_3d(ts::SRC.slot(b), &o.src, arch)?;
    ts::IN_DTYPE.put_u8(b, wire(o.src.dtype(), arch));
    ts::OUT_DTYPE.put_u8(b, wire(dst.dtype, arch));
    ts::ACTIVE.put_u8(b, active(&o.src, arch)?);
    ts::IMM0_SRC.put_u8(b, s0);
    ts::OP0.put_u8(b, w0);
    ts::OP1.put_u8(b, w1);
    ts::REVERSE_OPERANDS.put_u8(b, o.reverse0 as u8 | (o.reverse1 as u8) << 1);
    ts::IMM1_SRC.put_u8(b, s1);
    ts::IMM0.put_u32(b, v0);
    ts::IMM1.put_u32(b, v1);
    assign_static::<3>(ts::DST.slot::<16>(b), dst, arch)?;
    sink.end();
    if let Some((res, opcode)) = readout {
        read_accumulator(sink, opcode, res, &inst.sync, false, arch)?;
    }
    Ok(())
}

/// A D1_RD read-out bundle (0x9b or 0x24): `dst_element_count` 1, the dtype, `negated` 0, the
/// active channels and the TENSOR1D destination. `first` says whether it carries the wait.
fn read_accumulator<S: Sink>(
    sink: &mut S,
    opcode: u8,
    dst: &AccessPattern,
    sync: &SyncInfo,
    first: bool,
    arch: &ArchModel,
) -> Result<(), EncodeError> {
    let res = static_only(dst, "read_accumulator dst_mem_pattern")?;
    let b = sink.begin()?;
    setup_header(b, opcode);
    setup_sync(b, sync, first, true)?;
    rd::DST_ELEMENT_COUNT.put_u32(b, 1);
    rd::DTYPE.put_u8(b, wire(res.dtype, arch));
    rd::ACTIVE.put_u8(b, active(dst, arch)?);
    assign_static::<1>(rd::DST.slot::<8>(b), res, arch)?;
    sink.end();
    Ok(())
}

/// The ISA row the Activation encoder reads (resolved at compile time).
const ACTIVATION: &isa::Row = isa::row_const("activation");

/// The opcode of an Activation on the target, read from the ISA table. Only 0x21 has a field
/// table: a target whose case is another opcode (mariana's 0x25 ACTIVATE2) is unpinned, with
/// the layout gap that keeps it so.
pub(crate) fn activation_select(
    inst: &Instruction,
    o: &Activation,
    arch: &ArchModel,
) -> Result<&'static [u8], EncodeError> {
    let q = SelectQuery::new(arch.target)
        .on_engine(inst.engine)
        .with_dtypes(o.dst.dtype(), &[o.src.dtype()]);
    let d = table(ACTIVATION, &q, |_| true)?;
    match d.opcodes {
        [op] if *op == c3::ACTIVATE.opcode => Ok(d.opcodes),
        [op, ..] => Err(EncodeError::Unpinned {
            op: "activation",
            missing: crate::formats::layout_gap(*op),
        }),
        [] => Err(EncodeError::Unpinned {
            op: "activation",
            missing: "an ISA-table opcode sequence",
        }),
    }
}

/// Activation: one ACTIVATE 0x21 bundle. The accumulate byte is the CC's: BIR `Idle` writes
/// ZERO_ACCUMULATE (3), every other command its `ACCUM_CMD`; the second immediate is written
/// exactly for the functions of the CC gate ([`crate::enums::ActivationFunc::takes_imm`]).
pub(super) fn encode_activation<S: Sink>(
    inst: &Instruction,
    o: &Activation,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    activation_select(inst, o, arch)?;
    let acc = match o.accumulate {
        BirAccumulation::Idle => 3,
        a => accum_to_wire(a).ok_or(EncodeError::AccumNotEncodable(a))?,
    };
    let (sb, vb) = imm(o.bias, false, "bias")?;
    let (ss, vs) = imm(o.scale, false, "scale_value")?;
    let (si, vi) = match (o.imm, o.func.takes_imm()) {
        (Some(x), true) => imm(x, false, "imm")?,
        (None, false) => (0, 0),
        (Some(_), false) | (None, true) => {
            return Err(EncodeError::ActivationImm {
                func: o.func.name(),
                takes: o.func.takes_imm(),
            });
        }
    };
    let in_dtype = super::in_wire(o.src.dtype(), arch)?;
    let dst = static_only(&o.dst, "activation dst_mem_pattern")?;
    let b = sink.begin()?;
    setup_header(b, c3::ACTIVATE.opcode);
    setup_sync(b, &inst.sync, true, true)?;
    act::IMM_SRC.put_u8(b, si);
    act::SCALE_SRC.put_u8(b, ss);
    act::ACCUMULATOR_CMD.put_u8(b, acc);
    // IMM_SRC_N: the inverted polarity of IMM_SRC (0 <-> 1; the register source stays 2).
    act::BIAS_SRC_N.put_u8(b, invert_imm_src(sb));
    assign_access_3d(act::SRC.slot(b), &o.src, arch)?;
    act::IN_DTYPE.put_u8(b, in_dtype);
    act::OUT_DTYPE.put_u8(b, wire(dst.dtype, arch));
    act::ACTIVE.put_u8(b, active(&o.src, arch)?);
    act::ACTIVATION_FUNC.put_u8(b, o.func.wire());
    act::SCALE_VALUE.put_u32(b, vs);
    act::BIAS.put_u32(b, vb);
    act::IMM.put_u32(b, vi);
    assign_static::<3>(act::DST.slot::<16>(b), dst, arch)?;
    sink.end();
    Ok(())
}

/// `IMM_SRC` <-> `IMM_SRC_N` (an involution: 0 and 1 swap, 2 stays).
pub(crate) fn invert_imm_src(s: u8) -> u8 {
    match s {
        0 => 1,
        1 => 0,
        x => x,
    }
}

/// ActivationReadAccumulator: one D1_RD bundle, opcode 0x24.
pub(super) fn encode_act_read<S: Sink>(
    inst: &Instruction,
    o: &ActivationReadAccumulator,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    let opcode = c3::ACTIVATION_READ_ACCUMULATOR.opcode;
    read_accumulator(sink, opcode, &o.dst, &inst.sync, true, arch)
}

/// TensorScalarSelect: one S3D3_TS_SELECT bundle.
pub(super) fn encode_tss<S: Sink>(
    inst: &Instruction,
    o: &TensorScalarSelect,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    let d = wire(o.src.dtype(), arch);
    if wire(o.dst.dtype(), arch) != d {
        return Err(EncodeError::SingleDtype("tensor_scalar_select dtype"));
    }
    let (s1, v1) = imm(o.scalar, !WireDtype(d).is_float(), "src1_imm")?;
    let (sp, vp) = imm(o.pred, true, "pred_imm")?;
    if sp == 0 && vp > 1 {
        return Err(EncodeError::PredImmNotBool(vp));
    }
    let src = static_only(&o.src, "tensor_scalar_select src0_mem_pattern")?;
    let dst = static_only(&o.dst, "tensor_scalar_select dst_mem_pattern")?;
    let b = sink.begin()?;
    setup_header(b, c3::TENSOR_SCALAR_SELECT.opcode);
    setup_sync(b, &inst.sync, true, true)?;
    assign_static::<3>(tss::SRC.slot::<16>(b), src, arch)?;
    tss::REVERSED_PRED.put_u8(b, o.reversed_pred as u8);
    tss::ACTIVE.put_u8(b, active(&o.src, arch)?);
    tss::DTYPE.put_u8(b, d);
    tss::PRED_IMM_DTYPE.put_u8(b, wire(o.pred_imm_dtype, arch));
    tss::SRC1_IMM_SRC.put_u8(b, s1);
    tss::PRED_IMM_SRC.put_u8(b, sp);
    tss::SRC1_IMM.put_u32(b, v1);
    tss::PRED_IMM.put_u32(b, vp);
    assign_static::<3>(tss::DST.slot::<16>(b), dst, arch)?;
    sink.end();
    Ok(())
}

/// The opcodes an instruction of this group emits (COLLECT): the ISA table's sequence for
/// it, or the op's candidate list when the selection itself fails (the encoder then reports
/// the error).
pub(crate) fn opcodes(inst: &Instruction, arch: &ArchModel) -> &'static [u8] {
    let fallback = inst.op.kind().info().opcodes;
    match &inst.op {
        Op::TensorTensor(o) => tt_select(o, inst.engine, arch).map_or(fallback, |(ops, _)| ops),
        Op::CopyPredicated(o) => predicated_select(inst, o, arch).unwrap_or(fallback),
        Op::TensorScalar(o) => ts_select(inst, o, arch).map_or(fallback, |(ops, _, _)| ops),
        Op::Activation(o) => activation_select(inst, o, arch).unwrap_or(fallback),
        _ => fallback,
    }
}
