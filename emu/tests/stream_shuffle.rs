//! `stream_shuffle` (`nki.isa.nc_stream_shuffle`): hand-written goldens for the quadrant
//! permutation, the 255 keep value, several quadrants, the one-partition broadcast, in-place
//! and PSUM operands; every refusal, with nothing written.

use sundial_emu::{DType, EmuError, Memory, SHUFFLE_KEEP, Target, View, stream_shuffle};

fn mem() -> Memory {
    Memory::new(Target::Cayman)
}

/// An SBUF view at `partition` (byte offset `at` within each partition) holding `vals`.
fn sbuf_at(
    m: &mut Memory,
    d: DType,
    partition: usize,
    at: usize,
    shape: &[usize],
    vals: &[f32],
) -> View {
    let v = m.sbuf_view(d, partition, at, shape).unwrap();
    m.write_f32(&v, vals).unwrap();
    v
}

fn identity() -> Vec<i64> {
    (0..32).collect()
}

#[test]
fn a_reversing_mask_reverses_one_quadrant() {
    let mut m = mem();
    // src row p holds [10p, 10p + 1].
    let vals: Vec<f32> = (0..32)
        .flat_map(|p| [10.0 * p as f32, 10.0 * p as f32 + 1.0])
        .collect();
    let src = sbuf_at(&mut m, DType::F32, 0, 0, &[32, 2], &vals);
    let dst = m.sbuf_view(DType::F32, 32, 0, &[32, 2]).unwrap();
    let mask: Vec<i64> = (0..32).rev().collect();
    stream_shuffle(&mut m, &dst, &src, &mask).unwrap();
    let out = m.read_f32(&dst).unwrap();
    // dst row 0 = src row 31 = [310, 311]; dst row 1 = src row 30 = [300, 301]; dst row 31
    // = src row 0 = [0, 1].
    assert_eq!(&out[0..4], &[310.0, 311.0, 300.0, 301.0]);
    assert_eq!(&out[62..64], &[0.0, 1.0]);
    // The identity mask copies.
    stream_shuffle(&mut m, &dst, &src, &identity()).unwrap();
    assert_eq!(m.read_f32(&dst).unwrap(), vals);
}

#[test]
fn mask_255_leaves_the_output_partition_unmodified() {
    let mut m = mem();
    let src = sbuf_at(
        &mut m,
        DType::I32,
        0,
        0,
        &[32, 1],
        &(0..32).map(|p| p as f32).collect::<Vec<_>>(),
    );
    let dst = sbuf_at(&mut m, DType::I32, 64, 0, &[32, 1], &[-1.0; 32]);
    let mut mask = vec![SHUFFLE_KEEP; 32];
    mask[1] = 0;
    mask[30] = 7;
    stream_shuffle(&mut m, &dst, &src, &mask).unwrap();
    let mut want = vec![-1i64; 32];
    want[1] = 0;
    want[30] = 7;
    assert_eq!(m.read_i64(&dst).unwrap(), want);
}

#[test]
fn the_mask_applies_to_every_quadrant_independently() {
    let mut m = mem();
    // 64 partitions of uint8, row p = p; the mask rotates by one within each quadrant.
    let src = sbuf_at(
        &mut m,
        DType::U8,
        0,
        0,
        &[64, 1],
        &(0..64).map(|p| p as f32).collect::<Vec<_>>(),
    );
    let dst = m.sbuf_view(DType::U8, 64, 0, &[64, 1]).unwrap();
    let mask: Vec<i64> = (0..32).map(|i| (i + 1) % 32).collect();
    stream_shuffle(&mut m, &dst, &src, &mask).unwrap();
    let out = m.read_i64(&dst).unwrap();
    // Quadrant 0: row 0 <- 1, row 31 <- 0. Quadrant 1: row 32 <- 33, row 63 <- 32.
    assert_eq!((out[0], out[30], out[31]), (1, 31, 0));
    assert_eq!((out[32], out[62], out[63]), (33, 63, 32));
}

