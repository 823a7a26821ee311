//! Encoding throughput against a memcpy of the same number of output bytes, and decode+validate
//! throughput of the encoded bundles, measured in one run.
//!
//! The mix (`tests/common/mix.rs`): ~1000 instructions drawn from `MIX`, one weighted row per op shape, covering every
//! op of the instruction model that encodes (the DVE datamove ops, the 4D-slot and 3D-slot
//! compute ops, PE / MX / DMA / event ops), each on a target that has it, grouped into one stream
//! per target. A new op joins both measurements with one row in `MIX` (and its generator
//! function); `MIX` documents the weighting. Encoding runs GENERATE into a preallocated buffer. Before the
//! criterion groups run, self-timed loops print:
//!
//! * the headline: bundles/s and the ratio `encode time / memcpy time` (median of many rounds,
//!   the two workloads interleaved; the goal is a ratio <= 4);
//! * the share of the ISA checks: GENERATE's `isa_check` alone on each instruction's bundles,
//!   and the rest of the encode figure (filling the bundles);
//! * decode+validate: the encoded bytes of each target's stream, every bundle through
//!   `decode_into` (one `Decoded` reused per pass, as a stream reader holds one) and
//!   `validate_bundle`, as GB/s of bundle bytes (the goal is >= 1 GB/s); `decode_into` alone,
//!   `validate_bundle` alone, the allocating `decode` alone and the `decode_ref` view are
//!   printed next to it.
//!
//! Both are reproducible with `cargo bench -p sundial-codegen --bench encode`. Environment:
//! `SUNDIAL_BENCH_INSTS` (mix size), `SUNDIAL_BENCH_DETAIL=1` (per-op figures, validation in
//! opcode order), `SUNDIAL_BENCH_ONLY=<op>` (one op's rows), `SUNDIAL_BENCH_LOOP=<step>` (one
//! step in a loop for a profiler).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use sundial_codegen::arch::ArchModel;
use sundial_codegen::decode::{Decoded, decode, decode_into, decode_ref};
use sundial_codegen::model::*;
use sundial_codegen::validate::validate_bundle;
use sundial_codegen::{Bundle, bundle_count, generate, generate_stream, isa_check};

// The tests' helpers and sample instructions: one statement of each sample for both.
#[path = "../tests/common/mod.rs"]
mod common;
use common::mix::mix;

/// Per-instruction calls of `generate` (the API a caller with one instruction at a time uses).
#[inline(never)]
fn encode_all(mix: &[(Instruction, &ArchModel)], out: &mut [Bundle]) -> usize {
    let mut pos = 0;
    for (inst, arch) in mix {
        pos += generate(inst, arch, &mut out[pos..]).expect("valid mix");
    }
    pos
}

