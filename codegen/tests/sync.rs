//! Program-level synchronisation: one test per hazard kind and reduction rule, the error paths,
//! the band stamped into real bundles, and the property that a random multi-queue program run
//! by an interleaving simulator honouring only the assigned waits and updates never starts an
//! item before a conflicting earlier item has completed and never deadlocks.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::ops::Range;

use common::*;
use petgraph::algo::tred::{dag_to_toposorted_adjacency_list, dag_transitive_reduction_closure};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::{EdgeRef, IntoNeighbors};
use proptest::prelude::*;
use sundial_codegen::arch::Target;
use sundial_codegen::dtype::BirDtype::*;
use sundial_codegen::enums::{BirUpdateMode, BirWaitMode};
use sundial_codegen::model::*;
use sundial_codegen::sync::*;
use sundial_codegen::{decode_instructions, generate_vec};

const V: Queue = Queue::of(Engine::Vector);
const G: Queue = Queue::of(Engine::GpSimd);
const S: Queue = Queue::of(Engine::Scalar);
const T: Queue = Queue::of(Engine::Tensor);
const D0: Queue = Queue::dma(0);
const D1: Queue = Queue::dma(1);

fn sbr(p: Range<u32>, b: Range<u32>) -> Region {
    Region::sbuf(p, b)
}

fn wait(sem: u8, value: u32) -> Option<SyncWait> {
    Some(SyncWait {
        mode: BirWaitMode::SemGeImm,
        sem,
        value,
    })
}

fn inc(sem: u8) -> Option<SyncUpdate> {
    Some(SyncUpdate {
        mode: BirUpdateMode::SemInc,
        sem,
        value: 0,
    })
}

fn sync(wait: Option<SyncWait>, update: Option<SyncUpdate>) -> SyncInfo {
    SyncInfo { wait, update }
}

fn plan(items: &[Item]) -> SyncPlan {
    assign_sync(items, &SyncOptions::default()).expect("synchronises")
}

/// The bands of the input items, in input order.
fn bands(p: &SyncPlan, n: usize) -> Vec<SyncInfo> {
    (0..n).map(|i| p.sync_info(i).expect("item")).collect()
}

/// The hazard edges as (producer, consumer, kinds).
fn edges(p: &SyncPlan) -> Vec<(usize, usize, Hazards)> {
    let mut v: Vec<_> = p
        .hazards
        .edge_references()
        .map(|e| (e.source().index(), e.target().index(), *e.weight()))
        .collect();
    v.sort_by_key(|e| (e.0, e.1));
    v
}

const RAW: Hazards = Hazards {
    raw: true,
    war: false,
    waw: false,
};

// ---------------------------------------------------------------- regions

#[test]
fn region_overlap_is_exact() {
    let a = sbr(0..4, 0..64);
    // Touching edges do not overlap; one shared partition and byte does.
    assert!(!a.overlaps(&sbr(4..8, 0..64)));
    assert!(!a.overlaps(&sbr(0..4, 64..128)));
    assert!(a.overlaps(&sbr(3..8, 63..128)));
    assert!(sbr(3..8, 63..128).overlaps(&a));
    // Containment overlaps.
    assert!(a.overlaps(&sbr(1..2, 8..9)));
    // Same numbers in another space or kind do not.
    assert!(!a.overlaps(&Region::psum(0..4, 0..64)));
    assert!(!a.overlaps(&Region::hbm(0, 0..64)));
    assert!(Region::hbm(1, 0..64).overlaps(&Region::hbm(1, 63..64)));
    assert!(!Region::hbm(1, 0..64).overlaps(&Region::hbm(2, 0..64)));
    assert!(!Region::hbm(1, 0..64).overlaps(&Region::hbm(1, 64..65)));
}

#[test]
fn empty_regions_never_conflict() {
    let a = sbr(0..4, 0..64);
    for e in [
        sbr(2..2, 0..64),
        sbr(0..4, 8..8),
        // Reversed ranges (start > end) are empty too.
        sbr(Range { start: 3, end: 1 }, 0..64),
        sbr(0..4, Range { start: 9, end: 2 }),
    ] {
        assert!(e.is_empty());
        assert!(!a.overlaps(&e) && !e.overlaps(&a) && !e.overlaps(&e));
    }
    assert!(Region::hbm(0, 5..5).is_empty());
    assert!(!Region::hbm(0, 5..5).overlaps(&Region::hbm(0, 0..64)));
    assert!(!a.is_empty());
    // A program whose only "conflict" is an empty range needs no sync.
    let p = plan(&[
        Item::new(V).write(sbr(0..4, 0..0)),
        Item::new(G).read(sbr(0..4, 0..64)),
    ]);
    assert_eq!(p.hazards.edge_count(), 0);
    assert!(p.semaphores.is_empty());
}

// ---------------------------------------------------------------- hazard kinds

/// Producer on the Vector queue, consumer on GpSimd: the consumer waits for count >= 1 on
/// semaphore 0, which the producer increments on completion.
fn two_queue(producer: Item, consumer: Item, kinds: Hazards) {
    let p = plan(&[producer, consumer]);
    assert_eq!(edges(&p), vec![(0, 1, kinds)]);
    assert_eq!(
        bands(&p, 2),
        vec![sync(None, inc(0)), sync(wait(0, 1), None)]
    );
    assert_eq!(
        p.semaphores,
        vec![Semaphore {
            queue: V,
            sem: 0,
            signals: 1
        }]
    );
    assert_eq!(p.barrier_count(), 0);
}

#[test]
fn raw_waits() {
    two_queue(
        Item::new(V).write(sbr(0..4, 0..64)),
        Item::new(G).read(sbr(2..3, 32..40)),
        RAW,
    );
}

