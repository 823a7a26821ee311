//! IRDL text generated from the op tables.
//!
//! MLIR loads the NISA and BIR dialects at run time from IRDL. The IRDL is not written by
//! hand: it is derived from the [`crate::nisa::OPS`] and [`crate::bir::OPS`] rows, so the
//! structure MLIR checks (op names, operand groups and their base types, results, required
//! attributes and their kinds) cannot drift from what the Rust verifier checks. The generated
//! text is also committed as `dialects/irdl/{nisa,bir}.irdl.mlir` for readers and for
//! `mlir-opt --irdl-file=...`; a test keeps the files equal to the generator
//! (`SUNDIAL_BLESS=1 cargo test --test mlir irdl` rewrites them).
//!
//! IRDL cannot say "optional attribute", so only `Required` attributes appear here; the
//! others (and every value constraint) are checked by [`crate::verify`]. A constraint
//! variable used twice forces equal types, so every operand gets its own variable.

use crate::spec::{Arity, AttrKind, OpSpec, OperandKind, Presence, ResultKind};
use std::fmt::Write;

fn emit_op(out: &mut String, dialect: &str, op: &OpSpec) {
    let _ = writeln!(out, "  irdl.operation @{} {{", op.name);
    let mut names = Vec::new();
    for (i, operand) in op.operands.iter().enumerate() {
        let var = format!("%o{i}");
        match operand.kind {
            OperandKind::Tile { .. } => {
                let _ = writeln!(out, "    {var} = irdl.base \"!builtin.memref\"");
            }
            OperandKind::Reg => {
                let _ = writeln!(out, "    {var} = irdl.base @{dialect}::@reg");
            }
            OperandKind::TileOrReg { .. } => {
                let _ = writeln!(out, "    {var}m = irdl.base \"!builtin.memref\"");
                let _ = writeln!(out, "    {var}r = irdl.base @{dialect}::@reg");
                let _ = writeln!(out, "    {var} = irdl.any_of({var}m, {var}r)");
            }
            OperandKind::Index => {
                let _ = writeln!(out, "    {var} = irdl.is index");
            }
        }
        let arity = match operand.arity {
            Arity::One => "",
            Arity::Optional => "optional ",
            Arity::Variadic => "variadic ",
        };
        names.push(format!("{}: {arity}{var}", operand.name));
    }
    if !names.is_empty() {
        let _ = writeln!(out, "    irdl.operands({})", names.join(", "));
    }
    let mut results = Vec::new();
    for (i, result) in op.results.iter().enumerate() {
        let var = format!("%r{i}");
        match result.kind {
            ResultKind::Tile => {
                let _ = writeln!(out, "    {var} = irdl.base \"!builtin.memref\"");
            }
            ResultKind::Reg => {
                let _ = writeln!(out, "    {var} = irdl.base @{dialect}::@reg");
            }
            ResultKind::Index => {
                let _ = writeln!(out, "    {var} = irdl.is index");
            }
        }
        results.push(format!("{}: {var}", result.name));
    }
    if !results.is_empty() {
        let _ = writeln!(out, "    irdl.results({})", results.join(", "));
    }
    let mut attrs = Vec::new();
    for (i, attr) in op.attrs.iter().enumerate() {
        if attr.presence != Presence::Required {
            continue;
        }
        let var = format!("%a{i}");
        match attr.kind {
            AttrKind::Number => {
                let _ = writeln!(out, "    {var}i = irdl.base \"#builtin.integer\"");
                let _ = writeln!(out, "    {var}f = irdl.base \"#builtin.float\"");
                let _ = writeln!(out, "    {var} = irdl.any_of({var}i, {var}f)");
            }
            kind => {
                let _ = writeln!(out, "    {var} = irdl.base \"{}\"", kind.irdl_base());
            }
        }
        attrs.push(format!("\"{}\" = {var}", attr.name));
    }
    if !attrs.is_empty() {
        let _ = writeln!(out, "    irdl.attributes {{{}}}", attrs.join(", "));
    }
    let _ = writeln!(out, "  }}");
}

/// The IRDL module defining dialect `dialect` with `ops`.
fn module<'a>(dialect: &str, ops: impl Iterator<Item = &'a OpSpec>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// The {dialect} dialect in IRDL. GENERATED from the op table in \
         dialects/src/{dialect}.rs: do not edit by hand;\n// run `SUNDIAL_BLESS=1 cargo test \
         --test mlir irdl` after changing the table."
    );
    let _ = writeln!(out, "irdl.dialect @{dialect} {{");
    let _ = writeln!(out, "  irdl.type @reg {{\n    irdl.parameters()\n  }}");
    for op in ops {
        emit_op(&mut out, dialect, op);
    }
    let _ = writeln!(out, "}}");
    out
}

/// The IRDL module defining the `nisa` dialect.
pub fn nisa() -> String {
    module("nisa", crate::nisa::OPS.iter())
}

/// The IRDL module defining the `bir` dialect.
pub fn bir() -> String {
    module("bir", crate::bir::OPS.iter().map(|b| &b.spec))
}
