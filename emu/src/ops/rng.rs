//! The engines' random number generators: `rng` (NKI `rng`), `rand2` (NKI `rand2`),
//! `rand_get_state` / `rand_set_state` (NKI `rand_get_state` / `rand_set_state`) and
//! `set_rng_seed` (NKI `set_rng_seed`); `dropout` draws from the same state
//! ([`super::dropout`]).
//!
//! **The generator is ours, not bit-identical to the hardware.** The public docs pin the
//! algorithm family (XORWOW) and the state sizes (6 32-bit words per GpSimd lane, 24 per
//! Vector lane) but not the seeding, the state layout, how elements map to draws, nor how
//! `rand2`/`dropout` turn bits into numbers. What is pinned and kept: the same seed (or
//! the same state) gives the same numbers; each engine keeps its state across
//! instructions; `rand_get_state` after `rand_set_state` returns what was set; `rng` gives
//! 32 bits per element truncated to the low bits of the dtype.
//!
//! Our model:
//!
//! - Each of the 128 lanes (physical partitions) of the Vector and the GpSimd engine has
//!   XORWOW generators (Marsaglia 2003: five xorshift words `x, y, z, w, v` and the Weyl
//!   counter `d += 362437`, output `v + d`): one per GpSimd lane, four per Vector lane
//!   (4 x 6 = 24 words). The state words are, per generator, `[x, y, z, w, v, d]`.
//! - Element `(p, i)` of a tile (`i` the flattened free index, in order) draws from lane
//!   `start_partition + p`; on Vector from generator `i % 4` of that lane.
//! - Seeding (`set_rng_seed`, and the state before any seeding, which is seed 0): lane
//!   `l`, generator `g` of engine `e` gets its six words from SplitMix64 over
//!   `(seed, e, l, g)`; an all-zero xorshift part becomes `x = 1`.
//! - `rand2`: `min + (max - min) * u` in fp32 (inside the docs' `[min, max]`) with
//!   `u = (bits >> 8) * 2^-24` in `[0, 1)`,
//!   converted to `dst.dtype`. `dropout` drops an element when `u < prob`.
//!
//! Engine and version rules (public docstrings): `rng` runs on Vector (v2+) or GpSimd
//! (v3+) into an integer dtype of at most 32 bits; `set_rng_seed` seeds the Vector engine
//! from a `[1, 1]` 32-bit tile; `rand_set_state` / `rand_get_state` need v3+, run on GpSimd
//! (v3+) or Vector (v4+), with `uint32` tiles of 6 (GpSimd) or 24 (Vector) elements per
//! partition; `rand2` needs v4 and the Vector engine, `min < max`. GpSimd never touches
//! PSUM.

use super::layout::{part_free, require_on_chip, start_partition};
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::{MemSpace, Memory};
use crate::target::{PARTITIONS, Target};
use crate::view::View;
use sundial_codegen::model::Engine;

/// Words of one XORWOW generator's state.
pub const XORWOW_WORDS: usize = 6;
/// Generators per Vector-engine lane (24 state words).
pub const VECTOR_GENERATORS: usize = 4;

/// One XORWOW generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Xorwow {
    s: [u32; 5],
    d: u32,
}

impl Xorwow {
    fn next(&mut self) -> u32 {
        let t = self.s[0] ^ (self.s[0] >> 2);
        self.s.copy_within(1..5, 0);
        let v = self.s[3];
        self.s[4] = (v ^ (v << 4)) ^ (t ^ (t << 1));
        self.d = self.d.wrapping_add(362_437);
        self.s[4].wrapping_add(self.d)
    }

    fn words(&self) -> [u32; XORWOW_WORDS] {
        [
            self.s[0], self.s[1], self.s[2], self.s[3], self.s[4], self.d,
        ]
    }

    fn from_words(w: &[u32]) -> Xorwow {
        Xorwow {
            s: [w[0], w[1], w[2], w[3], w[4]],
            d: w[5],
        }
    }

