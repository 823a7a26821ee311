//! Small wire enumerations (ALU op, accumulate command, immediate source, sync modes) and the
//! BIR -> wire lookup tables for them.
//!
//! Each enumeration is one `(code, name)` table; the printer, the assembler and the validators
//! read the same table. Unknown codes are legal bytes for the decoder (printed as hex); which
//! codes a field accepts is a validator rule, not a decoder property.

use crate::arch::CoreGen;

// Enumerations of the 4D-slot compute formats.
pub mod compute4d;
pub use compute4d::*;

/// A named wire-code table.
pub type NameTable = &'static [(u8, &'static str)];

/// `NEURON_ISA_TPB_ALU_OP` (bundle-layouts §4x.1; header, HIGH/OBSERVED). The 0x20/0x21 rows are
/// the core_v4 converter's abs_max/abs_min (CC, CONFIRMED).
pub const ALU_OPS: NameTable = &[
    (0x00, "bypass"),
    (0x01, "bitwise_not"),
    (0x02, "arith_shift_left"),
    (0x03, "arith_shift_right"),
    (0x04, "add"),
    (0x05, "subtract"),
    (0x06, "mult"),
    (0x07, "divide"),
    (0x08, "max"),
    (0x09, "min"),
    (0x0a, "bitwise_and"),
    (0x0b, "bitwise_or"),
    (0x0c, "bitwise_xor"),
    (0x0d, "logical_and"),
    (0x0e, "logical_or"),
    (0x0f, "logical_xor"),
    (0x10, "logical_shift_left"),
    (0x11, "logical_shift_right"),
    (0x12, "is_eq"),
    (0x13, "is_gt"),
    (0x14, "is_ge"),
    (0x15, "is_le"),
    (0x16, "is_lt"),
    (0x17, "absolute_diff"),
    (0x18, "is_ne"),
    (0x19, "absolute_value"),
    (0x1a, "pow"),
    (0x1b, "mod"),
    (0x1c, "crc32"),
    (0x1d, "rsqrt"),
    (0x20, "abs_max"),
    (0x21, "abs_min"),
    (0xc4, "add_int"),
    (0xc5, "mult_int"),
    (0xc6, "subtract_int"),
    (0xc7, "divide_int"),
    (0xc8, "mod_int"),
    (0xc9, "is_equal_int"),
    (0xca, "is_ne_int"),
    (0xcb, "abs_max_int"),
    (0xcc, "abs_min_int"),
    (0xcd, "abs_diff_int"),
    (0xce, "abs_value_int"),
    (0xcf, "max_int"),
    (0xd0, "min_int"),
    (0xd1, "is_gt_int"),
    (0xd2, "is_ge_int"),
    (0xd3, "is_le_int"),
    (0xd4, "is_lt_int"),
    (0xd5, "max_uint"),
    (0xd6, "min_uint"),
    (0xd7, "is_gt_uint"),
    (0xd8, "is_ge_uint"),
    (0xd9, "is_le_uint"),
    (0xda, "is_lt_uint"),
    (0xdb, "mult_uint"),
    (0xdc, "divide_uint"),
    (0xdd, "mod_uint"),
    (0xde, "amax_int"),
    (0xdf, "amin_int"),
    (0xe0, "amax_uint"),
    (0xe1, "amin_uint"),
];

/// Wire ALU codes RangeSelect accepts as comparison ops: IS_EQ..IS_LT (header S2D2_RS).
pub const RS_COMP_OPS: [u8; 5] = [0x12, 0x13, 0x14, 0x15, 0x16];
/// Wire ALU MAX, the only RangeSelect reduce op (seed "+0x0F=8"; header "must be MAX 0x08").
pub const ALU_MAX: u8 = 0x08;

