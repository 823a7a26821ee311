//! The uninitialised-read check (issue 11 §2 and §4): with `Memory::set_check_uninit(true)`,
//! a read of bytes nothing wrote is `EmuError::Uninitialised` naming the op and the tile;
//! index tiles read by the indirect engine are checked too. Off, the fill value is read
//! silently (the simulator's behaviour).

use sundial_emu::{
    Access, DType, DmaOperand, EmuError, Memory, OobMode, ReduceOp, Target, View, dma_compute,
    dma_copy, gather, indirect_load,
};

fn checked() -> Memory {
    let mut m = Memory::new(Target::Cayman);
    m.set_check_uninit(true).unwrap();
    m
}

fn uninit(e: &EmuError) -> Option<(&'static str, &str, Option<usize>, usize)> {
    match e {
        EmuError::Uninitialised {
            op,
            tile,
            partition,
            offset,
        } => Some((op, tile.as_str(), *partition, *offset)),
        _ => None,
    }
}

/// An SBUF data tile, written, and an SBUF uint32 index tile (returned unwritten).
fn gather_setup(m: &mut Memory) -> (View, View, View) {
    let data = m.alloc_sbuf_named("data", DType::F32, &[2, 6]).unwrap();
    m.write_f32(&data, &(0..12).map(|i| i as f32).collect::<Vec<_>>())
        .unwrap();
    let idx = m.alloc_sbuf_named("idx", DType::U32, &[2, 3]).unwrap();
    let dst = m.alloc_sbuf_named("out", DType::F32, &[2, 3]).unwrap();
    (data, idx, dst)
}

#[test]
fn a_never_written_index_tile_is_reported_with_the_op_and_the_tile() {
    let mut m = checked();
    let (data, idx, dst) = gather_setup(&mut m);
    let before = m.read_bytes(&dst);
    // The destination itself was never written either: reading it is also an error.
    assert!(before.is_err());
    let e = gather(&mut m, &dst, &data, &idx).unwrap_err();
    assert_eq!(uninit(&e), Some(("gather", "idx", Some(0), 0)), "{e}");
    let msg = e.to_string();
    assert!(msg.contains("gather") && msg.contains("idx"), "{msg}");
}

#[test]
fn a_written_index_tile_passes_the_check() {
    let mut m = checked();
    let (data, idx, dst) = gather_setup(&mut m);
    m.write_i64(&idx, &[5, 0, 1, 2, 2, 3]).unwrap();
    gather(&mut m, &dst, &data, &idx).unwrap();
    // numpy: np.take_along_axis(data.reshape(2, 6), idx, 1)
    assert_eq!(
        m.read_f32(&dst).unwrap(),
        vec![5.0, 0.0, 1.0, 8.0, 8.0, 9.0]
    );
}

#[test]
fn without_the_check_the_fill_value_is_read_silently() {
    let mut m = Memory::new(Target::Cayman);
    let (data, idx, dst) = gather_setup(&mut m);
    gather(&mut m, &dst, &data, &idx).unwrap();
    // Every index reads the integer fill 4: data[p, 4].
    assert_eq!(
        m.read_f32(&dst).unwrap(),
        vec![4.0, 4.0, 4.0, 10.0, 10.0, 10.0]
    );
}

#[test]
fn a_partly_written_index_tile_reports_the_first_unwritten_byte() {
    let mut m = checked();
    let (data, idx, dst) = gather_setup(&mut m);
    // Write partition 0 only: partition 1's first index is unwritten.
    m.write_i64(&idx.slice(0, 0, 1, 1).unwrap(), &[0, 1, 2])
        .unwrap();
    let e = gather(&mut m, &dst, &data, &idx).unwrap_err();
    assert_eq!(uninit(&e), Some(("gather", "idx", Some(1), 0)), "{e}");
    // Within a partition: write partition 1's first index only; byte 4 (index 1) is next.
    m.write_i64(
        &idx.slice(0, 1, 1, 1).unwrap().slice(1, 0, 1, 1).unwrap(),
        &[3],
    )
    .unwrap();
    let e = gather(&mut m, &dst, &data, &idx).unwrap_err();
    assert_eq!(uninit(&e), Some(("gather", "idx", Some(1), 4)), "{e}");
}

