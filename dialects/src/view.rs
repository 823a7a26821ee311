//! Typed views of NISA and BIR ops: operands by the op table's group names, attributes by name
//! with the table's default when the attribute is absent.
//!
//! Passes and the verifier read ops through their [`OpSpec`] row, never by operand position:
//! [`View`] finds an operand group (`dst`, `operand0`, ...) through the row and
//! `operandSegmentSizes`, and its attribute getters return the value written on the op or, when
//! the op does not carry it, the default the row states (`Presence::Default`). An absent
//! attribute therefore reads the same as the default written out: `unique_indices` absent is
//! `true` on `nisa.dma_copy_indirect`, `reduce_cmd` absent is `idle` on `nisa.activation`.
//! [`default_value`] decodes a row's default text by the attribute's kind, once, for both.

use melior::ir::{
    Attribute, Value, ValueLike,
    attribute::AttributeLike,
    operation::{OperationLike, OperationRef},
};

use crate::{
    enums::{Engine, Space},
    ffi::string_attr_value,
    spec::{Arity, AttrKind, AttrSpec, OpSpec, OperandKind, Presence},
    tile::Tile,
    verify::{float_value, i64_array_value, int_value},
};

/// A fast, non-cryptographic hasher for the maps passes and the verifier key by op, value or
/// type handles (pointers) and table names: std's SipHash was a visible share of a
/// 100,000-op pipeline. Not for untrusted keys an attacker could collide (none are).
#[derive(Clone, Copy, Default)]
pub struct FastHasher(u64);

impl std::hash::Hasher for FastHasher {
    fn finish(&self) -> u64 {
        // A final avalanche so that pointer keys (multiples of 8) spread over the buckets.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h
    }

    fn write(&mut self, bytes: &[u8]) {
        // FNV-1a.
        let mut h = self.0 ^ 0xcbf2_9ce4_8422_2325;
        for &b in bytes {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(n as u64);
    }
}

/// `HashMap` with [`FastHasher`].
pub type FastMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<FastHasher>>;
/// `HashSet` with [`FastHasher`].
pub type FastSet<K> = std::collections::HashSet<K, std::hash::BuildHasherDefault<FastHasher>>;

/// A decoded attribute value (the kinds the tables give defaults for).
#[derive(Clone, Debug, PartialEq)]
pub enum AttrValue {
    /// A string (enum spellings and free strings).
    Str(String),
    /// An integer.
    Int(i64),
    /// A float (stored as f64, as MLIR's C API reads it).
    Float(f64),
    /// A bool.
    Bool(bool),
    /// A dense i64 array.
    I64Array(Vec<i64>),
}

/// The default of `attr` decoded by its kind, or `None` when it has no default (required or
/// optional attributes) or the text does not decode (a table bug a test catches).
pub fn default_value(attr: &AttrSpec) -> Option<AttrValue> {
    let Presence::Default(text) = attr.presence else {
        return None;
    };
    match attr.kind {
        AttrKind::Enum(_) | AttrKind::EnumSubset(..) | AttrKind::Str | AttrKind::AsmBytes => {
            Some(AttrValue::Str(text.to_string()))
        }
        AttrKind::Bool => match text {
            "true" => Some(AttrValue::Bool(true)),
            "false" => Some(AttrValue::Bool(false)),
            _ => None,
        },
        AttrKind::Int { .. } => text.parse().ok().map(AttrValue::Int),
        // Float attributes are f32 (what the hardware stores and what ops are written with):
        // the default is the f32 nearest the text, as `... : f32` would parse.
        AttrKind::Float => text.parse::<f32>().ok().map(|v| AttrValue::Float(v as f64)),
        AttrKind::Number => text
            .parse()
            .map(AttrValue::Int)
            .or_else(|_| text.parse().map(AttrValue::Float))
            .ok(),
        AttrKind::I64Array { .. } => {
            // `array<i64: 0, 1>` or `array<i64>`.
            let inner = text.strip_prefix("array<i64")?.strip_suffix('>')?;
            let inner = inner.trim_start_matches(':').trim();
            if inner.is_empty() {
                return Some(AttrValue::I64Array(Vec::new()));
            }
            inner
                .split(',')
                .map(|s| s.trim().parse::<i64>().ok())
                .collect::<Option<Vec<_>>>()
                .map(AttrValue::I64Array)
        }
        AttrKind::I64ArrayList | AttrKind::F32Array | AttrKind::Ap { .. } => None,
    }
}

/// The full name (`nisa.gather`) and table row of a `nisa.*` or `bir.*` op name, if the tables
/// have it (a hash lookup: the verifier and every pass ask it for each op).
pub fn spec_entry(name: &str) -> Option<(&'static str, &'static OpSpec)> {
    static TABLE: std::sync::OnceLock<FastMap<String, &'static OpSpec>> =
        std::sync::OnceLock::new();
    TABLE
        .get_or_init(|| {
            crate::nisa::OPS
                .iter()
                .map(|s| (format!("nisa.{}", s.name), s))
                .chain(
                    crate::bir::OPS
                        .iter()
                        .map(|b| (format!("bir.{}", b.spec.name), &b.spec)),
                )
                .collect()
        })
        .get_key_value(name)
        .map(|(k, v)| (k.as_str(), *v))
}

/// The table row of a `nisa.*` or `bir.*` op name, if the tables have it.
pub fn spec_of(name: &str) -> Option<&'static OpSpec> {
    spec_entry(name).map(|(_, s)| s)
}

