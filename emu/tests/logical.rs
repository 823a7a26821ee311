//! Logical machines (`Memory::logical`): on-chip memories wider than the target's 128
//! partitions, for kernels with logical tiles (before partition tiling), and the generic
//! `tensor_partition_reduce`. Expected values are worked out by hand in the comments.

use sundial_emu::{
    Accumulators, AluOp, DType, Engine, MAX_LOGICAL_PARTITIONS, MatmulOptions, Memory, RngState,
    Target, cross_lane_reduce_arith, cross_lane_reduce_bitvec, dve_read_accumulator, nc_matmul,
    rng, tensor_copy, tensor_partition_reduce,
};

#[test]
fn a_logical_machine_has_the_width_rounded_up_and_the_target_bytes_per_partition() {
    let mut m = Memory::logical(Target::Cayman, 300).unwrap();
    // 300 rounds up to 3 x 128; cayman keeps 224 KiB per partition.
    assert_eq!(m.partitions(), 384);
    assert!(m.is_logical());
    let t = m.alloc_sbuf(DType::F32, &[300, 64]).unwrap();
    assert_eq!(t.strides()[0], (224 * 1024 / 4) as i64);
    assert_eq!(m.bytes(t.alloc()).unwrap().len(), 384 * 224 * 1024);
    assert!(m.sbuf_view(DType::F32, 380, 0, &[4, 1]).is_ok());
    let e = m.sbuf_view(DType::F32, 380, 0, &[5, 1]).unwrap_err();
    assert!(
        e.to_string().contains("partitions 380..+5 exceed 384"),
        "{e}"
    );
    // PSUM: the same width, 8 banks of 2 KiB per partition.
    let p = m.alloc_psum(DType::F32, &[384, 512]).unwrap();
    assert_eq!(m.bytes(p.alloc()).unwrap().len(), 384 * 16 * 1024);
    assert!(m.alloc_psum(DType::F32, &[300, 513]).is_err());
    // At most 128 is the physical machine.
    let small = Memory::logical(Target::Cayman, 5).unwrap();
    assert_eq!(small.partitions(), 128);
    assert!(!small.is_logical());
}

#[test]
fn a_logical_psum_tile_spans_consecutive_banks() {
    let mut m = Memory::new(Target::Cayman);
    // Physical rule: one bank (512 fp32) per tile.
    let e = m.alloc_psum(DType::F32, &[128, 2048]).unwrap_err();
    assert!(
        e.to_string()
            .contains("at most 2048 bytes per partition, not 8192"),
        "{e}"
    );
    m.set_logical_psum(true);
    // 8 KiB per partition takes banks 0..4; the next tile starts in bank 4 (byte 8192), and
    // a tile of 2049..4096 bytes takes two banks (4 and 5).
    let a = m.alloc_psum(DType::F32, &[128, 2048]).unwrap();
    let b = m.alloc_psum(DType::F32, &[128, 513]).unwrap();
    assert_eq!(b.offset() - a.offset(), 2048);
    // Two banks are left: a tile of three is refused, of two accepted, then none is left.
    let e = m.alloc_psum(DType::F32, &[128, 1025]).unwrap_err();
    assert!(e.to_string().contains("6 in use, 3 more needed"), "{e}");
    m.alloc_psum(DType::F32, &[128, 1024]).unwrap();
    assert!(m.alloc_psum(DType::F32, &[128, 1]).is_err());
    // At most the 16 KiB of all 8 banks.
    let mut n = Memory::new(Target::Cayman);
    n.set_logical_psum(true);
    let e = n.alloc_psum(DType::F32, &[128, 4097]).unwrap_err();
    assert!(
        e.to_string()
            .contains("at most 16384 bytes per partition, not 16388"),
        "{e}"
    );
    assert!(n.alloc_psum(DType::F32, &[128, 4096]).is_ok());
}

#[test]
fn the_physical_machine_keeps_its_128_partitions() {
    let mut m = Memory::new(Target::Mariana);
    assert_eq!(m.partitions(), 128);
    let e = m.alloc_sbuf(DType::F32, &[256, 4]).unwrap_err();
    assert!(
        e.to_string().contains("partitions 0..+256 exceed 128"),
        "{e}"
    );
}

#[test]
fn a_logical_machine_wider_than_the_cap_is_refused_before_allocating() {
    assert_eq!(MAX_LOGICAL_PARTITIONS, 2048);
    assert_eq!(
        Memory::logical(Target::Sunda, 2048).unwrap().partitions(),
        2048
    );
    for wide in [2049, usize::MAX] {
        let e = Memory::logical(Target::Sunda, wide).unwrap_err();
        assert!(
            e.to_string().contains(&format!(
                "a logical tile of {wide} partitions is wider than the 2048"
            )),
            "{e}"
        );
    }
}

