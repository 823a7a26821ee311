//! The emulator's error type.
//!
//! Every failure is a value, never a panic: bad shapes, mismatched dtypes, offset
//! arithmetic that would overflow, and out-of-bounds indices in `oob_mode = error`.
//! Each variant names the op that failed. The out-of-bounds variant also names the
//! source dimension, the position in the index tile where the bad value was read, and
//! the value (nki-semantics / indirect-emulation rule 4).

/// Result alias used throughout the crate.
pub type Result<T> = std::result::Result<T, EmuError>;

/// The most elements (points) one op moves, checked before anything is allocated for them:
/// 2^25, the whole of the largest SBUF (32 MiB) at one byte per element; its offsets take
/// 256 MiB and the op well under a second. A view may describe more (a view over a small
/// allocation with a huge shape is arithmetically valid), but no op reads, writes or computes
/// offsets for more; larger transfers are split by the caller.
pub const MAX_ELEMENTS: usize = 1 << 25;

/// Everything that can go wrong in the emulator.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmuError {
    /// An indirect index put a source dimension outside `[0, extent)` while the op ran
    /// in `oob_mode = error`. Nothing was written.
    #[error(
        "{op}: index value {value} read at position {position:?} of index view {index_view} \
         puts source dimension {dim} at {coordinate}, outside [0, {extent})"
    )]
    IndexOutOfBounds {
        /// The op that failed.
        op: &'static str,
        /// The source dimension whose coordinate fell outside its extent.
        dim: usize,
        /// Which index view of the access the value came from.
        index_view: usize,
        /// The coordinates in that index view (the index tile) of the bad value.
        position: Vec<i64>,
        /// The index value as stored (a u64 index above `i64::MAX` keeps its value).
        value: i128,
        /// The resulting coordinate in `dim` (the value plus any direct offset).
        coordinate: i64,
        /// The extent of `dim`.
        extent: usize,
    },
    /// The access description is malformed (wrong arity, unknown variable, bad bounds,
    /// a non-permutation order, an index view read outside its own extent, ...).
    #[error("{op}: invalid access: {reason}")]
    InvalidAccess {
        /// The op that failed.
        op: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// Operand shapes do not fit together.
    #[error("{op}: shape mismatch: {reason}")]
    Shape {
        /// The op that failed.
        op: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// An operand has a dtype the op does not accept.
    #[error("{op}: dtype error: {reason}")]
    DType {
        /// The op that failed.
        op: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// Offset or size arithmetic would overflow.
    #[error("{op}: arithmetic overflow computing {what}")]
    Overflow {
        /// The op that failed.
        op: &'static str,
        /// Which quantity overflowed.
        what: String,
    },
    /// A memory request cannot be met (unknown allocation, capacity, space rules).
    #[error("{op}: memory error: {reason}")]
    Memory {
        /// The op that failed.
        op: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// An operand has more elements than one op handles ([`MAX_ELEMENTS`]); refused before
    /// anything is allocated for it.
    #[error("{op}: {what} has {count} elements, more than the {limit} one op handles")]
    TooLarge {
        /// The op that failed.
        op: &'static str,
        /// Which operand.
        what: String,
        /// Its element count.
        count: usize,
        /// [`MAX_ELEMENTS`].
        limit: usize,
    },
    /// The request is valid NKI but outside what the hardware (or this emulator)
    /// supports, e.g. `dma_compute` with scales other than 1.0.
    #[error("{op}: unsupported: {reason}")]
    Unsupported {
        /// The op that failed.
        op: &'static str,
        /// What is unsupported.
        reason: String,
    },
    /// The op, operator or function has no public semantics, so the emulator refuses it
    /// rather than guess (the refusal tables of the compute ops say why, per name).
    #[error("{op}: refused: {what} has no public semantics: {reason}")]
    NoPublicSemantics {
        /// The op that failed.
        op: &'static str,
        /// What is refused (an ALU operator, an activation function, an op).
        what: String,
        /// Why (the public source that is missing or says so).
        reason: &'static str,
    },
    /// An activation function was applied outside the input range NKI publishes for it,
    /// where the Scalar Engine "will generate invalid output results".
    #[error(
        "{op}: {func} input {value} at partition {partition}, element {element} is outside \
         its valid input range {range}"
    )]
    InputOutOfRange {
        /// The op that failed.
        op: &'static str,
        /// The activation function.
        func: &'static str,
        /// The offending input (after scale and bias), as printed.
        value: String,
        /// Its partition (row of the tile).
        partition: usize,
        /// Its element index within the partition (free dimensions flattened).
        element: usize,
        /// The published valid range.
        range: &'static str,
    },
    /// An engine accumulator register was read (by `reduce_cmd = reduce`, a read-out or
    /// `reduce_res`) while its value is undefined: never set, or left unknown by an
    /// instruction that ran with `reduce_cmd = idle` on the Vector Engine.
    #[error("{op}: the {engine} engine's accumulator for lane {lane} is undefined")]
    UninitialisedAccumulator {
        /// The op that failed.
        op: &'static str,
        /// `vector` or `scalar`.
        engine: &'static str,
        /// The lane (partition of the tile).
        lane: usize,
    },
    /// With the uninitialised-read check on ([`crate::Memory::set_check_uninit`]), an op
    /// read bytes nothing had written since the tile was created (issue 11 §2, §4). Nothing
    /// was written by the op.
    #[error(
        "{op}: reads byte {offset}{} of tile {tile} before anything wrote it",
        partition.map(|p| format!(" of partition {p}")).unwrap_or_default()
    )]
    Uninitialised {
        /// The op that read.
        op: &'static str,
        /// The tile (allocation or named on-chip tile) the byte belongs to.
        tile: String,
        /// For an on-chip tile, the partition of the byte.
        partition: Option<usize>,
        /// Byte offset from the start of the tile (within the partition, on chip).
        offset: usize,
    },
    /// A register op named a register that does not exist, or read one never written.
    #[error("{op}: register error: {reason}")]
    Register {
        /// The op that failed.
        op: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// A collective's rank group, replica group or per-rank operands do not fit together.
    #[error("{op}: collective error: {reason}")]
    Collective {
        /// The op that failed.
        op: &'static str,
        /// What is wrong.
        reason: String,
    },
}