#[test]
fn war_waits() {
    two_queue(
        Item::new(V).read(sbr(0..4, 0..64)),
        Item::new(G).write(sbr(2..3, 32..40)),
        Hazards {
            raw: false,
            war: true,
            waw: false,
        },
    );
}

#[test]
fn waw_waits() {
    two_queue(
        Item::new(V).write(Region::hbm(7, 0..100)),
        Item::new(G).write(Region::hbm(7, 99..200)),
        Hazards {
            raw: false,
            war: false,
            waw: true,
        },
    );
}

#[test]
fn every_kind_at_once_is_one_edge() {
    let r = sbr(0..1, 0..4);
    two_queue(
        Item::new(V).read(r.clone()).write(r.clone()),
        Item::new(G).read(r.clone()).write(r),
        Hazards {
            raw: true,
            war: true,
            waw: true,
        },
    );
}

#[test]
fn read_after_read_needs_nothing() {
    let r = sbr(0..4, 0..64);
    let p = plan(&[Item::new(V).read(r.clone()), Item::new(G).read(r)]);
    assert_eq!(p.hazards.edge_count(), 0);
    assert_eq!(bands(&p, 2), vec![SyncInfo::default(); 2]);
    assert!(p.semaphores.is_empty());
}

#[test]
fn same_queue_needs_no_wait() {
    let r = sbr(0..4, 0..64);
    let p = plan(&[
        Item::new(V).write(r.clone()),
        Item::new(V).read(r.clone()).write(r.clone()),
        Item::new(V).write(r),
    ]);
    assert_eq!(p.hazards.edge_count(), 0);
    assert_eq!(bands(&p, 3), vec![SyncInfo::default(); 3]);
    assert!(p.semaphores.is_empty());
}

#[test]
fn dma_queues_are_distinct_queues() {
    let r = Region::hbm(0, 0..64);
    // Dma0 -> Dma0 is ordered by the queue; Dma0 -> Dma1 needs a wait.
    let p = plan(&[
        Item::new(D0).write(r.clone()),
        Item::new(D0).read(r.clone()),
        Item::new(D1).read(r),
    ]);
    assert_eq!(edges(&p), vec![(0, 2, RAW)]);
    assert_eq!(
        bands(&p, 3),
        vec![
            sync(None, inc(0)),
            SyncInfo::default(),
            sync(wait(0, 1), None)
        ]
    );
    assert_eq!(p.semaphores[0].queue, D0);
    assert_eq!(
        (D0.to_string(), D1.to_string()),
        ("Dma0".into(), "Dma1".into())
    );
    assert_eq!(
        (V.to_string(), Queue::from(Engine::Tensor)),
        ("Vector".into(), T)
    );
}

// ---------------------------------------------------------------- reduction

#[test]
fn transitive_wait_is_removed() {
    let (x, y) = (sbr(0..1, 0..16), sbr(1..2, 0..16));
    // C conflicts with A (X) and with B (Y); B waited on A, so waiting on B implies A.
    let p = plan(&[
        Item::new(V).write(x.clone()),
        Item::new(G).read(x.clone()).write(y.clone()),
        Item::new(S).read(x).read(y),
    ]);
    assert_eq!(edges(&p), vec![(0, 1, RAW), (0, 2, RAW), (1, 2, RAW)]);
    assert_eq!(p.waits.edge_count(), 2);
    assert_eq!(
        bands(&p, 3),
        vec![
            sync(None, inc(0)),
            sync(wait(0, 1), inc(1)),
            sync(wait(1, 1), None)
        ]
    );
    assert_eq!(p.barrier_count(), 0);
}

#[test]
fn program_order_makes_a_wait_redundant() {
    let x = sbr(0..1, 0..16);
    // B2 follows B1 on GpSimd, and B1 already waited for A.
    let p = plan(&[
        Item::new(V).write(x.clone()),
        Item::new(G).read(x.clone()),
        Item::new(G).read(x),
    ]);
    // Only A -> B1 is left to order: B2's queue is already past A.
    assert_eq!(edges(&p), vec![(0, 1, RAW)]);
    assert_eq!(
        bands(&p, 3),
        vec![
            sync(None, inc(0)),
            sync(wait(0, 1), None),
            SyncInfo::default()
        ]
    );
}

#[test]
fn only_the_latest_producer_of_a_queue_is_waited_for() {
    let (x, y) = (sbr(0..1, 0..16), sbr(1..2, 0..16));
    // C conflicts with A1 and A2 on Vector: waiting for A2 implies A1. A1 is no signaller.
    let p = plan(&[
        Item::new(V).write(x.clone()),
        Item::new(V).write(y.clone()),
        Item::new(G).read(x).read(y),
    ]);
    // One edge per other queue: from the latest conflicting item, A2.
    assert_eq!(edges(&p), vec![(1, 2, RAW)]);
    assert_eq!(
        bands(&p, 3),
        vec![
            SyncInfo::default(),
            sync(None, inc(0)),
            sync(wait(0, 1), None)
        ]
    );
}

#[test]
fn counts_rank_the_signallers_of_a_queue() {
    let (x, y) = (sbr(0..1, 0..16), sbr(1..2, 0..16));
    // Two Vector signallers; the consumers wait for counts 1 and 2; the non-signaller between
    // them does not count.
    let p = plan(&[
        Item::new(V).write(x.clone()),
        Item::new(V).write(sbr(5..6, 0..16)),
        Item::new(V).write(y.clone()),
        Item::new(G).read(x),
        Item::new(S).read(y),
    ]);
    assert_eq!(
        bands(&p, 5),
        vec![
            sync(None, inc(0)),
            SyncInfo::default(),
            sync(None, inc(0)),
            sync(wait(0, 1), None),
            sync(wait(0, 2), None)
        ]
    );
    assert_eq!(p.semaphores[0].signals, 2);
}

