//! The GENERATE fast path: the building blocks the op files' `generate` functions share.
//!
//! The reference encoders (`encode` in each op file) follow the spec step by step: zero the
//! bundle, stamp each field through a `&mut [u8; 64]`, check each assert where the compiler does
//! and return its exact error. The fast path produces the same bytes for the inputs it accepts
//! and gives up (`None`) on everything else, leaving the error to the reference encoder, so every
//! error a caller sees still comes from the reference encoder, in its order, with its payload.
//! What makes it fast:
//!
//! * A bundle is zeroed with four wide stores and each field is then stored once, as soon as it
//!   is known, a slot in two or three 8-byte stores ([`Words`]); nothing is read back and few
//!   values stay live (the whole lowering is inlined into the caller's loop, where spills cost).
//! * An access pattern is folded and packed once per instruction ([`Slot`]), even when two
//!   bundles of a micro-pair carry it; its dtype and partition count come from the same match
//!   ([`Operand`]).
//! * The start-address fold ([`word`]) needs no division and, for an SBUF start, is one or two
//!   range tests; PSUM and register starts and dim lists with a unit dim are out of line (and
//!   cold); indirect records are inline, so their gates fold on the built-in models.
//! * Packing ([`pack`]) takes the two lane runs [`Dims`] stores (the TENSOR4D layout) as they
//!   are after one SWAR test when no dim is dropped: no per-dim work, no branch on the count.
//! * The sync bands cost one test when there is no sync (the usual case).
//! * `ops::generate` recognises the built-in models by address and runs a copy of the fast path
//!   on a constant copy of the model, so every model field it reads is an immediate (strides
//!   become shifts, the family gate and the dtype LUT constants); other models take the general
//!   copy.
//!
//! The fast path may be stricter than the reference (it may decline a legal input, which then
//! takes the reference path), never looser; the differential property test compares the two on
//! valid and invalid instructions, on the built-in models, their clones and perturbed models, and
//! with short output buffers.

use crate::addr4::{INDIRECT_BIT, NUM_ADDR_REGISTERS, REG_BIT};
use crate::arch::{ArchModel, Family};
use crate::bundle::{Bundle, INST_WORD_LEN};
use crate::dtype::{BirDtype, wire_lut};
use crate::fields::Field;
use crate::formats::events;
use crate::model::{
    AccessPattern, Dims, IndirectAp, Instruction, MemLoc, OpKind, Space, Start, StaticAp, SyncInfo,
};

/// A bundle being filled in place: `new` zeroes it and stamps the header; each field is then one
/// store of its final value (no read-modify-write, and nothing held in registers until the end).
pub(crate) struct Words<'a>(&'a mut Bundle);