#[test]
fn one_src_partition_broadcasts_to_a_quadrant() {
    let mut m = mem();
    // src: one partition (partition 64) of 3 bf16; dst: the 32 partitions of quadrant 1.
    let src = sbuf_at(&mut m, DType::Bf16, 64, 0, &[1, 3], &[1.5, -2.0, 0.25]);
    let dst = m.sbuf_view(DType::Bf16, 32, 0, &[32, 3]).unwrap();
    stream_shuffle(&mut m, &dst, &src, &[0; 32]).unwrap();
    assert_eq!(m.read_f32(&dst).unwrap(), [1.5, -2.0, 0.25].repeat(32));
    // With 255 in some entries those partitions keep their value.
    let dst2 = sbuf_at(&mut m, DType::Bf16, 0, 64, &[32, 3], &[9.0; 96]);
    let mut mask = vec![0; 32];
    mask[5] = SHUFFLE_KEEP;
    stream_shuffle(&mut m, &dst2, &src, &mask).unwrap();
    let out = m.read_f32(&dst2).unwrap();
    assert_eq!(&out[15..18], &[9.0, 9.0, 9.0]);
    assert_eq!(&out[18..21], &[1.5, -2.0, 0.25]);
}

#[test]
fn in_place_and_psum_operands() {
    let mut m = mem();
    // In place: swap neighbours (i ^ 1); every src row is read before any write.
    let v = sbuf_at(
        &mut m,
        DType::F32,
        0,
        0,
        &[32, 1],
        &(0..32).map(|p| p as f32).collect::<Vec<_>>(),
    );
    let swap: Vec<i64> = (0..32).map(|i| i ^ 1).collect();
    stream_shuffle(&mut m, &v, &v, &swap).unwrap();
    let out = m.read_f32(&v).unwrap();
    assert_eq!(&out[0..4], &[1.0, 0.0, 3.0, 2.0]);
    assert_eq!(&out[30..32], &[31.0, 30.0]);
    // PSUM src, SBUF dst; a 3-D dst with the same elements per partition.
    let p = m.psum_view(DType::F32, 96, 0, 0, &[32, 4]).unwrap();
    m.write_f32(&p, &(0..128).map(|i| i as f32).collect::<Vec<_>>())
        .unwrap();
    let d = m.sbuf_view(DType::F32, 0, 128, &[32, 2, 2]).unwrap();
    let mut mask = vec![SHUFFLE_KEEP; 32];
    mask[0] = 31;
    m.write_f32(&d, &[0.0; 128]).unwrap();
    stream_shuffle(&mut m, &d, &p, &mask).unwrap();
    let out = m.read_f32(&d).unwrap();
    // dst row 0 = PSUM row 31 = [124, 125, 126, 127].
    assert_eq!(&out[0..4], &[124.0, 125.0, 126.0, 127.0]);
    assert_eq!(&out[4..8], &[0.0; 4]);
}

#[test]
fn only_selected_src_rows_are_read() {
    // With the uninitialised-read check on, a src whose row 1 was never written shuffles
    // fine while no dst row selects row 1, and fails (writing nothing) once one does.
    let mut m = mem();
    m.set_check_uninit(true).unwrap();
    let src = m.alloc_sbuf(DType::F32, &[32, 1]).unwrap();
    let mut mask = vec![SHUFFLE_KEEP; 32];
    mask[0] = 0;
    let row0 = m.sbuf_view(DType::F32, 0, 0, &[1, 1]).unwrap();
    m.write_f32(&row0, &[4.0]).unwrap();
    let dst = sbuf_at(&mut m, DType::F32, 0, 1024, &[32, 1], &[0.0; 32]);
    stream_shuffle(&mut m, &dst, &src, &mask).unwrap();
    assert_eq!(m.read_f32(&dst).unwrap()[0], 4.0);
    mask[3] = 1;
    mask[0] = 0;
    m.write_f32(&dst, &[0.0; 32]).unwrap();
    let e = stream_shuffle(&mut m, &dst, &src, &mask).unwrap_err();
    assert!(matches!(e, EmuError::Uninitialised { .. }), "{e}");
    assert_eq!(m.read_f32(&dst).unwrap(), vec![0.0; 32]);
}

