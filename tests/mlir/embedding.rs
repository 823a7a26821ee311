//! The embedding API front ends call: parse/verify/run/print with diagnostics as values, and
//! IR built with melior's builders verified by the same rules.

use melior::ir::{
    Attribute, Block, Identifier, Location, Module, Region, RegionLike, Type,
    attribute::{StringAttribute, TypeAttribute},
    block::BlockLike,
    operation::{OperationBuilder, OperationLike},
    r#type::FunctionType,
};
use sundial::{Phase, RunOptions, Session, Severity};
use sundial_dialects::ffi::PrintOptions;

const KERNEL: &str = r#"
func.func @k(%a: memref<128x64xf32, "sbuf">, %b: memref<128x64xf32, "sbuf">) {
  "nisa.reciprocal"(%b, %a) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}
"#;

/// `func.func @k(args) { block; return }` with `block` as its body.
fn func_k<'c>(
    context: &'c melior::Context,
    block: Block<'c>,
    args: &[Type<'c>],
) -> melior::ir::Operation<'c> {
    block.append_operation(
        OperationBuilder::new("func.return", Location::unknown(context))
            .build()
            .expect("func.return builds"),
    );
    let region = Region::new();
    region.append_block(block);
    OperationBuilder::new("func.func", Location::unknown(context))
        .add_attributes(&[
            (
                Identifier::new(context, "sym_name"),
                StringAttribute::new(context, "k").into(),
            ),
            (
                Identifier::new(context, "function_type"),
                TypeAttribute::new(FunctionType::new(context, args, &[]).into()).into(),
            ),
        ])
        .add_regions([region])
        .build()
        .expect("func.func builds")
}

#[test]
fn parse_print_round_trip() {
    let session = Session::new().unwrap();
    let parsed = session.parse(KERNEL.as_bytes(), "k.mlir");
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let module = parsed.module.expect("module");
    let text = session.print(&module, PrintOptions::default());
    assert!(text.contains("\"nisa.reciprocal\""), "{text}");
    let again = session.parse(text.as_bytes(), "again.mlir");
    let text2 = session.print(&again.module.expect("re-parse"), PrintOptions::default());
    assert_eq!(text, text2);
}

#[test]
fn diagnostics_are_values_with_locations() {
    let session = Session::new().unwrap();
    let bad = KERNEL.replace("\"sbuf\"", "\"hbm\"");
    let parsed = session.parse(bad.as_bytes(), "bad.mlir");
    assert!(parsed.module.is_none());
    let d = parsed.diagnostics.first().expect("a diagnostic");
    assert_eq!(d.severity, Severity::Error);
    let loc = d.loc.as_ref().expect("location");
    assert_eq!((loc.file.as_str(), loc.line), ("bad.mlir", 3));
    assert!(
        d.render("bad.mlir")
            .starts_with("bad.mlir:3:3: error: 'nisa.reciprocal' op"),
        "{}",
        d.render("bad.mlir")
    );
}

#[test]
fn built_ir_is_verified_by_the_same_rules() {
    let session = Session::new().unwrap();
    let context = session.context();
    let location = Location::unknown(context);
    let tile: Type = Type::parse(
        context,
        sundial_dialects::ffi::NulTerminated::new("memref<256x4xf32, \"sbuf\">").as_str(),
    )
    .expect("type");
    let module = Module::new(location);
    let block = Block::new(&[(tile, location), (tile, location)]);
    let op = OperationBuilder::new("nisa.reciprocal", location)
        .add_operands(&[
            block.argument(0).unwrap().into(),
            block.argument(1).unwrap().into(),
        ])
        .build()
        .expect("op");
    block.append_operation(op);
    module
        .body()
        .append_operation(func_k(context, block, &[tile, tile]));
    assert!(module.as_operation().verify(), "structurally valid");
    // Tiles are logical until partition tiling: 256 partitions pass the default rules...
    let diags = session.verify(&module, "built");
    assert!(diags.is_empty(), "{diags:?}");
    // ...and break the partition rule of the tiled phase.
    assert_only(
        &session.verify_phase(&module, "built", Phase::Tiled),
        "partition dimension 256 exceeds 128",
    );
}

