//! The closed vocabularies of NISA and BIR attributes (engines, DGE modes, ALU ops,
//! activation functions, accumulation commands, ...).
//!
//! Each enum is written in IR as a string attribute (`engine = "vector"`), so tests and
//! kernels stay readable in MLIR's generic syntax. The numeric value of each member is the
//! public NKI value where NKI defines one (the declaration order below is that order), so a
//! front end can map its integers one to one. The verifier rejects any other string and names
//! the attribute and the accepted spellings.

/// Declares a string-valued enum with its accepted spellings, in numeric order.
macro_rules! string_enum {
    ($(#[$doc:meta])* $name:ident, $attr:literal, [$($(#[$vdoc:meta])* $variant:ident = $text:literal),+ $(,)?]) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[$vdoc])* $variant),+
        }

        impl $name {
            /// Every member, in numeric order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// Every accepted spelling, in numeric order.
            pub const NAMES: &'static [&'static str] = &[$($text),+];
            /// The IR spelling of this member.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }
            /// Parses an IR spelling.
            pub fn parse(text: &str) -> Option<Self> {
                match text { $($text => Some($name::$variant),)+ _ => None }
            }
            /// The numeric value (position in the declaration).
            pub fn code(self) -> u32 {
                self as u32
            }
            /// The vocabulary descriptor used by the op tables.
            pub const VOCAB: $crate::spec::Vocab = $crate::spec::Vocab { name: $attr, values: Self::NAMES };
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

string_enum!(
    /// NKI `engine` (public values: unknown=0 ... sync=6).
    Engine, "engine", [
        /// Let the compiler choose.
        Unknown = "unknown", Tensor = "tensor", Scalar = "scalar", Gpsimd = "gpsimd",
        Dma = "dma", Vector = "vector", Sync = "sync",
    ]
);

string_enum!(
    /// NKI `dge_mode` (unknown=0, swdge=1, hwdge=2, none=3); `unknown` is resolved by the
    /// DGE-resolution pass.
    DgeMode, "dge_mode", [Unknown = "unknown", Swdge = "swdge", Hwdge = "hwdge", None = "none"]
);

string_enum!(
    /// NKI `oob_mode` (error=0, skip=1).
    OobMode, "oob_mode", [Error = "error", Skip = "skip"]
);

string_enum!(
    /// NKI `reduce_cmd` / accumulation command (idle=0, reset=1, reduce=2, reset_reduce=3,
    /// load_reduce=4); the hardware ACCUM_CMD byte uses the same numbers.
    ReduceCmd, "reduce_cmd", [
        Idle = "idle", Reset = "reset", Reduce = "reduce", ResetReduce = "reset_reduce",
        LoadReduce = "load_reduce",
    ]
);

string_enum!(
    /// NKI `dma_engine` selector for `send_recv` (dma=1, gpsimd_dma=2; 0 is unused).
    DmaEngine, "dma_engine", [Dma = "dma", GpsimdDma = "gpsimd_dma"]
);

string_enum!(
    /// Matmul performance mode (`perf_mode`).
    PerfMode, "perf_mode", [None = "none", DoubleRow = "double_row", DoubleRowSwInterleave = "double_row_sw_interleave"]
);

/// BIR `AluOpType` (0..32), the names NISA and BIR use for ALU operations: the codegen
/// crate's vocabulary, re-exported (one enum for the dialects, the ISA table and the
/// encoders; the wire byte is codegen's table).
pub use sundial_codegen::enums::BirAluOp as AluOp;

/// The op tables' descriptor of [`AluOp`] (`alu_op`, its spellings in numeric order).
pub const ALU_VOCAB: crate::spec::Vocab = crate::spec::Vocab {
    name: "alu_op",
    values: &AluOp::NAMES,
};

/// BIR `ActivationFunctionType` (0..29), the names NISA and BIR use for activation functions:
/// the codegen crate's vocabulary, re-exported (one list for the dialects and the emulator).
pub use sundial_codegen::enums::ActivationFunc;

/// The op tables' descriptor of [`ActivationFunc`] (`activation_func`, its spellings in
/// numeric order).
pub const ACTIVATION_VOCAB: crate::spec::Vocab = crate::spec::Vocab {
    name: "activation_func",
    values: &ActivationFunc::NAMES,
};

string_enum!(
    /// Memory spaces a tile can live in (the memref memory-space string).
    Space, "memory space", [Hbm = "hbm", Sbuf = "sbuf", Psum = "psum"]
);

/// NeuronCore generations an op may require, written on a module as `sundial.target =
/// "sunda" | "cayman" | "mariana"`: the codegen crate's [`Target`] (with `name`, `from_name`,
/// `NAMES` and `nc_version`), re-exported so that the dialects, the ISA table and the encoders
/// share one vocabulary.
pub use sundial_codegen::arch::Target;
