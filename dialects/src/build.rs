//! Builders for NISA and BIR ops, driven by the op tables.
//!
//! Front ends that emit IR in memory (rather than as text) build ops through [`OpBuild`]: it
//! looks the op up in its table, takes operands by group name in any order, checks attribute
//! names and kinds as they are added, orders the operands as the table does, adds
//! `operandSegmentSizes` when the op needs it, and refuses to build an op with a missing
//! required attribute. The semantic rules (shapes, engines, ...) are then checked by
//! [`crate::verify`] like for parsed IR.
//!
//! Builders take any [`AsContext`]: a `&Context` (a front end) or the [`ContextRef`] of an op
//! being rewritten (a pass: [`OpBuild::at`]). Everything is built through the context's raw
//! handle, never through a `&Context` made from a `ContextRef`: `op.context().to_ref()` on the
//! temporary `ContextRef` is a reference to that temporary, which dangles once the statement
//! ends (it worked in debug builds and crashed in release).

use crate::{
    dtype::Dtype,
    enums::Space,
    spec::{Arity, OpSpec, Presence},
    verify::check_attr_value,
};
use melior::{
    Context, ContextRef, StringRef,
    ir::{
        Attribute, Identifier, Location, Operation, Type, Value,
        attribute::AttributeLike,
        operation::{OperationBuilder, OperationLike},
    },
};
use thiserror::Error;

/// Why an op could not be built.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum BuildError {
    /// No such op in the dialect's table.
    #[error("unknown op '{0}'")]
    UnknownOp(String),
    /// No such operand group.
    #[error("'{op}' has no operand group '{group}' (groups: {known})")]
    UnknownOperand {
        /// Op name.
        op: String,
        /// The group asked for.
        group: String,
        /// The groups the op has.
        known: String,
    },
    /// A group got the wrong number of values.
    #[error("'{op}' operand group '{group}' takes {expected}, got {got}")]
    OperandCount {
        /// Op name.
        op: String,
        /// Group.
        group: String,
        /// What the group takes.
        expected: &'static str,
        /// How many values were given.
        got: usize,
    },
    /// No such attribute.
    #[error("'{op}' has no attribute '{name}'")]
    UnknownAttribute {
        /// Op name.
        op: String,
        /// Attribute name.
        name: String,
    },
    /// An attribute value of the wrong kind or out of range.
    #[error("'{op}' attribute '{name}': {message}")]
    BadAttribute {
        /// Op name.
        op: String,
        /// Attribute name.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// A required attribute was not given.
    #[error("'{op}' needs attribute '{name}'")]
    MissingAttribute {
        /// Op name.
        op: String,
        /// Attribute name.
        name: String,
    },
    /// MLIR refused the op or a type.
    #[error("{0}")]
    Mlir(String),
}

/// Something that names an MLIR context for the builders: a `&Context` or a [`ContextRef`].
pub trait AsContext<'c> {
    /// The context, by value (a raw handle: nothing borrowed from `self`).
    fn context_ref(&self) -> ContextRef<'c>;
}

impl<'c> AsContext<'c> for &'c Context {
    fn context_ref(&self) -> ContextRef<'c> {
        unsafe { ContextRef::from_raw(self.to_raw()) }
    }
}

impl<'c> AsContext<'c> for ContextRef<'c> {
    fn context_ref(&self) -> ContextRef<'c> {
        *self
    }
}

/// Attributes and types made from a context handle (the raw C API: see the module docs).
#[derive(Clone, Copy)]
pub struct Attrs<'c> {
    context: ContextRef<'c>,
}

impl<'c> Attrs<'c> {
    /// The factory of `context`.
    pub fn new(context: impl AsContext<'c>) -> Self {
        Self {
            context: context.context_ref(),
        }
    }

    fn raw(&self) -> mlir_sys::MlirContext {
        // `ContextRef` exposes its handle only through `to_ref`; the reference points at
        // `self.context` (a field, not a temporary) and is used at once.
        unsafe { self.context.to_ref() }.to_raw()
    }

