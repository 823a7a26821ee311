//! Device memory: HBM allocations, the SBUF and the PSUM of one NeuronCore.
//!
//! Each allocation is a flat little-endian byte array tagged with its memory space.
//!
//! - **HBM**: one allocation per tensor ([`Memory::alloc_hbm`]).
//! - **SBUF**: one allocation of `128 x bytes-per-partition` of the target (192 / 224 /
//!   256 KiB on sunda / cayman / mariana), partition-major: partition `p` owns bytes
//!   `p * bpp .. (p+1) * bpp`. A tile `[P, f..]` is a view whose partition stride is
//!   `bpp / esize` elements.
//! - **PSUM**: one allocation of `128 x 16 KiB`, partition-major, each partition split
//!   into 8 banks of 2 KiB.
//!
//! Uninitialised reads are detectable two ways:
//!
//! - **The fill** (always): the way the public simulator makes them visible, a tensor
//!   created through this module is filled with NaN (floats) or 4 (integers),
//!   [`DType::uninit_bits`]. SBUF and PSUM bytes that no tile has been allocated over yet
//!   hold `0xFF`, which is a NaN in every float format modelled here except the 4-bit
//!   `e2m1` (which has none). An integer index tile never written reads as 4 and goes
//!   unnoticed this way (issue 11 §4), hence:
//! - **The written-shadow** (opt-in, [`Memory::set_check_uninit`]): one bit per byte of
//!   every allocation (`shadow.rs`), set by every write path (the data-primitive writes of
//!   the ops and of [`Memory::write_bytes`] and its typed forms, the direct-read shortcut
//!   of a copy, and [`Memory::bytes_mut`], which counts as writing the whole allocation).
//!   With the check on, every read an op makes through this module (operands, index
//!   values of indirect accesses, the destination of a read-modify-write, and the host's
//!   [`Memory::read_bytes`] family) of a byte nothing wrote is an
//!   [`EmuError::Uninitialised`] naming the op and the tile. HBM tensors created with data
//!   ([`Memory::alloc_hbm_from_bytes`]) or zero-filled ([`Memory::alloc_hbm_zeroed`])
//!   count as written; [`Memory::alloc_hbm`], [`Memory::alloc_sbuf`] and
//!   [`Memory::alloc_psum`] tiles (and [`Memory::fill_uninit`]) start unwritten. Bytes
//!   that exist when the check is turned on count as written (turn it on right after
//!   [`Memory::new`] to check everything). Off, no shadow is kept but PSUM's, and a read
//!   costs one flag test.
//!
//! The `0xFF` of never-allocated on-chip bytes can be turned off
//! ([`Memory::set_fill_unallocated`]) by an executor that reads on-chip memory only through
//! allocated tiles; the untouched pages then cost nothing.
//!
//! PSUM always keeps its shadow: `nc_matmul`'s `accumulate=None` overwrites a location on
//! its first write and accumulates afterwards (the public docstring's "auto-detect based
//! on whether this PSUM location was previously written"), which needs exactly that bit.
//!
//! On-chip tiles have names for diagnostics: [`Memory::alloc_sbuf_named`] and
//! [`Memory::alloc_psum_named`] record one; the unnamed forms record `sbuf tile N` /
//! `psum tile N`, N counting this memory's on-chip tile allocations. A byte is reported
//! against the most recently allocated tile covering it.
//!
//! SBUF and PSUM are created lazily, on first use, so that a [`Memory`] used only for
//! HBM work (tests, the benchmark) does not pay for 34 MiB it never touches. The on-chip
//! bytes keep ordinary 4 KiB pages: a tile touches a few KiB in each of up to 128 partitions
//! 192-256 KiB apart, and a 2 MiB page would make the operating system zero the untouched
//! 80-90% around them on first touch (measured with `sundial-emu-kernel-bench`: allocating
//! the elementwise kernel's two tiles on a fresh memory took ~2.4x as long with huge pages).
//! Their shadows (one bit per byte, an eighth of the size: a tile's first touch faults a
//! page per partition, or one or two huge pages) ask for transparent huge pages where the
//! operating system offers them (`advise_huge_pages`); there the two page sizes measured
//! the same. Only the page size changes.
//!
//! A memory also keeps the plans of the accesses its ops ran most recently
//! (`offsets::PlanCache`), so that an op repeated on the same access is not validated and
//! compiled again.
//!
//! **Logical machines.** Before partition tiling a NISA kernel may hold *logical* SBUF/PSUM
//! tiles of more than 128 partitions (legal NISA in the middle end, issue 9). To run such a
//! kernel, [`Memory::logical`] builds a memory whose on-chip partition count is a parameter:
//! the widest tile rounded up to a multiple of the target's 128 partitions (at most
//! [`MAX_LOGICAL_PARTITIONS`]), each partition with the target's bytes (SBUF per target,
//! PSUM 8 banks of 2 KiB). Addressing, allocation and every check are the physical ones
//! with that count in place of 128. [`Memory::new`] is the physical machine, and the
//! partition count only ever changes through [`Memory::logical`]. Ops whose semantics name
//! physical lanes (the accumulators, the random generators, quadrants, GpSimd cores beyond
//! the eighth) keep the physical bound and refuse wider operands (each op's doc says which).
//!
//! Logical tiles may also be wider along the free axes than one PSUM bank (2 KiB per
//! partition): the free-axis cut of partition tiling brings each op within a bank. With
//! [`Memory::set_logical_psum`] on, such a PSUM tile takes consecutive banks (at most all 8);
//! off, the default and the physical rule, a PSUM tile holds one bank.

use crate::access::Access;
use crate::data::{self, Combine, OffsetList};
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::offsets::{self, PathChoice, PlanCache};
use crate::shadow::Shadow;
use crate::target::{PARTITIONS, PSUM_BANK_BYTES, PSUM_BANKS, PSUM_BYTES_PER_PARTITION, Target};
use crate::view::{View, row_major_strides};

const OP: &str = "memory";

/// The largest HBM tensor the emulator allocates (4 GiB): it holds every HBM tensor in host
/// memory and fills it on allocation, so a larger one is refused before any byte is
/// allocated instead of exhausting the host (an emulator limit, not a hardware one; the
/// benchmark workloads' largest tensor is 1 GiB).
pub const MAX_HBM_BYTES: usize = 1 << 32;

/// The most on-chip partitions a logical machine ([`Memory::logical`]) has: 2048, 16 blocks
/// of the target's 128 (an emulator limit, not a hardware one: a logical SBUF of 2048
/// partitions is 512 MiB of host memory on mariana; the widest logical tile of the pass
/// tests has 1000 partitions).
pub const MAX_LOGICAL_PARTITIONS: usize = 16 * PARTITIONS;

/// Identifies one allocation of a [`Memory`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AllocId(usize);

impl AllocId {
    /// The allocation's index in its [`Memory`].
    pub fn index(self) -> usize {
        self.0
    }

    /// An id from a raw index (for tests and for executors that keep their own tables).
    /// Using it with a memory that has no such allocation yields a memory error.
    pub fn from_raw(index: usize) -> AllocId {
        AllocId(index)
    }
}

/// The memory an allocation lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemSpace {
    /// Device memory (DRAM).
    Hbm,
    /// The state buffer (on-chip SRAM, 128 partitions).
    Sbuf,
    /// The partial-sum buffer (128 partitions x 8 banks).
    Psum,
}

#[derive(Debug)]
struct Allocation {
    name: String,
    space: MemSpace,
    bytes: Vec<u8>,
    /// Which bytes were written (see the module doc): present for PSUM always and for
    /// every allocation while the uninitialised-read check is on.
    written: Option<Shadow>,
}

/// The contents of an allocation held outside the memory (see
/// [`Memory::swap_contents`]): its bytes and which of them were written.
#[derive(Debug)]
pub struct Contents {
    bytes: Vec<u8>,
    written: Option<Shadow>,
}

