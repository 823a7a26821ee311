//! Builds the two C++ functions Sundial needs beyond MLIR's C API: parsing without verifying
//! (`cpp/parse.cpp`) and the verifier's snapshot walk (`cpp/snapshot.cpp`; see their
//! headers). It compiles against the same LLVM/MLIR 22 headers whose libraries `mlir-sys`
//! links (the `MLIR_SYS_220_PREFIX` of `.cargo/config.toml`).

use std::{env, path::PathBuf, process::Command};

fn main() {
    println!("cargo:rerun-if-changed=cpp/parse.cpp");
    println!("cargo:rerun-if-changed=cpp/snapshot.cpp");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    let prefix = PathBuf::from(
        env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".to_string()),
    );
    // LLVM's own C++ flags (language standard, ABI macros, -fno-exceptions), so the shim sees
    // the headers exactly as the libraries were built against them.
    let config = prefix.join("bin/llvm-config");
    let flags = Command::new(&config)
        .arg("--cxxflags")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_else(|| {
            panic!(
                "cannot run {} --cxxflags (run scripts/setup.sh to install LLVM/MLIR 22)",
                config.display()
            )
        });
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .file("cpp/parse.cpp")
        .file("cpp/snapshot.cpp")
        .warnings(false);
    for flag in flags.split_whitespace() {
        build.flag(flag);
    }
    build.compile("sundial_parse");
}
