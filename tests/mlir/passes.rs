//! Properties of the middle-end passes over the lit corpus (every chunk of every `.mlir` file
//! that parses and verifies): each pass and the `sundial-middle-end` pipeline either refuses
//! with an error at a location, or leaves IR that verifies, prints, parses again, and does not
//! change when the pass runs a second time (idempotence).

use std::path::Path;
use sundial::{MiddleEndOptions, RunOptions, Session, Severity};
use sundial_dialects::ffi::PrintOptions;
use sundial_passes::registry::{PASSES, PIPELINES};

fn corpus() -> Vec<Vec<u8>> {
    sundial::fuzz::targets::ir_corpus(Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// Runs `pipeline` on `text`; `None` when the input does not parse or the pipeline refused it
/// (then with an error diagnostic), else the printed result.
fn run(session: &Session, text: &[u8], pipeline: &str) -> Option<String> {
    let mut module = session.parse(text, "corpus.mlir").module?;
    match session.run_pipeline(&mut module, pipeline, &RunOptions::default(), "corpus.mlir") {
        Ok(_) => Some(session.print(&module, PrintOptions::default())),
        Err(diags) => {
            assert!(
                diags
                    .iter()
                    .any(|d| d.severity == Severity::Error && d.loc.is_some()),
                "a refusal of {pipeline} must be an error at a location: {diags:?}\n{}",
                String::from_utf8_lossy(text)
            );
            None
        }
    }
}

#[test]
fn every_pass_is_idempotent_and_leaves_verified_ir() {
    let corpus = corpus();
    assert!(corpus.len() > 50, "lit corpus too small: {}", corpus.len());
    let flags: Vec<&str> = PASSES
        .iter()
        .map(|p| p.name)
        .chain(PIPELINES.iter().map(|p| p.name))
        .collect();
    let mut session = Session::new().unwrap();
    let mut changed = 0;
    for (i, input) in corpus.iter().enumerate() {
        if i % 200 == 199 {
            session = Session::new().unwrap();
        }
        let Some(original) = session
            .parse(input, "corpus.mlir")
            .module
            .map(|m| session.print(&m, PrintOptions::default()))
        else {
            continue;
        };
        for flag in &flags {
            let pipeline = format!("builtin.module({flag})");
            let Some(once) = run(&session, input, &pipeline) else {
                continue;
            };
            if once != original {
                changed += 1;
            }
            // Verified (run_pipeline verifies) and printable IR that parses again...
            let twice = run(&session, once.as_bytes(), &pipeline).unwrap_or_else(|| {
                panic!("{flag}: its own output does not parse or is refused:\n{once}")
            });
            // ...and a second run changes nothing.
            assert_eq!(once, twice, "{flag} is not idempotent on:\n{original}");
        }
    }
    assert!(
        changed > 50,
        "the passes changed only {changed} corpus inputs"
    );
}

#[test]
fn the_middle_end_runs_from_a_session() {
    let session = Session::new().unwrap();
    let text = r#"
func.func @k(%y: memref<128x64xf32, "sbuf">, %x: memref<128x64xf32, "sbuf">, %in: memref<128x64xf32, "hbm">) {
  "nisa.generic_load"(%x, %in) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "hbm">) -> ()
  %t = "nisa.alloc"() : () -> memref<128x64xbf16, "sbuf">
  "nisa.tensor_scalar_arith"(%t, %x) {op0 = "mult", imm0 = 2.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xbf16, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
  "nisa.tensor_scalar_arith"(%y, %t) {op0 = "add", imm0 = 1.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>}
      : (memref<128x64xf32, "sbuf">, memref<128x64xbf16, "sbuf">) -> ()
  return
}"#;
    // Without a target the DGE mode of the load cannot be resolved: an error at the op.
    let mut module = session.parse(text.as_bytes(), "k.mlir").module.unwrap();
    let err = session
        .run_middle_end(&mut module, &MiddleEndOptions::default(), "k.mlir")
        .unwrap_err();
    assert!(
        err.iter().any(
            |d| d.message.contains("cannot be resolved without a target")
                && d.loc.as_ref().is_some_and(|l| l.line == 3)
        ),
        "{err:?}"
    );
    // With one, the pipeline runs; the bf16 intermediate folds only with contract.
    for (contract, fused) in [(false, false), (true, true)] {
        let mut module = session.parse(text.as_bytes(), "k.mlir").module.unwrap();
        let options = MiddleEndOptions {
            target: Some(sundial_dialects::enums::Target::Cayman),
            contract,
        };
        session
            .run_middle_end(&mut module, &options, "k.mlir")
            .unwrap();
        let out = session.print(&module, PrintOptions::default());
        assert!(out.contains("dge_mode = \"hwdge\""), "{out}");
        assert_eq!(out.contains("op1 = \"add\""), fused, "{out}");
    }
}

/// The benchmark's generated kernel is valid and goes through the whole middle end to IR ready
/// for selection, every block folded as the workload's docs say.
#[test]
fn the_benchmark_workload_runs_through_the_middle_end() {
    let session = Session::new().unwrap();
    let text = sundial::workload::middle_end_kernel(3);
    let mut module = session.parse(text.as_bytes(), "w.mlir").module.unwrap();
    let options = MiddleEndOptions {
        target: Some(sundial_dialects::enums::Target::Cayman),
        contract: false,
    };
    session
        .run_middle_end(&mut module, &options, "w.mlir")
        .unwrap();
    let out = session.print(&module, PrintOptions::default());
    for (needle, count) in [
        ("op1 = \"add\"", 3),
        ("{engine = \"gpsimd\", op = \"add\"}", 3),
        ("imm0 = 5.000000e-01", 3),
        ("\"nisa.tensor_tensor_power\"", 3),
        ("\"nisa.cross_lane_reduce_arith\"", 3),
        ("dge_mode = \"hwdge\"", 3),
        ("dge_mode = \"none\"", 3),
    ] {
        assert_eq!(out.matches(needle).count(), count, "{needle}:\n{out}");
    }
    assert!(
        session
            .verify_phase(&module, "w.mlir", sundial::Phase::Selection)
            .is_empty()
    );
}

/// The compound `sundial-middle-end` pass and the pipeline of separate passes it is equivalent
/// to (`--list-passes` prints it) do the same on every corpus input: both refuse, or both
/// print the same IR.
#[test]
fn the_middle_end_equals_its_expansion() {
    let info = sundial_passes::registry::lookup_pipeline("sundial-middle-end").unwrap();
    let raw = vec![("target".to_string(), "cayman".to_string())];
    let expansion = (info.expand)(&info.parse_options(&raw).unwrap());
    let session = Session::new().unwrap();
    let mut compared = 0;
    for input in corpus() {
        let compound = run(
            &session,
            &input,
            "builtin.module(sundial-middle-end{target=cayman})",
        );
        let separate = run(&session, &input, &format!("builtin.module({expansion})"));
        assert_eq!(
            compound,
            separate,
            "on:\n{}",
            String::from_utf8_lossy(&input)
        );
        compared += usize::from(compound.is_some());
    }
    assert!(compared > 20, "only {compared} inputs went through");
}

/// The free-axis cut of `sundial-partition-tiling` reproduces the docstring vectors of
/// pass-rules §5 item 5 (budget 512, axes by priority).
#[test]
fn the_free_cut_reproduces_the_docstring_vectors() {
    use sundial_passes::free_cut::cut;
    assert_eq!(
        cut(&[4, 2, 2, 2, 128], 512, false),
        Some(vec![4, 2, 2, 2, 16])
    );
    assert_eq!(cut(&[4, 2, 2, 2, 8], 512, false), None);
    assert_eq!(cut(&[8192, 2], 512, false), Some(vec![512, 1]));
    // t = 512 / 448 = 1: the cut falls before axis 1 (axis 0 whole).
    assert_eq!(cut(&[448, 16], 512, false), Some(vec![448, 1]));
    assert_eq!(cut(&[16, 8192], 512, false), Some(vec![16, 32]));
    // uniform-tiles: the largest divisor of the extent not above t (300 -> 256 of 512; a
    // prime extent has only 1 and itself).
    assert_eq!(cut(&[512, 4], 300, true), Some(vec![256, 1]));
    assert_eq!(cut(&[512, 4], 300, false), Some(vec![300, 1]));
    assert_eq!(cut(&[1021], 512, true), Some(vec![1]));
}