#[test]
fn hbm_index_tiles_of_an_indirect_load_are_checked_by_name() {
    let mut m = checked();
    let table = m
        .alloc_hbm_from_bytes(
            "table",
            DType::F32,
            &[4, 2],
            &(0..8)
                .flat_map(|i| (i as f32).to_le_bytes())
                .collect::<Vec<_>>(),
        )
        .unwrap();
    let ids = m.alloc_hbm("IDS", DType::I32, &[3]).unwrap();
    let dst = m.alloc_hbm_zeroed("rows", DType::F32, &[3, 2]).unwrap();
    let acc = Access::vector_offset(&table, 0, &ids).unwrap();
    let e = indirect_load(&mut m, &dst, &acc, OobMode::Error).unwrap_err();
    assert_eq!(
        uninit(&e),
        Some(("dma_copy_indirect", "IDS", None, 0)),
        "{e}"
    );
    // Nothing was written: the zero-filled destination still reads as zeros.
    assert_eq!(m.read_f32(&dst).unwrap(), vec![0.0; 6]);
    m.write_i64(&ids, &[3, 0, 3]).unwrap();
    indirect_load(&mut m, &dst, &acc, OobMode::Error).unwrap();
    assert_eq!(
        m.read_f32(&dst).unwrap(),
        vec![6.0, 7.0, 0.0, 1.0, 6.0, 7.0]
    );
}

