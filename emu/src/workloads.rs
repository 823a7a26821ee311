//! The seven benchmark workloads of indirect-emulation.md, buildable at any size.
//!
//! Every workload has the same structure: an f16 source whose leading `n` dimensions
//! are addressed through one i32 index view each (sorted unique random picks, from a
//! fixed-seed generator so runs are reproducible) and whose trailing dimensions are
//! read whole by bare direct variables. The cross-product forms of the seed
//! (`X[P[e], T[e], h]` built as `P[d0] x T[d1]`) are exactly this structure.
//!
//! Source conflict settled: the seed's section 6 writes the paged-attention pattern as
//! `cache[BT[0, d0], d1, d2, d3]` (a 2-D block table, one page), its benchmark table as
//! `cache[BT[d0], d1, d2, d3]` with 16 pages; the benchmark follows the table (both are
//! from the seed; the table is the one with sizes). The 2-D form is covered by the
//! engine tests (index views read at `[var, constant]`).
//!
//! The benchmark binary builds them at full size; tests build scaled-down copies
//! ([`Workload::scaled`]) and run them through both paths.

use crate::access::{Access, Affine, Subscript, VarSpace};
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::Memory;
use crate::target::Target;
use crate::view::View;

/// One benchmark workload.
#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    /// Name in the seed's table.
    pub name: &'static str,
    /// The access expression as the seed writes it.
    pub access_expr: &'static str,
    /// The model the seed attributes the pattern to.
    pub model: &'static str,
    /// Source (f16) shape.
    pub source_shape: Vec<usize>,
    /// Number of indices picked for each leading (indirect) dimension.
    pub picks: Vec<usize>,
    /// The seed's Python general path on this workload, ms (indirect-emulation.md).
    pub seed_general_ms: f64,
    /// The Python peer's median whole `indirect_load`, ms (indirect-emulation.md).
    pub peer_indirect_load_ms: f64,
}

/// The seven workloads at their full sizes (indirect-emulation.md, "Benchmark
/// workloads").
pub fn all() -> Vec<Workload> {
    let w = |name,
             access_expr,
             model,
             source_shape: &[usize],
             picks: &[usize],
             seed_general_ms,
             peer_indirect_load_ms| Workload {
        name,
        access_expr,
        model,
        source_shape: source_shape.to_vec(),
        picks: picks.to_vec(),
        seed_general_ms,
        peer_indirect_load_ms,
    };
    vec![
        w(
            "moe-262K",
            "X[IDX[e], m, n]",
            "deepseek-v2",
            &[128, 256, 128],
            &[8],
            744.0,
            5.0,
        ),
        w(
            "moe-1M",
            "X[IDX[e], m, n]",
            "deepseek-v2",
            &[128, 1024, 128],
            &[8],
            2822.0,
            21.6,
        ),
        w(
            "paged-attn-256K",
            "cache[BT[d0], d1, d2, d3]",
            "llama-8b",
            &[1024, 16, 128, 128],
            &[16],
            13278.0,
            115.8,
        ),
        w(
            "sparse-attn-32K",
            "X[P[e], T[e], h]",
            "bigbird-base",
            &[1024, 512, 64],
            &[4, 16],
            24.0,
            0.49,
        ),
        w(
            "sparse-attn-128K",
            "X[P[e], T[e], h]",
            "bigbird-large",
            &[4096, 512, 256],
            &[4, 16],
            200.0,
            0.71,
        ),
        w(
            "retro-attn-16K",
            "mem[doc[d], chunk[c], h]",
            "retro-7b",
            &[1024, 128, 128],
            &[32, 4],
            84.0,
            1.00,
        ),
        w(
            "multi-head-4M",
            "X[E[e], H[h], m, n]",
            "llama-8b",
            &[128, 64, 256, 256],
            &[8, 8],
            22408.0,
            127.9,
        ),
    ]
}

/// A built workload: memory holding the source and index views, the access, and a
/// destination tile for the result.
#[derive(Debug)]
pub struct Instance {
    /// The memory (HBM only).
    pub mem: Memory,
    /// The indirect access `X[IDX0[v0], .., v_n, ..]`.
    pub access: Access,
    /// The f16 source view.
    pub source: View,
    /// A destination tile of the result shape.
    pub dst: View,
    /// The picked indices per indirect dimension.
    pub indices: Vec<Vec<i64>>,
}

impl Workload {
    /// The same pattern with other sizes (for tests).
    pub fn scaled(&self, source_shape: &[usize], picks: &[usize]) -> Workload {
        Workload {
            source_shape: source_shape.to_vec(),
            picks: picks.to_vec(),
            ..self.clone()
        }
    }

    /// The result (tile) shape: the picks, then the trailing source dimensions.
    pub fn result_shape(&self) -> Vec<usize> {
        let mut s = self.picks.clone();
        s.extend_from_slice(&self.source_shape[self.picks.len().min(self.source_shape.len())..]);
        s
    }

    /// Number of result elements.
    pub fn num_points(&self) -> usize {
        self.result_shape().iter().product()
    }

    /// Bytes moved (result elements x 2 bytes of f16).
    pub fn bytes(&self) -> usize {
        self.num_points() * DType::F16.size()
    }

