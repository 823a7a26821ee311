//! The typed view of a NISA tile: `memref<P x F0 x ... x dtype, "space">`.
//!
//! A tile has a memory space (the memref's memory-space string), a static shape whose
//! dimension 0 is the partition dimension for SBUF and PSUM tiles, and a [`Dtype`].
//! [`Tile::from_type`] checks the rules every tile obeys wherever it appears and reports the
//! first broken one as a sentence that names the rule. Tiles are *logical* until partition
//! tiling: an on-chip tile may have more than [`NUM_PARTITIONS`] partitions, and
//! [`Tile::check_partitions`] is the phase check that says it no longer does.
//!
//! Shapes come from the input, so every size derived from one is computed with checked
//! arithmetic: a tile whose element count or byte size does not fit in a signed 64-bit integer
//! ([`MAX_TILE_BYTES`]) is refused here, by type, so that every later rule may multiply a tile's
//! sizes by its element size without wrapping.

use melior::ir::{attribute::AttributeLike, r#type::TypeLike};

use crate::{
    dtype::Dtype,
    enums::Space,
    ffi::{print_type, string_attr_value},
};
use melior::ir::{Attribute, Type};
use mlir_sys::{
    mlirMemRefTypeGetLayout, mlirMemRefTypeGetMemorySpace, mlirShapedTypeGetDimSize,
    mlirShapedTypeGetElementType, mlirShapedTypeGetRank, mlirShapedTypeHasRank,
    mlirShapedTypeIsDynamicDim, mlirTypeIsAMemRef,
};

/// The number of SBUF/PSUM partitions on every NeuronCore generation.
pub const NUM_PARTITIONS: i64 = 128;

/// Largest rank a tile may have (partition + four free dimensions, the hardware's widest
/// access pattern, plus one for HBM tensors that are never accessed whole).
pub const MAX_RANK: usize = 6;

/// Largest byte size of a tile: byte offsets and sizes are signed 64-bit throughout the
/// verifier and the access-pattern arithmetic, so a tile must be addressable by one.
pub const MAX_TILE_BYTES: u64 = i64::MAX as u64;

/// A tile type, decoded. The shape is a `Vec` by default; [`InlineTile`] holds it inline
/// ([`Dims`]) and is `Copy`: the verifier reads operand tiles as those (its rules read them
/// many times per op, and a `Vec` shape made each read an allocation). Both have the same
/// methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile<S = Vec<i64>> {
    /// Memory space.
    pub space: Space,
    /// Static shape; `shape[0]` is the partition dimension for SBUF/PSUM.
    pub shape: S,
    /// Element type.
    pub dtype: Dtype,
}

/// A decoded tile whose shape is held inline: `Copy`, no allocation.
pub type InlineTile = Tile<Dims>;

/// A static shape of at most [`MAX_RANK`] dimensions, held inline (it reads as `&[i64]`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dims {
    len: u8,
    // Entries past `len` stay 0, so the derived equality and hash are the slices'.
    dims: [i64; MAX_RANK],
}

impl Dims {
    /// The dimensions of `shape`, if it has at most [`MAX_RANK`] of them.
    pub fn from_slice(shape: &[i64]) -> Option<Dims> {
        if shape.len() > MAX_RANK {
            return None;
        }
        let mut dims = [0; MAX_RANK];
        dims[..shape.len()].copy_from_slice(shape);
        Some(Dims {
            len: shape.len() as u8,
            dims,
        })
    }
}

impl std::ops::Deref for Dims {
    type Target = [i64];
    fn deref(&self) -> &[i64] {
        &self.dims[..self.len as usize]
    }
}

impl std::ops::DerefMut for Dims {
    fn deref_mut(&mut self) -> &mut [i64] {
        &mut self.dims[..self.len as usize]
    }
}

impl PartialEq<[i64]> for Dims {
    fn eq(&self, other: &[i64]) -> bool {
        **self == *other
    }
}

impl<const N: usize> PartialEq<[i64; N]> for Dims {
    fn eq(&self, other: &[i64; N]) -> bool {
        **self == *other
    }
}

