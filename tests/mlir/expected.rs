//! Unit tests of `sundial::expected`.
use sundial::expected::*;
use sundial::{Diagnostic, Severity};
use sundial_dialects::ffi::FileLineCol;

fn diag(line: usize, msg: &str) -> Diagnostic {
    Diagnostic::new(
        Severity::Error,
        Some(FileLineCol {
            file: "f".into(),
            line,
            col: 1,
        }),
        msg,
    )
}

#[test]
fn offsets_and_matching() {
    let text = b"// expected-error@+1 {{bad thing}}\nop\n// expected-error@below {{other}}\nx // expected-warning {{w}}";
    let exp = parse(text, 10).unwrap();
    assert_eq!(
        exp.iter().map(|e| e.line).collect::<Vec<_>>(),
        vec![11, 13, 13]
    );
    let ok = check(
        "f",
        &[diag(11, "a bad thing here"), diag(13, "the other")],
        exp[..2].to_vec(),
    );
    assert!(ok.is_empty(), "{ok:?}");
    let report = check("f", &[diag(12, "bad thing")], exp[..1].to_vec());
    assert_eq!(report.len(), 2);
    assert!(report[0].contains("unexpected error"));
    assert!(report[1].contains("was not produced"));
}

#[test]
fn malformed_directive() {
    assert!(parse(b"// expected-error {{oops", 1).is_err());
    assert!(parse(b"// expected-error@+x {{a}}", 1).is_err());
}