#[test]
fn fan_in_inserts_barriers() {
    let (x, y, z) = (sbr(0..1, 0..16), sbr(1..2, 0..16), Region::hbm(3, 0..16));
    let p = plan(&[
        Item::new(V).write(x.clone()),
        Item::new(G).write(y.clone()),
        Item::new(D1).write(z.clone()),
        Item::new(S).read(x).read(y).read(z),
    ]);
    // One semaphore per producer queue, allocated in order of first need (producer order).
    assert_eq!(
        p.semaphores
            .iter()
            .map(|s| (s.queue, s.sem))
            .collect::<Vec<_>>(),
        vec![(V, 0), (G, 1), (D1, 2)]
    );
    // Two barriers on the consumer's queue, producers in order; the latest stays inline.
    assert_eq!(p.barrier_count(), 2);
    let tail = &p.items[3..];
    assert_eq!(
        tail[0],
        SyncItem::Barrier {
            queue: S,
            wait: wait(0, 1).unwrap(),
            waits_for: 0,
            consumer: 3
        }
    );
    assert_eq!(
        tail[1],
        SyncItem::Barrier {
            queue: S,
            wait: wait(1, 1).unwrap(),
            waits_for: 1,
            consumer: 3
        }
    );
    assert_eq!(
        tail[2],
        SyncItem::Item {
            index: 3,
            queue: S,
            sync: sync(wait(2, 1), None),
            waits_for: Some(2),
        }
    );
    assert_eq!(p.waits.edge_count(), 3);
}

#[test]
fn fan_in_covered_by_one_producer_needs_one_wait() {
    let (x, y, z) = (sbr(0..1, 0..16), sbr(1..2, 0..16), sbr(2..3, 0..16));
    // D conflicts with A (V), B (G) and C (Dma0); C waited for B and B for A.
    let p = plan(&[
        Item::new(V).write(x.clone()),
        Item::new(G).read(x.clone()).write(y.clone()),
        Item::new(D0).read(y.clone()).write(z.clone()),
        Item::new(T).read(x).read(y).read(z),
    ]);
    assert_eq!(p.hazards.edge_count(), 5);
    assert_eq!(p.barrier_count(), 0);
    assert_eq!(p.sync_info(3).unwrap().wait, wait(2, 1));
    assert_eq!(p.waits.edge_count(), 3);
}

// ---------------------------------------------------------------- errors

#[test]
fn exhaustion_names_the_queue_and_item() {
    let (x, y) = (sbr(0..1, 0..16), sbr(1..2, 0..16));
    let items = [
        Item::new(V).write(x.clone()),
        Item::new(G).write(y.clone()),
        Item::new(S).read(x).read(y),
    ];
    let opts = SyncOptions {
        first_semaphore: 10,
        max_semaphores: 1,
        ..SyncOptions::default()
    };
    let e = assign_sync(&items, &opts).unwrap_err();
    assert_eq!(
        e,
        SyncError::SemaphoresExhausted {
            queue: G,
            consumer: 2,
            producer: 1,
            first: 10,
            max: 1
        }
    );
    assert_eq!(
        e.to_string(),
        "semaphores exhausted: queue GpSimd needs a semaphore because item 2 waits on item 1, \
         but all 1 semaphores from index 10 are taken by other queues"
    );
    // With two the plan fits, from index 10 on.
    let p = assign_sync(
        &items,
        &SyncOptions {
            max_semaphores: 2,
            ..opts
        },
    )
    .unwrap();
    assert_eq!(
        p.semaphores.iter().map(|s| s.sem).collect::<Vec<_>>(),
        [10, 11]
    );
    // Zero semaphores with nothing to wait for is fine.
    let none = SyncOptions {
        max_semaphores: 0,
        ..opts
    };
    assert!(assign_sync(&items[..2], &none).is_ok());
}

#[test]
fn semaphore_range_must_exist() {
    let e = assign_sync(
        &[],
        &SyncOptions {
            first_semaphore: 200,
            max_semaphores: 57,
            ..SyncOptions::default()
        },
    )
    .unwrap_err();
    assert_eq!(
        e,
        SyncError::BadSemaphoreRange {
            first: 200,
            max: 57
        }
    );
    assert_eq!(
        e.to_string(),
        "semaphore range 200..257 passes the 256 semaphores of a NeuronCore"
    );
    let ok = SyncOptions {
        first_semaphore: 200,
        max_semaphores: 56,
        ..SyncOptions::default()
    };
    assert!(assign_sync(&[], &ok).is_ok());
}

#[test]
fn count_overflow_is_an_error() {
    let items: Vec<Item> = (0..3u32)
        .flat_map(|k| {
            let r = sbr(k..k + 1, 0..16);
            [Item::new(V).write(r.clone()), Item::new(G).read(r)]
        })
        .collect();
    let opts = SyncOptions {
        max_count: 2,
        ..SyncOptions::default()
    };
    let e = assign_sync(&items, &opts).unwrap_err();
    assert_eq!(
        e,
        SyncError::CountOverflow {
            queue: V,
            item: 4,
            limit: 2
        }
    );
    assert_eq!(
        e.to_string(),
        "semaphore count of queue Vector overflows at item 4: more than 2 signals"
    );
    let p = assign_sync(
        &items,
        &SyncOptions {
            max_count: 3,
            ..opts
        },
    )
    .unwrap();
    assert_eq!(p.semaphores[0].signals, 3);
    assert_eq!(SyncOptions::default().max_count, i32::MAX as u32);
}

