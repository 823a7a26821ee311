//! max8 / nc_find_index8 / nc_match_replace8, bn_stats / bn_aggr, nonzero_with_count and
//! sequence_bounds: hand-written goldens (from the public docstrings' examples where they
//! give one) and error paths.

use sundial_emu::{
    DType, EmuError, Memory, Target, View, bn_aggr, bn_stats, find_index8, match_replace8, max8,
    nonzero_with_count, sequence_bounds,
};

fn sbuf_f32(m: &mut Memory, dtype: DType, shape: &[usize], vals: &[f32]) -> View {
    let v = m.alloc_sbuf(dtype, shape).unwrap();
    m.write_f32(&v, vals).unwrap();
    v
}

const DATA: [f32; 10] = [3.0, 9.0, -1.0, 7.0, 7.0, 0.0, 2.0, 5.0, 8.0, 1.0];

#[test]
fn max8_of_a_written_vector() {
    let mut m = Memory::new(Target::Cayman);
    let src = sbuf_f32(&mut m, DType::Bf16, &[1, 10], &DATA);
    let dst = m.alloc_sbuf(DType::F32, &[1, 8]).unwrap();
    max8(&mut m, &dst, &src).unwrap();
    // Sorted descending: 9 8 7 7 5 3 2 1 | 0 -1.
    assert_eq!(
        m.read_f32(&dst).unwrap(),
        vec![9.0, 8.0, 7.0, 7.0, 5.0, 3.0, 2.0, 1.0]
    );
    // Two partitions, a 3-D source: each partition on its own.
    let src3 = sbuf_f32(
        &mut m,
        DType::F32,
        &[2, 2, 4],
        &[
            1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, -8.0, -7.0, -6.0, -5.0, -4.0, -3.0, -2.0, -1.0,
        ],
    );
    let dst2 = m.alloc_psum(DType::F32, &[2, 8]).unwrap();
    max8(&mut m, &dst2, &src3).unwrap();
    assert_eq!(
        m.read_f32(&dst2).unwrap(),
        vec![
            8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, -1.0, -2.0, -3.0, -4.0, -5.0, -6.0, -7.0, -8.0
        ]
    );
}

