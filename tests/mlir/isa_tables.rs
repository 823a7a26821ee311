//! The codegen ISA table (`sundial_codegen::isa`) against the dialects' op tables: every NISA
//! op has its row (same emit number, engines, default engine and minimum target) and every
//! BIR op's legal opcode set is the one the ISA table derives.

use sundial_codegen::isa::{self, DefaultEngine, MinTarget};
use sundial_dialects::{bir, enums::Engine as IrEngine, enums::Target as IrTarget, nisa};

fn hw(e: IrEngine) -> Option<sundial_codegen::model::Engine> {
    sundial_codegen::model::Engine::from_name(e.as_str())
}

#[test]
fn every_nisa_op_has_its_isa_row() {
    let mut problems = Vec::new();
    for op in nisa::OPS.iter() {
        // Structural ops are not instructions: allocation, access patterns and the views, and
        // the index values of loops and launch grids (compile-time per program, or a register
        // read).
        let view = sundial_dialects::verify::view_rules::VIEW_OPS.contains(&op.name);
        if view
            || matches!(
                op.name,
                "alloc" | "ap" | "dynamic_ap" | "register_index" | "program_id" | "num_programs"
            )
        {
            assert!(isa::row(op.name).is_none());
            continue;
        }
        let Some(r) = isa::row(op.name) else {
            problems.push(format!("{}: no ISA row", op.name));
            continue;
        };
        if r.emit != op.emit {
            problems.push(format!("{}: emit {:?} vs {:?}", op.name, op.emit, r.emit));
        }
        // The hwdge trigger engines (Sync, Scalar) a DMA may name are the dialect's (NKI's
        // engine=); the ISA rows list the engines selection builds, which has no Sync or
        // Scalar DMA queue: they must stay out of the rows, so that selection refuses them.
        let dma_trigger = |e: &IrEngine| {
            nisa::HWDGE_TRIGGERS.contains(e) && op.attrs.iter().any(|a| a.name == "dge_mode")
        };
        let engines: Vec<_> = op
            .engines
            .iter()
            .filter(|e| !dma_trigger(e))
            .filter_map(|&e| hw(e))
            .collect();
        for e in op.engines.iter().filter(|e| dma_trigger(e)) {
            if hw(*e).is_some_and(|h| r.engines.contains(&h)) {
                problems.push(format!(
                    "{}: the ISA row lists the hwdge trigger engine {e:?}, which selection cannot build",
                    op.name
                ));
            }
        }
        let mut a = engines.clone();
        a.sort_by_key(|e| e.name());
        let mut b = r.engines.to_vec();
        b.sort_by_key(|e| e.name());
        if a != b {
            problems.push(format!("{}: engines {a:?} vs ISA {b:?}", op.name));
        }
        // One Target type: the dialects re-export codegen's.
        let isa_min = match r.min {
            MinTarget::Any => Some(None),
            MinTarget::From(t) => Some(Some(t)),
            MinTarget::Unmodelled(_) => None,
        };
        if let Some(m) = isa_min
            && m != op.min_target
        {
            problems.push(format!(
                "{}: min target {:?} vs ISA {m:?}",
                op.name, op.min_target
            ));
        }
        if let DefaultEngine::Emit(e) = r.default
            && op.default_engine != IrEngine::Unknown
            && hw(op.default_engine) != Some(e)
        {
            problems.push(format!(
                "{}: default engine {} vs ISA {}",
                op.name,
                op.default_engine,
                e.name()
            ));
        }
    }
    for r in isa::ROWS.iter() {
        if !nisa::OPS.iter().any(|o| o.name == r.name) {
            problems.push(format!("ISA row {} has no NISA op", r.name));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The vocabularies are codegen's: `Target` and `AluOp` are the same types; the NKI engine
/// attribute (which adds `unknown`) spells every hardware engine as codegen names it.
#[test]
fn the_dialects_share_codegens_vocabularies() {
    let t: sundial_codegen::Target = IrTarget::Mariana;
    assert_eq!(t.nc_version(), 4);
    let a: sundial_codegen::enums::BirAluOp = sundial_dialects::enums::AluOp::Mult;
    assert_eq!(a.name(), "mult");
    assert_eq!(
        sundial_dialects::enums::ALU_VOCAB.values,
        &sundial_codegen::enums::BirAluOp::NAMES[..]
    );
    for &e in IrEngine::ALL {
        match e {
            IrEngine::Unknown => assert_eq!(hw(e), None),
            _ => assert_eq!(hw(e).map(|h| h.name()), Some(e.as_str()), "{e}"),
        }
    }
    for h in [
        sundial_codegen::model::Engine::Vector,
        sundial_codegen::model::Engine::GpSimd,
        sundial_codegen::model::Engine::Scalar,
        sundial_codegen::model::Engine::Tensor,
        sundial_codegen::model::Engine::Dma,
        sundial_codegen::model::Engine::Sync,
    ] {
        assert_eq!(IrEngine::parse(h.name()).and_then(hw), Some(h));
    }
}

/// Every BIR op's legal opcodes come from the ISA table (the op table states none of its
/// own), and no BIR op is left without any.
#[test]
fn every_bir_op_has_opcodes_from_the_isa_table() {
    let empty: Vec<&str> = bir::OPS
        .iter()
        .filter(|op| op.opcodes().iter().next().is_none())
        .map(|op| op.spec.name)
        .collect();
    assert!(empty.is_empty(), "BIR ops without opcodes: {empty:?}");
    let gather = bir::OPS.iter().find(|o| o.spec.name == "gather").unwrap();
    assert_eq!(gather.opcodes_text(", "), "0x67, 0x68");
}
