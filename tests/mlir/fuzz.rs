//! Mutation fuzzing: at least 10,000 mutated inputs derived from the lit corpus go through
//! parse + verify + print (and a pipeline for those that parse: `sundial-middle-end` for six
//! in seven) in-process. Any panic, abort
//! or signal fails this test binary. `SUNDIAL_FUZZ_ITERS` raises the count; the seed is fixed
//! (`SUNDIAL_FUZZ_SEED` changes it) so a failure reproduces; `SUNDIAL_FUZZ_DUMP=FILE` keeps the
//! input being processed in FILE.

use std::path::Path;
use sundial::fuzz::mutate::{Rng, mutate_bytes as mutate};
use sundial::fuzz::targets::ir_corpus;
use sundial::{RunOptions, Session};
use sundial_dialects::ffi::PrintOptions;

fn corpus() -> Vec<Vec<u8>> {
    ir_corpus(Path::new(env!("CARGO_MANIFEST_DIR")))
}

#[test]
fn ten_thousand_mutations_never_crash() {
    let iters: usize = std::env::var("SUNDIAL_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let seed: u64 = std::env::var("SUNDIAL_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5EED_5EED);
    // SUNDIAL_FUZZ_DUMP=FILE keeps the current input in FILE (to reproduce a crash).
    let dump = std::env::var_os("SUNDIAL_FUZZ_DUMP");
    let corpus = corpus();
    assert!(
        corpus.len() >= 5,
        "the lit corpus is too small to fuzz ({} inputs)",
        corpus.len()
    );
    let mut rng = Rng(seed | 1);
    let mut parsed = 0usize;
    // A fresh session every 1,000 inputs bounds the context's memory (uniqued types/attrs).
    let mut session = Session::new().unwrap();
    for i in 0..iters {
        if i % 1000 == 999 {
            session = Session::new().unwrap();
        }
        let base = &corpus[rng.below(corpus.len())];
        let input = mutate(&mut rng, base);
        if let Some(path) = &dump {
            // Written before parsing, so that a crash leaves its input behind.
            let _ = std::fs::write(path, &input);
        }
        let result = session.parse(&input, "fuzz.mlir");
        if let Some(mut module) = result.module {
            parsed += 1;
            let text = session.print(&module, PrintOptions::default());
            let generic = session.print(
                &module,
                PrintOptions {
                    generic: true,
                    debug_info: true,
                },
            );
            assert!(!generic.is_empty());
            // What we print must parse again.
            let again = session.parse(text.as_bytes(), "fuzz-printed.mlir");
            assert!(
                again.module.is_some(),
                "printed IR does not re-parse (iteration {i}):\n{text}\n{:?}",
                again.diagnostics
            );
            if i % 7 == 0 {
                let _ = session.run_pipeline(
                    &mut module,
                    "builtin.module(sundial-verify,canonicalize,cse)",
                    &RunOptions::default(),
                    "fuzz.mlir",
                );
            } else {
                // The whole middle end, on a target (so that it gets past DGE resolution):
                // it refuses with a diagnostic or succeeds, never crashes.
                let _ = session.run_pipeline(
                    &mut module,
                    "builtin.module(sundial-middle-end{target=cayman})",
                    &RunOptions::default(),
                    "fuzz.mlir",
                );
            }
        } else {
            assert!(
                result
                    .diagnostics
                    .iter()
                    .any(|d| d.severity == sundial::Severity::Error),
                "a rejected input must say why (iteration {i}): {:?}\n{}",
                result.diagnostics,
                String::from_utf8_lossy(&input)
            );
        }
    }
    eprintln!("fuzz: {iters} mutated inputs, {parsed} parsed and verified");
}

#[test]
fn hostile_inputs() {
    let session = Session::new().unwrap();
    let deep_regions =
        "func.func @f() {".to_string() + &"\"scf.execute_region\"() ({".repeat(100_000);
    let deep_attr = format!(
        "func.func @f() attributes {{a = {}}} {{ return }}",
        "[".repeat(100_000)
    );
    let huge = r#"func.func @f(%a: memref<9223372036854775807x9223372036854775807xf32, "sbuf">) {
  "nisa.reciprocal"(%a, %a) : (memref<9223372036854775807x9223372036854775807xf32, "sbuf">, memref<9223372036854775807x9223372036854775807xf32, "sbuf">) -> ()
  return
}"#;
    let inputs: Vec<Vec<u8>> = vec![
        Vec::new(),
        vec![0u8; 4096],
        (0..=255u8).cycle().take(10_000).collect(),
        deep_regions.into_bytes(),
        deep_attr.into_bytes(),
        huge.as_bytes().to_vec(),
        b"\"nisa.unknown_op\"() : () -> ()".to_vec(),
        b"\"foo.bar\"() : () -> ()".to_vec(),
        b"func.func @f() { \"nisa.alloc\"() {name = 3} : () -> memref<4xf32, \"sbuf\"> return }"
            .to_vec(),
    ];
    for (i, input) in inputs.iter().enumerate() {
        let r = session.parse(input, "hostile.mlir");
        if i == 0 {
            assert!(r.module.is_some(), "an empty file is an empty module");
        } else {
            assert!(r.module.is_none(), "hostile input {i} was accepted");
            assert!(
                !r.diagnostics.is_empty(),
                "hostile input {i} has no diagnostic"
            );
        }
    }
}

/// MLIR's lexer reads the byte after the end of the text it is given and relied on a NUL
/// there: the fuzzer crashed it (SIGSEGV) with an input ending inside an identifier, whose
/// buffer's spare capacity held more identifier bytes. The bytes past the end of the input
/// must never be read: here they hold a second function, which must not appear.
#[test]
fn bytes_past_the_end_of_the_input_are_never_parsed() {
    let session = Session::new().unwrap();
    let valid = b"func.func @f() {\n  return\n}\n";
    let mut buf = valid.to_vec();
    buf.extend_from_slice(b"func.func @hidden() {\n  return\n}\n");
    buf.truncate(valid.len());
    let parsed = session.parse(&buf, "past-end.mlir");
    let module = parsed.module.expect("the input itself is valid");
    let text = session.print(&module, PrintOptions::default());
    assert!(!text.contains("hidden"), "read past the input:\n{text}");
    // An input ending inside an identifier stops at its end (the minimised crash had
    // `pattern = a` there). Here the keyword `unit` ends the input and its buffer goes on with
    // more identifier bytes: read on, `unitabc` is no attribute and the error would point at
    // it; stopping at the end, `unit` parses and the error is the missing `}` at the end.
    let text = b"func.func @f() attributes {x = unit";
    let mut buf = text.to_vec();
    buf.extend_from_slice(b"abc} {\n  return\n}\n");
    buf.truncate(text.len());
    let parsed = session.parse(&buf, "ident-at-end.mlir");
    assert!(parsed.module.is_none());
    let d = &parsed.diagnostics[0];
    let loc = d.loc.as_ref().expect("a position");
    assert_eq!((loc.line, loc.col), (1, 35), "{}", d.message);
    assert!(d.message.contains("expected '}'"), "{}", d.message);
}
