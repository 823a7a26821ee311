//! Typed views: a dtype, a shape, strides and an offset over one allocation.
//!
//! A view is pure address arithmetic: element `(c0, .., cn)` lives at element offset
//! `offset + sum(ci * strides[i])` of its allocation, in units of the view's dtype.
//! Constructing a view checks that this arithmetic cannot overflow for any in-extent
//! coordinate, so the engine can later compute addresses without checks.
//!
//! A view may reach past the end of its allocation (a partial tile, the seed's
//! issue #182: 100 valid rows addressed through a 128-row tile). That is not an error:
//! the data primitive (`data.rs`) reads zeros there and drops writes.

use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::AllocId;

const OP: &str = "view";

/// A typed, strided window onto one allocation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct View {
    alloc: AllocId,
    dtype: DType,
    offset: i64,
    shape: Vec<usize>,
    strides: Vec<i64>,
    num_elements: usize,
}

impl View {
    /// A view with explicit strides (in elements of `dtype`) and element offset.
    ///
    /// Fails when shape and strides differ in length, when the element count overflows,
    /// or when an in-extent address would overflow `i64`.
    pub fn new(
        alloc: AllocId,
        dtype: DType,
        offset: i64,
        shape: Vec<usize>,
        strides: Vec<i64>,
    ) -> Result<View> {
        if shape.len() != strides.len() {
            return Err(EmuError::shape(
                OP,
                format!(
                    "shape has {} dimensions but strides have {}",
                    shape.len(),
                    strides.len()
                ),
            ));
        }
        let num_elements = shape
            .iter()
            .try_fold(1usize, |acc, &e| acc.checked_mul(e))
            .ok_or_else(|| EmuError::overflow(OP, "the element count of a view"))?;
        let view = View {
            alloc,
            dtype,
            offset,
            shape,
            strides,
            num_elements,
        };
        if num_elements > 0 {
            view.footprint_checked()?;
        }
        Ok(view)
    }

    /// A row-major contiguous view.
    pub fn contiguous(
        alloc: AllocId,
        dtype: DType,
        offset: i64,
        shape: Vec<usize>,
    ) -> Result<View> {
        let strides = row_major_strides(&shape)?;
        View::new(alloc, dtype, offset, shape, strides)
    }

