//! BIR -> codegen instructions: each selected BIR op becomes one `sundial_codegen` instruction
//! (on its engine, without sync), with the memory regions it reads and writes for the sync
//! pass.
//!
//! The access-pattern dictionaries are decoded by the BIR verifier's own decoder
//! (`sundial_dialects::verify::bir_rules::decode`), so what verified is what is lowered. Each
//! [`LOWERINGS`] entry turns one BIR op's attributes into the instruction model's fields; an
//! attribute combination the model cannot hold is an error at the op.

use crate::address;
use melior::ir::operation::OperationRef;
use sundial_codegen::{
    arch::ArchModel,
    enums::{ActivationFunc, BirAccumulation, BirAluOp},
    model::{
        AccessPattern, BirAxisList, BoundCheckReg, DgeComputeOp, Dim, Dims, DmaCompletion,
        DmaDirect2d, DmaPattern2d, Engine, GenPattern, ImmOperand, Instruction, Iota, MemLoc,
        Memset, Op, Reciprocal, Space as CSpace, Start, StaticAp as CStatic, TensorCopy,
        TensorReduce, TensorScalar, TensorTensor, TsForm,
    },
    sync::Region,
};
use sundial_dialects::{
    dtype::BirDtype,
    enums::Space,
    verify::{
        bir_rules::{PhysAp, Start as BStart, StaticAp, decode},
        float_value, int_value,
    },
    view::View,
};

/// One lowered BIR op.
#[derive(Clone, Debug)]
pub struct Lowered<'c, 'a> {
    /// The BIR op it came from (for diagnostics and the opcode check).
    pub op: OperationRef<'c, 'a>,
    /// The instruction (no sync yet).
    pub inst: Instruction,
    /// The opcodes selection chose (the BIR op's `opcodes`), which the encoding must emit.
    pub opcodes: Vec<u8>,
    /// Memory it reads.
    pub reads: Vec<Region>,
    /// Memory it writes.
    pub writes: Vec<Region>,
}

/// A lowering: the BIR mnemonic and the function building the instruction.
pub struct Lowering {
    /// BIR mnemonic.
    pub bir: &'static str,
    lower: fn(&Ctx<'_, '_, '_>) -> Result<Built, String>,
}

/// What a lowering returns: the op and the regions.
struct Built {
    op: Op,
    reads: Vec<Region>,
    writes: Vec<Region>,
}

/// Every BIR op lowered to an instruction.
pub static LOWERINGS: &[Lowering] = &[
    Lowering {
        bir: "dma_copy",
        lower: dma_copy,
    },
    Lowering {
        bir: "range_select",
        lower: range_select,
    },
    Lowering {
        bir: "dma_indirect",
        lower: dma_indirect,
    },
    Lowering {
        bir: "tensor_tensor",
        lower: tensor_tensor,
    },
    Lowering {
        bir: "tensor_scalar",
        lower: tensor_scalar,
    },
    Lowering {
        bir: "tensor_copy",
        lower: tensor_copy,
    },
    Lowering {
        bir: "reciprocal",
        lower: reciprocal,
    },
    Lowering {
        bir: "memset",
        lower: memset,
    },
    Lowering {
        bir: "tensor_reduce",
        lower: tensor_reduce,
    },
    Lowering {
        bir: "iota",
        lower: iota,
    },
    Lowering {
        bir: "tensor_scalar_cache",
        lower: tensor_scalar_cache,
    },
    Lowering {
        bir: "activation",
        lower: activation,
    },
    Lowering {
        bir: "read_accumulator",
        lower: read_accumulator,
    },
    Lowering {
        bir: "copy_predicated",
        lower: copy_predicated,
    },
    Lowering {
        bir: "cross_lane_reduce",
        lower: cross_lane_reduce,
    },
    Lowering {
        bir: "stream_shuffle",
        lower: stream_shuffle,
    },
    Lowering {
        bir: "stream_transpose",
        lower: stream_transpose,
    },
    Lowering {
        bir: "gather",
        lower: gather,
    },
    Lowering {
        bir: "matmult",
        lower: matmult,
    },
    Lowering {
        bir: "quantize_mx",
        lower: quantize_mx,
    },
    Lowering {
        bir: "matmult_mx",
        lower: matmult_mx,
    },
];

/// The context of one op's lowering.
struct Ctx<'v, 'c, 'a> {
    view: &'v View<'c, 'a>,
    arch: &'v ArchModel,
    opcodes: &'v [u8],
}

impl Ctx<'_, '_, '_> {
    /// The decoded access pattern `name`.
    fn phys(&self, name: &str) -> Result<PhysAp, String> {
        let attr = self
            .view
            .attr(name)
            .ok_or_else(|| format!("attribute '{name}' is missing"))?;
        decode(attr).map_err(|m| format!("attribute '{name}': {m}"))
    }

    /// The static access pattern `name`.
    fn static_ap(&self, name: &str) -> Result<StaticAp, String> {
        match self.phys(name)? {
            PhysAp::Static(s) => Ok(s),
            PhysAp::Indirect { .. } => Err(format!(
                "attribute '{name}': an indirect pattern where this lowering takes a static one"
            )),
        }
    }

    /// The on-chip static pattern `name` as the instruction model's, with its region.
    fn on_chip(&self, name: &str) -> Result<(AccessPattern, Region), String> {
        let s = self.static_ap(name)?;
        let region = region(&s)?;
        Ok((AccessPattern::Static(model_ap(&s, name)?), region))
    }

    fn alu(&self, name: &str) -> Result<BirAluOp, String> {
        let text = self
            .view
            .str_attr(name)
            .ok_or_else(|| format!("attribute '{name}' is missing"))?;
        BirAluOp::from_name(&text)
            .ok_or_else(|| format!("attribute '{name}': unknown ALU op '{text}'"))
    }
}

