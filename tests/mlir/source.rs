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
    assert_eq!(nesting_error(deep.as_bytes()), Some((1, MAX_NESTING + 1)));
    let ok = format!("{}{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
    assert_eq!(nesting_error(ok.as_bytes()), None);
    // Arrows and strings do not count.
    let arrows = format!("\"{}\" () -> () ", "(".repeat(MAX_NESTING * 2));
    assert_eq!(nesting_error(arrows.as_bytes()), None);
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