type NameEntry = Option<(&'static str, &'static OpSpec)>;

thread_local! {
    /// Op rows by op-name handle, while [`crate::tile::with_caches`] runs.
    static NAMES: std::cell::RefCell<Option<FastMap<usize, NameEntry>>> =
        const { std::cell::RefCell::new(None) };
}

/// Turns the op-name cache on or off (the scope of [`crate::tile::with_caches`]).
pub(crate) fn name_cache(on: bool) {
    NAMES.with(|n| *n.borrow_mut() = on.then(FastMap::default));
}

/// [`spec_entry`] of a raw op's name, without copying the name (and, inside
/// [`crate::tile::with_caches`], without hashing it twice).
pub fn spec_entry_of_raw(op: mlir_sys::MlirOperation) -> NameEntry {
    let ident = unsafe { mlir_sys::mlirOperationGetName(op) };
    let key = ident.ptr as usize;
    if let Some(hit) = NAMES.with(|n| n.borrow().as_ref().and_then(|m| m.get(&key).copied())) {
        return hit;
    }
    let name = unsafe { mlir_sys::mlirIdentifierStr(ident) };
    let bytes = unsafe { std::slice::from_raw_parts(name.data as *const u8, name.length) };
    let entry = if bytes.starts_with(b"nisa.") || bytes.starts_with(b"bir.") {
        std::str::from_utf8(bytes).ok().and_then(spec_entry)
    } else {
        None
    };
    NAMES.with(|n| {
        if let Some(m) = n.borrow_mut().as_mut() {
            m.insert(key, entry);
        }
    });
    entry
}

fn default_of(spec: &OpSpec, name: &str) -> Option<AttrValue> {
    spec.attr(name).and_then(default_value)
}

/// A string attribute's value: the op's, else the row's default.
pub(crate) fn str_attr_of(
    attr: Option<Attribute<'_>>,
    spec: &OpSpec,
    name: &str,
) -> Option<String> {
    match attr {
        Some(a) => a.is_string().then(|| string_attr_value(a)),
        None => match default_of(spec, name) {
            Some(AttrValue::Str(s)) => Some(s),
            _ => None,
        },
    }
}

/// An integer attribute's value: the op's, else the row's default.
pub(crate) fn int_attr_of(attr: Option<Attribute<'_>>, spec: &OpSpec, name: &str) -> Option<i64> {
    match attr {
        Some(a) => int_value(a),
        None => match default_of(spec, name) {
            Some(AttrValue::Int(v)) => Some(v),
            _ => None,
        },
    }
}

/// A float attribute's value: the op's, else the row's default.
pub(crate) fn float_attr_of(attr: Option<Attribute<'_>>, spec: &OpSpec, name: &str) -> Option<f64> {
    match attr {
        Some(a) => float_value(a),
        None => match default_of(spec, name) {
            Some(AttrValue::Float(v)) => Some(v),
            _ => None,
        },
    }
}

/// A bool attribute's value: the op's, else the row's default, else `false` (NKI's
/// `None`/`False` for an optional flag).
pub(crate) fn bool_attr_of(attr: Option<Attribute<'_>>, spec: &OpSpec, name: &str) -> bool {
    match attr {
        Some(a) => a.is_bool() && unsafe { mlir_sys::mlirBoolAttrGetValue(a.to_raw()) },
        None => matches!(default_of(spec, name), Some(AttrValue::Bool(true))),
    }
}

/// A dense i64 array attribute's values: the op's, else the row's default.
pub(crate) fn i64_array_of(
    attr: Option<Attribute<'_>>,
    spec: &OpSpec,
    name: &str,
) -> Option<Vec<i64>> {
    match attr {
        Some(a) => i64_array_value(a),
        None => match default_of(spec, name) {
            Some(AttrValue::I64Array(v)) => Some(v),
            _ => None,
        },
    }
}

