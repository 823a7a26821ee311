//! Property tests of the 4D-slot compute formats: random valid instructions encode, validate,
//! decode and re-encode to identical bytes; their text assembles back to the same bytes (bundle
//! and stream); streams of them lift back to instructions that encode to the same bytes (and the
//! lifted form is a fixed point); GENERATE agrees with the reference encoder (the fast path
//! declines these ops); random bytes under these opcodes never panic the decoder, validator,
//! printer or lifter, and their decoded text parses back.

mod common;

use common::Rng;

use proptest::prelude::*;
use sundial_codegen::arch::{ArchModel, Family, Target};
use sundial_codegen::decode::decode;
use sundial_codegen::dtype::BirDtype::{self, *};
use sundial_codegen::enums::BirAluOp;
use sundial_codegen::model::*;
use sundial_codegen::text::{
    assemble, assemble_stream, disassemble, disassemble_stream, format_decoded, parse_line,
};
use sundial_codegen::validate::validate_bundle;
use sundial_codegen::{
    bundle_count, decode_instructions, generate, generate_reference, generate_vec,
};

/// The opcodes of the group.
const OPCODES: [u8; 11] = [
    0x42, 0x52, 0x46, 0x47, 0x48, 0x45, 0x7C, 0x7D, 0x7E, 0x49, 0x92,
];

/// Input-legal BIR dtypes whose wire code fits a DTYPE_PAIR nibble.
const DTYPES: [BirDtype; 12] = [
    Uint8,
    Int8,
    Float8e4,
    Float8E4m3fn,
    Float8e5,
    Uint16,
    Int16,
    Bfloat16,
    Float16,
    Uint32,
    Int32,
    Float32,
];

/// Free dims with at most `rank` non-unit entries, unit dims sprinkled in.
fn dims(r: &mut Rng, rank: usize) -> Dims {
    let n = r.range(0, MAX_DIMS as u64) as usize;
    let mut v = Dims::new();
    let mut kept = 0;
    for _ in 0..n {
        let d = if kept < rank && r.below(4) != 0 {
            kept += 1;
            Dim::new(r.range(0, 70) as i16 - 3, r.range(2, 24) as u16)
        } else {
            Dim::new(r.range(0, 9) as i16, 1)
        };
        let _ = v.try_push(d);
    }
    v
}

/// The same counts with fresh steps (a second operand of an element-wise op).
fn restep(r: &mut Rng, d: &Dims) -> Dims {
    let mut v = Dims::new();
    for x in d.iter() {
        let _ = v.try_push(Dim::new(r.range(0, 40) as i16 - 8, x.num));
    }
    v
}

/// A static SBUF AP at a random start partition that leaves room for `parts`, of one of `dts`.
fn sap(r: &mut Rng, parts: u32, d: Dims, dts: &[BirDtype], arch: &ArchModel) -> AccessPattern {
    let dt = r.pick(dts);
    let p0 = r.below((arch.partitions - parts + 1) as u64) as u32;
    let off = r.below(arch.sbuf_active_bytes as u64 / 8 - 64) as u32 * 8;
    AccessPattern::Static(StaticAp::sbuf(p0, off, parts, d, dt))
}

