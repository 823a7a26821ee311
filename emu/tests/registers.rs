//! Registers: alloc / move / load / store and their errors.

use sundial_emu::{
    DType, EmuError, Memory, RegSource, RegisterId, Registers, Target, register_load,
    register_move, register_store,
};

#[test]
fn load_move_store_round_trip() {
    let mut m = Memory::new(Target::Cayman);
    let mut r = Registers::new();
    let a = r.register_alloc(None).unwrap();
    let b = r.register_alloc(Some(10)).unwrap();
    assert_ne!(a, b);
    let src = m.alloc_sbuf(DType::I32, &[1, 1]).unwrap();
    m.write_i64(&src, &[-7]).unwrap();
    register_load(&m, &mut r, a, &src).unwrap();
    assert_eq!(r.get("test", a).unwrap(), -7);
    register_move(&mut r, b, RegSource::Reg(a)).unwrap();
    assert_eq!(r.get("test", b).unwrap(), -7);
    register_move(&mut r, a, RegSource::Imm(123)).unwrap();
    let out = m.alloc_hbm("out", DType::I64, &[1]).unwrap();
    register_store(&mut m, &r, &out, a).unwrap();
    assert_eq!(m.read_i64(&out).unwrap(), vec![123]);
}

#[test]
fn unsigned_values_keep_their_meaning_and_store_their_low_bits() {
    let mut m = Memory::new(Target::Cayman);
    let mut r = Registers::new();
    let a = r.register_alloc(None).unwrap();
    let src = m.alloc_sbuf(DType::U32, &[1]).unwrap();
    m.write_i64(&src, &[0xFFFF_FFFF]).unwrap();
    register_load(&m, &mut r, a, &src).unwrap();
    assert_eq!(r.get("test", a).unwrap(), 4_294_967_295);
    // Into an int32 tile: the same 32 bits, which int32 reads as -1.
    let i = m.alloc_sbuf(DType::I32, &[1, 1]).unwrap();
    register_store(&mut m, &r, &i, a).unwrap();
    assert_eq!(m.read_i64(&i).unwrap(), vec![-1]);
    // Into a 64-bit tile: the value.
    let u = m.alloc_sbuf(DType::U64, &[1, 1]).unwrap();
    register_store(&mut m, &r, &u, a).unwrap();
    assert_eq!(m.read_i64(&u).unwrap(), vec![4_294_967_295]);
}

#[test]
fn register_errors() {
    let mut m = Memory::new(Target::Cayman);
    let mut r = Registers::new();
    let a = r.register_alloc(None).unwrap();
    // Reading a register never written; naming one never allocated.
    let out = m.alloc_sbuf(DType::I32, &[1, 1]).unwrap();
    assert!(matches!(
        register_store(&mut m, &r, &out, a),
        Err(EmuError::Register {
            op: "store_register",
            ..
        })
    ));
    assert!(matches!(
        register_move(&mut r, a, RegSource::Reg(RegisterId(99))),
        Err(EmuError::Register { .. })
    ));
    assert!(matches!(
        register_move(&mut r, RegisterId(99), RegSource::Imm(1)),
        Err(EmuError::Register { .. })
    ));
    // Values outside 32 bits.
    assert!(r.register_alloc(Some(1 << 32)).is_err());
    assert!(matches!(
        register_move(&mut r, a, RegSource::Imm(-(1 << 31) - 1)),
        Err(EmuError::Register { .. })
    ));
    let big = m.alloc_sbuf(DType::I64, &[1]).unwrap();
    m.write_i64(&big, &[1 << 40]).unwrap();
    assert!(matches!(
        register_load(&m, &mut r, a, &big),
        Err(EmuError::Register { .. })
    ));
    // A negative value into a uint64 tile.
    register_move(&mut r, a, RegSource::Imm(-1)).unwrap();
    let u = m.alloc_sbuf(DType::U64, &[1]).unwrap();
    assert!(matches!(
        register_store(&mut m, &r, &u, a),
        Err(EmuError::Register { .. })
    ));
    // Tensors: one element, 32/64-bit integers, not PSUM.
    let two = m.alloc_sbuf(DType::I32, &[1, 2]).unwrap();
    assert!(matches!(
        register_load(&m, &mut r, a, &two),
        Err(EmuError::Shape { .. })
    ));
    let f = m.alloc_sbuf(DType::F32, &[1, 1]).unwrap();
    assert!(matches!(
        register_load(&m, &mut r, a, &f),
        Err(EmuError::DType { .. })
    ));
    let p = m.alloc_psum(DType::I32, &[1, 1]).unwrap();
    assert!(matches!(
        register_store(&mut m, &r, &p, a),
        Err(EmuError::Memory { .. })
    ));
    // With the check on, loading from a never-written tile is an uninitialised read.
    m.set_check_uninit(true).unwrap();
    let fresh = m.alloc_sbuf_named("cond", DType::I32, &[1, 1]).unwrap();
    assert!(matches!(
        register_load(&m, &mut r, a, &fresh),
        Err(EmuError::Uninitialised {
            op: "load_register",
            ..
        })
    ));
}
