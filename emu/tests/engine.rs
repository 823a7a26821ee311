//! Exact small cases for every rule of the indirect access engine
//! (indirect-emulation.md rules 1-6), each run on the general path, the blocked path
//! and the gate's choice (which must agree bit for bit, errors included) and checked
//! against hand-computed NumPy-style expectations and the independent reference.

mod common;

use common::*;
use sundial_emu::{
    Access, Affine, DType, EmuError, Memory, OobMode, Path, PathChoice, Plan, Subscript, Target,
    VarSpace, View,
};

/// An i32 HBM tensor whose element `i` holds `i` (so a value names its flat position).
fn iota(mem: &mut Memory, name: &str, shape: &[usize]) -> View {
    let v = mem.alloc_hbm(name, DType::I32, shape).unwrap();
    let n = v.num_elements() as i64;
    mem.write_i64(&v, &(0..n).collect::<Vec<_>>()).unwrap();
    v
}

fn index(mem: &mut Memory, name: &str, shape: &[usize], vals: &[i64]) -> View {
    let v = mem.alloc_hbm(name, DType::I32, shape).unwrap();
    mem.write_i64(&v, vals).unwrap();
    v
}

fn access(
    source: &View,
    index_views: Vec<View>,
    subscripts: Vec<Subscript>,
    lower: Vec<i64>,
    upper: Vec<i64>,
) -> Access {
    Access {
        source: source.clone(),
        index_views,
        subscripts,
        space: VarSpace::new(lower, upper),
        order: None,
    }
}

fn load(mem: &mut Memory, acc: &Access, oob: OobMode) -> Result<Vec<i64>, EmuError> {
    let got = load_all_paths(mem, acc, oob);
    let want = reference_load(mem, acc, oob);
    match (&got, &want) {
        (Ok(g), Ok(w)) => assert_eq!(g, w, "engine and reference disagree"),
        (Err(e), Err(w)) => assert!(w.matches(e), "engine error {e:?}, reference {w:?}"),
        _ => panic!("engine {got:?} vs reference {want:?}"),
    }
    got.map(|b| i32s(&b))
}

// ---------------------------------------------------------------- shared index views

#[test]
fn shared_view_shifted_window() {
    // out[e, n] = A[B[e], B[e+1], n]
    let mut m = Memory::new(Target::Cayman);
    let a = iota(&mut m, "A", &[5, 5, 3]);
    let b = index(&mut m, "B", &[4], &[3, 0, 4, 1]);
    let acc = access(
        &a,
        vec![b],
        vec![
            Subscript::indirect(0, vec![Affine::var(0)]),
            Subscript::indirect(0, vec![Affine::var(0).plus_const(1)]),
            Subscript::var(1),
        ],
        vec![0, 0],
        vec![3, 3],
    );
    let want: Vec<i64> = [(3, 0), (0, 4), (4, 1)]
        .iter()
        .flat_map(|&(i, j)| (0..3).map(move |n| (i * 5 + j) * 3 + n))
        .collect();
    assert_eq!(load(&mut m, &acc, OobMode::Error).unwrap(), want);
}

#[test]
fn shared_view_coordinate_table() {
    // out[i, n] = A[B[i, 0], B[i, 1], B[i, 2], n]
    let mut m = Memory::new(Target::Cayman);
    let a = iota(&mut m, "A", &[3, 4, 5, 2]);
    let b = index(&mut m, "B", &[2, 3], &[1, 2, 3, 2, 0, 4]);
    let col = |c: i64| Subscript::indirect(0, vec![Affine::var(0), Affine::constant(c)]);
    let acc = access(
        &a,
        vec![b],
        vec![col(0), col(1), col(2), Subscript::var(1)],
        vec![0, 0],
        vec![2, 2],
    );
    let flat = |i: i64, j: i64, k: i64| ((i * 4 + j) * 5 + k) * 2;
    let want = vec![
        flat(1, 2, 3),
        flat(1, 2, 3) + 1,
        flat(2, 0, 4),
        flat(2, 0, 4) + 1,
    ];
    assert_eq!(load(&mut m, &acc, OobMode::Error).unwrap(), want);
}

