//! Property tests: random valid instructions encode -> validate -> decode -> encode to identical
//! bytes and disassemble -> assemble to identical bytes; any decodable bundle's text parses back
//! to the same decoded value; random bytes and random text never panic; and GENERATE's fast path
//! agrees with the reference encoders (bytes and errors) on valid and broken instructions, on
//! perturbed architecture models and with short output buffers; streams of random valid
//! instructions lift back to instructions (`decode_instructions`) that encode to the same bytes,
//! and lifting never panics on random or edited streams; `generate_stream` writes what
//! per-instruction `generate` writes and stops at the same failing instruction; and GENERATE's
//! ISA checks accept and reject exactly what RUN_ISA_CHECKS does on instructions of every op of
//! the benchmark's all-formats mix, valid and edited.

mod common;

use common::Rng;

use proptest::prelude::*;
use sundial_codegen::arch::{ArchModel, Family, FamilySet, Target};
use sundial_codegen::decode::decode;
use sundial_codegen::dtype::BirDtype::{self, *};
use sundial_codegen::enums::{BirAccumulation, BirAluOp, BirUpdateMode, BirWaitMode};
use sundial_codegen::formats::FORMATS;
use sundial_codegen::model::*;
use sundial_codegen::text::{
    assemble, assemble_stream, disassemble, disassemble_stream, format_decoded, parse_line,
};
use sundial_codegen::validate::validate_bundle;
use sundial_codegen::{
    DecodeError, EncodeError, bundle_count, decode_instructions, generate, generate_reference,
    generate_stream, generate_vec, run_isa_checks,
};

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

/// Free dims with at most `rank` non-unit entries (and at most `MAX_DIMS` in all).
fn dims(r: &mut Rng, rank: usize) -> Dims {
    let n = (r.range(0, rank as u64 + 1) as usize).min(MAX_DIMS);
    let mut v = Dims::new();
    let mut kept = 0;
    for _ in 0..n {
        let d = if kept < rank && r.coin() {
            kept += 1;
            Dim::new(r.range(0, 70) as i16 - 3, r.range(2, 40) as u16)
        } else {
            Dim::new(r.range(0, 9) as i16, 1)
        };
        v.try_push(d).expect("at most MAX_DIMS dims");
    }
    v
}

/// A static SBUF AP in partitions [p0, p0 + parts).
fn sap(
    r: &mut Rng,
    p0: u32,
    parts: u32,
    d: impl Into<Dims>,
    dt: BirDtype,
    arch: &ArchModel,
) -> StaticAp {
    let off = r.below(arch.sbuf_active_bytes as u64 / 8 - 64) as u32 * 8;
    StaticAp::sbuf(p0, off, parts, d, dt)
}

fn start_partition(r: &mut Rng, parts: u32) -> u32 {
    r.below((128 - parts + 1) as u64) as u32
}

/// A static SBUF AP at a random start partition that leaves room for `parts`.
fn sap_any(
    r: &mut Rng,
    parts: u32,
    d: impl Into<Dims>,
    dt: BirDtype,
    arch: &ArchModel,
) -> StaticAp {
    let p0 = start_partition(r, parts);
    sap(r, p0, parts, d, dt, arch)
}