/// `stream_shuffle` fails with an error whose text contains `want`, leaving `dst` as it was.
fn refused(m: &mut Memory, dst: &View, src: &View, mask: &[i64], want: &str) {
    let before = m.read_bits(dst).ok();
    let e = stream_shuffle(m, dst, src, mask).unwrap_err();
    assert!(e.to_string().contains(want), "{e} (wanted {want:?})");
    assert_eq!(m.read_bits(dst).ok(), before, "{want}: dst changed");
}

#[test]
fn every_refusal_writes_nothing() {
    let mut m = mem();
    let src = sbuf_at(&mut m, DType::F32, 0, 0, &[32, 2], &[1.0; 64]);
    let dst = sbuf_at(&mut m, DType::F32, 0, 256, &[32, 2], &[0.0; 64]);
    // The mask: 32 entries of 0..=31 or 255.
    refused(&mut m, &dst, &src, &[0; 31], "31 entries");
    refused(&mut m, &dst, &src, &[0; 33], "33 entries");
    for bad in [32, -1, 254, 256] {
        let mut mask = identity();
        mask[7] = bad;
        refused(
            &mut m,
            &dst,
            &src,
            &mask,
            &format!("shuffle_mask[7] = {bad}"),
        );
    }
    // Operands: on chip, one dtype, equal elements per partition, something to move.
    let hbm = m.alloc_hbm("h", DType::F32, &[32, 2]).unwrap();
    refused(
        &mut m,
        &dst,
        &hbm,
        &identity(),
        "src must be in SBUF or PSUM",
    );
    let dst_bf = sbuf_at(&mut m, DType::Bf16, 0, 512, &[32, 2], &[0.0; 64]);
    refused(&mut m, &dst_bf, &src, &identity(), "keeps the dtype");
    let dst3 = sbuf_at(&mut m, DType::F32, 0, 768, &[32, 3], &[0.0; 96]);
    refused(
        &mut m,
        &dst3,
        &src,
        &identity(),
        "2 elements per partition but dst 3",
    );
    let empty = m.sbuf_view(DType::F32, 0, 2048, &[32, 0]).unwrap();
    refused(
        &mut m,
        &empty,
        &empty,
        &identity(),
        "at least one partition",
    );
    // Start partitions: 64 active partitions need 0 or 64; 128 need 0; 32 need a quadrant
    // start.
    let src64 = sbuf_at(&mut m, DType::F32, 32, 4096, &[64, 1], &[1.0; 64]);
    let dst64 = sbuf_at(&mut m, DType::F32, 0, 4096, &[64, 1], &[0.0; 64]);
    refused(
        &mut m,
        &dst64,
        &src64,
        &identity(),
        "src starts on partition 32; with 64 active partitions the start must be 0 or 64",
    );
    let src_odd = sbuf_at(&mut m, DType::F32, 16, 8192, &[1, 2], &[1.0, 2.0]);
    refused(
        &mut m,
        &dst,
        &src_odd,
        &[0; 32],
        "src starts on partition 16",
    );
    let dst128 = sbuf_at(&mut m, DType::F32, 0, 12288, &[128, 1], &[0.0; 128]);
    let src96 = sbuf_at(&mut m, DType::F32, 32, 12288, &[96, 1], &[1.0; 96]);
    refused(
        &mut m,
        &dst128,
        &src96,
        &identity(),
        "with 128 active partitions the start must be 0",
    );
    // A mask entry selecting a src row that src does not have (broadcast from one row).
    let one = sbuf_at(&mut m, DType::F32, 0, 16384, &[1, 2], &[5.0, 6.0]);
    let mut mask = vec![0; 32];
    mask[9] = 1;
    refused(
        &mut m,
        &dst,
        &one,
        &mask,
        "shuffle_mask[9] = 1 makes dst partition 9 copy src partition 1, but src has 1 partitions",
    );
    // Quadrant 1 of a 64-row dst from a one-row src: row 32 would need src row 32.
    let dst64b = sbuf_at(&mut m, DType::F32, 0, 20480, &[64, 2], &[0.0; 128]);
    refused(
        &mut m,
        &dst64b,
        &one,
        &[0; 32],
        "dst partition 32 copy src partition 32",
    );
}
