//! The written-shadow: one bit per byte of an allocation, set when something wrote it.
//!
//! [`crate::Memory`] keeps a shadow per allocation while the uninitialised-read check is on
//! (and always for PSUM, whose matmul `accumulate=None` rule asks whether a location was
//! written before). Every write path marks the bytes it stores through
//! [`Shadow::set_list`]; a checked read asks [`Shadow::first_unwritten_in_list`] for the
//! first byte no write has reached. Offsets and clipping follow the data primitive
//! (`data.rs`) exactly: skipped runs and elements outside the allocation are neither
//! marked nor checked (they read as zero and their writes are dropped).
//!
//! Elements of 1, 2, 4 or 8 bytes at element-aligned offsets never straddle a 64-bit word
//! of the bitmap, so marking and checking one element is one word operation.

use crate::data::{OffsetList, SKIP};
use crate::error::{EmuError, Result};

const OP: &str = "memory";

/// A bitmap of written bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Shadow {
    words: Vec<u64>,
    len: usize,
}

impl Shadow {
    /// A shadow of `len` bytes, all written or all unwritten; allocated fallibly.
    pub(crate) fn new(len: usize, written: bool) -> Result<Shadow> {
        let n = len.div_ceil(64);
        let mut words: Vec<u64> = Vec::new();
        words.try_reserve_exact(n).map_err(|_| {
            EmuError::memory(OP, format!("cannot allocate a shadow of {len} bytes"))
        })?;
        words.resize(n, if written { u64::MAX } else { 0 });
        Ok(Shadow { words, len })
    }

    /// A shadow of `len` bytes, all unwritten, whose zeroed words come from the allocator's
    /// zeroed pages (untouched until used). Infallible: for the on-chip memories, whose size
    /// is the target's, never one read from input.
    pub(crate) fn unwritten(len: usize) -> Shadow {
        let words = vec![0u64; len.div_ceil(64)];
        crate::memory::advise_huge_pages(&words);
        Shadow { words, len }
    }

    /// Marks bytes `lo..hi` written (`set`) or unwritten.
    pub(crate) fn set_range(&mut self, lo: usize, hi: usize, set: bool) {
        let hi = hi.min(self.len);
        if lo >= hi {
            return;
        }
        let (wl, wh) = (lo / 64, (hi - 1) / 64);
        let (from, to) = (lo % 64, (hi - 1) % 64 + 1);
        let apply = |w: &mut u64, mask: u64| {
            if set {
                *w |= mask;
            } else {
                *w &= !mask;
            }
        };
        if wl == wh {
            apply(&mut self.words[wl], mask(from, to));
            return;
        }
        apply(&mut self.words[wl], mask(from, 64));
        // Whole words in between: a fill.
        self.words[wl + 1..wh].fill(if set { u64::MAX } else { 0 });
        apply(&mut self.words[wh], mask(0, to));
    }

    /// The first byte of `lo..hi` not written, if any.
    pub(crate) fn first_unwritten(&self, lo: usize, hi: usize) -> Option<usize> {
        let hi = hi.min(self.len);
        if lo >= hi {
            return None;
        }
        let (wl, wh) = (lo / 64, (hi - 1) / 64);
        let (from, to) = (lo % 64, (hi - 1) % 64 + 1);
        let missing = |w: usize, m: u64| {
            let gap = !self.words[w] & m;
            (gap != 0).then(|| w * 64 + gap.trailing_zeros() as usize)
        };
        if wl == wh {
            return missing(wl, mask(from, to));
        }
        if let Some(b) = missing(wl, mask(from, 64)) {
            return Some(b);
        }
        // Whole words in between: all ones unless something is missing. Blocks of words
        // AND-ed together first (a loop the compiler vectorises), the word only in a block
        // that has a gap.
        const BLOCK: usize = 16;
        let mid = &self.words[wl + 1..wh];
        for (b, block) in mid.chunks(BLOCK).enumerate() {
            if block.iter().fold(u64::MAX, |a, &w| a & w) != u64::MAX {
                let k = block.iter().position(|&w| w != u64::MAX).unwrap_or(0);
                return missing(wl + 1 + b * BLOCK + k, u64::MAX);
            }
        }
        missing(wh, mask(0, to))
    }

    /// True when every byte of `lo..hi` is written.
    pub(crate) fn all_written(&self, lo: usize, hi: usize) -> bool {
        self.first_unwritten(lo, hi).is_none()
    }

