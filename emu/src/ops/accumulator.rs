//! The engines' accumulator registers and the `reduce_cmd` that drives them.
//!
//! Restated from the public docs:
//!
//! - The Scalar Engine has `reduce_regs`, "one 32-bit register per compute lane, 128
//!   registers in total" (`nki.isa.activation`), shared by `activation` and `activate2`.
//! - The Vector Engine has accumulator registers "shared across Vector Engine
//!   accumulation instructions including exponential, range_select, select_reduce,
//!   tensor_scalar_reduce and tensor_scalar_cumulative"; with `reduce_cmd = idle` "the
//!   accumulator state may still be modified" (`nki.isa.exponential`,
//!   `nki.isa.select_reduce`), so an idle Vector accumulation instruction leaves the
//!   lanes it covers *undefined* here, and reading an undefined lane is an error.
//! - `reduce_cmd` (`nki.isa.reduce_cmd`): `idle` = leave the registers alone, `reset` =
//!   reset them to the initial state only, `reduce` = keep accumulating on the current
//!   value, `reset_reduce` = reset then accumulate this instruction's results,
//!   `load_reduce` = load a value then accumulate. Its numbering is the hardware
//!   `ACCUM_CMD` byte's (codegen `ACCUM_CMDS`), which a test checks.
//! - The registers are read out to a `[P, 1]` tile by `reduce_res` or by the read-out
//!   instructions `dve_read_accumulator` (Vector, 0x9B) and `activation_read_accumulator`
//!   (Scalar, 0x24), optionally negated.
//!
//! A lane is a row of the op's tiles: lane `p` accumulates partition `p` of the tile (our
//! reading; the docs index `reduce_regs` by the tile's partition).

use super::tile::{self, Space};
use crate::error::{EmuError, Result};
use crate::memory::Memory;
use crate::target::PARTITIONS;
use crate::view::View;

/// NKI `reduce_cmd`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReduceCmd {
    /// Do not use the accumulators.
    Idle,
    /// Reset the accumulators to their initial state only.
    Reset,
    /// Accumulate over the current accumulator values.
    Reduce,
    /// Reset, then accumulate this instruction's results.
    ResetReduce,
    /// Load a value, then accumulate this instruction's results.
    LoadReduce,
}

impl ReduceCmd {
    /// Every command, in NKI numbering (idle = 0 ... load_reduce = 4).
    pub const ALL: [ReduceCmd; 5] = [
        ReduceCmd::Idle,
        ReduceCmd::Reset,
        ReduceCmd::Reduce,
        ReduceCmd::ResetReduce,
        ReduceCmd::LoadReduce,
    ];

    /// The NKI spelling.
    pub const fn name(self) -> &'static str {
        match self {
            ReduceCmd::Idle => "idle",
            ReduceCmd::Reset => "reset",
            ReduceCmd::Reduce => "reduce",
            ReduceCmd::ResetReduce => "reset_reduce",
            ReduceCmd::LoadReduce => "load_reduce",
        }
    }

    /// Parses an NKI spelling.
    pub fn from_name(name: &str) -> Option<ReduceCmd> {
        ReduceCmd::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The NKI (and `ACCUM_CMD`) number.
    pub const fn code(self) -> u8 {
        self as u8
    }
}

/// Which engine's accumulators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccEngine {
    /// The Vector Engine's accumulators.
    Vector,
    /// The Scalar Engine's `reduce_regs`.
    Scalar,
}

impl AccEngine {
    /// `vector` or `scalar`.
    pub const fn name(self) -> &'static str {
        match self {
            AccEngine::Vector => "vector",
            AccEngine::Scalar => "scalar",
        }
    }
}

/// The accumulator registers of the Vector and Scalar engines of one NeuronCore: one
/// fp32 value per lane, or undefined.
#[derive(Debug, Clone, PartialEq)]
pub struct Accumulators {
    vector: [Option<f32>; PARTITIONS],
    scalar: [Option<f32>; PARTITIONS],
}

impl Default for Accumulators {
    fn default() -> Self {
        Accumulators::new()
    }
}