/// `diags` is one diagnostic whose message contains `expected`.
fn assert_only(diags: &[sundial::Diagnostic], expected: &str) {
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(diags[0].message.contains(expected), "{}", diags[0].message);
}

#[test]
fn pipelines_mix_rust_and_upstream_passes() {
    let session = Session::new().unwrap();
    let mut module = session.parse(KERNEL.as_bytes(), "k.mlir").module.unwrap();
    let diags = session
        .run_pipeline(
            &mut module,
            "builtin.module(sundial-verify{target=cayman},canonicalize,func.func(cse))",
            &RunOptions::default(),
            "k.mlir",
        )
        .expect("pipeline runs");
    assert!(diags.is_empty(), "{diags:?}");
    for (pipeline, expected) in [
        ("builtin.module(no-such-pass)", "no-such-pass"),
        ("sundial-verify{target=trn9}", "invalid value 'trn9'"),
    ] {
        let err = session
            .run_pipeline(&mut module, pipeline, &RunOptions::default(), "k.mlir")
            .unwrap_err();
        assert!(
            err[0].message.contains(expected),
            "{pipeline}: {}",
            err[0].message
        );
    }
}

#[test]
fn verify_pass_uses_the_target_option() {
    let session = Session::new().unwrap();
    let src = r#"
func.func @k(%a: memref<128x64xf32, "sbuf">, %b: memref<128x64xf32, "sbuf">) {
  "nisa.exponential"(%b, %a) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}"#;
    let mut module = session
        .parse(src.as_bytes(), "e.mlir")
        .module
        .expect("no target: accepted");
    let err = session
        .run_pipeline(
            &mut module,
            "builtin.module(sundial-verify{target=cayman})",
            &RunOptions::default(),
            "e.mlir",
        )
        .unwrap_err();
    assert!(
        err.iter().any(|d| d.message.contains("needs mariana")),
        "{err:?}"
    );
    assert!(
        session
            .run_pipeline(
                &mut module,
                "sundial-verify{target=mariana}",
                &RunOptions::default(),
                "e.mlir"
            )
            .is_ok()
    );
}

#[test]
fn table_driven_builder() {
    use sundial_dialects::{
        build::{BuildError, OpBuild, tile_type},
        dtype::Dtype,
        enums::Space,
    };
    let session = Session::new().unwrap();
    let context = session.context();
    let location = Location::unknown(context);
    let sbuf = tile_type(context, Space::Sbuf, &[128, 64], Dtype::F32).unwrap();
    let module = Module::new(location);
    let block = Block::new(&[(sbuf, location), (sbuf, location)]);
    let (dst, src) = (
        block.argument(0).unwrap().into(),
        block.argument(1).unwrap().into(),
    );
    // Operands by name in any order; operandSegmentSizes computed; attributes checked on entry.
    let op = OpBuild::new(context, location, "nisa.tensor_scalar_arith")
        .unwrap()
        .operand("data", src)
        .unwrap()
        .operand("dst", dst)
        .unwrap()
        .str("op0", "mult")
        .unwrap()
        .f32("imm0", 0.5)
        .unwrap()
        .str("engine", "vector")
        .unwrap()
        .build()
        .unwrap();
    block.append_operation(op);
    assert!(matches!(
        OpBuild::new(context, location, "nisa.tensor_scalar_arith")
            .unwrap()
            .str("op0", "frobnicate"),
        Err(BuildError::BadAttribute { .. })
    ));
    assert!(matches!(
        OpBuild::new(context, location, "nisa.gather")
            .unwrap()
            .operand("idx", src),
        Err(BuildError::UnknownOperand { .. })
    ));
    assert!(matches!(
        OpBuild::new(context, location, "nisa.tensor_tensor_arith")
            .unwrap()
            .operand("dst", dst)
            .unwrap()
            .build(),
        Err(BuildError::MissingAttribute { .. })
    ));
    assert!(matches!(
        OpBuild::new(context, location, "nisa.nope"),
        Err(BuildError::UnknownOp(_))
    ));
    module
        .body()
        .append_operation(func_k(context, block, &[sbuf, sbuf]));
    assert!(module.as_operation().verify());
    assert!(session.verify(&module, "built").is_empty());
    let text = session.print(&module, PrintOptions::default());
    assert!(
        text.contains("operandSegmentSizes = array<i32: 1, 1, 0, 0>"),
        "{text}"
    );
    assert!(session.parse(text.as_bytes(), "again").module.is_some());
}