#[test]
fn shared_view_diagonal() {
    // out[e, m, n] = A[B[e], B[e], m, n]
    let mut m = Memory::new(Target::Cayman);
    let a = iota(&mut m, "A", &[4, 4, 2, 2]);
    let b = index(&mut m, "B", &[2], &[3, 1]);
    let acc = access(
        &a,
        vec![b],
        vec![
            Subscript::indirect(0, vec![Affine::var(0)]),
            Subscript::indirect(0, vec![Affine::var(0)]),
            Subscript::var(1),
            Subscript::var(2),
        ],
        vec![0, 0, 0],
        vec![2, 2, 2],
    );
    let want: Vec<i64> = [3i64, 1]
        .iter()
        .flat_map(|&i| (0..4).map(move |k| (i * 4 + i) * 4 + k))
        .collect();
    assert_eq!(load(&mut m, &acc, OobMode::Error).unwrap(), want);
}

// ---------------------------------------------------------------- bounds and spaces

#[test]
fn non_zero_lower_bounds() {
    // out[e, m] = X[IDX[e], m] for e in 2..5, m in 1..3
    let mut m = Memory::new(Target::Cayman);
    let x = iota(&mut m, "X", &[6, 4]);
    let idx = index(&mut m, "IDX", &[6], &[0, 1, 5, 3, 2, 4]);
    let acc = access(
        &x,
        vec![idx.clone()],
        vec![
            Subscript::indirect(0, vec![Affine::var(0)]),
            Subscript::var(1),
        ],
        vec![2, 1],
        vec![5, 3],
    );
    assert_eq!(
        load(&mut m, &acc, OobMode::Error).unwrap(),
        vec![21, 22, 13, 14, 9, 10]
    );
    // Negative lower bounds with affine offsets: X[IDX[e + 2], m - 1], e in -2..1, m in 1..4.
    let acc2 = access(
        &x,
        vec![idx],
        vec![
            Subscript::indirect(0, vec![Affine::var(0).plus_const(2)]),
            Subscript::affine(Affine::var(1).plus_const(-1)),
        ],
        vec![-2, 1],
        vec![1, 4],
    );
    assert_eq!(
        load(&mut m, &acc2, OobMode::Error).unwrap(),
        vec![0, 1, 2, 4, 5, 6, 20, 21, 22]
    );
}

#[test]
fn empty_spaces_read_nothing_and_never_fail() {
    let mut m = Memory::new(Target::Cayman);
    let x = iota(&mut m, "X", &[3, 2]);
    // Every index is out of bounds, but no point exists, so no index is read.
    let idx = index(&mut m, "IDX", &[3], &[7, -1, 99]);
    for (lower, upper) in [
        (vec![1, 0], vec![1, 2]),
        (vec![0, 0], vec![3, 0]),
        (vec![0, 5], vec![3, 5]),
    ] {
        let acc = access(
            &x,
            vec![idx.clone()],
            vec![
                Subscript::indirect(0, vec![Affine::var(0)]),
                Subscript::var(1),
            ],
            lower,
            upper,
        );
        assert_eq!(
            load(&mut m, &acc, OobMode::Error).unwrap(),
            Vec::<i64>::new()
        );
    }
    // An inverted bound is malformed, not empty.
    let bad = access(
        &x,
        vec![idx],
        vec![
            Subscript::indirect(0, vec![Affine::var(0)]),
            Subscript::var(1),
        ],
        vec![2, 0],
        vec![1, 2],
    );
    assert!(matches!(
        load_all_paths(&mut m, &bad, OobMode::Error),
        Err(EmuError::InvalidAccess { .. })
    ));
}

