//! The machine state of a run and the view of one op that a handler gets.
//!
//! [`Machine`] owns the emulator's memories (one per rank, in a [`RankGroup`]), the engine
//! state of every rank ([`Core`]: the Vector/Scalar [`Accumulators`], the [`RngState`], the
//! [`Registers`], kept across ops as the hardware keeps them across instructions) and the value
//! of every SSA value executed so far on each rank ([`RtValue`]: a tile, an indirect access
//! pattern, a register or an index; for a view, also the [`Chain`] it was made by). It also
//! keeps what loops and launch grids need: the tile of every `nisa.alloc` that ran (reused
//! when it runs again), the grid and the program being run, and the loop iterations run so
//! far against [`RunConfig::max_loop_iterations`]. On a launch grid each program is a
//! NeuronCore of its own: [`Machine::switch_program`] puts the running program's engine
//! state, values and private memory (SBUF, PSUM, its HBM tensors but `shared_hbm` ones) aside
//! and another's in, each allocation's contents switched in O(1)
//! (`sundial_emu::Memory::swap_contents`).
//! [`Exec`] is one op on one rank seen through its NISA table row, as
//! the verifier's `OpView` sees it: operands by group name, attributes by name with the
//! table's defaults filled in, results to set, and errors that carry the op's position.
//! Handlers (`super::ops`) read everything through it, so a handler is "read the operands and
//! attributes, call the emulator".
//!
//! Ranks: a run has one rank unless [`RunConfig::ranks`] asks for more (`--ranks N`). Every
//! rank executes every op (SPMD: one kernel, N cores), so the allocations of all ranks stay
//! in step and one [`View`] names the same tile on every rank, which is what the emulator's
//! collectives take.

use std::collections::HashMap;

use melior::ir::{
    Attribute, ValueLike,
    attribute::AttributeLike,
    operation::{OperationLike, OperationRef},
};
use sundial_dialects::fold::{Base, ViewStep};
use sundial_dialects::{
    enums::Engine,
    ffi::{FileLineCol, file_line_col, op_name, string_attr_value},
    spec::{AttrKind, OpSpec, Presence},
    tile::Tile,
    verify::{float_value, i64_array_list, i64_array_value, int_value_checked},
    view::operand_groups,
};
use sundial_emu::fused::{Fusion, Pushed, RowOp};
use sundial_emu::{
    Access, Accumulators, AllocId, Contents, DmaOperand, Memory, MxScaleRule, Number, OobMode,
    RankGroup, RegisterId, Registers, RngState, View,
};

use super::RunError;

/// The value of an SSA value during a run.
#[derive(Clone, Debug)]
pub enum RtValue {
    /// A tile: a whole allocation (`nisa.alloc`, a function argument) or a static access
    /// pattern on one (`nisa.ap` without offsets).
    Tile(View),
    /// An indirect access pattern (`nisa.ap` with `vector_offset` or `scalar_offset`).
    Access(Access),
    /// A sequencer register (`!nisa.reg`): a register of the rank's [`Registers`].
    Reg(RegisterId),
    /// An `index` or integer value (loop bounds and induction variables, `arith` results,
    /// program ids, `nisa.register_index`): the value sign-extended from its type's width
    /// (an `i1` is 0 or -1).
    Index(i64),
    /// A float value of `arith` (f16, bf16, f32 or f64), exactly: already rounded to its
    /// type.
    Float(f64),
}

/// How a view value was made: the allocation it addresses (an argument or a `nisa.alloc`)
/// and the chain of views from it, each access pattern's dynamic offset already added in.
/// Every view op folds the whole chain with `sundial_dialects::fold::fold`, the one folding
/// function the verifier and selection use.
#[derive(Clone, Debug)]
pub struct Chain {
    /// The allocation's view (the whole tile or tensor).
    pub root: View,
    /// The allocation as the fold sees it.
    pub base: Base,
    /// The views from the allocation, in order.
    pub steps: Vec<ViewStep>,
}

/// A DMA operand read from an op: a tile or an indirect access pattern, owned.
#[derive(Clone, Debug)]
pub enum Operand {
    /// Every element of a view, row-major.
    View(View),
    /// The points of an access pattern.
    Access(Access),
}

impl Operand {
    /// The operand as the emulator's DMA operand.
    pub fn as_dma(&self) -> DmaOperand<'_> {
        match self {
            Operand::View(v) => DmaOperand::View(v),
            Operand::Access(a) => DmaOperand::Access(a),
        }
    }
}

/// Total bytes of HBM tensors (arguments and `nisa.alloc` in `"hbm"`, over all ranks) one run
/// may allocate: 1 GiB, a bound on what a kernel given on the command line makes this process
/// allocate.
pub const MAX_HBM_BYTES: usize = 1 << 30;

/// What a run is set up with beyond the kernel and its inputs (the command line's choices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunConfig {
    /// The target whose geometry and rules are emulated.
    pub target: sundial_emu::Target,
    /// `None`: one core, and collectives are refused; `Some(n)`: `n` ranks run the kernel
    /// (SPMD) and collectives run over them.
    pub ranks: Option<usize>,
    /// The emulator's uninitialised-read check (`Memory::set_check_uninit`), on by default.
    pub check_uninit: bool,
    /// How `quantize_mx` derives its block scales (the public sources disagree).
    pub mx_scale_rule: MxScaleRule,
    /// Loop iterations the run may execute (`--max-loop-iterations`; default
    /// [`MAX_LOOP_ITERATIONS`]): every loop is checked against it before its first iteration.
    pub max_loop_iterations: u64,
}

impl RunConfig {
    /// The defaults for `target`: one core, the uninitialised-read check on, the public golden
    /// code's MX scale rule.
    pub fn new(target: sundial_emu::Target) -> RunConfig {
        RunConfig {
            target,
            ranks: None,
            check_uninit: true,
            mx_scale_rule: MxScaleRule::GoldenEmax,
            max_loop_iterations: MAX_LOOP_ITERATIONS,
        }
    }

    /// The number of ranks that run (1 without `ranks`).
    pub fn rank_count(&self) -> usize {
        self.ranks.unwrap_or(1)
    }
}

