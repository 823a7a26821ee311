//! IndirectSaveAccumulate (BIR op 46, `InstIndirectSaveAccumulate`, opcode 0xCA in the CoreV2
//! indirect family): what the sources pin, and the refusal to encode what they do not.
//!
//! Pinned (seed `indirect-gather-descriptors`): the op is "the scatter back" of the MoE gather,
//! "a plain ADDR4 RMW that carries no 0x20 indirect mode bit and is emitted by the CoreV2
//! family", and 0xCA is its opcode in the CoreV2 indirect opcode family (IndirectCopy 0xE7,
//! IndirectSaveAccumulate 0xCA, DMA-indirect 0xBB). CONFLICT kept apart (isa-table conflict 4):
//! 0xCA is also PSEUDO_EMBEDDING_UPDATE in the PSEUDO band, a different axis.
//!
//! Not pinned by any source: the bundle layout (no seed byte map, no header struct, no
//! compiler-wiki offsets), so no format table exists for 0xCA and every filling mode refuses
//! with [`UNPINNED`]. COLLECT, which needs only the opcode, reports 0xCA.

use crate::error::EncodeError;

/// The refusal: the opcode is known, the bytes are not.
pub(crate) const UNPINNED: EncodeError = EncodeError::Unpinned {
    op: "indirect_save_accumulate (0xca)",
    missing: "no source gives its bundle layout (the seed pins only the opcode and that it is a \
              plain ADDR4 read-modify-write without the 0x20 indirect marker)",
};
