//! Encoding throughput against a memcpy of the same number of output bytes, and decode+validate
//! throughput of the encoded bundles, measured in one run.
//!
//! The mix: ~1000 instructions drawn from [`MIX`], one weighted row per op shape (StreamShuffle,
//! StreamTranspose narrow and wide, Gather with 1..3 chunks, Dropout static and INDIRECT16B,
//! IndirectCopy, RangeSelect + 0x9B). A new op joins both measurements with one row in [`MIX`]
//! (and its generator function). Encoding runs GENERATE into a preallocated buffer. Before the
//! criterion groups run, self-timed loops print:
//!
//! * the headline: bundles/s and the ratio `encode time / memcpy time` (median of many rounds,
//!   the two workloads interleaved; the goal is a ratio <= 4);
//! * decode+validate: the encoded bytes of each target's stream, every bundle through `decode`
//!   and `validate_bundle`, as GB/s of bundle bytes (the goal is >= 1 GB/s).
//!
//! Both are reproducible with `cargo bench -p sundial-codegen --bench encode`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use sundial_codegen::arch::{ArchModel, CAYMAN, MARIANA};
use sundial_codegen::decode::decode;
use sundial_codegen::dtype::BirDtype::{self, *};
use sundial_codegen::enums::{BirAccumulation, BirAluOp};
use sundial_codegen::model::*;
use sundial_codegen::validate::validate_bundle;
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

/// What every row of [`MIX`] draws from: the instruction's index, a start partition, a free
/// dim length `n` and a 2-D shape over it (drawn before the row is picked, in this order).
struct Draw {
    i: u32,
    p: u32,
    n: u16,
    d2: [Dim; 2],
}

