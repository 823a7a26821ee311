//! The instruction model of the 4D-slot compute ops: TensorReduce (0x42 / 0x52), TensorCopy
//! (0x46 Copy / 0x47 Cast), Reciprocal (0x48), Memset (0x49), Pool (0x45), CrossLaneReduce
//! (0x7C / 0x7D), Iota (0x7E) and TensorScalarAffineSelect (0x92): their operand structs and the
//! BIR-level enums their control bytes come from. Each field says where on the wire it lands
//! (`formats::compute4d`).

use std::fmt;

use super::{AccessPattern, Dims};
use crate::enums::BirAluOp;

/// BIR `AxisListType`: the free axes a TensorReduce folds. Wire `TENSOR_SUBDIM` = ordinal + 2
/// (CC `sub_120EAB0`, CONFIRMED; header X = 0x02 .. XYZW = 0x05).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum BirAxisList {
    /// The innermost free axis.
    X = 0,
    /// The two innermost.
    XY = 1,
    /// The three innermost.
    XYZ = 2,
    /// All four free axes.
    XYZW = 3,
}

impl BirAxisList {
    /// Every axis list, in BIR order.
    pub const ALL: [BirAxisList; 4] = [
        BirAxisList::X,
        BirAxisList::XY,
        BirAxisList::XYZ,
        BirAxisList::XYZW,
    ];

    /// The `TENSOR_SUBDIM` wire byte.
    pub fn wire(self) -> u8 {
        self as u8 + 2
    }

    /// The axis list whose wire byte is `w`.
    pub fn from_wire(w: u8) -> Option<BirAxisList> {
        Self::ALL.into_iter().find(|a| a.wire() == w)
    }
}

/// BIR pool function (CC: Max = 0, Avg = 1; the wire byte is ordinal + 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PoolFunc {
    /// Max pooling (wire 1); the CC writes `pool_scale` 1.0.
    Max = 0,
    /// Average pooling (wire 2); the CC writes `pool_scale` 1/N.
    Avg = 1,
}

impl PoolFunc {
    /// The wire byte.
    pub fn wire(self) -> u8 {
        self as u8 + 1
    }

    /// The function whose wire byte is `w`.
    pub fn from_wire(w: u8) -> Option<PoolFunc> {
        [PoolFunc::Max, PoolFunc::Avg]
            .into_iter()
            .find(|p| p.wire() == w)
    }
}

/// `NEURON_ISA_TPB_REDUCE_OP` of CrossLaneReduce (header; the CC reduce map `{add->0,
/// average->1, max->2, or->3, and->4, xor->5}` agrees). The first three are the arith opcode's
/// (0x7C), the last three the bitvec opcode's (0x7D).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum CrossLaneReduceOp {
    /// Sum (0x7C).
    Add = 0,
    /// Mean: the sum times `scale` (0x7C).
    Average = 1,
    /// Maximum (0x7C).
    Max = 2,
    /// Bitwise or (0x7D).
    BitwiseOr = 3,
    /// Bitwise and (0x7D).
    BitwiseAnd = 4,
    /// Bitwise xor (0x7D).
    BitwiseXor = 5,
}

impl CrossLaneReduceOp {
    /// Every op, in wire order.
    pub const ALL: [CrossLaneReduceOp; 6] = [
        CrossLaneReduceOp::Add,
        CrossLaneReduceOp::Average,
        CrossLaneReduceOp::Max,
        CrossLaneReduceOp::BitwiseOr,
        CrossLaneReduceOp::BitwiseAnd,
        CrossLaneReduceOp::BitwiseXor,
    ];

    /// The wire byte (identity).
    pub fn wire(self) -> u8 {
        self as u8
    }

    /// The op whose wire byte is `w`.
    pub fn from_wire(w: u8) -> Option<CrossLaneReduceOp> {
        Self::ALL.get(w as usize).copied()
    }

    /// Whether the op belongs to the bitvec opcode 0x7D (else the arith opcode 0x7C).
    pub fn is_bitvec(self) -> bool {
        self as u8 >= 3
    }
}

