//! Collectives over a `RankGroup`: each collective on hand-written per-rank data, the
//! replica-group and operand rules, and the refused op.

use sundial_emu::{
    AllToAllV, BirAluOp, DType, EmuError, RankGroup, Target, View, all_gather, all_reduce,
    all_to_all, all_to_all_v, check_op, collective_permute, collective_permute_implicit,
    collective_permute_implicit_reduce, current_processing_rank_id, rank_id, rank_id_store,
    reduce_scatter, refusal, send_recv,
};

/// A group of `n` ranks with `name` holding `f(rank)` (f32 values) on every rank.
fn group_with(
    n: usize,
    name: &str,
    shape: &[usize],
    f: impl Fn(usize) -> Vec<f32>,
) -> (RankGroup, View) {
    let mut g = RankGroup::new(Target::Cayman, n).unwrap();
    let v = g.alloc_hbm(name, DType::F32, shape).unwrap();
    for r in 0..n {
        g.rank_mut(r).unwrap().write_f32(&v, &f(r)).unwrap();
    }
    (g, v)
}

fn all(n: usize) -> Vec<Vec<usize>> {
    vec![(0..n).collect()]
}

#[test]
fn all_reduce_adds_mins_and_maxes_within_each_rank_list() {
    let (mut g, src) = group_with(4, "x", &[2], |r| vec![r as f32, 10.0 - r as f32]);
    let dst = g.alloc_hbm("y", DType::F32, &[2]).unwrap();
    all_reduce(&mut g, &[&dst], &[&src], &all(4), BirAluOp::Add).unwrap();
    for r in 0..4 {
        // 0+1+2+3 and 10+9+8+7.
        assert_eq!(g.rank(r).unwrap().read_f32(&dst).unwrap(), vec![6.0, 34.0]);
    }
    // Two lists: {0, 2} and {1, 3}; in place.
    all_reduce(
        &mut g,
        &[&src],
        &[&src],
        &[vec![0, 2], vec![1, 3]],
        BirAluOp::Max,
    )
    .unwrap();
    assert_eq!(g.rank(0).unwrap().read_f32(&src).unwrap(), vec![2.0, 10.0]);
    assert_eq!(g.rank(3).unwrap().read_f32(&src).unwrap(), vec![3.0, 9.0]);
    all_reduce(&mut g, &[&dst], &[&src], &[vec![0, 1, 2, 3]], BirAluOp::Min).unwrap();
    assert_eq!(g.rank(1).unwrap().read_f32(&dst).unwrap(), vec![2.0, 9.0]);
}

#[test]
fn integer_reductions_are_exact_and_wrap() {
    let mut g = RankGroup::new(Target::Cayman, 2).unwrap();
    let v = g.alloc_hbm("i", DType::I8, &[2]).unwrap();
    g.rank_mut(0).unwrap().write_i64(&v, &[100, -128]).unwrap();
    g.rank_mut(1).unwrap().write_i64(&v, &[100, -1]).unwrap();
    let out = g.alloc_hbm("o", DType::I8, &[2]).unwrap();
    all_reduce(&mut g, &[&out], &[&v], &all(2), BirAluOp::Add).unwrap();
    // 200 wraps to -56; -129 wraps to 127.
    assert_eq!(g.rank(0).unwrap().read_i64(&out).unwrap(), vec![-56, 127]);
}

#[test]
fn all_gather_and_reduce_scatter_chunk_along_dimension_0() {
    let (mut g, src) = group_with(3, "x", &[1, 2], |r| vec![r as f32, -(r as f32)]);
    let dst = g.alloc_hbm("y", DType::F32, &[3, 2]).unwrap();
    all_gather(&mut g, &[&dst], &[&src], &all(3), 0).unwrap();
    for r in 0..3 {
        assert_eq!(
            g.rank(r).unwrap().read_f32(&dst).unwrap(),
            vec![0.0, 0.0, 1.0, -1.0, 2.0, -2.0]
        );
    }
    // reduce_scatter: rank r's [3, 2] holds 10r + row; member j gets the sum of row j.
    let (mut g, src) = group_with(3, "x", &[3, 2], |r| {
        (0..6).map(|i| (10 * r + i / 2) as f32).collect()
    });
    let dst = g.alloc_hbm("y", DType::F32, &[1, 2]).unwrap();
    reduce_scatter(&mut g, &[&dst], &[&src], &all(3), 0, BirAluOp::Add).unwrap();
    for j in 0..3 {
        // (0 + 10 + 20) + 3j.
        let want = (30 + 3 * j) as f32;
        assert_eq!(g.rank(j).unwrap().read_f32(&dst).unwrap(), vec![want, want]);
    }
}