/// An indirect AP with index and data in one quadrant (mariana only).
fn iap(r: &mut Rng, parts: u32, num: u32, dt: BirDtype, arch: &ArchModel) -> AccessPattern {
    let q = r.below(4) as u32 * 32;
    let p = q + r.below((32 - parts.min(32) + 1) as u64) as u32;
    AccessPattern::TensorIndirect(IndirectAp {
        data: sap(r, p, parts, [], dt, arch),
        index: {
            let ip = q + r.below(32) as u32;
            sap(r, ip, parts, [], Uint32, arch)
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
                AccessPattern::Static(sap_any(r, parts, d, dt, arch))
            };
            let dst = AccessPattern::Static({
                let dt2 = r.pick(&DTYPES);
                sap_any(r, parts, d, dt2, arch)
            });
            let mask: Vec<u8> = (0..32)
                .map(|_| if r.coin() { 0xFF } else { r.below(32) as u8 })
                .collect();
            if r.coin() {
                Op::StreamShuffle(StreamShuffle { src, dst, mask })
            } else {
                let src = AccessPattern::Static(sap_any(r, parts, d, dt, arch));
                Op::StreamTranspose(StreamTranspose { src, dst, mask })
            }
        }
        2 => {
            let parts = r.range(1, 128) as u32;
            let dd = dims(r, 4);
            let n = r.range(1, 1600) as u16;
            let data = {
                let dt2 = r.pick(&DTYPES);
                sap_any(r, parts, dd, dt2, arch)
            };
            let index = sap_any(r, parts, [Dim::new(1, n)], Uint32, arch);
            let dst = {
                let dt2 = r.pick(&DTYPES);
                sap_any(r, parts, [Dim::new(1, n)], dt2, arch)
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
                AccessPattern::Static(sap_any(r, parts, d, dt, arch))
            };
            let p = src.partitions();
            let dst = AccessPattern::Static(sap_any(r, p, d, dt, arch));
            Op::Dropout(Dropout {
                src,
                dst,
                threshold_imm_ptr: r.below(256) as u8,
                threshold_dtype: r.pick(&DTYPES),
                rng_mode: r.below(256) as u8,
                rng_seed: None,
            })
        }
        4 => {
            let dt = r.pick(&DTYPES);
            let parts = 16 * r.range(1, 2) as u32;
            let q = r.below(4) as u32 * 32;
            let src = AccessPattern::TensorIndirect(IndirectAp {
                data: sap(r, q, parts, [], dt, arch),
                index: {
                    let ip = q + r.below(16) as u32;
                    sap(r, ip, parts, [], Uint16, arch)
                },
                num_indirect_indices: r.range(1, 4096) as u32,
                index_arg_id: 0,
            });
            let dd = dims(r, 4);
            let dst = sap_any(r, parts, dd, dt, arch);
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
                sap_any(r, parts, d, dt2, arch)
            };
            let dst = {
                let dt2 = r.pick(&fp);
                sap_any(r, parts, d, dt2, arch)
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
                lower_bound: r.below(1 << 20) as i32 - (1 << 19),
                upper_bound: r.pick(&[f32::MIN, -1.5, 0.0, 1e6, f32::INFINITY]),
                comp_op0: r.pick(&comps),
                comp_op1: r.pick(&comps),
                bound0: bound(r),
                bound1: bound(r),
                reduce_cmd: r.pick(&[
                    BirAccumulation::Idle,
                    BirAccumulation::ZeroAccumulate,
                    BirAccumulation::AddAccumulate,
                ]),
                reduce_res: sap_any(r, parts, [], Float32, arch).into(),
            })
        }
    };
    Instruction::new(op).with_sync(sync(r))
}

/// Every static AP of an access pattern (the AP itself, or an indirect AP's data and index).
fn statics(ap: &mut AccessPattern) -> Vec<&mut StaticAp> {
    match ap {
        AccessPattern::Static(s) => vec![s],
        AccessPattern::TensorIndirect(i) => vec![&mut i.data, &mut i.index],
    }
}

