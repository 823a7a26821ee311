//! From a selected kernel to bundles: lowering of every BIR op ([`crate::lower`]), engine
//! ordering by codegen's sync pass (`sundial_codegen::sync::assign_sync`: semaphore waits and
//! updates in each bundle's EVENTS band, a standalone EventSemaphore 0xA0 wait where an
//! instruction depends on more than one other queue, and an EventSemaphore update after a
//! matmul, whose MATMUL bundle has no band), encoding, and validation.
//!
//! The phases are separate functions so that a driver can time each: [`lower_function`],
//! [`synchronise`], [`encode`], [`validate`].
//!
//! Checks on the way, each an error rather than a silent difference:
//! - every op of the kernel body is a BIR op (selection ran and left no NISA op);
//! - the bundles an instruction encodes to carry exactly the opcodes selection chose for its
//!   BIR op (the ISA table and the encoders agree);
//! - every bundle passes `run_isa_checks` (the validators' named rules), on top of the ISA
//!   check that encoding itself runs.

use crate::lower::{Lowered, is_bir, lower_op};
use melior::ir::{
    BlockLike, RegionLike,
    operation::{OperationLike, OperationRef},
};
use sundial_codegen::{
    Bundle,
    arch::ArchModel,
    bundle::MAX_BUNDLES_PER_INSTRUCTION,
    bundle_count, generate_append,
    model::{Engine, EventSemaphore, Instruction, Op, SyncInfo},
    run_isa_checks,
    sync::{Item, Queue, SyncItem, SyncOptions, assign_sync},
};
use sundial_passes::rewrite::refuse;

/// Lowers every op of `func`'s body; an op that cannot be lowered is an error at the op
/// (every one is reported). `Err` carries how many failed.
pub fn lower_function<'c, 'a>(
    func: OperationRef<'c, 'a>,
    arch: &ArchModel,
) -> Result<Vec<Lowered<'c, 'a>>, usize> {
    let Some(block) = func.region(0).ok().and_then(|r| r.first_block()) else {
        return Ok(Vec::new());
    };
    // Sized once: a `Lowered` holds a whole instruction, and growing by doubling copied a big
    // kernel's several times.
    let mut count = 0usize;
    let mut cursor = block.first_operation();
    while let Some(op) = cursor {
        count += 1;
        cursor = op.next_in_block();
    }
    let mut out = Vec::with_capacity(count);
    let mut failed = 0usize;
    let mut cursor = block.first_operation();
    while let Some(op) = cursor {
        cursor = op.next_in_block();
        // Re-bound to the function's lifetimes: the ops live as long as its body.
        let op: OperationRef<'c, 'a> = unsafe { OperationRef::from_raw(op.to_raw()) };
        let name = crate::ir::op_name(&op);
        if is_bir(&op) {
            match lower_op(op, arch) {
                Ok(l) => out.push(l),
                Err(msg) => {
                    refuse(&op, msg);
                    failed += 1;
                }
            }
        } else if name.starts_with("nisa.") {
            refuse(
                &op,
                "is not selected: the kernel reaches encoding as BIR only (run sundial-isel)",
            );
            failed += 1;
        } else if name != "func.return" {
            refuse(
                &op,
                "is not an instruction: a selected kernel body holds BIR ops and its return",
            );
            failed += 1;
        }
    }
    if failed == 0 { Ok(out) } else { Err(failed) }
}

/// One instruction in its queue's program order: the instruction (with its sync), the BIR op
/// it came from (`None` for an inserted wait).
#[derive(Clone, Debug)]
pub struct Scheduled {
    /// The queue.
    pub queue: Queue,
    /// The instruction, sync stamped.
    pub inst: Instruction,
    /// The index of the lowered BIR op, if it is one.
    pub origin: Option<usize>,
}

/// Orders the engines: codegen's sync pass on the instructions in program order, each on its
/// engine's queue, with the regions each reads and writes; barriers become EventSemaphore
/// waits on the consumer's queue.
pub fn synchronise(lowered: &[Lowered<'_, '_>]) -> Result<Vec<Scheduled>, String> {
    // The items borrow the lowered instructions: the plan only says which band each gets, and
    // each is copied once, when it is stamped.
    let items: Vec<Item<'_>> = lowered
        .iter()
        .map(|l| Item {
            queue: Queue::of(l.inst.engine),
            reads: l.reads.clone(),
            writes: l.writes.clone(),
            inst: Some(&l.inst),
        })
        .collect();
    let plan = assign_sync(&items, &SyncOptions::default()).map_err(|e| e.to_string())?;
    let mut out = Vec::with_capacity(plan.items.len());
    for item in plan.items {
        match item {
            SyncItem::Item { index, queue, .. } => {
                let inst = item
                    .stamped(&items)
                    .ok_or("the sync plan lost an instruction")?;
                out.push(Scheduled {
                    queue,
                    inst,
                    origin: Some(index),
                });
            }
            // The update of a matmul (whose MATMUL bundle has no sync band, conflict #8), as
            // an EventSemaphore right after it on its queue.
            SyncItem::Signal { queue, update, .. } => out.push(Scheduled {
                queue,
                inst: Instruction {
                    id: 0,
                    engine: queue.engine(),
                    sync: SyncInfo::default(),
                    op: Op::EventSemaphore(EventSemaphore {
                        wait0: None,
                        wait1: None,
                        update: Some(update),
                    }),
                },
                origin: None,
            }),
            SyncItem::Barrier { queue, wait, .. } => out.push(Scheduled {
                queue,
                inst: Instruction {
                    id: 0,
                    engine: queue.engine(),
                    sync: SyncInfo::default(),
                    op: Op::EventSemaphore(EventSemaphore {
                        wait0: Some(wait),
                        wait1: None,
                        update: None,
                    }),
                },
                origin: None,
            }),
        }
    }
    Ok(out)
}