    /// The context.
    pub fn context(&self) -> ContextRef<'c> {
        self.context
    }

    /// A string attribute.
    pub fn string(&self, value: &str) -> Attribute<'c> {
        unsafe {
            Attribute::from_raw(mlir_sys::mlirStringAttrGet(
                self.raw(),
                StringRef::new(value).to_raw(),
            ))
        }
    }

    /// An `i64` integer attribute.
    pub fn i64(&self, value: i64) -> Attribute<'c> {
        unsafe {
            let ty = mlir_sys::mlirIntegerTypeGet(self.raw(), 64);
            Attribute::from_raw(mlir_sys::mlirIntegerAttrGet(ty, value))
        }
    }

    /// An `f32` float attribute.
    pub fn f32(&self, value: f32) -> Attribute<'c> {
        unsafe {
            let ty = mlir_sys::mlirF32TypeGet(self.raw());
            Attribute::from_raw(mlir_sys::mlirFloatAttrDoubleGet(
                self.raw(),
                ty,
                value as f64,
            ))
        }
    }

    /// The unit attribute (a marker: `{name}` with no value).
    pub fn unit(&self) -> Attribute<'c> {
        unsafe { Attribute::from_raw(mlir_sys::mlirUnitAttrGet(self.raw())) }
    }

    /// A bool attribute.
    pub fn bool(&self, value: bool) -> Attribute<'c> {
        unsafe { Attribute::from_raw(mlir_sys::mlirBoolAttrGet(self.raw(), value as i32)) }
    }

    /// An `array<i64: ...>` attribute.
    pub fn i64_array(&self, values: &[i64]) -> Attribute<'c> {
        unsafe {
            Attribute::from_raw(mlir_sys::mlirDenseI64ArrayGet(
                self.raw(),
                values.len() as isize,
                values.as_ptr(),
            ))
        }
    }

    /// An `array<i32: ...>` attribute.
    pub fn i32_array(&self, values: &[i32]) -> Attribute<'c> {
        unsafe {
            Attribute::from_raw(mlir_sys::mlirDenseI32ArrayGet(
                self.raw(),
                values.len() as isize,
                values.as_ptr(),
            ))
        }
    }

    /// An array attribute of `elements`.
    pub fn array(&self, elements: &[Attribute<'c>]) -> Attribute<'c> {
        let raw: Vec<mlir_sys::MlirAttribute> = elements.iter().map(|a| a.to_raw()).collect();
        unsafe {
            Attribute::from_raw(mlir_sys::mlirArrayAttrGet(
                self.raw(),
                raw.len() as isize,
                raw.as_ptr(),
            ))
        }
    }

    /// An identifier (an attribute name).
    pub fn identifier(&self, name: &str) -> Identifier<'c> {
        unsafe {
            Identifier::from_raw(mlir_sys::mlirIdentifierGet(
                self.raw(),
                StringRef::new(name).to_raw(),
            ))
        }
    }

    /// Parses a type (`memref<...>`, `!nisa.reg`).
    pub fn parse_type(&self, text: &str) -> Option<Type<'c>> {
        let text = crate::ffi::NulTerminated::new(text);
        let raw = unsafe {
            mlir_sys::mlirTypeParseGet(self.raw(), StringRef::new(text.as_str()).to_raw())
        };
        (!raw.ptr.is_null()).then(|| unsafe { Type::from_raw(raw) })
    }
}

/// A NISA or BIR op under construction (`'a`: the lifetime of the operand values' block).
pub struct OpBuild<'c, 'a> {
    attrs_of: Attrs<'c>,
    location: Location<'c>,
    spec: &'static OpSpec,
    name: String,
    groups: Vec<Vec<Value<'c, 'a>>>,
    /// By the spec's own (static) names: no copy of a name per attribute set.
    attrs: Vec<(&'static str, Attribute<'c>)>,
    results: Vec<Type<'c>>,
}

