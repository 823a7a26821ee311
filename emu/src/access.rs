//! The access model: which elements of a source view an op touches, in which order.
//!
//! An [`Access`] is a source view plus one [`Subscript`] per source dimension, over a
//! variable space ([`VarSpace`]) with a lower and an (exclusive) upper bound per
//! variable, and an optional order permutation. For `out[e, m, n] = X[IDX[e], m, n]`
//! the variables are `e, m, n`, dimension 0 has the subscript "index view 0 at `[e]`"
//! and dimensions 1 and 2 have the direct subscripts `m` and `n`.
//!
//! A subscript is `direct + indirect`:
//!
//! - `direct` is an affine expression of the variables ([`Affine`]): `m`, `2*m+1`, `0`.
//! - `indirect`, when present, is the integer read from an index view at an affine
//!   expression per index-view dimension ([`IndirectTerm`]): `IDX[e]`, `BT[0, d0]`,
//!   `B[e+1]`, `B[i, 2]`. Several subscripts may read the same index view (shared
//!   views: `A[B[e], B[e+1], n]`). A subscript with both parts is a runtime offset plus
//!   a direct walk (NKI's `scalar_offset`).
//!
//! Points are enumerated row-major over the variables taken in `order` (identity when
//! absent): `order[0]` is the outermost loop. The tile an access reads or writes is laid
//! out in that same enumeration order, so the `i`-th point is the `i`-th tile element,
//! and "last writer wins" for duplicate store targets means the last in this order.
//!
//! Bounds are per dimension (indirect-emulation rules 3-5): a coordinate outside
//! `[0, extent)` of its source dimension is out of bounds. For a dimension with an
//! indirect part that is decided by the op's [`OobMode`]; for a purely direct dimension
//! it is a partial tile (zero read, dropped write). Both rules are enforced in
//! `offsets.rs`; an address past the allocation end is handled in `data.rs`.

use crate::error::{EmuError, Result};
use crate::indirection;
use crate::view::{View, is_permutation};

/// What an op does with an out-of-bounds indirect index (NKI `oob_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OobMode {
    /// Fail the whole op with an error naming op, dimension, position and value; the
    /// destination is left untouched (NKI default).
    #[default]
    Error,
    /// Skip the element: a skipped read yields zero, a skipped write is dropped.
    Skip,
}

impl OobMode {
    /// The NKI enum value (`error = 0`, `skip = 1`).
    pub const fn code(self) -> u8 {
        match self {
            OobMode::Error => 0,
            OobMode::Skip => 1,
        }
    }

    /// Parses the NKI enum value.
    pub const fn from_code(code: u8) -> Option<OobMode> {
        match code {
            0 => Some(OobMode::Error),
            1 => Some(OobMode::Skip),
            _ => None,
        }
    }
}

/// An affine expression `constant + sum(coeff * var)` of the access variables.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Affine {
    /// The constant term.
    pub constant: i64,
    /// `(variable, coefficient)` terms; a variable may appear more than once (the
    /// coefficients add).
    pub terms: Vec<(usize, i64)>,
}

impl Affine {
    /// The constant `c`.
    pub fn constant(c: i64) -> Affine {
        Affine {
            constant: c,
            terms: Vec::new(),
        }
    }

    /// The bare variable `v`.
    pub fn var(v: usize) -> Affine {
        Affine {
            constant: 0,
            terms: vec![(v, 1)],
        }
    }

    /// `coeff * v`.
    pub fn scaled(v: usize, coeff: i64) -> Affine {
        Affine {
            constant: 0,
            terms: vec![(v, coeff)],
        }
    }

    /// `self + coeff * v`.
    pub fn plus_term(mut self, v: usize, coeff: i64) -> Affine {
        self.terms.push((v, coeff));
        self
    }

    /// `self + c`.
    pub fn plus_const(mut self, c: i64) -> Affine {
        self.constant = self.constant.saturating_add(c);
        self
    }

    /// Evaluates at a point (variable values by variable id); `None` on overflow or an
    /// unknown variable.
    pub fn eval(&self, point: &[i64]) -> Option<i64> {
        self.terms.iter().try_fold(self.constant, |acc, &(v, c)| {
            acc.checked_add(point.get(v)?.checked_mul(c)?)
        })
    }

    /// True when the expression is exactly one variable with coefficient 1 and no
    /// constant (a "bare direct variable").
    pub fn as_bare_var(&self) -> Option<usize> {
        match self.terms.as_slice() {
            [(v, 1)] if self.constant == 0 => Some(*v),
            _ => None,
        }
    }
}

/// The indirect part of a subscript: the value of index view `index_view` (an index
/// into [`Access::index_views`]) read at one affine expression per index-view
/// dimension.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IndirectTerm {
    /// Which index view of the access is read.
    pub index_view: usize,
    /// Where it is read: one expression per index-view dimension.
    pub at: Vec<Affine>,
}

/// The subscript of one source dimension: `direct + indirect`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Subscript {
    /// The affine (direct) part.
    pub direct: Affine,
    /// The indirect part, if any.
    pub indirect: Option<IndirectTerm>,
}

