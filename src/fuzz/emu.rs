//! The `emu` fuzz target: an input is a string of parameters (read like a data provider: each
//! value takes the next bytes, zero once they run out) that builds a small machine state,
//! views with arbitrary offsets, shapes and strides (huge ones included), access patterns with
//! indirect subscripts and arbitrary variable spaces, and one emulator op on them. Every
//! `Err` is a normal outcome; a panic or an abort is a crash.

use sundial_emu::{
    Access, Affine, DType, DmaOperand, Memory, OobMode, ReduceOp, Subscript, Target, VarSpace, View,
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
