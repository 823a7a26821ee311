//! Shared test support: an independent per-point reference of the access semantics,
//! and runners that execute an op on both offsets paths and compare them.
//!
//! The reference is deliberately naive and separate from `offsets.rs`: it enumerates
//! every point, evaluates every subscript at that point, reads the index value
//! straight from the allocation bytes, and applies the rules as the access-model docs
//! state them. Agreement of the engine's two paths with each other *and* with this
//! reference is what the tests check.

#![allow(dead_code)]

use sundial_emu::{
    Access, EmuError, Memory, OobMode, PathChoice, View, indirect_load, indirect_save,
    indirect_save_accumulate,
};

/// The fields of an out-of-bounds error, as the reference computes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefOob {
    pub dim: usize,
    pub index_view: usize,
    pub position: Vec<i64>,
    pub value: i64,
    pub coordinate: i64,
    pub extent: usize,
}

impl RefOob {
    pub fn matches(&self, e: &EmuError) -> bool {
        matches!(e, EmuError::IndexOutOfBounds { dim, index_view, position, value, coordinate, extent, .. }
            if *dim == self.dim && *index_view == self.index_view && *position == self.position
               && *value == i128::from(self.value) && *coordinate == self.coordinate && *extent == self.extent)
    }
}

/// Every point of the access in enumeration order, as variable values by variable id.
pub fn points(acc: &Access) -> Vec<Vec<i64>> {
    let n = acc.space.lower.len();
    let order = acc.order.clone().unwrap_or_else(|| (0..n).collect());
    let exts: Vec<i64> = order
        .iter()
        .map(|&v| acc.space.upper[v] - acc.space.lower[v])
        .collect();
    if exts.iter().any(|&e| e <= 0) {
        return Vec::new();
    }
    let total: i64 = exts.iter().product();
    let mut out = Vec::new();
    for t in 0..total {
        let mut rest = t;
        let mut vals = vec![0i64; n];
        for p in (0..n).rev() {
            vals[order[p]] = acc.space.lower[order[p]] + rest % exts[p];
            rest /= exts[p];
        }
        out.push(vals);
    }
    out
}

fn eval(a: &sundial_emu::Affine, point: &[i64]) -> i64 {
    a.terms
        .iter()
        .fold(a.constant, |acc, &(v, c)| acc + c * point[v])
}

/// The element offset one point addresses (None = skipped) and the first indirect
/// out-of-bounds at that point (in dimension order).
pub fn resolve(mem: &Memory, acc: &Access, point: &[i64]) -> (Option<i64>, Option<RefOob>) {
    let src = &acc.source;
    let mut addr = src.offset() as i128;
    let mut skip = false;
    let mut err = None;
    for (d, sub) in acc.subscripts.iter().enumerate() {
        let ext = src.shape()[d] as i128;
        let direct = eval(&sub.direct, point) as i128;
        let coord = match &sub.indirect {
            None => direct,
            Some(t) => {
                let iv = &acc.index_views[t.index_view];
                let at: Vec<i64> = t.at.iter().map(|a| eval(a, point)).collect();
                let off: i64 =
                    iv.offset() + at.iter().zip(iv.strides()).map(|(a, s)| a * s).sum::<i64>();
                let bytes = mem.bytes(iv.alloc()).unwrap();
                let es = iv.dtype().size() as i64;
                let value = if off >= 0 && (off + 1) * es <= bytes.len() as i64 {
                    let o = (off * es) as usize;
                    iv.dtype().to_i64(iv.dtype().load(&bytes[o..])).unwrap()
                } else {
                    0
                };
                let c = direct + value as i128;
                if (c < 0 || c >= ext) && err.is_none() {
                    err = Some(RefOob {
                        dim: d,
                        index_view: t.index_view,
                        position: at,
                        value,
                        coordinate: c.clamp(i64::MIN as i128, i64::MAX as i128) as i64,
                        extent: ext as usize,
                    });
                }
                c
            }
        };
        if coord < 0 || coord >= ext {
            skip = true;
        } else {
            addr += coord * src.strides()[d] as i128;
        }
    }
    (if skip { None } else { Some(addr as i64) }, err)
}

/// Reference load: the tile the access reads, or the first out-of-bounds in error mode.
pub fn reference_load(mem: &Memory, acc: &Access, oob: OobMode) -> Result<Vec<u8>, RefOob> {
    let es = acc.source.dtype().size();
    let bytes = mem.bytes(acc.source.alloc()).unwrap();
    let n_elems = (bytes.len() / es) as i64;
    let mut out = Vec::new();
    for p in points(acc) {
        let (a, e) = resolve(mem, acc, &p);
        if let (OobMode::Error, Some(e)) = (oob, e) {
            return Err(e);
        }
        match a {
            Some(a) if a >= 0 && a < n_elems => {
                out.extend_from_slice(&bytes[a as usize * es..(a as usize + 1) * es])
            }
            _ => out.extend(std::iter::repeat_n(0u8, es)),
        }
    }
    Ok(out)
}

/// Reference store: the destination allocation's bytes after writing `tile` through
/// the access (sequentially, last writer wins), or the first out-of-bounds.
pub fn reference_store(
    mem: &Memory,
    acc: &Access,
    tile: &[u8],
    oob: OobMode,
) -> Result<Vec<u8>, RefOob> {
    let es = acc.source.dtype().size();
    let mut bytes = mem.bytes(acc.source.alloc()).unwrap().to_vec();
    let n_elems = (bytes.len() / es) as i64;
    let mut targets = Vec::new();
    for p in points(acc) {
        let (a, e) = resolve(mem, acc, &p);
        if let (OobMode::Error, Some(e)) = (oob, e) {
            return Err(e);
        }
        targets.push(a);
    }
    for (i, a) in targets.into_iter().enumerate() {
        if let Some(a) = a
            && a >= 0
            && a < n_elems
        {
            let a = a as usize;
            bytes[a * es..(a + 1) * es].copy_from_slice(&tile[i * es..(i + 1) * es]);
        }
    }
    Ok(bytes)
}