#[test]
fn sbuf_all_gather_may_concatenate_along_the_free_dimension() {
    let mut g = RankGroup::new(Target::Cayman, 2).unwrap();
    let src = g.alloc_sbuf_named("s", DType::F32, &[2, 1]).unwrap();
    for r in 0..2 {
        g.rank_mut(r)
            .unwrap()
            .write_f32(&src, &[r as f32, 10.0 + r as f32])
            .unwrap();
    }
    let dst = g.alloc_sbuf_named("d", DType::F32, &[2, 2]).unwrap();
    all_gather(&mut g, &[&dst], &[&src], &all(2), 1).unwrap();
    assert_eq!(
        g.rank(1).unwrap().read_f32(&dst).unwrap(),
        vec![0.0, 1.0, 10.0, 11.0]
    );
}

#[test]
fn all_to_all_transposes_chunks_between_members() {
    let (mut g, src) = group_with(2, "x", &[2, 1], |r| {
        vec![10.0 * r as f32, 10.0 * r as f32 + 1.0]
    });
    let dst = g.alloc_hbm("y", DType::F32, &[2, 1]).unwrap();
    all_to_all(&mut g, &[&dst], &[&src], &all(2), 0).unwrap();
    // Member j's chunk i = member i's chunk j.
    assert_eq!(g.rank(0).unwrap().read_f32(&dst).unwrap(), vec![0.0, 10.0]);
    assert_eq!(g.rank(1).unwrap().read_f32(&dst).unwrap(), vec![1.0, 11.0]);
}

#[test]
fn all_to_all_v_moves_variable_chunks_and_reports_received_counts() {
    let (mut g, src) = group_with(2, "x", &[4], |r| {
        (0..4).map(|i| (10 * r + i) as f32).collect()
    });
    let dst = g.alloc_hbm("y", DType::F32, &[6]).unwrap();
    let meta = g.alloc_hbm("meta", DType::U32, &[3, 2]).unwrap();
    for r in 0..2 {
        g.rank_mut(r).unwrap().write_f32(&dst, &[-1.0; 6]).unwrap();
    }
    // Rank 0 sends 1 element (from 0) to itself and 3 (from 1) to rank 1.
    // Rank 1 sends 2 (from 2) to rank 0 and 0 to itself. Row 2 starts as 99 (never read).
    g.rank_mut(0)
        .unwrap()
        .write_i64(&meta, &[1, 3, 0, 1, 99, 99])
        .unwrap();
    g.rank_mut(1)
        .unwrap()
        .write_i64(&meta, &[2, 0, 2, 0, 99, 99])
        .unwrap();
    all_to_all_v(&mut g, &dst, &src, &meta, &all(2), AllToAllV::default()).unwrap();
    // Without rdispls, the chunk from position i lands at i * (6 / 2).
    assert_eq!(
        g.rank(0).unwrap().read_f32(&dst).unwrap(),
        vec![0.0, -1.0, -1.0, 12.0, 13.0, -1.0]
    );
    assert_eq!(
        g.rank(1).unwrap().read_f32(&dst).unwrap(),
        vec![1.0, 2.0, 3.0, -1.0, -1.0, -1.0]
    );
    // Row 2 now holds the received counts.
    assert_eq!(g.rank(0).unwrap().read_i64(&meta).unwrap()[4..], [1, 2]);
    assert_eq!(g.rank(1).unwrap().read_i64(&meta).unwrap()[4..], [3, 0]);
    // With receive displacements and known counts: row 2 untouched.
    let meta4 = g.alloc_hbm("meta4", DType::U32, &[4, 2]).unwrap();
    g.rank_mut(0)
        .unwrap()
        .write_i64(&meta4, &[1, 0, 0, 0, 7, 7, 5, 0])
        .unwrap();
    g.rank_mut(1)
        .unwrap()
        .write_i64(&meta4, &[0, 0, 0, 0, 7, 7, 0, 0])
        .unwrap();
    let opts = AllToAllV {
        recv_counts_known: true,
        has_rdispls: true,
    };
    all_to_all_v(&mut g, &dst, &src, &meta4, &all(2), opts).unwrap();
    assert_eq!(g.rank(0).unwrap().read_f32(&dst).unwrap()[5], 0.0);
    assert_eq!(g.rank(0).unwrap().read_i64(&meta4).unwrap()[4..6], [7, 7]);
    // Overlapping receives and out-of-range chunks are refused.
    g.rank_mut(0)
        .unwrap()
        .write_i64(&meta4, &[2, 0, 0, 0, 7, 7, 0, 0])
        .unwrap();
    g.rank_mut(1)
        .unwrap()
        .write_i64(&meta4, &[2, 0, 0, 0, 7, 7, 1, 0])
        .unwrap();
    assert!(matches!(
        all_to_all_v(&mut g, &dst, &src, &meta4, &all(2), opts),
        Err(EmuError::Unsupported { .. })
    ));
    g.rank_mut(0)
        .unwrap()
        .write_i64(&meta4, &[5, 0, 0, 0, 7, 7, 0, 0])
        .unwrap();
    assert!(matches!(
        all_to_all_v(&mut g, &dst, &src, &meta4, &all(2), opts),
        Err(EmuError::Shape { .. })
    ));
    let bad_meta = g.alloc_hbm("bad", DType::U32, &[3, 3]).unwrap();
    assert!(matches!(
        all_to_all_v(&mut g, &dst, &src, &bad_meta, &all(2), AllToAllV::default()),
        Err(EmuError::Shape { .. })
    ));
}

