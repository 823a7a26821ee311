//! The `emu` fuzz target: an input is a string of parameters (read like a data provider: each
//! value takes the next bytes, zero once they run out). Every `Err` is a normal outcome; a
//! panic or an abort is a crash. The first byte picks the family:
//!
//! - below 0x80, the data-movement family: a small machine state (mostly HBM), views with
//!   arbitrary offsets, shapes and strides (huge ones included), access patterns with
//!   indirect subscripts and arbitrary variable spaces, and one DMA op on them (this
//!   decoding is unchanged, so the reproducers found with it replay as they were found);
//! - from 0x80, the compute family: on-chip tiles (SBUF, PSUM, sometimes HBM) of every
//!   dtype, hostile partition counts, start partitions, banks and geometry, filled with
//!   special values or raw bits or left uninitialised (with the uninitialised-read check
//!   on or off), then one to three compute ops sharing the engine state (accumulator
//!   registers, RNG, the register file), each with fuzzed ALU ops, activation functions,
//!   engines, reduce commands, immediates and options; or one collective over a rank
//!   group of fuzzed size with fuzzed replica groups, pairs and channels.

use sundial_emu::dtype::ALL_DTYPES;
use sundial_emu::{
    AccEngine, Access, Accumulators, Activation, ActivationFunc, Affine, AffineSelect, AllToAllV,
    AluOp, BitStage, Cumulative, DType, DmaOperand, DropProb, Engine, Exponential, FreeReduce,
    MatmulMxOptions, MatmulOptions, MaxReduce, Memory, MxScaleRule, Number, OobMode, PerfOptMode,
    RangeSelect, RankGroup, ReduceCmd, ReduceOp, RegSource, RegisterId, Registers, RngState,
    Scalar, ScanOps, Stage, Subscript, Target, TensorStage, VarSpace, View,
};

/// Reads parameters from the input bytes.
struct Params<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Params<'_> {
    fn u8(&mut self) -> u8 {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    fn coin(&mut self) -> bool {
        self.u8() & 1 == 0
    }

    fn u64(&mut self) -> u64 {
        (0..8).fold(0u64, |acc, k| acc | (self.u8() as u64) << (8 * k))
    }

    /// A size: mostly small, sometimes a boundary value or a huge one. Powers of two come
    /// small (up to 2^5) or huge (2^30 and up): products of up to four small sizes stay at
    /// most 2^20 points (fast), and any huge one is past `MAX_ELEMENTS` (refused at once),
    /// so no input runs a valid transfer of tens of millions of elements (slow, and no more
    /// interesting; the limit itself has its own tests).
    fn size(&mut self) -> usize {
        match self.u8() % 8 {
            0..=4 => (self.u8() % 9) as usize,
            5 => {
                let k = self.u8() % 6;
                1 << if self.coin() { k } else { 30 + k }
            }
            6 => {
                let k = self.u8();
                usize::MAX >> if self.coin() { 59 + k % 5 } else { k % 34 }
            }
            // A raw value: small ones folded to at most 32, so that (as above) no valid
            // operand has millions of elements.
            _ => match self.u64() {
                v if v < 1 << 30 => (v % 33) as usize,
                v => v as usize,
            },
        }
    }

    /// A stride or offset: mostly small, sometimes extreme.
    fn signed(&mut self) -> i64 {
        match self.u8() % 8 {
            0..=4 => (self.u8() as i8) as i64 / 16,
            5 => 1i64 << (self.u8() % 63),
            6 => i64::MIN >> (self.u8() % 64),
            _ => self.u64() as i64,
        }
    }

    fn dtype(&mut self) -> DType {
        const D: [DType; 12] = [
            DType::F32,
            DType::Bf16,
            DType::F16,
            DType::I32,
            DType::U32,
            DType::U16,
            DType::I8,
            DType::U8,
            DType::I64,
            DType::U64,
            DType::Fp8E4m3,
            DType::Fp8E5m2,
        ];
        D[self.u8() as usize % D.len()]
    }
}

/// The allocations every input starts from (small, so that out-of-range views are common).
struct State {
    mem: Memory,
    views: Vec<View>,
}

fn state(p: &mut Params) -> Option<State> {
    let target = [Target::Sunda, Target::Cayman, Target::Mariana][p.u8() as usize % 3];
    let mut mem = Memory::new(target);
    let mut views = Vec::new();
    for k in 0..3 {
        let dtype = p.dtype();
        let shape = [1 + (p.u8() % 8) as usize, 1 + (p.u8() % 16) as usize];
        // SBUF is one allocation of the whole buffer (24-32 MiB), created on first use: one
        // input in 64 has it (a byte value other than the 0 that exhausted inputs read), so
        // that the others run fast.
        let v = match k {
            0 => mem.alloc_hbm("a", dtype, &shape),
            1 if p.u8() & 63 == 42 => mem.alloc_sbuf(dtype, &shape),
            1 => mem.alloc_hbm("b", dtype, &shape),
            _ => mem.alloc_hbm("idx", [DType::I32, DType::U32, DType::U16][k % 3], &shape),
        };
        views.push(v.ok()?);
    }
    Some(State { mem, views })
}