/// `REDUCE_AXIS` of CrossLaneReduce (header): ALL folds everything to one element, PARTITIONS
/// folds the partitions and keeps the free elements (CC: axis XYZWC -> 0, C -> 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum CrossLaneAxis {
    /// Wire 0: one element; the destination's counts are all 1.
    All = 0,
    /// Wire 1: the destination has the source's element count.
    Partitions = 1,
}

impl CrossLaneAxis {
    /// The axis whose wire byte is `w`.
    pub fn from_wire(w: u8) -> Option<CrossLaneAxis> {
        match w {
            0 => Some(CrossLaneAxis::All),
            1 => Some(CrossLaneAxis::Partitions),
            _ => None,
        }
    }
}

/// `AFFINE_SELECT_CMP` (header): how the generated mask value is compared with 0; where the
/// comparison holds the output is the input, elsewhere the fill value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum AffineCmp {
    /// mask > 0 (wire 0).
    GreaterThan = 0,
    /// mask >= 0 (wire 1).
    GreaterThanEq = 1,
    /// mask == 0 (wire 2).
    Eq = 2,
    /// mask != 0 (wire 3).
    NotEq = 3,
}

impl AffineCmp {
    /// Every comparison, in wire order.
    pub const ALL: [AffineCmp; 4] = [
        AffineCmp::GreaterThan,
        AffineCmp::GreaterThanEq,
        AffineCmp::Eq,
        AffineCmp::NotEq,
    ];

    /// The comparison whose wire byte is `w`.
    pub fn from_wire(w: u8) -> Option<AffineCmp> {
        Self::ALL.get(w as usize).copied()
    }
}

/// A generated index pattern (DATA4D): `base + sum(i_d * step_d)` over the free dims, outermost
/// first as in an access pattern. Packed like an access pattern's dims (`data4d`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GenPattern {
    /// Value at index 0 (int32).
    pub base: i32,
    /// Up to four generated dims (step = the value increment per index).
    pub dims: Dims,
}

impl GenPattern {
    /// Elements generated (product of the dim counts; 1 for none).
    pub fn num_elements(&self) -> u64 {
        self.dims.iter().map(|d| d.num as u64).product()
    }
}

/// TensorReduce 0x42 (arith) / 0x52 (bitvec), S4D4_TR.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorReduce {
    /// Source (+0x0C TENSOR4D / INDIRECT20B).
    pub src: AccessPattern,
    /// Destination (+0x2C).
    pub dst: AccessPattern,
    /// +0x24 the reduction's ALU op (arith class on 0x42, bitvec class on 0x52).
    pub op: BirAluOp,
    /// +0x25 `op_dim`: the axes reduced.
    pub axis: BirAxisList,
    /// +0x23 `negated` (CC "negate").
    pub negated: bool,
}

/// TensorCopy: 0x46 COPY when the BIR dtypes agree, 0x47 CAST otherwise (CC
/// `visitInstTensorCopy`: opcode = (src.Dtype != dst.Dtype) + 0x46), S4D4_TR.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorCopy {
    /// Source (+0x0C).
    pub src: AccessPattern,
    /// Destination (+0x2C).
    pub dst: AccessPattern,
}

/// Reciprocal 0x48 (S4D4_TR per the header binding).
#[derive(Clone, Debug, PartialEq)]
pub struct Reciprocal {
    /// Source (+0x0C).
    pub src: AccessPattern,
    /// Destination (+0x2C).
    pub dst: AccessPattern,
}

/// Memset 0x49 (CC layout only).
#[derive(Clone, Debug, PartialEq)]
pub struct Memset {
    /// Destination (+0x2C TENSOR4D; conflict #11 settled in `formats::compute4d`).
    pub dst: AccessPattern,
    /// +0x28: the fill value's 32-bit pattern in the destination dtype (f32 bits for fp32).
    pub fill_value: u32,
}