impl<'c, 'a> OpBuild<'c, 'a> {
    /// Starts building `name` at the location of `op`, in `op`'s context: how a pass builds
    /// the ops that replace or surround `op`.
    pub fn at<'b>(op: &impl OperationLike<'c, 'b>, name: &str) -> Result<Self, BuildError>
    where
        'c: 'b,
    {
        Self::new(op.context(), op.location(), name)
    }

    /// Starts building `dialect.mnemonic` (e.g. `nisa.gather`, `bir.dropout`).
    pub fn new(
        context: impl AsContext<'c>,
        location: Location<'c>,
        name: &str,
    ) -> Result<Self, BuildError> {
        let spec = match name.split_once('.') {
            Some(("nisa", m)) => crate::nisa::op(m),
            Some(("bir", m)) => crate::bir::op(m).map(|b| &b.spec),
            _ => None,
        }
        .ok_or_else(|| BuildError::UnknownOp(name.to_string()))?;
        Ok(Self {
            attrs_of: Attrs::new(context),
            location,
            spec,
            name: name.to_string(),
            groups: vec![Vec::new(); spec.operands.len()],
            // The spec's attributes, `engine` and `operandSegmentSizes` at most.
            attrs: Vec::with_capacity(spec.attrs.len() + 2),
            results: Vec::new(),
        })
    }

