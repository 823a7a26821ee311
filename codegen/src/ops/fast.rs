//! The GENERATE fast path: the building blocks the op files' `generate` functions share.
//!
//! The reference encoders (`encode` in each op file) follow the spec step by step: zero the
//! bundle, stamp each field through a `&mut [u8; 64]`, check each assert where the compiler does
//! and return its exact error. The fast path produces the same bytes for the inputs it accepts
//! and gives up (`None`) on everything else, leaving the error to the reference encoder, so every
//! error a caller sees still comes from the reference encoder, in its order, with its payload.
//!
//! The fast path states no fact of its own: it is a compiled form of the same field tables and
//! primitives. ADDR4 folding (`addr4::word`), packing (`tensor::pack_runs`), the slot layout
//! (`tensor::Slot::write`), the indirect records (`indirect::indirect_pattern`,
//! `indirect::indirect_copy_descriptor`), the Gather chunking (`ops::gather_chunk`), the lane map
//! (`ops::lane_map`), the active-channels byte (`ops::active_count`), the target gate
//! (`ops::check_kind`) and the sync bands (`bundle::setup_sync`) are the reference encoder's
//! own `#[inline]` functions, called here with their errors discarded (`.ok()`; once inlined,
//! the error values are dead and vanish). What makes it fast:
//!
//! * A bundle is zeroed with four wide stores and each field is then stored once, as soon as it
//!   is known, a slot in two or three 8-byte stores ([`Words`]); nothing is read back and few
//!   values stay live (the whole lowering is inlined into the caller's loop, where spills cost).
//! * An access pattern is folded and packed once per instruction ([`Slot`]), even when two
//!   bundles of a micro-pair carry it; its dtype and partition count come from the same match
//!   ([`Operand`]).
//! * Packing takes the two lane runs `Dims` stores (the TENSOR4D layout) as they are after one
//!   SWAR test when no dim is dropped (`tensor::pack_runs`); the general walk is out of line.
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

use crate::arch::ArchModel;
use crate::bundle::{Bundle, setup_header, setup_sync};
use crate::dtype::{BirDtype, wire_lut};
use crate::fields::Field;
use crate::formats::events;
use crate::indirect::{indirect_copy_descriptor, indirect_pattern};
use crate::model::{AccessPattern, IndirectAp, Instruction, OpKind, StaticAp, SyncInfo};
pub(crate) use crate::tensor::Slot;
use crate::tensor::static_slot;

/// A bundle being filled in place: `new` zeroes it and stamps the header; each field is then one
/// store of its final value (no read-modify-write, and nothing held in registers until the end).
pub(crate) struct Words<'a>(&'a mut Bundle);