    /// Our seeding (module doc).
    fn seeded(seed: u32, engine: u64, lane: usize, generator: usize) -> Xorwow {
        let mut z =
            (u64::from(seed) << 32) ^ (engine << 24) ^ ((lane as u64) << 8) ^ generator as u64;
        let mut next = || {
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut x = z;
            x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (x ^ (x >> 31)) as u32
        };
        let mut s = [next(), next(), next(), next(), next()];
        if s == [0; 5] {
            s[0] = 1;
        }
        Xorwow { s, d: next() }
    }
}

/// The random state of one core: the generators of every Vector and GpSimd lane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RngState {
    vector: Vec<[Xorwow; VECTOR_GENERATORS]>,
    gpsimd: Vec<Xorwow>,
}

impl Default for RngState {
    fn default() -> Self {
        RngState::new()
    }
}

impl RngState {
    /// The state before any seeding: both engines seeded with 0 (our choice).
    pub fn new() -> RngState {
        let mut s = RngState {
            vector: Vec::new(),
            gpsimd: Vec::new(),
        };
        s.seed(Engine::Vector, 0);
        s.seed(Engine::GpSimd, 0);
        s
    }

    /// Seeds every lane of `engine` (Vector or GpSimd; others are ignored) from `seed`.
    fn seed(&mut self, engine: Engine, seed: u32) {
        match engine {
            Engine::Vector => {
                self.vector = (0..PARTITIONS)
                    .map(|l| std::array::from_fn(|g| Xorwow::seeded(seed, 1, l, g)))
                    .collect();
            }
            Engine::GpSimd => {
                self.gpsimd = (0..PARTITIONS)
                    .map(|l| Xorwow::seeded(seed, 2, l, 0))
                    .collect();
            }
            _ => {}
        }
    }

    /// The next 32 random bits of lane `lane`, for free element `i` of a tile.
    fn draw(&mut self, engine: Engine, lane: usize, i: usize) -> u32 {
        match engine {
            Engine::Vector => self.vector[lane][i % VECTOR_GENERATORS].next(),
            _ => self.gpsimd[lane].next(),
        }
    }

    /// Random bits for every element of a `[p, f]` tile whose row 0 is on partition
    /// `first`, drawn in row-major order (per lane, in free order).
    pub(crate) fn draw_tile(
        &mut self,
        engine: Engine,
        first: usize,
        p: usize,
        f: usize,
    ) -> Vec<u32> {
        let mut out = Vec::with_capacity(p * f);
        for r in 0..p {
            for i in 0..f {
                out.push(self.draw(engine, first + r, i));
            }
        }
        out
    }
}

/// `u` in `[0, 1)` from 32 random bits (the top 24, exact in fp32).
pub(crate) fn unit(bits: u32) -> f32 {
    (bits >> 8) as f32 * (1.0 / 16_777_216.0)
}

const OP_RNG: &str = "rng";
const OP_RAND2: &str = "rand2";
const OP_SEED: &str = "set_rng_seed";
const OP_SET: &str = "rand_set_state";
const OP_GET: &str = "rand_get_state";

/// `rng`: 32 random bits per element, truncated to the low bits of `dst`'s integer dtype.
pub fn rng(mem: &mut Memory, state: &mut RngState, dst: &View, engine: Engine) -> Result<()> {
    let target = mem.target();
    match engine {
        Engine::Vector => {}
        Engine::GpSimd if target != Target::Sunda => {
            if mem.space(dst.alloc())? != MemSpace::Sbuf {
                return Err(EmuError::memory(OP_RNG, "GpSimd cannot write PSUM"));
            }
        }
        e => {
            return Err(EmuError::unsupported(
                OP_RNG,
                format!(
                    "rng runs on vector (or gpsimd from v3), not {} on {}",
                    e.name(),
                    target.name()
                ),
            ));
        }
    }
    if !matches!(
        dst.dtype(),
        DType::I8 | DType::I16 | DType::I32 | DType::U8 | DType::U16 | DType::U32
    ) {
        return Err(EmuError::dtype(
            OP_RNG,
            format!(
                "dst must be an integer type of at most 32 bits, not {}",
                dst.dtype()
            ),
        ));
    }
    let (p, f) = part_free(OP_RNG, "dst", dst)?;
    let first = start_partition(mem, OP_RNG, "dst", dst)?;
    // Draw on a copy and keep it only once the write succeeded: a failed op changes nothing.
    let mut next = state.clone();
    let bits: Vec<u64> = next
        .draw_tile(engine, first, p, f)
        .into_iter()
        .map(u64::from)
        .collect();
    // write_bits truncates each word to the element size: the low bits.
    mem.write_bits_for(OP_RNG, dst, &bits)?;
    *state = next;
    Ok(())
}