/// The model's dims of a decoded pattern (outermost first).
fn dims(s: &StaticAp, name: &str) -> Result<Dims, String> {
    let mut out = Dims::new();
    for &(step, num) in &s.dims {
        let d = Dim::new(
            i16::try_from(step)
                .map_err(|_| format!("attribute '{name}': step {step} is not 16-bit"))?,
            u16::try_from(num)
                .map_err(|_| format!("attribute '{name}': num {num} is not 16-bit"))?,
        );
        out.try_push(d)
            .map_err(|e| format!("attribute '{name}': {e}"))?;
    }
    Ok(out)
}

/// The instruction model's static pattern of an on-chip `s`.
fn model_ap(s: &StaticAp, name: &str) -> Result<CStatic, String> {
    let space = match s.space {
        Space::Sbuf => CSpace::Sbuf,
        Space::Psum => CSpace::Psum,
        Space::Hbm => {
            return Err(format!(
                "attribute '{name}': an HBM pattern where this instruction reads or writes SBUF/PSUM"
            ));
        }
    };
    let start = match s.start {
        BStart::Offset(o) => Start::Imm(MemLoc {
            space,
            partition: s.partition as u32,
            offset: u32::try_from(o)
                .map_err(|_| format!("attribute '{name}': offset {o} is not 32-bit"))?,
        }),
        BStart::Register(r) => Start::Reg(r as u8),
    };
    Ok(CStatic {
        start,
        partitions: s.num_partitions as u32,
        dims: dims(s, name)?,
        dtype: s.dtype,
        parent: 0,
    })
}

/// The byte hull `[lo, hi)` of a pattern starting at byte `offset` (relative to the start).
fn hull(s: &StaticAp, offset: i64) -> (i64, i64) {
    let elem = s.dtype.byte_size() as i64;
    let (mut lo, mut hi) = (0i64, 0i64);
    for &(step, num) in &s.dims {
        let span = step.saturating_mul(num - 1);
        if span >= 0 {
            hi = hi.saturating_add(span);
        } else {
            lo = lo.saturating_add(span);
        }
    }
    (
        offset.saturating_add(lo.saturating_mul(elem)),
        offset.saturating_add(hi.saturating_add(1).saturating_mul(elem)),
    )
}

/// The memory region a pattern touches (a rectangle of partitions by bytes; the whole of
/// every partition for a register-sourced start, whose offset is known only at run time).
pub fn region(s: &StaticAp) -> Result<Region, String> {
    let offset = match s.start {
        BStart::Offset(o) => Some(o),
        BStart::Register(_) => None,
    };
    match s.space {
        Space::Hbm => {
            let tensor = s
                .tensor
                .ok_or("an HBM pattern without 'tensor': a DMA needs the tensor it addresses")?;
            let (lo, hi) = hull(s, offset.unwrap_or(0));
            if lo < 0 {
                return Err(format!(
                    "the pattern reaches before byte 0 of HBM tensor {tensor}"
                ));
            }
            Ok(Region::hbm(tensor as u32, lo as u64..hi as u64))
        }
        space => {
            let partitions = s.partition as u32..(s.partition + s.num_partitions) as u32;
            let bytes = match offset {
                Some(o) => {
                    let (lo, hi) = hull(s, o);
                    lo.max(0) as u32..hi.clamp(0, u32::MAX as i64) as u32
                }
                None => 0..u32::MAX,
            };
            Ok(if space == Space::Sbuf {
                Region::sbuf(partitions, bytes)
            } else {
                Region::psum(partitions, bytes)
            })
        }
    }
}

// ---------------------------------------------------------------- lowerings

/// The dims of one DMA side, outermost first, with the partition axis on chip: folded into at
/// most two (step in elements, count) pairs.
fn dma_side(s: &StaticAp, name: &str, arch: &ArchModel) -> Result<DmaPattern2d, String> {
    let elem = s.dtype.byte_size();
    let offset = match s.start {
        BStart::Offset(o) => o as u64,
        BStart::Register(_) => {
            return Err(format!(
                "attribute '{name}': a register-sourced start (the DMA_DIRECT2D model takes immediate addresses)"
            ));
        }
    };
    let mut dims: Vec<(i64, i64)> = Vec::new();
    let addr = match s.space {
        Space::Hbm => {
            let tensor = s
                .tensor
                .ok_or_else(|| format!("attribute '{name}': an HBM pattern without 'tensor'"))?;
            address::hbm(tensor, offset).map_err(|m| format!("attribute '{name}': {m}"))?
        }
        space => {
            let stride = match space {
                Space::Sbuf => arch.sbuf_partition_stride,
                _ => arch.psum_partition_stride,
            } as i64;
            dims.push((stride / elem as i64, s.num_partitions));
            address::on_chip(space, s.partition as u32, offset as u32, arch)
                .ok_or_else(|| format!("attribute '{name}': no DMA address"))?
        }
    };
    dims.extend(s.dims.iter().copied());
    let merged = crate::phys::canonical_dims(&dims, i32::MAX as i64)
        .map_err(|m| format!("attribute '{name}': {m}"))?;
    let (inner, outer) = match merged.as_slice() {
        [d] => (*d, (d.0.saturating_mul(d.1), 1)),
        [o, i] => (*i, *o),
        _ => {
            return Err(format!(
                "attribute '{name}': the transfer needs {} dimensions; DMA_DIRECT2D has 2",
                merged.len()
            ));
        }
    };
    let step = |s: i64| {
        i32::try_from(s).map_err(|_| format!("attribute '{name}': step {s} is not 32-bit"))
    };
    Ok(DmaPattern2d {
        addr,
        step: [step(inner.0)?, step(outer.0)?],
        num: [inner.1 as u16, outer.1 as u16],
        elem_size: elem as u16,
    })
}

/// The refusal of a DMA `priority`: DMA_CONFIGS has a `priority_class` (0..=4), but no source
/// maps NKI's priority (0..=3) onto it.
const PRIORITY_UNMAPPED: &str = "attribute 'priority': no source maps NKI's DMA priority onto DMA_CONFIGS priority_class (the descriptor is written with class 0)";

