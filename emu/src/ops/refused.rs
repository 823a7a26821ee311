//! Ops of the NISA and BIR dialects whose semantics are not public: the emulator refuses
//! them by name instead of guessing.
//!
//! Refusals of single ALU operators and activation functions live in their own tables
//! ([`super::alu::ALU`], [`super::activation::ACTIVATIONS`]); this table is for whole ops. An executor consults it for an op it has no
//! function for.

use crate::error::{EmuError, Result};

/// `(op name, why it is refused)`.
pub static REFUSED_OPS: &[(&str, &str)] = &[
    (
        "scalar_tensor_tensor_bitvec",
        "nki.isa.scalar_tensor_tensor says \"Bitvec operators are not supported\"; the bitvec \
         form is known only from the third-party wiki",
    ),
    (
        "select",
        "BIR TENSOR_SCALAR_SELECT (0x98) has no public NKI API: which operand is the \
         predicate and how it is tested is not documented (the public data-predicate ops \
         are copy_predicated and select_reduce)",
    ),
    (
        "collective_permute_reduce",
        "no public API: only a third-party wiki describes it (an explicit-pair permute with a \
         reduction), not its pairing, reduction order or dtype rules",
    ),
];

/// Why `name` is refused, if it is.
pub fn refusal(name: &str) -> Option<&'static str> {
    REFUSED_OPS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, why)| *why)
}

/// `Ok` unless `name` is a refused op, in which case the error says why.
pub fn check_op(name: &str) -> Result<()> {
    match REFUSED_OPS.iter().find(|(n, _)| *n == name) {
        Some((n, why)) => Err(EmuError::NoPublicSemantics {
            op: n,
            what: format!("the op {n}"),
            reason: why,
        }),
        None => Ok(()),
    }
}