/// The access patterns of an op.
fn aps(op: &mut Op) -> Vec<&mut AccessPattern> {
    match op {
        Op::StreamShuffle(o) => vec![&mut o.src, &mut o.dst],
        Op::StreamTranspose(o) => vec![&mut o.src, &mut o.dst],
        Op::Gather(o) => vec![&mut o.data, &mut o.index, &mut o.dst],
        Op::Dropout(o) => vec![&mut o.src, &mut o.dst],
        Op::IndirectCopy(o) => vec![&mut o.src, &mut o.dst],
        Op::RangeSelect(o) => vec![&mut o.src, &mut o.dst, &mut o.reduce_res],
        Op::IndirectSaveAccumulate(o) => vec![&mut o.data, &mut o.index, &mut o.dst],
        // 4D-slot compute ops (generated in props_compute4d.rs).
        Op::TensorReduceArith(o) | Op::TensorReduceBitvec(o) => vec![&mut o.src, &mut o.dst],
        Op::TensorCopy(o) => vec![&mut o.src, &mut o.dst],
        Op::Reciprocal(o) => vec![&mut o.src, &mut o.dst],
        Op::Memset(o) => vec![&mut o.dst],
        Op::Pool(o) => vec![&mut o.src, &mut o.dst],
        Op::CrossLaneReduceArith(o) | Op::CrossLaneReduceBitvec(o) => vec![&mut o.src, &mut o.dst],
        Op::Iota(o) => vec![&mut o.dst],
        Op::AffineSelect(o) => vec![&mut o.src, &mut o.dst],
        // 3D-slot compute formats (their properties are in props_compute3d.rs).
        Op::TensorTensor(o) => vec![&mut o.in0, &mut o.in1, &mut o.dst],
        Op::CopyPredicated(o) => vec![&mut o.mask, &mut o.src, &mut o.dst],
        Op::TensorScalar(o) => match &mut o.form {
            TsForm::CacheReduce { reduce_res } => vec![&mut o.src, &mut o.dst, reduce_res],
            _ => vec![&mut o.src, &mut o.dst],
        },
        Op::TensorScalarSelect(o) => vec![&mut o.src, &mut o.dst],
        Op::Activation(o) => vec![&mut o.src, &mut o.dst],
        Op::ActivationReadAccumulator(o) => vec![&mut o.dst],
        // PE, DMA and event ops (their properties are in props_pe_dma.rs).
        Op::Matmul(o) => vec![&mut o.weights, &mut o.moving, &mut o.dst],
        Op::MatmulMx(o) => vec![&mut o.weights, &mut o.moving, &mut o.dst],
        Op::QuantizeMx(o) => vec![&mut o.src, &mut o.dst],
        Op::DmaDirect2d(_) | Op::DmaIndirect(_) | Op::EventSemaphore(_) => vec![],
        // The `more` group (0xBF, 0xF1, 0x7B, 0x65) (props_more.rs).
        Op::Sb2sbCollective(o) => vec![&mut o.src, &mut o.dst],
        Op::TensorDequantize(o) => vec![&mut o.src, &mut o.dst],
        Op::BatchNormBackProp(o) => vec![&mut o.in0, &mut o.in1, &mut o.dst],
        Op::DmaGatherTranspose(_) => vec![],
    }
}

/// One random edit of a static AP: most break an encoder check, some are legal but unusual
/// (unit dims between kept ones, PSUM starts, register starts).
fn mutate_static(r: &mut Rng, s: &mut StaticAp) {
    match r.below(9) {
        0 if !s.dims.is_empty() => {
            let i = r.below(s.dims.len() as u64) as usize;
            let d = s.dims.get(i).expect("in range");
            s.dims.set(i, Dim::new(d.step, 0)).expect("in range");
        }
        1 => {
            // Pushes past the fourth dim fail (a pattern has at most four).
            for _ in 0..r.range(1, 4) {
                let d = Dim::new(r.range(0, 9) as i16 - 4, r.range(2, 9) as u16);
                let _ = s.dims.try_push(d);
            }
        }
        2 => {
            let i = r.below(s.dims.len() as u64 + 1) as usize;
            let _ = s.dims.try_insert(i, Dim::new(r.range(0, 9) as i16 - 4, 1));
        }
        3 => s.start = Start::Reg(r.below(80) as u8),
        4 => {
            let space = if r.coin() { Space::Sbuf } else { Space::Psum };
            let partition = r.pick(&[0, 1, 31, 127, 128, 200, u32::MAX / 4]);
            let offset = r.pick(&[0, 8, 0x3FF8, 0x4000, 0x3_0000, 0x3_FFF8, 0x4_0000, u32::MAX]);
            s.start = Start::Imm(MemLoc {
                space,
                partition,
                offset,
            });
        }
        5 => s.partitions = r.pick(&[0, 1, 32, 128, 129, 255, 256, 1000]),
        6 => s.dtype = r.pick(&BirDtype::ALL),
        7 => s.dims.clear(),
        _ => {
            for i in 0..s.dims.len() {
                let d = s.dims.get(i).expect("in range");
                let num = r.pick(&[1, 2, 65535, 512, 513]);
                s.dims.set(i, Dim::new(d.step, num)).expect("in range");
            }
        }
    }
}

