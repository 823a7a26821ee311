//! Properties of the compute ops: exhaustive lossless cast round trips, and random cases
//! checked against relations between ops (identity stages are copies, add commutes, two
//! different scans agree) or against naive independent models (wrapping int32, iota).

use proptest::prelude::*;
use sundial_emu::*;

/// An exact integer model of an operator.
type Model = fn(i64, i64) -> i64;

fn mem() -> Memory {
    Memory::new(Target::Sunda)
}

fn sb(m: &mut Memory, d: DType, shape: &[usize]) -> View {
    m.alloc_sbuf(d, shape).unwrap()
}

/// Every code of a `width`-bit type, as a `[rows, 2^width / rows]` tile.
fn every_code(m: &mut Memory, d: DType, width: u32, rows: usize) -> View {
    let n = 1usize << width;
    let v = sb(m, d, &[rows, n / rows]);
    let codes: Vec<u64> = (0..n as u64).collect();
    m.write_bits(&v, &codes).unwrap();
    v
}

fn is_nan_code(d: DType, b: u64) -> bool {
    d.to_f32(b).is_some_and(f32::is_nan)
}

#[test]
fn every_8_and_16_bit_code_round_trips_through_fp32() {
    let cases = [
        (DType::U8, 8, 1),
        (DType::I8, 8, 1),
        (DType::Fp8E4m3, 8, 1),
        (DType::Fp8E4m3Fn, 8, 1),
        (DType::Fp8E5m2, 8, 1),
        (DType::Fp8E3m4, 8, 1),
        (DType::U16, 16, 128),
        (DType::I16, 16, 128),
        (DType::F16, 16, 128),
        (DType::Bf16, 16, 128),
    ];
    for (d, width, rows) in cases {
        let mut m = mem();
        let src = every_code(&mut m, d, width, rows);
        let mid = sb(&mut m, DType::F32, src.shape());
        let back = sb(&mut m, d, src.shape());
        tensor_copy(&mut m, &mid, &src, Some(Engine::Vector)).unwrap();
        tensor_copy(&mut m, &back, &mid, Some(Engine::Vector)).unwrap();
        let got = m.read_bits(&back).unwrap();
        for (code, &b) in got.iter().enumerate() {
            let code = code as u64;
            if is_nan_code(d, code) {
                // NaN stays NaN (its sign and payload are not kept by every format).
                assert!(
                    is_nan_code(d, b),
                    "{d} NaN code {code:#x} came back as {b:#x}"
                );
            } else {
                assert_eq!(b, code, "{d} code {code:#x}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn int32_values_within_2_24_round_trip_through_fp32(
        vals in prop::collection::vec(-(1i64 << 24)..=(1i64 << 24), 1..64)
    ) {
        let mut m = mem();
        let n = vals.len();
        let src = sb(&mut m, DType::I32, &[1, n]);
        m.write_i64(&src, &vals).unwrap();
        let mid = sb(&mut m, DType::F32, &[1, n]);
        let back = sb(&mut m, DType::I32, &[1, n]);
        tensor_copy(&mut m, &mid, &src, Some(Engine::Vector)).unwrap();
        tensor_copy(&mut m, &back, &mid, Some(Engine::Vector)).unwrap();
        prop_assert_eq!(m.read_i64(&back).unwrap(), vals);
    }

    #[test]
    fn identity_tensor_scalar_stages_are_copies(
        vals in prop::collection::vec(-1.0e6f32..1.0e6, 1..48),
        dst_pick in 0usize..6,
        parts in 1usize..4,
    ) {
        let dsts = [DType::F32, DType::Bf16, DType::F16, DType::Fp8E4m3, DType::I16, DType::U8];
        let d = dsts[dst_pick];
        let free = vals.len();
        let mut m = mem();
        let x = sb(&mut m, DType::F32, &[parts, free]);
        let all: Vec<f32> = (0..parts).flat_map(|_| vals.iter().copied()).collect();
        m.write_f32(&x, &all).unwrap();
        let copied = sb(&mut m, d, &[parts, free]);
        tensor_copy(&mut m, &copied, &x, Some(Engine::Vector)).unwrap();
        let want = m.read_bits(&copied).unwrap();
        let out = sb(&mut m, d, &[parts, free]);
        for (op, v) in [(AluOp::Mult, 1.0), (AluOp::Bypass, 5.0), (AluOp::Divide, 1.0)] {
            let st = Stage { op, operand: Some(Scalar::Imm(v)), reverse: false };
            tensor_scalar_arith(&mut m, &out, &x, &st, None, Some(Engine::Vector)).unwrap();
            prop_assert_eq!(&m.read_bits(&out).unwrap(), &want, "{}", op.name());
        }
        // A [P, 1] tile of ones is the same operand as the immediate 1.0.
        let ones = sb(&mut m, DType::F32, &[parts, 1]);
        m.write_f32(&ones, &vec![1.0; parts]).unwrap();
        let st = Stage { op: AluOp::Mult, operand: Some(Scalar::Tile(&ones)), reverse: true };
        tensor_scalar_arith(&mut m, &out, &x, &st, None, Some(Engine::Vector)).unwrap();
        prop_assert_eq!(&m.read_bits(&out).unwrap(), &want);
    }

    #[test]
    fn add_and_mult_commute(
        pairs in prop::collection::vec((any::<f32>(), any::<f32>()), 1..48),
        bf16 in any::<bool>(),
    ) {
        let pairs: Vec<(f32, f32)> = pairs.into_iter().filter(|(a, b)| !a.is_nan() && !b.is_nan()).collect();
        prop_assume!(!pairs.is_empty());
        let d = if bf16 { DType::Bf16 } else { DType::F32 };
        let n = pairs.len();
        let mut m = mem();
        let a = sb(&mut m, DType::F32, &[1, n]);
        let b = sb(&mut m, DType::F32, &[1, n]);
        m.write_f32(&a, &pairs.iter().map(|p| p.0).collect::<Vec<_>>()).unwrap();
        m.write_f32(&b, &pairs.iter().map(|p| p.1).collect::<Vec<_>>()).unwrap();
        let ab = sb(&mut m, d, &[1, n]);
        let ba = sb(&mut m, d, &[1, n]);
        for op in [AluOp::Add, AluOp::Mult] {
            tensor_tensor_arith(&mut m, &ab, &a, &b, op, Some(Engine::Vector)).unwrap();
            tensor_tensor_arith(&mut m, &ba, &b, &a, op, Some(Engine::Vector)).unwrap();
            prop_assert_eq!(m.read_bits(&ab).unwrap(), m.read_bits(&ba).unwrap());
        }
    }

    #[test]
    fn native_int32_arithmetic_is_arithmetic_modulo_2_32(
        pairs in prop::collection::vec((any::<i32>(), any::<i32>()), 1..48)
    ) {
        let n = pairs.len();
        let mut m = mem();
        let a = sb(&mut m, DType::I32, &[1, n]);
        let b = sb(&mut m, DType::I32, &[1, n]);
        m.write_i64(&a, &pairs.iter().map(|p| i64::from(p.0)).collect::<Vec<_>>()).unwrap();
        m.write_i64(&b, &pairs.iter().map(|p| i64::from(p.1)).collect::<Vec<_>>()).unwrap();
        let d = sb(&mut m, DType::I32, &[1, n]);
        // The model: exact i64 arithmetic reduced to the low 32 bits.
        let models: [(AluOp, Model); 3] = [
            (AluOp::Add, |x, y| x + y),
            (AluOp::Subtract, |x, y| x - y),
            (AluOp::Mult, |x, y| x * y),
        ];
        for (op, f) in models {
            tensor_tensor_arith(&mut m, &d, &a, &b, op, Some(Engine::GpSimd)).unwrap();
            let want: Vec<i64> = pairs.iter().map(|&(x, y)| i64::from(f(x.into(), y.into()) as i32)).collect();
            prop_assert_eq!(m.read_i64(&d).unwrap(), want, "{}", op.name());
        }
    }

    #[test]
    fn iota_matches_a_naive_model(
        dims in prop::collection::vec((-50i64..50, 1i64..4), 1..=4),
        offset in -1000i64..1000,
        mult in -100i64..100,
        parts in 1usize..6,
    ) {
        let free: usize = dims.iter().map(|d| d.1 as usize).product();
        let pattern: Vec<[i64; 2]> = dims.iter().map(|&(s, n)| [s, n]).collect();
        let mut m = mem();
        let d = sb(&mut m, DType::I32, &[parts, free]);
        iota(&mut m, &d, &pattern, offset, mult).unwrap();
        let mut want = Vec::new();
        for c in 0..parts as i64 {
            for flat in 0..free {
                // Decompose the flat index, innermost dimension last.
                let mut rest = flat as i64;
                let mut v = offset + c * mult;
                for &(step, num) in dims.iter().rev() {
                    v += (rest % num) * step;
                    rest /= num;
                }
                want.push(v);
            }
        }
        prop_assert_eq!(m.read_i64(&d).unwrap(), want);
    }

    #[test]
    fn a_unit_scan_and_the_cumulative_add_agree(
        vals in prop::collection::vec(-100i32..100, 1..32),
        parts in 1usize..4,
    ) {
        // tensor_tensor_scan(op0 = mult by data0 = 1, op1 = add data1) and
        // tensor_scalar_cumulative(op0 = mult 1, op1 = add) are both prefix sums.
        let free = vals.len();
        let x: Vec<f32> = (0..parts).flat_map(|_| vals.iter().map(|&v| v as f32)).collect();
        let mut m = mem();
        let mut acc = Accumulators::new();
        let data = sb(&mut m, DType::F32, &[parts, free]);
        m.write_f32(&data, &x).unwrap();
        let ones = sb(&mut m, DType::F32, &[parts, free]);
        m.write_f32(&ones, &vec![1.0; parts * free]).unwrap();
        let s1 = sb(&mut m, DType::F32, &[parts, free]);
        let s2 = sb(&mut m, DType::F32, &[parts, free]);
        let ops = ScanOps { op0: AluOp::Mult, op1: AluOp::Add, reverse0: false, reverse1: false };
        tensor_tensor_scan(&mut m, &s1, &ones, &data, &Scalar::Imm(0.0), &ops).unwrap();
        let cum = Cumulative {
            op0: AluOp::Mult,
            imm0: 1.0,
            op1: AluOp::Add,
            imm1: None,
            reduce_cmd: ReduceCmd::ResetReduce,
        };
        tensor_scalar_cache_cumulative(&mut m, &mut acc, &s2, &data, &cum).unwrap();
        prop_assert_eq!(m.read_bits(&s1).unwrap(), m.read_bits(&s2).unwrap());
        // Small integers: the prefix sums are exact.
        let last: i32 = vals.iter().sum();
        prop_assert_eq!(acc.get(AccEngine::Vector, 0), Some(last as f32));
    }

    #[test]
    fn max_reduction_is_the_largest_element_in_any_order(
        mut vals in prop::collection::vec(-1.0e6f32..1.0e6, 1..40),
        seed in any::<u64>(),
    ) {
        let want = vals.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        // A seeded shuffle: the reduction must not depend on element order.
        let mut s = seed;
        for i in (1..vals.len()).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            vals.swap(i, (s >> 33) as usize % (i + 1));
        }
        let n = vals.len();
        let mut m = mem();
        let x = sb(&mut m, DType::F32, &[1, n]);
        m.write_f32(&x, &vals).unwrap();
        let d = sb(&mut m, DType::F32, &[1, 1]);
        tensor_reduce_arith(&mut m, &d, &x, AluOp::Max, &[1], false, true).unwrap();
        prop_assert_eq!(m.read_f32(&d).unwrap(), vec![want]);
    }
}
