//! `sundial-mc` diagnostics end to end: under the unchanged first line, a validator failure
//! shows the bundle's bytes with a caret under the offending field, its name and value, the
//! rule and its description; a truncated input its partial bundle; an unknown opcode the
//! opcode byte; an assembler error the source line with a caret at the column. `--color`
//! and `--diagnostics-format` (JSON, one object per line), their single-dash spellings, and
//! their bad values (exit 2).

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use common::*;
use sundial_codegen::arch::Target;
use sundial_codegen::dtype::BirDtype::*;
use sundial_codegen::generate_vec;
use sundial_codegen::model::*;
use sundial_codegen::validate::RULES;

fn mc_env(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sundial-mc"));
    cmd.env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn sundial-mc");
    let mut input = child.stdin.take().unwrap();
    match input.write_all(stdin) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        r => r.unwrap(),
    }
    drop(input);
    child.wait_with_output().unwrap()
}

fn mc(args: &[&str], stdin: &[u8]) -> Output {
    mc_env(args, stdin, &[])
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Dropout (bundle 0) then Gather (bundles 1..) for sunda.
fn stream() -> Vec<u8> {
    let arch = Target::Sunda.model();
    [
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
    ]
    .iter()
    .flat_map(|i| generate_vec(i, arch).unwrap())
    .flatten()
    .collect()
}

/// The hex row headed `0xOFF` and the line under it.
fn row_and_next<'a>(err: &'a str, head: &str) -> (&'a str, &'a str) {
    let lines: Vec<&str> = err.lines().collect();
    let i = lines
        .iter()
        .position(|l| l.starts_with(&format!("{head} │ ")))
        .unwrap_or_else(|| panic!("no row {head}:\n{err}"));
    (lines[i], lines.get(i + 1).copied().unwrap_or(""))
}

/// The character column of the hex text of byte `i` (0..16) of a row, counted after `│ `.
fn byte_col(i: usize) -> usize {
    // Two digits and a space per byte, one more space between the two groups of eight.
    3 * i + if i >= 8 { 1 } else { 0 }
}

/// The characters of `line` after its `│ ` border.
fn after_border(line: &str) -> Vec<char> {
    let (_, rest) = line.split_once("│ ").unwrap_or(("", ""));
    rest.chars().collect()
}

#[test]
fn a_validator_failure_shows_the_bytes_the_field_the_rule_and_its_description() {
    let mut bytes = stream();
    // Bundle 1 (the gather's reg_load, 0x68): gather_options, the u16 at byte 0x24 of its table,
    // becomes 7.
    bytes[64 + 0x24] = 7;
    let o = mc(&["--disassemble", "--target", "sunda"], &bytes);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    // The first line is exactly as before.
    assert_eq!(
        lines[0],
        "<stdin>: bundle 1 (byte offset 0x64): rule gather_valid_options: gather_options 7 not in {0, 1}"
    );
    // The bundle's 64 bytes, four rows headed by their input offsets; byte 0x64 is the fifth
    // of row 0x60.
    for head in ["0x0040", "0x0050", "0x0060", "0x0070"] {
        row_and_next(&err, head);
    }
    let (row, carets) = row_and_next(&err, "0x0060");
    let hex = after_border(row);
    let c = byte_col(4);
    assert_eq!(hex[c..c + 2].iter().collect::<String>(), "07", "{err}");
    let marks = after_border(carets);
    // gather_options is the u16 at 0x24..0x26 of the 0x68 reg_load table: carets exactly under
    // `07 00` (five columns), then the label with the decoded value.
    assert_eq!(marks.iter().position(|&x| x == '^'), Some(c), "{err}");
    assert_eq!(marks.iter().filter(|&&x| x == '^').count(), 5, "{err}");
    let label: String = marks[c + 5..].iter().collect();
    assert_eq!(label, " gather_options = 7");
    // The first row of the bundle starts with its opcode and inst_word_len.
    let (first_row, _) = row_and_next(&err, "0x0040");
    let op = format!("{:02x} 10 00 00", bytes[64]);
    assert!(first_row.ends_with(&after_border(first_row).iter().collect::<String>()));
    assert!(
        after_border(first_row)
            .iter()
            .collect::<String>()
            .starts_with(&op)
    );
    // The rule as a note, its description as help.
    let check = RULES
        .iter()
        .find(|r| r.name == "gather_valid_options")
        .unwrap()
        .check;
    assert!(err.contains("= note: rule gather_valid_options ("), "{err}");
    assert!(err.contains(&format!("= help: {check}")), "{err}");
    // Piped standard error: no colour.
    assert!(!err.contains('\x1b'));
    assert!(o.stdout.is_empty());
}

