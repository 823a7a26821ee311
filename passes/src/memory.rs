//! The memory def-use and alias analysis over destination-passing tiles.
//!
//! NISA ops return nothing: they write their `dst` operands. Data therefore flows through
//! *memory*, not SSA values, and the questions a pass asks (who produced the tile this op
//! reads, does anyone read it afterwards, may this op move past that one) are questions about
//! tile regions. [`MemoryGraph::build`] answers them for one block, as a petgraph graph:
//!
//! - a **buffer** is a root allocation: a `nisa.alloc` result, a block argument (a kernel
//!   argument), or a tile produced by an op the analysis does not model;
//! - a tile value designates a [`Place`]: its buffer and a [`Region`] of it. A view (`nisa.ap`,
//!   `nisa.dynamic_ap`, `nisa.reshape`, `nisa.slice`, `nisa.permute`, `nisa.broadcast`) is an
//!   *alias*: its result designates a region of the viewed tensor's buffer (the byte hull of a
//!   static `nisa.ap` on the buffer itself; the viewed tensor's region for any other view: an
//!   indirect or dynamic pattern, whose offsets are data, or a view of a view, which stays
//!   inside its parent's hull), and an op using the view also reads the view's index tiles;
//! - a **node** is an op of the block that touches memory, with its reads and writes (from the
//!   op table's operand write flags); an op of another dialect that takes a tile (a call, a
//!   return, a loop whose body uses it) reads and writes the whole buffer, and so does an op
//!   whose nested regions use a tile defined outside them;
//! - an **edge** is an ordering dependency on one buffer between two nodes whose regions
//!   overlap: [`Dep::Flow`] (read after write: data flows), [`Dep::Anti`] (write after read),
//!   [`Dep::Output`] (write after write). Edges point forward in program order, so the graph is
//!   a DAG.
//!
//! Assumptions (ours, documented where used): distinct buffers never alias (kernel arguments
//! are distinct tensors, as NKI kernels' inputs and outputs are); an op reads all of its read
//! operands before it writes any destination; a write to a region replaces all of it (a
//! region written whole ends the reach of earlier writes to it).

use melior::ir::{
    BlockLike, BlockRef, RegionLike, Value, ValueLike,
    operation::{OperationLike, OperationRef},
};
use petgraph::{
    Direction,
    stable_graph::{NodeIndex, StableDiGraph},
    visit::EdgeRef,
};
use sundial_dialects::{
    tile::is_tile_type,
    verify::view_rules::is_chain_op,
    view::{FastMap as HashMap, FastSet, View},
};

/// A buffer (root allocation) of the analysed block, by index.
pub type BufferId = usize;

/// What a buffer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferKind {
    /// A `nisa.alloc` of this block: kernel-local.
    Alloc,
    /// A block argument (for a function's entry block: a kernel argument).
    Argument,
    /// A tile defined elsewhere (an outer block, or an op the analysis does not model).
    Other,
}

/// A buffer: the value that roots it and what it is.
#[derive(Clone, Copy, Debug)]
pub struct Buffer<'c, 'a> {
    /// The root value (the alloc's result, the argument, ...).
    pub value: Value<'c, 'a>,
    /// Its kind.
    pub kind: BufferKind,
    /// Whether a view aliases it (some access goes through an alias).
    pub viewed: bool,
    /// Whether an op the analysis does not model uses it (a call, a return, a region).
    pub escapes: bool,
}

/// A part of a buffer, in bytes from its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// All of it.
    Whole,
    /// Bytes `[lo, hi)`.
    Bytes {
        /// First byte.
        lo: i64,
        /// One past the last byte.
        hi: i64,
    },
}

impl Region {
    /// Whether two regions of one buffer may share a byte.
    pub fn overlaps(self, other: Region) -> bool {
        match (self, other) {
            (Region::Bytes { lo: a, hi: b }, Region::Bytes { lo: c, hi: d }) => a < d && c < b,
            _ => true,
        }
    }

    /// Whether `self` contains every byte of `other`.
    pub fn covers(self, other: Region) -> bool {
        match (self, other) {
            (Region::Whole, _) => true,
            (Region::Bytes { .. }, Region::Whole) => false,
            (Region::Bytes { lo: a, hi: b }, Region::Bytes { lo: c, hi: d }) => a <= c && d <= b,
        }
    }
}

/// What a tile value designates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// The buffer.
    pub buffer: BufferId,
    /// The part of it.
    pub region: Region,
}

