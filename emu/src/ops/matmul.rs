//! `matmul` (LoadStationary 0x01 + MultiplyMoving 0x02): NKI `nc_matmul`, and `matmul_mx`:
//! NKI `nc_matmul_mx`, on the Tensor engine into PSUM.
//!
//! Semantics restated from the public `nki.isa.nc_matmul` docstring:
//!
//! ```text
//! dst[m, n] (PSUM) = sum_k stationary[k, m] * moving[k, n]      # stationary.T @ moving
//! ```
//!
//! - `stationary` `[K, M]` and `moving` `[K, N]` are SBUF tiles (free dimensions flattened),
//!   `dst` `[M, N]` a PSUM tile. `K <= 128`, `M <= 128`; `N <= 512` on NeuronCore v2/v3,
//!   `<= 4096` (fp32 dst) / `8192` (bf16 dst) on v4.
//! - Inputs: `float8_e4m3`, `float8_e5m2`, `bfloat16`, `float16`, `float32` (plus
//!   `float8_e4m3fn` on v4, never together with `float8_e4m3`); if one operand is `float32`
//!   the other must be too (`tfloat32` is not a modelled dtype). `dst` is `float32`, or
//!   `bfloat16` on v4. Accumulation is fp32.
//! - **Accumulation groups** (`accumulate`): `Some(false)` overwrites `dst`; `Some(true)`
//!   adds to its content (`dst = dtype(f32(dst) + result)`); `None` (NKI's default)
//!   auto-detects per element: the first write to a PSUM location overwrites, later ones
//!   accumulate. "Written" is the PSUM written-shadow (`memory.rs`): any write since the tile
//!   was allocated (or [`Memory::fill_uninit`]) counts, so a new `alloc_psum` starts a new
//!   group.
//! - `perf_mode = double_row` (v3+): fp8 operands `[K, 2, M]` and `[K, 2, N]`, the
//!   contraction running over `K x 2`; not with column tiling.
//! - `tile_position` / `tile_size` (both or neither) place the matmul in a row/column tile
//!   of the 128x128 PE array: sizes 128, 64, or 32 (v3+), positions multiples of the size,
//!   `K <= row_size`, `M <= column_size`. They do not change the result; they are checked.
//! - `is_transpose` (v3+): the bit-accurate PE transpose. `moving` must be the identity
//!   `[K, K]` (the docs' construction: data as stationary, identity as moving; anything
//!   else is refused, the hardware result is not public), `dst` `[M, K]` has the dtype of
//!   `stationary`, and `dst[m, k] = stationary[k, m]` bit for bit (NaN/Inf included). On v2
//!   the flag only marks the instruction for the profiler and the matmul runs as usual.
//!   It does not accumulate (`accumulate = Some(true)` is refused).
//! - `is_stationary_onezero` / `is_moving_onezero` are performance hints that the operand
//!   holds only ones and zeros; a set hint with any other value is refused (the hardware
//!   result would rely on the false hint).
//!
//! Semantics of `nc_matmul_mx` (v4; the docstring and the public golden
//! `mx_cpu_utils.nc_matmul_mx_golden`): `stationary` `[K, M]` and `moving` `[K, N]` are
//! `float8_e5m2_x4` / `float8_e4m3fn_x4` / `float4_e2m1fn_x4` SBUF tiles, each element
//! four packed values along the contraction; `K` a multiple of 32, at most 128; `M` even,
//! at most 128; `N <= 512` (fp32 dst) or 1024 (bf16 dst). Scales are `uint8` (or
//! `float8_e8m0fnu`) E8M0 codes, one per 8 partitions x 1 x4 element: the scale of data
//! partition `k`, column `c` is at scale partition `(k/32)*32 + (k%32)/8` (each 32-partition
//! quadrant keeps its 4 scale rows at its start), column `c`; extra scale columns are
//! ignored. A scale tile of exactly `K / 8` partitions is the logical `[K/8, cols]` scale
//! tensor instead (NKI's scale geometry check, which the verifier accepts): row `k / 8` at
//! partition `k / 8`. Then
//!
//! ```text
//! dst[i, j] = sum_k sum_q (st[k, i].q * 2^(ss[k, i] - 127)) * (mv[k, j].q * 2^(ms[k, j] - 127))
//! ```
//!
//! with only row tiling (`tile_size` column 128, `tile_position` column 0) and the same
//! `accumulate` rule.
//!
//! **Logical machines** (`Memory::logical`, kernels before partition tiling): `M` may reach
//! the machine's partitions (dst rows are independent, so the result is the same as `M` in
//! blocks of 128), and `K` beyond 128 runs as the PE array runs it, in blocks of 128
//! partitions accumulated into `dst` in order: the first block with the op's `accumulate`,
//! the others accumulating (each block's sum starts from zero, and `dst` is rounded to its
//! dtype after every block). `tile_position` / `tile_size` pin the physical array and are
//! refused with `K` beyond 128, as is `is_transpose`. The matmul_mx scale groups are laid
//! out per physical quadrant: `nc_matmul_mx` keeps the physical bounds.
//!
//! Our choices (not pinned by the public docs, stated so a reader can check them): the
//! fp32 sum runs in contraction order (k ascending; within `double_row`, the pair index
//! after k; within an x4 element, lane 0..3), rounding after every addition, with each
//! product rounded to fp32 (exact for the 8- and 16-bit input formats). A `bfloat16` dst
//! holds the rounded result; accumulating into it reads it as fp32, adds, and rounds again.
//! The adds and multiplies are the ALU table's `add` and `mult` (`alu.rs`).

