//! Short builders for the NISA ops the middle-end passes insert (tiles, copies, fills,
//! elementwise arithmetic, views), all placed right before one anchor op, at its location,
//! in its context, with an explicit engine (the passes that insert them run after
//! `sundial-resolve-engine`).

use crate::rewrite::Rewriter;
use melior::ir::{Value, ValueLike, operation::OperationRef};
use sundial_dialects::{
    build::{BuildError, OpBuild, tile_type_of},
    enums::Engine,
    tile::Tile,
};

/// The second operand of a tensor-scalar step: an f32 immediate or a `[P, 1]` tile.
#[derive(Clone, Copy, Debug)]
pub enum Scalar<'c, 'a> {
    /// An immediate.
    Imm(f32),
    /// A per-partition tile.
    Tile(Value<'c, 'a>),
}

/// One tensor-scalar step: `data op scalar` (or `scalar op data` when `reverse`).
#[derive(Clone, Copy, Debug)]
pub struct Step<'c, 'a> {
    /// The ALU op.
    pub op: &'static str,
    /// Its operand.
    pub scalar: Scalar<'c, 'a>,
    /// Whether the operands are swapped.
    pub reverse: bool,
}

impl<'c, 'a> Step<'c, 'a> {
    /// `data op imm`.
    pub fn imm(op: &'static str, value: f32) -> Self {
        Step {
            op,
            scalar: Scalar::Imm(value),
            reverse: false,
        }
    }
}

/// A tensor-tensor step after a scalar one: `prev op tensor` (`tensor op prev` when
/// `reverse`).
#[derive(Clone, Copy, Debug)]
pub struct TensorStep<'c, 'a> {
    /// The ALU op.
    pub op: &'static str,
    /// Its tensor operand.
    pub tensor: Value<'c, 'a>,
    /// Whether the operands are swapped.
    pub reverse: bool,
}

/// Inserts ops before `anchor`.
pub struct Emit<'r, 'c, 'a> {
    /// The rewriter.
    pub rewriter: &'r Rewriter<'c>,
    /// The op the new ones go before.
    pub anchor: OperationRef<'c, 'a>,
}

