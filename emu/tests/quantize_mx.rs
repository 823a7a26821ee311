//! `quantize_mx`: hand-computed scales and data under both scale rules, the quadrant
//! layout of the scales, and error paths.
//!
//! The scale codes below are worked by hand from each rule's formula (nki-semantics "Scale
//! formula — conflict"); which rule the hardware follows is not settled, so each golden
//! pins one rule's formula, not hardware behaviour.

use sundial_emu::dtype::unpack_x4;
use sundial_emu::{DType, EmuError, Memory, MxScaleRule, Target, View, quantize_mx};

/// A `[32, 4]` bfloat16 source: one x4 column, four scaling groups of 8 partitions.
///
/// - group 0: 1.0 everywhere except partition 0, lane 0 = 3.796875 (bf16 0x4073): amax
///   3.796875 = 1.898 * 2^1, fp32 biased exponent 128;
/// - group 1: all zeros (exponent 0);
/// - group 2: 0.1 (bf16 0x3DCD = 0.10009765625 = 1.6016 * 2^-4, exponent 123);
/// - group 3: -2.5 (= -1.25 * 2^1, exponent 128).
fn source(m: &mut Memory) -> View {
    let src = m.alloc_sbuf(DType::Bf16, &[32, 4]).unwrap();
    let mut vals = vec![0f32; 128];
    for p in 0..32 {
        for q in 0..4 {
            vals[p * 4 + q] = match p / 8 {
                0 => 1.0,
                1 => 0.0,
                2 => 0.1,
                _ => -2.5,
            };
        }
    }
    vals[0] = 3.796875;
    m.write_f32(&src, &vals).unwrap();
    src
}

fn run(rule: MxScaleRule) -> (Vec<i64>, Vec<[f32; 4]>) {
    let mut m = Memory::new(Target::Mariana);
    let src = source(&mut m);
    let dst = m.alloc_sbuf(DType::Fp8E4m3FnX4, &[32, 1]).unwrap();
    let scale = m.alloc_sbuf(DType::U8, &[4, 1]).unwrap();
    quantize_mx(&mut m, &dst, &scale, &src, rule).unwrap();
    let words = m.read_bits(&dst).unwrap();
    let lanes = words
        .iter()
        .map(|&w| unpack_x4(DType::Fp8E4m3FnX4, w).unwrap())
        .collect();
    (m.read_i64(&scale).unwrap(), lanes)
}

#[test]
fn golden_rule_scale_is_the_max_exponent_minus_emax() {
    let (scales, lanes) = run(MxScaleRule::GoldenEmax);
    // e4m3fn Emax = 8: 128 - 8, the all-zero group clamps to 0, 123 - 8, 128 - 8.
    assert_eq!(scales, vec![120, 0, 115, 120]);
    // Group 0, scale 2^-7: 3.796875 * 128 = 486 clips to 448; 1.0 -> 128.
    assert_eq!(lanes[0], [448.0, 128.0, 128.0, 128.0]);
    assert_eq!(lanes[7], [128.0; 4]);
    // Group 1: zeros stay zero.
    assert_eq!(lanes[8], [0.0; 4]);
    // Group 2, scale 2^-12: 0.10009765625 * 4096 = 410, between 384 and 416 (spacing 32
    // for exponent 8): rounds to 416.
    assert_eq!(lanes[16], [416.0; 4]);
    // Group 3: -2.5 * 128 = -320, exact.
    assert_eq!(lanes[31], [-320.0; 4]);
}

#[test]
fn twice_ocp_rule_scale_is_one_code_larger() {
    let (scales, lanes) = run(MxScaleRule::TwiceOcp);
    // 128 - 8 + 1, the all-zero group still 0, 123 - 8 + 1, 128 - 8 + 1.
    assert_eq!(scales, vec![121, 0, 116, 121]);
    // Scale 2^-6: 3.796875 * 64 = 243, between 240 and 256 (spacing 16): 240; 1.0 -> 64.
    assert_eq!(lanes[0], [240.0, 64.0, 64.0, 64.0]);
    assert_eq!(lanes[8], [0.0; 4]);
    // Scale 2^-11: 0.10009765625 * 2048 = 205, between 192 and 208: 208.
    assert_eq!(lanes[16], [208.0; 4]);
    assert_eq!(lanes[31], [-160.0; 4]);
}

#[test]
fn the_rules_compute_their_codes_from_the_exponent() {
    assert_eq!(MxScaleRule::GoldenEmax.scale_code(127, 15), 112);
    assert_eq!(MxScaleRule::TwiceOcp.scale_code(127, 15), 113);
    assert_eq!(MxScaleRule::GoldenEmax.scale_code(3, 8), 0);
    assert_eq!(MxScaleRule::TwiceOcp.scale_code(8, 8), 1);
}

