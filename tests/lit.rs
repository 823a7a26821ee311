//! Runs the lit + FileCheck suite in `lit/` against the tools cargo just built, so that its
//! result shows in `cargo test`. This test binary does not link MLIR: it only starts `lit`.

use std::{path::Path, process::Command};

#[test]
fn lit_suite() {
    let opt = Path::new(env!("CARGO_BIN_EXE_sundial-opt"));
    let bin_dir = opt.parent().expect("the tool has a directory");
    let tools = std::env::var("LLVM_TOOLS_DIR").unwrap_or_else(|_| "/usr/lib/llvm-22/bin".into());
    let lit = Path::new(&tools).join("lit");
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("lit");
    let mut cmd = Command::new(&lit);
    cmd.arg("-sv").arg(&suite).env("SUNDIAL_BIN_DIR", bin_dir).env("LLVM_TOOLS_DIR", &tools);
    // Respect a caller's parallelism (e.g. LIT_OPTS=-j1); lit reads LIT_OPTS itself.
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("cannot run {}: {e} (run scripts/setup.sh to install LLVM 22's lit)", lit.display()));
    assert!(status.success(), "lit suite failed (see the output above)");
}