#[test]
fn too_many_queue_cells_is_an_error() {
    // 256 DMA queues plus Vector: 257 queues; 65282 items x 257 passes 2^24.
    let n = MAX_CLOCK_CELLS / 257 + 1;
    let items: Vec<Item> = (0..n)
        .map(|k| match k {
            0..=255 => Item::new(Queue::dma(k as u8)),
            _ => Item::new(V),
        })
        .collect();
    let e = assign_sync(&items, &SyncOptions::default()).unwrap_err();
    assert_eq!(
        e,
        SyncError::TooManyQueues {
            items: n,
            queues: 257
        }
    );
    assert_eq!(
        e.to_string(),
        format!(
            "program has {n} items on 257 queues; the vector clocks (items x queues) may hold \
             at most {MAX_CLOCK_CELLS} cells"
        )
    );
}

/// Past the old caps (65536 items, 2^20 hazards): 100,001 items alternating between two
/// queues on one byte, so that every item conflicts with every earlier item of the other queue
/// (2.5e9 conflicting pairs). Each item waits for the previous one only, one wait per item.
#[test]
fn a_long_alternating_program_synchronises() {
    let r = sbr(0..1, 0..1);
    let n = 100_001;
    let items: Vec<Item> = (0..n)
        .map(|k| Item::new(if k % 2 == 0 { V } else { G }).write(r.clone()))
        .collect();
    let p = plan(&items);
    assert_eq!(p.hazards.edge_count(), n - 1);
    assert_eq!(p.waits.edge_count(), n - 1);
    assert_eq!(p.barrier_count(), 0);
    // Item k waits for item k - 1, whose rank among its queue's signallers (every item but
    // the last signals) is (k - 1) / 2 + 1.
    for k in [1usize, 2, 3, 50_000, 100_000] {
        let w = p.sync_info(k).unwrap().wait.expect("waits");
        assert_eq!(w.value as usize, (k - 1) / 2 + 1, "{k}");
    }
    assert!(p.sync_info(0).unwrap().wait.is_none());
}

/// Partition ranges that cut SBUF into many bands, each region covering most of them: the
/// interval index would pass its bound, which is an error naming the cause.
#[test]
fn too_many_index_entries_is_an_error() {
    // Regions [k, 12000) for k in 0..12000: 12000 bands, region k covers 12000 - k of them;
    // two queues (one consumer queue each): 7.2e7 entries in all, past 2^26 = 6.7e7.
    let items: Vec<Item> = (0..12_000u32)
        .map(|k| Item::new(if k % 2 == 0 { V } else { G }).write(sbr(k..12_000, 0..4)))
        .collect();
    let e = assign_sync(&items, &SyncOptions::default()).unwrap_err();
    let SyncError::TooManyIndexEntries {
        entries,
        sbuf_bands,
        psum_bands,
    } = e.clone()
    else {
        panic!("{e:?}")
    };
    assert!(entries > MAX_INDEX_ENTRIES);
    assert_eq!((sbuf_bands, psum_bands), (12_000, 0));
    assert_eq!(
        e.to_string(),
        format!(
            "program's regions make {entries} interval-index entries (regions x partition bands \
             covered x consumer queues; its partition ranges cut SBUF into 12000 and PSUM into 0 \
             bands); at most {MAX_INDEX_ENTRIES}"
        )
    );
}

#[test]
fn instruction_engine_must_match_the_queue() {
    let inst = rsel(|_| {});
    let e = assign_sync(&[Item::new(G).with_inst(&inst)], &SyncOptions::default()).unwrap_err();
    assert_eq!(
        e,
        SyncError::EngineMismatch {
            item: 0,
            queue: G,
            engine: Engine::Vector
        }
    );
    assert_eq!(
        e.to_string(),
        "item 0 is on queue GpSimd but its instruction is for engine Vector"
    );
}

#[test]
fn instruction_must_not_carry_sync() {
    let inst = rsel(|_| {}).with_sync(sync(None, inc(3)));
    let items = [Item::new(V), Item::new(V).with_inst(&inst)];
    let e = assign_sync(&items, &SyncOptions::default()).unwrap_err();
    assert_eq!(e, SyncError::AlreadySynced { item: 1 });
    assert_eq!(
        e.to_string(),
        "item 1's instruction already carries sync; this pass owns the EVENTS band"
    );
}

/// An EventSemaphore item gets its wait and update in its op fields (its encoder refuses
/// instruction sync), and encodes; one that already waits or signals is refused, as an
/// instruction with sync is.
#[test]
fn event_semaphore_items_are_stamped_in_their_fields() {
    let x = sbr(0..1, 0..16);
    let empty = Instruction {
        engine: Engine::GpSimd,
        ..Instruction::new(Op::EventSemaphore(EventSemaphore {
            wait0: None,
            wait1: None,
            update: None,
        }))
    };
    let items = [
        Item::new(V).write(x.clone()),
        Item::new(G).read(x.clone()).with_inst(&empty),
        Item::new(S).write(x),
    ];
    let p = plan(&items);
    let got = stamped(&p, &items, 1);
    assert_eq!(got.sync, SyncInfo::default());
    assert_eq!(
        got.op,
        Op::EventSemaphore(EventSemaphore {
            wait0: wait(0, 1),
            wait1: None,
            update: inc(1),
        })
    );
    let b = generate_vec(&got, Target::Cayman.model()).expect("encodes");
    assert_eq!(b[0][0], 0xa0);
    let taken = Instruction {
        op: Op::EventSemaphore(EventSemaphore {
            wait0: None,
            wait1: None,
            update: inc(7),
        }),
        ..empty
    };
    let e = assign_sync(&[Item::new(G).with_inst(&taken)], &SyncOptions::default()).unwrap_err();
    assert_eq!(e, SyncError::AlreadySynced { item: 0 });
}