/// The state of one rank beyond its memory, kept across ops.
#[derive(Debug, Default)]
pub struct Core {
    values: HashMap<usize, RtValue>,
    chains: HashMap<usize, Chain>,
    /// The Vector and Scalar engines' accumulators (`reduce_res`, read-outs).
    pub acc: Accumulators,
    /// The random-number generators' state.
    pub rng: RngState,
    /// The sequencer registers.
    pub regs: Registers,
    /// The row-local ops waiting to run together (`sundial_emu::fused`): flushed before any
    /// other op that touches memory or engine state, and when the program stops.
    pub fusion: Fusion,
}

/// The state of one run: memories, engine state and the values computed so far.
pub struct Machine {
    /// One memory per rank.
    pub group: RankGroup,
    cores: Vec<Core>,
    /// How the run was set up.
    pub config: RunConfig,
    hbm_bytes: usize,
    /// What `nisa.device_print` printed, in order.
    pub printed: String,
    /// The tile of each `nisa.alloc` executed so far (by the op): executed again (in a later
    /// iteration of a loop, or by a later program of the launch grid) it reuses the tile,
    /// marked unwritten again, as a new tile of the same shape would be.
    allocs: HashMap<usize, View>,
    /// The launch grid (`sundial.grid`), when the module names one.
    pub grid: Option<Vec<i64>>,
    /// The program being run: its index along each axis of the grid.
    pub program: Vec<i64>,
    /// Loop iterations run so far, against [`RunConfig::max_loop_iterations`].
    pub iterations: u64,
    /// The allocations each program of a launch grid has its own contents of (its SBUF and
    /// PSUM, its HBM tensors but `shared_hbm` ones, its per-program arguments): the same
    /// allocation on every rank, switched by [`Machine::switch_program`].
    private: Vec<AllocId>,
    /// The state of the programs that are not running: their engine state and values, and
    /// the contents of the private allocations.
    contexts: HashMap<usize, Context>,
    /// The program whose state is in the machine.
    active: usize,
    /// The bindings every program starts with (the function's arguments), per rank.
    initial: Vec<Vec<(usize, RtValue)>>,
    /// The registers of register arguments, in the order they were made (a program's fresh
    /// register file makes them again, in the same order, so they get the same ids).
    arg_registers: usize,
}

/// The state of a program of the launch grid that is not running.
struct Context {
    cores: Vec<Core>,
    saved: HashMap<(usize, AllocId), Contents>,
}

/// Loop iterations (of every `scf.for`, over all programs of the launch grid) one run executes
/// unless `--max-loop-iterations` ([`RunConfig::max_loop_iterations`]) says otherwise: a bound
/// on the time a kernel given on the command line makes this process run. A loop is checked
/// against it before its first iteration.
pub const MAX_LOOP_ITERATIONS: u64 = 1 << 20;

/// Programs of a launch grid one run executes (they run one after another).
pub const MAX_PROGRAMS: i64 = 1024;

/// The key of an SSA value (MLIR values are uniqued by pointer).
fn key(value: melior::ir::Value<'_, '_>) -> usize {
    value.to_raw().ptr as usize
}

impl Machine {
    /// An empty machine as `config` says (ranks, the uninitialised-read check).
    pub fn new(config: RunConfig) -> Result<Machine, String> {
        Machine::with_partitions(config, sundial_emu::target::PARTITIONS, false)
    }

    /// [`Machine::new`] whose memories have at least `partitions` on-chip partitions: the
    /// physical machine up to the target's 128, a logical one beyond
    /// (`sundial_emu::Memory::logical`: for kernels with logical tiles, before partition
    /// tiling). With `logical_psum`, PSUM tiles may span consecutive banks
    /// (`sundial_emu::Memory::set_logical_psum`: logical tiles before the free-axis cut).
    pub fn with_partitions(
        config: RunConfig,
        partitions: usize,
        logical_psum: bool,
    ) -> Result<Machine, String> {
        let n = config.rank_count();
        let mut group = if partitions > sundial_emu::target::PARTITIONS {
            RankGroup::logical(config.target, n, partitions)
        } else {
            RankGroup::new(config.target, n)
        }
        .map_err(|e| e.to_string())?;
        // On before anything exists, so that every byte starts unwritten.
        group
            .set_check_uninit(config.check_uninit)
            .map_err(|e| e.to_string())?;
        // Every on-chip byte a run reads lies in a tile (a nisa.alloc, which gets the
        // uninitialised fill, or an argument; nisa.ap views stay inside their tile), so the
        // 0xFF of never-allocated SBUF and PSUM is never seen: skip writing it.
        for m in group.memories_mut() {
            m.set_fill_unallocated(false);
            m.set_logical_psum(logical_psum);
        }
        Ok(Machine {
            group,
            cores: (0..n).map(|_| Core::default()).collect(),
            config,
            hbm_bytes: 0,
            printed: String::new(),
            allocs: HashMap::new(),
            grid: None,
            program: Vec::new(),
            iterations: 0,
            private: Vec::new(),
            contexts: HashMap::new(),
            active: 0,
            initial: (0..n).map(|_| Vec::new()).collect(),
            arg_registers: 0,
        })
    }

    /// Number of ranks.
    pub fn ranks(&self) -> usize {
        self.cores.len()
    }

    /// The memory of `rank` (`rank < self.ranks()`).
    pub fn mem(&mut self, rank: usize) -> &mut Memory {
        &mut self.group.memories_mut()[rank]
    }

    /// The memory and the engine state of `rank`, together.
    pub fn mem_core(&mut self, rank: usize) -> (&mut Memory, &mut Core) {
        (&mut self.group.memories_mut()[rank], &mut self.cores[rank])
    }

    /// Runs every rank's waiting fused ops (`Core::fusion`), so memory and the accumulators
    /// hold what op-by-op execution would have left.
    pub fn flush_fused(&mut self) {
        for (m, c) in self.group.memories_mut().iter_mut().zip(&mut self.cores) {
            if !c.fusion.is_empty() {
                c.fusion.flush(m, &mut c.acc);
            }
        }
    }

    /// Runs the waiting fused ops of every rank where the allocation about to be made in
    /// `space` (`cached`: the view of a tile allocated again) could write a byte they touch:
    /// a cached view they overlap, an SBUF tile where they reach the allocator's next
    /// offset, any PSUM tile. A new HBM tensor is a new allocation no waiting op can name.
    pub fn flush_fused_before_alloc(
        &mut self,
        cached: Option<&View>,
        space: sundial_dialects::enums::Space,
    ) {
        use sundial_dialects::enums::Space;
        for (m, c) in self.group.memories_mut().iter_mut().zip(&mut self.cores) {
            let conflict = match (cached, space) {
                (Some(v), _) => c.fusion.touches_view(m, v),
                (None, Space::Hbm) => false,
                (None, Space::Sbuf) => c.fusion.reaches_sbuf(m, m.next_sbuf_offset()),
                (None, Space::Psum) => !c.fusion.is_empty(),
            };
            if conflict {
                c.fusion.flush(m, &mut c.acc);
            }
        }
    }