#[test]
fn explicit_and_ring_permutes() {
    let (mut g, src) = group_with(3, "x", &[1], |r| vec![r as f32]);
    let dst = g.alloc_hbm("y", DType::F32, &[1]).unwrap();
    for r in 0..3 {
        g.rank_mut(r).unwrap().write_f32(&dst, &[-1.0]).unwrap();
    }
    collective_permute(&mut g, &dst, &src, &[(0, 2), (2, 0)]).unwrap();
    let got: Vec<f32> = (0..3)
        .map(|r| g.rank(r).unwrap().read_f32(&dst).unwrap()[0])
        .collect();
    assert_eq!(got, vec![2.0, -1.0, 0.0]);
    assert!(matches!(
        collective_permute(&mut g, &dst, &src, &[(0, 1), (2, 1)]),
        Err(EmuError::Collective { .. })
    ));
    // Ring over [0, 1, 2]: everyone receives its predecessor's value.
    collective_permute_implicit(&mut g, &[&dst], &[&src], &all(3), &[0]).unwrap();
    let got: Vec<f32> = (0..3)
        .map(|r| g.rank(r).unwrap().read_f32(&dst).unwrap()[0])
        .collect();
    assert_eq!(got, vec![2.0, 0.0, 1.0]);
    // Reduce variant: predecessor's src0 + src1 (= 2 * its rank).
    collective_permute_implicit_reduce(
        &mut g,
        &[&dst],
        &[&src],
        &[&src],
        &all(3),
        BirAluOp::Add,
        &[0],
    )
    .unwrap();
    let got: Vec<f32> = (0..3)
        .map(|r| g.rank(r).unwrap().read_f32(&dst).unwrap()[0])
        .collect();
    assert_eq!(got, vec![4.0, 0.0, 2.0]);
    // Channel ids must be 0, 1, .. and match the tensors.
    assert!(matches!(
        collective_permute_implicit(&mut g, &[&dst], &[&src], &all(3), &[1]),
        Err(EmuError::Collective { .. })
    ));
}

#[test]
fn processing_rank_ids_walk_back_along_the_ring() {
    let groups = vec![vec![3, 1, 2], vec![0]];
    // Rank 1 is at position 1 of [3, 1, 2].
    let ids: Vec<i64> = (0..4)
        .map(|k| current_processing_rank_id(4, &groups, 1, k, 0, 1).unwrap())
        .collect();
    assert_eq!(ids, vec![1, 3, 2, 1]);
    assert_eq!(
        current_processing_rank_id(4, &groups, 0, 5, 0, 1).unwrap(),
        0
    );
    assert!(current_processing_rank_id(4, &groups, 1, 0, 1, 1).is_err());
    assert!(current_processing_rank_id(5, &[vec![0, 1]], 4, 0, 0, 1).is_err());
}