/// A BIR `AluOpType` (bundle-layouts §4x.1 (2), CC CONFIRMED).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
#[allow(missing_docs)] // the variant names are the BIR names
pub enum BirAluOp {
    Bypass = 0,
    BitwiseNot = 1,
    ArithShiftLeft = 2,
    ArithShiftRight = 3,
    Add = 4,
    Subtract = 5,
    Mult = 6,
    Divide = 7,
    Max = 8,
    Min = 9,
    BitwiseAnd = 10,
    BitwiseOr = 11,
    BitwiseXor = 12,
    LogicalAnd = 13,
    LogicalOr = 14,
    LogicalXor = 15,
    LogicalShiftLeft = 16,
    LogicalShiftRight = 17,
    IsEqual = 18,
    NotEqual = 19,
    IsGt = 20,
    IsGe = 21,
    IsLt = 22,
    IsLe = 23,
    Average = 24,
    ElemwiseMul = 25,
    Pow = 26,
    Mod = 27,
    Rsqrt = 28,
    Abs = 29,
    AbsMax = 30,
    AbsMin = 31,
    ModInt = 32,
}

impl BirAluOp {
    /// Every BIR ALU op, in enum order.
    pub const ALL: [BirAluOp; 33] = {
        use BirAluOp::*;
        [
            Bypass,
            BitwiseNot,
            ArithShiftLeft,
            ArithShiftRight,
            Add,
            Subtract,
            Mult,
            Divide,
            Max,
            Min,
            BitwiseAnd,
            BitwiseOr,
            BitwiseXor,
            LogicalAnd,
            LogicalOr,
            LogicalXor,
            LogicalShiftLeft,
            LogicalShiftRight,
            IsEqual,
            NotEqual,
            IsGt,
            IsGe,
            IsLt,
            IsLe,
            Average,
            ElemwiseMul,
            Pow,
            Mod,
            Rsqrt,
            Abs,
            AbsMax,
            AbsMin,
            ModInt,
        ]
    };
}

impl BirAluOp {
    /// The BIR spellings, in enum order: the names the NISA and BIR dialects write in
    /// `op = "..."` (NISA's ALU vocabulary is BIR `AluOpType` itself, so there is no separate
    /// NKI enum; NKI's `nl.multiply` is `mult` here, joined by name as bundle-layouts §4x.1 notes).
    pub const NAMES: [&'static str; 33] = [
        "bypass",
        "bitwise_not",
        "arith_shift_left",
        "arith_shift_right",
        "add",
        "subtract",
        "mult",
        "divide",
        "max",
        "min",
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
        "logical_and",
        "logical_or",
        "logical_xor",
        "logical_shift_left",
        "logical_shift_right",
        "is_equal",
        "not_equal",
        "is_gt",
        "is_ge",
        "is_lt",
        "is_le",
        "average",
        "elemwise_mul",
        "pow",
        "mod",
        "rsqrt",
        "abs",
        "abs_max",
        "abs_min",
        "mod_int",
    ];

    /// The BIR spelling.
    pub fn name(self) -> &'static str {
        BirAluOp::NAMES[self as usize]
    }

    /// Parses a BIR spelling.
    pub fn from_name(name: &str) -> Option<BirAluOp> {
        BirAluOp::ALL.into_iter().find(|op| op.name() == name)
    }
}

/// The BIR ALU op [`alu_to_wire`] maps to `wire` on `core` (the mapping is one-to-one where it
/// is defined).
pub fn alu_from_wire(wire: u8, core: CoreGen) -> Option<BirAluOp> {
    BirAluOp::ALL
        .into_iter()
        .find(|&op| alu_to_wire(op, core) == Some(wire))
}

/// BIR `AluOpType` -> wire byte (`sub_12039C0` v2/v3, `sub_142E030` v4; CC CONFIRMED).
/// `None` = the converter errors (average, elemwise_mul; the v4-only rows on v2/v3).
pub const fn alu_to_wire(op: BirAluOp, core: CoreGen) -> Option<u8> {
    let v4 = matches!(core, CoreGen::V4);
    let v = op as u8;
    match v {
        0..=18 => Some(v),
        19 => Some(0x18),
        20 => Some(0x13),
        21 => Some(0x14),
        22 => Some(0x16),
        23 => Some(0x15),
        24 | 25 => None,
        26 => Some(0x1a),
        27 => Some(0x1b),
        28 => Some(0x1d),
        29 => Some(0x19),
        30 if v4 => Some(0x20),
        31 if v4 => Some(0x21),
        32 if v4 => Some(0xc8),
        _ => None,
    }
}