/// `rand2`: uniform values in `[min, max]` (Vector engine, v4).
pub fn rand2(
    mem: &mut Memory,
    state: &mut RngState,
    dst: &View,
    min: f32,
    max: f32,
    engine: Engine,
) -> Result<()> {
    if mem.target() != Target::Mariana || engine != Engine::Vector {
        return Err(EmuError::unsupported(
            OP_RAND2,
            format!(
                "rand2 runs on the vector engine of NeuronCore v4, not {} on {}",
                engine.name(),
                mem.target().name()
            ),
        ));
    }
    if min.is_nan() || max.is_nan() || min >= max {
        return Err(EmuError::invalid(
            OP_RAND2,
            format!("min {min} must be less than max {max}"),
        ));
    }
    require_on_chip(mem, OP_RAND2, "dst", dst)?;
    if dst.dtype().is_x4() || matches!(dst.dtype(), DType::U64 | DType::I64 | DType::Fp8E8m0) {
        return Err(EmuError::dtype(
            OP_RAND2,
            format!("rand2 cannot write {}", dst.dtype()),
        ));
    }
    let (p, f) = part_free(OP_RAND2, "dst", dst)?;
    let first = start_partition(mem, OP_RAND2, "dst", dst)?;
    let mut next = state.clone();
    let vals: Vec<f32> = next
        .draw_tile(Engine::Vector, first, p, f)
        .into_iter()
        .map(|b| min + (max - min) * unit(b))
        .collect();
    mem.write_f32_for(OP_RAND2, dst, &vals)?;
    *state = next;
    Ok(())
}

/// `set_rng_seed`: seeds the Vector engine from a `[1, 1]` 32-bit tile.
pub fn set_rng_seed(
    mem: &mut Memory,
    state: &mut RngState,
    seed: &View,
    engine: Engine,
) -> Result<()> {
    if engine != Engine::Vector {
        return Err(EmuError::unsupported(
            OP_SEED,
            format!(
                "set_rng_seed seeds the vector engine; seeding {} from one word is not public",
                engine.name()
            ),
        ));
    }
    require_on_chip(mem, OP_SEED, "the seed", seed)?;
    if !matches!(seed.dtype(), DType::U32 | DType::I32) || seed.num_elements() != 1 {
        return Err(EmuError::shape(
            OP_SEED,
            format!(
                "the seed must be one 32-bit integer ([1, 1]), not {:?} {}",
                seed.shape(),
                seed.dtype()
            ),
        ));
    }
    let word = mem.read_bits_for(OP_SEED, seed)?[0] as u32;
    state.seed(Engine::Vector, word);
    Ok(())
}

