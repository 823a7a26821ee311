//! The one data primitive: read or write a list of element offsets of an allocation.
//!
//! Every byte the emulator moves between an allocation and a tile goes through
//! [`read`] or [`write`] (index values included: `offsets.rs` reads them with [`read`]
//! too). The offsets come as an [`OffsetList`]:
//!
//! - [`OffsetList::Contiguous`]: one run of `len` elements from `start` (the "no
//!   offsets" case of the seed's proposal (a));
//! - [`OffsetList::Runs`]: a list of start offsets, each followed by a run of `run`
//!   contiguous elements. `run == 1` is one offset per point (the general path);
//!   larger runs are what the blocked path produces.
//!
//! The tile side is always consumed or produced sequentially: run `i` is tile elements
//! `i*run .. (i+1)*run`. Offsets are in elements of the accessed dtype from the start of
//! the allocation.
//!
//! Out-of-bounds handling lives here and only here (indirect-emulation rule 1):
//!
//! - a start equal to [`SKIP`] marks a run that the offsets pipeline skipped (an index
//!   out of bounds under `oob_mode = skip`, or a partial tile): reads give zero bytes,
//!   writes are dropped;
//! - any element outside `[0, allocation length)` (negative, or past the end: the
//!   seed's issue #182 partial tile) reads as zero bytes and its write is dropped. A run
//!   straddling the end is clipped element by element.
//!
//! Noted difference from the seed's Python emulator: its sparse read wraps a negative
//! flat offset silently (its `test_sparse_read_wraps_negative`) and bounds indices only
//! by the flat allocation end. The seed reports that as that emulator's behaviour, not
//! as a rule; the project rule (indirect-emulation.md rule 3) is that a negative or
//! out-of-extent index is out of bounds per dimension (`offsets.rs`), and here a
//! negative flat offset is simply outside the allocation.
//!
//! Writes apply in list order, elements of a run in order, so when two points target the
//! same element the later one in enumeration order wins ([`Combine::Replace`]) or both
//! accumulate ([`Combine::AddF32`]), indirect-emulation rule 6.

use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::ops::alu::add_f32;

/// Start offset marking a skipped run: reads zero, writes dropped.
pub const SKIP: i64 = i64::MIN;

/// A list of element offsets: one contiguous run, or runs of equal length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OffsetList<'a> {
    /// `len` elements from `start`.
    Contiguous {
        /// First element.
        start: i64,
        /// Number of elements.
        len: usize,
    },
    /// `starts.len()` runs of `run` elements each.
    Runs {
        /// Start of each run ([`SKIP`] for a skipped run).
        starts: &'a [i64],
        /// Elements per run.
        run: usize,
    },
}

impl OffsetList<'_> {
    /// Number of tile elements the list covers (`None` on overflow).
    pub fn num_elements(&self) -> Option<usize> {
        match *self {
            OffsetList::Contiguous { len, .. } => Some(len),
            OffsetList::Runs { starts, run } => starts.len().checked_mul(run),
        }
    }
}

/// How a write combines the tile value with the element already in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Combine {
    /// Overwrite. The tile holds elements of the destination dtype.
    Replace,
    /// `dst = dtype(f32(dst) + tile)`: the tile holds little-endian `f32` values and
    /// the destination is decoded and re-encoded as `dtype`. This is the DMA
    /// read-modify-write rule (nki-semantics `dma_compute`: all arithmetic in fp32,
    /// cast to the destination type).
    AddF32 {
        /// The destination element type (must be a scalar type).
        dtype: DType,
    },
}

const OP: &str = "data";

/// The in-bounds part `[lo, hi)` of the run `[start, start + len)` within `[0, n)`, as
/// element indices, plus the offset of `lo` within the run. `None` when the run misses
/// the allocation entirely (or is [`SKIP`]).
#[inline]
fn clip(start: i64, len: usize, n: usize) -> Option<(usize, usize, usize)> {
    if start == SKIP {
        return None;
    }
    let end = start.saturating_add(i64::try_from(len).unwrap_or(i64::MAX));
    let n = i64::try_from(n).unwrap_or(i64::MAX);
    let lo = start.max(0);
    let hi = end.min(n);
    if lo >= hi {
        return None;
    }
    // lo >= 0 and hi <= n, so both fit usize; lo - start <= len.
    Some((lo as usize, hi as usize, (lo - start) as usize))
}