#[test]
fn rank_ids_and_rank_id_store() {
    let mut g = RankGroup::new(Target::Cayman, 3).unwrap();
    assert_eq!(rank_id(&g, 2).unwrap(), 2);
    assert!(rank_id(&g, 3).is_err());
    let t = g.alloc_sbuf_named("r", DType::I32, &[1, 1]).unwrap();
    rank_id_store(&mut g, &t).unwrap();
    for r in 0..3 {
        assert_eq!(g.rank(r).unwrap().read_i64(&t).unwrap(), vec![r as i64]);
    }
    let h = g.alloc_hbm("h", DType::I32, &[1, 1]).unwrap();
    assert!(matches!(
        rank_id_store(&mut g, &h),
        Err(EmuError::Memory { .. })
    ));
}

#[test]
fn send_recv_swaps_between_the_two_cores() {
    let mut g = RankGroup::new(Target::Cayman, 2).unwrap();
    let src = g.alloc_sbuf_named("s", DType::Bf16, &[2, 2]).unwrap();
    let dst = g.alloc_sbuf_named("d", DType::Bf16, &[2, 2]).unwrap();
    g.rank_mut(0)
        .unwrap()
        .write_f32(&src, &[1.0, 2.0, 3.0, 4.0])
        .unwrap();
    g.rank_mut(1)
        .unwrap()
        .write_f32(&src, &[5.0, 6.0, 7.0, 8.0])
        .unwrap();
    send_recv(&mut g, &dst, &src, &[(1, 1), (0, 0)], false).unwrap();
    assert_eq!(
        g.rank(0).unwrap().read_f32(&dst).unwrap(),
        vec![5.0, 6.0, 7.0, 8.0]
    );
    assert_eq!(
        g.rank(1).unwrap().read_f32(&dst).unwrap(),
        vec![1.0, 2.0, 3.0, 4.0]
    );
    // Pairs that disagree, a rank outside the pair, the GpSimd DMA's size limit.
    assert!(matches!(
        send_recv(&mut g, &dst, &src, &[(1, 0), (0, 0)], false),
        Err(EmuError::Collective { .. })
    ));
    assert!(matches!(
        send_recv(&mut g, &dst, &src, &[(2, 1), (0, 0)], false),
        Err(EmuError::Collective { .. })
    ));
    let wide = g.alloc_sbuf_named("w", DType::Bf16, &[1, 257]).unwrap();
    let wide_d = g.alloc_sbuf_named("wd", DType::Bf16, &[1, 257]).unwrap();
    assert!(matches!(
        send_recv(&mut g, &wide_d, &wide, &[(1, 1), (0, 0)], true),
        Err(EmuError::Shape { .. })
    ));
    let mut three = RankGroup::new(Target::Cayman, 3).unwrap();
    let s3 = three.alloc_sbuf_named("s", DType::Bf16, &[1, 1]).unwrap();
    assert!(matches!(
        send_recv(&mut three, &s3, &s3, &[(1, 1), (0, 0), (0, 0)], false),
        Err(EmuError::Collective { .. })
    ));
    let mut v2 = RankGroup::new(Target::Sunda, 2).unwrap();
    let s2 = v2.alloc_sbuf_named("s", DType::Bf16, &[1, 1]).unwrap();
    assert!(matches!(
        send_recv(&mut v2, &s2, &s2, &[(1, 1), (0, 0)], false),
        Err(EmuError::Unsupported { .. })
    ));
}