#[test]
fn max8_error_paths() {
    let mut m = Memory::new(Target::Cayman);
    let seven = sbuf_f32(&mut m, DType::F32, &[1, 7], &[1.0; 7]);
    let dst = m.alloc_sbuf(DType::F32, &[1, 8]).unwrap();
    assert!(matches!(
        max8(&mut m, &dst, &seven),
        Err(EmuError::Shape { .. })
    ));
    let src = sbuf_f32(&mut m, DType::F32, &[1, 10], &DATA);
    let dst7 = m.alloc_sbuf(DType::F32, &[1, 7]).unwrap();
    assert!(matches!(
        max8(&mut m, &dst7, &src),
        Err(EmuError::Shape { .. })
    ));
    let nan = sbuf_f32(
        &mut m,
        DType::F32,
        &[1, 8],
        &[1.0, f32::NAN, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    );
    assert!(matches!(
        max8(&mut m, &dst, &nan),
        Err(EmuError::Unsupported { .. })
    ));
    let h = m.alloc_hbm("h", DType::F32, &[1, 10]).unwrap();
    assert!(matches!(
        max8(&mut m, &dst, &h),
        Err(EmuError::Memory { .. })
    ));
    let four_d = sbuf_f32(&mut m, DType::F32, &[1, 2, 2, 2], &[0.0; 8]);
    assert!(matches!(
        max8(&mut m, &dst, &four_d),
        Err(EmuError::Shape { .. })
    ));
    let big = m.alloc_sbuf(DType::U8, &[1, 16385]).unwrap();
    assert!(matches!(
        max8(&mut m, &dst, &big),
        Err(EmuError::Shape { .. })
    ));
}

#[test]
fn find_index8_pairs_duplicates_ascending_and_misses_with_all_ones() {
    let mut m = Memory::new(Target::Cayman);
    let data = sbuf_f32(&mut m, DType::F32, &[1, 10], &DATA);
    let vals = sbuf_f32(
        &mut m,
        DType::F32,
        &[1, 8],
        &[9.0, 8.0, 7.0, 7.0, 5.0, 3.0, 2.0, 100.0],
    );
    let dst = m.alloc_sbuf(DType::U32, &[1, 8]).unwrap();
    find_index8(&mut m, &dst, &data, &vals).unwrap();
    // 9 at 1, 8 at 8, the two 7s at 3 then 4, 5 at 7, 3 at 0, 2 at 6, 100 absent.
    assert_eq!(
        m.read_i64(&dst).unwrap(),
        vec![1, 8, 3, 4, 7, 0, 6, 0xFFFF_FFFF]
    );
    let d16 = m.alloc_sbuf(DType::U16, &[1, 8]).unwrap();
    find_index8(&mut m, &d16, &data, &vals).unwrap();
    assert_eq!(m.read_i64(&d16).unwrap()[7], 0xFFFF);
    // Errors: a signed dst, vals of 7 elements, NaN.
    let di = m.alloc_sbuf(DType::I32, &[1, 8]).unwrap();
    assert!(matches!(
        find_index8(&mut m, &di, &data, &vals),
        Err(EmuError::DType { .. })
    ));
    let v7 = sbuf_f32(&mut m, DType::F32, &[1, 7], &[1.0; 7]);
    assert!(matches!(
        find_index8(&mut m, &dst, &data, &v7),
        Err(EmuError::Shape { .. })
    ));
    let vnan = sbuf_f32(&mut m, DType::F32, &[1, 8], &[f32::NAN; 8]);
    assert!(matches!(
        find_index8(&mut m, &dst, &data, &vnan),
        Err(EmuError::Unsupported { .. })
    ));
}

#[test]
fn match_replace8_follows_the_docstrings_duplicate_example() {
    let mut m = Memory::new(Target::Cayman);
    let data = sbuf_f32(
        &mut m,
        DType::F32,
        &[1, 11],
        &[1.0, 2.0, 3.0, 4.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0],
    );
    let vals = sbuf_f32(
        &mut m,
        DType::F32,
        &[1, 8],
        &[3.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0, 8.0],
    );
    let dst = m.alloc_sbuf(DType::F32, &[1, 11]).unwrap();
    let idx = m.alloc_sbuf(DType::U32, &[1, 8]).unwrap();
    match_replace8(&mut m, &dst, &data, &vals, -1.0, Some(&idx)).unwrap();
    // The docstring: dst_idx = [2, 10, 9, 8, 7, 6, 5, 4].
    assert_eq!(m.read_i64(&idx).unwrap(), vec![2, 10, 9, 8, 7, 6, 5, 4]);
    assert_eq!(
        m.read_f32(&dst).unwrap(),
        vec![
            1.0, 2.0, -1.0, 4.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0
        ]
    );
}

#[test]
fn match_replace8_in_place_and_misses() {
    let mut m = Memory::new(Target::Cayman);
    let data = sbuf_f32(&mut m, DType::Bf16, &[1, 10], &DATA);
    let vals = sbuf_f32(
        &mut m,
        DType::F32,
        &[1, 8],
        &[9.0, 8.0, 7.0, 7.0, 5.0, 3.0, 2.0, 100.0],
    );
    // Without dst_idx, a value that is absent replaces nothing; in place is fine.
    match_replace8(&mut m, &data, &data, &vals, 0.5, None).unwrap();
    assert_eq!(
        m.read_f32(&data).unwrap(),
        vec![0.5, 0.5, -1.0, 0.5, 0.5, 0.0, 0.5, 0.5, 0.5, 1.0]
    );
    // With dst_idx, a miss is refused (its index is not public) and nothing is written.
    let fresh = sbuf_f32(&mut m, DType::Bf16, &[1, 10], &DATA);
    let idx = m.alloc_sbuf(DType::U32, &[1, 8]).unwrap();
    let dst = m.alloc_sbuf(DType::Bf16, &[1, 10]).unwrap();
    assert!(matches!(
        match_replace8(&mut m, &dst, &fresh, &vals, 0.5, Some(&idx)),
        Err(EmuError::Unsupported { .. })
    ));
    assert!(m.read_f32(&dst).unwrap().iter().all(|v| v.is_nan()));
    // Shape and dtype errors.
    let short = m.alloc_sbuf(DType::Bf16, &[1, 9]).unwrap();
    assert!(matches!(
        match_replace8(&mut m, &short, &fresh, &vals, 0.5, None),
        Err(EmuError::Shape { .. })
    ));
    let fidx = m.alloc_sbuf(DType::F32, &[1, 8]).unwrap();
    assert!(matches!(
        match_replace8(&mut m, &dst, &fresh, &vals, 0.5, Some(&fidx)),
        Err(EmuError::DType { .. })
    ));
}

#[test]
fn bn_stats_on_numbers_with_known_mean_and_variance() {
    let mut m = Memory::new(Target::Cayman);
    // Partition 0: 1 2 3 4 (mean 2.5, variance 1.25). Partition 1: 5 5 5 5 (mean 5, var 0).
    let data = sbuf_f32(
        &mut m,
        DType::F32,
        &[2, 4],
        &[1.0, 2.0, 3.0, 4.0, 5.0, 5.0, 5.0, 5.0],
    );
    let stats = m.alloc_sbuf(DType::F32, &[2, 6]).unwrap();
    bn_stats(&mut m, &stats, &data).unwrap();
    // Even [1, 3]: count 2, mean 2, (1-2)^2 + (3-2)^2 = 2. Odd [2, 4]: 2, 3, 2.
    assert_eq!(
        m.read_f32(&stats).unwrap(),
        vec![2.0, 2.0, 2.0, 2.0, 3.0, 2.0, 2.0, 5.0, 0.0, 2.0, 5.0, 0.0]
    );
    let mv = m.alloc_sbuf(DType::F32, &[2, 2]).unwrap();
    bn_aggr(&mut m, &mv, &stats).unwrap();
    assert_eq!(m.read_f32(&mv).unwrap(), vec![2.5, 1.25, 5.0, 0.0]);
}

#[test]
fn bn_aggr_combines_several_bn_stats_outputs() {
    let mut m = Memory::new(Target::Cayman);
    // 1..=8 in two tiles of 4: the mean is 4.5 and the population variance (8^2 - 1)/12.
    let a = sbuf_f32(&mut m, DType::Bf16, &[1, 4], &[1.0, 2.0, 3.0, 4.0]);
    let b = sbuf_f32(&mut m, DType::Bf16, &[1, 4], &[5.0, 6.0, 7.0, 8.0]);
    let stats = m.alloc_sbuf(DType::F32, &[1, 2, 6]).unwrap();
    bn_stats(&mut m, &stats.slice(1, 0, 1, 1).unwrap(), &a).unwrap();
    bn_stats(&mut m, &stats.slice(1, 1, 1, 1).unwrap(), &b).unwrap();
    let out = m.alloc_sbuf(DType::F32, &[1, 2]).unwrap();
    bn_aggr(&mut m, &out, &stats).unwrap();
    assert_eq!(m.read_f32(&out).unwrap(), vec![4.5, 5.25]);
}

#[test]
fn bn_stats_and_bn_aggr_error_paths() {
    let mut m = Memory::new(Target::Cayman);
    let wide = m.alloc_sbuf(DType::F32, &[1, 513]).unwrap();
    let stats = m.alloc_sbuf(DType::F32, &[1, 6]).unwrap();
    assert!(matches!(
        bn_stats(&mut m, &stats, &wide),
        Err(EmuError::Shape { .. })
    ));
    let one = sbuf_f32(&mut m, DType::F32, &[1, 1], &[1.0]);
    assert!(matches!(
        bn_stats(&mut m, &stats, &one),
        Err(EmuError::Unsupported { .. })
    ));
    let two = sbuf_f32(&mut m, DType::F32, &[1, 2], &[1.0, 2.0]);
    let s5 = m.alloc_sbuf(DType::F32, &[1, 5]).unwrap();
    assert!(matches!(
        bn_stats(&mut m, &s5, &two),
        Err(EmuError::Shape { .. })
    ));
    let x4 = m.alloc_sbuf(DType::Fp8E4m3FnX4, &[1, 6]).unwrap();
    assert!(matches!(
        bn_stats(&mut m, &x4, &two),
        Err(EmuError::DType { .. })
    ));
    let out = m.alloc_sbuf(DType::F32, &[1, 2]).unwrap();
    assert!(matches!(
        bn_aggr(&mut m, &out, &two),
        Err(EmuError::Shape { .. })
    ));
    let zeros = sbuf_f32(&mut m, DType::F32, &[1, 3], &[0.0, 1.0, 0.0]);
    assert!(matches!(
        bn_aggr(&mut m, &out, &zeros),
        Err(EmuError::Unsupported { .. })
    ));
    let neg = sbuf_f32(
        &mut m,
        DType::F32,
        &[1, 6],
        &[-1.0, 1.0, 0.0, 2.0, 1.0, 0.0],
    );
    assert!(matches!(
        bn_aggr(&mut m, &out, &neg),
        Err(EmuError::Unsupported { .. })
    ));
}

#[test]
fn nonzero_with_count_follows_the_docstring_example_on_core_heads_only() {
    let mut m = Memory::new(Target::Cayman);
    let src = m.alloc_sbuf(DType::F32, &[32, 8]).unwrap();
    let mut vals = vec![0.0f32; 32 * 8];
    vals[..8].copy_from_slice(&[0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
    // Partition 1 (not a core head) has nonzeros that must be ignored; partition 16 has none.
    vals[8] = 5.0;
    m.write_f32(&src, &vals).unwrap();
    let dst = m.alloc_sbuf(DType::I32, &[32, 9]).unwrap();
    m.write_i64(&dst, &[99; 32 * 9]).unwrap();
    nonzero_with_count(&mut m, &dst, &src, 16, -1).unwrap();
    let out = m.read_i64(&dst).unwrap();
    assert_eq!(out[..9], [17, 18, 21, -1, -1, -1, -1, -1, 3]);
    assert_eq!(out[16 * 9..17 * 9], [-1, -1, -1, -1, -1, -1, -1, -1, 0]);
    // Every other partition is untouched.
    assert!(out[9..16 * 9].iter().all(|&v| v == 99));
    assert!(out[17 * 9..].iter().all(|&v| v == 99));
    // int32 source, every element nonzero: the count fills the extra slot.
    let isrc = m.alloc_sbuf(DType::I32, &[1, 3]).unwrap();
    m.write_i64(&isrc, &[-2, 7, 1]).unwrap();
    let idst = m.alloc_sbuf(DType::I32, &[1, 4]).unwrap();
    nonzero_with_count(&mut m, &idst, &isrc, 0, -1).unwrap();
    assert_eq!(m.read_i64(&idst).unwrap(), vec![0, 1, 2, 3]);
}

#[test]
fn nonzero_with_count_error_paths() {
    let mut m = Memory::new(Target::Cayman);
    let src = m.alloc_sbuf(DType::F32, &[1, 4]).unwrap();
    m.write_f32(&src, &[1.0; 4]).unwrap();
    let same = m.alloc_sbuf(DType::I32, &[1, 4]).unwrap();
    assert!(matches!(
        nonzero_with_count(&mut m, &same, &src, 0, -1),
        Err(EmuError::Shape { .. })
    ));
    let fdst = m.alloc_sbuf(DType::F32, &[1, 5]).unwrap();
    assert!(matches!(
        nonzero_with_count(&mut m, &fdst, &src, 0, -1),
        Err(EmuError::DType { .. })
    ));
    let dst = m.alloc_sbuf(DType::I32, &[1, 5]).unwrap();
    assert!(matches!(
        nonzero_with_count(&mut m, &dst, &src, i32::MAX, -1),
        Err(EmuError::Unsupported { .. })
    ));
    // A tile starting off a core head is ambiguous.
    let off = m.sbuf_view(DType::F32, 8, 0, &[1, 4]).unwrap();
    let offd = m.sbuf_view(DType::I32, 8, 64, &[1, 5]).unwrap();
    assert!(matches!(
        nonzero_with_count(&mut m, &offd, &off, 0, -1),
        Err(EmuError::Shape { .. })
    ));
    let mut s = Memory::new(Target::Sunda);
    let a = s.alloc_sbuf(DType::F32, &[1, 4]).unwrap();
    let b = s.alloc_sbuf(DType::I32, &[1, 5]).unwrap();
    assert!(matches!(
        nonzero_with_count(&mut s, &b, &a, 0, -1),
        Err(EmuError::Unsupported { .. })
    ));
}

#[test]
fn sequence_bounds_of_runs_and_padding() {
    let mut m = Memory::new(Target::Cayman);
    let ids = m.alloc_sbuf(DType::I32, &[1, 7]).unwrap();
    m.write_i64(&ids, &[1, 1, 2, 0, 3, 3, 3]).unwrap();
    let dst = m.alloc_sbuf(DType::I32, &[1, 2, 7]).unwrap();
    sequence_bounds(&mut m, &dst, &ids).unwrap();
    // Starts: [0, 0, 2, n=7, 4, 4, 4]; ends (exclusive): [2, 2, 3, -1, 7, 7, 7].
    assert_eq!(
        m.read_i64(&dst).unwrap(),
        vec![0, 0, 2, 7, 4, 4, 4, 2, 2, 3, -1, 7, 7, 7]
    );
    // float32 in and out; a run of the same id after padding is a new segment.
    let fids = sbuf_f32(&mut m, DType::F32, &[1, 5], &[0.0, 4.0, 0.0, 4.0, 4.0]);
    let fdst = m.alloc_sbuf(DType::F32, &[1, 2, 5]).unwrap();
    sequence_bounds(&mut m, &fdst, &fids).unwrap();
    assert_eq!(
        m.read_f32(&fdst).unwrap(),
        vec![5.0, 1.0, 5.0, 3.0, 3.0, -1.0, 2.0, -1.0, 5.0, 5.0]
    );
}

#[test]
fn sequence_bounds_error_paths() {
    let mut m = Memory::new(Target::Cayman);
    let neg = sbuf_f32(&mut m, DType::F32, &[1, 3], &[1.0, -1.0, 1.0]);
    let dst = m.alloc_sbuf(DType::F32, &[1, 2, 3]).unwrap();
    assert!(matches!(
        sequence_bounds(&mut m, &dst, &neg),
        Err(EmuError::Unsupported { .. })
    ));
    let frac = sbuf_f32(&mut m, DType::F32, &[1, 3], &[1.0, 1.5, 1.0]);
    assert!(matches!(
        sequence_bounds(&mut m, &dst, &frac),
        Err(EmuError::Unsupported { .. })
    ));
    let two = sbuf_f32(&mut m, DType::F32, &[2, 3], &[1.0; 6]);
    assert!(matches!(
        sequence_bounds(&mut m, &dst, &two),
        Err(EmuError::Shape { .. })
    ));
    let ok = sbuf_f32(&mut m, DType::F32, &[1, 3], &[1.0; 3]);
    let flat = m.alloc_sbuf(DType::F32, &[1, 6]).unwrap();
    assert!(matches!(
        sequence_bounds(&mut m, &flat, &ok),
        Err(EmuError::Shape { .. })
    ));
    let i16dst = m.alloc_sbuf(DType::I16, &[1, 2, 3]).unwrap();
    assert!(matches!(
        sequence_bounds(&mut m, &i16dst, &ok),
        Err(EmuError::DType { .. })
    ));
}
