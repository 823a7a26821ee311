//! Program-level synchronisation: owns turning a program (items in program order, each on one
//! in-order [`Queue`] with the memory [`Region`]s it reads and writes) into the semaphore waits
//! and updates of the EVENTS band (bytes 4..12 of every bundle) that order every cross-queue
//! hazard, plus the standalone [`SyncItem::Barrier`] waits an item needs when it depends on more
//! than one other queue.
//!
//! # Model
//!
//! * Each queue runs its items in program order, one at a time: an item starts only after the
//!   previous item of its queue has completed. Same-queue hazards therefore need no semaphore.
//! * A wait (`SEM_GE_IMM`, wire 0x05) holds an item back until a semaphore reaches a threshold;
//!   an update (`SEM_INC`, wire 0x13, on COMPLETE) adds one when the item completes.
//! * Every semaphore this pass uses starts at zero when the program starts (the caller resets
//!   the range it hands over, e.g. with GroupReset 0xB0); nothing else writes it.
//!
//! # Scheme
//!
//! 1. **Hazards.** Items `i` before `j` in program order on different queues conflict when their
//!    regions overlap: RAW (`i` writes what `j` reads), WAR (`i` reads what `j` writes), WAW
//!    (both write). A queue runs in order, so of the items of queue `P` that `j` conflicts with
//!    only the latest matters, and only if `j`'s queue is not already past it (see step 2).
//!    Those are the edges of [`SyncPlan::hazards`] (a petgraph graph whose node `k` is item
//!    `k`): at most one per item and other queue, so the graph stays linear in the program.
//!    They are found without comparing pairs, through an interval index (below).
//! 2. **Reduction.** A vector clock per item records, for every queue, how many of that queue's
//!    items are guaranteed complete when the item starts: program order on its own queue plus the
//!    clocks of the producers it waits on (transitively). `j` must wait for its latest
//!    conflicting producer on queue `P` only when its clock does not already cover it; among
//!    the producers left, one that another remaining producer is known to follow is dropped. The
//!    kept waits are exactly the cross-queue edges of the transitive reduction of
//!    (hazards + queue order), so every wait kept is necessary, and each wait's target is the
//!    latest producer needed, so no item waits for more than its dependencies.
//! 3. **Semaphores.** One counting semaphore per producer queue that somebody waits on. Each
//!    item some consumer waits on (a *signaller*) increments it on completion; the consumer
//!    waits `SEM_GE_IMM` on the signaller's rank among its queue's signallers. Because a queue
//!    completes in order, a count of `k` means the first `k` signallers have completed. Items
//!    nobody waits on carry no update, and a queue nobody waits on gets no semaphore.
//! 4. **Two or more waits.** An item carries one wait in its band. When it needs waits on `k`
//!    queues, the wait for its latest producer (by program order) stays inline and the other
//!    `k - 1` become [`SyncItem::Barrier`]s placed just before it on its queue (in the order of
//!    their producers), each one standalone wait: what an EventSemaphore (0xA0) bundle carries.
//!    The alternative of hoisting a wait onto the previous item of the queue would save a bundle
//!    but hold that item back for a dependency it does not have, so it is not done.
//!
//! # The interval index (why the pass is near-linear)
//!
//! Memory is cut into *bands*: for SBUF and PSUM, the partition intervals between consecutive
//! partition bounds of any region of the program (a region covers whole bands); for HBM, one
//! band per tensor. A band no queue writes meets no hazard and is dropped. Each remaining band
//! is cut into *segments* at the byte bounds of the regions covering it, so a region covers
//! whole segments of each band it covers. Per band, two segment trees over its segments (the
//! latest writers and the latest readers) hold in every node one lane per queue: the latest
//! item of that queue that touched the node's bytes. An item records itself in its queue's lane
//! over its regions' segments (`O(log segments)` per band covered), and one query over its
//! regions returns the latest writer (for what it reads) or reader and writer (for what it
//! writes) of *every* queue at once (`O(log segments)` nodes, each a vector of lanes). Items
//! are recorded in program order, so a later item always carries a larger value than the
//! earlier ones: a max-tree whose tags never need pushing down. The work is
//! `O(C log S + C x Q)` for `C` = the (region, band covered) pairs, `S` the segments of a band
//! and `Q` the queues; [`MAX_INDEX_ENTRIES`] bounds `C x Q` and [`MAX_INDEX_CELLS`] the trees'
//! memory, both before anything is built.
//!
//! # The shared +0x08 dword
//!
//! Wait and update share `semaphore_value` (+0x08): the wait's threshold goes there, and so does
//! an update's operand unless the update is inc/dec (CC `setupSyncUpdate` does not write it for
//! those). This pass only ever emits `SEM_INC` updates, so an item that both waits and signals
//! always fits one band: the dword is the wait threshold and the increment is implicit. An
//! add-imm update on a waiting item would conflict, which is why the scheme counts by one.
//!
//! # Counter width (conflict settled here)
//!
//! GPSIMD gives the semaphore value as a u32 counter; the CC sync page calls the bank 256
//! signed-32 counters. A threshold above `i32::MAX` would compare differently under the two
//! readings, so [`SyncOptions::default`] caps a queue's signal count at `i32::MAX`; more is an
//! [`SyncError::CountOverflow`]. The cap is a field so a caller who knows better can raise it
//! (never past `u32::MAX`, the band's width).
//!
//! # Inline sync on every engine (conflict settled here)
//!
//! The CC capstone says the sync band is absent on the matmul bundle and compute deps go through
//! standalone EventSemaphore ops; the GPSIMD headers put EVENTS at bytes 4..12 of every struct.
//! Following the crate's safe rule (EVENTS on every op), this pass stamps waits and updates
//! inline on every queue, Tensor included. The Matmul encoder still refuses an update on its
//! last (MATMUL) bundle (`EncodeError::MatmulSyncUpdate`), so for a Matmul or MatmulMx item
//! the pass places the update in a [`SyncItem::Signal`] right after it on the same queue (an
//! EventSemaphore carrying only the update, [`SyncItem::event`]), which completes only after
//! it; its wait stays inline. An EventSemaphore item gets its wait and update in its op fields
//! (its encoder refuses instruction sync).

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;

use petgraph::graph::{DiGraph, NodeIndex};