#[test]
fn collective_rules_are_checked_before_anything_is_written() {
    let (mut g, src) = group_with(4, "x", &[4], |r| vec![r as f32; 4]);
    let dst = g.alloc_hbm("y", DType::F32, &[4]).unwrap();
    for r in 0..4 {
        g.rank_mut(r).unwrap().write_f32(&dst, &[-1.0; 4]).unwrap();
    }
    let add = BirAluOp::Add;
    // Overlapping lists, a rank out of range, an empty list.
    for groups in [
        vec![vec![0, 1], vec![1, 2]],
        vec![vec![0, 4]],
        vec![vec![]],
        vec![],
    ] {
        assert!(
            matches!(
                all_reduce(&mut g, &[&dst], &[&src], &groups, add),
                Err(EmuError::Collective { .. })
            ),
            "{groups:?}"
        );
    }
    // A reduction other than add/min/max.
    assert!(matches!(
        all_reduce(&mut g, &[&dst], &[&src], &all(4), BirAluOp::Mult),
        Err(EmuError::Unsupported { .. })
    ));
    // Dtype mismatch; length mismatch.
    let h16 = g.alloc_hbm("h16", DType::F16, &[4]).unwrap();
    assert!(matches!(
        all_reduce(&mut g, &[&h16], &[&src], &all(4), add),
        Err(EmuError::DType { .. })
    ));
    let three = g.alloc_hbm("three", DType::F32, &[3]).unwrap();
    assert!(matches!(
        all_reduce(&mut g, &[&three], &[&src], &all(4), add),
        Err(EmuError::Shape { .. })
    ));
    // Gather into the wrong shape; reduce_scatter along 1.
    assert!(matches!(
        all_gather(&mut g, &[&dst], &[&src], &all(4), 0),
        Err(EmuError::Shape { .. })
    ));
    assert!(matches!(
        reduce_scatter(&mut g, &[&dst], &[&src], &all(4), 1, add),
        Err(EmuError::Unsupported { .. })
    ));
    // Mixed spaces; coalesced SBUF; all_to_all in SBUF.
    let sb = g.alloc_sbuf_named("sb", DType::F32, &[1, 4]).unwrap();
    let sb2 = g.alloc_sbuf_named("sb2", DType::F32, &[1, 4]).unwrap();
    assert!(matches!(
        all_reduce(&mut g, &[&sb], &[&src], &all(4), add),
        Err(EmuError::Memory { .. })
    ));
    assert!(matches!(
        all_reduce(&mut g, &[&sb, &sb2], &[&sb, &sb2], &all(4), add),
        Err(EmuError::Unsupported { .. })
    ));
    assert!(matches!(
        all_to_all(&mut g, &[&sb], &[&sb2], &all(4), 0),
        Err(EmuError::Memory { .. })
    ));
    // A tensor that is not the same allocation on every rank.
    let only0 = g
        .rank_mut(0)
        .unwrap()
        .alloc_hbm("only0", DType::F32, &[4])
        .unwrap();
    assert!(matches!(
        all_reduce(&mut g, &[&dst], &[&only0], &all(4), add),
        Err(EmuError::Collective { .. })
    ));
    // Once ranks have diverged, a group allocation is refused.
    assert!(matches!(
        g.alloc_hbm("z", DType::F32, &[1]),
        Err(EmuError::Collective { .. })
    ));
    // Nothing above wrote the destination.
    for r in 0..4 {
        assert_eq!(g.rank(r).unwrap().read_f32(&dst).unwrap(), vec![-1.0; 4]);
    }
    assert!(RankGroup::new(Target::Cayman, 0).is_err());
}

#[test]
fn min_max_of_nan_is_refused_but_add_propagates_it() {
    let (mut g, src) = group_with(2, "x", &[1], |r| vec![if r == 0 { f32::NAN } else { 1.0 }]);
    let dst = g.alloc_hbm("y", DType::F32, &[1]).unwrap();
    assert!(matches!(
        all_reduce(&mut g, &[&dst], &[&src], &all(2), BirAluOp::Max),
        Err(EmuError::Unsupported { .. })
    ));
    all_reduce(&mut g, &[&dst], &[&src], &all(2), BirAluOp::Add).unwrap();
    assert!(g.rank(1).unwrap().read_f32(&dst).unwrap()[0].is_nan());
}

#[test]
fn min_max_of_nan_is_refused_for_a_nan_in_any_position_even_alone() {
    // NaN in the last position, and a NaN on a single-member list (no combining at all):
    // both refused, nothing written.
    let (mut g, src) = group_with(3, "x", &[1], |r| vec![if r == 2 { f32::NAN } else { 1.0 }]);
    let dst = g.alloc_hbm("y", DType::F32, &[1]).unwrap();
    for r in 0..3 {
        g.rank_mut(r).unwrap().write_f32(&dst, &[7.0]).unwrap();
    }
    for groups in [all(3), vec![vec![2]]] {
        assert!(matches!(
            all_reduce(&mut g, &[&dst], &[&src], &groups, BirAluOp::Min),
            Err(EmuError::Unsupported { .. })
        ));
    }
    for r in 0..3 {
        assert_eq!(g.rank(r).unwrap().read_f32(&dst).unwrap(), vec![7.0]);
    }
}

