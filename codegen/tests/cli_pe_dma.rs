//! `sundial-mc` on the per-target PE layouts: the same MATMUL bytes print as `matmul_v4` for
//! mariana and as `matmul` for cayman, each text assembles back for its own target only, and a
//! mariana stream of every op of the group lifts.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use common::pe_dma::*;
use sundial_codegen::arch::Target;
use sundial_codegen::generate_vec;

fn mc(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sundial-mc"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn sundial-mc");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

#[test]
fn pe_layouts_follow_the_target() {
    let bytes = generate_vec(&mm(|_| {}), Target::Mariana.model())
        .unwrap()
        .concat();
    let out = mc(&["--disassemble", "-", "--target", "mariana"], &bytes);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("ldweights_v4 ") && text.contains("\nmatmul_v4 "));
    let back = mc(&["--assemble", "-", "--target", "mariana"], text.as_bytes());
    assert!(back.status.success());
    assert_eq!(back.stdout, bytes);
    // The mariana text is refused for cayman.
    let wrong = mc(&["--assemble", "-", "--target", "cayman"], text.as_bytes());
    assert!(!wrong.status.success() && wrong.stdout.is_empty());
}

#[test]
fn a_mariana_stream_of_the_group_lifts() {
    let arch = Target::Mariana.model();
    let insts = [
        mm(|_| {}),
        mmx(|_| {}),
        qmx(|_| {}),
        d2d(|_| {}),
        dind(|_| {}),
        es(|_| {}),
    ];
    let bytes: Vec<u8> = insts
        .iter()
        .flat_map(|i| generate_vec(i, arch).unwrap().concat())
        .collect();
    let out = mc(&["--lift", "-", "--target", "mariana"], &bytes);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let want: Vec<String> = insts.iter().map(|i| i.to_string()).collect();
    assert_eq!(text.lines().collect::<Vec<_>>(), want);
}
