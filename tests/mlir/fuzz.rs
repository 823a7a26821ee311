//! Mutation fuzzing: at least 10,000 mutated inputs derived from the lit corpus go through
//! parse + verify + print (and a pipeline for those that parse) in-process. Any panic, abort
//! or signal fails this test binary. `SUNDIAL_FUZZ_ITERS` raises the count; the seed is fixed
//! (`SUNDIAL_FUZZ_SEED` changes it) so a failure reproduces; `SUNDIAL_FUZZ_DUMP=FILE` keeps the
//! input being processed in FILE.

use std::path::Path;
use sundial::{RunOptions, Session};
use sundial_dialects::ffi::PrintOptions;

/// xorshift64*: small, deterministic, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const TOKENS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "<",
    ">",
    "[",
    "]",
    "\"",
    "%",
    ",",
    ":",
    "=",
    "->",
    "0",
    "-1",
    "128",
    "129",
    "999999999999999999999999",
    "-9223372036854775808",
    "0x7FFFFFFF",
    "1.0e39 : f32",
    "0x7FC00000 : f32",
    "\\00",
    "\u{0}",
    "\u{ff}",
    "nisa.",
    "bir.",
    "memref<",
    "\"sbuf\"",
    "\"psum\"",
    "\"hbm\"",
    "\"xyz\"",
    "array<i64: ",
    "array<i32: 1, 1, 0, 0>",
    "f32",
    "tf32",
    "si32",
    "vector<4xf8E4M3FN>",
    "x",
    "?",
    "operandSegmentSizes",
    "{kind = \"indirect\"}",
    "\"engine\"",
    "true",
    "loc(\"f\":1:1)",
    "// -----",
    "^bb0:",
    "module {",
    "func.func @f() {",
    "return",
    "\n",
    "\"nisa.ap\"",
    "\"nisa.alloc\"() : () -> ",
    // Builtin attribute and type syntax, to reach MLIR's own sub-parsers.
    "dense<",
    "dense<[1, 2]> : tensor<2xi32>",
    "dense<0x00FF> : tensor<1xi16>",
    "affine_map<(d0) -> (d0)>",
    "affine_set<(d0) : (d0 >= 0)>",
    "strided<[1], offset: ?>",
    "tensor<",
    "tensor<?x",
    "vector<[4]x",
    "complex<f32>",
    "opaque<\"x\", \"y\"> : i32",
    "#builtin.",
    "loc(fused[",
    "distinct[0]<",
    "dense_resource<",
    "sparse<",
    "array<i1: true>",
    "array<f32: 1.0>",
    "array<",
    "index",
    "i0",
    "i99999999",
    "0x1p3",
    "memref<*x",
    "memref<4xf32, strided<[",
    "unit",
    "@sym::@nested",
    "#nisa",
    "{{",
    "}}",
];

fn corpus() -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut stack = vec![root.join("lit"), root.join("examples")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "mlir")
                && let Ok(bytes) = std::fs::read(&p)
            {
                // Split files are fuzzed chunk by chunk, like sundial-opt processes them.
                for chunk in sundial::source::split(&bytes, true) {
                    files.push(chunk.text);
                }
            }
        }
    }
    files.sort();
    files
}

fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        let len = out.len();
        match rng.below(8) {
            0 if len > 0 => {
                let i = rng.below(len);
                out[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below(32.min(len - i));
                out.drain(i..i + n);
            }
            2 => {
                let i = rng.below(len + 1);
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                out.splice(i..i, t.iter().copied());
            }
            3 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below(64.min(len - i));
                let piece = out[i..i + n].to_vec();
                let at = rng.below(out.len() + 1);
                out.splice(at..at, piece);
            }
            4 if len > 0 => out.truncate(rng.below(len)),
            5 => {
                // Replace a run of digits with an extreme number.
                if let Some(start) = (0..len)
                    .map(|_| rng.below(len))
                    .find(|&i| out[i].is_ascii_digit())
                {
                    let end = (start..len)
                        .find(|&i| !out[i].is_ascii_digit())
                        .unwrap_or(len);
                    let big = [
                        "0",
                        "4294967296",
                        "99999999999999999999",
                        "65536",
                        "32768",
                        "-1",
                    ][rng.below(6)];
                    out.splice(start..end, big.bytes());
                }
            }
            6 if len > 0 => {
                // Swap two lines.
                let lines: Vec<&[u8]> = out.split(|b| *b == b'\n').collect();
                if lines.len() > 2 {
                    let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                    let mut l: Vec<Vec<u8>> = lines.iter().map(|x| x.to_vec()).collect();
                    l.swap(a, b);
                    out = l.join(&b'\n');
                }
            }
            _ => {
                let i = rng.below(len + 1);
                out.insert(i, rng.below(256) as u8);
            }
        }
    }
    out
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
