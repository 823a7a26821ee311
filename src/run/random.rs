//! `--random-inputs SEED`: the deterministic contents of the arguments no `--arg` gives.
//!
//! Argument `i`'s elements come, in row-major order, from a SplitMix64 stream seeded with
//! `SEED ^ ((i + 1) * 0x9E3779B97F4A7C15)` (so each argument has its own stream and adding an
//! `--arg` does not change the others). One 64-bit draw per element (per packed element for
//! the x4 containers); the distribution per element type:
//!
//! | element type | value |
//! |---|---|
//! | floats (`f32`, `tf32`, `f16`, `bf16`, the fp8 formats) | uniform in [-1, 1) on a 2^-24 grid, rounded to the type (nearest even) |
//! | `float8_e8m0fnu` (MX scale) | 2^k with k uniform in [-8, 8] |
//! | MX x4 containers | each of the four elements as a float above, packed |
//! | signed integers | uniform in [-64, 63] |
//! | unsigned integers | uniform in [0, 127] |
//!
//! The values are a function of the seed, the argument index and the element type only, on
//! every platform.

use sundial_emu::DType;

use super::npy::Format;

/// SplitMix64 (Steele, Lea and Flood 2014): one 64-bit draw per call.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [-1, 1) on a 2^-24 grid (exact in f32).
    fn unit(&mut self) -> f32 {
        let k = (self.next() >> 40) as i64 - (1 << 23);
        k as f32 / (1u32 << 23) as f32
    }
}

/// The contents of argument `index` (`count` elements of `format`) for `seed`, as
/// little-endian element bytes.
pub fn fill(format: &Format, count: usize, seed: u64, index: usize) -> Vec<u8> {
    let mut rng = SplitMix64(
        seed ^ (index as u64)
            .wrapping_add(1)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    let d = format.emu;
    let mut out = vec![0u8; count * d.size()];
    for chunk in out.chunks_exact_mut(d.size()) {
        let bits = element(d, &mut rng);
        d.store(bits, chunk);
    }
    out
}

fn element(d: DType, rng: &mut SplitMix64) -> u64 {
    if d == DType::Fp8E8m0 {
        let k = (rng.next() % 17) as i32 - 8;
        return d.from_f32((k as f32).exp2()).unwrap_or(0);
    }
    if d.is_x4() {
        let values = [rng.unit(), rng.unit(), rng.unit(), rng.unit()];
        return sundial_emu::dtype::pack_x4(d, values).unwrap_or(0);
    }
    if d.is_signed_integer() {
        return d.from_i64((rng.next() % 128) as i64 - 64).unwrap_or(0);
    }
    if d.is_integer() {
        return d.from_i64((rng.next() % 128) as i64).unwrap_or(0);
    }
    d.from_f32(rng.unit()).unwrap_or(0)
}