impl<'c, 'a> Emit<'_, 'c, 'a> {
    fn build(&self, name: &str) -> Result<OpBuild<'c, 'a>, BuildError> {
        OpBuild::at(&self.anchor, name)
    }

    fn insert(&self, build: OpBuild<'c, 'a>) -> Result<OperationRef<'c, 'a>, BuildError> {
        self.rewriter.build_before(self.anchor, build)
    }

    /// A new `nisa.alloc` of `tile`.
    pub fn alloc(&self, tile: &Tile) -> Result<Value<'c, 'a>, BuildError> {
        self.rewriter.alloc_before(self.anchor, tile)
    }

    /// A static `nisa.ap` of `tensor`: `pattern` [step, num] pairs, an element `offset`, the
    /// result tile `result`.
    pub fn view(
        &self,
        tensor: Value<'c, 'a>,
        pattern: &[i64],
        offset: i64,
        result: &Tile,
    ) -> Result<Value<'c, 'a>, BuildError> {
        let ty = tile_type_of(tensor.context(), result)?;
        let mut b = self
            .build("nisa.ap")?
            .operand("tensor", tensor)?
            .i64_array("pattern", pattern)?
            .result(ty);
        if offset != 0 {
            b = b.i64("offset", offset)?;
        }
        let op = self.insert(b)?;
        first_result(op)
    }

    /// An indirect `nisa.ap` of `tensor`: `pattern`, and `index` as the vector offset of
    /// dimension `indirect_dim`.
    pub fn indirect_view(
        &self,
        tensor: Value<'c, 'a>,
        index: Value<'c, 'a>,
        pattern: &[i64],
        indirect_dim: i64,
        result: &Tile,
    ) -> Result<Value<'c, 'a>, BuildError> {
        let ty = tile_type_of(tensor.context(), result)?;
        let mut b = self
            .build("nisa.ap")?
            .operand("tensor", tensor)?
            .operand("vector_offset", index)?
            .i64_array("pattern", pattern)?
            .result(ty);
        if indirect_dim != 0 {
            b = b.i64("indirect_dim", indirect_dim)?;
        }
        let op = self.insert(b)?;
        first_result(op)
    }

    /// `nisa.memset(dst, value)`.
    pub fn memset(
        &self,
        dst: Value<'c, 'a>,
        value: f32,
        engine: Engine,
    ) -> Result<OperationRef<'c, 'a>, BuildError> {
        self.insert(
            self.build("nisa.memset")?
                .operand("dst", dst)?
                .f32("value", value)?
                .str("engine", engine.as_str())?,
        )
    }

    /// `nisa.tensor_copy(dst, src)`.
    pub fn copy(
        &self,
        dst: Value<'c, 'a>,
        src: Value<'c, 'a>,
        engine: Engine,
    ) -> Result<OperationRef<'c, 'a>, BuildError> {
        self.insert(
            self.build("nisa.tensor_copy")?
                .operand("dst", dst)?
                .operand("src", src)?
                .str("engine", engine.as_str())?,
        )
    }

    /// A binary tensor-tensor op (`nisa.tensor_tensor_arith`, `_bitvec` or `_power`).
    pub fn tensor_tensor(
        &self,
        name: &str,
        dst: Value<'c, 'a>,
        lhs: Value<'c, 'a>,
        rhs: Value<'c, 'a>,
        op: Option<&str>,
        engine: Engine,
    ) -> Result<OperationRef<'c, 'a>, BuildError> {
        let mut b = self
            .build(name)?
            .operand("dst", dst)?
            .operand("lhs", lhs)?
            .operand("rhs", rhs)?
            .str("engine", engine.as_str())?;
        if let Some(op) = op {
            b = b.str("op", op)?;
        }
        self.insert(b)
    }

    /// `nisa.tensor_scalar_arith(dst, data)` with one or two steps.
    pub fn tensor_scalar(
        &self,
        dst: Value<'c, 'a>,
        data: Value<'c, 'a>,
        step0: Step<'c, 'a>,
        step1: Option<Step<'c, 'a>>,
        engine: Engine,
    ) -> Result<OperationRef<'c, 'a>, BuildError> {
        let mut b = self
            .build("nisa.tensor_scalar_arith")?
            .operand("dst", dst)?
            .operand("data", data)?
            .str("engine", engine.as_str())?;
        b = with_step(b, step0, "op0", "imm0", "operand0", "reverse0")?;
        if let Some(step1) = step1 {
            b = with_step(b, step1, "op1", "imm1", "operand1", "reverse1")?;
        }
        self.insert(b)
    }

    /// `nisa.scalar_tensor_tensor_arith(dst, data, operand1)`: `(data step0) step1`.
    pub fn scalar_tensor_tensor(
        &self,
        dst: Value<'c, 'a>,
        data: Value<'c, 'a>,
        step0: Step<'c, 'a>,
        step1: TensorStep<'c, 'a>,
        engine: Engine,
    ) -> Result<OperationRef<'c, 'a>, BuildError> {
        let mut b = self
            .build("nisa.scalar_tensor_tensor_arith")?
            .operand("dst", dst)?
            .operand("data", data)?
            .operand("operand1", step1.tensor)?
            .str("op1", step1.op)?
            .str("engine", engine.as_str())?;
        b = with_step(b, step0, "op0", "imm0", "operand0", "reverse0")?;
        if step1.reverse {
            b = b.bool("reverse1", true)?;
        }
        self.insert(b)
    }
}

fn with_step<'c, 'a>(
    b: OpBuild<'c, 'a>,
    step: Step<'c, 'a>,
    op: &str,
    imm: &str,
    operand: &str,
    reverse: &str,
) -> Result<OpBuild<'c, 'a>, BuildError> {
    let mut b = b.str(op, step.op)?;
    b = match step.scalar {
        Scalar::Imm(v) => b.f32(imm, v)?,
        Scalar::Tile(t) => b.operand(operand, t)?,
    };
    if step.reverse {
        b = b.bool(reverse, true)?;
    }
    Ok(b)
}

fn first_result<'c, 'a>(op: OperationRef<'c, 'a>) -> Result<Value<'c, 'a>, BuildError> {
    op.result(0)
        .map(Into::into)
        .map_err(|e| BuildError::Mlir(e.to_string()))
}

/// A tile of `shape` and `dtype` in `space` (a scratch tile's type).
pub fn tile(
    space: sundial_dialects::enums::Space,
    shape: &[i64],
    dtype: sundial_dialects::dtype::Dtype,
) -> Tile {
    Tile {
        space,
        shape: shape.to_vec(),
        dtype,
    }
}
