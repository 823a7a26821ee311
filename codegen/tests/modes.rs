//! The three CodeGenModes over one instruction stream: GENERATE emits the bytes, RUN_ISA_CHECKS
//! validates byte-identical bundles and emits nothing, COLLECT reports every opcode including
//! both halves of each micro-pair.

mod common;

use common::*;
use sundial_codegen::arch::MARIANA;
use sundial_codegen::dtype::BirDtype::*;
use sundial_codegen::model::*;
use sundial_codegen::{CodeGen, CodeGenMode, generate_vec};

fn stream(per_idx: u8) -> Vec<Instruction> {
    vec![
        Instruction::new(Op::StreamShuffle(StreamShuffle {
            src: sb(0, 0, 8, 32, Bfloat16),
            dst: sb(8, 0, 8, 32, Bfloat16),
            mask: identity_mask(),
        })),
        Instruction::new(Op::Gather(Gather {
            data: sb(0, 0, 16, 64, Float32),
            index: sb(0, 0x4000, 16, 600, Uint32),
            dst: sb(0, 0x8000, 16, 600, Float32),
        })),
        Instruction::new(Op::IndirectCopy(IndirectCopy {
            src: ind(0, 0x100, 0, 0x2000, 16, 64, Bfloat16),
            dst: sb(16, 0, 16, 64, Bfloat16),
            num_elem_per_idx: per_idx,
            src_buffer_size: 0,
        })),
    ]
}

#[test]
fn generate_emits_the_concatenated_bundles() {
    let mut g = CodeGen::new(&MARIANA, CodeGenMode::Generate);
    let insts = stream(1);
    for i in &insts {
        g.visit(i).unwrap();
    }
    let want: Vec<_> = insts
        .iter()
        .flat_map(|i| generate_vec(i, &MARIANA).unwrap())
        .collect();
    assert_eq!(g.bundles, want);
    assert_eq!(g.bundles.len(), 2 + 4 + 1);
    assert!(g.diagnostics.is_empty() && g.opcodes.iter().next().is_none());
}

#[test]
fn run_isa_checks_validates_and_emits_nothing() {
    let mut g = CodeGen::new(&MARIANA, CodeGenMode::RunIsaChecks);
    for i in &stream(1) {
        g.visit(i).unwrap();
    }
    assert!(g.bundles.is_empty());
    assert!(g.diagnostics.is_empty());
    // An encodable but invalid field (num_elem_per_idx 3) is caught, numbered in the stream.
    let mut g = CodeGen::new(&MARIANA, CodeGenMode::RunIsaChecks);
    for i in &stream(3) {
        g.visit(i).unwrap();
    }
    assert_eq!(g.diagnostics.len(), 1);
    let d = &g.diagnostics[0];
    assert_eq!(
        (d.rule, d.bundle, d.offset),
        ("s4d4_ic_num_elem_per_idx", 6, 0x23)
    );
    assert!(g.bundles.is_empty());
}

#[test]
fn collect_reports_micro_pairs() {
    let mut g = CodeGen::new(&MARIANA, CodeGenMode::Collect);
    for i in &stream(1) {
        g.visit(i).unwrap();
    }
    assert_eq!(
        g.opcodes.iter().collect::<Vec<_>>(),
        vec![0x67, 0x68, 0x69, 0x6a, 0xe7]
    );
    assert!(g.bundles.is_empty());
}