/// Reads the elements `list` names from `mem` (an allocation's bytes, element size
/// `esize`) into `out`, sequentially. Skipped and out-of-allocation elements read as
/// zero bytes.
pub fn read(mem: &[u8], esize: usize, list: OffsetList<'_>, out: &mut [u8]) -> Result<()> {
    check_sizes(esize, list, out.len())?;
    let n = mem.len() / esize;
    match list {
        // Zero-length runs cover no element (and would be a zero chunk size below).
        OffsetList::Runs { run: 0, .. } => {}
        OffsetList::Contiguous { start, len } => read_run(mem, n, esize, start, len, out),
        OffsetList::Runs { starts, run: 1 } => read_points(mem, n, esize, starts, out),
        // No runs: nothing to read, whatever the run length (whose byte size may overflow).
        OffsetList::Runs { starts: [], .. } => {}
        OffsetList::Runs { starts, run } => {
            // check_sizes bounds starts.len() * run * esize, so with a run present this fits.
            let rb = run
                .checked_mul(esize)
                .ok_or_else(|| EmuError::overflow(OP, "a run's byte size"))?;
            // The largest start of a run wholly inside the allocation: such a run is one
            // copy (as read_run would make it); any other goes through read_run. A negative
            // start or SKIP converts to a huge u64 and fails the comparison.
            let last = n.checked_sub(run);
            for (&s, chunk) in starts.iter().zip(out.chunks_exact_mut(rb)) {
                match last {
                    Some(last) if (s as u64) <= last as u64 => {
                        let b = s as usize * esize;
                        chunk.copy_from_slice(&mem[b..b + rb]);
                    }
                    _ => read_run(mem, n, esize, s, run, chunk),
                }
            }
        }
    }
    Ok(())
}

#[inline]
fn read_run(mem: &[u8], n: usize, esize: usize, start: i64, len: usize, out: &mut [u8]) {
    // The common case first: a run wholly inside the allocation is one copy (the general
    // case below gives the same bytes, with two empty fills around it).
    if let Ok(lo) = usize::try_from(start)
        && let Some(hi) = lo.checked_add(len)
        && hi <= n
    {
        out.copy_from_slice(&mem[lo * esize..hi * esize]);
        return;
    }
    match clip(start, len, n) {
        None => out.fill(0),
        Some((lo, hi, skip)) => {
            let head = skip * esize;
            let body = (hi - lo) * esize;
            out[..head].fill(0);
            out[head..head + body].copy_from_slice(&mem[lo * esize..hi * esize]);
            out[head + body..].fill(0);
        }
    }
}

/// One element per offset. Specialised per element size: this is the general path's
/// inner loop, so it avoids per-element slice bookkeeping. A negative offset or
/// [`SKIP`] converts to a huge `u64` and fails the single bounds comparison.
fn read_points(mem: &[u8], n: usize, esize: usize, starts: &[i64], out: &mut [u8]) {
    macro_rules! points {
        ($w:expr) => {
            for (&s, o) in starts.iter().zip(out.chunks_exact_mut($w)) {
                let i = s as u64;
                if i < n as u64 {
                    let i = i as usize * $w;
                    o.copy_from_slice(&mem[i..i + $w]);
                } else {
                    o.fill(0);
                }
            }
        };
    }
    match esize {
        1 => points!(1),
        2 => points!(2),
        4 => points!(4),
        8 => points!(8),
        w => points!(w),
    }
}

/// Writes `data` (sequential tile elements) to the elements `list` names in `mem`,
/// combining as `combine` says. Skipped and out-of-allocation elements are dropped.
pub fn write(
    mem: &mut [u8],
    esize: usize,
    list: OffsetList<'_>,
    data: &[u8],
    combine: Combine,
) -> Result<()> {
    let tile_esize = match combine {
        Combine::Replace => esize,
        Combine::AddF32 { dtype } => {
            if dtype.size() != esize || !(dtype.is_float() || dtype.is_integer()) {
                return Err(EmuError::dtype(
                    OP,
                    format!("accumulating write into {dtype} elements of {esize} bytes"),
                ));
            }
            4
        }
    };
    check_sizes(tile_esize, list, data.len())?;
    let n = mem.len() / esize;
    match list {
        OffsetList::Runs { run: 0, .. } => {}
        OffsetList::Contiguous { start, len } => {
            write_run(mem, n, esize, start, len, data, combine);
        }
        OffsetList::Runs { starts: [], .. } => {}
        OffsetList::Runs { starts, run } => {
            let rb = run
                .checked_mul(tile_esize)
                .ok_or_else(|| EmuError::overflow(OP, "a run's byte size"))?;
            for (&s, chunk) in starts.iter().zip(data.chunks_exact(rb)) {
                write_run(mem, n, esize, s, run, chunk, combine);
            }
        }
    }
    Ok(())
}