    /// Sets the values of operand group `group`.
    pub fn operands(mut self, group: &str, values: &[Value<'c, 'a>]) -> Result<Self, BuildError> {
        let Some(i) = self.spec.operand_index(group) else {
            return Err(BuildError::UnknownOperand {
                op: self.name.clone(),
                group: group.to_string(),
                known: self
                    .spec
                    .operands
                    .iter()
                    .map(|o| o.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        };
        let (ok, expected) = match self.spec.operands[i].arity {
            Arity::One => (values.len() == 1, "exactly one value"),
            Arity::Optional => (values.len() <= 1, "at most one value"),
            Arity::Variadic => (true, "any number of values"),
        };
        if !ok {
            return Err(BuildError::OperandCount {
                op: self.name.clone(),
                group: group.to_string(),
                expected,
                got: values.len(),
            });
        }
        self.groups[i] = values.to_vec();
        Ok(self)
    }

    /// Sets operand `group` to one value.
    pub fn operand(self, group: &str, value: Value<'c, 'a>) -> Result<Self, BuildError> {
        self.operands(group, &[value])
    }

    /// Sets an attribute, checking its kind and value against the table.
    pub fn attr(mut self, name: &str, value: Attribute<'c>) -> Result<Self, BuildError> {
        let (name, kind) = match self.spec.attr(name) {
            Some(a) => (a.name, a.kind),
            None if name == "engine" && !self.spec.engines.is_empty() => (
                "engine",
                crate::spec::AttrKind::Enum(crate::enums::Engine::VOCAB),
            ),
            None => {
                return Err(BuildError::UnknownAttribute {
                    op: self.name.clone(),
                    name: name.to_string(),
                });
            }
        };
        check_attr_value(&kind, value).map_err(|message| BuildError::BadAttribute {
            op: self.name.clone(),
            name: name.to_string(),
            message,
        })?;
        self.attrs.retain(|(n, _)| *n != name);
        self.attrs.push((name, value));
        Ok(self)
    }

    /// Sets a string (enum) attribute.
    pub fn str(self, name: &str, value: &str) -> Result<Self, BuildError> {
        let a = self.attrs_of.string(value);
        self.attr(name, a)
    }

    /// Sets an i64 attribute.
    pub fn i64(self, name: &str, value: i64) -> Result<Self, BuildError> {
        let a = self.attrs_of.i64(value);
        self.attr(name, a)
    }

    /// Sets an f32 attribute.
    pub fn f32(self, name: &str, value: f32) -> Result<Self, BuildError> {
        let a = self.attrs_of.f32(value);
        self.attr(name, a)
    }

    /// Sets a bool attribute.
    pub fn bool(self, name: &str, value: bool) -> Result<Self, BuildError> {
        let a = self.attrs_of.bool(value);
        self.attr(name, a)
    }

    /// Sets an `array<i64: ...>` attribute.
    pub fn i64_array(self, name: &str, values: &[i64]) -> Result<Self, BuildError> {
        let a = self.attrs_of.i64_array(values);
        self.attr(name, a)
    }

    /// Sets an array-of-`array<i64>` attribute (replica groups, source/target pairs).
    pub fn i64_array_list(self, name: &str, lists: &[&[i64]]) -> Result<Self, BuildError> {
        let elems: Vec<Attribute<'c>> = lists.iter().map(|l| self.attrs_of.i64_array(l)).collect();
        let a = self.attrs_of.array(&elems);
        self.attr(name, a)
    }

    /// Adds a result type (for `nisa.alloc`, `nisa.ap`, register-producing ops).
    pub fn result(mut self, ty: Type<'c>) -> Self {
        self.results.push(ty);
        self
    }

    /// Builds the op: operands in table order, `operandSegmentSizes` when needed, every
    /// required attribute present.
    pub fn build(self) -> Result<Operation<'c>, BuildError> {
        for a in self.spec.attrs {
            if a.presence == Presence::Required && !self.attrs.iter().any(|(n, _)| *n == a.name) {
                return Err(BuildError::MissingAttribute {
                    op: self.name.clone(),
                    name: a.name.to_string(),
                });
            }
        }
        for (i, o) in self.spec.operands.iter().enumerate() {
            if o.arity == Arity::One && self.groups[i].len() != 1 {
                return Err(BuildError::OperandCount {
                    op: self.name.clone(),
                    group: o.name.to_string(),
                    expected: "exactly one value",
                    got: self.groups[i].len(),
                });
            }
        }
        let mut named: Vec<(&str, Attribute<'c>)> = Vec::with_capacity(self.attrs.len() + 1);
        named.extend(self.attrs.iter().copied());
        if self.spec.needs_segment_sizes() {
            let sizes: Vec<i32> = self.groups.iter().map(|g| g.len() as i32).collect();
            named.push(("operandSegmentSizes", self.attrs_of.i32_array(&sizes)));
        }
        // In the order of MLIR's attribute dictionaries (names compared as bytes): handed over
        // sorted, the dictionary is checked rather than sorted again for every op built.
        named.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let attrs: Vec<(Identifier<'c>, Attribute<'c>)> = named
            .iter()
            .map(|(n, a)| (self.attrs_of.identifier(n), *a))
            .collect();
        let operands: Vec<Value<'c, 'a>> = self.groups.concat();
        OperationBuilder::new(&self.name, self.location)
            .add_operands(&operands)
            .add_attributes(&attrs)
            .add_results(&self.results)
            .build()
            .map_err(|e| BuildError::Mlir(e.to_string()))
    }
}

/// The tile type `memref<shape x dtype, "space">`.
pub fn tile_type<'c>(
    context: impl AsContext<'c>,
    space: Space,
    shape: &[i64],
    dtype: Dtype,
) -> Result<Type<'c>, BuildError> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let text = format!(
        "memref<{}x{}, \"{}\">",
        dims.join("x"),
        dtype.mlir_name(),
        space.as_str()
    );
    Attrs::new(context)
        .parse_type(&text)
        .ok_or_else(|| BuildError::Mlir(format!("invalid tile type {text}")))
}

/// The tile type of `tile` (its space, shape and dtype).
pub fn tile_type_of<'c>(
    context: impl AsContext<'c>,
    tile: &crate::tile::Tile,
) -> Result<Type<'c>, BuildError> {
    tile_type(context, tile.space, &tile.shape, tile.dtype)
}

/// The register type of the NISA dialect (`!nisa.reg`).
pub fn reg_type<'c>(context: impl AsContext<'c>) -> Result<Type<'c>, BuildError> {
    Attrs::new(context)
        .parse_type("!nisa.reg")
        .ok_or_else(|| BuildError::Mlir("the nisa dialect is not loaded".into()))
}
