//! NISA ops of the compute families that the emulator refuses, by name, with the reason:
//! their semantics are not public, and the emulator never approximates an op.
//!
//! An executor consults [`refusal`] for an op it has no function for; the other refusals
//! (an unpinned attribute value, a NaN whose handling is not public, ...) are errors of the
//! implemented ops themselves.

use crate::error::EmuError;

/// `(NISA op, why it is refused)`.
pub static REFUSED: &[(&str, &str)] = &[(
    "collective_permute_reduce",
    "no public API: only a third-party wiki describes it (an explicit-pair permute with a \
     reduction), not its pairing, reduction order or dtype rules",
)];

/// The error for a refused op, or `None` when `op` is not refused.
pub fn refusal(op: &str) -> Option<EmuError> {
    REFUSED
        .iter()
        .find(|(name, _)| *name == op)
        .map(|&(name, why)| EmuError::unsupported(name, format!("refused: {why}")))
}