impl<'a> Words<'a> {
    /// Zeroes `b`, then writes the header (`setup_header`).
    #[inline(always)]
    pub fn new(b: &'a mut Bundle, opcode: u8) -> Words<'a> {
        setup_header(b, opcode);
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
        f.put_u8(self.0, v);
    }

    /// A two-byte field.
    #[inline(always)]
    pub fn u16(&mut self, f: Field, v: u16) {
        f.put_u16(self.0, v);
    }

    /// A four-byte field.
    #[inline(always)]
    pub fn u32(&mut self, f: Field, v: u32) {
        f.put_u32(self.0, v);
    }

    /// A TENSORnD / MEM_PATTERNnD slot of rank `N` (`Slot::write`).
    #[inline(always)]
    pub fn slot<const N: usize>(&mut self, f: Field, s: Slot) {
        s.write::<N>(&mut self.0[f.offset as usize..]);
    }

    /// The 32-byte 0x69 lane map.
    #[inline(always)]
    pub fn lanes(&mut self, f: Field, l: &[u8; 32]) {
        *f.slot::<32>(self.0) = *l;
    }
}

/// First byte of the EVENTS band.
const BAND: usize = events::WAIT_MODE.offset as usize;
// The band is the eight bytes from +0x04 (modes and indices) through the +0x08 value dword.
const _: () = assert!(BAND == 4 && events::SEMAPHORE_VALUE.offset == 8);

/// Writes the EVENTS band of a filled bundle (the Gather chunk copies).
#[inline(always)]
pub(crate) fn put_events(b: &mut Bundle, events: u64) {
    b[BAND..BAND + 8].copy_from_slice(&events.to_le_bytes());
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

/// The EVENTS band `setup_sync` writes on one bundle of a sequence, read back from a scratch
/// bundle; `None` on a value conflict.
#[cold]
#[inline(never)]
fn events(sync: &SyncInfo, first: bool, last: bool) -> Option<u64> {
    let mut b: Bundle = [0; 64];
    setup_sync(&mut b, sync, first, last).ok()?;
    let band: [u8; 8] = b[BAND..BAND + 8].try_into().ok()?;
    Some(u64::from_le_bytes(band))
}

/// The family and engine gate of `check_target` (`kind` is a constant at every call site, so
/// the op-table row folds away).
#[inline(always)]
pub(crate) fn gate(inst: &Instruction, arch: &ArchModel, kind: OpKind) -> Option<()> {
    super::check_kind(kind, inst, arch).ok()
}

/// The per-target values an op encoder reads more than once, derived once per instruction.
#[derive(Clone, Copy)]
pub(crate) struct Ctx<'a> {
    /// The model.
    pub arch: &'a ArchModel,
    /// BIR -> wire dtype LUT of the core (the table `bir_to_wire` reads).
    pub lut: &'static [u8; 20],
}

impl<'a> Ctx<'a> {
    #[inline(always)]
    pub fn new(arch: &'a ArchModel) -> Ctx<'a> {
        Ctx {
            arch,
            lut: wire_lut(arch.core),
        }
    }

    /// The wire dtype byte.
    #[inline(always)]
    pub fn wire(&self, d: BirDtype) -> u8 {
        self.lut[d as usize]
    }

    /// The active-channels byte (`active_count`).
    #[inline(always)]
    pub fn active(&self, partitions: u32) -> Option<u8> {
        super::active_count(partitions, self.arch).ok()
    }
}

/// `assignStaticPattern<TENSORnD>` as a [`Slot`] (`tensor::static_slot`).
#[inline(always)]
pub(crate) fn tensor<const N: usize>(ap: &StaticAp, arch: &ArchModel) -> Option<Slot> {
    static_slot::<N>(ap, arch).ok()
}

/// `assignIndirectPattern<INDIRECT16B/20B>` as a [`Slot`] (`indirect::indirect_pattern`). It
/// also declines a zero gather count, which some encoders reject (StreamShuffle's guard); where
/// the count is legal, the reference path writes the same bytes.
#[inline(always)]
fn indirect(ap: &IndirectAp, arch: &ArchModel) -> Option<Slot> {
    if ap.num_indirect_indices == 0 {
        return None;
    }
    indirect_pattern(ap, arch).ok()
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
pub(crate) fn operand<const N: usize>(ap: &AccessPattern, arch: &ArchModel) -> Option<Operand> {
    let (slot, base) = match ap {
        AccessPattern::Static(s) => (tensor::<N>(s, arch)?, s),
        AccessPattern::TensorIndirect(i) => (indirect(i, arch)?, &i.data),
    };
    Some(Operand {
        slot,
        dtype: base.dtype,
        partitions: base.partitions,
    })
}

/// The IndirectCopy descriptor (`indirect::indirect_copy_descriptor`).
#[inline(always)]
pub(crate) fn copy_descriptor(ap: &IndirectAp, arch: &ArchModel) -> Option<Slot> {
    indirect_copy_descriptor(ap, arch).ok()
}

/// The first `K` bundles of `out`, or `None` when it is shorter (the reference path then
/// reports `OutputFull`).
#[inline(always)]
pub(crate) fn room<const K: usize>(out: &mut [Bundle]) -> Option<&mut [Bundle; K]> {
    out.get_mut(..K)?.try_into().ok()
}

/// The element count of a packed run of `N` lanes (the fill lanes are 1). Equal to
/// `num_elements_per_partition` of the AP it was packed from: at most four factors below 2^16
/// cannot wrap.
#[inline(always)]
pub(crate) fn lanes_product<const N: usize>(nums: u64) -> u64 {
    (0..N).fold(1u64, |p, i| p * ((nums >> (16 * i)) & 0xFFFF))
}