// ---------------------------------------------------------------- into bundles

fn dropout_inst() -> Instruction {
    Instruction::new(Op::Dropout(Dropout {
        src: sb(0, 0x100, 64, 128, Bfloat16),
        dst: sb(64, 0x100, 64, 128, Bfloat16),
        threshold_imm_ptr: 5,
        threshold_dtype: Float32,
        rng_mode: 1,
        rng_seed: None,
    }))
}

/// The instruction of input item `index` of `items` with the band the plan stamps on it.
fn stamped(p: &SyncPlan, items: &[Item<'_>], index: usize) -> Instruction {
    p.items
        .iter()
        .find_map(|e| match e {
            SyncItem::Item { index: i, .. } if *i == index => e.stamped(items),
            _ => None,
        })
        .expect("stamped instruction")
}

/// A Dma0 producer, the instruction on Vector (waits on Dma0, signals), a Dma1 consumer: the
/// instruction's band holds a wait and an inc update at once. Returns the stamped instruction.
fn chain_through(inst: Instruction) -> Instruction {
    let (x, y) = (sbr(0..64, 0x100..0x200), sbr(64..128, 0x100..0x200));
    let items = [
        Item::new(D0).write(x.clone()),
        Item::new(V).read(x).write(y.clone()).with_inst(&inst),
        Item::new(D1).read(y),
    ];
    stamped(&plan(&items), &items, 1)
}

#[test]
fn wait_and_inc_share_one_bundle_band() {
    let inst = chain_through(dropout_inst());
    assert_eq!(inst.sync, sync(wait(0, 1), inc(1)));
    let b = generate_vec(&inst, Target::Sunda.model()).expect("encodes");
    assert_eq!(b.len(), 1);
    // EVENTS (bundle-layouts §3b/§3c): +4 wait GE_IMM 0x05, +5 sem 0, +6 update INC 0x13,
    // +7 sem 1, +8 u32 threshold 1 (inc writes no operand).
    assert_eq!(to_hex(&b[0][4..12]), "0500130101000000");
    let lifted = decode_instructions(b.as_flattened(), Target::Sunda.model()).expect("lifts");
    assert_eq!(lifted[0].sync, inst.sync);
}

#[test]
fn multi_bundle_sequence_waits_first_updates_last() {
    let inst = chain_through(rsel(|_| {}));
    assert_eq!(inst.sync, sync(wait(0, 1), inc(1)));
    let b = generate_vec(&inst, Target::Cayman.model()).expect("encodes");
    assert_eq!(b.len(), 2);
    // First bundle (0xBC): the wait only; last (0x9B): the update only, dword untouched.
    assert_eq!(to_hex(&b[0][4..12]), "0500000001000000");
    assert_eq!(to_hex(&b[1][4..12]), "0000130100000000");
}

// ---------------------------------------------------------------- the property

/// splitmix64: a small deterministic generator for the seeded loop.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const QUEUES: [Queue; 7] = [V, G, S, T, D0, D1, Queue::dma(2)];

/// A small address space so that regions overlap often; about one range in eight is empty.
fn random_region(rng: &mut Rng) -> Region {
    fn range(rng: &mut Rng, k: u64, unit: u64) -> (u64, u64) {
        let a = rng.below(k) * unit;
        let b = rng.below(k + 1) * unit;
        (a, b.max(a + unit * u64::from(rng.below(8) != 0)))
    }
    match rng.below(3) {
        0 | 1 => {
            let (p0, p1) = range(rng, 6, 1);
            let (b0, b1) = range(rng, 8, 16);
            let space = if rng.below(4) == 0 {
                Space::Psum
            } else {
                Space::Sbuf
            };
            Region::OnChip {
                space,
                partitions: p0 as u32..p1 as u32,
                bytes: b0 as u32..b1 as u32,
            }
        }
        _ => {
            let t = rng.below(3) as u32;
            let (b0, b1) = range(rng, 8, 32);
            Region::hbm(t, b0..b1)
        }
    }
}

fn random_program(rng: &mut Rng) -> Vec<Item<'static>> {
    let n = 1 + rng.below(60) as usize;
    let nq = 1 + rng.below(QUEUES.len() as u64) as usize;
    (0..n)
        .map(|_| {
            let mut it = Item::new(QUEUES[rng.below(nq as u64) as usize]);
            for _ in 0..rng.below(3) {
                it = it.read(random_region(rng));
            }
            for _ in 0..rng.below(3) {
                it = it.write(random_region(rng));
            }
            it
        })
        .collect()
}

/// The test's own overlap test (interval intersection by max/min), independent of `Region`.
fn meets(a: &Region, b: &Region) -> bool {
    fn iv<T: Ord + Copy>(a: &Range<T>, b: &Range<T>) -> bool {
        a.start.max(b.start) < a.end.min(b.end)
    }
    match (a, b) {
        (
            Region::OnChip {
                space: s,
                partitions: p,
                bytes: x,
            },
            Region::OnChip {
                space: t,
                partitions: q,
                bytes: y,
            },
        ) => s == t && iv(p, q) && iv(x, y),
        (
            Region::Hbm {
                tensor: s,
                bytes: x,
            },
            Region::Hbm {
                tensor: t,
                bytes: y,
            },
        ) => s == t && iv(x, y),
        _ => false,
    }
}

