//! Property tests: random valid instructions encode -> validate -> decode -> encode to identical
//! bytes and disassemble -> assemble to identical bytes; any decodable bundle's text parses back
//! to the same decoded value; random bytes and random text never panic.

mod common;

use proptest::prelude::*;
use sundial_codegen::arch::{ArchModel, Family, Target};
use sundial_codegen::decode::decode;
use sundial_codegen::dtype::BirDtype::{self, *};
use sundial_codegen::enums::{BirAccumulation, BirAluOp, BirUpdateMode, BirWaitMode};
use sundial_codegen::formats::FORMATS;
use sundial_codegen::model::*;
use sundial_codegen::text::{
    assemble, assemble_stream, disassemble, disassemble_stream, format_decoded, parse_line,
};
use sundial_codegen::validate::validate_bundle;
use sundial_codegen::{bundle_count, generate_vec};

/// A small deterministic generator driven by a proptest-chosen seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
    fn coin(&mut self) -> bool {
        self.next() & 1 == 0
    }
}

/// Source-legal BIR dtypes (no float32r as input).
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

/// Free dims with at most `rank` non-unit entries, total elements `total` when given.
fn dims(r: &mut Rng, rank: usize) -> Vec<Dim> {
    let n = r.range(0, rank as u64 + 1) as usize;
    let mut v = Vec::new();
    let mut kept = 0;
    for _ in 0..n {
        if kept < rank && r.coin() {
            v.push(Dim::new(r.range(0, 70) as i16 - 3, r.range(2, 40) as u16));
            kept += 1;
        } else {
            v.push(Dim::new(r.range(0, 9) as i16, 1));
        }
    }
    v
}

/// A static SBUF AP in partitions [p0, p0 + parts).
fn sap(r: &mut Rng, p0: u32, parts: u32, d: &[Dim], dt: BirDtype, arch: &ArchModel) -> StaticAp {
    let off = r.below(arch.sbuf_active_bytes as u64 / 8 - 64) as u32 * 8;
    StaticAp::sbuf(p0, off, parts, d, dt)
}

fn start_partition(r: &mut Rng, parts: u32) -> u32 {
    r.below((128 - parts + 1) as u64) as u32
}

/// A static SBUF AP at a random start partition that leaves room for `parts`.
fn sap_any(r: &mut Rng, parts: u32, d: &[Dim], dt: BirDtype, arch: &ArchModel) -> StaticAp {
    let p0 = start_partition(r, parts);
    sap(r, p0, parts, d, dt, arch)
}

/// An indirect AP with index and data in one quadrant (mariana only).
fn iap(r: &mut Rng, parts: u32, num: u32, dt: BirDtype, arch: &ArchModel) -> AccessPattern {
    let q = r.below(4) as u32 * 32;
    let p = q + r.below((32 - parts.min(32) + 1) as u64) as u32;
    AccessPattern::TensorIndirect(IndirectAp {
        data: sap(r, p, parts, &[], dt, arch),
        index: {
            let ip = q + r.below(32) as u32;
            sap(r, ip, parts, &[], Uint32, arch)
        },
        num_indirect_indices: num,
        index_arg_id: r.below(4) as u32,
    })
}

fn sync(r: &mut Rng) -> SyncInfo {
    let wait = r.coin().then(|| SyncWait {
        mode: r.pick(&[BirWaitMode::SemGeImm, BirWaitMode::SemGeReg]),
        sem: r.below(256) as u8,
        value: 7,
    });
    let update = r.coin().then(|| SyncUpdate {
        mode: r.pick(&[
            BirUpdateMode::EventSet,
            BirUpdateMode::SemAddImm,
            BirUpdateMode::SemSubImm,
            BirUpdateMode::SemInc,
            BirUpdateMode::SemDec,
            BirUpdateMode::SemWrImm,
        ]),
        sem: r.below(256) as u8,
        value: 7, // equal to the wait value, so the shared dword never conflicts
    });
    SyncInfo { wait, update }
}

