//! Loops and dynamic addressing through the Rust API: the affine reading of index values and
//! its extremes, loop kinds, the implied `operandSegmentSizes`, HBM buffers, building a
//! `nisa.dynamic_ap` in memory, and `sundial-unroll` through `Session::run_pipeline`. The
//! expected values are worked out by hand from the loop bounds in each module.

use melior::ir::operation::{OperationLike, OperationRef, WalkOrder, WalkResult};
use sundial::{RunOptions, Session};
use sundial_dialects::loops::{
    Extremes, LoopKind, Var, eval_index, extremes, hbm_buffer, loop_kind, trip_count,
};

/// The ops named `name` under `root`, in walk order.
fn ops_named<'c, 'a>(root: &OperationRef<'c, 'a>, name: &str) -> Vec<mlir_sys::MlirOperation> {
    let mut out = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if sundial_dialects::ffi::op_name(op.to_raw()) == name {
            out.push(op.to_raw());
        }
        WalkResult::Advance
    });
    out
}

fn operand(op: mlir_sys::MlirOperation, i: isize) -> mlir_sys::MlirValue {
    unsafe { mlir_sys::mlirOperationGetOperand(op, i) }
}

const NEST: &str = r#"
func.func @f(%t: memref<128x2048xbf16, "sbuf">, %d: memref<128x32xbf16, "sbuf">, %r: !nisa.reg, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  %c64 = arith.constant 64 : index
  %c1000 = arith.constant 1000 : index
  %m = "nisa.register_index"(%r) : (!nisa.reg) -> index
  scf.for %i = %c1 to %c10 step %c3 {
    scf.for %j = %c0 to %c2 step %c1 {
      %a = arith.muli %c64, %i : index
      %b = arith.muli %j, %c1000 : index
      %e = arith.subi %a, %b : index
      %off = arith.addi %e, %c3 : index
      %v = "nisa.dynamic_ap"(%t, %off) {pattern = array<i64: 2048, 128, 1, 32>, offset = 1000}
          : (memref<128x2048xbf16, "sbuf">, index) -> memref<128x32xbf16, "sbuf">
      %sq = arith.muli %i, %j : index
      %w = "nisa.dynamic_ap"(%t, %sq) {pattern = array<i64: 2048, 128, 1, 32>}
          : (memref<128x2048xbf16, "sbuf">, index) -> memref<128x32xbf16, "sbuf">
    }
  }
  scf.for %k = %c0 to %m step %c1 {
    %x = "nisa.dynamic_ap"(%t, %k) {pattern = array<i64: 2048, 128, 1, 32>}
        : (memref<128x2048xbf16, "sbuf">, index) -> memref<128x32xbf16, "sbuf">
  }
  scf.for %l = %c0 to %n step %c1 {
  }
  return
}
"#;

#[test]
fn offsets_read_as_affine_expressions_with_their_extremes() {
    let session = Session::new().unwrap();
    let parsed = session.parse(NEST.as_bytes(), "nest.mlir");
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let module = parsed.module.unwrap();
    let root = module.as_operation();
    let loops = ops_named(&root, "scf.for");
    let aps = ops_named(&root, "nisa.dynamic_ap");
    assert_eq!((loops.len(), aps.len()), (4, 3));

    // 64 * i - 1000 * j + 3, i in {1, 4, 7}, j in {0, 1}.
    let expr = eval_index(operand(aps[0], 1)).expect("affine");
    assert_eq!(expr.constant, 3);
    assert_eq!(
        expr.terms,
        vec![(Var::Loop(loops[0]), 64), (Var::Loop(loops[1]), -1000)]
    );
    let Extremes::Range(lo, hi) = extremes(&expr, None) else {
        panic!("expected a range");
    };
    // Smallest: i = 1, j = 1: 64 - 1000 + 3; largest: i = 7, j = 0: 448 + 3.
    assert_eq!(lo.value, -933);
    assert_eq!(
        lo.at,
        vec![(Var::Loop(loops[0]), 1), (Var::Loop(loops[1]), 1)]
    );
    assert_eq!(hi.value, 451);
    assert_eq!(
        hi.at,
        vec![(Var::Loop(loops[0]), 7), (Var::Loop(loops[1]), 0)]
    );

    // A product of two induction variables is not affine.
    assert_eq!(eval_index(operand(aps[1], 1)), None);
    // The induction variable of a register loop is affine, but has no static range.
    let k = eval_index(operand(aps[2], 1)).expect("affine");
    assert_eq!(extremes(&k, None), Extremes::Unknown);

    assert!(
        matches!(loop_kind(loops[0]), LoopKind::Static(s) if s.lower == 1 && s.step == 3 && s.trip == 3)
    );
    assert!(matches!(loop_kind(loops[1]), LoopKind::Static(s) if s.trip == 2));
    assert_eq!(loop_kind(loops[2]), LoopKind::Register);
    assert_eq!(loop_kind(loops[3]), LoopKind::Dynamic);
}

