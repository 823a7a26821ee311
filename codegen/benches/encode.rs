//! Encoding throughput against a memcpy of the same number of output bytes, measured in one run.
//!
//! The mix: ~1000 instructions over the six ops (StreamShuffle, StreamTranspose narrow and wide,
//! Gather with 1..3 chunks, Dropout static and INDIRECT16B, IndirectCopy, RangeSelect + 0x9B),
//! encoded with GENERATE into a preallocated buffer. Before the criterion groups run, a
//! self-timed loop interleaves the two workloads and prints bundles/s and the ratio
//! `encode time / memcpy time` (median of many rounds), so the figure is reproducible with
//! `cargo bench -p sundial-codegen --bench encode`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use sundial_codegen::arch::{ArchModel, CAYMAN, MARIANA};
use sundial_codegen::dtype::BirDtype::{self, *};
use sundial_codegen::enums::{BirAccumulation, BirAluOp};
use sundial_codegen::model::*;
use sundial_codegen::{Bundle, bundle_count, generate, generate_stream};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn sb(p: u32, off: u32, parts: u32, dims: impl Into<Dims>, d: BirDtype) -> AccessPattern {
    AccessPattern::Static(StaticAp::sbuf(p, off, parts, dims, d))
}

fn ind(q: u32, parts: u32, num: u32, d: BirDtype) -> AccessPattern {
    AccessPattern::TensorIndirect(IndirectAp {
        data: StaticAp::sbuf(q, 0x1000, parts, [], d),
        index: StaticAp::sbuf(q, 0x200, parts, [Dim::new(1, num as u16)], Uint32),
        num_indirect_indices: num,
        index_arg_id: 0,
    })
}

fn mix(count: u32) -> Vec<(Instruction, &'static ArchModel)> {
    let mut r = Rng(0x5EED_1234_ABCD_0001);
    let mut v = Vec::new();
    for i in 0..count {
        let p = (i % 4) * 32;
        let n = 16 + r.below(200) as u16;
        let d2 = [Dim::new(n as i16, 4), Dim::new(1, n)];
        let (op, arch): (Op, &'static ArchModel) = match r.below(100) {
            0..15 => (
                Op::StreamShuffle(StreamShuffle {
                    src: sb(p, 0, 32, d2, Bfloat16),
                    dst: sb(p, 0x8000, 32, d2, Bfloat16),
                    mask: (0..32)
                        .map(|k| if k % 7 == 0 { 0xFF } else { 31 - k })
                        .collect(),
                }),
                &MARIANA,
            ),
            15..30 => {
                let parts = if r.below(2) == 0 { 16 } else { 32 };
                (
                    Op::StreamTranspose(StreamTranspose {
                        src: sb(p, 0, parts, [Dim::new(1, 32)], Float32),
                        dst: sb(p, 0x4000, parts, [Dim::new(1, 32)], Float32),
                        mask: (0..32).collect(),
                    }),
                    &MARIANA,
                )
            }
            30..45 => {
                let k = 1 + r.below(1500) as u16;
                (
                    Op::Gather(Gather {
                        data: sb(0, 0, 16, [Dim::new(1, 4096)], Float32),
                        index: sb(0, 0x4000, 16, [Dim::new(1, k)], Uint32),
                        dst: sb(0, 0x8000, 16, [Dim::new(1, k)], Float32),
                    }),
                    &MARIANA,
                )
            }
            45..70 => {
                let src = if r.below(3) == 0 {
                    ind(p, 32, n as u32 * 4, Bfloat16)
                } else {
                    sb(p, 0x100, 32, d2, Bfloat16)
                };
                (
                    Op::Dropout(Dropout {
                        src,
                        dst: sb(p, 0x9000, 32, d2, Bfloat16),
                        threshold_imm_ptr: 3,
                        threshold_dtype: Float32,
                        rng_mode: 1,
                        rng_seed: None,
                    }),
                    &MARIANA,
                )
            }
            70..85 => (
                Op::IndirectCopy(IndirectCopy {
                    src: ind(p, 32, 64, Bfloat16),
                    dst: sb(p, 0x6000, 32, [Dim::new(1, 64)], Bfloat16),
                    num_elem_per_idx: 1,
                    src_buffer_size: 512,
                }),
                &MARIANA,
            ),
            _ => (
                Op::RangeSelect(RangeSelect {
                    src: sb(p, 0, 32, d2, Float32),
                    dst: sb(p, 0x2000, 32, d2, Float32),
                    lower_bound: i as i32,
                    upper_bound: 1e6,
                    comp_op0: BirAluOp::IsGe,
                    comp_op1: BirAluOp::IsLt,
                    bound0: ScalarOperand::Imm(0.0),
                    bound1: ScalarOperand::Ptr(0x40),
                    reduce_cmd: BirAccumulation::ZeroAccumulate,
                    reduce_res: sb(p, 0x3000, 32, [], Float32),
                }),
                &CAYMAN,
            ),
        };
        v.push((Instruction::new(op), arch));
    }
    v
}