#[test]
fn oob_in_the_leading_dimension() {
    let mut m = Memory::new(Target::Cayman);
    let x = iota(&mut m, "X", &[4, 3]);
    let idx = index(&mut m, "IDX", &[3], &[1, 9, 2]);
    let acc = access(
        &x,
        vec![idx],
        vec![
            Subscript::indirect(0, vec![Affine::var(0)]),
            Subscript::var(1),
        ],
        vec![0, 0],
        vec![3, 3],
    );
    let err = load(&mut m, &acc, OobMode::Error).unwrap_err();
    assert!(
        matches!(err, EmuError::IndexOutOfBounds { dim: 0, value: 9, extent: 4, ref position, .. } if position == &vec![1])
    );
    assert_eq!(
        load(&mut m, &acc, OobMode::Skip).unwrap(),
        vec![3, 4, 5, 0, 0, 0, 6, 7, 8]
    );
}

#[test]
fn oob_in_an_inner_dimension_never_aliases_into_the_next_row() {
    // out[m, e] = X[m, IDX[e]]; IDX[1] = 3 is past the 3-column row but inside the
    // allocation (it would alias X[m+1, 0] with a flat-only check).
    let mut m = Memory::new(Target::Cayman);
    let x = iota(&mut m, "X", &[4, 3]);
    let idx = index(&mut m, "IDX", &[2], &[2, 3]);
    let acc = access(
        &x,
        vec![idx],
        vec![
            Subscript::var(0),
            Subscript::indirect(0, vec![Affine::var(1)]),
        ],
        vec![0, 0],
        vec![2, 2],
    );
    let err = load(&mut m, &acc, OobMode::Error).unwrap_err();
    assert_eq!(
        err,
        EmuError::IndexOutOfBounds {
            op: "dma_copy_indirect",
            dim: 1,
            index_view: 0,
            position: vec![1],
            value: 3,
            coordinate: 3,
            extent: 3,
        }
    );
    assert_eq!(load(&mut m, &acc, OobMode::Skip).unwrap(), vec![2, 0, 5, 0]);
}

#[test]
fn negative_indices_are_out_of_bounds_not_wrapped() {
    let mut m = Memory::new(Target::Cayman);
    let x = iota(&mut m, "X", &[4, 2]);
    let idx = index(&mut m, "IDX", &[2], &[-1, 2]);
    let acc = access(
        &x,
        vec![idx],
        vec![
            Subscript::indirect(0, vec![Affine::var(0)]),
            Subscript::var(1),
        ],
        vec![0, 0],
        vec![2, 2],
    );
    let err = load(&mut m, &acc, OobMode::Error).unwrap_err();
    assert!(matches!(
        err,
        EmuError::IndexOutOfBounds {
            value: -1,
            coordinate: -1,
            ..
        }
    ));
    assert_eq!(load(&mut m, &acc, OobMode::Skip).unwrap(), vec![0, 0, 4, 5]);
}

#[test]
fn the_first_error_in_enumeration_order_is_reported_on_both_paths() {
    // out[e, f, m] = X[IDX[e], JDX[f], m], with bad values at IDX[1] and JDX[1].
    let mut m = Memory::new(Target::Cayman);
    let x = iota(&mut m, "X", &[3, 3, 2]);
    let idx = index(&mut m, "IDX", &[2], &[0, 9]);
    let jdx = index(&mut m, "JDX", &[2], &[0, 9]);
    let acc = access(
        &x,
        vec![idx, jdx],
        vec![
            Subscript::indirect(0, vec![Affine::var(0)]),
            Subscript::indirect(1, vec![Affine::var(1)]),
            Subscript::var(2),
        ],
        vec![0, 0, 0],
        vec![2, 2, 2],
    );
    // e outer: (e=0, f=1) comes first, so JDX (dimension 1) is reported.
    let e1 = load(&mut m, &acc, OobMode::Error).unwrap_err();
    assert!(matches!(
        e1,
        EmuError::IndexOutOfBounds {
            dim: 1,
            index_view: 1,
            ..
        }
    ));
    // f outer: (f=0, e=1) comes first, so IDX (dimension 0) is reported.
    let acc_f = acc.clone().with_order(vec![1, 0, 2]);
    let e2 = load(&mut m, &acc_f, OobMode::Error).unwrap_err();
    assert!(matches!(
        e2,
        EmuError::IndexOutOfBounds {
            dim: 0,
            index_view: 0,
            ..
        }
    ));
}