#[test]
fn trip_counts() {
    assert_eq!(trip_count(0, 10, 3), Some(4)); // 0, 3, 6, 9
    assert_eq!(trip_count(1, 10, 3), Some(3)); // 1, 4, 7
    assert_eq!(trip_count(5, 5, 1), Some(0));
    assert_eq!(trip_count(7, 3, 1), Some(0));
    assert_eq!(trip_count(0, 4, 0), None);
    assert_eq!(trip_count(-4, 4, 4), Some(2)); // -4, 0
}

#[test]
fn program_ids_range_over_the_launch_grid() {
    let session = Session::new().unwrap();
    let src = r#"
module attributes {sundial.grid = array<i64: 2, 4>} {
func.func @f(%x: memref<1024x64xf32, "hbm">) {
  %p = "nisa.program_id"() {axis = 1} : () -> index
  %n = "nisa.num_programs"() : () -> index
  %rows = arith.constant 8192 : index
  %a = arith.muli %p, %rows : index
  %off = arith.addi %a, %n : index
  %v = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 64, 128, 1, 64>}
      : (memref<1024x64xf32, "hbm">, index) -> memref<128x64xf32, "hbm">
  return
}
}"#;
    let parsed = session.parse(src.as_bytes(), "grid.mlir");
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let module = parsed.module.unwrap();
    let ap = ops_named(&module.as_operation(), "nisa.dynamic_ap")[0];
    // num_programs() is 2 * 4 = 8; program_id(1) is in 0..4.
    let expr = eval_index(operand(ap, 1)).expect("affine");
    assert_eq!(expr.constant, 8);
    assert_eq!(expr.terms, vec![(Var::Program(1), 8192)]);
    let Extremes::Range(lo, hi) = extremes(&expr, Some(&[2, 4])) else {
        panic!("expected a range");
    };
    assert_eq!((lo.value, hi.value), (8, 3 * 8192 + 8));
    assert_eq!(extremes(&expr, None), Extremes::Unknown);
}

#[test]
fn deep_shared_expressions_stay_cheap() {
    // x1 = x0 + x0, x2 = x1 + x1, ...: 2^200 paths through 200 values. The walks are bounded,
    // so the offset counts as unknown (left to run time) instead of taking forever.
    let mut src = String::from(
        "func.func @f(%x: memref<128x64xf32, \"hbm\">) {\n  %v0 = arith.constant 1 : index\n",
    );
    for i in 1..=200 {
        src.push_str(&format!(
            "  %v{i} = arith.addi %v{p}, %v{p} : index\n",
            p = i - 1
        ));
    }
    src.push_str(
        "  %a = \"nisa.dynamic_ap\"(%x, %v200) {pattern = array<i64: 64, 128, 1, 64>}\n      : (memref<128x64xf32, \"hbm\">, index) -> memref<128x64xf32, \"hbm\">\n  return\n}\n",
    );
    let session = Session::new().unwrap();
    let start = std::time::Instant::now();
    let parsed = session.parse(src.as_bytes(), "deep.mlir");
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let module = parsed.module.unwrap();
    let ap = ops_named(&module.as_operation(), "nisa.dynamic_ap")[0];
    assert_eq!(eval_index(operand(ap, 1)), None);
    assert!(start.elapsed().as_secs() < 10, "took {:?}", start.elapsed());
}

#[test]
fn segment_sizes_are_implied_only_without_optional_operands() {
    let session = Session::new().unwrap();
    let src = r#"
func.func @f(%t: memref<128x64xf32, "hbm">, %i: index) {
  %a = "nisa.ap"(%t) {pattern = array<i64: 64, 128, 1, 64>}
      : (memref<128x64xf32, "hbm">) -> memref<128x64xf32, "hbm">
  %b = "nisa.dynamic_ap"(%t, %i) {pattern = array<i64: 64, 128, 1, 64>}
      : (memref<128x64xf32, "hbm">, index) -> memref<128x64xf32, "hbm">
  return
}"#;
    let parsed = session.parse(src.as_bytes(), "implied.mlir");
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let module = parsed.module.unwrap();
    let text = session.print(&module, Default::default());
    assert!(
        text.contains("operandSegmentSizes = array<i32: 1, 0, 0>"),
        "{text}"
    );
    assert!(
        text.contains("operandSegmentSizes = array<i32: 1, 1, 0, 0>"),
        "{text}"
    );

    // Other ops keep MLIR's rule.
    let other = r#"
func.func @f(%t: memref<128x64xf32, "sbuf">) {
  "nisa.tensor_scalar_arith"(%t, %t) {op0 = "add", imm0 = 1.0 : f32} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}"#;
    let parsed = session.parse(other.as_bytes(), "other.mlir");
    assert!(parsed.module.is_none());
    assert!(
        parsed.diagnostics.iter().any(|d| d
            .message
            .contains("'operandSegmentSizes' attribute is expected but not provided")),
        "{:?}",
        parsed.diagnostics
    );
}