/// A random edit of an instruction (any number of them may be applied).
fn mutate(r: &mut Rng, inst: &mut Instruction) {
    match r.below(8) {
        0..=3 => {
            let mut aps = aps(&mut inst.op);
            if aps.is_empty() {
                return;
            }
            let k = r.below(aps.len() as u64) as usize;
            let ap = &mut *aps[k];
            if r.below(4) == 0 {
                // Flip between static and indirect.
                *ap = match ap.clone() {
                    AccessPattern::Static(s) => AccessPattern::TensorIndirect(IndirectAp {
                        index: StaticAp::sbuf(0, 0x100, s.partitions, [], Uint32),
                        data: s,
                        num_indirect_indices: r.pick(&[0, 1, 64, 65535, 65536]),
                        index_arg_id: 0,
                    }),
                    AccessPattern::TensorIndirect(i) => AccessPattern::Static(i.data),
                };
            } else {
                if let AccessPattern::TensorIndirect(i) = ap
                    && r.coin()
                {
                    i.num_indirect_indices = r.pick(&[0, 1, 64, 65535, 65536]);
                }
                let mut st = statics(ap);
                let j = r.below(st.len() as u64) as usize;
                mutate_static(r, st[j]);
            }
        }
        4 => match &mut inst.op {
            Op::StreamShuffle(StreamShuffle { mask, .. })
            | Op::StreamTranspose(StreamTranspose { mask, .. }) => {
                mask.resize(r.pick(&[0, 31, 32, 33]), 0xFF)
            }
            Op::Dropout(d) => d.threshold_dtype = r.pick(&BirDtype::ALL),
            Op::IndirectCopy(c) => c.num_elem_per_idx = r.below(256) as u8,
            Op::Gather(_) | Op::IndirectSaveAccumulate(_) => {}

            // 3D-slot compute formats: mutated in props_compute3d.rs.
            Op::TensorTensor(_)
            | Op::CopyPredicated(_)
            | Op::TensorScalar(_)
            | Op::TensorScalarSelect(_)
            | Op::Activation(_)
            | Op::ActivationReadAccumulator(_) => {}
            // PE, DMA and event ops (their properties are in props_pe_dma.rs).
            Op::Matmul(_)
            | Op::MatmulMx(_)
            | Op::QuantizeMx(_)
            | Op::DmaDirect2d(_)
            | Op::DmaIndirect(_)
            | Op::EventSemaphore(_) => {}
            // The `more` group (0xBF, 0xF1, 0x7B, 0x65) (props_more.rs).
            Op::Sb2sbCollective(_)
            | Op::TensorDequantize(_)
            | Op::BatchNormBackProp(_)
            | Op::DmaGatherTranspose(_) => {}
            Op::RangeSelect(rs) => {
                rs.upper_bound = r.pick(&[f32::MIN, -1.0, f32::MAX, f32::NAN]);
                let ops = [
                    BirAluOp::IsGe,
                    BirAluOp::Add,
                    BirAluOp::Average,
                    BirAluOp::AbsMax,
                    BirAluOp::NotEqual,
                ];
                rs.comp_op0 = r.pick(&ops);
                rs.comp_op1 = r.pick(&ops);
                rs.reduce_cmd = r.pick(&[
                    BirAccumulation::Idle,
                    BirAccumulation::Zero,
                    BirAccumulation::Accumulate,
                    BirAccumulation::LoadAccumulate,
                ]);
            }
            // 4D-slot compute ops: their field edits are in props_compute4d.rs.
            Op::TensorReduceArith(_)
            | Op::TensorReduceBitvec(_)
            | Op::TensorCopy(_)
            | Op::Reciprocal(_)
            | Op::Memset(_)
            | Op::Pool(_)
            | Op::CrossLaneReduceArith(_)
            | Op::CrossLaneReduceBitvec(_)
            | Op::Iota(_)
            | Op::AffineSelect(_) => {}
        },
        5 => {
            // Sync that may conflict on the shared value dword.
            inst.sync.wait = Some(SyncWait {
                mode: BirWaitMode::SemGeImm,
                sem: 1,
                value: r.below(3) as u32,
            });
            inst.sync.update = Some(SyncUpdate {
                mode: r.pick(&[BirUpdateMode::SemAddImm, BirUpdateMode::SemInc]),
                sem: 2,
                value: r.below(3) as u32,
            });
        }
        6 => inst.engine = r.pick(&[Engine::Vector, Engine::GpSimd, Engine::Scalar]),
        _ => {}
    }
}

