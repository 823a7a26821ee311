//! Properties of the PE, MX, DMA and event formats: encode -> lift -> encode and encode ->
//! decode -> encode are the identity, `generate_stream` agrees with `generate_vec`,
//! the target's text of every bundle assembles back to it, and random bytes under these opcodes
//! never panic the decoder, printer, validator or lifter.

mod common;

use common::pe_dma::*;
use proptest::prelude::*;
use sundial_codegen::arch::Target;
use sundial_codegen::decode::decode_on;
use sundial_codegen::dtype::BirDtype::*;
use sundial_codegen::enums::{BirUpdateMode, BirWaitMode};
use sundial_codegen::model::*;
use sundial_codegen::text::{assemble_on, format_decoded};
use sundial_codegen::validate::validate_bundle;
use sundial_codegen::{decode_instructions, generate_stream, generate_vec};

const TARGETS: [Target; 3] = [Target::Sunda, Target::Cayman, Target::Mariana];
const OPCODES: [u8; 8] = [0x01, 0x02, 0xA0, 0xB8, 0xBB, 0x09, 0x0A, 0xE3];

fn wait(pick: u8, sem: u8, value: u32) -> Option<SyncWait> {
    let mode = match pick % 3 {
        0 => return None,
        1 => BirWaitMode::SemGeImm,
        _ => BirWaitMode::SemGeReg,
    };
    Some(SyncWait { mode, sem, value })
}

fn update(pick: u8, sem: u8, value: u32) -> Option<SyncUpdate> {
    let mode = *BirUpdateMode::ALL.get(pick as usize)?;
    let value = if mode.writes_value() { value } else { 0 };
    Some(SyncUpdate { mode, sem, value })
}