use super::alu::{add_f32, mult_f32};
use super::layout::{part_free, part_free_within};
use super::require_space;
use crate::dtype::{self, DType};
use crate::error::{EmuError, Result};
use crate::memory::{MemSpace, Memory};
use crate::target::{PARTITIONS, QUADRANT_PARTITIONS, Target};
use crate::view::View;
use sundial_codegen::model::PerfOptMode;

const OP: &str = "matmul";
const OP_MX: &str = "matmul_mx";

/// The attributes of `nc_matmul` (the NISA `matmul` op's attributes, same names).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatmulOptions {
    /// Performance hint: `stationary` holds only 0 and 1.
    pub is_stationary_onezero: bool,
    /// Performance hint: `moving` holds only 0 and 1.
    pub is_moving_onezero: bool,
    /// PE transpose mode (see the module doc).
    pub is_transpose: bool,
    /// Overwrite (`Some(false)`), accumulate (`Some(true)`) or auto-detect (`None`).
    pub accumulate: Option<bool>,
    /// `(start_row, start_column)` of the PE tile; with `tile_size`.
    pub tile_position: Option<[usize; 2]>,
    /// `(row_size, column_size)` of the PE tile; with `tile_position`.
    pub tile_size: Option<[usize; 2]>,
    /// `none` or `double_row` (the other PE perf modes have no public matmul semantics).
    pub perf_mode: PerfOptMode,
}

impl Default for MatmulOptions {
    /// NKI's defaults: no hints, no transpose, `accumulate=None`, the full array, no perf mode.
    fn default() -> Self {
        MatmulOptions {
            is_stationary_onezero: false,
            is_moving_onezero: false,
            is_transpose: false,
            accumulate: None,
            tile_position: None,
            tile_size: None,
            perf_mode: PerfOptMode::None,
        }
    }
}

/// The attributes of `nc_matmul_mx` (the NISA `matmul_mx` op's attributes).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MatmulMxOptions {
    /// `(start_row, start_column)`; `start_column` must be 0.
    pub tile_position: Option<[usize; 2]>,
    /// `(row_size, column_size)`; `column_size` must be 128.
    pub tile_size: Option<[usize; 2]>,
    /// Overwrite, accumulate or auto-detect, as for `nc_matmul`.
    pub accumulate: Option<bool>,
}