/// A named on-chip tile, for diagnostics: partitions and bytes per partition it covers.
#[derive(Debug)]
struct TileRecord {
    alloc: AllocId,
    name: String,
    partitions: std::ops::Range<usize>,
    bytes: std::ops::Range<usize>,
}

/// All memory of one emulated NeuronCore plus its HBM tensors.
#[derive(Debug)]
pub struct Memory {
    target: Target,
    /// On-chip partitions: [`PARTITIONS`], or more on a logical machine (module doc).
    partitions: usize,
    allocs: Vec<Allocation>,
    sbuf: Option<AllocId>,
    psum: Option<AllocId>,
    /// Bump pointer (bytes per partition) for [`Memory::alloc_sbuf`].
    sbuf_top: usize,
    /// Next free bank for [`Memory::alloc_psum`].
    psum_next_bank: usize,
    /// Whether a PSUM tile may span consecutive banks ([`Memory::set_logical_psum`]).
    logical_psum: bool,
    /// Which offsets path indirect accesses use. Behaviour never depends on it; tests
    /// and the benchmark set it to compare or time the two paths.
    path: PathChoice,
    /// The uninitialised-read check (module doc).
    check_uninit: bool,
    /// Whether SBUF and PSUM bytes no tile covers are filled with `0xFF` (module doc).
    fill_unallocated: bool,
    /// Named on-chip tiles, in allocation order.
    tiles: Vec<TileRecord>,
    /// Plans of recently run accesses (`offsets::Planned::cached`).
    plans: PlanCache,
}

/// Alignment (bytes per partition) of tiles from the SBUF bump allocator.
const SBUF_TILE_ALIGN: usize = 64;

impl Memory {
    /// An empty memory for `target`.
    pub fn new(target: Target) -> Memory {
        Memory {
            target,
            partitions: PARTITIONS,
            allocs: Vec::new(),
            sbuf: None,
            psum: None,
            sbuf_top: 0,
            psum_next_bank: 0,
            logical_psum: false,
            path: PathChoice::Auto,
            check_uninit: false,
            fill_unallocated: true,
            tiles: Vec::new(),
            plans: PlanCache::default(),
        }
    }

    /// An empty logical machine for `target` (module doc) whose SBUF and PSUM hold at least
    /// `partitions` partitions: the count rounded up to a multiple of the target's
    /// [`PARTITIONS`] (a count of at most 128 gives the physical machine). More than
    /// [`MAX_LOGICAL_PARTITIONS`] is a memory error, before anything is allocated.
    pub fn logical(target: Target, partitions: usize) -> Result<Memory> {
        let rounded = partitions
            .max(1)
            .checked_next_multiple_of(PARTITIONS)
            .filter(|&p| p <= MAX_LOGICAL_PARTITIONS)
            .ok_or_else(|| {
                EmuError::memory(
                    OP,
                    format!(
                        "a logical tile of {partitions} partitions is wider than the \
                         {MAX_LOGICAL_PARTITIONS} partitions the emulator's logical machine has"
                    ),
                )
            })?;
        let mut m = Memory::new(target);
        m.partitions = rounded;
        Ok(m)
    }

    /// The on-chip partition count: [`PARTITIONS`] on the physical machine, more on a
    /// logical one ([`Memory::logical`]).
    pub fn partitions(&self) -> usize {
        self.partitions
    }

    /// True for a logical machine (more on-chip partitions than the target has).
    pub fn is_logical(&self) -> bool {
        self.partitions > PARTITIONS
    }

    /// Turns the uninitialised-read check on or off (module doc). Bytes of allocations
    /// that exist when it is turned on count as written.
    pub fn set_check_uninit(&mut self, on: bool) -> Result<()> {
        if on && !self.check_uninit {
            for a in &mut self.allocs {
                if a.written.is_none() {
                    a.written = Some(Shadow::new(a.bytes.len(), true)?);
                }
            }
        }
        if !on {
            for a in &mut self.allocs {
                if a.space != MemSpace::Psum {
                    a.written = None;
                }
            }
        }
        self.check_uninit = on;
        Ok(())
    }

    /// Whether the SBUF and PSUM bytes that no tile covers hold `0xFF` (the default) or `0`.
    /// Filling costs a write of the whole memory (32 MiB of SBUF on mariana) when it is first
    /// used; an executor that reads on-chip memory only through allocated tiles (every tile
    /// gets the uninitialised fill when it is allocated, [`Memory::fill_uninit`]) never sees
    /// those bytes and can turn the fill off, so that the pages no tile touches are never
    /// touched at all. It applies to SBUF and PSUM created after the call.
    pub fn set_fill_unallocated(&mut self, on: bool) {
        self.fill_unallocated = on;
    }

    /// True while the uninitialised-read check is on.
    pub fn check_uninit(&self) -> bool {
        self.check_uninit
    }

    /// The target whose geometry this memory has.
    pub fn target(&self) -> Target {
        self.target
    }

    /// The offsets path indirect accesses use (default [`PathChoice::Auto`]).
    pub fn path_choice(&self) -> PathChoice {
        self.path
    }

    /// The plans of recently run accesses.
    pub(crate) fn plan_cache(&self) -> &PlanCache {
        &self.plans
    }

    /// The plans of recently run accesses, mutably.
    pub(crate) fn plan_cache_mut(&mut self) -> &mut PlanCache {
        &mut self.plans
    }

    /// Forces the offsets path (for tests and benchmarks; results never change).
    pub fn set_path_choice(&mut self, path: PathChoice) {
        self.path = path;
    }

    /// Adds an allocation; its shadow is created when `space` is PSUM or the check is on,
    /// all bytes `written` or none.
    fn push(
        &mut self,
        name: String,
        space: MemSpace,
        bytes: Vec<u8>,
        written: bool,
    ) -> Result<AllocId> {
        let shadow = if space != MemSpace::Hbm && !written {
            // On-chip memories have the target's fixed size: their shadow's zero pages are
            // left to the OS, so that only the parts tiles use are ever touched.
            (self.check_uninit || space == MemSpace::Psum).then(|| Shadow::unwritten(bytes.len()))
        } else if self.check_uninit || space == MemSpace::Psum {
            Some(Shadow::new(bytes.len(), written)?)
        } else {
            None
        };
        self.allocs.push(Allocation {
            name,
            space,
            bytes,
            written: shadow,
        });
        Ok(AllocId(self.allocs.len() - 1))
    }

    /// A new HBM tensor of `shape`, row-major, filled with the uninitialised pattern.
    pub fn alloc_hbm(&mut self, name: &str, dtype: DType, shape: &[usize]) -> Result<View> {
        let len = hbm_bytes(name, dtype, shape)?;
        let bytes = filled(len, dtype)?;
        let id = self.push(name.to_string(), MemSpace::Hbm, bytes, false)?;
        View::contiguous(id, dtype, 0, shape.to_vec())
    }

    /// A new HBM tensor of `shape` holding `data` (row-major little-endian element
    /// bytes): an input created with data, which counts as written.
    pub fn alloc_hbm_from_bytes(
        &mut self,
        name: &str,
        dtype: DType,
        shape: &[usize],
        data: &[u8],
    ) -> Result<View> {
        // Checked before the copy is allocated: a short or long `data` costs nothing.
        check_hbm_data(name, dtype, shape, data.len())?;
        let mut bytes: Vec<u8> = Vec::new();
        bytes
            .try_reserve_exact(data.len())
            .map_err(|_| EmuError::memory(OP, format!("cannot allocate {} bytes", data.len())))?;
        bytes.extend_from_slice(data);
        self.alloc_hbm_from_vec(name, dtype, shape, bytes)
    }

    /// [`Memory::alloc_hbm_from_bytes`] taking ownership of `data`: the tensor keeps the
    /// buffer instead of copying it (an input read from a file moves in).
    pub fn alloc_hbm_from_vec(
        &mut self,
        name: &str,
        dtype: DType,
        shape: &[usize],
        data: Vec<u8>,
    ) -> Result<View> {
        check_hbm_data(name, dtype, shape, data.len())?;
        let id = self.push(name.to_string(), MemSpace::Hbm, data, true)?;
        View::contiguous(id, dtype, 0, shape.to_vec())
    }

