//! The ISA table: one hand-written `select` expectation per row (from isa-table.md §1-§2,
//! pass-rules.md §9 and bundle-layouts.md §4.2/§4.3/§4x.1, cited per line), every
//! `SelectError` variant, the row set, the BIR legal-opcode sets, the derived pinned facts and
//! the vocabulary spellings the NISA dialect uses.

use sundial_codegen::dtype::BirDtype::{self, *};
use sundial_codegen::enums::BirAluOp;
use sundial_codegen::formats;
use sundial_codegen::isa::{self, DefaultEngine, ROWS, Seq};
use sundial_codegen::model::Engine;
use sundial_codegen::{SelectError, SelectQuery, Selection, Target, gather_chunks, select};

use Engine::{Dma, GpSimd, Scalar, Sync, Tensor, Vector};
use Target::{Cayman, Mariana, Sunda};

/// The 62 emit mnemonics of isa-table.md §1 (rows 1..62 in order), the six irbuilder extras,
/// the three generic loads/stores, the public functions without an emit builder
/// (`nki.isa.nc_transpose`, `nki.isa.core_barrier`) and the register ops of NKI's register
/// API (`register_alloc`, `register_move`) and the generic partition reduction
/// (`tensor_partition_reduce`), as the NISA dialect spells them.
const NAMES: [&str; 76] = [
    "iota",
    "tensor_scalar_affine_select",
    "cross_lane_reduce_arith",
    "cross_lane_reduce_bitvec",
    "gather",
    "indirect_copy",
    "nonzero_with_count",
    "quantize_mx",
    "sequence_bounds",
    "tensor_tensor_arith",
    "tensor_tensor_power",
    "tensor_scalar_arith",
    "tensor_scalar_addr",
    "tensor_scalar_cache_reduce",
    "tensor_scalar_cache_cumulative",
    "tensor_tensor_scan",
    "scalar_tensor_tensor_arith",
    "scalar_tensor_tensor_bitvec",
    "select_reduce",
    "copy_predicated",
    "memset",
    "tensor_copy",
    "reciprocal",
    "tensor_tensor_bitvec",
    "tensor_scalar_bitvec",
    "tensor_reduce_arith",
    "tensor_reduce_bitvec",
    "dve_read_accumulator",
    "max8",
    "find_index8",
    "max_index_and_match_replace",
    "range_select",
    "dropout",
    "bn_stats",
    "bn_aggr",
    "stream_shuffle",
    "stream_transpose",
    "exponential",
    "activation",
    "activation_read_accumulator",
    "matmul",
    "matmul_mx",
    "all_reduce",
    "all_gather",
    "reduce_scatter",
    "all_to_all",
    "all_to_all_v",
    "collective_permute",
    "collective_permute_implicit",
    "collective_permute_implicit_reduce",
    "collective_permute_implicit_current_processing_rank_id",
    "rank_id",
    "collective_permute_reduce",
    "rank_id_store",
    "send_recv",
    "dma_copy",
    "dma_copy_indirect",
    "dma_transpose",
    "dma_gather_transpose",
    "load_register",
    "store_register",
    "device_print",
    "rand2",
    "rng",
    "rand_get_state",
    "rand_set_state",
    "set_rng_seed",
    "dma_compute",
    "generic_load",
    "generic_indirect_load",
    "generic_indirect_save",
    "nc_transpose",
    "core_barrier",
    "register_alloc",
    "register_move",
    "tensor_partition_reduce",
];

fn q(t: Target) -> SelectQuery {
    SelectQuery::new(t)
}

fn ops(s: &Selection) -> Vec<u8> {
    s.opcodes().collect()
}

/// `select` must succeed with exactly these opcodes, engine and BIR op.
#[track_caller]
fn expect_ok(op: &str, query: SelectQuery, opcodes: &[u8], engine: Engine, bir: &str) -> Selection {
    let s = match select(op, &query) {
        Ok(s) => s,
        Err(e) => panic!("{op}: expected {opcodes:02x?}, got error {e}"),
    };
    assert_eq!(ops(&s), opcodes, "{op} opcodes");
    assert_eq!(s.engine, engine, "{op} engine");
    assert_eq!(s.bir, bir, "{op} BIR op");
    s
}

#[track_caller]
fn expect_err(op: &str, query: SelectQuery) -> SelectError {
    match select(op, &query) {
        Ok(s) => panic!("{op}: expected an error, got {:02x?}", ops(&s)),
        Err(e) => e,
    }
}

#[track_caller]
fn expect_unpinned(op: &str, query: SelectQuery) {
    let e = expect_err(op, query);
    assert!(matches!(e, SelectError::Unpinned { .. }), "{op}: {e}");
    assert!(
        e.to_string().starts_with(&format!("{op}: unpinned: ")),
        "{e}"
    );
}

#[track_caller]
fn expect_lowered(op: &str, query: SelectQuery, by: &str) {
    match expect_err(op, query) {
        SelectError::LoweredByPass { op: o, pass } => assert_eq!((o, pass), (op, by)),
        e => panic!("{op}: expected LoweredByPass, got {e}"),
    }
}

#[test]
fn row_names_are_the_62_plus_extras_once_each() {
    let names: Vec<&str> = ROWS.iter().map(|r| r.name).collect();
    assert_eq!(names.len(), NAMES.len());
    for (i, n) in names.iter().enumerate() {
        assert!(!names[i + 1..].contains(n), "{n} twice");
        assert!(NAMES.contains(n), "{n} is not a NISA op of the brief");
    }
    // The emit numbers are isa-table §1's row numbers.
    for (i, n) in NAMES[..62].iter().enumerate() {
        let row = isa::row(n).expect("row");
        assert_eq!(row.emit, Some(i as u8 + 1), "{n}");
    }
    for n in &NAMES[62..] {
        assert_eq!(isa::row(n).map(|r| r.emit), Some(None), "{n}");
    }
}