/// A BIR `ActivationFunctionType` (0..29, bundle-layouts §4x.2, CC 59807467556 names), the
/// vocabulary the NISA and BIR dialects write in an activation's function attribute and the
/// emulator's activation table is keyed by. [`ActivationFunc::wire`] gives the ACTIVATE
/// `activation_func` byte (+0x23) of §4x.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)] // the variant names are the BIR names
pub enum ActivationFunc {
    Identity = 0,
    Square = 1,
    Relu = 2,
    Lrelu = 3,
    Prelu = 4,
    Sigmoid = 5,
    Tanh = 6,
    Exp = 7,
    Softplus = 8,
    Sqrt = 9,
    Rsqrt = 10,
    Ln = 11,
    Erf = 12,
    Sin = 13,
    Arctan = 14,
    Sign = 15,
    Gelu = 16,
    Mish = 17,
    GeluApprxTanh = 18,
    GeluApprxSigmoid = 19,
    DerivativeGeluApprxSigmoid = 20,
    DerivativeGelu = 21,
    DerivativeErf = 22,
    Copy = 23,
    Abs = 24,
    Reciprocal = 25,
    AbsReciprocalSqrt = 26,
    Silu = 27,
    DerivativeSilu = 28,
    IsFinite = 29,
}

impl ActivationFunc {
    /// Every function, in BIR order.
    pub const ALL: [ActivationFunc; 30] = {
        use ActivationFunc::*;
        [
            Identity,
            Square,
            Relu,
            Lrelu,
            Prelu,
            Sigmoid,
            Tanh,
            Exp,
            Softplus,
            Sqrt,
            Rsqrt,
            Ln,
            Erf,
            Sin,
            Arctan,
            Sign,
            Gelu,
            Mish,
            GeluApprxTanh,
            GeluApprxSigmoid,
            DerivativeGeluApprxSigmoid,
            DerivativeGelu,
            DerivativeErf,
            Copy,
            Abs,
            Reciprocal,
            AbsReciprocalSqrt,
            Silu,
            DerivativeSilu,
            IsFinite,
        ]
    };

    /// The dialect spellings (the BIR names in lower case), in BIR order.
    pub const NAMES: [&'static str; 30] = [
        "identity",
        "square",
        "relu",
        "lrelu",
        "prelu",
        "sigmoid",
        "tanh",
        "exp",
        "softplus",
        "sqrt",
        "rsqrt",
        "ln",
        "erf",
        "sin",
        "arctan",
        "sign",
        "gelu",
        "mish",
        "gelu_apprx_tanh",
        "gelu_apprx_sigmoid",
        "derivative_gelu_apprx_sigmoid",
        "derivative_gelu",
        "derivative_erf",
        "copy",
        "abs",
        "reciprocal",
        "abs_reciprocal_sqrt",
        "silu",
        "derivative_silu",
        "is_finite",
    ];

