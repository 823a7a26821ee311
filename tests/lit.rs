//! Runs the lit + FileCheck suite in `lit/` against the tools cargo just built, so that its
//! result shows in `cargo test`, and checks that the suite keeps up with the dialects: every
//! verifier rule has an `expected-error` test and every NISA / BIR op a valid instance.
//! This test binary does not link MLIR: it starts `lit` and reads source files with std.

use std::{path::Path, process::Command};

#[test]
fn lit_suite() {
    let opt = Path::new(env!("CARGO_BIN_EXE_sundial-opt"));
    let bin_dir = opt.parent().expect("the tool has a directory");
    let tools = std::env::var("LLVM_TOOLS_DIR").unwrap_or_else(|_| "/usr/lib/llvm-22/bin".into());
    let lit = Path::new(&tools).join("lit");
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("lit");
    let mut cmd = Command::new(&lit);
    cmd.arg("-sv")
        .arg(&suite)
        .env("SUNDIAL_BIN_DIR", bin_dir)
        .env("LLVM_TOOLS_DIR", &tools);
    // Respect a caller's parallelism (e.g. LIT_OPTS=-j1); lit reads LIT_OPTS itself.
    let status = cmd.status().unwrap_or_else(|e| {
        panic!(
            "cannot run {}: {e} (run scripts/setup.sh to install LLVM 22's lit)",
            lit.display()
        )
    });
    assert!(status.success(), "lit suite failed (see the output above)");
}

/// Every `.mlir` file under `dir`, recursively (lit's `Output` directories skipped).
fn mlir_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "Output") {
                mlir_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "mlir") {
            out.push(path);
        }
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The rule names of the verifier's messages: every `(rule: NAME)` in a non-comment line of
/// `dialects/src/verify.rs` and `dialects/src/verify/*.rs`.
fn verifier_rules(root: &Path) -> Vec<String> {
    let dir = root.join("dialects/src/verify");
    let mut files = vec![root.join("dialects/src/verify.rs")];
    for entry in
        std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
    {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    let mut rules = Vec::new();
    for file in files {
        for line in read(&file).lines() {
            if line.trim_start().starts_with("//") {
                continue; // doc comments describe the format, e.g. `(rule: ...)`
            }
            let mut rest = line;
            while let Some(at) = rest.find("(rule: ") {
                rest = &rest[at + "(rule: ".len()..];
                let end = rest.find(')').unwrap_or_else(|| {
                    panic!("unterminated rule name in {}: {line}", file.display())
                });
                let name = rest[..end].to_string();
                if !rules.contains(&name) {
                    rules.push(name);
                }
                rest = &rest[end..];
            }
        }
    }
    rules
}

/// The op mnemonics of a table: the string literal opening each `<macro>("` row.
fn table_ops(path: &Path, row_start: &str) -> Vec<String> {
    let text = read(path);
    text.match_indices(row_start)
        .filter_map(|(at, _)| {
            let rest = &text[at + row_start.len()..];
            rest.find('"').map(|end| rest[..end].to_string())
        })
        .collect()
}

/// Fails when a verifier rule has no `expected-error` test in `lit/`, or when a NISA or BIR op
/// has no valid instance in a lit file (one whose name does not contain `invalid`).
#[test]
fn every_rule_and_op_has_a_lit_test() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    mlir_files(&root.join("lit"), &mut files);
    let mut expected_errors = String::new();
    let mut valid_text = String::new();
    for file in &files {
        let text = read(file);
        for line in text.lines().filter(|l| l.contains("expected-error")) {
            expected_errors.push_str(line);
            expected_errors.push('\n');
        }
        if !file
            .file_name()
            .is_some_and(|n| n.to_string_lossy().contains("invalid"))
        {
            // IR lines only: an op named in a comment or a CHECK line is no instance of it.
            for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
                valid_text.push_str(line);
                valid_text.push('\n');
            }
        }
    }

    let rules = verifier_rules(root);
    assert!(
        !rules.is_empty(),
        "no `(rule: ...)` found in dialects/src/verify*: has the message format changed?"
    );
    let untested: Vec<&String> = rules
        .iter()
        .filter(|r| !expected_errors.contains(&format!("(rule: {r})")))
        .collect();

    let nisa = table_ops(&root.join("dialects/src/nisa.rs"), "op!(\"");
    let bir = table_ops(&root.join("dialects/src/bir.rs"), "bir!(\"");
    assert!(
        !nisa.is_empty() && !bir.is_empty(),
        "no op rows found in dialects/src/{{nisa,bir}}.rs: has the table format changed?"
    );
    let missing_ops: Vec<String> = nisa
        .iter()
        .map(|n| format!("nisa.{n}"))
        .chain(bir.iter().map(|n| format!("bir.{n}")))
        .filter(|op| !valid_text.contains(&format!("\"{op}\"")))
        .collect();

    assert!(
        untested.is_empty() && missing_ops.is_empty(),
        "verifier rules without an `expected-error` lit test: {untested:?}\n\
         ops without a valid instance in a lit file (ops*.mlir): {missing_ops:?}"
    );
}