    /// Takes the bytes of allocation `id` out of the memory (a result moved out once the
    /// run is over), leaving it empty: every later access to it is out of bounds.
    pub fn take_bytes(&mut self, id: AllocId) -> Result<Vec<u8>> {
        let a = self
            .allocs
            .get_mut(id.0)
            .ok_or_else(|| EmuError::memory(OP, format!("no allocation #{}", id.0)))?;
        a.written = None;
        Ok(std::mem::take(&mut a.bytes))
    }

    /// Contents for allocation `id` that nothing wrote: zero bytes (from the allocator's
    /// lazily mapped zero pages) with every byte unwritten for the uninitialised-read
    /// check. With [`Memory::swap_contents`] this gives one allocation several independent
    /// contents (the private memories of the programs of a launch grid).
    pub fn unwritten_contents(&self, id: AllocId) -> Result<Contents> {
        let a = self.alloc(id)?;
        let len = a.bytes.len();
        let mut bytes: Vec<u8> = Vec::new();
        bytes
            .try_reserve_exact(len)
            .map_err(|_| EmuError::memory(OP, format!("cannot allocate {len} bytes")))?;
        bytes.resize(len, 0);
        let written = a.written.is_some().then(|| Shadow::unwritten(len));
        Ok(Contents { bytes, written })
    }

    /// Exchanges the contents of allocation `id` (bytes and which of them were written)
    /// with `contents`, which must be of the allocation's size: an O(1) switch between the
    /// contents [`Memory::unwritten_contents`] made.
    pub fn swap_contents(&mut self, id: AllocId, contents: &mut Contents) -> Result<()> {
        let a = self
            .allocs
            .get_mut(id.0)
            .ok_or_else(|| EmuError::memory(OP, format!("no allocation #{}", id.0)))?;
        if contents.bytes.len() != a.bytes.len()
            || contents.written.is_some() != a.written.is_some()
        {
            return Err(EmuError::memory(
                OP,
                format!(
                    "contents of {} bytes do not fit allocation #{} of {} bytes",
                    contents.bytes.len(),
                    id.0,
                    a.bytes.len()
                ),
            ));
        }
        std::mem::swap(&mut a.bytes, &mut contents.bytes);
        std::mem::swap(&mut a.written, &mut contents.written);
        Ok(())
    }

    /// A new zero-filled HBM tensor of `shape` (an argument the host zeroes), which counts
    /// as written.
    pub fn alloc_hbm_zeroed(&mut self, name: &str, dtype: DType, shape: &[usize]) -> Result<View> {
        let len = hbm_bytes(name, dtype, shape)?;
        let bytes = raw_filled(len, 0)?;
        let id = self.push(name.to_string(), MemSpace::Hbm, bytes, true)?;
        View::contiguous(id, dtype, 0, shape.to_vec())
    }

    /// The SBUF allocation (created on first use, all bytes `0xFF`).
    pub fn sbuf(&mut self) -> Result<AllocId> {
        if let Some(id) = self.sbuf {
            return Ok(id);
        }
        let len = self.partitions * crate::target::sbuf_bytes_per_partition(self.target);
        let bytes = self.on_chip_bytes(len)?;
        let id = self.push("sbuf".to_string(), MemSpace::Sbuf, bytes, false)?;
        self.sbuf = Some(id);
        Ok(id)
    }

    /// The PSUM allocation (created on first use, all bytes `0xFF`).
    pub fn psum(&mut self) -> Result<AllocId> {
        if let Some(id) = self.psum {
            return Ok(id);
        }
        let bytes = self.on_chip_bytes(self.partitions * PSUM_BYTES_PER_PARTITION)?;
        let id = self.push("psum".to_string(), MemSpace::Psum, bytes, false)?;
        self.psum = Some(id);
        Ok(id)
    }

    /// The bytes of an on-chip memory of `len` bytes (the machine's fixed size): `0xFF`, or
    /// zeros left to the operating system's lazily mapped zero pages when the fill is off.
    fn on_chip_bytes(&self, len: usize) -> Result<Vec<u8>> {
        if self.fill_unallocated {
            let mut v: Vec<u8> = Vec::new();
            v.try_reserve_exact(len)
                .map_err(|_| EmuError::memory(OP, format!("cannot allocate {len} bytes")))?;
            v.resize(len, 0xFF);
            Ok(v)
        } else {
            // A fixed size of the machine (at most 32 MiB physical, 512 MiB logical, bounded
            // by MAX_LOGICAL_PARTITIONS), not one read from input.
            Ok(vec![0u8; len])
        }
    }

    /// A view of SBUF: `shape[0]` partitions from `start_partition`, the free
    /// dimensions row-major from `byte_offset` within each partition.
    pub fn sbuf_view(
        &mut self,
        dtype: DType,
        start_partition: usize,
        byte_offset: usize,
        shape: &[usize],
    ) -> Result<View> {
        let bpp = crate::target::sbuf_bytes_per_partition(self.target);
        let id = self.sbuf()?;
        let geometry = OnChip {
            partitions: self.partitions,
            partition_bytes: bpp,
            limit: bpp,
        };
        on_chip_view(id, dtype, geometry, start_partition, byte_offset, shape)
    }

    /// A view of PSUM bank `bank`: `shape[0]` partitions from `start_partition`, the
    /// free dimensions row-major from `byte_offset` within the bank. The free bytes
    /// may run on into the following banks of the same partition, never past the
    /// partition's 16 KiB.
    pub fn psum_view(
        &mut self,
        dtype: DType,
        start_partition: usize,
        bank: usize,
        byte_offset: usize,
        shape: &[usize],
    ) -> Result<View> {
        if bank >= PSUM_BANKS {
            return Err(EmuError::memory(
                OP,
                format!("PSUM bank {bank} of {PSUM_BANKS}"),
            ));
        }
        let id = self.psum()?;
        let geometry = OnChip {
            partitions: self.partitions,
            partition_bytes: PSUM_BYTES_PER_PARTITION,
            limit: PSUM_BYTES_PER_PARTITION,
        };
        on_chip_view(
            id,
            dtype,
            geometry,
            start_partition,
            bank * PSUM_BANK_BYTES + byte_offset,
            shape,
        )
    }

    /// A new SBUF tile `[P, f..]` at partition 0 from the bump allocator, filled with
    /// the uninitialised pattern (a new tensor, as the simulator creates one), recorded
    /// as `sbuf tile N` for diagnostics.
    pub fn alloc_sbuf(&mut self, dtype: DType, shape: &[usize]) -> Result<View> {
        let name = format!("sbuf tile {}", self.tiles.len());
        self.alloc_sbuf_named(&name, dtype, shape)
    }

    /// [`Memory::alloc_sbuf`] with a name for diagnostics.
    pub fn alloc_sbuf_named(&mut self, name: &str, dtype: DType, shape: &[usize]) -> Result<View> {
        let free = free_bytes(dtype, shape)?;
        let start = self.sbuf_top.div_ceil(SBUF_TILE_ALIGN) * SBUF_TILE_ALIGN;
        let end = start
            .checked_add(free)
            .ok_or_else(|| EmuError::overflow(OP, "an SBUF allocation"))?;
        let bpp = crate::target::sbuf_bytes_per_partition(self.target);
        if end > bpp {
            return Err(EmuError::memory(
                OP,
                format!(
                    "SBUF full: a tile of {free} bytes per partition at offset {start} exceeds {bpp}"
                ),
            ));
        }
        let view = self.sbuf_view(dtype, 0, start, shape)?;
        self.sbuf_top = end;
        self.fill_uninit(&view)?;
        self.record_tile(name, &view, start, end);
        Ok(view)
    }

