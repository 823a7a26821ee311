//! Program-level sync (`assign_sync`) on a 100,000-instruction kernel, against encoding the
//! same instructions, measured in one run.
//!
//! The kernel: the encode benchmark's instruction mix (`tests/common/mix.rs`, every op that
//! encodes), each instruction an item on its engine's queue (DMA spread over four queues), with
//! a synthetic dataflow over a ring of SBUF tiles (whole-partition tiles and half-partition
//! ones, so that partition ranges differ), eight PSUM banks and sixteen HBM tensors: DMA loads
//! HBM into a tile, the PE reads two tiles into a bank, Scalar reads a bank into a tile, Vector
//! and GpSimd read tiles into tiles. Every item conflicts with recent items of other queues.
//!
//! Printed: the time of `assign_sync` and of `generate` on the stamped instructions (median of
//! several rounds each, interleaved), their ratio, the time of `assign_sync` on the same items
//! without their instructions (the pass's own work, without copying instructions into the
//! plan), and the sync time per item at 25k, 50k and 100k items, both ways (near-linear
//! scaling keeps it flat). Reproduce with
//! `cargo bench -p sundial-codegen --bench sync`; `SUNDIAL_BENCH_INSTS` changes the size.

use std::hint::black_box;
use std::time::{Duration, Instant};

use sundial_codegen::arch::ArchModel;
use sundial_codegen::model::{Engine, EventSemaphore, Instruction, Op};
use sundial_codegen::sync::{Item, Queue, Region, SyncItem, SyncOptions, SyncPlan, assign_sync};
use sundial_codegen::{Bundle, bundle_count, generate};

#[path = "../tests/common/mod.rs"]
mod common;
use common::mix::mix;

/// SBUF tiles of the ring: 2 KiB per partition each.
const TILES: u32 = 80;
const TILE_BYTES: u32 = 2048;

/// Tile `t` of the ring; every third tile is the half-partition pair's lower or upper half.
fn tile(t: u32) -> Region {
    let t = t % TILES;
    let bytes = t * TILE_BYTES..(t + 1) * TILE_BYTES;
    match t % 3 {
        0 => Region::sbuf(0..64, bytes),
        1 => Region::sbuf(64..128, bytes),
        _ => Region::sbuf(0..128, bytes),
    }
}

fn bank(b: u32) -> Region {
    let b = b % 8;
    Region::psum(0..128, b * 2048..(b + 1) * 2048)
}