impl<'a> Words<'a> {
    /// Zeroes `b`, then writes the header (opcode, `inst_word_len`).
    #[inline(always)]
    pub fn new(b: &'a mut Bundle, opcode: u8) -> Words<'a> {
        *b = [0; 64];
        put(b, 0, [opcode, INST_WORD_LEN]);
        Words(b)
    }

    /// The EVENTS band (zero, the common case, is already there).
    #[inline(always)]
    pub fn band(&mut self, band: u64) {
        if band != 0 {
            put_events(self.0, band);
        }
    }

    /// A one-byte field.
    #[inline(always)]
    pub fn u8(&mut self, f: Field, v: u8) {
        self.0[f.offset as usize] = v;
    }

    /// A two-byte field.
    #[inline(always)]
    pub fn u16(&mut self, f: Field, v: u16) {
        put(self.0, f.offset as usize, v.to_le_bytes());
    }

    /// A four-byte field.
    #[inline(always)]
    pub fn u32(&mut self, f: Field, v: u32) {
        put(self.0, f.offset as usize, v.to_le_bytes());
    }

    /// A TENSORnD / MEM_PATTERNnD slot of rank `N` (`4 + 4N` bytes: word, steps, counts), in as
    /// few 8-byte stores as the width allows. Lanes `N..` of the runs are ignored.
    #[inline(always)]
    pub fn slot<const N: usize>(&mut self, f: Field, s: Slot) {
        let o = f.offset as usize;
        let lo = s.addr as u64 | s.steps << 32;
        match N {
            1 => {
                let lo = s.addr as u64 | (s.steps & 0xFFFF) << 32;
                put(self.0, o, (lo | s.nums << 48).to_le_bytes());
            }
            2 => {
                put(self.0, o, lo.to_le_bytes());
                put(self.0, o + 8, (s.nums as u32).to_le_bytes());
            }
            3 => {
                put(self.0, o, lo.to_le_bytes());
                let hi = (s.steps >> 32) & 0xFFFF | s.nums << 16;
                put(self.0, o + 8, hi.to_le_bytes());
            }
            _ => {
                put(self.0, o, (s.addr).to_le_bytes());
                put(self.0, o + 4, s.steps.to_le_bytes());
                put(self.0, o + 12, s.nums.to_le_bytes());
            }
        }
    }

    /// The 32-byte 0x69 lane map at +0x20.
    #[inline(always)]
    pub fn lanes(&mut self, f: Field, l: &[u8; 32]) {
        put(self.0, f.offset as usize, *l);
    }
}

/// Stores `v` at byte `off` of `b` (a constant offset at every call site, so the bounds check
/// folds away).
#[inline(always)]
fn put<const W: usize>(b: &mut Bundle, off: usize, v: [u8; W]) {
    b[off..off + W].copy_from_slice(&v);
}

/// First byte of the EVENTS band.
const BAND: u8 = events::WAIT_MODE.offset;
// The band is the eight bytes from +0x04 (modes and indices) through the +0x08 value dword.
const _: () = assert!(BAND == 4 && events::SEMAPHORE_VALUE.offset == 8);

/// Writes the EVENTS band of a filled bundle (the Gather chunk copies).
#[inline(always)]
pub(crate) fn put_events(b: &mut Bundle, events: u64) {
    put(b, BAND as usize, events.to_le_bytes());
}

/// Bit position of a band field within the band word.
const fn band_shift(f: Field) -> u32 {
    8 * (f.offset - BAND) as u32
}

/// The EVENTS band of a one-bundle sequence as a little-endian u64 (`setup_sync` with the
/// wait and the update on the same bundle); `None` on a value conflict.
#[inline(always)]
pub(crate) fn events_single(sync: &SyncInfo) -> Option<u64> {
    if sync.wait.is_some() || sync.update.is_some() {
        return events(sync, true, true);
    }
    Some(0)
}

/// The EVENTS bands (first bundle, last bundle) of a sequence of two or more bundles: the wait
/// goes on the first and the update on the last, so the shared value dword cannot conflict.
#[inline(always)]
pub(crate) fn events_pair(sync: &SyncInfo) -> (u64, u64) {
    if sync.wait.is_some() || sync.update.is_some() {
        return events_split(sync);
    }
    (0, 0)
}

/// [`events_pair`] with sync present.
#[cold]
#[inline(never)]
fn events_split(sync: &SyncInfo) -> (u64, u64) {
    // Neither call can fail: each band carries one of the two.
    (
        events(sync, true, false).unwrap_or(0),
        events(sync, false, true).unwrap_or(0),
    )
}

/// The EVENTS band of one bundle of a sequence (`setup_sync`): the wait on the first bundle,
/// the update on the last, the shared value dword; `None` on a value conflict.
#[cold]
#[inline(never)]
fn events(sync: &SyncInfo, first: bool, last: bool) -> Option<u64> {
    let mut band = 0u64;
    let mut value = None;
    if first && let Some(w) = sync.wait {
        band |= (w.mode.wire() as u64) << band_shift(events::WAIT_MODE);
        band |= (w.sem as u64) << band_shift(events::WAIT_IDX);
        value = Some(w.value);
    }
    if last && let Some(u) = sync.update {
        band |= (u.mode.wire() as u64) << band_shift(events::UPDATE_MODE);
        band |= (u.sem as u64) << band_shift(events::UPDATE_IDX);
        if u.mode.writes_value() {
            if value.is_some_and(|wv| wv != u.value) {
                return None;
            }
            value = Some(u.value);
        }
    }
    if let Some(v) = value {
        band |= (v as u64) << band_shift(events::SEMAPHORE_VALUE);
    }
    Some(band)
}

/// The family and engine gate of `check_target` (`kind` is a constant at every call site, so
/// the op-table row folds away).
#[inline(always)]
pub(crate) fn gate(inst: &Instruction, arch: &ArchModel, kind: OpKind) -> Option<()> {
    let info = kind.info();
    (arch.has(info.family) && inst.engine == info.engine).then_some(())
}

/// What the start-address fold reads: the model and one derived bound. Two words, so it
/// travels in registers.
#[derive(Clone, Copy)]
pub(crate) struct Geometry<'a> {
    /// The model.
    pub arch: &'a ArchModel,
    /// Bound on the SBUF offset the fast fold accepts: min(active bytes, stride), or 2^32 (no
    /// bound) when every in-partition remainder is active (a nonzero stride no larger than the
    /// active bytes, as on mariana; the built-in models fold the test away).
    sbuf_limit: u64,
}