    /// The byte offset within each partition where the next SBUF tile would start (every
    /// byte at or above it is one no tile allocated since the last reset covers).
    pub fn next_sbuf_offset(&self) -> usize {
        self.sbuf_top.div_ceil(SBUF_TILE_ALIGN) * SBUF_TILE_ALIGN
    }

    /// Lets PSUM tiles span consecutive banks (module doc: logical tiles wider than one bank,
    /// before the free-axis cut), or not (the default and the physical rule).
    pub fn set_logical_psum(&mut self, on: bool) {
        self.logical_psum = on;
    }

    /// A new PSUM tile `[P, f..]` in the next free bank (at most 2 KiB per partition; with
    /// [`Memory::set_logical_psum`], in the next free banks, at most 16 KiB), filled with the
    /// uninitialised pattern, recorded as `psum tile N`.
    pub fn alloc_psum(&mut self, dtype: DType, shape: &[usize]) -> Result<View> {
        let name = format!("psum tile {}", self.tiles.len());
        self.alloc_psum_named(&name, dtype, shape)
    }

    /// [`Memory::alloc_psum`] with a name for diagnostics.
    pub fn alloc_psum_named(&mut self, name: &str, dtype: DType, shape: &[usize]) -> Result<View> {
        let free = free_bytes(dtype, shape)?;
        let most = if self.logical_psum {
            PSUM_BYTES_PER_PARTITION
        } else {
            PSUM_BANK_BYTES
        };
        if free > most {
            return Err(EmuError::memory(
                OP,
                format!("a PSUM tile holds at most {most} bytes per partition, not {free}"),
            ));
        }
        let banks = free.div_ceil(PSUM_BANK_BYTES).max(1);
        if self.psum_next_bank + banks > PSUM_BANKS {
            return Err(EmuError::memory(
                OP,
                format!(
                    "all 8 PSUM banks are allocated ({} in use, {banks} more needed)",
                    self.psum_next_bank
                ),
            ));
        }
        let bank = self.psum_next_bank;
        let view = self.psum_view(dtype, 0, bank, 0, shape)?;
        self.psum_next_bank += banks;
        self.fill_uninit(&view)?;
        let start = bank * PSUM_BANK_BYTES;
        self.record_tile(name, &view, start, start + free);
        Ok(view)
    }

    fn record_tile(&mut self, name: &str, view: &View, start: usize, end: usize) {
        let parts = view.shape().first().copied().unwrap_or(0);
        self.tiles.push(TileRecord {
            alloc: view.alloc(),
            name: name.to_string(),
            partitions: 0..parts,
            bytes: start..end,
        });
    }

    /// Resets the SBUF bump allocator and the PSUM bank counter (memory contents stay).
    pub fn reset_on_chip_allocators(&mut self) {
        self.sbuf_top = 0;
        self.psum_next_bank = 0;
    }

    fn alloc(&self, id: AllocId) -> Result<&Allocation> {
        self.allocs
            .get(id.0)
            .ok_or_else(|| EmuError::memory(OP, format!("no allocation #{}", id.0)))
    }

    /// The memory space of an allocation.
    pub fn space(&self, id: AllocId) -> Result<MemSpace> {
        Ok(self.alloc(id)?.space)
    }

    /// The name of an allocation.
    pub fn name(&self, id: AllocId) -> Result<&str> {
        Ok(&self.alloc(id)?.name)
    }

    /// The name of what `view` starts in: for an on-chip view, the most recently allocated
    /// tile covering its first element (the name the uninitialised-read check reports); for
    /// an HBM view, its allocation's name. `None` for an on-chip byte no tile covers.
    pub fn tile_name(&self, view: &View) -> Option<&str> {
        let a = self.alloc(view.alloc()).ok()?;
        let bpp = match a.space {
            MemSpace::Hbm => return Some(&a.name),
            MemSpace::Sbuf => crate::target::sbuf_bytes_per_partition(self.target),
            MemSpace::Psum => PSUM_BYTES_PER_PARTITION,
        };
        let byte = usize::try_from(view.offset()).ok()? * view.dtype().size();
        let (p, b) = (byte / bpp, byte % bpp);
        self.tiles
            .iter()
            .rev()
            .find(|t| t.alloc == view.alloc() && t.partitions.contains(&p) && t.bytes.contains(&b))
            .map(|t| t.name.as_str())
    }

    /// The byte range of each partition row of `view` (`shape[0]` rows, rows in order) when
    /// every row is one contiguous, in-bounds run of its allocation: free dimensions row-major
    /// with unit innermost stride. `None` otherwise (the general paths handle the view).
    pub(crate) fn row_ranges(&self, view: &View) -> Option<Vec<std::ops::Range<usize>>> {
        let shape = view.shape();
        let strides = view.strides();
        let (&parts, free_shape) = shape.split_first()?;
        let mut want = 1i64;
        for (&e, &st) in free_shape.iter().zip(&strides[1..]).rev() {
            if e > 1 && st != want {
                return None;
            }
            want = want.checked_mul(i64::try_from(e).ok()?)?;
        }
        let free = usize::try_from(want).ok()?;
        // One range per row is allocated below: a view without elements (a zero free
        // extent, any number of rows: 2^30 rows of nothing asked for 16 GiB here) or with more
        // rows than the element cap takes the general paths, which handle the first and refuse
        // the second.
        if free == 0 || parts > crate::error::MAX_ELEMENTS {
            return None;
        }
        let es = view.dtype().size();
        let len = self.alloc(view.alloc()).ok()?.bytes.len();
        let pstride = if parts > 1 { strides[0] } else { 0 };
        (0..parts)
            .map(|p| {
                let start = view.offset().checked_add(pstride.checked_mul(p as i64)?)?;
                let lo = usize::try_from(start).ok()?.checked_mul(es)?;
                let hi = lo.checked_add(free.checked_mul(es)?)?;
                (hi <= len).then_some(lo..hi)
            })
            .collect()
    }

    /// Fails like any read of op `op` when a byte of `ranges` of allocation `id` was never
    /// written (with the uninitialised-read check on).
    pub(crate) fn check_ranges_written(
        &self,
        op: &'static str,
        id: AllocId,
        ranges: &[std::ops::Range<usize>],
    ) -> Result<()> {
        if !self.check_uninit {
            return Ok(());
        }
        let a = self.alloc(id)?;
        if let Some(sh) = a.written.as_ref() {
            for r in ranges {
                if let Some(byte) = sh.first_unwritten(r.start, r.end) {
                    return Err(self.uninit_error(op, id, byte));
                }
            }
        }
        Ok(())
    }

    /// Copies `data` to bytes `at..at + data.len()` of allocation `id` (in bounds, as
    /// [`Memory::row_ranges`] gives them) and marks them written.
    pub(crate) fn write_range(&mut self, id: AllocId, at: usize, data: &[u8]) -> Result<()> {
        let a = self
            .allocs
            .get_mut(id.0)
            .ok_or_else(|| EmuError::memory(OP, format!("no allocation #{}", id.0)))?;
        let end = at
            .checked_add(data.len())
            .filter(|&e| e <= a.bytes.len())
            .ok_or_else(|| EmuError::memory(OP, "a row write outside its allocation"))?;
        a.bytes[at..end].copy_from_slice(data);
        if let Some(sh) = a.written.as_mut() {
            sh.set_range(at, end, true);
        }
        Ok(())
    }

    /// Bytes `range` of allocation `id` (in bounds, as [`Memory::row_ranges`] gives them),
    /// mutably, marked written: for an op that writes every byte of the range.
    pub(crate) fn range_mut(
        &mut self,
        id: AllocId,
        range: std::ops::Range<usize>,
    ) -> Result<&mut [u8]> {
        let a = self
            .allocs
            .get_mut(id.0)
            .ok_or_else(|| EmuError::memory(OP, format!("no allocation #{}", id.0)))?;
        if range.start > range.end || range.end > a.bytes.len() {
            return Err(EmuError::memory(OP, "a row write outside its allocation"));
        }
        if let Some(sh) = a.written.as_mut() {
            sh.set_range(range.start, range.end, true);
        }
        Ok(&mut a.bytes[range])
    }

