//! The IR toolkit passes are written with: typed views (table defaults), builders inside a
//! pass, rewrite helpers, the memory def-use/alias analysis, and the logical-tile phase check.

use melior::{
    ContextRef,
    ir::{
        Attribute, Block, BlockLike, Location, Module, OperationRef, Type, Value,
        operation::{OperationBuilder, OperationLike},
        r#type::TypeId,
    },
    pass::{ExternalPass, PassManager, RunExternalPass, create_external},
};
use sundial::Session;
use sundial_dialects::{
    build::{AsContext, Attrs, OpBuild},
    ffi::{NulTerminated, PrintOptions},
    spec::{Arity, AttrKind, OpSpec, OperandKind, Presence},
    view::{AttrValue, View, default_value},
};
use sundial_passes::{
    memory::{BlockAccesses, BufferKind, Dep, MemoryGraph, Region, blocks},
    rewrite::{Rewriter, collect, collect_nisa, erase_dead_views, has_uses, op_is, users},
};

/// Every op of both tables, with its full name.
fn all_ops() -> Vec<(String, &'static OpSpec)> {
    sundial_dialects::nisa::OPS
        .iter()
        .map(|s| (format!("nisa.{}", s.name), s))
        .chain(
            sundial_dialects::bir::OPS
                .iter()
                .map(|b| (format!("bir.{}", b.spec.name), &b.spec)),
        )
        .collect()
}

/// An op `name` with one value for each required operand group (none for optional and
/// variadic groups), carrying `attrs` only. Nothing is verified: views read any op.
fn bare_op<'c>(
    context: &'c melior::Context,
    block: &Block<'c>,
    name: &str,
    spec: &OpSpec,
    attrs: &[(&str, Attribute<'c>)],
) -> melior::ir::Operation<'c> {
    let location = Location::unknown(context);
    let tile = Type::parse(
        context,
        NulTerminated::new("memref<1x1xf32, \"sbuf\">").as_str(),
    )
    .unwrap();
    let reg = Type::parse(context, NulTerminated::new("!nisa.reg").as_str()).unwrap();
    let mut operands: Vec<Value> = Vec::new();
    let mut sizes = Vec::new();
    for operand in spec.operands {
        let n = usize::from(operand.arity == Arity::One);
        for _ in 0..n {
            let ty = if operand.kind == OperandKind::Reg {
                reg
            } else {
                tile
            };
            operands.push(block.add_argument(ty, location));
        }
        sizes.push(n as i32);
    }
    let a = Attrs::new(context);
    let mut named: Vec<(melior::ir::Identifier, Attribute)> =
        attrs.iter().map(|(n, v)| (a.identifier(n), *v)).collect();
    if spec.needs_segment_sizes() {
        named.push((a.identifier("operandSegmentSizes"), a.i32_array(&sizes)));
    }
    OperationBuilder::new(name, location)
        .add_operands(&operands)
        .add_attributes(&named)
        .build()
        .unwrap()
}

/// The MLIR spelling of a table default, for MLIR's own attribute parser.
fn default_as_mlir(kind: &AttrKind, text: &str) -> String {
    match kind {
        AttrKind::Enum(_) | AttrKind::EnumSubset(..) | AttrKind::Str | AttrKind::AsmBytes => {
            format!("\"{text}\"")
        }
        AttrKind::Int { .. } => format!("{text} : i64"),
        AttrKind::Float => format!("{text} : f32"),
        _ => text.to_string(),
    }
}

/// What a view reads for attribute `name` through the getter of `value`'s kind.
fn read(view: &View<'_, '_>, name: &str, value: &AttrValue) -> AttrValue {
    match value {
        AttrValue::Str(_) => AttrValue::Str(view.str_attr(name).expect("a string")),
        AttrValue::Int(_) => AttrValue::Int(view.int_attr(name).expect("an integer")),
        AttrValue::Float(_) => AttrValue::Float(view.float_attr(name).expect("a float")),
        AttrValue::Bool(_) => AttrValue::Bool(view.bool_attr(name)),
        AttrValue::I64Array(_) => AttrValue::I64Array(view.i64_array(name).expect("an array")),
    }
}