use crate::enums::{BirUpdateMode, BirWaitMode};
use crate::model::{
    Engine, EventSemaphore, Instruction, Op, Space, SyncInfo, SyncUpdate, SyncWait,
};

/// Semaphores per NeuronCore (GPSIMD: the EVT_SEM array; the band's index is one byte).
pub const NUM_SEMAPHORES: u16 = 256;

/// The most (item, queue) vector-clock cells one program may need (items times distinct
/// queues): 64 MiB of clocks. It also bounds the item count (every item has a cell) and the
/// hazard graph (at most one edge per cell). The semaphore model itself bounds nothing here: a
/// semaphore counts up to [`SyncOptions::max_count`] signals, checked per queue.
pub const MAX_CLOCK_CELLS: usize = 1 << 24;

/// The most interval-index entries one program may make (every region's bands covered, times
/// the other queues its queries answer for; see the module docs): the index's time.
pub const MAX_INDEX_ENTRIES: usize = 1 << 26;

/// The most segment-tree lanes the index may hold per kind (writers, readers): for every band
/// some queue writes, two nodes per segment between its byte boundaries (padded to a power of
/// two), one lane per queue. 128 MiB of `u32`s for both kinds, tags and maxima.
pub const MAX_INDEX_CELLS: usize = 1 << 23;

/// One in-order instruction queue: an engine, and for DMA which of its queues.
///
/// Every compute engine is one queue; the DMA engine may be split into several independent
/// queues (`Queue::dma(0)`, `Queue::dma(1)`, ...), each in order and unordered with the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Queue {
    engine: Engine,
    index: u8,
}

impl Queue {
    /// The queue of a compute engine; for [`Engine::Dma`] this is DMA queue 0.
    pub const fn of(engine: Engine) -> Queue {
        Queue { engine, index: 0 }
    }

    /// DMA queue `index`.
    pub const fn dma(index: u8) -> Queue {
        Queue {
            engine: Engine::Dma,
            index,
        }
    }

    /// The engine the queue issues to.
    pub const fn engine(self) -> Engine {
        self.engine
    }

    /// The queue's number within its engine (0 for every compute engine).
    pub const fn index(self) -> u8 {
        self.index
    }
}

impl From<Engine> for Queue {
    fn from(engine: Engine) -> Queue {
        Queue::of(engine)
    }
}

/// `Vector`, `GpSimd`, `Scalar`, `Tensor`, or `Dma<n>`.
impl fmt::Display for Queue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.engine {
            Engine::Dma => write!(f, "Dma{}", self.index),
            e => write!(f, "{e:?}"),
        }
    }
}

/// A memory region an item reads or writes. Ranges are half-open; an empty range (start >=
/// end) covers nothing and never conflicts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Region {
    /// On-chip memory: the rectangle of partitions `partitions` by bytes `bytes` (offsets
    /// within each partition) in SBUF or PSUM.
    OnChip {
        /// SBUF or PSUM.
        space: Space,
        /// Partitions touched.
        partitions: Range<u32>,
        /// Byte offsets touched within each of those partitions.
        bytes: Range<u32>,
    },
    /// Device memory: bytes `bytes` of HBM tensor `tensor`.
    Hbm {
        /// The tensor's id (distinct ids never alias).
        tensor: u32,
        /// Bytes touched.
        bytes: Range<u64>,
    },
}

/// Whether two half-open ranges share an element (an empty range shares none).
fn ranges_meet<T: PartialOrd>(a: &Range<T>, b: &Range<T>) -> bool {
    a.start < a.end && b.start < b.end && a.start < b.end && b.start < a.end
}

impl Region {
    /// SBUF partitions `partitions`, bytes `bytes` of each.
    pub fn sbuf(partitions: Range<u32>, bytes: Range<u32>) -> Region {
        Region::OnChip {
            space: Space::Sbuf,
            partitions,
            bytes,
        }
    }

    /// PSUM partitions `partitions`, bytes `bytes` of each.
    pub fn psum(partitions: Range<u32>, bytes: Range<u32>) -> Region {
        Region::OnChip {
            space: Space::Psum,
            partitions,
            bytes,
        }
    }

    /// Bytes `bytes` of HBM tensor `tensor`.
    pub fn hbm(tensor: u32, bytes: Range<u64>) -> Region {
        Region::Hbm { tensor, bytes }
    }

    /// Whether the region covers no byte.
    pub fn is_empty(&self) -> bool {
        match self {
            Region::OnChip {
                partitions, bytes, ..
            } => partitions.is_empty() || bytes.is_empty(),
            Region::Hbm { bytes, .. } => bytes.is_empty(),
        }
    }

    /// Whether the two regions share a byte: same space (or tensor), and both the partition and
    /// the byte ranges intersect. Exact for the rectangles given.
    pub fn overlaps(&self, other: &Region) -> bool {
        match (self, other) {
            (
                Region::OnChip {
                    space: s1,
                    partitions: p1,
                    bytes: b1,
                },
                Region::OnChip {
                    space: s2,
                    partitions: p2,
                    bytes: b2,
                },
            ) => s1 == s2 && ranges_meet(p1, p2) && ranges_meet(b1, b2),
            (
                Region::Hbm {
                    tensor: t1,
                    bytes: b1,
                },
                Region::Hbm {
                    tensor: t2,
                    bytes: b2,
                },
            ) => t1 == t2 && ranges_meet(b1, b2),
            _ => false,
        }
    }
}

/// One program item: the queue it runs on, what it reads and writes, and optionally the
/// instruction it is (borrowed: the plan says which band to stamp on it, and
/// [`SyncItem::stamped`] or [`stamp`] stamps it, so no instruction is copied into the plan).
#[derive(Clone, Debug, PartialEq)]
pub struct Item<'i> {
    /// The queue it is issued to.
    pub queue: Queue,
    /// Regions it reads.
    pub reads: Vec<Region>,
    /// Regions it writes.
    pub writes: Vec<Region>,
    /// The instruction, if the item is one. Its engine must be the queue's and it must carry no
    /// sync yet (this pass owns the band; for an EventSemaphore, its wait and update fields).
    pub inst: Option<&'i Instruction>,
}

