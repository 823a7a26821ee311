//! `sundial-emu-kernel-bench`: times the emulator's compute ops on the two kernels of
//! `benches/run_vs_numpy.py` (128 x 4096 fp32), through the emulator's API alone (no MLIR), in
//! release mode.
//!
//! The op sequences are the kernels' bodies as `sundial-run` executes them (through the fused
//! executor, `sundial_emu::fused`, as `sundial-run` runs a straight-line sequence of such
//! ops), with the uninitialised-read check on and the unallocated fill off, as `sundial-run`
//! sets them:
//!
//! - elementwise: two SBUF tiles allocated, two `dma_copy` loads, `tensor_tensor_arith` add,
//!   `tensor_scalar_arith` mult by 0.125, one `dma_copy` store;
//! - rmsnorm: `activation(square)` with its add reduction into `[128, 1]`, two
//!   `tensor_scalar_arith` (scale and eps, then rsqrt), a `tensor_scalar_arith` by the
//!   `[128, 1]` statistic and a `tensor_tensor_arith` by gamma (broadcast to every partition by
//!   a partition-step-0 view), then the store.
//!
//! Per kernel and phase (the allocations, then the ops), two figures (best of `--repeat` samples, in ns per element of the
//! 128 x 4096 tile):
//!
//! - cold: on a fresh [`Memory`] per sample, as one `sundial-run` process runs the kernel (the
//!   first touch of the SBUF pages, a page fault each, included);
//! - warm: the same sequence again on a memory that ran it before (on-chip allocators reset),
//!   which is the computation alone, as NumPy's best-of loop measures it.
//!
//! Only ratios within one run mean anything on a shared machine.

use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use sundial_emu::fused::{OwnedScalar, OwnedStage, RowOp, run_row_ops};
use sundial_emu::{
    AccEngine, Accumulators, ActivationFunc, AluOp, DType, Engine, Memory, ReduceCmd, Result,
    Target, View,
};

#[derive(Parser, Debug)]
#[command(
    name = "sundial-emu-kernel-bench",
    about = "Time the emulator's compute ops on the elementwise and rmsnorm kernels (128 x 4096 fp32)"
)]
struct Args {
    /// Timed samples per figure; the best is reported.
    #[arg(long, default_value_t = 9)]
    repeat: usize,
}

const P: usize = 128;
const F: usize = 4096;

/// The HBM arguments of a kernel, made once per memory.
struct Hbm {
    a: View,
    b: View,
    out: View,
}

fn inputs(mem: &mut Memory, gamma_row: bool) -> Result<Hbm> {
    let a: Vec<u8> = (0..P * F)
        .flat_map(|i| ((i % 977) as f32 * 0.002 - 1.0).to_le_bytes())
        .collect();
    let b_len = if gamma_row { F } else { P * F };
    let b: Vec<u8> = (0..b_len)
        .flat_map(|i| ((i % 613) as f32 * 0.001 + 0.5).to_le_bytes())
        .collect();
    let a = mem.alloc_hbm_from_bytes("a", DType::F32, &[P, F], &a)?;
    let b = if gamma_row {
        mem.alloc_hbm_from_bytes("gamma", DType::F32, &[1, F], &b)?
    } else {
        mem.alloc_hbm_from_bytes("b", DType::F32, &[P, F], &b)?
    };
    let out = mem.alloc_hbm_zeroed("out", DType::F32, &[P, F])?;
    Ok(Hbm { a, b, out })
}

fn fresh() -> Result<Memory> {
    let mut mem = Memory::new(Target::Mariana);
    mem.set_check_uninit(true)?;
    mem.set_fill_unallocated(false);
    Ok(mem)
}

/// The elementwise kernel's ops; adds each phase's time to `t`.
fn elementwise(mem: &mut Memory, acc: &mut Accumulators, h: &Hbm, t: &mut [f64]) -> Result<()> {
    let mut clock = Clock::new(t);
    let ta = mem.alloc_sbuf_named("a", DType::F32, &[P, F])?;
    let tb = mem.alloc_sbuf_named("b", DType::F32, &[P, F])?;
    clock.lap(0);
    let ops = [
        RowOp::DmaCopy {
            dst: ta.clone(),
            src: h.a.clone(),
        },
        RowOp::DmaCopy {
            dst: tb.clone(),
            src: h.b.clone(),
        },
        RowOp::TensorTensor {
            dst: ta.clone(),
            lhs: ta.clone(),
            rhs: tb.clone(),
            op: AluOp::Add,
            engine: Some(Engine::Vector),
        },
        RowOp::TensorScalar {
            dst: ta.clone(),
            data: ta.clone(),
            stage0: imm(AluOp::Mult, 0.125),
            stage1: None,
            engine: None,
        },
        RowOp::DmaCopy {
            dst: h.out.clone(),
            src: ta,
        },
    ];
    run_row_ops(mem, acc, &ops)?;
    clock.lap(1);
    Ok(())
}

/// A stage by an immediate.
fn imm(op: AluOp, v: f32) -> OwnedStage {
    OwnedStage {
        op,
        operand: Some(OwnedScalar::Imm(v)),
        reverse: false,
    }
}

