//! Compute-op semantics: hand-written goldens (from the NKI docs' pseudocode, NumPy
//! semantics and the format definitions, bit patterns worked out by hand) and every op's
//! error paths. A golden that pins one of our own readings says so.

use sundial_emu::*;

// ------------------------------------------------------------------------------ helpers

fn mem() -> Memory {
    Memory::new(Target::Mariana)
}

fn sb(m: &mut Memory, d: DType, shape: &[usize]) -> View {
    m.alloc_sbuf(d, shape).unwrap()
}

fn ps(m: &mut Memory, d: DType, shape: &[usize]) -> View {
    m.alloc_psum(d, shape).unwrap()
}

fn sb_f32(m: &mut Memory, shape: &[usize], vals: &[f32]) -> View {
    let v = sb(m, DType::F32, shape);
    m.write_f32(&v, vals).unwrap();
    v
}

fn sb_bits(m: &mut Memory, d: DType, shape: &[usize], bits: &[u64]) -> View {
    let v = sb(m, d, shape);
    m.write_bits(&v, bits).unwrap();
    v
}

fn f32s(m: &Memory, v: &View) -> Vec<f32> {
    m.read_f32(v).unwrap()
}

fn bits(m: &Memory, v: &View) -> Vec<u64> {
    m.read_bits(v).unwrap()
}