/// The snapshot the middle end compares to skip re-verifying a step that changed nothing: equal
/// for the same IR, different after any change the verifier reads (an attribute, an operand, an
/// op's place).
#[test]
fn snapshot_sees_what_the_verifier_reads() {
    use melior::ir::{TypeLike, attribute::AttributeLike};
    use sundial_dialects::verify::snapshot;
    use sundial_passes::rewrite::{collect, op_is};
    let session = Session::new().unwrap();
    let text = r#"
func.func @k(%a: memref<128x64xf32, "sbuf">, %b: memref<128x64xf32, "sbuf">) {
  "nisa.reciprocal"(%b, %a) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.reciprocal"(%a, %b) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  return
}
"#;
    let module = session
        .parse(text.as_bytes(), "k.mlir")
        .module
        .expect("module");
    let root = module.as_operation();
    let first = snapshot(&root);
    assert_eq!(first, snapshot(&root), "the same IR, the same snapshot");
    let ops = collect(&root, |op| op_is(op, "nisa.reciprocal"));
    let (one, two) = (ops[0].to_raw(), ops[1].to_raw());
    let context = session.context();
    unsafe {
        // An attribute set, then removed: back to the first snapshot.
        let engine = StringAttribute::new(context, "vector");
        let name = mlir_sys::mlirStringRefCreateFromCString(c"engine".as_ptr());
        mlir_sys::mlirOperationSetAttributeByName(one, name, engine.to_raw());
        assert_ne!(first, snapshot(&root), "an attribute added");
        mlir_sys::mlirOperationRemoveAttributeByName(one, name);
        assert_eq!(first, snapshot(&root), "the attribute removed again");
        // An operand replaced.
        let a = mlir_sys::mlirOperationGetOperand(one, 1);
        let b = mlir_sys::mlirOperationGetOperand(one, 0);
        mlir_sys::mlirOperationSetOperand(one, 1, b);
        assert_ne!(first, snapshot(&root), "an operand replaced");
        mlir_sys::mlirOperationSetOperand(one, 1, a);
        assert_eq!(first, snapshot(&root));
        // A location changed.
        let loc = mlir_sys::mlirOperationGetLocation(one);
        let elsewhere = mlir_sys::mlirLocationFileLineColGet(
            context.to_raw(),
            mlir_sys::mlirStringRefCreateFromCString(c"other.mlir".as_ptr()),
            7,
            3,
        );
        mlir_sys::mlirOperationSetLocation(one, elsewhere);
        assert_ne!(first, snapshot(&root), "a location changed");
        mlir_sys::mlirOperationSetLocation(one, loc);
        assert_eq!(first, snapshot(&root));
        // A type changed, of an operand and then of a block argument (both the same value).
        let arg = mlir_sys::mlirOperationGetOperand(one, 1);
        let ty = mlir_sys::mlirValueGetType(arg);
        let other = Type::parse(context, r#"memref<128x32xf32, "sbuf">"#).unwrap();
        mlir_sys::mlirBlockArgumentSetType(arg, other.to_raw());
        assert_ne!(first, snapshot(&root), "an argument's type changed");
        mlir_sys::mlirBlockArgumentSetType(arg, ty);
        assert_eq!(first, snapshot(&root));
        // The two ops swapped.
        mlir_sys::mlirOperationMoveAfter(one, two);
        assert_ne!(first, snapshot(&root), "ops reordered");
        mlir_sys::mlirOperationMoveAfter(two, one);
        assert_eq!(first, snapshot(&root), "the order restored");
    }
}

/// An inherent attribute that MLIR keeps as a property (not in the attribute dictionary of
/// the op's storage) is in the snapshot too: changing `arith.constant`'s value or a
/// `func.func`'s name changes it.
#[test]
fn snapshot_sees_inherent_attributes() {
    use melior::ir::attribute::AttributeLike;
    use sundial_dialects::verify::snapshot;
    use sundial_passes::rewrite::{collect, op_is};
    let session = Session::new().unwrap();
    let text = r#"
func.func @k() {
  %c = arith.constant 4 : index
  return
}
"#;
    let module = session
        .parse(text.as_bytes(), "c.mlir")
        .module
        .expect("module");
    let root = module.as_operation();
    let first = snapshot(&root);
    let constant = collect(&root, |op| op_is(op, "arith.constant"))[0].to_raw();
    let func = collect(&root, |op| op_is(op, "func.func"))[0].to_raw();
    let context = session.context();
    unsafe {
        let value = c"value";
        let name = mlir_sys::mlirStringRefCreateFromCString(value.as_ptr());
        let old = mlir_sys::mlirOperationGetInherentAttributeByName(constant, name);
        let five = Attribute::parse(context, "5 : index").unwrap();
        mlir_sys::mlirOperationSetInherentAttributeByName(constant, name, five.to_raw());
        assert_ne!(first, snapshot(&root), "the constant's value changed");
        mlir_sys::mlirOperationSetInherentAttributeByName(constant, name, old);
        assert_eq!(first, snapshot(&root), "the value restored");
        let sym = mlir_sys::mlirStringRefCreateFromCString(c"sym_name".as_ptr());
        let old = mlir_sys::mlirOperationGetInherentAttributeByName(func, sym);
        let renamed = StringAttribute::new(context, "j");
        mlir_sys::mlirOperationSetInherentAttributeByName(func, sym, renamed.to_raw());
        assert_ne!(first, snapshot(&root), "the function renamed");
        mlir_sys::mlirOperationSetInherentAttributeByName(func, sym, old);
        assert_eq!(first, snapshot(&root), "the name restored");
    }
}

/// Inside `remembering_verified`, verifying unchanged IR again skips only the checks that
/// already passed on it: a later phase still runs its own checks, a failure is never
/// remembered, and any change the verifier reads is verified in full.
#[test]
fn remembered_verification_still_finds_every_error() {
    use melior::ir::attribute::AttributeLike;
    use sundial_dialects::verify::remembering_verified;
    use sundial_passes::rewrite::{collect, op_is};
    let session = Session::new().unwrap();
    let wide = KERNEL.replace("128x64", "256x4");
    let module = session.parse(wide.as_bytes(), "w.mlir").module.unwrap();
    remembering_verified(|| {
        for _ in 0..2 {
            let diags = session.verify_phase(&module, "w.mlir", Phase::Logical);
            assert!(diags.is_empty(), "{diags:?}");
        }
        // The tiled phase adds the partition rule: the walk of its checks alone finds 256.
        for _ in 0..2 {
            assert_only(
                &session.verify_phase(&module, "w.mlir", Phase::Tiled),
                "partition dimension 256 exceeds 128",
            );
        }
    });
    let module = session.parse(KERNEL.as_bytes(), "k.mlir").module.unwrap();
    remembering_verified(|| {
        assert!(session.verify_phase(&module, "k", Phase::Tiled).is_empty());
        // Selection needs a resolved engine: a check the tiled verification did not run.
        assert_only(
            &session.verify_phase(&module, "k", Phase::Selection),
            "has no 'engine' attribute",
        );
        // An attribute the table rules reject, set after a passed verification.
        assert!(
            session
                .verify_phase(&module, "k", Phase::Logical)
                .is_empty()
        );
        let root = module.as_operation();
        let op = collect(&root, |op| op_is(op, "nisa.reciprocal"))[0].to_raw();
        unsafe {
            let engine = StringAttribute::new(session.context(), "sundial");
            let name = mlir_sys::mlirStringRefCreateFromCString(c"engine".as_ptr());
            mlir_sys::mlirOperationSetAttributeByName(op, name, engine.to_raw());
        }
        let diags = session.verify_phase(&module, "k", Phase::Logical);
        assert!(
            diags.iter().any(|d| d.message.contains("engine")),
            "{diags:?}"
        );
    });
}

/// A kernel for the incremental verification: a loop whose dynamic access pattern's bound
/// depends on two constants (one a loop bound, one a factor of the offset), and enough plain
/// ops that a change to a few of them is re-verified alone.
fn incremental_kernel() -> String {
    let mut body = String::new();
    for _ in 0..20 {
        body.push_str(
            "  \"nisa.reciprocal\"(%w, %u) : (memref<128x64xf32, \"sbuf\">, memref<128x64xf32, \"sbuf\">) -> ()\n",
        );
    }
    format!(
        r#"module attributes {{sundial.target = "cayman"}} {{
func.func @k(%x: memref<128x4096xf32, "hbm">, %t: memref<128x512xf32, "sbuf">,
             %u: memref<128x64xf32, "sbuf">, %w: memref<128x64xf32, "sbuf">) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c520 = arith.constant 520 : index
  scf.for %i = %c0 to %c7 step %c1 {{
    %off = arith.muli %i, %c520 : index
    %a = "nisa.dynamic_ap"(%x, %off) {{pattern = array<i64: 4096, 128, 1, 512>}}
        : (memref<128x4096xf32, "hbm">, index) -> memref<128x512xf32, "hbm">
    "nisa.dma_copy"(%t, %a) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "hbm">) -> ()
  }}
{body}  return
}}
}}
"#
    )
}

