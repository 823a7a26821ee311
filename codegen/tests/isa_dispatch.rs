//! The ISA table against the encoders: for every row whose encoding is pinned on a target,
//! `select`'s opcode sequence (and forced ALU byte) for a representative query equals what
//! GENERATE writes and COLLECT reports for the matching instruction; where a row is not pinned
//! on a target, the encoder refuses the instruction too. Every pinned (row, target) pair must
//! have a probe here or a stated reason why no instruction matches it, so a row that becomes
//! pinned fails this test until it is probed.
//!
//! The last test records the cases where `select` and the encoders disagree today (each
//! encoder keeps its bytes; see the CONFLICT comments in `ops/compute3d.rs`): resolving one
//! changes that assertion.

mod common;
#[path = "compute4d/cases.rs"]
mod compute4d_cases;

use common::compute3d::{pred, ts, ts_reduce, tt, tt_gpsimd};
use common::pe_dma::{d2d, dind, mm, mmx, qmx};
// SB2SB collective.
use common::more::{gxp, sb2sb};
use common::*;
use compute4d_cases as c4;
use sundial_codegen::dtype::BirDtype::{self, *};
use sundial_codegen::enums::{BirAccumulation, BirAluOp};
use sundial_codegen::formats::compute3d::tt as tt_fields;
use sundial_codegen::isa::{self, ROWS};
use sundial_codegen::model::*;
use sundial_codegen::{OpcodeSet, SelectQuery, Target, collect, generate_vec, select};

/// Pinned rows no instruction of the model matches, and why.
const NO_INSTRUCTION: &[(&str, &str)] = &[(
    "dve_read_accumulator",
    "a lone 0x9b: the model emits it only as the companion of 0x9a and 0xbc, which the \
     tensor_scalar_cache_reduce and range_select probes cover",
)];

/// One row, the query `select` gets and the instruction the encoder gets.
struct Probe {
    row: &'static str,
    query: SelectQuery,
    inst: Instruction,
}

fn probe(row: &'static str, query: SelectQuery, inst: Instruction) -> Probe {
    Probe { row, query, inst }
}

/// The query: the instruction's engine and the given dtypes (dst first).
fn qe(t: Target, inst: &Instruction, dst: BirDtype, src: &[BirDtype]) -> SelectQuery {
    SelectQuery::new(t)
        .on_engine(inst.engine)
        .with_dtypes(dst, src)
}

fn on(mut inst: Instruction, e: Engine) -> Instruction {
    inst.engine = e;
    inst
}

fn dropout() -> Instruction {
    Instruction::new(Op::Dropout(Dropout {
        src: sb(0, 0x100, 64, 128, Bfloat16),
        dst: sb(64, 0x100, 64, 128, Bfloat16),
        threshold_imm_ptr: 5,
        threshold_dtype: Float32,
        rng_mode: 1,
        rng_seed: None,
    }))
}

fn gather(n: u16) -> Instruction {
    Instruction::new(Op::Gather(Gather {
        data: sb(0, 0, 16, 4096, Float32),
        index: sb(0, 0x4000, 16, n, Uint32),
        dst: sb(0, 0x8000, 16, n, Float32),
    }))
}

fn stream_transpose(parts: u32) -> Instruction {
    Instruction::new(Op::StreamTranspose(StreamTranspose {
        src: sb(0, 0, parts, 32, Float32),
        dst: sb(32, 0, parts, 32, Float32),
        mask: if parts >= 32 { identity_mask() } else { vec![] },
    }))
}

