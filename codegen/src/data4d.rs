//! DATA4D: the generator pattern of IOTA (0x7E) and TENSOR_SCALAR_AFFINE_SELECT (0x92).
//!
//! Layout (header `NEURON_ISA_TPB_DATA4D`, bundle-layouts §4.8 / §4.10, HIGH/OBSERVED):
//! `[int32 base @+0][4 x i16 step_elem @+4][4 x u16 num_elem @+12]`, 20 bytes. It has the shape of
//! a TENSOR4D with the ADDR4 word replaced by a signed base value: the pattern is generated, it
//! reads no memory. The generated value at index `(i0..i3)` is `base + sum(i_d * step_elem[d])`
//! (plus `channel * channel_multiplier`, a field of the owning struct).
//!
//! Packing: the same rule as the static access patterns (`tensor::pack`): free dims innermost in
//! lane 0, unit dims dropped, spare lanes `{step 1, num 1}`. ASSUMPTION: no source gives the
//! compiler's DATA4D packing beyond the CC's note that IOTA's lane counts are "derived from
//! output geometry".

use std::fmt::Write;

use crate::addr4;
use crate::error::EncodeError;
use crate::model::GenPattern;
use crate::tensor::pack;

/// Byte width of DATA4D.
pub const DATA4D_BYTES: usize = 20;

/// A decoded DATA4D.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Data4dSlot {
    /// `base` (int32).
    pub base: i32,
    /// `step_elem[0..4]`, lane 0 innermost.
    pub step: [i16; 4],
    /// `num_elem[0..4]`, lane 0 innermost.
    pub num: [u16; 4],
}

impl Data4dSlot {
    /// Reads a DATA4D from the first 20 bytes of `b`.
    pub fn read(b: &[u8]) -> Data4dSlot {
        let mut step = [0i16; 4];
        let mut num = [0u16; 4];
        for i in 0..4 {
            step[i] = i16::from_le_bytes([b[4 + 2 * i], b[5 + 2 * i]]);
            num[i] = u16::from_le_bytes([b[12 + 2 * i], b[13 + 2 * i]]);
        }
        Data4dSlot {
            base: addr4::get_u32(b, 0) as i32,
            step,
            num,
        }
    }

    /// Writes this DATA4D into the first 20 bytes of `b`.
    pub fn write(&self, b: &mut [u8]) {
        addr4::put_u32(b, 0, self.base as u32);
        for i in 0..4 {
            b[4 + 2 * i..6 + 2 * i].copy_from_slice(&self.step[i].to_le_bytes());
            b[12 + 2 * i..14 + 2 * i].copy_from_slice(&self.num[i].to_le_bytes());
        }
    }

    /// Number of generated elements (product of the counts).
    pub fn elements(&self) -> u64 {
        self.num.iter().map(|&x| x as u64).product()
    }

    /// Text form `d4d(BASE;s0,s1,s2,s3;n0,n1,n2,n3)`, lane 0 first.
    pub fn format(&self, out: &mut String) {
        let _ = write!(out, "d4d({};", self.base);
        for (i, s) in self.step.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            let _ = write!(out, "{sep}{s}");
        }
        out.push(';');
        for (i, n) in self.num.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            let _ = write!(out, "{sep}{n}");
        }
        out.push(')');
    }

    /// Parses [`Data4dSlot::format`] output.
    pub fn parse(s: &str) -> Result<Data4dSlot, String> {
        let shape = || format!("expected `d4d(BASE;s0,s1,s2,s3;n0,n1,n2,n3)`, found `{s}`");
        let inner = s
            .strip_prefix("d4d(")
            .and_then(|r| r.strip_suffix(')'))
            .ok_or_else(shape)?;
        let parts: Vec<&str> = inner.split(';').collect();
        let [base, steps, nums] = parts[..] else {
            return Err(shape());
        };
        let base: i32 = base
            .parse()
            .map_err(|_| format!("bad base `{base}` (i32)"))?;
        let steps: Vec<&str> = steps.split(',').collect();
        let nums: Vec<&str> = nums.split(',').collect();
        if steps.len() != 4 || nums.len() != 4 {
            return Err("d4d needs 4 steps and 4 nums".into());
        }
        let mut d = Data4dSlot {
            base,
            step: [0; 4],
            num: [0; 4],
        };
        for i in 0..4 {
            d.step[i] = steps[i]
                .parse()
                .map_err(|_| format!("bad step `{}` (i16)", steps[i]))?;
            d.num[i] = nums[i]
                .parse()
                .map_err(|_| format!("bad num `{}` (u16)", nums[i]))?;
        }
        Ok(d)
    }
}

/// Packs a generator pattern into its DATA4D (the `tensor::pack` rule on its dims).
pub fn assign_data4d(slot: &mut [u8; DATA4D_BYTES], p: &GenPattern) -> Result<(), EncodeError> {
    let (step, num) = pack(&p.dims, 4)?;
    Data4dSlot {
        base: p.base,
        step,
        num,
    }
    .write(slot);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_and_text() {
        let d = Data4dSlot {
            base: -2,
            step: [1, -3, 1, 1],
            num: [4, 5, 1, 1],
        };
        let mut b = [0u8; 20];
        d.write(&mut b);
        assert_eq!(
            b,
            [
                0xfe, 0xff, 0xff, 0xff, 1, 0, 0xfd, 0xff, 1, 0, 1, 0, 4, 0, 5, 0, 1, 0, 1, 0
            ]
        );
        assert_eq!(Data4dSlot::read(&b), d);
        assert_eq!(d.elements(), 20);
        let mut s = String::new();
        d.format(&mut s);
        assert_eq!(s, "d4d(-2;1,-3,1,1;4,5,1,1)");
        assert_eq!(Data4dSlot::parse(&s), Ok(d));
        assert!(Data4dSlot::parse("d4d(1;2;3)").is_err());
        assert!(Data4dSlot::parse("d4d(1;2,2,2,2;3,3,3)").is_err());
    }
}
