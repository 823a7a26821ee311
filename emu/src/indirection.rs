//! The one definition of NKI access-pattern indirection, shared by the NISA verifier and the
//! emulator: what `indirect_dim` names and which index tiles an indirect access takes.
//!
//! NKI's `.ap(pattern, offset, vector_offset=idx, indirect_dim=d)` and
//! `.ap(..., scalar_offset=s, indirect_dim=d)` (and the generic indirect loads and saves)
//! address a tensor through a runtime index. This module states, once:
//!
//! - **`indirect_dim`** is a dimension of the access as the op addresses it: the position of
//!   a `[step, num]` pair in the access pattern, which is also a dimension of the tile the
//!   pattern produces and of the source view an emulator [`Access`] walks (whose dimensions
//!   are the pattern's, see [`pattern_source`]). For an op that takes the tensor itself (the
//!   generic indirect load/save), the tensor's dimensions are the pattern's. Its legal values
//!   are `0..rank` ([`indirect_dim`]).
//! - **vector offsets**: the index tile is `[n]` or `[n, 1]`, one index per partition, and `n`
//!   is the number of elements of the indirect dimension ([`vector_offset_rows`],
//!   [`vector_offset_count`]). Element `i` of that dimension reads `idx[i]` (or `idx[i, 0]`),
//!   and contributes `idx[i] * step` to the address.
//! - **scalar offsets**: the tile holds exactly one element ([`scalar_offset_shape`]); it is
//!   added to the indirect dimension's coordinate.
//!
//! The verifier (`dialects/src/verify/nisa_rules.rs`) calls these functions and words their
//! errors as diagnostics; the emulator's [`Access::vector_offset`] and
//! [`Access::scalar_offset`] call the same functions, so a module that verifies is never
//! refused by the emulator for a shape the verifier saw.

use crate::access::Access;
use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::AllocId;
use crate::view::View;
use std::fmt;

/// Why an indirect access is malformed (the caller words the diagnostic).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IndirectionError {
    /// `indirect_dim` is not a dimension of the access.
    Dim {
        /// The value given.
        dim: i64,
        /// The access's rank.
        rank: usize,
    },
    /// A vector offset tile is neither `[n]` nor `[n, 1]`.
    VectorShape {
        /// The tile's shape.
        shape: Vec<usize>,
    },
    /// A vector offset tile's `n` is not the indirect dimension's size.
    VectorCount {
        /// The tile's index count.
        rows: usize,
        /// The indirect dimension's number of elements.
        num: usize,
    },
    /// A scalar offset tile does not hold exactly one element.
    ScalarShape {
        /// The tile's shape.
        shape: Vec<usize>,
    },
}

impl fmt::Display for IndirectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndirectionError::Dim { dim, rank } => {
                write!(f, "{dim} is not a dimension of the rank-{rank} access")
            }
            IndirectionError::VectorShape { shape } => write!(
                f,
                "a vector offset is an [n], [n, 1] or [1, n] tile, not {shape:?}"
            ),
            IndirectionError::VectorCount { rows, num } => write!(
                f,
                "a vector offset of {rows} indices for an indirect dimension of {num} elements"
            ),
            IndirectionError::ScalarShape { shape } => {
                write!(f, "a scalar offset has one element, not {shape:?}")
            }
        }
    }
}

impl std::error::Error for IndirectionError {}

/// Checks that `indirect_dim` names one of the `rank` dimensions of the access.
pub fn indirect_dim(dim: i64, rank: usize) -> std::result::Result<usize, IndirectionError> {
    usize::try_from(dim)
        .ok()
        .filter(|&d| d < rank)
        .ok_or(IndirectionError::Dim { dim, rank })
}

/// The number of indices of a vector offset tile: `n` for `[n]`, `[n, 1]` (one index per
/// partition) and `[1, n]` (one partition's free axis); the indices are read row-major, the
/// same order for all three.
pub fn vector_offset_rows(shape: &[usize]) -> std::result::Result<usize, IndirectionError> {
    match shape {
        [n] | [n, 1] | [1, n] => Ok(*n),
        _ => Err(IndirectionError::VectorShape {
            shape: shape.to_vec(),
        }),
    }
}