/// The code of one engine queue.
#[derive(Clone, Debug)]
pub struct QueueCode {
    /// The queue.
    pub queue: Queue,
    /// Its instructions, in order.
    pub instructions: Vec<Instruction>,
    /// For each instruction, the lowered BIR op it came from (`None`: an inserted wait).
    pub origins: Vec<Option<usize>>,
    /// Its bundles, in order.
    pub bundles: Vec<Bundle>,
}

impl QueueCode {
    /// The engine's name (`vector`, `dma`, ...): the stem of its `.bin` file.
    pub fn name(&self) -> String {
        match self.queue.engine() {
            Engine::Dma if self.queue.index() > 0 => format!("dma{}", self.queue.index()),
            e => e.name().to_string(),
        }
    }

    /// The bundles as one byte string (64 bytes each).
    pub fn bytes(&self) -> Vec<u8> {
        self.bundles.concat()
    }
}

/// An encoded program: one [`QueueCode`] per engine queue used, in engine order.
#[derive(Clone, Debug)]
pub struct Program {
    /// The queues.
    pub queues: Vec<QueueCode>,
}

/// Why encoding failed: the BIR op (index into the lowered ops) when one is to blame.
#[derive(Clone, Debug)]
pub struct EncodeFailure {
    /// The lowered op.
    pub origin: Option<usize>,
    /// The message.
    pub message: String,
}

/// Encodes every scheduled instruction on its queue and checks that the bundles of each
/// instruction from a BIR op carry the opcodes its selection chose. The instructions move
/// into the program.
pub fn encode(
    scheduled: Vec<Scheduled>,
    lowered: &[Lowered<'_, '_>],
    arch: &ArchModel,
) -> Result<Program, EncodeFailure> {
    // Each queue's sizes first, so that its vectors are allocated once: an `Instruction` is
    // large, and vectors of them grown by doubling copied a big kernel's several times.
    let mut queues: Vec<QueueCode> = Vec::new();
    let mut sizes: Vec<(usize, usize)> = Vec::new();
    let mut queue_of: Vec<usize> = Vec::with_capacity(scheduled.len());
    for s in &scheduled {
        let i = match queues.iter().position(|q| q.queue == s.queue) {
            Some(i) => i,
            None => {
                queues.push(QueueCode {
                    queue: s.queue,
                    instructions: Vec::new(),
                    origins: Vec::new(),
                    bundles: Vec::new(),
                });
                sizes.push((0, 0));
                queues.len() - 1
            }
        };
        // Capped per instruction by `generate_append`; here only a capacity hint.
        let bundles = bundle_count(&s.inst).min(MAX_BUNDLES_PER_INSTRUCTION);
        sizes[i] = (sizes[i].0 + 1, sizes[i].1.saturating_add(bundles));
        queue_of.push(i);
    }
    for (code, &(instructions, bundles)) in queues.iter_mut().zip(&sizes) {
        code.instructions.reserve_exact(instructions);
        code.origins.reserve_exact(instructions);
        // Only a hint: a total too large to reserve at once is not an error here (each
        // instruction's own growth is checked), and must not abort.
        let _ = code.bundles.try_reserve_exact(bundles);
    }
    for (s, i) in scheduled.into_iter().zip(queue_of) {
        let code = &mut queues[i];
        let start = code.bundles.len();
        generate_append(&s.inst, arch, &mut code.bundles).map_err(|e| EncodeFailure {
            origin: s.origin,
            message: format!("cannot be encoded: {e}"),
        })?;
        let emitted = &code.bundles[start..];
        if let Some(l) = s.origin.and_then(|i| lowered.get(i))
            && !emitted.iter().map(|b| b[0]).eq(l.opcodes.iter().copied())
        {
            let hex = |o: &mut dyn Iterator<Item = u8>| {
                o.map(|x| format!("{x:#04x}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(EncodeFailure {
                origin: s.origin,
                message: format!(
                    "encodes to opcodes [{}] but selection chose [{}]: the ISA table and the encoder disagree",
                    hex(&mut emitted.iter().map(|b| b[0])),
                    hex(&mut l.opcodes.iter().copied())
                ),
            });
        }
        code.instructions.push(s.inst);
        code.origins.push(s.origin);
    }
    let rank = |q: &QueueCode| {
        (
            Engine::ALL
                .iter()
                .position(|&e| e == q.queue.engine())
                .unwrap_or(usize::MAX),
            q.queue.index(),
        )
    };
    queues.sort_by_key(rank);
    Ok(Program { queues })
}

/// Runs `run_isa_checks` on every instruction of every queue, bundles numbered per queue.
pub fn validate(program: &Program, arch: &ArchModel) -> Result<(), EncodeFailure> {
    for q in &program.queues {
        let mut index = 0usize;
        for (inst, origin) in q.instructions.iter().zip(&q.origins) {
            let diags = run_isa_checks(inst, arch, index).map_err(|e| EncodeFailure {
                origin: *origin,
                message: format!("cannot be encoded: {e}"),
            })?;
            if let Some(d) = diags.first() {
                return Err(EncodeFailure {
                    origin: *origin,
                    message: format!("{}.bin: {d}", q.name()),
                });
            }
            index += sundial_codegen::bundle_count(inst);
        }
    }
    Ok(())
}