#[test]
fn a_field_wider_than_a_byte_is_underlined_whole() {
    // Dropout (bundle 0) reads a bf16 source but is told fp16 for its output: the rule points
    // at the output dtype byte; a wide field is underlined over all its bytes.
    let bytes = stream();
    let text =
        String::from_utf8(mc(&["--disassemble", "--target", "sunda"], &bytes).stdout).unwrap();
    let bad = text.replacen("out_dtype=bf16", "out_dtype=fp16", 1);
    let o = mc(&["--assemble", "--target", "sunda"], bad.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines[0].starts_with(
            "<stdin>: bundle 0 (byte offset 0x21): rule d3_dropout_same_src_dst_type: "
        )
    );
    // Assembled text: the block names the source line of the bundle.
    assert!(lines[1].contains("<stdin>:1: bundle 0 (dropout"), "{err}");
    let (_, carets) = row_and_next(&err, "0x0020");
    let marks = after_border(carets);
    assert_eq!(
        marks.iter().position(|&x| x == '^'),
        Some(byte_col(1)),
        "{err}"
    );
    assert!(carets.contains('='), "{err}");
}

#[test]
fn a_truncated_input_names_its_offset_and_underlines_the_tail() {
    let mut bytes = stream();
    bytes.truncate(64 * 2 + 5);
    for mode in ["--disassemble", "--lift"] {
        let o = mc(&[mode, "--target", "sunda"], &bytes);
        assert_eq!(o.status.code(), Some(1));
        let err = stderr(&o);
        assert_eq!(
            err.lines().next().unwrap(),
            "<stdin>: truncated input: 5 trailing bytes at byte offset 0x80 (bundles are 64 bytes)"
        );
        let (row, carets) = row_and_next(&err, "0x0080");
        let tail: String = bytes[128..]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(after_border(row).iter().collect::<String>(), tail);
        assert_eq!(
            after_border(carets).iter().collect::<String>(),
            "^^^^^^^^^^^^^^ 5 of 64 bytes"
        );
        assert!(err.contains("59 bytes short of the next one"), "{err}");
    }
}

#[test]
fn an_unknown_opcode_underlines_byte_0() {
    let mut bytes = stream();
    bytes[64] = 0xEE;
    let o = mc(&["--disassemble", "--target", "sunda"], &bytes);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(
        err.lines().next().unwrap(),
        "<stdin>: bundle 1 (byte offset 0x40): rule known_opcode: unknown opcode 0xee"
    );
    assert!(
        err.contains("bundle 1 (unknown opcode 0xee), input bytes 0x40..0x80"),
        "{err}"
    );
    let (row, carets) = row_and_next(&err, "0x0040");
    assert!(
        after_border(row)
            .iter()
            .collect::<String>()
            .starts_with("ee 10 ")
    );
    assert_eq!(
        after_border(carets).iter().collect::<String>(),
        "^^ opcode = 0xee (no format)"
    );
    assert!(err.contains("= note: rule known_opcode"));
    assert!(err.contains("= help: byte 0 names a known format"));
}