/// A view over one of the allocations with fuzzed geometry (or the allocation's own view).
fn view(p: &mut Params, s: &State) -> Option<View> {
    let base = &s.views[p.u8() as usize % s.views.len()];
    match p.u8() % 4 {
        0 => Some(base.clone()),
        1 => base.slice(0, p.size(), p.size(), p.size()).ok(),
        2 => base.reshape(vec![p.size(), p.size()]).ok(),
        _ => {
            let rank = (p.u8() % 5) as usize;
            let shape = (0..rank).map(|_| p.size()).collect();
            let strides = (0..rank).map(|_| p.signed()).collect();
            let dtype = if p.coin() { base.dtype() } else { p.dtype() };
            View::new(base.alloc(), dtype, p.signed(), shape, strides).ok()
        }
    }
}

/// An access over a view: direct, a vector or scalar offset, or hand-built subscripts over an
/// arbitrary variable space.
fn access(p: &mut Params, s: &State) -> Option<Access> {
    let src = view(p, s)?;
    let index = view(p, s)?;
    match p.u8() % 4 {
        0 => Some(Access::direct(&src)),
        1 => Access::vector_offset(&src, p.size(), &index).ok(),
        2 => {
            let tile: Vec<usize> = (0..src.rank()).map(|_| p.size()).collect();
            Access::scalar_offset(&src, p.size(), &index, &tile).ok()
        }
        _ => {
            let vars = (p.u8() % 4) as usize;
            let lower: Vec<i64> = (0..vars).map(|_| p.signed()).collect();
            let upper: Vec<i64> = (0..vars).map(|_| p.signed()).collect();
            let subscripts = (0..src.rank())
                .map(|_| match p.u8() % 3 {
                    0 => Subscript::var(p.size() % (vars + 1)),
                    1 => Subscript::affine(
                        Affine::scaled(p.size() % (vars + 1), p.signed()).plus_const(p.signed()),
                    ),
                    _ => Subscript::indirect(0, vec![Affine::var(p.size() % (vars + 1))]),
                })
                .collect();
            let order = (p.coin()).then(|| (0..vars).map(|_| p.size()).collect());
            let mut a = Access::direct(&src);
            a.index_views = vec![index];
            a.subscripts = subscripts;
            a.space = VarSpace::new(lower, upper);
            a.order = order;
            Some(a)
        }
    }
}

/// Runs one input.
pub fn run(input: &[u8]) {
    if input.first().is_some_and(|&b| b >= 0x80) {
        compute::run(input);
    } else {
        run_dma(input);
    }
}

/// Runs one input of the data-movement family.
fn run_dma(input: &[u8]) {
    let mut p = Params {
        bytes: input,
        at: 0,
    };
    let Some(mut s) = state(&mut p) else {
        return;
    };
    let oob = if p.coin() {
        OobMode::Error
    } else {
        OobMode::Skip
    };
    match p.u8() % 9 {
        0 => {
            if let (Some(d), Some(v)) = (view(&mut p, &s), view(&mut p, &s)) {
                let _ = sundial_emu::dma_copy(&mut s.mem, &d, &v);
            }
        }
        1 => {
            if let (Some(d), Some(a)) = (view(&mut p, &s), access(&mut p, &s)) {
                let _ = sundial_emu::indirect_load(&mut s.mem, &d, &a, oob);
            }
        }
        2 => {
            if let (Some(a), Some(v)) = (access(&mut p, &s), view(&mut p, &s)) {
                let _ = sundial_emu::indirect_save(&mut s.mem, &a, &v, oob);
            }
        }
        3 => {
            if let (Some(a), Some(v)) = (access(&mut p, &s), view(&mut p, &s)) {
                let _ = sundial_emu::indirect_save_accumulate(&mut s.mem, &a, &v, oob);
            }
        }
        4 => {
            if let (Some(d), Some(x), Some(i)) =
                (view(&mut p, &s), view(&mut p, &s), view(&mut p, &s))
            {
                let _ = sundial_emu::gather(&mut s.mem, &d, &x, &i);
            }
        }
        5 => {
            if let (Some(d), Some(x), Some(i)) =
                (view(&mut p, &s), view(&mut p, &s), view(&mut p, &s))
            {
                let per = p.size();
                let valid = (p.coin()).then(|| p.size());
                let _ = sundial_emu::indirect_copy(&mut s.mem, &d, &x, &i, per, valid);
            }
        }
        6 => {
            if let (Some(d), Some(a), Some(b)) =
                (access(&mut p, &s), view(&mut p, &s), access(&mut p, &s))
            {
                let srcs = [DmaOperand::View(&a), DmaOperand::Access(&b)];
                let n = 1 + (p.u8() % 2) as usize;
                let _ = sundial_emu::dma_compute(
                    &mut s.mem,
                    DmaOperand::Access(&d),
                    &srcs[..n],
                    ReduceOp::Add,
                    None,
                    p.coin(),
                    oob,
                );
            }
        }
        7 => {
            if let Some(v) = view(&mut p, &s) {
                let _ = s.mem.read_bytes(&v);
                let _ = s.mem.read_f32(&v);
                let _ = v.flatten_free();
                let _ = v.select(p.size(), p.size());
                let _ = v.permute(&[p.size(), p.size()]);
            }
        }
        _ => {
            if let Some(v) = view(&mut p, &s) {
                let n = p.size().min(1 << 16);
                let _ = s.mem.write_f32(&v, &vec![1.0; n]);
                let _ = s.mem.fill_uninit(&v);
            }
        }
    }
}