impl<'i> Item<'i> {
    /// An item on `queue` touching nothing.
    pub fn new(queue: impl Into<Queue>) -> Item<'i> {
        Item {
            queue: queue.into(),
            reads: Vec::new(),
            writes: Vec::new(),
            inst: None,
        }
    }

    /// Adds a region read.
    pub fn read(mut self, r: Region) -> Item<'i> {
        self.reads.push(r);
        self
    }

    /// Adds a region written.
    pub fn write(mut self, r: Region) -> Item<'i> {
        self.writes.push(r);
        self
    }

    /// Sets the instruction.
    pub fn with_inst(mut self, inst: &'i Instruction) -> Item<'i> {
        self.inst = Some(inst);
        self
    }
}

/// The hazard kinds between an earlier item (producer) and a later one (consumer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hazards {
    /// Read after write: the producer writes what the consumer reads.
    pub raw: bool,
    /// Write after read: the producer reads what the consumer writes.
    pub war: bool,
    /// Write after write: both write the same bytes.
    pub waw: bool,
}

impl Hazards {
    /// The hazards of running `b` after `a`.
    pub fn between(a: &Item, b: &Item) -> Hazards {
        let any =
            |xs: &[Region], ys: &[Region]| xs.iter().any(|x| ys.iter().any(|y| x.overlaps(y)));
        Hazards {
            raw: any(&a.writes, &b.reads),
            war: any(&a.reads, &b.writes),
            waw: any(&a.writes, &b.writes),
        }
    }

    /// Whether there is no hazard.
    pub fn is_empty(self) -> bool {
        !(self.raw || self.war || self.waw)
    }
}

/// Which semaphores the pass may use and how far a count may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyncOptions {
    /// The first semaphore index the pass may use (the ones below are the runtime's).
    pub first_semaphore: u8,
    /// How many semaphores from `first_semaphore` on the pass may use; `first_semaphore +
    /// max_semaphores` must not pass [`NUM_SEMAPHORES`].
    pub max_semaphores: u16,
    /// The highest count a semaphore may reach (see the module docs on counter width).
    pub max_count: u32,
}

impl Default for SyncOptions {
    /// All 256 semaphores; counts up to `i32::MAX`.
    fn default() -> SyncOptions {
        SyncOptions {
            first_semaphore: 0,
            max_semaphores: NUM_SEMAPHORES,
            max_count: i32::MAX as u32,
        }
    }
}

/// Why a program could not be synchronised.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyncError {
    /// The options hand over semaphores that do not exist.
    #[error(
        "semaphore range {first}..{end} passes the {NUM_SEMAPHORES} semaphores of a NeuronCore",
        end = *first as u32 + *max as u32
    )]
    BadSemaphoreRange {
        /// `first_semaphore`.
        first: u8,
        /// `max_semaphores`.
        max: u16,
    },
    /// Items times queues passes [`MAX_CLOCK_CELLS`] (this bounds the item count too).
    #[error(
        "program has {items} items on {queues} queues; the vector clocks (items x queues) may \
         hold at most {MAX_CLOCK_CELLS} cells"
    )]
    TooManyQueues {
        /// Items given.
        items: usize,
        /// Distinct queues used.
        queues: usize,
    },
    /// The interval index would pass [`MAX_INDEX_ENTRIES`].
    #[error(
        "program's regions make {entries} interval-index entries (regions x partition bands \
         covered x consumer queues; its partition ranges cut SBUF into {sbuf_bands} and PSUM \
         into {psum_bands} bands); at most {MAX_INDEX_ENTRIES}"
    )]
    TooManyIndexEntries {
        /// Entries the program would make (counted up to the first past the limit).
        entries: usize,
        /// SBUF partition bands.
        sbuf_bands: usize,
        /// PSUM partition bands.
        psum_bands: usize,
    },
    /// The index's segment trees would pass [`MAX_INDEX_CELLS`].
    #[error(
        "program's regions make {cells} interval-index cells (at band {band}, which its \
         regions' byte ranges cut into {segments} segments: bands x segments x queues); at \
         most {MAX_INDEX_CELLS}"
    )]
    IndexTooLarge {
        /// Cells counted, up to the first band past the limit.
        cells: usize,
        /// That band (SBUF bands, then PSUM bands, then one per HBM tensor).
        band: usize,
        /// Its segments.
        segments: usize,
    },
    /// An item's instruction is for another engine than its queue's.
    #[error("item {item} is on queue {queue} but its instruction is for engine {engine:?}")]
    EngineMismatch {
        /// The item.
        item: usize,
        /// Its queue.
        queue: Queue,
        /// The instruction's engine.
        engine: Engine,
    },
    /// An item's instruction already carries a wait or an update (in its band, or in an
    /// EventSemaphore's wait / update fields).
    #[error("item {item}'s instruction already carries sync; this pass owns the EVENTS band")]
    AlreadySynced {
        /// The item.
        item: usize,
    },
    /// More producer queues need a semaphore than the options allow.
    #[error(
        "semaphores exhausted: queue {queue} needs a semaphore because item {consumer} waits on \
         item {producer}, but all {max} semaphores from index {first} are taken by other queues"
    )]
    SemaphoresExhausted {
        /// The producer queue left without a semaphore.
        queue: Queue,
        /// The first item that waits on it.
        consumer: usize,
        /// The item it waits for.
        producer: usize,
        /// `first_semaphore`.
        first: u8,
        /// `max_semaphores`.
        max: u16,
    },
    /// A queue signals more often than a semaphore can count.
    #[error("semaphore count of queue {queue} overflows at item {item}: more than {limit} signals")]
    CountOverflow {
        /// The queue.
        queue: Queue,
        /// The signaller whose increment passes the limit.
        item: usize,
        /// `max_count`.
        limit: u32,
    },
}

/// One entry of the synchronised program.
#[derive(Clone, Debug, PartialEq)]
pub enum SyncItem {
    /// An input item with its band.
    Item {
        /// Its index in the input.
        index: usize,
        /// Its queue.
        queue: Queue,
        /// The wait and update to stamp.
        sync: SyncInfo,
        /// The item its inline wait waits for, if it has one.
        waits_for: Option<usize>,
    },
    /// A standalone wait inserted before `consumer` on its queue (an EventSemaphore-style
    /// bundle carrying only this wait, no memory access and no update).
    Barrier {
        /// The queue it runs on (the consumer's).
        queue: Queue,
        /// The wait.
        wait: SyncWait,
        /// The item it waits for.
        waits_for: usize,
        /// The item it is inserted for.
        consumer: usize,
    },
    /// A standalone update placed right after `signaller` on its queue, carrying the update of
    /// an instruction whose last bundle has no sync band (Matmul, MatmulMx: see the module
    /// docs). A queue runs in order, so it completes only once the signaller has, and counts
    /// for it: an EventSemaphore-style bundle carrying only this update.
    Signal {
        /// The queue it runs on (the signaller's).
        queue: Queue,
        /// The update.
        update: SyncUpdate,
        /// The item whose completion it signals.
        signaller: usize,
    },
}