/// Checks the engine, version, dtype and shape rules of the state transfers; returns the
/// words per lane and the tile's first partition and row count.
fn state_tile(
    mem: &Memory,
    op: &'static str,
    tile: &View,
    engine: Engine,
) -> Result<(usize, usize, usize)> {
    let target = mem.target();
    let words = match (engine, target) {
        (_, Target::Sunda) => {
            return Err(EmuError::unsupported(
                op,
                "the PRNG state transfers need NeuronCore v3 or newer",
            ));
        }
        (Engine::GpSimd, _) => XORWOW_WORDS,
        (Engine::Vector, Target::Mariana) => XORWOW_WORDS * VECTOR_GENERATORS,
        (e, t) => {
            return Err(EmuError::unsupported(
                op,
                format!(
                    "{op} runs on gpsimd (v3+) or vector (v4+), not {} on {}",
                    e.name(),
                    t.name()
                ),
            ));
        }
    };
    let space = mem.space(tile.alloc())?;
    let psum_ok = op == OP_GET && engine == Engine::Vector;
    if space != MemSpace::Sbuf && !(space == MemSpace::Psum && psum_ok) {
        return Err(EmuError::memory(
            op,
            format!("the state tile must be in SBUF, not {space:?}"),
        ));
    }
    if tile.dtype() != DType::U32 {
        return Err(EmuError::dtype(
            op,
            format!("the state tile must be uint32, not {}", tile.dtype()),
        ));
    }
    let (p, f) = part_free(op, "the state tile", tile)?;
    if f != words {
        return Err(EmuError::shape(
            op,
            format!("{} lanes hold {words} state words, not {f}", engine.name()),
        ));
    }
    let first = start_partition(mem, op, "the state tile", tile)?;
    Ok((words, first, p))
}

/// `rand_set_state`: each partition of `src` becomes the state of its engine lane.
pub fn rand_set_state(
    mem: &mut Memory,
    state: &mut RngState,
    src: &View,
    engine: Engine,
) -> Result<()> {
    let (words, first, p) = state_tile(mem, OP_SET, src, engine)?;
    let bits: Vec<u32> = mem
        .read_bits_for(OP_SET, src)?
        .into_iter()
        .map(|b| b as u32)
        .collect();
    for (r, lane) in bits.chunks_exact(words).enumerate().take(p) {
        let l = first + r;
        match engine {
            Engine::Vector => {
                for (g, w) in lane.chunks_exact(XORWOW_WORDS).enumerate() {
                    state.vector[l][g] = Xorwow::from_words(w);
                }
            }
            _ => state.gpsimd[l] = Xorwow::from_words(lane),
        }
    }
    Ok(())
}

/// `rand_get_state`: each partition of `dst` receives the state of its engine lane.
pub fn rand_get_state(
    mem: &mut Memory,
    state: &RngState,
    dst: &View,
    engine: Engine,
) -> Result<()> {
    let (words, first, p) = state_tile(mem, OP_GET, dst, engine)?;
    let mut bits = Vec::with_capacity(p * words);
    for l in first..first + p {
        match engine {
            Engine::Vector => {
                for g in &state.vector[l] {
                    bits.extend(g.words().map(u64::from));
                }
            }
            _ => bits.extend(state.gpsimd[l].words().map(u64::from)),
        }
    }
    mem.write_bits_for(OP_GET, dst, &bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xorwow_follows_marsaglias_step() {
        // Worked by hand from the published recurrence with x..v = 1..5, d = 0:
        // t = 1 ^ (1 >> 2) = 1; v' = (5 ^ (5 << 4)) ^ (1 ^ (1 << 1)) = 85 ^ 3 = 86;
        // d = 362437; output = 86 + 362437 = 362523.
        let mut g = Xorwow {
            s: [1, 2, 3, 4, 5],
            d: 0,
        };
        assert_eq!(g.next(), 362_523);
        assert_eq!(g.words(), [2, 3, 4, 5, 86, 362_437]);
    }

    #[test]
    fn seeding_is_deterministic_and_lanes_differ() {
        let a = Xorwow::seeded(7, 1, 3, 0);
        assert_eq!(a, Xorwow::seeded(7, 1, 3, 0));
        assert_ne!(a, Xorwow::seeded(7, 1, 4, 0));
        assert_ne!(a, Xorwow::seeded(8, 1, 3, 0));
        assert_eq!(unit(u32::MAX), 1.0 - 1.0 / 16_777_216.0);
        assert_eq!(unit(0), 0.0);
    }
}
