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

/// An encoded TENSORnD / INDIRECT16B/20B slot as three words: the first ADDR4 word, the step
/// run and the count run (16-bit lanes, innermost in lane 0; a rank-`n` slot uses lanes `0..n`).
/// An indirect record fits the same shape: INDEX (with the marker) as the word, DATA and NUM as
/// the step run, zero counts. Both encoders build slots in this form and write them with
/// [`Slot::write`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Slot {
    /// Bytes 0..4.
    pub addr: u32,
    /// Bytes 4..4+2n.
    pub steps: u64,
    /// Bytes 4+2n..4+4n.
    pub nums: u64,
}

impl Slot {
    /// Writes the `4 + 4N` bytes of a rank-`N` slot at the start of `b` (word, steps, counts),
    /// in as few 8-byte stores as the width allows; lanes `N..` of the runs are ignored.
    #[inline(always)]
    pub fn write<const N: usize>(&self, b: &mut [u8]) {
        let lo = self.addr as u64 | self.steps << 32;
        match N {
            1 => {
                let lo = self.addr as u64 | (self.steps & 0xFFFF) << 32;
                put(b, 0, (lo | self.nums << 48).to_le_bytes());
            }
            2 => {
                put(b, 0, lo.to_le_bytes());
                put(b, 8, (self.nums as u32).to_le_bytes());
            }
            3 => {
                put(b, 0, lo.to_le_bytes());
                let hi = (self.steps >> 32) & 0xFFFF | self.nums << 16;
                put(b, 8, hi.to_le_bytes());
            }
            _ => {
                put(b, 0, self.addr.to_le_bytes());
                put(b, 4, self.steps.to_le_bytes());
                put(b, 12, self.nums.to_le_bytes());
            }
        }
    }
}

/// Stores `v` at byte `off` of `b` (a constant offset at every call site).
#[inline(always)]
fn put<const W: usize>(b: &mut [u8], off: usize, v: [u8; W]) {
    b[off..off + W].copy_from_slice(&v);
}

/// Lane value 1 in each of the first `k` 16-bit lanes (padded to eight entries, so that an
/// index masked with 7 needs no bounds check).
const ONES: [u64; 8] = [
    0,
    0x0001,
    0x0001_0001,
    0x0001_0001_0001,
    0x0001_0001_0001_0001,
    0x0001_0001_0001_0001,
    0x0001_0001_0001_0001,
    0x0001_0001_0001_0001,
];

/// Lane value 2 in each of the first `k` 16-bit lanes, padded like [`ONES`].
const TWOS: [u64; 8] = {
    let mut t = [0u64; 8];
    let mut k = 0;
    while k < 8 {
        t[k] = ONES[k] << 1;
        k += 1;
    }
    t
};

/// The top bit of each 16-bit lane.
const TOP: u64 = 0x8000_8000_8000_8000;

/// Packs free dims into rank `N` as two lane runs (steps, counts): the free dims are walked
/// innermost first, dims with `num == 1` are dropped, survivors fill lanes `0..` and the
/// remaining lanes get `{step 1, num 1}`. A zero count is `ZeroNumElem`, more than `N` kept dims
/// `TooManyDims`, whichever the walk meets first.
///
/// The common case, at most `N` dims and none of them a unit dim, is the runs [`Dims`] holds
/// (innermost in lane 0, unit lanes past the end), taken as they are after one SWAR test: a used
/// lane with its top bit set, minus 2, keeps the top bit exactly when the count's low 15 bits are
/// at least 2, and no lane borrows from the next. Counts of 0x8000 and 0x8001 fail the test
/// although they are kept; like everything else the test rejects, they take the walk.
#[inline(always)]
pub(crate) fn pack_runs<const N: usize>(dims: &Dims) -> Result<(u64, u64), EncodeError> {
    let (steps, nums, len) = dims.runs();
    // `Dims` holds at most four dims, so rank 4 needs no length test.
    let fits = N >= 4 || len <= N;
    if fits & (((nums | TOP) - TWOS[len & 7]) & TOP == TOP) {
        Ok((steps, nums))
    } else {
        pack_walk::<N>(dims)
    }
}

/// The walk of [`pack_runs`], out of line: one pass over the lanes, innermost first; each kept
/// dim takes the next lane.
#[cold]
#[inline(never)]
fn pack_walk<const N: usize>(dims: &Dims) -> Result<(u64, u64), EncodeError> {
    let (steps, nums, len) = dims.runs();
    let (mut s, mut n, mut kept) = (0u64, 0u64, 0usize);
    for lane in 0..len.min(4) {
        let step = steps >> (16 * lane) & 0xFFFF;
        let num = nums >> (16 * lane) & 0xFFFF;
        if num == 0 {
            return Err(EncodeError::ZeroNumElem);
        }
        if num == 1 {
            continue;
        }
        if kept == N {
            let found = dims.iter().filter(|d| d.num > 1).count();
            return Err(EncodeError::TooManyDims { n: N as u8, found });
        }
        // `kept < N <= 4` here: the shifts stay inside the runs.
        s |= step << (16 * kept);
        n |= num << (16 * kept);
        kept += 1;
    }
    let fill = ONES[4] - ONES[kept & 7];
    Ok((s | fill, n | fill))
}