fn dma_copy(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    if c.view.attr("priority").is_some() {
        return Err(PRIORITY_UNMAPPED.into());
    }
    let (dst, src) = (c.static_ap("dst")?, c.static_ap("src")?);
    let op = Op::DmaDirect2d(DmaDirect2d {
        src: dma_side(&src, "src", c.arch)?,
        dst: dma_side(&dst, "dst", c.arch)?,
        in_dtype: src.dtype,
        out_dtype: dst.dtype,
        compute_op: DgeComputeOp::None,
        src_bound_reg: BoundCheckReg::OFF,
        dst_bound_reg: BoundCheckReg::OFF,
        completion: DmaCompletion::default(),
    });
    Ok(Built {
        op,
        reads: vec![region(&src)?],
        writes: vec![region(&dst)?],
    })
}

/// A RangeSelect bound: the fp32 immediate `imm`, else the operand pattern `ap`'s start as a
/// pointer (the ASSUMPTION of [`scalar`]: each partition reads its own value there).
fn bound(
    c: &Ctx<'_, '_, '_>,
    imm: &str,
    ap: &str,
    reads: &mut Vec<Region>,
) -> Result<sundial_codegen::model::ScalarOperand, String> {
    use sundial_codegen::model::ScalarOperand;
    if let Some(a) = c.view.attr(imm) {
        let v = float_value(a)
            .or_else(|| int_value(a).map(|i| i as f64))
            .ok_or_else(|| format!("attribute '{imm}' must be a number"))?;
        return Ok(ScalarOperand::Imm(v as f32));
    }
    let s = c.static_ap(ap)?;
    reads.push(region(&s)?);
    let m = model_ap(&s, ap)?;
    let word = sundial_codegen::addr4::word(&m.start, c.arch)
        .map_err(|e| format!("attribute '{ap}': {e}"))?;
    Ok(ScalarOperand::Ptr(word))
}

/// `bir.range_select` {0xbc, 0x9b}.
fn range_select(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    let (src, r) = c.on_chip("src")?;
    let (dst, w) = c.on_chip("dst")?;
    let (reduce_res, wr) = c.on_chip("reduce_res")?;
    let mut reads = vec![r];
    let bound0 = bound(c, "bound0", "bound0_ap", &mut reads)?;
    let bound1 = bound(c, "bound1", "bound1_ap", &mut reads)?;
    let start = c.view.int_attr("range_start").unwrap_or(0);
    let fill = c.view.float_attr("fill_value").unwrap_or(f32::MIN as f64);
    Ok(Built {
        op: Op::RangeSelect(sundial_codegen::model::RangeSelect {
            src,
            dst,
            lower_bound: i32::try_from(start)
                .map_err(|_| format!("attribute 'range_start': {start} is not 32-bit"))?,
            upper_bound: fill as f32,
            comp_op0: c.alu("comp_op0")?,
            comp_op1: c.alu("comp_op1")?,
            bound0,
            bound1,
            reduce_cmd: accumulation(c)?,
            reduce_res,
        }),
        reads,
        writes: vec![w, wr],
    })
}

/// The on-chip side of a DMA_INDIRECT1D transfer: one channel per partition from partition
/// 0, each channel's elements contiguous. ASSUMPTION (no source states how a 2-D tile maps
/// onto the 1-D pattern): the channel's address is `start + channel * step * elem_size`, as
/// an index scales the table side (bundle-layouts §5: eff = start + index * step_elem *
/// elem_size), so `step` is the partition stride in elements and `num` the elements of one
/// partition.
fn indirect_on_chip(
    s: &StaticAp,
    name: &str,
    arch: &ArchModel,
) -> Result<sundial_codegen::model::DmaPattern1d, String> {
    use sundial_codegen::formats::pe_dma::DMA_INDIRECT_IDX_CHANNELS;
    if s.space == Space::Hbm {
        return Err(format!(
            "attribute '{name}': an HBM side: this lowering moves between an HBM table and an on-chip tile (one partition per index channel); an HBM-to-HBM indirect transfer is not derived"
        ));
    }
    if s.partition != 0 || s.num_partitions != DMA_INDIRECT_IDX_CHANNELS as i64 {
        return Err(format!(
            "attribute '{name}': partitions {}..{}: a DMA_INDIRECT1D transfer has {DMA_INDIRECT_IDX_CHANNELS} index channels (idx_num_active_channels), one per partition from partition 0",
            s.partition,
            s.partition + s.num_partitions
        ));
    }
    let offset = match s.start {
        BStart::Offset(o) => o,
        BStart::Register(_) => {
            return Err(format!(
                "attribute '{name}': a register-sourced start (DMA_INDIRECT1D takes immediate data addresses here)"
            ));
        }
    };
    let num = contiguous(&s.dims, name)?;
    let elem = s.dtype.byte_size() as i64;
    let stride = match s.space {
        Space::Sbuf => arch.sbuf_partition_stride,
        _ => arch.psum_partition_stride,
    } as i64;
    let offset = u32::try_from(offset)
        .map_err(|_| format!("attribute '{name}': offset {offset} is not 32-bit"))?;
    let addr = address::on_chip(s.space, 0, offset, arch)
        .ok_or_else(|| format!("attribute '{name}': no DMA address"))?;
    Ok(sundial_codegen::model::DmaPattern1d {
        addr,
        step: i32::try_from(stride / elem)
            .map_err(|_| format!("attribute '{name}': the partition step does not fit 32 bits"))?,
        num,
        elem_size: elem as u16,
    })
}

/// The element count of contiguous dims (a single step-1 run after canonicalisation).
fn contiguous(dims: &[(i64, i64)], name: &str) -> Result<u16, String> {
    use sundial_codegen::formats::pe_dma::DMA_INDIRECT_MAX_NUM;
    let merged = crate::phys::canonical_dims(dims, i64::MAX)
        .map_err(|m| format!("attribute '{name}': {m}"))?;
    match merged.as_slice() {
        [(1, n)] if *n <= DMA_INDIRECT_MAX_NUM as i64 => Ok(*n as u16),
        [(1, n)] => Err(format!(
            "attribute '{name}': {n} elements per index; DMA_INDIRECT1D moves at most {DMA_INDIRECT_MAX_NUM} (num_elem)"
        )),
        _ => Err(format!(
            "attribute '{name}': the elements of one index are not contiguous ({merged:?}): DMA_INDIRECT1D's pattern is one-dimensional"
        )),
    }
}