/// A random instruction that every validator accepts on `t`.
fn valid_instruction(seed: u64, t: Target) -> Instruction {
    let arch = t.model();
    let r = &mut Rng(seed | 1);
    let indirect_ok = arch.has(Family::TensorIndirect);
    let mut kinds = vec![0, 1, 2, 3, 4];
    if arch.has(Family::RangeSelect) {
        kinds.push(5);
    }
    let op = match r.pick(&kinds) {
        0 | 1 => {
            // StreamShuffle / StreamTranspose: equal per-partition counts, <= 3 free dims.
            let dt = r.pick(&DTYPES);
            let parts = r.range(1, 32) as u32;
            let d = dims(r, 3);
            let src = if indirect_ok && r.coin() && r.coin() {
                let n: u64 = d.iter().map(|x| x.num as u64).product();
                iap(r, parts, n as u32, dt, arch)
            } else {
                AccessPattern::Static(sap_any(r, parts, &d, dt, arch))
            };
            let dst = AccessPattern::Static({
                let dt2 = r.pick(&DTYPES);
                sap_any(r, parts, &d, dt2, arch)
            });
            let mask: Vec<u8> = (0..32)
                .map(|_| if r.coin() { 0xFF } else { r.below(32) as u8 })
                .collect();
            if r.coin() {
                Op::StreamShuffle(StreamShuffle { src, dst, mask })
            } else {
                let src = AccessPattern::Static(sap_any(r, parts, &d, dt, arch));
                Op::StreamTranspose(StreamTranspose { src, dst, mask })
            }
        }
        2 => {
            let parts = r.range(1, 128) as u32;
            let dd = dims(r, 4);
            let n = r.range(1, 1600) as u16;
            let data = {
                let dt2 = r.pick(&DTYPES);
                sap_any(r, parts, &dd, dt2, arch)
            };
            let index = sap_any(r, parts, &[Dim::new(1, n)], Uint32, arch);
            let dst = {
                let dt2 = r.pick(&DTYPES);
                sap_any(r, parts, &[Dim::new(1, n)], dt2, arch)
            };
            Op::Gather(Gather {
                data: data.into(),
                index: index.into(),
                dst: dst.into(),
            })
        }
        3 => {
            let dt = r.pick(&DTYPES);
            let parts = r.range(1, 128) as u32;
            let d = dims(r, 3);
            let n: u64 = d.iter().map(|x| x.num as u64).product();
            let src = if indirect_ok && r.coin() {
                iap(r, parts.min(32), n as u32, dt, arch)
            } else {
                AccessPattern::Static(sap_any(r, parts, &d, dt, arch))
            };
            let p = src.partitions();
            let dst = AccessPattern::Static(sap_any(r, p, &d, dt, arch));
            Op::Dropout(Dropout {
                src,
                dst,
                threshold_imm_ptr: r.below(256) as u8,
                threshold_dtype: r.pick(&DTYPES),
                rng_mode: r.below(256) as u8,
            })
        }
        4 => {
            let dt = r.pick(&DTYPES);
            let parts = 16 * r.range(1, 2) as u32;
            let q = r.below(4) as u32 * 32;
            let src = AccessPattern::TensorIndirect(IndirectAp {
                data: sap(r, q, parts, &[], dt, arch),
                index: {
                    let ip = q + r.below(16) as u32;
                    sap(r, ip, parts, &[], Uint16, arch)
                },
                num_indirect_indices: r.range(1, 4096) as u32,
                index_arg_id: 0,
            });
            let dd = dims(r, 4);
            let dst = sap_any(r, parts, &dd, dt, arch);
            Op::IndirectCopy(IndirectCopy {
                src,
                dst: dst.into(),
                num_elem_per_idx: r.pick(&[1, 2, 4, 8, 16, 32]),
                src_buffer_size: r.below(65536) as u16,
            })
        }
        _ => {
            let parts = r.range(1, 128) as u32;
            let d = dims(r, 2);
            let fp = [Bfloat16, Float16, Float32];
            let src = {
                let dt2 = r.pick(&fp);
                sap_any(r, parts, &d, dt2, arch)
            };
            let dst = {
                let dt2 = r.pick(&fp);
                sap_any(r, parts, &d, dt2, arch)
            };
            let comps = [
                BirAluOp::IsEqual,
                BirAluOp::IsGt,
                BirAluOp::IsGe,
                BirAluOp::IsLt,
                BirAluOp::IsLe,
            ];
            let bound = |r: &mut Rng| match r.below(3) {
                0 => ScalarOperand::Imm(r.below(1000) as f32 * 0.25),
                1 => ScalarOperand::Ptr(r.next() as u32),
                _ => ScalarOperand::RegPtr(r.below(64) as u8),
            };
            Op::RangeSelect(RangeSelect {
                src: src.into(),
                dst: dst.into(),
                range_start: r.below(1 << 20) as i32 - (1 << 19),
                fill_val: f32::MIN,
                comp_op0: r.pick(&comps),
                comp_op1: r.pick(&comps),
                bound0: bound(r),
                bound1: bound(r),
                reduce_cmd: r.pick(&[
                    BirAccumulation::Idle,
                    BirAccumulation::ZeroAccumulate,
                    BirAccumulation::AddAccumulate,
                ]),
                reduce_res: sap_any(r, parts, &[], Float32, arch).into(),
            })
        }
    };
    Instruction::new(op).with_sync(sync(r))
}