/// Inside `remembering_verified`, IR changed in place since a verification that passed is
/// verified again only where the change can be read (the changed ops, their users through
/// every chain of uses, their ancestors; the rest gets only the checks a later phase adds),
/// and that still finds every error a full walk finds: at the changed op, at an op reading it
/// through a chain of definitions, inside a loop whose bound changed (a change an op with
/// regions reads: verified in full), and the phase checks of unchanged ops.
#[test]
fn incremental_verification_finds_what_a_full_walk_finds() {
    use melior::ir::attribute::AttributeLike;
    use sundial_dialects::verify::{last_incremental, remembering_verified};
    use sundial_passes::rewrite::{collect, op_is};
    let session = Session::new().unwrap();
    let text = incremental_kernel();
    let context = session.context();
    let set_attr = |op: mlir_sys::MlirOperation, name: &std::ffi::CStr, value: Attribute<'_>| unsafe {
        let name = mlir_sys::mlirStringRefCreateFromCString(name.as_ptr());
        // The generic setter: an inherent attribute of a registered op (arith.constant's
        // value) goes to its properties, any attribute of an IRDL op to its dictionary.
        mlir_sys::mlirOperationSetAttributeByName(op, name, value.to_raw());
    };
    // Each case: the op changed (its name and position among those ops), the attribute and
    // its new value, the phase verified after it, the error expected, and whether the change
    // is re-verified incrementally.
    let cases = [
        (
            "an unknown engine on one op",
            ("nisa.reciprocal", 5, c"engine", "\"warp\""),
            Phase::Logical,
            "engine",
            true,
        ),
        (
            "the offset factor, read through muli by the access pattern",
            ("arith.constant", 3, c"value", "600 : index"),
            Phase::Logical,
            "access pattern reaches element",
            true,
        ),
        (
            "the loop's bound, read through the loop by the access pattern",
            ("arith.constant", 2, c"value", "8 : index"),
            Phase::Logical,
            "access pattern reaches element",
            false,
        ),
        (
            "one engine resolved, verified for selection",
            ("nisa.reciprocal", 0, c"engine", "\"vector\""),
            Phase::Selection,
            "has no 'engine' attribute",
            true,
        ),
    ];
    for (what, (op_name, index, attr, value), phase, expected, incremental) in cases {
        let module = session.parse(text.as_bytes(), "i.mlir").module.unwrap();
        remembering_verified(|| {
            let diags = session.verify_phase(&module, "i.mlir", Phase::Logical);
            assert!(diags.is_empty(), "{what}: {diags:?}");
            let op = collect(&module.as_operation(), |op| op_is(op, op_name))[index].to_raw();
            set_attr(op, attr, Attribute::parse(context, value).unwrap());
            let _ = last_incremental();
            let diags = session.verify_phase(&module, "i.mlir", phase);
            assert!(
                diags.iter().any(|d| d.message.contains(expected)),
                "{what}: {diags:?}"
            );
            let took = last_incremental();
            assert_eq!(took.is_some(), incremental, "{what}: {took:?}");
            if let Some(n) = took {
                assert!(n < 12, "{what}: {n} ops verified again");
            }
            // A failure is not remembered: the same IR fails again.
            let again = session.verify_phase(&module, "i.mlir", phase);
            assert!(!again.is_empty(), "{what}");
        });
    }
}