/// The mix's instructions as the pass takes them: it owns the sync band, so the mix's events
/// keep their bundle, not their waits.
fn unsynced(insts: &[(Instruction, &'static ArchModel)]) -> Vec<Instruction> {
    insts
        .iter()
        .map(|(inst, _)| {
            let mut inst = inst.clone();
            if let Op::EventSemaphore(e) = &mut inst.op {
                *e = EventSemaphore {
                    wait0: None,
                    wait1: None,
                    update: None,
                };
            }
            inst
        })
        .collect()
}

/// The kernel's items: instruction `k` on its engine's queue with its reads and writes.
fn kernel(insts: &[Instruction]) -> Vec<Item<'_>> {
    insts
        .iter()
        .enumerate()
        .map(|(k, inst)| {
            let k = k as u32;
            let queue = match inst.engine {
                Engine::Dma => Queue::dma((k % 4) as u8),
                e => Queue::of(e),
            };
            let it = Item::new(queue).with_inst(inst);
            match inst.engine {
                Engine::Dma => it
                    .read(Region::hbm(
                        k % 16,
                        u64::from(k) * 4096..u64::from(k + 1) * 4096,
                    ))
                    .write(tile(k.wrapping_mul(7))),
                Engine::Tensor => it
                    .read(tile(k.wrapping_mul(7) + 3))
                    .read(tile(k.wrapping_mul(5) + 1))
                    .write(bank(k)),
                Engine::Scalar => it.read(bank(k + 3)).write(tile(k.wrapping_mul(11) + 2)),
                _ => it
                    .read(tile(k.wrapping_mul(13) + 5))
                    .write(tile(k.wrapping_mul(3) + 1)),
            }
        })
        .collect()
}

/// The bundles-to-be of a plan, with their targets, as a caller emits them: each stamped
/// instruction, and each barrier or signal as its EventSemaphore ([`SyncItem::event`]).
fn stamped<'a>(
    plan: &SyncPlan,
    items: &[Item<'_>],
    insts: &[(Instruction, &'a ArchModel)],
) -> Vec<(Instruction, &'a ArchModel)> {
    let mut out = Vec::with_capacity(plan.items.len());
    for e in &plan.items {
        let arch = match e {
            SyncItem::Item { index, .. }
            | SyncItem::Signal {
                signaller: index, ..
            } => insts[*index].1,
            SyncItem::Barrier { consumer, .. } => insts[*consumer].1,
        };
        // An item is its instruction stamped, a barrier or signal its event (every item of the
        // kernel carries an instruction).
        if let Some(inst) = e.stamped(items).or_else(|| e.event()) {
            out.push((inst, arch));
        }
    }
    out
}

#[inline(never)]
fn encode_all(insts: &[(Instruction, &ArchModel)], out: &mut [Bundle]) -> usize {
    let mut pos = 0;
    for (inst, arch) in insts {
        pos += generate(inst, arch, &mut out[pos..]).expect("the stamped mix encodes");
    }
    pos
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Median time of `rounds` runs of `assign_sync` on `items`.
fn time_sync(items: &[Item<'_>], rounds: usize) -> Duration {
    median(
        (0..rounds)
            .map(|_| {
                let t = Instant::now();
                black_box(assign_sync(black_box(items), &SyncOptions::default()).expect("syncs"));
                t.elapsed()
            })
            .collect(),
    )
}

fn main() {
    let count: u32 = std::env::var("SUNDIAL_BENCH_INSTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let insts = mix(count);
    let prepared = unsynced(&insts);
    let items = kernel(&prepared);
    let plan = assign_sync(&items, &SyncOptions::default()).expect("the kernel synchronises");
    let stamped = stamped(&plan, &items, &insts);
    assert!(stamped.len() >= insts.len());
    let total: usize = stamped.iter().map(|(i, _)| bundle_count(i)).sum();
    let mut out = vec![[0u8; 64]; total];
    assert_eq!(encode_all(&stamped, &mut out), total);

    // The same program without its instructions: the pass's own work (hazards, reduction,
    // semaphores), without checking the instructions.
    let bare: Vec<Item<'_>> = items
        .iter()
        .map(|it| Item {
            inst: None,
            ..it.clone()
        })
        .collect();
    let rounds = 7;
    let (mut sync_t, mut enc_t, mut bare_t) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        sync_t.push(time_sync(&items, 1));
        bare_t.push(time_sync(&bare, 1));
        let t = Instant::now();
        black_box(encode_all(black_box(&stamped), black_box(&mut out)));
        enc_t.push(t.elapsed());
    }
    let (s, e, bare_s) = (median(sync_t), median(enc_t), median(bare_t));
    println!(
        "sync report: {} instructions on {} queues, {} bundles; {} hazard edges, {} waits, {} \
         barriers, {} signals, {} semaphores; assign_sync {:.1} ms ({:.0} ns/instruction), generate of the \
         {} stamped instructions and events {:.1} ms ({:.0} ns/instruction); ratio sync/encode = {:.2}",
        insts.len(),
        {
            let mut q: Vec<String> = items.iter().map(|i| i.queue.to_string()).collect();
            q.sort();
            q.dedup();
            q.len()
        },
        total,
        plan.hazards.edge_count(),
        plan.waits.edge_count(),
        plan.barrier_count(),
        plan.signal_count(),
        plan.semaphores.len(),
        s.as_secs_f64() * 1e3,
        s.as_secs_f64() * 1e9 / insts.len() as f64,
        stamped.len(),
        e.as_secs_f64() * 1e3,
        e.as_secs_f64() * 1e9 / insts.len() as f64,
        s.as_secs_f64() / e.as_secs_f64()
    );
    println!(
        "sync without instructions (items carry regions only): {:.1} ms ({:.0} ns/item)",
        bare_s.as_secs_f64() * 1e3,
        bare_s.as_secs_f64() * 1e9 / insts.len() as f64
    );
    // Scaling: the sync time per item on prefixes of the kernel.
    for (name, items) in [("with instructions", &items), ("without", &bare)] {
        let mut line = format!("sync scaling, {name} (ns per item):");
        for n in [count as usize / 4, count as usize / 2, count as usize] {
            let t = time_sync(&items[..n], 5);
            line += &format!(" {n}: {:.0}", t.as_secs_f64() * 1e9 / n as f64);
        }
        println!("{line}");
    }
}