fn valid_instruction(seed: u64, t: Target) -> Instruction {
    let arch = t.model();
    let r = &mut Rng(seed | 1);
    let parts = r.range(1, 128) as u32;
    let op = match r.below(10) {
        0 | 1 => {
            let bitvec = r.coin();
            let op = if bitvec {
                r.pick(&[
                    BirAluOp::Bypass,
                    BirAluOp::BitwiseNot,
                    BirAluOp::BitwiseAnd,
                    BirAluOp::BitwiseOr,
                    BirAluOp::BitwiseXor,
                    BirAluOp::LogicalShiftLeft,
                    BirAluOp::ArithShiftRight,
                ])
            } else {
                r.pick(&[
                    BirAluOp::Add,
                    BirAluOp::Subtract,
                    BirAluOp::Mult,
                    BirAluOp::Max,
                    BirAluOp::Min,
                    BirAluOp::Abs,
                    BirAluOp::IsEqual,
                    BirAluOp::Pow,
                    BirAluOp::Mod,
                ])
            };
            let src_dims = dims(r, 4);
            let src = if arch.has(Family::TensorIndirect) && r.below(4) == 0 {
                // A gather source: index and data in one quadrant.
                let q = r.below(4) as u32 * 32;
                let p = parts.min(32);
                AccessPattern::TensorIndirect(IndirectAp {
                    data: StaticAp::sbuf(q, 0x100, p, [], r.pick(&DTYPES)),
                    index: StaticAp::sbuf(q + r.below(32) as u32, 0x800, p, [], Uint32),
                    num_indirect_indices: r.range(1, 500) as u32,
                    index_arg_id: 0,
                })
            } else {
                sap(r, parts, src_dims, &DTYPES, arch)
            };
            let p = src.partitions();
            let dd = dims(r, 4);
            let dst = sap(r, p, dd, &DTYPES, arch);
            let red = TensorReduce {
                src,
                dst,
                op,
                axis: r.pick(&BirAxisList::ALL),
                negated: r.coin(),
            };
            if bitvec {
                Op::TensorReduceBitvec(red)
            } else {
                Op::TensorReduceArith(red)
            }
        }
        2 | 3 => {
            let d = dims(r, 4);
            let dt = r.pick(&DTYPES);
            let src = sap(r, parts, d, &[dt], arch);
            let d2 = restep(r, &d);
            let dt2 = if r.coin() { dt } else { r.pick(&DTYPES) };
            let dst = sap(r, parts, d2, &[dt2], arch);
            if r.coin() {
                Op::TensorCopy(TensorCopy { src, dst })
            } else {
                Op::Reciprocal(Reciprocal { src, dst })
            }
        }
        4 => {
            let func = r.pick(&[PoolFunc::Max, PoolFunc::Avg]);
            let sd = dims(r, 4);
            let dd = dims(r, 4);
            Op::Pool(Pool {
                src: sap(r, parts, sd, &DTYPES, arch),
                dst: sap(r, parts, dd, &DTYPES, arch),
                func,
                pool_scale: match func {
                    PoolFunc::Max => 1.0,
                    PoolFunc::Avg => 1.0 / r.range(1, 64) as f32,
                },
            })
        }
        5 => {
            let op = r.pick(&CrossLaneReduceOp::ALL);
            let axis = if r.coin() {
                CrossLaneAxis::All
            } else {
                CrossLaneAxis::Partitions
            };
            let sd = dims(r, 4);
            let dd = match axis {
                CrossLaneAxis::All => Dims::new(),
                CrossLaneAxis::Partitions => restep(r, &sd),
            };
            let red = CrossLaneReduce {
                src: sap(r, parts, sd, &DTYPES, arch),
                dst: sap(r, 1, dd, &DTYPES, arch),
                op,
                axis,
                scale: 1.0 / parts as f32,
            };
            if op.is_bitvec() {
                Op::CrossLaneReduceBitvec(red)
            } else {
                Op::CrossLaneReduceArith(red)
            }
        }
        6 => {
            let pd = dims(r, 4);
            let dd = restep(r, &pd);
            Op::Iota(Iota {
                pattern: GenPattern {
                    base: r.next() as i32,
                    dims: pd,
                },
                dst: sap(r, parts, dd, &DTYPES, arch),
                channel_multiplier: r.next() as i32,
            })
        }
        7 => {
            let dd = dims(r, 4);
            Op::Memset(Memset {
                dst: sap(r, parts, dd, &DTYPES, arch),
                fill_value: r.next() as u32,
            })
        }
        _ => {
            let sd = dims(r, 2);
            let md = restep(r, &sd);
            let dd = restep(r, &sd);
            Op::AffineSelect(AffineSelect {
                src: sap(r, parts, sd, &DTYPES, arch),
                dst: sap(r, parts, dd, &DTYPES, arch),
                mask: GenPattern {
                    base: r.next() as i32,
                    dims: md,
                },
                fill_mode: r.pick(&AffineCmp::ALL),
                fill_reg: r.below(256) as u8,
                channel_multiplier: r.next() as i32,
            })
        }
    };
    Instruction::new(op).with_sync(SyncInfo {
        wait: r.coin().then(|| SyncWait {
            mode: sundial_codegen::enums::BirWaitMode::SemGeImm,
            sem: r.below(256) as u8,
            value: 3,
        }),
        update: r.coin().then(|| SyncUpdate {
            mode: sundial_codegen::enums::BirUpdateMode::SemInc,
            sem: r.below(256) as u8,
            value: 0,
        }),
    })
}

