//! Unit tests of `sundial::source`.
use sundial::source::*;

#[test]
fn split_keeps_lines() {
    let text = b"a\n// -----\nb\nc\n// -----\nd";
    let chunks = split(text, true);
    assert_eq!(chunks.len(), 3);
    assert_eq!(chunks[1].first_line, 3);
    assert_eq!(chunks[1].text, b"b\nc\n");
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

/// MLIR's lexer skips whitespace and `//` comments between tokens, so every spelling of
/// `array` `<` `index` reaches the crashing dense-array parser; the guard works on tokens.
#[test]
fn array_index_is_refused_in_every_token_spelling() {
    // The minimised fuzz crash (a comment between `array<` and `index`).
    let crash = b"func.func @f() {\n  \"bir.gather\"() {data = {pattern = array<\n// x\n  index = 3>}} : () -> ()\n  return\n}\n";
    let h = hazard(crash).expect("comment between the tokens");
    assert_eq!((h.line, h.col), (2, 42));
    for text in [
        &b"a = array <index>"[..],
        b"a = array\t<\tindex>",
        b"a = array\r\n<\r\nindex>",
        b"a = array // c\n < // d\n index>",
        b"a = array<// x\n// y\nindex: 1>",
        b"a = array<index",
    ] {
        assert!(
            hazard(text).is_some(),
            "{:?} must be refused",
            String::from_utf8_lossy(text)
        );
    }
    // Not the construct: other identifiers, sigils, strings, comments, other element types.
    for text in [
        &b"a = array<i64: 1>"[..],
        b"a = myarray<index>",
        b"a = #array<index>",
        b"a = !array<index>",
        b"a = \"array<index>\"",
        b"// array<index>",
        b"a = array<i32>, b = index",
        b"a = array<indexes>",
        b"a = array<\"index\">",
    ] {
        assert_eq!(
            hazard(text),
            None,
            "{:?} must pass",
            String::from_utf8_lossy(text)
        );
    }
}

/// The lexer's tokens carry MLIR's boundaries and 1-based positions.
#[test]
fn lexer_tokens_and_positions() {
    let text = b"%0 = \"a\\\"b\" // c\n  @f -> 1.5e-3 >= x";
    let mut lexer = Lexer::new(text);
    let mut kinds = Vec::new();
    while let Some(t) = lexer.next_token().expect("no NUL") {
        kinds.push((
            t.kind,
            t.line,
            t.col,
            String::from_utf8_lossy(t.text(text)).into_owned(),
        ));
    }
    let expect = [
        (TokenKind::SigilIdent, 1, 1, "%0"),
        (TokenKind::Punct(b'='), 1, 4, "="),
        (TokenKind::String, 1, 6, "\"a\\\"b\""),
        (TokenKind::SigilIdent, 2, 3, "@f"),
        (TokenKind::Arrow, 2, 6, "->"),
        (TokenKind::Number, 2, 9, "1.5e-3"),
        (TokenKind::GreaterEqual, 2, 16, ">="),
        (TokenKind::BareIdent, 2, 19, "x"),
    ];
    let got: Vec<_> = kinds
        .iter()
        .map(|(k, l, c, s)| (*k, *l, *c, s.as_str()))
        .collect();
    assert_eq!(got, expect);
}

/// Positions stay exact across a string literal that spans lines and after escapes, and a NUL
/// inside a string (also right after a `\`) is reported where it is.
#[test]
fn lexer_positions_across_strings_and_nul_in_strings() {
    let text = b"a \"x\ny\\\"\n z\" b\n\tc";
    let mut lexer = Lexer::new(text);
    let mut got = Vec::new();
    while let Some(t) = lexer.next_token().expect("no NUL") {
        got.push((t.kind, t.line, t.col));
    }
    assert_eq!(
        got,
        [
            (TokenKind::BareIdent, 1, 1),
            (TokenKind::String, 1, 3),
            (TokenKind::BareIdent, 3, 5),
            (TokenKind::BareIdent, 4, 2),
        ]
    );
    for (text, line, col) in [
        (&b"x = \"ab\0\""[..], 1, 8),
        (&b"x = \"a\nb\\\0\""[..], 2, 3),
        (&b"x\n  %v\0"[..], 2, 5),
    ] {
        let h = hazard(text).expect("NUL");
        assert_eq!(
            (h.line, h.col),
            (line, col),
            "{:?}",
            String::from_utf8_lossy(text)
        );
        assert!(h.message.contains("NUL"), "{}", h.message);
    }
}