impl SyncItem {
    /// The queue the entry runs on.
    pub fn queue(&self) -> Queue {
        match self {
            SyncItem::Item { queue, .. }
            | SyncItem::Barrier { queue, .. }
            | SyncItem::Signal { queue, .. } => *queue,
        }
    }

    /// The wait the entry carries.
    pub fn wait(&self) -> Option<SyncWait> {
        match self {
            SyncItem::Item { sync, .. } => sync.wait,
            SyncItem::Barrier { wait, .. } => Some(*wait),
            SyncItem::Signal { .. } => None,
        }
    }

    /// The update the entry carries.
    pub fn update(&self) -> Option<SyncUpdate> {
        match self {
            SyncItem::Item { sync, .. } => sync.update,
            SyncItem::Barrier { .. } => None,
            SyncItem::Signal { update, .. } => Some(*update),
        }
    }

    /// The instruction of an input item with its band stamped ([`stamp`]), from the items the
    /// plan was made of; `None` for a standalone entry or an item with no instruction.
    pub fn stamped(&self, items: &[Item<'_>]) -> Option<Instruction> {
        let SyncItem::Item { index, sync, .. } = self else {
            return None;
        };
        let mut inst = items.get(*index)?.inst?.clone();
        stamp(&mut inst, *sync);
        Some(inst)
    }

    /// The EventSemaphore (0xA0) a standalone entry is encoded as, on its queue's engine: a
    /// barrier's wait in `wait0`, a signal's update in `update`. `None` for an input item
    /// (its instruction is the input's, stamped: [`SyncItem::stamped`]).
    pub fn event(&self) -> Option<Instruction> {
        let (wait0, update) = match self {
            SyncItem::Item { .. } => return None,
            SyncItem::Barrier { wait, .. } => (Some(*wait), None),
            SyncItem::Signal { update, .. } => (None, Some(*update)),
        };
        Some(Instruction {
            id: 0,
            engine: self.queue().engine(),
            sync: SyncInfo::default(),
            op: Op::EventSemaphore(EventSemaphore {
                wait0,
                wait1: None,
                update,
            }),
        })
    }
}

/// A semaphore the plan uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Semaphore {
    /// The producer queue it counts.
    pub queue: Queue,
    /// Its index.
    pub sem: u8,
    /// How many items increment it: its value once the program has run.
    pub signals: u32,
}

/// The result: the program with its sync, and the graphs it came from.
#[derive(Clone, Debug)]
pub struct SyncPlan {
    /// The cross-queue hazards left to order (module docs, step 1): for each item and each
    /// other queue, an edge from the latest earlier item of that queue it conflicts with,
    /// unless its own queue is already known to run after that item; weighted with the
    /// hazard kinds of the pair. Every other conflicting pair is ordered through these edges
    /// and queue order. Node `k` has weight `k`, the item's index.
    pub hazards: HazardGraph,
    /// The waits kept after reduction: an edge producer -> consumer per wait (inline or
    /// barrier), weighted with the wait; same nodes as `hazards`.
    pub waits: DiGraph<usize, SyncWait>,
    /// The program in order: every input item, with barriers inserted before their consumers
    /// and signals right after their signallers.
    pub items: Vec<SyncItem>,
    /// The semaphores used, in the order they were allocated.
    pub semaphores: Vec<Semaphore>,
    /// The position in `items` of each input item.
    slots: Vec<usize>,
    /// Barriers inserted.
    barriers: usize,
}

impl SyncPlan {
    /// The band of input item `index`, if there is such an item (without the update a
    /// [`SyncItem::Signal`] carries for it).
    pub fn sync_info(&self, index: usize) -> Option<SyncInfo> {
        match self.items.get(*self.slots.get(index)?)? {
            SyncItem::Item { sync, .. } => Some(*sync),
            SyncItem::Barrier { .. } | SyncItem::Signal { .. } => None,
        }
    }

    /// The update input item `index` signals with, wherever it is placed: in its band, or in
    /// the [`SyncItem::Signal`] right after it.
    pub fn update_of(&self, index: usize) -> Option<SyncUpdate> {
        let slot = *self.slots.get(index)?;
        match (self.items.get(slot)?, self.items.get(slot + 1)) {
            (
                SyncItem::Item { sync, .. },
                Some(SyncItem::Signal {
                    update, signaller, ..
                }),
            ) if *signaller == index && sync.update.is_none() => Some(*update),
            (SyncItem::Item { sync, .. }, _) => sync.update,
            _ => None,
        }
    }

    /// The number of barriers inserted.
    pub fn barrier_count(&self) -> usize {
        self.barriers
    }

    /// The number of signals inserted.
    pub fn signal_count(&self) -> usize {
        self.items.len() - self.slots.len() - self.barriers
    }
}

/// Builds the hazard graph, reduces it and assigns semaphores (see the module docs).
pub fn assign_sync(items: &[Item], opts: &SyncOptions) -> Result<SyncPlan, SyncError> {
    if opts.first_semaphore as u32 + opts.max_semaphores as u32 > NUM_SEMAPHORES as u32 {
        return Err(SyncError::BadSemaphoreRange {
            first: opts.first_semaphore,
            max: opts.max_semaphores,
        });
    }
    let lay = Layout::of(items)?;
    let (hazards, targets) = reduce(items, &lay)?;
    let sems = allocate(&lay, &targets, opts)?;
    Ok(emit(items, &lay, hazards, &targets, &sems))
}

/// The queues of a program: dense ids in order of first use, and each item's place.
struct Layout {
    /// The queues, by dense id.
    queues: Vec<Queue>,
    /// Each item's queue id.
    qid: Vec<usize>,
    /// Each item's 1-based position on its queue.
    pos: Vec<u32>,
    /// Every item's reads then writes, copied out: item `j`'s reads are
    /// `regions[region_off[2j]..region_off[2j + 1]]`, its writes up to `region_off[2j + 2]`.
    regions: Vec<Region>,
    region_off: Vec<usize>,
}