/// Every probe on target `t`: one per row at least, one per case where the case is reachable
/// from an instruction.
fn probes(t: Target) -> Vec<Probe> {
    use BirAluOp as A;
    let mut v = Vec::new();
    let simple = |row, inst: Instruction, dst, src: &[BirDtype]| {
        let q = qe(t, &inst, dst, src);
        probe(row, q, inst)
    };
    // 4D-slot compute ops.
    v.push(simple("iota", c4::iota(), Int32, &[]));
    v.push(simple(
        "tensor_scalar_affine_select",
        c4::affine_select(),
        Float32,
        &[Float32],
    ));
    v.push(simple(
        "cross_lane_reduce_arith",
        c4::cross_lane_arith(),
        Float32,
        &[Float32],
    ));
    v.push(simple(
        "cross_lane_reduce_bitvec",
        c4::cross_lane_bitvec(),
        Int32,
        &[Int32],
    ));
    v.push(simple(
        "tensor_reduce_arith",
        c4::reduce_arith(),
        Float32,
        &[Float32],
    ));
    v.push(simple(
        "tensor_reduce_bitvec",
        c4::reduce_bitvec(),
        Int32,
        &[Int32],
    ));
    v.push(simple("reciprocal", c4::reciprocal(), Float32, &[Float32]));
    v.push(simple("memset", c4::memset(), Float32, &[]));
    // tensor_copy: CC opcode = (src != dst) + 0x46.
    v.push(simple("tensor_copy", c4::copy(), Bfloat16, &[Bfloat16]));
    v.push(simple("tensor_copy", c4::cast(), Float32, &[Bfloat16]));
    // Gather: one chunk below 512 index elements, ceil(n / 512) chunks above.
    for n in [16u16, 1000] {
        let q = SelectQuery {
            index_elements: Some(n as u64),
            ..qe(t, &gather(n), Float32, &[Float32, Uint32])
        };
        v.push(probe("gather", q, gather(n)));
    }
    let ic = Instruction::new(Op::IndirectCopy(IndirectCopy {
        src: ind(0, 0x100, 0, 0x2000, 16, 64, Bfloat16),
        dst: sb(16, 0, 16, 64, Bfloat16),
        num_elem_per_idx: 1,
        src_buffer_size: 256,
    }));
    v.push(simple("indirect_copy", ic, Bfloat16, &[Bfloat16]));
    v.push(simple("quantize_mx", qmx(|_| {}), Float8e4, &[Bfloat16]));
    // TensorTensor: the plain form, the sunda bf16 forms, the GpSimd int32 forms, bitvec, pow.
    let tt_q = |inst: &Instruction, op, d| qe(t, inst, d, &[d, d]).with_alu(op);
    for (op, d) in [
        (A::Add, Float32),
        (A::Max, Float32),
        (A::Add, Bfloat16),
        (A::Mult, Bfloat16),
        (A::Subtract, Bfloat16),
        (A::Mult, Int32),
    ] {
        let inst = tt(op, d);
        v.push(probe("tensor_tensor_arith", tt_q(&inst, op, d), inst));
    }
    for (op, d) in [
        (A::Add, Int32),
        (A::Subtract, Int32),
        (A::Mult, Int32),
        (A::Max, Int32),
        (A::Add, Float32),
    ] {
        let inst = tt_gpsimd(op, d);
        v.push(probe("tensor_tensor_arith", tt_q(&inst, op, d), inst));
    }
    // The GpSimd int32 rule picks the engine of an unknown-engine query.
    let int_add = tt_gpsimd(A::Add, Int32);
    let unknown = SelectQuery {
        engine: None,
        ..tt_q(&int_add, A::Add, Int32)
    };
    v.push(probe("tensor_tensor_arith", unknown, int_add));
    let pow = tt_gpsimd(A::Pow, Float32);
    v.push(probe(
        "tensor_tensor_power",
        qe(t, &pow, Float32, &[Float32, Float32]),
        pow,
    ));
    for op in [A::BitwiseAnd, A::LogicalShiftLeft] {
        let inst = tt(op, Int32);
        v.push(probe("tensor_tensor_bitvec", tt_q(&inst, op, Int32), inst));
    }
    // TensorScalar: the plain form on each engine, transpose, accumulate, bitvec, the cache
    // forms and exponential.
    for e in [Engine::Vector, Engine::Scalar, Engine::GpSimd] {
        let inst = on(ts(|_| {}), e);
        let q = qe(t, &inst, Float32, &[Float32]).with_alu(A::Mult);
        v.push(probe("tensor_scalar_arith", q, inst));
    }
    let tr = ts(|x| x.form = TsForm::Transpose);
    let q = SelectQuery {
        transpose: true,
        ..qe(t, &tr, Float32, &[Float32]).with_alu(A::Mult)
    };
    v.push(probe("tensor_scalar_arith", q, tr));
    let q = SelectQuery {
        accumulate: true,
        ..qe(t, &ts_reduce(), Float32, &[Float32]).with_alu(A::Mult)
    };
    v.push(probe("tensor_scalar_arith", q, ts_reduce()));
    v.push(simple(
        "tensor_scalar_cache_reduce",
        ts_reduce(),
        Float32,
        &[Float32],
    ));
    let cumulative = ts(|x| {
        x.form = TsForm::CacheCumulative;
        x.accumulate = BirAccumulation::ZeroAccumulate;
    });
    v.push(simple(
        "tensor_scalar_cache_cumulative",
        cumulative,
        Float32,
        &[Float32],
    ));
    let bitvec = ts(|x| {
        x.src = sb(0, 0, 32, 64, Int32);
        x.dst = sb(0, 0x400, 32, 64, Int32);
        x.op0 = A::BitwiseAnd;
        x.op1 = A::Bypass;
        x.imm0 = ImmOperand::Int(0xff);
        x.imm1 = ImmOperand::Int(0);
    });
    v.push(simple("tensor_scalar_bitvec", bitvec, Int32, &[Int32]));
    let exp = ts(|x| x.form = TsForm::Exponential);
    v.push(simple("exponential", exp, Float32, &[Float32]));
    // CopyPredicated: 0x72, and 0x99 when the data dtype changes (the mask is not an input of
    // the row's dtype rule: inputs = the data).
    v.push(simple(
        "copy_predicated",
        pred(Float32),
        Float32,
        &[Float32],
    ));
    v.push(simple(
        "copy_predicated",
        pred(Bfloat16),
        Bfloat16,
        &[Float32],
    ));
    v.push(simple("range_select", rsel(|_| {}), Float32, &[Float32]));
    v.push(simple("dropout", dropout(), Bfloat16, &[Bfloat16]));
    let shuffle = Instruction::new(Op::StreamShuffle(StreamShuffle {
        src: sb(0, 0, 8, 32, Bfloat16),
        dst: sb(8, 0, 8, 32, Bfloat16),
        mask: identity_mask(),
    }));
    v.push(simple("stream_shuffle", shuffle, Bfloat16, &[Bfloat16]));
    for parts in [16u32, 32] {
        let inst = stream_transpose(parts);
        let q = SelectQuery {
            dst_partitions: Some(parts),
            ..qe(t, &inst, Float32, &[Float32])
        };
        v.push(probe("stream_transpose", q.clone(), inst.clone()));
        // nki.isa.nc_transpose on the Vector engine is the same instruction.
        v.push(probe("nc_transpose", q, inst));
    }
    v.push(simple(
        "activation_read_accumulator",
        common::compute3d::act_read(),
        Float32,
        &[],
    ));
    // ACTIVATE 0x21 (mariana's case is the unpinned 0x25).
    if t != Target::Mariana {
        v.push(simple(
            "activation",
            common::compute3d::act(|_| {}),
            Bfloat16,
            &[Float32],
        ));
    }
    // PE, MX and DMA.
    v.push(simple("matmul", mm(|_| {}), Float32, &[Bfloat16, Bfloat16]));
    v.push(simple(
        "matmul_mx",
        mmx(|_| {}),
        Float32,
        &[Float8e4, Float8e5],
    ));
    v.push(simple("dma_copy", d2d(|_| {}), Bfloat16, &[Bfloat16]));
    v.push(simple(
        "dma_copy_indirect",
        dind(|_| {}),
        Float32,
        &[Float32],
    ));
    let sum = d2d(|d| d.compute_op = DgeComputeOp::Add);
    v.push(simple("dma_compute", sum, Bfloat16, &[Bfloat16]));
    let sum = dind(|d| d.compute_op = DgeComputeOp::Add);
    let q = SelectQuery {
        indirect: true,
        ..qe(t, &sum, Float32, &[Float32])
    };
    v.push(probe("dma_compute", q, sum));
    // SB2SB collective: send_recv with dma_engine = gpsimd_dma is the real 0xbf.
    let s = sb2sb(|_| {});
    let q = SelectQuery {
        gpsimd_dma: true,
        ..qe(t, &s, Bfloat16, &[Bfloat16])
    };
    v.push(probe("send_recv", q, s));
    // DMA gather-transpose: 0xf1 (cayman+).
    v.push(simple(
        "dma_gather_transpose",
        gxp(|_| {}),
        Bfloat16,
        &[Bfloat16],
    ));
    v
}