/// One expectation per row, written from the reference (isa-table.md §1 unless noted).
#[test]
fn every_row_selects_as_the_reference_says() {
    let f32s = |t| q(t).with_dtypes(Float32, &[Float32, Float32]);
    let mut seen: Vec<&str> = Vec::new();
    let mut ok = |op: &'static str, query, opcodes: &[u8], engine, bir| {
        seen.push(op);
        expect_ok(op, query, opcodes, engine, bir)
    };
    // 1-9 GpSimd.
    ok("iota", q(Sunda), &[0x7e], GpSimd, "iota");
    ok(
        "tensor_scalar_affine_select",
        q(Sunda),
        &[0x92],
        GpSimd,
        "tensor_scalar_affine_select",
    );
    ok(
        "cross_lane_reduce_arith",
        f32s(Sunda),
        &[0x7c],
        GpSimd,
        "cross_lane_reduce",
    );
    ok(
        "cross_lane_reduce_bitvec",
        q(Sunda).with_dtypes(Int32, &[Int32]),
        &[0x7d],
        GpSimd,
        "cross_lane_reduce",
    );
    // 1024 indices = two 512-element chunks, one {0x68, 0x67} pair each (seed DVE page).
    ok(
        "gather",
        SelectQuery {
            index_elements: Some(1024),
            ..q(Sunda)
        },
        &[0x68, 0x67, 0x68, 0x67],
        GpSimd,
        "gather",
    );
    ok("indirect_copy", q(Sunda), &[0xe7], GpSimd, "indirect_copy");
    ok(
        "nonzero_with_count",
        q(Cayman),
        &[0xf2],
        GpSimd,
        "nonzero_with_count",
    );
    ok(
        "quantize_mx",
        q(Mariana).with_dtypes(Float8E4m3fnX4, &[Bfloat16]),
        &[0xe3],
        Vector,
        "quantize_mx",
    );
    ok(
        "sequence_bounds",
        q(Sunda),
        &[0xbe],
        GpSimd,
        "get_sequence_bounds",
    );
    // 10-38 Vector / GpSimd.
    ok(
        "tensor_tensor_arith",
        q(Sunda)
            .with_dtypes(Bfloat16, &[Bfloat16, Bfloat16])
            .with_alu(BirAluOp::Add),
        &[0x8a],
        Vector,
        "tensor_tensor",
    );
    let pow = ok(
        "tensor_tensor_power",
        f32s(Sunda),
        &[0x41],
        GpSimd,
        "tensor_tensor",
    );
    assert_eq!(pow.alu_byte, Some(0x1a), "header ALU_OP 0x1A POW");
    ok(
        "tensor_scalar_arith",
        f32s(Sunda).with_alu(BirAluOp::Mult),
        &[0x43],
        Vector,
        "tensor_scalar",
    );
    ok(
        "tensor_scalar_addr",
        q(Sunda).with_dtypes(Int64, &[Int64]),
        &[0x74],
        GpSimd,
        "tensor_scalar",
    );
    ok(
        "tensor_scalar_cache_reduce",
        f32s(Sunda),
        &[0x9a, 0x9b],
        Vector,
        "tensor_scalar_cache",
    );
    ok(
        "tensor_scalar_cache_cumulative",
        f32s(Sunda),
        &[0xe6],
        Vector,
        "tensor_scalar_cache",
    );
    ok(
        "tensor_tensor_scan",
        f32s(Sunda),
        &[0xe5],
        Vector,
        "tensor_tensor_scan",
    );
    ok(
        "scalar_tensor_tensor_arith",
        f32s(Sunda),
        &[0x9d],
        Vector,
        "scalar_tensor_tensor",
    );
    ok(
        "scalar_tensor_tensor_bitvec",
        q(Sunda).with_dtypes(Int32, &[Int32, Int32]),
        &[0x9e],
        Vector,
        "scalar_tensor_tensor",
    );
    ok(
        "select_reduce",
        f32s(Sunda),
        &[0xea],
        Vector,
        "select_reduce",
    );
    ok(
        "copy_predicated",
        f32s(Sunda),
        &[0x72],
        Vector,
        "copy_predicated",
    );
    ok("memset", q(Sunda), &[0x49], Vector, "memset");
    ok(
        "tensor_copy",
        q(Sunda).with_dtypes(Bfloat16, &[Bfloat16]),
        &[0x46],
        Vector,
        "tensor_copy",
    );
    ok("reciprocal", f32s(Sunda), &[0x48], Vector, "reciprocal");
    ok(
        "tensor_tensor_bitvec",
        q(Sunda).with_dtypes(Int32, &[Int32, Int32]),
        &[0x51],
        Vector,
        "tensor_tensor",
    );
    ok(
        "tensor_scalar_bitvec",
        q(Sunda).with_dtypes(Uint32, &[Uint32]),
        &[0x53],
        Vector,
        "tensor_scalar",
    );
    ok(
        "tensor_reduce_arith",
        f32s(Sunda),
        &[0x42],
        Vector,
        "tensor_reduce",
    );
    ok(
        "tensor_reduce_bitvec",
        q(Sunda).with_dtypes(Int16, &[Int16]),
        &[0x52],
        Vector,
        "tensor_reduce",
    );
    ok(
        "dve_read_accumulator",
        q(Sunda),
        &[0x9b],
        Vector,
        "read_accumulator",
    );
    ok("max8", f32s(Sunda), &[0x6c], Vector, "max8");
    ok("find_index8", f32s(Sunda), &[0x6e], Vector, "find_index8");
    ok(
        "max_index_and_match_replace",
        f32s(Sunda),
        &[0x6f],
        Vector,
        "match_replace8",
    );
    ok(
        "range_select",
        f32s(Cayman),
        &[0xbc, 0x9b],
        Vector,
        "range_select",
    );
    ok("dropout", f32s(Sunda), &[0x7f], Vector, "dropout");
    ok("bn_stats", f32s(Sunda), &[0x61], Vector, "bn_stats");
    ok("bn_aggr", f32s(Sunda), &[0x62], Vector, "bn_aggr");
    ok(
        "stream_shuffle",
        f32s(Sunda),
        &[0x6a, 0x69],
        Vector,
        "stream_shuffle",
    );
    ok(
        "stream_transpose",
        SelectQuery {
            dst_partitions: Some(64),
            ..f32s(Sunda)
        },
        &[0x6b, 0x69],
        Vector,
        "stream_transpose",
    );
    ok("exponential", f32s(Mariana), &[0x30], Vector, "exponential");
    // 39-40 Scalar.
    ok("activation", f32s(Sunda), &[0x21], Scalar, "activation");
    ok(
        "activation_read_accumulator",
        q(Sunda),
        &[0x24],
        Scalar,
        "read_accumulator",
    );
    // 41-42 Tensor.
    ok("matmul", f32s(Sunda), &[0x01, 0x02], Tensor, "matmult");
    ok("matmul_mx", q(Mariana), &[0x09, 0x0a], Tensor, "matmult_mx");
    // 55 send_recv with gpsimd_dma: the real 0xbf.
    ok(
        "send_recv",
        SelectQuery {
            gpsimd_dma: true,
            ..q(Cayman)
        },
        &[0xbf],
        GpSimd,
        "sb2sb_collective",
    );
    // 56-59 DMA.
    ok("dma_copy", q(Sunda), &[0xb8], Dma, "dma_copy");
    ok("dma_copy_indirect", q(Sunda), &[0xbb], Dma, "dma_indirect");
    ok("dma_transpose", q(Sunda), &[0xbd], Dma, "dma_transpose");
    ok(
        "dma_gather_transpose",
        q(Cayman),
        &[0xf1],
        Dma,
        "dma_transpose",
    );
    // 60 load_register on an explicit sequencer.
    ok(
        "load_register",
        q(Sunda).on_engine(Sync),
        &[0x4a],
        Sync,
        "register_load",
    );
    // irbuilder extras (isa-table §1 footnote: rand2 0xe2, rng 0x4d, 0x77, 0x78).
    // rand2 is NeuronCore v4, the state transfers v3 (NKI docs).
    ok("rand2", q(Mariana), &[0xe2], Vector, "rng");
    ok("rng", q(Sunda), &[0x4d], Vector, "rng");
    ok("rand_get_state", q(Cayman), &[0x77], GpSimd, "rand_state");
    ok("rand_set_state", q(Cayman), &[0x78], GpSimd, "rand_state");
    ok("dma_compute", q(Cayman), &[0xb8], Dma, "dma_copy");
    // nki.isa.nc_transpose on Vector is the stream transpose (its pair from 32 dst partitions).
    ok(
        "nc_transpose",
        SelectQuery {
            dst_partitions: Some(16),
            ..f32s(Sunda).on_engine(Vector)
        },
        &[0x6b],
        Vector,
        "stream_transpose",
    );
    ok(
        "nc_transpose",
        SelectQuery {
            dst_partitions: Some(32),
            ..f32s(Cayman).on_engine(Vector)
        },
        &[0x6b, 0x69],
        Vector,
        "stream_transpose",
    );

    // Rows with no selectable opcode: collectives (PSEUDO band), the register store, the host
    // print and the seed-setter.
    let no_opcode: &[(&str, Target)] = &[
        ("all_reduce", Sunda),
        ("all_gather", Sunda),
        ("reduce_scatter", Sunda),
        ("all_to_all", Sunda),
        ("all_to_all_v", Sunda),
        ("collective_permute", Sunda),
        ("collective_permute_implicit", Sunda),
        ("collective_permute_implicit_reduce", Sunda),
        (
            "collective_permute_implicit_current_processing_rank_id",
            Sunda,
        ),
        ("rank_id", Sunda),
        ("collective_permute_reduce", Sunda),
        ("rank_id_store", Sunda),
        ("device_print", Sunda),
        ("set_rng_seed", Sunda),
        ("register_alloc", Sunda),
        ("register_move", Sunda),
    ];
    for &(op, t) in no_opcode {
        seen.push(op);
        expect_unpinned(op, q(t));
    }
    seen.push("store_register");
    expect_unpinned("store_register", q(Sunda).on_engine(Scalar));
    // The PE transpose needs an identity tile no pass builds; the barrier's semaphore sequence
    // is not public (and it exists from NeuronCore v3).
    expect_unpinned("nc_transpose", f32s(Sunda).on_engine(Tensor));
    assert!(matches!(
        expect_err("nc_transpose", f32s(Sunda)),
        SelectError::IllegalEngine { engine: None, .. }
    ));
    seen.push("core_barrier");
    expect_unpinned("core_barrier", q(Cayman));
    assert!(matches!(
        expect_err("core_barrier", q(Sunda)),
        SelectError::NotOnTarget { .. }
    ));
    for (op, pass) in [
        ("generic_load", "sundial-generic-load-to-gather"),
        ("generic_indirect_load", "sundial-lower-generic-indirect"),
        ("generic_indirect_save", "sundial-lower-generic-indirect"),
        (
            "tensor_partition_reduce",
            "sundial-legalize-partition-reduce",
        ),
    ] {
        seen.push(op);
        expect_lowered(op, q(Sunda), pass);
    }
    for n in NAMES {
        assert!(seen.contains(&n), "{n} has no expectation");
    }
}