/// `nc_matmul`: `dst = stationary.T @ moving` into PSUM (see the module doc).
pub fn nc_matmul(
    mem: &mut Memory,
    dst: &View,
    stationary: &View,
    moving: &View,
    opts: &MatmulOptions,
) -> Result<()> {
    let target = mem.target();
    require_space(mem, OP, "stationary", stationary, MemSpace::Sbuf)?;
    require_space(mem, OP, "moving", moving, MemSpace::Sbuf)?;
    require_space(mem, OP, "dst", dst, MemSpace::Psum)?;
    if mem.is_logical() && stationary.shape().first().is_some_and(|&k| k > PARTITIONS) {
        return k_blocks(mem, dst, stationary, moving, opts);
    }
    let double_row = match opts.perf_mode {
        PerfOptMode::None => false,
        PerfOptMode::DoubleRow => {
            if target == Target::Sunda {
                return Err(EmuError::unsupported(
                    OP,
                    "perf_mode double_row needs NeuronCore v3 or newer",
                ));
            }
            true
        }
        other => {
            return Err(EmuError::unsupported(
                OP,
                format!("perf_mode {other:?} has no public nc_matmul semantics"),
            ));
        }
    };
    let (k, m) = part_free(OP, "stationary", stationary)?;
    let (k2, n) = part_free(OP, "moving", moving)?;
    if k != k2 {
        return Err(EmuError::shape(
            OP,
            format!("stationary has {k} partitions but moving has {k2}: they are the contraction"),
        ));
    }
    let pairs = if double_row { 2 } else { 1 };
    if double_row {
        for (what, v) in [("stationary", stationary), ("moving", moving)] {
            if v.rank() != 3 || v.shape()[1] != 2 {
                return Err(EmuError::shape(
                    OP,
                    format!(
                        "double_row needs {what} of shape [K, 2, F], not {:?}",
                        v.shape()
                    ),
                ));
            }
        }
    }
    // Free sizes without the double_row pair dimension.
    let (m, n) = (m / pairs, n / pairs);
    // Without tiling, a logical machine's dst rows (M) are independent partitions.
    let columns = mem.partitions();
    let tiles = check_tiling(
        OP,
        target,
        (opts.tile_position, opts.tile_size),
        (k, m),
        columns,
        false,
    )?;
    if double_row && tiles.is_some_and(|[_, cols]| cols < PARTITIONS) {
        return Err(EmuError::unsupported(
            OP,
            "double_row cannot be combined with column tiling",
        ));
    }

    let (sd, md, dd) = (stationary.dtype(), moving.dtype(), dst.dtype());
    if opts.is_transpose && target != Target::Sunda {
        return pe_transpose_matmul(mem, dst, stationary, moving, opts, k, m, n);
    }
    check_input_dtypes(target, sd, md, double_row)?;
    match (dd, target) {
        (DType::F32, _) | (DType::Bf16, Target::Mariana) => {}
        _ => {
            return Err(EmuError::dtype(
                OP,
                format!(
                    "dst must be float32{} in PSUM, not {dd}",
                    if target == Target::Mariana {
                        " or bfloat16"
                    } else {
                        ""
                    }
                ),
            ));
        }
    }
    let n_max = match (target, dd) {
        (Target::Mariana, DType::Bf16) => 8192,
        (Target::Mariana, _) => 4096,
        _ => 512,
    };
    if n > n_max {
        return Err(EmuError::shape(
            OP,
            format!("moving has {n} elements per partition, more than {n_max}"),
        ));
    }
    check_dst_shape(OP, dst, m, n, columns)?;

    let s = mem.read_f32_for(OP, stationary)?;
    let mv = mem.read_f32_for(OP, moving)?;
    for (flag, what, vals) in [
        (opts.is_stationary_onezero, "stationary", &s),
        (opts.is_moving_onezero, "moving", &mv),
    ] {
        if flag && let Some(v) = vals.iter().find(|&&v| v != 0.0 && v != 1.0) {
            return Err(EmuError::unsupported(
                OP,
                format!("is_{what}_onezero is set but {what} holds {v}"),
            ));
        }
    }
    // s is [k][r][m], mv is [k][r][n] (r = the double_row pair, extent 1 otherwise).
    let mut out = vec![0f32; m * n];
    for (mi, row) in out.chunks_exact_mut(n.max(1)).enumerate() {
        for (ni, o) in row.iter_mut().enumerate() {
            let mut acc = 0f32;
            for ki in 0..k {
                for r in 0..pairs {
                    let p = mult_f32(s[(ki * pairs + r) * m + mi], mv[(ki * pairs + r) * n + ni]);
                    acc = add_f32(acc, p);
                }
            }
            *o = acc;
        }
    }
    write_psum(mem, OP, dst, &out, opts.accumulate)
}

