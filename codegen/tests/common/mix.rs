//! The all-formats instruction mix of the encode benchmark, shared with the property tests
//! that check GENERATE against RUN_ISA_CHECKS on it: one weighted row per op shape, covering
//! every op of the instruction model that encodes, each on a target that has it.

use super::pe_dma::{d2d, dind, es, mm, ps1, sb1};
use super::{Rng, sbd as sb};
use sundial_codegen::arch::{ArchModel, CAYMAN, MARIANA, SUNDA};
use sundial_codegen::dtype::BirDtype::{self, *};
use sundial_codegen::enums::{BirAccumulation, BirAluOp};
use sundial_codegen::model::*;

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
pub struct Draw {
    pub i: u32,
    pub p: u32,
    pub n: u16,
    pub d2: [Dim; 2],
}

/// A row's generator: the instruction and its target, drawing any further values from the RNG.
pub type Gen = fn(&mut Rng, &Draw) -> (Instruction, &'static ArchModel);

/// The mix: (weight out of the total, name, generator). Append a row to add an op.
///
/// Weighting (out of 1000): every op of the instruction model that encodes has at least one row,
/// on a target that has its family; the shapes a kernel issues most (elementwise TensorTensor /
/// TensorScalar, copies, Matmul, DMA, events) weigh more than the rarer data movers and
/// reductions. The DVE datamove rows keep the relative weights of the first mix (shuffle :
/// transpose : gather : dropout : indirect copy : range select = 3:3:3:5:3:3).
/// IndirectSaveAccumulate has no row: its lowering is unpinned and every mode refuses it.
pub const MIX: &[(u64, &str, Gen)] = &[
    // DVE datamove ops (mariana; RangeSelect on cayman, the only target with it).
    (30, "stream_shuffle", stream_shuffle),
    (30, "stream_transpose", stream_transpose),
    (30, "gather", gather),
    (50, "dropout", dropout),
    (30, "indirect_copy", indirect_copy),
    (30, "range_select", range_select),
    // 4D-slot compute ops (every target has them; the targets of the golden samples).
    (25, "tensor_reduce_arith", tensor_reduce_arith),
    (15, "tensor_reduce_bitvec", tensor_reduce_bitvec),
    (40, "tensor_copy", tensor_copy),
    (30, "tensor_copy_cast", tensor_copy_cast),
    (15, "reciprocal", reciprocal),
    (25, "memset", memset),
    (15, "pool", pool),
    (15, "cross_lane_reduce_arith", cross_lane_reduce_arith),
    (10, "cross_lane_reduce_bitvec", cross_lane_reduce_bitvec),
    (15, "iota", iota),
    (15, "affine_select", affine_select),
    // 3D-slot compute ops: fp32 arith and int32 bitvec on cayman, bf16 on sunda (the only
    // target with the bf16 opcodes), the GpSimd int32 form and EXPONENTIAL on mariana.
    (70, "tensor_tensor", tensor_tensor),
    (20, "tensor_tensor_bitvec", tensor_tensor_bitvec),
    (30, "tensor_tensor_bf16", tensor_tensor_bf16),
    (15, "tensor_tensor_gpsimd_int32", tensor_tensor_gpsimd_int32),
    (20, "copy_predicated", copy_predicated),
    (60, "tensor_scalar", tensor_scalar),
    (15, "tensor_scalar_bitvec", tensor_scalar_bitvec),
    (15, "tensor_scalar_transpose", tensor_scalar_transpose),
    (20, "tensor_scalar_cache_reduce", tensor_scalar_cache_reduce),
    (
        10,
        "tensor_scalar_cache_cumulative",
        tensor_scalar_cache_cumulative,
    ),
    (20, "tensor_scalar_exponential", tensor_scalar_exponential),
    (20, "tensor_scalar_select", tensor_scalar_select),
    (
        15,
        "activation_read_accumulator",
        activation_read_accumulator,
    ),
    // PE, MX, DMA and event ops: Matmul on each target in turn (each core has its own layout),
    // MX on mariana (the only target with it).
    (80, "matmul", matmul),
    (20, "matmul_mx", matmul_mx),
    (15, "quantize_mx", quantize_mx),
    (70, "dma_direct2d", dma_direct2d),
    (25, "dma_indirect", dma_indirect),
    (40, "event_semaphore", event_semaphore),
];

fn stream_shuffle(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::StreamShuffle(StreamShuffle {
        src: sb(d.p, 0, 32, d.d2, Bfloat16),
        dst: sb(d.p, 0x8000, 32, d.d2, Bfloat16),
        mask: (0..32)
            .map(|k| if k % 7 == 0 { 0xFF } else { 31 - k })
            .collect(),
    });
    (Instruction::new(op), &MARIANA)
}

fn stream_transpose(r: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let parts = if r.below(2) == 0 { 16 } else { 32 };
    let op = Op::StreamTranspose(StreamTranspose {
        src: sb(d.p, 0, parts, [Dim::new(1, 32)], Float32),
        dst: sb(d.p, 0x4000, parts, [Dim::new(1, 32)], Float32),
        mask: (0..32).collect(),
    });
    (Instruction::new(op), &MARIANA)
}

fn gather(r: &mut Rng, _: &Draw) -> (Instruction, &'static ArchModel) {
    let k = 1 + r.below(1500) as u16;
    let op = Op::Gather(Gather {
        data: sb(0, 0, 16, [Dim::new(1, 4096)], Float32),
        index: sb(0, 0x4000, 16, [Dim::new(1, k)], Uint32),
        dst: sb(0, 0x8000, 16, [Dim::new(1, k)], Float32),
    });
    (Instruction::new(op), &MARIANA)
}

fn dropout(r: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
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
    (Instruction::new(op), &MARIANA)
}

fn indirect_copy(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::IndirectCopy(IndirectCopy {
        src: ind(d.p, 32, 64, Bfloat16),
        dst: sb(d.p, 0x6000, 32, [Dim::new(1, 64)], Bfloat16),
        num_elem_per_idx: 1,
        src_buffer_size: 512,
    });
    (Instruction::new(op), &MARIANA)
}

fn range_select(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
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
    (Instruction::new(op), &CAYMAN)
}

fn tensor_reduce_arith(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::TensorReduceArith(TensorReduce {
        src: sb(d.p, 0x100, 16, [Dim::new(16, 4), Dim::new(1, 16)], Float32),
        dst: sb(d.p, 0x400, 16, [Dim::new(1, 4)], Float32),
        op: BirAluOp::Add,
        axis: BirAxisList::X,
        negated: true,
    });
    (Instruction::new(op), &SUNDA)
}

fn tensor_reduce_bitvec(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::TensorReduceBitvec(TensorReduce {
        src: sb1(d.p, 0, 8, d.n, Int32),
        dst: sb(d.p + 8, 0, 8, [], Int32),
        op: BirAluOp::BitwiseOr,
        axis: BirAxisList::XY,
        negated: false,
    });
    (Instruction::new(op), &MARIANA)
}

fn tensor_copy(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::TensorCopy(TensorCopy {
        src: sb(d.p, 0x40, 32, d.d2, Bfloat16),
        dst: sb(d.p, 0x8040, 32, d.d2, Bfloat16),
    });
    (Instruction::new(op), &CAYMAN)
}

fn tensor_copy_cast(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::TensorCopy(TensorCopy {
        src: sb(d.p, 0x40, 32, d.d2, Bfloat16),
        dst: sb(d.p, 0x8000, 32, d.d2, Float32),
    });
    (Instruction::new(op), &SUNDA)
}

fn reciprocal(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::Reciprocal(Reciprocal {
        src: sb1(d.p, 0, 4, 8, Float32),
        dst: ps1(1, 0x100, 4, 8, Float32),
    });
    (Instruction::new(op), &MARIANA)
}

fn memset(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::Memset(Memset {
        dst: sb(d.p, 0x80, 32, d.d2, Float32),
        fill_value: 1.0f32.to_bits(),
    });
    (Instruction::new(op), &CAYMAN)
}

fn pool(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::Pool(Pool {
        src: sb(d.p, 0, 16, [Dim::new(8, 4), Dim::new(1, 8)], Float32),
        dst: sb1(d.p, 0x800, 16, 4, Float32),
        func: PoolFunc::Avg,
        pool_scale: 0.125,
    });
    (Instruction::new(op), &SUNDA)
}

fn cross_lane_reduce_arith(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::CrossLaneReduceArith(CrossLaneReduce {
        src: sb1(0, 0, 128, d.n, Float32),
        dst: sb1(0, 0x1000, 1, d.n, Float32),
        op: CrossLaneReduceOp::Average,
        axis: CrossLaneAxis::Partitions,
        scale: 1.0 / 128.0,
    });
    (Instruction::new(op), &CAYMAN)
}

fn cross_lane_reduce_bitvec(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::CrossLaneReduceBitvec(CrossLaneReduce {
        src: sb1(d.p, 0, 32, 8, Int32),
        dst: sb(d.p, 0x200, 1, [], Int32),
        op: CrossLaneReduceOp::BitwiseXor,
        axis: CrossLaneAxis::All,
        scale: 1.0,
    });
    (Instruction::new(op), &MARIANA)
}

fn iota(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::Iota(Iota {
        pattern: GenPattern {
            base: -(d.i as i32),
            dims: Dims::from(d.d2),
        },
        dst: sb(0, 0, 64, d.d2, Int32),
        channel_multiplier: 32,
    });
    (Instruction::new(op), &SUNDA)
}

fn affine_select(_: &mut Rng, _: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::AffineSelect(AffineSelect {
        src: sb1(0, 0, 128, 128, Float32),
        dst: sb1(0, 0x200, 128, 128, Float32),
        mask: GenPattern {
            base: 0,
            dims: Dims::from([Dim::new(-1, 128)]),
        },
        fill_mode: AffineCmp::GreaterThanEq,
        fill_reg: 3,
        channel_multiplier: 1,
    });
    (Instruction::new(op), &MARIANA)
}

/// TensorTensor over three SBUF operands of one quadrant.
fn tt(d: &Draw, op: BirAluOp, dt: BirDtype) -> TensorTensor {
    TensorTensor {
        in0: sb(d.p, 0, 32, d.d2, dt),
        in1: sb(d.p, 0x4000, 32, d.d2, dt),
        dst: sb(d.p, 0x8000, 32, d.d2, dt),
        op,
    }
}

fn tensor_tensor(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::TensorTensor(tt(d, BirAluOp::Add, Float32));
    (Instruction::new(op), &CAYMAN)
}

fn tensor_tensor_bitvec(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::TensorTensor(tt(d, BirAluOp::BitwiseAnd, Int32));
    (Instruction::new(op), &CAYMAN)
}

fn tensor_tensor_bf16(r: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let ops = [BirAluOp::Add, BirAluOp::Mult, BirAluOp::Subtract];
    let op = ops[r.below(3) as usize];
    (
        Instruction::new(Op::TensorTensor(tt(d, op, Bfloat16))),
        &SUNDA,
    )
}

/// The GpSimd int32 form (0x41 with an integer ALU byte).
fn tensor_tensor_gpsimd_int32(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let mut inst = Instruction::new(Op::TensorTensor(tt(d, BirAluOp::Add, Int32)));
    inst.engine = Engine::GpSimd;
    (inst, &MARIANA)
}

fn copy_predicated(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::CopyPredicated(CopyPredicated {
        mask: sb(d.p, 0, 32, d.d2, Uint8),
        src: sb(d.p, 0x4000, 32, d.d2, Float32),
        dst: sb(d.p, 0x8000, 32, d.d2, Float32),
    });
    (Instruction::new(op), &CAYMAN)
}

/// The sample TensorScalar: fp32, `(2.0 * t) + [ptr 0x100]`.
fn ts(d: &Draw) -> TensorScalar {
    TensorScalar {
        src: sb(d.p, 0, 32, d.d2, Float32),
        dst: sb(d.p, 0x4000, 32, d.d2, Float32),
        op0: BirAluOp::Mult,
        op1: BirAluOp::Add,
        reverse0: true,
        reverse1: false,
        imm0: ImmOperand::Fp32(2.0),
        imm1: ImmOperand::Ptr(0x100),
        accumulate: BirAccumulation::Idle,
        form: TsForm::Plain,
    }
}

fn tensor_scalar(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    (Instruction::new(Op::TensorScalar(ts(d))), &CAYMAN)
}

fn tensor_scalar_bitvec(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::TensorScalar(TensorScalar {
        src: sb(d.p, 0, 32, d.d2, Int32),
        dst: sb(d.p, 0x4000, 32, d.d2, Int32),
        op0: BirAluOp::BitwiseAnd,
        op1: BirAluOp::Bypass,
        imm0: ImmOperand::Int(0xFF),
        imm1: ImmOperand::Int(0),
        ..ts(d)
    });
    (Instruction::new(op), &CAYMAN)
}

fn tensor_scalar_transpose(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::TensorScalar(TensorScalar {
        form: TsForm::Transpose,
        ..ts(d)
    });
    (Instruction::new(op), &MARIANA)
}

fn tensor_scalar_cache_reduce(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::TensorScalar(TensorScalar {
        form: TsForm::CacheReduce {
            reduce_res: sb(d.p, 0xC000, 32, [], Float32),
        },
        accumulate: BirAccumulation::ZeroAccumulate,
        imm1: ImmOperand::Fp32(0.0),
        ..ts(d)
    });
    (Instruction::new(op), &CAYMAN)
}

fn tensor_scalar_cache_cumulative(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::TensorScalar(TensorScalar {
        form: TsForm::CacheCumulative,
        ..ts(d)
    });
    (Instruction::new(op), &SUNDA)
}

fn tensor_scalar_exponential(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::TensorScalar(TensorScalar {
        form: TsForm::Exponential,
        op0: BirAluOp::Subtract,
        op1: BirAluOp::Bypass,
        reverse0: false,
        imm0: ImmOperand::Ptr(0x40),
        imm1: ImmOperand::Fp32(0.0),
        ..ts(d)
    });
    (Instruction::new(op), &MARIANA)
}

fn tensor_scalar_select(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::TensorScalarSelect(TensorScalarSelect {
        src: sb(d.p, 0, 32, d.d2, Float32),
        dst: sb(d.p, 0x4000, 32, d.d2, Float32),
        reversed_pred: true,
        pred_imm_dtype: Uint32,
        scalar: ImmOperand::Fp32(0.5),
        pred: ImmOperand::Ptr(0x200),
    });
    (Instruction::new(op), &CAYMAN)
}

fn activation_read_accumulator(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::ActivationReadAccumulator(ActivationReadAccumulator {
        dst: sb(d.p, 0x800, 32, [], Float32),
    });
    (Instruction::new(op), &SUNDA)
}

/// K = 64 bf16 rows, N = 32 columns, M = 128 moving columns; on each target in turn.
fn matmul(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    // The tests' sample Matmul, without its sync.
    let mut inst = mm(|_| {});
    inst.sync = SyncInfo::default();
    (inst, [&SUNDA, &CAYMAN, &MARIANA][d.i as usize % 3])
}

fn matmul_mx(_: &mut Rng, _: &Draw) -> (Instruction, &'static ArchModel) {
    let index = StaticAp::sbuf(0, 0x3000, 32, [], Uint32);
    let ind = |data: StaticAp| {
        AccessPattern::TensorIndirect(IndirectAp {
            data,
            index: index.clone(),
            num_indirect_indices: 16,
            index_arg_id: 0,
        })
    };
    let op = Op::MatmulMx(MatmulMx {
        weights: sb1(0, 0x1000, 32, 64, Float8e4),
        weights_scale: StaticAp::sbuf(3, 0x100, 32, [], Float8E8m0fnu).into(),
        moving: ind(StaticAp::sbuf(0, 0x2000, 32, [], Float8e5)),
        moving_scale: ind(StaticAp::sbuf(5, 0x40, 32, [], Float8E8m0fnu)),
        dst: ps1(0, 0, 64, 32, Float32),
        psum_accumulate_flags: 1,
        psum_zero_region: 1,
    });
    (Instruction::new(op), &MARIANA)
}

fn quantize_mx(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let op = Op::QuantizeMx(QuantizeMx {
        src: sb1(d.p, 0x100, 32, 64, Bfloat16),
        dst: sb1(d.p, 0x4000, 32, 64, Float8e4),
        dst_scale: StaticAp::sbuf(d.p, 0x8000, 32, [], Float8E8m0fnu).into(),
    });
    (Instruction::new(op), &MARIANA)
}

fn dma_direct2d(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    // The tests' sample with the source address stepped per instruction and no sync.
    let mut inst = d2d(|x| x.src.addr = 0x20_0000_0000 + d.i as u64 * 0x1000);
    inst.sync = SyncInfo::default();
    (inst, &SUNDA)
}

fn dma_indirect(_: &mut Rng, _: &Draw) -> (Instruction, &'static ArchModel) {
    (dind(|_| {}), &SUNDA)
}

fn event_semaphore(_: &mut Rng, d: &Draw) -> (Instruction, &'static ArchModel) {
    let mut inst = es(|_| {});
    if let Op::EventSemaphore(e) = &mut inst.op
        && let Some(w) = &mut e.wait0
    {
        w.value = d.i;
    }
    (inst, &CAYMAN)
}

/// `count` instructions drawn from [`MIX`] by weight (the benchmark's fixed sequence).
pub fn mix(count: u32) -> Vec<(Instruction, &'static ArchModel)> {
    let mut r = Rng(0x5EED_1234_ABCD_0001);
    (0..count).map(|i| draw(&mut r, i)).collect()
}

/// Instruction `i` of a mix drawn from `r`: its [`Draw`] values, then a row of [`MIX`] by
/// weight, then the row's generator.
pub fn draw(r: &mut Rng, i: u32) -> (Instruction, &'static ArchModel) {
    let total: u64 = MIX.iter().map(|(w, _, _)| w).sum();
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
    row(r, &d)
}