/// A row's generator: the op and its target, drawing any further values from the RNG.
type Gen = fn(&mut Rng, &Draw) -> (Op, &'static ArchModel);

/// The mix: (weight out of the total, name, generator). Append a row to add an op.
const MIX: &[(u64, &str, Gen)] = &[
    (15, "stream_shuffle", stream_shuffle),
    (15, "stream_transpose", stream_transpose),
    (15, "gather", gather),
    (25, "dropout", dropout),
    (15, "indirect_copy", indirect_copy),
    (15, "range_select", range_select),
];

fn stream_shuffle(_: &mut Rng, d: &Draw) -> (Op, &'static ArchModel) {
    let op = Op::StreamShuffle(StreamShuffle {
        src: sb(d.p, 0, 32, d.d2, Bfloat16),
        dst: sb(d.p, 0x8000, 32, d.d2, Bfloat16),
        mask: (0..32)
            .map(|k| if k % 7 == 0 { 0xFF } else { 31 - k })
            .collect(),
    });
    (op, &MARIANA)
}

fn stream_transpose(r: &mut Rng, d: &Draw) -> (Op, &'static ArchModel) {
    let parts = if r.below(2) == 0 { 16 } else { 32 };
    let op = Op::StreamTranspose(StreamTranspose {
        src: sb(d.p, 0, parts, [Dim::new(1, 32)], Float32),
        dst: sb(d.p, 0x4000, parts, [Dim::new(1, 32)], Float32),
        mask: (0..32).collect(),
    });
    (op, &MARIANA)
}

fn gather(r: &mut Rng, _: &Draw) -> (Op, &'static ArchModel) {
    let k = 1 + r.below(1500) as u16;
    let op = Op::Gather(Gather {
        data: sb(0, 0, 16, [Dim::new(1, 4096)], Float32),
        index: sb(0, 0x4000, 16, [Dim::new(1, k)], Uint32),
        dst: sb(0, 0x8000, 16, [Dim::new(1, k)], Float32),
    });
    (op, &MARIANA)
}

fn dropout(r: &mut Rng, d: &Draw) -> (Op, &'static ArchModel) {
    let src = if r.below(3) == 0 {
        ind(d.p, 32, d.n as u32 * 4, Bfloat16)
    } else {
        sb(d.p, 0x100, 32, d.d2, Bfloat16)
    };
    let op = Op::Dropout(Dropout {
        src,
        dst: sb(d.p, 0x9000, 32, d.d2, Bfloat16),
        threshold_imm_ptr: 3,
        threshold_dtype: Float32,
        rng_mode: 1,
        rng_seed: None,
    });
    (op, &MARIANA)
}

fn indirect_copy(_: &mut Rng, d: &Draw) -> (Op, &'static ArchModel) {
    let op = Op::IndirectCopy(IndirectCopy {
        src: ind(d.p, 32, 64, Bfloat16),
        dst: sb(d.p, 0x6000, 32, [Dim::new(1, 64)], Bfloat16),
        num_elem_per_idx: 1,
        src_buffer_size: 512,
    });
    (op, &MARIANA)
}

fn range_select(_: &mut Rng, d: &Draw) -> (Op, &'static ArchModel) {
    let op = Op::RangeSelect(RangeSelect {
        src: sb(d.p, 0, 32, d.d2, Float32),
        dst: sb(d.p, 0x2000, 32, d.d2, Float32),
        lower_bound: d.i as i32,
        upper_bound: 1e6,
        comp_op0: BirAluOp::IsGe,
        comp_op1: BirAluOp::IsLt,
        bound0: ScalarOperand::Imm(0.0),
        bound1: ScalarOperand::Ptr(0x40),
        reduce_cmd: BirAccumulation::ZeroAccumulate,
        reduce_res: sb(d.p, 0x3000, 32, [], Float32),
    });
    (op, &CAYMAN)
}

/// `count` instructions drawn from [`MIX`] by weight.
fn mix(count: u32) -> Vec<(Instruction, &'static ArchModel)> {
    let total: u64 = MIX.iter().map(|(w, _, _)| w).sum();
    let mut r = Rng(0x5EED_1234_ABCD_0001);
    let mut v = Vec::new();
    for i in 0..count {
        let p = (i % 4) * 32;
        let n = 16 + r.below(200) as u16;
        let d = Draw {
            i,
            p,
            n,
            d2: [Dim::new(n as i16, 4), Dim::new(1, n)],
        };
        let mut pick = r.below(total);
        let (_, _, row) = MIX
            .iter()
            .find(|(w, _, _)| {
                let hit = pick < *w;
                pick = pick.saturating_sub(*w);
                hit
            })
            .expect("the pick is below the total weight");
        let (op, arch) = row(&mut r, &d);
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

/// Each target's stream encoded to bytes (what a loader reads back).
fn encoded(
    streams: &[(&'static ArchModel, Vec<Instruction>)],
) -> Vec<(&'static ArchModel, Vec<u8>)> {
    streams
        .iter()
        .map(|(arch, insts)| {
            let n: usize = insts.iter().map(bundle_count).sum();
            let mut out = vec![[0u8; 64]; n];
            assert_eq!(generate_stream(insts, arch, &mut out), Ok(n));
            (*arch, out.concat())
        })
        .collect()
}

/// bytes -> `decode` -> `validate_bundle` for every bundle of every stream (`decode`,
/// `validate` select the halves). Returns the bundles seen and the diagnostics raised.
#[inline(never)]
fn decode_validate(
    streams: &[(&ArchModel, Vec<u8>)],
    decode_it: bool,
    validate_it: bool,
) -> (usize, usize) {
    let (mut bundles, mut diags) = (0, 0);
    for (arch, bytes) in streams {
        for (i, c) in bytes.chunks_exact(64).enumerate() {
            let b: &Bundle = c.try_into().expect("64-byte chunk");
            if decode_it {
                black_box(decode(black_box(b)).expect("a known opcode"));
            }
            if validate_it {
                diags += validate_bundle(black_box(b), i, arch).len();
            }
            bundles += 1;
        }
    }
    (bundles, diags)
}

/// Median time of `rounds` passes of `f`.
fn time(f: impl Fn() -> (usize, usize), rounds: usize) -> Duration {
    median(
        (0..rounds)
            .map(|_| {
                let t = Instant::now();
                black_box(f());
                t.elapsed()
            })
            .collect(),
    )
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

    // Decode+validate: every bundle of the encoded mix, which must validate cleanly.
    let bytes = encoded(&streams);
    let byte_count: usize = bytes.iter().map(|(_, b)| b.len()).sum();
    assert_eq!(byte_count, total * 64);
    assert_eq!(
        decode_validate(&bytes, true, true),
        (total, 0),
        "every bundle of the mix decodes and validates"
    );
    let dv_rounds = (rounds / 4).max(20);
    let _ = time(|| decode_validate(&bytes, true, true), dv_rounds / 10);
    let dv = time(|| decode_validate(&bytes, true, true), dv_rounds);
    let dec = time(|| decode_validate(&bytes, true, false), dv_rounds);
    let val = time(|| decode_validate(&bytes, false, true), dv_rounds);
    let ns = |d: Duration| d.as_secs_f64() * 1e9 / total as f64;
    println!(
        "decode+validate report: {total} bundles ({} KiB) per pass; {:.1} us, {:.2} GB/s, \
         {:.1} ns/bundle (decode alone {:.1} ns/bundle, validate alone {:.1} ns/bundle); goal >= 1 GB/s",
        byte_count / 1024,
        dv.as_secs_f64() * 1e6,
        byte_count as f64 / dv.as_secs_f64() / 1e9,
        ns(dv),
        ns(dec),
        ns(val),
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
        for k in 0..OPS.len() {
            let only: Vec<_> = self::mix(count)
                .into_iter()
                .filter(|(i, _)| i.op.kind() as usize == k)
                .collect();
            if only.is_empty() {
                continue;
            }
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
    let mut g = c.benchmark_group("decode_validate_mix");
    g.throughput(Throughput::Bytes(byte_count as u64));
    g.bench_function("decode_validate", |b| {
        b.iter(|| decode_validate(black_box(&bytes), true, true))
    });
    g.finish();
    c.final_summary();
}