#[test]
fn min_max_of_signed_zeros_keeps_the_earlier_position() {
    // +0 and -0 compare equal; the ALU table's rule (our choice, pinned in alu.rs) keeps
    // the left operand, and a collective folds in position order, so the first member's
    // zero wins. Bits: +0 = 0x0000_0000, -0 = 0x8000_0000.
    let (mut g, src) = group_with(2, "x", &[2], |r| {
        if r == 0 {
            vec![0.0, -0.0]
        } else {
            vec![-0.0, 0.0]
        }
    });
    let dst = g.alloc_hbm("y", DType::F32, &[2]).unwrap();
    for op in [BirAluOp::Min, BirAluOp::Max] {
        all_reduce(&mut g, &[&dst], &[&src], &all(2), op).unwrap();
        assert_eq!(
            g.rank(1).unwrap().read_bits(&dst).unwrap(),
            vec![0x0000_0000, 0x8000_0000],
            "{}",
            op.name()
        );
        // Reversing the list reverses the winner.
        all_reduce(&mut g, &[&dst], &[&src], &[vec![1, 0]], op).unwrap();
        assert_eq!(
            g.rank(0).unwrap().read_bits(&dst).unwrap(),
            vec![0x8000_0000, 0x0000_0000],
            "{} reversed",
            op.name()
        );
    }
}

#[test]
fn integer_min_max_compare_values_not_bits() {
    // uint64 above i64::MAX and int8 negatives: min/max order by value.
    let mut g = RankGroup::new(Target::Cayman, 2).unwrap();
    let u = g.alloc_hbm("u", DType::U64, &[1]).unwrap();
    let i = g.alloc_hbm("i", DType::I8, &[1]).unwrap();
    g.rank_mut(0).unwrap().write_bits(&u, &[u64::MAX]).unwrap();
    g.rank_mut(1).unwrap().write_bits(&u, &[1]).unwrap();
    g.rank_mut(0).unwrap().write_i64(&i, &[-100]).unwrap();
    g.rank_mut(1).unwrap().write_i64(&i, &[5]).unwrap();
    let uo = g.alloc_hbm("uo", DType::U64, &[1]).unwrap();
    let io = g.alloc_hbm("io", DType::I8, &[1]).unwrap();
    all_reduce(&mut g, &[&uo], &[&u], &all(2), BirAluOp::Max).unwrap();
    assert_eq!(g.rank(0).unwrap().read_bits(&uo).unwrap(), vec![u64::MAX]);
    all_reduce(&mut g, &[&uo], &[&u], &all(2), BirAluOp::Min).unwrap();
    assert_eq!(g.rank(0).unwrap().read_bits(&uo).unwrap(), vec![1]);
    all_reduce(&mut g, &[&io], &[&i], &all(2), BirAluOp::Max).unwrap();
    assert_eq!(g.rank(1).unwrap().read_i64(&io).unwrap(), vec![5]);
    all_reduce(&mut g, &[&io], &[&i], &all(2), BirAluOp::Min).unwrap();
    assert_eq!(g.rank(1).unwrap().read_i64(&io).unwrap(), vec![-100]);
    // uint64 add wraps at 64 bits: (2^64 - 1) + 1 = 0.
    all_reduce(&mut g, &[&uo], &[&u], &all(2), BirAluOp::Add).unwrap();
    assert_eq!(g.rank(0).unwrap().read_bits(&uo).unwrap(), vec![0]);
}

#[test]
fn the_refused_op_is_refused_by_name() {
    let e = check_op("collective_permute_reduce").unwrap_err();
    assert!(matches!(
        e,
        EmuError::NoPublicSemantics {
            op: "collective_permute_reduce",
            ..
        }
    ));
    assert!(e.to_string().contains("no public API"));
    assert!(refusal("all_reduce").is_none());
    assert!(check_op("all_reduce").is_ok());
}

#[test]
fn the_uninitialised_read_check_covers_every_rank() {
    let mut g = RankGroup::new(Target::Cayman, 2).unwrap();
    g.set_check_uninit(true).unwrap();
    let src = g.alloc_hbm("x", DType::F32, &[2]).unwrap();
    let dst = g.alloc_hbm("y", DType::F32, &[2]).unwrap();
    g.rank_mut(0).unwrap().write_f32(&src, &[1.0, 2.0]).unwrap();
    let e = all_reduce(&mut g, &[&dst], &[&src], &all(2), BirAluOp::Add).unwrap_err();
    assert!(
        matches!(&e, EmuError::Uninitialised { op: "all_reduce", tile, .. } if tile == "x"),
        "{e}"
    );
    g.rank_mut(1).unwrap().write_f32(&src, &[3.0, 4.0]).unwrap();
    all_reduce(&mut g, &[&dst], &[&src], &all(2), BirAluOp::Add).unwrap();
    assert_eq!(g.rank(1).unwrap().read_f32(&dst).unwrap(), vec![4.0, 6.0]);
}