impl Subscript {
    /// The bare variable `v`.
    pub fn var(v: usize) -> Subscript {
        Subscript {
            direct: Affine::var(v),
            indirect: None,
        }
    }

    /// An affine expression of the variables.
    pub fn affine(a: Affine) -> Subscript {
        Subscript {
            direct: a,
            indirect: None,
        }
    }

    /// The value of index view `index_view` at `at`.
    pub fn indirect(index_view: usize, at: Vec<Affine>) -> Subscript {
        Subscript {
            direct: Affine::default(),
            indirect: Some(IndirectTerm { index_view, at }),
        }
    }

    /// `direct + index_view[at]` (a runtime offset plus a direct walk).
    pub fn indirect_plus(index_view: usize, at: Vec<Affine>, direct: Affine) -> Subscript {
        Subscript {
            direct,
            indirect: Some(IndirectTerm { index_view, at }),
        }
    }

    /// True when the subscript has an indirect part.
    pub fn is_indirect(&self) -> bool {
        self.indirect.is_some()
    }
}

/// The iteration space: variable `v` runs over `lower[v] .. upper[v]` (upper exclusive).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VarSpace {
    /// Inclusive lower bounds.
    pub lower: Vec<i64>,
    /// Exclusive upper bounds.
    pub upper: Vec<i64>,
}

impl VarSpace {
    /// `0 .. extent` per variable.
    pub fn from_extents(extents: &[usize]) -> VarSpace {
        VarSpace {
            lower: vec![0; extents.len()],
            upper: extents
                .iter()
                .map(|&e| i64::try_from(e).unwrap_or(i64::MAX))
                .collect(),
        }
    }

    /// Explicit bounds.
    pub fn new(lower: Vec<i64>, upper: Vec<i64>) -> VarSpace {
        VarSpace { lower, upper }
    }

    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.lower.len()
    }
}

/// A source view addressed through subscripts over a variable space.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Access {
    /// The view whose elements are read or written.
    pub source: View,
    /// Index views the indirect subscripts read (integer dtypes).
    pub index_views: Vec<View>,
    /// One subscript per source dimension.
    pub subscripts: Vec<Subscript>,
    /// The variable space.
    pub space: VarSpace,
    /// Enumeration order: `order[0]` is the outermost variable. `None` = identity.
    pub order: Option<Vec<usize>>,
}

impl Access {
    /// Every element of `view` in row-major order (the identity access).
    pub fn direct(view: &View) -> Access {
        Access {
            source: view.clone(),
            index_views: Vec::new(),
            subscripts: (0..view.rank()).map(Subscript::var).collect(),
            space: VarSpace::from_extents(view.shape()),
            order: None,
        }
    }

    /// NKI `.ap(vector_offset=index, indirect_dim=dim)`: the tile has the source's
    /// shape except that dimension `indirect_dim` runs over the rows of `index`
    /// (`[n]`, `[n, 1]` or `[1, n]`), and its coordinate is `index[k]` (`index[k, 0]`,
    /// `index[0, k]`).
    ///
    /// `indirect_dim` and the index shapes are those of [`crate::indirection`], the definition
    /// the NISA verifier shares.
    pub fn vector_offset(source: &View, indirect_dim: usize, index: &View) -> Result<Access> {
        const OP: &str = "vector_offset";
        let indirect_dim = indirection::indirect_dim(indirect_dim as i64, source.rank())
            .map_err(|e| EmuError::from((OP, e)))?;
        let rows =
            indirection::vector_offset_rows(index.shape()).map_err(|e| EmuError::from((OP, e)))?;
        // The k-th index is index[k] ([n]), index[k, 0] ([n, 1]) or index[0, k] ([1, n]).
        let at = match index.shape() {
            [_] => vec![Affine::var(indirect_dim)],
            [1, n] if *n != 1 => vec![Affine::constant(0), Affine::var(indirect_dim)],
            _ => vec![Affine::var(indirect_dim), Affine::constant(0)],
        };
        let mut extents = source.shape().to_vec();
        extents[indirect_dim] = rows;
        let subscripts = (0..source.rank())
            .map(|d| {
                if d == indirect_dim {
                    Subscript::indirect(0, at.clone())
                } else {
                    Subscript::var(d)
                }
            })
            .collect();
        Ok(Access {
            source: source.clone(),
            index_views: vec![index.clone()],
            subscripts,
            space: VarSpace::from_extents(&extents),
            order: None,
        })
    }