#[test]
fn an_index_view_read_outside_its_own_extent_is_a_malformed_access() {
    let mut m = Memory::new(Target::Cayman);
    let x = iota(&mut m, "X", &[4, 2]);
    let idx = index(&mut m, "IDX", &[3], &[0, 1, 2]);
    // B[e + 1] for e in 0..3 reads IDX[3].
    let acc = access(
        &x,
        vec![idx],
        vec![
            Subscript::indirect(0, vec![Affine::var(0).plus_const(1)]),
            Subscript::var(1),
        ],
        vec![0, 0],
        vec![3, 2],
    );
    assert!(matches!(
        load_all_paths(&mut m, &acc, OobMode::Skip),
        Err(EmuError::InvalidAccess { .. })
    ));
}

// ---------------------------------------------------------------- partial tiles

#[test]
fn partial_tile_rows_past_a_dimension_read_zero_in_every_head() {
    // The seed's issue #182 shape, scaled: 10 valid rows through a 16-row tile.
    let mut m = Memory::new(Target::Cayman);
    let x = iota(&mut m, "X", &[2, 10, 4]);
    let acc = access(
        &x,
        vec![],
        vec![Subscript::var(0), Subscript::var(1), Subscript::var(2)],
        vec![0, 0, 0],
        vec![2, 16, 4],
    );
    let got = load(&mut m, &acc, OobMode::Error).unwrap();
    for h in 0..2 {
        for r in 0..16 {
            for c in 0..4 {
                let want = if r < 10 { (h * 10 + r) * 4 + c } else { 0 };
                assert_eq!(got[((h * 16 + r) * 4 + c) as usize], want);
            }
        }
    }
}

#[test]
fn partial_tile_past_the_allocation_end_reads_zero_and_drops_writes() {
    // A view declared with 16 rows per head over an allocation of 2 x 10 rows: head 0's
    // rows 10..16 are inside the allocation (the view says so), head 1's are past it.
    let mut m = Memory::new(Target::Cayman);
    let x = iota(&mut m, "X", &[80]);
    let view = View::new(x.alloc(), DType::I32, 0, vec![2, 16, 4], vec![40, 4, 1]).unwrap();
    let acc = Access::direct(&view);
    let got = load(&mut m, &acc, OobMode::Error).unwrap();
    let want: Vec<i64> = (0..2)
        .flat_map(|h| (0..64).map(move |i| if h * 40 + i < 80 { h * 40 + i } else { 0 }))
        .collect();
    assert_eq!(got, want);
    // Writes through the same tile drop the past-the-end part.
    let tile = m.alloc_hbm("t", DType::I32, &[2, 16, 4]).unwrap();
    m.write_i64(&tile, &(1000..1128).collect::<Vec<_>>())
        .unwrap();
    let after = store_all_paths(&mut m, &acc, &tile, OobMode::Error).unwrap();
    assert_eq!(after.len(), 320);
    let vals = i32s(&after);
    // Last writer: head 1 (tile elements 64..) overwrites 40..80.
    assert_eq!(vals[..40], (1000..1040).collect::<Vec<_>>()[..]);
    assert_eq!(vals[40..], (1064..1104).collect::<Vec<_>>()[..]);
}

#[test]
fn partial_tile_writes_are_dropped_in_every_head() {
    let mut m = Memory::new(Target::Cayman);
    let x = iota(&mut m, "X", &[2, 3, 2]);
    let acc = access(
        &x,
        vec![],
        vec![Subscript::var(0), Subscript::var(1), Subscript::var(2)],
        vec![0, 0, 0],
        vec![2, 4, 2],
    );
    let tile = m.alloc_hbm("t", DType::I32, &[16]).unwrap();
    m.write_i64(&tile, &(100..116).collect::<Vec<_>>()).unwrap();
    let after = i32s(&store_all_paths(&mut m, &acc, &tile, OobMode::Error).unwrap());
    assert_eq!(
        after,
        vec![100, 101, 102, 103, 104, 105, 108, 109, 110, 111, 112, 113]
    );
}