/// The compute family (first byte 0x80 and up): see the module doc.
mod compute {
    use super::*;

    /// At most this many elements are filled per tile (bigger tiles stay uninitialised, so
    /// no input spends its time writing megabytes).
    const FILL_LIMIT: usize = 1 << 14;

    /// One input's machine: a memory, its tiles and the engine state beside it.
    struct Machine {
        mem: Memory,
        tiles: Vec<View>,
        acc: Accumulators,
        rng: RngState,
        regs: Registers,
        reg_ids: Vec<RegisterId>,
    }

    /// A target; mariana (which has every op) half the time.
    fn target(p: &mut Params) -> Target {
        if p.coin() {
            Target::Mariana
        } else {
            Target::ALL[p.u8() as usize % Target::ALL.len()]
        }
    }

    /// A partition count: mostly the legal ones, sometimes a boundary or a hostile value.
    fn parts(p: &mut Params) -> usize {
        match p.u8() % 8 {
            0..=3 => [1, 2, 4, 8, 16, 32, 64, 128][p.u8() as usize % 8],
            4 => [0, 3, 31, 33, 96, 127, 129, 256][p.u8() as usize % 8],
            5 => (p.u8() % 130) as usize,
            6 => p.size(),
            _ => 32,
        }
    }

    /// A free size: small, an op's boundary (6 for bn_stats, 8 for max8, 512, ...), or
    /// hostile.
    fn free(p: &mut Params) -> usize {
        match p.u8() % 8 {
            0..=3 => 1 + (p.u8() % 8) as usize,
            4 => [0, 3, 6, 8, 16, 24, 32, 64][p.u8() as usize % 8],
            5 => [511, 512, 513, 1024, 4096, 8192, 16384, 16385][p.u8() as usize % 8],
            6 => p.size(),
            _ => 2,
        }
    }

    fn dtype(p: &mut Params) -> DType {
        ALL_DTYPES[p.u8() as usize % ALL_DTYPES.len()]
    }

    /// An fp32 value: special values, small integers, raw bits.
    fn f32v(p: &mut Params) -> f32 {
        match p.u8() % 10 {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => f32::NEG_INFINITY,
            3 => -0.0,
            4 => f32::from_bits(p.u64() as u32),
            5 => [1e30, -1e30, f32::MIN_POSITIVE, 1e-40][p.u8() as usize % 4],
            6 => f32::from(p.u8()) / 256.0,
            _ => f32::from(p.u8() as i8),
        }
    }

    fn alu(p: &mut Params) -> AluOp {
        AluOp::ALL[p.u8() as usize % AluOp::ALL.len()]
    }

    fn engine(p: &mut Params) -> Engine {
        Engine::ALL[p.u8() as usize % Engine::ALL.len()]
    }

    fn opt_engine(p: &mut Params) -> Option<Engine> {
        p.coin().then(|| engine(p))
    }

    fn cmd(p: &mut Params) -> ReduceCmd {
        ReduceCmd::ALL[p.u8() as usize % ReduceCmd::ALL.len()]
    }

    /// A dtype and a `[partitions, free]` shape that most tiles of a machine share, so
    /// that element-wise ops get past their shape checks often.
    type Shared = Option<(DType, usize, usize)>;