/// The table side of a DMA_INDIRECT1D transfer: the HBM data pattern, whose first dimension is
/// the indirect one (its step scales an index: `step_elem`), the rest one index's contiguous
/// elements (`num_elem`).
fn indirect_table(
    data: &StaticAp,
    name: &str,
) -> Result<sundial_codegen::model::DmaPattern1d, String> {
    if data.space != Space::Hbm {
        return Err(format!(
            "attribute '{name}': the indirect data is in {}: this lowering gathers from or scatters into an HBM table (an on-chip table is a gather or an indirect_copy)",
            data.space
        ));
    }
    let Some((&(step, _), rest)) = data.dims.split_first() else {
        return Err(format!(
            "attribute '{name}': the table pattern has no indirect dimension"
        ));
    };
    let offset = match data.start {
        BStart::Offset(o) => o as u64,
        BStart::Register(_) => {
            return Err(format!(
                "attribute '{name}': a register-sourced table start"
            ));
        }
    };
    let tensor = data
        .tensor
        .ok_or_else(|| format!("attribute '{name}': an HBM table without 'tensor'"))?;
    Ok(sundial_codegen::model::DmaPattern1d {
        addr: address::hbm(tensor, offset).map_err(|m| format!("attribute '{name}': {m}"))?,
        step: i32::try_from(step)
            .map_err(|_| format!("attribute '{name}': step {step} is not 32-bit"))?,
        num: contiguous(rest, name)?,
        elem_size: data.dtype.byte_size() as u16,
    })
}

/// The index vector's start: in SBUF from partition 0, one 32-bit index per channel.
fn index_start(index: &StaticAp, name: &str) -> Result<Start, String> {
    use sundial_codegen::formats::pe_dma::DMA_INDIRECT_IDX_CHANNELS;
    if !matches!(index.dtype, BirDtype::Uint32 | BirDtype::Int32) {
        return Err(format!(
            "attribute '{name}': {} indices: the DMA engine reads 32-bit indices (bundle-layouts §5: the DGE index dtype is UINT32)",
            index.dtype.name()
        ));
    }
    if index.num_partitions != DMA_INDIRECT_IDX_CHANNELS as i64 || index.partition != 0 {
        return Err(format!(
            "attribute '{name}': the index vector spans partitions {}..{}: DMA_INDIRECT1D reads {DMA_INDIRECT_IDX_CHANNELS} index channels from SBUF partition 0",
            index.partition,
            index.partition + index.num_partitions
        ));
    }
    Ok(model_ap(index, name)?.start)
}

/// `bir.dma_indirect` 0xbb: a gather (`src` indirect: direction load, the index at
/// `src_idx_start_addr`) or a scatter (`dst` indirect: save, `dst_idx_start_addr`); the other
/// index word is the inert SBUF address 0. No bound-check register (none is loadable): indices
/// are not range-checked by the hardware.
fn dma_indirect(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    use sundial_codegen::model::{DmaIndirect, DmaIndirectDirection};
    let inert = Start::Imm(MemLoc {
        space: CSpace::Sbuf,
        partition: 0,
        offset: 0,
    });
    let compute_op = match c.view.str_attr("compute_op").as_deref() {
        None | Some("bypass") => DgeComputeOp::None,
        Some("add") => DgeComputeOp::Add,
        Some("mult") => DgeComputeOp::Multiply,
        Some("max") => DgeComputeOp::Max,
        Some("min") => DgeComputeOp::Min,
        Some(other) => {
            return Err(format!(
                "attribute 'compute_op': '{other}' has no DGE_COMPUTE_OP code"
            ));
        }
    };
    if c.view.str_attr("oob_mode").as_deref() == Some("skip") {
        return Err("attribute 'oob_mode': skipping out-of-bounds indices needs a loaded bound-check register".into());
    }
    let (direction, src, dst, src_idx, dst_idx, in_dtype, out_dtype, reads, writes) = match (
        c.phys("src")?,
        c.phys("dst")?,
    ) {
        (PhysAp::Indirect { index, data, .. }, PhysAp::Static(d)) => (
            DmaIndirectDirection::Load,
            indirect_table(&data, "src")?,
            indirect_on_chip(&d, "dst", c.arch)?,
            index_start(&index, "src")?,
            inert,
            data.dtype,
            d.dtype,
            // The whole table may be read: the indices are known only at run time.
            vec![region(&index)?, table_region(&data)?],
            vec![region(&d)?],
        ),
        (PhysAp::Static(s), PhysAp::Indirect { index, data, .. }) => (
            DmaIndirectDirection::Save,
            indirect_on_chip(&s, "src", c.arch)?,
            indirect_table(&data, "dst")?,
            inert,
            index_start(&index, "dst")?,
            s.dtype,
            data.dtype,
            vec![region(&index)?, region(&s)?],
            vec![table_region(&data)?],
        ),
        _ => {
            return Err("needs exactly one of 'src' and 'dst' to be tensor-indirect (the load or the save direction)".into());
        }
    };
    if src.num != dst.num {
        return Err(format!(
            "attributes 'src' and 'dst': {} elements per index on one side, {} on the other",
            src.num, dst.num
        ));
    }
    if in_dtype.byte_size() != out_dtype.byte_size() {
        return Err(format!(
            "converts {} to {}: no source pins a converting DMA_INDIRECT1D",
            in_dtype.name(),
            out_dtype.name()
        ));
    }
    Ok(Built {
        op: Op::DmaIndirect(DmaIndirect {
            direction,
            // oob_mode error (skip is refused above).
            idx_bound_is_err: true,
            non_unique_dst_idx: direction == DmaIndirectDirection::Save
                && !c.view.bool_attr("unique_indices"),
            src,
            dst,
            src_idx,
            dst_idx,
            in_dtype,
            out_dtype,
            src_idx_bound_reg: BoundCheckReg::OFF,
            dst_idx_bound_reg: BoundCheckReg::OFF,
            compute_op,
            completion: DmaCompletion::default(),
        }),
        reads,
        writes,
    })
}

