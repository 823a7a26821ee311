#[test]
fn loads() {
    let ctx = sundial_dialects::create_context().unwrap();
    let _ = ctx;
}