/// GENERATE's ISA check alone ([`isa_check`] on each instruction's bundles of `out`, the
/// encoded `mix`): the share of the encode figure the checks take.
#[inline(never)]
fn check_all(mix: &[(Instruction, &ArchModel)], out: &[Bundle]) -> usize {
    let mut pos = 0;
    for (inst, arch) in mix {
        let n = bundle_count(inst);
        isa_check(black_box(&out[pos..pos + n]), arch).expect("valid mix");
        pos += n;
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

/// How [`decode_validate`] decodes.
#[derive(Clone, Copy, PartialEq)]
enum Dec {
    /// Not at all (validation alone).
    Skip,
    /// `decode`: a new `Decoded` (and its value vector) per bundle.
    Alloc,
    /// `decode_into`: one `Decoded` reused across the stream (no allocation after the first).
    Reuse,
    /// `decode_ref`: a view that reads a value when asked for (none is asked for here).
    View,
}

/// bytes -> decode -> `validate_bundle` for every bundle of every stream (`dec` picks the
/// decoder, `validate_it` whether to validate). Returns the bundles seen and the diagnostics
/// raised.
#[inline(never)]
fn decode_validate(
    streams: &[(&ArchModel, Vec<u8>)],
    dec: Dec,
    validate_it: bool,
) -> (usize, usize) {
    let (mut bundles, mut diags) = (0, 0);
    let mut reused: Option<Decoded> = None;
    for (arch, bytes) in streams {
        for (i, c) in bytes.chunks_exact(64).enumerate() {
            let b: &Bundle = c.try_into().expect("64-byte chunk");
            match (dec, &mut reused) {
                (Dec::Skip, _) => {}
                (Dec::Alloc, _) => {
                    black_box(decode(black_box(b)).expect("a known opcode"));
                }
                (Dec::Reuse, Some(d)) => {
                    decode_into(black_box(b), d).expect("a known opcode");
                    black_box(&*d);
                }
                (Dec::Reuse, None) => reused = Some(decode(black_box(b)).expect("a known opcode")),
                (Dec::View, _) => {
                    black_box(decode_ref(black_box(b)).expect("a known opcode"));
                }
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
    // SUNDIAL_BENCH_ONLY=<op name> keeps only that op's instructions (with SUNDIAL_BENCH_LOOP, a
    // profile of one encoder).
    let only = std::env::var("SUNDIAL_BENCH_ONLY").ok();
    let mix: Vec<_> = mix(count)
        .into_iter()
        .filter(|(i, _)| only.as_deref().is_none_or(|o| i.op.kind().info().name == o))
        .collect();
    assert!(!mix.is_empty(), "SUNDIAL_BENCH_ONLY names no op of the mix");
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

    // SUNDIAL_BENCH_LOOP=encode|check|decode|validate runs that step alone for ~5 s and exits
    // (a loop for a profiler to attach to).
    if let Ok(step) = std::env::var("SUNDIAL_BENCH_LOOP") {
        let bytes = encoded(&streams);
        let mut out = vec![[0u8; 64]; total];
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(5) {
            for _ in 0..100 {
                match step.as_str() {
                    "encode" => black_box(encode_streams(&streams, black_box(&mut out))),
                    "check" => black_box(check_all(&mix, black_box(&check))),
                    "decode" => black_box(decode_validate(&bytes, Dec::Reuse, false).0),
                    "validate" => black_box(decode_validate(&bytes, Dec::Skip, true).0),
                    other => panic!("SUNDIAL_BENCH_LOOP: unknown step `{other}`"),
                };
            }
        }
        return;
    }

    // Warm up, then the reported figures: the headline is the stream API (a function's
    // instructions emitted for its target); the per-call figure is printed next to it.
    let rounds = (2_000_000 / total).clamp(20, 2000);
    let _ = measure(|o| encode_streams(&streams, o), total, rounds / 10);
    let (enc, cpy) = measure(|o| encode_streams(&streams, o), total, rounds);
    let (enc_call, cpy_call) = measure(|o| encode_all(&mix, o), total, rounds);
    let checks = time(|| (check_all(&mix, &check), 0), rounds);
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
    println!(
        "of which the ISA checks (isa_check alone on each instruction's bundles, mix order): \
         {:.1} us ({:.1} ns/bundle, {:.2}x the memcpy); the rest, filling the bundles: {:.1} \
         ns/bundle ({:.2}x the memcpy)",
        checks.as_secs_f64() * 1e6,
        checks.as_secs_f64() * 1e9 / total as f64,
        checks.as_secs_f64() / cpy.as_secs_f64(),
        (enc.as_secs_f64() - checks.as_secs_f64()) * 1e9 / total as f64,
        (enc.as_secs_f64() - checks.as_secs_f64()) / cpy.as_secs_f64()
    );

    // Decode+validate: every bundle of the encoded mix, which must validate cleanly.
    let bytes = encoded(&streams);
    let byte_count: usize = bytes.iter().map(|(_, b)| b.len()).sum();
    assert_eq!(byte_count, total * 64);
    assert_eq!(
        decode_validate(&bytes, Dec::Reuse, true),
        (total, 0),
        "every bundle of the mix decodes and validates"
    );
    let dv_rounds = (rounds / 4).max(20);
    let _ = time(|| decode_validate(&bytes, Dec::Reuse, true), dv_rounds / 10);
    let dv = time(|| decode_validate(&bytes, Dec::Reuse, true), dv_rounds);
    let dec = time(|| decode_validate(&bytes, Dec::Reuse, false), dv_rounds);
    let dec_alloc = time(|| decode_validate(&bytes, Dec::Alloc, false), dv_rounds);
    let val = time(|| decode_validate(&bytes, Dec::Skip, true), dv_rounds);
    let view = time(|| decode_validate(&bytes, Dec::View, true), dv_rounds);
    let ns = |d: Duration| d.as_secs_f64() * 1e9 / total as f64;
    let gbs = |d: Duration| byte_count as f64 / d.as_secs_f64() / 1e9;
    println!(
        "decode+validate report: {total} bundles ({} KiB) per pass; decode_into + validate \
         {:.1} us, {:.2} GB/s, {:.1} ns/bundle (decode_into alone {:.1} ns/bundle, validate alone \
         {:.1} ns/bundle, the allocating decode alone {:.1} ns/bundle); decode_ref (a view, no \
         value read) + validate {:.2} GB/s, {:.1} ns/bundle; goal >= 1 GB/s",
        byte_count / 1024,
        dv.as_secs_f64() * 1e6,
        gbs(dv),
        ns(dv),
        ns(dec),
        ns(val),
        ns(dec_alloc),
        gbs(view),
        ns(view),
    );

    if std::env::var_os("SUNDIAL_BENCH_DETAIL").is_some() {
        // Validation with the bundles sorted by opcode: the difference to "validate alone" is
        // what the mix's unpredictable order costs (mispredicted format dispatch).
        let sorted: Vec<(&ArchModel, Vec<u8>)> = bytes
            .iter()
            .map(|(a, b)| {
                let mut c: Vec<&[u8]> = b.chunks_exact(64).collect();
                c.sort_by_key(|x| x[0]);
                (*a, c.concat())
            })
            .collect();
        let vs = time(|| decode_validate(&sorted, Dec::Skip, true), dv_rounds);
        println!(
            "validate alone on the bundles sorted by opcode: {:.1} ns/bundle",
            ns(vs)
        );
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
            let mut out = vec![[0u8; 64]; t];
            encode_all(&only, &mut out);
            let chk = time(|| (check_all(&only, &out), 0), rounds);
            let name = only[0].0.op.kind().info().name;
            println!(
                "{name}: {} instructions, {t} bundles, {:.1} ns/bundle (of which the ISA checks \
                 {:.1})",
                only.len(),
                enc.as_secs_f64() * 1e9 / t as f64,
                chk.as_secs_f64() * 1e9 / t as f64
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
        b.iter(|| decode_validate(black_box(&bytes), Dec::Reuse, true))
    });
    g.finish();
    c.final_summary();
}