impl PartialEq<Vec<i64>> for Dims {
    fn eq(&self, other: &Vec<i64>) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for Dims {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

impl From<InlineTile> for Tile {
    fn from(t: InlineTile) -> Tile {
        Tile {
            space: t.space,
            shape: t.shape.to_vec(),
            dtype: t.dtype,
        }
    }
}

thread_local! {
    /// Decoded tile types by type handle, while [`with_caches`] runs.
    static CACHE: std::cell::RefCell<Option<crate::view::FastMap<usize, Result<InlineTile, String>>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` with [`Tile::from_type`] remembering what it decoded, the op-name lookup of
/// [`crate::view::spec_entry_of_raw`] what it found, and the BIR access-pattern decoder
/// ([`crate::verify::bir_rules::decode`]) the dictionaries it read. MLIR types, attributes and op names are uniqued and
/// live as long as their context, which outlives any one call of `f` (a verifier walk, a pass
/// run), so a handle names one type or name throughout; the caches are dropped when `f`
/// returns, before any context can go away and its handles be reused. Nested calls share the
/// outer caches.
pub fn with_caches<R>(f: impl FnOnce() -> R) -> R {
    let outermost = CACHE.with(|c| {
        let mut c = c.borrow_mut();
        let fresh = c.is_none();
        if fresh {
            *c = Some(crate::view::FastMap::default());
        }
        fresh
    });
    if outermost {
        crate::view::name_cache(true);
        crate::verify::bir_rules::decode_cache(true);
    }
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            if self.0 {
                CACHE.with(|c| *c.borrow_mut() = None);
                crate::view::name_cache(false);
                crate::verify::bir_rules::decode_cache(false);
            }
        }
    }
    let _reset = Reset(outermost);
    f()
}

/// Whether `ty` is a tile type at all (a memref), without decoding or checking it: what an
/// analysis of verified IR needs to tell tiles from registers.
pub fn is_tile_type(ty: Type<'_>) -> bool {
    unsafe { mlirTypeIsAMemRef(ty.to_raw()) }
}

impl Tile {
    /// Decodes and checks a tile type. The error is a sentence for a diagnostic.
    pub fn from_type(ty: Type<'_>) -> Result<Tile, String> {
        InlineTile::of_type(ty).map(Tile::from)
    }
}

impl InlineTile {
    /// [`Tile::from_type`], without allocating on success.
    pub fn of_type(ty: Type<'_>) -> Result<InlineTile, String> {
        let key = ty.to_raw().ptr as usize;
        // A hit copies the tile; only an error (a diagnostic's sentence) is cloned.
        if let Some(hit) = CACHE.with(|c| c.borrow().as_ref().and_then(|m| m.get(&key).cloned())) {
            return hit;
        }
        let decoded = Self::decode(ty);
        CACHE.with(|c| {
            if let Some(m) = c.borrow_mut().as_mut() {
                m.insert(key, decoded.clone());
            }
        });
        decoded
    }

    fn decode(ty: Type<'_>) -> Result<InlineTile, String> {
        let raw = ty.to_raw();
        unsafe {
            if !mlirTypeIsAMemRef(raw) {
                return Err(format!(
                    "expected a tile (memref<... , \"space\">), got '{}'",
                    print_type(ty)
                ));
            }
            if !mlirShapedTypeHasRank(raw) {
                return Err("tile must be ranked".into());
            }
            let rank = mlirShapedTypeGetRank(raw).max(0) as usize;
            if rank == 0 {
                return Err("tile must have at least one dimension".into());
            }
            if rank > MAX_RANK {
                return Err(format!(
                    "tile rank {rank} exceeds the maximum of {MAX_RANK}"
                ));
            }
            let mut shape = [0; MAX_RANK];
            for (d, slot) in shape.iter_mut().enumerate().take(rank) {
                if mlirShapedTypeIsDynamicDim(raw, d as isize) {
                    return Err(format!("tile dimension {d} must be static"));
                }
                let size = mlirShapedTypeGetDimSize(raw, d as isize);
                if size <= 0 {
                    return Err(format!("tile dimension {d} must be positive, got {size}"));
                }
                *slot = size;
            }
            let layout = Attribute::from_raw(mlirMemRefTypeGetLayout(raw));
            if !is_identity_layout(layout) {
                return Err(
                    "tile must have the identity layout (use nisa.ap for strided access)".into(),
                );
            }
            let space_raw = mlirMemRefTypeGetMemorySpace(raw);
            let space_attr = Attribute::from_option_raw(space_raw);
            let space = match space_attr {
                Some(a) if a.is_string() => {
                    let text = string_attr_value(a);
                    Space::parse(&text).ok_or_else(|| {
                        format!("unknown memory space \"{text}\" (expected \"hbm\", \"sbuf\" or \"psum\")")
                    })?
                }
                _ => return Err(
                    "tile must name its memory space: memref<... , \"hbm\" | \"sbuf\" | \"psum\">"
                        .into(),
                ),
            };
            let elem = Type::from_raw(mlirShapedTypeGetElementType(raw));
            let dtype = Dtype::from_mlir(elem).ok_or_else(|| Dtype::unsupported_hint(elem))?;
            let tile = Tile {
                space,
                shape: Dims {
                    len: rank as u8,
                    dims: shape,
                },
                dtype,
            };
            let Some(elements) = tile.num_elements() else {
                return Err(format!(
                    "tile has too many elements (element count overflows 64 bits): {} (rule: tile size)",
                    print_type(ty)
                ));
            };
            if tile.byte_size().is_none() {
                // Exact in u128: at most (2^63 - 1) elements of at most 8 bytes.
                let bytes = elements as u128 * tile.dtype.byte_size() as u128;
                return Err(format!(
                    "tile {} is too large: {elements} elements of {} bytes are {bytes} bytes, more than the {MAX_TILE_BYTES} a 64-bit byte offset can address (rule: tile size)",
                    print_type(ty),
                    tile.dtype.byte_size()
                ));
            }
            Ok(tile)
        }
    }
}

impl<S: std::ops::Deref<Target = [i64]>> Tile<S> {
    /// The physical partition rule: an SBUF or PSUM tile has at most [`NUM_PARTITIONS`]
    /// partitions. Before partition tiling tiles are logical and may have more, so this is a
    /// phase check (`sundial-verify{phase=tiled}`), not a rule of [`Tile::from_type`]. The
    /// error is a sentence for a diagnostic.
    pub fn check_partitions(&self) -> Result<(), String> {
        if self.space != Space::Hbm && self.shape[0] > NUM_PARTITIONS {
            return Err(format!(
                "partition dimension {} exceeds {NUM_PARTITIONS} (rule: partitions <= {NUM_PARTITIONS})",
                self.shape[0]
            ));
        }
        Ok(())
    }

    /// Partition count (dimension 0 of an on-chip tile; 1 for an HBM tensor's view).
    pub fn partitions(&self) -> i64 {
        self.shape[0]
    }

    /// The free dimensions (everything after the partition dimension).
    pub fn free_shape(&self) -> &[i64] {
        &self.shape[1..]
    }

    /// Elements per partition (product of the free dimensions), if it fits in i64.
    pub fn free_size(&self) -> Option<i64> {
        self.shape[1..]
            .iter()
            .try_fold(1i64, |acc, &d| acc.checked_mul(d))
    }

    /// Total elements, if it fits in i64.
    pub fn num_elements(&self) -> Option<i64> {
        self.shape
            .iter()
            .try_fold(1i64, |acc, &d| acc.checked_mul(d))
    }

    /// Total bytes, if at most [`MAX_TILE_BYTES`] (always, for a tile from [`Tile::from_type`]).
    pub fn byte_size(&self) -> Option<i64> {
        self.num_elements()?
            .checked_mul(i64::try_from(self.dtype.byte_size()).ok()?)
    }

    /// Bytes per partition (the free dimensions' bytes), if at most [`MAX_TILE_BYTES`].
    pub fn free_bytes(&self) -> Option<i64> {
        self.free_size()?
            .checked_mul(i64::try_from(self.dtype.byte_size()).ok()?)
    }

    /// Renders the shape as `128x512`.
    pub fn shape_str(&self) -> String {
        self.shape
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("x")
    }
}

fn is_identity_layout(layout: Attribute<'_>) -> bool {
    unsafe {
        if !mlir_sys::mlirAttributeIsAAffineMap(layout.to_raw()) {
            return false;
        }
        let map = mlir_sys::mlirAffineMapAttrGetValue(layout.to_raw());
        mlir_sys::mlirAffineMapIsIdentity(map)
    }
}
