//! The op reference (`docs/ops.md`) generated from the op tables, so that it cannot go stale.
//! A test compares the committed file with [`markdown`]; `SUNDIAL_BLESS=1 cargo test --test
//! mlir docs` rewrites it.

use crate::spec::{Arity, AttrSpec, OpSpec, OperandKind, Presence, ResultKind};
use std::fmt::Write;

fn operand_text(op: &OpSpec) -> String {
    if op.operands.is_empty() {
        return "none".into();
    }
    op.operands
        .iter()
        .map(|o| {
            let arity = match o.arity {
                Arity::One => "",
                Arity::Optional => "optional ",
                Arity::Variadic => "variadic ",
            };
            let kind = match o.kind {
                OperandKind::Tile {
                    spaces,
                    dtypes,
                    write,
                } => format!(
                    "{} tile in {} ({})",
                    if write { "written" } else { "read" },
                    spaces.describe(),
                    if dtypes == crate::dtype::DtypeSet::ANY {
                        "any dtype".to_string()
                    } else {
                        dtypes.describe()
                    }
                ),
                OperandKind::Reg => "register".into(),
                OperandKind::TileOrReg { spaces, .. } => {
                    format!("tile in {} or register", spaces.describe())
                }
                OperandKind::Index => "index".into(),
            };
            format!("`{}`: {arity}{kind}", o.name)
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn attr_text(a: &AttrSpec) -> String {
    let presence = match a.presence {
        Presence::Required => "required".to_string(),
        Presence::Default(v) => format!("default `{v}`"),
        Presence::Optional => "optional".to_string(),
    };
    format!("`{}` ({presence}): {}", a.name, a.kind.describe())
}

fn op_section(out: &mut String, dialect: &str, op: &OpSpec, extra: &str) {
    let _ = writeln!(out, "### `{dialect}.{}`\n", op.name);
    let _ = writeln!(out, "{}\n", op.summary);
    let mut facts = Vec::new();
    if let Some(n) = op.emit {
        facts.push(format!("emit row #{n}"));
    }
    facts.push(format!("serves `{}`", op.api));
    facts.push(format!("provenance: {}", op.provenance.0));
    if let Some(t) = op.min_target {
        facts.push(format!("needs {t} or newer"));
    }
    if !extra.is_empty() {
        facts.push(extra.to_string());
    }
    let _ = writeln!(out, "- {}", facts.join("; "));
    let _ = writeln!(out, "- operands: {}", operand_text(op));
    if !op.results.is_empty() {
        let r = op
            .results
            .iter()
            .map(|r| {
                format!(
                    "`{}`: {}",
                    r.name,
                    match r.kind {
                        ResultKind::Reg => "register",
                        ResultKind::Index => "index",
                        ResultKind::Tile => "tile",
                    }
                )
            })
            .collect::<Vec<_>>()
            .join("; ");
        let _ = writeln!(out, "- results: {r}");
    }
    if !op.engines.is_empty() {
        let e = op
            .engines
            .iter()
            .map(|e| e.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let resolved = crate::nisa::RESOLVED_DEFAULT_ENGINES
            .iter()
            .find(|(name, _, _)| *name == op.name && dialect == "nisa")
            .map(|(_, e, p)| {
                format!(
                    "; `sundial-resolve-engine` picks `{e}` when no rule decides ({})",
                    p.0
                )
            })
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "- engines: {e} (default `{}`{resolved})",
            op.default_engine
        );
    }
    if op.needs_segment_sizes() {
        let _ = writeln!(
            out,
            "- generic form needs `operandSegmentSizes` ({} groups)",
            op.operands.len()
        );
    }
    for a in op.attrs {
        let _ = writeln!(out, "- attribute {}", attr_text(a));
    }
    out.push('\n');
}

/// The ISA table's opcodes of a NISA op and where its encoding is pinned (empty for the
/// structural ops, which have no row).
fn isa_facts(name: &str) -> String {
    use sundial_codegen::{Target, isa};
    let Some(r) = isa::row(name) else {
        return String::new();
    };
    let codes: Vec<String> = r.opcodes().iter().map(|o| format!("0x{o:02X}")).collect();
    let pinned: Vec<&str> = Target::ALL
        .into_iter()
        .filter(|&t| r.pinned(t))
        .map(|t| t.name())
        .collect();
    let codes = if codes.is_empty() {
        "none".to_string()
    } else {
        codes.join(", ")
    };
    let pinned = if pinned.is_empty() {
        let why = Target::ALL
            .into_iter()
            .find_map(|t| r.unpinned(t))
            .unwrap_or_default();
        format!("pinned nowhere ({why})")
    } else {
        let missing = r.missing();
        if missing.is_empty() {
            format!("encoding pinned on {}", pinned.join(", "))
        } else {
            // Some cases encode and some do not: say which facts the others miss, so a
            // pinned row does not read as every form of the op encoding.
            format!(
                "encoding pinned on {} for some forms; not pinned: {}",
                pinned.join(", "),
                missing.join("; ")
            )
        }
    };
    format!("ISA opcodes {codes}; {pinned}")
}

/// One table row per ISA row: opcodes and the targets whose encoding is pinned.
fn isa_summary(out: &mut String) {
    use sundial_codegen::{Target, isa};
    out.push_str("## ISA summary\n\nFrom the codegen ISA table (`codegen/src/isa.rs`): every opcode a NISA op can lower to, and on which targets every one of them has a bundle encoder (a field table) in codegen; `partly`: some forms of the op encode there and others miss a fact (the op's section names it).\n\n");
    out.push_str("| op | emit | opcodes | sunda | cayman | mariana |\n|---|---|---|---|---|---|\n");
    for r in isa::ROWS.iter() {
        let codes: Vec<String> = r.opcodes().iter().map(|o| format!("0x{o:02X}")).collect();
        let emit = r
            .emit
            .map(|e| format!("#{e}"))
            .unwrap_or_else(|| "-".into());
        let cols: Vec<&str> = Target::ALL
            .into_iter()
            .map(|t| match (r.pinned(t), r.missing().is_empty()) {
                (true, true) => "pinned",
                (true, false) => "partly",
                _ => "-",
            })
            .collect();
        let _ = writeln!(
            out,
            "| `{}` | {emit} | {} | {} |",
            r.name,
            if codes.is_empty() {
                "none".to_string()
            } else {
                codes.join(" ")
            },
            cols.join(" | ")
        );
    }
    out.push('\n');
}

/// The whole reference as Markdown.
pub fn markdown() -> String {
    let mut out = String::new();
    out.push_str("# NISA and BIR op reference\n\nGENERATED from `dialects/src/nisa.rs` and `dialects/src/bir.rs` (`SUNDIAL_BLESS=1 cargo test --test mlir docs`). Conventions: see `docs/dialects.md`. Every NISA op also accepts `name = \"...\"` (NKI's `name=`), which its diagnostics print; a chain of views (`reshape`, `slice`, `permute`, `broadcast`, `ap` on a view) folds into one access pattern (`dialects/src/fold.rs`).\n\n");
    isa_summary(&mut out);
    let _ = writeln!(out, "## NISA ({} ops)\n", crate::nisa::OPS.len());
    for op in crate::nisa::OPS {
        op_section(&mut out, "nisa", op, &isa_facts(op.name));
    }
    let _ = writeln!(out, "## BIR ({} ops)\n", crate::bir::OPS.len());
    for op in crate::bir::OPS {
        let codes = op.opcodes_text(", ");
        let mut extra = format!("libBIR `{}`; opcodes {codes}", op.bir_class);
        if let Some(n) = op.number {
            let _ = write!(extra, "; BIR op number {n}");
        }
        op_section(&mut out, "bir", &op.spec, &extra);
    }
    out
}
