//! `sundial-allocate`: on-chip memory allocation and HBM tensor identities.
//!
//! Every SBUF and PSUM `nisa.alloc` of a kernel gets a home partition and a byte offset inside
//! the partition, written on it as `sundial.partition` and `sundial.offset` (both `i64`); every
//! HBM `nisa.alloc` (a kernel-local DRAM tensor) gets `sundial.tensor`, its HBM tensor number,
//! counted after the kernel's arguments (argument `k` is tensor `k`). Selection reads these to
//! build physical access patterns, and a DMA names an HBM tensor by (tensor number, byte
//! offset).
//!
//! # Live ranges
//!
//! Data flows through memory, so a tile's live range comes from the memory def-use and alias
//! analysis of the kernel's entry block (`sundial_passes::memory::BlockAccesses`, the accesses of
//! `sundial_passes::memory::MemoryGraph` without its dependency edges): it spans the
//! first to the last op that reads or writes any part of the tile, directly or through a
//! `nisa.ap` view of it (an op whose regions use the tile counts as touching all of it, for
//! its whole extent). A tile allocated inside a nested block (a loop body that reached this
//! pass un-unrolled) is live for the whole of the entry-block op that contains it. A tile
//! nothing touches takes no space at any point. Two tiles interfere when their ranges share an
//! op (an op that reads one and writes the other needs both at once): the ranges are the
//! intervals of an interval graph, and tiles that do not interfere may share bytes.
//!
//! # Placement
//!
//! Per memory space, tiles are placed in order of the start of their live range (larger first
//! on ties) at the lowest offset that is aligned, fits the space and overlaps no interfering
//! tile placed before (first fit on the interval graph, which visits each tile's interfering
//! neighbours only: those still live when it starts).
//!
//! - Alignment: the largest element size among the tile's dtype and the dtypes of its views
//!   (a start address is aligned to its dtype, bundle-layouts §1d).
//! - Home partition: 0 for every tile, which spans partitions `0..P`. Tiles share partitions
//!   and pack along the byte axis only: the engines' partition-start rules (quadrants, 16- and
//!   32-partition groups) are not modelled here, and partition 0 satisfies all of them.
//! - Capacity per partition: the target's `sbuf_active_bytes` and `psum_active_bytes`
//!   (`sundial_codegen::arch`).
//! - PSUM banks (`psum_bank_bytes` of the target): a tile that fits in a bank never straddles
//!   two (a matmul accumulates within one bank); a larger tile starts on a bank boundary.
//!
//! A tile that does not fit is an error at its `nisa.alloc` naming the tile, its size and the
//! peak demand (the most bytes per partition that simultaneously live tiles of the space need,
//! a lower bound of any placement), with the capacity.

use crate::ir::{each_function, int_attr, set_attr};
use melior::{
    ir::{
        BlockLike, RegionLike, Value, ValueLike,
        attribute::AttributeLike,
        operation::{OperationLike, OperationRef},
    },
    pass::ExternalPass,
};
use sundial_codegen::arch::ArchModel;
use sundial_dialects::view::FastMap;
use sundial_dialects::{
    build::Attrs,
    enums::{Space, Target},
    tile::{NUM_PARTITIONS, Tile},
};
use sundial_passes::{
    memory::BlockAccesses,
    registry::{OptionKind, PassInfo, PassOption, PassOptions},
    rewrite::{collect, op_is, refuse, users},
    step::{PassId, Step, create},
};

/// The attribute holding a tile's home partition.
pub const PARTITION_ATTR: &str = "sundial.partition";
/// The attribute holding a tile's byte offset inside its partition.
pub const OFFSET_ATTR: &str = "sundial.offset";
/// The attribute holding a kernel-local HBM tensor's number.
pub const TENSOR_ATTR: &str = "sundial.tensor";
/// Everything the pass changes in the IR: these discardable attributes on `nisa.alloc` ops,
/// which neither verifier reads (so a verified kernel stays verified; tested in
/// `tests/mlir/` by verifying kernels with and without them).
pub const ANNOTATIONS: &[&str] = &[PARTITION_ATTR, OFFSET_ATTR, TENSOR_ATTR];

static ALLOCATE_PASS_ID: PassId = PassId::new();