#[test]
fn tensor_tensor_dtype_dispatch() {
    let tt = |t, d: BirDtype, op| q(t).with_dtypes(d, &[d, d]).with_alu(op).on_engine(Vector);
    let sel = |query| select("tensor_tensor_arith", &query).map(|s| ops(&s));
    // pass-rules §9 / isa-table §2: bf16 add/mult/subtract on sunda.
    assert_eq!(sel(tt(Sunda, Bfloat16, BirAluOp::Add)), Ok(vec![0x8a]));
    assert_eq!(sel(tt(Sunda, Bfloat16, BirAluOp::Mult)), Ok(vec![0x8b]));
    assert_eq!(sel(tt(Sunda, Bfloat16, BirAluOp::Subtract)), Ok(vec![0x8f]));
    // Other ops, other dtypes and other targets keep 0x41.
    assert_eq!(sel(tt(Sunda, Bfloat16, BirAluOp::Max)), Ok(vec![0x41]));
    assert_eq!(sel(tt(Sunda, Float32, BirAluOp::Add)), Ok(vec![0x41]));
    assert_eq!(sel(tt(Cayman, Bfloat16, BirAluOp::Add)), Ok(vec![0x41]));
    assert_eq!(sel(tt(Mariana, Bfloat16, BirAluOp::Mult)), Ok(vec![0x41]));
    // Both inputs and dst must be bf16 (pass-rules §9 condition).
    let mixed = q(Sunda)
        .with_dtypes(Float32, &[Bfloat16, Bfloat16])
        .with_alu(BirAluOp::Add);
    assert_eq!(sel(mixed), Ok(vec![0x41]));
    // bf16 on GpSimd on sunda: the dispatch is by dtype, not engine.
    let pool_bf16 = tt(Sunda, Bfloat16, BirAluOp::Add).on_engine(GpSimd);
    assert_eq!(sel(pool_bf16), Ok(vec![0x8a]));
}

#[test]
fn gpsimd_int32_override() {
    let int32 = |t, op| {
        q(t).with_dtypes(Int32, &[Int32, Int32])
            .with_alu(op)
            .on_engine(GpSimd)
    };
    let alu =
        |query| select("tensor_tensor_arith", &query).map(|s| (ops(&s), s.alu_byte, s.engine));
    // Opcode 0x41 (seed), ALU byte from the int band (bundle-layouts §4x.1).
    assert_eq!(
        alu(int32(Sunda, BirAluOp::Add)),
        Ok((vec![0x41], Some(0xc4), GpSimd))
    );
    assert_eq!(
        alu(int32(Sunda, BirAluOp::Mult)),
        Ok((vec![0x41], Some(0xc5), GpSimd))
    );
    // CC's CoreV2 form has no subtract entry: plain byte.
    assert_eq!(
        alu(int32(Sunda, BirAluOp::Subtract)),
        Ok((vec![0x41], None, GpSimd))
    );
    // CoreV3 band: eng5 subtract -> 0xC6, eng7 divide -> 0xC7, mod_int -> 0xC8.
    assert_eq!(
        alu(int32(Cayman, BirAluOp::Subtract)),
        Ok((vec![0x41], Some(0xc6), GpSimd))
    );
    assert_eq!(
        alu(int32(Cayman, BirAluOp::Divide)),
        Ok((vec![0x41], Some(0xc7), GpSimd))
    );
    assert_eq!(
        alu(int32(Mariana, BirAluOp::ModInt)),
        Ok((vec![0x41], Some(0xc8), GpSimd))
    );
    // An op outside the band keeps its plain byte.
    assert_eq!(
        alu(int32(Cayman, BirAluOp::Max)),
        Ok((vec![0x41], None, GpSimd))
    );
    // On Vector no override applies.
    assert_eq!(
        alu(int32(Cayman, BirAluOp::Add).on_engine(Vector)),
        Ok((vec![0x41], None, Vector))
    );
}

