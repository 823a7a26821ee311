//! The vocabulary of the op tables: what an operand, a result, an attribute and an op are.
//!
//! Each dialect declares its ops once, as data ([`OpSpec`] rows in `nisa::OPS` and
//! `bir::OPS`). Everything else reads those rows: the IRDL definition that MLIR loads is
//! generated from them ([`crate::irdl`]), the semantic verifier checks attributes, operand
//! spaces, dtypes and engines against them ([`crate::verify`]), typed views find operands by
//! name through them, and `sundial-opt --list-ops` prints them. Adding an op is one row.

use crate::{dtype::DtypeSet, enums::Engine, enums::Target};

/// A closed set of string spellings (an enum attribute's vocabulary).
#[derive(Clone, Copy, Debug)]
pub struct Vocab {
    /// What the vocabulary is called in messages.
    pub name: &'static str,
    /// The accepted spellings, in numeric order.
    pub values: &'static [&'static str],
}

/// Memory spaces an operand may live in (bit set).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spaces(pub u8);

impl Spaces {
    /// HBM (device DRAM).
    pub const HBM: Spaces = Spaces(1);
    /// SBUF (state buffer).
    pub const SBUF: Spaces = Spaces(2);
    /// PSUM (partial-sum buffer).
    pub const PSUM: Spaces = Spaces(4);
    /// SBUF or PSUM.
    pub const ON_CHIP: Spaces = Spaces(6);
    /// Any space.
    pub const ANY: Spaces = Spaces(7);
    /// HBM or SBUF.
    pub const HBM_SBUF: Spaces = Spaces(3);

    /// Whether `space` is in the set.
    pub fn contains(self, space: crate::enums::Space) -> bool {
        self.0 & (1 << space.code()) != 0
    }

    /// The spellings of the members, for messages.
    pub fn describe(self) -> String {
        crate::enums::Space::ALL
            .iter()
            .filter(|s| self.contains(**s))
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// How many values an operand group takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    /// Exactly one.
    One,
    /// Zero or one.
    Optional,
    /// Any number.
    Variadic,
}

/// What an operand is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperandKind {
    /// A tile (`memref<... x dtype, "space">`): legal spaces and dtypes, and whether the op
    /// writes it.
    Tile {
        /// Legal memory spaces.
        spaces: Spaces,
        /// Legal element types.
        dtypes: DtypeSet,
        /// Whether the op writes this operand.
        write: bool,
    },
    /// A sequencer register (`!nisa.reg`).
    Reg,
    /// A tile (with these spaces and dtypes) or a sequencer register.
    TileOrReg {
        /// Legal memory spaces of a tile.
        spaces: Spaces,
        /// Legal element types of a tile.
        dtypes: DtypeSet,
    },
    /// An `index` value (a loop induction variable, `arith` on it, a program id): a dynamic
    /// element offset or a loop bound.
    Index,
}

/// One operand group of an op.
#[derive(Clone, Copy, Debug)]
pub struct OperandSpec {
    /// Name (also the IRDL operand name).
    pub name: &'static str,
    /// How many values.
    pub arity: Arity,
    /// What it is.
    pub kind: OperandKind,
}

/// What a result is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultKind {
    /// A tile (`memref`).
    Tile,
    /// A sequencer register (`!nisa.reg`).
    Reg,
    /// An `index` value.
    Index,
}

/// One result of an op.
#[derive(Clone, Copy, Debug)]
pub struct ResultSpec {
    /// Name (also the IRDL result name).
    pub name: &'static str,
    /// What it is.
    pub kind: ResultKind,
}

/// The kind (and legal values) of an attribute.
#[derive(Clone, Copy, Debug)]
pub enum AttrKind {
    /// A string from a vocabulary.
    Enum(Vocab),
    /// A string from a subset of a vocabulary (e.g. the reduce ops of an ALU).
    EnumSubset(Vocab, &'static [&'static str]),
    /// `true` / `false`.
    Bool,
    /// An integer attribute within `[min, max]`.
    Int {
        /// Smallest legal value.
        min: i64,
        /// Largest legal value.
        max: i64,
    },
    /// A floating-point attribute (stored as f32 by the hardware; any float attr is accepted:
    /// NaN is refused and a finite value must fit in f32, while infinities are legal, e.g. the
    /// -inf identity of a max reduction).
    Float,
    /// An integer or floating-point attribute (e.g. a memset value).
    Number,
    /// A dense i64 array (`array<i64: ...>`) with a length range.
    I64Array {
        /// Shortest legal length.
        min_len: usize,
        /// Longest legal length.
        max_len: usize,
    },
    /// An array of dense i64 arrays (`[array<i64: 0, 1>, array<i64: 2, 3>]`), e.g. a replica
    /// group or source/target pairs.
    I64ArrayList,
    /// A dense f32 array (`array<f32: ...>`).
    F32Array,
    /// Any string.
    Str,
    /// A physical access pattern (a dictionary, see `bir` module docs); `indirect` says
    /// whether the tensor-indirect form is legal here.
    Ap {
        /// Whether `{kind = "indirect", ...}` is accepted.
        indirect: bool,
    },
    /// A string of two-hex-digit bytes separated by `_` with `{events:..}`, `{srcs[N]:..}`,
    /// `{dsts[N]:..}` placeholders (EXTENDED_INST inline bytes).
    AsmBytes,
}