#[inline]
fn write_run(
    mem: &mut [u8],
    n: usize,
    esize: usize,
    start: i64,
    len: usize,
    data: &[u8],
    combine: Combine,
) {
    let Some((lo, hi, skip)) = clip(start, len, n) else {
        return;
    };
    match combine {
        Combine::Replace => {
            let head = skip * esize;
            mem[lo * esize..hi * esize].copy_from_slice(&data[head..head + (hi - lo) * esize]);
        }
        Combine::AddF32 { dtype } => {
            for (k, e) in (lo..hi).enumerate() {
                let t = (skip + k) * 4;
                let add = f32::from_le_bytes([data[t], data[t + 1], data[t + 2], data[t + 3]]);
                let cell = &mut mem[e * esize..(e + 1) * esize];
                let old = dtype.to_f32(dtype.load(cell)).unwrap_or(f32::NAN);
                let new = dtype.from_f32(add_f32(old, add)).unwrap_or(0);
                dtype.store(new, cell);
            }
        }
    }
}

/// [`read`] from `src` through `src_list` and [`write`] (replace) of that tile to `dst`
/// through `dst_list`, fused: no tile is staged, each piece of a source run goes straight to
/// its place in a destination run. Same clipping as the two halves: a skipped or
/// out-of-allocation source element is a zero, a skipped or out-of-allocation destination
/// element is dropped, and pieces are written in list order (so the later of two writes to
/// one element wins). `src` and `dst` are different allocations' bytes, so no write is
/// visible to a later read of the same copy, as with a staged tile.
pub fn copy(
    src: &[u8],
    src_list: OffsetList<'_>,
    dst: &mut [u8],
    dst_list: OffsetList<'_>,
    esize: usize,
) -> Result<()> {
    if esize == 0 {
        return Err(EmuError::dtype(OP, "element size 0"));
    }
    let n = src_list
        .num_elements()
        .ok_or_else(|| EmuError::overflow(OP, "the tile size of an offset list"))?;
    if dst_list.num_elements() != Some(n) {
        return Err(EmuError::shape(
            OP,
            format!(
                "a copy of {n} source elements into {:?} destination elements",
                dst_list.num_elements()
            ),
        ));
    }
    n.checked_mul(esize)
        .ok_or_else(|| EmuError::overflow(OP, "the tile size of an offset list"))?;
    let (ns, nd) = (src.len() / esize, dst.len() / esize);
    let mut sr = Runs::new(src_list);
    let mut dr = Runs::new(dst_list);
    let (mut s, mut s_left) = sr.next_run();
    let (mut d, mut d_left) = dr.next_run();
    let mut done = 0usize;
    while done < n {
        if s_left == 0 {
            (s, s_left) = sr.next_run();
            continue;
        }
        if d_left == 0 {
            (d, d_left) = dr.next_run();
            continue;
        }
        let k = s_left.min(d_left);
        copy_piece(src, ns, s, dst, nd, d, k, esize);
        // Advancing a skipped start keeps it skipped; others stay exact (k <= the run).
        let step = k as i64;
        if s != SKIP {
            s = s.wrapping_add(step);
        }
        if d != SKIP {
            d = d.wrapping_add(step);
        }
        s_left -= k;
        d_left -= k;
        done += k;
    }
    Ok(())
}

/// The runs of an offset list in order, as `(start, len)`; `(SKIP, 0)` past the end.
struct Runs<'a> {
    list: OffsetList<'a>,
    next: usize,
}