/// A matmul with `K` beyond 128 on a logical machine (module doc): the K blocks of 128
/// partitions accumulate into `dst` in order. Every operand is read whole first, so that a
/// failing op (a shape, dtype, hint or uninitialised read) leaves `dst` untouched.
fn k_blocks(
    mem: &mut Memory,
    dst: &View,
    stationary: &View,
    moving: &View,
    opts: &MatmulOptions,
) -> Result<()> {
    let k = stationary.shape()[0];
    if opts.tile_position.is_some() || opts.tile_size.is_some() || opts.is_transpose {
        return Err(EmuError::unsupported(
            OP,
            format!(
                "tile_position, tile_size and is_transpose pin the {PARTITIONS}x{PARTITIONS} PE \
                 array: a contraction of {k} partitions (a logical tile) runs only without them"
            ),
        ));
    }
    let (_, _) = part_free_within(OP, "stationary", stationary, mem.partitions())?;
    let (k2, _) = part_free_within(OP, "moving", moving, mem.partitions())?;
    if k != k2 {
        return Err(EmuError::shape(
            OP,
            format!("stationary has {k} partitions but moving has {k2}: they are the contraction"),
        ));
    }
    for (flag, what, v) in [
        (opts.is_stationary_onezero, "stationary", stationary),
        (opts.is_moving_onezero, "moving", moving),
    ] {
        let vals = mem.read_f32_for(OP, v)?;
        if flag && let Some(x) = vals.iter().find(|&&x| x != 0.0 && x != 1.0) {
            return Err(EmuError::unsupported(
                OP,
                format!("is_{what}_onezero is set but {what} holds {x}"),
            ));
        }
    }
    // A block's checks depend on its shape (the op's, but K), dtypes (the op's) and
    // contents (read above, hints checked), so a later block fails only where the first
    // one does, before anything is written.
    for (b, start) in (0..k).step_by(PARTITIONS).enumerate() {
        let len = PARTITIONS.min(k - start);
        let block = MatmulOptions {
            accumulate: if b == 0 { opts.accumulate } else { Some(true) },
            ..opts.clone()
        };
        nc_matmul(
            mem,
            dst,
            &stationary.slice(0, start, len, 1)?,
            &moving.slice(0, start, len, 1)?,
            &block,
        )?;
    }
    Ok(())
}

/// The v3+ `is_transpose` matmul: `moving` must be the identity, the result a bit copy.
#[allow(clippy::too_many_arguments)]
fn pe_transpose_matmul(
    mem: &mut Memory,
    dst: &View,
    stationary: &View,
    moving: &View,
    opts: &MatmulOptions,
    k: usize,
    m: usize,
    n: usize,
) -> Result<()> {
    if opts.accumulate == Some(true) {
        return Err(EmuError::unsupported(
            OP,
            "is_transpose with accumulate=true: a transpose does not accumulate",
        ));
    }
    if opts.perf_mode != PerfOptMode::None {
        return Err(EmuError::unsupported(OP, "is_transpose with a perf mode"));
    }
    if n != k {
        return Err(EmuError::shape(
            OP,
            format!("is_transpose needs an identity moving [{k}, {k}], not [{k}, {n}]"),
        ));
    }
    let id = mem.read_f32_for(OP, moving).map_err(|e| match e {
        EmuError::DType { .. } => EmuError::dtype(
            OP,
            format!(
                "is_transpose needs a numeric identity moving, not {}",
                moving.dtype()
            ),
        ),
        e => e,
    })?;
    for (i, &v) in id.iter().enumerate() {
        let want = if i / n == i % n { 1.0 } else { 0.0 };
        if v != want {
            return Err(EmuError::unsupported(
                OP,
                format!(
                    "is_transpose with a moving that is not the identity (element [{}, {}] is {v}): \
                     the PE result is not public",
                    i / n,
                    i % n
                ),
            ));
        }
    }
    if dst.dtype() != stationary.dtype() {
        return Err(EmuError::dtype(
            OP,
            format!(
                "a transpose keeps the dtype: dst is {}, stationary {}",
                dst.dtype(),
                stationary.dtype()
            ),
        ));
    }
    check_dst_shape(OP, dst, m, k, mem.partitions())?;
    let bits = mem.read_bits_for(OP, stationary)?;
    let out = super::transpose::transpose_bits(&bits, k, m);
    mem.write_bits_for(OP, dst, &out)
}