/// The per-target values an op encoder reads more than once, derived once per instruction.
#[derive(Clone, Copy)]
pub(crate) struct Ctx<'a> {
    /// The model.
    pub arch: &'a ArchModel,
    /// BIR -> wire dtype LUT of the core.
    pub lut: &'static [u8; 20],
    /// The fold's view.
    pub geo: Geometry<'a>,
}

impl<'a> Ctx<'a> {
    #[inline(always)]
    pub fn new(arch: &'a ArchModel) -> Ctx<'a> {
        Ctx {
            arch,
            lut: wire_lut(arch.core),
            geo: Geometry {
                arch,
                sbuf_limit: {
                    let (stride, active) = (arch.sbuf_partition_stride, arch.sbuf_active_bytes);
                    if stride != 0 && active >= stride {
                        1 << 32
                    } else {
                        active.min(stride) as u64
                    }
                },
            },
        }
    }

    /// The wire dtype byte.
    #[inline(always)]
    pub fn wire(&self, d: BirDtype) -> u8 {
        self.lut[d as usize]
    }

    /// The active-channels byte: the partition count, 1..=min(partitions, 255).
    #[inline(always)]
    pub fn active(&self, partitions: u32) -> Option<u8> {
        // Unsigned compares: 0 wraps to u32::MAX and fails both.
        let p = partitions.wrapping_sub(1);
        (p < self.arch.partitions && p < 255).then_some(partitions as u8)
    }
}

/// An encoded access-pattern slot: the first ADDR4 word, the step run and the count run of a
/// TENSORnD (16-bit lanes, innermost in lane 0; a rank-`N` slot uses lanes `0..N`). An
/// INDIRECT16B/20B record fits the same shape: INDEX (with the marker) as the word, DATA and NUM
/// as the step run, zero counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Slot {
    /// Bytes 0..4.
    pub addr: u32,
    /// Bytes 4..4+2N.
    pub steps: u64,
    /// Bytes 4+2N..4+4N.
    pub nums: u64,
}

/// The ADDR4 word of a start (`addr4::word`) for the accepted cases: the address is inside the
/// window, the word fits 32 bits, and either every in-partition remainder is active (a nonzero
/// stride no larger than the active bytes: the offset needs no test of its own) or the offset is
/// below both the stride and the active bytes (so nothing carries into the partition and no
/// division is needed); equal to `addr4::word` wherever it returns `Some`. An SBUF start is one tag test and straight-line
/// arithmetic; PSUM and register starts go out of line.
#[inline(always)]
pub(crate) fn word(start: &Start, g: Geometry) -> Option<u32> {
    match *start {
        Start::Imm(MemLoc {
            space: Space::Sbuf,
            partition,
            offset,
        }) => {
            let arch = g.arch;
            let rel = partition as u64 * arch.sbuf_partition_stride as u64 + offset as u64;
            // The SBUF base is 0, so `rel < window` (a u32) also bounds the word.
            let ok = ((offset as u64) < g.sbuf_limit) & (rel < arch.sbuf_window as u64);
            ok.then_some(rel as u32)
        }
        _ => word_other(start, g.arch),
    }
}