impl<'a> Runs<'a> {
    fn new(list: OffsetList<'a>) -> Runs<'a> {
        Runs { list, next: 0 }
    }

    #[inline]
    fn next_run(&mut self) -> (i64, usize) {
        let i = self.next;
        self.next += 1;
        match self.list {
            OffsetList::Contiguous { start, len } if i == 0 => (start, len),
            OffsetList::Runs { starts, run } if i < starts.len() => (starts[i], run),
            _ => (SKIP, 0),
        }
    }
}

/// Copies `k` elements from source start `s` to destination start `d` (either may be
/// [`SKIP`]), with the clipping of [`read_run`] and [`write_run`].
#[allow(clippy::too_many_arguments)]
#[inline]
fn copy_piece(
    src: &[u8],
    ns: usize,
    s: i64,
    dst: &mut [u8],
    nd: usize,
    d: i64,
    k: usize,
    esize: usize,
) {
    // Piece positions [i0, i1) land inside the destination.
    let Some((dlo, dhi, i0)) = clip(d, k, nd) else {
        return;
    };
    let i1 = i0 + (dhi - dlo);
    let at = |i: usize| (dlo + (i - i0)) * esize;
    // Piece positions [j0, j1) come from inside the source.
    let (j0, j1, slo) = match clip(s, k, ns) {
        Some((slo, shi, j0)) => (j0, j0 + (shi - slo), slo),
        None => (0, 0, 0),
    };
    let (a, b) = (i0.max(j0), i1.min(j1));
    if a >= b {
        dst[at(i0)..at(i1)].fill(0);
        return;
    }
    dst[at(i0)..at(a)].fill(0);
    let from = (slo + (a - j0)) * esize;
    dst[at(a)..at(b)].copy_from_slice(&src[from..from + (b - a) * esize]);
    dst[at(b)..at(i1)].fill(0);
}

fn check_sizes(tile_esize: usize, list: OffsetList<'_>, tile_bytes: usize) -> Result<()> {
    if tile_esize == 0 {
        return Err(EmuError::dtype(OP, "element size 0"));
    }
    let want = list
        .num_elements()
        .and_then(|n| n.checked_mul(tile_esize))
        .ok_or_else(|| EmuError::overflow(OP, "the tile size of an offset list"))?;
    if want != tile_bytes {
        return Err(EmuError::shape(
            OP,
            format!("offset list covers {want} tile bytes but the tile has {tile_bytes}"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mem16(n: u16) -> Vec<u8> {
        (0..n).flat_map(|i| (i + 1).to_le_bytes()).collect()
    }

    fn as16(b: &[u8]) -> Vec<u16> {
        b.chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect()
    }

    #[test]
    fn contiguous_read_zero_pads_past_both_ends() {
        let m = mem16(4);
        let mut out = vec![0xAA; 12];
        read(
            &m,
            2,
            OffsetList::Contiguous { start: -1, len: 6 },
            &mut out,
        )
        .unwrap();
        assert_eq!(as16(&out), vec![0, 1, 2, 3, 4, 0]);
    }

    #[test]
    fn runs_clip_per_element_and_skip_whole_runs() {
        let m = mem16(6);
        let starts = [4, SKIP, -2, 1];
        let mut out = vec![0xAA; 2 * 3 * 4];
        read(
            &m,
            2,
            OffsetList::Runs {
                starts: &starts,
                run: 3,
            },
            &mut out,
        )
        .unwrap();
        assert_eq!(as16(&out), vec![5, 6, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4]);
    }

    #[test]
    fn point_reads_treat_negative_and_past_end_as_zero() {
        let m = mem16(3);
        let starts = [2, -1, 3, 0, SKIP];
        let mut out = vec![0xAA; 10];
        read(
            &m,
            2,
            OffsetList::Runs {
                starts: &starts,
                run: 1,
            },
            &mut out,
        )
        .unwrap();
        assert_eq!(as16(&out), vec![3, 0, 0, 1, 0]);
    }

    #[test]
    fn writes_drop_out_of_bounds_and_last_writer_wins() {
        let mut m = vec![0u8; 8];
        let starts = [1, 5, -1, 1, SKIP];
        let data: Vec<u8> = [10u16, 20, 30, 40, 50]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        write(
            &mut m,
            2,
            OffsetList::Runs {
                starts: &starts,
                run: 1,
            },
            &data,
            Combine::Replace,
        )
        .unwrap();
        assert_eq!(as16(&m), vec![0, 40, 0, 0]);
        // A run straddling the end keeps its in-bounds head.
        write(
            &mut m,
            2,
            OffsetList::Contiguous { start: 2, len: 3 },
            &data[..6],
            Combine::Replace,
        )
        .unwrap();
        assert_eq!(as16(&m), vec![0, 40, 10, 20]);
    }

    #[test]
    fn accumulating_writes_add_every_duplicate_in_f32() {
        let mut m: Vec<u8> = [1.0f32, 2.0].iter().flat_map(|v| v.to_le_bytes()).collect();
        let starts = [0, 1, 0, 7];
        let data: Vec<u8> = [0.5f32, 1.0, 0.25, 9.0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        write(
            &mut m,
            4,
            OffsetList::Runs {
                starts: &starts,
                run: 1,
            },
            &data,
            Combine::AddF32 { dtype: DType::F32 },
        )
        .unwrap();
        let got: Vec<f32> = m
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(got, vec![1.75, 3.0]);
    }

    #[test]
    fn zero_length_runs_and_empty_lists_move_nothing() {
        let mut m = mem16(2);
        let mut out: Vec<u8> = Vec::new();
        read(
            &m,
            2,
            OffsetList::Runs {
                starts: &[0, 1],
                run: 0,
            },
            &mut out,
        )
        .unwrap();
        write(
            &mut m,
            2,
            OffsetList::Runs {
                starts: &[0],
                run: 0,
            },
            &[],
            Combine::Replace,
        )
        .unwrap();
        read(
            &m,
            2,
            OffsetList::Runs {
                starts: &[],
                run: 3,
            },
            &mut out,
        )
        .unwrap();
        assert_eq!(as16(&m), vec![1, 2]);
        assert!(read(&m, 0, OffsetList::Contiguous { start: 0, len: 0 }, &mut out).is_err());
    }

    /// The fused copy equals a staged read then write, on lists with skipped runs, runs
    /// straddling both ends of both allocations, and duplicate destinations.
    #[test]
    fn fused_copy_equals_read_then_write() {
        let src = mem16(7);
        let cases: [(OffsetList<'_>, OffsetList<'_>); 4] = [
            (
                OffsetList::Runs {
                    starts: &[-2, 5, SKIP, 3],
                    run: 3,
                },
                OffsetList::Runs {
                    starts: &[4, SKIP, 0, -1, 2, 2],
                    run: 2,
                },
            ),
            (
                OffsetList::Contiguous { start: -1, len: 6 },
                OffsetList::Runs {
                    starts: &[1, 0, 5, 3, -3, 6],
                    run: 1,
                },
            ),
            (
                OffsetList::Runs {
                    starts: &[6, 0, 1],
                    run: 2,
                },
                OffsetList::Contiguous { start: 3, len: 6 },
            ),
            (
                OffsetList::Runs {
                    starts: &[],
                    run: 4,
                },
                OffsetList::Contiguous { start: 0, len: 0 },
            ),
        ];
        for (i, (sl, dl)) in cases.into_iter().enumerate() {
            let n = sl.num_elements().unwrap();
            let mut tile = vec![0u8; n * 2];
            read(&src, 2, sl, &mut tile).unwrap();
            let mut want = vec![0xAAu8; 12];
            write(&mut want, 2, dl, &tile, Combine::Replace).unwrap();
            let mut got = vec![0xAAu8; 12];
            copy(&src, sl, &mut got, dl, 2).unwrap();
            assert_eq!(as16(&got), as16(&want), "case {i}");
        }
        let mut d = vec![0u8; 4];
        let short = OffsetList::Contiguous { start: 0, len: 1 };
        let long = OffsetList::Contiguous { start: 0, len: 2 };
        assert!(copy(&src, long, &mut d, short, 2).is_err());
        assert!(copy(&src, short, &mut d, short, 0).is_err());
    }

    #[test]
    fn size_mismatches_are_errors() {
        let m = mem16(3);
        let mut out = vec![0u8; 5];
        assert!(read(&m, 2, OffsetList::Contiguous { start: 0, len: 3 }, &mut out).is_err());
        let mut mm = vec![0u8; 4];
        let r = write(
            &mut mm,
            2,
            OffsetList::Contiguous { start: 0, len: 1 },
            &[0; 2],
            Combine::AddF32 { dtype: DType::F32 },
        );
        assert!(r.is_err());
    }
}