    /// The engine state of `rank`.
    pub fn core(&self, rank: usize) -> &Core {
        &self.cores[rank]
    }

    /// Binds an SSA value on `rank`.
    pub fn bind(&mut self, rank: usize, value: melior::ir::Value<'_, '_>, rt: RtValue) {
        self.cores[rank].values.insert(key(value), rt);
    }

    /// The value bound to an SSA value on `rank`, if any.
    pub fn get(&self, rank: usize, value: melior::ir::Value<'_, '_>) -> Option<&RtValue> {
        self.cores[rank].values.get(&key(value))
    }

    /// Binds argument `value` on `rank`: in the running program and in every program that
    /// starts later.
    pub fn bind_argument(&mut self, rank: usize, value: melior::ir::Value<'_, '_>, rt: RtValue) {
        self.initial[rank].push((key(value), rt.clone()));
        self.bind(rank, value, rt);
    }

    /// The binding of `value` on `rank` with the chain of views it was made by, if bound.
    pub fn take_binding(
        &self,
        rank: usize,
        value: melior::ir::Value<'_, '_>,
    ) -> Option<(RtValue, Option<Chain>)> {
        let core = &self.cores[rank];
        let k = key(value);
        Some((core.values.get(&k)?.clone(), core.chains.get(&k).cloned()))
    }

    /// Binds `value` on `rank` as [`Machine::take_binding`] read another (an `scf.yield`d
    /// value becoming a loop-carried value or a result).
    pub fn bind_full(
        &mut self,
        rank: usize,
        value: melior::ir::Value<'_, '_>,
        (rt, chain): (RtValue, Option<Chain>),
    ) {
        let core = &mut self.cores[rank];
        let k = key(value);
        core.values.insert(k, rt);
        match chain {
            Some(c) => {
                core.chains.insert(k, c);
            }
            None => {
                core.chains.remove(&k);
            }
        }
    }

    /// A new register of `rank` holding `value` (a register argument).
    pub fn new_register(&mut self, rank: usize, value: i64) -> Result<RegisterId, String> {
        let id = self.cores[rank]
            .regs
            .register_alloc(Some(value))
            .map_err(|e| e.to_string())?;
        if rank == 0 {
            self.arg_registers += 1;
        }
        Ok(id)
    }

    /// Sets register `id` of `rank` to `value`.
    pub fn set_register(&mut self, rank: usize, id: RegisterId, value: i64) -> Result<(), String> {
        self.cores[rank]
            .regs
            .set("register argument", id, value)
            .map_err(|e| e.to_string())
    }

    /// The value of register `id` of `rank`.
    pub fn register(&self, rank: usize, id: RegisterId) -> Result<i64, String> {
        self.cores[rank]
            .regs
            .get("register argument", id)
            .map_err(|e| e.to_string())
    }

    /// Marks allocation `id` as one each program of the launch grid has its own contents of.
    pub fn note_private(&mut self, id: AllocId) {
        if !self.private.contains(&id) {
            self.private.push(id);
        }
    }

    /// Makes program `to` the running one: the running program's engine state, values and
    /// private allocations' contents are put aside (dropped when `keep` is false: it ended)
    /// and `to`'s put in, switching each allocation's contents in O(1)
    /// (`Memory::swap_contents`). A program that never ran starts fresh: new engine state,
    /// the arguments bound, every private allocation unwritten; returns true then (the
    /// caller gives it its copy of the per-program arguments).
    pub fn switch_program(&mut self, to: usize, keep: bool) -> Result<bool, String> {
        if to == self.active {
            return Ok(false);
        }
        let (mut incoming, fresh) = match self.contexts.remove(&to) {
            Some(c) => (c, false),
            None => (self.fresh_context()?, true),
        };
        let mut saved = HashMap::new();
        for r in 0..self.ranks() {
            for k in 0..self.private.len() {
                let id = self.private[k];
                let mut c = match incoming.saved.remove(&(r, id)) {
                    Some(c) => c,
                    None => {
                        let mem = &self.group.memories()[r];
                        if keep
                            && mem.space(id).map_err(|e| e.to_string())?
                                == sundial_emu::MemSpace::Hbm
                        {
                            let bytes = mem.bytes(id).map_err(|e| e.to_string())?.len() as u64;
                            self.charge_hbm(
                                &format!("the copy of allocation #{} for program {to}", id.index()),
                                bytes,
                            )?;
                        }
                        self.group.memories()[r]
                            .unwritten_contents(id)
                            .map_err(|e| e.to_string())?
                    }
                };
                self.mem(r)
                    .swap_contents(id, &mut c)
                    .map_err(|e| e.to_string())?;
                if keep {
                    saved.insert((r, id), c);
                }
            }
        }
        let cores = std::mem::replace(&mut self.cores, incoming.cores);
        if keep {
            self.contexts.insert(self.active, Context { cores, saved });
        }
        self.active = to;
        Ok(fresh)
    }

    /// The state a program starts with: fresh engine state on every rank, the arguments
    /// bound, the register arguments' registers made again (unwritten).
    fn fresh_context(&self) -> Result<Context, String> {
        let mut cores = Vec::with_capacity(self.ranks());
        for initial in &self.initial {
            let mut core = Core::default();
            for _ in 0..self.arg_registers {
                core.regs.register_alloc(None).map_err(|e| e.to_string())?;
            }
            core.values.extend(initial.iter().cloned());
            cores.push(core);
        }
        Ok(Context {
            cores,
            saved: HashMap::new(),
        })
    }

    /// Records how the view `value` was made on `rank`.
    pub fn set_chain(&mut self, rank: usize, value: melior::ir::Value<'_, '_>, chain: Chain) {
        self.cores[rank].chains.insert(key(value), chain);
    }

    /// How the view `value` was made on `rank`; `None` for an allocation (or anything a
    /// view op did not make).
    pub fn chain(&self, rank: usize, value: melior::ir::Value<'_, '_>) -> Option<&Chain> {
        self.cores[rank].chains.get(&key(value))
    }