#[test]
fn partition_parallel_and_cross_partition_ops_take_every_logical_partition() {
    let mut m = Memory::logical(Target::Cayman, 300).unwrap();
    let s = m.alloc_sbuf(DType::F32, &[300, 2]).unwrap();
    let d = m.alloc_sbuf(DType::F32, &[300, 2]).unwrap();
    let vals: Vec<f32> = (0..600).map(|i| i as f32).collect();
    m.write_f32(&s, &vals).unwrap();
    tensor_copy(&mut m, &d, &s, Some(Engine::Vector)).unwrap();
    assert_eq!(m.read_f32(&d).unwrap(), vals);
    // Column sums over all 300 partitions: sum of 2p = 300 * 299 = 89700, of 2p + 1 = 90000.
    let r = m.alloc_sbuf(DType::F32, &[1, 2]).unwrap();
    cross_lane_reduce_arith(&mut m, &r, &s, AluOp::Add).unwrap();
    assert_eq!(m.read_f32(&r).unwrap(), vec![89700.0, 90000.0]);
    let u = m.alloc_sbuf(DType::U32, &[256, 1]).unwrap();
    let bits: Vec<i64> = (0..256).map(|p| if p == 200 { 8 } else { 1 }).collect();
    m.write_i64(&u, &bits).unwrap();
    let o = m.alloc_sbuf(DType::U32, &[1, 1]).unwrap();
    cross_lane_reduce_bitvec(&mut m, &o, &u, AluOp::BitwiseOr).unwrap();
    assert_eq!(m.read_i64(&o).unwrap(), vec![9]);
}

#[test]
fn per_lane_engine_state_refuses_logical_tiles() {
    let mut m = Memory::logical(Target::Cayman, 256).unwrap();
    let d = m.alloc_sbuf(DType::F32, &[256, 1]).unwrap();
    let e = dve_read_accumulator(&mut m, &Accumulators::new(), &d, false).unwrap_err();
    assert!(
        e.to_string().contains("the accumulators have 128 lanes"),
        "{e}"
    );
    let r = m.alloc_sbuf(DType::U32, &[256, 4]).unwrap();
    let e = rng(&mut m, &mut RngState::default(), &r, Engine::Vector).unwrap_err();
    assert!(
        e.to_string()
            .contains("more than the 128 physical partitions this op's semantics name"),
        "{e}"
    );
}

/// K = 256 on a logical machine runs as two K blocks of 128 accumulated into PSUM. The
/// contraction (stationary all ones, M = 1) sums moving's column: 2^24 at row 0, 1.0 at rows
/// 128 and 129, zero elsewhere. Block 0 gives 2^24, block 1 gives 2 (exact), and the
/// accumulation 2^24 + 2 = 16777218 is exact; one sequential fp32 sum would lose both ones
/// (2^24 + 1 rounds to even, 2^24). The golden pins our block rule (module doc of matmul).
#[test]
fn a_logical_contraction_runs_in_blocks_of_128_partitions() {
    let mut m = Memory::logical(Target::Cayman, 256).unwrap();
    let st = m.alloc_sbuf(DType::F32, &[256, 1]).unwrap();
    let mv = m.alloc_sbuf(DType::F32, &[256, 1]).unwrap();
    m.write_f32(&st, &[1.0; 256]).unwrap();
    let mut col = vec![0.0f32; 256];
    col[0] = 16_777_216.0;
    col[128] = 1.0;
    col[129] = 1.0;
    m.write_f32(&mv, &col).unwrap();
    let d = m.alloc_psum(DType::F32, &[1, 1]).unwrap();
    nc_matmul(&mut m, &d, &st, &mv, &MatmulOptions::default()).unwrap();
    assert_eq!(m.read_f32(&d).unwrap(), vec![16_777_218.0]);
    // The PE array pins the geometry: tiling is refused beyond 128 partitions.
    let tiled = MatmulOptions {
        tile_position: Some([0, 0]),
        tile_size: Some([128, 128]),
        ..MatmulOptions::default()
    };
    let e = nc_matmul(&mut m, &d, &st, &mv, &tiled).unwrap_err();
    assert!(e.to_string().contains("pin the 128x128 PE array"), "{e}");
    // On the physical machine the same shapes do not exist.
    let mut p = Memory::new(Target::Cayman);
    assert!(p.alloc_sbuf(DType::F32, &[256, 1]).is_err());
}