#[test]
fn hbm_buffers_follow_access_patterns() {
    let session = Session::new().unwrap();
    let src = r#"
func.func @f(%x: memref<128x64xf32, "hbm"> {sundial.buffer = "shared_hbm"}, %y: memref<128x64xf32, "hbm">) {
  %p = "nisa.alloc"() {sundial.buffer = "private_hbm"} : () -> memref<128x64xf32, "hbm">
  %a = "nisa.ap"(%x) {pattern = array<i64: 64, 128, 1, 64>} : (memref<128x64xf32, "hbm">) -> memref<128x64xf32, "hbm">
  %b = "nisa.ap"(%p) {pattern = array<i64: 64, 128, 1, 64>} : (memref<128x64xf32, "hbm">) -> memref<128x64xf32, "hbm">
  %c = "nisa.ap"(%y) {pattern = array<i64: 64, 128, 1, 64>} : (memref<128x64xf32, "hbm">) -> memref<128x64xf32, "hbm">
  return
}"#;
    let parsed = session.parse(src.as_bytes(), "buffers.mlir");
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let module = parsed.module.unwrap();
    let aps = ops_named(&module.as_operation(), "nisa.ap");
    let buffer = |op| hbm_buffer(unsafe { mlir_sys::mlirOperationGetResult(op, 0) });
    assert_eq!(buffer(aps[0]), "shared_hbm");
    assert_eq!(buffer(aps[1]), "private_hbm");
    assert_eq!(buffer(aps[2]), "hbm");
}

#[test]
fn dynamic_ap_builds_in_memory() {
    use melior::ir::{
        Block, BlockLike, Location, Region, RegionLike, Type, operation::OperationBuilder,
    };
    use sundial_dialects::{
        build::{OpBuild, tile_type},
        dtype::Dtype,
        enums::Space,
    };
    let session = Session::new().unwrap();
    let ctx = session.context();
    let loc = Location::unknown(ctx);
    let hbm = tile_type(ctx, Space::Hbm, &[128, 4096], Dtype::F32).unwrap();
    let view = tile_type(ctx, Space::Hbm, &[128, 512], Dtype::F32).unwrap();
    let index = Type::index(ctx);
    let block = Block::new(&[(hbm, loc), (index, loc)]);
    let ap = OpBuild::new(ctx, loc, "nisa.dynamic_ap")
        .unwrap()
        .operand("tensor", block.argument(0).unwrap().into())
        .unwrap()
        .operand("dynamic_offset", block.argument(1).unwrap().into())
        .unwrap()
        .i64_array("pattern", &[4096, 128, 1, 512])
        .unwrap()
        .result(view)
        .build()
        .unwrap();
    block.append_operation(ap);
    block.append_operation(OperationBuilder::new("func.return", loc).build().unwrap());
    let region = Region::new();
    region.append_block(block);
    let func = melior::dialect::func::func(
        ctx,
        melior::ir::attribute::StringAttribute::new(ctx, "f"),
        melior::ir::attribute::TypeAttribute::new(
            melior::ir::r#type::FunctionType::new(ctx, &[hbm, index], &[]).into(),
        ),
        region,
        &[],
        loc,
    );
    let module = melior::ir::Module::new(loc);
    module.body().append_operation(func);
    assert!(module.as_operation().verify());
    assert!(session.verify(&module, "built").is_empty());
    let text = session.print(&module, Default::default());
    assert!(
        text.contains("operandSegmentSizes = array<i32: 1, 1, 0, 0>"),
        "{text}"
    );
}

