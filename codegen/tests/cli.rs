//! `sundial-mc` end to end, the binary run with arguments and standard input: every mode flag in
//! either position and in llvm's single-dash spelling, the default mode, the positional input
//! and `-`, `-o`, `--show-encoding`, `--list-opcodes`, and every error path with its exit status
//! (1 invalid input, 2 usage) and the guarantee that a failed run writes no output.

mod common;

use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::*;
use sundial_codegen::arch::Target;
use sundial_codegen::dtype::BirDtype::*;
use sundial_codegen::enums::BirAccumulation;
use sundial_codegen::formats::FORMATS;
use sundial_codegen::generate_vec;
use sundial_codegen::model::*;

fn mc_in(dir: Option<&Path>, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sundial-mc"));
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let mut child = cmd
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

fn mc(args: &[&str], stdin: Option<&[u8]>) -> Output {
    mc_in(None, args, stdin)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The first line of standard error: the one-line diagnostic, which the rendered bytes or
/// source snippet below it leave unchanged.
fn first_line(o: &Output) -> &str {
    std::str::from_utf8(&o.stderr)
        .unwrap()
        .lines()
        .next()
        .unwrap_or("")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn ok(o: &Output) {
    assert!(o.status.success(), "{}", stderr(o));
}

fn tmp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sundial-mc-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn tmp(name: &str) -> PathBuf {
    tmp_dir().join(name)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
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

// ---------------------------------------------------------------- modes, input and output

#[test]
fn file_round_trip_for_each_target_with_options_in_either_order() {
    for t in Target::ALL {
        let bytes = stream(t);
        let bin = tmp(&format!("in-{t}.bin"));
        let txt = tmp(&format!("out-{t}.txt"));
        let back = tmp(&format!("back-{t}.bin"));
        std::fs::write(&bin, &bytes).unwrap();
        // Mode flag, then the file, then the target (the spelling that used to fail).
        let o = mc(
            &[
                "--disassemble",
                s(&bin),
                "--target",
                t.name(),
                "-o",
                s(&txt),
            ],
            None,
        );
        ok(&o);
        assert!(o.stdout.is_empty(), "-o FILE writes nothing to stdout");
        let text = std::fs::read_to_string(&txt).unwrap();
        assert_eq!(
            text.lines().count(),
            bytes.len() / 64,
            "one line per bundle"
        );
        // Target first, then the mode flag and the file.
        let o = mc(&["--target", t.name(), "--disassemble", s(&bin)], None);
        ok(&o);
        assert_eq!(stdout(&o), text);
        // The command line from the bug report: the mode flag, the target, then the file.
        let o = mc(&["--disassemble", "--target", t.name(), s(&bin)], None);
        ok(&o);
        assert_eq!(stdout(&o), text);
        // The file before every option.
        let o = mc(&[s(&bin), "--target", t.name(), "--disassemble"], None);
        ok(&o);
        assert_eq!(stdout(&o), text);
        let o = mc(
            &["--assemble", s(&txt), "--target", t.name(), "-o", s(&back)],
            None,
        );
        ok(&o);
        assert_eq!(std::fs::read(&back).unwrap(), bytes);
    }
}

#[test]
fn llvm_single_dash_spellings() {
    let bytes = stream(Target::Sunda);
    let bin = tmp("single-dash.bin");
    std::fs::write(&bin, &bytes).unwrap();
    let want = stdout(&mc(&["--disassemble", s(&bin), "--target", "sunda"], None));
    assert!(!want.is_empty());
    for args in [
        vec!["-disassemble", s(&bin), "-target", "sunda"],
        vec!["-target=sunda", "-disassemble", s(&bin)],
        vec!["--target=sunda", s(&bin), "-disassemble"],
    ] {
        let o = mc(&args, None);
        ok(&o);
        assert_eq!(stdout(&o), want, "{args:?}");
    }
    let o = mc(
        &["-assemble", "-", "-target", "sunda"],
        Some(want.as_bytes()),
    );
    ok(&o);
    assert_eq!(o.stdout, bytes);
    let o = mc(&["-lift", "-target", "sunda"], Some(&bytes));
    ok(&o);
    assert_eq!(stdout(&o).lines().count(), 4);
    let o = mc(&["-list-opcodes"], None);
    ok(&o);
    let o = mc(
        &["-show-encoding", "-disassemble", "-target", "sunda"],
        Some(&bytes),
    );
    ok(&o);
    assert!(stdout(&o).contains("# encoding: ["));
    // A short option keeps its meaning: `-o FILE` and `-oFILE`.
    let out = tmp("single-dash.txt");
    let o = mc(
        &[
            "-disassemble",
            s(&bin),
            "-target",
            "sunda",
            &format!("-o{}", s(&out)),
        ],
        None,
    );
    ok(&o);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), want);
}

#[test]
fn input_absent_or_dash_reads_stdin_and_output_dash_is_stdout() {
    let bytes = stream(Target::Mariana);
    for args in [
        vec!["--disassemble"],
        vec!["--disassemble", "-"],
        vec!["--disassemble", "-", "-o", "-"],
    ] {
        let o = mc(&args, Some(&bytes));
        ok(&o);
        assert!(o.stdout.starts_with(b"dropout wait_mode=none"), "{args:?}");
        let o2 = mc(&["--assemble"], Some(&o.stdout));
        ok(&o2);
        assert_eq!(o2.stdout, bytes);
    }
}

#[test]
fn default_mode_is_assemble() {
    let bytes = stream(Target::Mariana);
    let text = mc(&["--disassemble"], Some(&bytes)).stdout;
    // No mode flag: stdin text to bytes, like llvm-mc.
    let o = mc(&[], Some(&text));
    ok(&o);
    assert_eq!(o.stdout, bytes);
    // No mode flag with a file argument and a target.
    let txt = tmp("default-mode.txt");
    std::fs::write(&txt, &text).unwrap();
    let o = mc(&[s(&txt), "--target", "mariana"], None);
    ok(&o);
    assert_eq!(o.stdout, bytes);
    // Raw bytes given to the default mode are not text: invalid input.
    let o = mc(&[], Some(&[0xFF, 0xFE, 0x00]));
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        first_line(&o),
        "<stdin>: input is not UTF-8 text (byte offset 0x0)"
    );
}

#[test]
fn default_target_is_mariana() {
    // RangeSelect is cayman-only: the default target rejects it, --target cayman accepts it.
    let bytes = stream(Target::Cayman);
    let o = mc(&["--disassemble", "-"], Some(&bytes));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("rule opcode_on_target: range_select (0xbc) does not exist on mariana")
    );
    let o = mc(&["--disassemble", "-", "--target", "cayman"], Some(&bytes));
    ok(&o);
}