/// Per-instruction calls of `generate` (the API a caller with one instruction at a time uses).
#[inline(never)]
fn encode_all(mix: &[(Instruction, &ArchModel)], out: &mut [Bundle]) -> usize {
    let mut pos = 0;
    for (inst, arch) in mix {
        pos += generate(inst, arch, &mut out[pos..]).expect("valid mix");
    }
    pos
}

/// The mix as per-target instruction streams (a kernel targets one core), in mix order.
fn streams(
    mix: &[(Instruction, &'static ArchModel)],
) -> Vec<(&'static ArchModel, Vec<Instruction>)> {
    let mut out: Vec<(&'static ArchModel, Vec<Instruction>)> = Vec::new();
    for (inst, arch) in mix {
        match out.iter_mut().find(|(a, _)| std::ptr::eq(*a, *arch)) {
            Some((_, v)) => v.push(inst.clone()),
            None => out.push((*arch, vec![inst.clone()])),
        }
    }
    out
}

/// `generate_stream` on each target's stream: how a whole function is emitted.
#[inline(never)]
fn encode_streams(streams: &[(&ArchModel, Vec<Instruction>)], out: &mut [Bundle]) -> usize {
    let mut pos = 0;
    for (arch, insts) in streams {
        pos += generate_stream(insts, arch, &mut out[pos..]).expect("valid mix");
    }
    pos
}

#[inline(never)]
fn memcpy_all(src: &[Bundle], dst: &mut [Bundle]) {
    dst.copy_from_slice(src);
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Interleaved self-timed rounds of `encode` and a memcpy of `total` bundles: returns (encode
/// median, memcpy median) per pass.
fn measure(
    encode: impl Fn(&mut [Bundle]) -> usize,
    total: usize,
    rounds: usize,
) -> (Duration, Duration) {
    let mut out = vec![[0u8; 64]; total];
    let src = vec![[0x5Au8; 64]; total];
    let mut dst = vec![[0u8; 64]; total];
    let (mut enc, mut cpy) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let t = Instant::now();
        black_box(encode(black_box(&mut out)));
        enc.push(t.elapsed());
        let t = Instant::now();
        memcpy_all(black_box(&src), black_box(&mut dst));
        cpy.push(t.elapsed());
    }
    (median(enc), median(cpy))
}

fn main() {
    // SUNDIAL_BENCH_INSTS changes the mix size (default 1000 instructions, ~1900 bundles);
    // SUNDIAL_BENCH_DETAIL=1 adds an op-sorted run and a per-op ns/bundle breakdown.
    let count: u32 = std::env::var("SUNDIAL_BENCH_INSTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let mix = mix(count);
    let total: usize = mix.iter().map(|(i, _)| bundle_count(i)).sum();
    let mut check = vec![[0u8; 64]; total];
    assert_eq!(encode_all(&mix, &mut check), total);

    let streams = streams(&mix);
    let grouped: Vec<(Instruction, &ArchModel)> = streams
        .iter()
        .flat_map(|(a, v)| v.iter().map(move |i| (i.clone(), *a)))
        .collect();
    let (mut by_call, mut by_stream) = (vec![[0u8; 64]; total], vec![[0u8; 64]; total]);
    assert_eq!(encode_all(&grouped, &mut by_call), total);
    assert_eq!(encode_streams(&streams, &mut by_stream), total);
    assert!(
        by_call == by_stream,
        "generate_stream must write what per-instruction generate writes"
    );

    // Warm up, then the reported figures: the headline is the stream API (a function's
    // instructions emitted for its target); the per-call figure is printed next to it.
    let rounds = (2_000_000 / total).clamp(20, 2000);
    let _ = measure(|o| encode_streams(&streams, o), total, rounds / 10);
    let (enc, cpy) = measure(|o| encode_streams(&streams, o), total, rounds);
    let (enc_call, cpy_call) = measure(|o| encode_all(&mix, o), total, rounds);
    let bps = total as f64 / enc.as_secs_f64();
    println!(
        "encode report: {} instructions, {} bundles ({} KiB) per pass; encode {:.1} us ({:.3e} bundles/s, \
         {:.1} ns/bundle), memcpy {:.1} us; ratio encode/memcpy = {:.2}",
        mix.len(),
        total,
        total * 64 / 1024,
        enc.as_secs_f64() * 1e6,
        bps,
        enc.as_secs_f64() * 1e9 / total as f64,
        cpy.as_secs_f64() * 1e6,
        enc.as_secs_f64() / cpy.as_secs_f64()
    );
    println!(
        "per-instruction generate(): encode {:.1} us ({:.1} ns/bundle), memcpy {:.1} us; ratio {:.2}",
        enc_call.as_secs_f64() * 1e6,
        enc_call.as_secs_f64() * 1e9 / total as f64,
        cpy_call.as_secs_f64() * 1e6,
        enc_call.as_secs_f64() / cpy_call.as_secs_f64()
    );
    if std::env::var_os("SUNDIAL_BENCH_DETAIL").is_some() {
        let mut sorted = self::mix(count);
        sorted.sort_by_key(|(i, _)| i.op.kind() as u8);
        let (enc, cpy) = measure(|o| encode_all(&sorted, o), total, rounds);
        println!(
            "sorted by op: encode {:.1} us, memcpy {:.1} us, ratio {:.2}",
            enc.as_secs_f64() * 1e6,
            cpy.as_secs_f64() * 1e6,
            enc.as_secs_f64() / cpy.as_secs_f64()
        );
        for k in 0..6u8 {
            let only: Vec<_> = self::mix(count)
                .into_iter()
                .filter(|(i, _)| i.op.kind() as u8 == k)
                .collect();
            let t: usize = only.iter().map(|(i, _)| bundle_count(i)).sum();
            let (enc, _) = measure(|o| encode_all(&only, o), t, rounds);
            let name = only[0].0.op.kind().info().name;
            println!(
                "{name}: {} instructions, {t} bundles, {:.1} ns/bundle",
                only.len(),
                enc.as_secs_f64() * 1e9 / t as f64
            );
        }
    }

    let mut c = Criterion::default().configure_from_args();
    let mut g = c.benchmark_group("encode_mix");
    g.throughput(Throughput::Elements(total as u64));
    let mut out = vec![[0u8; 64]; total];
    g.bench_function("generate_stream", |b| {
        b.iter(|| encode_streams(black_box(&streams), black_box(&mut out)))
    });
    g.bench_function("generate", |b| {
        b.iter(|| encode_all(black_box(&mix), black_box(&mut out)))
    });
    let src = vec![[0x5Au8; 64]; total];
    let mut dst = vec![[0u8; 64]; total];
    g.bench_function("memcpy_same_bytes", |b| {
        b.iter(|| memcpy_all(black_box(&src), black_box(&mut dst)))
    });
    g.finish();
    c.final_summary();
}
