//! The machine state of a run and the view of one op that a handler gets.
//!
//! [`Machine`] owns the emulator's [`Memory`] and the value of every SSA value executed so far
//! ([`RtValue`]: a tile, an indirect access pattern or a register). [`Exec`] is one op seen
//! through its NISA table row, as the verifier's `OpView` sees it: operands by group name,
//! attributes by name with the table's defaults filled in, results to set, and errors that
//! carry the op's position. Handlers (`super::ops`) read everything through it, so a handler is
//! "read the operands and attributes, call the emulator".

use std::collections::HashMap;

use melior::ir::{
    Attribute, ValueLike,
    attribute::AttributeLike,
    operation::{OperationLike, OperationRef},
};
use sundial_dialects::{
    enums::Engine,
    ffi::{FileLineCol, file_line_col, op_name, string_attr_value},
    spec::{AttrKind, OpSpec, Presence},
    tile::Tile,
    verify::{float_value, i64_array_value, int_value_checked},
    view::operand_groups,
};
use sundial_emu::{Access, AllocId, DmaOperand, Memory, OobMode, View};

use super::RunError;

/// The value of an SSA value during a run.
#[derive(Clone, Debug)]
pub enum RtValue {
    /// A tile: a whole allocation (`nisa.alloc`, a function argument) or a static access
    /// pattern on one (`nisa.ap` without offsets).
    Tile(View),
    /// An indirect access pattern (`nisa.ap` with `vector_offset` or `scalar_offset`).
    Access(Access),
    /// A sequencer register (`!nisa.reg`).
    Reg(i64),
}

/// A DMA operand read from an op: a tile or an indirect access pattern, owned.
#[derive(Clone, Debug)]
pub enum Operand {
    /// Every element of a view, row-major.
    View(View),
    /// The points of an access pattern.
    Access(Access),
}

impl Operand {
    /// The operand as the emulator's DMA operand.
    pub fn as_dma(&self) -> DmaOperand<'_> {
        match self {
            Operand::View(v) => DmaOperand::View(v),
            Operand::Access(a) => DmaOperand::Access(a),
        }
    }
}

/// Total bytes of HBM tensors (arguments and `nisa.alloc` in `"hbm"`) one run may allocate:
/// 1 GiB, a bound on what a kernel given on the command line makes this process allocate.
pub const MAX_HBM_BYTES: usize = 1 << 30;

/// The state of one run: memory and the values computed so far.
pub struct Machine {
    /// The emulator's memory.
    pub mem: Memory,
    values: HashMap<usize, RtValue>,
    names: HashMap<AllocId, String>,
    hbm_bytes: usize,
}

/// The key of an SSA value (MLIR values are uniqued by pointer).
fn key(value: melior::ir::Value<'_, '_>) -> usize {
    value.to_raw().ptr as usize
}

impl Machine {
    /// An empty machine for `target`.
    pub fn new(target: sundial_emu::Target) -> Machine {
        Machine {
            mem: Memory::new(target),
            values: HashMap::new(),
            names: HashMap::new(),
            hbm_bytes: 0,
        }
    }

    /// Binds an SSA value.
    pub fn bind(&mut self, value: melior::ir::Value<'_, '_>, rt: RtValue) {
        self.values.insert(key(value), rt);
    }

    /// The value bound to an SSA value, if any.
    pub fn get(&self, value: melior::ir::Value<'_, '_>) -> Option<&RtValue> {
        self.values.get(&key(value))
    }