impl Accumulators {
    /// Every lane of both engines undefined.
    pub fn new() -> Accumulators {
        Accumulators {
            vector: [None; PARTITIONS],
            scalar: [None; PARTITIONS],
        }
    }

    fn lanes(&self, e: AccEngine) -> &[Option<f32>; PARTITIONS] {
        match e {
            AccEngine::Vector => &self.vector,
            AccEngine::Scalar => &self.scalar,
        }
    }

    fn lanes_mut(&mut self, e: AccEngine) -> &mut [Option<f32>; PARTITIONS] {
        match e {
            AccEngine::Vector => &mut self.vector,
            AccEngine::Scalar => &mut self.scalar,
        }
    }

    /// Lane `lane`'s value (`None`: undefined, or no such lane).
    pub fn get(&self, e: AccEngine, lane: usize) -> Option<f32> {
        self.lanes(e).get(lane).copied().flatten()
    }

    /// Sets lane `lane` (ignored past the last lane).
    pub fn set(&mut self, e: AccEngine, lane: usize, value: Option<f32>) {
        if let Some(l) = self.lanes_mut(e).get_mut(lane) {
            *l = value;
        }
    }

    /// Lanes `0..values.len()` set to `values`.
    pub(crate) fn commit(&mut self, e: AccEngine, values: &[Option<f32>]) {
        for (l, v) in self.lanes_mut(e).iter_mut().zip(values) {
            *l = *v;
        }
    }

    /// The defined values of lanes `0..parts`, or the error naming the first undefined one.
    pub(crate) fn defined(
        &self,
        who: &'static str,
        e: AccEngine,
        parts: usize,
    ) -> Result<Vec<f32>> {
        lanes_exist(who, parts)?;
        (0..parts)
            .map(|lane| {
                self.get(e, lane).ok_or(EmuError::UninitialisedAccumulator {
                    op: who,
                    engine: e.name(),
                    lane,
                })
            })
            .collect()
    }
}

/// What an accumulation instruction does with lanes `0..parts`, before its own results.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Start {
    /// `idle`: no accumulation.
    Idle,
    /// `reset`: the lanes take these values and nothing is accumulated.
    ResetOnly(Vec<f32>),
    /// Accumulate this instruction's results onto these starting values.
    Accumulate(Vec<f32>),
}

/// The start of an accumulation under `cmd`: `reset` values are `reset`, `load_reduce`
/// values are `load` (an error when the op has none), `reduce` continues from the
/// current (defined) lane values.
pub(crate) fn start(
    acc: &Accumulators,
    who: &'static str,
    e: AccEngine,
    cmd: ReduceCmd,
    parts: usize,
    reset: f32,
    load: Option<&[f32]>,
) -> Result<Start> {
    if cmd != ReduceCmd::Idle {
        lanes_exist(who, parts)?;
    }
    Ok(match cmd {
        ReduceCmd::Idle => Start::Idle,
        ReduceCmd::Reset => Start::ResetOnly(vec![reset; parts]),
        ReduceCmd::ResetReduce => Start::Accumulate(vec![reset; parts]),
        ReduceCmd::Reduce => Start::Accumulate(acc.defined(who, e, parts)?),
        ReduceCmd::LoadReduce => match load {
            Some(v) => Start::Accumulate(v.to_vec()),
            None => {
                return Err(EmuError::invalid(
                    who,
                    "reduce_cmd = load_reduce needs an initial value",
                ));
            }
        },
    })
}

/// Fails when an accumulating op covers more partitions than the engines have lanes: on a
/// logical machine (`Memory::logical`) a tile may be wider than 128 partitions, but the
/// accumulators are per physical lane, so such an op has no logical semantics and is refused
/// (it runs after partition tiling).
fn lanes_exist(who: &'static str, parts: usize) -> Result<()> {
    if parts > PARTITIONS {
        return Err(EmuError::unsupported(
            who,
            format!(
                "the accumulators have {PARTITIONS} lanes, one per physical partition: an \
                 accumulating op over a logical tile of {parts} partitions runs only after \
                 partition tiling"
            ),
        ));
    }
    Ok(())
}

