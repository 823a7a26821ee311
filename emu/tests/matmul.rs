//! `nc_matmul` (accumulation groups, double_row, PE transpose, tiling), `nc_matmul_mx`,
//! `nc_transpose` / `stream_transpose` and `dma_transpose`: hand-worked goldens, error
//! paths and properties.

use proptest::prelude::*;
use sundial_emu::{
    Access, DType, EmuError, Engine, MatmulMxOptions, MatmulOptions, Memory, OobMode, PerfOptMode,
    Target, View, dma_gather_transpose, dma_transpose, nc_matmul, nc_matmul_mx, nc_transpose,
    stream_transpose,
};

fn sbuf(m: &mut Memory, dtype: DType, shape: &[usize], vals: &[f32]) -> View {
    let v = m.alloc_sbuf(dtype, shape).unwrap();
    m.write_f32(&v, vals).unwrap();
    v
}

/// A^T (stationary) and B (moving) for the hand-worked A[2x3] @ B[3x2].
fn two_by_three(m: &mut Memory) -> (View, View) {
    // A = [[1, 2, 3], [4, 5, 6]]; stationary = A^T = [[1, 4], [2, 5], [3, 6]].
    let st = sbuf(m, DType::Bf16, &[3, 2], &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    // B = [[7, 8], [9, 10], [11, 12]].
    let mv = sbuf(m, DType::F16, &[3, 2], &[7.0, 8.0, 9.0, 10.0, 11.0, 12.0]);
    (st, mv)
}

#[test]
fn a_2x3_by_3x2_matmul_worked_by_hand() {
    let mut m = Memory::new(Target::Cayman);
    let (st, mv) = two_by_three(&mut m);
    let dst = m.alloc_psum(DType::F32, &[2, 2]).unwrap();
    nc_matmul(&mut m, &dst, &st, &mv, &MatmulOptions::default()).unwrap();
    // [[1*7 + 2*9 + 3*11, 1*8 + 2*10 + 3*12], [4*7 + 5*9 + 6*11, 4*8 + 5*10 + 6*12]]
    assert_eq!(m.read_f32(&dst).unwrap(), vec![58.0, 64.0, 139.0, 154.0]);
}

#[test]
fn accumulation_groups_overwrite_first_then_accumulate() {
    let mut m = Memory::new(Target::Cayman);
    let (st, mv) = two_by_three(&mut m);
    let dst = m.alloc_psum(DType::F32, &[2, 2]).unwrap();
    let auto = MatmulOptions::default();
    // accumulate=None: the fresh tile's first write overwrites (the NaN fill is ignored)...
    nc_matmul(&mut m, &dst, &st, &mv, &auto).unwrap();
    // ...and the second accumulates.
    nc_matmul(&mut m, &dst, &st, &mv, &auto).unwrap();
    assert_eq!(m.read_f32(&dst).unwrap(), vec![116.0, 128.0, 278.0, 308.0]);
    // accumulate=true adds, accumulate=false overwrites.
    let acc = MatmulOptions {
        accumulate: Some(true),
        ..MatmulOptions::default()
    };
    nc_matmul(&mut m, &dst, &st, &mv, &acc).unwrap();
    assert_eq!(m.read_f32(&dst).unwrap(), vec![174.0, 192.0, 417.0, 462.0]);
    let over = MatmulOptions {
        accumulate: Some(false),
        ..MatmulOptions::default()
    };
    nc_matmul(&mut m, &dst, &st, &mv, &over).unwrap();
    assert_eq!(m.read_f32(&dst).unwrap(), vec![58.0, 64.0, 139.0, 154.0]);
    // A new PSUM tile over the same bank starts a new group.
    m.reset_on_chip_allocators();
    let again = m.alloc_psum(DType::F32, &[2, 2]).unwrap();
    assert_eq!(again.alloc(), dst.alloc());
    nc_matmul(&mut m, &again, &st, &mv, &auto).unwrap();
    assert_eq!(m.read_f32(&again).unwrap(), vec![58.0, 64.0, 139.0, 154.0]);
}

#[test]
fn auto_accumulation_is_per_location() {
    let mut m = Memory::new(Target::Cayman);
    let (st, mv) = two_by_three(&mut m);
    let dst = m.alloc_psum(DType::F32, &[2, 2]).unwrap();
    // Write only dst[0, 0] first: it accumulates, the other three overwrite.
    m.write_f32(
        &dst.slice(0, 0, 1, 1).unwrap().slice(1, 0, 1, 1).unwrap(),
        &[1000.0],
    )
    .unwrap();
    nc_matmul(&mut m, &dst, &st, &mv, &MatmulOptions::default()).unwrap();
    assert_eq!(m.read_f32(&dst).unwrap(), vec![1058.0, 64.0, 139.0, 154.0]);
}

#[test]
fn accumulate_true_reads_the_destination_under_the_check() {
    let mut m = Memory::new(Target::Cayman);
    m.set_check_uninit(true).unwrap();
    let (st, mv) = two_by_three(&mut m);
    let dst = m.alloc_psum_named("acc", DType::F32, &[2, 2]).unwrap();
    let acc = MatmulOptions {
        accumulate: Some(true),
        ..MatmulOptions::default()
    };
    let e = nc_matmul(&mut m, &dst, &st, &mv, &acc).unwrap_err();
    assert!(
        matches!(&e, EmuError::Uninitialised { op: "matmul", tile, .. } if tile == "acc"),
        "{e}"
    );
    // accumulate=None on the fresh tile reads nothing it has not written.
    nc_matmul(&mut m, &dst, &st, &mv, &MatmulOptions::default()).unwrap();
    nc_matmul(&mut m, &dst, &st, &mv, &acc).unwrap();
    assert_eq!(m.read_f32(&dst).unwrap(), vec![116.0, 128.0, 278.0, 308.0]);
}

#[test]
fn bf16_psum_on_v4_rounds_the_fp32_result() {
    let mut m = Memory::new(Target::Mariana);
    // 1 * 256 + 1 * 1 = 257, which bf16 (8 mantissa bits) rounds to 256 (ties to even).
    let st = sbuf(&mut m, DType::Bf16, &[2, 1], &[1.0, 1.0]);
    let mv = sbuf(&mut m, DType::Bf16, &[2, 1], &[256.0, 1.0]);
    let dst = m.alloc_psum(DType::Bf16, &[1, 1]).unwrap();
    nc_matmul(&mut m, &dst, &st, &mv, &MatmulOptions::default()).unwrap();
    assert_eq!(m.read_f32(&dst).unwrap(), vec![256.0]);
    // v3 keeps fp32 PSUM only.
    let mut c = Memory::new(Target::Cayman);
    let st = sbuf(&mut c, DType::Bf16, &[2, 1], &[1.0, 1.0]);
    let mv = sbuf(&mut c, DType::Bf16, &[2, 1], &[256.0, 1.0]);
    let dst = c.alloc_psum(DType::Bf16, &[1, 1]).unwrap();
    assert!(matches!(
        nc_matmul(&mut c, &dst, &st, &mv, &MatmulOptions::default()),
        Err(EmuError::DType { .. })
    ));
}

#[test]
fn double_row_contracts_over_both_rows() {
    let mut m = Memory::new(Target::Cayman);
    // stationary [K=2, 2, M=1], moving [2, 2, N=2]; dst[0, n] = sum_{k, r} s[k, r] mv[k, r, n].
    let st = sbuf(&mut m, DType::Fp8E4m3, &[2, 2, 1], &[1.0, 2.0, 3.0, 4.0]);
    let mv = sbuf(
        &mut m,
        DType::Fp8E5m2,
        &[2, 2, 2],
        &[1.0, 0.5, 1.0, 0.5, 1.0, 0.5, 1.0, 0.5],
    );
    let dst = m.alloc_psum(DType::F32, &[1, 2]).unwrap();
    let opts = MatmulOptions {
        perf_mode: PerfOptMode::DoubleRow,
        ..MatmulOptions::default()
    };
    nc_matmul(&mut m, &dst, &st, &mv, &opts).unwrap();
    // (1 + 2 + 3 + 4) * 1 and * 0.5.
    assert_eq!(m.read_f32(&dst).unwrap(), vec![10.0, 5.0]);
    // bf16 operands, a pair dimension other than 2, v2, column tiling: refused.
    let bst = sbuf(&mut m, DType::Bf16, &[2, 2, 1], &[1.0; 4]);
    assert!(matches!(
        nc_matmul(&mut m, &dst, &bst, &mv, &opts),
        Err(EmuError::DType { .. })
    ));
    let st3 = sbuf(&mut m, DType::Fp8E4m3, &[2, 1, 2], &[1.0; 4]);
    assert!(matches!(
        nc_matmul(&mut m, &dst, &st3, &mv, &opts),
        Err(EmuError::Shape { .. })
    ));
    let cols = MatmulOptions {
        tile_position: Some([0, 0]),
        tile_size: Some([128, 64]),
        ..opts.clone()
    };
    assert!(matches!(
        nc_matmul(&mut m, &dst, &st, &mv, &cols),
        Err(EmuError::Unsupported { .. })
    ));
    let mut s = Memory::new(Target::Sunda);
    let st = sbuf(&mut s, DType::Fp8E4m3, &[2, 2, 1], &[1.0; 4]);
    let mv = sbuf(&mut s, DType::Fp8E4m3, &[2, 2, 1], &[1.0; 4]);
    let dst = s.alloc_psum(DType::F32, &[1, 1]).unwrap();
    assert!(matches!(
        nc_matmul(&mut s, &dst, &st, &mv, &opts),
        Err(EmuError::Unsupported { .. })
    ));
}

#[test]
fn tiling_is_checked_and_does_not_change_the_result() {
    let mut m = Memory::new(Target::Cayman);
    let (st, mv) = two_by_three(&mut m);
    let dst = m.alloc_psum(DType::F32, &[2, 2]).unwrap();
    let tiled = MatmulOptions {
        tile_position: Some([64, 32]),
        tile_size: Some([32, 32]),
        ..MatmulOptions::default()
    };
    nc_matmul(&mut m, &dst, &st, &mv, &tiled).unwrap();
    assert_eq!(m.read_f32(&dst).unwrap(), vec![58.0, 64.0, 139.0, 154.0]);
    for (pos, size) in [
        (Some([0, 0]), None),
        (Some([16, 0]), Some([32, 128])),
        (Some([0, 0]), Some([48, 128])),
        (Some([112, 0]), Some([32, 128])),
    ] {
        let o = MatmulOptions {
            tile_position: pos,
            tile_size: size,
            ..MatmulOptions::default()
        };
        assert!(
            matches!(
                nc_matmul(&mut m, &dst, &st, &mv, &o),
                Err(EmuError::InvalidAccess { .. })
            ),
            "{pos:?} {size:?}"
        );
    }
    // 32-row tiles do not exist on v2; K = 3 fits, but a 2-row... K above the tile does not.
    let mut s = Memory::new(Target::Sunda);
    let (st2, mv2) = two_by_three(&mut s);
    let dst2 = s.alloc_psum(DType::F32, &[2, 2]).unwrap();
    assert!(nc_matmul(&mut s, &dst2, &st2, &mv2, &tiled).is_err());
    let big = m.alloc_sbuf(DType::Bf16, &[128, 2]).unwrap();
    m.write_f32(&big, &[0.0; 256]).unwrap();
    let bigm = m.alloc_sbuf(DType::Bf16, &[128, 2]).unwrap();
    m.write_f32(&bigm, &[0.0; 256]).unwrap();
    let half = MatmulOptions {
        tile_position: Some([0, 0]),
        tile_size: Some([64, 128]),
        ..MatmulOptions::default()
    };
    assert!(matches!(
        nc_matmul(&mut m, &dst, &big, &bigm, &half),
        Err(EmuError::Shape { .. })
    ));
}

#[test]
fn matmul_error_paths() {
    let mut m = Memory::new(Target::Cayman);
    let (st, mv) = two_by_three(&mut m);
    let dst = m.alloc_psum(DType::F32, &[2, 2]).unwrap();
    let d = MatmulOptions::default();
    // Spaces.
    let h = m.alloc_hbm("h", DType::Bf16, &[3, 2]).unwrap();
    assert!(matches!(
        nc_matmul(&mut m, &dst, &h, &mv, &d),
        Err(EmuError::Memory { .. })
    ));
    let sdst = m.alloc_sbuf(DType::F32, &[2, 2]).unwrap();
    assert!(matches!(
        nc_matmul(&mut m, &sdst, &st, &mv, &d),
        Err(EmuError::Memory { .. })
    ));
    // Contraction mismatch and a wrong dst shape.
    let mv4 = sbuf(&mut m, DType::Bf16, &[4, 2], &[1.0; 8]);
    assert!(matches!(
        nc_matmul(&mut m, &dst, &st, &mv4, &d),
        Err(EmuError::Shape { .. })
    ));
    let dst3 = m.alloc_psum(DType::F32, &[2, 3]).unwrap();
    assert!(matches!(
        nc_matmul(&mut m, &dst3, &st, &mv, &d),
        Err(EmuError::Shape { .. })
    ));
    // N above 512 on v3.
    let wide = sbuf(&mut m, DType::Bf16, &[3, 513], &[0.0; 3 * 513]);
    let wdst = m.psum_view(DType::F32, 0, 0, 0, &[2, 513]).unwrap();
    assert!(matches!(
        nc_matmul(&mut m, &wdst, &st, &wide, &d),
        Err(EmuError::Shape { .. })
    ));
    // fp32 with a bf16 partner; e4m3fn before v4; integer operands.
    let f32st = sbuf(&mut m, DType::F32, &[3, 2], &[1.0; 6]);
    assert!(matches!(
        nc_matmul(&mut m, &dst, &f32st, &mv, &d),
        Err(EmuError::DType { .. })
    ));
    let fnst = sbuf(&mut m, DType::Fp8E4m3Fn, &[3, 2], &[1.0; 6]);
    assert!(matches!(
        nc_matmul(&mut m, &dst, &fnst, &mv, &d),
        Err(EmuError::DType { .. })
    ));
    let ist = m.alloc_sbuf(DType::I32, &[3, 2]).unwrap();
    m.write_i64(&ist, &[1; 6]).unwrap();
    assert!(matches!(
        nc_matmul(&mut m, &dst, &ist, &mv, &d),
        Err(EmuError::DType { .. })
    ));
    // The one-zero hints are checked.
    let hint = MatmulOptions {
        is_stationary_onezero: true,
        ..MatmulOptions::default()
    };
    assert!(matches!(
        nc_matmul(&mut m, &dst, &st, &mv, &hint),
        Err(EmuError::Unsupported { .. })
    ));
    // Perf modes without public semantics.
    let col = MatmulOptions {
        perf_mode: PerfOptMode::DoubleColumn,
        ..MatmulOptions::default()
    };
    assert!(matches!(
        nc_matmul(&mut m, &dst, &st, &mv, &col),
        Err(EmuError::Unsupported { .. })
    ));
    // Nothing was written by the failures: the tile still holds the NaN fill.
    assert!(m.read_f32(&dst).unwrap().iter().all(|v| v.is_nan()));
    // e4m3 and e4m3fn cannot be mixed on v4.
    let mut v4 = Memory::new(Target::Mariana);
    let a = sbuf(&mut v4, DType::Fp8E4m3, &[1, 1], &[1.0]);
    let b = sbuf(&mut v4, DType::Fp8E4m3Fn, &[1, 1], &[1.0]);
    let o = v4.alloc_psum(DType::F32, &[1, 1]).unwrap();
    assert!(matches!(
        nc_matmul(&mut v4, &o, &a, &b, &d),
        Err(EmuError::DType { .. })
    ));
}

fn identity(m: &mut Memory, n: usize) -> View {
    let vals: Vec<f32> = (0..n * n)
        .map(|i| if i / n == i % n { 1.0 } else { 0.0 })
        .collect();
    sbuf(m, DType::Bf16, &[n, n], &vals)
}

#[test]
fn pe_transpose_mode_is_bit_accurate_from_v3() {
    let mut m = Memory::new(Target::Cayman);
    let data = m.alloc_sbuf(DType::Bf16, &[3, 2]).unwrap();
    // NaN (0x7FC1, a payload), -Inf, -0.0, 1, 2, 3.
    let bits = [0x7FC1u64, 0xFF80, 0x8000, 0x3F80, 0x4000, 0x4040];
    m.write_bits(&data, &bits).unwrap();
    let id = identity(&mut m, 3);
    let dst = m.alloc_psum(DType::Bf16, &[2, 3]).unwrap();
    let t = MatmulOptions {
        is_transpose: true,
        ..MatmulOptions::default()
    };
    nc_matmul(&mut m, &dst, &data, &id, &t).unwrap();
    assert_eq!(
        m.read_bits(&dst).unwrap(),
        vec![0x7FC1, 0x8000, 0x4000, 0xFF80, 0x3F80, 0x4040]
    );
    // The same through nc_transpose on the tensor engine.
    let dst2 = m.alloc_psum(DType::Bf16, &[2, 3]).unwrap();
    nc_transpose(&mut m, &dst2, &data, Engine::Tensor).unwrap();
    assert_eq!(m.read_bits(&dst2).unwrap(), m.read_bits(&dst).unwrap());
    // A moving that is not the identity, a dtype change, accumulation: refused.
    let not_id = sbuf(&mut m, DType::Bf16, &[3, 3], &[1.0; 9]);
    assert!(matches!(
        nc_matmul(&mut m, &dst, &data, &not_id, &t),
        Err(EmuError::Unsupported { .. })
    ));
    let f32dst = m.alloc_psum(DType::F32, &[2, 3]).unwrap();
    assert!(matches!(
        nc_matmul(&mut m, &f32dst, &data, &id, &t),
        Err(EmuError::DType { .. })
    ));
    let t_acc = MatmulOptions {
        accumulate: Some(true),
        ..t.clone()
    };
    assert!(matches!(
        nc_matmul(&mut m, &dst, &data, &id, &t_acc),
        Err(EmuError::Unsupported { .. })
    ));
}

#[test]
fn tensor_engine_transposes_on_v2_refuse_nan_and_inf() {
    let mut m = Memory::new(Target::Sunda);
    let data = sbuf(&mut m, DType::F32, &[2, 2], &[1.0, f32::INFINITY, 3.0, 4.0]);
    let dst = m.alloc_psum(DType::F32, &[2, 2]).unwrap();
    assert!(matches!(
        nc_transpose(&mut m, &dst, &data, Engine::Tensor),
        Err(EmuError::Unsupported { .. })
    ));
    let fine = sbuf(&mut m, DType::F32, &[2, 2], &[1.0, 2.0, 3.0, 4.0]);
    nc_transpose(&mut m, &dst, &fine, Engine::Tensor).unwrap();
    assert_eq!(m.read_f32(&dst).unwrap(), vec![1.0, 3.0, 2.0, 4.0]);
    let ints = m.alloc_sbuf(DType::I32, &[2, 2]).unwrap();
    m.write_i64(&ints, &[1, 2, 3, 4]).unwrap();
    let idst = m.alloc_psum(DType::I32, &[2, 2]).unwrap();
    assert!(matches!(
        nc_transpose(&mut m, &idst, &ints, Engine::Tensor),
        Err(EmuError::Unsupported { .. })
    ));
    // On v2 the is_transpose flag is a profiler mark: a normal fp32 matmul runs.
    let id = identity(&mut m, 2);
    let t = MatmulOptions {
        is_transpose: true,
        ..MatmulOptions::default()
    };
    let fine16 = sbuf(&mut m, DType::Bf16, &[2, 2], &[1.0, 2.0, 3.0, 4.0]);
    // dst was written by the transpose above, so accumulate=None adds to it.
    nc_matmul(&mut m, &dst, &fine16, &id, &t).unwrap();
    assert_eq!(m.read_f32(&dst).unwrap(), vec![2.0, 6.0, 4.0, 8.0]);
}

#[test]
fn vector_transpose_is_a_bit_copy_up_to_32x32() {
    let mut m = Memory::new(Target::Cayman);
    let src = m.alloc_sbuf(DType::I16, &[2, 3]).unwrap();
    m.write_i64(&src, &[1, 2, 3, 4, 5, 6]).unwrap();
    let dst = m.alloc_psum(DType::I16, &[3, 2]).unwrap();
    stream_transpose(&mut m, &dst, &src).unwrap();
    assert_eq!(m.read_i64(&dst).unwrap(), vec![1, 4, 2, 5, 3, 6]);
    let dst2 = m.alloc_sbuf(DType::I16, &[3, 2]).unwrap();
    nc_transpose(&mut m, &dst2, &src, Engine::Vector).unwrap();
    assert_eq!(m.read_i64(&dst2).unwrap(), vec![1, 4, 2, 5, 3, 6]);
    // Limits and rules.
    let big = m.alloc_sbuf(DType::I16, &[33, 1]).unwrap();
    let bdst = m.alloc_sbuf(DType::I16, &[1, 33]).unwrap();
    assert!(matches!(
        stream_transpose(&mut m, &bdst, &big),
        Err(EmuError::Shape { .. })
    ));
    let wrong = m.alloc_sbuf(DType::I16, &[2, 3]).unwrap();
    assert!(matches!(
        stream_transpose(&mut m, &wrong, &src),
        Err(EmuError::Shape { .. })
    ));
    let cast = m.alloc_sbuf(DType::I32, &[3, 2]).unwrap();
    assert!(matches!(
        stream_transpose(&mut m, &cast, &src),
        Err(EmuError::DType { .. })
    ));
    let h = m.alloc_hbm("h", DType::I16, &[3, 2]).unwrap();
    assert!(matches!(
        stream_transpose(&mut m, &h, &src),
        Err(EmuError::Memory { .. })
    ));
    assert!(matches!(
        nc_transpose(&mut m, &dst, &src, Engine::Scalar),
        Err(EmuError::Unsupported { .. })
    ));
    // Tensor engine: SBUF to PSUM only.
    assert!(matches!(
        nc_transpose(&mut m, &dst2, &src, Engine::Tensor),
        Err(EmuError::Memory { .. })
    ));
}

fn x4(vals: [f32; 4]) -> u64 {
    sundial_emu::dtype::pack_x4(DType::Fp8E4m3FnX4, vals).unwrap()
}

#[test]
fn mx_matmul_dequantises_with_per_group_scales_worked_by_hand() {
    let mut m = Memory::new(Target::Mariana);
    // K = 32 partitions (4 scale groups of 8), M = 2, N = 1.
    let st = m.alloc_sbuf(DType::Fp8E4m3FnX4, &[32, 2]).unwrap();
    let st_bits: Vec<u64> = (0..64)
        .map(|i| {
            if i % 2 == 0 {
                x4([1.0; 4])
            } else {
                x4([0.5; 4])
            }
        })
        .collect();
    m.write_bits(&st, &st_bits).unwrap();
    let mv = m.alloc_sbuf(DType::Fp8E4m3FnX4, &[32, 1]).unwrap();
    m.write_bits(&mv, &[x4([1.0; 4]); 32]).unwrap();
    // Stationary scales 2^0, 2^1, 2^2, 2^3 for groups 0..3 (both columns); moving 2^0.
    let ss = m.alloc_sbuf(DType::U8, &[4, 2]).unwrap();
    m.write_i64(&ss, &[127, 127, 128, 128, 129, 129, 130, 130])
        .unwrap();
    let ms = m.alloc_sbuf(DType::U8, &[4, 1]).unwrap();
    m.write_i64(&ms, &[127; 4]).unwrap();
    let dst = m.alloc_psum(DType::F32, &[2, 1]).unwrap();
    nc_matmul_mx(
        &mut m,
        &dst,
        &st,
        &mv,
        &ss,
        &ms,
        &MatmulMxOptions::default(),
    )
    .unwrap();
    // Column 0: 8 partitions x 4 lanes x (1 + 2 + 4 + 8) = 480; column 1 holds 0.5s: 240.
    assert_eq!(m.read_f32(&dst).unwrap(), vec![480.0, 240.0]);
    // Accumulates like nc_matmul.
    nc_matmul_mx(
        &mut m,
        &dst,
        &st,
        &mv,
        &ss,
        &ms,
        &MatmulMxOptions::default(),
    )
    .unwrap();
    assert_eq!(m.read_f32(&dst).unwrap(), vec![960.0, 480.0]);
}

#[test]
fn mx_scales_live_at_the_start_of_each_quadrant() {
    let mut m = Memory::new(Target::Mariana);
    let st = m.alloc_sbuf(DType::Fp8E4m3FnX4, &[64, 2]).unwrap();
    m.write_bits(&st, &[x4([1.0; 4]); 128]).unwrap();
    let mv = m.alloc_sbuf(DType::Fp8E4m3FnX4, &[64, 1]).unwrap();
    m.write_bits(&mv, &[x4([1.0; 4]); 64]).unwrap();
    // Quadrant 0's rows 0..4 hold 2^0, quadrant 1's rows 32..36 hold 2^1; every other
    // partition holds 200 (2^73), which must not be read.
    let ss = m.alloc_sbuf(DType::U8, &[64, 2]).unwrap();
    let codes: Vec<i64> = (0..64)
        .flat_map(|p| {
            let c = match p {
                0..4 => 127,
                32..36 => 128,
                _ => 200,
            };
            [c, c]
        })
        .collect();
    m.write_i64(&ss, &codes).unwrap();
    let ms = m.alloc_sbuf(DType::U8, &[64, 1]).unwrap();
    m.write_i64(
        &ms,
        &(0..64)
            .map(|p| if p % 32 < 4 { 127 } else { 200 })
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let dst = m.alloc_psum(DType::F32, &[2, 1]).unwrap();
    nc_matmul_mx(
        &mut m,
        &dst,
        &st,
        &mv,
        &ss,
        &ms,
        &MatmulMxOptions::default(),
    )
    .unwrap();
    // 32 partitions x 4 lanes x 1 + 32 x 4 x 2.
    assert_eq!(m.read_f32(&dst).unwrap(), vec![384.0, 384.0]);
}

#[test]
fn a_logical_scale_tile_holds_one_row_per_8_partitions() {
    // The same product with [K/8, cols] scale tiles (the logical scale tensor): row r at
    // partition r. Rows 0..4 hold 2^0 and rows 4..8 2^1 for the stationary tile; the moving
    // scales are all 2^0: 32 x 4 x 1 + 32 x 4 x 2 = 384 (hand-computed).
    let mut m = Memory::new(Target::Mariana);
    let st = m.alloc_sbuf(DType::Fp8E4m3FnX4, &[64, 2]).unwrap();
    m.write_bits(&st, &[x4([1.0; 4]); 128]).unwrap();
    let mv = m.alloc_sbuf(DType::Fp8E4m3FnX4, &[64, 1]).unwrap();
    m.write_bits(&mv, &[x4([1.0; 4]); 64]).unwrap();
    let ss = m.alloc_sbuf(DType::U8, &[8, 2]).unwrap();
    let codes: Vec<i64> = (0..8)
        .flat_map(|r| if r < 4 { [127, 127] } else { [128, 128] })
        .collect();
    m.write_i64(&ss, &codes).unwrap();
    let ms = m.alloc_sbuf(DType::U8, &[8, 1]).unwrap();
    m.write_i64(&ms, &[127; 8]).unwrap();
    let dst = m.alloc_psum(DType::F32, &[2, 1]).unwrap();
    nc_matmul_mx(
        &mut m,
        &dst,
        &st,
        &mv,
        &ss,
        &ms,
        &MatmulMxOptions::default(),
    )
    .unwrap();
    assert_eq!(m.read_f32(&dst).unwrap(), vec![384.0, 384.0]);
    // 9 partitions is neither the logical tile nor one reaching quadrant 1's rows (35).
    let odd = m.alloc_sbuf(DType::U8, &[9, 2]).unwrap();
    m.write_i64(&odd, &[127; 18]).unwrap();
    assert!(matches!(
        nc_matmul_mx(
            &mut m,
            &dst,
            &st,
            &mv,
            &odd,
            &ms,
            &MatmulMxOptions::default()
        ),
        Err(EmuError::Shape { .. })
    ));
}

#[test]
fn mx_matmul_error_paths() {
    let mut m = Memory::new(Target::Mariana);
    let st = m.alloc_sbuf(DType::Fp8E4m3FnX4, &[32, 2]).unwrap();
    m.write_bits(&st, &[0; 64]).unwrap();
    let mv = m.alloc_sbuf(DType::Fp8E5m2X4, &[32, 1]).unwrap();
    m.write_bits(&mv, &[0; 32]).unwrap();
    let ss = m.alloc_sbuf(DType::U8, &[4, 2]).unwrap();
    m.write_i64(&ss, &[127; 8]).unwrap();
    let ms = m.alloc_sbuf(DType::U8, &[4, 1]).unwrap();
    m.write_i64(&ms, &[127; 4]).unwrap();
    let dst = m.alloc_psum(DType::F32, &[2, 1]).unwrap();
    let d = MatmulMxOptions::default();
    nc_matmul_mx(&mut m, &dst, &st, &mv, &ss, &ms, &d).unwrap();
    // Non-MX data, an odd M, K not a multiple of 32, scales too short, column tiling.
    let bf = m.alloc_sbuf(DType::Bf16, &[32, 2]).unwrap();
    assert!(matches!(
        nc_matmul_mx(&mut m, &dst, &bf, &mv, &ss, &ms, &d),
        Err(EmuError::DType { .. })
    ));
    let odd = m.alloc_sbuf(DType::Fp8E4m3FnX4, &[32, 3]).unwrap();
    let dst3 = m.alloc_psum(DType::F32, &[3, 1]).unwrap();
    assert!(matches!(
        nc_matmul_mx(&mut m, &dst3, &odd, &mv, &ss, &ms, &d),
        Err(EmuError::Shape { .. })
    ));
    let k16 = m.alloc_sbuf(DType::Fp8E4m3FnX4, &[16, 2]).unwrap();
    assert!(matches!(
        nc_matmul_mx(&mut m, &dst, &k16, &mv, &ss, &ms, &d),
        Err(EmuError::Shape { .. })
    ));
    let short = m.alloc_sbuf(DType::U8, &[3, 2]).unwrap();
    assert!(matches!(
        nc_matmul_mx(&mut m, &dst, &st, &mv, &short, &ms, &d),
        Err(EmuError::Shape { .. })
    ));
    let cols = MatmulMxOptions {
        tile_position: Some([0, 64]),
        tile_size: Some([64, 64]),
        accumulate: None,
    };
    assert!(matches!(
        nc_matmul_mx(&mut m, &dst, &st, &mv, &ss, &ms, &cols),
        Err(EmuError::InvalidAccess { .. })
    ));
    let i8scale = m.alloc_sbuf(DType::I8, &[4, 2]).unwrap();
    assert!(matches!(
        nc_matmul_mx(&mut m, &dst, &st, &mv, &i8scale, &ms, &d),
        Err(EmuError::DType { .. })
    ));
    // Before v4: refused.
    let mut c = Memory::new(Target::Cayman);
    let st = c.alloc_sbuf(DType::Fp8E4m3FnX4, &[32, 2]).unwrap();
    let mv = c.alloc_sbuf(DType::Fp8E4m3FnX4, &[32, 1]).unwrap();
    let ss = c.alloc_sbuf(DType::U8, &[4, 2]).unwrap();
    let ms = c.alloc_sbuf(DType::U8, &[4, 1]).unwrap();
    let dst = c.alloc_psum(DType::F32, &[2, 1]).unwrap();
    assert!(matches!(
        nc_matmul_mx(&mut c, &dst, &st, &mv, &ss, &ms, &d),
        Err(EmuError::Unsupported { .. })
    ));
}

#[test]
fn dma_transposes_follow_numpy_transpose_order() {
    let mut m = Memory::new(Target::Cayman);
    // 2-D: (1, 0).
    let a = m.alloc_hbm("a", DType::Bf16, &[2, 3]).unwrap();
    m.write_f32(&a, &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
    let at = m.alloc_sbuf(DType::Bf16, &[3, 2]).unwrap();
    dma_transpose(&mut m, &at, &a, &[1, 0]).unwrap();
    assert_eq!(m.read_f32(&at).unwrap(), vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
    // 4-D: (3, 1, 2, 0): dst[d, b, c, a] = src[a, b, c, d]; src value = 1000a+100b+10c+d.
    let s4 = m.alloc_hbm("s4", DType::F16, &[2, 2, 3, 4]).unwrap();
    let vals: Vec<f32> = (0..48)
        .map(|i| {
            let (a, b, c, d) = (i / 24, i / 12 % 2, i / 4 % 3, i % 4);
            (1000 * a + 100 * b + 10 * c + d) as f32
        })
        .collect();
    m.write_f32(&s4, &vals).unwrap();
    let d4 = m.alloc_sbuf(DType::F16, &[4, 2, 3, 2]).unwrap();
    dma_transpose(&mut m, &d4, &s4, &[3, 1, 2, 0]).unwrap();
    let out = m.read_f32(&d4).unwrap();
    // dst[3, 1, 2, 1] is at ((3*2 + 1)*3 + 2)*2 + 1 = 47 and holds src[1, 1, 2, 3] = 1123.
    assert_eq!(out[47], 1123.0);
    // dst[2, 0, 1, 0] is at ((2*2 + 0)*3 + 1)*2 = 26 and holds src[0, 0, 1, 2] = 12.
    assert_eq!(out[26], 12.0);
    // (3, 1, 2, 0) is its own inverse: twice is the identity.
    let back = m.alloc_hbm("back", DType::F16, &[2, 2, 3, 4]).unwrap();
    let d4_copy = m.alloc_hbm("d4", DType::F16, &[4, 2, 3, 2]).unwrap();
    sundial_emu::dma_copy(&mut m, &d4_copy, &d4).unwrap();
    // dst must be SBUF, so transpose back into an SBUF tile and copy out.
    let back_sb = m.alloc_sbuf(DType::F16, &[2, 2, 3, 4]).unwrap();
    dma_transpose(&mut m, &back_sb, &d4_copy, &[3, 1, 2, 0]).unwrap();
    sundial_emu::dma_copy(&mut m, &back, &back_sb).unwrap();
    assert_eq!(m.read_f32(&back).unwrap(), vals);
    // 3-D: (2, 1, 0).
    let s3 = m.alloc_hbm("s3", DType::I16, &[2, 1, 3]).unwrap();
    m.write_i64(&s3, &[1, 2, 3, 4, 5, 6]).unwrap();
    let d3 = m.alloc_sbuf(DType::I16, &[3, 1, 2]).unwrap();
    dma_transpose(&mut m, &d3, &s3, &[2, 1, 0]).unwrap();
    assert_eq!(m.read_i64(&d3).unwrap(), vec![1, 4, 2, 5, 3, 6]);
    // 4-byte elements (int32 token ids; only the hardware DGE is limited to 2 bytes), with
    // values above 2^24 that an f32 detour would round.
    let ids = m.alloc_hbm("ids", DType::I32, &[2, 2]).unwrap();
    m.write_i64(&ids, &[16_777_217, -5, 7, 2_147_483_647])
        .unwrap();
    let idt = m.alloc_sbuf(DType::I32, &[2, 2]).unwrap();
    dma_transpose(&mut m, &idt, &ids, &[1, 0]).unwrap();
    assert_eq!(
        m.read_i64(&idt).unwrap(),
        vec![16_777_217, 7, -5, 2_147_483_647]
    );
}

#[test]
fn dma_transpose_error_paths() {
    let mut m = Memory::new(Target::Cayman);
    let a = m.alloc_hbm("a", DType::Bf16, &[2, 3]).unwrap();
    m.write_f32(&a, &[0.0; 6]).unwrap();
    let at = m.alloc_sbuf(DType::Bf16, &[3, 2]).unwrap();
    assert!(matches!(
        dma_transpose(&mut m, &at, &a, &[0, 1]),
        Err(EmuError::InvalidAccess { .. })
    ));
    let wrong = m.alloc_sbuf(DType::Bf16, &[2, 3]).unwrap();
    assert!(matches!(
        dma_transpose(&mut m, &wrong, &a, &[1, 0]),
        Err(EmuError::Shape { .. })
    ));
    // 1- and 8-byte elements are refused, and so is a dtype change.
    for (sd, dd) in [
        (DType::U8, DType::U8),
        (DType::I64, DType::I64),
        (DType::F32, DType::F16),
    ] {
        let s = m.alloc_hbm("s", sd, &[2, 3]).unwrap();
        let d = m.alloc_sbuf(dd, &[3, 2]).unwrap();
        assert!(
            matches!(
                dma_transpose(&mut m, &d, &s, &[1, 0]),
                Err(EmuError::DType { .. })
            ),
            "{sd} -> {dd}"
        );
    }
    let hdst = m.alloc_hbm("hd", DType::Bf16, &[3, 2]).unwrap();
    assert!(matches!(
        dma_transpose(&mut m, &hdst, &a, &[1, 0]),
        Err(EmuError::Memory { .. })
    ));
    let p = m.alloc_psum(DType::Bf16, &[2, 3]).unwrap();
    assert!(matches!(
        dma_transpose(&mut m, &at, &p, &[1, 0]),
        Err(EmuError::Memory { .. })
    ));
}

#[test]
fn the_indirect_dma_transpose_gathers_then_transposes() {
    let mut m = Memory::new(Target::Cayman);
    let table = m.alloc_hbm("table", DType::Bf16, &[4, 3]).unwrap();
    m.write_f32(&table, &(0..12).map(|i| i as f32).collect::<Vec<_>>())
        .unwrap();
    let idx = m.alloc_sbuf(DType::U32, &[2, 1]).unwrap();
    m.write_i64(&idx, &[3, 1]).unwrap();
    let src = Access::vector_offset(&table, 0, &idx).unwrap();
    let dst = m.alloc_sbuf(DType::Bf16, &[3, 2]).unwrap();
    dma_gather_transpose(&mut m, &dst, &src, &[1, 0], OobMode::Error).unwrap();
    // gathered = [[9, 10, 11], [3, 4, 5]]; transposed.
    assert_eq!(
        m.read_f32(&dst).unwrap(),
        vec![9.0, 3.0, 10.0, 4.0, 11.0, 5.0]
    );
    // Out of range in error mode writes nothing; in skip mode reads zeros.
    m.write_i64(&idx, &[3, 7]).unwrap();
    assert!(matches!(
        dma_gather_transpose(&mut m, &dst, &src, &[1, 0], OobMode::Error),
        Err(EmuError::IndexOutOfBounds { .. })
    ));
    assert_eq!(
        m.read_f32(&dst).unwrap(),
        vec![9.0, 3.0, 10.0, 4.0, 11.0, 5.0]
    );
    dma_gather_transpose(&mut m, &dst, &src, &[1, 0], OobMode::Skip).unwrap();
    assert_eq!(
        m.read_f32(&dst).unwrap(),
        vec![9.0, 0.0, 10.0, 0.0, 11.0, 0.0]
    );
    // int32 indices, an SBUF source, v2, no index tile: refused.
    let i32idx = m.alloc_sbuf(DType::I32, &[2, 1]).unwrap();
    m.write_i64(&i32idx, &[0, 1]).unwrap();
    let bad = Access::vector_offset(&table, 0, &i32idx).unwrap();
    assert!(matches!(
        dma_gather_transpose(&mut m, &dst, &bad, &[1, 0], OobMode::Error),
        Err(EmuError::DType { .. })
    ));
    let sb = m.alloc_sbuf(DType::Bf16, &[4, 3]).unwrap();
    let sbsrc = Access::vector_offset(&sb, 0, &idx).unwrap();
    assert!(matches!(
        dma_gather_transpose(&mut m, &dst, &sbsrc, &[1, 0], OobMode::Error),
        Err(EmuError::Memory { .. })
    ));
    assert!(matches!(
        dma_gather_transpose(
            &mut m,
            &dst,
            &Access::direct(&table),
            &[1, 0],
            OobMode::Error
        ),
        Err(EmuError::InvalidAccess { .. })
    ));
    let mut s = Memory::new(Target::Sunda);
    let t2 = s.alloc_hbm("t", DType::Bf16, &[4, 3]).unwrap();
    let i2 = s.alloc_sbuf(DType::U32, &[2, 1]).unwrap();
    let d2 = s.alloc_sbuf(DType::Bf16, &[3, 2]).unwrap();
    let a2 = Access::vector_offset(&t2, 0, &i2).unwrap();
    assert!(matches!(
        dma_gather_transpose(&mut s, &d2, &a2, &[1, 0], OobMode::Error),
        Err(EmuError::Unsupported { .. })
    ));
}

/// Plain-loop reference of `stationary.T @ moving` for small integers (exact in fp32).
fn reference(s: &[f32], mv: &[f32], k: usize, m: usize, n: usize) -> Vec<f32> {
    let mut out = vec![0f32; m * n];
    for i in 0..m {
        for j in 0..n {
            out[i * n + j] = (0..k).map(|kk| s[kk * m + i] * mv[kk * n + j]).sum();
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Accumulating two matmuls into one PSUM tile equals the sum of the two products.
    #[test]
    fn matmul_accumulation_is_the_sum_of_the_matmuls(
        k in 1usize..=8, mm in 1usize..=6, n in 1usize..=6,
        seed in any::<u64>(),
    ) {
        let mut state = seed | 1;
        let mut small = || {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17;
            ((state % 17) as f32) - 8.0
        };
        let (s1, m1, s2, m2): (Vec<f32>, Vec<f32>, Vec<f32>, Vec<f32>) = (
            (0..k * mm).map(|_| small()).collect(),
            (0..k * n).map(|_| small()).collect(),
            (0..k * mm).map(|_| small()).collect(),
            (0..k * n).map(|_| small()).collect(),
        );
        let mut mem = Memory::new(Target::Cayman);
        let a1 = sbuf(&mut mem, DType::Bf16, &[k, mm], &s1);
        let b1 = sbuf(&mut mem, DType::Bf16, &[k, n], &m1);
        let a2 = sbuf(&mut mem, DType::F16, &[k, mm], &s2);
        let b2 = sbuf(&mut mem, DType::F16, &[k, n], &m2);
        let dst = mem.alloc_psum(DType::F32, &[mm, n]).unwrap();
        nc_matmul(&mut mem, &dst, &a1, &b1, &MatmulOptions::default()).unwrap();
        nc_matmul(&mut mem, &dst, &a2, &b2, &MatmulOptions::default()).unwrap();
        let want: Vec<f32> = reference(&s1, &m1, k, mm, n)
            .iter()
            .zip(reference(&s2, &m2, k, mm, n))
            .map(|(a, b)| a + b)
            .collect();
        prop_assert_eq!(mem.read_f32(&dst).unwrap(), want);
    }

    /// Transposing twice is the identity, bit for bit (Vector engine, and the DMA).
    #[test]
    fn transposing_twice_is_the_identity(
        p in 1usize..=32, f in 1usize..=32, bits in proptest::collection::vec(any::<u16>(), 1024),
    ) {
        let mut mem = Memory::new(Target::Cayman);
        let src = mem.alloc_sbuf(DType::Bf16, &[p, f]).unwrap();
        let data: Vec<u64> = bits[..p * f].iter().map(|&b| u64::from(b)).collect();
        mem.write_bits(&src, &data).unwrap();
        let mid = mem.alloc_psum(DType::Bf16, &[f, p]).unwrap();
        stream_transpose(&mut mem, &mid, &src).unwrap();
        let back = mem.alloc_sbuf(DType::Bf16, &[p, f]).unwrap();
        stream_transpose(&mut mem, &back, &mid).unwrap();
        prop_assert_eq!(mem.read_bits(&back).unwrap(), data.clone());
        let once = mem.alloc_sbuf(DType::Bf16, &[f, p]).unwrap();
        dma_transpose(&mut mem, &once, &src, &[1, 0]).unwrap();
        let twice = mem.alloc_sbuf(DType::Bf16, &[p, f]).unwrap();
        dma_transpose(&mut mem, &twice, &once, &[1, 0]).unwrap();
        prop_assert_eq!(mem.read_bits(&twice).unwrap(), data);
    }
}
