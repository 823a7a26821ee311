//! `dropout` (NKI `dropout`): zero each element with probability `prob`, on the Vector
//! engine.
//!
//! Semantics restated from the public docstring: every element of `data` is replaced by
//! zero with the drop probability `prob` (1.0 drops everything, 0.0 keeps everything) and
//! kept unchanged otherwise; `prob` is a scalar or a `[P, 1]` tile giving each partition
//! its own probability; `dst.dtype == data.dtype`. For integer data a `prob` tile must be
//! `float32`; for float data it may be any float type.
//!
//! The random draws are the emulator's own Vector-engine generator ([`super::rng`]): **not
//! bit-identical to the hardware**, deterministic given the seed. Element `(p, i)` draws
//! `u` in `[0, 1)` from lane `p` and is dropped when `u < prob`. Kept elements are bit
//! copies; dropped ones are the dtype's zero (all bytes 0). A NaN probability is refused.

use super::layout::{part_free, require_on_chip, start_partition};
use super::rng::{RngState, unit};
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::Memory;
use crate::view::View;
use sundial_codegen::model::Engine;

const OP: &str = "dropout";

/// The drop probability: an immediate or a `[P, 1]` tile.
#[derive(Debug, Clone, Copy)]
pub enum DropProb<'a> {
    /// One probability for every element.
    Scalar(f32),
    /// One probability per partition.
    Tile(&'a View),
}

/// `dropout`: see the module doc.
pub fn dropout(
    mem: &mut Memory,
    state: &mut RngState,
    dst: &View,
    data: &View,
    prob: DropProb<'_>,
) -> Result<()> {
    require_on_chip(mem, OP, "data", data)?;
    require_on_chip(mem, OP, "dst", dst)?;
    if dst.dtype() != data.dtype() {
        return Err(EmuError::dtype(
            OP,
            format!(
                "dst is {} but data is {}: dropout keeps the dtype",
                dst.dtype(),
                data.dtype()
            ),
        ));
    }
    let (p, f) = part_free(OP, "data", data)?;
    let (dp, df) = part_free(OP, "dst", dst)?;
    if (dp, df) != (p, f) {
        return Err(EmuError::shape(
            OP,
            format!("dst [{dp}, {df}] must match data [{p}, {f}]"),
        ));
    }
    let probs: Vec<f32> = match prob {
        DropProb::Scalar(v) => vec![v; p],
        DropProb::Tile(t) => {
            require_on_chip(mem, OP, "prob", t)?;
            let d = t.dtype();
            let ok = if data.dtype().is_integer() {
                d == DType::F32
            } else {
                d.is_float() && !d.is_x4()
            };
            if !ok {
                return Err(EmuError::dtype(
                    OP,
                    format!("a prob tile for {} data cannot be {d}", data.dtype()),
                ));
            }
            if t.shape() != [p, 1] {
                return Err(EmuError::shape(
                    OP,
                    format!("the prob tile must be [{p}, 1], not {:?}", t.shape()),
                ));
            }
            mem.read_f32_for(OP, t)?
        }
    };
    if let Some(v) = probs.iter().find(|v| v.is_nan()) {
        return Err(EmuError::invalid(OP, format!("drop probability {v}")));
    }
    let first = start_partition(mem, OP, "data", data)?;
    let bits = mem.read_bits_for(OP, data)?;
    // Draw on a copy and keep it only once the write succeeded: a failed op changes nothing.
    let mut next = state.clone();
    let draws = next.draw_tile(Engine::Vector, first, p, f);
    let out: Vec<u64> = bits
        .iter()
        .zip(&draws)
        .enumerate()
        .map(|(i, (&b, &r))| if unit(r) < probs[i / f.max(1)] { 0 } else { b })
        .collect();
    mem.write_bits_for(OP, dst, &out)?;
    *state = next;
    Ok(())
}