/// Every byte of the HBM tensor an indirect pattern's table is (any index may be read or
/// written): from its start to the end of its address window.
fn table_region(data: &StaticAp) -> Result<Region, String> {
    let tensor = data
        .tensor
        .ok_or("an HBM table without 'tensor': a DMA needs the tensor it addresses")?;
    Ok(Region::hbm(tensor as u32, 0..address::HBM_WINDOW))
}

fn tensor_tensor(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    let (in0, r0) = c.on_chip("src0")?;
    let (in1, r1) = c.on_chip("src1")?;
    let (dst, w) = c.on_chip("dst")?;
    Ok(Built {
        op: Op::TensorTensor(TensorTensor {
            in0,
            in1,
            dst,
            op: c.alu("op")?,
        }),
        reads: vec![r0, r1],
        writes: vec![w],
    })
}

/// A TensorScalar operand: the immediate (an integer on the bitvec opcode 0x53, fp32
/// otherwise), else the operand tile's start address as a pointer (`IMM_SRC` ptr), else 0.
fn scalar(
    c: &Ctx<'_, '_, '_>,
    imm: &str,
    tile: &str,
    int: bool,
    reads: &mut Vec<Region>,
) -> Result<ImmOperand, String> {
    if let Some(a) = c.view.attr(imm) {
        if int {
            let v = int_value(a).ok_or_else(|| {
                format!("attribute '{imm}' must be an integer on the bitvec form")
            })?;
            let bits = u32::try_from(v)
                .or_else(|_| i32::try_from(v).map(|x| x as u32))
                .map_err(|_| format!("attribute '{imm}': {v} does not fit 32 bits"))?;
            return Ok(ImmOperand::Int(bits));
        }
        let v = float_value(a)
            .or_else(|| int_value(a).map(|i| i as f64))
            .ok_or_else(|| format!("attribute '{imm}' must be a number"))?;
        return Ok(ImmOperand::Fp32(v as f32));
    }
    if c.view.attr(tile).is_some() {
        return tile_pointer(c, tile, reads);
    }
    Ok(if int {
        ImmOperand::Int(0)
    } else {
        ImmOperand::Fp32(0.0)
    })
}

/// A per-partition operand tile as an `IMM_SRC` ptr operand (the tile is read).
fn tile_pointer(
    c: &Ctx<'_, '_, '_>,
    tile: &str,
    reads: &mut Vec<Region>,
) -> Result<ImmOperand, String> {
    let s = c.static_ap(tile)?;
    reads.push(region(&s)?);
    let ap = model_ap(&s, tile)?;
    // ASSUMPTION: the PARTITION_OFFSET pointer is the operand's start address word (each
    // partition reads its own value there).
    let word = sundial_codegen::addr4::word(&ap.start, c.arch)
        .map_err(|e| format!("attribute '{tile}': {e}"))?;
    Ok(ImmOperand::Ptr(word))
}

fn tensor_scalar(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    let (src, r) = c.on_chip("src")?;
    let (dst, w) = c.on_chip("dst")?;
    // The bitvec opcode takes integer immediates (the encoder's rule, `ops::compute3d`).
    let int = c.opcodes == [0x53];
    let mut reads = vec![r];
    let imm0 = scalar(c, "imm0", "operand0", int, &mut reads)?;
    let imm1 = scalar(c, "imm1", "operand1", int, &mut reads)?;
    Ok(Built {
        op: Op::TensorScalar(TensorScalar {
            src,
            dst,
            op0: c.alu("op0")?,
            op1: c.alu("op1")?,
            reverse0: c.view.bool_attr("reverse0"),
            reverse1: c.view.bool_attr("reverse1"),
            imm0,
            imm1,
            accumulate: BirAccumulation::Idle,
            form: TsForm::Plain,
        }),
        reads,
        writes: vec![w],
    })
}

fn tensor_copy(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    let (src, r) = c.on_chip("src")?;
    let (dst, w) = c.on_chip("dst")?;
    Ok(Built {
        op: Op::TensorCopy(TensorCopy { src, dst }),
        reads: vec![r],
        writes: vec![w],
    })
}

fn reciprocal(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    let (src, r) = c.on_chip("src")?;
    let (dst, w) = c.on_chip("dst")?;
    Ok(Built {
        op: Op::Reciprocal(Reciprocal { src, dst }),
        reads: vec![r],
        writes: vec![w],
    })
}

/// The 32-bit fill pattern of `value` in `dtype`: the element's bits (zero-extended).
pub fn fill_bits(value: f64, is_int: bool, dtype: BirDtype) -> Result<u32, String> {
    let int_in = |lo: i64, hi: i64| -> Result<u32, String> {
        if !is_int && value.fract() != 0.0 {
            return Err(format!(
                "{value} is not an integer, and the fill is {}",
                dtype.name()
            ));
        }
        if value < lo as f64 || value > hi as f64 {
            return Err(format!("{value} does not fit {}", dtype.name()));
        }
        let v = value as i64;
        // Two's complement in the element's width.
        let width = (hi - lo + 1).ilog2();
        Ok((v as u64 & ((1u64 << width) - 1)) as u32)
    };
    match dtype {
        BirDtype::Float32 | BirDtype::Float32r => Ok((value as f32).to_bits()),
        BirDtype::Bfloat16 => Ok(half::bf16::from_f64(value).to_bits() as u32),
        BirDtype::Float16 => Ok(half::f16::from_f64(value).to_bits() as u32),
        BirDtype::Uint8 => int_in(0, u8::MAX as i64),
        BirDtype::Int8 => int_in(i8::MIN as i64, i8::MAX as i64),
        BirDtype::Uint16 => int_in(0, u16::MAX as i64),
        BirDtype::Int16 => int_in(i16::MIN as i64, i16::MAX as i64),
        BirDtype::Uint32 => int_in(0, u32::MAX as i64),
        BirDtype::Int32 => int_in(i32::MIN as i64, i32::MAX as i64),
        // The x4 containers are only ever filled with 0 (the NISA verifier's x4 rule).
        BirDtype::Float8E4m3fnX4 | BirDtype::Float8E5m2X4 | BirDtype::Float4E2m1fnX4
            if value == 0.0 =>
        {
            Ok(0)
        }
        other => Err(format!(
            "the fill pattern of {value} in {} is not computed (no 32-bit element encoding here)",
            other.name()
        )),
    }
}