/// A valid instruction of this group on `t` from a few random numbers (canonical form).
fn instruction(t: Target, kind: u8, a: u32, b: u32, c: u16) -> Instruction {
    let kinds = if t == Target::Mariana { 6 } else { 4 };
    match kind % kinds {
        0 => {
            // K in {32, 64, 128} at an aligned start; N up to 32 at PSUM quadrant 0..2.
            let k = [32u32, 64, 128][a as usize % 3];
            let start = (a / 3 % (128 / k)) * k;
            let n = (b % 31 + 2) as u16;
            let q = if t == Target::Mariana {
                b / 32 % 4
            } else {
                b / 32 % 3
            } * 32;
            let flags = [0u8, 1, 2, 3, 4, 6][c as usize % 6];
            mm(|m| {
                m.weights = sb1(start, 0x100, k, n, Bfloat16);
                m.moving = sb1(start, 0x200 + (c as u32 & 0xFE), k, c % 512 + 2, Bfloat16);
                m.dst = ps1(q, 4 * (c as u32 % 64), n as u32, c % 512 + 2, Float32);
                m.psum_accumulate_flags = flags;
                if t == Target::Mariana {
                    m.psum_zero_region = (c % 4) as u8;
                    m.transpose = a.is_multiple_of(2);
                } else {
                    m.quant_offset = c;
                }
            })
        }
        1 => d2d(|d| {
            d.src.addr = (a as u64) << 12 | b as u64;
            d.dst.addr = (b as u64) << 16;
            d.src.step = [a as i32 % 7, -(b as i32 % 9)];
            d.src.num = [c % 100 + 1, 2];
            d.dst.num = [2, c % 100 + 1];
            d.compute_op = DgeComputeOp::ALL[a as usize % 5];
            d.completion.semaphore = a as u8;
            d.completion.priority_class = (b % 5) as u8;
        }),
        2 => dind(|d| {
            d.direction = if a.is_multiple_of(2) {
                DmaIndirectDirection::Load
            } else {
                DmaIndirectDirection::Save
            };
            d.src.num = c % 4096 + 1;
            d.dst.step = -(a as i32);
            d.src_idx = if b.is_multiple_of(2) {
                Start::Reg((b % 64) as u8)
            } else {
                sbuf_start(0, 4 * (b % 1000))
            };
            d.non_unique_dst_idx = c.is_multiple_of(2);
        }),
        4 => qmx(|q| {
            let parts = [32u32, 64, 96, 128][a as usize % 4];
            let n = c % 200 + 2;
            q.src = sb1(
                0,
                2 * (b % 1000),
                parts,
                n,
                if a.is_multiple_of(3) {
                    Float16
                } else {
                    Bfloat16
                },
            );
            q.dst = sb1(
                0,
                0x4000 + (b % 64),
                parts,
                n,
                if c % 2 == 1 { Float8e5 } else { Float8e4 },
            );
            q.dst_scale = sb0(a % 128, 0x8000 + (c as u32 % 256), parts, Float8E8m0fnu).into();
        }),
        5 => mmx(|m| {
            let k = [32u32, 64][a as usize % 2];
            let start = (b % (128 / k)) * k;
            m.weights = sb1(start, 0x1000, k, c % 100 + 2, Float8e4);
            m.weights_scale = sb0(b % 128, 0x100, k, Float8E8m0fnu).into();
            if let AccessPattern::TensorIndirect(i) = &mut m.moving {
                i.data.partitions = k;
                i.index.partitions = k;
                i.data.start = sbuf_start(start, 0x2000);
            }
            if let AccessPattern::TensorIndirect(i) = &mut m.moving_scale {
                i.data.partitions = k;
                i.index.partitions = k;
            }
            m.psum_accumulate_flags = [0u8, 1, 2, 3, 4, 6][c as usize % 6];
            m.psum_zero_region = (a % 4) as u8;
        }),
        _ => es(|e| {
            e.wait0 = wait(a as u8, (a >> 8) as u8, b);
            e.wait1 = wait((a >> 16) as u8, c as u8, b ^ 0x55);
            e.update = update((c % 7) as u8, (b >> 8) as u8, a);
        }),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn encode_lift_encode(t in 0usize..3, kind in any::<u8>(), a in any::<u32>(), b in any::<u32>(), c in any::<u16>()) {
        let t = TARGETS[t];
        let arch = t.model();
        let inst = instruction(t, kind, a, b, c);
        let bundles = generate_vec(&inst, arch).expect("valid sample encodes");
        for (i, x) in bundles.iter().enumerate() {
            prop_assert_eq!(validate_bundle(x, i, arch), vec![]);
            // text -> bytes -> text on the target's layout
            let text = format_decoded(&decode_on(x, arch).unwrap());
            let back = assemble_on(&text, arch).unwrap();
            prop_assert_eq!(&back, &vec![*x]);
            prop_assert_eq!(format_decoded(&decode_on(&back[0], arch).unwrap()), text);
        }
        let bytes = bundles.concat();
        // The stream entry point (fast path declining to the reference encoder) agrees.
        let mut out = vec![[0u8; 64]; bundles.len()];
        prop_assert_eq!(generate_stream(std::slice::from_ref(&inst), arch, &mut out), Ok(bundles.len()));
        prop_assert_eq!(&out, &bundles);
        // decode -> encode through the target's field table.
        for x in &bundles {
            prop_assert_eq!(decode_on(x, arch).unwrap().encode(), *x);
        }
        let lifted = decode_instructions(&bytes, arch).expect("lifts");
        prop_assert_eq!(lifted.len(), 1);
        prop_assert_eq!(&lifted[0], &inst);
        prop_assert_eq!(generate_vec(&lifted[0], arch).unwrap().concat(), bytes);
    }

    #[test]
    fn random_bytes_never_panic(t in 0usize..3, op in 0usize..8, body in proptest::collection::vec(any::<u8>(), 128)) {
        let arch = TARGETS[t].model();
        let mut bytes = body;
        bytes[0] = OPCODES[op];
        bytes[64] = match op {
            0 => 0x02,
            5 => 0x0A,
            _ => bytes[64],
        };
        for k in [0, 64] {
            let mut b = [0u8; 64];
            b.copy_from_slice(&bytes[k..k + 64]);
            let _ = validate_bundle(&b, 0, arch);
            if let Ok(d) = decode_on(&b, arch) {
                let text = format_decoded(&d);
                let _ = assemble_on(&text, arch);
            }
        }
        let _ = decode_instructions(&bytes, arch);
        let _ = decode_instructions(&bytes[..64], arch);
    }
}