/// Packs free dims (innermost last) into `n` slots, innermost in slot 0 ([`pack_runs`] as
/// arrays).
#[inline]
pub fn pack(dims: &Dims, n: usize) -> Result<([i16; 4], [u16; 4]), EncodeError> {
    let (s, m) = match n {
        0 => pack_runs::<0>(dims)?,
        1 => pack_runs::<1>(dims)?,
        2 => pack_runs::<2>(dims)?,
        3 => pack_runs::<3>(dims)?,
        _ => pack_runs::<4>(dims)?,
    };
    let lane = |r: u64, i: usize| (r >> (16 * i)) as u16;
    Ok((
        std::array::from_fn(|i| lane(s, i) as i16),
        std::array::from_fn(|i| lane(m, i)),
    ))
}

/// `assignStaticPattern<TENSORnD>` as a [`Slot`]: the start folded into the ADDR4 word, then
/// the packed dims.
#[inline(always)]
pub(crate) fn static_slot<const N: usize>(
    ap: &StaticAp,
    arch: &ArchModel,
) -> Result<Slot, EncodeError> {
    let addr = addr4::word(&ap.start, arch)?;
    let (steps, nums) = pack_runs::<N>(&ap.dims)?;
    Ok(Slot { addr, steps, nums })
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
    static_slot::<N>(ap, arch)?.write::<N>(slot);
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
    #[inline]
    pub fn read(b: &[u8], n: usize) -> TensorSlot {
        // Rank by rank, so that each read is at a constant offset of one checked range.
        match n {
            1 => Self::read_n::<1>(b),
            2 => Self::read_n::<2>(b),
            3 => Self::read_n::<3>(b),
            4 => Self::read_n::<4>(b),
            _ => Self::read_any(b, n),
        }
    }

    /// [`TensorSlot::read`] of rank `N`.
    #[inline(always)]
    fn read_n<const N: usize>(b: &[u8]) -> TensorSlot {
        let b = &b[..tensor_bytes(N)];
        let mut step = [1i16; 4];
        let mut num = [1u16; 4];
        for i in 0..N {
            step[i] = i16::from_le_bytes([b[4 + 2 * i], b[5 + 2 * i]]);
            let o = 4 + 2 * N + 2 * i;
            num[i] = u16::from_le_bytes([b[o], b[o + 1]]);
        }
        TensorSlot {
            n: N as u8,
            addr: addr4::get_u32(b, 0),
            step,
            num,
        }
    }

    /// [`TensorSlot::read`] of any rank (0, or past 4, which has no room in the arrays).
    #[cold]
    fn read_any(b: &[u8], n: usize) -> TensorSlot {
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

    /// The packing rule as the spec states it (walk innermost first, drop unit dims, fill the
    /// rest with {1, 1}; the first zero count or the first dim past `n` fails), written
    /// independently of `pack_runs`.
    fn pack_by_the_rule(dims: &Dims, n: usize) -> Result<([i16; 4], [u16; 4]), EncodeError> {
        let (mut step, mut num, mut k) = ([1i16; 4], [1u16; 4], 0);
        for d in dims.iter().rev() {
            match d.num {
                0 => return Err(EncodeError::ZeroNumElem),
                1 => {}
                _ if k == n => {
                    let found = dims.iter().filter(|d| d.num > 1).count();
                    return Err(EncodeError::TooManyDims { n: n as u8, found });
                }
                _ => {
                    step[k] = d.step;
                    num[k] = d.num;
                    k += 1;
                }
            }
        }
        Ok((step, num))
    }

    #[test]
    fn packing_matches_the_rule_on_every_small_shape() {
        // Counts around the SWAR test's edges (0, 1, 2, 0x8000, 0x8001, 0xFFFF), every dim count
        // and every rank: the fast test and the walk together give the rule's result and error.
        let nums = [0u16, 1, 2, 3, 0x8000, 0x8001, 0xFFFF];
        let mut checked = 0;
        for len in 0..=4usize {
            for code in 0..nums.len().pow(len as u32) {
                let mut dims = Dims::new();
                let mut c = code;
                for i in 0..len {
                    let _ = dims.try_push(Dim::new(-(i as i16) - 2, nums[c % nums.len()]));
                    c /= nums.len();
                }
                for n in 0..=4 {
                    assert_eq!(pack(&dims, n), pack_by_the_rule(&dims, n), "{dims:?} n={n}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000);
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