/// Fails when `cmd` is not one of `allowed` (each op publishes the commands it takes).
pub(crate) fn cmd_in(who: &'static str, cmd: ReduceCmd, allowed: &[ReduceCmd]) -> Result<()> {
    if !allowed.contains(&cmd) {
        let names: Vec<&str> = allowed.iter().map(|c| c.name()).collect();
        return Err(EmuError::invalid(
            who,
            format!(
                "reduce_cmd = {} is not accepted; accepted: {}",
                cmd.name(),
                names.join(", ")
            ),
        ));
    }
    Ok(())
}

/// Writes per-lane values to a checked `[P, 1]` tile (negated when `negate`).
pub(crate) fn write_lanes(
    mem: &mut Memory,
    who: &'static str,
    what: &str,
    view: &View,
    values: &[f32],
    negate: bool,
) -> Result<()> {
    let v: Vec<f32> = values
        .iter()
        .map(|&x| if negate { -x } else { x })
        .collect();
    let bits = tile::encode_f32(who, what, view.dtype(), &v)?;
    tile::write_bits(mem, view, &bits)
}

fn read_accumulator(
    mem: &mut Memory,
    acc: &Accumulators,
    who: &'static str,
    e: AccEngine,
    dst: &View,
    negate: bool,
) -> Result<()> {
    let sh = tile::tile(mem, who, "dst", dst, Space::OnChip)?;
    tile::lane_tile(mem, who, "dst", dst, sh.parts)?;
    let values = acc.defined(who, e, sh.parts)?;
    write_lanes(mem, who, "dst", dst, &values, negate)
}

/// `dve_read_accumulator` (Vector 0x9B): `dst[p, 0] = ±vector_acc[p]` for each of dst's
/// partitions; dst is `[P, 1]`.
pub fn dve_read_accumulator(
    mem: &mut Memory,
    acc: &Accumulators,
    dst: &View,
    negate: bool,
) -> Result<()> {
    read_accumulator(
        mem,
        acc,
        "dve_read_accumulator",
        AccEngine::Vector,
        dst,
        negate,
    )
}

/// `activation_read_accumulator` (Scalar 0x24): `dst[p, 0] = ±reduce_regs[p]`; dst is
/// `[P, 1]`.
pub fn activation_read_accumulator(
    mem: &mut Memory,
    acc: &Accumulators,
    dst: &View,
    negate: bool,
) -> Result<()> {
    read_accumulator(
        mem,
        acc,
        "activation_read_accumulator",
        AccEngine::Scalar,
        dst,
        negate,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduce_cmd_numbers_are_the_accum_cmd_wire_codes() {
        let wire = sundial_codegen::enums::ACCUM_CMDS;
        assert_eq!(wire.len(), ReduceCmd::ALL.len());
        for (c, (code, _)) in ReduceCmd::ALL.into_iter().zip(wire) {
            assert_eq!(c.code(), *code, "{}", c.name());
            assert_eq!(ReduceCmd::from_name(c.name()), Some(c));
        }
    }

    #[test]
    fn reduce_continues_only_from_defined_lanes() {
        let mut a = Accumulators::new();
        assert!(matches!(
            start(&a, "t", AccEngine::Vector, ReduceCmd::Reduce, 2, 0.0, None),
            Err(EmuError::UninitialisedAccumulator { lane: 0, .. })
        ));
        a.commit(AccEngine::Vector, &[Some(1.0), Some(2.0)]);
        assert_eq!(
            start(&a, "t", AccEngine::Vector, ReduceCmd::Reduce, 2, 0.0, None),
            Ok(Start::Accumulate(vec![1.0, 2.0]))
        );
        assert!(a.get(AccEngine::Scalar, 0).is_none());
        assert!(
            start(
                &a,
                "t",
                AccEngine::Vector,
                ReduceCmd::LoadReduce,
                2,
                0.0,
                None
            )
            .is_err()
        );
    }
}