#[test]
fn lift_prints_one_instruction_per_line() {
    for t in Target::ALL {
        let bytes = stream(t);
        let o = mc(&["--lift", "--target", t.name()], Some(&bytes));
        ok(&o);
        let text = stdout(&o);
        let want = if t == Target::Cayman { 5 } else { 4 };
        assert_eq!(text.lines().count(), want, "{text}");
        assert!(text.starts_with(
            "dropout src=Bfloat16@sb[0]+0x100/64[1:128] dst=Bfloat16@sb[64]+0x100/64[1:128] \
             threshold_imm_ptr=5 threshold_dtype=Float32 rng_mode=1\ngather "
        ));
        // From a file, the flag after the file.
        let bin = tmp(&format!("lift-{t}.bin"));
        std::fs::write(&bin, &bytes).unwrap();
        let o = mc(&[s(&bin), "--target", t.name(), "--lift"], None);
        ok(&o);
        assert_eq!(stdout(&o), text);
    }
}

// ---------------------------------------------------------------- --show-encoding

/// The `# encoding: [...]` comment of a line, as bytes.
fn encoding_of(line: &str) -> Vec<u8> {
    let (_, list) = line
        .split_once("  # encoding: [")
        .expect("encoding comment");
    let list = list.strip_suffix(']').expect("closing bracket");
    list.split(',')
        .map(|x| u8::from_str_radix(x.strip_prefix("0x").expect("0x"), 16).unwrap())
        .collect()
}