    /// NKI `scalar_offset`: a tile of `tile_shape` over `source` whose coordinate in
    /// dimension `dim` is the tile variable plus the runtime value `scalar[0..]` (a
    /// one-element index view).
    pub fn scalar_offset(
        source: &View,
        dim: usize,
        scalar: &View,
        tile_shape: &[usize],
    ) -> Result<Access> {
        const OP: &str = "scalar_offset";
        indirection::scalar_offset_shape(scalar.shape()).map_err(|e| EmuError::from((OP, e)))?;
        if dim >= source.rank() || tile_shape.len() != source.rank() {
            return Err(EmuError::invalid(
                OP,
                format!(
                    "dimension {dim} and tile shape {tile_shape:?} for a rank-{} source",
                    source.rank()
                ),
            ));
        }
        let at = vec![Affine::constant(0); scalar.rank()];
        let subscripts = (0..source.rank())
            .map(|d| {
                if d == dim {
                    Subscript::indirect_plus(0, at.clone(), Affine::var(d))
                } else {
                    Subscript::var(d)
                }
            })
            .collect();
        Ok(Access {
            source: source.clone(),
            index_views: vec![scalar.clone()],
            subscripts,
            space: VarSpace::from_extents(tile_shape),
            order: None,
        })
    }

    /// The same access enumerated in `order` (`order[0]` outermost).
    pub fn with_order(mut self, order: Vec<usize>) -> Access {
        self.order = Some(order);
        self
    }

    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.space.num_vars()
    }

    /// True when this is the identity access of its source ([`Access::direct`]): every
    /// element of the view, row-major, no index read.
    pub fn is_identity(&self) -> bool {
        let shape = self.source.shape();
        let rank = shape.len();
        self.index_views.is_empty()
            && self.subscripts.len() == rank
            && self.space.lower.len() == rank
            && self.space.upper.len() == rank
            && self
                .order
                .as_ref()
                .is_none_or(|o| o.iter().enumerate().all(|(i, &v)| i == v))
            && self.subscripts.iter().enumerate().all(|(d, s)| {
                s.indirect.is_none()
                    && s.direct.constant == 0
                    && s.direct.terms.as_slice() == [(d, 1)]
            })
            && self.space.lower.iter().all(|&l| l == 0)
            && self
                .space
                .upper
                .iter()
                .zip(shape)
                .all(|(&u, &e)| u64::try_from(u).ok() == Some(e as u64))
    }

    /// The enumeration order (identity when none was given).
    pub fn enumeration_order(&self) -> Vec<usize> {
        self.order
            .clone()
            .unwrap_or_else(|| (0..self.num_vars()).collect())
    }

    /// The tile shape: the variable extents in enumeration order. Fails when the
    /// order is not a permutation or a bound pair is inverted.
    pub fn tile_shape(&self, op: &'static str) -> Result<Vec<usize>> {
        let n = self.num_vars();
        if self.space.upper.len() != n {
            return Err(EmuError::invalid(
                op,
                format!(
                    "{n} lower bounds but {} upper bounds",
                    self.space.upper.len()
                ),
            ));
        }
        let order = self.enumeration_order();
        if !is_permutation(&order, n) {
            return Err(EmuError::invalid(
                op,
                format!("order {order:?} is not a permutation of the {n} variables"),
            ));
        }
        order
            .iter()
            .map(|&v| {
                let (lo, hi) = (self.space.lower[v], self.space.upper[v]);
                if hi < lo {
                    return Err(EmuError::invalid(
                        op,
                        format!("variable {v} has upper bound {hi} below lower bound {lo}"),
                    ));
                }
                hi.checked_sub(lo)
                    .and_then(|e| usize::try_from(e).ok())
                    .ok_or_else(|| EmuError::overflow(op, format!("the extent of variable {v}")))
            })
            .collect()
    }

    /// Number of points (tile elements).
    pub fn num_points(&self, op: &'static str) -> Result<usize> {
        let n = self
            .tile_shape(op)?
            .iter()
            .try_fold(1usize, |a, &e| a.checked_mul(e))
            .ok_or_else(|| EmuError::overflow(op, "the number of points of an access"))?;
        EmuError::check_elements(op, "the access", n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DType;
    use crate::memory::AllocId;

    #[test]
    fn oob_mode_codes_follow_nki() {
        assert_eq!(OobMode::Error.code(), 0);
        assert_eq!(OobMode::Skip.code(), 1);
        assert_eq!(OobMode::from_code(1), Some(OobMode::Skip));
        assert_eq!(OobMode::from_code(2), None);
    }

    #[test]
    fn affine_evaluation_is_checked() {
        let a = Affine::scaled(0, 3).plus_term(1, -1).plus_const(5);
        assert_eq!(a.eval(&[2, 4]), Some(7));
        assert_eq!(a.eval(&[2]), None);
        assert_eq!(Affine::scaled(0, i64::MAX).eval(&[2]), None);
        assert_eq!(Affine::var(3).as_bare_var(), Some(3));
        assert_eq!(Affine::var(3).plus_const(1).as_bare_var(), None);
    }

    #[test]
    fn tile_shape_follows_the_order_and_checks_bounds() {
        let v = View::contiguous(AllocId::from_raw(0), DType::F32, 0, vec![4, 5]).unwrap();
        let mut a = Access::direct(&v).with_order(vec![1, 0]);
        assert_eq!(a.tile_shape("t").unwrap(), vec![5, 4]);
        a.space.lower[0] = 6;
        assert!(a.tile_shape("t").is_err());
        let b = Access::direct(&v).with_order(vec![1, 1]);
        assert!(b.tile_shape("t").is_err());
    }
}