    /// The tile the `nisa.alloc` `op` allocated when it last ran, if it ran.
    pub fn allocated(&self, op: &OperationRef<'_, '_>) -> Option<&View> {
        self.allocs.get(&(op.to_raw().ptr as usize))
    }

    /// Records the tile of the `nisa.alloc` `op`.
    pub fn set_allocated(&mut self, op: &OperationRef<'_, '_>, view: View) {
        self.allocs.insert(op.to_raw().ptr as usize, view);
    }

    /// Counts `bytes` more of HBM per rank against [`MAX_HBM_BYTES`]; `what` names the tensor.
    fn charge_hbm(&mut self, what: &str, bytes: u64) -> Result<(), String> {
        let all = bytes.saturating_mul(self.ranks() as u64);
        let total = (self.hbm_bytes as u64).saturating_add(all);
        if total > MAX_HBM_BYTES as u64 {
            return Err(format!(
                "{what} needs {all} bytes of HBM, which would bring the run to {total} bytes, more than the {MAX_HBM_BYTES} sundial-run allocates"
            ));
        }
        self.hbm_bytes = total as usize;
        Ok(())
    }

    /// Runs `alloc` on every rank and returns the view, which must be the same on all (the
    /// ranks execute the same ops, so their allocators agree).
    fn everywhere(
        &mut self,
        mut alloc: impl FnMut(&mut Memory, usize) -> sundial_emu::Result<View>,
    ) -> Result<View, String> {
        let mut first: Option<View> = None;
        for (r, m) in self.group.memories_mut().iter_mut().enumerate() {
            let v = alloc(m, r).map_err(|e| e.to_string())?;
            match &first {
                None => first = Some(v),
                Some(f) if *f == v => {}
                Some(_) => {
                    return Err(format!(
                        "rank {r} placed the tile elsewhere than rank 0 (the ranks' memories have diverged)"
                    ));
                }
            }
        }
        first.ok_or_else(|| "no rank to allocate on".to_string())
    }

    /// Allocates a tile of `tile`'s type named `name` on every rank: HBM tensors through
    /// [`Memory::alloc_hbm`] (counted against [`MAX_HBM_BYTES`]), SBUF and PSUM tiles through
    /// the emulator's named on-chip allocators. The tile holds the uninitialised pattern and,
    /// with the check on, counts as never written. `name` is what the emulator's messages
    /// call it ("of tile NAME").
    pub fn alloc(&mut self, tile: &Tile, name: &str) -> Result<View, String> {
        let format = super::npy::format_of(tile.dtype);
        let shape = shape_of(tile);
        match tile.space {
            sundial_dialects::enums::Space::Hbm => {
                // The verifier bounds a tile's bytes by i64::MAX, so this is exact.
                let bytes = tile.byte_size().unwrap_or(i64::MAX) as u64;
                self.charge_hbm(&label(name), bytes)?;
                self.everywhere(|m, _| m.alloc_hbm(name, format.emu, &shape))
            }
            sundial_dialects::enums::Space::Sbuf => {
                let v = self.everywhere(|m, _| m.alloc_sbuf_named(name, format.emu, &shape))?;
                self.note_private(v.alloc());
                Ok(v)
            }
            sundial_dialects::enums::Space::Psum => {
                let v = self.everywhere(|m, _| m.alloc_psum_named(name, format.emu, &shape))?;
                self.note_private(v.alloc());
                Ok(v)
            }
        }
    }

    /// Allocates argument `tile` on every rank holding `contents` (`ranks()` equal slices,
    /// rank-major, each the argument's row-major little-endian bytes); it counts as written.
    /// HBM arguments are created with their data (on one rank the buffer itself moves in,
    /// [`Memory::alloc_hbm_from_vec`]), on-chip ones allocated and then written (and, being
    /// on-chip, private to each program of a launch grid).
    pub fn alloc_argument(
        &mut self,
        tile: &Tile,
        name: &str,
        contents: Vec<u8>,
    ) -> Result<View, String> {
        let format = super::npy::format_of(tile.dtype);
        let shape = shape_of(tile);
        let n = self.ranks();
        if !contents.len().is_multiple_of(n) {
            return Err(format!(
                "{} bytes do not split over {n} ranks",
                contents.len()
            ));
        }
        let per = contents.len() / n;
        let part = |r: usize| &contents[r * per..(r + 1) * per];
        match tile.space {
            sundial_dialects::enums::Space::Hbm => {
                self.charge_hbm(name, per as u64)?;
                if n == 1 {
                    let v = self.group.memories_mut()[0]
                        .alloc_hbm_from_vec(name, format.emu, &shape, contents)
                        .map_err(|e| e.to_string())?;
                    return Ok(v);
                }
                self.everywhere(|m, r| m.alloc_hbm_from_bytes(name, format.emu, &shape, part(r)))
            }
            space => {
                let v = self.everywhere(|m, r| {
                    let v = if space == sundial_dialects::enums::Space::Sbuf {
                        m.alloc_sbuf_named(name, format.emu, &shape)?
                    } else {
                        m.alloc_psum_named(name, format.emu, &shape)?
                    };
                    m.write_bytes(&v, part(r))?;
                    Ok(v)
                })?;
                self.note_private(v.alloc());
                Ok(v)
            }
        }
    }

    /// A one-element int64 HBM tensor on `rank` holding `value`: how a register used as a
    /// `scalar_offset` reaches the access engine, whose indirect subscripts read index views.
    /// Every rank makes one at the same op, so the ranks' allocations stay in step.
    pub fn register_view(&mut self, rank: usize, value: i64) -> Result<View, String> {
        let name = format!("a register holding {value}");
        self.mem(rank)
            .alloc_hbm_from_bytes(&name, sundial_emu::DType::I64, &[1], &value.to_le_bytes())
            .map_err(|e| e.to_string())
    }

    /// What messages call the tile a view is on: `tile 'x' (sbuf 128x512xfloat32)`,
    /// `argument 0 (hbm 4xint32)`.
    pub fn describe(&self, rank: usize, view: &View) -> String {
        let mem = &self.group.memories()[rank];
        let label = match mem.tile_name(view) {
            Some(n) => label(n),
            None => format!("allocation #{}", view.alloc().index()),
        };
        let space = match mem.space(view.alloc()) {
            Ok(sundial_emu::MemSpace::Hbm) => "hbm",
            Ok(sundial_emu::MemSpace::Sbuf) => "sbuf",
            Ok(sundial_emu::MemSpace::Psum) => "psum",
            Err(_) => "?",
        };
        let shape = view
            .shape()
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("x");
        format!("{label} ({space} {shape}x{})", view.dtype())
    }
}

