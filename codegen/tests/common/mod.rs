//! Helpers shared by the integration tests.
#![allow(dead_code)]

// PE, DMA and event samples and rule cases.
pub mod pe_dma;

use sundial_codegen::dtype::BirDtype::{self, Float32};
use sundial_codegen::enums::{BirAccumulation, BirAluOp};
use sundial_codegen::model::*;

// 3D-slot compute formats: sample instructions and validator cases.
pub mod compute3d;

// The `more` group (0xBF, 0xF1, 0x7B, 0x65): samples and validator cases.
pub mod more;

// The all-formats instruction mix of the encode benchmark.
pub mod mix;

/// Parses hex, ignoring whitespace and `|` separators.
pub fn hex(s: &str) -> Vec<u8> {
    let digits: String = s.chars().filter(|c| c.is_ascii_hexdigit()).collect();
    assert!(digits.len().is_multiple_of(2), "odd hex length");
    (0..digits.len() / 2)
        .map(|i| u8::from_str_radix(&digits[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

/// Lower-case hex of bytes.
pub fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// An SBUF static AP with one free dim.
pub fn sb(p: u32, off: u32, parts: u32, num: u16, d: BirDtype) -> AccessPattern {
    AccessPattern::Static(StaticAp::sbuf(p, off, parts, [Dim::new(1, num)], d))
}

/// An SBUF static AP with explicit dims (an array of up to four, outermost first).
pub fn sbd(p: u32, off: u32, parts: u32, dims: impl Into<Dims>, d: BirDtype) -> AccessPattern {
    AccessPattern::Static(StaticAp::sbuf(p, off, parts, dims, d))
}

/// A tensor-indirect AP: index at SBUF (ip, ioff) as u32, data at SBUF (dp, doff).
pub fn ind(
    ip: u32,
    ioff: u32,
    dp: u32,
    doff: u32,
    parts: u32,
    num: u32,
    d: BirDtype,
) -> AccessPattern {
    AccessPattern::TensorIndirect(IndirectAp {
        data: StaticAp::sbuf(dp, doff, parts, [], d),
        index: StaticAp::sbuf(ip, ioff, parts, [Dim::new(1, num as u16)], BirDtype::Uint32),
        num_indirect_indices: num,
        index_arg_id: 1,
    })
}

/// The 32-entry identity lane map.
pub fn identity_mask() -> Vec<u8> {
    (0..32).collect()
}

/// The sample RangeSelect of the golden, negative and CLI tests (lower bound 3, upper bound
/// 100.0, bound operands 1.5 and a pointer, ZeroAccumulate), edited by `f`.
pub fn rsel(f: impl FnOnce(&mut RangeSelect)) -> Instruction {
    let mut r = RangeSelect {
        src: sb(0, 0, 32, 64, Float32),
        dst: sb(0, 0x400, 32, 64, Float32),
        lower_bound: 3,
        upper_bound: 100.0,
        comp_op0: BirAluOp::IsGe,
        comp_op1: BirAluOp::IsLt,
        bound0: ScalarOperand::Imm(1.5),
        bound1: ScalarOperand::Ptr(0x800),
        reduce_cmd: BirAccumulation::ZeroAccumulate,
        reduce_res: sbd(0, 0x800, 32, [], Float32),
    };
    f(&mut r);
    Instruction::new(Op::RangeSelect(r))
}

/// A small deterministic generator (xorshift64*) driven by a proptest-chosen seed: the
/// property tests draw instruction shapes from it.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }
    /// One of `xs`.
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
    /// A fair coin.
    pub fn coin(&mut self) -> bool {
        self.next() & 1 == 0
    }
}