impl Layout {
    /// One pass over the items: checks each
    /// item's instruction, numbers the queues and copies the regions out.
    fn of(items: &[Item]) -> Result<Layout, SyncError> {
        let n = items.len();
        let mut ids: HashMap<Queue, usize> = HashMap::new();
        let mut queues: Vec<Queue> = Vec::new();
        let mut len_of: Vec<u32> = Vec::new();
        let mut qid = Vec::with_capacity(n);
        let mut pos = Vec::with_capacity(n);
        let mut regions = Vec::new();
        let mut region_off = Vec::with_capacity(2 * n + 1);
        region_off.push(0);
        for (i, it) in items.iter().enumerate() {
            if let Some(inst) = it.inst {
                check_inst(i, it.queue, inst)?;
            }
            // A program has few queues: a short scan beats hashing every item.
            let known = if queues.len() <= 16 {
                queues.iter().position(|&q| q == it.queue)
            } else {
                ids.get(&it.queue).copied()
            };
            let q = known.unwrap_or_else(|| {
                ids.insert(it.queue, queues.len());
                queues.push(it.queue);
                len_of.push(0);
                queues.len() - 1
            });
            // At most MAX_CLOCK_CELLS items (checked below, before anything uses `pos`): a
            // position cannot overflow.
            len_of[q] = len_of[q].saturating_add(1);
            qid.push(q);
            pos.push(len_of[q]);
            regions.extend(it.reads.iter().cloned());
            region_off.push(regions.len());
            regions.extend(it.writes.iter().cloned());
            region_off.push(regions.len());
        }
        if n.saturating_mul(queues.len()) > MAX_CLOCK_CELLS {
            return Err(SyncError::TooManyQueues {
                items: n,
                queues: queues.len(),
            });
        }
        Ok(Layout {
            queues,
            qid,
            pos,
            regions,
            region_off,
        })
    }

    /// Item `j`'s reads and writes.
    fn sides(&self, j: usize) -> [(bool, &[Region]); 2] {
        let o = &self.region_off;
        [
            (false, &self.regions[o[2 * j]..o[2 * j + 1]]),
            (true, &self.regions[o[2 * j + 1]..o[2 * j + 2]]),
        ]
    }
}

/// Checks that item `i`'s instruction is for its queue's engine and carries no sync yet.
fn check_inst(i: usize, queue: Queue, inst: &Instruction) -> Result<(), SyncError> {
    if inst.engine != queue.engine {
        return Err(SyncError::EngineMismatch {
            item: i,
            queue,
            engine: inst.engine,
        });
    }
    // An EventSemaphore's waits and update are its op fields (its `sync` must stay
    // empty, `EncodeError::EventSemaphoreSync`): they are the band this pass owns.
    let event_synced = matches!(&inst.op, Op::EventSemaphore(e)
        if e.wait0.is_some() || e.wait1.is_some() || e.update.is_some());
    if inst.sync != SyncInfo::default() || event_synced {
        return Err(SyncError::AlreadySynced { item: i });
    }
    Ok(())
}

/// The graph of the cross-queue hazards left to order ([`SyncPlan::hazards`]; node `k` is item
/// `k`).
pub type HazardGraph = DiGraph<usize, Hazards>;

/// A region as the index sees it: the bands it covers and its byte range.
#[derive(Clone, Copy)]
struct Cells {
    /// Band ids `bands.0..bands.1`.
    bands: (u32, u32),
    /// Bytes `bytes.0..bytes.1` of each (non-empty).
    bytes: (u64, u64),
}

/// The bands of a program (module docs): the partition bounds of SBUF and PSUM, sorted, and
/// the HBM tensors; band ids are SBUF bands, then PSUM bands, then one per tensor.
struct Bands {
    sbuf: Vec<u32>,
    psum: Vec<u32>,
    tensors: HashMap<u32, u32>,
}

impl Bands {
    fn of(regions: &[Region]) -> Bands {
        let (mut sbuf, mut psum) = (Vec::new(), Vec::new());
        let mut tensors = HashMap::new();
        for r in regions {
            if r.is_empty() {
                continue;
            }
            match r {
                Region::OnChip {
                    space, partitions, ..
                } => {
                    let v = if *space == Space::Psum {
                        &mut psum
                    } else {
                        &mut sbuf
                    };
                    v.push(partitions.start);
                    v.push(partitions.end);
                }
                Region::Hbm { tensor, .. } => {
                    let next = tensors.len() as u32;
                    tensors.entry(*tensor).or_insert(next);
                }
            }
        }
        for v in [&mut sbuf, &mut psum] {
            v.sort_unstable();
            v.dedup();
        }
        Bands {
            sbuf,
            psum,
            tensors,
        }
    }

    /// Bands between consecutive bounds of one space.
    fn count(bounds: &[u32]) -> usize {
        bounds.len().saturating_sub(1)
    }

    /// The cells of a non-empty region (`None` for an empty one, which conflicts with nothing).
    fn cells(&self, r: &Region) -> Option<Cells> {
        if r.is_empty() {
            return None;
        }
        Some(match r {
            Region::OnChip {
                space,
                partitions,
                bytes,
            } => {
                let (bounds, base) = if *space == Space::Psum {
                    (&self.psum, Bands::count(&self.sbuf))
                } else {
                    (&self.sbuf, 0)
                };
                // Both ends are bounds of the space (collected above): exact positions.
                let at = |p: u32| (base + bounds.partition_point(|&x| x < p)) as u32;
                Cells {
                    bands: (at(partitions.start), at(partitions.end)),
                    bytes: (u64::from(bytes.start), u64::from(bytes.end)),
                }
            }
            Region::Hbm { tensor, bytes } => {
                let base = Bands::count(&self.sbuf) + Bands::count(&self.psum);
                let id = (base + self.tensors[tensor] as usize) as u32;
                Cells {
                    bands: (id, id + 1),
                    bytes: (bytes.start, bytes.end),
                }
            }
        })
    }
}

/// One band's share of a region, as the index sees it: the band's trees (their first lane in
/// [`Trees`] and their leaf count, a power of two) and the segments `lo..hi` between the band's
/// byte boundaries that the region covers.
#[derive(Clone, Copy)]
struct Part {
    base: u32,
    size: u32,
    lo: u32,
    hi: u32,
}