/// One read or write of a node.
#[derive(Clone, Copy, Debug)]
pub struct Access<'c, 'a> {
    /// The tile value the op names.
    pub value: Value<'c, 'a>,
    /// What it designates.
    pub place: Place,
}

/// An op of the block that touches memory.
#[derive(Clone, Debug)]
pub struct Node<'c, 'a> {
    /// The op.
    pub op: OperationRef<'c, 'a>,
    /// Position in the block (program order).
    pub position: usize,
    /// What it reads (including the index tiles of the views it uses).
    pub reads: Vec<Access<'c, 'a>>,
    /// What it writes.
    pub writes: Vec<Access<'c, 'a>>,
}

/// The kind of an ordering dependency.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dep {
    /// Read after write: the target reads what the source wrote.
    Flow,
    /// Write after read.
    Anti,
    /// Write after write.
    Output,
}

/// An edge: a dependency on one buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    /// Its kind.
    pub dep: Dep,
    /// The buffer.
    pub buffer: BufferId,
}

fn key(value: Value<'_, '_>) -> usize {
    value.to_raw().ptr as usize
}

fn op_key(op: &OperationRef<'_, '_>) -> usize {
    op.to_raw().ptr as usize
}

/// Per-buffer state while building: the writes still reaching and the reads since.
#[derive(Default)]
struct Live {
    writes: Vec<(NodeIndex, Region)>,
    reads: Vec<(NodeIndex, Region)>,
}

/// The memory graph of one block.
pub struct MemoryGraph<'c, 'a> {
    /// Nodes (ops) and dependency edges.
    pub graph: StableDiGraph<Node<'c, 'a>, Edge>,
    /// The buffers, by [`BufferId`].
    pub buffers: Vec<Buffer<'c, 'a>>,
    places: HashMap<usize, Place>,
    view_reads: HashMap<usize, Vec<Value<'c, 'a>>>,
    nodes: HashMap<usize, NodeIndex>,
    by_position: Vec<Option<NodeIndex>>,
    /// The edges at the node being added (all into it) or absorbing another (all at it):
    /// a duplicate can only be one of those, so the set stays small and in cache, where one
    /// set of every edge of a large block missed the cache on almost every insert.
    edges: FastSet<(NodeIndex, NodeIndex, Edge)>,
    live: Vec<Live>,
    /// Whether dependency edges are built (not for [`BlockAccesses`]).
    with_edges: bool,
}

impl<'c, 'a> MemoryGraph<'c, 'a> {
    /// Analyses `block`.
    pub fn build(block: BlockRef<'c, 'a>) -> Self {
        Self::analyse(block, true)
    }

    fn analyse(block: BlockRef<'c, 'a>, with_edges: bool) -> Self {
        // Sized once from the op count (a walk of the block's list, no more): on a large
        // block the tables otherwise grow by doubling, rehashing each time.
        let mut ops = 0usize;
        let mut cursor = block.first_operation();
        while let Some(op) = cursor {
            ops += 1;
            cursor = op.next_in_block();
        }
        // About three dependencies per op (a read's producer, a write's earlier readers and
        // writer) in the kernels the middle end sees.
        let edges = if with_edges { 3 * ops } else { 0 };
        let mut g = MemoryGraph {
            graph: StableDiGraph::with_capacity(ops, edges),
            buffers: Vec::new(),
            places: HashMap::default(),
            view_reads: HashMap::default(),
            nodes: HashMap::with_capacity_and_hasher(ops, Default::default()),
            by_position: Vec::with_capacity(ops),
            edges: FastSet::with_capacity_and_hasher(64, Default::default()),
            live: Vec::new(),
            with_edges,
        };
        for index in 0..block.argument_count() {
            if let Ok(arg) = block.argument(index) {
                let value: Value<'c, 'a> = arg.into();
                if is_tile_type(value.r#type()) {
                    g.new_buffer(value, BufferKind::Argument);
                }
            }
        }
        let mut position = 0usize;
        let mut cursor = block.first_operation();
        while let Some(op) = cursor {
            g.visit(op, position);
            position += 1;
            cursor = op.next_in_block();
        }
        g
    }

    fn new_buffer(&mut self, value: Value<'c, 'a>, kind: BufferKind) -> Place {
        let id = self.buffers.len();
        self.buffers.push(Buffer {
            value,
            kind,
            viewed: false,
            escapes: false,
        });
        self.live.push(Live::default());
        let place = Place {
            buffer: id,
            region: Region::Whole,
        };
        self.places.insert(key(value), place);
        place
    }