    /// Allocates a tile of `tile`'s type named `name` in messages: HBM tensors through
    /// [`Memory::alloc_hbm`] (counted against [`MAX_HBM_BYTES`]), SBUF and PSUM tiles through
    /// the emulator's on-chip allocators. The tile holds the uninitialised pattern.
    pub fn alloc(&mut self, tile: &Tile, name: String) -> Result<View, String> {
        let format = super::npy::format_of(tile.dtype);
        let shape = shape_of(tile);
        let view = match tile.space {
            sundial_dialects::enums::Space::Hbm => {
                // The verifier bounds a tile's bytes by i64::MAX, so this is exact.
                let bytes = tile.byte_size().unwrap_or(i64::MAX) as u64;
                let total = self.hbm_bytes as u64 + bytes;
                if total > MAX_HBM_BYTES as u64 {
                    return Err(format!(
                        "{name} needs {bytes} bytes of HBM, which would bring the run to {total} bytes, more than the {MAX_HBM_BYTES} sundial-run allocates"
                    ));
                }
                let v = self
                    .mem
                    .alloc_hbm(&name, format.emu, &shape)
                    .map_err(|e| e.to_string())?;
                self.hbm_bytes = total as usize;
                v
            }
            sundial_dialects::enums::Space::Sbuf => self
                .mem
                .alloc_sbuf(format.emu, &shape)
                .map_err(|e| e.to_string())?,
            sundial_dialects::enums::Space::Psum => self
                .mem
                .alloc_psum(format.emu, &shape)
                .map_err(|e| e.to_string())?,
        };
        self.names.insert(view.alloc(), name);
        Ok(view)
    }

    /// A one-element int64 HBM tensor holding `value`: how a register used as a
    /// `scalar_offset` reaches the access engine, whose indirect subscripts read index views.
    pub fn register_view(&mut self, value: i64) -> Result<View, String> {
        let view = self
            .mem
            .alloc_hbm("register", sundial_emu::DType::I64, &[1])
            .map_err(|e| e.to_string())?;
        self.mem
            .write_i64(&view, &[value])
            .map_err(|e| e.to_string())?;
        self.names
            .insert(view.alloc(), format!("a register holding {value}"));
        Ok(view)
    }

    /// What messages call the allocation a view is on.
    pub fn describe(&self, view: &View) -> String {
        let name = self
            .names
            .get(&view.alloc())
            .cloned()
            .unwrap_or_else(|| format!("allocation #{}", view.alloc().index()));
        let space = match self.mem.space(view.alloc()) {
            Ok(sundial_emu::MemSpace::Hbm) => "hbm",
            Ok(sundial_emu::MemSpace::Sbuf) => "sbuf",
            Ok(sundial_emu::MemSpace::Psum) => "psum",
            Err(_) => "?",
        };
        let shape = view
            .shape()
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("x");
        format!("{name} ({space} {shape}x{})", view.dtype())
    }
}

/// The shape of a tile as emulator extents (a verified tile's dimensions are positive).
pub fn shape_of(tile: &Tile) -> Vec<usize> {
    tile.shape.iter().map(|&d| d.max(0) as usize).collect()
}

/// The position of an op, if its location has one.
pub fn position(op: &OperationRef<'_, '_>) -> Option<FileLineCol> {
    file_line_col(op.location())
}

/// One op being executed: its operands, attributes and results through its table row.
pub struct Exec<'r, 'c, 'a> {
    machine: &'r mut Machine,
    op: OperationRef<'c, 'a>,
    name: String,
    spec: Option<&'static OpSpec>,
    groups: Vec<(usize, usize)>,
}

impl<'r, 'c, 'a> Exec<'r, 'c, 'a> {
    /// The view of `op` (a NISA op is seen through its row of `sundial_dialects::nisa::OPS`;
    /// any other op has no operand groups or attributes to read).
    pub fn new(machine: &'r mut Machine, op: OperationRef<'c, 'a>) -> Result<Self, RunError> {
        let name = op_name(op.to_raw());
        let spec = name
            .strip_prefix("nisa.")
            .and_then(sundial_dialects::nisa::op);
        let groups = match spec {
            Some(s) => operand_groups(&op, s)
                .map_err(|m| RunError::at(&op, format!("'{name}' op {m}")))?,
            None => Vec::new(),
        };
        Ok(Exec {
            machine,
            op,
            name,
            spec,
            groups,
        })
    }