#[test]
fn show_encoding_puts_each_bundle_beside_its_text() {
    let bytes = stream(Target::Mariana);
    let plain = stdout(&mc(&["--disassemble"], Some(&bytes)));
    let o = mc(&["--disassemble", "--show-encoding"], Some(&bytes));
    ok(&o);
    let shown = stdout(&o);
    assert_eq!(shown.lines().count(), bytes.len() / 64);
    for ((line, text), b) in shown.lines().zip(plain.lines()).zip(bytes.chunks(64)) {
        assert!(line.starts_with(text), "{line}");
        assert_eq!(encoding_of(line), b);
    }
    // The first bundle, written out: the dropout's opcode and inst_word_len lead the list.
    assert!(
        shown
            .lines()
            .next()
            .unwrap()
            .contains("  # encoding: [0x7f,0x10,0x00,0x00,")
    );
    // The comment is a comment to the assembler: the shown text assembles to the same bytes.
    let o = mc(&["--assemble"], Some(shown.as_bytes()));
    ok(&o);
    assert_eq!(o.stdout, bytes);
    // For assembly input too: the text of what was assembled, with its encodings.
    let o = mc(&["--assemble", "--show-encoding"], Some(plain.as_bytes()));
    ok(&o);
    assert_eq!(stdout(&o), shown);
    // Without a mode flag (assemble) as well.
    let o = mc(&["--show-encoding"], Some(plain.as_bytes()));
    ok(&o);
    assert_eq!(stdout(&o), shown);
}

#[test]
fn show_encoding_validates_like_the_plain_modes() {
    let mut bytes = stream(Target::Sunda);
    bytes[64 + 0x24] = 7;
    let o = mc(
        &["--disassemble", "--show-encoding", "--target", "sunda"],
        Some(&bytes),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("rule gather_valid_options"));
    // Text input with --show-encoding: a parse error is reported as without it.
    let o = mc(&["--assemble", "--show-encoding"], Some(b"dropout bogus\n"));
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert_eq!(
        first_line(&o),
        "<stdin>:1:9: expected `field=value`, found `bogus`"
    );
}

// ---------------------------------------------------------------- --list-opcodes

/// The cells of a `--list-opcodes` row (columns are separated by two or more spaces).
fn cols(l: &str) -> Vec<&str> {
    l.split("  ")
        .filter(|c| !c.is_empty())
        .map(str::trim)
        .collect()
}

#[test]
fn list_opcodes_covers_the_format_table() {
    let o = mc(&["--list-opcodes"], None);
    ok(&o);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), FORMATS.len() + 1, "{text}");
    assert_eq!(
        cols(lines[0]),
        [
            "opcode", "mnemonic", "struct", "family", "targets", "sources", "pinned"
        ]
    );
    // One row per format, ascending, each from the table itself.
    let mut want: Vec<_> = FORMATS.iter().collect();
    want.sort_by_key(|f| f.opcode);
    for (line, f) in lines[1..].iter().zip(want) {
        let c = cols(line);
        assert_eq!(c[0], format!("{:#04x}", f.opcode), "{line}");
        assert_eq!(c[1], f.mnemonic);
        assert_eq!(c[2], f.struct_name);
        assert_eq!(c[3], format!("{:?}", f.family));
        let targets: Vec<&str> = Target::ALL
            .into_iter()
            .filter(|t| t.model().has(f.family))
            .map(Target::name)
            .collect();
        assert_eq!(c[4], targets.join(","));
        let pinned = f.fields.iter().all(|x| x.prov.pinned());
        assert_eq!(c[6] == "yes", pinned, "{line}");
    }
    // Two rows written out by hand: RangeSelect is cayman-only and partly header-derived; the
    // companion 0x9B (also TENSOR_SCALAR 0x9A's) is header-only and on every target.
    assert!(lines.iter().any(|l| cols(l)
        == [
            "0xbc",
            "range_select",
            "S2D2_RS",
            "RangeSelect",
            "cayman",
            "seed+header",
            "yes"
        ]));
    assert!(lines.iter().any(|l| cols(l)
        == [
            "0x9b",
            "dve_read_accumulator",
            "D1_RD",
            "DveReadAccumulator",
            "sunda,cayman,mariana",
            "header",
            "yes"
        ]));
    // To a file as well.
    let out = tmp("opcodes.txt");
    ok(&mc(&["--list-opcodes", "-o", s(&out)], None));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
}