/// The registry entry.
pub static INFO: PassInfo = PassInfo {
    name: "sundial-allocate",
    summary: "Assign SBUF/PSUM tiles a home partition and byte offset; number HBM tensors",
    description: "Places every SBUF and PSUM nisa.alloc (sundial.partition, sundial.offset) by first fit on the interval graph of the tiles' live ranges (from the memory alias analysis), with per-dtype alignment, the target's SBUF/PSUM sizes and PSUM banks; numbers kernel-local HBM tensors after the kernel arguments (sundial.tensor). A tile that does not fit is an error naming it, its size and the peak demand.",
    options: &[PassOption {
        name: "target",
        kind: OptionKind::Enum(&Target::NAMES),
        default: "",
        help: "Target whose memory sizes apply (default: the module's sundial.target)",
    }],
    create: create::<AllocatePass>,
};

#[derive(Clone, Debug)]
struct AllocatePass {
    target: Option<Target>,
}

impl Step for AllocatePass {
    const FLAG: &'static str = INFO.name;
    const SUMMARY: &'static str = INFO.summary;
    const CLASS: &'static str = "SundialAllocate";
    const ID: &'static PassId = &ALLOCATE_PASS_ID;

    fn new(options: &PassOptions) -> Self {
        AllocatePass {
            target: options.get("target").and_then(Target::from_name),
        }
    }

    fn step(&mut self, operation: OperationRef<'_, '_>, pass: ExternalPass<'_>) -> bool {
        each_function(&operation, self.target, INFO.name, pass, |func, target| {
            allocate_function(func, target.model())
        })
    }
}

/// One tile to place in a memory space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Bytes per partition.
    pub bytes: u64,
    /// Required alignment of the offset (a power of two).
    pub align: u64,
    /// The first and last op position (inclusive) at which the tile is live; `None` when
    /// nothing touches it.
    pub live: Option<(usize, usize)>,
}

/// Why a placement failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutOfMemory {
    /// The request that did not fit (index into the requests).
    pub index: usize,
    /// The most bytes per partition that simultaneously live requests need.
    pub peak: u64,
    /// The space's capacity per partition.
    pub capacity: u64,
}

/// The geometry of one memory space of a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpaceModel {
    /// Usable bytes per partition.
    pub capacity: u64,
    /// Bank size in bytes (a tile of at most this size stays inside one bank), if banked.
    pub bank: Option<u64>,
}

impl SpaceModel {
    /// The model of `space` on `arch` (`None` for HBM, which is not placed here).
    pub fn of(space: Space, arch: &ArchModel) -> Option<SpaceModel> {
        match space {
            Space::Sbuf => Some(SpaceModel {
                capacity: arch.sbuf_active_bytes as u64,
                bank: None,
            }),
            Space::Psum => Some(SpaceModel {
                capacity: arch.psum_active_bytes as u64,
                bank: Some(arch.psum_bank_bytes as u64),
            }),
            Space::Hbm => None,
        }
    }

    /// The lowest start at or after `at` that is aligned to `align` and keeps a tile of
    /// `bytes` inside one bank (or, past a bank's size, starts on a bank boundary).
    fn legal_start(&self, at: u64, bytes: u64, align: u64) -> u64 {
        let start = at.next_multiple_of(align.max(1));
        match self.bank {
            Some(bank) if bytes > bank => start.next_multiple_of(bank),
            Some(bank) if bytes > 0 && start / bank != (start + bytes - 1) / bank => {
                (start / bank + 1) * bank
            }
            _ => start,
        }
    }
}

/// The most bytes per partition that simultaneously live requests need.
pub fn peak_demand(requests: &[Request]) -> u64 {
    let mut events: Vec<(usize, bool, u64)> = Vec::new();
    for r in requests {
        if let Some((start, end)) = r.live {
            events.push((start, true, r.bytes));
            events.push((end + 1, false, r.bytes));
        }
    }
    // At one position, ranges that end before it leave before those that start there arrive.
    events.sort_by_key(|&(at, arrives, _)| (at, arrives));
    let (mut now, mut peak) = (0u64, 0u64);
    for (_, arrives, bytes) in events {
        if arrives {
            now += bytes;
            peak = peak.max(now);
        } else {
            now -= bytes;
        }
    }
    peak
}