/// A target model with random edits to the values the encoders read (strides that are not
/// powers of two, active bytes beyond the stride, narrower windows, fewer partitions, other
/// granularity masks and family sets).
fn perturbed(r: &mut Rng, t: Target) -> ArchModel {
    let mut a = t.model().clone();
    for _ in 0..r.below(3) {
        match r.below(7) {
            // Zero strides and PE counts must give errors, never a division panic.
            0 => a.sbuf_partition_stride = r.pick(&[3 << 16, 1 << 17, (1 << 18) + 4, 0]),
            1 => a.sbuf_active_bytes = r.pick(&[1 << 16, 1 << 19]),
            2 => a.sbuf_window = r.pick(&[1 << 24, 0x0200_0000 + 8]),
            3 => a.partitions = r.pick(&[16, 64, 300]),
            4 => a.granularity_mask = r.below(256) as u8,
            5 => {
                a.psum_base = r.pick(&[0x0200_0000, 0xFFF0_0000]);
                a.psum_partition_stride = r.pick(&[1 << 15, 1000, 0]);
                a.pe_count = r.pick(&[128, 32, 0]);
            }
            _ => {
                let all = [
                    Family::StreamShuffle,
                    Family::StreamTranspose,
                    Family::Gather,
                    Family::Dropout,
                    Family::IndirectCopy,
                    Family::RangeSelect,
                    Family::TensorIndirect,
                ];
                let keep: Vec<Family> = all.into_iter().filter(|_| r.below(4) != 0).collect();
                a.families = FamilySet::of(&keep);
            }
        }
    }
    a
}

/// The concatenated encoding of `insts`.
fn encode_stream(insts: &[Instruction], arch: &ArchModel) -> Vec<u8> {
    insts
        .iter()
        .flat_map(|i| generate_vec(i, arch).expect("encodes"))
        .flatten()
        .collect()
}