#[test]
fn tensor_tensor_engine_rule() {
    let unknown = |d: BirDtype, op| q(Sunda).with_dtypes(d, &[d, d]).with_alu(op);
    let engine = |query| select("tensor_tensor_arith", &query).map(|s| s.engine);
    // Seed §4.4: unknown + add/subtract/mult + all int32/uint32 + no PSUM -> GpSimd.
    assert_eq!(engine(unknown(Int32, BirAluOp::Add)), Ok(GpSimd));
    assert_eq!(engine(unknown(Uint32, BirAluOp::Subtract)), Ok(GpSimd));
    assert_eq!(engine(unknown(Int32, BirAluOp::Mult)), Ok(GpSimd));
    let in_psum = SelectQuery {
        psum: true,
        ..unknown(Int32, BirAluOp::Add)
    };
    assert_eq!(engine(in_psum), Ok(Vector));
    assert_eq!(engine(unknown(Int32, BirAluOp::Max)), Ok(Vector));
    assert_eq!(engine(unknown(Float32, BirAluOp::Add)), Ok(Vector));
    let mixed = q(Sunda)
        .with_dtypes(Float32, &[Int32, Int32])
        .with_alu(BirAluOp::Add);
    assert_eq!(engine(mixed), Ok(Vector));
    // The rule's GpSimd choice then takes the int32 ALU override.
    let s = select("tensor_tensor_arith", &unknown(Int32, BirAluOp::Add));
    assert_eq!(s.map(|s| s.alu_byte), Ok(Some(0xc4)));
}

#[test]
fn int_wide_is_maverick_only() {
    // isa-table §2 / §3: INT_WIDE 0xf3/0xf4 are maverick (CoreV5) only: not a modelled target.
    let wide = q(Mariana)
        .with_dtypes(Int64, &[Int64, Int64])
        .with_alu(BirAluOp::Add);
    assert_eq!(
        expect_err("tensor_tensor_arith", wide).to_string(),
        "tensor_tensor_arith: unpinned: opcode 0xf3 exists on maverick (CoreV5) only, which is \
         not a modelled target"
    );
    let e = expect_err(
        "tensor_scalar_arith",
        q(Cayman)
            .with_dtypes(Uint64, &[Uint64])
            .with_alu(BirAluOp::Add),
    );
    assert!(e.to_string().contains("maverick"), "{e}");
    // 0xf3/0xf4 are never legal on a modelled target's BIR op.
    assert!(!isa::legal_opcodes("tensor_tensor").contains(0xf3));
    assert!(!isa::legal_opcodes("tensor_scalar").contains(0xf4));
}

#[test]
fn tensor_scalar_forks() {
    let ts = || {
        q(Cayman)
            .with_dtypes(Float32, &[Float32])
            .with_alu(BirAluOp::Add)
    };
    let sel = |query| select("tensor_scalar_arith", &query).map(|s| ops(&s));
    // Seed: 0x43 on Vector, Scalar or GpSimd alike.
    for e in [Vector, Scalar, GpSimd] {
        assert_eq!(sel(ts().on_engine(e)), Ok(vec![0x43]), "{e}");
    }
    // CC fork: transpose -> 0x93; accumulate -> 0x9a + trailing 0x9b.
    let tr = SelectQuery {
        transpose: true,
        ..ts()
    };
    assert_eq!(sel(tr), Ok(vec![0x93]));
    let acc = SelectQuery {
        accumulate: true,
        ..ts()
    };
    assert_eq!(sel(acc.clone()), Ok(vec![0x9a, 0x9b]));
    assert_eq!(
        select("tensor_scalar_arith", &acc).map(|s| s.bir),
        Ok("tensor_scalar_cache")
    );
    // Both at once, or accumulating off Vector: no source.
    expect_unpinned(
        "tensor_scalar_arith",
        SelectQuery {
            accumulate: true,
            transpose: true,
            ..ts()
        },
    );
    expect_unpinned(
        "tensor_scalar_arith",
        SelectQuery {
            accumulate: true,
            ..ts().on_engine(Scalar)
        },
    );
}

#[test]
fn copy_and_cast() {
    // CC visitInstTensorCopy: opcode = (src dtype != dst dtype) + 0x46.
    let copy =
        |dst, src| select("tensor_copy", &q(Sunda).with_dtypes(dst, &[src])).map(|s| ops(&s));
    assert_eq!(copy(Float32, Float32), Ok(vec![0x46]));
    assert_eq!(copy(Bfloat16, Float32), Ok(vec![0x47]));
    assert_eq!(copy(Int32, Int16), Ok(vec![0x47]));
    // Copy predicated: 0x72, cast-predicated 0x99 (assumption, see the row note).
    let pc =
        |dst, src| select("copy_predicated", &q(Sunda).with_dtypes(dst, &[src])).map(|s| ops(&s));
    assert_eq!(pc(Float32, Float32), Ok(vec![0x72]));
    assert_eq!(pc(Bfloat16, Float32), Ok(vec![0x99]));
}

#[test]
fn micro_pairs_and_target_dispatch() {
    // StreamTranspose: {0x6b} below 32 dst partitions, {0x6b, 0x69} from 32 (seed cmp ebx,0x1f).
    let tr = |p| {
        select(
            "stream_transpose",
            &SelectQuery {
                dst_partitions: Some(p),
                ..q(Sunda)
            },
        )
        .map(|s| ops(&s))
    };
    assert_eq!(tr(1), Ok(vec![0x6b]));
    assert_eq!(tr(31), Ok(vec![0x6b]));
    assert_eq!(tr(32), Ok(vec![0x6b, 0x69]));
    assert_eq!(tr(128), Ok(vec![0x6b, 0x69]));
    // Activation: 0x21, CoreV4 0x25 ACTIVATE2 (CC opcode enum).
    let act = |t| select("activation", &q(t)).map(|s| ops(&s));
    assert_eq!(act(Sunda), Ok(vec![0x21]));
    assert_eq!(act(Cayman), Ok(vec![0x21]));
    assert_eq!(act(Mariana), Ok(vec![0x25]));
    // Dropout preceded by its seed-setter when the stream is unseeded: no opcode for it.
    expect_unpinned(
        "dropout",
        SelectQuery {
            needs_rng_seed: true,
            ..q(Sunda)
        },
    );
    // send_recv over the shared DMA: PSEUDO band.
    expect_unpinned("send_recv", q(Cayman));
    // dma_compute through vector_offset: DMA_INDIRECT 0xbb.
    let dc = SelectQuery {
        indirect: true,
        ..q(Cayman)
    };
    assert_eq!(select("dma_compute", &dc).map(|s| ops(&s)), Ok(vec![0xbb]));
    // select_reduce with a reduce read-out (assumption in the row).
    let sr = SelectQuery {
        accumulate: true,
        ..q(Sunda)
    };
    assert_eq!(
        select("select_reduce", &sr).map(|s| ops(&s)),
        Ok(vec![0xea, 0x9b])
    );
}

