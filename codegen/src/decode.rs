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
    Ok(filled(format, b))
}

/// A new [`Decoded`] of `format` read from `b` ([`fill`] into a vector of the row count).
fn filled(format: &'static Format, b: &Bundle) -> Decoded {
    let mut d = Decoded {
        format,
        values: Vec::with_capacity(format.fields.len()),
    };
    fill(format, b, &mut d);
    d
}

/// [`decode`] into an existing [`Decoded`], reusing its value buffer: after the first bundle of
/// a stream no allocation happens (the buffer keeps the capacity of the widest format seen). On
/// error `out` is left as it was.
#[inline]
pub fn decode_into(b: &Bundle, out: &mut Decoded) -> Result<(), DecodeError> {
    let format = formats::by_opcode(b[0]).ok_or(DecodeError::UnknownOpcode(b[0]))?;
    fill(format, b, out);
    Ok(())
}

/// [`decode_on`] into an existing [`Decoded`], reusing its value buffer (see [`decode_into`]).
#[inline]
pub fn decode_on_into(
    b: &Bundle,
    arch: &crate::arch::ArchModel,
    out: &mut Decoded,
) -> Result<(), DecodeError> {
    let format = formats::by_opcode_on(b[0], arch).ok_or(DecodeError::UnknownOpcode(b[0]))?;
    fill(format, b, out);
    Ok(())
}

/// Sets `out` to `format` and one value per row of it read from `b`.
#[inline(always)]
fn fill(format: &'static Format, b: &Bundle, out: &mut Decoded) {
    out.format = format;
    let values = &mut out.values;
    // One slot per row (the vector keeps its length between bundles; it only grows past the
    // widest format seen), then each kind's arm stores its own variant (`Field::read_with`).
    let n = format.fields.len();
    values.truncate(n);
    values.resize(n, Value::Int(0));
    for (slot, f) in values.iter_mut().zip(format.fields) {
        f.read_with(b, |v| *slot = v);
    }
}

/// Decodes one bundle with the target's layout of its opcode ([`formats::by_opcode_on`]; the
/// PE formats differ per core).
pub fn decode_on(b: &Bundle, arch: &crate::arch::ArchModel) -> Result<Decoded, DecodeError> {
    let format = formats::by_opcode_on(b[0], arch).ok_or(DecodeError::UnknownOpcode(b[0]))?;
    Ok(filled(format, b))
}

/// A bundle viewed through its format's field table: a decode that copies nothing, each value
/// read (by the same `Field::read` as [`decode`]) when asked for. `view.to_decoded()` is
/// `decode(b)`.
#[derive(Clone, Copy, Debug)]
pub struct DecodedRef<'a> {
    /// Its format.
    pub format: &'static Format,
    /// The bundle.
    pub bundle: &'a Bundle,
}

impl<'a> DecodedRef<'a> {
    /// The value of row `i` of `format.fields`.
    #[inline]
    pub fn value(&self, i: usize) -> Option<Value> {
        self.format.fields.get(i).map(|f| f.read(self.bundle))
    }

    /// The value of the field named `name`.
    pub fn get(&self, name: &str) -> Option<Value> {
        self.format.field(name).map(|f| f.read(self.bundle))
    }

    /// Every value, in table order.
    pub fn values(&self) -> impl Iterator<Item = Value> + 'a {
        let b = self.bundle;
        self.format.fields.iter().map(move |f| f.read(b))
    }

    /// The owned form (what [`decode`] returns).
    pub fn to_decoded(&self) -> Decoded {
        Decoded {
            format: self.format,
            values: self.values().collect(),
        }
    }
}

/// [`decode`] as a view: the format is looked up, no value is read or copied until asked for.
#[inline]
pub fn decode_ref(b: &Bundle) -> Result<DecodedRef<'_>, DecodeError> {
    let format = formats::by_opcode(b[0]).ok_or(DecodeError::UnknownOpcode(b[0]))?;
    Ok(DecodedRef { format, bundle: b })
}

/// [`decode_on`] as a view (see [`decode_ref`]).
#[inline]
pub fn decode_ref_on<'a>(
    b: &'a Bundle,
    arch: &crate::arch::ArchModel,
) -> Result<DecodedRef<'a>, DecodeError> {
    let format = formats::by_opcode_on(b[0], arch).ok_or(DecodeError::UnknownOpcode(b[0]))?;
    Ok(DecodedRef { format, bundle: b })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arch::{CAYMAN, MARIANA, SUNDA};

    /// Every known opcode over pseudo-random bodies: the reusing and the view decoders give what
    /// `decode` / `decode_on` give, and a failed `decode_into` leaves its target alone.
    #[test]
    fn reusing_and_view_decoders_agree_with_decode() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut reused = decode(&{
            let mut b = [0u8; 64];
            b[0] = formats::FORMATS[0].opcode;
            b
        })
        .unwrap();
        for round in 0..2000 {
            let mut b = [0u8; 64];
            for byte in b.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *byte = x as u8;
            }
            b[0] = (round % 256) as u8;
            let arch = [&SUNDA, &CAYMAN, &MARIANA][round % 3];
            let before = reused.clone();
            match decode(&b) {
                Ok(want) => {
                    decode_into(&b, &mut reused).unwrap();
                    assert_eq!(reused, want);
                    let view = decode_ref(&b).unwrap();
                    assert_eq!(view.to_decoded(), want);
                    for (i, f) in want.format.fields.iter().enumerate() {
                        assert_eq!(view.value(i).as_ref(), Some(&want.values[i]));
                        assert_eq!(view.get(f.name).as_ref(), want.get(f.name));
                    }
                    assert_eq!(view.value(want.values.len()), None);
                }
                Err(e) => {
                    assert_eq!(decode_into(&b, &mut reused), Err(e.clone()));
                    assert_eq!(reused, before);
                    assert_eq!(decode_ref(&b).err(), Some(e));
                }
            }
            match decode_on(&b, arch) {
                Ok(want) => {
                    decode_on_into(&b, arch, &mut reused).unwrap();
                    assert_eq!(reused, want);
                    assert_eq!(decode_ref_on(&b, arch).unwrap().to_decoded(), want);
                }
                Err(e) => {
                    let before = reused.clone();
                    assert_eq!(decode_on_into(&b, arch, &mut reused), Err(e.clone()));
                    assert_eq!(reused, before);
                    assert_eq!(decode_ref_on(&b, arch).err(), Some(e));
                }
            }
        }
    }
}