fn sorted(ops: impl IntoIterator<Item = u8>) -> Vec<u8> {
    let mut v: Vec<u8> = ops.into_iter().collect();
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn pinned_rows_select_what_the_encoders_write() {
    let mut checked = 0;
    for t in Target::ALL {
        let arch = t.model();
        for p in probes(t) {
            let r = isa::row(p.row).unwrap_or_else(|| panic!("{}: no such row", p.row));
            let what = format!("{} on {t}: {:?}", p.row, p.inst.op.kind());
            let encoded = generate_vec(&p.inst, arch);
            if !r.pinned(t) {
                // Not pinned: the encoder refuses the instruction too.
                assert!(encoded.is_err(), "{what}: unpinned but encodes");
                continue;
            }
            let s = select(p.row, &p.query)
                .and_then(|s| s.require_pinned())
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let bundles = encoded.unwrap_or_else(|e| panic!("{what}: {e}"));
            let want: Vec<u8> = s.opcodes().collect();
            let got: Vec<u8> = bundles.iter().map(|b| b[0]).collect();
            assert_eq!(got, want, "{what}: GENERATE vs select");
            let mut set = OpcodeSet::default();
            collect(&p.inst, arch, &mut set).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(
                sorted(set.iter()),
                sorted(want),
                "{what}: COLLECT vs select"
            );
            assert_eq!(s.engine, p.inst.engine, "{what}: engine");
            if let Some(alu) = s.alu_byte {
                // Only the TENSOR_TENSOR rows force an ALU byte.
                assert_eq!(
                    bundles[0][tt_fields::OP.offset as usize],
                    alu,
                    "{what}: forced ALU byte"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} probes checked");
}

#[test]
fn every_pinned_row_has_a_probe_or_a_reason() {
    for t in Target::ALL {
        let probed: Vec<&str> = probes(t).iter().map(|p| p.row).collect();
        for r in ROWS.iter().filter(|r| r.pinned(t)) {
            let excused = NO_INSTRUCTION.iter().any(|(n, _)| *n == r.name);
            assert!(
                probed.contains(&r.name) != excused,
                "{} on {t}: probed {} / excused {excused}",
                r.name,
                probed.contains(&r.name)
            );
        }
    }
    for (n, why) in NO_INSTRUCTION {
        assert!(!why.is_empty() && isa::row(n).is_some(), "{n}");
    }
}

/// Where `select` and an encoder disagree today. Each encoder keeps the bytes it wrote before
/// it read the ISA table; the disagreements are unsettled by the sources and recorded here so
/// that settling one is a visible change.
#[test]
fn known_disagreements_between_select_and_the_encoders() {
    use BirAluOp as A;
    use Target::*;
    let first = |inst: &Instruction, t: Target| {
        generate_vec(inst, t.model()).map(|b| b.iter().map(|x| x[0]).collect::<Vec<u8>>())
    };
    let sel = |row, q: SelectQuery| select(row, &q).map(|s| s.opcodes().collect::<Vec<u8>>());
    // 1. (settled) A bf16 add on GpSimd on sunda: see `gpsimd_bf16_tensor_tensor_is_the_bf16_opcode`.
    // 2. CopyPredicated between two BIR dtypes of one wire code: the table compares BIR
    //    dtypes (0x99), the encoder wire dtypes (0x72).
    let alias = Instruction::new(Op::CopyPredicated(CopyPredicated {
        mask: sb(0, 0, 32, 64, Uint8),
        src: sb(0, 0x400, 32, 64, Float8e4),
        dst: sb(0, 0x800, 32, 64, Float8E4m3fn),
    }));
    let q = qe(Cayman, &alias, Float8E4m3fn, &[Float8e4]);
    assert_eq!(sel("copy_predicated", q), Ok(vec![0x99]));
    assert_eq!(first(&alias, Cayman), Ok(vec![0x72]));
    // 3. A 64-bit integer TensorTensor: the table refuses it (0xf3, maverick only), the
    //    encoder writes 0x41 with the int64 wire dtype.
    let wide = tt(A::Add, Int64);
    let q = qe(Cayman, &wide, Int64, &[Int64, Int64]).with_alu(A::Add);
    assert!(sel("tensor_tensor_arith", q).is_err());
    assert_eq!(first(&wide, Cayman), Ok(vec![0x41]));
    // 4. (settled) A bitvec TensorTensor on GpSimd: see
    //    `bitvec_tensor_tensor_and_tensor_scalar_are_vector_only`.
    // 5. A transposing TensorScalar on Scalar: the table's tensor_scalar_arith row allows
    //    Scalar and its transposing case has no engine condition (0x93); the encoder's form
    //    gate keeps every form but the plain one on Vector.
    let act_tr = on(ts(|x| x.form = TsForm::Transpose), Engine::Scalar);
    let q = SelectQuery {
        transpose: true,
        ..qe(Cayman, &act_tr, Float32, &[Float32]).with_alu(A::Mult)
    };
    assert_eq!(sel("tensor_scalar_arith", q), Ok(vec![0x93]));
    assert!(matches!(
        first(&act_tr, Cayman),
        Err(sundial_codegen::EncodeError::EngineMismatch { .. })
    ));
    // 6. (settled) A bitvec TensorScalar on GpSimd: see
    //    `bitvec_tensor_tensor_and_tensor_scalar_are_vector_only`.
    // 7. A raw DIVIDE TensorTensor: select names 0x41 (the table states no ALU legality), the
    //    encoder refuses the op (header: 0x41 takes no raw DIVIDE).
    let div = tt(A::Divide, Float32);
    let q = qe(Cayman, &div, Float32, &[Float32, Float32]).with_alu(A::Divide);
    assert_eq!(sel("tensor_tensor_arith", q), Ok(vec![0x41]));
    assert_eq!(
        first(&div, Cayman),
        Err(sundial_codegen::EncodeError::AluNotEncodable(A::Divide))
    );
}

/// The bitvec TensorTensor (0x51) and TensorScalar (0x53) are Vector only: isa-table §1 rows
/// 24 and 25 list Vector alone, and the seed (compiler-map-emit-to-opcode §4.3 S3) names only
/// the arith builders `tensor_tensor_arith` (0x41) and `tensor_scalar_arith` (0x43) as
/// engine-polymorphic; nothing puts a bitvec op on GpSimd. `select` and the encoder agree:
/// both refuse GpSimd (and Scalar), and both accept Vector with the bitvec opcode.
#[test]
fn bitvec_tensor_tensor_and_tensor_scalar_are_vector_only() {
    use BirAluOp as A;
    use Target::*;
    use sundial_codegen::EncodeError;
    let pool_and = tt_gpsimd(A::BitwiseAnd, Int32);
    let pool_ts = on(
        ts(|x| {
            x.src = sb(0, 0, 32, 64, Int32);
            x.dst = sb(0, 0x400, 32, 64, Int32);
            x.op0 = A::BitwiseAnd;
            x.op1 = A::Bypass;
            x.imm0 = ImmOperand::Int(0xff);
            x.imm1 = ImmOperand::Int(0);
        }),
        Engine::GpSimd,
    );
    let cases = [
        (
            &pool_and,
            "tensor_tensor_bitvec",
            0x51u8,
            &[Int32, Int32][..],
        ),
        (&pool_ts, "tensor_scalar_bitvec", 0x53, &[Int32][..]),
    ];
    for (inst, row, opcode, srcs) in cases {
        for t in [Sunda, Cayman, Mariana] {
            let q = qe(t, inst, Int32, srcs).with_alu(A::BitwiseAnd);
            assert!(select(row, &q).is_err(), "{row} on GpSimd, {t:?}");
            assert_eq!(
                generate_vec(inst, t.model()),
                Err(EncodeError::EngineMismatch {
                    op: row,
                    engine: Engine::GpSimd
                }),
                "{row} on {t:?}"
            );
            let scalar = on(inst.clone(), Engine::Scalar);
            assert!(generate_vec(&scalar, t.model()).is_err(), "{row} on Scalar");
            let vector = on(inst.clone(), Engine::Vector);
            let q = qe(t, &vector, Int32, srcs).with_alu(A::BitwiseAnd);
            assert_eq!(
                select(row, &q).map(|s| s.opcodes().collect::<Vec<u8>>()),
                Ok(vec![opcode])
            );
            let b = generate_vec(&vector, t.model()).expect("encodes on Vector");
            assert_eq!(b[0][0], opcode, "{row} on {t:?}");
        }
    }
    // The arith forms stay engine-polymorphic: an int32 add on GpSimd is 0x41.
    let pool_add = tt_gpsimd(A::Add, Int32);
    assert_eq!(generate_vec(&pool_add, Cayman.model()).unwrap()[0][0], 0x41);
}

/// A bf16 TensorTensor on GpSimd on sunda takes the bf16 opcodes in both `select` and the
/// encoder: the seed (compiler-map-emit-to-opcode, hop 4 and §4.3 S3/S4) dispatches bf16 by
/// dtype in ISel and says the engine never changes the opcode. Add 0x8a, mult 0x8b, sub 0x8f
/// (isa-table §1 row 10, written by hand); on cayman the same instruction stays 0x41.
#[test]
fn gpsimd_bf16_tensor_tensor_is_the_bf16_opcode() {
    use BirAluOp as A;
    use Target::*;
    for (op, want) in [(A::Add, 0x8a), (A::Mult, 0x8b), (A::Subtract, 0x8f)] {
        let inst = tt_gpsimd(op, Bfloat16);
        let q = qe(Sunda, &inst, Bfloat16, &[Bfloat16, Bfloat16]).with_alu(op);
        let sel = select("tensor_tensor_arith", &q).map(|s| s.opcodes().collect::<Vec<u8>>());
        assert_eq!(sel, Ok(vec![want]), "{op:?}");
        let b = generate_vec(&inst, Sunda.model()).expect("encodes");
        assert_eq!(
            b.iter().map(|x| x[0]).collect::<Vec<u8>>(),
            vec![want],
            "{op:?}"
        );
        let b = generate_vec(&inst, Cayman.model()).expect("encodes");
        assert_eq!(b[0][0], 0x41, "{op:?} on cayman");
    }
}

/// `isa::dispatch`, the case choice the encoders read: hand-written expectations from the rows
/// (isa-table.md §1-§2, pass-rules §9, bundle-layouts §4x.1), and each of its failures.
#[test]
fn dispatch_is_the_case_choice_alone() {
    use BirAluOp as A;
    use Target::*;
    use sundial_codegen::SelectError;
    use sundial_codegen::arch::{CAYMAN, Family, SUNDA};
    const TT: &isa::Row = isa::row_const("tensor_tensor_arith");
    let all = |_: &isa::Case| true;
    let tt_q = |t, e, op, d| {
        SelectQuery::new(t)
            .on_engine(e)
            .with_dtypes(d, &[d, d])
            .with_alu(op)
    };
    let d = |q: SelectQuery| isa::dispatch(TT, &q, all).map(|x| (x.opcodes.to_vec(), x.alu_byte));
    // The sunda bf16 forms; elsewhere 0x41.
    assert_eq!(
        d(tt_q(Sunda, Engine::Vector, A::Mult, Bfloat16)),
        Ok((vec![0x8b], None))
    );
    assert_eq!(
        d(tt_q(Cayman, Engine::Vector, A::Mult, Bfloat16)),
        Ok((vec![0x41], None))
    );
    // The GpSimd int32 form: 0x41 with the integer-band byte (CoreV2 add 0xC4, CoreV3 subtract
    // 0xC6).
    assert_eq!(
        d(tt_q(Sunda, Engine::GpSimd, A::Add, Int32)),
        Ok((vec![0x41], Some(0xc4)))
    );
    assert_eq!(
        d(tt_q(Cayman, Engine::GpSimd, A::Subtract, Int32)),
        Ok((vec![0x41], Some(0xc6)))
    );
    // A case that exists on no modelled target (INT_WIDE 0xf3, maverick) is never taken.
    assert_eq!(
        d(tt_q(Mariana, Engine::Vector, A::Add, Int64)),
        Ok((vec![0x41], None))
    );
    // `admit` skips cases: the bf16 case needs the bf16 family, which cayman's model lacks.
    let bf16 = TT.cases.iter().find(|c| c.seq.emitted() == [0x8a]).unwrap();
    assert!(bf16.encodable(&SUNDA) && !bf16.encodable(&CAYMAN));
    assert!(bf16.emits_family(Family::TensorTensorBf16));
    assert!(!bf16.emits_family(Family::TensorTensor));
    let e = isa::dispatch(TT, &tt_q(Sunda, Engine::Vector, A::Add, Float32), |_| false);
    assert!(
        matches!(&e, Err(SelectError::Unpinned { op: "tensor_tensor_arith", missing })
            if missing.contains("no case of the row applies on sunda")),
        "{e:?}"
    );
    // A per-chunk pattern comes back once (the encoder repeats it).
    let gather = isa::row_const("gather");
    let g = isa::dispatch(gather, &SelectQuery::new(Cayman), all).map(|x| x.opcodes);
    assert_eq!(g, Ok(&[0x68u8, 0x67][..]));
    // A missing sequence, a lowered op and a query without a fact the case reads.
    let ts = isa::row_const("tensor_scalar_arith");
    let both = SelectQuery {
        accumulate: true,
        transpose: true,
        ..SelectQuery::new(Sunda).on_engine(Engine::Vector)
    };
    assert!(matches!(
        isa::dispatch(ts, &both, all),
        Err(SelectError::Unpinned {
            op: "tensor_scalar_arith",
            ..
        })
    ));
    let load = isa::row_const("generic_load");
    assert_eq!(
        isa::dispatch(load, &SelectQuery::new(Sunda), all),
        Err(SelectError::LoweredByPass {
            op: "generic_load",
            pass: "sundial-generic-load-to-gather"
        })
    );
    let st = isa::row_const("stream_transpose");
    assert_eq!(
        isa::dispatch(st, &SelectQuery::new(Sunda), all),
        Err(SelectError::Incomplete {
            op: "stream_transpose",
            needs: "dst_partitions"
        })
    );
}

#[test]
fn tensor_scalar_forms_name_their_rows() {
    let readout = sbd(0, 0xC00, 32, [], Float32);
    // (form, bitvec class, the opcodes the row gives: bundle-layouts §4.2 / isa-table rows
    // 12, 14, 15, 25, 38).
    let cases: [(TsForm, bool, &[u8]); 6] = [
        (TsForm::Plain, false, &[0x43]),
        (TsForm::Plain, true, &[0x53]),
        (TsForm::Transpose, false, &[0x93]),
        (
            TsForm::CacheReduce {
                reduce_res: readout,
            },
            false,
            &[0x9a, 0x9b],
        ),
        (TsForm::CacheCumulative, false, &[0xe6]),
        (TsForm::Exponential, false, &[0x30]),
    ];
    for (form, bitvec, want) in cases {
        let (row, transpose) = isa::tensor_scalar_row(&form, bitvec);
        let q = SelectQuery {
            transpose,
            ..SelectQuery::new(Target::Mariana).on_engine(Engine::Vector)
        };
        let got = isa::dispatch(row, &q, |_| true).map(|d| d.opcodes);
        assert_eq!(got, Ok(want), "{form:?} bitvec={bitvec}");
    }
}

#[test]
fn gpsimd_int32_bytes_invert() {
    for t in Target::ALL {
        for (op, _, _) in isa::GPSIMD_INT32_ALU {
            if let Some(b) = isa::gpsimd_int32_alu(op, t) {
                assert_eq!(isa::gpsimd_int32_op(b, t), Some(op), "{op:?} on {t}");
            }
        }
        // A plain byte (ADD 0x04) is no override.
        assert_eq!(isa::gpsimd_int32_op(0x04, t), None);
    }
    // CoreV2 has no subtract override; CoreV3 does (0xC6).
    assert_eq!(
        isa::gpsimd_int32_alu(BirAluOp::Subtract, Target::Sunda),
        None
    );
    assert_eq!(
        isa::gpsimd_int32_alu(BirAluOp::Subtract, Target::Mariana),
        Some(0xc6)
    );
    assert_eq!(isa::row_const("matmul").name, "matmul");
}