    /// A new tile in SBUF, PSUM or (rarely) HBM, at a fuzzed place, filled or not: of the
    /// shared dtype and shape three times in four when there is one.
    fn new_tile(p: &mut Params, mem: &mut Memory, shared: Shared) -> Option<View> {
        let (d, mut shape) = match shared {
            Some((d, parts, free)) if !p.u8().is_multiple_of(4) => (d, vec![parts, free]),
            _ => (dtype(p), vec![parts(p), free(p)]),
        };
        if p.u8().is_multiple_of(4) {
            shape.push(free(p));
        }
        let v = match p.u8() % 16 {
            0..=8 => mem.alloc_sbuf(d, &shape),
            9 | 10 => mem.alloc_psum(d, &shape),
            11 | 12 => {
                let start = parts(p);
                let at = if p.coin() {
                    4 * p.u8() as usize
                } else {
                    p.size()
                };
                mem.sbuf_view(d, start, at, &shape)
            }
            13 | 14 => {
                let start = parts(p);
                let bank = (p.u8() % 9) as usize;
                let at = 4 * (p.u8() % 64) as usize;
                mem.psum_view(d, start, bank, at, &shape)
            }
            // HBM: hostile shapes whose tensor the emulator refuses (over MAX_HBM_BYTES, or
            // overflowing) are tried; legal ones above 4 MiB are not (filling gigabytes is
            // slow, not interesting: the ops' hostile sizes come from the views).
            _ => {
                let bytes = shape
                    .iter()
                    .try_fold(d.size(), |a, &e| a.checked_mul(e))
                    .unwrap_or(usize::MAX);
                if bytes > 1 << 22 && bytes <= sundial_emu::MAX_HBM_BYTES {
                    return None;
                }
                mem.alloc_hbm("h", d, &shape)
            }
        }
        .ok()?;
        let n = v.num_elements();
        if n <= FILL_LIMIT {
            let mode = p.u8() % 4;
            // The values come from a generator seeded by the input, not from the input
            // itself, so that filling a tile does not use up the op's parameters.
            let bytes = generated(p.u64(), 9 * n);
            let mut q = Params {
                bytes: &bytes,
                at: 0,
            };
            let _ = match mode {
                0 => Ok(()),
                1 => mem.write_f32(&v, &(0..n).map(|_| f32v(&mut q)).collect::<Vec<_>>()),
                2 => mem.write_bits(&v, &(0..n).map(|_| q.u64()).collect::<Vec<_>>()),
                _ => mem.write_f32(&v, &(0..n).map(|i| (i % 7) as f32).collect::<Vec<_>>()),
            };
        }
        Some(v)
    }

    /// `len` bytes of an xorshift generator seeded with `seed`.
    fn generated(seed: u64, len: usize) -> Vec<u8> {
        let mut x = seed | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect()
    }

    fn machine(p: &mut Params) -> Option<Machine> {
        let mut mem = Memory::new(target(p));
        if p.u8().is_multiple_of(4) {
            mem.set_check_uninit(true).ok()?;
        }
        let shared = p.coin().then(|| {
            let d = match p.u8() % 4 {
                0 => DType::F32,
                1 => DType::Bf16,
                2 => DType::I32,
                _ => dtype(p),
            };
            (d, parts(p), free(p))
        });
        let mut tiles = Vec::new();
        for _ in 0..2 + p.u8() % 4 {
            if let Some(v) = new_tile(p, &mut mem, shared) {
                tiles.push(v);
            }
        }
        if tiles.is_empty() {
            return None;
        }
        Some(Machine {
            mem,
            tiles,
            acc: Accumulators::new(),
            rng: RngState::new(),
            regs: Registers::new(),
            reg_ids: Vec::new(),
        })
    }

    /// An operand: one of the tiles, or a view derived from one with fuzzed geometry.
    fn pick(p: &mut Params, m: &Machine) -> View {
        let base = m.tiles[p.u8() as usize % m.tiles.len()].clone();
        let derived = match p.u8() % 8 {
            0..=4 => None,
            5 => base
                .slice(p.size() % 3, p.size(), p.size(), p.size().saturating_add(1))
                .ok(),
            6 => base.flatten_free().ok(),
            _ => {
                let rank = (p.u8() % 4) as usize;
                let shape = (0..rank).map(|_| p.size()).collect();
                let strides = (0..rank).map(|_| p.signed()).collect();
                let d = if p.coin() { base.dtype() } else { dtype(p) };
                View::new(base.alloc(), d, p.signed(), shape, strides).ok()
            }
        };
        derived.unwrap_or(base)
    }

    fn opt_pick(p: &mut Params, m: &Machine) -> Option<View> {
        p.coin().then(|| pick(p, m))
    }

    fn axes(p: &mut Params) -> Vec<usize> {
        (0..p.u8() % 4).map(|_| (p.u8() % 5) as usize).collect()
    }

    fn pattern(p: &mut Params) -> Vec<[i64; 2]> {
        (0..p.u8() % 4)
            .map(|_| [p.signed(), p.size() as i64])
            .collect()
    }

    fn tile_pos(p: &mut Params) -> Option<[usize; 2]> {
        p.coin().then(|| {
            let v = [0, 32, 64, 96, 128, 3];
            [v[p.u8() as usize % 6], v[p.u8() as usize % 6]]
        })
    }

    fn tile_size(p: &mut Params) -> Option<[usize; 2]> {
        p.coin().then(|| {
            let v = [128, 64, 32, 0, 16, 256];
            [v[p.u8() as usize % 6], v[p.u8() as usize % 6]]
        })
    }