fn target(i: u8) -> Target {
    Target::ALL[i as usize % 3]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn encode_decode_encode_is_identity(seed in any::<u64>(), t in 0u8..3) {
        let t = target(t);
        let arch = t.model();
        let inst = valid_instruction(seed, t);
        let bundles = generate_vec(&inst, arch).expect("valid instruction encodes");
        prop_assert_eq!(bundles.len(), bundle_count(&inst));
        for (i, b) in bundles.iter().enumerate() {
            prop_assert_eq!(validate_bundle(b, i, arch), vec![]);
            let d = decode(b).unwrap();
            prop_assert_eq!(&d.encode(), b);
            let text = format_decoded(&d);
            prop_assert_eq!(&assemble(&text).unwrap(), &vec![*b]);
        }
        // The stream round trip through the same path the CLI uses.
        let bytes = bundles.concat();
        let text = disassemble_stream(&bytes, arch).unwrap();
        prop_assert_eq!(assemble_stream(&text, arch).unwrap(), bytes);
    }

    #[test]
    fn decoded_text_always_parses_back(b in proptest::array::uniform32(any::<u8>()),
                                       c in proptest::array::uniform32(any::<u8>()),
                                       k in 0usize..10) {
        let mut bundle = [0u8; 64];
        bundle[..32].copy_from_slice(&b);
        bundle[32..].copy_from_slice(&c);
        bundle[0] = FORMATS[k].opcode;
        if let Ok(d) = decode(&bundle) {
            let text = format_decoded(&d);
            let back = parse_line(&text, 1).unwrap().unwrap();
            prop_assert_eq!(&back, &d);
            prop_assert_eq!(back.encode(), d.encode());
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300), force in any::<bool>(), k in 0usize..10) {
        let mut bytes = bytes;
        if force && !bytes.is_empty() {
            bytes[0] = FORMATS[k].opcode;
        }
        for t in Target::ALL {
            let _ = disassemble_stream(&bytes, t.model());
            for chunk in bytes.chunks_exact(64) {
                let b: &[u8; 64] = chunk.try_into().unwrap();
                let _ = validate_bundle(b, 0, t.model());
                let _ = disassemble(b);
            }
        }
    }

    #[test]
    fn random_text_never_panics(s in "[a-z_0-9=\\[\\]+;,()!:. #x-]{0,200}") {
        let _ = assemble(&s);
        let _ = assemble_stream(&s, Target::Mariana.model());
    }
}