fn memset(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    let (dst, w) = c.on_chip("dst")?;
    let a = c.view.attr("value").ok_or("attribute 'value' is missing")?;
    let (value, is_int) = match int_value(a) {
        Some(i) => (i as f64, true),
        None => (
            float_value(a).ok_or("attribute 'value' must be a number")?,
            false,
        ),
    };
    let fill_value =
        fill_bits(value, is_int, dst.dtype()).map_err(|m| format!("attribute 'value': {m}"))?;
    Ok(Built {
        op: Op::Memset(Memset { dst, fill_value }),
        reads: vec![],
        writes: vec![w],
    })
}

fn tensor_reduce(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    let (src, r) = c.on_chip("src")?;
    let (dst, w) = c.on_chip("dst")?;
    let n = c.view.int_attr("num_reduce_dims").unwrap_or(1);
    let axis = usize::try_from(n - 1)
        .ok()
        .and_then(|i| BirAxisList::ALL.get(i).copied())
        .ok_or_else(|| format!("attribute 'num_reduce_dims': {n} is not 1..4"))?;
    let reduce = TensorReduce {
        src,
        dst,
        op: c.alu("op")?,
        axis,
        negated: c.view.bool_attr("negate"),
    };
    let op = if c.opcodes == [0x52] {
        Op::TensorReduceBitvec(reduce)
    } else {
        Op::TensorReduceArith(reduce)
    };
    Ok(Built {
        op,
        reads: vec![r],
        writes: vec![w],
    })
}

fn iota(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    let (dst, w) = c.on_chip("dst")?;
    let pattern = c
        .view
        .i64_array("pattern")
        .ok_or("attribute 'pattern' is missing")?;
    let mut gen_dims = Dims::new();
    for pair in pattern.chunks(2) {
        let [step, num] = pair else {
            return Err("attribute 'pattern': expected [step, num] pairs".into());
        };
        let d = Dim::new(
            i16::try_from(*step)
                .map_err(|_| format!("attribute 'pattern': step {step} is not 16-bit"))?,
            u16::try_from(*num)
                .map_err(|_| format!("attribute 'pattern': num {num} is not 16-bit"))?,
        );
        gen_dims
            .try_push(d)
            .map_err(|e| format!("attribute 'pattern': {e}"))?;
    }
    let int32 = |name: &str| -> Result<i32, String> {
        let v = c.view.int_attr(name).unwrap_or(0);
        i32::try_from(v).map_err(|_| format!("attribute '{name}': {v} is not 32-bit"))
    };
    Ok(Built {
        op: Op::Iota(Iota {
            pattern: GenPattern {
                base: int32("base")?,
                dims: gen_dims,
            },
            dst,
            channel_multiplier: int32("channel_multiplier")?,
        }),
        reads: vec![],
        writes: vec![w],
    })
}

/// The instruction model's accumulation command of a BIR `reduce_cmd`: NKI's codes are the
/// hardware ACCUM_CMD codes, which codegen names with `accum_from_wire`.
fn accumulation(c: &Ctx<'_, '_, '_>) -> Result<BirAccumulation, String> {
    let text = c
        .view
        .str_attr("reduce_cmd")
        .ok_or("attribute 'reduce_cmd' is missing")?;
    let cmd = sundial_dialects::enums::ReduceCmd::parse(&text)
        .ok_or_else(|| format!("attribute 'reduce_cmd': unknown command '{text}'"))?;
    sundial_codegen::enums::accum_from_wire(cmd.code() as u8)
        .ok_or_else(|| format!("attribute 'reduce_cmd': '{text}' has no ACCUM_CMD code"))
}

/// An fp32 immediate attribute (0.0 when absent).
fn fp32(c: &Ctx<'_, '_, '_>, name: &str) -> Result<ImmOperand, String> {
    match c.view.attr(name) {
        None => Ok(ImmOperand::Fp32(0.0)),
        Some(a) => float_value(a)
            .or_else(|| int_value(a).map(|i| i as f64))
            .map(|v| ImmOperand::Fp32(v as f32))
            .ok_or_else(|| format!("attribute '{name}' must be a number")),
    }
}

/// `bir.tensor_scalar_cache`: the cache-reduce form {0x9a, 0x9b} (ASSUMPTION: the reduction op
/// is the S3D3_TS `op1` stage, the second ALU stage of the bundle, with `imm1` unused) or the
/// cumulative form 0xe6 (`op0`/`imm0`, then `op1`/`imm1` against the running value).
fn tensor_scalar_cache(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    let (src, r) = c.on_chip("src")?;
    let (dst, w) = c.on_chip("dst")?;
    let mut writes = vec![w];
    let (op1, imm1, form) = match c.opcodes {
        [0x9a, 0x9b] => {
            let (res, rw) = c.on_chip("reduce_res")?;
            writes.push(rw);
            (
                c.alu("reduce_op")?,
                ImmOperand::Fp32(0.0),
                TsForm::CacheReduce { reduce_res: res },
            )
        }
        [0xe6] => (c.alu("op1")?, fp32(c, "imm1")?, TsForm::CacheCumulative),
        other => {
            return Err(format!(
                "attribute 'opcodes': {other:x?} is neither the cache-reduce nor the cumulative form"
            ));
        }
    };
    let mut reads = vec![r];
    let imm0 = scalar(c, "imm0", "operand0", false, &mut reads)?;
    Ok(Built {
        op: Op::TensorScalar(TensorScalar {
            src,
            dst,
            op0: c.alu("op0")?,
            op1,
            reverse0: c.view.bool_attr("reverse0"),
            reverse1: false,
            imm0,
            imm1,
            accumulate: accumulation(c)?,
            form,
        }),
        reads,
        writes,
    })
}