    fn accumulate(p: &mut Params) -> Option<bool> {
        match p.u8() % 3 {
            0 => None,
            1 => Some(false),
            _ => Some(true),
        }
    }

    /// The `[P, F]` of a tile (free dimensions flattened), when it has both.
    fn pf(v: &View) -> Option<(usize, usize)> {
        let p = *v.shape().first()?;
        (v.rank() >= 2 && p > 0).then(|| (p, v.num_elements() / p))
    }

    /// A new tile of `shape` in SBUF (or PSUM when `psum`), filled with small values, that
    /// fits what op `sel` wants of its operand `which` given its data operand `a` (the dst
    /// shape of a reduction, top-8, statistics, matmul, ...); `None` when the op has no
    /// such rule or the tile cannot be made.
    fn fitted(m: &mut Machine, sel: u8, which: u8, a: &View) -> Option<View> {
        let (p, f) = pf(a)?;
        let (d, shape, psum) = match (sel, which) {
            (13 | 14 | 24 | 25, 0) => (a.dtype(), vec![p, 1], false),
            (15 | 16, 0) => (a.dtype(), vec![1, f], false),
            (32..=34, 0) => (DType::F32, vec![p, 8], false),
            (33 | 34, 1) => (DType::F32, vec![p, 8], false),
            (35, 0) => (DType::F32, vec![p, 6], false),
            (36, 0) => (DType::F32, vec![p, 2], false),
            (36, 1) => (DType::F32, vec![p, 6], false),
            (37, 0) => (DType::I32, vec![p, f + 1], false),
            (38, 0) => (DType::I32, vec![1, 2, f], false),
            // matmul: stationary a [K, M], moving [K, N], dst [M, N] in PSUM.
            (26, 0) => (DType::F32, vec![f, p.min(128)], true),
            (26, 1) => (a.dtype(), vec![p, p.min(128)], false),
            (12 | 22 | 29 | 45 | 47, 0) => (a.dtype(), vec![p, f], false),
            (28, 0) => (a.dtype(), vec![f, p], true),
            _ => return None,
        };
        let v = if psum {
            m.mem.alloc_psum(d, &shape)
        } else {
            m.mem.alloc_sbuf(d, &shape)
        }
        .ok()?;
        let n = v.num_elements();
        if n <= FILL_LIMIT {
            let _ = m
                .mem
                .write_f32(&v, &(0..n).map(|i| (i % 5) as f32).collect::<Vec<_>>());
        }
        Some(v)
    }