impl EmuError {
    /// `count` if it is at most [`MAX_ELEMENTS`], else [`EmuError::TooLarge`] naming `what`.
    pub fn check_elements(op: &'static str, what: &str, count: usize) -> Result<usize> {
        if count > MAX_ELEMENTS {
            Err(EmuError::TooLarge {
                op,
                what: what.to_string(),
                count,
                limit: MAX_ELEMENTS,
            })
        } else {
            Ok(count)
        }
    }

    /// Shorthand for [`EmuError::InvalidAccess`].
    pub fn invalid(op: &'static str, reason: impl Into<String>) -> Self {
        EmuError::InvalidAccess {
            op,
            reason: reason.into(),
        }
    }

    /// Shorthand for [`EmuError::Shape`].
    pub fn shape(op: &'static str, reason: impl Into<String>) -> Self {
        EmuError::Shape {
            op,
            reason: reason.into(),
        }
    }

    /// Shorthand for [`EmuError::DType`].
    pub fn dtype(op: &'static str, reason: impl Into<String>) -> Self {
        EmuError::DType {
            op,
            reason: reason.into(),
        }
    }

    /// Shorthand for [`EmuError::Overflow`].
    pub fn overflow(op: &'static str, what: impl Into<String>) -> Self {
        EmuError::Overflow {
            op,
            what: what.into(),
        }
    }

    /// Shorthand for [`EmuError::Memory`].
    pub fn memory(op: &'static str, reason: impl Into<String>) -> Self {
        EmuError::Memory {
            op,
            reason: reason.into(),
        }
    }

    /// Shorthand for [`EmuError::Register`].
    pub fn register(op: &'static str, reason: impl Into<String>) -> Self {
        EmuError::Register {
            op,
            reason: reason.into(),
        }
    }

    /// Shorthand for [`EmuError::Collective`].
    pub fn collective(op: &'static str, reason: impl Into<String>) -> Self {
        EmuError::Collective {
            op,
            reason: reason.into(),
        }
    }

    /// Shorthand for [`EmuError::Unsupported`].
    pub fn unsupported(op: &'static str, reason: impl Into<String>) -> Self {
        EmuError::Unsupported {
            op,
            reason: reason.into(),
        }
    }
}