#[test]
fn scales_go_to_the_first_four_partitions_of_each_quadrant() {
    let mut m = Memory::new(Target::Mariana);
    // P = 64, F = 8: 8 groups of 8 partitions x 2 columns. Value 2^(g) in group g, e5m2.
    let src = m.alloc_sbuf(DType::F16, &[64, 8]).unwrap();
    let vals: Vec<f32> = (0..64 * 8i32).map(|i| 2f32.powi(i / 8 / 8)).collect();
    m.write_f32(&src, &vals).unwrap();
    let dst = m.alloc_sbuf(DType::Fp8E5m2X4, &[64, 2]).unwrap();
    let scale = m.alloc_sbuf(DType::Fp8E8m0, &[64, 3]).unwrap();
    m.write_bits(&scale, &[77; 192]).unwrap();
    quantize_mx(&mut m, &dst, &scale, &src, MxScaleRule::GoldenEmax).unwrap();
    let got = m.read_bits(&scale).unwrap();
    for p in 0..64 {
        for c in 0..3 {
            let want = match (p, c) {
                // Group g = (p/32)*4 + p%32 at rows 0..4 and 32..36; 127 + g - 15.
                (0..4 | 32..36, 0..2) => (p / 32 * 4 + p % 32) as u64 + 127 - 15,
                _ => 77,
            };
            assert_eq!(got[p * 3 + c], want, "partition {p} column {c}");
        }
    }
    // Every element is 2^g / 2^(g - 15) = 2^15 = 32768 in e5m2.
    let words = m.read_bits(&dst).unwrap();
    assert!(
        words
            .iter()
            .all(|&w| unpack_x4(DType::Fp8E5m2X4, w).unwrap() == [32768.0; 4])
    );
}

#[test]
fn a_logical_scale_tile_takes_group_row_g_at_partition_g() {
    // The source of the quadrant test into an [8, 2] scale tile (the logical [P/8, F/4]
    // scale tensor): group g's codes 127 + g - 15 at partition g, hand-computed.
    let mut m = Memory::new(Target::Mariana);
    let src = m.alloc_sbuf(DType::F16, &[64, 8]).unwrap();
    let vals: Vec<f32> = (0..64 * 8i32).map(|i| 2f32.powi(i / 8 / 8)).collect();
    m.write_f32(&src, &vals).unwrap();
    let dst = m.alloc_sbuf(DType::Fp8E5m2X4, &[64, 2]).unwrap();
    let scale = m.alloc_sbuf(DType::Fp8E8m0, &[8, 2]).unwrap();
    quantize_mx(&mut m, &dst, &scale, &src, MxScaleRule::GoldenEmax).unwrap();
    let want: Vec<u64> = (0..8u64).flat_map(|g| [g + 112, g + 112]).collect();
    assert_eq!(m.read_bits(&scale).unwrap(), want);
}

#[test]
fn quantize_mx_error_paths() {
    let mut m = Memory::new(Target::Mariana);
    let src = source(&mut m);
    let dst = m.alloc_sbuf(DType::Fp8E4m3FnX4, &[32, 1]).unwrap();
    let scale = m.alloc_sbuf(DType::U8, &[4, 1]).unwrap();
    let r = MxScaleRule::GoldenEmax;
    // fp4 output, an fp32 source, a 16-partition source, F not a multiple of 4.
    let fp4 = m.alloc_sbuf(DType::Fp4E2m1FnX4, &[32, 1]).unwrap();
    assert!(matches!(
        quantize_mx(&mut m, &fp4, &scale, &src, r),
        Err(EmuError::DType { .. })
    ));
    let f32src = m.alloc_sbuf(DType::F32, &[32, 4]).unwrap();
    assert!(matches!(
        quantize_mx(&mut m, &dst, &scale, &f32src, r),
        Err(EmuError::DType { .. })
    ));
    let p16 = m.alloc_sbuf(DType::Bf16, &[16, 4]).unwrap();
    assert!(matches!(
        quantize_mx(&mut m, &dst, &scale, &p16, r),
        Err(EmuError::Shape { .. })
    ));
    let f6 = m.alloc_sbuf(DType::Bf16, &[32, 6]).unwrap();
    assert!(matches!(
        quantize_mx(&mut m, &dst, &scale, &f6, r),
        Err(EmuError::Shape { .. })
    ));
    // Scales that do not reach the last group's row.
    let small = m.alloc_sbuf(DType::U8, &[3, 1]).unwrap();
    assert!(matches!(
        quantize_mx(&mut m, &dst, &small, &src, r),
        Err(EmuError::Shape { .. })
    ));
    let iscale = m.alloc_sbuf(DType::I8, &[4, 1]).unwrap();
    assert!(matches!(
        quantize_mx(&mut m, &dst, &iscale, &src, r),
        Err(EmuError::DType { .. })
    ));
    // NaN/Inf input.
    let inf = m.alloc_sbuf(DType::F16, &[32, 4]).unwrap();
    m.write_f32(&inf, &[f32::INFINITY; 128]).unwrap();
    assert!(matches!(
        quantize_mx(&mut m, &dst, &scale, &inf, r),
        Err(EmuError::Unsupported { .. })
    ));
    // PSUM source, v3.
    let p = m.alloc_psum(DType::Bf16, &[32, 4]).unwrap();
    assert!(matches!(
        quantize_mx(&mut m, &dst, &scale, &p, r),
        Err(EmuError::Memory { .. })
    ));
    let mut c = Memory::new(Target::Cayman);
    let src = source(&mut c);
    let dst = c.alloc_sbuf(DType::Fp8E4m3FnX4, &[32, 1]).unwrap();
    let scale = c.alloc_sbuf(DType::U8, &[4, 1]).unwrap();
    assert!(matches!(
        quantize_mx(&mut c, &dst, &scale, &src, r),
        Err(EmuError::Unsupported { .. })
    ));
}