/// `nc_matmul_mx`: the MX matmul with dequantisation (see the module doc).
pub fn nc_matmul_mx(
    mem: &mut Memory,
    dst: &View,
    stationary: &View,
    moving: &View,
    stationary_scale: &View,
    moving_scale: &View,
    opts: &MatmulMxOptions,
) -> Result<()> {
    let target = mem.target();
    if target != Target::Mariana {
        return Err(EmuError::unsupported(
            OP_MX,
            "nc_matmul_mx needs NeuronCore v4 (mariana)",
        ));
    }
    for (what, v) in [
        ("stationary", stationary),
        ("moving", moving),
        ("stationary_scale", stationary_scale),
        ("moving_scale", moving_scale),
    ] {
        require_space(mem, OP_MX, what, v, MemSpace::Sbuf)?;
    }
    require_space(mem, OP_MX, "dst", dst, MemSpace::Psum)?;
    for (what, v) in [("stationary", stationary), ("moving", moving)] {
        if !matches!(
            v.dtype(),
            DType::Fp8E5m2X4 | DType::Fp8E4m3FnX4 | DType::Fp4E2m1FnX4
        ) {
            return Err(EmuError::dtype(
                OP_MX,
                format!("{what} must be an MX x4 type, not {}", v.dtype()),
            ));
        }
    }
    for (what, v) in [
        ("stationary_scale", stationary_scale),
        ("moving_scale", moving_scale),
    ] {
        if !matches!(v.dtype(), DType::U8 | DType::Fp8E8m0) {
            return Err(EmuError::dtype(
                OP_MX,
                format!("{what} must be uint8 or float8_e8m0fnu, not {}", v.dtype()),
            ));
        }
    }
    let dd = dst.dtype();
    if !matches!(dd, DType::F32 | DType::Bf16) {
        return Err(EmuError::dtype(
            OP_MX,
            format!("dst must be float32 or bfloat16, not {dd}"),
        ));
    }
    let (k, m) = part_free(OP_MX, "stationary", stationary)?;
    let (k2, n) = part_free(OP_MX, "moving", moving)?;
    if k != k2 || k == 0 || !k.is_multiple_of(QUADRANT_PARTITIONS) {
        return Err(EmuError::shape(
            OP_MX,
            format!(
                "stationary and moving need the same partition count, a multiple of 32 up to 128; \
                 got {k} and {k2}"
            ),
        ));
    }
    if !m.is_multiple_of(2) {
        return Err(EmuError::shape(
            OP_MX,
            format!("stationary's free size {m} must be even"),
        ));
    }
    let n_max = if dd == DType::Bf16 { 1024 } else { 512 };
    if n > n_max {
        return Err(EmuError::shape(
            OP_MX,
            format!("moving has {n} elements per partition, more than {n_max} for a {dd} dst"),
        ));
    }
    check_tiling(
        OP_MX,
        target,
        (opts.tile_position, opts.tile_size),
        (k, m),
        PARTITIONS,
        true,
    )?;
    check_dst_shape(OP_MX, dst, m, n, PARTITIONS)?;
    let ss = read_scales(mem, stationary_scale, "stationary_scale", k, m)?;
    let ms = read_scales(mem, moving_scale, "moving_scale", k, n)?;
    let s = unpack_scaled(mem, stationary, &ss, m)?;
    let mv = unpack_scaled(mem, moving, &ms, n)?;
    // s is [k][m][4], mv is [k][n][4].
    let mut out = vec![0f32; m * n];
    for (mi, row) in out.chunks_exact_mut(n.max(1)).enumerate() {
        for (ni, o) in row.iter_mut().enumerate() {
            let mut acc = 0f32;
            for ki in 0..k {
                for q in 0..4 {
                    let p = mult_f32(s[(ki * m + mi) * 4 + q], mv[(ki * n + ni) * 4 + q]);
                    acc = add_f32(acc, p);
                }
            }
            *o = acc;
        }
    }
    write_psum(mem, OP_MX, dst, &out, opts.accumulate)
}