/// Max-trees of one kind (latest writers, or latest readers) for every band some queue writes:
/// a segment tree over the band's segments whose nodes hold one lane per queue, the index (+1,
/// 0 for none) of the latest item of that queue that touched the node's bytes. `tag` holds the
/// largest value assigned to a node's whole range, `sub` the largest anywhere below it. Items
/// are recorded in program order, so an assignment is always the largest value yet: taking the
/// maximum is overwriting, and no tag ever needs pushing down.
struct Trees {
    tag: Vec<u32>,
    sub: Vec<u32>,
}

/// `out[q] = max(out[q], xs[q])` lane by lane.
fn max_into(out: &mut [u32], xs: &[u32]) {
    for (o, &x) in out.iter_mut().zip(xs) {
        *o = (*o).max(x);
    }
}

impl Trees {
    fn new(lanes: usize) -> Trees {
        Trees {
            tag: vec![0; lanes],
            sub: vec![0; lanes],
        }
    }

    /// Lane by lane, the latest item of each queue over the part's segments, maxed into `out`.
    fn query(&self, p: Part, nq: usize, out: &mut [u32]) {
        let (size, base) = (p.size as usize, p.base as usize);
        let at = |v: usize| base + v * nq;
        let (mut l, mut r) = (p.lo as usize + size, p.hi as usize + size);
        // The parents of the two end leaves: every ancestor of a node of the range's cover is
        // an ancestor of one of them, and each covers a leaf of the range, so its tag counts.
        let (mut a, mut b) = (l >> 1, (r - 1) >> 1);
        while l < r {
            if l & 1 == 1 {
                max_into(out, &self.sub[at(l)..at(l) + nq]);
                l += 1;
            }
            if r & 1 == 1 {
                r -= 1;
                max_into(out, &self.sub[at(r)..at(r) + nq]);
            }
            l >>= 1;
            r >>= 1;
        }
        while a != b {
            max_into(out, &self.tag[at(a)..at(a) + nq]);
            max_into(out, &self.tag[at(b)..at(b) + nq]);
            a >>= 1;
            b >>= 1;
        }
        while a >= 1 {
            max_into(out, &self.tag[at(a)..at(a) + nq]);
            a >>= 1;
        }
    }

    /// Records `value` (larger than every value recorded before) as queue `q`'s latest item
    /// over the part's segments.
    fn assign(&mut self, p: Part, nq: usize, q: usize, value: u32) {
        let (size, base) = (p.size as usize, p.base as usize);
        let at = |v: usize| base + v * nq + q;
        let (mut l, mut r) = (p.lo as usize + size, p.hi as usize + size);
        let (mut a, mut b) = (l >> 1, (r - 1) >> 1);
        while l < r {
            if l & 1 == 1 {
                self.tag[at(l)] = value;
                self.sub[at(l)] = value;
                l += 1;
            }
            if r & 1 == 1 {
                r -= 1;
                self.tag[at(r)] = value;
                self.sub[at(r)] = value;
            }
            l >>= 1;
            r >>= 1;
        }
        // Every ancestor of the cover contains an end leaf, which now holds `value`.
        while a != b {
            self.sub[at(a)] = value;
            self.sub[at(b)] = value;
            a >>= 1;
            b >>= 1;
        }
        while a >= 1 {
            self.sub[at(a)] = value;
            a >>= 1;
        }
    }
}

/// Step 1's index (module docs): every item's parts, and the writer and reader trees.
struct Index {
    /// The parts of item `j`'s reads are `parts[off[2j]..off[2j + 1]]`, of its writes
    /// `parts[off[2j + 1]..off[2j + 2]]`.
    parts: Vec<Part>,
    off: Vec<u32>,
    writers: Trees,
    readers: Trees,
}

impl Index {
    /// Builds the index of a program after checking [`MAX_INDEX_ENTRIES`] and
    /// [`MAX_INDEX_CELLS`].
    fn of(lay: &Layout) -> Result<Index, SyncError> {
        let (n, nq) = (lay.qid.len(), lay.queues.len());
        let bands = Bands::of(&lay.regions);
        let nbands = Bands::count(&bands.sbuf) + Bands::count(&bands.psum) + bands.tensors.len();
        let consumers = nq.saturating_sub(1).max(1);
        // The cells of every item's reads then writes; `cell_off` as `Index::off`.
        let mut cells: Vec<Cells> = Vec::new();
        let mut cell_off: Vec<u32> = Vec::with_capacity(2 * n + 1);
        cell_off.push(0);
        let mut written = vec![false; nbands];
        let mut entries = 0usize;
        for j in 0..n {
            for (side, rs) in lay.sides(j) {
                for c in rs.iter().filter_map(|r| bands.cells(r)) {
                    let n = (c.bands.1 - c.bands.0) as usize;
                    entries = entries.saturating_add(n.saturating_mul(consumers));
                    if entries > MAX_INDEX_ENTRIES {
                        return Err(SyncError::TooManyIndexEntries {
                            entries,
                            sbuf_bands: Bands::count(&bands.sbuf),
                            psum_bands: Bands::count(&bands.psum),
                        });
                    }
                    if side {
                        written[c.bands.0 as usize..c.bands.1 as usize].fill(true);
                    }
                    cells.push(c);
                }
                // At most MAX_INDEX_ENTRIES cells: the offsets fit.
                cell_off.push(cells.len() as u32);
            }
        }
        // The byte boundaries of each written band (a region of a band no queue writes meets
        // no hazard there): bucketed by band, then sorted and deduplicated in place.
        let mut start = vec![0usize; nbands + 1];
        for c in &cells {
            for band in c.bands.0..c.bands.1 {
                if written[band as usize] {
                    start[band as usize + 1] += 2;
                }
            }
        }
        for b in 0..nbands {
            start[b + 1] += start[b];
        }
        let mut coords = vec![0u64; start[nbands]];
        let mut fill = start.clone();
        for c in &cells {
            for band in c.bands.0..c.bands.1 {
                let b = band as usize;
                if written[b] {
                    coords[fill[b]] = c.bytes.0;
                    coords[fill[b] + 1] = c.bytes.1;
                    fill[b] += 2;
                }
            }
        }
        // After compaction band b's boundaries are coords[first[b]..first[b + 1]].
        let mut first = vec![0usize; nbands + 1];
        let mut kept = 0;
        for b in 0..nbands {
            let s = &mut coords[start[b]..start[b + 1]];
            s.sort_unstable();
            let mut len = 0;
            for k in 0..s.len() {
                if len == 0 || s[k] != s[len - 1] {
                    s[len] = s[k];
                    len += 1;
                }
            }
            coords.copy_within(start[b]..start[b] + len, kept);
            first[b] = kept;
            kept += len;
        }
        first[nbands] = kept;
        // The trees of each written band: its segments padded to a power of two, two nodes a
        // leaf, one lane a queue.
        let mut tree = vec![(0u32, 0u32); nbands];
        let mut lanes = 0usize;
        for b in 0..nbands {
            let bounds = first[b + 1] - first[b];
            if bounds < 2 {
                continue;
            }
            let size = (bounds - 1).next_power_of_two();
            tree[b] = (lanes as u32, size as u32);
            lanes = lanes.saturating_add((2 * size).saturating_mul(nq));
            if lanes > MAX_INDEX_CELLS {
                return Err(SyncError::IndexTooLarge {
                    cells: lanes,
                    band: b,
                    segments: bounds - 1,
                });
            }
        }
        let mut parts = Vec::with_capacity(cells.len());
        let mut off = Vec::with_capacity(cell_off.len());
        off.push(0);
        for w in cell_off.windows(2) {
            for c in &cells[w[0] as usize..w[1] as usize] {
                for band in c.bands.0..c.bands.1 {
                    let b = band as usize;
                    if !written[b] {
                        continue;
                    }
                    let bounds = &coords[first[b]..first[b + 1]];
                    // Both ends are boundaries of the band (collected above): exact positions.
                    let at = |x: u64| bounds.partition_point(|&y| y < x) as u32;
                    parts.push(Part {
                        base: tree[b].0,
                        size: tree[b].1,
                        lo: at(c.bytes.0),
                        hi: at(c.bytes.1),
                    });
                }
            }
            off.push(parts.len() as u32);
        }
        Ok(Index {
            parts,
            off,
            writers: Trees::new(lanes),
            readers: Trees::new(lanes),
        })
    }

