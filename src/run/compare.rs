//! `--compare-pipeline`: does the kernel compute the same after a pass pipeline?
//!
//! Both runs start from the same argument contents; afterwards every argument is compared
//! element by element, in argument order and row-major order within one, and the first
//! difference is the answer. Elements are equal when their bits are equal, or when both are
//! NaN (any sign and payload: the emulator's arithmetic does not define NaN payloads). The x4
//! containers compare as whole words, bit for bit.

use sundial_emu::DType;

use super::ArgInfo;

/// The first element that differs between two runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The argument.
    pub arg: usize,
    /// The rank, when several ran.
    pub rank: Option<usize>,
    /// The program of the launch grid, for an argument each program has its own copy of.
    pub program: Option<usize>,
    /// The element's index in it.
    pub index: Vec<usize>,
    /// The element before the pipeline, as text.
    pub before: String,
    /// The element after the pipeline, as text.
    pub after: String,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let index = self
            .index
            .iter()
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let rank = match (self.rank, self.program) {
            (_, Some(p)) => format!(" of program {p}"),
            (Some(r), None) => format!(" on rank {r}"),
            (None, None) => String::new(),
        };
        write!(
            f,
            "argument {}{rank}, index [{index}]: before {}, after {}",
            self.arg, self.before, self.after
        )
    }
}

/// Whether two elements of `dtype` count as equal (see the module doc).
pub fn same(dtype: DType, a: u64, b: u64) -> bool {
    if a == b {
        return true;
    }
    if dtype.is_float() {
        let nan = |bits| dtype.to_f32(bits).is_some_and(f32::is_nan);
        return nan(a) && nan(b);
    }
    false
}

/// An element as text: its value and, for floats and containers, its bits (`1.5 (0x3fc0)`).
pub fn show(dtype: DType, bits: u64) -> String {
    let hex = format!("0x{:0width$x}", bits, width = dtype.size() * 2);
    if dtype.is_x4() {
        return hex;
    }
    if dtype == DType::U64 {
        return bits.to_string();
    }
    if let Some(i) = dtype.to_i64(bits) {
        return i.to_string();
    }
    match dtype.to_f32(bits) {
        Some(v) => format!("{v:?} ({hex})"),
        None => hex,
    }
}

/// The first difference between `before` and `after` (each argument's contents as
/// little-endian element bytes, for each of `ranks` ranks, rank-major, or for each program
/// of the launch grid for a per-program argument), if any.
pub fn first_difference(
    args: &[ArgInfo],
    before: &[Vec<u8>],
    after: &[Vec<u8>],
    ranks: usize,
) -> Option<Difference> {
    for ((arg, b), a) in args.iter().zip(before).zip(after) {
        let d = arg.format.emu;
        let size = d.size();
        let found = b
            .chunks_exact(size)
            .zip(a.chunks_exact(size))
            .position(|(x, y)| !same(d, d.load(x), d.load(y)));
        if let Some(flat) = found {
            let per = arg.num_elements().max(1);
            return Some(Difference {
                arg: arg.index,
                rank: (ranks > 1 && !arg.per_program).then_some(flat / per),
                program: arg.per_program.then_some(flat / per),
                index: unravel(flat % per, &arg.shape),
                before: show(d, d.load(&b[flat * size..])),
                after: show(d, d.load(&a[flat * size..])),
            });
        }
    }
    None
}

/// The row-major index of element `flat` of `shape`.
pub fn unravel(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut index = vec![0; shape.len()];
    for (i, &extent) in shape.iter().enumerate().rev() {
        if extent > 0 {
            index[i] = flat % extent;
            flat /= extent;
        }
    }
    index
}

/// The outcome of running a kernel before and after a pipeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every argument ends the same; the run after the pipeline.
    Same(super::Outputs),
    /// The first element that differs.
    Differs(Difference),
}

/// Runs `before` and `after` (the function before and after a pipeline) on the same `inputs`
/// as `config` says and compares every argument. The two must take the same arguments.
pub fn compare_runs(
    before: &super::Program<'_, '_>,
    after: &super::Program<'_, '_>,
    inputs: &[Vec<u8>],
    config: &super::RunConfig,
) -> Result<Verdict, super::RunError> {
    let types = |p: &super::Program<'_, '_>| -> Vec<String> {
        p.args.iter().map(|a| a.type_text.clone()).collect()
    };
    let (tb, ta) = (types(before), types(after));
    if tb != ta {
        return Err(super::RunError::new(format!(
            "the pipeline changed the arguments of the function: ({}) became ({})",
            tb.join(", "),
            ta.join(", ")
        )));
    }
    let first = before.execute(inputs, config)?;
    let second = after.execute(inputs, config).map_err(|mut e| {
        e.notes
            .push("in the function after the pipeline".to_string());
        e
    })?;
    let ranks = config.rank_count();
    Ok(
        match first_difference(&before.args, &first.args, &second.args, ranks) {
            Some(d) => Verdict::Differs(d),
            None => Verdict::Same(second),
        },
    )
}