/// Reference scatter-add: every point, in enumeration order, adds its tile element to
/// its target in f32 and re-encodes (the DMA read-modify-write rule).
pub fn reference_accumulate(
    mem: &Memory,
    acc: &Access,
    tile: &[u8],
    oob: OobMode,
) -> Result<Vec<u8>, RefOob> {
    let d = acc.source.dtype();
    let es = d.size();
    let mut bytes = mem.bytes(acc.source.alloc()).unwrap().to_vec();
    let n_elems = (bytes.len() / es) as i64;
    let mut targets = Vec::new();
    for p in points(acc) {
        let (a, e) = resolve(mem, acc, &p);
        if let (OobMode::Error, Some(e)) = (oob, e) {
            return Err(e);
        }
        targets.push(a);
    }
    for (i, a) in targets.into_iter().enumerate() {
        if let Some(a) = a
            && a >= 0
            && a < n_elems
        {
            let a = a as usize;
            let cell = &mut bytes[a * es..(a + 1) * es];
            let old = d.to_f32(d.load(cell)).unwrap();
            let add = d.to_f32(d.load(&tile[i * es..])).unwrap();
            d.store(d.from_f32(old + add).unwrap(), cell);
        }
    }
    Ok(bytes)
}

/// Scatter-adds `tile` through the access on each path from the same initial memory;
/// asserts the paths agree and returns the final destination bytes.
pub fn accumulate_all_paths(
    mem: &mut Memory,
    acc: &Access,
    tile: &View,
    oob: OobMode,
) -> Result<Vec<u8>, EmuError> {
    let alloc = acc.source.alloc();
    let initial = mem.bytes(alloc).unwrap().to_vec();
    let mut results = Vec::new();
    for path in [PathChoice::General, PathChoice::Blocked, PathChoice::Auto] {
        mem.bytes_mut(alloc).unwrap().copy_from_slice(&initial);
        mem.set_path_choice(path);
        let r = indirect_save_accumulate(mem, acc, tile, oob);
        let after = mem.bytes(alloc).unwrap().to_vec();
        if r.is_err() {
            assert_eq!(after, initial, "{path:?} wrote on error");
        }
        results.push((path, r.map(|()| after)));
    }
    mem.set_path_choice(PathChoice::Auto);
    let first = results[0].1.clone();
    for (path, r) in &results[1..] {
        assert_eq!(r, &first, "{path:?} disagrees with the general path");
    }
    mem.bytes_mut(alloc).unwrap().copy_from_slice(&initial);
    first
}

/// Loads through the access on the general path, the blocked path and the gate's
/// choice; asserts the three agree exactly (data or error) and returns the result.
pub fn load_all_paths(mem: &mut Memory, acc: &Access, oob: OobMode) -> Result<Vec<u8>, EmuError> {
    let n = acc.num_points("test").unwrap_or(0);
    let mut results = Vec::new();
    for path in [PathChoice::General, PathChoice::Blocked, PathChoice::Auto] {
        mem.set_path_choice(path);
        let dst = mem.alloc_hbm("dst", acc.source.dtype(), &[n]).unwrap();
        let r = indirect_load(mem, &dst, acc, oob).map(|()| mem.read_bytes(&dst).unwrap());
        if r.is_err() {
            // Error mode leaves the destination untouched: still the uninitialised fill.
            let fill = {
                let d = acc.source.dtype();
                let mut b = vec![0u8; n * d.size()];
                for c in b.chunks_exact_mut(d.size()) {
                    d.store(d.uninit_bits(), c);
                }
                b
            };
            assert_eq!(
                mem.read_bytes(&dst).unwrap(),
                fill,
                "{path:?} wrote on error"
            );
        }
        results.push((path, r));
    }
    mem.set_path_choice(PathChoice::Auto);
    let first = results[0].1.clone();
    for (path, r) in &results[1..] {
        assert_eq!(r, &first, "{path:?} disagrees with the general path");
    }
    first
}

/// Stores `tile` through the access on each path from the same initial memory;
/// asserts the destination allocations (and errors) agree and returns the final
/// destination bytes.
pub fn store_all_paths(
    mem: &mut Memory,
    acc: &Access,
    tile: &View,
    oob: OobMode,
) -> Result<Vec<u8>, EmuError> {
    let alloc = acc.source.alloc();
    let initial = mem.bytes(alloc).unwrap().to_vec();
    let mut results = Vec::new();
    for path in [PathChoice::General, PathChoice::Blocked, PathChoice::Auto] {
        mem.bytes_mut(alloc).unwrap().copy_from_slice(&initial);
        mem.set_path_choice(path);
        let r = indirect_save(mem, acc, tile, oob);
        let after = mem.bytes(alloc).unwrap().to_vec();
        if r.is_err() {
            assert_eq!(after, initial, "{path:?} wrote on error");
        }
        results.push((path, r.map(|()| after)));
    }
    mem.set_path_choice(PathChoice::Auto);
    let first = results[0].1.clone();
    for (path, r) in &results[1..] {
        assert_eq!(r, &first, "{path:?} disagrees with the general path");
    }
    mem.bytes_mut(alloc).unwrap().copy_from_slice(&initial);
    first
}

/// i32 little-endian bytes to values.
pub fn i32s(b: &[u8]) -> Vec<i64> {
    b.chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]) as i64)
        .collect()
}