    /// The parts of item `j`'s reads and writes.
    fn sides(&self, j: usize) -> (Range<usize>, Range<usize>) {
        let o = |k: usize| self.off[k] as usize;
        (o(2 * j)..o(2 * j + 1), o(2 * j + 1)..o(2 * j + 2))
    }
}

/// Steps 1 and 2: the hazard graph, and for each item the producers it must wait for (at most
/// one per other queue, in program order): item `j`'s are `targets[at[j]..at[j + 1]]`.
fn reduce(items: &[Item], lay: &Layout) -> Result<(HazardGraph, Targets), SyncError> {
    let (n, nq) = (items.len(), lay.queues.len());
    let (qid, pos) = (&lay.qid, &lay.pos);
    let mut index = Index::of(lay)?;
    let mut hazards: HazardGraph = DiGraph::with_capacity(n, n);
    for k in 0..n {
        hazards.add_node(k);
    }
    // completed[j * nq + q]: how many items of queue q are known complete once j completes
    // (n * nq is bounded by MAX_CLOCK_CELLS, and nq <= n).
    let mut completed = vec![0u32; n * nq];
    // The clock of the last item of each queue (what its next item starts with).
    let mut tail = vec![0u32; nq * nq];
    let mut targets = Targets {
        list: Vec::with_capacity(n),
        at: Vec::with_capacity(n + 1),
    };
    targets.at.push(0);
    // Per queue, the latest item (+1) found by each scan kind: RAW, WAR, WAW.
    let (mut raw, mut war, mut waw) = (vec![0u32; nq], vec![0u32; nq], vec![0u32; nq]);
    // The current item's clock and needed producers (reused: no allocation per item).
    let (mut clock, mut needed): (Vec<u32>, Vec<usize>) = (Vec::new(), Vec::new());

    for j in 0..n {
        let qj = qid[j];
        let (reads, writes) = index.sides(j);
        clock.clear();
        clock.extend_from_slice(&tail[qj * nq..(qj + 1) * nq]);
        raw.fill(0);
        war.fill(0);
        waw.fill(0);
        for &p in &index.parts[reads.clone()] {
            index.writers.query(p, nq, &mut raw);
        }
        for &p in &index.parts[writes.clone()] {
            index.readers.query(p, nq, &mut war);
            index.writers.query(p, nq, &mut waw);
        }
        needed.clear();
        for p in (0..nq).filter(|&p| p != qj) {
            let top = raw[p].max(war[p]).max(waw[p]);
            if top == 0 {
                continue;
            }
            let i = top as usize - 1;
            // Already ordered by j's queue (program order and its earlier waits): no hazard
            // left to order, and no edge.
            if clock[p] >= pos[i] {
                continue;
            }
            let h = Hazards {
                raw: raw[p] == top,
                war: war[p] == top,
                waw: waw[p] == top,
            };
            hazards.add_edge(NodeIndex::new(i), NodeIndex::new(j), h);
            needed.push(i);
        }

        // Keep a producer unless another needed producer is known to complete after it. Known
        // completion is a strict partial order, so of two producers at most one drops the other.
        let from = targets.list.len();
        for &t in &needed {
            let dropped = needed
                .iter()
                .any(|&o| o != t && completed[o * nq + qid[t]] >= pos[t]);
            if !dropped {
                targets.list.push(t);
            }
        }
        let kept = &mut targets.list[from..];
        kept.sort_unstable();
        for &t in kept.iter() {
            max_into(&mut clock, &completed[t * nq..(t + 1) * nq]);
        }
        clock[qj] = pos[j];
        completed[j * nq..(j + 1) * nq].copy_from_slice(&clock);
        tail[qj * nq..(qj + 1) * nq].copy_from_slice(&clock);
        targets.at.push(targets.list.len() as u32);

        // j becomes its queue's latest writer / reader of its regions (after its own scans).
        // At most MAX_CLOCK_CELLS items: the value fits.
        let value = j as u32 + 1;
        for k in reads {
            let p = index.parts[k];
            index.readers.assign(p, nq, qj, value);
        }
        for k in writes {
            let p = index.parts[k];
            index.writers.assign(p, nq, qj, value);
        }
    }
    Ok((hazards, targets))
}

/// Each item's producers to wait for, in program order: item `j`'s are
/// `list[at[j]..at[j + 1]]`.
struct Targets {
    list: Vec<usize>,
    at: Vec<u32>,
}