/// The rmsnorm kernel's ops; adds each phase's time to `t`.
fn rmsnorm(mem: &mut Memory, acc: &mut Accumulators, h: &Hbm, t: &mut [f64]) -> Result<()> {
    let mut clock = Clock::new(t);
    let tx = mem.alloc_sbuf_named("x", DType::F32, &[P, F])?;
    let tg = mem.alloc_sbuf_named("gamma", DType::F32, &[P, F])?;
    let sq = mem.alloc_sbuf_named("squares", DType::F32, &[P, F])?;
    let ss = mem.alloc_sbuf_named("sum_sq", DType::F32, &[P, 1])?;
    let r = mem.alloc_sbuf_named("rstd", DType::F32, &[P, 1])?;
    clock.lap(0);
    let bg = View::new(h.b.alloc(), DType::F32, 0, vec![P, F], vec![0, 1])?;
    let ops = [
        RowOp::DmaCopy {
            dst: tx.clone(),
            src: h.a.clone(),
        },
        RowOp::DmaCopy {
            dst: tg.clone(),
            src: bg,
        },
        RowOp::Activation {
            dst: sq,
            data: tx.clone(),
            func: ActivationFunc::Square,
            scale: OwnedScalar::Imm(1.0),
            bias: None,
            reduce_op: Some(AluOp::Add),
            reduce_cmd: ReduceCmd::ResetReduce,
            reduce_res: Some(ss.clone()),
        },
        RowOp::TensorScalar {
            dst: r.clone(),
            data: ss,
            stage0: imm(AluOp::Mult, 1.0 / 4096.0),
            stage1: Some(imm(AluOp::Add, 1e-6)),
            engine: None,
        },
        RowOp::TensorScalar {
            dst: r.clone(),
            data: r.clone(),
            stage0: imm(AluOp::Rsqrt, 0.0),
            stage1: None,
            engine: None,
        },
        RowOp::TensorScalar {
            dst: tx.clone(),
            data: tx.clone(),
            stage0: OwnedStage {
                op: AluOp::Mult,
                operand: Some(OwnedScalar::Tile(r)),
                reverse: false,
            },
            stage1: None,
            engine: None,
        },
        RowOp::TensorTensor {
            dst: tx.clone(),
            lhs: tx.clone(),
            rhs: tg,
            op: AluOp::Mult,
            engine: Some(Engine::Vector),
        },
        RowOp::DmaCopy {
            dst: h.out.clone(),
            src: tx,
        },
    ];
    run_row_ops(mem, acc, &ops)?;
    clock.lap(1);
    let _ = acc.get(AccEngine::Scalar, 0);
    Ok(())
}

/// Splits a sample into phases.
struct Clock<'a> {
    t: &'a mut [f64],
    last: Instant,
}

impl<'a> Clock<'a> {
    fn new(t: &'a mut [f64]) -> Clock<'a> {
        Clock {
            t,
            last: Instant::now(),
        }
    }
    fn lap(&mut self, i: usize) {
        let now = Instant::now();
        self.t[i] = (now - self.last).as_secs_f64();
        self.last = now;
    }
}

/// Best-of per phase and of the total, over `repeat` samples of `sample`.
fn best(
    repeat: usize,
    n: usize,
    mut sample: impl FnMut(&mut [f64]) -> Result<()>,
) -> Result<Vec<f64>> {
    let mut best = vec![f64::INFINITY; n + 1];
    let mut t = vec![0.0; n];
    for _ in 0..repeat.max(1) {
        sample(&mut t)?;
        for (b, &x) in best.iter_mut().zip(&t) {
            *b = b.min(x);
        }
        best[n] = best[n].min(t.iter().sum());
    }
    Ok(best)
}

fn report(name: &str, phases: &[&str], cold: &[f64], warm: &[f64]) {
    let per = |s: f64| s * 1e9 / (P * F) as f64;
    println!(
        "{name}: {} elements; ns per element (best of samples)",
        P * F
    );
    println!("  {:<40} {:>10} {:>10}", "phase", "cold", "warm");
    for (i, ph) in phases.iter().chain(std::iter::once(&"total")).enumerate() {
        println!("  {:<40} {:>10.3} {:>10.3}", ph, per(cold[i]), per(warm[i]));
    }
}

fn run(repeat: usize) -> Result<()> {
    let ew = ["alloc 2 tiles", "the 5 ops (as sundial-run runs them)"];
    let cold = best(repeat, ew.len(), |t| {
        let mut mem = fresh()?;
        let mut acc = Accumulators::new();
        let h = inputs(&mut mem, false)?;
        elementwise(&mut mem, &mut acc, &h, t)
    })?;
    let mut mem = fresh()?;
    let mut acc = Accumulators::new();
    let h = inputs(&mut mem, false)?;
    let warm = best(repeat, ew.len(), |t| {
        mem.reset_on_chip_allocators();
        elementwise(&mut mem, &mut acc, &h, t)
    })?;
    report("elementwise (a + b) * 0.125", &ew, &cold, &warm);

    let rn = ["alloc 5 tiles", "the 8 ops (as sundial-run runs them)"];
    let cold = best(repeat, rn.len(), |t| {
        let mut mem = fresh()?;
        let mut acc = Accumulators::new();
        let h = inputs(&mut mem, true)?;
        rmsnorm(&mut mem, &mut acc, &h, t)
    })?;
    let mut mem = fresh()?;
    let mut acc = Accumulators::new();
    let h = inputs(&mut mem, true)?;
    let warm = best(repeat, rn.len(), |t| {
        mem.reset_on_chip_allocators();
        rmsnorm(&mut mem, &mut acc, &h, t)
    })?;
    report("rmsnorm", &rn, &cold, &warm);
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(args.repeat) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sundial-emu-kernel-bench: {e}");
            ExitCode::FAILURE
        }
    }
}