impl AttrKind {
    /// The IRDL base constraint of this kind.
    pub fn irdl_base(&self) -> &'static str {
        match self {
            AttrKind::Enum(_) | AttrKind::EnumSubset(..) | AttrKind::Str => "#builtin.string",
            AttrKind::Bool => "#builtin.bool",
            AttrKind::Int { .. } => "#builtin.integer",
            AttrKind::Float => "#builtin.float",
            AttrKind::Number => "",
            AttrKind::I64Array { .. } => "#builtin.dense_array",
            AttrKind::F32Array => "#builtin.dense_array",
            AttrKind::I64ArrayList => "#builtin.array",
            AttrKind::Ap { .. } => "#builtin.dictionary",
            AttrKind::AsmBytes => "#builtin.string",
        }
    }

    /// A short description for messages and docs.
    pub fn describe(&self) -> String {
        match self {
            AttrKind::Enum(v) => format!("one of {}", v.values.join("|")),
            AttrKind::EnumSubset(_, s) => format!("one of {}", s.join("|")),
            AttrKind::Bool => "a bool".into(),
            AttrKind::Int { min, max } => format!("an integer in [{min}, {max}]"),
            AttrKind::Float => "a float".into(),
            AttrKind::Number => "an integer or float".into(),
            AttrKind::I64Array { min_len, max_len } => {
                format!("array<i64> of {min_len}..{max_len} elements")
            }
            AttrKind::I64ArrayList => "an array of array<i64>".into(),
            AttrKind::F32Array => "array<f32>".into(),
            AttrKind::Str => "a string".into(),
            AttrKind::Ap { indirect: true } => "a static or tensor-indirect access pattern".into(),
            AttrKind::Ap { indirect: false } => "a static access pattern".into(),
            AttrKind::AsmBytes => {
                "inline bytes (`f0_10_...` with {events:..}/{srcs[N]:..}/{dsts[N]:..} placeholders)"
                    .into()
            }
        }
    }
}

/// Whether an attribute must be present.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// Must be present (also enforced by IRDL).
    Required,
    /// May be absent; the text is the value assumed when absent (for docs and builders).
    Default(&'static str),
    /// May be absent, and absence has its own meaning (NKI `None`).
    Optional,
}

/// One attribute of an op.
#[derive(Clone, Copy, Debug)]
pub struct AttrSpec {
    /// Name.
    pub name: &'static str,
    /// Kind and legal values.
    pub kind: AttrKind,
    /// Whether it must be present.
    pub presence: Presence,
}