fn target(i: u8) -> Target {
    Target::ALL[i as usize % 3]
}

fn encode_stream(insts: &[Instruction], arch: &ArchModel) -> Vec<u8> {
    insts
        .iter()
        .flat_map(|i| generate_vec(i, arch).unwrap())
        .flatten()
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn encode_decode_encode_and_text_round_trip(seed in any::<u64>(), t in 0u8..3) {
        let t = target(t);
        let arch = t.model();
        let inst = valid_instruction(seed, t);
        let bundles = generate_vec(&inst, arch).expect("valid instruction encodes");
        prop_assert_eq!(bundles.len(), bundle_count(&inst));
        for (i, b) in bundles.iter().enumerate() {
            prop_assert_eq!(validate_bundle(b, i, arch), vec![], "{}", inst);
            let d = decode(b).unwrap();
            prop_assert_eq!(&d.encode(), b);
            let text = format_decoded(&d);
            prop_assert_eq!(&assemble(&text).unwrap(), &vec![*b]);
            prop_assert_eq!(disassemble(&assemble(&text).unwrap()[0]).unwrap(), text);
        }
        let bytes = bundles.concat();
        let text = disassemble_stream(&bytes, arch).unwrap();
        prop_assert_eq!(assemble_stream(&text, arch).unwrap(), bytes);
    }

    #[test]
    fn generate_matches_the_reference(seed in any::<u64>(), t in 0u8..3) {
        let t = target(t);
        let inst = valid_instruction(seed, t);
        let (mut a, mut b) = ([[0x5Au8; 64]; 1], [[0xA5u8; 64]; 1]);
        let got = generate(&inst, t.model(), &mut a);
        prop_assert_eq!(&got, &generate_reference(&inst, t.model(), &mut b));
        prop_assert_eq!(a, b);
    }

    #[test]
    fn lifting_round_trips(seed in any::<u64>(), t in 0u8..3, count in 1usize..5) {
        let t = target(t);
        let arch = t.model();
        let insts: Vec<Instruction> =
            (0..count as u64).map(|k| valid_instruction(seed.wrapping_add(k * 7919), t)).collect();
        let bytes = encode_stream(&insts, arch);
        let lifted = decode_instructions(&bytes, arch).unwrap();
        prop_assert_eq!(lifted.len(), insts.len());
        for (a, b) in insts.iter().zip(&lifted) {
            prop_assert_eq!(a.op.kind(), b.op.kind());
        }
        prop_assert_eq!(&encode_stream(&lifted, arch), &bytes);
        // The lifted form is canonical: lifting its encoding gives it back.
        prop_assert_eq!(decode_instructions(&encode_stream(&lifted, arch), arch).unwrap(), lifted);
    }

    #[test]
    fn random_bytes_never_panic(b in proptest::array::uniform32(any::<u8>()),
                                c in proptest::array::uniform32(any::<u8>()),
                                k in 0usize..11) {
        let mut bundle = [0u8; 64];
        bundle[..32].copy_from_slice(&b);
        bundle[32..].copy_from_slice(&c);
        bundle[0] = OPCODES[k];
        for t in Target::ALL {
            let _ = validate_bundle(&bundle, 0, t.model());
            let _ = disassemble_stream(&bundle, t.model());
            if let Ok(insts) = decode_instructions(&bundle, t.model()) {
                prop_assert_eq!(encode_stream(&insts, t.model()), bundle.to_vec());
            }
        }
        let d = decode(&bundle).unwrap();
        let text = format_decoded(&d);
        let back = parse_line(&text, 1).unwrap().unwrap();
        prop_assert_eq!(&back, &d);
        prop_assert_eq!(back.encode(), d.encode());
    }

    #[test]
    fn edited_valid_bundles_never_panic(seed in any::<u64>(), t in 0u8..3, at in 4usize..64, bit in 0u32..8) {
        let t = target(t);
        let arch = t.model();
        let mut b = generate_vec(&valid_instruction(seed, t), arch).unwrap()[0];
        b[at] ^= 1 << bit;
        let _ = validate_bundle(&b, 0, arch);
        match decode_instructions(&b, arch) {
            Ok(insts) => prop_assert_eq!(encode_stream(&insts, arch), b.to_vec()),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}