/// Pool 0x45 (S4D4_PL, CC layout).
#[derive(Clone, Debug, PartialEq)]
pub struct Pool {
    /// Source (+0x0C TENSOR4D).
    pub src: AccessPattern,
    /// Destination (+0x2C TENSOR4D).
    pub dst: AccessPattern,
    /// +0x24 pool function.
    pub func: PoolFunc,
    /// +0x28 f32 scale: 1.0 for Max, 1/N for Avg (the caller computes N).
    pub pool_scale: f32,
}

/// CrossLaneReduce 0x7C (arith) / 0x7D (bitvec), S4D4_CR: a reduction across partitions.
#[derive(Clone, Debug, PartialEq)]
pub struct CrossLaneReduce {
    /// Source (+0x0C TENSOR4D, SBUF only).
    pub src: AccessPattern,
    /// Destination (+0x2C TENSOR4D, SBUF only, one partition).
    pub dst: AccessPattern,
    /// +0x23 reduce op (its class picks the opcode's kind).
    pub op: CrossLaneReduceOp,
    /// +0x24 reduce axis.
    pub axis: CrossLaneAxis,
    /// +0x28 f32 multiplier (AVERAGE's 1/N).
    pub scale: f32,
}

/// Iota 0x7E (D4_IOTA): writes the generated pattern (plus `channel * channel_multiplier`).
#[derive(Clone, Debug, PartialEq)]
pub struct Iota {
    /// +0x0C `src_data_pattern` DATA4D.
    pub pattern: GenPattern,
    /// Destination (+0x2C TENSOR4D; SBUF or PSUM).
    pub dst: AccessPattern,
    /// +0x24 int32 added per partition index.
    pub channel_multiplier: i32,
}

/// TensorScalarAffineSelect 0x92 (S2D2_TS_AS): `out = (mask <fill_mode> 0) ? in : fill`.
#[derive(Clone, Debug, PartialEq)]
pub struct AffineSelect {
    /// Source (+0x24 TENSOR2D).
    pub src: AccessPattern,
    /// Destination (+0x30 TENSOR2D).
    pub dst: AccessPattern,
    /// +0x10 `mask_pattern` DATA4D.
    pub mask: GenPattern,
    /// +0x0E comparison of the mask with 0.
    pub fill_mode: AffineCmp,
    /// +0x0F register holding the FP32 fill value.
    pub fill_reg: u8,
    /// +0x3C int32 added to the mask per partition index.
    pub channel_multiplier: i32,
}

impl fmt::Display for GenPattern {
    /// `BASE[STEP:NUM,..]`, dims outermost first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[", self.base)?;
        for (i, d) in self.dims.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            write!(f, "{sep}{}:{}", d.step, d.num)?;
        }
        f.write_str("]")
    }
}

impl TensorReduce {
    pub(super) fn fmt_fields(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            " src={} dst={} op={:?} axis={:?} negated={}",
            self.src, self.dst, self.op, self.axis, self.negated
        )
    }
}

impl Memset {
    pub(super) fn fmt_fields(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, " dst={} fill_value={:#x}", self.dst, self.fill_value)
    }
}

impl Pool {
    pub(super) fn fmt_fields(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            " src={} dst={} func={:?} pool_scale={:?}",
            self.src, self.dst, self.func, self.pool_scale
        )
    }
}

impl CrossLaneReduce {
    pub(super) fn fmt_fields(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            " src={} dst={} op={:?} axis={:?} scale={:?}",
            self.src, self.dst, self.op, self.axis, self.scale
        )
    }
}

impl Iota {
    pub(super) fn fmt_fields(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            " pattern={} dst={} channel_multiplier={}",
            self.pattern, self.dst, self.channel_multiplier
        )
    }
}

impl AffineSelect {
    pub(super) fn fmt_fields(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            " src={} dst={} mask={} fill_mode={:?} fill_reg={} channel_multiplier={}",
            self.src, self.dst, self.mask, self.fill_mode, self.fill_reg, self.channel_multiplier
        )
    }
}