/// Where a row's facts come from (the provenance marks of `isa-table.md`).
#[derive(Clone, Copy, Debug)]
pub struct Provenance(pub &'static str);

/// One op of a dialect.
#[derive(Clone, Copy, Debug)]
pub struct OpSpec {
    /// Mnemonic without the dialect prefix.
    pub name: &'static str,
    /// Position in the table of 62 `emit_*` builders (1-based), or `None`.
    pub emit: Option<u8>,
    /// One-line summary.
    pub summary: &'static str,
    /// The public API the op serves (e.g. `nki.isa.nc_n_gather`).
    pub api: &'static str,
    /// Operand groups, in order.
    pub operands: &'static [OperandSpec],
    /// Results, in order.
    pub results: &'static [ResultSpec],
    /// Attributes (inherent), in no particular order.
    pub attrs: &'static [AttrSpec],
    /// Engines the op may run on (an `engine` attribute may name one of these, or
    /// `unknown`); empty when the op takes no engine.
    pub engines: &'static [Engine],
    /// The engine assumed when `engine` is absent.
    pub default_engine: Engine,
    /// Oldest target that has the op (`None`: every target).
    pub min_target: Option<Target>,
    /// Provenance of the row.
    pub provenance: Provenance,
}

impl OpSpec {
    /// The attribute named `name`.
    pub fn attr(&self, name: &str) -> Option<&AttrSpec> {
        self.attrs.iter().find(|a| a.name == name)
    }

    /// The index of the operand group named `name`.
    pub fn operand_index(&self, name: &str) -> Option<usize> {
        self.operands.iter().position(|o| o.name == name)
    }

    /// Whether the generic form needs an `operandSegmentSizes` attribute (more than one
    /// optional or variadic group, as MLIR requires).
    pub fn needs_segment_sizes(&self) -> bool {
        self.operands
            .iter()
            .filter(|o| o.arity != Arity::One)
            .count()
            > 1
    }
}

/// Shorthand constructors used by the op tables (kept terse so a row reads as one fact).
pub mod dsl {
    use super::*;

    /// A written tile operand.
    pub const fn dst(name: &'static str, spaces: Spaces, dtypes: DtypeSet) -> OperandSpec {
        OperandSpec {
            name,
            arity: Arity::One,
            kind: OperandKind::Tile {
                spaces,
                dtypes,
                write: true,
            },
        }
    }
    /// A read tile operand.
    pub const fn src(name: &'static str, spaces: Spaces, dtypes: DtypeSet) -> OperandSpec {
        OperandSpec {
            name,
            arity: Arity::One,
            kind: OperandKind::Tile {
                spaces,
                dtypes,
                write: false,
            },
        }
    }
    /// An optional read tile operand.
    pub const fn opt_src(name: &'static str, spaces: Spaces, dtypes: DtypeSet) -> OperandSpec {
        OperandSpec {
            name,
            arity: Arity::Optional,
            kind: OperandKind::Tile {
                spaces,
                dtypes,
                write: false,
            },
        }
    }
    /// An optional written tile operand.
    pub const fn opt_dst(name: &'static str, spaces: Spaces, dtypes: DtypeSet) -> OperandSpec {
        OperandSpec {
            name,
            arity: Arity::Optional,
            kind: OperandKind::Tile {
                spaces,
                dtypes,
                write: true,
            },
        }
    }
    /// A variadic read tile operand group.
    pub const fn srcs(name: &'static str, spaces: Spaces, dtypes: DtypeSet) -> OperandSpec {
        OperandSpec {
            name,
            arity: Arity::Variadic,
            kind: OperandKind::Tile {
                spaces,
                dtypes,
                write: false,
            },
        }
    }
    /// A variadic written tile operand group.
    pub const fn dsts(name: &'static str, spaces: Spaces, dtypes: DtypeSet) -> OperandSpec {
        OperandSpec {
            name,
            arity: Arity::Variadic,
            kind: OperandKind::Tile {
                spaces,
                dtypes,
                write: true,
            },
        }
    }
    /// A register operand.
    pub const fn reg(name: &'static str) -> OperandSpec {
        OperandSpec {
            name,
            arity: Arity::One,
            kind: OperandKind::Reg,
        }
    }
    /// An optional register operand.
    pub const fn opt_reg(name: &'static str) -> OperandSpec {
        OperandSpec {
            name,
            arity: Arity::Optional,
            kind: OperandKind::Reg,
        }
    }
    /// An `index` operand.
    pub const fn index(name: &'static str) -> OperandSpec {
        OperandSpec {
            name,
            arity: Arity::One,
            kind: OperandKind::Index,
        }
    }
    /// An optional tile-or-register operand.
    pub const fn opt_tile_or_reg(
        name: &'static str,
        spaces: Spaces,
        dtypes: DtypeSet,
    ) -> OperandSpec {
        OperandSpec {
            name,
            arity: Arity::Optional,
            kind: OperandKind::TileOrReg { spaces, dtypes },
        }
    }
    /// A required attribute.
    pub const fn req(name: &'static str, kind: AttrKind) -> AttrSpec {
        AttrSpec {
            name,
            kind,
            presence: Presence::Required,
        }
    }
    /// An attribute with a default.
    pub const fn def(name: &'static str, kind: AttrKind, value: &'static str) -> AttrSpec {
        AttrSpec {
            name,
            kind,
            presence: Presence::Default(value),
        }
    }
    /// An optional attribute (absence has a meaning of its own).
    pub const fn opt(name: &'static str, kind: AttrKind) -> AttrSpec {
        AttrSpec {
            name,
            kind,
            presence: Presence::Optional,
        }
    }
    /// Any integer.
    pub const INT: AttrKind = AttrKind::Int {
        min: i64::MIN,
        max: i64::MAX,
    };
    /// A non-negative integer.
    pub const UINT: AttrKind = AttrKind::Int {
        min: 0,
        max: i64::MAX,
    };
    /// A float.
    pub const FLOAT: AttrKind = AttrKind::Float;
    /// A bool.
    pub const BOOL: AttrKind = AttrKind::Bool;
}
