//! Unit tests of `sundial::source`.
use sundial::source::*;

#[test]
fn split_keeps_lines() {
    let text = b"a\n// -----\nb\nc\n// -----\nd";
    let chunks = split(text, true);
    assert_eq!(chunks.len(), 3);
    assert_eq!(chunks[1].first_line, 3);
    assert_eq!(chunks[1].padded, b"\n\nb\nc\n");
    assert_eq!(chunks[2].first_line, 6);
    assert_eq!(chunks[2].text, b"d");
}

#[test]
fn nesting_limit_reports_position() {
    let deep = "(".repeat(MAX_NESTING + 1);
    assert_eq!(
        hazard(deep.as_bytes()).map(|h| (h.line, h.col)),
        Some((1, MAX_NESTING + 1))
    );
    let ok = format!("{}{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
    assert_eq!(hazard(ok.as_bytes()), None);
    // Arrows and strings do not count.
    let arrows = format!("\"{}\" () -> () ", "(".repeat(MAX_NESTING * 2));
    assert_eq!(hazard(arrows.as_bytes()), None);
}

#[test]
fn finds_custom_syntax_ops() {
    let text =
        b"// nisa.x in a comment\n%0 = \"nisa.alloc\"() : () -> !nisa.reg\n  nisa.dma_copy %a";
    assert_eq!(
        custom_syntax_op(text),
        Some(("nisa.dma_copy".to_string(), 3, 3))
    );
    assert_eq!(custom_syntax_op(b"\"bir.gather\"() {a = #bir.x}"), None);
}

#[test]
fn known_parser_crashes_are_refused() {
    let h = hazard(b"x = array<  index = 1>").expect("array<index>");
    assert_eq!((h.line, h.col), (1, 10));
    assert!(h.message.contains("array<index"));
    assert_eq!(
        hazard(b"a = array<i64: 1>, b = myarray<index>, c = \"array<index>\""),
        None
    );
    let h = hazard(b"ok\n  \0").expect("NUL");
    assert_eq!((h.line, h.col), (2, 3));
    assert!(hazard(b"// a comment \0 with a NUL").is_some());
}
