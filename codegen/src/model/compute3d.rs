//! Instruction-model types of the 3D-slot compute formats: TENSOR_TENSOR (S3S3D3_TT, with the
//! predicated copy/cast on the same struct), TENSOR_SCALAR (S3D3_TS and its cache/transpose/
//! exponential forms), TENSOR_SCALAR_SELECT (S3D3_TS_SELECT) and the Scalar engine's
//! ACTIVATE (0x21) and accumulator read-out (D1_RD 0x24), with their one-line text forms.
//!
//! Every field says where on the wire it goes (`formats::compute3d` holds the offsets).

use super::AccessPattern;
use crate::dtype::BirDtype;
use crate::enums::{ActivationFunc, BirAccumulation, BirAluOp};

/// A scalar operand of an `IMM_SRC` + `IMM_VAL_INST_FIELD` pair (header S3D3_TS): an inline
/// immediate typed by the opcode (fp32 for the arithmetic forms, an integer for the bitvec
/// form and integer dtypes), a pointer, or a register holding the pointer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ImmOperand {
    /// Inline fp32 (`IMM_SRC` 0; the arithmetic forms).
    Fp32(f32),
    /// Inline integer bits (`IMM_SRC` 0; the bitvec form and integer data).
    Int(u32),
    /// `PARTITION_OFFSET` of the value (`IMM_SRC` 1).
    Ptr(u32),
    /// Register holding the pointer (`IMM_SRC` 2; register ids are 0..63).
    Reg(u8),
}

/// TENSOR_TENSOR (S3S3D3_TT): `dst = in0 op in1`. The opcode follows from the op, the dtypes,
/// the engine and the target (`ops::compute3d::tt_select`): 0x41 arithmetic, 0x51 bitvec, the
/// sunda bf16 opcodes 0x8a/0x8b/0x8f, the GpSimd int32 form (0x41 with an integer ALU byte).
#[derive(Clone, Debug, PartialEq)]
pub struct TensorTensor {
    /// `src0_mem_pattern` (TENSOR3D, dtype in the `in0_in1_dtype` low nibble).
    pub in0: AccessPattern,
    /// `src1_mem_pattern` (TENSOR3D, dtype in the high nibble).
    pub in1: AccessPattern,
    /// `dst_mem_pattern` (TENSOR3D, `out_dtype`).
    pub dst: AccessPattern,
    /// The ALU op (+0x0E).
    pub op: BirAluOp,
}

/// COPY_PREDICATED 0x72 / CAST_PREDICATED 0x99 (the S3S3D3_TT struct, op byte BYPASS):
/// `dst = mask ? src : dst`. 0x72 when `src` and `dst` have the same wire dtype, else 0x99.
#[derive(Clone, Debug, PartialEq)]
pub struct CopyPredicated {
    /// The predicate (`src0_mem_pattern`, low nibble; header "src0-integer predicate").
    pub mask: AccessPattern,
    /// The data (`src1_mem_pattern`, high nibble).
    pub src: AccessPattern,
    /// `dst_mem_pattern`.
    pub dst: AccessPattern,
}

/// Which TENSOR_SCALAR opcode (CC `generateTensorScalarOrPtr` fork; the cache, cumulative and
/// exponential forms are separate NISA ops on the same struct).
#[derive(Clone, Debug, PartialEq)]
pub enum TsForm {
    /// 0x43, or 0x53 when the ops are bitvec ops.
    Plain,
    /// 0x93 (`apply_transpose`).
    Transpose,
    /// 0x9a, followed by a 0x9b DveReadAccumulator that reads the result out to `reduce_res`.
    CacheReduce {
        /// The 0x9b destination (TENSOR1D).
        reduce_res: AccessPattern,
    },
    /// 0xe6 (tensor_scalar_cache_cumulative).
    CacheCumulative,
    /// 0x30 EXPONENTIAL (mariana only).
    Exponential,
}

/// TENSOR_SCALAR (S3D3_TS): `dst = (src op0 imm0) op1 imm1`, operand order per `reverse0/1`.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorScalar {
    /// `src_mem_pattern` (+0x10; MEM_PATTERN3D, an indirect record on mariana).
    pub src: AccessPattern,
    /// `dst_mem_pattern` (+0x30, TENSOR3D).
    pub dst: AccessPattern,
    /// `op0` (+0x24).
    pub op0: BirAluOp,
    /// `op1` (+0x25).
    pub op1: BirAluOp,
    /// Bit 0 of `reverse_operands` (+0x26): `imm0 op0 t` instead of `t op0 imm0`.
    pub reverse0: bool,
    /// Bit 1 of `reverse_operands`.
    pub reverse1: bool,
    /// `imm0_src` (+0x23) and `imm0` (+0x28).
    pub imm0: ImmOperand,
    /// `imm1_src` (+0x27) and `imm1` (+0x2C).
    pub imm1: ImmOperand,
    /// `accumulator_cmd` (+0x0C); must be idle on 0x43/0x53/0x93.
    pub accumulate: BirAccumulation,
    /// Which opcode.
    pub form: TsForm,
}