/// The oracle: every (earlier, later) pair on different queues that conflicts.
fn conflicts(items: &[Item]) -> BTreeSet<(usize, usize)> {
    let any = |xs: &[Region], ys: &[Region]| xs.iter().any(|x| ys.iter().any(|y| meets(x, y)));
    let mut out = BTreeSet::new();
    for j in 0..items.len() {
        for i in 0..j {
            let (a, b) = (&items[i], &items[j]);
            if a.queue != b.queue
                && (any(&a.writes, &b.reads)
                    || any(&a.reads, &b.writes)
                    || any(&a.writes, &b.writes))
            {
                out.insert((i, j));
            }
        }
    }
    out
}

/// Runs the plan: each queue in order, one item in flight per queue, an entry starting only when
/// its wait holds and applying its update on completion; the next action (start a ready queue's
/// next entry, or complete an in-flight one) is picked at random. Fails if an item starts before
/// a conflicting earlier item has completed, or if nothing can move before everything is done.
fn simulate(items: &[Item], plan: &SyncPlan, bad: &BTreeSet<(usize, usize)>, rng: &mut Rng) {
    let mut lanes: HashMap<Queue, Vec<&SyncItem>> = HashMap::new();
    for e in &plan.items {
        lanes.entry(e.queue()).or_default().push(e);
    }
    let mut lanes: Vec<Vec<&SyncItem>> = lanes.into_values().collect();
    lanes.sort_by_key(|l| l.first().map(|e| e.queue().to_string()));
    let mut next = vec![0usize; lanes.len()];
    let mut flying: Vec<Option<&SyncItem>> = vec![None; lanes.len()];
    let mut done = vec![false; items.len()];
    let mut sems = [0u64; 256];
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); items.len()];
    for &(i, j) in bad {
        preds[j].push(i);
    }
    loop {
        let mut moves = Vec::new();
        for (q, lane) in lanes.iter().enumerate() {
            if flying[q].is_some() {
                moves.push((q, false));
            } else if let Some(e) = lane.get(next[q]) {
                let ready = match e.wait() {
                    None => true,
                    Some(w) => {
                        assert_eq!(w.mode, BirWaitMode::SemGeImm);
                        sems[w.sem as usize] >= u64::from(w.value)
                    }
                };
                if ready {
                    moves.push((q, true));
                }
            }
        }
        if moves.is_empty() {
            assert!(
                next.iter().zip(&lanes).all(|(n, l)| *n == l.len()),
                "deadlock: queues stuck at {next:?}"
            );
            return;
        }
        let (q, start) = moves[rng.below(moves.len() as u64) as usize];
        if start {
            let e = lanes[q][next[q]];
            next[q] += 1;
            if let SyncItem::Item { index, .. } = e {
                for &i in &preds[*index] {
                    assert!(done[i], "item {index} started before item {i} completed");
                }
            }
            flying[q] = Some(e);
        } else if let Some(e) = flying[q].take() {
            if let SyncItem::Item { index, .. } = e {
                done[*index] = true;
            }
            if let Some(u) = e.update() {
                assert_eq!(u.mode, BirUpdateMode::SemInc);
                sems[u.sem as usize] += 1;
            }
        }
    }
}