// ---------------------------------------------------------------- invalid input: exit 1

#[test]
fn invalid_bundle_diagnostic_nonzero_exit_and_no_output() {
    let mut bytes = stream(Target::Sunda);
    bytes[64 + 0x24] = 7; // bundle 1 = reg_load: gather_options 7
    let bin = tmp("bad.bin");
    let out = tmp("bad.txt");
    std::fs::write(&bin, &bytes).unwrap();
    let _ = std::fs::remove_file(&out);
    let o = mc(
        &["--disassemble", s(&bin), "--target", "sunda", "-o", s(&out)],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    let want = format!(
        "{}: bundle 1 (byte offset 0x64): rule gather_valid_options: gather_options 7 not in {{0, 1}}",
        bin.display()
    );
    assert!(stderr(&o).lines().any(|l| l == want), "{}", stderr(&o));
    assert!(!out.exists(), "no partial output");
    // An existing output file is left as it was.
    std::fs::write(&out, b"old").unwrap();
    let o = mc(
        &["--disassemble", s(&bin), "--target", "sunda", "-o", s(&out)],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(std::fs::read(&out).unwrap(), b"old");
    let o = mc(&["--disassemble", "--target", "sunda"], Some(&bytes));
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert!(
        stderr(&o).starts_with("<stdin>: bundle 1 (byte offset 0x64): rule gather_valid_options")
    );
}

#[test]
fn invalid_text_from_the_assembler_exits_1() {
    // A parse error has line and column.
    let o = mc(&["--assemble", "-"], Some(b"# header\n  dropout bogus\n"));
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert_eq!(
        first_line(&o),
        "<stdin>:2:11: expected `field=value`, found `bogus`"
    );
    // Text that parses but assembles to a bundle the validator rejects: the rule, bundle index
    // and byte offset, and no bytes written to the output file.
    let bytes = stream(Target::Sunda);
    let text = stdout(&mc(&["--disassemble", "--target", "sunda"], Some(&bytes)));
    let bad = text.replacen("out_dtype=bf16", "out_dtype=fp16", 1);
    let out = tmp("bad-asm.bin");
    let _ = std::fs::remove_file(&out);
    let o = mc(
        &["--assemble", "--target", "sunda", "-o", s(&out)],
        Some(bad.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with(
        "<stdin>: bundle 0 (byte offset 0x21): rule d3_dropout_same_src_dst_type: in 0x06 != out 0x07"
    ));
    assert!(!out.exists());
}

#[test]
fn truncated_input() {
    let mut bytes = stream(Target::Sunda);
    bytes.truncate(64 * 2 + 5);
    for mode in ["--disassemble", "--lift"] {
        let o = mc(&[mode, "-", "--target", "sunda"], Some(&bytes));
        assert_eq!(o.status.code(), Some(1));
        assert!(o.stdout.is_empty());
        assert_eq!(
            first_line(&o),
            "<stdin>: truncated input: 5 trailing bytes at byte offset 0x80 (bundles are 64 bytes)"
        );
    }
}

#[test]
fn lift_of_a_broken_sequence_exits_1() {
    // Without the shuffle's first half (bundle 5), its 0x69 is an orphan: an error naming the
    // bundle and offset, nothing written.
    let bytes = stream(Target::Mariana);
    let cut = [&bytes[..5 * 64], &bytes[6 * 64..]].concat();
    let o = mc(&["--lift"], Some(&cut));
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert_eq!(
        first_line(&o),
        "<stdin>: bundle 5 (byte offset 0x140): 0x69 stream_shuffle without its 0x6a or 0x6b \
         before it"
    );
    // Below it, the bundle's bytes with the orphan's opcode underlined.
    assert!(
        stderr(&o).contains("^^ opcode = 0x69 (stream_shuffle)"),
        "{}",
        stderr(&o)
    );
}

// ---------------------------------------------------------------- usage errors: exit 2

fn usage(o: &Output, needle: &str) {
    assert_eq!(o.status.code(), Some(2), "{}", stderr(o));
    assert!(o.stdout.is_empty());
    assert!(stderr(o).contains(needle), "{}", stderr(o));
}

#[test]
fn usage_errors_exit_2() {
    let bytes = stream(Target::Mariana);
    // The mode flags are exclusive.
    usage(
        &mc(&["--disassemble", "--assemble"], Some(&bytes)),
        "cannot be used with",
    );
    usage(
        &mc(&["-lift", "-disassemble"], Some(&bytes)),
        "cannot be used with",
    );
    usage(
        &mc(&["--list-opcodes", "--lift"], None),
        "cannot be used with",
    );
    // --show-encoding has no meaning for --lift or --list-opcodes.
    usage(
        &mc(&["--lift", "--show-encoding"], Some(&bytes)),
        "cannot be used with",
    );
    usage(
        &mc(&["--list-opcodes", "--show-encoding"], None),
        "cannot be used with",
    );
    // --list-opcodes reads no input.
    usage(
        &mc(&["--list-opcodes", "x.bin"], None),
        "cannot be used with",
    );
    // The old spelling that took the file as the flag's value is now two arguments, so a second
    // file is one too many.
    usage(
        &mc(&["--disassemble", "a.bin", "b.bin"], None),
        "unexpected argument",
    );
    usage(
        &mc(&["--disassemble", "--target", "trn9"], Some(&bytes)),
        "unknown target `trn9`",
    );
    usage(&mc(&["--target"], None), "a value is required");
    usage(&mc(&["--frobnicate"], None), "unexpected argument");
    usage(&mc(&["-frobnicate"], None), "unexpected argument");
    usage(&mc(&["--disassemble", "-o"], None), "a value is required");
    // A file name that is not UTF-8 is a file name like any other (here: one that is absent).
    let raw = std::ffi::OsStr::from_bytes(b"-\xff.bin");
    let o = Command::new(env!("CARGO_BIN_EXE_sundial-mc"))
        .args([
            std::ffi::OsStr::new("--disassemble"),
            std::ffi::OsStr::new("--"),
            raw,
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    usage(&o, "sundial-mc: error: ");
    // A missing input file and an unwritable output are usage errors too.
    usage(
        &mc(&["--disassemble", s(&tmp("does-not-exist.bin"))], None),
        "sundial-mc: error: ",
    );
    let bin = tmp("usage.bin");
    std::fs::write(&bin, &bytes).unwrap();
    usage(
        &mc(
            &[
                "--disassemble",
                s(&bin),
                "-o",
                s(&tmp("no-such-dir/out.txt")),
            ],
            None,
        ),
        "no-such-dir/out.txt",
    );
}

#[test]
fn help_and_version_exit_0() {
    for h in ["--help", "-help", "-h"] {
        let o = mc(&[h], None);
        ok(&o);
        let text = stdout(&o);
        for flag in [
            "--assemble",
            "--disassemble",
            "--lift",
            "--list-opcodes",
            "--show-encoding",
            "--target",
            "-o",
        ] {
            assert!(text.contains(flag), "{flag} in {text}");
        }
    }
    let o = mc(&["--version"], None);
    ok(&o);
    assert!(stdout(&o).starts_with("sundial-mc "));
}

#[test]
fn arguments_after_double_dash_are_not_options() {
    // A relative file named like a single-dash option: `--` makes it the input, unrewritten.
    let dir = tmp_dir().join("dashdash");
    std::fs::create_dir_all(&dir).unwrap();
    let bytes = stream(Target::Mariana);
    std::fs::write(dir.join("-lift"), &bytes).unwrap();
    let o = mc_in(Some(&dir), &["--disassemble", "--", "-lift"], None);
    ok(&o);
    assert_eq!(o.stdout, mc(&["--disassemble"], Some(&bytes)).stdout);
}