/// `bir.read_accumulator` on the Scalar engine (0x24). The Vector read-out 0x9b exists in the
/// model only as a companion bundle.
/// `bir.activation` -> ACTIVATE 0x21: the scale is the `scale_ap` tile's pointer or the `scale`
/// immediate (1.0 by default), the bias the `bias_ap` tile's pointer or 0.0, the second
/// immediate `alpha` (0.0 by default) for the functions that take one.
fn activation(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    let (src, r) = c.on_chip("src")?;
    let (dst, w) = c.on_chip("dst")?;
    let name = c
        .view
        .str_attr("func")
        .ok_or("attribute 'func' is missing")?;
    let func = ActivationFunc::from_name(&name)
        .ok_or_else(|| format!("attribute 'func': unknown activation function '{name}'"))?;
    let mut reads = vec![r];
    let scale = if c.view.attr("scale_ap").is_some() {
        tile_pointer(c, "scale_ap", &mut reads)?
    } else {
        ImmOperand::Fp32(c.view.float_attr("scale").unwrap_or(1.0) as f32)
    };
    let bias = if c.view.attr("bias_ap").is_some() {
        tile_pointer(c, "bias_ap", &mut reads)?
    } else {
        ImmOperand::Fp32(0.0)
    };
    let imm = match (func.takes_imm(), c.view.attr("alpha").is_some()) {
        (true, _) => Some(fp32(c, "alpha")?),
        (false, false) => None,
        (false, true) => {
            return Err(format!(
                "attribute 'alpha': function '{name}' takes no second immediate"
            ));
        }
    };
    Ok(Built {
        op: Op::Activation(sundial_codegen::model::Activation {
            src,
            dst,
            func,
            bias,
            scale,
            imm,
            accumulate: accumulation(c)?,
        }),
        reads,
        writes: vec![w],
    })
}

fn read_accumulator(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    if c.opcodes != [0x24] {
        return Err("a standalone Vector read-out (0x9b) has no instruction-model op".into());
    }
    if c.view.bool_attr("negate") {
        return Err("attribute 'negate': the D1_RD read-out is encoded with negated = 0".into());
    }
    let (dst, w) = c.on_chip("dst")?;
    Ok(Built {
        op: Op::ActivationReadAccumulator(sundial_codegen::model::ActivationReadAccumulator {
            dst,
        }),
        reads: vec![],
        writes: vec![w],
    })
}

fn copy_predicated(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    if c.view.bool_attr("reverse_pred") {
        return Err(
            "attribute 'reverse_pred': COPY_PREDICATED has no inverted-predicate field".into(),
        );
    }
    let (mask, rm) = c.on_chip("predicate")?;
    let (src, r) = c.on_chip("src")?;
    let (dst, w) = c.on_chip("dst")?;
    Ok(Built {
        op: Op::CopyPredicated(sundial_codegen::model::CopyPredicated { mask, src, dst }),
        // The destination keeps its value where the predicate is false: it is read too.
        reads: vec![rm, r, w.clone()],
        writes: vec![w],
    })
}

/// `bir.cross_lane_reduce`: the partition-axis reduction. ASSUMPTION (no source states it):
/// a destination with the source's elements per partition folds the partitions
/// (`REDUCE_AXIS` PARTITIONS), a one-element destination folds everything (ALL); the average's
/// `scale` is 1/N over the elements folded into each result.
fn cross_lane_reduce(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    use sundial_codegen::model::{CrossLaneAxis, CrossLaneReduce, CrossLaneReduceOp as R};
    let (src, r) = c.on_chip("src")?;
    let (dst, w) = c.on_chip("dst")?;
    let op = match c.alu("op")? {
        BirAluOp::Add => R::Add,
        BirAluOp::Average => R::Average,
        BirAluOp::Max => R::Max,
        BirAluOp::BitwiseOr => R::BitwiseOr,
        BirAluOp::BitwiseAnd => R::BitwiseAnd,
        BirAluOp::BitwiseXor => R::BitwiseXor,
        other => {
            return Err(format!(
                "attribute 'op': {other:?} is not a cross-lane reduction"
            ));
        }
    };
    let (s_per, d_per) = (
        src.num_elements_per_partition(),
        dst.num_elements_per_partition(),
    );
    let (axis, folded) = if d_per == s_per && dst.partitions() == 1 {
        (CrossLaneAxis::Partitions, src.partitions() as u64)
    } else if d_per == 1 && dst.partitions() == 1 {
        (CrossLaneAxis::All, s_per * src.partitions() as u64)
    } else {
        return Err(format!(
            "attribute 'dst': {} partitions x {d_per} elements is neither one row of the source's {s_per} elements nor a single element",
            dst.partitions()
        ));
    };
    let scale = if op == R::Average {
        1.0 / folded as f32
    } else {
        1.0
    };
    Ok(Built {
        op: if op.is_bitvec() {
            Op::CrossLaneReduceBitvec(CrossLaneReduce {
                src,
                dst,
                op,
                axis,
                scale,
            })
        } else {
            Op::CrossLaneReduceArith(CrossLaneReduce {
                src,
                dst,
                op,
                axis,
                scale,
            })
        },
        reads: vec![r],
        writes: vec![w],
    })
}

/// A lane map attribute (32 entries, 0..31 or 255).
fn lanes(c: &Ctx<'_, '_, '_>, name: &str) -> Result<Vec<u8>, String> {
    let Some(values) = c.view.i64_array(name) else {
        return Ok(Vec::new());
    };
    values
        .into_iter()
        .map(|m| u8::try_from(m).map_err(|_| format!("attribute '{name}': lane {m} is not a byte")))
        .collect()
}

