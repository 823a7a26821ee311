//! The row-streaming fast path of the fp32 element-wise ops (tiles whose partition rows are
//! contiguous runs) against the general path (any view): the same values, in-place and
//! overlapping destinations, and the uninitialised-read check before any write. Goldens are
//! worked out by hand in each test.

use sundial_emu::*;

fn tile(m: &mut Memory, parts: usize, free: usize, vals: &[f32]) -> View {
    let v = m.alloc_sbuf(DType::F32, &[parts, free]).unwrap();
    m.write_f32(&v, vals).unwrap();
    v
}

/// Columns `from, from + step, ...` (`n` of them) of an SBUF tile: a view whose rows are not
/// contiguous when `step > 1`.
fn columns(t: &View, from: usize, n: usize, step: i64) -> View {
    let parts = t.shape()[0];
    View::new(
        t.alloc(),
        t.dtype(),
        t.offset() + from as i64,
        vec![parts, n],
        vec![t.strides()[0], step],
    )
    .unwrap()
}

#[test]
fn contiguous_and_strided_tiles_give_the_same_sums() {
    let mut m = Memory::new(Target::Mariana);
    m.set_check_uninit(true).unwrap();
    let iota: Vec<f32> = (0..16).map(|i| i as f32).collect();
    let a = tile(&mut m, 2, 8, &iota);
    let b = tile(&mut m, 2, 8, &[10.0; 16]);
    // Contiguous rows: a + b = i + 10.
    let out = tile(&mut m, 2, 8, &[0.0; 16]);
    tensor_tensor_arith(&mut m, &out, &a, &b, AluOp::Add, None).unwrap();
    let want: Vec<f32> = (0..16).map(|i| i as f32 + 10.0).collect();
    assert_eq!(m.read_f32(&out).unwrap(), want);
    // Every other column (general path): columns 0, 2, 4, 6 of each row.
    let (sa, sb, so) = (
        columns(&a, 0, 4, 2),
        columns(&b, 0, 4, 2),
        columns(&out, 1, 4, 2),
    );
    tensor_tensor_arith(&mut m, &so, &sa, &sb, AluOp::Mult, None).unwrap();
    assert_eq!(
        m.read_f32(&so).unwrap(),
        vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0, 120.0, 140.0]
    );
}

#[test]
fn in_place_and_overlapping_destinations_read_before_they_write() {
    let mut m = Memory::new(Target::Mariana);
    let iota: Vec<f32> = (0..8).map(|i| i as f32).collect();
    let a = tile(&mut m, 2, 4, &iota);
    let c = tile(&mut m, 2, 1, &[2.0, -1.0]);
    // In place: a = a * c[p] (a [P, 1] operand): p0 * 2, p1 * -1.
    let stage = Stage {
        op: AluOp::Mult,
        operand: Some(Scalar::Tile(&c)),
        reverse: false,
    };
    tensor_scalar_arith(&mut m, &a, &a, &stage, None, None).unwrap();
    assert_eq!(
        m.read_f32(&a).unwrap(),
        vec![0.0, 2.0, 4.0, 6.0, -4.0, -5.0, -6.0, -7.0]
    );
    // dst is src shifted right by one column (overlapping, not the same tile): every
    // element reads the value before the op, so dst[p, j + 1] = 2 * src[p, j] (an
    // element-by-element in-place pass would give 1, 2, 4, 8, 16 in partition 0).
    let t = tile(
        &mut m,
        2,
        5,
        &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0],
    );
    let (src, dst) = (columns(&t, 0, 4, 1), columns(&t, 1, 4, 1));
    let twice = Stage {
        op: AluOp::Mult,
        operand: Some(Scalar::Imm(2.0)),
        reverse: false,
    };
    tensor_scalar_arith(&mut m, &dst, &src, &twice, None, None).unwrap();
    assert_eq!(
        m.read_f32(&t).unwrap(),
        vec![1.0, 2.0, 4.0, 6.0, 8.0, 6.0, 12.0, 14.0, 16.0, 18.0]
    );
}

#[test]
fn an_unwritten_input_fails_the_op_before_any_write() {
    let mut m = Memory::new(Target::Mariana);
    m.set_check_uninit(true).unwrap();
    let a = tile(&mut m, 2, 4, &[1.0; 8]);
    let b = m.alloc_sbuf_named("never", DType::F32, &[2, 4]).unwrap();
    let out = tile(&mut m, 2, 4, &[7.0; 8]);
    let err = tensor_tensor_arith(&mut m, &out, &a, &b, AluOp::Add, None).unwrap_err();
    match &err {
        EmuError::Uninitialised { op, tile, .. } => {
            assert_eq!(*op, "tensor_tensor_arith");
            assert_eq!(tile, "never");
        }
        other => panic!("expected an uninitialised read, got {other:?}"),
    }
    assert_eq!(m.read_f32(&out).unwrap(), vec![7.0; 8]);
}

/// `activation(square)` with its add reduction, on contiguous rows (the row path, lanes summed
/// in blocks of rows) and on every other column (the general path): the same squares and the
/// same in-order lane sums. 9 partitions, so one block of 8 lanes and one partial block.
#[test]
fn activation_rows_and_lane_sums_match_the_general_path() {
    let mut m = Memory::new(Target::Mariana);
    m.set_check_uninit(true).unwrap();
    // Row p holds p, p + 0.5, -1, 2 (then four columns of 100 for the strided view to skip).
    let vals: Vec<f32> = (0..9)
        .flat_map(|p| {
            let p = p as f32;
            [p, 100.0, p + 0.5, 100.0, -1.0, 100.0, 2.0, 100.0]
        })
        .collect();
    let x = tile(&mut m, 9, 8, &vals);
    let dense: Vec<f32> = (0..9)
        .flat_map(|p| {
            let p = p as f32;
            [p, p + 0.5, -1.0, 2.0]
        })
        .collect();
    let xd = tile(&mut m, 9, 4, &dense);
    // Hand-worked: the squares p^2, (p + 0.5)^2, 1, 4 and their sum 2p^2 + p + 5.25 (exact in
    // fp32 for these p), times the scale 2 applied before squaring: (2x)^2 = 4 x^2.
    let want_sq: Vec<f32> = (0..9)
        .flat_map(|p| {
            let p = p as f32;
            [4.0 * p * p, 4.0 * (p + 0.5) * (p + 0.5), 4.0, 16.0]
        })
        .collect();
    let want_sum: Vec<f32> = (0..9)
        .map(|p| {
            let p = p as f32;
            4.0 * (2.0 * p * p + p + 5.25)
        })
        .collect();
    for (what, data) in [("rows", xd.clone()), ("strided", columns(&x, 0, 4, 2))] {
        let out = m.alloc_sbuf(DType::F32, &[9, 4]).unwrap();
        let res = m.alloc_sbuf(DType::F32, &[9, 1]).unwrap();
        let mut acc = Accumulators::new();
        let args = Activation {
            func: ActivationFunc::Square,
            scale: Scalar::Imm(2.0),
            reduce_op: Some(AluOp::Add),
            reduce_cmd: ReduceCmd::ResetReduce,
            reduce_res: Some(&res),
            ..Activation::default()
        };
        activation(&mut m, &mut acc, &out, &data, &args).unwrap();
        assert_eq!(m.read_f32(&out).unwrap(), want_sq, "{what}");
        assert_eq!(m.read_f32(&res).unwrap(), want_sum, "{what}");
    }
}