/// Computes the (start, length) of each operand group of `op` under `spec`.
pub fn operand_groups<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    spec: &OpSpec,
) -> Result<Vec<(usize, usize)>, String> {
    let total = op.operand_count();
    let n = spec.operands.len();
    if spec.needs_segment_sizes() {
        let attr = crate::ffi::attribute_of(op, "operandSegmentSizes")
            .ok_or_else(|| "attribute 'operandSegmentSizes' is required (this op has several optional or variadic operand groups)".to_string())?;
        if !unsafe { mlir_sys::mlirAttributeIsADenseI32Array(attr.to_raw()) } {
            return Err("attribute 'operandSegmentSizes' must be array<i32: ...>".into());
        }
        let len = unsafe { mlir_sys::mlirDenseArrayGetNumElements(attr.to_raw()) }.max(0) as usize;
        if len != n {
            return Err(format!(
                "attribute 'operandSegmentSizes' has {len} entries, expected {n} (one per operand group)"
            ));
        }
        let mut groups = Vec::with_capacity(n);
        let mut start = 0usize;
        for (i, operand) in spec.operands.iter().enumerate() {
            let size = unsafe { mlir_sys::mlirDenseI32ArrayGetElement(attr.to_raw(), i as isize) };
            if size < 0 {
                return Err(format!(
                    "attribute 'operandSegmentSizes': negative size for '{}'",
                    operand.name
                ));
            }
            let size = size as usize;
            let ok = match operand.arity {
                Arity::One => size == 1,
                Arity::Optional => size <= 1,
                Arity::Variadic => true,
            };
            if !ok {
                return Err(format!(
                    "attribute 'operandSegmentSizes': operand group '{}' cannot have {size} values",
                    operand.name
                ));
            }
            groups.push((start, size));
            start = start.saturating_add(size);
        }
        if start != total {
            return Err(format!(
                "attribute 'operandSegmentSizes' sums to {start}, but the op has {total} operands"
            ));
        }
        Ok(groups)
    } else {
        let fixed = spec
            .operands
            .iter()
            .filter(|o| o.arity == Arity::One)
            .count();
        let flexible = total
            .checked_sub(fixed)
            .ok_or_else(|| format!("expected at least {fixed} operands, got {total}"))?;
        let mut groups = Vec::with_capacity(n);
        let mut start = 0usize;
        for operand in spec.operands {
            let size = match operand.arity {
                Arity::One => 1,
                Arity::Optional => {
                    if flexible > 1 {
                        return Err(format!("too many operands ({total}) for this op"));
                    }
                    flexible
                }
                Arity::Variadic => flexible,
            };
            groups.push((start, size));
            start += size;
        }
        if start != total {
            return Err(format!("expected {start} operands, got {total}"));
        }
        Ok(groups)
    }
}

/// One tile operand of an op: which group, which value, and whether the op writes it.
#[derive(Clone, Copy, Debug)]
pub struct TileOperand<'c, 'a> {
    /// The operand group's name in the table.
    pub group: &'static str,
    /// The operand's position among the op's operands.
    pub index: usize,
    /// The value.
    pub value: Value<'c, 'a>,
    /// Whether the op writes it (a destination).
    pub write: bool,
}

/// A NISA or BIR op seen through its table row.
#[derive(Clone, Debug)]
pub struct View<'c, 'a> {
    op: OperationRef<'c, 'a>,
    spec: &'static OpSpec,
    groups: Vec<(usize, usize)>,
}

impl<'c, 'a> View<'c, 'a> {
    /// The view of `op`: `Ok(None)` when it is no table op (another dialect, or an unknown
    /// mnemonic), `Err` when its operands do not form the row's groups (the verifier reports
    /// that; a pass meets only verified IR).
    pub fn new(op: OperationRef<'c, 'a>) -> Result<Option<Self>, String> {
        let Some((_, spec)) = spec_entry_of_raw(op.to_raw()) else {
            return Ok(None);
        };
        let groups = operand_groups(&op, spec)?;
        Ok(Some(Self { op, spec, groups }))
    }

    /// The view of `op`, if it is a well-formed table op.
    pub fn of(op: OperationRef<'c, 'a>) -> Option<Self> {
        Self::new(op).ok().flatten()
    }

    /// The view of `op` if it is `nisa.<mnemonic>`.
    pub fn nisa(op: OperationRef<'c, 'a>, mnemonic: &str) -> Option<Self> {
        Self::of(op).filter(|v| v.is_nisa() && v.spec.name == mnemonic)
    }

    /// The op.
    pub fn op(&self) -> OperationRef<'c, 'a> {
        self.op
    }