/// The scale codes of an MX operand with `k` data partitions and `cols` x4 columns, as
/// `[k / 8][cols]` (logical rows), read from the quadrant layout.
fn read_scales(mem: &Memory, scale: &View, what: &str, k: usize, cols: usize) -> Result<Vec<u8>> {
    let (sp, sf) = part_free(OP_MX, what, scale)?;
    let rows = k / 8;
    let last = scale_row_partition(rows - 1, sp, rows);
    if sp <= last || sf < cols {
        return Err(EmuError::shape(
            OP_MX,
            format!(
                "{what} [{sp}, {sf}] must be the logical [{rows}, {cols}] scale tile or reach partition {last} and hold {cols} columns \
                 (each 32-partition quadrant keeps its 4 scale rows at its start)"
            ),
        ));
    }
    let codes = mem.read_bits_for(OP_MX, scale)?;
    let mut out = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        let p = scale_row_partition(r, sp, rows);
        out.extend(codes[p * sf..p * sf + cols].iter().map(|&c| c as u8));
    }
    Ok(out)
}

/// The scale-tile partition of logical scale row `r` (8 data partitions per row, 4 rows
/// per 32-partition quadrant, at the quadrant's start).
pub(crate) fn scale_partition(r: usize) -> usize {
    r / 4 * QUADRANT_PARTITIONS + r % 4
}

/// The partition of logical scale row `r` in a scale tile of `tile_partitions` partitions for
/// `rows` logical rows: a tile of exactly `rows` partitions is the logical `[P/8, F/4]` scale
/// tensor (NKI's `check_mx_scale` geometry, which the verifier accepts), row `r` at partition
/// `r`; any other tile is the quadrant layout ([`scale_partition`]). The two agree up to 4
/// rows (P <= 32).
pub(crate) fn scale_row_partition(r: usize, tile_partitions: usize, rows: usize) -> usize {
    if tile_partitions == rows {
        r
    } else {
        scale_partition(r)
    }
}

/// The four lanes of every x4 element of `data` (`[k][cols]`), each times its scale.
fn unpack_scaled(mem: &Memory, data: &View, scales: &[u8], cols: usize) -> Result<Vec<f32>> {
    let words = mem.read_bits_for(OP_MX, data)?;
    let mut out = Vec::with_capacity(words.len() * 4);
    for (i, &w) in words.iter().enumerate() {
        let (ki, c) = (i / cols.max(1), i % cols.max(1));
        let factor = dtype::e8m0_decode(scales[(ki / 8) * cols + c]);
        // The dtype was checked to be an x4 container.
        let lanes = dtype::unpack_x4(data.dtype(), w).unwrap_or([f32::NAN; 4]);
        out.extend(lanes.iter().map(|&v| v * factor));
    }
    Ok(out)
}

fn check_input_dtypes(target: Target, sd: DType, md: DType, double_row: bool) -> Result<()> {
    let fp8 = |d: DType| {
        matches!(d, DType::Fp8E4m3 | DType::Fp8E5m2)
            || (d == DType::Fp8E4m3Fn && target == Target::Mariana)
    };
    for (what, d) in [("stationary", sd), ("moving", md)] {
        let ok = if double_row {
            fp8(d)
        } else {
            fp8(d) || matches!(d, DType::Bf16 | DType::F16 | DType::F32)
        };
        if !ok {
            return Err(EmuError::dtype(
                OP,
                format!(
                    "{what} is {d}; nc_matmul takes {} on {}",
                    if double_row {
                        "float8 (double_row)"
                    } else {
                        "float8/bfloat16/float16/float32"
                    },
                    target.name()
                ),
            ));
        }
    }
    if (sd == DType::F32) != (md == DType::F32) {
        return Err(EmuError::dtype(
            OP,
            format!("a float32 operand needs a float32 partner: stationary {sd}, moving {md}"),
        ));
    }
    if matches!(
        (sd, md),
        (DType::Fp8E4m3, DType::Fp8E4m3Fn) | (DType::Fp8E4m3Fn, DType::Fp8E4m3)
    ) {
        return Err(EmuError::dtype(
            OP,
            "float8_e4m3 and float8_e4m3fn cannot be mixed in one matmul",
        ));
    }
    Ok(())
}

