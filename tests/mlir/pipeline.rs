//! The textual pipeline parser and pass options.

use sundial_passes::{pipeline, registry};

#[test]
fn parses_nested_pipelines_with_options() {
    let p = pipeline::parse("builtin.module(sundial-verify{target=cayman}, func.func(cse,canonicalize{max-iterations=3}))").unwrap();
    assert_eq!(p.len(), 1);
    let inner = p[0].nested.as_ref().unwrap();
    assert_eq!(inner[0].name, "sundial-verify");
    assert_eq!(inner[0].options.as_deref(), Some("target=cayman"));
    assert_eq!(
        inner[1].nested.as_ref().unwrap()[1].options.as_deref(),
        Some("max-iterations=3")
    );
}

#[test]
fn syntax_errors_name_the_offset() {
    for bad in ["builtin.module(", "a,,b", "a{x=1", "a)", "(", "a(b)c", "a,"] {
        let e = pipeline::parse(bad).unwrap_err();
        assert!(e.contains("invalid pass pipeline at offset"), "{bad}: {e}");
    }
    assert!(
        pipeline::parse(&"a(".repeat(100))
            .unwrap_err()
            .contains("too deep")
    );
}

#[test]
fn option_values() {
    let o = pipeline::parse_options("a=1 b=\"x y\" c={p q} flag").unwrap();
    assert_eq!(
        o,
        vec![
            ("a".into(), "1".into()),
            ("b".into(), "x y".into()),
            ("c".into(), "p q".into()),
            ("flag".into(), "true".into())
        ]
    );
    assert!(pipeline::parse_options("a=\"x").is_err());
    let info = registry::lookup("sundial-verify").unwrap();
    assert!(
        info.parse_options(&[("target".into(), "mariana".into())])
            .is_ok()
    );
    assert!(
        info.parse_options(&[("tagret".into(), "mariana".into())])
            .unwrap_err()
            .contains("has no option 'tagret'")
    );
    assert!(
        info.parse_options(&[("target".into(), "x".into())])
            .unwrap_err()
            .contains("invalid value 'x'")
    );
}

#[test]
fn every_listed_upstream_pass_exists() {
    // `--list-passes` prints this list: each entry must be a pass MLIR knows.
    let session = sundial::Session::new().unwrap();
    for (name, _) in registry::UPSTREAM_PASSES {
        assert!(
            session
                .check_pipeline(&format!("builtin.module({name})"))
                .is_ok(),
            "{name}"
        );
    }
    assert!(
        session
            .check_pipeline("builtin.module(no-such-pass)")
            .is_err()
    );
}
