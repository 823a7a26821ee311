//! TENSOR1D/2D/3D/4D static access-pattern descriptors (the 4+4N rule) and their packing.
//!
//! Layout (bundle-layouts §2a, CC CONFIRMED; header `NEURON_ISA_TPB_TENSOR3D` agrees):
//! `[ADDR4 @+0][N x i16 step_elem @+4][N x u16 num_elem @+4+2N]`: two separate arrays, not
//! interleaved. Steps are in elements. Packing (`assignStaticPattern<TENSORnD>`): the partition
//! dim (`Pattern[0]`) folds into ADDR4; the free dims are walked innermost first, dims with
//! `num == 1` are dropped, survivors fill slots 0.. and the remaining slots get `{step 1, num 1}`.

use crate::addr4;
use crate::arch::ArchModel;
use crate::error::EncodeError;
use crate::model::{Dims, StaticAp};

/// Byte width of TENSORnD: 4 + 4n.
pub const fn tensor_bytes(n: usize) -> usize {
    4 + 4 * n
}

/// Byte offset of `num_elem[i]` in a TENSORnD (after the ADDR4 word and the `n` steps).
pub const fn num_elem_offset(n: usize, i: usize) -> usize {
    4 + 2 * n + 2 * i
}

/// Packs free dims (innermost last) into `n` slots, innermost in slot 0.
#[inline]
pub fn pack(dims: &Dims, n: usize) -> Result<([i16; 4], [u16; 4]), EncodeError> {
    let mut step = [1i16; 4];
    let mut num = [1u16; 4];
    let mut k = 0usize;
    for d in dims.iter().rev() {
        if d.num == 0 {
            return Err(EncodeError::ZeroNumElem);
        }
        if d.num == 1 {
            continue;
        }
        if k == n {
            let found = dims.iter().filter(|d| d.num > 1).count();
            return Err(EncodeError::TooManyDims { n: n as u8, found });
        }
        step[k] = d.step;
        num[k] = d.num;
        k += 1;
    }
    Ok((step, num))
}

/// `assignStaticPattern<TENSORnD>`: fills all `4 + 4n` bytes of `slot` (n in 1..=4).
#[inline]
pub fn assign_static_pattern(
    slot: &mut [u8],
    ap: &StaticAp,
    n: usize,
    arch: &ArchModel,
) -> Result<(), EncodeError> {
    match n {
        1 => assign_static::<1>(slot, ap, arch),
        2 => assign_static::<2>(slot, ap, arch),
        3 => assign_static::<3>(slot, ap, arch),
        _ => assign_static::<4>(slot, ap, arch),
    }
}

/// The rank-specialised body (a constant `N` lets the compiler unroll the slot writes).
#[inline]
pub fn assign_static<const N: usize>(
    slot: &mut [u8],
    ap: &StaticAp,
    arch: &ArchModel,
) -> Result<(), EncodeError> {
    let w = addr4::word(&ap.start, arch)?;
    let (step, num) = pack(&ap.dims, N)?;
    let slot = &mut slot[..4 + 4 * N];
    addr4::put_u32(slot, 0, w);
    for i in 0..N {
        slot[4 + 2 * i..6 + 2 * i].copy_from_slice(&step[i].to_le_bytes());
        slot[4 + 2 * N + 2 * i..6 + 2 * N + 2 * i].copy_from_slice(&num[i].to_le_bytes());
    }
    Ok(())
}

/// A decoded TENSORnD.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TensorSlot {
    /// Rank (1..=4).
    pub n: u8,
    /// The ADDR4 word.
    pub addr: u32,
    /// `step_elem[0..n]` (unused entries are 1).
    pub step: [i16; 4],
    /// `num_elem[0..n]` (unused entries are 1).
    pub num: [u16; 4],
}

impl TensorSlot {
    /// Reads a TENSORnD from `b` (at least `4 + 4n` bytes).
    pub fn read(b: &[u8], n: usize) -> TensorSlot {
        let mut step = [1i16; 4];
        let mut num = [1u16; 4];
        for i in 0..n {
            step[i] = i16::from_le_bytes([b[4 + 2 * i], b[5 + 2 * i]]);
            let o = 4 + 2 * n + 2 * i;
            num[i] = u16::from_le_bytes([b[o], b[o + 1]]);
        }
        TensorSlot {
            n: n as u8,
            addr: addr4::get_u32(b, 0),
            step,
            num,
        }
    }