/// [`word`] for PSUM and register starts.
#[cold]
#[inline(never)]
fn word_other(start: &Start, arch: &ArchModel) -> Option<u32> {
    match *start {
        Start::Imm(loc) => {
            let (base, stride, window, active) = match loc.space {
                Space::Sbuf => (
                    0,
                    arch.sbuf_partition_stride,
                    arch.sbuf_window,
                    arch.sbuf_active_bytes,
                ),
                Space::Psum => (
                    arch.psum_base,
                    arch.psum_partition_stride,
                    arch.psum_window,
                    arch.psum_active_bytes,
                ),
            };
            let rel = loc.partition as u64 * stride as u64 + loc.offset as u64;
            let word = rel + base as u64;
            let ok = (loc.offset < active.min(stride)) & (rel < window as u64) & (word >> 32 == 0);
            ok.then_some(word as u32)
        }
        Start::Reg(r) => (r < NUM_ADDR_REGISTERS).then_some(REG_BIT | r as u32),
    }
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

/// `tensor::pack` into rank `N` as two lane runs, or `None` where `pack` fails (a zero count, or
/// more than `N` non-unit dims).
///
/// The common case, at most `N` dims and none of them a unit dim, is the runs [`Dims`] holds
/// (innermost in lane 0, unit lanes past the end), taken as they are after one SWAR test: a used
/// lane with its top bit set, minus 2, keeps the top bit exactly when the count's low 15 bits are
/// at least 2, and no lane borrows from the next. Counts of 0x8000 and 0x8001 fail the test
/// although they are kept; like everything else the test rejects, they take the general packing.
#[inline(always)]
pub(crate) fn pack<const N: usize>(dims: &Dims) -> Option<(u64, u64)> {
    let (steps, nums, len) = dims.runs();
    // `Dims` holds at most four dims, so rank 4 needs no length test.
    let fits = N >= 4 || len <= N;
    if fits & (((nums | TOP) - TWOS[len & 7]) & TOP == TOP) {
        Some((steps, nums))
    } else {
        pack_general::<N>(dims)
    }
}

/// The general packing, out of line: one pass over the lanes, innermost first; each kept dim
/// takes the next lane. `None` on a zero count or more than `N` kept dims.
#[cold]
#[inline(never)]
fn pack_general<const N: usize>(dims: &Dims) -> Option<(u64, u64)> {
    let (steps, nums, len) = dims.runs();
    let (mut s, mut n, mut kept, mut zero) = (0u64, 0u64, 0usize, false);
    for lane in 0..len.min(4) {
        let step = steps >> (16 * lane) & 0xFFFF;
        let num = nums >> (16 * lane) & 0xFFFF;
        zero |= num == 0;
        // `kept <= lane < 4`: the shifts stay inside the runs.
        if num != 1 {
            s |= step << (16 * kept);
            n |= num << (16 * kept);
            kept += 1;
        }
    }
    if zero || kept > N {
        return None;
    }
    let fill = ONES[4] - ONES[kept & 7];
    Some((s | fill, n | fill))
}

/// `assignStaticPattern<TENSORnD>` as a [`Slot`].
#[inline(always)]
pub(crate) fn tensor<const N: usize>(ap: &StaticAp, g: Geometry) -> Option<Slot> {
    let addr = word(&ap.start, g)?;
    let (steps, nums) = pack::<N>(&ap.dims)?;
    Some(Slot { addr, steps, nums })
}

/// `assignIndirectPattern<INDIRECT16B/20B>` as a [`Slot`] (the dynamic-offset asserts included).
/// It also declines a zero gather count, which some encoders reject (StreamShuffle's guard);
/// where the count is legal, the reference path writes the same bytes. Inline, so that on a
/// built-in model the family gate and the granularity mask are constants.
#[inline(always)]
fn indirect(ap: &IndirectAp, g: Geometry) -> Option<Slot> {
    if !g.arch.has(Family::TensorIndirect) {
        return None;
    }
    let index = word(&ap.index.start, g)?;
    let data = word(&ap.data.start, g)?;
    let num = u16::try_from(ap.num_indirect_indices).ok()?;
    if num == 0 {
        return None;
    }
    let gran = (g.arch.granularity_mask as u32) << 24;
    if (index | data) & gran != 0 {
        return None;
    }
    Some(Slot {
        addr: index | INDIRECT_BIT,
        steps: data as u64 | (num as u64) << 32,
        nums: 0,
    })
}

/// An operand of a 3-D / 4-D slot: its encoded slot, dtype and partition count, from one match
/// on the AP kind.
#[derive(Clone, Copy)]
pub(crate) struct Operand {
    /// The encoded slot.
    pub slot: Slot,
    /// `AccessPattern::dtype`.
    pub dtype: BirDtype,
    /// `AccessPattern::partitions`.
    pub partitions: u32,
}

/// `assignAccess3D` / `assignAccess4D` as a [`Slot`] of rank `N`, with the AP's dtype and
/// partition count.
#[inline(always)]
pub(crate) fn operand<const N: usize>(ap: &AccessPattern, g: Geometry) -> Option<Operand> {
    let (slot, base) = match ap {
        AccessPattern::Static(s) => (tensor::<N>(s, g)?, s),
        AccessPattern::TensorIndirect(i) => (indirect(i, g)?, &i.data),
    };
    Some(Operand {
        slot,
        dtype: base.dtype,
        partitions: base.partitions,
    })
}

/// The IndirectCopy descriptor (`assign_indirect_copy_descriptor`): no family gate and no
/// dynamic-offset asserts on this path.
#[inline(always)]
pub(crate) fn copy_descriptor(ap: &IndirectAp, g: Geometry) -> Option<Slot> {
    let index = word(&ap.index.start, g)?;
    let data = word(&ap.data.start, g)?;
    let num = u16::try_from(ap.num_indirect_indices).ok()?;
    Some(Slot {
        addr: index | INDIRECT_BIT,
        steps: data as u64 | (num as u64) << 32,
        nums: 0,
    })
}

/// The 0x69 lane map (`fill_lanes`): mask 0xFF becomes the sentinel; `None` unless 32 entries.
#[inline(always)]
pub(crate) fn lanes(mask: &[u8], sentinel: u8) -> Option<[u8; 32]> {
    let mask: &[u8; 32] = mask.try_into().ok()?;
    // An indexed loop over fixed arrays vectorises to a compare-and-select per 16 bytes.
    let mut l = [0u8; 32];
    for i in 0..32 {
        l[i] = if mask[i] == 0xFF { sentinel } else { mask[i] };
    }
    Some(l)
}

/// The first `K` bundles of `out`, or `None` when it is shorter (the reference path then
/// reports `OutputFull`).
#[inline(always)]
pub(crate) fn room<const K: usize>(out: &mut [Bundle]) -> Option<&mut [Bundle; K]> {
    out.get_mut(..K)?.try_into().ok()
}

/// The 0x69 passthrough sentinel (`passthrough_sentinel`) from the two partition counts.
#[inline(always)]
pub(crate) fn sentinel(src_partitions: u32, dst_partitions: u32) -> u8 {
    (src_partitions.min(dst_partitions) as u8) | 0x20
}

/// The element count of a packed run of `N` lanes (the fill lanes are 1). Equal to
/// `num_elements_per_partition` of the AP it was packed from: at most four factors below 2^16
/// cannot wrap.
#[inline(always)]
pub(crate) fn lanes_product<const N: usize>(nums: u64) -> u64 {
    (0..N).fold(1u64, |p, i| p * ((nums >> (16 * i)) & 0xFFFF))
}