/// Every attribute of the op `raw` (a live op): its name as MLIR holds it, as text, and its
/// value.
fn attributes_of<'c>(
    raw: mlir_sys::MlirOperation,
) -> Vec<(mlir_sys::MlirStringRef, String, Attribute<'c>)> {
    let count = unsafe { mlir_sys::mlirOperationGetNumAttributes(raw) };
    (0..count)
        .map(|k| unsafe {
            let named = mlir_sys::mlirOperationGetAttribute(raw, k);
            let key = mlir_sys::mlirIdentifierStr(named.name);
            let text = std::str::from_utf8(std::slice::from_raw_parts(
                key.data as *const u8,
                key.length,
            ))
            .unwrap()
            .to_string();
            (key, text, Attribute::from_raw(named.attribute))
        })
        .collect()
}

/// One attribute value in place of another of the same kind, from a small pool (valid and
/// invalid ones): the mutations of the incremental-verification property below.
fn replacement_values<'c>(context: &'c melior::Context, old: Attribute<'c>) -> Vec<Attribute<'c>> {
    use melior::ir::attribute::AttributeLike;
    unsafe {
        let raw = old.to_raw();
        if mlir_sys::mlirAttributeIsAString(raw) {
            ["vector", "scalar", "gpsimd", "warp", "hwdge", "add"]
                .iter()
                .map(|v| StringAttribute::new(context, v).into())
                .collect()
        } else if mlir_sys::mlirAttributeIsAInteger(raw) {
            let ty = mlir_sys::mlirAttributeGetType(raw);
            [0i64, 1, 3, 600, -5, 1 << 40]
                .iter()
                .map(|&v| Attribute::from_raw(mlir_sys::mlirIntegerAttrGet(ty, v)))
                .collect()
        } else {
            Vec::new()
        }
    }
}