    /// Its table row.
    pub fn spec(&self) -> &'static OpSpec {
        self.spec
    }

    /// The mnemonic (`gather` for `nisa.gather`).
    pub fn mnemonic(&self) -> &'static str {
        self.spec.name
    }

    /// Whether the op is a NISA op (else BIR).
    pub fn is_nisa(&self) -> bool {
        let rows = crate::nisa::OPS.as_ptr_range();
        rows.contains(&(self.spec as *const OpSpec))
    }

    /// The (first operand index, length) of group `group`, if the row has it.
    pub fn group(&self, group: &str) -> Option<(usize, usize)> {
        self.spec.operand_index(group).map(|i| self.groups[i])
    }

    /// The values of operand group `group` (empty if absent).
    pub fn values(&self, group: &str) -> Vec<Value<'c, 'a>> {
        let Some((start, len)) = self.group(group) else {
            return Vec::new();
        };
        (start..start + len)
            .filter_map(|k| self.op.operand(k).ok())
            .collect()
    }

    /// The first value of operand group `group`.
    pub fn value(&self, group: &str) -> Option<Value<'c, 'a>> {
        let (start, len) = self.group(group)?;
        (len > 0).then(|| self.op.operand(start).ok()).flatten()
    }

    /// The decoded tile of operand `group` (first value), if it is a tile.
    pub fn tile(&self, group: &str) -> Option<Tile> {
        self.value(group)
            .and_then(|v| Tile::from_type(v.r#type()).ok())
    }

    /// The decoded tile of result `index`, if it is a tile.
    pub fn result_tile(&self, index: usize) -> Option<Tile> {
        self.op
            .result(index)
            .ok()
            .and_then(|r| Tile::from_type(r.r#type()).ok())
    }

    /// Every tile operand (including a tile given to a tile-or-register group), with whether
    /// the op writes it, in operand order.
    pub fn tile_operands(&self) -> Vec<TileOperand<'c, 'a>> {
        let mut out = Vec::new();
        for (i, operand) in self.spec.operands.iter().enumerate() {
            let write = match operand.kind {
                OperandKind::Tile { write, .. } => write,
                OperandKind::TileOrReg { .. } => false,
                OperandKind::Reg | OperandKind::Index => continue,
            };
            let (start, len) = self.groups[i];
            for index in start..start + len {
                let Ok(value) = self.op.operand(index) else {
                    continue;
                };
                if crate::tile::is_tile_type(value.r#type()) {
                    out.push(TileOperand {
                        group: operand.name,
                        index,
                        value,
                        write,
                    });
                }
            }
        }
        out
    }

    /// Whether any tile operand or result lives in `space`.
    pub fn touches(&self, space: Space) -> bool {
        self.tile_operands()
            .iter()
            .any(|t| Tile::from_type(t.value.r#type()).is_ok_and(|t| t.space == space))
    }

    /// The attribute `name`, if the op carries it (no default).
    pub fn attr(&self, name: &str) -> Option<Attribute<'c>> {
        crate::ffi::attribute_of(&self.op, name)
    }

    /// Whether the op carries attribute `name`.
    pub fn has_attr(&self, name: &str) -> bool {
        self.op.has_attribute(name)
    }

    /// A string attribute: the op's value, else the row's default.
    pub fn str_attr(&self, name: &str) -> Option<String> {
        str_attr_of(self.attr(name), self.spec, name)
    }

    /// An integer attribute: the op's value, else the row's default.
    pub fn int_attr(&self, name: &str) -> Option<i64> {
        int_attr_of(self.attr(name), self.spec, name)
    }

    /// A float attribute: the op's value, else the row's default.
    pub fn float_attr(&self, name: &str) -> Option<f64> {
        float_attr_of(self.attr(name), self.spec, name)
    }

    /// A bool attribute: the op's value, else the row's default, else `false`.
    pub fn bool_attr(&self, name: &str) -> bool {
        bool_attr_of(self.attr(name), self.spec, name)
    }

    /// A dense i64 array attribute: the op's value, else the row's default.
    pub fn i64_array(&self, name: &str) -> Option<Vec<i64>> {
        i64_array_of(self.attr(name), self.spec, name)
    }

    /// The engine the op names, else its default engine.
    pub fn engine(&self) -> Engine {
        self.explicit_engine().unwrap_or(self.spec.default_engine)
    }

    /// The engine the op names, if it carries a well-formed `engine` attribute.
    pub fn explicit_engine(&self) -> Option<Engine> {
        self.attr("engine")
            .filter(|a| a.is_string())
            .and_then(|a| Engine::parse(&string_attr_value(a)))
    }
}
