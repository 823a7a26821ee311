//! Decoder: bytes -> [`Decoded`] (a format plus one value per table field), and back.
//!
//! Decoding is table-driven and total for every known opcode: each field of the format's table
//! is read by its kind. [`Decoded::encode`] writes the header and every field back through the
//! same table; reserved bytes are written as zero, so `encode(decode(b)) == b` for every bundle
//! that passes the reserved-byte and header rules.

use crate::bundle::{BUNDLE_BYTES, Bundle, setup_header};
use crate::error::DecodeError;
use crate::fields::Value;
use crate::formats::{self, Format};

/// A decoded bundle (the machine-level instruction).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// Its format.
    pub format: &'static Format,
    /// One value per `format.fields` entry, in table order.
    pub values: Vec<Value>,
}

impl Decoded {
    /// Encodes back to bytes through the field table.
    pub fn encode(&self) -> Bundle {
        let mut b = [0u8; 64];
        setup_header(&mut b, self.format.opcode);
        for (f, v) in self.format.fields.iter().zip(&self.values) {
            f.write(&mut b, v);
        }
        b
    }

    /// The value of the field named `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.format
            .fields
            .iter()
            .position(|f| f.name == name)
            .map(|i| &self.values[i])
    }
}

/// Decodes one bundle with the opcode's default layout ([`formats::by_opcode`]; for the PE
/// opcodes that is the sunda/cayman layout, see [`decode_on`]).
pub fn decode(b: &Bundle) -> Result<Decoded, DecodeError> {
    let format = formats::by_opcode(b[0]).ok_or(DecodeError::UnknownOpcode(b[0]))?;
    Ok(Decoded {
        format,
        values: format.fields.iter().map(|f| f.read(b)).collect(),
    })
}

/// Decodes one bundle with the target's layout of its opcode ([`formats::by_opcode_on`]; the
/// PE formats differ per core).
pub fn decode_on(b: &Bundle, arch: &crate::arch::ArchModel) -> Result<Decoded, DecodeError> {
    let format = formats::by_opcode_on(b[0], arch).ok_or(DecodeError::UnknownOpcode(b[0]))?;
    Ok(Decoded {
        format,
        values: format.fields.iter().map(|f| f.read(b)).collect(),
    })
}

/// Splits a byte stream into bundles; a trailing partial bundle is an error naming its offset.
pub fn split(bytes: &[u8]) -> Result<Vec<&Bundle>, DecodeError> {
    let whole = bytes.len() / BUNDLE_BYTES * BUNDLE_BYTES;
    if whole != bytes.len() {
        return Err(DecodeError::Truncated {
            offset: whole,
            trailing: bytes.len() - whole,
        });
    }
    Ok(bytes
        .chunks_exact(BUNDLE_BYTES)
        .map(|c| c.try_into().expect("64-byte chunk"))
        .collect())
}