fn no_semantics(r: Result<()>) -> String {
    match r {
        Err(e @ EmuError::NoPublicSemantics { .. }) => e.to_string(),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

fn is_dtype_err(r: Result<()>) {
    assert!(matches!(r, Err(EmuError::DType { .. })), "{r:?}");
}
fn is_shape_err(r: Result<()>) {
    assert!(matches!(r, Err(EmuError::Shape { .. })), "{r:?}");
}
fn is_memory_err(r: Result<()>) {
    assert!(matches!(r, Err(EmuError::Memory { .. })), "{r:?}");
}
fn is_invalid(r: Result<()>) {
    assert!(matches!(r, Err(EmuError::InvalidAccess { .. })), "{r:?}");
}
fn is_unsupported(r: Result<()>) {
    assert!(matches!(r, Err(EmuError::Unsupported { .. })), "{r:?}");
}

/// Casts one fp32 bit pattern to `d` through tensor_copy (the fp32 -> dtype output cast
/// every arithmetic op uses) and returns the destination bits.
fn cast_f32_bits(f32_bits: u32, d: DType) -> u64 {
    let mut m = mem();
    let src = sb_bits(&mut m, DType::F32, &[1, 1], &[u64::from(f32_bits)]);
    let dst = sb(&mut m, d, &[1, 1]);
    tensor_copy(&mut m, &dst, &src, Some(Engine::Vector)).unwrap();
    bits(&m, &dst)[0]
}

fn cast_f32(v: f32, d: DType) -> u64 {
    cast_f32_bits(v.to_bits(), d)
}

// ------------------------------------------------------------------------ numerics

#[test]
fn bf16_rounds_to_nearest_even_on_ties_written_as_bit_patterns() {
    // 1 + 2^-8 = 0x3F808000: exactly between bf16 0x3F80 (even) and 0x3F81 -> 0x3F80.
    assert_eq!(cast_f32_bits(0x3F80_8000, DType::Bf16), 0x3F80);
    // 0x3F818000: between 0x3F81 and 0x3F82 (even) -> 0x3F82.
    assert_eq!(cast_f32_bits(0x3F81_8000, DType::Bf16), 0x3F82);
    // One ulp above the tie rounds up; one below rounds down.
    assert_eq!(cast_f32_bits(0x3F80_8001, DType::Bf16), 0x3F81);
    assert_eq!(cast_f32_bits(0x3F80_7FFF, DType::Bf16), 0x3F80);
    // Negative tie: sign kept, magnitude to even.
    assert_eq!(cast_f32_bits(0xBF80_8000, DType::Bf16), 0xBF80);
    // FP32_MAX rounds up past the largest bf16 (0x7F7F) to +Inf; FP32_MIN to -Inf
    // (nki.isa.range_select: FP32_MIN "will become -INF" in BF16).
    assert_eq!(cast_f32_bits(0x7F7F_FFFF, DType::Bf16), 0x7F80);
    assert_eq!(cast_f32_bits(0xFF7F_FFFF, DType::Bf16), 0xFF80);
    // NaN stays NaN (exponent all ones, mantissa nonzero).
    let nan = cast_f32(f32::NAN, DType::Bf16);
    assert_eq!(nan & 0x7F80, 0x7F80);
    assert_ne!(nan & 0x007F, 0);
}

#[test]
fn f16_rounds_to_nearest_even_and_overflows_to_inf() {
    // 1 + 2^-11 is the tie between 0x3C00 (even) and 0x3C01.
    assert_eq!(cast_f32(1.0 + 2f32.powi(-11), DType::F16), 0x3C00);
    // 1 + 3 * 2^-11 is the tie between 0x3C01 and 0x3C02 (even).
    assert_eq!(cast_f32(1.0 + 3.0 * 2f32.powi(-11), DType::F16), 0x3C02);
    // 65504 = 0x7BFF is the largest finite; 65520 is the tie with the next (odd mantissa
    // 0x3FF vs the even overflow): rounds up to +Inf = 0x7C00.
    assert_eq!(cast_f32(65504.0, DType::F16), 0x7BFF);
    assert_eq!(cast_f32(65519.0, DType::F16), 0x7BFF);
    assert_eq!(cast_f32(65520.0, DType::F16), 0x7C00);
    // Subnormals: 2^-24 is 0x0001; 2^-25 is the tie between 0 (even) and 0x0001.
    assert_eq!(cast_f32(2f32.powi(-24), DType::F16), 0x0001);
    assert_eq!(cast_f32(2f32.powi(-25), DType::F16), 0x0000);
    assert_eq!(cast_f32(f32::MIN, DType::F16), 0xFC00);
}

#[test]
fn fp8_formats_round_to_even_and_overflow_per_their_special_codes() {
    // e4m3 (IEEE-style, max 240 = 0x77): 247 rounds down to 240; 248 is the tie between
    // 240 (mantissa 111, odd) and 256 (even, exponent 15 = Inf): -> +Inf 0x78.
    assert_eq!(cast_f32(240.0, DType::Fp8E4m3), 0x77);
    assert_eq!(cast_f32(247.0, DType::Fp8E4m3), 0x77);
    assert_eq!(cast_f32(248.0, DType::Fp8E4m3), 0x78);
    // FP32_MIN -> -Inf in fp8 (the range_select note).
    assert_eq!(cast_f32(f32::MIN, DType::Fp8E4m3), 0xF8);
    assert_eq!(cast_f32(f32::MIN, DType::Fp8E5m2), 0xFC);
    // e5m2: 57344 = 0x7B is the max; 61440 is the tie with 65536 (even) -> +Inf 0x7C.
    assert_eq!(cast_f32(57344.0, DType::Fp8E5m2), 0x7B);
    assert_eq!(cast_f32(61440.0, DType::Fp8E5m2), 0x7C);
    // e4m3fn has no Inf: 448 = 0x7E; 464 ties to even 448; beyond -> NaN (S.1111.111).
    assert_eq!(cast_f32(448.0, DType::Fp8E4m3Fn), 0x7E);
    assert_eq!(cast_f32(464.0, DType::Fp8E4m3Fn), 0x7E);
    assert_eq!(cast_f32(480.0, DType::Fp8E4m3Fn), 0x7F);
    assert_eq!(cast_f32(-1000.0, DType::Fp8E4m3Fn), 0xFF);
    assert_eq!(cast_f32(f32::INFINITY, DType::Fp8E4m3Fn), 0x7F);
    // 1.0625 is the tie between 1.0 (0x38, even) and 1.125 (0x39) in e4m3.
    assert_eq!(cast_f32(1.0625, DType::Fp8E4m3), 0x38);
    assert_eq!(cast_f32(1.1875, DType::Fp8E4m3), 0x3A);
}

#[test]
fn float_to_int_truncates_and_saturates_a_pinned_assumption() {
    // Pinned assumption (the public docs do not state the rule): truncation toward zero,
    // saturation at the range, NaN -> 0.
    assert_eq!(cast_f32(127.9, DType::I8), 127);
    assert_eq!(cast_f32(200.0, DType::I8), 0x7F);
    assert_eq!(cast_f32(-200.0, DType::I8), 0x80);
    assert_eq!(cast_f32(-3.7, DType::I8), 0xFD);
    assert_eq!(cast_f32(f32::NAN, DType::I16), 0);
    assert_eq!(cast_f32(-1.0, DType::U8), 0);
    assert_eq!(cast_f32(3.0e9, DType::I32), 0x7FFF_FFFF);
    assert_eq!(cast_f32(3.0e9, DType::U32), 3_000_000_000);
    assert_eq!(cast_f32(f32::NEG_INFINITY, DType::I32), 0x8000_0000);
}

#[test]
fn int32_through_fp32_loses_the_bits_past_2_24() {
    // 2^24 + 1 = 16777217 has no fp32 value: it rounds to even (16777216).
    let mut m = mem();
    let src = sb_bits(&mut m, DType::I32, &[1, 2], &[16_777_217, 16_777_219]);
    let dst = sb(&mut m, DType::F32, &[1, 2]);
    tensor_copy(&mut m, &dst, &src, Some(Engine::Vector)).unwrap();
    assert_eq!(f32s(&m, &dst), vec![16_777_216.0, 16_777_220.0]);
}

// --------------------------------------------------------------- ALU via tensor_tensor

fn tt(op: AluOp, a: &[f32], b: &[f32]) -> Result<Vec<f32>> {
    // pow runs on GpSimd; everything else on the Vector engine.
    let engine = if op == AluOp::Pow {
        Some(Engine::GpSimd)
    } else {
        Some(Engine::Vector)
    };
    let mut m = mem();
    let n = a.len();
    let x = sb_f32(&mut m, &[1, n], a);
    let y = sb_f32(&mut m, &[1, n], b);
    let d = sb(&mut m, DType::F32, &[1, n]);
    tensor_tensor_arith(&mut m, &d, &x, &y, op, engine)?;
    Ok(f32s(&m, &d))
}

#[test]
fn pow_on_the_vector_engine_is_the_composite_form_of_nl_power() {
    // tensor_tensor_arith pow names the Vector engine before sundial-decompose moves it to
    // tensor_tensor_power on GpSimd: the same fp32 power (2^10 = 1024, 9^0.5 = 3), and the
    // Vector engine reads a PSUM operand.
    let mut m = mem();
    let x = sb_f32(&mut m, &[1, 2], &[2.0, 9.0]);
    let y = sb_f32(&mut m, &[1, 2], &[10.0, 0.5]);
    let d = sb(&mut m, DType::F32, &[1, 2]);
    tensor_tensor_arith(&mut m, &d, &x, &y, AluOp::Pow, Some(Engine::Vector)).unwrap();
    assert_eq!(f32s(&m, &d), vec![1024.0, 3.0]);
    let p = ps(&mut m, DType::F32, &[1, 2]);
    m.write_f32(&p, &[2.0, 9.0]).unwrap();
    let e = sb(&mut m, DType::F32, &[1, 2]);
    tensor_tensor_arith(&mut m, &e, &p, &y, AluOp::Pow, Some(Engine::Vector)).unwrap();
    assert_eq!(f32s(&m, &e), vec![1024.0, 3.0]);
}

#[test]
fn arithmetic_operators_follow_the_alu_table() {
    use AluOp::*;
    assert_eq!(
        tt(Add, &[1.5, -2.0], &[2.25, 2.0]).unwrap(),
        vec![3.75, 0.0]
    );
    assert_eq!(tt(Subtract, &[1.0], &[3.0]).unwrap(), vec![-2.0]);
    assert_eq!(tt(Mult, &[3.0], &[-0.5]).unwrap(), vec![-1.5]);
    let d = tt(Divide, &[1.0, 0.0, 1.0], &[4.0, 0.0, 0.0]).unwrap();
    assert_eq!(d[0], 0.25);
    assert!(d[1].is_nan());
    assert_eq!(d[2], f32::INFINITY);
    // max/min propagate NaN (numpy.maximum/minimum).
    let mx = tt(Max, &[1.0, f32::NAN, 2.0], &[3.0, 1.0, f32::NAN]).unwrap();
    assert_eq!(mx[0], 3.0);
    assert!(mx[1].is_nan() && mx[2].is_nan());
    assert_eq!(tt(Min, &[1.0], &[3.0]).unwrap(), vec![1.0]);
    // Pinned: on equal operands the left one wins, so max(-0, +0) is -0.
    assert_eq!(tt(Max, &[-0.0], &[0.0]).unwrap()[0].to_bits(), 0x8000_0000);
    // Comparisons give 1.0 / 0.0; NaN compares false except not_equal.
    assert_eq!(
        tt(IsEqual, &[1.0, 2.0, f32::NAN], &[1.0, 3.0, f32::NAN]).unwrap(),
        vec![1.0, 0.0, 0.0]
    );
    assert_eq!(
        tt(NotEqual, &[1.0, f32::NAN], &[1.0, f32::NAN]).unwrap(),
        vec![0.0, 1.0]
    );
    assert_eq!(tt(IsGt, &[2.0, 1.0], &[1.0, 1.0]).unwrap(), vec![1.0, 0.0]);
    assert_eq!(tt(IsGe, &[1.0, 0.0], &[1.0, 1.0]).unwrap(), vec![1.0, 0.0]);
    assert_eq!(tt(IsLt, &[0.0, 1.0], &[1.0, 1.0]).unwrap(), vec![1.0, 0.0]);
    assert_eq!(tt(IsLe, &[1.0, 2.0], &[1.0, 1.0]).unwrap(), vec![1.0, 0.0]);
    // Logical ops: nonzero (NaN included) is true.
    assert_eq!(
        tt(LogicalAnd, &[2.0, 0.0, f32::NAN], &[-1.0, 1.0, 1.0]).unwrap(),
        vec![1.0, 0.0, 1.0]
    );
    assert_eq!(
        tt(LogicalOr, &[0.0, 0.0], &[0.0, 5.0]).unwrap(),
        vec![0.0, 1.0]
    );
    assert_eq!(
        tt(LogicalXor, &[1.0, 1.0], &[0.0, 2.0]).unwrap(),
        vec![1.0, 0.0]
    );
    // pow, floored mod, abs_max / abs_min.
    let p = tt(Pow, &[2.0, -8.0], &[10.0, 1.0 / 3.0]).unwrap();
    assert_eq!(p[0], 1024.0);
    assert!(p[1].is_nan());
    assert_eq!(
        tt(Mod, &[-7.0, 7.0, 7.5], &[3.0, -3.0, 2.0]).unwrap(),
        vec![2.0, -2.0, 1.5]
    );
    assert_eq!(tt(AbsMax, &[-3.0], &[2.0]).unwrap(), vec![3.0]);
    assert_eq!(tt(AbsMin, &[-3.0], &[2.0]).unwrap(), vec![2.0]);
    // bypass passes the left operand.
    assert_eq!(tt(Bypass, &[7.0], &[9.0]).unwrap(), vec![7.0]);
    // Unary operators ignore the right operand: rsqrt(4) = 0.5, abs(-2) = 2.
    assert_eq!(tt(Rsqrt, &[4.0], &[123.0]).unwrap(), vec![0.5]);
    assert_eq!(tt(Abs, &[-2.0], &[0.0]).unwrap(), vec![2.0]);
}

#[test]
fn operators_without_public_semantics_are_refused_by_name() {
    for op in [AluOp::Average, AluOp::ElemwiseMul, AluOp::ModInt] {
        let msg = no_semantics(tt(op, &[1.0], &[2.0]).map(|_| ()));
        assert!(msg.contains(op.name()), "{msg}");
    }
    // A bitvec operator in the arithmetic form is not a semantics gap but a misuse.
    is_invalid(tt(AluOp::BitwiseAnd, &[1.0], &[2.0]).map(|_| ()));
}

#[test]
fn gpsimd_computes_int32_natively_and_wraps() {
    let mut m = mem();
    let a = sb_bits(
        &mut m,
        DType::I32,
        &[1, 3],
        &[0x7FFF_FFFF, 65536, 0xFFFF_FFFF],
    );
    let b = sb_bits(&mut m, DType::I32, &[1, 3], &[1, 65536, 2]);
    let d = sb(&mut m, DType::I32, &[1, 3]);
    // Default engine with all-int32 SBUF tiles: GpSimd native arithmetic.
    tensor_tensor_arith(&mut m, &d, &a, &b, AluOp::Add, None).unwrap();
    assert_eq!(
        m.read_i64(&d).unwrap(),
        vec![i64::from(i32::MIN), 131072, 1]
    );
    tensor_tensor_arith(&mut m, &d, &a, &b, AluOp::Mult, Some(Engine::GpSimd)).unwrap();
    // 65536 * 65536 = 2^32 wraps to 0; -1 * 2 = -2.
    assert_eq!(m.read_i64(&d).unwrap()[1..], [0, -2]);
    // The Vector engine goes through fp32: 2147483647 -> 2147483648.0, + 1 = 2^31, which
    // saturates back to i32::MAX (the pinned float-to-int rule).
    tensor_tensor_arith(&mut m, &d, &a, &b, AluOp::Add, Some(Engine::Vector)).unwrap();
    assert_eq!(m.read_i64(&d).unwrap()[0], i64::from(i32::MAX));
    // uint32 0 - 1 wraps to 0xFFFF_FFFF.
    let z = sb_bits(&mut m, DType::U32, &[1, 1], &[0]);
    let o = sb_bits(&mut m, DType::U32, &[1, 1], &[1]);
    let du = sb(&mut m, DType::U32, &[1, 1]);
    tensor_tensor_arith(&mut m, &du, &z, &o, AluOp::Subtract, None).unwrap();
    assert_eq!(bits(&m, &du), vec![0xFFFF_FFFF]);
}

#[test]
fn int32_tiles_fall_back_to_fp32_when_an_operand_is_in_psum() {
    let mut m = mem();
    let a = sb_bits(&mut m, DType::I32, &[1, 1], &[16_777_217]);
    let b = ps(&mut m, DType::I32, &[1, 1]);
    m.write_bits(&b, &[0]).unwrap();
    let d = sb(&mut m, DType::I32, &[1, 1]);
    tensor_tensor_arith(&mut m, &d, &a, &b, AluOp::Add, None).unwrap();
    assert_eq!(m.read_i64(&d).unwrap(), vec![16_777_216]);
    // Explicit GpSimd cannot touch PSUM.
    is_memory_err(tensor_tensor_arith(
        &mut m,
        &d,
        &a,
        &b,
        AluOp::Add,
        Some(Engine::GpSimd),
    ));
}

#[test]
fn native_int32_semantics_exist_only_for_add_subtract_mult() {
    let mut m = mem();
    let a = sb_bits(&mut m, DType::I32, &[1, 1], &[5]);
    let d = sb(&mut m, DType::I32, &[1, 1]);
    let msg = no_semantics(tensor_tensor_arith(&mut m, &d, &a, &a, AluOp::Max, None));
    assert!(msg.contains("native int32 max"), "{msg}");
    // The fp32 form is available on the Vector engine.
    tensor_tensor_arith(&mut m, &d, &a, &a, AluOp::Max, Some(Engine::Vector)).unwrap();
    assert_eq!(m.read_i64(&d).unwrap(), vec![5]);
}

#[test]
fn tensor_tensor_errors() {
    let mut m = mem();
    let x = sb_f32(&mut m, &[2, 2], &[1.0; 4]);
    let y = sb_f32(&mut m, &[2, 3], &[1.0; 6]);
    let d = sb(&mut m, DType::F32, &[2, 2]);
    is_shape_err(tensor_tensor_arith(
        &mut m,
        &d,
        &x,
        &y,
        AluOp::Add,
        Some(Engine::Vector),
    ));
    // Same elements per partition with another free shape is fine.
    let y4 = sb_f32(&mut m, &[2, 1, 2], &[1.0; 4]);
    tensor_tensor_arith(&mut m, &d, &x, &y4, AluOp::Add, Some(Engine::Vector)).unwrap();
    let h = m.alloc_hbm("h", DType::F32, &[2, 2]).unwrap();
    is_memory_err(tensor_tensor_arith(
        &mut m,
        &d,
        &h,
        &x,
        AluOp::Add,
        Some(Engine::Vector),
    ));
    let p1 = ps(&mut m, DType::F32, &[2, 2]);
    let p2 = ps(&mut m, DType::F32, &[2, 2]);
    is_memory_err(tensor_tensor_arith(
        &mut m,
        &d,
        &p1,
        &p2,
        AluOp::Add,
        Some(Engine::Vector),
    ));
    is_unsupported(tensor_tensor_arith(
        &mut m,
        &d,
        &x,
        &x,
        AluOp::Add,
        Some(Engine::Scalar),
    ));
    let x4 = sb(&mut m, DType::Fp8E4m3FnX4, &[2, 2]);
    is_dtype_err(tensor_tensor_arith(
        &mut m,
        &d,
        &x4,
        &x,
        AluOp::Add,
        Some(Engine::Vector),
    ));
    // Power runs on GpSimd: no PSUM there; not on the Scalar engine.
    is_memory_err(tensor_tensor_power(&mut m, &d, &p1, &x));
    is_memory_err(tensor_tensor_arith(
        &mut m,
        &d,
        &p1,
        &x,
        AluOp::Pow,
        Some(Engine::GpSimd),
    ));
    is_unsupported(tensor_tensor_arith(
        &mut m,
        &d,
        &x,
        &x,
        AluOp::Pow,
        Some(Engine::Scalar),
    ));
    // More than 128 partitions.
    let big = View::new(x.alloc(), DType::F32, 0, vec![129, 1], vec![1, 1]).unwrap();
    is_shape_err(tensor_tensor_arith(
        &mut m,
        &big,
        &big,
        &big,
        AluOp::Add,
        Some(Engine::Vector),
    ));
    // An operand of more elements than one op handles, refused before allocating.
    let huge = View::new(x.alloc(), DType::F32, 0, vec![128, 1 << 20], vec![0, 0]).unwrap();
    assert!(matches!(
        tensor_tensor_arith(
            &mut m,
            &huge,
            &huge,
            &huge,
            AluOp::Add,
            Some(Engine::Vector)
        ),
        Err(EmuError::TooLarge { .. })
    ));
}

#[test]
fn tensor_tensor_power_is_fp32_pow() {
    let mut m = mem();
    let x = sb_f32(&mut m, &[1, 3], &[2.0, 9.0, 4.0]);
    let y = sb_f32(&mut m, &[1, 3], &[3.0, 0.5, -1.0]);
    let d = sb(&mut m, DType::F32, &[1, 3]);
    tensor_tensor_power(&mut m, &d, &x, &y).unwrap();
    assert_eq!(f32s(&m, &d), vec![8.0, 3.0, 0.25]);
}

#[test]
fn bitvec_operators_work_on_raw_bits() {
    let run = |op: AluOp, a: u64, b: u64| {
        let mut m = mem();
        let x = sb_bits(&mut m, DType::U8, &[1, 1], &[a]);
        let y = sb_bits(&mut m, DType::U8, &[1, 1], &[b]);
        let d = sb(&mut m, DType::U8, &[1, 1]);
        tensor_tensor_bitvec(&mut m, &d, &x, &y, op).map(|_| bits(&m, &d)[0])
    };
    assert_eq!(run(AluOp::BitwiseAnd, 0xF0, 0x3C).unwrap(), 0x30);
    assert_eq!(run(AluOp::BitwiseOr, 0xF0, 0x0C).unwrap(), 0xFC);
    assert_eq!(run(AluOp::BitwiseXor, 0xFF, 0x0F).unwrap(), 0xF0);
    assert_eq!(run(AluOp::BitwiseNot, 0x0F, 0x00).unwrap(), 0xF0);
    assert_eq!(run(AluOp::LogicalShiftLeft, 0x81, 1).unwrap(), 0x02);
    assert_eq!(run(AluOp::ArithShiftLeft, 0x01, 7).unwrap(), 0x80);
    assert_eq!(run(AluOp::LogicalShiftRight, 0x80, 7).unwrap(), 0x01);
    // Pinned: a shift of the element width or more gives 0.
    assert_eq!(run(AluOp::LogicalShiftLeft, 0xFF, 8).unwrap(), 0);
    assert_eq!(run(AluOp::LogicalShiftRight, 0xFF, 200).unwrap(), 0);
    let msg = no_semantics(run(AluOp::ArithShiftRight, 0x80, 1).map(|_| ()));
    assert!(msg.contains("Not supported"), "{msg}");
    is_invalid(run(AluOp::Add, 1, 1).map(|_| ()));
}

#[test]
fn bitvec_needs_integer_tiles_of_one_width() {
    let mut m = mem();
    let a = sb_bits(&mut m, DType::I32, &[1, 1], &[u64::from(u32::MAX)]);
    let b = sb_bits(&mut m, DType::I16, &[1, 1], &[1]);
    let d = sb(&mut m, DType::I32, &[1, 1]);
    is_dtype_err(tensor_tensor_bitvec(&mut m, &d, &a, &b, AluOp::BitwiseAnd));
    let f = sb_f32(&mut m, &[1, 1], &[1.0]);
    is_dtype_err(tensor_tensor_bitvec(&mut m, &d, &a, &f, AluOp::BitwiseAnd));
    // int32 -1 & int32 0x0000FFFF.
    let c = sb_bits(&mut m, DType::I32, &[1, 1], &[0xFFFF]);
    tensor_tensor_bitvec(&mut m, &d, &a, &c, AluOp::BitwiseAnd).unwrap();
    assert_eq!(bits(&m, &d), vec![0xFFFF]);
}

// ----------------------------------------------------------------------- tensor_scalar

fn imm<'a>(op: AluOp, v: f32) -> Stage<'a> {
    Stage {
        op,
        operand: Some(Scalar::Imm(v)),
        reverse: false,
    }
}

#[test]
fn tensor_scalar_applies_two_stages_with_reverse_flags_and_tile_operands() {
    let mut m = mem();
    let x = sb_f32(&mut m, &[2, 2], &[1.0, 2.0, 3.0, 4.0]);
    let d = sb(&mut m, DType::F32, &[2, 2]);
    // (x * 2) + 1
    tensor_scalar_arith(
        &mut m,
        &d,
        &x,
        &imm(AluOp::Mult, 2.0),
        Some(&imm(AluOp::Add, 1.0)),
        None,
    )
    .unwrap();
    assert_eq!(f32s(&m, &d), vec![3.0, 5.0, 7.0, 9.0]);
    // reverse0: 10 - x; then reverse1 with a per-partition tile: operand1 / tmp.
    let col = sb_f32(&mut m, &[2, 1], &[18.0, 12.0]);
    let s0 = Stage {
        reverse: true,
        ..imm(AluOp::Subtract, 10.0)
    };
    let s1 = Stage {
        op: AluOp::Divide,
        operand: Some(Scalar::Tile(&col)),
        reverse: true,
    };
    tensor_scalar_arith(&mut m, &d, &x, &s0, Some(&s1), Some(Engine::Vector)).unwrap();
    // partition 0: 18/9, 18/8; partition 1: 12/7, 12/6.
    assert_eq!(f32s(&m, &d), vec![2.0, 2.25, 12.0 / 7.0, 2.0]);
    // A unary operator takes no operand.
    let rs = Stage {
        op: AluOp::Rsqrt,
        operand: None,
        reverse: false,
    };
    tensor_scalar_arith(&mut m, &d, &x, &rs, None, Some(Engine::GpSimd)).unwrap();
    assert_eq!(f32s(&m, &d)[3], 0.5);
}

#[test]
fn tensor_scalar_errors() {
    let mut m = Memory::new(Target::Cayman);
    let x = sb_f32(&mut m, &[2, 2], &[1.0; 4]);
    let d = sb(&mut m, DType::F32, &[2, 2]);
    // A binary operator without its operand.
    let missing = Stage {
        op: AluOp::Add,
        operand: None,
        reverse: false,
    };
    is_invalid(tensor_scalar_arith(
        &mut m,
        &d,
        &x,
        &missing,
        None,
        Some(Engine::Vector),
    ));
    // A unary operator with a nonzero operand or a tile.
    is_invalid(tensor_scalar_arith(
        &mut m,
        &d,
        &x,
        &imm(AluOp::Abs, 1.0),
        None,
        Some(Engine::Vector),
    ));
    // The operand tile must be fp32 and [P, 1].
    let bf = sb(&mut m, DType::Bf16, &[2, 1]);
    m.write_f32(&bf, &[1.0, 1.0]).unwrap();
    let s = Stage {
        op: AluOp::Add,
        operand: Some(Scalar::Tile(&bf)),
        reverse: false,
    };
    is_dtype_err(tensor_scalar_arith(
        &mut m,
        &d,
        &x,
        &s,
        None,
        Some(Engine::Vector),
    ));
    let wide = sb_f32(&mut m, &[2, 2], &[1.0; 4]);
    let s = Stage {
        op: AluOp::Add,
        operand: Some(Scalar::Tile(&wide)),
        reverse: false,
    };
    is_shape_err(tensor_scalar_arith(
        &mut m,
        &d,
        &x,
        &s,
        None,
        Some(Engine::Vector),
    ));
    // GpSimd runs only rsqrt; the trn2 Scalar engine only (mult, add), (mult), (add).
    is_unsupported(tensor_scalar_arith(
        &mut m,
        &d,
        &x,
        &imm(AluOp::Add, 1.0),
        None,
        Some(Engine::GpSimd),
    ));
    is_unsupported(tensor_scalar_arith(
        &mut m,
        &d,
        &x,
        &imm(AluOp::Subtract, 1.0),
        None,
        Some(Engine::Scalar),
    ));
    tensor_scalar_arith(
        &mut m,
        &d,
        &x,
        &imm(AluOp::Mult, 3.0),
        Some(&imm(AluOp::Add, 1.0)),
        Some(Engine::Scalar),
    )
    .unwrap();
    assert_eq!(f32s(&m, &d), vec![4.0; 4]);
    // Refused operator.
    no_semantics(tensor_scalar_arith(
        &mut m,
        &d,
        &x,
        &imm(AluOp::Average, 1.0),
        None,
        Some(Engine::Vector),
    ));
}

#[test]
fn tensor_scalar_bitvec_uses_width_truncated_immediates() {
    let mut m = mem();
    let x = sb_bits(&mut m, DType::U8, &[1, 2], &[0xAB, 0x03]);
    let d = sb(&mut m, DType::U8, &[1, 2]);
    let s0 = BitStage {
        op: AluOp::BitwiseAnd,
        imm: 0x0F,
        reverse: false,
    };
    let s1 = BitStage {
        op: AluOp::LogicalShiftLeft,
        imm: 4,
        reverse: false,
    };
    tensor_scalar_bitvec(&mut m, &d, &x, &s0, Some(&s1)).unwrap();
    assert_eq!(bits(&m, &d), vec![0xB0, 0x30]);
    // reverse: 1 << x; an immediate of -1 is all ones at the width.
    let s = BitStage {
        op: AluOp::LogicalShiftLeft,
        imm: 1,
        reverse: true,
    };
    let y = sb_bits(&mut m, DType::U8, &[1, 2], &[3, 7]);
    tensor_scalar_bitvec(&mut m, &d, &y, &s, None).unwrap();
    assert_eq!(bits(&m, &d), vec![0x08, 0x80]);
    let x16 = sb_bits(&mut m, DType::I16, &[1, 1], &[0x1234]);
    let d16 = sb(&mut m, DType::I16, &[1, 1]);
    let s = BitStage {
        op: AluOp::BitwiseXor,
        imm: -1,
        reverse: false,
    };
    tensor_scalar_bitvec(&mut m, &d16, &x16, &s, None).unwrap();
    assert_eq!(bits(&m, &d16), vec![0xEDCB]);
    let d8 = sb(&mut m, DType::U8, &[1, 1]);
    is_dtype_err(tensor_scalar_bitvec(&mut m, &d8, &x16, &s, None));
}

#[test]
fn tensor_scalar_addr_wraps_64_bit_words() {
    let mut m = mem();
    let x = sb_bits(&mut m, DType::U64, &[1, 2], &[u64::MAX, 10]);
    let d = sb(&mut m, DType::U64, &[1, 2]);
    tensor_scalar_addr(&mut m, &d, &x, AluOp::Add, 1).unwrap();
    assert_eq!(bits(&m, &d), vec![0, 11]);
    tensor_scalar_addr(&mut m, &d, &x, AluOp::Mult, 4096).unwrap();
    assert_eq!(bits(&m, &d), vec![u64::MAX.wrapping_mul(4096), 40960]);
    tensor_scalar_addr(&mut m, &d, &x, AluOp::Subtract, 11).unwrap();
    assert_eq!(bits(&m, &d)[1], u64::MAX);
    is_invalid(tensor_scalar_addr(&mut m, &d, &x, AluOp::Divide, 2));
    let i32t = sb_bits(&mut m, DType::I32, &[1, 2], &[0, 0]);
    is_dtype_err(tensor_scalar_addr(&mut m, &d, &i32t, AluOp::Add, 1));
    let p = ps(&mut m, DType::U64, &[1, 2]);
    is_memory_err(tensor_scalar_addr(&mut m, &p, &x, AluOp::Add, 1));
}

#[test]
fn scalar_tensor_tensor_is_a_scalar_stage_then_a_tensor_stage() {
    let mut m = mem();
    let x = sb_f32(&mut m, &[2, 2], &[1.0, 2.0, 3.0, 4.0]);
    let y = sb_f32(&mut m, &[2, 2], &[10.0, 20.0, 30.0, 40.0]);
    let c = sb(&mut m, DType::Bf16, &[2, 1]);
    m.write_f32(&c, &[1.0, 2.0]).unwrap();
    let d = sb(&mut m, DType::F32, &[2, 2]);
    // (x - c[p]) * y, with a bf16 operand0 tile (any dtype is accepted here).
    let s0 = Stage {
        op: AluOp::Subtract,
        operand: Some(Scalar::Tile(&c)),
        reverse: false,
    };
    let s1 = TensorStage {
        op: AluOp::Mult,
        operand: &y,
        reverse: false,
    };
    scalar_tensor_tensor_arith(&mut m, &d, &x, &s0, &s1).unwrap();
    assert_eq!(f32s(&m, &d), vec![0.0, 20.0, 30.0, 80.0]);
    // reverse1: y - (x + 1).
    let s1 = TensorStage {
        op: AluOp::Subtract,
        operand: &y,
        reverse: true,
    };
    scalar_tensor_tensor_arith(&mut m, &d, &x, &imm(AluOp::Add, 1.0), &s1).unwrap();
    assert_eq!(f32s(&m, &d), vec![8.0, 17.0, 26.0, 35.0]);
    let y3 = sb_f32(&mut m, &[2, 3], &[0.0; 6]);
    let s1 = TensorStage {
        op: AluOp::Add,
        operand: &y3,
        reverse: false,
    };
    is_shape_err(scalar_tensor_tensor_arith(
        &mut m,
        &d,
        &x,
        &imm(AluOp::Add, 1.0),
        &s1,
    ));
}

#[test]
fn ops_without_public_semantics_are_refused_by_name() {
    use sundial_emu::ops::refused::{check_op, refusal};
    for name in ["scalar_tensor_tensor_bitvec", "select"] {
        assert!(refusal(name).is_some());
        let msg = no_semantics(check_op(name));
        assert!(msg.contains(name), "{msg}");
    }
    assert!(check_op("tensor_tensor_arith").is_ok());
}

#[test]
fn enum_spellings_parse() {
    // The compute ops take the shared engine vocabulary; `unknown` is `None`.
    assert_eq!(Engine::from_name("gpsimd"), Some(Engine::GpSimd));
    assert_eq!(Engine::from_name(Engine::UNKNOWN_NAME), None);
    assert_eq!(
        ReduceCmd::from_name("reset_reduce"),
        Some(ReduceCmd::ResetReduce)
    );
    assert_eq!(AluOp::from_name("is_ge"), Some(AluOp::IsGe));
}

// ----------------------------------------------------------- reductions and scans

#[test]
fn tensor_scalar_cache_reduce_accumulates_in_the_vector_registers() {
    let mut m = mem();
    let mut acc = Accumulators::new();
    let x = sb_f32(&mut m, &[2, 3], &[1.0, 2.0, 3.0, -1.0, -2.0, 4.0]);
    let d = sb(&mut m, DType::F32, &[2, 3]);
    let r = sb(&mut m, DType::F32, &[2, 1]);
    let mut red = FreeReduce {
        reduce_op: AluOp::Add,
        reduce_cmd: ReduceCmd::ResetReduce,
        reduce_init: None,
        reduce_res: Some(&r),
        reduce_res_negate: false,
    };
    tensor_scalar_cache_reduce(&mut m, &mut acc, &d, &x, &imm(AluOp::Mult, 2.0), &red).unwrap();
    assert_eq!(f32s(&m, &d), vec![2.0, 4.0, 6.0, -2.0, -4.0, 8.0]);
    assert_eq!(f32s(&m, &r), vec![12.0, 2.0]);
    // reduce continues from the registers; the negated read-out leaves them positive.
    red.reduce_cmd = ReduceCmd::Reduce;
    red.reduce_res_negate = true;
    tensor_scalar_cache_reduce(&mut m, &mut acc, &d, &x, &imm(AluOp::Mult, 2.0), &red).unwrap();
    assert_eq!(f32s(&m, &r), vec![-24.0, -4.0]);
    assert_eq!(acc.get(AccEngine::Vector, 0), Some(24.0));
    // load_reduce starts from reduce_init; max reduces.
    red.reduce_cmd = ReduceCmd::LoadReduce;
    red.reduce_init = Some(5.0);
    red.reduce_op = AluOp::Max;
    red.reduce_res_negate = false;
    tensor_scalar_cache_reduce(&mut m, &mut acc, &d, &x, &imm(AluOp::Add, 0.0), &red).unwrap();
    assert_eq!(f32s(&m, &r), vec![5.0, 5.0]);
    red.reduce_cmd = ReduceCmd::ResetReduce;
    red.reduce_init = None;
    tensor_scalar_cache_reduce(&mut m, &mut acc, &d, &x, &imm(AluOp::Add, 0.0), &red).unwrap();
    assert_eq!(f32s(&m, &r), vec![3.0, 4.0]);
    red.reduce_op = AluOp::Min;
    tensor_scalar_cache_reduce(&mut m, &mut acc, &d, &x, &imm(AluOp::Add, 0.0), &red).unwrap();
    assert_eq!(f32s(&m, &r), vec![1.0, -2.0]);
}

#[test]
fn tensor_scalar_cache_reduce_errors_leave_memory_and_registers_untouched() {
    let mut m = mem();
    let mut acc = Accumulators::new();
    let x = sb_f32(&mut m, &[2, 2], &[1.0; 4]);
    let d = sb_f32(&mut m, &[2, 2], &[9.0; 4]);
    let bad_res = sb(&mut m, DType::F32, &[2, 2]);
    let red = FreeReduce {
        reduce_op: AluOp::Add,
        reduce_cmd: ReduceCmd::ResetReduce,
        reduce_init: None,
        reduce_res: Some(&bad_res),
        reduce_res_negate: false,
    };
    is_shape_err(tensor_scalar_cache_reduce(
        &mut m,
        &mut acc,
        &d,
        &x,
        &imm(AluOp::Add, 1.0),
        &red,
    ));
    assert_eq!(f32s(&m, &d), vec![9.0; 4]);
    assert_eq!(acc, Accumulators::new());
    // reduce with undefined registers.
    let red = FreeReduce {
        reduce_cmd: ReduceCmd::Reduce,
        reduce_res: None,
        ..red
    };
    assert!(matches!(
        tensor_scalar_cache_reduce(&mut m, &mut acc, &d, &x, &imm(AluOp::Add, 1.0), &red),
        Err(EmuError::UninitialisedAccumulator { lane: 0, .. })
    ));
    assert_eq!(f32s(&m, &d), vec![9.0; 4]);
    let rev = Stage {
        reverse: true,
        ..imm(AluOp::Subtract, 1.0)
    };
    let ok = FreeReduce {
        reduce_cmd: ReduceCmd::ResetReduce,
        ..red
    };
    is_unsupported(tensor_scalar_cache_reduce(
        &mut m, &mut acc, &d, &x, &rev, &ok,
    ));
    let idle = FreeReduce {
        reduce_cmd: ReduceCmd::Idle,
        ..red
    };
    is_invalid(tensor_scalar_cache_reduce(
        &mut m,
        &mut acc,
        &d,
        &x,
        &imm(AluOp::Add, 1.0),
        &idle,
    ));
    let sub = FreeReduce {
        reduce_op: AluOp::Subtract,
        ..ok
    };
    is_invalid(tensor_scalar_cache_reduce(
        &mut m,
        &mut acc,
        &d,
        &x,
        &imm(AluOp::Add, 1.0),
        &sub,
    ));
    let init = FreeReduce {
        reduce_init: Some(1.0),
        ..ok
    };
    is_invalid(tensor_scalar_cache_reduce(
        &mut m,
        &mut acc,
        &d,
        &x,
        &imm(AluOp::Add, 1.0),
        &init,
    ));
}

fn cumulative(vals: &[f32], args: &Cumulative, acc: &mut Accumulators) -> Result<Vec<f32>> {
    let mut m = mem();
    let x = sb_f32(&mut m, &[1, vals.len()], vals);
    let d = sb(&mut m, DType::F32, &[1, vals.len()]);
    tensor_scalar_cache_cumulative(&mut m, acc, &d, &x, args)?;
    Ok(f32s(&m, &d))
}

#[test]
fn tensor_scalar_cumulative_follows_its_pseudocode() {
    let mut acc = Accumulators::new();
    let sum = Cumulative {
        op0: AluOp::Mult,
        imm0: 1.0,
        op1: AluOp::Add,
        imm1: None,
        reduce_cmd: ReduceCmd::ResetReduce,
    };
    assert_eq!(
        cumulative(&[1.0, 2.0, 3.0, 4.0], &sum, &mut acc).unwrap(),
        vec![1.0, 3.0, 6.0, 10.0]
    );
    // The register stays in the Vector accumulators.
    assert_eq!(acc.get(AccEngine::Vector, 0), Some(10.0));
    let doubled = Cumulative { imm0: 2.0, ..sum };
    assert_eq!(
        cumulative(&[1.0, 2.0, 3.0, 4.0], &doubled, &mut acc).unwrap(),
        vec![2.0, 6.0, 12.0, 20.0]
    );
    // op1 = subtract computes reg = x - reg: 1, 2-1, 3-1, 4-2.
    let sub = Cumulative {
        op1: AluOp::Subtract,
        ..sum
    };
    assert_eq!(
        cumulative(&[1.0, 2.0, 3.0, 4.0], &sub, &mut acc).unwrap(),
        vec![1.0, 1.0, 2.0, 2.0]
    );
    let max = Cumulative {
        op1: AluOp::Max,
        ..sum
    };
    assert_eq!(
        cumulative(&[3.0, 1.0, 5.0, 2.0], &max, &mut acc).unwrap(),
        vec![3.0, 3.0, 5.0, 5.0]
    );
    let load = Cumulative {
        imm1: Some(10.0),
        reduce_cmd: ReduceCmd::LoadReduce,
        ..sum
    };
    assert_eq!(
        cumulative(&[1.0, 2.0], &load, &mut acc).unwrap(),
        vec![11.0, 13.0]
    );
    // reduce continues from the last register value (13).
    let cont = Cumulative {
        reduce_cmd: ReduceCmd::Reduce,
        ..sum
    };
    assert_eq!(cumulative(&[1.0], &cont, &mut acc).unwrap(), vec![14.0]);
    let mut m = mem();
    let r = sb(&mut m, DType::F32, &[1, 1]);
    dve_read_accumulator(&mut m, &acc, &r, true).unwrap();
    assert_eq!(f32s(&m, &r), vec![-14.0]);
}

#[test]
fn tensor_scalar_cumulative_errors() {
    let mut acc = Accumulators::new();
    let sum = Cumulative {
        op0: AluOp::Mult,
        imm0: 1.0,
        op1: AluOp::Add,
        imm1: None,
        reduce_cmd: ReduceCmd::ResetReduce,
    };
    let mut m = mem();
    let i32t = sb_bits(&mut m, DType::I32, &[1, 2], &[1, 2]);
    let d = sb(&mut m, DType::I32, &[1, 2]);
    is_dtype_err(tensor_scalar_cache_cumulative(
        &mut m, &mut acc, &d, &i32t, &sum,
    ));
    let div = Cumulative {
        op1: AluOp::Divide,
        ..sum
    };
    is_invalid(cumulative(&[1.0], &div, &mut acc).map(|_| ()));
    let stray = Cumulative {
        imm1: Some(1.0),
        ..sum
    };
    is_invalid(cumulative(&[1.0], &stray, &mut acc).map(|_| ()));
    let noload = Cumulative {
        reduce_cmd: ReduceCmd::LoadReduce,
        ..sum
    };
    is_invalid(cumulative(&[1.0], &noload, &mut acc).map(|_| ()));
    let idle = Cumulative {
        reduce_cmd: ReduceCmd::Idle,
        ..sum
    };
    is_invalid(cumulative(&[1.0], &idle, &mut acc).map(|_| ()));
    let cont = Cumulative {
        reduce_cmd: ReduceCmd::Reduce,
        ..sum
    };
    assert!(matches!(
        cumulative(&[1.0], &cont, &mut Accumulators::new()),
        Err(EmuError::UninitialisedAccumulator { .. })
    ));
}

#[test]
fn tensor_tensor_scan_is_the_documented_recurrence() {
    let mut m = mem();
    // r[i] = data0[i] * r[i-1] + data1[i], initial 1: 3, 7, 15 (partition 0);
    // initial 0 for partition 1: 1, 3, 7.
    let a = sb_f32(&mut m, &[2, 3], &[2.0; 6]);
    let b = sb_f32(&mut m, &[2, 3], &[1.0; 6]);
    let init = sb_f32(&mut m, &[2, 1], &[1.0, 0.0]);
    let d = sb(&mut m, DType::F32, &[2, 3]);
    let ops = ScanOps {
        op0: AluOp::Mult,
        op1: AluOp::Add,
        reverse0: false,
        reverse1: false,
    };
    tensor_tensor_scan(&mut m, &d, &a, &b, &Scalar::Tile(&init), &ops).unwrap();
    assert_eq!(f32s(&m, &d), vec![3.0, 7.0, 15.0, 1.0, 3.0, 7.0]);
    // reverse0 with subtract: prev - data0; reverse1 with subtract: data1 - tmp.
    let x = sb_f32(&mut m, &[1, 2], &[1.0, 2.0]);
    let y = sb_f32(&mut m, &[1, 2], &[10.0, 20.0]);
    let d2 = sb(&mut m, DType::F32, &[1, 2]);
    let ops = ScanOps {
        op0: AluOp::Subtract,
        op1: AluOp::Subtract,
        reverse0: true,
        reverse1: true,
    };
    // r0 = 10 - (5 - 1) = 6; r1 = 20 - (6 - 2) = 16.
    tensor_tensor_scan(&mut m, &d2, &x, &y, &Scalar::Imm(5.0), &ops).unwrap();
    assert_eq!(f32s(&m, &d2), vec![6.0, 16.0]);
    let p1 = ps(&mut m, DType::F32, &[1, 2]);
    let p2 = ps(&mut m, DType::F32, &[1, 2]);
    is_memory_err(tensor_tensor_scan(
        &mut m,
        &d2,
        &p1,
        &p2,
        &Scalar::Imm(0.0),
        &ops,
    ));
}

#[test]
fn tensor_reduce_reduces_trailing_free_axes() {
    let mut m = mem();
    let x = sb_f32(
        &mut m,
        &[2, 2, 3],
        &[
            1.0, 2.0, 3.0, 4.0, 5.0, 6.0, -1.0, -2.0, -3.0, 0.0, 0.0, 9.0,
        ],
    );
    let d = sb(&mut m, DType::F32, &[2, 2]);
    tensor_reduce_arith(&mut m, &d, &x, AluOp::Add, &[2], false, false).unwrap();
    assert_eq!(f32s(&m, &d), vec![6.0, 15.0, -6.0, 9.0]);
    let d1 = sb(&mut m, DType::F32, &[2, 1]);
    tensor_reduce_arith(&mut m, &d1, &x, AluOp::Max, &[2, 1], true, false).unwrap();
    assert_eq!(f32s(&m, &d1), vec![-6.0, -9.0]);
    let dk = sb(&mut m, DType::F32, &[2, 2, 1]);
    tensor_reduce_arith(&mut m, &dk, &x, AluOp::Average, &[2], false, true).unwrap();
    assert_eq!(f32s(&m, &dk), vec![2.0, 5.0, -2.0, 3.0]);
    tensor_reduce_arith(&mut m, &dk, &x, AluOp::AbsMax, &[2], false, true).unwrap();
    assert_eq!(f32s(&m, &dk), vec![3.0, 6.0, 3.0, 9.0]);
    tensor_reduce_arith(&mut m, &dk, &x, AluOp::Mult, &[2], false, true).unwrap();
    assert_eq!(f32s(&m, &dk), vec![6.0, 120.0, -6.0, 0.0]);
    // Errors: a non-trailing axis, the partition axis, keepdims shape, refused operator.
    is_invalid(tensor_reduce_arith(
        &mut m,
        &d,
        &x,
        AluOp::Add,
        &[1],
        false,
        false,
    ));
    is_invalid(tensor_reduce_arith(
        &mut m,
        &d,
        &x,
        AluOp::Add,
        &[0, 1, 2],
        false,
        false,
    ));
    is_shape_err(tensor_reduce_arith(
        &mut m,
        &d,
        &x,
        AluOp::Add,
        &[2],
        false,
        true,
    ));
    is_shape_err(tensor_reduce_arith(
        &mut m,
        &d1,
        &x,
        AluOp::Add,
        &[2],
        false,
        false,
    ));
    is_invalid(tensor_reduce_arith(
        &mut m,
        &d,
        &x,
        AluOp::Divide,
        &[2],
        false,
        false,
    ));
    no_semantics(tensor_reduce_arith(
        &mut m,
        &d,
        &x,
        AluOp::ModInt,
        &[2],
        false,
        false,
    ));
}

#[test]
fn tensor_reduce_bitvec_folds_raw_bits() {
    let mut m = mem();
    let x = sb_bits(
        &mut m,
        DType::U16,
        &[2, 3],
        &[0x0001, 0x0010, 0x0100, 0xFFFF, 0x0FF0, 0xF00F],
    );
    let d = sb(&mut m, DType::U16, &[2, 1]);
    tensor_reduce_bitvec(&mut m, &d, &x, AluOp::BitwiseOr, &[1], true).unwrap();
    assert_eq!(bits(&m, &d), vec![0x0111, 0xFFFF]);
    tensor_reduce_bitvec(&mut m, &d, &x, AluOp::BitwiseAnd, &[1], true).unwrap();
    assert_eq!(bits(&m, &d), vec![0x0000, 0x0000]);
    tensor_reduce_bitvec(&mut m, &d, &x, AluOp::BitwiseXor, &[1], true).unwrap();
    assert_eq!(bits(&m, &d), vec![0x0111, 0x0000]);
    is_invalid(tensor_reduce_bitvec(
        &mut m,
        &d,
        &x,
        AluOp::LogicalShiftLeft,
        &[1],
        true,
    ));
    let f = sb_f32(&mut m, &[2, 3], &[0.0; 6]);
    is_dtype_err(tensor_reduce_bitvec(
        &mut m,
        &d,
        &f,
        AluOp::BitwiseOr,
        &[1],
        true,
    ));
}

#[test]
fn partition_reductions_broadcast_the_reduced_row() {
    let mut m = mem();
    let x = sb_f32(&mut m, &[3, 2], &[1.0, -5.0, 2.0, 7.0, 6.0, 1.0]);
    let d = sb(&mut m, DType::F32, &[2, 2]);
    cross_lane_reduce_arith(&mut m, &d, &x, AluOp::Add).unwrap();
    assert_eq!(f32s(&m, &d), vec![9.0, 3.0, 9.0, 3.0]);
    cross_lane_reduce_arith(&mut m, &d, &x, AluOp::Max).unwrap();
    assert_eq!(f32s(&m, &d), vec![6.0, 7.0, 6.0, 7.0]);
    cross_lane_reduce_arith(&mut m, &d, &x, AluOp::Average).unwrap();
    assert_eq!(f32s(&m, &d), vec![3.0, 1.0, 3.0, 1.0]);
    is_invalid(cross_lane_reduce_arith(&mut m, &d, &x, AluOp::Min));
    let p = ps(&mut m, DType::F32, &[2, 2]);
    is_memory_err(cross_lane_reduce_arith(&mut m, &p, &x, AluOp::Add));
    let d3 = sb(&mut m, DType::F32, &[2, 3]);
    is_shape_err(cross_lane_reduce_arith(&mut m, &d3, &x, AluOp::Add));
    let b = sb_bits(&mut m, DType::I8, &[2, 2], &[0x0F, 0x11, 0xF1, 0x10]);
    let db = sb(&mut m, DType::I8, &[1, 2]);
    cross_lane_reduce_bitvec(&mut m, &db, &b, AluOp::BitwiseAnd).unwrap();
    assert_eq!(bits(&m, &db), vec![0x01, 0x10]);
    cross_lane_reduce_bitvec(&mut m, &db, &b, AluOp::BitwiseOr).unwrap();
    assert_eq!(bits(&m, &db), vec![0xFF, 0x11]);
    // 0x0F ^ 0xF1 = 0xFE, 0x11 ^ 0x10 = 0x01 (the firmware's xor, kept by the op table).
    cross_lane_reduce_bitvec(&mut m, &db, &b, AluOp::BitwiseXor).unwrap();
    assert_eq!(bits(&m, &db), vec![0xFE, 0x01]);
    is_invalid(cross_lane_reduce_bitvec(&mut m, &db, &b, AluOp::Add));
}

// ------------------------------------------------------------------------ activation

/// `activation` of `func` (a dialect spelling, parsed with the shared vocabulary; an
/// unknown spelling is the parse failure, checked in the refusal test).
fn act(func: &str, vals: &[f32]) -> Result<Vec<f32>> {
    let func = ActivationFunc::from_name(func).expect("a known activation function");
    let mut m = mem();
    let mut acc = Accumulators::new();
    let x = sb_f32(&mut m, &[1, vals.len()], vals);
    let d = sb(&mut m, DType::F32, &[1, vals.len()]);
    let args = Activation {
        func,
        ..Activation::default()
    };
    activation(&mut m, &mut acc, &d, &x, &args)?;
    Ok(f32s(&m, &d))
}

#[test]
fn activation_functions_at_hand_checked_points() {
    assert_eq!(act("identity", &[-1.5, 2.0]).unwrap(), vec![-1.5, 2.0]);
    assert_eq!(act("copy", &[3.0]).unwrap(), vec![3.0]);
    assert_eq!(act("square", &[-3.0]).unwrap(), vec![9.0]);
    assert_eq!(act("relu", &[-1.0, 0.0, 2.5]).unwrap(), vec![0.0, 0.0, 2.5]);
    assert_eq!(act("sigmoid", &[0.0]).unwrap(), vec![0.5]);
    assert_eq!(act("tanh", &[0.0, f32::INFINITY]).unwrap(), vec![0.0, 1.0]);
    // exp(1) rounded once to fp32 is 0x402DF854 (2.71828174591064453125).
    assert_eq!(
        act("exp", &[0.0, 1.0])
            .unwrap()
            .iter()
            .map(|v| v.to_bits())
            .collect::<Vec<_>>(),
        vec![0x3F80_0000, 0x402D_F854]
    );
    // softplus(0) = ln 2 = 0.69314718...: fp32 0x3F317218.
    assert_eq!(act("softplus", &[0.0]).unwrap()[0].to_bits(), 0x3F31_7218);
    assert_eq!(act("softplus", &[1.0e30]).unwrap(), vec![1.0e30]);
    assert_eq!(act("sqrt", &[4.0, 2.25]).unwrap(), vec![2.0, 1.5]);
    assert_eq!(act("rsqrt", &[0.25]).unwrap(), vec![2.0]);
    assert_eq!(act("ln", &[1.0]).unwrap(), vec![0.0]);
    assert_eq!(act("erf", &[0.0, f32::INFINITY]).unwrap(), vec![0.0, 1.0]);
    assert_eq!(act("sin", &[0.0]).unwrap(), vec![0.0]);
    assert_eq!(
        act("sin", &[std::f32::consts::FRAC_PI_2]).unwrap(),
        vec![1.0]
    );
    assert_eq!(act("arctan", &[0.0]).unwrap(), vec![0.0]);
    assert_eq!(
        act("sign", &[-2.0, 0.0, 3.0]).unwrap(),
        vec![-1.0, 0.0, 1.0]
    );
    assert_eq!(act("abs", &[-2.0]).unwrap(), vec![2.0]);
    assert_eq!(act("reciprocal", &[4.0]).unwrap(), vec![0.25]);
    // x * g(x) forms: 0 at 0, x at large x, and the limits at the infinities.
    for f in [
        "gelu",
        "gelu_apprx_tanh",
        "gelu_apprx_sigmoid",
        "silu",
        "mish",
    ] {
        let v = act(f, &[0.0, f32::INFINITY, f32::NEG_INFINITY, 100.0]).unwrap();
        assert_eq!(v, vec![0.0, f32::INFINITY, 0.0, 100.0], "{f}");
    }
    // Derivatives at 0: gelu' = 0.5, silu' = 0.5, erf' = 2/sqrt(pi) = 1.1283792 (0x3F906EBB).
    assert_eq!(act("derivative_gelu", &[0.0]).unwrap(), vec![0.5]);
    assert_eq!(act("derivative_silu", &[0.0]).unwrap(), vec![0.5]);
    assert_eq!(
        act("derivative_erf", &[0.0]).unwrap()[0].to_bits(),
        0x3F90_6EBB
    );
    assert_eq!(
        act("derivative_gelu", &[f32::INFINITY, f32::NEG_INFINITY]).unwrap(),
        vec![1.0, 0.0]
    );
    // gelu_apprx_sigmoid(1) = 1 / (1 + e^-1.702) = 0.84579...: a few ulps of 0.8458.
    let g = act("gelu_apprx_sigmoid", &[1.0]).unwrap()[0];
    assert!((g - 0.845_79).abs() < 1e-5, "{g}");
    // NaN passes through.
    assert!(act("sigmoid", &[f32::NAN]).unwrap()[0].is_nan());
}

#[test]
fn activation_inputs_outside_the_published_range_are_refused() {
    let e = act("sqrt", &[1.0, 0.0]).unwrap_err();
    assert!(
        matches!(
            e,
            EmuError::InputOutOfRange {
                func: "sqrt",
                element: 1,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("[2^-116, 2^118]"), "{e}");
    assert!(act("ln", &[2f32.powi(-65)]).is_err());
    assert!(act("ln", &[2f32.powi(-64)]).is_ok());
    assert!(act("sin", &[4.0]).is_err());
    assert!(act("arctan", &[2.0]).is_err());
    assert!(act("reciprocal", &[0.0]).is_err());
    assert!(act("reciprocal", &[-(2f32.powi(42))]).is_ok());
    assert!(act("rsqrt", &[2f32.powi(98)]).is_err());
}

#[test]
fn activation_functions_outside_the_nki_table_are_refused_by_name() {
    for f in [
        "lrelu",
        "prelu",
        "derivative_gelu_apprx_sigmoid",
        "abs_reciprocal_sqrt",
        "is_finite",
    ] {
        let msg = no_semantics(act(f, &[1.0]).map(|_| ()));
        assert!(msg.contains(f), "{msg}");
    }
    // Unknown spellings are not in the shared vocabulary, so no table lookup sees them.
    assert_eq!(ActivationFunc::from_name("swish"), None);
}

#[test]
fn activation_scale_bias_and_the_add_reduction() {
    let mut m = mem();
    let mut acc = Accumulators::new();
    let x = sb_f32(&mut m, &[2, 2], &[1.0, 2.0, 3.0, 4.0]);
    let scale = sb_f32(&mut m, &[2, 1], &[2.0, -1.0]);
    let bias = sb(&mut m, DType::Bf16, &[2, 1]);
    m.write_f32(&bias, &[0.5, 10.0]).unwrap();
    let d = sb(&mut m, DType::F32, &[2, 2]);
    let r = sb(&mut m, DType::F32, &[2, 1]);
    let mut args = Activation {
        func: ActivationFunc::Identity,
        scale: Scalar::Tile(&scale),
        bias: Some(Scalar::Tile(&bias)),
        reduce_op: Some(AluOp::Add),
        reduce_cmd: ReduceCmd::ResetReduce,
        reduce_res: Some(&r),
    };
    activation(&mut m, &mut acc, &d, &x, &args).unwrap();
    assert_eq!(f32s(&m, &d), vec![2.5, 4.5, 7.0, 6.0]);
    assert_eq!(f32s(&m, &r), vec![7.0, 13.0]);
    // reduce adds to the registers.
    args.reduce_cmd = ReduceCmd::Reduce;
    activation(&mut m, &mut acc, &d, &x, &args).unwrap();
    assert_eq!(f32s(&m, &r), vec![14.0, 26.0]);
    // idle leaves them; reduce_res still reads them out.
    args.reduce_cmd = ReduceCmd::Idle;
    activation(&mut m, &mut acc, &d, &x, &args).unwrap();
    assert_eq!(f32s(&m, &r), vec![14.0, 26.0]);
    // reset zeroes them without accumulating.
    args.reduce_cmd = ReduceCmd::Reset;
    activation(&mut m, &mut acc, &d, &x, &args).unwrap();
    assert_eq!(f32s(&m, &r), vec![0.0, 0.0]);
    assert_eq!(acc.get(AccEngine::Scalar, 1), Some(0.0));
    // The Vector accumulators are separate.
    assert_eq!(acc.get(AccEngine::Vector, 0), None);
    // Scalar read-out, negated.
    args.reduce_cmd = ReduceCmd::ResetReduce;
    args.reduce_res = None;
    activation(&mut m, &mut acc, &d, &x, &args).unwrap();
    activation_read_accumulator(&mut m, &acc, &r, true).unwrap();
    assert_eq!(f32s(&m, &r), vec![-7.0, -13.0]);
}

#[test]
fn activation_errors() {
    let mut m = Memory::new(Target::Sunda);
    let mut acc = Accumulators::new();
    let x = sb_f32(&mut m, &[2, 2], &[1.0; 4]);
    let d = sb(&mut m, DType::F32, &[2, 2]);
    let base = Activation::default();
    // Scalar bias needs NeuronCore-v3.
    let a = Activation {
        bias: Some(Scalar::Imm(1.0)),
        ..base
    };
    is_unsupported(activation(&mut m, &mut acc, &d, &x, &a));
    let bf = sb(&mut m, DType::Bf16, &[2, 1]);
    m.write_f32(&bf, &[1.0, 1.0]).unwrap();
    let a = Activation {
        scale: Scalar::Tile(&bf),
        ..base
    };
    is_dtype_err(activation(&mut m, &mut acc, &d, &x, &a));
    let a = Activation {
        reduce_op: Some(AluOp::Mult),
        reduce_cmd: ReduceCmd::ResetReduce,
        ..base
    };
    is_invalid(activation(&mut m, &mut acc, &d, &x, &a));
    let a = Activation {
        reduce_cmd: ReduceCmd::ResetReduce,
        ..base
    };
    is_invalid(activation(&mut m, &mut acc, &d, &x, &a));
    let a = Activation {
        reduce_op: Some(AluOp::Add),
        reduce_cmd: ReduceCmd::LoadReduce,
        ..base
    };
    is_invalid(activation(&mut m, &mut acc, &d, &x, &a));
    // Reading out never-set registers.
    let r = sb(&mut m, DType::F32, &[2, 1]);
    let a = Activation {
        reduce_res: Some(&r),
        ..base
    };
    assert!(matches!(
        activation(&mut m, &mut acc, &d, &x, &a),
        Err(EmuError::UninitialisedAccumulator {
            engine: "scalar",
            ..
        })
    ));
    assert!(activation_read_accumulator(&mut m, &acc, &r, false).is_err());
    let h = m.alloc_hbm("h", DType::F32, &[2, 2]).unwrap();
    is_memory_err(activation(&mut m, &mut acc, &h, &x, &base));
    // An out-of-range input writes nothing.
    let z = sb_f32(&mut m, &[2, 2], &[0.0; 4]);
    m.write_f32(&d, &[5.0; 4]).unwrap();
    let a = Activation {
        func: ActivationFunc::Ln,
        ..base
    };
    assert!(activation(&mut m, &mut acc, &d, &z, &a).is_err());
    assert_eq!(f32s(&m, &d), vec![5.0; 4]);
}

// ------------------------------------------------------------- reciprocal, exponential

#[test]
fn reciprocal_is_the_ieee_fp32_quotient() {
    let mut m = mem();
    let x = sb_f32(&mut m, &[1, 3], &[3.0, 0.0, -0.5]);
    let d = sb(&mut m, DType::F32, &[1, 3]);
    reciprocal(&mut m, &d, &x).unwrap();
    // 1/3 rounds to 0x3EAAAAAB.
    assert_eq!(bits(&m, &d), vec![0x3EAA_AAAB, 0x7F80_0000, 0xC000_0000]);
    let h = m.alloc_hbm("h", DType::F32, &[1, 3]).unwrap();
    is_memory_err(reciprocal(&mut m, &d, &h));
}

#[test]
fn exponential_subtracts_the_max_and_sums_in_the_vector_registers() {
    let mut m = mem();
    let mut acc = Accumulators::new();
    let x = sb_f32(&mut m, &[2, 2], &[1.0, 1.0, 3.0, 2.0]);
    let max = sb_f32(&mut m, &[2, 1], &[1.0, 3.0]);
    let d = sb(&mut m, DType::F32, &[2, 2]);
    let r = sb(&mut m, DType::F32, &[2, 1]);
    let mut args = Exponential {
        max_value: Scalar::Tile(&max),
        reduce_cmd: ReduceCmd::ResetReduce,
        reduce_init: 0.0,
        reduce_res: Some(&r),
    };
    exponential(&mut m, &mut acc, &d, &x, &args).unwrap();
    let e_inv = (-1f64).exp() as f32;
    assert_eq!(f32s(&m, &d), vec![1.0, 1.0, 1.0, e_inv]);
    assert_eq!(f32s(&m, &r), vec![2.0, 1.0 + e_inv]);
    args.reduce_cmd = ReduceCmd::LoadReduce;
    args.reduce_init = 10.0;
    exponential(&mut m, &mut acc, &d, &x, &args).unwrap();
    assert_eq!(f32s(&m, &r)[0], 12.0);
    // idle leaves the Vector accumulators undefined: a later read-out fails.
    args.reduce_cmd = ReduceCmd::Idle;
    args.reduce_init = 0.0;
    args.reduce_res = None;
    exponential(&mut m, &mut acc, &d, &x, &args).unwrap();
    assert!(matches!(
        dve_read_accumulator(&mut m, &acc, &r, false),
        Err(EmuError::UninitialisedAccumulator {
            engine: "vector",
            lane: 0,
            ..
        })
    ));
}

#[test]
fn exponential_errors() {
    let mut m = Memory::new(Target::Cayman);
    let mut acc = Accumulators::new();
    let x = sb_f32(&mut m, &[1, 2], &[0.0; 2]);
    let d = sb(&mut m, DType::F32, &[1, 2]);
    is_unsupported(exponential(
        &mut m,
        &mut acc,
        &d,
        &x,
        &Exponential::default(),
    ));
    let mut m = mem();
    let x = sb_f32(&mut m, &[1, 2], &[0.0; 2]);
    let d = sb(&mut m, DType::F32, &[1, 2]);
    let du = sb(&mut m, DType::U32, &[1, 2]);
    is_dtype_err(exponential(
        &mut m,
        &mut acc,
        &du,
        &x,
        &Exponential::default(),
    ));
    let bad_init = Exponential {
        reduce_cmd: ReduceCmd::ResetReduce,
        reduce_init: 1.0,
        ..Exponential::default()
    };
    is_invalid(exponential(&mut m, &mut acc, &d, &x, &bad_init));
    let reset = Exponential {
        reduce_cmd: ReduceCmd::Reset,
        ..Exponential::default()
    };
    is_invalid(exponential(&mut m, &mut acc, &d, &x, &reset));
    let ri = sb(&mut m, DType::I32, &[1, 1]);
    let int_res = Exponential {
        reduce_cmd: ReduceCmd::ResetReduce,
        reduce_res: Some(&ri),
        ..Exponential::default()
    };
    is_dtype_err(exponential(&mut m, &mut acc, &d, &x, &int_res));
}

// --------------------------------------------------------------- iota, affine_select

#[test]
fn iota_generates_the_affine_pattern_in_int32() {
    let mut m = mem();
    let d = sb(&mut m, DType::I32, &[2, 4]);
    iota(&mut m, &d, &[[1, 4]], 10, 100).unwrap();
    assert_eq!(
        m.read_i64(&d).unwrap(),
        vec![10, 11, 12, 13, 110, 111, 112, 113]
    );
    // Two pattern dims, outermost first: value = 4 i + j over a [2, 2, 2] tile.
    let d3 = sb(&mut m, DType::I32, &[1, 2, 2]);
    iota(&mut m, &d3, &[[4, 2], [1, 2]], 0, 0).unwrap();
    assert_eq!(m.read_i64(&d3).unwrap(), vec![0, 1, 4, 5]);
    // int32 arithmetic wraps: i32::MAX + 1 -> i32::MIN.
    let dw = sb(&mut m, DType::I32, &[1, 2]);
    iota(&mut m, &dw, &[[1, 2]], i64::from(i32::MAX), 0).unwrap();
    assert_eq!(
        m.read_i64(&dw).unwrap(),
        vec![i64::from(i32::MAX), i64::from(i32::MIN)]
    );
    // Cast to the destination: fp32 exactly, int8 saturating (pinned assumption).
    let df = sb(&mut m, DType::F32, &[1, 3]);
    iota(&mut m, &df, &[[-2, 3]], 1, 0).unwrap();
    assert_eq!(f32s(&m, &df), vec![1.0, -1.0, -3.0]);
    let d8 = sb(&mut m, DType::I8, &[1, 2]);
    iota(&mut m, &d8, &[[-400, 2]], 200, 0).unwrap();
    assert_eq!(m.read_i64(&d8).unwrap(), vec![127, -128]);
}

#[test]
fn iota_errors() {
    let mut m = mem();
    let d = sb(&mut m, DType::I32, &[2, 4]);
    is_shape_err(iota(&mut m, &d, &[[1, 3]], 0, 0));
    is_invalid(iota(&mut m, &d, &[], 0, 0));
    is_invalid(iota(
        &mut m,
        &d,
        &[[1, 1], [1, 1], [1, 1], [1, 2], [1, 2]],
        0,
        0,
    ));
    is_invalid(iota(&mut m, &d, &[[1, 4]], 1 << 40, 0));
    is_invalid(iota(&mut m, &d, &[[1, -4]], 0, 0));
    let p = ps(&mut m, DType::I32, &[2, 4]);
    is_memory_err(iota(&mut m, &p, &[[1, 4]], 0, 0));
    let x4 = sb(&mut m, DType::Fp8E5m2X4, &[2, 4]);
    is_dtype_err(iota(&mut m, &x4, &[[1, 4]], 0, 0));
}

#[test]
fn affine_select_builds_a_causal_mask() {
    let mut m = mem();
    // value = p - j; keep where value >= 0 (j <= p).
    let x = sb_f32(
        &mut m,
        &[3, 3],
        &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
    );
    let d = sb(&mut m, DType::F32, &[3, 3]);
    let args = AffineSelect {
        pattern: &[[-1, 3]],
        offset: 0,
        channel_multiplier: 1,
        cmp_op: AluOp::IsGe,
        on_false_value: -9999.0,
    };
    tensor_scalar_affine_select(&mut m, &d, &x, &args).unwrap();
    assert_eq!(
        f32s(&m, &d),
        vec![1.0, -9999.0, -9999.0, 4.0, 5.0, -9999.0, 7.0, 8.0, 9.0]
    );
    // A dtype change goes through fp32: 1/3 lands in bf16 by RNE (0x3EAB).
    let y = sb_f32(&mut m, &[1, 2], &[1.0 / 3.0, 1.0]);
    let db = sb(&mut m, DType::Bf16, &[1, 2]);
    let eq = AffineSelect {
        pattern: &[[1, 2]],
        offset: -1,
        channel_multiplier: 0,
        cmp_op: AluOp::NotEqual,
        on_false_value: f32::MIN,
    };
    tensor_scalar_affine_select(&mut m, &db, &y, &eq).unwrap();
    assert_eq!(bits(&m, &db), vec![0x3EAB, 0xFF80]);
    let bad = AffineSelect {
        cmp_op: AluOp::Add,
        ..eq
    };
    is_invalid(tensor_scalar_affine_select(&mut m, &db, &y, &bad));
    let p = ps(&mut m, DType::F32, &[1, 2]);
    is_memory_err(tensor_scalar_affine_select(&mut m, &db, &p, &eq));
}

// ----------------------------------------------------------------------- selects

#[test]
fn copy_predicated_leaves_unselected_elements_untouched() {
    let mut m = mem();
    let src = sb_bits(&mut m, DType::U16, &[2, 2], &[1, 2, 3, 4]);
    let pred = sb_bits(&mut m, DType::U8, &[2, 2], &[1, 0, 0, 255]);
    let d = sb_bits(&mut m, DType::U16, &[2, 2], &[7, 7, 7, 7]);
    copy_predicated(&mut m, &d, &src, &pred, false).unwrap();
    assert_eq!(bits(&m, &d), vec![1, 7, 7, 4]);
    copy_predicated(&mut m, &d, &src, &pred, true).unwrap();
    assert_eq!(bits(&m, &d), vec![1, 2, 3, 4]);
    let f = sb_f32(&mut m, &[2, 2], &[0.0; 4]);
    is_dtype_err(copy_predicated(&mut m, &d, &f, &pred, false));
    is_dtype_err(copy_predicated(&mut m, &d, &src, &f, false));
    let small = sb_bits(&mut m, DType::U8, &[2, 1], &[1, 1]);
    is_shape_err(copy_predicated(&mut m, &d, &src, &small, false));
}

#[test]
fn select_reduce_is_where_then_max() {
    let mut m = mem();
    let mut acc = Accumulators::new();
    let pred = sb_bits(&mut m, DType::U8, &[2, 3], &[1, 0, 1, 0, 0, 1]);
    let on_true = sb_f32(&mut m, &[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let d = sb(&mut m, DType::F32, &[2, 3]);
    let r = sb(&mut m, DType::F32, &[2, 1]);
    let red = MaxReduce {
        reduce_op: AluOp::Max,
        reduce_cmd: ReduceCmd::ResetReduce,
        reduce_res: Some(&r),
    };
    select_reduce(
        &mut m,
        &mut acc,
        &d,
        &pred,
        &on_true,
        &Scalar::Imm(-1.0),
        false,
        &red,
    )
    .unwrap();
    assert_eq!(f32s(&m, &d), vec![1.0, -1.0, 3.0, -1.0, -1.0, 6.0]);
    assert_eq!(f32s(&m, &r), vec![3.0, 6.0]);
    // reverse_pred and a per-partition on_false tile (bf16 is fine for a tile).
    let fb = sb(&mut m, DType::Bf16, &[2, 1]);
    m.write_f32(&fb, &[10.0, 20.0]).unwrap();
    let red = MaxReduce {
        reduce_cmd: ReduceCmd::Reduce,
        ..red
    };
    select_reduce(
        &mut m,
        &mut acc,
        &d,
        &pred,
        &on_true,
        &Scalar::Tile(&fb),
        true,
        &red,
    )
    .unwrap();
    assert_eq!(f32s(&m, &d), vec![10.0, 2.0, 10.0, 4.0, 5.0, 20.0]);
    assert_eq!(f32s(&m, &r), vec![10.0, 20.0]);
    // Errors.
    let i32t = sb_bits(&mut m, DType::I32, &[2, 3], &[0; 6]);
    is_dtype_err(select_reduce(
        &mut m,
        &mut acc,
        &d,
        &pred,
        &i32t,
        &Scalar::Imm(0.0),
        false,
        &red,
    ));
    let p32 = sb_bits(&mut m, DType::U32, &[2, 3], &[0; 6]);
    is_dtype_err(select_reduce(
        &mut m,
        &mut acc,
        &d,
        &p32,
        &on_true,
        &Scalar::Imm(0.0),
        false,
        &red,
    ));
    let add = MaxReduce {
        reduce_op: AluOp::Add,
        ..red
    };
    is_invalid(select_reduce(
        &mut m,
        &mut acc,
        &d,
        &pred,
        &on_true,
        &Scalar::Imm(0.0),
        false,
        &add,
    ));
    let ri = sb(&mut m, DType::I32, &[2, 1]);
    let int_res = MaxReduce {
        reduce_res: Some(&ri),
        ..red
    };
    is_dtype_err(select_reduce(
        &mut m,
        &mut acc,
        &d,
        &pred,
        &on_true,
        &Scalar::Imm(0.0),
        false,
        &int_res,
    ));
}

fn range_args<'a>(res: Option<&'a View>) -> RangeSelect<'a> {
    RangeSelect {
        comp_op0: AluOp::IsGe,
        comp_op1: AluOp::IsLt,
        range_start: 0,
        on_false_value: f32::MIN,
        reduce: MaxReduce {
            reduce_op: AluOp::Max,
            reduce_cmd: ReduceCmd::ResetReduce,
            reduce_res: res,
        },
    }
}

#[test]
fn range_select_keeps_an_index_window_and_fills_fp32_min() {
    let mut m = Memory::new(Target::Cayman);
    let mut acc = Accumulators::new();
    let x = sb_f32(&mut m, &[2, 4], &[5.0, 1.0, 2.0, 9.0, 1.0, 2.0, 3.0, 4.0]);
    let b0 = sb_f32(&mut m, &[2, 1], &[1.0, 0.0]);
    let b1 = sb_f32(&mut m, &[2, 1], &[3.0, 2.0]);
    let d = sb(&mut m, DType::F32, &[2, 4]);
    let r = sb(&mut m, DType::F32, &[2, 1]);
    range_select(&mut m, &mut acc, &d, &x, &b0, &b1, &range_args(Some(&r))).unwrap();
    let lo = f32::MIN;
    assert_eq!(f32s(&m, &d), vec![lo, 1.0, 2.0, lo, 1.0, 2.0, lo, lo]);
    assert_eq!(f32s(&m, &r), vec![2.0, 2.0]);
    // range_start shifts the index; a bf16 dst turns FP32_MIN into -Inf (the documented
    // downcast note).
    let db = sb(&mut m, DType::Bf16, &[2, 4]);
    let args = RangeSelect {
        range_start: 1,
        ..range_args(None)
    };
    range_select(&mut m, &mut acc, &db, &x, &b0, &b1, &args).unwrap();
    assert_eq!(bits(&m, &db)[..4], [0x40A0, 0x3F80, 0xFF80, 0xFF80]);
}

#[test]
fn range_select_errors() {
    let mut m = Memory::new(Target::Sunda);
    let mut acc = Accumulators::new();
    let x = sb_f32(&mut m, &[1, 2], &[0.0; 2]);
    let b = sb_f32(&mut m, &[1, 1], &[0.0]);
    let d = sb(&mut m, DType::F32, &[1, 2]);
    is_unsupported(range_select(
        &mut m,
        &mut acc,
        &d,
        &x,
        &b,
        &b,
        &range_args(None),
    ));
    let mut m = Memory::new(Target::Cayman);
    let x = sb_f32(&mut m, &[1, 2], &[0.0; 2]);
    let b = sb_f32(&mut m, &[1, 1], &[0.0]);
    let d = sb(&mut m, DType::F32, &[1, 2]);
    let fill = RangeSelect {
        on_false_value: -1.0,
        ..range_args(None)
    };
    is_invalid(range_select(&mut m, &mut acc, &d, &x, &b, &b, &fill));
    // range_start + 1 (the last index of a 2-wide tile) leaves the exact fp32 range.
    let far = RangeSelect {
        range_start: 16_777_216,
        ..range_args(None)
    };
    is_invalid(range_select(&mut m, &mut acc, &d, &x, &b, &b, &far));
    let below = RangeSelect {
        range_start: -16_777_217,
        ..range_args(None)
    };
    is_invalid(range_select(&mut m, &mut acc, &d, &x, &b, &b, &below));
    let ne = RangeSelect {
        comp_op1: AluOp::NotEqual,
        ..range_args(None)
    };
    is_invalid(range_select(&mut m, &mut acc, &d, &x, &b, &b, &ne));
    let xi = sb_bits(&mut m, DType::I16, &[1, 2], &[0, 0]);
    is_dtype_err(range_select(
        &mut m,
        &mut acc,
        &d,
        &xi,
        &b,
        &b,
        &range_args(None),
    ));
    let bb = sb(&mut m, DType::Bf16, &[1, 1]);
    m.write_f32(&bb, &[0.0]).unwrap();
    is_dtype_err(range_select(
        &mut m,
        &mut acc,
        &d,
        &x,
        &bb,
        &b,
        &range_args(None),
    ));
}

// ----------------------------------------------------------------- copy and memset

#[test]
fn tensor_copy_is_bit_exact_for_equal_dtypes_and_casts_through_fp32_otherwise() {
    let mut m = mem();
    // A NaN payload survives a same-dtype copy.
    let src = sb_bits(&mut m, DType::F32, &[1, 2], &[0x7FC0_0001, 0x3F80_0000]);
    let d = sb(&mut m, DType::F32, &[1, 2]);
    tensor_copy(&mut m, &d, &src, Some(Engine::Vector)).unwrap();
    assert_eq!(bits(&m, &d), vec![0x7FC0_0001, 0x3F80_0000]);
    // int32 copies are exact on Vector/GpSimd but go through fp32 on Scalar.
    let i = sb_bits(&mut m, DType::I32, &[1, 1], &[16_777_217]);
    let di = sb(&mut m, DType::I32, &[1, 1]);
    tensor_copy(&mut m, &di, &i, Some(Engine::GpSimd)).unwrap();
    assert_eq!(m.read_i64(&di).unwrap(), vec![16_777_217]);
    tensor_copy(&mut m, &di, &i, Some(Engine::Scalar)).unwrap();
    assert_eq!(m.read_i64(&di).unwrap(), vec![16_777_216]);
    // bf16 -> fp8 e5m2: 1.25 is exact in both.
    let b = sb(&mut m, DType::Bf16, &[1, 1]);
    m.write_f32(&b, &[1.25]).unwrap();
    let e5 = sb(&mut m, DType::Fp8E5m2, &[1, 1]);
    tensor_copy(&mut m, &e5, &b, None).unwrap();
    assert_eq!(bits(&m, &e5), vec![0x3D]);
    // x4 containers copy only to their own type.
    let x4 = sb_bits(&mut m, DType::Fp8E4m3FnX4, &[1, 1], &[0x3840_3830]);
    let y4 = sb(&mut m, DType::Fp8E4m3FnX4, &[1, 1]);
    tensor_copy(&mut m, &y4, &x4, Some(Engine::Vector)).unwrap();
    assert_eq!(bits(&m, &y4), vec![0x3840_3830]);
    let f = sb(&mut m, DType::F32, &[1, 1]);
    is_dtype_err(tensor_copy(&mut m, &f, &x4, Some(Engine::Vector)));
}

#[test]
fn tensor_copy_errors() {
    let mut m = Memory::new(Target::Sunda);
    let x = sb_f32(&mut m, &[1, 2], &[0.0; 2]);
    let d = sb(&mut m, DType::F32, &[1, 2]);
    is_unsupported(tensor_copy(&mut m, &d, &x, Some(Engine::Scalar)));
    // An engine that runs no element-wise op is refused, by name.
    let e = tensor_copy(&mut m, &d, &x, Some(Engine::Dma)).unwrap_err();
    assert!(e.to_string().contains("the dma engine runs no"), "{e}");
    let p = ps(&mut m, DType::F32, &[1, 2]);
    is_memory_err(tensor_copy(&mut m, &p, &x, Some(Engine::GpSimd)));
    tensor_copy(&mut m, &p, &x, Some(Engine::Vector)).unwrap();
    let d3 = sb(&mut m, DType::F32, &[1, 3]);
    is_shape_err(tensor_copy(&mut m, &d3, &x, Some(Engine::Vector)));
    let h = m.alloc_hbm("h", DType::F32, &[1, 2]).unwrap();
    is_memory_err(tensor_copy(&mut m, &h, &x, Some(Engine::Vector)));
}

#[test]
fn memset_fills_with_the_exact_constant() {
    let mut m = mem();
    let f = sb(&mut m, DType::F32, &[2, 2]);
    memset(&mut m, &f, Number::Float(1.5), Some(Engine::Vector)).unwrap();
    assert_eq!(f32s(&m, &f), vec![1.5; 4]);
    let i = sb(&mut m, DType::I8, &[1, 2]);
    memset(&mut m, &i, Number::Int(-3), Some(Engine::GpSimd)).unwrap();
    assert_eq!(bits(&m, &i), vec![0xFD, 0xFD]);
    memset(&mut m, &i, Number::Float(-128.0), None).unwrap();
    assert_eq!(bits(&m, &i), vec![0x80, 0x80]);
    // 1/3 in bf16 by RNE: 0x3EAB.
    let b = sb(&mut m, DType::Bf16, &[1, 1]);
    memset(&mut m, &b, Number::Float(1.0 / 3.0), Some(Engine::Vector)).unwrap();
    assert_eq!(bits(&m, &b), vec![0x3EAB]);
    let x4 = sb_bits(&mut m, DType::Fp4E2m1FnX4, &[1, 2], &[0xFFFF, 0xFFFF]);
    memset(&mut m, &x4, Number::Int(0), Some(Engine::Vector)).unwrap();
    assert_eq!(bits(&m, &x4), vec![0, 0]);
    // Errors: a value outside the type, a non-integer for an integer type, nonzero x4,
    // the Scalar engine, PSUM on GpSimd, HBM.
    let u = sb(&mut m, DType::U8, &[1, 1]);
    is_invalid(memset(&mut m, &u, Number::Int(300), Some(Engine::Vector)));
    is_invalid(memset(&mut m, &u, Number::Int(-1), Some(Engine::Vector)));
    is_invalid(memset(&mut m, &u, Number::Float(2.5), Some(Engine::Vector)));
    is_invalid(memset(
        &mut m,
        &x4,
        Number::Float(1.0),
        Some(Engine::Vector),
    ));
    is_unsupported(memset(&mut m, &u, Number::Int(1), Some(Engine::Scalar)));
    let p = ps(&mut m, DType::F32, &[1, 1]);
    is_memory_err(memset(&mut m, &p, Number::Int(1), Some(Engine::GpSimd)));
    let h = m.alloc_hbm("h", DType::F32, &[1, 1]).unwrap();
    is_memory_err(memset(&mut m, &h, Number::Int(1), Some(Engine::Vector)));
    let u64t = sb(&mut m, DType::U64, &[1, 1]);
    memset(&mut m, &u64t, Number::Int(i64::MAX), Some(Engine::Vector)).unwrap();
    assert_eq!(bits(&m, &u64t), vec![i64::MAX as u64]);
}

#[test]
fn read_outs_need_a_p_by_1_tile() {
    let mut m = mem();
    let mut acc = Accumulators::new();
    acc.set(AccEngine::Vector, 0, Some(1.0));
    acc.set(AccEngine::Vector, 1, Some(2.0));
    let wide = sb(&mut m, DType::F32, &[2, 2]);
    is_shape_err(dve_read_accumulator(&mut m, &acc, &wide, false));
    let r = sb(&mut m, DType::Bf16, &[2, 1]);
    dve_read_accumulator(&mut m, &acc, &r, false).unwrap();
    assert_eq!(bits(&m, &r), vec![0x3F80, 0x4000]);
    let r3 = sb(&mut m, DType::F32, &[3, 1]);
    assert!(matches!(
        dve_read_accumulator(&mut m, &acc, &r3, false),
        Err(EmuError::UninitialisedAccumulator { lane: 2, .. })
    ));
}

// ------------------------------------------------------------ more error paths

#[test]
fn every_pair_of_scalar_dtypes_converts_an_exact_value() {
    // 2.0 is exact in every scalar type (e8m0 included: 2^1), so every conversion of
    // tensor_copy's fp32 path must carry it unchanged; x4 containers copy only to
    // themselves.
    use sundial_emu::dtype::ALL_DTYPES;
    let mut m = mem();
    for s in ALL_DTYPES {
        for d in ALL_DTYPES {
            // Fresh tiles at the start of SBUF (the allocator fills them as new).
            m.reset_on_chip_allocators();
            let src = sb(&mut m, s, &[1, 1]);
            let dst = sb(&mut m, d, &[1, 1]);
            if s.is_x4() || d.is_x4() {
                m.write_bits(&src, &[0x11]).unwrap();
                let r = tensor_copy(&mut m, &dst, &src, Some(Engine::Vector));
                if s == d {
                    r.unwrap();
                    assert_eq!(bits(&m, &dst), vec![0x11], "{s} -> {d}");
                } else {
                    is_dtype_err(r);
                }
                continue;
            }
            m.write_f32(&src, &[2.0]).unwrap();
            tensor_copy(&mut m, &dst, &src, Some(Engine::Vector)).unwrap();
            assert_eq!(f32s(&m, &dst), vec![2.0], "{s} -> {d}");
        }
    }
}

#[test]
fn shared_operand_rules_hold_in_every_op_that_has_them() {
    let mut m = mem();
    let mut acc = Accumulators::new();
    let x = sb_f32(&mut m, &[2, 2], &[1.0; 4]);
    let d = sb(&mut m, DType::F32, &[2, 2]);
    let p1 = ps(&mut m, DType::F32, &[2, 2]);
    let p2 = ps(&mut m, DType::U8, &[2, 2]);
    // Two PSUM inputs.
    let s1 = TensorStage {
        op: AluOp::Add,
        operand: &p1,
        reverse: false,
    };
    is_memory_err(scalar_tensor_tensor_arith(
        &mut m,
        &d,
        &p1,
        &imm(AluOp::Add, 1.0),
        &s1,
    ));
    let pu16 = ps(&mut m, DType::F32, &[2, 2]);
    is_memory_err(copy_predicated(&mut m, &d, &pu16, &p2, false));
    let red = MaxReduce {
        reduce_op: AluOp::Max,
        reduce_cmd: ReduceCmd::Idle,
        reduce_res: None,
    };
    is_memory_err(select_reduce(
        &mut m,
        &mut acc,
        &d,
        &p2,
        &p1,
        &Scalar::Imm(0.0),
        false,
        &red,
    ));
    // A unary operator with a tile operand; GpSimd with a PSUM tile.
    let col = sb_f32(&mut m, &[2, 1], &[0.0; 2]);
    let s = Stage {
        op: AluOp::Rsqrt,
        operand: Some(Scalar::Tile(&col)),
        reverse: false,
    };
    is_invalid(tensor_scalar_arith(
        &mut m,
        &d,
        &x,
        &s,
        None,
        Some(Engine::Vector),
    ));
    let rs = Stage {
        op: AluOp::Rsqrt,
        operand: None,
        reverse: false,
    };
    is_memory_err(tensor_scalar_arith(
        &mut m,
        &d,
        &p1,
        &rs,
        None,
        Some(Engine::GpSimd),
    ));
    // An arithmetic operator in a bitvec op.
    let u = sb_bits(&mut m, DType::U8, &[1, 1], &[1]);
    let du = sb(&mut m, DType::U8, &[1, 1]);
    let add = BitStage {
        op: AluOp::Add,
        imm: 1,
        reverse: false,
    };
    is_invalid(tensor_scalar_bitvec(&mut m, &du, &u, &add, None));
    // A rank-0 view has no partition dimension.
    let scalar = View::new(x.alloc(), DType::F32, 0, vec![], vec![]).unwrap();
    is_shape_err(reciprocal(&mut m, &scalar, &scalar));
    // A pattern whose element count overflows.
    let di = sb(&mut m, DType::I32, &[1, 1]);
    assert!(matches!(
        iota(&mut m, &di, &[[1, 1 << 40], [1, 1 << 40]], 0, 0),
        Err(EmuError::Overflow { .. })
    ));
}