/// What messages outside the emulator call an allocation named `name`: `tile 'x'` for the
/// tile of a `nisa.alloc` (see [`tile_name`]), the name itself otherwise (`argument 0`).
pub fn label(name: &str) -> String {
    if name.starts_with('\'') || name.starts_with('<') {
        format!("tile {name}")
    } else {
        name.to_string()
    }
}

/// The name the emulator gives the tile of a `nisa.alloc`: its `name` attribute quoted
/// (`'a_tile'`), else its position (`<nisa.alloc at 12:10>`; MLIR keeps no SSA names).
pub fn tile_name(name_attr: Option<&str>, position: Option<&FileLineCol>) -> String {
    match (name_attr, position) {
        (Some(n), _) => format!("'{n}'"),
        (None, Some(p)) => format!("<nisa.alloc at {}:{}>", p.line, p.col),
        (None, None) => "<nisa.alloc>".to_string(),
    }
}

/// The shape of a tile as emulator extents (a verified tile's dimensions are positive).
pub fn shape_of(tile: &Tile) -> Vec<usize> {
    tile.shape.iter().map(|&d| d.max(0) as usize).collect()
}

/// The position of an op, if its location has one.
pub fn position(op: &OperationRef<'_, '_>) -> Option<FileLineCol> {
    file_line_col(op.location())
}

/// One op being executed: its operands, attributes and results through its table row.
pub struct Exec<'r, 'c, 'a> {
    machine: &'r mut Machine,
    op: OperationRef<'c, 'a>,
    name: String,
    spec: Option<&'static OpSpec>,
    groups: Vec<(usize, usize)>,
    rank: usize,
    whole_group: bool,
}

impl<'r, 'c, 'a> Exec<'r, 'c, 'a> {
    /// The view of `op` on rank 0 (a NISA op is seen through its row of
    /// `sundial_dialects::nisa::OPS`; any other op has no operand groups or attributes to
    /// read).
    pub fn new(machine: &'r mut Machine, op: OperationRef<'c, 'a>) -> Result<Self, RunError> {
        let name = op_name(op.to_raw());
        let spec = name
            .strip_prefix("nisa.")
            .and_then(sundial_dialects::nisa::op);
        let groups = match spec {
            Some(s) => {
                operand_groups(&op, s).map_err(|m| RunError::at(&op, format!("'{name}' op {m}")))?
            }
            None => Vec::new(),
        };
        Ok(Exec {
            machine,
            op,
            name: name.into_owned(),
            spec,
            groups,
            rank: 0,
            whole_group: false,
        })
    }