    /// The op's name (`nisa.dma_copy`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The op.
    pub fn op(&self) -> OperationRef<'c, 'a> {
        self.op
    }

    /// The emulator's memory.
    pub fn mem(&mut self) -> &mut Memory {
        &mut self.machine.mem
    }

    /// The machine.
    pub fn machine(&mut self) -> &mut Machine {
        self.machine
    }

    /// An error at the op: `'<op>' op <message>`.
    pub fn error(&self, message: impl AsRef<str>) -> RunError {
        RunError::at(&self.op, format!("'{}' op {}", self.name, message.as_ref()))
    }

    /// An error of the handler itself (a name not in the op's table row): a bug in a handler,
    /// reported rather than panicking.
    fn internal(&self, message: impl AsRef<str>) -> RunError {
        self.error(format!(
            "cannot be executed: internal error in its emulator handler: {}",
            message.as_ref()
        ))
    }

    /// The emulator's result, with a failure reported at the op, followed by one note per tile
    /// operand naming the tile it is on.
    pub fn emu<T>(&self, result: sundial_emu::Result<T>) -> Result<T, RunError> {
        result.map_err(|e| {
            let mut err = self.error(format!("failed in the emulator: {e}"));
            err.notes = self.operand_notes();
            err
        })
    }

    /// `operand 'dst': tile 'x' (sbuf 128x512xfloat32)` for every tile operand.
    fn operand_notes(&self) -> Vec<String> {
        let Some(spec) = self.spec else {
            return Vec::new();
        };
        let mut notes = Vec::new();
        for (operand, &(start, len)) in spec.operands.iter().zip(&self.groups) {
            for k in start..start + len {
                let Ok(value) = self.op.operand(k) else {
                    continue;
                };
                let what = match self.machine.get(value) {
                    Some(RtValue::Tile(v)) => self.machine.describe(v),
                    Some(RtValue::Access(a)) => format!(
                        "an indirect access pattern on {}",
                        self.machine.describe(&a.source)
                    ),
                    Some(RtValue::Reg(r)) => format!("a register holding {r}"),
                    None => continue,
                };
                let suffix = if len > 1 {
                    format!(" #{}", k - start)
                } else {
                    String::new()
                };
                notes.push(format!("operand '{}'{suffix}: {what}", operand.name));
            }
        }
        notes
    }