    /// Marks bytes `range` of allocation `id` written (when it keeps a shadow), without
    /// writing them: a fused batch marks an op's writes when the op joins it
    /// (`crate::fused`), and writes the data later through [`Memory::raw_bytes_mut`].
    pub(crate) fn mark_written(
        &mut self,
        id: AllocId,
        range: std::ops::Range<usize>,
    ) -> Result<()> {
        let a = self
            .allocs
            .get_mut(id.0)
            .ok_or_else(|| EmuError::memory(OP, format!("no allocation #{}", id.0)))?;
        if let Some(sh) = a.written.as_mut() {
            sh.set_range(range.start, range.end, true);
        }
        Ok(())
    }

    /// The raw bytes of an allocation, mutably, leaving the shadow as it is (the writes of
    /// a fused batch, whose shadow effects are already applied).
    pub(crate) fn raw_bytes_mut(&mut self, id: AllocId) -> Result<&mut [u8]> {
        self.allocs
            .get_mut(id.0)
            .map(|a| a.bytes.as_mut_slice())
            .ok_or_else(|| EmuError::memory(OP, format!("no allocation #{}", id.0)))
    }

    /// Copies bytes `from` of allocation `src` to bytes `at..` of allocation `dst` (both in
    /// bounds, as [`Memory::row_ranges`] gives them), leaving the shadow as it is; within one
    /// allocation the bytes move as through a staged copy. Out-of-bounds ranges copy nothing.
    pub(crate) fn copy_unmarked(
        &mut self,
        src: AllocId,
        from: std::ops::Range<usize>,
        dst: AllocId,
        at: usize,
    ) {
        let n = from.len();
        if src == dst {
            if let Some(a) = self.allocs.get_mut(src.0)
                && from.end <= a.bytes.len()
                && at + n <= a.bytes.len()
            {
                a.bytes.copy_within(from, at);
            }
            return;
        }
        if let Ok([a, b]) = self.allocs.get_disjoint_mut([src.0, dst.0])
            && let (Some(s), Some(d)) = (a.bytes.get(from), b.bytes.get_mut(at..at + n))
        {
            d.copy_from_slice(s);
        }
    }

    /// The written-shadow of an allocation, if it keeps one (tests compare them).
    #[cfg(test)]
    pub(crate) fn shadow(&self, id: AllocId) -> Option<&crate::shadow::Shadow> {
        self.alloc(id).ok().and_then(|a| a.written.as_ref())
    }

    /// The raw bytes of an allocation.
    pub fn bytes(&self, id: AllocId) -> Result<&[u8]> {
        Ok(&self.alloc(id)?.bytes)
    }

    /// The raw bytes of an allocation, mutably (bulk initialisation, debugging). Counts as
    /// writing the whole allocation for the written-shadow.
    pub fn bytes_mut(&mut self, id: AllocId) -> Result<&mut [u8]> {
        let a = self
            .allocs
            .get_mut(id.0)
            .ok_or_else(|| EmuError::memory(OP, format!("no allocation #{}", id.0)))?;
        if let Some(sh) = a.written.as_mut() {
            sh.set_range(0, a.bytes.len(), true);
        }
        Ok(a.bytes.as_mut_slice())
    }

    /// Reads the elements `list` names from allocation `id` into `out` through the data
    /// primitive; with the check on, a byte nothing wrote is [`EmuError::Uninitialised`]
    /// for `op`. Every read of allocation bytes by an op goes through here.
    pub fn read_list(
        &self,
        op: &'static str,
        id: AllocId,
        esize: usize,
        list: OffsetList<'_>,
        out: &mut [u8],
    ) -> Result<()> {
        self.check_written(op, id, esize, list)?;
        data::read(&self.alloc(id)?.bytes, esize, list, out)
    }

    /// The integer values of the elements of `dtype` (an integer type) at element offsets
    /// `list` of allocation `id`, into `out` (one per offset): [`Memory::read_list`] of the
    /// elements (checked, an element outside the allocation reading as zero) decoded as
    /// [`DType::to_i64`] does, with the dtype resolved once for the whole list; a `u64` above
    /// `i64::MAX` saturates (it is then out of bounds), never wraps.
    pub(crate) fn read_index_values(
        &self,
        op: &'static str,
        id: AllocId,
        dtype: DType,
        list: &[i64],
        out: &mut [i64],
    ) -> Result<()> {
        let es = dtype.size();
        self.check_written(
            op,
            id,
            es,
            OffsetList::Runs {
                starts: list,
                run: 1,
            },
        )?;
        let bytes = &self.alloc(id)?.bytes;
        let n = (bytes.len() / es.max(1)) as u64;
        macro_rules! decode {
            ($w:expr, $conv:expr) => {
                for (o, &s) in out.iter_mut().zip(list) {
                    let i = s as u64;
                    *o = if i < n {
                        let at = i as usize * $w;
                        let mut b = [0u8; $w];
                        b.copy_from_slice(&bytes[at..at + $w]);
                        $conv(b)
                    } else {
                        0
                    };
                }
            };
        }
        match dtype {
            DType::I8 => decode!(1, |b| i64::from(i8::from_le_bytes(b))),
            DType::U8 => decode!(1, |b| i64::from(u8::from_le_bytes(b))),
            DType::I16 => decode!(2, |b| i64::from(i16::from_le_bytes(b))),
            DType::U16 => decode!(2, |b| i64::from(u16::from_le_bytes(b))),
            DType::I32 => decode!(4, |b| i64::from(i32::from_le_bytes(b))),
            DType::U32 => decode!(4, |b| i64::from(u32::from_le_bytes(b))),
            DType::I64 => decode!(8, i64::from_le_bytes),
            _ => {
                // Every other integer type (u64 among them) through the dtype's own decoding.
                let mut raw = vec![0u8; list.len() * es];
                data::read(
                    bytes,
                    es,
                    OffsetList::Runs {
                        starts: list,
                        run: 1,
                    },
                    &mut raw,
                )?;
                for (o, c) in out.iter_mut().zip(raw.chunks_exact(es)) {
                    *o = dtype.to_i64(dtype.load(c)).unwrap_or(i64::MAX);
                }
            }
        }
        Ok(())
    }

    /// Writes `data` to the elements `list` names in allocation `id` through the data
    /// primitive and marks them written. An accumulating write reads the destination
    /// first, so it is checked like a read. Every write by an op goes through here.
    pub fn write_list(
        &mut self,
        op: &'static str,
        id: AllocId,
        esize: usize,
        list: OffsetList<'_>,
        data: &[u8],
        combine: Combine,
    ) -> Result<()> {
        if combine != Combine::Replace {
            self.check_written(op, id, esize, list)?;
        }
        let a = self
            .allocs
            .get_mut(id.0)
            .ok_or_else(|| EmuError::memory(OP, format!("no allocation #{}", id.0)))?;
        data::write(&mut a.bytes, esize, list, data, combine)?;
        if let Some(sh) = a.written.as_mut() {
            sh.set_list(esize, list, true);
        }
        Ok(())
    }

    /// Reads the elements `list` names from allocation `src` straight into bytes `range`
    /// of a different allocation `dst` (the copy shortcut), marking them written.
    pub(crate) fn read_into(
        &mut self,
        op: &'static str,
        src: AllocId,
        esize: usize,
        list: OffsetList<'_>,
        dst: AllocId,
        range: std::ops::Range<usize>,
    ) -> Result<()> {
        if src == dst {
            return Err(EmuError::memory(
                OP,
                "read_into needs two different allocations",
            ));
        }
        self.check_written(op, src, esize, list)?;
        match self.allocs.get_disjoint_mut([src.0, dst.0]) {
            Ok([a, b]) => {
                let out = b.bytes.get_mut(range.clone()).ok_or_else(|| {
                    EmuError::memory(OP, format!("bytes {range:?} outside allocation #{}", dst.0))
                })?;
                data::read(&a.bytes, esize, list, out)?;
                if let Some(sh) = b.written.as_mut() {
                    sh.set_range(range.start, range.end, true);
                }
                Ok(())
            }
            Err(_) => Err(EmuError::memory(
                OP,
                format!("no allocation #{} or #{}", src.0, dst.0),
            )),
        }
    }