/// Incremental verification reports exactly what a full walk reports: on every shipped
/// example kernel and every kernel of `lit/kernels/`, each string or integer attribute of each
/// op in turn is replaced in place by values of a pool (some valid, some not), then verified
/// (at the logical and the selection phase) inside `remembering_verified` after a passed
/// verification, and by a fresh full walk; the diagnostics must be equal. Most of the changes
/// take the incremental path (asserted), the rest its fallback.
#[test]
fn incremental_verification_agrees_with_a_full_walk_on_kernels() {
    use melior::ir::attribute::AttributeLike;
    use sundial_dialects::verify::{last_incremental, remembering_verified};
    use sundial_passes::rewrite::collect;
    let files = kernel_files();
    let session = Session::new().unwrap();
    let context = session.context();
    let (mut changes, mut incremental) = (0usize, 0usize);
    for file in &files {
        let text = std::fs::read(file).unwrap();
        let name = file.display().to_string();
        let module = session
            .parse(&text, &name)
            .module
            .expect("the kernel parses");
        let ops = collect(&module.as_operation(), |_| true);
        for op in ops {
            let raw = op.to_raw();
            for (key, key_text, old) in attributes_of(raw) {
                if [
                    "operandSegmentSizes",
                    "sym_name",
                    "function_type",
                    "sundial.target",
                ]
                .contains(&key_text.as_str())
                {
                    continue;
                }
                for value in replacement_values(context, old) {
                    for phase in [Phase::Logical, Phase::Selection] {
                        let remembered = remembering_verified(|| {
                            let seeded = session.verify_phase(&module, &name, Phase::Logical);
                            assert!(seeded.is_empty(), "{name}: {seeded:?}");
                            unsafe {
                                mlir_sys::mlirOperationSetAttributeByName(raw, key, value.to_raw())
                            };
                            let _ = last_incremental();
                            let diags = session.verify_phase(&module, &name, phase);
                            incremental += usize::from(last_incremental().is_some());
                            diags
                        });
                        let full = session.verify_phase(&module, &name, phase);
                        unsafe {
                            mlir_sys::mlirOperationSetAttributeByName(raw, key, old.to_raw())
                        };
                        let show = |d: &[sundial::Diagnostic]| {
                            d.iter()
                                .map(|d| format!("{:?} {}", d.loc, d.message))
                                .collect::<Vec<_>>()
                        };
                        assert_eq!(
                            show(&remembered),
                            show(&full),
                            "{name}: '{key_text}' set to {value} on {}",
                            sundial_dialects::ffi::op_name(raw)
                        );
                        changes += 1;
                    }
                }
            }
        }
    }
    assert!(changes > 500, "{changes} changes");
    assert!(
        incremental * 2 > changes,
        "{incremental} of {changes} incremental"
    );
}