    /// The op's name (`nisa.dma_copy`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The op's mnemonic as the emulator's messages name it (`dma_copy`).
    pub fn mnemonic(&self) -> &'static str {
        self.spec.map_or("op", |s| s.name)
    }

    /// The op.
    pub fn op(&self) -> OperationRef<'c, 'a> {
        self.op
    }

    /// The rank whose values and memory the getters read.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// Reads and writes `rank`'s values and memory from now on.
    pub fn set_rank(&mut self, rank: usize) {
        self.rank = rank.min(self.machine.ranks().saturating_sub(1));
    }

    /// Marks the op as one instruction of the whole rank group (a collective), so that its
    /// errors name no rank.
    pub fn set_whole_group(&mut self) {
        self.whole_group = true;
    }

    /// The memory of the current rank.
    pub fn mem(&mut self) -> &mut Memory {
        self.machine.mem(self.rank)
    }

    /// The memory and engine state of the current rank, together.
    pub fn mem_core(&mut self) -> (&mut Memory, &mut Core) {
        self.machine.mem_core(self.rank)
    }

    /// Every rank's memory (collectives).
    pub fn group(&mut self) -> &mut RankGroup {
        &mut self.machine.group
    }

    /// How the run is set up.
    pub fn config(&self) -> RunConfig {
        self.machine.config
    }

    /// The machine.
    pub fn machine(&mut self) -> &mut Machine {
        self.machine
    }

    /// An error at the op: `'<op>' op <message>`, ending `(on rank R of N)` when several
    /// ranks run and the op is not a collective.
    pub fn error(&self, message: impl AsRef<str>) -> RunError {
        let n = self.machine.ranks();
        let on = if n > 1 && !self.whole_group {
            format!(" (on rank {} of {n})", self.rank)
        } else {
            String::new()
        };
        RunError::at(
            &self.op,
            format!("'{}' op {}{on}", self.name, message.as_ref()),
        )
    }

    /// An error of the handler itself (a name not in the op's table row): a bug in a handler,
    /// reported rather than panicking.
    fn internal(&self, message: impl AsRef<str>) -> RunError {
        self.error(format!(
            "cannot be executed: internal error in its emulator handler: {}",
            message.as_ref()
        ))
    }

    /// Runs a row-local op on the current rank through its fused batch (`Core::fusion`): it
    /// joins the batch when it can, else the batch runs and then the op by itself (which
    /// reports its error, if any, as [`Exec::emu`] does). The effects are op-by-op
    /// execution's.
    pub fn row_op(&mut self, row: RowOp) -> Result<(), RunError> {
        let (mem, core) = self.mem_core();
        let r = match core.fusion.push(mem, &mut core.acc, row) {
            Ok(Pushed::Deferred) => Ok(()),
            Ok(Pushed::Refused(op)) => {
                core.fusion.flush(mem, &mut core.acc);
                op.run(mem, &mut core.acc)
            }
            Err(e) => Err(e),
        };
        self.emu(r)
    }

    /// The emulator's result, with a failure reported at the op, followed by one note per tile
    /// operand naming the tile it is on.
    pub fn emu<T>(&self, result: sundial_emu::Result<T>) -> Result<T, RunError> {
        result.map_err(|e| {
            let mut err = self.error(format!("failed in the emulator: {e}"));
            err.notes = self.operand_notes();
            err
        })
    }

    /// `operand 'dst': tile 'x' (sbuf 128x512xfloat32)` for every tile operand.
    fn operand_notes(&self) -> Vec<String> {
        let Some(spec) = self.spec else {
            return Vec::new();
        };
        let (m, r) = (&*self.machine, self.rank);
        let mut notes = Vec::new();
        for (operand, &(start, len)) in spec.operands.iter().zip(&self.groups) {
            for k in start..start + len {
                let Ok(value) = self.op.operand(k) else {
                    continue;
                };
                let what = match m.get(r, value) {
                    Some(RtValue::Tile(v)) => m.describe(r, v),
                    Some(RtValue::Access(a)) => {
                        format!("an indirect access pattern on {}", m.describe(r, &a.source))
                    }
                    Some(RtValue::Reg(id)) => match m.core(r).regs.get(spec.name, *id) {
                        Ok(v) => format!("a register holding {v}"),
                        Err(_) => "a register never written".to_string(),
                    },
                    Some(RtValue::Index(v)) => format!("the index {v}"),
                    Some(RtValue::Float(v)) => format!("the float {v}"),
                    None => continue,
                };
                let suffix = if len > 1 {
                    format!(" #{}", k - start)
                } else {
                    String::new()
                };
                notes.push(format!("operand '{}'{suffix}: {what}", operand.name));
            }
        }
        notes
    }

    fn spec(&self) -> Result<&'static OpSpec, RunError> {
        self.spec
            .ok_or_else(|| self.internal("the op has no NISA table row"))
    }

    /// The runtime values of operand group `name` (empty when an optional group is absent).
    pub fn values(&self, name: &str) -> Result<Vec<&RtValue>, RunError> {
        let spec = self.spec()?;
        let i = spec
            .operand_index(name)
            .ok_or_else(|| self.internal(format!("no operand group '{name}'")))?;
        let (start, len) = self.groups[i];
        (start..start + len)
            .map(|k| {
                let value = self
                    .op
                    .operand(k)
                    .map_err(|_| self.internal(format!("operand {k} is missing")))?;
                self.machine.get(self.rank, value).ok_or_else(|| {
                    self.error(format!(
                        "operand '{name}' is not defined by an op that sundial-run executed"
                    ))
                })
            })
            .collect()
    }

    /// The one value of group `name`, if present.
    fn opt_value(&self, name: &str) -> Result<Option<&RtValue>, RunError> {
        let mut values = self.values(name)?;
        match values.len() {
            0 => Ok(None),
            1 => Ok(values.pop()),
            n => Err(self.internal(format!("operand group '{name}' has {n} values"))),
        }
    }

    fn as_tile(&self, name: &str, value: &RtValue) -> Result<View, RunError> {
        match value {
            RtValue::Tile(v) => Ok(v.clone()),
            RtValue::Access(_) => Err(self.error(format!(
                "operand '{name}' is an indirect access pattern, which this op does not take"
            ))),
            RtValue::Reg(_) => Err(self.error(format!("operand '{name}' is a register"))),
            RtValue::Index(_) => Err(self.error(format!("operand '{name}' is an index"))),
            RtValue::Float(_) => Err(self.error(format!("operand '{name}' is a float"))),
        }
    }

    fn as_operand(&self, name: &str, value: &RtValue) -> Result<Operand, RunError> {
        match value {
            RtValue::Tile(v) => Ok(Operand::View(v.clone())),
            RtValue::Access(a) => Ok(Operand::Access(a.clone())),
            RtValue::Reg(_) => Err(self.error(format!("operand '{name}' is a register"))),
            RtValue::Index(_) => Err(self.error(format!("operand '{name}' is an index"))),
            RtValue::Float(_) => Err(self.error(format!("operand '{name}' is a float"))),
        }
    }

    /// Index operand `name` (an `index` value of a NISA op): its value.
    pub fn index(&self, name: &str) -> Result<i64, RunError> {
        match self.opt_value(name)? {
            Some(RtValue::Index(v)) => Ok(*v),
            Some(_) => Err(self.error(format!("operand '{name}' is not an index"))),
            None => Err(self.error(format!("operand '{name}' is absent"))),
        }
    }

    /// Operand `k` (by position: the ops of other dialects have no operand groups) as an
    /// index or integer value.
    pub fn index_at(&self, k: usize) -> Result<i64, RunError> {
        let value = self
            .op
            .operand(k)
            .map_err(|_| self.internal(format!("operand {k} is missing")))?;
        match self.machine.get(self.rank, value) {
            Some(RtValue::Index(v)) => Ok(*v),
            Some(_) => Err(self.error(format!("operand #{k} is not an index or integer"))),
            None => Err(self.error(format!(
                "operand #{k} is not defined by an op that sundial-run executed"
            ))),
        }
    }

    /// Operand `k` (by position) as a float value.
    pub fn float_at(&self, k: usize) -> Result<f64, RunError> {
        match self.raw_at(k)? {
            RtValue::Float(v) => Ok(v),
            _ => Err(self.error(format!("operand #{k} is not a float"))),
        }
    }

    /// Operand `k` (by position) as it was bound, with the chain of views it was made by.
    pub fn binding_at(&self, k: usize) -> Result<(RtValue, Option<Chain>), RunError> {
        let value = self
            .op
            .operand(k)
            .map_err(|_| self.internal(format!("operand {k} is missing")))?;
        self.machine.take_binding(self.rank, value).ok_or_else(|| {
            self.error(format!(
                "operand #{k} is not defined by an op that sundial-run executed"
            ))
        })
    }

    /// Operand `k` (by position) as it was bound.
    pub fn raw_at(&self, k: usize) -> Result<RtValue, RunError> {
        self.binding_at(k).map(|(v, _)| v)
    }

    /// Binds result `index` as operand `k` is bound (a value passed through, as
    /// `arith.select` passes one of its operands).
    pub fn forward(&mut self, index: usize, k: usize) -> Result<(), RunError> {
        let bound = self.binding_at(k)?;
        let result = self
            .op
            .result(index)
            .map_err(|_| self.internal(format!("no result {index}")))?;
        self.machine.bind_full(self.rank, result.into(), bound);
        Ok(())
    }

    /// Operand `name` as a tile (an indirect access pattern is refused).
    pub fn tile(&self, name: &str) -> Result<View, RunError> {
        self.opt_tile(name)?
            .ok_or_else(|| self.error(format!("operand '{name}' is absent")))
    }

    /// Optional operand `name` as a tile.
    pub fn opt_tile(&self, name: &str) -> Result<Option<View>, RunError> {
        self.opt_value(name)?
            .map(|v| self.as_tile(name, v))
            .transpose()
    }

    /// Every value of operand group `name` as tiles.
    pub fn tiles(&self, name: &str) -> Result<Vec<View>, RunError> {
        self.values(name)?
            .into_iter()
            .map(|v| self.as_tile(name, v))
            .collect()
    }

    /// Operand `name` as a DMA operand (a tile or an indirect access pattern).
    pub fn operand(&self, name: &str) -> Result<Operand, RunError> {
        let v = self
            .opt_value(name)?
            .ok_or_else(|| self.error(format!("operand '{name}' is absent")))?;
        self.as_operand(name, v)
    }

    /// Every value of operand group `name` as DMA operands.
    pub fn operands(&self, name: &str) -> Result<Vec<Operand>, RunError> {
        self.values(name)?
            .into_iter()
            .map(|v| self.as_operand(name, v))
            .collect()
    }

    /// Operand `name` as it was bound (tile, access or register), if present.
    pub fn opt_raw(&self, name: &str) -> Result<Option<RtValue>, RunError> {
        Ok(self.opt_value(name)?.cloned())
    }

    /// Register operand `name`: the register.
    pub fn reg_id(&self, name: &str) -> Result<RegisterId, RunError> {
        match self.opt_value(name)? {
            Some(RtValue::Reg(r)) => Ok(*r),
            Some(_) => Err(self.error(format!("operand '{name}' is not a register"))),
            None => Err(self.error(format!("operand '{name}' is absent"))),
        }
    }

    /// Register operand `name`: its value (reading one never written is an error).
    pub fn reg(&self, name: &str) -> Result<i64, RunError> {
        let id = self.reg_id(name)?;
        let r = self.machine.core(self.rank).regs.get(self.mnemonic(), id);
        self.emu(r)
    }

    /// The value of register `id` of the current rank.
    pub fn reg_value(&self, id: RegisterId) -> Result<i64, RunError> {
        let r = self.machine.core(self.rank).regs.get(self.mnemonic(), id);
        self.emu(r)
    }

    /// The tile type of result `index`.
    pub fn result_tile(&self, index: usize) -> Result<Tile, RunError> {
        let result = self
            .op
            .result(index)
            .map_err(|_| self.internal(format!("no result {index}")))?;
        Tile::from_type(result.r#type()).map_err(|m| self.error(format!("result: {m}")))
    }

    /// Binds result `index` to `value`.
    pub fn set_result(&mut self, index: usize, value: RtValue) -> Result<(), RunError> {
        let result = self
            .op
            .result(index)
            .map_err(|_| self.internal(format!("no result {index}")))?;
        self.machine.bind(self.rank, result.into(), value);
        Ok(())
    }

    // ---- attributes ---------------------------------------------------------------------

    /// The attribute `name` as written, or `None` when absent. Fails when the op's row has no
    /// such attribute (a handler bug).
    fn attr(&self, name: &str) -> Result<(Option<Attribute<'c>>, Presence, AttrKind), RunError> {
        let spec = self.spec()?;
        let row = spec
            .attr(name)
            .ok_or_else(|| self.internal(format!("no attribute '{name}' in the op's table row")))?;
        Ok((self.op.attribute(name).ok(), row.presence, row.kind))
    }

    /// The table default of an absent attribute, as text.
    fn default_text(
        &self,
        name: &str,
        presence: Presence,
    ) -> Result<Option<&'static str>, RunError> {
        match presence {
            Presence::Default(text) => Ok(Some(text)),
            Presence::Optional => Ok(None),
            Presence::Required => Err(self.error(format!("attribute '{name}' is required"))),
        }
    }

    fn bad(&self, name: &str, what: &str) -> RunError {
        self.error(format!("attribute '{name}': expected {what}"))
    }

    /// Integer attribute `name`, or its table default; `None` when optional and absent.
    pub fn opt_int(&self, name: &str) -> Result<Option<i64>, RunError> {
        let (attr, presence, _) = self.attr(name)?;
        match attr {
            Some(a) => int_value_checked(a)
                .map(Some)
                .map_err(|m| self.error(format!("attribute '{name}': {m}"))),
            None => match self.default_text(name, presence)? {
                Some(t) => parse_default_int(t)
                    .map(Some)
                    .ok_or_else(|| self.internal(format!("default '{t}' of '{name}'"))),
                None => Ok(None),
            },
        }
    }

    /// Integer attribute `name` or its table default.
    pub fn int(&self, name: &str) -> Result<i64, RunError> {
        self.opt_int(name)?
            .ok_or_else(|| self.internal(format!("attribute '{name}' has no default")))
    }

    /// Float attribute `name` (as the f32 the hardware uses), or its table default; `None`
    /// when optional and absent.
    pub fn opt_float(&self, name: &str) -> Result<Option<f32>, RunError> {
        let (attr, presence, _) = self.attr(name)?;
        match attr {
            Some(a) => float_value(a)
                .or_else(|| int_value_checked(a).ok().map(|i| i as f64))
                .map(|v| Some(v as f32))
                .ok_or_else(|| self.bad(name, "a number")),
            None => match self.default_text(name, presence)? {
                Some(t) => parse_default_float(t)
                    .map(Some)
                    .ok_or_else(|| self.internal(format!("default '{t}' of '{name}'"))),
                None => Ok(None),
            },
        }
    }

    /// Float attribute `name` or its table default.
    pub fn float(&self, name: &str) -> Result<f32, RunError> {
        self.opt_float(name)?
            .ok_or_else(|| self.internal(format!("attribute '{name}' has no default")))
    }

    /// Bool attribute `name`, or its table default; `None` when optional and absent.
    pub fn opt_flag(&self, name: &str) -> Result<Option<bool>, RunError> {
        let (attr, presence, _) = self.attr(name)?;
        match attr {
            Some(a) if a.is_bool() => {
                Ok(Some(unsafe { mlir_sys::mlirBoolAttrGetValue(a.to_raw()) }))
            }
            Some(_) => Err(self.bad(name, "a bool")),
            None => match self.default_text(name, presence)? {
                Some(t) => parse_default_bool(t)
                    .map(Some)
                    .ok_or_else(|| self.internal(format!("default '{t}' of '{name}'"))),
                None => Ok(None),
            },
        }
    }

    /// Bool attribute `name` or its table default.
    pub fn flag(&self, name: &str) -> Result<bool, RunError> {
        self.opt_flag(name)?
            .ok_or_else(|| self.internal(format!("attribute '{name}' has no default")))
    }

    /// String (enum) attribute `name`, or its table default; `None` when optional and absent.
    pub fn opt_word(&self, name: &str) -> Result<Option<String>, RunError> {
        let (attr, presence, _) = self.attr(name)?;
        match attr {
            Some(a) if a.is_string() => Ok(Some(string_attr_value(a))),
            Some(_) => Err(self.bad(name, "a string")),
            None => Ok(self.default_text(name, presence)?.map(str::to_string)),
        }
    }

    /// String (enum) attribute `name` or its table default.
    pub fn word(&self, name: &str) -> Result<String, RunError> {
        self.opt_word(name)?
            .ok_or_else(|| self.internal(format!("attribute '{name}' has no default")))
    }

    /// Dense i64 array attribute `name`, or its table default; `None` when optional and absent.
    pub fn opt_ints(&self, name: &str) -> Result<Option<Vec<i64>>, RunError> {
        let (attr, presence, _) = self.attr(name)?;
        match attr {
            Some(a) => i64_array_value(a)
                .map(Some)
                .ok_or_else(|| self.bad(name, "array<i64: ...>")),
            None => match self.default_text(name, presence)? {
                Some(t) => parse_default_ints(t)
                    .map(Some)
                    .ok_or_else(|| self.internal(format!("default '{t}' of '{name}'"))),
                None => Ok(None),
            },
        }
    }

    /// Dense i64 array attribute `name` or its table default.
    pub fn ints(&self, name: &str) -> Result<Vec<i64>, RunError> {
        self.opt_ints(name)?
            .ok_or_else(|| self.internal(format!("attribute '{name}' has no default")))
    }

    /// Dense f32 array attribute `name`; `None` when absent (no f32 array has a default).
    pub fn opt_floats(&self, name: &str) -> Result<Option<Vec<f32>>, RunError> {
        let (attr, _, _) = self.attr(name)?;
        let Some(a) = attr else { return Ok(None) };
        unsafe {
            if !mlir_sys::mlirAttributeIsADenseF32Array(a.to_raw()) {
                return Err(self.bad(name, "array<f32: ...>"));
            }
            let n = mlir_sys::mlirDenseArrayGetNumElements(a.to_raw()).max(0);
            Ok(Some(
                (0..n)
                    .map(|i| mlir_sys::mlirDenseF32ArrayGetElement(a.to_raw(), i))
                    .collect(),
            ))
        }
    }

    /// Number attribute `name` (an integer or a float literal, kept as written).
    pub fn number(&self, name: &str) -> Result<Number, RunError> {
        let (attr, presence, _) = self.attr(name)?;
        match attr {
            Some(a) if a.is_integer() && !a.is_bool() => int_value_checked(a)
                .map(Number::Int)
                .map_err(|m| self.error(format!("attribute '{name}': {m}"))),
            Some(a) => float_value(a)
                .map(Number::Float)
                .ok_or_else(|| self.bad(name, "a number")),
            None => match self.default_text(name, presence)? {
                Some(t) => parse_default_int(t)
                    .map(Number::Int)
                    .or_else(|| t.trim().parse::<f64>().ok().map(Number::Float))
                    .ok_or_else(|| self.internal(format!("default '{t}' of '{name}'"))),
                None => Err(self.error(format!("attribute '{name}' is required"))),
            },
        }
    }

    /// Array-of-i64-arrays attribute `name` (`[array<i64: 0, 1>, ...]`), required.
    pub fn int_lists(&self, name: &str) -> Result<Vec<Vec<i64>>, RunError> {
        let (attr, _, _) = self.attr(name)?;
        let a = attr.ok_or_else(|| self.error(format!("attribute '{name}' is required")))?;
        i64_array_list(a).ok_or_else(|| self.bad(name, "a list of array<i64: ...>"))
    }

    /// The op's `oob_mode` (table default `error`).
    pub fn oob(&self) -> Result<OobMode, RunError> {
        match self.word("oob_mode")?.as_str() {
            "error" => Ok(OobMode::Error),
            "skip" => Ok(OobMode::Skip),
            other => Err(self.error(format!("attribute 'oob_mode': unknown mode \"{other}\""))),
        }
    }

    /// The engine the op names, or its default engine.
    pub fn engine(&self) -> Result<Engine, RunError> {
        let spec = self.spec()?;
        Ok(self
            .op
            .attribute("engine")
            .ok()
            .filter(|a| a.is_string())
            .and_then(|a| Engine::parse(&string_attr_value(a)))
            .unwrap_or(spec.default_engine))
    }
}