/// TENSOR_SCALAR_SELECT 0x98 (S3D3_TS_SELECT):
/// `dst = pred ? (reversed ? scalar : src) : (reversed ? src : scalar)`.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorScalarSelect {
    /// `src0_mem_pattern` (+0x10); its dtype is the single `dtype` (+0x22).
    pub src: AccessPattern,
    /// `dst_mem_pattern` (+0x30); must have the same wire dtype as `src`.
    pub dst: AccessPattern,
    /// `reversed_pred` (+0x20).
    pub reversed_pred: bool,
    /// `pred_imm_dtype` (+0x23).
    pub pred_imm_dtype: BirDtype,
    /// `src1_imm_src` / `src1_imm` (+0x26 / +0x28): inline `Fp32` for a float dtype, `Int`
    /// otherwise.
    pub scalar: ImmOperand,
    /// `pred_imm_src` / `pred_imm` (+0x27 / +0x2C): inline `Int(0)` or `Int(1)`.
    pub pred: ImmOperand,
}

/// ActivationReadAccumulator 0x24 (D1_RD, the layout of 0x9b): reads the Scalar engine's
/// accumulators out to `dst`.
#[derive(Clone, Debug, PartialEq)]
pub struct ActivationReadAccumulator {
    /// `dst_mem_pattern` (+0x2C, TENSOR1D).
    pub dst: AccessPattern,
}

/// ACTIVATE 0x21 (Scalar engine): `dst = func(src * scale + bias)`, optionally accumulated in
/// the engine's accumulators (read out by [`ActivationReadAccumulator`]). `formats::compute3d::act`
/// holds the offsets, four of them assumed.
#[derive(Clone, Debug, PartialEq)]
pub struct Activation {
    /// `src_mem_pattern` (+0x10); its dtype is `in_dtype` (+0x20).
    pub src: AccessPattern,
    /// `dst_mem_pattern` (+0x30); its dtype is `out_dtype` (+0x21).
    pub dst: AccessPattern,
    /// `activation_func` (+0x23), the wire byte of `ActivationFunc::wire`.
    pub func: ActivationFunc,
    /// `bias_src_n` / `bias` (+0x0F / +0x28): inline `Fp32`, or `Ptr` / `Reg` for a
    /// per-partition bias tile.
    pub bias: ImmOperand,
    /// `scale_src` / `scale_value` (+0x0D / +0x24): inline `Fp32`, or `Ptr` / `Reg` for a
    /// per-partition scale tile.
    pub scale: ImmOperand,
    /// `imm_src` / `imm` (+0x0C / +0x2C): the second immediate, present exactly when the
    /// function takes one (`ActivationFunc::takes_imm`: Prelu, Copy, Reciprocal).
    pub imm: Option<ImmOperand>,
    /// `accumulator_cmd` (+0x0E, assumed offset). BIR `Idle` and `ZeroAccumulate` both write
    /// ZERO_ACCUMULATE (3), the CC's 0x21 rule, so the byte 3 lifts as `Idle`.
    pub accumulate: BirAccumulation,
}

impl std::fmt::Display for ImmOperand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            ImmOperand::Fp32(x) => write!(f, "imm:{x:?}"),
            ImmOperand::Int(x) => write!(f, "int:{x:#x}"),
            ImmOperand::Ptr(p) => write!(f, "ptr:{p:#x}"),
            ImmOperand::Reg(r) => write!(f, "reg:{r}"),
        }
    }
}

impl TensorTensor {
    /// The op's fields in the instruction text.
    pub(crate) fn fmt_fields(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            " in0={} in1={} dst={} op={:?}",
            self.in0, self.in1, self.dst, self.op
        )
    }
}

impl CopyPredicated {
    /// The op's fields in the instruction text.
    pub(crate) fn fmt_fields(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, " mask={} src={} dst={}", self.mask, self.src, self.dst)
    }
}

impl TensorScalar {
    /// The op's fields in the instruction text.
    pub(crate) fn fmt_fields(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let form = match &self.form {
            TsForm::Plain => "plain",
            TsForm::Transpose => "transpose",
            TsForm::CacheReduce { .. } => "cache_reduce",
            TsForm::CacheCumulative => "cache_cumulative",
            TsForm::Exponential => "exponential",
        };
        write!(
            f,
            " form={form} src={} dst={} op0={:?} op1={:?} reverse0={} reverse1={} imm0={} imm1={} \
             accumulate={:?}",
            self.src,
            self.dst,
            self.op0,
            self.op1,
            self.reverse0,
            self.reverse1,
            self.imm0,
            self.imm1,
            self.accumulate
        )?;
        if let TsForm::CacheReduce { reduce_res } = &self.form {
            write!(f, " reduce_res={reduce_res}")?;
        }
        Ok(())
    }
}

impl TensorScalarSelect {
    /// The op's fields in the instruction text.
    pub(crate) fn fmt_fields(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            " src={} dst={} reversed_pred={} pred_imm_dtype={:?} scalar={} pred={}",
            self.src, self.dst, self.reversed_pred, self.pred_imm_dtype, self.scalar, self.pred
        )
    }
}

impl Activation {
    /// The op's fields in the instruction text.
    pub(crate) fn fmt_fields(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            " src={} dst={} func={} bias={} scale={} accumulate={:?}",
            self.src, self.dst, self.func, self.bias, self.scale, self.accumulate
        )?;
        if let Some(imm) = self.imm {
            write!(f, " imm={imm}")?;
        }
        Ok(())
    }
}

impl ActivationReadAccumulator {
    /// The op's fields in the instruction text.
    pub(crate) fn fmt_fields(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, " dst={}", self.dst)
    }
}