#[test]
fn an_assembler_error_shows_the_line_with_a_caret_at_the_column() {
    let o = mc(&["--assemble"], b"# header\n  dropout bogus\n");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines[0],
        "<stdin>:2:11: expected `field=value`, found `bogus`"
    );
    let src = lines
        .iter()
        .position(|l| l.ends_with("│   dropout bogus"))
        .unwrap_or_else(|| panic!("{err}"));
    let caret = after_border(lines[src + 1]);
    // Column 11 (1-based) of the line is `b`; the caret runs under `bogus`.
    assert_eq!(caret.iter().position(|&c| c == '^'), Some(10), "{err}");
    assert_eq!(caret.iter().filter(|&&c| c == '^').count(), 5, "{err}");
    // An unknown mnemonic says where the mnemonics are listed.
    let o = mc(&[], b"frob x=1\n");
    let err = stderr(&o);
    assert_eq!(
        err.lines().next().unwrap(),
        "<stdin>:1:1: unknown mnemonic `frob`"
    );
    assert!(err.contains("help: `sundial-mc --list-opcodes` lists every mnemonic"));
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let mut bytes = stream();
    bytes[64 + 0x24] = 7;
    let first = "<stdin>: bundle 1 (byte offset 0x64): rule gather_valid_options: gather_options 7 not in {0, 1}";
    let run = |extra: &[&str], env: &[(&str, &str)]| {
        let mut args = vec!["--disassemble", "--target", "sunda"];
        args.extend_from_slice(extra);
        let o = mc_env(&args, &bytes, env);
        assert_eq!(o.status.code(), Some(1));
        stderr(&o)
    };
    for (extra, env) in [
        (&["--color=always"][..], &[][..]),
        (&["-color=always"][..], &[][..]),
        (&["--color", "always"][..], &[("NO_COLOR", "1")][..]),
    ] {
        let err = run(extra, env);
        assert!(err.contains("\x1b["), "{extra:?}: {err}");
        // The first line stays plain.
        assert_eq!(err.lines().next().unwrap(), first);
    }
    for extra in [&["--color=never"][..], &["--color=auto"][..], &[][..]] {
        let err = run(extra, &[]);
        assert!(!err.contains('\x1b'), "{extra:?}: {err}");
        assert_eq!(err.lines().next().unwrap(), first);
    }
    // Assembler errors are coloured by the same switch.
    let o = mc(&["--color=always"], b"dropout bogus\n");
    assert!(stderr(&o).contains("\x1b["));
    let o = mc(&["--color=never"], b"dropout bogus\n");
    assert!(!stderr(&o).contains('\x1b'));
}

fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    stderr(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn json_is_one_object_per_diagnostic_per_line() {
    let mut bytes = stream();
    bytes[64 + 0x24] = 7;
    bytes[64 + 2] = 1;
    let o = mc(
        &[
            "--disassemble",
            "--target",
            "sunda",
            "--diagnostics-format=json",
        ],
        &bytes,
    );
    assert_eq!(o.status.code(), Some(1));
    let v = json_lines(&o);
    assert!(v.len() >= 2, "{}", stderr(&o));
    let header = v
        .iter()
        .find(|d| d["rule"] == "header_debug_zero")
        .expect("header_debug_zero");
    assert_eq!(header["offset"], 0x42);
    assert_eq!(header["field"], "debug_cmd");
    let g = v
        .iter()
        .find(|d| d["rule"] == "gather_valid_options")
        .expect("gather_valid_options");
    assert_eq!(g["severity"], "error");
    assert_eq!(g["file"], "<stdin>");
    assert_eq!(g["bundle"], 1);
    assert_eq!(g["offset"], 0x64);
    assert_eq!(g["range"], serde_json::json!([0x64, 0x66]));
    assert_eq!(g["field"], "gather_options");
    assert_eq!(g["value"], "7");
    assert_eq!(g["message"], "gather_options 7 not in {0, 1}");
    assert!(g["help"].is_string());
    assert!(g["line"].is_null() && g["col"].is_null());
    // Text input: line and column; the single-dash spelling; colour never leaks into JSON.
    let o = mc(
        &["-diagnostics-format=json", "--color=always"],
        b"# header\n  dropout bogus\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let v = json_lines(&o);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["line"], 2);
    assert_eq!(v[0]["col"], 11);
    assert_eq!(v[0]["message"], "expected `field=value`, found `bogus`");
    assert!(v[0]["bundle"].is_null() && v[0]["rule"].is_null());
    // A truncated input: its offset.
    let o = mc(
        &["--disassemble", "--diagnostics-format", "json"],
        &bytes[..64 + 3],
    );
    let v = json_lines(&o);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["offset"], 64);
    assert_eq!(v[0]["range"], serde_json::json!([64, 67]));
}

#[test]
fn bad_values_of_the_new_flags_are_usage_errors() {
    for args in [
        &["--color=sometimes"][..],
        &["-color=blue"][..],
        &["--diagnostics-format=xml"][..],
        &["-diagnostics-format", "yaml"][..],
        &["--color"][..],
    ] {
        let o = mc(args, b"");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
        assert!(stderr(&o).contains("error:"), "{args:?}");
    }
    // Good values on valid input change nothing.
    let bytes = stream();
    let plain = mc(&["--disassemble", "--target", "sunda"], &bytes);
    let flagged = mc(
        &[
            "-disassemble",
            "-target=sunda",
            "-color=never",
            "-diagnostics-format=json",
        ],
        &bytes,
    );
    assert!(plain.status.success() && flagged.status.success());
    assert_eq!(plain.stdout, flagged.stdout);
    assert!(flagged.stderr.is_empty());
}