#[test]
fn data_operands_are_checked_too() {
    let mut m = checked();
    let src = m.alloc_hbm("x", DType::F16, &[4]).unwrap();
    let dst = m.alloc_sbuf(DType::F16, &[1, 4]).unwrap();
    let e = dma_copy(&mut m, &dst, &src).unwrap_err();
    assert_eq!(uninit(&e), Some(("dma_copy", "x", None, 0)), "{e}");
    // Half written: the first unwritten byte is element 2's, byte 4.
    m.write_f32(&src.slice(0, 0, 2, 1).unwrap(), &[1.0, 2.0])
        .unwrap();
    let e = dma_copy(&mut m, &dst, &src).unwrap_err();
    assert_eq!(uninit(&e), Some(("dma_copy", "x", None, 4)), "{e}");
    m.write_f32(&src, &[1.0, 2.0, 3.0, 4.0]).unwrap();
    dma_copy(&mut m, &dst, &src).unwrap();
    // The destination is now written, so the host may read it.
    assert_eq!(m.read_f32(&dst).unwrap(), vec![1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn an_accumulating_write_reads_its_destination() {
    let mut m = checked();
    let a = m.alloc_hbm_zeroed("a", DType::F32, &[3]).unwrap();
    let b = m.alloc_hbm_zeroed("b", DType::F32, &[3]).unwrap();
    let acc = m.alloc_hbm("acc", DType::F32, &[3]).unwrap();
    let idx = m.alloc_sbuf_named("rows", DType::I32, &[3, 1]).unwrap();
    m.write_i64(&idx, &[0, 1, 2]).unwrap();
    let src = m.alloc_sbuf_named("upd", DType::F32, &[3, 1]).unwrap();
    m.write_f32(&src, &[1.0, 2.0, 3.0]).unwrap();
    // Plain dma_compute writes acc without reading it: fine.
    let srcs = [DmaOperand::View(&a), DmaOperand::View(&b)];
    dma_compute(
        &mut m,
        DmaOperand::View(&acc),
        &srcs,
        ReduceOp::Add,
        None,
        true,
        OobMode::Error,
    )
    .unwrap();
    // Scatter read-modify-write into a fresh, never-written tensor reads it first.
    let fresh = m.alloc_hbm("fresh", DType::F32, &[3, 1]).unwrap();
    let at = Access::vector_offset(&fresh, 0, &idx).unwrap();
    let rmw = [DmaOperand::Access(&at), DmaOperand::View(&src)];
    let e = dma_compute(
        &mut m,
        DmaOperand::Access(&at),
        &rmw,
        ReduceOp::Add,
        None,
        true,
        OobMode::Error,
    )
    .unwrap_err();
    assert_eq!(uninit(&e), Some(("dma_compute", "fresh", None, 0)), "{e}");
}

#[test]
fn data_given_at_creation_zero_fill_and_raw_bulk_writes_count_as_written() {
    let mut m = checked();
    let a = m
        .alloc_hbm_from_bytes("a", DType::U8, &[2], &[7, 9])
        .unwrap();
    assert_eq!(m.read_i64(&a).unwrap(), vec![7, 9]);
    let z = m.alloc_hbm_zeroed("z", DType::I16, &[2]).unwrap();
    assert_eq!(m.read_i64(&z).unwrap(), vec![0, 0]);
    let r = m.alloc_hbm("r", DType::U8, &[2]).unwrap();
    assert!(m.read_bytes(&r).is_err());
    m.bytes_mut(r.alloc()).unwrap().copy_from_slice(&[1, 2]);
    assert_eq!(m.read_i64(&r).unwrap(), vec![1, 2]);
    // The wrong amount of data is a shape error, and nothing is allocated for it.
    assert!(matches!(
        m.alloc_hbm_from_bytes("bad", DType::F32, &[2], &[0; 7]),
        Err(EmuError::Shape { .. })
    ));
}

#[test]
fn host_reads_are_checked_as_read_bytes_and_fill_uninit_starts_over() {
    let mut m = checked();
    let t = m.alloc_psum_named("acc", DType::F32, &[2, 2]).unwrap();
    let e = m.read_f32(&t).unwrap_err();
    assert_eq!(uninit(&e), Some(("read_f32", "acc", Some(0), 0)), "{e}");
    m.write_f32(&t, &[1.0; 4]).unwrap();
    assert_eq!(m.read_f32(&t).unwrap(), vec![1.0; 4]);
    m.fill_uninit(&t).unwrap();
    let e = m.read_bytes(&t).unwrap_err();
    assert_eq!(uninit(&e), Some(("read_bytes", "acc", Some(0), 0)), "{e}");
}

#[test]
fn bytes_that_exist_when_the_check_is_turned_on_count_as_written() {
    let mut m = Memory::new(Target::Sunda);
    let old = m.alloc_hbm("old", DType::I32, &[2]).unwrap();
    m.set_check_uninit(true).unwrap();
    assert!(m.check_uninit());
    // Existing: counts as written (reads the fill without complaint).
    assert_eq!(m.read_i64(&old).unwrap(), vec![4, 4]);
    let new = m.alloc_hbm("new", DType::I32, &[2]).unwrap();
    assert!(m.read_i64(&new).is_err());
    m.set_check_uninit(false).unwrap();
    assert_eq!(m.read_i64(&new).unwrap(), vec![4, 4]);
}

#[test]
fn unnamed_on_chip_tiles_get_numbered_names_and_raw_views_the_memory_name() {
    let mut m = checked();
    let _a = m.alloc_sbuf(DType::F32, &[1, 4]).unwrap();
    let b = m.alloc_sbuf(DType::F32, &[1, 4]).unwrap();
    let e = m.read_bytes(&b).unwrap_err();
    assert_eq!(uninit(&e), Some(("read_bytes", "sbuf tile 1", Some(0), 0)));
    // A raw view past every tile: reported against the SBUF itself, with its byte offset.
    let raw = m.sbuf_view(DType::F32, 3, 4096, &[1, 1]).unwrap();
    let e = m.read_bytes(&raw).unwrap_err();
    assert_eq!(uninit(&e), Some(("read_bytes", "sbuf", Some(3), 4096)));
}