    /// Writes this TENSORnD into `b`.
    #[inline]
    pub fn write(&self, b: &mut [u8]) {
        let n = self.n as usize;
        addr4::put_u32(b, 0, self.addr);
        for i in 0..n {
            b[4 + 2 * i..6 + 2 * i].copy_from_slice(&self.step[i].to_le_bytes());
            let o = 4 + 2 * n + 2 * i;
            b[o..o + 2].copy_from_slice(&self.num[i].to_le_bytes());
        }
    }

    /// Elements per partition (product of the counts).
    pub fn elements(&self) -> u64 {
        self.num[..self.n as usize]
            .iter()
            .map(|&x| x as u64)
            .product()
    }

    /// Text form `tNd(ADDR;s0,..;n0,..)`.
    pub fn format(&self, out: &mut String) {
        use std::fmt::Write;
        let n = self.n as usize;
        let _ = write!(out, "t{}d(", n);
        addr4::format(self.addr, out);
        out.push(';');
        for i in 0..n {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "{}", self.step[i]);
        }
        out.push(';');
        for i in 0..n {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "{}", self.num[i]);
        }
        out.push(')');
    }

    /// Parses the text form for rank `n`.
    pub fn parse(s: &str, n: usize) -> Result<TensorSlot, String> {
        let head = format!("t{n}d(");
        let inner = s
            .strip_prefix(head.as_str())
            .and_then(|r| r.strip_suffix(')'))
            .ok_or_else(|| format!("expected `t{n}d(ADDR;steps;nums)`, found `{s}`"))?;
        let parts: Vec<&str> = inner.split(';').collect();
        if parts.len() != 3 {
            return Err(format!("expected `t{n}d(ADDR;steps;nums)`, found `{s}`"));
        }
        let addr = addr4::parse(parts[0])?;
        let steps: Vec<&str> = parts[1].split(',').collect();
        let nums: Vec<&str> = parts[2].split(',').collect();
        if steps.len() != n || nums.len() != n {
            return Err(format!("t{n}d needs {n} steps and {n} nums"));
        }
        let mut t = TensorSlot {
            n: n as u8,
            addr,
            step: [1; 4],
            num: [1; 4],
        };
        for i in 0..n {
            t.step[i] = steps[i]
                .parse()
                .map_err(|_| format!("bad step `{}` (i16)", steps[i]))?;
            t.num[i] = nums[i]
                .parse()
                .map_err(|_| format!("bad num `{}` (u16)", nums[i]))?;
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Dim;

    #[test]
    fn packing_skips_unit_dims_and_backfills() {
        let dims = Dims::from([Dim::new(64, 4), Dim::new(7, 1), Dim::new(1, 16)]);
        let (s, n) = pack(&dims, 3).unwrap();
        assert_eq!(s[..3], [1, 64, 1]);
        assert_eq!(n[..3], [16, 4, 1]);
        assert_eq!(pack(&Dims::new(), 1).unwrap(), ([1; 4], [1; 4]));
        let four = Dims::from([
            Dim::new(1, 2),
            Dim::new(1, 3),
            Dim::new(1, 4),
            Dim::new(1, 5),
        ]);
        assert_eq!(
            pack(&four, 3),
            Err(EncodeError::TooManyDims { n: 3, found: 4 })
        );
        assert_eq!(
            pack(&Dims::from([Dim::new(1, 0)]), 3),
            Err(EncodeError::ZeroNumElem)
        );
    }

    #[test]
    fn layout_is_two_arrays() {
        let t = TensorSlot {
            n: 2,
            addr: 0x11223344,
            step: [-1, 2, 1, 1],
            num: [3, 4, 1, 1],
        };
        let mut b = [0u8; 12];
        t.write(&mut b);
        assert_eq!(b, [0x44, 0x33, 0x22, 0x11, 0xff, 0xff, 2, 0, 3, 0, 4, 0]);
        assert_eq!(TensorSlot::read(&b, 2), t);
        let mut s = String::new();
        t.format(&mut s);
        assert_eq!(TensorSlot::parse(&s, 2), Ok(t));
    }
}