/// Checks `tile_position` / `tile_size` against the operands; returns the tile size.
/// `columns` bounds `M` without tiling (the PE array's 128, or a logical machine's
/// partitions for a plain matmul).
fn check_tiling(
    op: &'static str,
    target: Target,
    (position, size): (Option<[usize; 2]>, Option<[usize; 2]>),
    (k, m): (usize, usize),
    columns: usize,
    rows_only: bool,
) -> Result<Option<[usize; 2]>> {
    let (pos, size) = match (position, size) {
        (None, None) => {
            if k > PARTITIONS || m > columns {
                return Err(EmuError::shape(
                    op,
                    format!("stationary [{k}, {m}] exceeds the {PARTITIONS}x{PARTITIONS} PE array"),
                ));
            }
            return Ok(None);
        }
        (Some(p), Some(s)) => (p, s),
        _ => {
            return Err(EmuError::invalid(
                op,
                "tile_position and tile_size must be set together",
            ));
        }
    };
    let legal = |x: usize| x == 128 || x == 64 || (x == 32 && target != Target::Sunda);
    for (axis, (&start, &len)) in ["row", "column"].iter().zip(pos.iter().zip(&size)) {
        if !legal(len) || !start.is_multiple_of(len) || start + len > PARTITIONS {
            return Err(EmuError::invalid(
                op,
                format!(
                    "{axis} tile of size {len} at {start}: sizes are 128, 64{} and positions \
                     multiples of the size inside the array",
                    if target == Target::Sunda { "" } else { ", 32" }
                ),
            ));
        }
    }
    if rows_only && (size[1] != PARTITIONS || pos[1] != 0) {
        return Err(EmuError::invalid(
            op,
            "only row tiling: column_size must be 128 and start_column 0",
        ));
    }
    if k > size[0] || m > size[1] {
        return Err(EmuError::shape(
            op,
            format!("stationary [{k}, {m}] exceeds the PE tile {size:?}"),
        ));
    }
    Ok(Some(size))
}

fn check_dst_shape(op: &'static str, dst: &View, m: usize, n: usize, limit: usize) -> Result<()> {
    let (p, f) = part_free_within(op, "dst", dst, limit)?;
    if p != m || f != n {
        return Err(EmuError::shape(
            op,
            format!(
                "dst must be [{m}, {n}] (partitions x free elements), not {:?}",
                dst.shape()
            ),
        ));
    }
    Ok(())
}

/// Writes a matmul result into PSUM under the accumulation rule (module doc).
fn write_psum(
    mem: &mut Memory,
    op: &'static str,
    dst: &View,
    result: &[f32],
    accumulate: Option<bool>,
) -> Result<()> {
    let values = match accumulate {
        Some(false) => result.to_vec(),
        Some(true) => {
            let old = mem.read_f32_for(op, dst)?;
            old.iter()
                .zip(result)
                .map(|(&o, &r)| add_f32(o, r))
                .collect()
        }
        None => {
            let written = mem.written_elements(op, dst)?;
            if written.iter().any(|&w| w) {
                let d = dst.dtype();
                let old = mem.read_bytes_unchecked(op, dst)?;
                old.chunks_exact(d.size())
                    .zip(result)
                    .zip(&written)
                    .map(|((c, &r), &w)| {
                        if w {
                            add_f32(d.to_f32(d.load(c)).unwrap_or(f32::NAN), r)
                        } else {
                            r
                        }
                    })
                    .collect()
            } else {
                result.to_vec()
            }
        }
    };
    mem.write_f32_for(op, dst, &values)
}