    /// Reads the elements `src_list` names from allocation `src` and writes them to the
    /// elements `dst_list` names in a different allocation `dst` ([`data::copy`]: a
    /// [`Memory::read_list`] then a replacing [`Memory::write_list`] without the staged
    /// tile), marking them written. The source is checked before any byte is written.
    pub(crate) fn copy_list(
        &mut self,
        op: &'static str,
        src: AllocId,
        esize: usize,
        src_list: OffsetList<'_>,
        dst: AllocId,
        dst_list: OffsetList<'_>,
    ) -> Result<()> {
        if src == dst {
            return Err(EmuError::memory(
                OP,
                "copy_list needs two different allocations",
            ));
        }
        self.check_written(op, src, esize, src_list)?;
        match self.allocs.get_disjoint_mut([src.0, dst.0]) {
            Ok([a, b]) => {
                data::copy(&a.bytes, src_list, &mut b.bytes, dst_list, esize)?;
                if let Some(sh) = b.written.as_mut() {
                    sh.set_list(esize, dst_list, true);
                }
                Ok(())
            }
            Err(_) => Err(EmuError::memory(
                OP,
                format!("no allocation #{} or #{}", src.0, dst.0),
            )),
        }
    }

    /// With the check on, fails when a byte of the elements `list` names was never written.
    fn check_written(
        &self,
        op: &'static str,
        id: AllocId,
        esize: usize,
        list: OffsetList<'_>,
    ) -> Result<()> {
        if !self.check_uninit {
            return Ok(());
        }
        let a = self.alloc(id)?;
        match a
            .written
            .as_ref()
            .and_then(|sh| sh.first_unwritten_in_list(esize, list))
        {
            Some(byte) => Err(self.uninit_error(op, id, byte)),
            None => Ok(()),
        }
    }

    /// The error for a read of never-written `byte` of allocation `id`, naming the tile.
    fn uninit_error(&self, op: &'static str, id: AllocId, byte: usize) -> EmuError {
        let (space, name) = match self.alloc(id) {
            Ok(a) => (a.space, a.name.clone()),
            Err(e) => return e,
        };
        let bpp = match space {
            MemSpace::Hbm => {
                return EmuError::Uninitialised {
                    op,
                    tile: name,
                    partition: None,
                    offset: byte,
                };
            }
            MemSpace::Sbuf => crate::target::sbuf_bytes_per_partition(self.target),
            MemSpace::Psum => PSUM_BYTES_PER_PARTITION,
        };
        let (p, b) = (byte / bpp, byte % bpp);
        let tile = self
            .tiles
            .iter()
            .rev()
            .find(|t| t.alloc == id && t.partitions.contains(&p) && t.bytes.contains(&b));
        match tile {
            Some(t) => EmuError::Uninitialised {
                op,
                tile: t.name.clone(),
                partition: Some(p),
                offset: b - t.bytes.start,
            },
            None => EmuError::Uninitialised {
                op,
                tile: name,
                partition: Some(p),
                offset: b,
            },
        }
    }

    /// For each element of `view` (row-major), whether every byte of it was written. Only
    /// allocations with a shadow (PSUM always) can answer; elements outside the allocation
    /// count as written (their writes are dropped, so there is nothing to accumulate on).
    pub(crate) fn written_elements(&self, op: &'static str, view: &View) -> Result<Vec<bool>> {
        let access = Access::direct(view);
        let offs = offsets::compute(self, &access, crate::OobMode::Error, op)?;
        let a = self.alloc(view.alloc())?;
        let sh = a.written.as_ref().ok_or_else(|| {
            EmuError::memory(op, format!("{} keeps no record of written bytes", a.name))
        })?;
        let es = view.dtype().size();
        let len = a.bytes.len();
        Ok(offs
            .per_point()
            .into_iter()
            .map(|o| match usize::try_from(o) {
                Ok(e) if e.saturating_mul(es) < len => sh.all_written(e * es, e * es + es),
                _ => true,
            })
            .collect())
    }

    /// Writes the uninitialised pattern of the view's dtype over every element of it and
    /// marks those bytes unwritten (a new tile; for PSUM, a new accumulation group).
    pub fn fill_uninit(&mut self, view: &View) -> Result<()> {
        EmuError::check_elements("fill_uninit", "the view", view.num_elements())?;
        let bits = view.dtype().uninit_bits();
        if let Some(rows) = self.row_ranges(view) {
            // Rows contiguous and in bounds (a new tile): fill them in place.
            let es = view.dtype().size();
            let mut pattern = [0u8; 8];
            view.dtype().store(bits, &mut pattern);
            let a = self.allocs.get_mut(view.alloc().0).ok_or_else(|| {
                EmuError::memory(OP, format!("no allocation #{}", view.alloc().0))
            })?;
            for r in rows {
                fill_pattern(&mut a.bytes[r.clone()], &pattern[..es]);
                if let Some(sh) = a.written.as_mut() {
                    sh.set_range(r.start, r.end, false);
                }
            }
            return Ok(());
        }
        let mut tile = vec![0u8; view.num_bytes()];
        for chunk in tile.chunks_exact_mut(view.dtype().size()) {
            view.dtype().store(bits, chunk);
        }
        let access = Access::direct(view);
        let offs = offsets::compute(self, &access, crate::OobMode::Error, "fill_uninit")?;
        let esize = view.dtype().size();
        let a = self
            .allocs
            .get_mut(view.alloc().0)
            .ok_or_else(|| EmuError::memory(OP, format!("no allocation #{}", view.alloc().0)))?;
        data::write(&mut a.bytes, esize, offs.as_list(), &tile, Combine::Replace)?;
        if let Some(sh) = a.written.as_mut() {
            sh.set_list(esize, offs.as_list(), false);
        }
        Ok(())
    }

    /// The elements of `view` in row-major order, as raw little-endian bytes. Elements
    /// past the end of the allocation read as zero bytes (the partial-tile rule). A host
    /// read: with the check on it is checked like an op's, as op `read_bytes`.
    pub fn read_bytes(&self, view: &View) -> Result<Vec<u8>> {
        self.read_bytes_for("read_bytes", view)
    }

    /// [`Memory::read_bytes`] on behalf of `op` (named in errors).
    pub fn read_bytes_for(&self, op: &'static str, view: &View) -> Result<Vec<u8>> {
        let access = Access::direct(view);
        let offs = offsets::compute(self, &access, crate::OobMode::Error, op)?;
        let mut out = vec![0u8; view.num_bytes()];
        self.read_list(
            op,
            view.alloc(),
            view.dtype().size(),
            offs.as_list(),
            &mut out,
        )?;
        Ok(out)
    }

    /// [`Memory::read_bytes_for`] without the uninitialised-read check: for an op that
    /// asked [`Memory::written_elements`] first and uses only the written elements.
    pub(crate) fn read_bytes_unchecked(&self, op: &'static str, view: &View) -> Result<Vec<u8>> {
        let access = Access::direct(view);
        let offs = offsets::compute(self, &access, crate::OobMode::Error, op)?;
        let mut out = vec![0u8; view.num_bytes()];
        data::read(
            &self.alloc(view.alloc())?.bytes,
            view.dtype().size(),
            offs.as_list(),
            &mut out,
        )?;
        Ok(out)
    }

    /// Writes raw little-endian bytes over the elements of `view` in row-major order.
    /// Elements past the end of the allocation are dropped (the partial-tile rule).
    pub fn write_bytes(&mut self, view: &View, bytes: &[u8]) -> Result<()> {
        self.write_bytes_for("write_bytes", view, bytes)
    }