    /// Allocates and fills the source, picks the indices, builds the access and a
    /// destination tile.
    pub fn build(&self, seed: u64) -> Result<Instance> {
        const OP: &str = "workload";
        let n = self.picks.len();
        if n == 0 || n > self.source_shape.len() {
            return Err(EmuError::shape(
                OP,
                format!("{} picks for a rank-{} source", n, self.source_shape.len()),
            ));
        }
        let mut rng = SplitMix64(seed);
        let mut mem = Memory::new(Target::Cayman);
        let source = mem.alloc_hbm("X", DType::F16, &self.source_shape)?;
        fill_source(mem.bytes_mut(source.alloc())?);
        let mut index_views = Vec::with_capacity(n);
        let mut indices = Vec::with_capacity(n);
        for (d, &k) in self.picks.iter().enumerate() {
            let ext = self.source_shape[d];
            if k > ext {
                return Err(EmuError::shape(OP, format!("{k} picks from {ext}")));
            }
            let picked = rng.sorted_unique(k, ext);
            let iv = mem.alloc_hbm(&format!("IDX{d}"), DType::I32, &[k])?;
            mem.write_i64(&iv, &picked)?;
            index_views.push(iv);
            indices.push(picked);
        }
        let rank = self.source_shape.len();
        let subscripts = (0..rank)
            .map(|d| {
                if d < n {
                    Subscript::indirect(d, vec![Affine::var(d)])
                } else {
                    Subscript::var(d)
                }
            })
            .collect();
        let result_shape = self.result_shape();
        let access = Access {
            source: source.clone(),
            index_views,
            subscripts,
            space: VarSpace::from_extents(&result_shape),
            order: None,
        };
        let dst = mem.alloc_hbm("out", DType::F16, &result_shape)?;
        Ok(Instance {
            mem,
            access,
            source,
            dst,
            indices,
        })
    }
}

impl Instance {
    /// Checks `result` (the bytes of a result tile) against a direct reference: for
    /// every combination of picked indices, the block of trailing dimensions at those
    /// indices, copied from the source by plain slicing.
    pub fn matches_reference(&self, result: &[u8]) -> Result<bool> {
        let src = self.mem.bytes(self.source.alloc())?;
        let shape = self.source.shape();
        let n = self.indices.len();
        let block: usize = shape[n..].iter().product::<usize>() * 2;
        let mut combo = vec![0usize; n];
        let total: usize = self.indices.iter().map(Vec::len).product();
        if result.len() != total * block {
            return Ok(false);
        }
        for t in 0..total {
            let mut rest = t;
            for d in (0..n).rev() {
                combo[d] = rest % self.indices[d].len();
                rest /= self.indices[d].len();
            }
            let mut flat = 0usize;
            for d in 0..n {
                flat = flat * shape[d] + self.indices[d][combo[d]] as usize;
            }
            let s = flat * block;
            if src[s..s + block] != result[t * block..(t + 1) * block] {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// Deterministic finite f16 values (no NaN/Inf, both signs), so a NaN in a result can
/// only come from an uninitialised element.
fn fill_source(bytes: &mut [u8]) {
    for (i, c) in bytes.chunks_exact_mut(2).enumerate() {
        let h = (i as u32).wrapping_mul(0x9E37_79B1);
        let bits = ((h >> 17) & 0x3FFF) as u16 | ((h >> 16) as u16 & 0x8000);
        c.copy_from_slice(&bits.to_le_bytes());
    }
}

/// SplitMix64, a small reproducible generator.
#[derive(Debug, Clone)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (`n > 0`; modulo bias is irrelevant at these sizes).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// `k` distinct values from `0..n`, sorted (partial Fisher-Yates).
    pub fn sorted_unique(&mut self, k: usize, n: usize) -> Vec<i64> {
        let mut pool: Vec<usize> = (0..n).collect();
        let k = k.min(n);
        for i in 0..k {
            let j = i + self.below(n - i);
            pool.swap(i, j);
        }
        let mut out: Vec<i64> = pool[..k].iter().map(|&x| x as i64).collect();
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_sizes_match_the_seed_table() {
        let shapes: Vec<Vec<usize>> = all().iter().map(Workload::result_shape).collect();
        assert_eq!(
            shapes,
            vec![
                vec![8, 256, 128],
                vec![8, 1024, 128],
                vec![16, 16, 128, 128],
                vec![4, 16, 64],
                vec![4, 16, 256],
                vec![32, 4, 128],
                vec![8, 8, 256, 256],
            ]
        );
        // The largest source, multi-head-4M, is 1 GiB of f16: under the 2 GB budget.
        let max_src = all()
            .iter()
            .map(|w| w.source_shape.iter().product::<usize>() * 2)
            .max();
        assert_eq!(max_src, Some(1 << 30));
    }

    #[test]
    fn picks_are_sorted_unique_and_reproducible() {
        let a = SplitMix64(7).sorted_unique(16, 1024);
        let b = SplitMix64(7).sorted_unique(16, 1024);
        assert_eq!(a, b);
        assert!(a.windows(2).all(|w| w[0] < w[1]));
        assert!(a.iter().all(|&x| (0..1024).contains(&x)));
        assert_eq!(SplitMix64(1).sorted_unique(5, 5), vec![0, 1, 2, 3, 4]);
    }
}