    /// The dialect spelling.
    pub fn name(self) -> &'static str {
        ActivationFunc::NAMES[self as usize]
    }

    /// Parses a dialect spelling.
    pub fn from_name(name: &str) -> Option<ActivationFunc> {
        ActivationFunc::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The wire `activation_func` byte: `ACTFUNC_map[BIR ActivationFunctionType]` (bundle-layouts
    /// §4x.2, CC CERTAIN; the v2 and v4 tables are identical), indexed by BIR order.
    pub const WIRE: [u8; 30] = [
        1, 30, 2, 3, 4, 5, 6, 7, 9, 8, 29, 10, 21, 19, 28, 31, 23, 24, 25, 26, 38, 32, 22, 128, 33,
        129, 34, 36, 37, 35,
    ];

    /// The wire `activation_func` byte of this function ([`ActivationFunc::WIRE`]).
    pub fn wire(self) -> u8 {
        ActivationFunc::WIRE[self as usize]
    }

    /// The function whose wire byte is `code` (the map is one-to-one).
    pub fn from_wire(code: u8) -> Option<ActivationFunc> {
        ActivationFunc::ALL.into_iter().find(|f| f.wire() == code)
    }

    /// Whether the 0x21 encoder writes the second immediate (`imm`, +0x2C) for this function:
    /// wire byte 4 (Prelu) or 0x80/0x81 (Copy/Reciprocal), the CC gate of §4x.2
    /// (`func == 4 || (u8)(func + 0x80) <= 1`).
    pub fn takes_imm(self) -> bool {
        activation_takes_imm(self.wire())
    }
}

/// [`ActivationFunc::takes_imm`] on a wire byte.
pub fn activation_takes_imm(code: u8) -> bool {
    code == 4 || code.wrapping_add(0x80) <= 1
}

/// The ACTIVATE `activation_func` wire names: [`ActivationFunc::WIRE`] with the dialect names.
pub const ACTIVATION_FUNCS: NameTable = &{
    let mut t = [(0u8, ""); 30];
    let mut i = 0;
    while i < 30 {
        t[i] = (ActivationFunc::WIRE[i], ActivationFunc::NAMES[i]);
        i += 1;
    }
    t
};

impl std::fmt::Display for ActivationFunc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// `ACCUM_CMD` wire names (header, bundle-layouts §4x.3).
pub const ACCUM_CMDS: NameTable = &[
    (0, "idle"),
    (1, "zero"),
    (2, "accumulate"),
    (3, "zero_accumulate"),
    (4, "load_accumulate"),
];

/// BIR `EngineAccumulationType`. Member names follow CC page 59795569557; CONFLICT #10: another
/// CC page names ordinals 1/3 differently. The wire values below agree across both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum BirAccumulation {
    Idle = 0,
    Zero = 1,
    Accumulate = 2,
    ZeroAccumulate = 3,
    AddAccumulate = 4,
    LoadAccumulate = 5,
}

/// BIR accumulation -> wire `ACCUM_CMD` (`sub_12038D0` / `sub_142DF40`, CC CONFIRMED):
/// {0->0, 1->1, 2->error, 3->3, 4->2, 5->4}.
pub fn accum_to_wire(a: BirAccumulation) -> Option<u8> {
    match a {
        BirAccumulation::Idle => Some(0),
        BirAccumulation::Zero => Some(1),
        BirAccumulation::Accumulate => None,
        BirAccumulation::ZeroAccumulate => Some(3),
        BirAccumulation::AddAccumulate => Some(2),
        BirAccumulation::LoadAccumulate => Some(4),
    }
}

impl BirAccumulation {
    /// Every BIR accumulation type, in enum order.
    pub const ALL: [BirAccumulation; 6] = [
        BirAccumulation::Idle,
        BirAccumulation::Zero,
        BirAccumulation::Accumulate,
        BirAccumulation::ZeroAccumulate,
        BirAccumulation::AddAccumulate,
        BirAccumulation::LoadAccumulate,
    ];
}

/// The BIR accumulation type [`accum_to_wire`] maps to `wire` (one-to-one where defined).
pub fn accum_from_wire(wire: u8) -> Option<BirAccumulation> {
    BirAccumulation::ALL
        .into_iter()
        .find(|&a| accum_to_wire(a) == Some(wire))
}

/// `IMM_SRC` (header): where a scalar operand comes from.
pub const IMM_SRCS: NameTable = &[(0, "inst"), (1, "ptr"), (2, "reg_ptr")];

/// `IMM_SRC_N` (header, ACTIVATE `bias_src_n`): the inverted-polarity twin of [`IMM_SRCS`], 0 a
/// pointer and 1 inline (bundle-layouts conflict #12; CC: 0 = mem-ptr, 1 = inline, 2 = reg).
pub const IMM_SRCS_N: NameTable = &[(0, "ptr"), (1, "inst"), (2, "reg_ptr")];

