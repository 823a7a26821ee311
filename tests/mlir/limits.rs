//! Resource limits: inputs that are valid but enormous get a clear error or complete in memory
//! proportional to the input (`--split-input-file` with many chunks, chunk positions, the
//! in-place parse of a NUL-terminated buffer, fallible reading).

use sundial::{
    Session, Severity,
    opt::{OptArgs, read_terminated, run},
};
use sundial_dialects::ffi::PrintOptions;

const CHUNKS: usize = 200_000;
const _: () = assert!(CHUNKS > 10 * sundial::opt::CHUNKS_PER_CONTEXT);

/// `CHUNKS` chunks of a three-line function, then `last` as the final chunk; returns the input
/// and the line `last` starts on.
fn many_chunks(last: &str) -> (String, usize) {
    let body = "func.func @f() {\n  return\n}\n// -----\n";
    let mut text = String::with_capacity(body.len() * CHUNKS + last.len());
    for _ in 0..CHUNKS - 1 {
        text.push_str(body);
    }
    text.push_str(last);
    (text, 4 * (CHUNKS - 1) + 1)
}

/// Splitting once padded every chunk with the newlines before it: memory quadratic in the
/// number of lines (this input needed ~80 GB). Chunks are now slices parsed at their line, so
/// it completes in memory proportional to the input, with exact positions at the end of it
/// (and across the fresh MLIR contexts that replace each other every `CHUNKS_PER_CONTEXT`).
#[test]
fn split_input_with_200k_chunks_is_linear_and_keeps_positions() {
    let (text, line) = many_chunks("func.func @g() {\n  \"nisa.bad\"() : () -> ()\n  return\n}\n");
    let args = OptArgs {
        split_input_file: true,
        ..OptArgs::default()
    };
    let outcome = run(&args, text.as_bytes(), "big.mlir");
    assert_eq!(outcome.status, 1);
    assert!(outcome.output.is_empty(), "no output on error");
    let first = outcome.stderr.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        format!(
            "big.mlir:{}:3: error: unregistered operation 'nisa.bad' found in dialect ('nisa') that does not allow unknown operations",
            line + 1
        )
    );

    // The same input under --verify-diagnostics: the directive's line is the file's, and every
    // other chunk's output is kept.
    let (text, _) = many_chunks(
        "func.func @g() {\n  // expected-error@+1 {{unregistered operation 'nisa.bad'}}\n  \"nisa.bad\"() : () -> ()\n  return\n}\n",
    );
    let args = OptArgs {
        split_input_file: true,
        verify_diagnostics: true,
        ..OptArgs::default()
    };
    let outcome = run(&args, text.as_bytes(), "big.mlir");
    assert_eq!(outcome.status, 0, "{}", outcome.stderr);
    assert_eq!(outcome.output.matches("func.func @f()").count(), CHUNKS - 1);
    assert_eq!(outcome.output.matches("// -----\n").count(), CHUNKS - 2);
}

/// `parse_at` gives the module and every diagnostic (parser, guard, verifier, fallback)
/// positions in the file the chunk comes from.
#[test]
fn parse_at_positions_are_in_the_file() {
    let session = Session::new().unwrap();
    let check = |text: &str, want: (usize, usize), message: &str| {
        let parsed = session.parse_at(text.as_bytes(), "f.mlir", 41);
        assert!(parsed.module.is_none());
        let d = &parsed.diagnostics[0];
        assert_eq!(d.severity, Severity::Error);
        let loc = d.loc.as_ref().expect("a position");
        assert_eq!(
            (loc.file.as_str(), loc.line, loc.col),
            ("f.mlir", want.0, want.1)
        );
        assert!(d.message.contains(message), "{}", d.message);
    };
    // A parser error.
    check(
        "func.func @f() {\n  \"x.y\"() : () -> ()\n}\n",
        (42, 8),
        "unregistered dialect",
    );
    // The semantic verifier, after the module's locations moved.
    check(
        "func.func @f(%t: memref<128x64xf32, \"sbuf\">) {\n  \"nisa.tensor_copy\"(%t, %t) {mode = 1} : (memref<128x64xf32, \"sbuf\">, memref<128x64xf32, \"sbuf\">) -> ()\n  return\n}\n",
        (42, 3),
        "unknown attribute 'mode'",
    );
    // The pre-parse guard.
    check("\n\n  x = array<index>", (43, 12), "array<index");
    // The custom-syntax fallback.
    check(
        "func.func @f() {\n  nisa.memset %x\n}\n",
        (42, 3),
        "no custom assembly syntax",
    );

    // The module's own locations (printed with debug info), block arguments included; a
    // location the input writes itself is kept.
    let text = "func.func @f(%t: memref<128x64xf32, \"sbuf\">, %u: i32 loc(\"x.mlir\":7:7)) {\n  return\n}\n";
    let parsed = session.parse_at(text.as_bytes(), "f.mlir", 41);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let printed = session.print(
        &parsed.module.expect("module"),
        PrintOptions {
            generic: false,
            debug_info: true,
        },
    );
    for want in [
        "loc(\"-\":41:1)",
        "loc(\"-\":41:14)",
        "loc(\"-\":42:3)",
        "loc(\"x.mlir\":7:7)",
    ] {
        assert!(printed.contains(want), "{want} not in\n{printed}");
    }
}

/// A buffer that ends in its NUL terminator is parsed in place; one that does not is refused
/// with a diagnostic (never read past its end).
#[test]
fn parse_terminated_needs_the_terminator() {
    let session = Session::new().unwrap();
    let parsed = session.parse_terminated(b"func.func @f() {\n  return\n}\n\0", "t.mlir", 1);
    assert!(parsed.module.is_some(), "{:?}", parsed.diagnostics);
    // An input that ends inside an identifier stops at the terminator.
    let parsed = session.parse_terminated(b"func.func @f() {\n  return\n}\nfunc\0", "t.mlir", 3);
    let d = &parsed.diagnostics[0];
    assert_eq!(d.loc.as_ref().map(|l| (l.line, l.col)), Some((6, 1)));
    for bad in [&b""[..], b"module {}"] {
        let parsed = session.parse_terminated(bad, "t.mlir", 1);
        assert!(parsed.module.is_none());
        assert!(
            parsed.diagnostics[0]
                .message
                .contains("does not end in a NUL byte"),
            "{:?}",
            parsed.diagnostics
        );
    }
}

/// Reading sizes the buffer from the file's length, fallibly: a length that cannot be
/// allocated is an out-of-memory error (reported as `cannot read ...`), never an abort.
#[test]
fn reading_is_fallible_and_terminated() {
    let buf = read_terminated(&b"abc"[..], Some(3)).expect("reads");
    assert_eq!(buf, b"abc\0");
    assert_eq!(buf.capacity(), 4, "sized exactly: no growth, no spare copy");
    assert_eq!(read_terminated(&b""[..], None).expect("reads"), b"\0");
    for size in [u64::MAX, 1 << 62] {
        let err = read_terminated(&b"abc"[..], Some(size)).expect_err("cannot allocate");
        assert_eq!(err.kind(), std::io::ErrorKind::OutOfMemory);
        assert_eq!(err.to_string(), "the input does not fit in memory");
    }
}
