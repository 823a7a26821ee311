//! Unit tests of `sundial::render`: rules, help lines, snippets and JSON.
use sundial::render::*;
use sundial::{Diagnostic, Severity};
use sundial_dialects::ffi::FileLineCol;

#[test]
fn rule_and_help_come_from_the_message() {
    let m = "'nisa.tensor_copy' op engine \"dma\" is not legal for this op (legal: vector, scalar, gpsimd, or unknown) (rule: engine)";
    assert_eq!(rule_of(m), Some("engine"));
    assert_eq!(
        help_of(m).as_deref(),
        Some("use one of: vector, scalar, gpsimd, or unknown")
    );
    assert_eq!(rule_of("no rule here"), None);
    assert_eq!(help_of("no fix known"), None);
}

fn diag(line: usize, col: usize, message: &str) -> Diagnostic {
    Diagnostic::new(
        Severity::Error,
        Some(FileLineCol {
            file: "k.mlir".into(),
            line,
            col,
        }),
        message,
    )
}

#[test]
fn snippet_labels_the_named_attribute_and_keeps_the_first_line() {
    let src = b"func.func @f() {\n  \"nisa.memset\"(%t) {\n    value = 1.0 : f32, engine = \"dma\"} : (i32) -> ()\n  return\n}\n";
    let d = diag(
        2,
        3,
        "'nisa.memset' op attribute 'engine': bad (rule: engine)",
    );
    let text = render(&[d], "k.mlir", src, RenderOptions::default());
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("k.mlir:2:3: error: 'nisa.memset' op attribute 'engine': bad (rule: engine)")
    );
    assert!(text.contains("┌─ k.mlir:3:24"), "{text}");
    assert!(text.contains("^^^^^^ this attribute"), "{text}");
    assert!(text.contains("= rule: engine"), "{text}");
    assert!(!text.contains('\u{1b}'), "no colour unless asked: {text}");
}

#[test]
fn locations_outside_the_input_get_no_snippet() {
    let src = b"x\n";
    let mut d = diag(9, 1, "past the end");
    let t = render(&[d.clone()], "k.mlir", src, RenderOptions::default());
    assert_eq!(t, "k.mlir:9:1: error: past the end\n");
    d.loc.as_mut().unwrap().file = "other.mlir".into();
    let t = render(&[d], "k.mlir", src, RenderOptions::default());
    assert_eq!(t, "other.mlir:9:1: error: past the end\n");
}

#[test]
fn json_lines_carry_every_field() {
    let mut d = diag(2, 3, "bad (rule: engine)");
    d.notes
        .push(Diagnostic::new(Severity::Note, None, "see here"));
    let opts = RenderOptions {
        format: DiagnosticsFormat::Json,
        color: false,
    };
    let t = render(&[d.clone(), d], "k.mlir", b"", opts);
    let rows: Vec<serde_json::Value> = t
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["severity"], "error");
    assert_eq!(rows[0]["file"], "k.mlir");
    assert_eq!(rows[0]["line"], 2);
    assert_eq!(rows[0]["col"], 3);
    assert_eq!(rows[0]["rule"], "engine");
    assert_eq!(rows[0]["notes"][0]["message"], "see here");
    assert_eq!(rows[0]["notes"][0]["line"], serde_json::Value::Null);
}

/// A chunk of a split input is rendered from its own text: the snippet's line numbers and the
/// location line are the input's.
#[test]
fn a_chunk_renders_with_the_inputs_line_numbers() {
    let chunk = b"func.func @g() {\n  \"nisa.memset\"(%t) {value = 1.0 : f32, engine = \"dma\"} : (i32) -> ()\n}\n";
    let d = diag(
        41,
        3,
        "'nisa.memset' op attribute 'engine': bad (rule: engine)",
    );
    let text = render_at(
        std::slice::from_ref(&d),
        "k.mlir",
        chunk,
        40,
        RenderOptions::default(),
    );
    assert!(text.starts_with("k.mlir:41:3: error:"), "{text}");
    assert!(text.contains("┌─ k.mlir:41:41"), "{text}");
    assert!(text.contains("41 │   \"nisa.memset\""), "{text}");
    // A line before the chunk is not in it: no snippet, the first line only.
    let before = diag(39, 1, "elsewhere");
    let t = render_at(&[before], "k.mlir", chunk, 40, RenderOptions::default());
    assert_eq!(t, "k.mlir:39:1: error: elsewhere\n");
}
