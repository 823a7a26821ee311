//! Builders for NISA and BIR ops, driven by the op tables.
//!
//! Front ends that emit IR in memory (rather than as text) build ops through [`OpBuild`]: it
//! looks the op up in its table, takes operands by group name in any order, checks attribute
//! names and kinds as they are added, orders the operands as the table does, adds
//! `operandSegmentSizes` when the op needs it, and refuses to build an op with a missing
//! required attribute. The semantic rules (shapes, engines, ...) are then checked by
//! [`crate::verify`] like for parsed IR.

use crate::{
    dtype::Dtype,
    enums::Space,
    spec::{Arity, OpSpec, Presence},
    verify::check_attr_value,
};
use melior::{
    Context,
    ir::{
        Attribute, Identifier, Location, Operation, Type, Value,
        attribute::{
            ArrayAttribute, BoolAttribute, DenseI32ArrayAttribute, DenseI64ArrayAttribute,
            FloatAttribute, IntegerAttribute, StringAttribute,
        },
        operation::OperationBuilder,
        r#type::IntegerType,
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

/// A NISA or BIR op under construction.
pub struct OpBuild<'c> {
    context: &'c Context,
    location: Location<'c>,
    spec: &'static OpSpec,
    name: String,
    groups: Vec<Vec<Value<'c, 'c>>>,
    attrs: Vec<(String, Attribute<'c>)>,
    results: Vec<Type<'c>>,
}

impl<'c> OpBuild<'c> {
    /// Starts building `dialect.mnemonic` (e.g. `nisa.gather`, `bir.dropout`).
    pub fn new(
        context: &'c Context,
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
            context,
            location,
            spec,
            name: name.to_string(),
            groups: vec![Vec::new(); spec.operands.len()],
            attrs: Vec::new(),
            results: Vec::new(),
        })
    }

    /// Sets the values of operand group `group`.
    pub fn operands(mut self, group: &str, values: &[Value<'c, 'c>]) -> Result<Self, BuildError> {
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
    pub fn operand(self, group: &str, value: Value<'c, 'c>) -> Result<Self, BuildError> {
        self.operands(group, &[value])
    }

    /// Sets an attribute, checking its kind and value against the table.
    pub fn attr(mut self, name: &str, value: Attribute<'c>) -> Result<Self, BuildError> {
        let kind = match self.spec.attr(name) {
            Some(a) => a.kind,
            None if name == "engine" && !self.spec.engines.is_empty() => {
                crate::spec::AttrKind::Enum(crate::enums::Engine::VOCAB)
            }
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
        self.attrs.retain(|(n, _)| n != name);
        self.attrs.push((name.to_string(), value));
        Ok(self)
    }

    /// Sets a string (enum) attribute.
    pub fn str(self, name: &str, value: &str) -> Result<Self, BuildError> {
        let a = StringAttribute::new(self.context, value).into();
        self.attr(name, a)
    }

    /// Sets an i64 attribute.
    pub fn i64(self, name: &str, value: i64) -> Result<Self, BuildError> {
        let a = IntegerAttribute::new(IntegerType::new(self.context, 64).into(), value).into();
        self.attr(name, a)
    }

    /// Sets an f32 attribute.
    pub fn f32(self, name: &str, value: f32) -> Result<Self, BuildError> {
        let a = FloatAttribute::new(self.context, Type::float32(self.context), value as f64).into();
        self.attr(name, a)
    }

    /// Sets a bool attribute.
    pub fn bool(self, name: &str, value: bool) -> Result<Self, BuildError> {
        let a = BoolAttribute::new(self.context, value).into();
        self.attr(name, a)
    }

    /// Sets an `array<i64: ...>` attribute.
    pub fn i64_array(self, name: &str, values: &[i64]) -> Result<Self, BuildError> {
        let a = DenseI64ArrayAttribute::new(self.context, values).into();
        self.attr(name, a)
    }

    /// Sets an array-of-`array<i64>` attribute (replica groups, source/target pairs).
    pub fn i64_array_list(self, name: &str, lists: &[&[i64]]) -> Result<Self, BuildError> {
        let elems: Vec<Attribute<'c>> = lists
            .iter()
            .map(|l| DenseI64ArrayAttribute::new(self.context, l).into())
            .collect();
        let a = ArrayAttribute::new(self.context, &elems).into();
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
            if a.presence == Presence::Required && !self.attrs.iter().any(|(n, _)| n == a.name) {
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
        let mut attrs: Vec<(Identifier<'c>, Attribute<'c>)> = self
            .attrs
            .iter()
            .map(|(n, a)| (Identifier::new(self.context, n), *a))
            .collect();
        if self.spec.needs_segment_sizes() {
            let sizes: Vec<i32> = self.groups.iter().map(|g| g.len() as i32).collect();
            attrs.push((
                Identifier::new(self.context, "operandSegmentSizes"),
                DenseI32ArrayAttribute::new(self.context, &sizes).into(),
            ));
        }
        let operands: Vec<Value<'c, 'c>> = self.groups.concat();
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
    context: &'c Context,
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
    Type::parse(context, crate::ffi::NulTerminated::new(&text).as_str())
        .ok_or_else(|| BuildError::Mlir(format!("invalid tile type {text}")))
}

/// The register type of a dialect (`!nisa.reg`).
pub fn reg_type(context: &Context) -> Result<Type<'_>, BuildError> {
    Type::parse(
        context,
        crate::ffi::NulTerminated::new("!nisa.reg").as_str(),
    )
    .ok_or_else(|| BuildError::Mlir("the nisa dialect is not loaded".into()))
}