/// Every emit row of the ISA table (`sundial_codegen::isa::ROWS`, the 62 `emit_*` ops) is
/// either selected by a lit test of `lit/isel/` (a valid instance in a file whose name does
/// not contain `invalid` or `unselectable`) or refused in one with an `expected-error` that
/// names the op and says why (`cannot be selected`, `cannot be built`, `does not build`, or
/// the verifier's target rule). The messages themselves are held by lit.
#[test]
fn every_emit_row_is_selected_or_refused() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    mlir_files(&root.join("lit/isel"), &mut files);
    assert!(!files.is_empty(), "no lit/isel tests");
    let mut selected = String::new();
    let mut refusals = String::new();
    for file in &files {
        let text = read(file);
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
        let name = name.unwrap_or_default();
        for line in text.lines() {
            if line.contains("expected-error") {
                refusals.push_str(line);
                refusals.push('\n');
            } else if !name.contains("invalid")
                && !name.contains("unselectable")
                && !line.trim_start().starts_with("//")
            {
                selected.push_str(line);
                selected.push('\n');
            }
        }
    }
    let reasons = [
        "cannot be selected on",
        "but cannot be built:",
        "but sundial-isel does not build",
        "(rule: target)",
    ];
    let mut neither = Vec::new();
    let rows: Vec<&str> = sundial_codegen::isa::ROWS
        .iter()
        .filter(|r| r.emit.is_some())
        .map(|r| r.name)
        .collect();
    assert_eq!(rows.len(), 62, "the ISA table has the 62 emit rows");
    for op in rows {
        let instance = format!("\"nisa.{op}\"");
        let refused = refusals.lines().any(|l| {
            l.contains(&format!("'nisa.{op}' op")) && reasons.iter().any(|r| l.contains(r))
        });
        if !selected.contains(&instance) && !refused {
            neither.push(op);
        }
    }
    assert!(
        neither.is_empty(),
        "emit rows neither selected by a lit/isel test nor refused there with a reason: {neither:?}"
    );
}

/// The flags of Sundial's own passes and pipelines, as `sundial-opt --list-passes` prints them
/// (the registry is the source of truth; this binary does not link it).
fn registered_passes() -> Vec<String> {
    let opt = Path::new(env!("CARGO_BIN_EXE_sundial-opt"));
    let out = Command::new(opt)
        .arg("--list-passes")
        .output()
        .expect("sundial-opt --list-passes runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let names: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with("  sundial-"))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    assert!(
        names.iter().any(|n| n == "sundial-verify"),
        "--list-passes lists no Sundial pass: has its format changed?\n{text}"
    );
    names
}

/// Every registered pass (and named pipeline) has its lit tests, named after its flag:
/// `lit/passes/<flag>.mlir` (what it does) and `lit/passes/<flag>-invalid.mlir` (every refusal;
/// the back end's passes keep them under `lit/allocate/` and `lit/isel/`),
/// and every refusal a pass can make (`(rule: ...)` in `passes/src`) has an `expected-error`
/// there.
#[test]
fn every_pass_has_its_lit_files_and_every_refusal_a_test() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("lit/passes");
    // The middle end's tests live in lit/passes; the back end's passes (sundial-allocate,
    // sundial-isel) keep theirs beside the rest of their stage's tests (lit/allocate, lit/isel).
    let mut all_files = Vec::new();
    mlir_files(&root.join("lit"), &mut all_files);
    let mut missing = Vec::new();
    for pass in registered_passes() {
        for suffix in ["", "-invalid"] {
            let name = format!("{pass}{suffix}.mlir");
            if !all_files
                .iter()
                .any(|f| f.file_name().is_some_and(|n| n == name.as_str()))
            {
                missing.push(dir.join(&name).display().to_string());
            }
        }
    }
    let mut expected = String::new();
    let mut files = Vec::new();
    mlir_files(&dir, &mut files);
    for file in files
        .iter()
        .filter(|f| f.to_string_lossy().ends_with("-invalid.mlir"))
    {
        for line in read(file).lines().filter(|l| l.contains("expected-error")) {
            expected.push_str(line);
            expected.push('\n');
        }
    }
    let mut untested = Vec::new();
    let src = root.join("passes/src");
    for entry in std::fs::read_dir(&src).unwrap_or_else(|e| panic!("{}: {e}", src.display())) {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        for line in read(&path).lines() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            let mut rest = line;
            while let Some(at) = rest.find("(rule: ") {
                rest = &rest[at + "(rule: ".len()..];
                let end = rest.find(')').unwrap_or(rest.len());
                let rule = format!("(rule: {})", &rest[..end]);
                if !expected.contains(&rule) && !untested.contains(&rule) {
                    untested.push(rule);
                }
                rest = &rest[end..];
            }
        }
    }
    assert!(
        missing.is_empty() && untested.is_empty(),
        "passes without their lit files: {missing:?}\n\
         pass refusals without an `expected-error` in lit/passes/*-invalid.mlir: {untested:?}"
    );
}
