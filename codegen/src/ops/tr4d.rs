//! The S4D4_TR compute ops: TensorReduce (0x42 arith / 0x52 bitvec), TensorCopy (0x46 Copy /
//! 0x47 Cast, CC `visitInstTensorCopy`) and Reciprocal (0x48). One bundle each: source and
//! destination TENSOR4D / INDIRECT20B slots, the dtypes, the source's partition count and the
//! control bytes 35..38. No GENERATE fast path: `ops::generate` declines these ops and the
//! reference encoder runs.

use super::{active, wire};
use crate::arch::{ArchModel, Target};
use crate::bundle::{Bundle, Sink, setup_header, setup_sync};
use crate::enums::{alu_to_wire, is_arith_reduce_op, is_bitvec_reduce_op};
use crate::error::EncodeError;
use crate::formats::compute4d::{opcode as op_code, tr4d};
use crate::formats::tr;
use crate::indirect::assign_access_4d;
use crate::isa::{self, SelectQuery};
use crate::model::{AccessPattern, Instruction, Reciprocal, TensorCopy, TensorReduce};

/// The opcode of a TensorCopy on `target`, from the ISA table's `tensor_copy` row (Copy when
/// the BIR dtypes agree, Cast otherwise; CC: opcode = (src != dst) + 0x46).
fn copy_select(op: &TensorCopy, target: Target) -> Result<u8, EncodeError> {
    let q = SelectQuery::new(target).with_dtypes(op.dst.dtype(), &[op.src.dtype()]);
    let unpinned = EncodeError::Unpinned {
        op: "tensor_copy",
        missing: "a one-bundle ISA-table case of tensor_copy",
    };
    const TENSOR_COPY: &isa::Row = isa::row_const("tensor_copy");
    match isa::dispatch(TENSOR_COPY, &q, |_| true).map(|d| d.opcodes) {
        Ok([opcode]) => Ok(*opcode),
        _ => Err(unpinned),
    }
}

/// The opcode of a TensorCopy for COLLECT, which has no target to give: the `tensor_copy` row
/// reads none (its cases have no target condition or floor), so the oldest target's answer is
/// every target's. A table that gave no opcode (which `copy_select` reports when encoding)
/// collects as Cast, COLLECT's other arm.
pub(super) fn copy_opcode(op: &TensorCopy) -> u8 {
    copy_select(op, Target::Sunda).unwrap_or(op_code::CAST)
}

/// The bundle shared by the four opcodes: header, sync, slots, dtypes and channels.
fn common<'a, S: Sink>(
    inst: &Instruction,
    opcode: u8,
    src: &AccessPattern,
    dst: &AccessPattern,
    arch: &ArchModel,
    sink: &'a mut S,
) -> Result<&'a mut Bundle, EncodeError> {
    let b = sink.begin()?;
    setup_header(b, opcode);
    setup_sync(b, &inst.sync, true, true)?;
    tr::IN_DTYPE.put_u8(b, wire(src.dtype(), arch));
    tr::OUT_DTYPE.put_u8(b, wire(dst.dtype(), arch));
    tr::ACTIVE.put_u8(b, active(src, arch)?);
    assign_access_4d(tr::SRC.slot(b), src, arch)?;
    assign_access_4d(tr::DST.slot(b), dst, arch)?;
    Ok(b)
}

/// Source and destination element counts must agree (`d4_tr_same_src_dst_count`).
fn same_count(src: &AccessPattern, dst: &AccessPattern) -> Result<(), EncodeError> {
    let (l, r) = (
        src.num_elements_per_partition(),
        dst.num_elements_per_partition(),
    );
    if l != r {
        return Err(EncodeError::ElementCountMismatch {
            what: "S4D4_TR src and dst",
            left: l,
            right: r,
        });
    }
    Ok(())
}

/// TensorReduce: `opcode` 0x42 (arith class) or 0x52 (bitvec class).
pub(super) fn encode_reduce<S: Sink>(
    inst: &Instruction,
    op: &TensorReduce,
    opcode: u8,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    let alu = alu_to_wire(op.op, arch.core).ok_or(EncodeError::AluNotEncodable(op.op))?;
    let in_class = if opcode == op_code::TENSOR_REDUCE_BITVEC {
        is_bitvec_reduce_op(alu)
    } else {
        is_arith_reduce_op(alu)
    };
    if !in_class {
        return Err(EncodeError::ReduceOpClass { op: op.op, opcode });
    }
    let b = common(inst, opcode, &op.src, &op.dst, arch, sink)?;
    tr4d::NEGATED.put_u8(b, op.negated as u8);
    tr4d::OP.put_u8(b, alu);
    tr4d::OP_DIM.put_u8(b, op.axis.wire());
    sink.end();
    Ok(())
}

/// TensorCopy: Copy / Cast write BYPASS, negated 0, op_dim UNUSED, mask_enable 0.
pub(super) fn encode_copy<S: Sink>(
    inst: &Instruction,
    op: &TensorCopy,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    super::gpsimd_no_psum(
        inst.engine,
        "tensor_copy",
        &[(&op.src, "src"), (&op.dst, "dst")],
    )?;
    same_count(&op.src, &op.dst)?;
    common(
        inst,
        copy_select(op, arch.target)?,
        &op.src,
        &op.dst,
        arch,
        sink,
    )?;
    sink.end();
    Ok(())
}

/// Reciprocal: the control bytes stay 0 (CC: "+0x25 = 0").
pub(super) fn encode_reciprocal<S: Sink>(
    inst: &Instruction,
    op: &Reciprocal,
    arch: &ArchModel,
    sink: &mut S,
) -> Result<(), EncodeError> {
    same_count(&op.src, &op.dst)?;
    common(inst, op_code::RECIPROCAL, &op.src, &op.dst, arch, sink)?;
    sink.end();
    Ok(())
}