    fn spec(&self) -> Result<&'static OpSpec, RunError> {
        self.spec
            .ok_or_else(|| self.internal("the op has no NISA table row"))
    }

    /// The runtime values of operand group `name` (empty when an optional group is absent).
    pub fn values(&self, name: &str) -> Result<Vec<&RtValue>, RunError> {
        let spec = self.spec()?;
        let i = spec
            .operand_index(name)
            .ok_or_else(|| self.internal(format!("no operand group '{name}'")))?;
        let (start, len) = self.groups[i];
        (start..start + len)
            .map(|k| {
                let value = self
                    .op
                    .operand(k)
                    .map_err(|_| self.internal(format!("operand {k} is missing")))?;
                self.machine.get(value).ok_or_else(|| {
                    self.error(format!(
                        "operand '{name}' is not defined by an op that sundial-run executed"
                    ))
                })
            })
            .collect()
    }

    /// The one value of group `name`, if present.
    fn opt_value(&self, name: &str) -> Result<Option<&RtValue>, RunError> {
        let mut values = self.values(name)?;
        match values.len() {
            0 => Ok(None),
            1 => Ok(values.pop()),
            n => Err(self.internal(format!("operand group '{name}' has {n} values"))),
        }
    }

    fn as_tile(&self, name: &str, value: &RtValue) -> Result<View, RunError> {
        match value {
            RtValue::Tile(v) => Ok(v.clone()),
            RtValue::Access(_) => Err(self.error(format!(
                "operand '{name}' is an indirect access pattern, which this op does not take"
            ))),
            RtValue::Reg(_) => Err(self.error(format!("operand '{name}' is a register"))),
        }
    }

    fn as_operand(&self, name: &str, value: &RtValue) -> Result<Operand, RunError> {
        match value {
            RtValue::Tile(v) => Ok(Operand::View(v.clone())),
            RtValue::Access(a) => Ok(Operand::Access(a.clone())),
            RtValue::Reg(_) => Err(self.error(format!("operand '{name}' is a register"))),
        }
    }

    /// Operand `name` as a tile (an indirect access pattern is refused).
    pub fn tile(&self, name: &str) -> Result<View, RunError> {
        self.opt_tile(name)?
            .ok_or_else(|| self.error(format!("operand '{name}' is absent")))
    }

    /// Optional operand `name` as a tile.
    pub fn opt_tile(&self, name: &str) -> Result<Option<View>, RunError> {
        self.opt_value(name)?
            .map(|v| self.as_tile(name, v))
            .transpose()
    }

    /// Every value of operand group `name` as tiles.
    pub fn tiles(&self, name: &str) -> Result<Vec<View>, RunError> {
        self.values(name)?
            .into_iter()
            .map(|v| self.as_tile(name, v))
            .collect()
    }

    /// Operand `name` as a DMA operand (a tile or an indirect access pattern).
    pub fn operand(&self, name: &str) -> Result<Operand, RunError> {
        let v = self
            .opt_value(name)?
            .ok_or_else(|| self.error(format!("operand '{name}' is absent")))?;
        self.as_operand(name, v)
    }

    /// Every value of operand group `name` as DMA operands.
    pub fn operands(&self, name: &str) -> Result<Vec<Operand>, RunError> {
        self.values(name)?
            .into_iter()
            .map(|v| self.as_operand(name, v))
            .collect()
    }

    /// Operand `name` as it was bound (tile, access or register), if present.
    pub fn opt_raw(&self, name: &str) -> Result<Option<RtValue>, RunError> {
        Ok(self.opt_value(name)?.cloned())
    }

    /// Register operand `name`.
    pub fn reg(&self, name: &str) -> Result<i64, RunError> {
        match self.opt_value(name)? {
            Some(RtValue::Reg(r)) => Ok(*r),
            Some(_) => Err(self.error(format!("operand '{name}' is not a register"))),
            None => Err(self.error(format!("operand '{name}' is absent"))),
        }
    }

    /// The tile type of result `index`.
    pub fn result_tile(&self, index: usize) -> Result<Tile, RunError> {
        let result = self
            .op
            .result(index)
            .map_err(|_| self.internal(format!("no result {index}")))?;
        Tile::from_type(result.r#type()).map_err(|m| self.error(format!("result: {m}")))
    }

    /// Binds result `index` to `value`.
    pub fn set_result(&mut self, index: usize, value: RtValue) -> Result<(), RunError> {
        let result = self
            .op
            .result(index)
            .map_err(|_| self.internal(format!("no result {index}")))?;
        self.machine.bind(result.into(), value);
        Ok(())
    }

    // ---- attributes ---------------------------------------------------------------------

    /// The attribute `name` as written, or `None` when absent. Fails when the op's row has no
    /// such attribute (a handler bug).
    fn attr(&self, name: &str) -> Result<(Option<Attribute<'c>>, Presence, AttrKind), RunError> {
        let spec = self.spec()?;
        let row = spec
            .attr(name)
            .ok_or_else(|| self.internal(format!("no attribute '{name}' in the op's table row")))?;
        Ok((self.op.attribute(name).ok(), row.presence, row.kind))
    }

    /// The table default of an absent attribute, as text.
    fn default_text(
        &self,
        name: &str,
        presence: Presence,
    ) -> Result<Option<&'static str>, RunError> {
        match presence {
            Presence::Default(text) => Ok(Some(text)),
            Presence::Optional => Ok(None),
            Presence::Required => Err(self.error(format!("attribute '{name}' is required"))),
        }
    }

    fn bad(&self, name: &str, what: &str) -> RunError {
        self.error(format!("attribute '{name}': expected {what}"))
    }

    /// Integer attribute `name`, or its table default; `None` when optional and absent.
    pub fn opt_int(&self, name: &str) -> Result<Option<i64>, RunError> {
        let (attr, presence, _) = self.attr(name)?;
        match attr {
            Some(a) => int_value_checked(a)
                .map(Some)
                .map_err(|m| self.error(format!("attribute '{name}': {m}"))),
            None => match self.default_text(name, presence)? {
                Some(t) => parse_default_int(t)
                    .map(Some)
                    .ok_or_else(|| self.internal(format!("default '{t}' of '{name}'"))),
                None => Ok(None),
            },
        }
    }

    /// Integer attribute `name` or its table default.
    pub fn int(&self, name: &str) -> Result<i64, RunError> {
        self.opt_int(name)?
            .ok_or_else(|| self.internal(format!("attribute '{name}' has no default")))
    }

    /// Float attribute `name` (as the f32 the hardware uses), or its table default; `None`
    /// when optional and absent.
    pub fn opt_float(&self, name: &str) -> Result<Option<f32>, RunError> {
        let (attr, presence, _) = self.attr(name)?;
        match attr {
            Some(a) => float_value(a)
                .or_else(|| int_value_checked(a).ok().map(|i| i as f64))
                .map(|v| Some(v as f32))
                .ok_or_else(|| self.bad(name, "a number")),
            None => match self.default_text(name, presence)? {
                Some(t) => parse_default_float(t)
                    .map(Some)
                    .ok_or_else(|| self.internal(format!("default '{t}' of '{name}'"))),
                None => Ok(None),
            },
        }
    }

    /// Float attribute `name` or its table default.
    pub fn float(&self, name: &str) -> Result<f32, RunError> {
        self.opt_float(name)?
            .ok_or_else(|| self.internal(format!("attribute '{name}' has no default")))
    }

    /// Bool attribute `name`, or its table default; `None` when optional and absent.
    pub fn opt_flag(&self, name: &str) -> Result<Option<bool>, RunError> {
        let (attr, presence, _) = self.attr(name)?;
        match attr {
            Some(a) if a.is_bool() => {
                Ok(Some(unsafe { mlir_sys::mlirBoolAttrGetValue(a.to_raw()) }))
            }
            Some(_) => Err(self.bad(name, "a bool")),
            None => match self.default_text(name, presence)? {
                Some(t) => parse_default_bool(t)
                    .map(Some)
                    .ok_or_else(|| self.internal(format!("default '{t}' of '{name}'"))),
                None => Ok(None),
            },
        }
    }

    /// Bool attribute `name` or its table default.
    pub fn flag(&self, name: &str) -> Result<bool, RunError> {
        self.opt_flag(name)?
            .ok_or_else(|| self.internal(format!("attribute '{name}' has no default")))
    }

    /// String (enum) attribute `name`, or its table default; `None` when optional and absent.
    pub fn opt_word(&self, name: &str) -> Result<Option<String>, RunError> {
        let (attr, presence, _) = self.attr(name)?;
        match attr {
            Some(a) if a.is_string() => Ok(Some(string_attr_value(a))),
            Some(_) => Err(self.bad(name, "a string")),
            None => Ok(self.default_text(name, presence)?.map(str::to_string)),
        }
    }

    /// String (enum) attribute `name` or its table default.
    pub fn word(&self, name: &str) -> Result<String, RunError> {
        self.opt_word(name)?
            .ok_or_else(|| self.internal(format!("attribute '{name}' has no default")))
    }

    /// Dense i64 array attribute `name`, or its table default; `None` when optional and absent.
    pub fn opt_ints(&self, name: &str) -> Result<Option<Vec<i64>>, RunError> {
        let (attr, presence, _) = self.attr(name)?;
        match attr {
            Some(a) => i64_array_value(a)
                .map(Some)
                .ok_or_else(|| self.bad(name, "array<i64: ...>")),
            None => match self.default_text(name, presence)? {
                Some(t) => parse_default_ints(t)
                    .map(Some)
                    .ok_or_else(|| self.internal(format!("default '{t}' of '{name}'"))),
                None => Ok(None),
            },
        }
    }

    /// Dense i64 array attribute `name` or its table default.
    pub fn ints(&self, name: &str) -> Result<Vec<i64>, RunError> {
        self.opt_ints(name)?
            .ok_or_else(|| self.internal(format!("attribute '{name}' has no default")))
    }

    /// Dense f32 array attribute `name`; `None` when absent (no f32 array has a default).
    pub fn opt_floats(&self, name: &str) -> Result<Option<Vec<f32>>, RunError> {
        let (attr, _, _) = self.attr(name)?;
        let Some(a) = attr else { return Ok(None) };
        unsafe {
            if !mlir_sys::mlirAttributeIsADenseF32Array(a.to_raw()) {
                return Err(self.bad(name, "array<f32: ...>"));
            }
            let n = mlir_sys::mlirDenseArrayGetNumElements(a.to_raw()).max(0);
            Ok(Some(
                (0..n)
                    .map(|i| mlir_sys::mlirDenseF32ArrayGetElement(a.to_raw(), i))
                    .collect(),
            ))
        }
    }

    /// The op's `oob_mode` (table default `error`).
    pub fn oob(&self) -> Result<OobMode, RunError> {
        match self.word("oob_mode")?.as_str() {
            "error" => Ok(OobMode::Error),
            "skip" => Ok(OobMode::Skip),
            other => Err(self.error(format!("attribute 'oob_mode': unknown mode \"{other}\""))),
        }
    }

    /// The engine the op names, or its default engine.
    pub fn engine(&self) -> Result<Engine, RunError> {
        let spec = self.spec()?;
        Ok(self
            .op
            .attribute("engine")
            .ok()
            .filter(|a| a.is_string())
            .and_then(|a| Engine::parse(&string_attr_value(a)))
            .unwrap_or(spec.default_engine))
    }
}

