//! Hostile but arithmetically valid sizes: every op refuses an operand of more than
//! `MAX_ELEMENTS` elements with an error naming it, before allocating anything for it (these
//! aborted the process with "memory allocation ... failed" before the limit existed).

use sundial_emu::*;

fn setup() -> (Memory, View) {
    let mut m = Memory::new(Target::Cayman);
    let small = m.alloc_hbm("small", DType::F32, &[4, 4]).unwrap();
    (m, small)
}

fn too_large(r: Result<()>) -> EmuError {
    match r {
        Err(e @ EmuError::TooLarge { .. }) => e,
        other => panic!("expected TooLarge, got {other:?}"),
    }
}

#[test]
fn a_2_40_element_view_over_a_small_allocation_is_refused_by_every_op() {
    let (mut m, small) = setup();
    let huge = View::new(
        small.alloc(),
        DType::F32,
        0,
        vec![1 << 20, 1 << 20],
        vec![0, 0],
    )
    .unwrap();
    assert_eq!(huge.num_elements(), 1 << 40);
    let e = too_large(dma_copy(&mut m, &huge, &huge));
    assert_eq!(
        e.to_string(),
        format!(
            "dma_copy: the access has {} elements, more than the {} one op handles",
            1u64 << 40,
            MAX_ELEMENTS
        )
    );
    // Against a small operand the shapes disagree first: an error either way, never an abort.
    assert!(matches!(
        dma_copy(&mut m, &small, &huge),
        Err(EmuError::Shape { .. })
    ));
    assert!(matches!(
        m.read_bytes(&huge),
        Err(EmuError::TooLarge { .. })
    ));
    assert!(matches!(m.read_f32(&huge), Err(EmuError::TooLarge { .. })));
    too_large(m.fill_uninit(&huge));
    let idx = m.alloc_hbm("idx", DType::I32, &[4]).unwrap();
    // An indirect access whose point space (4 x 2^20 x 2^20) is past the limit.
    let huge3 = View::new(
        small.alloc(),
        DType::F32,
        0,
        vec![1 << 20, 1 << 20, 1 << 20],
        vec![0, 0, 0],
    )
    .unwrap();
    let access = Access::vector_offset(&huge3, 0, &idx).unwrap();
    too_large(indirect_load(&mut m, &small, &access, OobMode::Error));
    too_large(indirect_save(&mut m, &access, &small, OobMode::Skip));
    // The destination was never touched.
    assert_eq!(m.read_f32(&small).unwrap().len(), 16);
}

#[test]
fn a_2_40_point_variable_space_is_refused() {
    let (mut m, small) = setup();
    let mut a = Access::direct(&small);
    a.space = VarSpace::new(vec![0, 0], vec![1 << 20, 1 << 20]);
    assert!(matches!(a.num_points("t"), Err(EmuError::TooLarge { .. })));
    too_large(indirect_load(&mut m, &small, &a, OobMode::Skip));
}

#[test]
fn the_limit_itself_is_allowed() {
    // Exactly MAX_ELEMENTS points (a stride-0 view over one element) passes the check.
    let (m, small) = setup();
    let v = View::new(small.alloc(), DType::U8, 0, vec![MAX_ELEMENTS], vec![0]).unwrap();
    let a = Access::direct(&v);
    assert_eq!(a.num_points("t").unwrap(), MAX_ELEMENTS);
    let one_more = View::new(small.alloc(), DType::U8, 0, vec![MAX_ELEMENTS + 1], vec![0]).unwrap();
    assert!(matches!(
        Access::direct(&one_more).num_points("t"),
        Err(EmuError::TooLarge { count, .. }) if count == MAX_ELEMENTS + 1
    ));
    drop(m);
}

/// Views of a zero extent may carry huge free extents and strides: reshaping them computes
/// errors, never overflows (these panicked in debug builds).
#[test]
fn empty_views_with_huge_extents_and_strides_do_not_overflow() {
    let (_, small) = setup();
    let empty = View::new(
        small.alloc(),
        DType::F32,
        0,
        vec![0, 1 << 40, 1 << 40],
        vec![1, i64::MAX / 2, 3],
    )
    .unwrap();
    assert_eq!(empty.num_elements(), 0);
    assert!(matches!(
        empty.flatten_free(),
        Err(EmuError::Overflow { .. })
    ));
    let wide = View::new(
        small.alloc(),
        DType::F32,
        i64::MAX - 1,
        vec![1, 4],
        vec![0, i64::MAX],
    )
    .unwrap_or_else(|_| small.clone());
    let _ = wide.slice(1, 3, 1, 1);
    let _ = wide.select(1, 3);
    let v = View::new(small.alloc(), DType::F32, 0, vec![4, 0], vec![i64::MAX, 1]).unwrap();
    assert!(matches!(v.select(0, 3), Err(EmuError::Overflow { .. })));
    assert!(matches!(
        v.slice(0, 3, 1, 1),
        Err(EmuError::Overflow { .. })
    ));
}