/// `WAIT_MODE` wire names. Header (GPSIMD) values 0x00/0x01/0x04/0x05/0x8x/0xFE; 0x07 from the CC
/// sync page (event set-then-clear). CONFLICT #7: the header names 0x04 WAIT_FOR_SEM_GT_IMM, the
/// CC calls it the default wait; the header name is used (header precedes compiler facts).
/// LT/LE codes are not given by any source and are left unnamed.
pub const WAIT_MODES: NameTable = &[
    (0x00, "none"),
    (0x01, "sem_eq_imm"),
    (0x04, "sem_gt_imm"),
    (0x05, "sem_ge_imm"),
    (0x07, "evt_set_clear"),
    (0x81, "sem_eq_reg"),
    (0x84, "sem_gt_reg"),
    (0x85, "sem_ge_reg"),
    (0xfe, "unordered"),
];

/// `UPDATE_MODE` wire names: header values 0x00/0x03/0x04/0x05/0x13/0x14/0x15/0x99 and the CC
/// sync-page values 0x11/0x17/0x19 (bundle-layouts §3b/§3c).
pub const UPDATE_MODES: NameTable = &[
    (0x00, "none"),
    (0x03, "sem_inc_read"),
    (0x04, "sem_dec_read"),
    (0x05, "sem_add_imm_read"),
    (0x11, "evt_set"),
    (0x13, "sem_inc"),
    (0x14, "sem_dec"),
    (0x15, "sem_add_imm"),
    (0x17, "sem_sub_imm"),
    (0x19, "sem_wr_imm"),
    (0x99, "sem_wr_reg"),
];

/// A BIR wait mode the sync encoder accepts. CC: the LUT `{07,05,85}` is indexed by BIR mode and
/// "only two wait modes supported now" (GE imm / GE reg); index 0 is documented as an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BirWaitMode {
    /// Wait until semaphore >= immediate: wire 0x05.
    SemGeImm,
    /// Wait until semaphore >= register (the value is a register id): wire 0x85.
    SemGeReg,
}

impl BirWaitMode {
    /// Both wait modes.
    pub const ALL: [BirWaitMode; 2] = [BirWaitMode::SemGeImm, BirWaitMode::SemGeReg];

    /// The mode whose wire byte is `wire`.
    pub fn from_wire(wire: u8) -> Option<BirWaitMode> {
        Self::ALL.into_iter().find(|m| m.wire() == wire)
    }

    /// The wire byte (CC LUT `unk_1DF577A`).
    pub fn wire(self) -> u8 {
        match self {
            BirWaitMode::SemGeImm => 0x05,
            BirWaitMode::SemGeReg => 0x85,
        }
    }
}

/// A BIR update mode (CC LUT `byte_1DF5774` = {11,15,17,13,14,19}).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BirUpdateMode {
    /// 0 event set -> 0x11.
    EventSet,
    /// 1 semaphore add immediate -> 0x15.
    SemAddImm,
    /// 2 semaphore subtract immediate -> 0x17.
    SemSubImm,
    /// 3 semaphore increment -> 0x13 (no value written: implicit 1).
    SemInc,
    /// 4 semaphore decrement -> 0x14 (no value written: implicit 1).
    SemDec,
    /// 5 semaphore write immediate -> 0x19.
    SemWrImm,
}

impl BirUpdateMode {
    /// Every update mode, in BIR order.
    pub const ALL: [BirUpdateMode; 6] = [
        BirUpdateMode::EventSet,
        BirUpdateMode::SemAddImm,
        BirUpdateMode::SemSubImm,
        BirUpdateMode::SemInc,
        BirUpdateMode::SemDec,
        BirUpdateMode::SemWrImm,
    ];

    /// The mode whose wire byte is `wire`.
    pub fn from_wire(wire: u8) -> Option<BirUpdateMode> {
        Self::ALL.into_iter().find(|m| m.wire() == wire)
    }