/// Places `requests` in one space: the offset of each, or the first that does not fit.
pub fn place(requests: &[Request], space: SpaceModel) -> Result<Vec<u64>, OutOfMemory> {
    let mut order: Vec<usize> = (0..requests.len()).collect();
    // By start of the live range, larger first on ties, then input order; dead tiles last.
    order.sort_by_key(|&i| {
        let r = &requests[i];
        (
            r.live.map_or(usize::MAX, |l| l.0),
            std::cmp::Reverse(r.bytes),
            i,
        )
    });
    let mut offsets = vec![0u64; requests.len()];
    // Placed tiles whose range may still meet a later one: (end, offset, bytes).
    let mut active: Vec<(usize, u64, u64)> = Vec::new();
    let oom = |index| OutOfMemory {
        index,
        peak: peak_demand(requests),
        capacity: space.capacity,
    };
    for i in order {
        let r = &requests[i];
        if r.bytes > space.capacity {
            return Err(oom(i));
        }
        let Some((start, end)) = r.live else {
            // Nothing touches the tile: any aligned start is as good, and it meets nobody.
            offsets[i] = 0;
            continue;
        };
        // The tiles still live when this one starts are exactly its interfering neighbours
        // (every placed tile started no later).
        active.retain(|&(e, _, _)| e >= start);
        let mut taken: Vec<(u64, u64)> = active.iter().map(|&(_, o, b)| (o, o + b)).collect();
        taken.sort_unstable();
        let mut at = space.legal_start(0, r.bytes, r.align);
        for &(lo, hi) in &taken {
            if lo < at + r.bytes && at < hi {
                at = space.legal_start(hi, r.bytes, r.align);
            }
        }
        if at + r.bytes > space.capacity {
            return Err(oom(i));
        }
        offsets[i] = at;
        active.push((end, at, r.bytes));
    }
    Ok(offsets)
}