/// An integer default of an op table (`0`, `-1`).
pub fn parse_default_int(text: &str) -> Option<i64> {
    text.trim().parse().ok()
}

/// A float default of an op table (`1.0`, `-3.40282347e+38`), as f32.
pub fn parse_default_float(text: &str) -> Option<f32> {
    text.trim().parse::<f64>().ok().map(|v| v as f32)
}

/// A bool default of an op table (`true`, `false`).
pub fn parse_default_bool(text: &str) -> Option<bool> {
    match text.trim() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// An i64 array default of an op table, in MLIR's spelling (`array<i64: 0, 1>`).
pub fn parse_default_ints(text: &str) -> Option<Vec<i64>> {
    let body = text.trim().strip_prefix("array<i64")?.strip_suffix('>')?;
    let body = body.trim_start();
    if body.is_empty() {
        return Some(Vec::new());
    }
    body.strip_prefix(':')?
        .split(',')
        .map(|v| v.trim().parse().ok())
        .collect()
}

/// Whether the table default `text` of an attribute of `kind` is read by the getters above
/// (every default of every NISA row must be; a test checks them all).
pub fn default_parses(kind: &AttrKind, text: &str) -> bool {
    match kind {
        AttrKind::Bool => parse_default_bool(text).is_some(),
        AttrKind::Int { .. } => parse_default_int(text).is_some(),
        AttrKind::Float => parse_default_float(text).is_some(),
        AttrKind::Number => {
            parse_default_int(text).is_some() || parse_default_float(text).is_some()
        }
        AttrKind::I64Array { .. } => parse_default_ints(text).is_some(),
        AttrKind::Enum(v) => v.values.contains(&text),
        AttrKind::EnumSubset(_, s) => s.contains(&text),
        AttrKind::Str => true,
        _ => false,
    }
}