#[test]
fn dynamic_offset_must_be_an_index() {
    // Built in memory (no parser, no IRDL check first): the semantic verifier reports it.
    use melior::ir::{Block, BlockLike, Location, r#type::IntegerType};
    use sundial_dialects::{
        build::{OpBuild, tile_type},
        dtype::Dtype,
        enums::Space,
    };
    let session = Session::new().unwrap();
    let ctx = session.context();
    let loc = Location::unknown(ctx);
    let hbm = tile_type(ctx, Space::Hbm, &[128, 512], Dtype::F32).unwrap();
    let block = Block::new(&[(hbm, loc), (IntegerType::new(ctx, 32).into(), loc)]);
    let ap = OpBuild::new(ctx, loc, "nisa.dynamic_ap")
        .unwrap()
        .operand("tensor", block.argument(0).unwrap().into())
        .unwrap()
        .operand("dynamic_offset", block.argument(1).unwrap().into())
        .unwrap()
        .i64_array("pattern", &[512, 128, 1, 512])
        .unwrap()
        .result(hbm)
        .build()
        .unwrap();
    let ap = block.append_operation(ap);
    let captured = sundial_dialects::diag::DiagnosticCapture::new(ctx);
    assert!(!sundial_dialects::verify::verify(&ap, None));
    let messages: Vec<String> = captured.take().into_iter().map(|d| d.message).collect();
    assert_eq!(
        messages,
        vec![
            "'nisa.dynamic_ap' op operand 'dynamic_offset': expected an index, got 'i32'"
                .to_string()
        ]
    );
}

const UNROLL: &str = r#"
func.func @f(%x: memref<128x4096xf32, "hbm">, %t: memref<128x512xf32, "sbuf">, %r: !nisa.reg) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c512 = arith.constant 512 : index
  %c1536 = arith.constant 1536 : index
  %n = "nisa.register_index"(%r) : (!nisa.reg) -> index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %a = arith.muli %i, %c1536 : index
      %b = arith.muli %j, %c512 : index
      %off = arith.addi %a, %b : index
      %v = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 4096, 128, 1, 512>}
          : (memref<128x4096xf32, "hbm">, index) -> memref<128x512xf32, "hbm">
      "nisa.dma_copy"(%t, %v) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
    }
  }
  scf.for %k = %c0 to %n step %c1 {
    "nisa.memset"(%t) {value = 0.0 : f32} : (memref<128x512xf32, "sbuf">) -> ()
  }
  return
}
"#;

fn int_attr(op: mlir_sys::MlirOperation, name: &std::ffi::CStr) -> Option<i64> {
    unsafe {
        let a = mlir_sys::mlirOperationGetAttributeByName(
            op,
            mlir_sys::mlirStringRefCreateFromCString(name.as_ptr()),
        );
        melior::ir::Attribute::from_option_raw(a).and_then(sundial_dialects::verify::int_value)
    }
}

#[test]
fn unroll_gives_static_patterns_and_keeps_register_loops() {
    let session = Session::new().unwrap();
    let mut module = session.parse(UNROLL.as_bytes(), "u.mlir").module.unwrap();
    let diags = session
        .run_pipeline(
            &mut module,
            "builtin.module(sundial-unroll)",
            &RunOptions::default(),
            "u.mlir",
        )
        .unwrap();
    assert!(diags.is_empty(), "{diags:?}");
    let root = module.as_operation();
    assert!(ops_named(&root, "nisa.dynamic_ap").is_empty());
    // The register loop stays, alone.
    assert_eq!(ops_named(&root, "scf.for").len(), 1);
    // 2 x 3 copies, offsets 1536 * i + 512 * j in order.
    let offsets: Vec<i64> = ops_named(&root, "nisa.ap")
        .into_iter()
        .map(|op| int_attr(op, c"offset").unwrap())
        .collect();
    assert_eq!(offsets, vec![0, 512, 1024, 1536, 2048, 2560]);
    assert_eq!(ops_named(&root, "nisa.dma_copy").len(), 6);
    // No index arithmetic is left but the register loop's bounds.
    assert!(ops_named(&root, "arith.muli").is_empty());
    assert!(ops_named(&root, "arith.addi").is_empty());
}

#[test]
fn unroll_limit_names_the_loop() {
    let session = Session::new().unwrap();
    let mut module = session.parse(UNROLL.as_bytes(), "u.mlir").module.unwrap();
    // After hoisting `i * 1536` out of the inner loop, the nest makes 2 x (1 + 3 x (2 index
    // ops + the pattern + the copy)) = 26 ops.
    let err = session
        .run_pipeline(
            &mut module,
            "builtin.module(sundial-unroll{max-unroll=25})",
            &RunOptions::default(),
            "u.mlir",
        )
        .unwrap_err();
    let d = err
        .iter()
        .find(|d| d.message.contains("max-unroll"))
        .unwrap_or_else(|| panic!("{err:?}"));
    assert_eq!(
        d.message,
        "'scf.for' op unrolling the loop at 10:3 would produce 26 ops (2 iterations), more than max-unroll=25"
    );
    assert_eq!(d.loc.as_ref().map(|l| (l.line, l.col)), Some((10, 3)));

    let mut module = session.parse(UNROLL.as_bytes(), "u.mlir").module.unwrap();
    assert!(
        session
            .run_pipeline(
                &mut module,
                "builtin.module(sundial-unroll{max-unroll=26})",
                &RunOptions::default(),
                "u.mlir",
            )
            .is_ok()
    );
}