    /// What `value` designates, if it is a tile of this block's analysis (a tile defined
    /// outside the block becomes an [`BufferKind::Other`] buffer when first used).
    pub fn place(&self, value: Value<'c, 'a>) -> Option<Place> {
        self.places.get(&key(value)).copied()
    }

    fn place_or_new(&mut self, value: Value<'c, 'a>) -> Place {
        match self.place(value) {
            Some(p) => p,
            None => self.new_buffer(value, BufferKind::Other),
        }
    }

    /// The node of `op`, if it touches memory.
    pub fn node(&self, op: &OperationRef<'c, 'a>) -> Option<NodeIndex> {
        self.nodes.get(&op_key(op)).copied()
    }

    /// The buffer `value` designates a part of.
    pub fn buffer_of(&self, value: Value<'c, 'a>) -> Option<&Buffer<'c, 'a>> {
        self.place(value).map(|p| &self.buffers[p.buffer])
    }

    fn visit(&mut self, op: OperationRef<'c, 'a>, position: usize) {
        let view = View::of(op);
        match view.as_ref() {
            Some(v) if v.is_nisa() && v.mnemonic() == "alloc" => {
                if let Ok(result) = op.result(0) {
                    self.new_buffer(result.into(), BufferKind::Alloc);
                }
            }
            Some(v) if v.is_nisa() && is_chain_op(&op) => self.visit_view(v),
            Some(v) if v.is_nisa() => {
                let tiles = v.tile_operands();
                let mut reads = Vec::with_capacity(tiles.len());
                let mut writes = Vec::with_capacity(1);
                for t in tiles {
                    let place = self.place_or_new(t.value);
                    if let Some(index_tiles) = self.view_reads.get(&key(t.value)).cloned() {
                        for value in index_tiles {
                            let place = self.place_or_new(value);
                            reads.push(Access { value, place });
                        }
                    }
                    let access = Access {
                        value: t.value,
                        place,
                    };
                    if t.write {
                        writes.push(access);
                    } else {
                        reads.push(access);
                    }
                }
                self.add_node(op, position, reads, writes);
            }
            _ => self.visit_opaque(op, position),
        }
    }

    fn visit_view(&mut self, v: &View<'c, 'a>) {
        let (Some(tensor), Ok(result)) = (v.value("tensor"), v.op().result(0)) else {
            return;
        };
        let base = self.place_or_new(tensor);
        self.buffers[base.buffer].viewed = true;
        let mut index_tiles: Vec<Value<'c, 'a>> = self
            .view_reads
            .get(&key(tensor))
            .cloned()
            .unwrap_or_default();
        let mut indirect = false;
        for group in ["vector_offset", "scalar_offset"] {
            if let Some(value) = v.value(group) {
                indirect = true;
                if is_tile_type(value.r#type()) {
                    index_tiles.push(value);
                }
            }
        }
        let on_view =
            sundial_dialects::verify::defining_op(tensor).is_some_and(|d| is_chain_op(&d));
        let region = if indirect || base.region != Region::Whole || on_view || v.mnemonic() != "ap"
        {
            // Indirect and dynamic offsets are data; a view of a view stays inside its
            // parent's hull; a reshape, slice, permute or broadcast is bounded by its tensor.
            base.region
        } else {
            static_hull(v).unwrap_or(Region::Whole)
        };
        let result: Value<'c, 'a> = result.into();
        self.places.insert(
            key(result),
            Place {
                buffer: base.buffer,
                region,
            },
        );
        if !index_tiles.is_empty() {
            self.view_reads.insert(key(result), index_tiles);
        }
    }