    /// Marks the elements `list` names (element size `esize`) written (`set`) or
    /// unwritten, clipped like a write.
    pub(crate) fn set_list(&mut self, esize: usize, list: OffsetList<'_>, set: bool) {
        let n = self.len / esize.max(1);
        for_each_run(list, n, |lo, hi| {
            self.set_range(lo * esize, hi * esize, set);
        });
    }

    /// The first byte of the elements `list` names that nothing wrote, in list order.
    pub(crate) fn first_unwritten_in_list(
        &self,
        esize: usize,
        list: OffsetList<'_>,
    ) -> Option<usize> {
        let n = self.len / esize.max(1);
        let mut found = None;
        for_each_run(list, n, |lo, hi| {
            if found.is_none() {
                found = self.first_unwritten(lo * esize, hi * esize);
            }
        });
        found
    }
}

/// Bits `from..to` of a word (`to <= 64`, `from < to`).
#[inline]
fn mask(from: usize, to: usize) -> u64 {
    let high = if to == 64 { u64::MAX } else { (1u64 << to) - 1 };
    high & !((1u64 << from) - 1)
}

/// Calls `f(lo, hi)` with the in-allocation element range of every run of `list`, in list
/// order (the clipping of `data.rs`: skipped runs and elements outside `[0, n)` drop out).
fn for_each_run(list: OffsetList<'_>, n: usize, mut f: impl FnMut(usize, usize)) {
    let mut run = |start: i64, len: usize| {
        if start == SKIP || len == 0 {
            return;
        }
        let end = start.saturating_add(i64::try_from(len).unwrap_or(i64::MAX));
        let lo = start.max(0);
        let hi = end.min(i64::try_from(n).unwrap_or(i64::MAX));
        if lo < hi {
            // Both are in 0..=n, so they fit usize.
            f(lo as usize, hi as usize);
        }
    };
    match list {
        OffsetList::Contiguous { start, len } => run(start, len),
        OffsetList::Runs { starts, run: len } => {
            for &s in starts {
                run(s, len);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cross_word_boundaries() {
        let mut s = Shadow::new(200, false).unwrap();
        s.set_range(60, 130, true);
        assert_eq!(s.first_unwritten(60, 130), None);
        assert_eq!(s.first_unwritten(0, 200), Some(0));
        assert_eq!(s.first_unwritten(60, 131), Some(130));
        s.set_range(64, 65, false);
        assert_eq!(s.first_unwritten(60, 130), Some(64));
        // Past the end is clipped, not a panic.
        s.set_range(190, 1000, true);
        assert!(s.all_written(190, 500));
    }

    #[test]
    fn lists_clip_and_skip_like_the_data_primitive() {
        let mut s = Shadow::new(16, false).unwrap();
        // Elements of 4 bytes: 0..4 exist. -1 and 7 are outside, SKIP is skipped.
        s.set_list(
            4,
            OffsetList::Runs {
                starts: &[-1, SKIP, 2, 7],
                run: 1,
            },
            true,
        );
        assert!(s.all_written(8, 12));
        assert_eq!(s.first_unwritten(0, 16), Some(0));
        assert_eq!(
            s.first_unwritten_in_list(4, OffsetList::Contiguous { start: 2, len: 5 }),
            Some(12)
        );
        assert_eq!(
            s.first_unwritten_in_list(
                4,
                OffsetList::Runs {
                    starts: &[2, SKIP, 9],
                    run: 1
                }
            ),
            None
        );
    }

    #[test]
    fn word_operations_agree_with_a_byte_per_byte_model() {
        let len = 300;
        let mut s = Shadow::new(len, false).unwrap();
        let mut model = vec![false; len];
        let mut x: u64 = 0x9E37_79B9;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        for _ in 0..3000 {
            let lo = next(len + 10);
            let hi = lo + next(200);
            let op = next(3);
            if op < 2 {
                let set = op == 0;
                s.set_range(lo, hi, set);
                for b in model.iter_mut().take(hi.min(len)).skip(lo) {
                    *b = set;
                }
            } else {
                let want = (lo..hi.min(len)).find(|&b| !model[b]);
                assert_eq!(s.first_unwritten(lo, hi), want, "{lo}..{hi}");
            }
        }
    }
}