    /// The wire byte.
    pub fn wire(self) -> u8 {
        match self {
            BirUpdateMode::EventSet => 0x11,
            BirUpdateMode::SemAddImm => 0x15,
            BirUpdateMode::SemSubImm => 0x17,
            BirUpdateMode::SemInc => 0x13,
            BirUpdateMode::SemDec => 0x14,
            BirUpdateMode::SemWrImm => 0x19,
        }
    }

    /// Whether `setupSyncUpdate` writes the +0x08 value (not for inc/dec; CC).
    pub fn writes_value(self) -> bool {
        !matches!(self, BirUpdateMode::SemInc | BirUpdateMode::SemDec)
    }
}

/// The name of `code` in `table`.
pub fn name_of(table: NameTable, code: u8) -> Option<&'static str> {
    table.iter().find(|(c, _)| *c == code).map(|(_, n)| *n)
}

/// The code named `name` in `table`.
pub fn code_of(table: NameTable, name: &str) -> Option<u8> {
    table.iter().find(|(_, n)| *n == name).map(|(c, _)| *c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_have_unique_codes_and_names() {
        for t in [
            ALU_OPS,
            ACCUM_CMDS,
            IMM_SRCS,
            IMM_SRCS_N,
            ACTIVATION_FUNCS,
            WAIT_MODES,
            UPDATE_MODES,
        ] {
            for (i, a) in t.iter().enumerate() {
                for b in &t[i + 1..] {
                    assert_ne!(a.0, b.0);
                    assert_ne!(a.1, b.1);
                }
            }
        }
    }

    #[test]
    fn alu_lut() {
        assert_eq!(alu_to_wire(BirAluOp::IsLt, CoreGen::V3), Some(0x16));
        assert_eq!(alu_to_wire(BirAluOp::IsLe, CoreGen::V3), Some(0x15));
        assert_eq!(alu_to_wire(BirAluOp::Average, CoreGen::V4), None);
        assert_eq!(alu_to_wire(BirAluOp::AbsMax, CoreGen::V3), None);
        assert_eq!(alu_to_wire(BirAluOp::AbsMax, CoreGen::V4), Some(0x20));
        assert_eq!(accum_to_wire(BirAccumulation::AddAccumulate), Some(2));
        assert_eq!(accum_to_wire(BirAccumulation::Accumulate), None);
    }

    #[test]
    fn activation_funcs_are_in_bir_order_with_unique_names() {
        // BIR ActivationFunctionType positions (bundle-layouts §4x.2): 0 Identity, 16 Gelu,
        // 23 Copy, 29 Is_finite.
        for (i, f) in ActivationFunc::ALL.into_iter().enumerate() {
            assert_eq!(f as usize, i);
            assert_eq!(ActivationFunc::from_name(f.name()), Some(f));
        }
        assert_eq!(ActivationFunc::Gelu as u8, 16);
        assert_eq!(ActivationFunc::Copy.name(), "copy");
        assert_eq!(ActivationFunc::IsFinite as u8, 29);
        assert_eq!(ActivationFunc::from_name("swish"), None);
        // §4x.2 by hand: Identity 1, Exp 7, Gelu 23, Copy 0x80, Reciprocal 0x81, IsFinite 35.
        assert_eq!(ActivationFunc::Identity.wire(), 1);
        assert_eq!(ActivationFunc::Exp.wire(), 7);
        assert_eq!(ActivationFunc::Gelu.wire(), 23);
        assert_eq!(ActivationFunc::Copy.wire(), 0x80);
        assert_eq!(ActivationFunc::Reciprocal.wire(), 0x81);
        assert_eq!(ActivationFunc::IsFinite.wire(), 35);
        assert_eq!(ActivationFunc::from_wire(29), Some(ActivationFunc::Rsqrt));
        assert_eq!(ActivationFunc::from_wire(0), None);
        let gated: Vec<_> = ActivationFunc::ALL
            .into_iter()
            .filter(|f| f.takes_imm())
            .collect();
        assert_eq!(
            gated,
            [
                ActivationFunc::Prelu,
                ActivationFunc::Copy,
                ActivationFunc::Reciprocal
            ]
        );
    }
}