    /// An op the analysis does not model: it reads and writes every tile it names and every
    /// tile defined outside its regions that its regions use.
    fn visit_opaque(&mut self, op: OperationRef<'c, 'a>, position: usize) {
        let mut values: Vec<Value<'c, 'a>> =
            op.operands().filter(|v| is_tile_type(v.r#type())).collect();
        if op.region_count() > 0 {
            collect_outer_tiles(op, &mut values);
        }
        if values.is_empty() {
            return;
        }
        let mut seen = FastSet::default();
        let mut accesses = Vec::new();
        for value in values {
            let place = self.place_or_new(value);
            self.buffers[place.buffer].escapes = true;
            if seen.insert(place.buffer) {
                let value = self.buffers[place.buffer].value;
                accesses.push(Access {
                    value,
                    place: Place {
                        buffer: place.buffer,
                        region: Region::Whole,
                    },
                });
            }
        }
        self.add_node(op, position, accesses.clone(), accesses);
    }

    fn add_node(
        &mut self,
        op: OperationRef<'c, 'a>,
        position: usize,
        reads: Vec<Access<'c, 'a>>,
        writes: Vec<Access<'c, 'a>>,
    ) {
        // The accesses move into the node once its edges are in: the edge loops below only
        // read them (no per-op copies on a 100k-op block).
        let n = self.graph.add_node(Node {
            op,
            position,
            reads: Vec::new(),
            writes: Vec::new(),
        });
        self.nodes.insert(op_key(&op), n);
        if self.by_position.len() <= position {
            self.by_position.resize(position + 1, None);
        }
        self.by_position[position] = Some(n);
        if !self.with_edges {
            let node = &mut self.graph[n];
            node.reads = reads;
            node.writes = writes;
            return;
        }
        // Every edge added below ends at the new node `n`, which has none yet.
        self.edges.clear();
        // Reads first: an op reads its sources before it writes its destinations. Each
        // buffer's live state is taken out while its edges are added (they need `self`).
        for r in &reads {
            let b = r.place.buffer;
            let mut live = std::mem::take(&mut self.live[b]);
            for &(w, region) in &live.writes {
                if w != n && region.overlaps(r.place.region) {
                    self.add_edge(w, n, Dep::Flow, b);
                }
            }
            live.reads.push((n, r.place.region));
            self.live[b] = live;
        }
        for w in &writes {
            let b = w.place.buffer;
            let region = w.place.region;
            let mut live = std::mem::take(&mut self.live[b]);
            for &(r, rr) in &live.reads {
                if r != n && rr.overlaps(region) {
                    self.add_edge(r, n, Dep::Anti, b);
                }
            }
            for &(x, wr) in &live.writes {
                if x != n && wr.overlaps(region) {
                    self.add_edge(x, n, Dep::Output, b);
                }
            }
            // Later accesses are ordered after this write through it: what it covers is done.
            live.writes.retain(|(_, wr)| !region.covers(*wr));
            live.reads.retain(|(_, rr)| !region.covers(*rr));
            live.writes.push((n, region));
            self.live[b] = live;
        }
        let node = &mut self.graph[n];
        node.reads = reads;
        node.writes = writes;
    }

    fn add_edge(&mut self, from: NodeIndex, to: NodeIndex, dep: Dep, buffer: BufferId) {
        let edge = Edge { dep, buffer };
        // A set (of the edges at the node being changed), not a scan of `from`'s edges: a
        // tile written once and read by thousands of ops would make that quadratic.
        if self.edges.insert((from, to, edge)) {
            self.graph.add_edge(from, to, edge);
        }
    }

    /// The nodes whose writes `n` reads through `value` (one of its read operands).
    pub fn producers_of(&self, n: NodeIndex, value: Value<'c, 'a>) -> Vec<NodeIndex> {
        let Some(place) = self.place(value) else {
            return Vec::new();
        };
        self.graph
            .edges_directed(n, Direction::Incoming)
            .filter(|e| e.weight().dep == Dep::Flow && e.weight().buffer == place.buffer)
            .map(|e| e.source())
            .filter(|&p| {
                self.graph[p].writes.iter().any(|w| {
                    w.place.buffer == place.buffer && w.place.region.overlaps(place.region)
                })
            })
            .collect()
    }

    /// The single op whose write `n` reads through `value`, when exactly one op wrote what it
    /// reads and wrote exactly that place.
    pub fn unique_producer(&self, n: NodeIndex, value: Value<'c, 'a>) -> Option<NodeIndex> {
        let place = self.place(value)?;
        let producers = self.producers_of(n, value);
        let [p] = producers.as_slice() else {
            return None;
        };
        self.graph[*p]
            .writes
            .iter()
            .any(|w| w.place == place)
            .then_some(*p)
    }

    /// The nodes that read what `n` wrote to `buffer`.
    pub fn readers_of(&self, n: NodeIndex, buffer: BufferId) -> Vec<NodeIndex> {
        let mut out: Vec<NodeIndex> = self
            .graph
            .edges_directed(n, Direction::Outgoing)
            .filter(|e| e.weight().dep == Dep::Flow && e.weight().buffer == buffer)
            .map(|e| e.target())
            .collect();
        out.sort_by_key(|&r| self.graph[r].position);
        out.dedup();
        out
    }

    /// The nodes after `n` that write what `n` reads (anti-dependent on it), in program order.
    pub fn overwriters_of_reads(&self, n: NodeIndex) -> Vec<NodeIndex> {
        let mut out: Vec<NodeIndex> = self
            .graph
            .edges_directed(n, Direction::Outgoing)
            .filter(|e| e.weight().dep == Dep::Anti)
            .map(|e| e.target())
            .collect();
        out.sort_by_key(|&r| self.graph[r].position);
        out.dedup();
        out
    }

    /// Whether `buffer` is a kernel-local allocation no view aliases and no unmodelled op uses.
    pub fn is_private(&self, buffer: BufferId) -> bool {
        let b = &self.buffers[buffer];
        b.kind == BufferKind::Alloc && !b.viewed && !b.escapes
    }

    /// The nodes in program order (those a fusion removed are gone).
    pub fn nodes_in_order(&self) -> Vec<NodeIndex> {
        self.by_position
            .iter()
            .flatten()
            .copied()
            .filter(|&n| self.graph.contains_node(n))
            .collect()
    }

    /// The nodes strictly between positions `after` and `before`, in program order.
    pub fn nodes_between(&self, after: usize, before: usize) -> Vec<NodeIndex> {
        let end = before.min(self.by_position.len());
        if after + 1 >= end {
            return Vec::new();
        }
        self.by_position[after + 1..end]
            .iter()
            .flatten()
            .copied()
            .filter(|&n| self.graph.contains_node(n))
            .collect()
    }

    /// Folds node `gone` into node `keep` (a fusion erased `gone`'s op and `keep` now does its
    /// work): `gone`'s dependencies become `keep`'s, edges between the two disappear, and
    /// `keep` takes `gone`'s reads (and, if `take_writes`, its writes, replacing its own).
    /// The caller checked that moving the accesses breaks no ordering (no access to them
    /// between the two).
    pub fn absorb(&mut self, keep: NodeIndex, gone: NodeIndex, take_writes: bool) {
        let mut moved: Vec<(NodeIndex, NodeIndex, Edge)> = Vec::new();
        for e in self.graph.edges_directed(gone, Direction::Incoming) {
            if e.source() != keep {
                moved.push((e.source(), keep, *e.weight()));
            }
        }
        for e in self.graph.edges_directed(gone, Direction::Outgoing) {
            if e.target() != keep {
                moved.push((keep, e.target(), *e.weight()));
            }
        }
        let (reads, writes) = {
            let g = &self.graph[gone];
            (g.reads.clone(), g.writes.clone())
        };
        if let Some(node) = self.graph.node_weight_mut(keep) {
            node.reads.extend(reads);
            if take_writes {
                node.writes = writes;
            }
        }
        let position = self.graph[gone].position;
        if let Some(slot) = self.by_position.get_mut(position) {
            *slot = None;
        }
        // By key (the op pointer, never dereferenced: the op is already erased).
        let key = op_key(&self.graph[gone].op);
        if self.nodes.get(&key) == Some(&gone) {
            self.nodes.remove(&key);
        }
        self.graph.remove_node(gone);
        // Every moved edge starts or ends at `keep`: the set holds `keep`'s edges.
        self.edges.clear();
        for e in self.graph.edges_directed(keep, Direction::Incoming) {
            self.edges.insert((e.source(), keep, *e.weight()));
        }
        for e in self.graph.edges_directed(keep, Direction::Outgoing) {
            self.edges.insert((keep, e.target(), *e.weight()));
        }
        for (from, to, edge) in moved {
            // Program order is kept: an edge that would point backwards (an access of the
            // erased op that the kept op, now earlier or later, does not order) is dropped.
            if self.graph[from].position < self.graph[to].position {
                self.add_edge(from, to, edge.dep, edge.buffer);
            }
        }
    }

    /// Forgets `n`'s reads of `buffer` (a rewrite made the op stop reading it).
    pub fn drop_reads(&mut self, n: NodeIndex, buffer: BufferId) {
        if let Some(node) = self.graph.node_weight_mut(n) {
            node.reads.retain(|r| r.place.buffer != buffer);
        }
    }

    /// Forgets `n`'s writes of `buffer`.
    pub fn drop_writes(&mut self, n: NodeIndex, buffer: BufferId) {
        if let Some(node) = self.graph.node_weight_mut(n) {
            node.writes.retain(|w| w.place.buffer != buffer);
        }
    }

    /// Replaces the op of node `n` (after a rewrite put a new op in its place) and its
    /// accesses.
    pub fn replace_op(&mut self, n: NodeIndex, op: OperationRef<'c, 'a>) {
        let old = op_key(&self.graph[n].op);
        self.nodes.remove(&old);
        self.nodes.insert(op_key(&op), n);
        self.graph[n].op = op;
    }
}

/// The byte hull of a static `nisa.ap`'s pattern, relative to the viewed tensor.
/// The memory accesses of one block without their dependencies: the nodes and buffers of
/// [`MemoryGraph::build`], the same reads and writes, and no edges (a pass that needs only who
/// touches which buffer where, such as live ranges for allocation, skips the edge search,
/// most of the build's cost on a large block).
pub struct BlockAccesses<'c, 'a>(MemoryGraph<'c, 'a>);

impl<'c, 'a> BlockAccesses<'c, 'a> {
    /// Analyses `block`.
    pub fn build(block: BlockRef<'c, 'a>) -> Self {
        Self(MemoryGraph::analyse(block, false))
    }

    /// The buffers, by [`BufferId`].
    pub fn buffers(&self) -> &[Buffer<'c, 'a>] {
        &self.0.buffers
    }

    /// What `value` designates (see [`MemoryGraph::place`]).
    pub fn place(&self, value: Value<'c, 'a>) -> Option<Place> {
        self.0.place(value)
    }

    /// The ops that touch memory, in program order.
    pub fn nodes(&self) -> impl Iterator<Item = &Node<'c, 'a>> {
        self.0.graph.node_weights()
    }
}

fn static_hull(v: &View<'_, '_>) -> Option<Region> {
    let pattern = v.i64_array("pattern")?;
    let elem = v.result_tile(0)?.dtype.byte_size() as i128;
    let offset = v.int_attr("offset").unwrap_or(0) as i128;
    let (mut lo, mut hi) = (offset, offset);
    for pair in pattern.chunks(2) {
        let [step, num] = pair else { return None };
        let span = *step as i128 * (*num as i128 - 1);
        if span >= 0 {
            hi += span;
        } else {
            lo += span;
        }
    }
    let lo = i64::try_from(lo * elem).ok()?;
    let hi = i64::try_from((hi + 1) * elem).ok()?;
    Some(Region::Bytes { lo, hi })
}

/// The tile values defined outside `op` that ops in its regions use.
fn collect_outer_tiles<'c, 'a>(op: OperationRef<'c, 'a>, out: &mut Vec<Value<'c, 'a>>) {
    let root = op.to_raw();
    op.walk(melior::ir::operation::WalkOrder::PreOrder, |inner| {
        if inner.to_raw().ptr == root.ptr {
            return melior::ir::operation::WalkResult::Advance;
        }
        for value in inner.operands() {
            if is_tile_type(value.r#type()) && !defined_inside(value, root) {
                // Re-bound to the outer op's lifetimes: the value is defined outside `op`.
                out.push(unsafe { Value::from_raw(value.to_raw()) });
            }
        }
        melior::ir::operation::WalkResult::Advance
    });
}

/// Whether `value` is defined by an op nested in `root` or is an argument of a block nested
/// in it.
fn defined_inside(value: Value<'_, '_>, root: mlir_sys::MlirOperation) -> bool {
    unsafe {
        let raw = value.to_raw();
        let mut op = if mlir_sys::mlirValueIsAOpResult(raw) {
            mlir_sys::mlirOpResultGetOwner(raw)
        } else {
            let block = mlir_sys::mlirBlockArgumentGetOwner(raw);
            mlir_sys::mlirBlockGetParentOperation(block)
        };
        let mut depth = 0;
        while !op.ptr.is_null() && depth < 10_000 {
            if op.ptr == root.ptr {
                return true;
            }
            op = mlir_sys::mlirOperationGetParentOperation(op);
            depth += 1;
        }
        false
    }
}

/// Every block nested in `root`, outer blocks first.
pub fn blocks<'c, 'a>(root: &OperationRef<'c, 'a>) -> Vec<BlockRef<'c, 'a>> {
    let mut out = Vec::new();
    root.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                // Re-bound: blocks live as long as the root's IR.
                out.push(unsafe { BlockRef::from_raw(b.to_raw()) });
                block = b.next_in_region();
            }
        }
        melior::ir::operation::WalkResult::Advance
    });
    out
}