/// Structural checks: the hazard graph is the oracle's, and the plan is minimal in every way
/// stated in the module docs.
fn check_plan(items: &[Item], plan: &SyncPlan, bad: &BTreeSet<(usize, usize)>) {
    let n = items.len();
    let got: BTreeSet<(usize, usize)> = edges(plan).iter().map(|e| (e.0, e.1)).collect();
    for (i, j, h) in edges(plan) {
        assert_eq!(h, Hazards::between(&items[i], &items[j]));
        assert!(!h.is_empty());
    }
    // The hazard graph: for each item j and other queue q, the latest item of q that j
    // conflicts with (by the oracle), unless j's queue is already ordered after it, i.e. it
    // reaches j's queue predecessor through (waits + queue order).
    let mut order: DiGraph<(), ()> = DiGraph::new();
    for _ in 0..n {
        order.add_node(());
    }
    for e in plan.waits.edge_references() {
        order.add_edge(e.source(), e.target(), ());
    }
    let mut prev: Vec<Option<usize>> = vec![None; n];
    let mut last: HashMap<Queue, usize> = HashMap::new();
    for (j, it) in items.iter().enumerate() {
        if let Some(i) = last.insert(it.queue, j) {
            order.add_edge(NodeIndex::new(i), NodeIndex::new(j), ());
            prev[j] = Some(i);
        }
    }
    let mut want_hazards = BTreeSet::new();
    for (j, before) in prev.iter().enumerate() {
        let mut latest: HashMap<Queue, usize> = HashMap::new();
        for &(i, jj) in bad.iter().filter(|e| e.1 == j) {
            debug_assert_eq!(jj, j);
            let l = latest.entry(items[i].queue).or_insert(i);
            *l = (*l).max(i);
        }
        for &i in latest.values() {
            let covered = before.is_some_and(|p| {
                petgraph::algo::has_path_connecting(
                    &order,
                    NodeIndex::new(i),
                    NodeIndex::new(p),
                    None,
                )
            });
            if !covered {
                want_hazards.insert((i, j));
            }
        }
    }
    assert_eq!(got, want_hazards, "hazard graph");

    // The waits are exactly the cross-queue edges of the transitive reduction of
    // (hazards + queue order), computed here by petgraph.
    let mut g: DiGraph<(), ()> = DiGraph::new();
    for _ in 0..n {
        g.add_node(());
    }
    for &(i, j) in bad {
        g.add_edge(NodeIndex::new(i), NodeIndex::new(j), ());
    }
    let mut last: HashMap<Queue, usize> = HashMap::new();
    for (j, it) in items.iter().enumerate() {
        if let Some(i) = last.insert(it.queue, j) {
            g.add_edge(NodeIndex::new(i), NodeIndex::new(j), ());
        }
    }
    let order: Vec<NodeIndex> = (0..n).map(NodeIndex::new).collect();
    let (adj, revmap) = dag_to_toposorted_adjacency_list::<_, u32>(&g, &order);
    let (red, _) = dag_transitive_reduction_closure(&adj);
    let mut want = BTreeSet::new();
    for (a, &ra) in revmap.iter().enumerate() {
        for b in (&red).neighbors(ra) {
            let (i, j) = (a, order[b as usize].index());
            if items[i].queue != items[j].queue {
                want.insert((i, j));
            }
        }
    }
    let kept: BTreeSet<(usize, usize)> = plan
        .waits
        .edge_references()
        .map(|e| (e.source().index(), e.target().index()))
        .collect();
    assert_eq!(
        kept, want,
        "waits == cross-queue edges of the transitive reduction"
    );
    assert_eq!(kept.len(), plan.waits.edge_count());
    // One band wait per item: every wait past the first into an item is one barrier.
    let extra: usize = (0..n)
        .map(|j| {
            let into = plan
                .waits
                .edges_directed(NodeIndex::new(j), petgraph::Direction::Incoming)
                .count();
            into.saturating_sub(1)
        })
        .sum();
    assert_eq!(plan.barrier_count(), extra);

    // Entries: every input once, in order; barriers sit right before their consumer.
    let mut has_dep = vec![false; n];
    for &(_, j) in bad {
        has_dep[j] = true;
    }
    let mut waited: BTreeSet<usize> = BTreeSet::new();
    let mut seen = 0;
    let mut pending: Vec<(usize, SyncWait)> = Vec::new();
    for e in &plan.items {
        match e {
            SyncItem::Barrier {
                queue,
                wait,
                waits_for,
                consumer,
            } => {
                assert_eq!(*consumer, seen);
                assert_eq!(*queue, items[seen].queue);
                waited.insert(*waits_for);
                pending.push((*waits_for, *wait));
            }
            SyncItem::Item {
                index,
                queue,
                sync,
                waits_for,
            } => {
                assert_eq!((*index, *queue), (seen, items[seen].queue));
                assert_eq!(e.stamped(items), None);
                assert_eq!(sync.wait.is_some(), waits_for.is_some());
                // No wait at all on an item with no cross-queue dependency.
                if !has_dep[seen] {
                    assert!(sync.wait.is_none() && pending.is_empty(), "item {seen}");
                }
                if let (Some(t), Some(w)) = (waits_for, sync.wait) {
                    waited.insert(*t);
                    pending.push((*t, w));
                }
                // At most one wait per producer queue, each on that queue's semaphore, for a
                // count between 1 and what the queue signals in all.
                let mut sems_used = BTreeSet::new();
                for (t, w) in pending.drain(..) {
                    assert!(t < seen);
                    let s = plan
                        .semaphores
                        .iter()
                        .find(|s| s.queue == items[t].queue)
                        .expect("producer queue has a semaphore");
                    assert_eq!((w.mode, w.sem), (BirWaitMode::SemGeImm, s.sem));
                    assert!(w.value >= 1 && w.value <= s.signals);
                    assert!(sems_used.insert(w.sem), "two waits on one semaphore");
                }
                seen += 1;
            }
            // Right after its signaller, on its queue, which carries no update itself.
            SyncItem::Signal {
                queue, signaller, ..
            } => {
                assert_eq!(*signaller + 1, seen);
                assert_eq!(*queue, items[*signaller].queue);
                assert!(plan.sync_info(*signaller).unwrap().update.is_none());
            }
        }
    }
    assert_eq!(seen, n);

    // Updates exactly on the items someone waits on; one semaphore per queue waited on, whose
    // signal count is its number of updates.
    for j in 0..n {
        let u = plan.update_of(j);
        assert_eq!(u.is_some(), waited.contains(&j), "update on item {j}");
    }
    let waited_queues: BTreeSet<String> =
        waited.iter().map(|&t| items[t].queue.to_string()).collect();
    let sem_queues: BTreeSet<String> = plan
        .semaphores
        .iter()
        .map(|s| s.queue.to_string())
        .collect();
    assert_eq!(waited_queues, sem_queues);
    assert_eq!(sem_queues.len(), plan.semaphores.len());
    let mut ups = [0u32; 256];
    for j in 0..n {
        if let Some(u) = plan.update_of(j) {
            ups[u.sem as usize] += 1;
        }
    }
    for s in &plan.semaphores {
        assert_eq!(ups[s.sem as usize], s.signals);
    }
}

fn check_program(items: &[Item], rng: &mut Rng) {
    let plan = plan(items);
    let bad = conflicts(items);
    check_plan(items, &plan, &bad);
    simulate(items, &plan, &bad, rng);
}

#[test]
fn random_programs_are_safe_minimal_and_deadlock_free() {
    let mut rng = Rng(0x5eed_f05c_c0de);
    for _ in 0..10_000 {
        let items = random_program(&mut rng);
        check_program(&items, &mut rng);
    }
}

fn region_strategy() -> impl Strategy<Value = Region> {
    prop_oneof![
        (any::<bool>(), 0u32..6, 0u32..7, 0u32..8, 0u32..9).prop_map(|(ps, p0, p1, b0, b1)| {
            let space = if ps { Space::Psum } else { Space::Sbuf };
            Region::OnChip {
                space,
                partitions: p0..p1,
                bytes: b0 * 16..b1 * 16,
            }
        }),
        (0u32..3, 0u64..8, 0u64..9).prop_map(|(t, b0, b1)| Region::hbm(t, b0 * 32..b1 * 32)),
    ]
}