/// The shipped example kernels and the kernels of `lit/kernels/`, sorted.
fn kernel_files() -> Vec<std::path::PathBuf> {
    let root_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<std::path::PathBuf> = ["examples/kernels", "lit/kernels"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root_dir.join(d)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    files
}

/// Sets attribute `key` of the op `raw` (a raw handle of a live op).
fn set_attr_raw(raw: mlir_sys::MlirOperation, key: &str, value: Attribute<'_>) {
    use melior::ir::attribute::AttributeLike;
    let name = melior::StringRef::new(key).to_raw();
    unsafe { mlir_sys::mlirOperationSetAttributeByName(raw, name, value.to_raw()) };
}

/// The attribute `key` of the op `raw` (null when the op has none).
fn op_attr<'c>(raw: mlir_sys::MlirOperation, key: &str) -> Attribute<'c> {
    let name = melior::StringRef::new(key).to_raw();
    unsafe { Attribute::from_raw(mlir_sys::mlirOperationGetAttributeByName(raw, name)) }
}

/// Removes attribute `key` of the op `raw`, if it has one.
fn remove_attr_raw(raw: mlir_sys::MlirOperation, key: &str) {
    let name = melior::StringRef::new(key).to_raw();
    unsafe { mlir_sys::mlirOperationRemoveAttributeByName(raw, name) };
}

/// What both verifiers say about `module`: MLIR's verdict and the semantic verifier's
/// diagnostics (location and message) at each phase.
fn both_verifiers(session: &Session, module: &Module<'_>, name: &str) -> (bool, Vec<Vec<String>>) {
    let mlir = module.as_operation().verify();
    let semantic = [Phase::Logical, Phase::Tiled, Phase::Selection]
        .into_iter()
        .map(|phase| {
            session
                .verify_phase(module, name, phase)
                .iter()
                .map(|d| format!("{:?} {}", d.loc, d.message))
                .collect()
        })
        .collect();
    (mlir, semantic)
}

/// `sundial-translate` does not verify again after `sundial-allocate` when the pass added only
/// its annotations (`sundial_isel::allocate::ANNOTATIONS`), which is sound only if neither
/// verifier reads them: on every example and lit kernel, valid as shipped and with each
/// string or integer attribute of each op replaced by the first value of the mutation pool
/// (most of those invalid), both verifiers must say the same with the annotations set to
/// various values on every op as without them.
#[test]
fn verifiers_ignore_the_allocation_annotations() {
    use melior::ir::attribute::IntegerAttribute;
    use sundial_isel::allocate::ANNOTATIONS;
    use sundial_passes::rewrite::collect;
    let session = Session::new().unwrap();
    let context = session.context();
    let i64_type = melior::ir::r#type::IntegerType::new(context, 64).into();
    let values: Vec<Attribute<'_>> = vec![
        IntegerAttribute::new(i64_type, 0).into(),
        IntegerAttribute::new(i64_type, -7).into(),
        IntegerAttribute::new(i64_type, 1 << 40).into(),
        StringAttribute::new(context, "sbuf").into(),
    ];
    let (mut cases, mut failing) = (0usize, 0usize);
    for file in kernel_files() {
        let text = std::fs::read(&file).unwrap();
        let name = file.display().to_string();
        let module = session
            .parse(&text, &name)
            .module
            .expect("the kernel parses");
        let ops: Vec<_> = collect(&module.as_operation(), |_| true)
            .iter()
            .map(|op| op.to_raw())
            .collect();
        // None: the kernel as shipped; Some: one attribute of one op mutated.
        let mut mutations: Vec<Option<(mlir_sys::MlirOperation, String, Attribute<'_>)>> =
            vec![None];
        for &raw in &ops {
            for (_, key, old) in attributes_of(raw) {
                if let Some(&value) = replacement_values(context, old).first() {
                    mutations.push(Some((raw, key, value)));
                }
            }
        }
        for mutation in mutations {
            let restore = mutation.as_ref().map(|(raw, key, value)| {
                let old = op_attr(*raw, key);
                set_attr_raw(*raw, key, *value);
                (*raw, key.clone(), old)
            });
            let without = both_verifiers(&session, &module, &name);
            for (i, &raw) in ops.iter().enumerate() {
                for (j, key) in ANNOTATIONS.iter().enumerate() {
                    set_attr_raw(raw, key, values[(i + j) % values.len()]);
                }
            }
            let with = both_verifiers(&session, &module, &name);
            assert_eq!(
                without,
                with,
                "{name}: {:?}",
                mutation.as_ref().map(|m| &m.1)
            );
            failing += usize::from(!without.0 || !without.1[0].is_empty());
            cases += 1;
            for &raw in &ops {
                for key in ANNOTATIONS {
                    remove_attr_raw(raw, key);
                }
            }
            if let Some((raw, key, old)) = restore {
                set_attr_raw(raw, &key, old);
            }
        }
    }
    // Valid kernels and invalid ones (at the logical phase) both among the cases.
    assert!(
        cases > 150 && failing * 4 > cases && failing < cases,
        "{failing} failing of {cases}"
    );
}

/// `Snapshot::differs_only_in`: true when only the named attributes changed (added, changed,
/// removed), false for any other change, also next to an annotation change.
#[test]
fn snapshot_differs_only_in_the_named_annotations() {
    use melior::ir::attribute::IntegerAttribute;
    use sundial_dialects::verify::snapshot;
    use sundial_passes::rewrite::{collect, op_is};
    let session = Session::new().unwrap();
    let context = session.context();
    let text = r#"
module attributes {sundial.target = "cayman"} {
  func.func @k(%in: memref<128x64xf32, "hbm">) {
    %t = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    "nisa.dma_copy"(%t, %in) {name = "load"} : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
    return
  }
}
"#;
    let module = session
        .parse(text.as_bytes(), "a.mlir")
        .module
        .expect("module");
    let root = module.as_operation();
    let alloc = collect(&root, |op| op_is(op, "nisa.alloc"))[0].to_raw();
    let dma = collect(&root, |op| op_is(op, "nisa.dma_copy"))[0].to_raw();
    let i64_type = melior::ir::r#type::IntegerType::new(context, 64).into();
    let names = ["sundial.offset", "sundial.partition"];
    let before = snapshot(&root);
    set_attr_raw(
        alloc,
        "sundial.offset",
        IntegerAttribute::new(i64_type, 512).into(),
    );
    set_attr_raw(
        dma,
        "sundial.partition",
        IntegerAttribute::new(i64_type, 0).into(),
    );
    let annotated = snapshot(&root);
    assert_ne!(before, annotated);
    unsafe {
        assert!(before.differs_only_in(&annotated, &names), "added");
        assert!(annotated.differs_only_in(&before, &names), "removed");
        assert!(
            !before.differs_only_in(&annotated, &names[..1]),
            "one not named"
        );
        assert!(!before.differs_only_in(&annotated, &[]), "none named");
    }
    set_attr_raw(
        alloc,
        "sundial.offset",
        IntegerAttribute::new(i64_type, 1024).into(),
    );
    unsafe {
        assert!(
            annotated.differs_only_in(&snapshot(&root), &names),
            "changed"
        )
    };
    set_attr_raw(dma, "name", StringAttribute::new(context, "other").into());
    unsafe {
        assert!(
            !before.differs_only_in(&snapshot(&root), &names),
            "another attribute"
        )
    };
    set_attr_raw(dma, "name", StringAttribute::new(context, "load").into());
    unsafe { assert!(before.differs_only_in(&snapshot(&root), &names), "restored") };
    // An op moved (the DMA before the allocation) with the annotations in place.
    unsafe { mlir_sys::mlirOperationMoveBefore(dma, alloc) };
    unsafe { assert!(!before.differs_only_in(&snapshot(&root), &names), "moved") };
}