/// An integer default of an op table (`0`, `-1`).
pub fn parse_default_int(text: &str) -> Option<i64> {
    text.trim().parse().ok()
}

/// A float default of an op table (`1.0`, `-3.40282347e+38`), as f32.
pub fn parse_default_float(text: &str) -> Option<f32> {
    text.trim().parse::<f64>().ok().map(|v| v as f32)
}

/// A bool default of an op table (`true`, `false`).
pub fn parse_default_bool(text: &str) -> Option<bool> {
    match text.trim() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// An i64 array default of an op table, in MLIR's spelling (`array<i64: 0, 1>`).
pub fn parse_default_ints(text: &str) -> Option<Vec<i64>> {
    let body = text.trim().strip_prefix("array<i64")?.strip_suffix('>')?;
    let body = body.trim_start();
    if body.is_empty() {
        return Some(Vec::new());
    }
    body.strip_prefix(':')?
        .split(',')
        .map(|v| v.trim().parse().ok())
        .collect()
}

/// Whether the table default `text` of an attribute of `kind` is read by the getters above
/// (every default of every NISA row must be; a test checks them all).
pub fn default_parses(kind: &AttrKind, text: &str) -> bool {
    match kind {
        AttrKind::Bool => parse_default_bool(text).is_some(),
        AttrKind::Int { .. } => parse_default_int(text).is_some(),
        AttrKind::Float => parse_default_float(text).is_some(),
        AttrKind::Number => {
            parse_default_int(text).is_some() || parse_default_float(text).is_some()
        }
        AttrKind::I64Array { .. } => parse_default_ints(text).is_some(),
        AttrKind::Enum(v) => v.values.contains(&text),
        AttrKind::EnumSubset(_, s) => s.contains(&text),
        AttrKind::Str => true,
        _ => false,
    }
}
