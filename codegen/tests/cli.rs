//! `sundial-mc` end to end: file and stdin round trips, diagnostics with a non-zero exit and no
//! output, truncated input, parse errors, and the target switch.

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use common::*;
use sundial_codegen::arch::Target;
use sundial_codegen::dtype::BirDtype::*;
use sundial_codegen::enums::BirAccumulation;
use sundial_codegen::generate_vec;
use sundial_codegen::model::*;

fn mc(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sundial-mc"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn sundial-mc");
    let mut input = child.stdin.take().unwrap();
    // A run that reads a file argument may exit before taking its (empty) standard input; the
    // broken pipe that races with that exit is not a failure of the tool.
    match input.write_all(stdin.unwrap_or(&[])) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        r => r.unwrap(),
    }
    drop(input);
    child.wait_with_output().unwrap()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sundial-mc-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn stream(t: Target) -> Vec<u8> {
    let arch = t.model();
    let mut insts = vec![
        Instruction::new(Op::Dropout(Dropout {
            src: sb(0, 0x100, 64, 128, Bfloat16),
            dst: sb(64, 0x100, 64, 128, Bfloat16),
            threshold_imm_ptr: 5,
            threshold_dtype: Float32,
            rng_mode: 1,
            rng_seed: None,
        })),
        Instruction::new(Op::Gather(Gather {
            data: sb(0, 0, 16, 4096, Float32),
            index: sb(0, 0x4000, 16, 1000, Uint32),
            dst: sb(0, 0x8000, 16, 1000, Float32),
        })),
        Instruction::new(Op::StreamShuffle(StreamShuffle {
            src: sb(0, 0, 8, 32, Bfloat16),
            dst: sb(8, 0, 8, 32, Bfloat16),
            mask: identity_mask(),
        })),
        Instruction::new(Op::IndirectCopy(IndirectCopy {
            src: ind(0, 0x100, 0, 0x2000, 16, 64, Bfloat16),
            dst: sb(16, 0, 16, 64, Bfloat16),
            num_elem_per_idx: 4,
            src_buffer_size: 256,
        })),
    ];
    if t == Target::Cayman {
        insts.push(rsel(|r| r.reduce_cmd = BirAccumulation::Idle));
    }
    insts
        .iter()
        .flat_map(|i| generate_vec(i, arch).unwrap())
        .flatten()
        .collect()
}

#[test]
fn file_round_trip_for_each_target() {
    for t in Target::ALL {
        let bytes = stream(t);
        let bin = tmp(&format!("in-{t}.bin"));
        let txt = tmp(&format!("out-{t}.txt"));
        let back = tmp(&format!("back-{t}.bin"));
        std::fs::write(&bin, &bytes).unwrap();
        let o = mc(
            &[
                "--disassemble",
                bin.to_str().unwrap(),
                "--target",
                t.name(),
                "-o",
                txt.to_str().unwrap(),
            ],
            None,
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = std::fs::read_to_string(&txt).unwrap();
        assert_eq!(
            text.lines().count(),
            bytes.len() / 64,
            "one line per bundle"
        );
        let o = mc(
            &[
                "--assemble",
                txt.to_str().unwrap(),
                "--target",
                t.name(),
                "-o",
                back.to_str().unwrap(),
            ],
            None,
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(std::fs::read(&back).unwrap(), bytes);
    }
}

#[test]
fn stdin_stdout_round_trip() {
    let bytes = stream(Target::Mariana);
    let o = mc(&["--disassemble", "-"], Some(&bytes));
    assert!(o.status.success());
    assert!(o.stdout.starts_with(b"dropout wait_mode=none"));
    let o2 = mc(&["--assemble", "-"], Some(&o.stdout));
    assert!(
        o2.status.success(),
        "{}",
        String::from_utf8_lossy(&o2.stderr)
    );
    assert_eq!(o2.stdout, bytes);
}

#[test]
fn invalid_bundle_diagnostic_nonzero_exit_and_no_output() {
    let mut bytes = stream(Target::Sunda);
    bytes[64 + 0x24] = 7; // bundle 1 = reg_load: gather_options 7
    let bin = tmp("bad.bin");
    let out = tmp("bad.txt");
    std::fs::write(&bin, &bytes).unwrap();
    let _ = std::fs::remove_file(&out);
    let o = mc(
        &[
            "--disassemble",
            bin.to_str().unwrap(),
            "--target",
            "sunda",
            "-o",
            out.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    let want = format!(
        "{}: bundle 1 (byte offset 0x64): rule gather_valid_options: gather_options 7 not in {{0, 1}}",
        bin.display()
    );
    assert!(err.lines().any(|l| l == want), "{err}");
    assert!(!out.exists(), "no partial output");
    let o = mc(&["--disassemble", "-", "--target", "sunda"], Some(&bytes));
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .starts_with("<stdin>: bundle 1 (byte offset 0x64): rule gather_valid_options")
    );
}

#[test]
fn truncated_input() {
    let mut bytes = stream(Target::Sunda);
    bytes.truncate(64 * 2 + 5);
    let o = mc(&["--disassemble", "-", "--target", "sunda"], Some(&bytes));
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert_eq!(
        String::from_utf8(o.stderr).unwrap().trim_end(),
        "<stdin>: truncated input: 5 trailing bytes at byte offset 0x80 (bundles are 64 bytes)"
    );
}

#[test]
fn parse_error_has_line_and_column() {
    let o = mc(&["--assemble", "-"], Some(b"# header\n  dropout bogus\n"));
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert_eq!(
        String::from_utf8(o.stderr).unwrap().trim_end(),
        "<stdin>:2:11: expected `field=value`, found `bogus`"
    );
}

#[test]
fn default_target_is_mariana() {
    // RangeSelect is cayman-only: the default target rejects it, --target cayman accepts it.
    let bytes = stream(Target::Cayman);
    let o = mc(&["--disassemble", "-"], Some(&bytes));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("rule opcode_on_target: range_select (0xbc) does not exist on mariana")
    );
    let o = mc(&["--disassemble", "-", "--target", "cayman"], Some(&bytes));
    assert!(o.status.success());
    let o = mc(&["--disassemble", "-", "--target", "trn9"], Some(&bytes));
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn lift_prints_one_instruction_per_line() {
    for t in Target::ALL {
        let bytes = stream(t);
        let o = mc(&["--lift", "-", "--target", t.name()], Some(&bytes));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8(o.stdout).unwrap();
        let want = if t == Target::Cayman { 5 } else { 4 };
        assert_eq!(text.lines().count(), want, "{text}");
        assert!(text.starts_with(
            "dropout src=Bfloat16@sb[0]+0x100/64[1:128] dst=Bfloat16@sb[64]+0x100/64[1:128] \
             threshold_imm_ptr=5 threshold_dtype=Float32 rng_mode=1\ngather "
        ));
    }
    // Without the shuffle's first half (bundle 5), its 0x69 is an orphan: an error naming the
    // bundle and offset, nothing written.
    let bytes = stream(Target::Mariana);
    let cut = [&bytes[..5 * 64], &bytes[6 * 64..]].concat();
    let o = mc(&["--lift", "-"], Some(&cut));
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "<stdin>: bundle 5 (byte offset 0x140): 0x69 stream_shuffle without its 0x6a or 0x6b \
         before it\n"
    );
}