/// A stream of 1..=4 random valid instructions.
fn valid_stream(seed: u64, t: Target, count: usize) -> Vec<Instruction> {
    (0..count as u64)
        .map(|k| valid_instruction(seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15), t))
        .collect()
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
    fn fast_path_matches_reference(seed in any::<u64>(), t in 0u8..3, edits in 0usize..4) {
        let t = target(t);
        let mut inst = valid_instruction(seed, t);
        let r = &mut Rng(seed.rotate_left(17) | 1);
        for _ in 0..edits {
            mutate(r, &mut inst);
        }
        // The built-in model itself (the encoder has copies specialised for those), an equal
        // clone (the general copy), or a perturbed model.
        let owned = match r.below(4) {
            0 => Some(perturbed(r, t)),
            1 => Some(t.model().clone()),
            _ => None,
        };
        let arch = owned.as_ref().unwrap_or(t.model());
        // Room for every bundle, or a buffer that may be short by one or more.
        let need = bundle_count(&inst).min(64);
        let len = if r.coin() { need } else { r.below(need as u64 + 2) as usize };
        let (mut fast, mut reference) = (vec![[0x5Au8; 64]; len], vec![[0xA5u8; 64]; len]);
        let got = generate(&inst, arch, &mut fast);
        let want = generate_reference(&inst, arch, &mut reference);
        prop_assert_eq!(&got, &want, "{:?}", inst);
        if let Ok(n) = got {
            prop_assert_eq!(&fast[..n], &reference[..n]);
            // GENERATE hands out only bundles its ISA check accepts.
            for (i, b) in fast[..n].iter().enumerate() {
                prop_assert_eq!(validate_bundle(b, i, arch), vec![]);
            }
        }
    }

    /// GENERATE's checks accept and reject exactly what RUN_ISA_CHECKS does: on an instruction
    /// of any op of the benchmark's all-formats mix, with random edits, on its own target or
    /// another, GENERATE (per instruction and as a stream) hands out bundles exactly when
    /// `run_isa_checks` reports no diagnostic (and then every bundle validates), fails with the
    /// first diagnostic as `IsaCheck` when it reports some, and with the encoder's own error
    /// (the bundle cap's included) when `run_isa_checks` fails.
    #[test]
    fn generate_checks_are_run_isa_checks(seed in any::<u64>(), edits in 0usize..4, retarget in 0u8..4) {
        let r = &mut Rng(seed | 1);
        let (mut inst, home) = common::mix::draw(r, (seed >> 48) as u32);
        for _ in 0..edits {
            mutate(r, &mut inst);
        }
        let arch = if retarget == 0 { target(r.below(3) as u8).model() } else { home };
        let one = std::slice::from_ref(&inst);
        match run_isa_checks(&inst, arch, 0) {
            Err(e) => prop_assert_eq!(generate_vec(&inst, arch), Err(e), "{:?}", inst),
            Ok(d) if d.is_empty() => {
                let bundles = generate_vec(&inst, arch);
                prop_assert!(bundles.is_ok(), "{:?}: {:?}", inst, bundles);
                let bundles = bundles.unwrap_or_default();
                prop_assert_eq!(bundles.len(), bundle_count(&inst));
                for (i, b) in bundles.iter().enumerate() {
                    prop_assert_eq!(validate_bundle(b, i, arch), vec![]);
                }
                let mut out = vec![[0u8; 64]; bundles.len()];
                prop_assert_eq!(generate_stream(one, arch, &mut out), Ok(bundles.len()));
                prop_assert_eq!(out, bundles);
            }
            Ok(d) => {
                let want = EncodeError::IsaCheck(d[0].clone());
                prop_assert_eq!(generate_vec(&inst, arch), Err(want.clone()), "{:?}", inst);
                let mut out = vec![[0u8; 64]; bundle_count(&inst)];
                prop_assert_eq!(generate_stream(one, arch, &mut out), Err((0, want)));
            }
        }
    }

    #[test]
    fn stream_matches_per_instruction_generate(seed in any::<u64>(), t in 0u8..3, count in 1usize..8, edits in 0usize..3) {
        let t = target(t);
        let mut insts = valid_stream(seed, t, count);
        let r = &mut Rng(seed.rotate_left(29) | 1);
        // Possibly break one instruction: the stream must stop there with the same error.
        let broken = if edits > 0 { Some(r.below(count as u64) as usize) } else { None };
        if let Some(k) = broken {
            for _ in 0..edits {
                mutate(r, &mut insts[k]);
            }
        }
        let owned = if r.coin() { Some(t.model().clone()) } else { None };
        let arch = owned.as_ref().unwrap_or(t.model());
        let need: usize = insts.iter().map(|i| bundle_count(i).min(64)).sum();
        let mut by_stream = vec![[0u8; 64]; need];
        let got = generate_stream(&insts, arch, &mut by_stream);
        // The same calls one instruction at a time.
        let mut by_call = vec![[0u8; 64]; need];
        let mut pos = 0;
        let mut want = Ok(0);
        for (i, inst) in insts.iter().enumerate() {
            match generate(inst, arch, &mut by_call[pos..]) {
                Ok(n) => pos += n,
                Err(e) => {
                    want = Err((i, e));
                    break;
                }
            }
            want = Ok(pos);
        }
        prop_assert_eq!(&got, &want);
        if let Ok(n) = got {
            prop_assert_eq!(&by_stream[..n], &by_call[..n]);
        }
    }

    #[test]
    fn lifted_instructions_encode_to_the_same_bytes(seed in any::<u64>(), t in 0u8..3, count in 1usize..5) {
        let t = target(t);
        let arch = t.model();
        let insts = valid_stream(seed, t, count);
        let bytes = encode_stream(&insts, arch);
        let lifted = decode_instructions(&bytes, arch).unwrap();
        prop_assert_eq!(lifted.len(), insts.len());
        for (a, b) in insts.iter().zip(&lifted) {
            prop_assert_eq!(a.op.kind(), b.op.kind());
            prop_assert_eq!(a.engine, b.engine);
        }
        prop_assert_eq!(&encode_stream(&lifted, arch), &bytes);
        // The lifted form is canonical: lifting its encoding gives it back.
        prop_assert_eq!(decode_instructions(&bytes, arch).unwrap(), lifted);
    }

    #[test]
    fn lifting_edited_streams_never_panics(seed in any::<u64>(), t in 0u8..3, edits in 1usize..4) {
        let t = target(t);
        let arch = t.model();
        let r = &mut Rng(seed.rotate_left(29) | 1);
        let count = r.range(1, 4) as usize;
        let mut bytes = encode_stream(&valid_stream(seed, t, count), arch);
        for _ in 0..edits {
            let n = bytes.len() / 64;
            let k = r.below(n.max(1) as u64) as usize;
            match r.below(6) {
                // Drop, duplicate or swap whole bundles (breaks pairs and chunk chains).
                0 if n > 1 => {
                    bytes.drain(k * 64..k * 64 + 64);
                }
                1 if n > 0 => {
                    let b: Vec<u8> = bytes[k * 64..k * 64 + 64].to_vec();
                    bytes.splice(k * 64..k * 64, b);
                }
                2 if k + 1 < n => {
                    for j in 0..64 {
                        bytes.swap(k * 64 + j, (k + 1) * 64 + j);
                    }
                }
                // Flip a byte, or set the gather continuation flag.
                3 if !bytes.is_empty() => {
                    let j = r.below(bytes.len() as u64) as usize;
                    bytes[j] ^= 1 << r.below(8);
                }
                4 if n > 0 => bytes[k * 64 + 0x24] = r.below(3) as u8,
                // Truncate.
                _ => {
                    let cut = r.below(bytes.len() as u64 + 1) as usize;
                    bytes.truncate(cut);
                }
            }
        }
        match decode_instructions(&bytes, arch) {
            Ok(insts) => prop_assert_eq!(encode_stream(&insts, arch), bytes),
            Err(DecodeError::Sequence { bundle, offset, .. }) => {
                prop_assert!(bundle <= bytes.len() / 64 && offset <= bytes.len());
                prop_assert!(offset >= bundle * 64 || offset == bytes.len());
            }
            Err(DecodeError::Truncated { offset, .. }) => prop_assert!(offset < bytes.len()),
            Err(e) => prop_assert!(false, "unexpected error {e}"),
        }
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
            let _ = decode_instructions(&bytes, t.model());
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