    /// Runs one compute op on the machine.
    fn op(p: &mut Params, m: &mut Machine) {
        let sel = p.u8() % 49;
        let a = pick(p, m);
        // Half the time the dst (and for some ops a second operand) is made to fit the
        // op's shape rules, so the ops run past their checks into their arithmetic.
        let fit = p.coin();
        let mut d = pick(p, m);
        let mut b = pick(p, m);
        if fit {
            if let Some(v) = fitted(m, sel, 0, &a) {
                d = v;
            }
            if let Some(v) = fitted(m, sel, 1, &a) {
                b = v;
            }
        }
        let c = pick(p, m);
        let x = opt_pick(p, m);
        let mem = &mut m.mem;
        let imm = f32v(p);
        let scalar = |p: &mut Params| -> Scalar<'_> {
            if p.coin() {
                Scalar::Imm(f32v(p))
            } else {
                Scalar::Tile(&c)
            }
        };
        let _ = match sel {
            0 => sundial_emu::tensor_tensor_arith(mem, &d, &a, &b, alu(p), opt_engine(p)),
            1 => sundial_emu::tensor_tensor_bitvec(mem, &d, &a, &b, alu(p)),
            2 => sundial_emu::tensor_tensor_power(mem, &d, &a, &b),
            3 => {
                let s0 = Stage {
                    op: alu(p),
                    operand: p.coin().then(|| scalar(p)),
                    reverse: p.coin(),
                };
                let s1 = Stage {
                    op: alu(p),
                    operand: p.coin().then(|| scalar(p)),
                    reverse: p.coin(),
                };
                let two = p.coin();
                sundial_emu::tensor_scalar_arith(
                    mem,
                    &d,
                    &a,
                    &s0,
                    two.then_some(&s1),
                    opt_engine(p),
                )
            }
            4 => {
                let s0 = BitStage {
                    op: alu(p),
                    imm: p.signed(),
                    reverse: p.coin(),
                };
                let s1 = BitStage {
                    op: alu(p),
                    imm: p.signed(),
                    reverse: p.coin(),
                };
                let two = p.coin();
                sundial_emu::tensor_scalar_bitvec(mem, &d, &a, &s0, two.then_some(&s1))
            }
            5 => sundial_emu::tensor_scalar_addr(mem, &d, &a, alu(p), p.signed()),
            6 => {
                let s0 = Stage {
                    op: alu(p),
                    operand: p.coin().then(|| scalar(p)),
                    reverse: p.coin(),
                };
                let s1 = TensorStage {
                    op: alu(p),
                    operand: &b,
                    reverse: p.coin(),
                };
                sundial_emu::scalar_tensor_tensor_arith(mem, &d, &a, &s0, &s1)
            }
            7 => {
                let s0 = Stage {
                    op: alu(p),
                    operand: p.coin().then(|| scalar(p)),
                    reverse: p.coin(),
                };
                let r = FreeReduce {
                    reduce_op: alu(p),
                    reduce_cmd: cmd(p),
                    reduce_init: p.coin().then(|| f32v(p)),
                    reduce_res: x.as_ref(),
                    reduce_res_negate: p.coin(),
                };
                sundial_emu::tensor_scalar_cache_reduce(mem, &mut m.acc, &d, &a, &s0, &r)
            }
            8 => {
                let args = Cumulative {
                    op0: alu(p),
                    imm0: imm,
                    op1: alu(p),
                    imm1: p.coin().then(|| f32v(p)),
                    reduce_cmd: cmd(p),
                };
                sundial_emu::tensor_scalar_cache_cumulative(mem, &mut m.acc, &d, &a, &args)
            }
            9 => {
                let init = scalar(p);
                let ops = ScanOps {
                    op0: alu(p),
                    op1: alu(p),
                    reverse0: p.coin(),
                    reverse1: p.coin(),
                };
                sundial_emu::tensor_tensor_scan(mem, &d, &a, &b, &init, &ops)
            }
            10 => {
                let args = Activation {
                    func: ActivationFunc::ALL[p.u8() as usize % ActivationFunc::ALL.len()],
                    scale: scalar(p),
                    bias: p.coin().then(|| scalar(p)),
                    reduce_op: p.coin().then(|| alu(p)),
                    reduce_cmd: cmd(p),
                    reduce_res: x.as_ref(),
                };
                sundial_emu::activation(mem, &mut m.acc, &d, &a, &args)
            }
            11 => {
                let args = Exponential {
                    max_value: scalar(p),
                    reduce_cmd: cmd(p),
                    reduce_init: imm,
                    reduce_res: x.as_ref(),
                };
                sundial_emu::exponential(mem, &mut m.acc, &d, &a, &args)
            }
            12 => sundial_emu::reciprocal(mem, &d, &a),
            13 => {
                let ax = axes(p);
                sundial_emu::tensor_reduce_arith(mem, &d, &a, alu(p), &ax, p.coin(), p.coin())
            }
            14 => {
                let ax = axes(p);
                sundial_emu::tensor_reduce_bitvec(mem, &d, &a, alu(p), &ax, p.coin())
            }
            15 => sundial_emu::cross_lane_reduce_arith(mem, &d, &a, alu(p)),
            16 => sundial_emu::cross_lane_reduce_bitvec(mem, &d, &a, alu(p)),
            17 => {
                let pat = pattern(p);
                sundial_emu::iota(mem, &d, &pat, p.signed(), p.signed())
            }
            18 => {
                let pat = pattern(p);
                let args = AffineSelect {
                    pattern: &pat,
                    offset: p.signed(),
                    channel_multiplier: p.signed(),
                    cmp_op: alu(p),
                    on_false_value: imm,
                };
                sundial_emu::tensor_scalar_affine_select(mem, &d, &a, &args)
            }
            19 => sundial_emu::copy_predicated(mem, &d, &a, &b, p.coin()),
            20 => {
                let on_false = scalar(p);
                let r = MaxReduce {
                    reduce_op: alu(p),
                    reduce_cmd: cmd(p),
                    reduce_res: x.as_ref(),
                };
                let rev = p.coin();
                sundial_emu::select_reduce(mem, &mut m.acc, &d, &a, &b, &on_false, rev, &r)
            }
            21 => {
                let args = RangeSelect {
                    comp_op0: alu(p),
                    comp_op1: alu(p),
                    range_start: imm as i64,
                    on_false_value: f32v(p),
                    reduce: MaxReduce {
                        reduce_op: alu(p),
                        reduce_cmd: cmd(p),
                        reduce_res: x.as_ref(),
                    },
                };
                sundial_emu::range_select(mem, &mut m.acc, &d, &a, &b, &c, &args)
            }
            22 => sundial_emu::tensor_copy(mem, &d, &a, opt_engine(p)),
            23 => {
                let v = if p.coin() {
                    Number::Int(p.signed())
                } else {
                    Number::Float(f64::from(imm))
                };
                sundial_emu::memset(mem, &d, v, opt_engine(p))
            }
            24 => sundial_emu::dve_read_accumulator(mem, &m.acc, &d, p.coin()),
            25 => sundial_emu::activation_read_accumulator(mem, &m.acc, &d, p.coin()),
            26 => {
                let opts = MatmulOptions {
                    is_stationary_onezero: p.coin(),
                    is_moving_onezero: p.coin(),
                    is_transpose: p.u8().is_multiple_of(4),
                    accumulate: accumulate(p),
                    tile_position: tile_pos(p),
                    tile_size: tile_size(p),
                    perf_mode: PerfOptMode::ALL[p.u8() as usize % PerfOptMode::ALL.len()],
                };
                sundial_emu::nc_matmul(mem, &d, &a, &b, &opts)
            }
            27 => {
                let opts = MatmulMxOptions {
                    tile_position: tile_pos(p),
                    tile_size: tile_size(p),
                    accumulate: accumulate(p),
                };
                let ms = x.clone().unwrap_or_else(|| c.clone());
                sundial_emu::nc_matmul_mx(mem, &d, &a, &b, &c, &ms, &opts)
            }
            28 => sundial_emu::nc_transpose(mem, &d, &a, engine(p)),
            29 => sundial_emu::stream_transpose(mem, &d, &a),
            30 => {
                let ax = axes(p);
                sundial_emu::dma_transpose(mem, &d, &a, &ax)
            }
            31 => {
                let ax = axes(p);
                let acc = if p.coin() {
                    Some(Access::direct(&a))
                } else {
                    Access::vector_offset(&a, p.size(), &b).ok()
                };
                let oob = if p.coin() {
                    OobMode::Error
                } else {
                    OobMode::Skip
                };
                match acc {
                    Some(acc) => sundial_emu::dma_gather_transpose(mem, &d, &acc, &ax, oob),
                    None => Ok(()),
                }
            }
            32 => sundial_emu::max8(mem, &d, &a),
            33 => sundial_emu::find_index8(mem, &d, &a, &b),
            34 => sundial_emu::match_replace8(mem, &d, &a, &b, imm, x.as_ref()),
            35 => sundial_emu::bn_stats(mem, &d, &a),
            36 => sundial_emu::bn_aggr(mem, &d, &a),
            37 => {
                let (o, pad) = (p.u64() as i32, p.u64() as i32);
                sundial_emu::nonzero_with_count(mem, &d, &a, o, pad)
            }
            38 => sundial_emu::sequence_bounds(mem, &d, &a),
            39 => {
                let rule = if p.coin() {
                    MxScaleRule::GoldenEmax
                } else {
                    MxScaleRule::TwiceOcp
                };
                sundial_emu::quantize_mx(mem, &d, &b, &a, rule)
            }
            40 => sundial_emu::rng(mem, &mut m.rng, &d, engine(p)),
            41 => sundial_emu::rand2(mem, &mut m.rng, &d, imm, f32v(p), engine(p)),
            42 => sundial_emu::set_rng_seed(mem, &mut m.rng, &a, engine(p)),
            43 => sundial_emu::rand_set_state(mem, &mut m.rng, &a, engine(p)),
            44 => sundial_emu::rand_get_state(mem, &m.rng, &d, engine(p)),
            45 => {
                let prob = if p.coin() {
                    DropProb::Scalar(imm)
                } else {
                    DropProb::Tile(&b)
                };
                sundial_emu::dropout(mem, &mut m.rng, &d, &a, prob)
            }
            46 => {
                // The register file: allocate, move, load, store with fuzzed ids.
                let init = p.coin().then(|| p.signed());
                if let Ok(id) = m.regs.register_alloc(init) {
                    m.reg_ids.push(id);
                }
                let reg = |p: &mut Params, ids: &[RegisterId]| match ids.get(p.u8() as usize) {
                    Some(&id) if p.coin() => id,
                    _ => RegisterId(p.u64() as u32 % 8),
                };
                let r0 = reg(p, &m.reg_ids);
                let r1 = reg(p, &m.reg_ids);
                let src = if p.coin() {
                    RegSource::Imm(p.signed())
                } else {
                    RegSource::Reg(r1)
                };
                let _ = sundial_emu::register_move(&mut m.regs, r0, src);
                let _ = sundial_emu::register_load(mem, &mut m.regs, r1, &a);
                sundial_emu::register_store(mem, &m.regs, &d, r0)
            }
            47 => {
                let mask: Vec<i64> = (0..[32usize, 32, 31, 33][p.u8() as usize % 4])
                    .map(|_| match p.u8() % 4 {
                        0 => 255,
                        1 => p.signed(),
                        _ => (p.u8() % 32) as i64,
                    })
                    .collect();
                sundial_emu::stream_shuffle(mem, &d, &a, &mask)
            }
            _ => {
                // Accumulator lanes poked directly (the executor's interface).
                let e = if p.coin() {
                    AccEngine::Vector
                } else {
                    AccEngine::Scalar
                };
                m.acc.set(e, p.size(), p.coin().then(|| f32v(p)));
                let _ = m.acc.get(e, p.size());
                Ok(())
            }
        };
    }

    /// A collective over a rank group of fuzzed size.
    fn collective(p: &mut Params) {
        let n = match p.u8() % 8 {
            0 => 0,
            1 => 257,
            _ => 1 + (p.u8() % 4) as usize,
        };
        let Ok(mut g) = RankGroup::new(target(p), n) else {
            return;
        };
        if p.u8().is_multiple_of(4) {
            let _ = g.set_check_uninit(true);
        }
        let mut views = Vec::new();
        for k in 0..3 {
            let d = dtype(p);
            let shape = [1 + (p.u8() % 4) as usize * parts(p).min(8), free(p).min(64)];
            // SBUF is one whole buffer per rank: one input in 8 has it.
            let v = if p.u8().is_multiple_of(8) {
                g.alloc_sbuf_named(&format!("s{k}"), d, &shape)
            } else {
                g.alloc_hbm(&format!("h{k}"), d, &shape)
            };
            let Ok(v) = v else { return };
            for r in 0..g.len() {
                if let Ok(mem) = g.rank_mut(r)
                    && v.num_elements() <= FILL_LIMIT
                    && p.coin()
                {
                    let bytes = generated(p.u64(), 2 * v.num_elements());
                    let mut q = Params {
                        bytes: &bytes,
                        at: 0,
                    };
                    let vals: Vec<f32> = (0..v.num_elements()).map(|_| f32v(&mut q)).collect();
                    let _ = mem.write_f32(&v, &vals);
                }
            }
            views.push(v);
        }
        let pick = |p: &mut Params| views[p.u8() as usize % views.len()].clone();
        let (d, s, t) = (pick(p), pick(p), pick(p));
        let rank_list = |p: &mut Params| -> Vec<usize> {
            (0..p.u8() % 5)
                .map(|_| {
                    if p.u8().is_multiple_of(8) {
                        p.size()
                    } else {
                        (p.u8() % 4) as usize
                    }
                })
                .collect()
        };
        let groups: Vec<Vec<usize>> = (0..p.u8() % 3).map(|_| rank_list(p)).collect();
        let dim = (p.u8() % 3) as usize;
        let op = alu(p);
        let channels: Vec<usize> = (0..p.u8() % 3).map(|_| (p.u8() % 4) as usize).collect();
        let pairs: Vec<(usize, usize)> = (0..p.u8() % 4)
            .map(|_| ((p.u8() % 5) as usize, (p.u8() % 5) as usize))
            .collect();
        let coalesced = p.coin();
        let (ds, ss, ts): (Vec<&View>, Vec<&View>, Vec<&View>) = if coalesced {
            (vec![&d, &s], vec![&s, &t], vec![&t, &d])
        } else {
            (vec![&d], vec![&s], vec![&t])
        };
        let _ = match p.u8() % 11 {
            0 => sundial_emu::all_reduce(&mut g, &ds, &ss, &groups, op),
            1 => sundial_emu::all_gather(&mut g, &ds, &ss, &groups, dim),
            2 => sundial_emu::reduce_scatter(&mut g, &ds, &ss, &groups, dim, op),
            3 => sundial_emu::all_to_all(&mut g, &ds, &ss, &groups, dim),
            4 => {
                let opts = AllToAllV {
                    recv_counts_known: p.coin(),
                    has_rdispls: p.coin(),
                };
                sundial_emu::all_to_all_v(&mut g, &d, &s, &t, &groups, opts)
            }
            5 => sundial_emu::collective_permute(&mut g, &d, &s, &pairs),
            6 => sundial_emu::collective_permute_implicit(&mut g, &ds, &ss, &groups, &channels),
            7 => sundial_emu::collective_permute_implicit_reduce(
                &mut g, &ds, &ss, &ts, &groups, op, &channels,
            ),
            8 => sundial_emu::current_processing_rank_id(
                g.len(),
                &groups,
                p.size(),
                p.signed(),
                p.size(),
                p.size(),
            )
            .map(|_| ()),
            9 => sundial_emu::rank_id_store(&mut g, &d),
            _ => sundial_emu::send_recv(&mut g, &d, &s, &pairs, p.coin()),
        };
        let _ = sundial_emu::rank_id(&g, p.size());
    }

    /// Runs one input of the compute family. A machine takes more parameters than a short
    /// input holds, so past its end the parameters come from a generator seeded with a hash
    /// of the input (not zeros: the ops' parameters, read last, would all be 0).
    pub(super) fn run(input: &[u8]) {
        let hash = input.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        let mut bytes = input[1..].to_vec();
        bytes.extend(generated(hash, 4096));
        let p = &mut Params {
            bytes: &bytes,
            at: 0,
        };
        if p.u8().is_multiple_of(8) {
            collective(p);
            return;
        }
        let Some(mut m) = machine(p) else {
            return;
        };
        for _ in 0..1 + p.u8() % 3 {
            op(p, &mut m);
        }
    }
}