// ---------------------------------------------------------------- scatter duplicates

#[test]
fn duplicate_scatter_targets_last_writer_in_enumeration_order_wins() {
    let mut m = Memory::new(Target::Cayman);
    let x = iota(&mut m, "X", &[2]);
    let tile = m.alloc_hbm("t", DType::I32, &[6]).unwrap();
    m.write_i64(&tile, &[10, 11, 12, 13, 14, 15]).unwrap();
    // X[a] for a in 0..2, b in 0..3 (b broadcast): every target is written 3 times.
    let acc = access(&x, vec![], vec![Subscript::var(0)], vec![0, 0], vec![2, 3]);
    assert_eq!(
        i32s(&store_all_paths(&mut m, &acc, &tile, OobMode::Error).unwrap()),
        vec![12, 15]
    );
    // b outer, a inner: the tile is laid out (b, a), and X[0] is last written by
    // tile element 4.
    let acc_t = acc.with_order(vec![1, 0]);
    assert_eq!(
        i32s(&store_all_paths(&mut m, &acc_t, &tile, OobMode::Error).unwrap()),
        vec![14, 15]
    );
}

#[test]
fn duplicate_indirect_targets_and_accumulation() {
    let mut m = Memory::new(Target::Cayman);
    let x = m.alloc_hbm("X", DType::F32, &[3, 2]).unwrap();
    m.write_f32(&x, &[0.0; 6]).unwrap();
    let idx = index(&mut m, "IDX", &[3], &[1, 1, 0]);
    let acc = access(
        &x,
        vec![idx],
        vec![
            Subscript::indirect(0, vec![Affine::var(0)]),
            Subscript::var(1),
        ],
        vec![0, 0],
        vec![3, 2],
    );
    let tile = m.alloc_hbm("t", DType::F32, &[3, 2]).unwrap();
    m.write_f32(&tile, &[1., 2., 3., 4., 5., 6.]).unwrap();
    let after = store_all_paths(&mut m, &acc, &tile, OobMode::Error).unwrap();
    let f: Vec<f32> = after
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(f, vec![5., 6., 3., 4., 0., 0.]);
    // Accumulate: every duplicate adds, on both paths.
    let mut finals = Vec::new();
    for path in [PathChoice::General, PathChoice::Blocked] {
        m.write_f32(&x, &[0.5; 6]).unwrap();
        m.set_path_choice(path);
        sundial_emu::indirect_save_accumulate(&mut m, &acc, &tile, OobMode::Error).unwrap();
        finals.push(m.read_f32(&x).unwrap());
    }
    assert_eq!(finals[0], vec![5.5, 6.5, 4.5, 6.5, 0.5, 0.5]);
    assert_eq!(finals[0], finals[1]);
}

// ---------------------------------------------------------------- order permutations

#[test]
fn order_permutation_lays_the_tile_out_in_enumeration_order() {
    // tile[m, e] = X[IDX[e], m]
    let mut m = Memory::new(Target::Cayman);
    let x = iota(&mut m, "X", &[4, 3]);
    let idx = index(&mut m, "IDX", &[2], &[3, 1]);
    let acc = access(
        &x,
        vec![idx],
        vec![
            Subscript::indirect(0, vec![Affine::var(0)]),
            Subscript::var(1),
        ],
        vec![0, 0],
        vec![2, 3],
    )
    .with_order(vec![1, 0]);
    assert_eq!(acc.tile_shape("t").unwrap(), vec![3, 2]);
    assert_eq!(
        load(&mut m, &acc, OobMode::Error).unwrap(),
        vec![9, 3, 10, 4, 11, 5]
    );
}

// ---------------------------------------------------------------- the gate and the paths