impl Targets {
    fn of(&self, j: usize) -> &[usize] {
        &self.list[self.at[j] as usize..self.at[j + 1] as usize]
    }
}

/// Step 3's result: who signals, the semaphores, and each item's waits.
struct Semaphores {
    /// Whether each item is waited on (and so increments its queue's semaphore).
    signals: Vec<bool>,
    /// The semaphore of each queue id, if it has one.
    sem_of: Vec<Option<u8>>,
    /// The semaphores, in allocation order.
    list: Vec<Semaphore>,
    /// Each item's waits: (producer, wait), producers in program order; item `j`'s are
    /// `waits[at[j]..at[j + 1]]` with the offsets of its [`Targets`].
    waits: Vec<(usize, SyncWait)>,
}

/// Step 3: ranks the signallers of each queue and gives each producer queue waited on one
/// semaphore, in order of first need.
fn allocate(lay: &Layout, targets: &Targets, opts: &SyncOptions) -> Result<Semaphores, SyncError> {
    let (n, nq) = (lay.qid.len(), lay.queues.len());
    let mut signals = vec![false; n];
    for t in &targets.list {
        signals[*t] = true;
    }
    let mut rank = vec![0u32; n];
    let mut count = vec![0u32; nq];
    for j in 0..n {
        if signals[j] {
            let q = lay.qid[j];
            if count[q] >= opts.max_count {
                return Err(SyncError::CountOverflow {
                    queue: lay.queues[q],
                    item: j,
                    limit: opts.max_count,
                });
            }
            count[q] += 1;
            rank[j] = count[q];
        }
    }
    let mut sem_of: Vec<Option<u8>> = vec![None; nq];
    let mut list: Vec<Semaphore> = Vec::new();
    let mut waits: Vec<(usize, SyncWait)> = Vec::with_capacity(targets.list.len());
    for j in 0..n {
        for &t in targets.of(j) {
            let q = lay.qid[t];
            let sem = match sem_of[q] {
                Some(sem) => sem,
                None => {
                    let k = list.len();
                    if k >= opts.max_semaphores as usize {
                        return Err(SyncError::SemaphoresExhausted {
                            queue: lay.queues[q],
                            consumer: j,
                            producer: t,
                            first: opts.first_semaphore,
                            max: opts.max_semaphores,
                        });
                    }
                    // first + k < first + max <= 256, checked by assign_sync.
                    let sem = (opts.first_semaphore as usize + k) as u8;
                    sem_of[q] = Some(sem);
                    list.push(Semaphore {
                        queue: lay.queues[q],
                        sem,
                        signals: count[q],
                    });
                    sem
                }
            };
            let wait = SyncWait {
                mode: BirWaitMode::SemGeImm,
                sem,
                value: rank[t],
            };
            waits.push((t, wait));
        }
    }
    Ok(Semaphores {
        signals,
        sem_of,
        list,
        waits,
    })
}

/// Stamps `sync` (an input item's [`SyncItem::Item::sync`]) on `inst`: into its band, or for
/// an EventSemaphore (whose encoder takes waits and update as op fields and refuses
/// instruction sync) into its `wait0` / `update` fields,
/// which `assign_sync` checked are free.
pub fn stamp(inst: &mut Instruction, sync: SyncInfo) {
    match &mut inst.op {
        Op::EventSemaphore(e) => {
            e.wait0 = sync.wait;
            e.update = sync.update;
        }
        _ => inst.sync = sync,
    }
}

/// Whether an op's last bundle has no sync band to carry an update (its encoder refuses one:
/// `EncodeError::MatmulSyncUpdate`, the MATMUL bundle of Matmul and MatmulMx).
fn no_update_band(op: &Op) -> bool {
    matches!(op, Op::Matmul(_) | Op::MatmulMx(_))
}

/// Step 4: the output program, barriers included, and the graph of the waits.
fn emit(
    items: &[Item],
    lay: &Layout,
    hazards: HazardGraph,
    targets: &Targets,
    sems: &Semaphores,
) -> SyncPlan {
    let n = items.len();
    let mut waits: DiGraph<usize, SyncWait> = DiGraph::with_capacity(n, sems.waits.len());
    for k in 0..n {
        waits.add_node(k);
    }
    let mut out = Vec::with_capacity(n);
    let mut slots = Vec::with_capacity(n);
    let mut barriers = 0;
    for (j, it) in items.iter().enumerate() {
        let list = &sems.waits[targets.at[j] as usize..targets.at[j + 1] as usize];
        // From the layout: the item itself is only read for its instruction.
        let queue = lay.queues[lay.qid[j]];
        for &(t, wait) in list {
            waits.add_edge(NodeIndex::new(t), NodeIndex::new(j), wait);
        }
        // The latest producer's wait stays inline; the others become barriers, in order.
        let (inline, before) = match list.split_last() {
            Some((&last, rest)) => (Some(last), rest),
            None => (None, &[][..]),
        };
        for &(t, wait) in before {
            barriers += 1;
            out.push(SyncItem::Barrier {
                queue,
                wait,
                waits_for: t,
                consumer: j,
            });
        }
        // A signaller's queue always has a semaphore: someone waits on it.
        let update = match (sems.signals[j], sems.sem_of[lay.qid[j]]) {
            (true, Some(sem)) => Some(SyncUpdate {
                mode: BirUpdateMode::SemInc,
                sem,
                // Inc carries no operand (the dword stays the wait's); 0 is what lifting reads.
                value: 0,
            }),
            _ => None,
        };
        // An instruction whose last bundle has no sync band signals through a standalone
        // update right after it instead.
        let separate = update.is_some() && it.inst.is_some_and(|i| no_update_band(&i.op));
        let sync = SyncInfo {
            wait: inline.map(|(_, w)| w),
            update: if separate { None } else { update },
        };
        slots.push(out.len());
        out.push(SyncItem::Item {
            index: j,
            queue,
            sync,
            waits_for: inline.map(|(t, _)| t),
        });
        if let (true, Some(update)) = (separate, update) {
            out.push(SyncItem::Signal {
                queue,
                update,
                signaller: j,
            });
        }
    }
    SyncPlan {
        hazards,
        waits,
        items: out,
        semaphores: sems.list.clone(),
        slots,
        barriers,
    }
}