    /// [`Memory::write_bytes`] on behalf of `op` (named in errors).
    pub fn write_bytes_for(&mut self, op: &'static str, view: &View, bytes: &[u8]) -> Result<()> {
        if bytes.len() != view.num_bytes() {
            return Err(EmuError::shape(
                op,
                format!(
                    "{} bytes for a view of {} bytes",
                    bytes.len(),
                    view.num_bytes()
                ),
            ));
        }
        let access = Access::direct(view);
        let offs = offsets::compute(self, &access, crate::OobMode::Error, op)?;
        let esize = view.dtype().size();
        self.write_list(
            op,
            view.alloc(),
            esize,
            offs.as_list(),
            bytes,
            Combine::Replace,
        )
    }

    /// The elements of `view` as raw bit patterns (one `u64` per element).
    pub fn read_bits(&self, view: &View) -> Result<Vec<u64>> {
        self.read_bits_for("read_bits", view)
    }

    /// [`Memory::read_bits`] on behalf of `op`.
    pub fn read_bits_for(&self, op: &'static str, view: &View) -> Result<Vec<u64>> {
        let d = view.dtype();
        Ok(self
            .read_bytes_for(op, view)?
            .chunks_exact(d.size())
            .map(|c| d.load(c))
            .collect())
    }

    /// Writes raw bit patterns (one `u64` per element, truncated to the element size).
    pub fn write_bits(&mut self, view: &View, bits: &[u64]) -> Result<()> {
        self.write_bits_for("write_bits", view, bits)
    }

    /// [`Memory::write_bits`] on behalf of `op`.
    pub fn write_bits_for(&mut self, op: &'static str, view: &View, bits: &[u64]) -> Result<()> {
        let d = view.dtype();
        let mut bytes = vec![0u8; bits.len().saturating_mul(d.size())];
        for (b, chunk) in bits.iter().zip(bytes.chunks_exact_mut(d.size())) {
            d.store(*b, chunk);
        }
        self.write_bytes_for(op, view, &bytes)
    }

    /// The elements of `view` as `f32` (scalar float and integer dtypes).
    pub fn read_f32(&self, view: &View) -> Result<Vec<f32>> {
        self.read_f32_for("read_f32", view)
    }

    /// [`Memory::read_f32`] on behalf of `op`.
    pub fn read_f32_for(&self, op: &'static str, view: &View) -> Result<Vec<f32>> {
        let d = view.dtype();
        if d.to_f32(0).is_none() {
            return Err(EmuError::dtype(op, format!("{d} has no scalar f32 value")));
        }
        Ok(self
            .read_bits_for(op, view)?
            .into_iter()
            .map(|b| d.to_f32(b).unwrap_or(f32::NAN))
            .collect())
    }

    /// Writes `f32` values, encoding each in the view's dtype.
    pub fn write_f32(&mut self, view: &View, values: &[f32]) -> Result<()> {
        self.write_f32_for("write_f32", view, values)
    }

    /// [`Memory::write_f32`] on behalf of `op`.
    pub fn write_f32_for(&mut self, op: &'static str, view: &View, values: &[f32]) -> Result<()> {
        let d = view.dtype();
        if d.from_f32(0.0).is_none() {
            return Err(EmuError::dtype(
                op,
                format!("{d} has no scalar f32 encoding"),
            ));
        }
        let bits: Vec<u64> = values.iter().map(|&v| d.from_f32(v).unwrap_or(0)).collect();
        self.write_bits_for(op, view, &bits)
    }

    /// The elements of an integer view as `i64`.
    pub fn read_i64(&self, view: &View) -> Result<Vec<i64>> {
        self.read_i64_for("read_i64", view)
    }

    /// [`Memory::read_i64`] on behalf of `op`.
    pub fn read_i64_for(&self, op: &'static str, view: &View) -> Result<Vec<i64>> {
        let d = view.dtype();
        if !d.is_integer() {
            return Err(EmuError::dtype(op, format!("{d} is not an integer type")));
        }
        Ok(self
            .read_bits_for(op, view)?
            .into_iter()
            .map(|b| d.to_i64(b).unwrap_or(0))
            .collect())
    }

    /// Writes `i64` values into an integer view (two's complement, truncated).
    pub fn write_i64(&mut self, view: &View, values: &[i64]) -> Result<()> {
        self.write_i64_for("write_i64", view, values)
    }

    /// [`Memory::write_i64`] on behalf of `op`.
    pub fn write_i64_for(&mut self, op: &'static str, view: &View, values: &[i64]) -> Result<()> {
        let d = view.dtype();
        if !d.is_integer() {
            return Err(EmuError::dtype(op, format!("{d} is not an integer type")));
        }
        let bits: Vec<u64> = values.iter().map(|&v| d.from_i64(v).unwrap_or(0)).collect();
        self.write_bits_for(op, view, &bits)
    }
}

/// `len` bytes of data are exactly an HBM tensor `name` of `dtype` and `shape`.
fn check_hbm_data(name: &str, dtype: DType, shape: &[usize], len: usize) -> Result<()> {
    let want = hbm_bytes(name, dtype, shape)?;
    if len != want {
        return Err(EmuError::shape(
            OP,
            format!("{len} bytes of data for HBM tensor {name} of {want} bytes"),
        ));
    }
    Ok(())
}

/// The byte size of an HBM tensor, checked.
fn hbm_bytes(name: &str, dtype: DType, shape: &[usize]) -> Result<usize> {
    let len = shape
        .iter()
        .try_fold(1usize, |a, &e| a.checked_mul(e))
        .and_then(|count| count.checked_mul(dtype.size()))
        .ok_or_else(|| EmuError::overflow(OP, format!("the size of HBM tensor {name}")))?;
    if len > MAX_HBM_BYTES {
        return Err(EmuError::memory(
            OP,
            format!(
                "HBM tensor {name} of {len} bytes is larger than the {MAX_HBM_BYTES} bytes the \
                 emulator holds per tensor"
            ),
        ));
    }
    Ok(len)
}

fn free_bytes(dtype: DType, shape: &[usize]) -> Result<usize> {
    if shape.is_empty() {
        return Err(EmuError::shape(
            OP,
            "an on-chip tile needs a partition dimension",
        ));
    }
    shape[1..]
        .iter()
        .try_fold(dtype.size(), |a, &e| a.checked_mul(e))
        .ok_or_else(|| EmuError::overflow(OP, "a tile's bytes per partition"))
}

/// The geometry of a partition-major on-chip allocation.
#[derive(Clone, Copy)]
struct OnChip {
    /// Partitions (128, or more on a logical machine).
    partitions: usize,
    /// Bytes from one partition to the next.
    partition_bytes: usize,
    /// Bytes a view may reach within a partition.
    limit: usize,
}

/// A view over a partition-major on-chip allocation.
fn on_chip_view(
    id: AllocId,
    dtype: DType,
    geometry: OnChip,
    start_partition: usize,
    byte_offset: usize,
    shape: &[usize],
) -> Result<View> {
    let OnChip {
        partitions,
        partition_bytes,
        limit,
    } = geometry;
    let esize = dtype.size();
    let parts = *shape
        .first()
        .ok_or_else(|| EmuError::shape(OP, "an on-chip tile needs a partition dimension"))?;
    if start_partition
        .checked_add(parts)
        .is_none_or(|end| end > partitions)
    {
        return Err(EmuError::memory(
            OP,
            format!("partitions {start_partition}..+{parts} exceed {partitions}"),
        ));
    }
    if !byte_offset.is_multiple_of(esize) {
        return Err(EmuError::memory(
            OP,
            format!("byte offset {byte_offset} is not aligned to {dtype} ({esize} bytes)"),
        ));
    }
    let free = free_bytes(dtype, shape)?;
    if byte_offset.checked_add(free).is_none_or(|end| end > limit) {
        return Err(EmuError::memory(
            OP,
            format!("{free} bytes at offset {byte_offset} exceed the partition's {limit} bytes"),
        ));
    }
    let pstride = partition_bytes / esize;
    let mut strides = vec![pstride as i64];
    strides.extend(row_major_strides(&shape[1..])?);
    let offset = (start_partition * pstride + byte_offset / esize) as i64;
    View::new(id, dtype, offset, shape.to_vec(), strides)
}