    /// The allocation the view addresses.
    pub fn alloc(&self) -> AllocId {
        self.alloc
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// Element offset of coordinate zero from the start of the allocation.
    pub fn offset(&self) -> i64 {
        self.offset
    }

    /// Extents, outermost first.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Strides in elements, outermost first.
    pub fn strides(&self) -> &[i64] {
        &self.strides
    }

    /// Number of dimensions.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Number of elements (the product of the extents).
    pub fn num_elements(&self) -> usize {
        self.num_elements
    }

    /// True when some extent is zero.
    pub fn is_empty(&self) -> bool {
        self.num_elements == 0
    }

    /// Size in bytes of the elements the view covers.
    pub fn num_bytes(&self) -> usize {
        // Cannot overflow: the view's footprint fits i64 elements of at most 8 bytes,
        // but stay checked for views with zero strides (many elements, tiny footprint).
        self.num_elements.saturating_mul(self.dtype.size())
    }

    /// Smallest and largest element offset the view touches (None when empty).
    pub fn footprint(&self) -> Option<(i64, i64)> {
        if self.num_elements == 0 {
            return None;
        }
        self.footprint_checked().ok()
    }

    fn footprint_checked(&self) -> Result<(i64, i64)> {
        let mut lo = self.offset;
        let mut hi = self.offset;
        for (&e, &s) in self.shape.iter().zip(&self.strides) {
            let last = i64::try_from(e - 1)
                .ok()
                .and_then(|l| l.checked_mul(s))
                .ok_or_else(|| EmuError::overflow(OP, "a view's address range"))?;
            let ovf = || EmuError::overflow(OP, "a view's address range");
            if last < 0 {
                lo = lo.checked_add(last).ok_or_else(ovf)?;
            } else {
                hi = hi.checked_add(last).ok_or_else(ovf)?;
            }
        }
        Ok((lo, hi))
    }

    /// Element offset of one coordinate, or `None` when out of the view's extents.
    pub fn element_offset(&self, coords: &[usize]) -> Option<i64> {
        if coords.len() != self.rank() {
            return None;
        }
        let mut off = self.offset;
        for ((&c, &e), &s) in coords.iter().zip(&self.shape).zip(&self.strides) {
            if c >= e {
                return None;
            }
            // In extent, so inside the footprint checked at construction.
            off += c as i64 * s;
        }
        Some(off)
    }

    /// True when the view is row-major contiguous (every stride is the product of the
    /// inner extents; extent-1 dimensions may have any stride).
    pub fn is_contiguous(&self) -> bool {
        let mut expect: i64 = 1;
        for (&e, &s) in self.shape.iter().zip(&self.strides).rev() {
            if e != 1 && s != expect {
                return false;
            }
            expect = expect.saturating_mul(e as i64);
        }
        true
    }

    /// `view[.., start : start + len : step, ..]` along `dim`. The slice must stay
    /// within the extent (a partial tile is expressed by the access, not by the view).
    pub fn slice(&self, dim: usize, start: usize, len: usize, step: usize) -> Result<View> {
        let extent = *self.shape.get(dim).ok_or_else(|| {
            EmuError::shape(
                OP,
                format!("slice of dimension {dim} of a rank-{} view", self.rank()),
            )
        })?;
        if step == 0 {
            return Err(EmuError::shape(OP, "slice step 0"));
        }
        if len > 0 {
            let last = (len - 1)
                .checked_mul(step)
                .and_then(|x| x.checked_add(start))
                .ok_or_else(|| EmuError::overflow(OP, "a slice end"))?;
            if last >= extent {
                return Err(EmuError::shape(
                    OP,
                    format!(
                        "slice {start}..+{len} step {step} of dimension {dim} exceeds extent {extent}"
                    ),
                ));
            }
        }
        let stride = self.strides[dim];
        let offset = if len > 0 {
            offset_plus(self.offset, start, stride, "a slice start")?
        } else {
            self.offset
        };
        let mut shape = self.shape.clone();
        let mut strides = self.strides.clone();
        shape[dim] = len;
        strides[dim] = stride
            .checked_mul(step as i64)
            .ok_or_else(|| EmuError::overflow(OP, "a slice stride"))?;
        View::new(self.alloc, self.dtype, offset, shape, strides)
    }

    /// Fixes dimension `dim` at `index` and removes it.
    pub fn select(&self, dim: usize, index: usize) -> Result<View> {
        let extent = *self.shape.get(dim).ok_or_else(|| {
            EmuError::shape(
                OP,
                format!("select of dimension {dim} of a rank-{} view", self.rank()),
            )
        })?;
        if index >= extent {
            return Err(EmuError::shape(
                OP,
                format!("select index {index} of dimension {dim} with extent {extent}"),
            ));
        }
        let offset = offset_plus(self.offset, index, self.strides[dim], "a selected offset")?;
        let mut shape = self.shape.clone();
        let mut strides = self.strides.clone();
        shape.remove(dim);
        strides.remove(dim);
        View::new(self.alloc, self.dtype, offset, shape, strides)
    }

    /// Reorders the dimensions: dimension `i` of the result is dimension `perm[i]`.
    pub fn permute(&self, perm: &[usize]) -> Result<View> {
        if !is_permutation(perm, self.rank()) {
            return Err(EmuError::shape(
                OP,
                format!("{perm:?} is not a permutation of 0..{}", self.rank()),
            ));
        }
        let shape = perm.iter().map(|&p| self.shape[p]).collect();
        let strides = perm.iter().map(|&p| self.strides[p]).collect();
        View::new(self.alloc, self.dtype, self.offset, shape, strides)
    }

    /// Merges dimensions `1..` into one (the per-partition flattening of
    /// `nc_n_gather` / `local_gather`). Fails when those dimensions are not mergeable
    /// into a single stride.
    pub fn flatten_free(&self) -> Result<View> {
        if self.rank() == 0 {
            return Err(EmuError::shape(
                OP,
                "cannot flatten the free dimensions of a rank-0 view",
            ));
        }
        let free_shape = &self.shape[1..];
        let free_strides = &self.strides[1..];
        // Checked: an empty view (a zero extent) may have free extents whose product
        // overflows, since its own element count is 0.
        let count = free_shape
            .iter()
            .try_fold(1usize, |a, &e| a.checked_mul(e))
            .ok_or_else(|| EmuError::overflow(OP, "the flattened free extent"))?;
        let mut inner_stride: Option<i64> = None;
        let mut expect_span: i64 = 1;
        // Walk inner to outer: each non-trivial dimension's stride must equal the inner
        // stride times the inner span.
        for (&e, &s) in free_shape.iter().zip(free_strides).rev() {
            if e == 1 {
                continue;
            }
            match inner_stride {
                None => inner_stride = Some(s),
                Some(is) => {
                    if s != is.saturating_mul(expect_span) {
                        return Err(EmuError::unsupported(
                            OP,
                            format!(
                                "free dimensions {free_shape:?} with strides {free_strides:?} do not flatten to one stride"
                            ),
                        ));
                    }
                }
            }
            expect_span = expect_span.saturating_mul(e as i64);
        }
        View::new(
            self.alloc,
            self.dtype,
            self.offset,
            vec![self.shape[0], count],
            vec![self.strides[0], inner_stride.unwrap_or(1)],
        )
    }

    /// Reinterprets a contiguous view with a new shape of the same element count.
    pub fn reshape(&self, shape: Vec<usize>) -> Result<View> {
        if !self.is_contiguous() {
            return Err(EmuError::unsupported(
                OP,
                "reshape of a non-contiguous view",
            ));
        }
        let count = shape
            .iter()
            .try_fold(1usize, |a, &e| a.checked_mul(e))
            .ok_or_else(|| EmuError::overflow(OP, "a reshape's element count"))?;
        if count != self.num_elements {
            return Err(EmuError::shape(
                OP,
                format!("reshape of {} elements to {shape:?}", self.num_elements),
            ));
        }
        View::contiguous(self.alloc, self.dtype, self.offset, shape)
    }
}

/// `offset + index * stride`, checked (an index of an empty view's dimension with a huge
/// stride overflows `i64`).
fn offset_plus(offset: i64, index: usize, stride: i64, what: &str) -> Result<i64> {
    i64::try_from(index)
        .ok()
        .and_then(|i| i.checked_mul(stride))
        .and_then(|x| x.checked_add(offset))
        .ok_or_else(|| EmuError::overflow(OP, what))
}

/// Row-major strides (in elements) for `shape`.
pub fn row_major_strides(shape: &[usize]) -> Result<Vec<i64>> {
    let mut strides = vec![0i64; shape.len()];
    let mut acc: i64 = 1;
    for (i, &e) in shape.iter().enumerate().rev() {
        strides[i] = acc;
        let e = i64::try_from(e).map_err(|_| EmuError::overflow(OP, "row-major strides"))?;
        // An empty dimension leaves the outer strides at the last non-zero product.
        if e > 0 {
            acc = acc
                .checked_mul(e)
                .ok_or_else(|| EmuError::overflow(OP, "row-major strides"))?;
        }
    }
    Ok(strides)
}

/// True when `perm` is a permutation of `0..n`.
pub fn is_permutation(perm: &[usize], n: usize) -> bool {
    if perm.len() != n {
        return false;
    }
    let mut seen = vec![false; n];
    for &p in perm {
        if p >= n || seen[p] {
            return false;
        }
        seen[p] = true;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id() -> AllocId {
        AllocId::from_raw(0)
    }

    #[test]
    fn contiguous_strides_and_offsets() {
        let v = View::contiguous(id(), DType::F16, 3, vec![2, 3, 4]).unwrap();
        assert_eq!(v.strides(), &[12, 4, 1]);
        assert_eq!(v.element_offset(&[1, 2, 3]), Some(3 + 12 + 8 + 3));
        assert_eq!(v.element_offset(&[2, 0, 0]), None);
        assert!(v.is_contiguous());
        assert_eq!(v.footprint(), Some((3, 26)));
    }

    #[test]
    fn slices_selects_and_permutes_compose() {
        let v = View::contiguous(id(), DType::F32, 0, vec![4, 6]).unwrap();
        let s = v.slice(1, 1, 3, 2).unwrap();
        assert_eq!(s.shape(), &[4, 3]);
        assert_eq!(s.strides(), &[6, 2]);
        assert_eq!(s.element_offset(&[2, 2]), Some(12 + 1 + 4));
        assert!(v.slice(1, 1, 3, 3).is_err());
        let t = v.permute(&[1, 0]).unwrap();
        assert_eq!(t.element_offset(&[5, 3]), Some(23));
        assert!(!t.is_contiguous());
        let r = v.select(0, 2).unwrap();
        assert_eq!(r.shape(), &[6]);
        assert_eq!(r.offset(), 12);
        assert!(v.permute(&[0, 0]).is_err());
    }

    #[test]
    fn flatten_free_merges_only_mergeable_dimensions() {
        let v = View::contiguous(id(), DType::U8, 0, vec![2, 3, 4]).unwrap();
        let f = v.flatten_free().unwrap();
        assert_eq!(f.shape(), &[2, 12]);
        assert_eq!(f.strides(), &[12, 1]);
        let nm = v.permute(&[0, 2, 1]).unwrap();
        assert!(nm.flatten_free().is_err());
    }

    #[test]
    fn address_overflow_is_an_error_not_a_panic() {
        let r = View::new(id(), DType::U8, i64::MAX - 1, vec![4], vec![1]);
        assert!(matches!(r, Err(EmuError::Overflow { .. })));
        let r = View::new(id(), DType::U8, 0, vec![usize::MAX, 2], vec![1, 1]);
        assert!(matches!(r, Err(EmuError::Overflow { .. })));
        assert!(View::new(id(), DType::U8, 0, vec![2], vec![1, 1]).is_err());
    }
}