#[test]
fn gather_chunks_and_the_empty_index() {
    // ceil(n / 512) (ops::gather_chunks settles the seed's floor against the NKI docs).
    assert_eq!(gather_chunks(0), 0);
    assert_eq!(gather_chunks(1), 1);
    assert_eq!(gather_chunks(512), 1);
    assert_eq!(gather_chunks(513), 2);
    let g = |n| {
        select(
            "gather",
            &SelectQuery {
                index_elements: Some(n),
                ..q(Sunda)
            },
        )
    };
    // DECISION: an empty index is an error (as the encoder's ZeroNumElem), not an empty pair.
    assert_eq!(g(0), Err(SelectError::EmptyIndex { op: "gather" }));
    let one = g(1).expect("one chunk");
    assert_eq!((one.repeat, ops(&one)), (1, vec![0x68, 0x67]));
    let s = g(513).expect("two chunks");
    assert_eq!((s.repeat, s.bundle_count()), (2, 4));
    // A huge index is a count, not an allocation: 2^64 - 1 elements = 2^55 chunks.
    let big = g(u64::MAX).expect("big");
    assert_eq!(big.repeat, 1 << 55);
    assert_eq!(big.bundle_count(), 1 << 56);
    assert_eq!(
        big.opcodes().take(5).collect::<Vec<_>>(),
        vec![0x68, 0x67, 0x68, 0x67, 0x68]
    );
}