/// Checks that a vector offset tile of `shape` holds one index per element of an indirect
/// dimension of `num` elements.
pub fn vector_offset_count(
    shape: &[usize],
    num: usize,
) -> std::result::Result<(), IndirectionError> {
    let rows = vector_offset_rows(shape)?;
    if rows == num {
        Ok(())
    } else {
        Err(IndirectionError::VectorCount { rows, num })
    }
}

/// Checks that a scalar offset tile holds exactly one element.
pub fn scalar_offset_shape(shape: &[usize]) -> std::result::Result<(), IndirectionError> {
    if shape.iter().product::<usize>() == 1 && !shape.is_empty() {
        Ok(())
    } else {
        Err(IndirectionError::ScalarShape {
            shape: shape.to_vec(),
        })
    }
}

impl From<(&'static str, IndirectionError)> for EmuError {
    fn from((op, e): (&'static str, IndirectionError)) -> EmuError {
        match e {
            IndirectionError::Dim { .. } => EmuError::invalid(op, format!("indirect_dim {e}")),
            _ => EmuError::shape(op, e.to_string()),
        }
    }
}

/// The source view an indirect access pattern walks: dimension `k` has the stride of the
/// pattern's pair `k` and its num as extent, except the indirect dimension, whose extent is the
/// number of index values `v >= 0` whose whole row (`offset + v * step` plus the other pairs'
/// reach) lies inside a tensor of `elements` elements: the legal index range.
///
/// `pattern` is `[step, num]` pairs in elements of `dtype` over allocation `alloc` (NKI's
/// `.ap()`); the indirect dimension's step must be positive.
pub fn pattern_source(
    alloc: AllocId,
    dtype: DType,
    offset: i64,
    pattern: &[(i64, usize)],
    dim: usize,
    elements: usize,
) -> Result<View> {
    const OP: &str = "indirect access pattern";
    let dim = indirect_dim(dim as i64, pattern.len()).map_err(|e| EmuError::from((OP, e)))?;
    let step = pattern[dim].0;
    if step <= 0 {
        return Err(EmuError::invalid(
            OP,
            format!(
                "the indirect dimension's step is {step}; rows are addressed by a positive step"
            ),
        ));
    }
    let (mut lo, mut hi) = (offset as i128, offset as i128);
    for (k, &(s, n)) in pattern.iter().enumerate() {
        if k == dim || n == 0 {
            continue;
        }
        let span = s as i128 * (n as i128 - 1);
        if span >= 0 {
            hi += span;
        } else {
            lo += span;
        }
    }
    let last = elements as i128 - 1 - hi;
    let rows = if lo < 0 || last < 0 {
        0
    } else {
        usize::try_from(last / step as i128 + 1)
            .map_err(|_| EmuError::overflow(OP, "the rows of the indirect dimension"))?
    };
    let mut shape: Vec<usize> = pattern.iter().map(|p| p.1).collect();
    shape[dim] = rows;
    View::new(
        alloc,
        dtype,
        offset,
        shape,
        pattern.iter().map(|p| p.0).collect(),
    )
}

impl Access {
    /// The access of `.ap(pattern, offset, vector_offset=index, indirect_dim=dim)` over a
    /// tensor of `elements` elements of `dtype` in `alloc`: the tile is the pattern's shape,
    /// its `dim` coordinate `i` reads `index[i]` (see [`pattern_source`] for the legal index
    /// range). `dim` is a pattern dimension, as the verifier reads it.
    pub fn vector_offset_ap(
        alloc: AllocId,
        dtype: DType,
        elements: usize,
        offset: i64,
        pattern: &[(i64, usize)],
        dim: usize,
        index: &View,
    ) -> Result<Access> {
        const OP: &str = "vector_offset";
        let n = pattern.get(dim).map(|p| p.1).unwrap_or(0);
        if dim < pattern.len() {
            vector_offset_count(index.shape(), n).map_err(|e| EmuError::from((OP, e)))?;
        }
        let source = pattern_source(alloc, dtype, offset, pattern, dim, elements)?;
        Access::vector_offset(&source, dim, index)
    }

    /// The access of `.ap(pattern, offset, scalar_offset=scalar, indirect_dim=dim)`: the tile
    /// is the pattern's shape and the runtime value is added to its `dim` coordinate.
    pub fn scalar_offset_ap(
        alloc: AllocId,
        dtype: DType,
        elements: usize,
        offset: i64,
        pattern: &[(i64, usize)],
        dim: usize,
        scalar: &View,
    ) -> Result<Access> {
        let source = pattern_source(alloc, dtype, offset, pattern, dim, elements)?;
        let tile: Vec<usize> = pattern.iter().map(|p| p.1).collect();
        Access::scalar_offset(&source, dim, scalar, &tile)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::access::OobMode;
    use crate::memory::Memory;
    use crate::ops::dma_copy_indirect::indirect_load;
    use crate::target::Target;

    #[test]
    fn the_accepted_shapes() {
        assert_eq!(vector_offset_rows(&[128]), Ok(128));
        assert_eq!(vector_offset_rows(&[128, 1]), Ok(128));
        assert_eq!(vector_offset_rows(&[1, 64]), Ok(64));
        // The verifier used to take any tile of n elements; the emulator never did.
        for bad in [&[64, 1, 1][..], &[32, 2], &[]] {
            assert!(matches!(
                vector_offset_rows(bad),
                Err(IndirectionError::VectorShape { .. })
            ));
        }
        assert_eq!(
            vector_offset_count(&[64, 1], 128),
            Err(IndirectionError::VectorCount { rows: 64, num: 128 })
        );
        assert!(scalar_offset_shape(&[1, 1]).is_ok() && scalar_offset_shape(&[1]).is_ok());
        assert!(scalar_offset_shape(&[2, 1]).is_err() && scalar_offset_shape(&[]).is_err());
        assert_eq!(indirect_dim(1, 2), Ok(1));
        assert_eq!(
            indirect_dim(2, 2),
            Err(IndirectionError::Dim { dim: 2, rank: 2 })
        );
        assert!(indirect_dim(-1, 2).is_err());
        assert_eq!(
            IndirectionError::Dim { dim: 2, rank: 2 }.to_string(),
            "2 is not a dimension of the rank-2 access"
        );
    }

    /// A 3-D tensor [4, 3, 2] gathered through a 2-D pattern whose dimension 0 walks the
    /// flattened [12] rows of 2 elements: `indirect_dim = 0` is the pattern's dimension (rows
    /// of 2), not the tensor's (blocks of 6).
    #[test]
    fn a_row_of_indices_gathers_as_a_column_does() {
        let mut m = Memory::new(Target::Cayman);
        let t = m.alloc_hbm("t", DType::F32, &[4, 3, 2]).unwrap();
        m.write_f32(&t, &(0..24).map(|i| i as f32).collect::<Vec<_>>())
            .unwrap();
        let mut got = Vec::new();
        for shape in [&[3, 1][..], &[1, 3], &[3]] {
            let idx = m.alloc_sbuf(DType::I32, shape).unwrap();
            m.write_i64(&idx, &[11, 0, 5]).unwrap();
            let acc =
                Access::vector_offset_ap(t.alloc(), DType::F32, 24, 0, &[(2, 3), (1, 2)], 0, &idx)
                    .unwrap();
            let out = m.alloc_sbuf(DType::F32, &[3, 2]).unwrap();
            indirect_load(&mut m, &out, &acc, OobMode::Error).unwrap();
            got.push(m.read_f32(&out).unwrap());
        }
        // numpy: t.reshape(12, 2)[[11, 0, 5]], whichever way the three indices are laid out.
        for g in got {
            assert_eq!(g, vec![22., 23., 0., 1., 10., 11.]);
        }
    }

    #[test]
    fn indirect_dim_is_a_pattern_dimension() {
        let mut m = Memory::new(Target::Cayman);
        let t = m.alloc_hbm("t", DType::F32, &[4, 3, 2]).unwrap();
        m.write_f32(&t, &(0..24).map(|i| i as f32).collect::<Vec<_>>())
            .unwrap();
        let idx = m.alloc_sbuf(DType::I32, &[3, 1]).unwrap();
        m.write_i64(&idx, &[11, 0, 5]).unwrap();
        let acc =
            Access::vector_offset_ap(t.alloc(), DType::F32, 24, 0, &[(2, 3), (1, 2)], 0, &idx)
                .unwrap();
        let out = m.alloc_sbuf(DType::F32, &[3, 2]).unwrap();
        indirect_load(&mut m, &out, &acc, OobMode::Error).unwrap();
        // numpy: t.reshape(12, 2)[[11, 0, 5]]
        assert_eq!(m.read_f32(&out).unwrap(), vec![22., 23., 0., 1., 10., 11.]);
        // Row 12 would read past the tensor: the legal range is the 12 rows.
        m.write_i64(&idx, &[12, 0, 0]).unwrap();
        let err = indirect_load(&mut m, &out, &acc, OobMode::Error).unwrap_err();
        assert!(
            matches!(
                err,
                EmuError::IndexOutOfBounds {
                    extent: 12,
                    value: 12,
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn the_emulator_refuses_what_the_verifier_refuses() {
        let mut m = Memory::new(Target::Cayman);
        let t = m.alloc_hbm("t", DType::F32, &[8, 4]).unwrap();
        let wide = m.alloc_sbuf(DType::I32, &[4, 2]).unwrap();
        let err =
            Access::vector_offset_ap(t.alloc(), DType::F32, 32, 0, &[(4, 4), (1, 4)], 0, &wide)
                .unwrap_err();
        assert!(matches!(err, EmuError::Shape { .. }), "{err}");
        let idx = m.alloc_sbuf(DType::I32, &[4, 1]).unwrap();
        let err =
            Access::vector_offset_ap(t.alloc(), DType::F32, 32, 0, &[(4, 4), (1, 4)], 2, &idx)
                .unwrap_err();
        assert!(matches!(err, EmuError::InvalidAccess { .. }), "{err}");
        let two = m.alloc_sbuf(DType::I32, &[2, 1]).unwrap();
        let err =
            Access::scalar_offset_ap(t.alloc(), DType::F32, 32, 0, &[(4, 2), (1, 4)], 0, &two)
                .unwrap_err();
        assert!(matches!(err, EmuError::Shape { .. }), "{err}");
        let err = pattern_source(t.alloc(), DType::F32, 0, &[(0, 2), (1, 4)], 0, 32).unwrap_err();
        assert!(matches!(err, EmuError::InvalidAccess { .. }), "{err}");
    }

    #[test]
    fn scalar_offset_walks_a_window() {
        let mut m = Memory::new(Target::Cayman);
        let t = m.alloc_hbm("t", DType::F32, &[6, 4]).unwrap();
        m.write_f32(&t, &(0..24).map(|i| i as f32).collect::<Vec<_>>())
            .unwrap();
        let s = m.alloc_sbuf(DType::I32, &[1, 1]).unwrap();
        m.write_i64(&s, &[3]).unwrap();
        let acc = Access::scalar_offset_ap(t.alloc(), DType::F32, 24, 1, &[(4, 2), (1, 2)], 0, &s)
            .unwrap();
        let out = m.alloc_sbuf(DType::F32, &[2, 2]).unwrap();
        indirect_load(&mut m, &out, &acc, OobMode::Error).unwrap();
        // rows 3 and 4, columns 1..3: numpy t[3:5, 1:3]
        assert_eq!(m.read_f32(&out).unwrap(), vec![13., 14., 17., 18.]);
    }
}
