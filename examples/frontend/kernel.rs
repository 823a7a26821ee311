//! The example front end's kernel: a row-max subtraction (softmax's stabilising step),
//! `out[p, j] = x[p, j] - max_j x[p, j]` on 128 rows of 256 fp32, built in memory with
//! `OpBuild` (the NISA op table's builder: operand groups by name, `operandSegmentSizes`
//! filled in) and compiled with `Session::compile_module`.
//!
//! Shared by the example binary (`main.rs`) and the test that runs its logic
//! (`tests/mlir/isel.rs`).

use melior::ir::{
    Block, BlockLike, Identifier, Location, Module, Region, RegionLike, Value,
    attribute::{StringAttribute, TypeAttribute},
    operation::OperationBuilder,
    r#type::FunctionType,
};
use sundial::{CompileOptions, Compiled, Session};
use sundial_codegen::arch::Target;
use sundial_dialects::{
    build::{OpBuild, tile_type},
    dtype::Dtype,
    enums::Space,
};

/// Rows (one per partition) and columns of the kernel's tensors.
pub const SHAPE: [i64; 2] = [128, 256];

/// Builds the kernel module in `session`'s context: `func.func @row_max_subtract(%x, %out)`
/// on HBM tensors of [`SHAPE`].
pub fn build(session: &Session) -> Result<Module<'_>, String> {
    let context = session.context();
    let location = Location::unknown(context);
    let err = |e: sundial_dialects::build::BuildError| e.to_string();
    let hbm = tile_type(context, Space::Hbm, &SHAPE, Dtype::F32).map_err(err)?;
    let sbuf = tile_type(context, Space::Sbuf, &SHAPE, Dtype::F32).map_err(err)?;
    let column = tile_type(context, Space::Sbuf, &[SHAPE[0], 1], Dtype::F32).map_err(err)?;
    let module = Module::new(location);
    let block = Block::new(&[(hbm, location), (hbm, location)]);
    let input: Value = block.argument(0).map_err(|e| e.to_string())?.into();
    let output: Value = block.argument(1).map_err(|e| e.to_string())?.into();
    let alloc = |name: &str, ty| {
        OpBuild::new(context, location, "nisa.alloc")
            .and_then(|b| b.str("name", name))
            .map(|b| b.result(ty))
            .and_then(|b| b.build())
            .map_err(err)
    };
    let x = block.append_operation(alloc("x", sbuf)?);
    let x: Value = x.result(0).map_err(|e| e.to_string())?.into();
    let m = block.append_operation(alloc("row_max", column)?);
    let m: Value = m.result(0).map_err(|e| e.to_string())?.into();
    let ops = [
        OpBuild::new(context, location, "nisa.dma_copy")
            .and_then(|b| b.operand("dst", x))
            .and_then(|b| b.operand("src", input)),
        OpBuild::new(context, location, "nisa.tensor_reduce_arith")
            .and_then(|b| b.operand("dst", m))
            .and_then(|b| b.operand("data", x))
            .and_then(|b| b.str("op", "max"))
            .and_then(|b| b.i64_array("axis", &[1])),
        // The row maximum as a per-partition operand: x - max.
        OpBuild::new(context, location, "nisa.tensor_scalar_arith")
            .and_then(|b| b.operand("dst", x))
            .and_then(|b| b.operand("data", x))
            .and_then(|b| b.operand("operand0", m))
            .and_then(|b| b.str("op0", "subtract"))
            .and_then(|b| b.str("engine", "vector")),
        OpBuild::new(context, location, "nisa.dma_copy")
            .and_then(|b| b.operand("dst", output))
            .and_then(|b| b.operand("src", x)),
    ];
    for op in ops {
        block.append_operation(op.and_then(|b| b.build()).map_err(err)?);
    }
    block.append_operation(
        OperationBuilder::new("func.return", location)
            .build()
            .map_err(|e| e.to_string())?,
    );
    let region = Region::new();
    region.append_block(block);
    let function_type = FunctionType::new(context, &[hbm, hbm], &[]);
    module.body().append_operation(
        OperationBuilder::new("func.func", location)
            .add_attributes(&[
                (
                    Identifier::new(context, "sym_name"),
                    StringAttribute::new(context, "row_max_subtract").into(),
                ),
                (
                    Identifier::new(context, "function_type"),
                    TypeAttribute::new(function_type.into()).into(),
                ),
            ])
            .add_regions([region])
            .build()
            .map_err(|e| e.to_string())?,
    );
    Ok(module)
}

/// Builds the kernel and compiles it for `target`; a failure is every diagnostic, one a line.
pub fn compile(session: &Session, target: Target) -> Result<Compiled, String> {
    let mut module = build(session)?;
    let options = CompileOptions {
        target: Some(target),
        ..Default::default()
    };
    session
        .compile_module(&mut module, "row_max_subtract", &options)
        .map_err(|diagnostics| {
            diagnostics
                .iter()
                .map(|d| d.render("row_max_subtract"))
                .collect::<Vec<_>>()
                .join("\n")
        })
}