/// Asks the operating system to back the buffer of `v` (its whole capacity) with huge pages
/// where it can (the shadows of the on-chip memories: fewer first-touch faults and TLB
/// misses; the module doc says why the on-chip bytes do not ask). Contents and behaviour
/// never change, only the page size; where the request fails (no transparent huge pages,
/// another system) it is silently dropped and the memory keeps its ordinary pages.
pub(crate) fn advise_huge_pages<T>(v: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = v.as_ptr() as usize;
        let bytes = v.capacity().saturating_mul(std::mem::size_of::<T>());
        let lo = start.next_multiple_of(HUGE);
        let hi = (start + bytes) / HUGE * HUGE;
        if hi > lo {
            // SAFETY: `lo..hi` lies inside the allocation `v` owns (its capacity, rounded
            // inwards to huge-page boundaries). MADV_HUGEPAGE only changes how the kernel
            // backs those pages, never their contents, so no Rust-visible memory changes.
            let rc =
                unsafe { libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE) };
            // Failure (e.g. huge pages unavailable) leaves the ordinary pages: nothing to do.
            let _ = rc;
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

/// `len` bytes holding `dtype`'s uninitialised pattern, allocated fallibly.
fn filled(len: usize, dtype: DType) -> Result<Vec<u8>> {
    let mut pattern = [0u8; 8];
    dtype.store(dtype.uninit_bits(), &mut pattern);
    let pattern = &pattern[..dtype.size()];
    let mut v: Vec<u8> = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| EmuError::memory(OP, format!("cannot allocate {len} bytes")))?;
    if len == 0 {
        return Ok(v);
    }
    v.extend_from_slice(&pattern[..pattern.len().min(len)]);
    // Doubling copies: O(log n) memcpy calls.
    while v.len() < len {
        let n = v.len().min(len - v.len());
        v.extend_from_within(..n);
    }
    Ok(v)
}

/// Fills `dst` with repetitions of `pattern` (whose length divides `dst`'s): one pattern
/// written, then doubling copies within `dst` (memcpy speed, not one store per element).
fn fill_pattern(dst: &mut [u8], pattern: &[u8]) {
    let n = pattern.len().min(dst.len());
    if n == 0 {
        return;
    }
    dst[..n].copy_from_slice(&pattern[..n]);
    let mut done = n;
    while done < dst.len() {
        let k = done.min(dst.len() - done);
        dst.copy_within(..k, done);
        done += k;
    }
}

fn raw_filled(len: usize, byte: u8) -> Result<Vec<u8>> {
    let mut v: Vec<u8> = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| EmuError::memory(OP, format!("cannot allocate {len} bytes")))?;
    if len == 0 {
        return Ok(v);
    }
    v.push(byte);
    // Doubling copies (memcpy), fast even in unoptimised test builds.
    while v.len() < len {
        let n = v.len().min(len - v.len());
        v.extend_from_within(..n);
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hbm_tensors_start_as_nan_or_four() {
        let mut m = Memory::new(Target::Cayman);
        let f = m.alloc_hbm("f", DType::Bf16, &[3, 2]).unwrap();
        assert!(m.read_f32(&f).unwrap().iter().all(|v| v.is_nan()));
        let i = m.alloc_hbm("i", DType::I32, &[5]).unwrap();
        assert_eq!(m.read_i64(&i).unwrap(), vec![4; 5]);
        m.write_i64(&i, &[1, -2, 3, -4, 5]).unwrap();
        assert_eq!(m.read_i64(&i).unwrap(), vec![1, -2, 3, -4, 5]);
        assert_eq!(m.space(f.alloc()).unwrap(), MemSpace::Hbm);
    }

    #[test]
    fn sbuf_geometry_follows_the_target() {
        for (t, kib) in [
            (Target::Sunda, 192),
            (Target::Cayman, 224),
            (Target::Mariana, 256),
        ] {
            let mut m = Memory::new(t);
            let v = m.sbuf_view(DType::F32, 0, 0, &[128, 4]).unwrap();
            assert_eq!(v.strides()[0], (kib * 1024 / 4) as i64);
            assert_eq!(m.bytes(v.alloc()).unwrap().len(), 128 * kib * 1024);
            // The last 4 bytes of a partition are addressable, one more is not.
            assert!(m.sbuf_view(DType::F32, 0, kib * 1024 - 4, &[1, 1]).is_ok());
            assert!(m.sbuf_view(DType::F32, 0, kib * 1024 - 4, &[1, 2]).is_err());
            assert!(m.sbuf_view(DType::F32, 120, 0, &[9, 1]).is_err());
        }
    }

    #[test]
    fn sbuf_tiles_do_not_overlap_and_start_uninitialised() {
        let mut m = Memory::new(Target::Sunda);
        let a = m.alloc_sbuf(DType::F16, &[128, 10]).unwrap();
        let b = m.alloc_sbuf(DType::I32, &[64, 3]).unwrap();
        m.write_f32(&a, &vec![1.5; 1280]).unwrap();
        assert_eq!(m.read_i64(&b).unwrap(), vec![4; 192]);
        assert!(m.read_f32(&a).unwrap().iter().all(|&v| v == 1.5));
        assert!(m.alloc_sbuf(DType::U8, &[1, 200 * 1024]).is_err());
    }

    #[test]
    fn psum_has_eight_banks_of_two_kib() {
        let mut m = Memory::new(Target::Mariana);
        for _ in 0..PSUM_BANKS {
            let t = m.alloc_psum(DType::F32, &[128, 512]).unwrap();
            assert!(m.read_f32(&t).unwrap().iter().all(|v| v.is_nan()));
        }
        assert!(m.alloc_psum(DType::F32, &[128, 1]).is_err());
        assert!(m.psum_view(DType::F32, 0, 0, 0, &[1, 513]).is_ok());
        assert!(m.psum_view(DType::F32, 0, 7, 0, &[1, 513]).is_err());
        assert!(m.psum_view(DType::F32, 0, 8, 0, &[1, 1]).is_err());
        let mut fresh = Memory::new(Target::Mariana);
        assert!(fresh.alloc_psum(DType::F32, &[128, 513]).is_err());
    }

    /// Never-allocated on-chip bytes hold 0xFF by default and 0 with the fill off; tiles get
    /// the uninitialised fill either way, and the check still reports them unwritten.
    #[test]
    fn the_unallocated_fill_can_be_turned_off() {
        for (fill, byte) in [(true, 0xFFu8), (false, 0)] {
            let mut m = Memory::new(Target::Sunda);
            m.set_fill_unallocated(fill);
            let t = m.alloc_sbuf(DType::I32, &[2, 3]).unwrap();
            assert_eq!(m.read_i64(&t).unwrap(), vec![4; 6]);
            let raw = m.sbuf_view(DType::U8, 5, 1000, &[1, 4]).unwrap();
            assert_eq!(m.read_bytes(&raw).unwrap(), vec![byte; 4], "fill {fill}");
            let p = m.alloc_psum(DType::U8, &[1, 2]).unwrap();
            let beyond = m.psum_view(DType::U8, 3, 2, 0, &[1, 2]).unwrap();
            assert_eq!(m.read_bytes(&beyond).unwrap(), vec![byte; 2], "fill {fill}");
            // The check sees tiles as unwritten whatever the fill.
            m.set_check_uninit(true).unwrap();
            let q = m.alloc_sbuf(DType::F32, &[1, 2]).unwrap();
            assert!(matches!(
                m.read_bytes(&q),
                Err(EmuError::Uninitialised { .. })
            ));
            let _ = p;
        }
    }

    #[test]
    fn unknown_allocations_are_errors() {
        let m = Memory::new(Target::Cayman);
        assert!(m.bytes(AllocId::from_raw(3)).is_err());
    }
}
