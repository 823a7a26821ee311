//! The committed IRDL files equal what the op tables generate, and MLIR loads them.
//!
//! `SUNDIAL_BLESS=1 cargo test --test mlir irdl` rewrites `dialects/irdl/*.irdl.mlir` after a
//! table change.

use std::path::Path;

fn check(name: &str, generated: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("dialects/irdl")
        .join(format!("{name}.irdl.mlir"));
    if std::env::var_os("SUNDIAL_BLESS").is_some() {
        std::fs::write(&path, generated).expect("write the blessed IRDL file");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is stale: run `SUNDIAL_BLESS=1 cargo test --test mlir irdl` and commit the result",
        path.display()
    );
}

#[test]
fn nisa_irdl_is_current() {
    check("nisa", &sundial_dialects::irdl::nisa());
}

#[test]
fn bir_irdl_is_current() {
    check("bir", &sundial_dialects::irdl::bir());
}

#[test]
fn every_op_is_registered() {
    let session = sundial::Session::new().expect("context");
    for op in sundial_dialects::nisa::OPS {
        let name = format!("nisa.{}", op.name);
        assert!(
            session.context().is_registered_operation(&name),
            "{name} is not registered"
        );
    }
    for op in sundial_dialects::bir::OPS {
        let name = format!("bir.{}", op.spec.name);
        assert!(
            session.context().is_registered_operation(&name),
            "{name} is not registered"
        );
    }
}

#[test]
fn op_table_counts() {
    // 62 emit ops + 6 irbuilder extras + 3 generic loads/stores + alloc + ap, + the loop,
    // register and launch-grid ops (dynamic_ap, register_alloc, register_move,
    // register_index, program_id, num_programs).
    let emit = sundial_dialects::nisa::OPS
        .iter()
        .filter(|o| o.emit.is_some())
        .count();
    assert_eq!(emit, 62);
    let mut numbers: Vec<u8> = sundial_dialects::nisa::OPS
        .iter()
        .filter_map(|o| o.emit)
        .collect();
    numbers.sort_unstable();
    assert_eq!(
        numbers,
        (1..=62).collect::<Vec<u8>>(),
        "emit rows must be numbered 1..62 once each"
    );
    for extra in [
        "rand2",
        "rng",
        "rand_get_state",
        "rand_set_state",
        "set_rng_seed",
        "dma_compute",
        "alloc",
        "ap",
        "reshape",
        "slice",
        "permute",
        "broadcast",
        "nc_transpose",
        "core_barrier",
        "dynamic_ap",
        "register_alloc",
        "register_move",
        "register_index",
        "program_id",
        "num_programs",
    ] {
        assert!(
            sundial_dialects::nisa::op(extra).is_some(),
            "missing nisa.{extra}"
        );
    }
    // 73 + the four views + nc_transpose + core_barrier + the six loop, register and grid ops
    // + the generic partition reduction.
    assert_eq!(sundial_dialects::nisa::OPS.len(), 86);
    // Op names are unique in each dialect.
    let mut names: Vec<&str> = sundial_dialects::nisa::OPS.iter().map(|o| o.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), sundial_dialects::nisa::OPS.len());
    let mut bir: Vec<&str> = sundial_dialects::bir::OPS
        .iter()
        .map(|o| o.spec.name)
        .collect();
    bir.sort_unstable();
    bir.dedup();
    assert_eq!(bir.len(), sundial_dialects::bir::OPS.len());
    // The op numbers the seeds pin.
    for (name, number) in [
        ("gather", 92),
        ("indirect_copy", 26),
        ("generic_indirect_load", 42),
        ("generic_indirect_save", 44),
        ("indirect_save_accumulate", 46),
    ] {
        assert_eq!(
            sundial_dialects::bir::op(name).and_then(|o| o.number),
            Some(number),
            "bir.{name}"
        );
    }
}

#[test]
fn docs_ops_md_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ops.md");
    let generated = sundial_dialects::docs::markdown();
    if std::env::var_os("SUNDIAL_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "docs/ops.md is stale: run `SUNDIAL_BLESS=1 cargo test --test mlir docs` and commit it"
    );
}