fn item_strategy() -> impl Strategy<Value = Item<'static>> {
    (
        0..QUEUES.len(),
        prop::collection::vec(region_strategy(), 0..3),
        prop::collection::vec(region_strategy(), 0..3),
    )
        .prop_map(|(q, reads, writes)| Item {
            queue: QUEUES[q],
            reads,
            writes,
            inst: None,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The same property with shrinking: a failure reduces to a small program.
    #[test]
    fn shrinking_random_programs(items in prop::collection::vec(item_strategy(), 1..60), seed: u64) {
        check_program(&items, &mut Rng(seed));
    }
}

/// A segment tree per written band, one lane per queue: 257 queues (256 DMA queues and
/// Vector) writing one byte each of one SBUF band, 4097 distinct bytes in all, cut the band
/// into 8193 segments; padded to 16384 leaves, two nodes a leaf, 257 lanes a node: 8421376
/// cells, past 2^23 = 8388608. Clocks (4097 x 257) and entries (4097 x 256) stay in bounds.
#[test]
fn too_large_index_trees_are_an_error() {
    let items: Vec<Item> = (0..4097u32)
        .map(|k| {
            let q = if k < 256 { Queue::dma(k as u8) } else { V };
            Item::new(q).write(sbr(0..1, 2 * k..2 * k + 1))
        })
        .collect();
    let e = assign_sync(&items, &SyncOptions::default()).unwrap_err();
    assert_eq!(
        e,
        SyncError::IndexTooLarge {
            cells: 8_421_376,
            band: 0,
            segments: 8193
        }
    );
    const { assert!(8_421_376 > MAX_INDEX_CELLS) };
    assert_eq!(
        e.to_string(),
        format!(
            "program's regions make 8421376 interval-index cells (at band 0, which its regions' \
             byte ranges cut into 8193 segments: bands x segments x queues); at most \
             {MAX_INDEX_CELLS}"
        )
    );
}

/// The MATMUL bundle has no sync band (the encoder refuses an update on it): a Matmul that
/// is waited on keeps its wait inline and signals through a `SyncItem::Signal` right after
/// it on its queue, whose EventSemaphore encodes; the simulator honours it.
#[test]
fn matmul_signals_through_a_standalone_update() {
    use common::pe_dma::{mm, mmx};
    for (inst, target) in [(mm(|_| {}), Target::Sunda), (mmx(|_| {}), Target::Mariana)] {
        let inst = inst.with_sync(SyncInfo::default());
        let (x, bank) = (sbr(0..64, 0x100..0x300), Region::psum(0..32, 0..0x200));
        let items = vec![
            Item::new(D0).write(x.clone()),
            Item::new(T).read(x).write(bank.clone()).with_inst(&inst),
            Item::new(S).read(bank),
        ];
        let p = plan(&items);
        assert_eq!(p.items.len(), 4);
        assert_eq!(p.signal_count(), 1);
        assert_eq!(p.barrier_count(), 0);
        // The matmul: its wait on Dma0 inline, no update in its band.
        assert_eq!(p.sync_info(1), Some(sync(wait(0, 1), None)));
        assert_eq!(
            p.items[2],
            SyncItem::Signal {
                queue: T,
                update: inc(1).unwrap(),
                signaller: 1
            }
        );
        assert_eq!(p.update_of(1), inc(1));
        assert_eq!(p.sync_info(2), Some(sync(wait(1, 1), None)));
        assert_eq!(p.items[2].wait(), None);
        assert_eq!(p.items[2].update(), inc(1));
        // Both encode: the stamped matmul (its update refused, `MatmulSyncUpdate`, had it
        // stayed), and the signal as an EventSemaphore carrying only the update.
        let arch = target.model();
        let m = stamped(&p, &items, 1);
        assert_eq!(m.sync, sync(wait(0, 1), None));
        generate_vec(&m, arch).expect("the stamped matmul encodes");
        assert_eq!(
            generate_vec(&m.clone().with_sync(sync(wait(0, 1), inc(1))), arch).unwrap_err(),
            sundial_codegen::EncodeError::MatmulSyncUpdate
        );
        let ev = p.items[2].event().expect("a signal is an event");
        assert_eq!(ev.engine, Engine::Tensor);
        assert_eq!(
            ev.op,
            Op::EventSemaphore(EventSemaphore {
                wait0: None,
                wait1: None,
                update: inc(1)
            })
        );
        let b = generate_vec(&ev, arch).expect("the signal encodes");
        let lifted = decode_instructions(b.as_flattened(), arch).expect("lifts");
        assert_eq!(lifted[0].op, ev.op);
        assert_eq!(p.items[1].event(), None);
        // Run by the simulator: S never starts before the matmul completed.
        let bad = conflicts(&items);
        let mut rng = Rng(7);
        for _ in 0..100 {
            simulate(&items, &p, &bad, &mut rng);
        }
    }
    // A matmul nobody waits on gets no signal.
    let lone = mm(|_| {}).with_sync(SyncInfo::default());
    let items = vec![Item::new(T).with_inst(&lone)];
    let p = plan(&items);
    assert_eq!((p.items.len(), p.signal_count()), (1, 0));
}

/// A barrier's event carries its wait, on the consumer's engine.
#[test]
fn barrier_event_carries_its_wait() {
    let b = SyncItem::Barrier {
        queue: S,
        wait: wait(3, 2).unwrap(),
        waits_for: 0,
        consumer: 1,
    };
    let ev = b.event().unwrap();
    assert_eq!((ev.engine, ev.sync), (Engine::Scalar, SyncInfo::default()));
    assert_eq!(
        ev.op,
        Op::EventSemaphore(EventSemaphore {
            wait0: wait(3, 2),
            wait1: None,
            update: None
        })
    );
}