/// The alignment of the tile `value`: the largest element size of its dtype and of the dtypes
/// of the `nisa.ap` views of it.
fn alignment(value: Value<'_, '_>, tile: &Tile) -> u64 {
    let mut align = tile.dtype.byte_size().max(1);
    for user in users(value) {
        if op_is(&user, "nisa.ap")
            && let Ok(r) = user.result(0)
            && let Ok(view) = Tile::from_type(r.r#type())
        {
            align = align.max(view.dtype.byte_size());
        }
    }
    align.next_power_of_two()
}

/// The human name of an alloc: its `name` attribute, else its position among the kernel's
/// allocations.
fn tile_name(op: &OperationRef<'_, '_>, index: usize) -> String {
    match op.attribute("name") {
        Ok(a) if a.is_string() => format!("\"{}\"", sundial_dialects::ffi::string_attr_value(a)),
        _ => format!("#{index} (unnamed)"),
    }
}

/// An on-chip alloc waiting for its placement.
struct Pending<'c, 'a> {
    op: OperationRef<'c, 'a>,
    /// Its position among the function's allocs (for an unnamed tile's name).
    index: usize,
    tile: Tile,
    request: Request,
}

/// Allocates the tiles of one function; emits an error at each problem and returns whether
/// everything was placed.
fn allocate_function(func: OperationRef<'_, '_>, arch: &ArchModel) -> bool {
    let Some(block) = func.region(0).ok().and_then(|r| r.first_block()) else {
        // A declaration has nothing to allocate.
        return true;
    };
    let mut ok = true;
    let arguments = block.argument_count();
    for index in 0..arguments {
        let Ok(arg) = block.argument(index) else {
            continue;
        };
        let value: Value = arg.into();
        match Tile::from_type(value.r#type()) {
            Ok(t) if t.space == Space::Hbm => {}
            Ok(t) => {
                refuse(
                    &func,
                    format!(
                        "kernel argument #{index} is a {} tile: kernel arguments are HBM tensors, on-chip tiles are nisa.alloc results (rule: kernel arguments)",
                        t.space
                    ),
                );
                ok = false;
            }
            Err(_) => {
                refuse(
                    &func,
                    format!(
                        "kernel argument #{index} is not a tile: kernel arguments are HBM tensors (rule: kernel arguments)"
                    ),
                );
                ok = false;
            }
        }
    }
    let accesses = BlockAccesses::build(block);
    let mut live: Vec<Option<(usize, usize)>> = vec![None; accesses.buffers().len()];
    for node in accesses.nodes() {
        for access in node.reads.iter().chain(&node.writes) {
            let slot = &mut live[access.place.buffer];
            *slot = Some(match *slot {
                None => (node.position, node.position),
                Some((a, b)) => (a.min(node.position), b.max(node.position)),
            });
        }
    }
    let mut position: FastMap<usize, usize> = FastMap::default();
    let mut cursor = block.first_operation();
    let mut p = 0usize;
    while let Some(op) = cursor {
        position.insert(op.to_raw().ptr as usize, p);
        p += 1;
        cursor = op.next_in_block();
    }
    let entry = block.to_raw().ptr;
    // The entry-block op that contains `op`.
    let outer_position = |op: &OperationRef<'_, '_>| -> Option<usize> {
        let mut raw = op.to_raw();
        for _ in 0..10_000 {
            let parent_block = unsafe { mlir_sys::mlirOperationGetBlock(raw) };
            if parent_block.ptr == entry {
                return position.get(&(raw.ptr as usize)).copied();
            }
            raw = unsafe { mlir_sys::mlirOperationGetParentOperation(raw) };
            if raw.ptr.is_null() {
                return None;
            }
        }
        None
    };

    let attrs = Attrs::new(func.context());
    let allocs = collect(&func, |op| op_is(op, "nisa.alloc"));
    let mut next_tensor = arguments as i64;
    // Per on-chip space: the tiles to place there.
    let mut by_space: Vec<(Space, Vec<Pending>)> =
        vec![(Space::Sbuf, Vec::new()), (Space::Psum, Vec::new())];
    for (index, alloc) in allocs.iter().enumerate() {
        let Ok(result) = alloc.result(0) else {
            continue;
        };
        let value: Value = result.into();
        let tile = match Tile::from_type(value.r#type()) {
            Ok(t) => t,
            Err(msg) => {
                refuse(alloc, msg);
                ok = false;
                continue;
            }
        };
        if tile.space == Space::Hbm {
            set_attr(alloc, TENSOR_ATTR, attrs.i64(next_tensor));
            next_tensor += 1;
            continue;
        }
        if tile.partitions() > NUM_PARTITIONS {
            refuse(
                alloc,
                format!(
                    "tile {} has {} partitions: allocation places tiled tiles of at most {NUM_PARTITIONS} partitions (run the middle end's partition tiling first) (rule: partitions <= {NUM_PARTITIONS})",
                    tile_name(alloc, index),
                    tile.partitions()
                ),
            );
            ok = false;
            continue;
        }
        let Some(bytes) = tile.free_bytes().and_then(|b| u64::try_from(b).ok()) else {
            refuse(alloc, "tile size overflows");
            ok = false;
            continue;
        };
        let nested = unsafe { mlir_sys::mlirOperationGetBlock(alloc.to_raw()) }.ptr != entry;
        let range = if nested {
            outer_position(alloc).map(|p| (p, p))
        } else {
            accesses.place(value).and_then(|p| live[p.buffer])
        };
        let request = Request {
            bytes,
            align: alignment(value, &tile),
            live: range,
        };
        if let Some((_, list)) = by_space.iter_mut().find(|(s, _)| *s == tile.space) {
            list.push(Pending {
                op: *alloc,
                index,
                tile,
                request,
            });
        }
    }
    for (space, tiles) in &by_space {
        let Some(model) = SpaceModel::of(*space, arch) else {
            continue;
        };
        let requests: Vec<Request> = tiles.iter().map(|t| t.request.clone()).collect();
        match place(&requests, model) {
            Ok(offsets) => {
                for (t, offset) in tiles.iter().zip(offsets) {
                    set_attr(&t.op, PARTITION_ATTR, attrs.i64(0));
                    set_attr(&t.op, OFFSET_ATTR, attrs.i64(offset as i64));
                }
            }
            Err(oom) => {
                let Pending {
                    op,
                    index,
                    tile,
                    request,
                } = &tiles[oom.index];
                refuse(
                    op,
                    format!(
                        "tile {} ({}x{} in {}: {} bytes per partition) does not fit: {} has {} bytes per partition on {}, and the peak demand of simultaneously live {} tiles is {} bytes per partition (rule: out of memory)",
                        tile_name(op, *index),
                        tile.shape_str(),
                        tile.dtype.mlir_name(),
                        space,
                        request.bytes,
                        space.as_str().to_uppercase(),
                        oom.capacity,
                        arch.target,
                        space.as_str().to_uppercase(),
                        oom.peak
                    ),
                );
                ok = false;
            }
        }
    }
    ok
}

/// The placement `sundial-allocate` wrote on an alloc: (home partition, byte offset), or the
/// HBM tensor number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placed {
    /// An SBUF/PSUM tile.
    OnChip {
        /// Home partition.
        partition: i64,
        /// Byte offset inside the partition.
        offset: i64,
    },
    /// A kernel-local HBM tensor.
    Hbm {
        /// Its tensor number.
        tensor: i64,
    },
}

/// What `sundial-allocate` wrote on `alloc`, if it ran.
pub fn placed(alloc: &OperationRef<'_, '_>) -> Option<Placed> {
    if let Some(tensor) = int_attr(alloc, TENSOR_ATTR) {
        return Some(Placed::Hbm { tensor });
    }
    Some(Placed::OnChip {
        partition: int_attr(alloc, PARTITION_ATTR)?,
        offset: int_attr(alloc, OFFSET_ATTR)?,
    })
}