#[test]
fn every_error_variant() {
    // UnknownOp.
    let e = expect_err("tensor_tensor", q(Sunda));
    assert_eq!(
        e,
        SelectError::UnknownOp {
            op: "tensor_tensor".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "tensor_tensor: unknown op (no row in the ISA table)"
    );
    // Unpinned: no opcode (host side).
    let e = expect_err("device_print", q(Sunda));
    assert_eq!(
        e.to_string(),
        "device_print: unpinned: device_print is host side (nl.device_print): no device \
         instruction"
    );
    // Unpinned from require_pinned: 0x41 has no field table today (the message names it).
    let tt = select(
        "tensor_tensor_arith",
        &q(Cayman)
            .with_dtypes(Float32, &[Float32, Float32])
            .with_alu(BirAluOp::Add),
    )
    .expect("selects");
    if formats::by_opcode(0x41).is_none() {
        assert!(!tt.pinned);
        let e = tt.require_pinned().expect_err("unpinned");
        assert!(e.to_string().contains("0x41"), "{e}");
    }
    // require_pinned on a stable gap: RangeSelect exists from cayman, but mariana has no
    // RangeSelect encoder family (arch.rs settles the seed's "CoreV3-only").
    let rs = select("range_select", &q(Mariana)).expect("selects");
    assert_eq!((ops(&rs), rs.pinned), (vec![0xbc, 0x9b], false));
    assert_eq!(
        rs.require_pinned().expect_err("unpinned").to_string(),
        "range_select: unpinned: opcode 0xbc's format family RangeSelect is not on mariana"
    );
    let sh = select("stream_shuffle", &q(Mariana)).expect("selects");
    assert!(sh.pinned && sh.require_pinned().is_ok());
    // IllegalEngine: an engine the row does not list, and unknown where there is no default.
    let e = expect_err("matmul", q(Sunda).on_engine(Vector));
    assert_eq!(
        e,
        SelectError::IllegalEngine {
            op: "matmul",
            engine: Some(Vector),
            legal: &[Tensor],
        }
    );
    assert_eq!(
        e.to_string(),
        "matmul: engine vector is not legal; legal engines: tensor"
    );
    let e = expect_err("memset", q(Sunda).on_engine(Dma));
    assert_eq!(
        e.to_string(),
        "memset: engine dma is not legal; legal engines: vector, gpsimd"
    );
    let e = expect_err("load_register", q(Sunda));
    assert!(
        e.to_string()
            .starts_with("load_register: engine unknown is not legal"),
        "{e}"
    );
    let e = expect_err("device_print", q(Sunda).on_engine(Vector));
    assert!(
        e.to_string().ends_with("none (the op takes no engine)"),
        "{e}"
    );
    // NotOnTarget.
    let e = expect_err("range_select", q(Sunda));
    assert_eq!(
        e,
        SelectError::NotOnTarget {
            op: "range_select",
            target: Sunda,
            min: Cayman,
        }
    );
    assert_eq!(
        e.to_string(),
        "range_select: not on sunda: needs cayman or later"
    );
    assert!(matches!(
        expect_err("matmul_mx", q(Cayman)),
        SelectError::NotOnTarget { min: Mariana, .. }
    ));
    // IllegalDtype.
    let e = expect_err(
        "tensor_tensor_bitvec",
        q(Sunda).with_dtypes(Float32, &[Int32, Int32]),
    );
    assert_eq!(
        e.to_string(),
        "tensor_tensor_bitvec: dst dtype float32 is illegal: bit-vector ops work on raw integer \
         bits: integer dtypes only"
    );
    let e = expect_err("tensor_copy", q(Sunda).with_dtypes(Float32r, &[Float32r]));
    assert!(matches!(
        e,
        SelectError::IllegalDtype {
            operand: "src0",
            dtype: Float32r,
            ..
        }
    ));
    // float32r stays legal as an output.
    assert!(select("tensor_copy", &q(Sunda).with_dtypes(Float32r, &[Float32])).is_ok());
    assert!(matches!(
        expect_err(
            "quantize_mx",
            q(Mariana).with_dtypes(Float8E4m3fnX4, &[Float32])
        ),
        SelectError::IllegalDtype { .. }
    ));
    // Incomplete.
    assert_eq!(
        expect_err("gather", q(Sunda)),
        SelectError::Incomplete {
            op: "gather",
            needs: "index_elements"
        }
    );
    assert_eq!(
        expect_err("stream_transpose", q(Sunda)).to_string(),
        "stream_transpose: the query lacks dst_partitions, which the selection rule reads"
    );
    assert!(matches!(
        expect_err("tensor_tensor_arith", q(Sunda).with_alu(BirAluOp::Add)),
        SelectError::Incomplete { .. }
    ));
    // EmptyIndex.
    assert_eq!(
        expect_err(
            "gather",
            SelectQuery {
                index_elements: Some(0),
                ..q(Cayman)
            }
        )
        .to_string(),
        "gather: the index has 0 elements per partition: a gather needs at least one"
    );
    // LoweredByPass.
    assert_eq!(
        expect_err("generic_indirect_save", q(Sunda)).to_string(),
        "generic_indirect_save: never reaches selection: sundial-lower-generic-indirect lowers \
         it first"
    );
}

/// The BIR ops the table produces and their legal opcodes (hand-written from the rows'
/// references; compare `dialects/src/bir.rs`).
#[test]
fn bir_legal_opcodes() {
    let expected: &[(&str, &[u8])] = &[
        ("iota", &[0x7e]),
        ("tensor_scalar_affine_select", &[0x92]),
        ("cross_lane_reduce", &[0x7c, 0x7d]),
        ("gather", &[0x67, 0x68]),
        ("indirect_copy", &[0xe7]),
        ("nonzero_with_count", &[0xf2]),
        ("quantize_mx", &[0xe3]),
        ("get_sequence_bounds", &[0xbe]),
        ("tensor_tensor", &[0x41, 0x51, 0x8a, 0x8b, 0x8f]),
        ("tensor_scalar", &[0x43, 0x53, 0x74, 0x93]),
        ("tensor_scalar_cache", &[0x9a, 0x9b, 0xe6]),
        ("tensor_tensor_scan", &[0xe5]),
        ("scalar_tensor_tensor", &[0x9d, 0x9e]),
        ("select_reduce", &[0x9b, 0xea]),
        // 0xE8 is the BIR-only CopyPredicatedScalar (isa::BIR_ONLY).
        ("copy_predicated", &[0x72, 0x99, 0xe8]),
        ("memset", &[0x49]),
        ("tensor_copy", &[0x46, 0x47]),
        ("reciprocal", &[0x48]),
        ("tensor_reduce", &[0x42, 0x52]),
        ("read_accumulator", &[0x24, 0x9b]),
        ("max8", &[0x6c]),
        ("find_index8", &[0x6e]),
        ("match_replace8", &[0x6f]),
        ("range_select", &[0x9b, 0xbc]),
        ("dropout", &[0x7f]),
        ("bn_stats", &[0x61]),
        ("bn_aggr", &[0x62]),
        ("stream_shuffle", &[0x69, 0x6a]),
        ("stream_transpose", &[0x69, 0x6b]),
        ("exponential", &[0x30]),
        ("activation", &[0x21, 0x25]),
        ("matmult", &[0x01, 0x02]),
        ("matmult_mx", &[0x09, 0x0a]),
        ("collective", &[0xc8, 0xdc, 0xde]),
        ("sb2sb_collective", &[0xbf]),
        ("dma_copy", &[0xb8]),
        ("dma_indirect", &[0xbb]),
        ("dma_transpose", &[0xbd, 0xf1]),
        ("register_load", &[0x4a]),
        ("rng", &[0x4d, 0xe2]),
        ("rand_state", &[0x77, 0x78]),
        ("generic_indirect_load", &[0xbb]),
        ("indirect_save_accumulate", &[0xca]),
        ("generic_indirect_save", &[0xbb]),
    ];
    let mut produced = isa::bir_ops();
    produced.sort_unstable();
    let mut want: Vec<&str> = expected.iter().map(|(b, _)| *b).collect();
    want.sort_unstable();
    assert_eq!(produced, want);
    for (bir, opcodes) in expected {
        let got: Vec<u8> = isa::legal_opcodes(bir).iter().collect();
        assert_eq!(&got, opcodes, "{bir}");
    }
    // BIR ops no NISA row produces take their opcodes from isa::BIR_ONLY.
    for (bir, opcodes) in [
        ("select", &[0x98u8][..]),
        ("inline_asm_bytes", &[0xf0]),
        ("no_such_op", &[]),
    ] {
        let got: Vec<u8> = isa::legal_opcodes(bir).iter().collect();
        assert_eq!(got, opcodes, "{bir}");
    }
}

/// Pinned is derived from the formats table, never hand-written.
#[test]
fn pinned_is_derived_from_the_formats() {
    for r in ROWS {
        for t in Target::ALL {
            // Independent derivation: the row exists on t, some selectable case can emit there,
            // and every opcode those cases emit has a format whose family t has.
            let mut emitted: Vec<u8> = Vec::new();
            if r.min.admits(t) && r.lowered_by().is_none() {
                for c in r.cases.iter().filter(|c| c.possible_on(t)) {
                    emitted.extend_from_slice(c.seq.emitted());
                }
            }
            let expect = !emitted.is_empty()
                && emitted
                    .iter()
                    .all(|&o| formats::by_opcode(o).is_some_and(|f| t.model().has(f.family)));
            assert_eq!(r.pinned(t), expect, "{} on {t}", r.name);
            match r.unpinned(t) {
                None => assert!(expect),
                Some(why) => assert!(!why.is_empty(), "{} on {t}", r.name),
            }
        }
    }
    // The seed datamove rows are pinned wherever they exist.
    for n in [
        "stream_shuffle",
        "stream_transpose",
        "gather",
        "dropout",
        "indirect_copy",
        "dma_copy_indirect",
    ] {
        for t in Target::ALL {
            assert!(isa::row(n).is_some_and(|r| r.pinned(t)), "{n} on {t}");
        }
    }
    let rs = isa::row("range_select").expect("row");
    assert!(!rs.pinned(Sunda) && rs.pinned(Cayman));
    // Mariana: the seed's CoreV3-only RangeSelect (arch.rs has no family there).
    assert!(
        rs.unpinned(Mariana)
            .is_some_and(|w| w.contains("RangeSelect"))
    );
    // Rows that can never be pinned: no opcode, or rewritten before selection.
    for n in NAMES[42..54].iter().chain(&[
        "store_register",
        "device_print",
        "set_rng_seed",
        "register_alloc",
        "register_move",
    ]) {
        let r = isa::row(n).expect("row");
        assert!(!r.missing().is_empty(), "{n} says what is missing");
        for t in Target::ALL {
            assert!(!r.pinned(t), "{n}");
        }
    }
    for n in [
        "generic_load",
        "generic_indirect_load",
        "generic_indirect_save",
    ] {
        let r = isa::row(n).expect("row");
        assert!(r.lowered_by().is_some());
        assert!(r.unpinned(Sunda).is_some_and(|w| w.contains("lowered by")));
    }
}

/// Every opcode a row names either has a format or the row is unpinned with a reason on every
/// target it could emit it on.
#[test]
fn every_named_opcode_is_formatted_or_explained() {
    for r in ROWS {
        for c in r.cases {
            for &o in c.seq.named() {
                if formats::by_opcode(o).is_some() {
                    continue;
                }
                match c.seq {
                    Seq::Ops(_) | Seq::PerChunk(_) => {
                        for t in Target::ALL.into_iter().filter(|&t| c.possible_on(t)) {
                            let why = r.unpinned(t).unwrap_or_default();
                            assert!(!why.is_empty(), "{} {o:#04x} on {t}", r.name);
                        }
                    }
                    Seq::Missing { missing, .. } => assert!(!missing.is_empty()),
                    Seq::Lowered { pass, .. } => assert!(pass.starts_with("sundial-")),
                }
            }
        }
    }
}

#[test]
fn rows_carry_public_data() {
    for r in ROWS {
        assert!(!r.source.is_empty(), "{}", r.name);
        for c in r.cases {
            assert!(!c.source.is_empty(), "{}", r.name);
        }
        for e in r.engines {
            assert_eq!(Engine::from_name(e.name()), Some(*e));
        }
    }
    // The emit-signature defaults the brief asks to state (isa-table §1, nisa.rs).
    let default = |n| isa::row(n).map(|r| r.default);
    assert_eq!(
        default("tensor_scalar_arith"),
        Some(DefaultEngine::Emit(Vector))
    );
    assert_eq!(default("tensor_copy"), Some(DefaultEngine::Emit(Vector)));
    assert_eq!(default("memset"), Some(DefaultEngine::Emit(Vector)));
    assert_eq!(default("rand_get_state"), Some(DefaultEngine::Emit(GpSimd)));
    assert_eq!(
        default("tensor_tensor_arith"),
        Some(DefaultEngine::TensorTensorRule)
    );
    assert_eq!(default("store_register"), Some(DefaultEngine::Required));
}

#[test]
fn vocabulary_spellings() {
    // The NISA dialect's engine strings (dialects/src/enums.rs) and NKI codes.
    let engines = [
        ("vector", Vector, 5),
        ("gpsimd", GpSimd, 3),
        ("scalar", Scalar, 2),
        ("tensor", Tensor, 1),
        ("dma", Dma, 4),
        ("sync", Sync, 6),
    ];
    for (name, e, code) in engines {
        assert_eq!(e.name(), name);
        assert_eq!(Engine::from_name(name), Some(e));
        assert_eq!(e.nki_code(), code);
        assert_eq!(Engine::from_nki_code(code), Some(Some(e)));
    }
    assert_eq!(Engine::from_name("unknown"), None);
    assert_eq!(Engine::UNKNOWN_NAME, "unknown");
    assert_eq!(Engine::from_nki_code(0), Some(None));
    assert_eq!(Engine::from_nki_code(7), None);
    // The dialect's AluOp strings, in its (= BIR AluOpType) order.
    let alu = [
        "bypass",
        "bitwise_not",
        "arith_shift_left",
        "arith_shift_right",
        "add",
        "subtract",
        "mult",
        "divide",
        "max",
        "min",
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
        "logical_and",
        "logical_or",
        "logical_xor",
        "logical_shift_left",
        "logical_shift_right",
        "is_equal",
        "not_equal",
        "is_gt",
        "is_ge",
        "is_lt",
        "is_le",
        "average",
        "elemwise_mul",
        "pow",
        "mod",
        "rsqrt",
        "abs",
        "abs_max",
        "abs_min",
        "mod_int",
    ];
    assert_eq!(BirAluOp::ALL.len(), alu.len());
    for (op, name) in BirAluOp::ALL.into_iter().zip(alu) {
        assert_eq!(op.name(), name);
        assert_eq!(BirAluOp::from_name(name), Some(op));
    }
    assert_eq!(BirAluOp::from_name("multiply"), None);
    for (t, name) in [(Sunda, "sunda"), (Cayman, "cayman"), (Mariana, "mariana")] {
        assert_eq!(Target::from_name(name), Some(t));
    }
    assert_eq!(Target::from_name("maverick"), None);
}

/// The instruction model's op table (model::OPS) states each BIR-level instruction's default
/// engine and opcodes; it must agree with the ISA table until it is derived from it: where a
/// modelled op has the name of a NISA row, that row's default engine and opcodes; otherwise
/// (one BIR instruction serving several rows, e.g. `tensor_tensor` for the arith/bitvec/bf16
/// rows) every opcode is emitted by some row that allows the op's engine.
#[test]
fn model_op_table_agrees_with_the_isa_table() {
    // BIR-level instructions that no NISA row emits (they are produced by lowering).
    const BIR_ONLY: &[(&str, &str)] = &[
        (
            "indirect_save_accumulate",
            "BIR op 46: an accumulating generic_indirect_save lowers to it",
        ),
        ("pool", "BIR Pool 0x45: no NKI emit op produces it directly"),
        (
            "event_semaphore",
            "0xA0: the sync pass inserts it (a standalone wait), no emit op produces it",
        ),
        (
            "tensor_scalar_select",
            "0x98, the data-predicate select: decomposing NKI's select produces it (no emit row)",
        ),
        // Tensor dequantize and batch-norm back-prop (sb2sb_collective and dma_gather_transpose
        // need no entry: rows 55 send_recv and 59 emit their 0xbf / 0xf1).
        (
            "tensor_dequantize",
            "0x7B: no forward producer (isa-table §2); no BIR op for it in dialects/src/bir.rs",
        ),
        (
            "batch_norm_back_prop",
            "0x65: no NISA row emits it; no BIR op for it in dialects/src/bir.rs",
        ),
    ];
    for info in sundial_codegen::model::OPS.iter() {
        if BIR_ONLY.iter().any(|(n, _)| *n == info.name) {
            assert!(isa::row(info.name).is_none(), "{} gained a row", info.name);
            continue;
        }
        if let Some(r) = isa::row(info.name) {
            assert_eq!(r.default, DefaultEngine::Emit(info.engine), "{}", info.name);
            let legal: Vec<u8> = r
                .bir_ops()
                .iter()
                .flat_map(|b| isa::legal_opcodes(b).iter().collect::<Vec<_>>())
                .collect();
            for o in info.opcodes {
                assert!(legal.contains(o), "{} {o:#04x}", info.name);
            }
            continue;
        }
        for &o in info.opcodes {
            assert!(
                isa::ROWS
                    .iter()
                    .any(|r| r.opcodes().contains(o) && r.engines.contains(&info.engine)),
                "{}: no ISA row emits {o:#04x} on {:?}",
                info.name,
                info.engine
            );
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 512,
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// Any query on any row either selects (with an engine the row allows and a non-empty
    /// pattern) or fails with an error naming the op; nothing panics.
    #[test]
    fn select_is_total(
        row in 0usize..NAMES.len(),
        t in 0usize..3,
        engine in 0usize..7,
        dtypes in proptest::array::uniform3(0u8..21),
        alu in 0usize..34,
        flags in proptest::array::uniform7(proptest::bool::ANY),
        parts in proptest::option::of(0u32..200),
        elems in proptest::option::of(proptest::num::u64::ANY),
    ) {
        let r = &ROWS[row];
        let pick = |i: u8| BirDtype::from_u8(i);
        let query = SelectQuery {
            target: Target::ALL[t],
            engine: Engine::ALL.get(engine).copied(),
            dst: pick(dtypes[0]),
            src: [pick(dtypes[1]), pick(dtypes[2])],
            alu: BirAluOp::ALL.get(alu).copied(),
            psum: flags[0],
            accumulate: flags[1],
            transpose: flags[2],
            dst_partitions: parts,
            index_elements: elems,
            needs_rng_seed: flags[3],
            gpsimd_dma: flags[4],
            indirect: flags[5] || flags[6],
        };
        match select(r.name, &query) {
            Ok(s) => {
                proptest::prop_assert!(r.engines.contains(&s.engine));
                proptest::prop_assert!(!s.pattern.is_empty() && s.repeat >= 1);
                proptest::prop_assert!(r.bir_ops().contains(&s.bir));
                proptest::prop_assert_eq!(s.pinned, s.clone().require_pinned().is_ok());
            }
            Err(e) => proptest::prop_assert!(e.to_string().starts_with(r.name), "{}", e),
        }
    }
}

/// An opcode without a field table names the missing fact: the layout gaps the sources leave
/// (ACTIVATE, ACTIVATE2, the STT family) are stated once in `formats::LAYOUT_GAPS`, and every
/// listed opcode really has no table (a new format must remove its gap).
#[test]
fn unpinned_layouts_name_the_missing_fact() {
    use sundial_codegen::formats::{LAYOUT_GAPS, by_opcode, layout_gap};
    for (op, why) in LAYOUT_GAPS {
        assert!(
            by_opcode(op).is_none(),
            "{op:#04x} has a format: drop its gap"
        );
        assert!(
            ROWS.iter().any(|r| r.opcodes().contains(op)),
            "{op:#04x} is named by no ISA row"
        );
        assert_eq!(layout_gap(op), why);
    }
    assert_eq!(layout_gap(0xf2), "no source gives its byte layout");
    // Mariana's activation is ACTIVATE2 0x25 (no slot offsets); elsewhere ACTIVATE 0x21, which
    // has a field table (four offsets assumed).
    let sel = select("activation", &q(Target::Mariana)).expect("the opcode is known");
    match sel.require_pinned() {
        Err(SelectError::Unpinned { op, missing }) => {
            assert_eq!(op, "activation");
            assert!(
                missing.starts_with("no field table for opcode 0x25: ACTIVATE2: no source gives"),
                "{missing}"
            );
        }
        other => panic!("{other:?}"),
    }
    let sel = select("activation", &q(Target::Cayman)).expect("the opcode is known");
    assert_eq!(sel.pattern, [0x21]);
    assert!(sel.require_pinned().is_ok());
}

/// The encoder's engine gate reads the ISA table: every op of the instruction model with a row
/// ([`sundial_codegen::model::OpKind::isa_row`]) runs on exactly the row's engines, and the
/// op table's engine (what `Instruction::new` picks) is the row's emit default.
#[test]
fn the_encoders_engine_gate_is_the_isa_rows() {
    use sundial_codegen::model::OPS;
    let mut with_row = 0;
    for info in &OPS {
        let Some(row) = info.kind.isa_row() else {
            // No row: the op table's one engine.
            for e in Engine::ALL {
                assert_eq!(info.kind.runs_on(e), e == info.engine, "{}", info.name);
            }
            continue;
        };
        with_row += 1;
        for e in Engine::ALL {
            assert_eq!(
                info.kind.runs_on(e),
                row.engines.contains(&e),
                "{} on {e:?}",
                info.name
            );
        }
        match row.default {
            DefaultEngine::Emit(e) => assert_eq!(e, info.engine, "{}", info.name),
            // TensorTensor: the int32 GpSimd rule, else the emit default Vector.
            DefaultEngine::TensorTensorRule => assert_eq!(info.engine, Vector, "{}", info.name),
            d => panic!("{}: row default {d:?}", info.name),
        }
    }
    assert_eq!(with_row, 26);
}

/// The PRNG rows carry their engines and floors (NKI docs, nki-semantics; the dialect verifier
/// reads them from here): rand2 and set_rng_seed never run on GpSimd, rand2 needs v4; rng on
/// GpSimd needs v3; the state transfers need v3, and v4 on Vector. Written by hand.
#[test]
fn prng_rows_carry_their_engines_and_per_engine_floors() {
    use sundial_codegen::isa::MinTarget;
    for op in ["rand2", "set_rng_seed"] {
        let r = isa::row(op).unwrap();
        assert_eq!(r.engines, &[Vector], "{op}");
        assert!(matches!(
            expect_err(op, q(Mariana).on_engine(GpSimd)),
            SelectError::IllegalEngine {
                engine: Some(GpSimd),
                ..
            }
        ));
    }
    let floor = |op: &str, e| isa::row(op).unwrap().min_on(e);
    assert_eq!(floor("rand2", Vector), MinTarget::From(Mariana));
    assert_eq!(floor("rng", Vector), MinTarget::Any);
    assert_eq!(floor("rng", GpSimd), MinTarget::From(Cayman));
    for op in ["rand_get_state", "rand_set_state"] {
        assert_eq!(floor(op, GpSimd), MinTarget::From(Cayman), "{op}");
        assert_eq!(floor(op, Vector), MinTarget::From(Mariana), "{op}");
    }
    // select applies the per-engine floor: rng on GpSimd is refused on sunda only.
    assert!(matches!(
        expect_err("rng", q(Sunda).on_engine(GpSimd)),
        SelectError::NotOnTarget { min: Cayman, .. }
    ));
    expect_ok("rng", q(Cayman).on_engine(GpSimd), &[0x4d], GpSimd, "rng");
    assert!(matches!(
        expect_err("rand_get_state", q(Cayman).on_engine(Vector)),
        SelectError::NotOnTarget { min: Mariana, .. }
    ));
    expect_ok(
        "rand_get_state",
        q(Mariana).on_engine(Vector),
        &[0x77],
        Vector,
        "rand_state",
    );
    assert!(matches!(
        expect_err("rand2", q(Cayman)),
        SelectError::NotOnTarget { min: Mariana, .. }
    ));
    assert!(matches!(
        expect_err("rand_set_state", q(Sunda)),
        SelectError::NotOnTarget { min: Cayman, .. }
    ));
}