fn stream_shuffle(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    let (src, r) = c.on_chip("src")?;
    let (dst, w) = c.on_chip("dst")?;
    Ok(Built {
        op: Op::StreamShuffle(sundial_codegen::model::StreamShuffle {
            src,
            dst,
            mask: lanes(c, "shuffle_mask")?,
        }),
        reads: vec![r],
        writes: vec![w],
    })
}

/// `bir.stream_transpose`: {0x6b}, or {0x6b, 0x69} with the `lane_mask` of its 0x69 half.
fn stream_transpose(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    let (src, r) = c.on_chip("src")?;
    let (dst, w) = c.on_chip("dst")?;
    Ok(Built {
        op: Op::StreamTranspose(sundial_codegen::model::StreamTranspose {
            src,
            dst,
            mask: lanes(c, "lane_mask")?,
        }),
        reads: vec![r],
        writes: vec![w],
    })
}

fn gather(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    let (data, rd) = c.on_chip("data")?;
    let (index, ri) = c.on_chip("index")?;
    let (dst, w) = c.on_chip("dst")?;
    Ok(Built {
        op: Op::Gather(sundial_codegen::model::Gather { data, index, dst }),
        reads: vec![rd, ri],
        writes: vec![w],
    })
}

/// `bir.matmult` {0x01, 0x02}: LDWEIGHTS of the stationary operand, MATMUL of the moving one
/// into PSUM; no fp32 split (`PE_FP32MODE` None), no performance mode, no quantisation offset,
/// no PSUM zero region.
fn matmult(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    use sundial_codegen::model::{Matmul, PeFp32Mode, PerfOptMode};
    if c.view.str_attr("perf_mode").is_some_and(|m| m != "none") {
        return Err("attribute 'perf_mode': only 'none' has a pinned PERF_OPT_MODE code".into());
    }
    if c.view.bool_attr("tf32") {
        return Err(
            "attribute 'tf32': the PE_FP32MODE of a TF32 matmul is not derived here".into(),
        );
    }
    let (weights, rw) = c.on_chip("stationary")?;
    let (moving, rm) = c.on_chip("moving")?;
    let (dst, w) = c.on_chip("dst")?;
    let flags = c.view.int_attr("accumulate_flags").unwrap_or(3);
    Ok(Built {
        op: Op::Matmul(Matmul {
            weights,
            moving,
            dst,
            fp32_mode: PeFp32Mode::None,
            perf_opt: PerfOptMode::None,
            quant_offset: 0,
            psum_accumulate_flags: u8::try_from(flags)
                .map_err(|_| format!("attribute 'accumulate_flags': {flags} is not a byte"))?,
            psum_zero_region: 0,
            transpose: c.view.bool_attr("is_transpose"),
        }),
        reads: vec![rw, rm],
        writes: vec![w],
    })
}

fn quantize_mx(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    let (src, r) = c.on_chip("src")?;
    let (dst, w) = c.on_chip("dst")?;
    let (dst_scale, ws) = c.on_chip("dst_scale")?;
    Ok(Built {
        op: Op::QuantizeMx(sundial_codegen::model::QuantizeMx {
            src,
            dst,
            dst_scale,
        }),
        reads: vec![r],
        writes: vec![w, ws],
    })
}

/// `bir.matmult_mx` {0x09, 0x0a}: static MX operands, no PSUM zero region.
fn matmult_mx(c: &Ctx<'_, '_, '_>) -> Result<Built, String> {
    let (weights, r0) = c.on_chip("stationary")?;
    let (weights_scale, r1) = c.on_chip("stationary_scale")?;
    let (moving, r2) = c.on_chip("moving")?;
    let (moving_scale, r3) = c.on_chip("moving_scale")?;
    let (dst, w) = c.on_chip("dst")?;
    let flags = c.view.int_attr("accumulate_flags").unwrap_or(3);
    Ok(Built {
        op: Op::MatmulMx(sundial_codegen::model::MatmulMx {
            weights,
            weights_scale,
            moving,
            moving_scale,
            dst,
            psum_accumulate_flags: u8::try_from(flags)
                .map_err(|_| format!("attribute 'accumulate_flags': {flags} is not a byte"))?,
            psum_zero_region: 0,
        }),
        reads: vec![r0, r1, r2, r3],
        writes: vec![w],
    })
}

// ---------------------------------------------------------------- driver

/// Lowers one BIR op.
pub fn lower_op<'c, 'a>(
    op: OperationRef<'c, 'a>,
    arch: &ArchModel,
) -> Result<Lowered<'c, 'a>, String> {
    let view = View::new(op)?.ok_or("is not a BIR op")?;
    let name = view.mnemonic();
    let lowering = LOWERINGS
        .iter()
        .find(|l| l.bir == name)
        .ok_or_else(|| format!("has no lowering to a codegen instruction (bir.{name})"))?;
    let opcodes: Vec<u8> = view
        .i64_array("opcodes")
        .unwrap_or_default()
        .into_iter()
        .filter_map(|o| u8::try_from(o).ok())
        .collect();
    let engine_name = view.str_attr("engine").unwrap_or_default();
    let engine = Engine::from_name(&engine_name)
        .ok_or_else(|| format!("attribute 'engine': '{engine_name}' is not a concrete engine"))?;
    let ctx = Ctx {
        view: &view,
        arch,
        opcodes: &opcodes,
    };
    let built = (lowering.lower)(&ctx)?;
    let inst = Instruction {
        id: 0,
        engine,
        sync: Default::default(),
        op: built.op,
    };
    Ok(Lowered {
        op,
        inst,
        opcodes,
        reads: built.reads,
        writes: built.writes,
    })
}

/// Whether `op` is a BIR op.
pub fn is_bir(op: &OperationRef<'_, '_>) -> bool {
    crate::ir::op_name(op).starts_with("bir.")
}