/// Generated from the tables: for every attribute with a default, an op without it reads
/// exactly like the same op with the default written out (parsed by MLIR from the table's
/// text), and an op with it reads what is written.
#[test]
fn absent_attributes_read_as_their_table_defaults() {
    let session = Session::new().unwrap();
    let context = session.context();
    let mut checked = 0;
    for (name, spec) in all_ops() {
        for attr in spec.attrs {
            let Presence::Default(text) = attr.presence else {
                continue;
            };
            let expected = default_value(attr).unwrap_or_else(|| {
                panic!("{name}.{}: default {text:?} does not decode", attr.name)
            });
            let mlir = default_as_mlir(&attr.kind, text);
            let written = Attribute::parse(context, NulTerminated::new(&mlir).as_str())
                .unwrap_or_else(|| panic!("{name}.{}: MLIR cannot parse {mlir}", attr.name));
            let block = Block::new(&[]);
            let absent = block.append_operation(bare_op(context, &block, &name, spec, &[]));
            let present = block.append_operation(bare_op(
                context,
                &block,
                &name,
                spec,
                &[(attr.name, written)],
            ));
            let (absent, present) = (View::of(absent).unwrap(), View::of(present).unwrap());
            assert!(!absent.has_attr(attr.name) && present.has_attr(attr.name));
            assert_eq!(
                read(&absent, attr.name, &expected),
                read(&present, attr.name, &expected),
                "{name}.{}: absent must read as the written default {mlir}",
                attr.name
            );
            assert_eq!(
                read(&absent, attr.name, &expected),
                expected,
                "{name}.{}",
                attr.name
            );
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} defaulted attributes found");
}

/// The bug that motivated the defaults: an absent `unique_indices` (default true) read false.
#[test]
fn unique_indices_defaults_to_true() {
    let session = Session::new().unwrap();
    let context = session.context();
    let spec = sundial_dialects::nisa::op("dma_copy_indirect").unwrap();
    let block = Block::new(&[]);
    let absent = block.append_operation(bare_op(
        context,
        &block,
        "nisa.dma_copy_indirect",
        spec,
        &[],
    ));
    let f = Attrs::new(context).bool(false);
    let written = block.append_operation(bare_op(
        context,
        &block,
        "nisa.dma_copy_indirect",
        spec,
        &[("unique_indices", f)],
    ));
    assert!(View::of(absent).unwrap().bool_attr("unique_indices"));
    assert!(!View::of(written).unwrap().bool_attr("unique_indices"));
    // An optional flag without a default reads false when absent.
    assert!(
        !View::of(absent)
            .unwrap()
            .bool_attr("priority_is_not_a_bool")
    );
}

#[test]
fn views_find_operands_by_group() {
    let session = Session::new().unwrap();
    let text = r#"
func.func @k(%d: memref<128x64xf32, "sbuf">, %s: memref<128x64xf32, "sbuf">, %c: memref<128x1xf32, "sbuf">) {
  "nisa.tensor_scalar_arith"(%d, %s, %c) {op0 = "add", op1 = "mult", imm1 = 2.0 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
  return
}"#;
    let module = session.parse(text.as_bytes(), "v.mlir").module.unwrap();
    let ops = collect_nisa(&module.as_operation(), "tensor_scalar_arith");
    let [v] = ops.as_slice() else { panic!() };
    assert_eq!(v.tile("operand0").unwrap().shape, vec![128, 1]);
    assert!(v.value("operand1").is_none());
    assert_eq!(v.group("operand1"), Some((3, 0)));
    let writes: Vec<_> = v
        .tile_operands()
        .iter()
        .map(|t| (t.group, t.write))
        .collect();
    assert_eq!(
        writes,
        vec![("dst", true), ("data", false), ("operand0", false)]
    );
    assert_eq!(v.engine(), sundial_dialects::enums::Engine::Unknown);
    assert!(v.explicit_engine().is_none());
    assert!(!v.bool_attr("reverse0"));
}

// ---- builders inside a pass ---------------------------------------------------------------

#[repr(align(8))]
struct PassId;
static INSERT_PASS_ID: PassId = PassId;

/// A test pass that puts a `nisa.memset` of 0 on the `dst` of every `nisa.reciprocal`, right
/// before it, with builders made from the op's own context handle (`OpBuild::at`), and a
/// scratch `nisa.alloc` after it that the dead-view cleanup then removes.
#[derive(Clone)]
struct InsertMemset;

impl<'c> RunExternalPass<'c> for InsertMemset {
    fn initialize(&mut self, _context: ContextRef<'c>) {}

    fn run(&mut self, operation: OperationRef<'c, '_>, _pass: ExternalPass<'_>) {
        let targets = collect_nisa(&operation, "reciprocal");
        let rewriter = Rewriter::new(&operation);
        for v in targets {
            let op = v.op();
            let dst = v.value("dst").unwrap();
            let memset = OpBuild::at(&op, "nisa.memset")
                .unwrap()
                .operand("dst", dst)
                .unwrap()
                .f32("value", 0.0)
                .unwrap()
                .str("engine", "vector")
                .unwrap();
            rewriter.build_before(op, memset).unwrap();
            // The context handle by value, from a temporary op.context(): no reference to a
            // temporary is ever taken.
            let ctx: ContextRef<'c> = op.context().context_ref();
            let ty = sundial_dialects::build::tile_type(
                ctx,
                sundial_dialects::enums::Space::Sbuf,
                &[128, 4],
                sundial_dialects::dtype::Dtype::F32,
            )
            .unwrap();
            let scratch = OpBuild::at(&op, "nisa.alloc")
                .unwrap()
                .result(ty)
                .build()
                .unwrap();
            rewriter.insert_after(op, scratch);
        }
        assert_eq!(erase_dead_views(&operation), 1);
    }
}

#[test]
fn builders_work_inside_a_pass() {
    let session = Session::new().unwrap();
    let text = r#"
func.func @k(%a: memref<128x64xf32, "sbuf">, %b: memref<128x64xf32, "sbuf">) {
  "nisa.reciprocal"(%b, %a) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}"#;
    let mut module = session.parse(text.as_bytes(), "p.mlir").module.unwrap();
    let pm = PassManager::new(session.context());
    pm.add_pass(create_external(
        InsertMemset,
        TypeId::create(&INSERT_PASS_ID),
        "InsertMemset",
        "test-insert-memset",
        "",
        "",
        &[],
    ));
    pm.run(&mut module).unwrap();
    assert!(session.verify(&module, "p").is_empty());
    let out = session.print(&module, PrintOptions::default());
    let memset =
        out.find("\"nisa.memset\"(%arg1) {engine = \"vector\", value = 0.000000e+00 : f32}");
    let recip = out.find("\"nisa.reciprocal\"");
    assert!(memset.is_some() && memset < recip, "{out}");
    assert!(!out.contains("nisa.alloc"), "{out}");
}

// ---- rewrite helpers -----------------------------------------------------------------------

#[test]
fn rewrite_helpers_replace_erase_and_clean_up() {
    let session = Session::new().unwrap();
    let text = r#"
func.func @k(%d: memref<128x64xf32, "sbuf">) {
  %t = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  %v = "nisa.ap"(%t) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 0, 0>} : (memref<128x64xf32, "sbuf">) -> memref<128x64xf32, "sbuf">
  %u = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.memset"(%u) {value = 1.0 : f32} : (memref<128x64xf32, "sbuf">) -> ()
  "nisa.reciprocal"(%d, %u) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}"#;
    let module = session.parse(text.as_bytes(), "r.mlir").module.unwrap();
    let root = module.as_operation();
    let allocs = collect(&root, |op| op_is(op, "nisa.alloc"));
    assert_eq!(allocs.len(), 2);
    let u: Value = allocs[1].result(0).unwrap().into();
    assert_eq!(users(u).len(), 2);
    let t: Value = allocs[0].result(0).unwrap().into();
    assert!(has_uses(t));
    // Replace the memset by one of value 2, erase nothing else yet.
    let memset = collect_nisa(&root, "memset").remove(0).op();
    let rewriter = Rewriter::new(&root);
    let new = OpBuild::at(&memset, "nisa.memset")
        .unwrap()
        .operand("dst", u)
        .unwrap()
        .f32("value", 2.0)
        .unwrap()
        .build()
        .unwrap();
    rewriter.replace(memset, new);
    // The view of %t is dead, then %t is: two ops; %u is used.
    assert_eq!(erase_dead_views(&root), 2);
    assert!(session.verify(&module, "r").is_empty());
    let out = session.print(&module, PrintOptions::default());
    assert!(out.contains("value = 2.000000e+00"), "{out}");
    assert!(!out.contains("value = 1.0"), "{out}");
    assert_eq!(out.matches("nisa.alloc").count(), 1, "{out}");
    assert!(!out.contains("nisa.ap"), "{out}");
}

// ---- memory def-use and alias analysis ------------------------------------------------------

/// The ops of the first function of `module`'s body block, with its memory graph.
fn graph_of<'c, 'a>(module: &'a Module<'c>) -> (MemoryGraph<'c, 'a>, Vec<OperationRef<'c, 'a>>) {
    let root = module.as_operation();
    let body = blocks(&root)
        .into_iter()
        .find(|b| b.parent_operation().is_some_and(|p| op_is(&p, "func.func")))
        .unwrap();
    let mut ops = Vec::new();
    let mut cursor = body.first_operation();
    while let Some(op) = cursor {
        ops.push(op);
        cursor = op.next_in_block();
    }
    (MemoryGraph::build(body), ops)
}

const MEMORY: &str = r#"
func.func private @ext(memref<128x64xf32, "sbuf">)
func.func @k(%x: memref<128x64xf32, "sbuf">, %y: memref<128x64xf32, "sbuf">) {
  %t = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
  "nisa.tensor_scalar_arith"(%t, %x) {op0 = "mult", imm0 = 2.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%y, %t) {op0 = "add", imm0 = 1.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.memset"(%x) {value = 0.0 : f32} : (memref<128x64xf32, "sbuf">) -> ()
  %lo = "nisa.ap"(%y) {pattern = array<i64: 64, 64, 1, 64>, operandSegmentSizes = array<i32: 1, 0, 0>} : (memref<128x64xf32, "sbuf">) -> memref<64x64xf32, "sbuf">
  %hi = "nisa.ap"(%y) {pattern = array<i64: 64, 64, 1, 64>, offset = 4096, operandSegmentSizes = array<i32: 1, 0, 0>} : (memref<128x64xf32, "sbuf">) -> memref<64x64xf32, "sbuf">
  %s = "nisa.alloc"() : () -> memref<64x64xf32, "sbuf">
  "nisa.memset"(%hi) {value = 3.0 : f32} : (memref<64x64xf32, "sbuf">) -> ()
  "nisa.reciprocal"(%s, %lo) : (memref<64x64xf32, "sbuf">, memref<64x64xf32, "sbuf">) -> ()
  func.call @ext(%t) : (memref<128x64xf32, "sbuf">) -> ()
  return
}"#;

#[test]
fn memory_graph_orders_accesses_by_tile_region() {
    let session = Session::new().unwrap();
    let module = session.parse(MEMORY.as_bytes(), "m.mlir").module.unwrap();
    let (g, ops) = graph_of(&module);
    let node = |i: usize| {
        g.node(&ops[i])
            .unwrap_or_else(|| panic!("op {i} has a node"))
    };
    let (mul, add, clear, set_hi, recip, call) =
        (node(1), node(2), node(3), node(7), node(8), node(9));
    assert!(g.node(&ops[0]).is_none(), "an alloc touches no memory");
    // %t: written by mul, read by add, then used by the call (opaque: reads and writes it).
    let t = ops[0].result(0).unwrap().into();
    assert_eq!(g.unique_producer(add, t), Some(mul));
    let tb = g.place(t).unwrap().buffer;
    assert_eq!(g.readers_of(mul, tb), vec![add, call]);
    assert_eq!(g.buffers[tb].kind, BufferKind::Alloc);
    assert!(!g.is_private(tb), "the call uses %t");
    // %x: read by mul, then overwritten by the memset (write after read).
    assert_eq!(g.overwriters_of_reads(mul), vec![clear]);
    // %y: written whole by add; the views %lo and %hi alias it, in disjoint halves.
    let lo = ops[4].result(0).unwrap().into();
    let hi = ops[5].result(0).unwrap().into();
    let (plo, phi) = (g.place(lo).unwrap(), g.place(hi).unwrap());
    assert_eq!(
        plo.region,
        Region::Bytes {
            lo: 0,
            hi: 64 * 64 * 4
        }
    );
    assert_eq!(
        phi.region,
        Region::Bytes {
            lo: 64 * 64 * 4,
            hi: 128 * 64 * 4
        }
    );
    assert_eq!(plo.buffer, phi.buffer);
    assert!(g.buffers[plo.buffer].viewed);
    // recip reads %lo: add wrote it (whole %y); set_hi wrote only the other half.
    assert_eq!(g.producers_of(recip, lo), vec![add]);
    let has = |a, b, dep| {
        g.graph
            .edges_connecting(a, b)
            .any(|e| e.weight().dep == dep)
    };
    assert!(has(add, set_hi, Dep::Output));
    assert!(
        !has(set_hi, recip, Dep::Flow),
        "disjoint halves do not depend"
    );
    assert!(has(add, recip, Dep::Flow));
    // The graph is a DAG in program order.
    for e in g.graph.edge_indices() {
        let (a, b) = g.graph.edge_endpoints(e).unwrap();
        assert!(g.graph[a].position < g.graph[b].position);
    }
}

/// `BlockAccesses` (allocation's live ranges) sees what the memory graph sees, minus the
/// edges: the same nodes in program order, with the same reads and writes, and the same
/// buffers and places.
#[test]
fn block_accesses_are_the_graph_nodes() {
    use melior::ir::ValueLike;
    let session = Session::new().unwrap();
    let module = session.parse(MEMORY.as_bytes(), "m.mlir").module.unwrap();
    let (g, ops) = graph_of(&module);
    let accesses = BlockAccesses::build(ops[0].block().unwrap());
    let places = |a: &[sundial_passes::memory::Access<'_, '_>]| {
        a.iter()
            .map(|x| (x.value.to_raw().ptr as usize, x.place))
            .collect::<Vec<_>>()
    };
    let from_graph: Vec<_> = g
        .nodes_in_order()
        .into_iter()
        .map(|n| &g.graph[n])
        .map(|n| (n.op, n.position, places(&n.reads), places(&n.writes)))
        .collect();
    let alone: Vec<_> = accesses
        .nodes()
        .map(|n| (n.op, n.position, places(&n.reads), places(&n.writes)))
        .collect();
    assert_eq!(alone.len(), 6, "mul, add, two memsets, recip, call");
    assert_eq!(alone, from_graph);
    assert_eq!(accesses.buffers().len(), g.buffers.len());
    for op in &ops {
        for r in 0..op.result_count() {
            let v = op.result(r).unwrap().into();
            assert_eq!(accesses.place(v), g.place(v));
        }
    }
}

#[test]
fn indirect_views_touch_the_whole_buffer_and_read_their_index() {
    let session = Session::new().unwrap();
    let text = r#"
func.func @k(%table: memref<4096x64xf32, "hbm">, %idx: memref<128x1xi32, "sbuf">, %rows: memref<128x64xf32, "sbuf">) {
  "nisa.memset"(%idx) {value = 0 : i64} : (memref<128x1xi32, "sbuf">) -> ()
  %g = "nisa.ap"(%table, %idx) {pattern = array<i64: 64, 128, 1, 64>, operandSegmentSizes = array<i32: 1, 1, 0>} : (memref<4096x64xf32, "hbm">, memref<128x1xi32, "sbuf">) -> memref<128x64xf32, "hbm">
  "nisa.dma_copy_indirect"(%rows, %g) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  return
}"#;
    let module = session.parse(text.as_bytes(), "i.mlir").module.unwrap();
    let (g, ops) = graph_of(&module);
    let (set, copy) = (g.node(&ops[0]).unwrap(), g.node(&ops[2]).unwrap());
    let view = ops[1].result(0).unwrap().into();
    assert_eq!(g.place(view).unwrap().region, Region::Whole);
    // The copy reads the index tile through the view.
    let idx = g.graph[set].writes[0].value;
    assert_eq!(g.unique_producer(copy, idx), Some(set));
    assert_eq!(g.buffer_of(view).unwrap().kind, BufferKind::Argument);
}