#[test]
fn the_gate_picks_blocked_runs_for_moe_shapes_and_paths_differ_only_in_grouping() {
    let mut m = Memory::new(Target::Cayman);
    let x = iota(&mut m, "X", &[16, 8, 4]);
    let idx = index(&mut m, "IDX", &[3], &[2, 7, 11]);
    let acc = access(
        &x,
        vec![idx],
        vec![
            Subscript::indirect(0, vec![Affine::var(0)]),
            Subscript::var(1),
            Subscript::var(2),
        ],
        vec![0, 0, 0],
        vec![3, 8, 4],
    );
    let plan = Plan::new(&m, &acc, "t").unwrap();
    assert_eq!(plan.gate(), Path::Blocked);
    assert_eq!(plan.blocked_run_len(), 32);
    assert_eq!(plan.blocked_index_reads(), 3);
    let b = plan.compute(&m, OobMode::Error, PathChoice::Auto).unwrap();
    assert_eq!(
        (b.path(), b.starts(), b.run()),
        (Path::Blocked, &[64i64, 224, 352][..], 32)
    );
    let g = plan
        .compute(&m, OobMode::Error, PathChoice::General)
        .unwrap();
    assert_eq!(
        (g.path(), g.starts().len(), g.run()),
        (Path::General, 96, 1)
    );
    assert_eq!(b.per_point(), g.per_point());
}

#[test]
fn the_gate_keeps_the_general_path_when_blocking_saves_nothing() {
    // Every variable feeds the index: K = N and no run.
    let mut m = Memory::new(Target::Cayman);
    let x = iota(&mut m, "X", &[8]);
    let idx = index(&mut m, "IDX", &[4], &[1, 2, 3, 4]);
    let acc = access(
        &x,
        vec![idx],
        vec![Subscript::indirect(0, vec![Affine::var(0)])],
        vec![0],
        vec![4],
    );
    let plan = Plan::new(&m, &acc, "t").unwrap();
    assert_eq!(plan.gate(), Path::General);
    assert_eq!(
        load(&mut m, &acc, OobMode::Error).unwrap(),
        vec![1, 2, 3, 4]
    );
}

#[test]
fn a_partial_tile_shortens_the_blocked_run_instead_of_changing_results() {
    let mut m = Memory::new(Target::Cayman);
    let x = iota(&mut m, "X", &[4, 10, 4]);
    let idx = index(&mut m, "IDX", &[2], &[3, 0]);
    let acc = access(
        &x,
        vec![idx],
        vec![
            Subscript::indirect(0, vec![Affine::var(0)]),
            Subscript::var(1),
            Subscript::var(2),
        ],
        vec![0, 0, 0],
        vec![2, 16, 4],
    );
    let plan = Plan::new(&m, &acc, "t").unwrap();
    // Rows run past the extent (16 > 10), so only the columns form the run.
    assert_eq!(plan.blocked_run_len(), 4);
    let got = load(&mut m, &acc, OobMode::Error).unwrap();
    assert_eq!(got[..4], [120, 121, 122, 123]);
    assert!(got[40..64].iter().all(|&v| v == 0));
    assert_eq!(got[64..68], [0, 1, 2, 3]);
}

#[test]
fn mixed_runtime_offset_and_direct_walk() {
    // X[S[0] + r, c]: a scalar offset plus a direct walk, out of bounds per element.
    let mut m = Memory::new(Target::Cayman);
    let x = iota(&mut m, "X", &[5, 2]);
    let s = index(&mut m, "S", &[1], &[3]);
    let acc = Access::scalar_offset(&x, 0, &s, &[3, 2]).unwrap();
    let err = load(&mut m, &acc, OobMode::Error).unwrap_err();
    assert!(matches!(
        err,
        EmuError::IndexOutOfBounds {
            value: 3,
            coordinate: 5,
            dim: 0,
            ..
        }
    ));
    assert_eq!(
        load(&mut m, &acc, OobMode::Skip).unwrap(),
        vec![6, 7, 8, 9, 0, 0]
    );
}