/// `tensor_partition_reduce` over src [3, 2, 2] (values 0..12, row-major): axis 0 reduces
/// partitions, axis [0, 2] also the last free axis.
#[test]
fn tensor_partition_reduce_reduces_partitions_then_trailing_free_axes() {
    let mut m = Memory::new(Target::Cayman);
    let s = m.alloc_sbuf(DType::F32, &[3, 2, 2]).unwrap();
    m.write_f32(&s, &(0..12).map(|i| i as f32).collect::<Vec<_>>())
        .unwrap();
    let d4 = m.alloc_sbuf(DType::F32, &[1, 2, 2]).unwrap();
    // Column sums: 0+4+8, 1+5+9, 2+6+10, 3+7+11.
    tensor_partition_reduce(&mut m, &d4, &s, AluOp::Add, &[0]).unwrap();
    assert_eq!(m.read_f32(&d4).unwrap(), vec![12.0, 15.0, 18.0, 21.0]);
    tensor_partition_reduce(&mut m, &d4, &s, AluOp::Max, &[0]).unwrap();
    assert_eq!(m.read_f32(&d4).unwrap(), vec![8.0, 9.0, 10.0, 11.0]);
    let d2 = m.alloc_sbuf(DType::F32, &[1, 2]).unwrap();
    // Kept free index 0: 0+1+4+5+8+9 = 27, index 1: 2+3+6+7+10+11 = 39; means / 6.
    tensor_partition_reduce(&mut m, &d2, &s, AluOp::Add, &[0, 2]).unwrap();
    assert_eq!(m.read_f32(&d2).unwrap(), vec![27.0, 39.0]);
    tensor_partition_reduce(&mut m, &d2, &s, AluOp::Average, &[0, 2]).unwrap();
    assert_eq!(m.read_f32(&d2).unwrap(), vec![4.5, 6.5]);
    tensor_partition_reduce(&mut m, &d2, &s, AluOp::Min, &[2, 0]).unwrap();
    assert_eq!(m.read_f32(&d2).unwrap(), vec![0.0, 2.0]);
    // Bit-vector: 1 ^ 2 ^ 4 = 7 and 8 | 8 | 1 = 9.
    let u = m.alloc_sbuf(DType::I32, &[3, 2]).unwrap();
    m.write_i64(&u, &[1, 8, 2, 8, 4, 1]).unwrap();
    let du = m.alloc_sbuf(DType::I32, &[1, 2]).unwrap();
    tensor_partition_reduce(&mut m, &du, &u, AluOp::BitwiseXor, &[0]).unwrap();
    assert_eq!(m.read_i64(&du).unwrap()[0], 7);
    tensor_partition_reduce(&mut m, &du, &u, AluOp::BitwiseOr, &[0]).unwrap();
    assert_eq!(m.read_i64(&du).unwrap(), vec![7, 9]);
    // bf16 dst: the fp32 result rounded once (12 exact).
    let b = m.alloc_sbuf(DType::Bf16, &[1, 2, 2]).unwrap();
    tensor_partition_reduce(&mut m, &b, &s, AluOp::Add, &[0]).unwrap();
    assert_eq!(m.read_f32(&b).unwrap(), vec![12.0, 15.0, 18.0, 21.0]);
}

#[test]
fn tensor_partition_reduce_refuses_bad_axes_shapes_and_operators() {
    let mut m = Memory::new(Target::Cayman);
    let s = m.alloc_sbuf(DType::F32, &[3, 2, 2]).unwrap();
    m.write_f32(&s, &[1.0; 12]).unwrap();
    let d2 = m.alloc_sbuf(DType::F32, &[1, 2]).unwrap();
    let d4 = m.alloc_sbuf(DType::F32, &[1, 4]).unwrap();
    let wide = m.alloc_sbuf(DType::F32, &[2, 4]).unwrap();
    for (axis, what) in [
        (&[2][..], "must be 0 and optionally the trailing free axes"),
        (
            &[0, 1][..],
            "must be 0 and optionally the trailing free axes",
        ),
        (
            &[0, 1, 2, 3][..],
            "must be 0 and optionally the trailing free axes",
        ),
    ] {
        let e = tensor_partition_reduce(&mut m, &d2, &s, AluOp::Add, axis).unwrap_err();
        assert!(e.to_string().contains(what), "{axis:?}: {e}");
    }
    let e = tensor_partition_reduce(&mut m, &d4, &s, AluOp::Add, &[0, 2]).unwrap_err();
    assert!(
        e.to_string()
            .contains("dst must be 1 partition x 2 elements, not 1 x 4"),
        "{e}"
    );
    let e = tensor_partition_reduce(&mut m, &wide, &s, AluOp::Add, &[0]).unwrap_err();
    assert!(e.to_string().contains("not 2 x 4"), "{e}");
    let e = tensor_partition_reduce(&mut m, &d2, &s, AluOp::ModInt, &[0, 2]).unwrap_err();
    assert!(e.to_string().contains("mod_int"), "{e}");
    // A bit-vector operator on floats has no integer width.
    let e = tensor_partition_reduce(&mut m, &d2, &s, AluOp::BitwiseOr, &[0, 2]).unwrap_err();
    assert!(!e.to_string().is_empty());
    // A failing op writes nothing: the uninitialised fill is still there.
    assert!(m.read_f32(&d2).unwrap().iter().all(|v| v.is_nan()));
}