/// A view with 2^30 partition rows of nothing (a zero free extent): filling, reading and
/// writing it do nothing and allocate nothing per row (`fill_uninit` aborted the process,
/// "memory allocation of 8589934592 bytes failed", collecting one byte range per row; found
/// by `sundial-fuzz --target emu`, reproducer `fuzz/reproducers/emu-c71b03db369afbc0.emu`).
#[test]
fn a_view_of_a_billion_empty_rows_allocates_nothing_per_row() {
    let (mut m, small) = setup();
    for strides in [vec![0, 1], vec![1, 1], vec![4, 1]] {
        let rows = View::new(small.alloc(), DType::F32, 0, vec![1 << 30, 0], strides).unwrap();
        assert_eq!(rows.num_elements(), 0);
        m.fill_uninit(&rows).unwrap();
        assert_eq!(m.read_bytes(&rows).unwrap(), Vec::<u8>::new());
        m.write_f32(&rows, &[]).unwrap();
    }
}

/// An empty run list with a run length whose byte size overflows reads and writes nothing
/// (this panicked: "chunk size must be non-zero" after the size wrapped).
#[test]
fn empty_run_lists_with_huge_runs_are_no_ops() {
    let mut mem = vec![7u8; 16];
    let list = OffsetList::Runs {
        starts: &[],
        run: usize::MAX / 2 + 1,
    };
    let mut out: [u8; 0] = [];
    data::read(&mem, 4, list, &mut out).unwrap();
    data::write(&mut mem, 4, list, &[], Combine::Replace).unwrap();
    assert_eq!(mem, vec![7u8; 16]);
}

/// A u64 index of all ones is reported as stored (it was reported as i64::MAX, the saturated
/// value the offsets pipeline works with).
#[test]
fn a_u64_index_is_reported_as_stored() {
    let mut m = Memory::new(Target::Cayman);
    let table = m.alloc_hbm("table", DType::F32, &[4, 2]).unwrap();
    let idx = m.alloc_hbm("idx", DType::U64, &[3]).unwrap();
    m.write_bits(&idx, &[1, u64::MAX, 2]).unwrap();
    let dst = m.alloc_hbm("dst", DType::F32, &[3, 2]).unwrap();
    let access = Access::vector_offset(&table, 0, &idx).unwrap();
    let e = indirect_load(&mut m, &dst, &access, OobMode::Error).unwrap_err();
    assert!(
        matches!(e, EmuError::IndexOutOfBounds { value, .. } if value == u64::MAX as i128),
        "{e:?}"
    );
    assert!(
        e.to_string().contains("index value 18446744073709551615"),
        "{e}"
    );
    // A signed index keeps its sign.
    let sidx = m.alloc_hbm("sidx", DType::I64, &[1]).unwrap();
    m.write_i64(&sidx, &[-5]).unwrap();
    let one = m.alloc_hbm("one", DType::F32, &[1, 2]).unwrap();
    let access = Access::vector_offset(&table, 0, &sidx).unwrap();
    let e = indirect_load(&mut m, &one, &access, OobMode::Error).unwrap_err();
    assert!(
        matches!(e, EmuError::IndexOutOfBounds { value: -5, .. }),
        "{e:?}"
    );
}

#[test]
fn an_hbm_tensor_over_the_emulator_limit_is_refused_before_allocating() {
    // The fuzzer's compute family found a [2^31, 7] float8_e3m4 HBM tensor (15 GB) being
    // allocated and filled, running past the time limit (or exhausting the host);
    // fuzz/reproducers/emu-hbm-tensor-over-the-limit.emu builds it. Over MAX_HBM_BYTES
    // (4 GiB) is an error now, with nothing allocated.
    let mut m = Memory::new(Target::Mariana);
    for (d, shape) in [
        (DType::Fp8E3m4, vec![1usize << 31, 7]),
        (DType::F32, vec![1 << 30, 1, 2]),
        (DType::U8, vec![(1 << 32) + 1]),
    ] {
        let e = m.alloc_hbm("h", d, &shape).unwrap_err();
        assert!(
            matches!(e, EmuError::Memory { .. }) && e.to_string().contains("larger than"),
            "{e}"
        );
        assert!(m.alloc_hbm_zeroed("z", d, &shape).is_err());
    }
    let mut g = RankGroup::new(Target::Cayman, 2).unwrap();
    assert!(g.alloc_hbm("h", DType::U8, &[(1 << 32) + 1]).is_err());
    // The limit itself is a size, not an allocation made here: a small tensor still works.
    assert!(m.alloc_hbm("ok", DType::U8, &[16]).is_ok());
}
