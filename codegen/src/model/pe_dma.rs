//! The instruction-model ops of the PE, MX, DMA and event formats: `Matmul` ({0x01 LDWEIGHTS,
//! 0x02 MATMUL}), `MatmulMx` ({0x09 LDWEIGHTS_MX, 0x0A MATMUL_MX}), `QuantizeMx` (0xE3),
//! `DmaDirect2d` (0xB8), `DmaIndirect` (0xBB) and `EventSemaphore` (0xA0), with their operand
//! types and text form. Every field names the wire field it ends up in (`formats::pe_dma`).

use std::fmt;

use super::{AccessPattern, Start, SyncUpdate, SyncWait};
use crate::dtype::BirDtype;
use crate::formats::pe_dma::{BC_DISABLE_OOB_ERROR_NOTIF, BC_ENABLED, BC_REG_MASK};

/// `PE_FP32MODE` (header): how the PE array splits an fp32 operand. Codes 0..3 as the header
/// lists them (None=0, Low=1, High=2, Low_High=3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PeFp32Mode {
    /// 0: not an fp32 input.
    None = 0,
    /// 1: low half.
    Low = 1,
    /// 2: high half.
    High = 2,
    /// 3: both halves.
    LowHigh = 3,
}

impl PeFp32Mode {
    /// Every mode, by code.
    pub const ALL: [PeFp32Mode; 4] = [
        PeFp32Mode::None,
        PeFp32Mode::Low,
        PeFp32Mode::High,
        PeFp32Mode::LowHigh,
    ];
}

/// `PERF_OPT_MODE` (header names None/DoubleRow/DoubleColumn/DoublePixel). Only `None` (0) has
/// a pinned code; the encoder refuses the others as unpinned. The discriminants are the listing
/// order, used only to lift a nonzero byte to a value the encoder then refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PerfOptMode {
    /// 0.
    None = 0,
    /// 1.
    DoubleRow = 1,
    /// 2.
    DoubleColumn = 2,
    /// 3.
    DoublePixel = 3,
}

impl PerfOptMode {
    /// Every mode, by code.
    pub const ALL: [PerfOptMode; 4] = [
        PerfOptMode::None,
        PerfOptMode::DoubleRow,
        PerfOptMode::DoubleColumn,
        PerfOptMode::DoublePixel,
    ];
}

/// Matmul: one LDWEIGHTS (0x01) loading the stationary operand into the PE array, then one
/// MATMUL (0x02) streaming the moving operand and writing PSUM. `num_active_rows` (the
/// contraction depth K) is the partition count of `weights` and `moving`; `num_active_cols`
/// (N) is the weights' elements per partition and the partition count of `dst`. The row and
/// column group masks are derived from the start partitions (see `ops::matmul`).
#[derive(Clone, Debug, PartialEq)]
pub struct Matmul {
    /// Stationary operand (LDWEIGHTS +0x10, SBUF, static).
    pub weights: AccessPattern,
    /// Moving operand / ifmap (MATMUL +0x10, SBUF, static).
    pub moving: AccessPattern,
    /// Result (MATMUL +0x30, PSUM, static, 4-byte dtype).
    pub dst: AccessPattern,
    /// MATMUL +0x21 `fp32_mode`: must be `None` unless the moving dtype is fp32.
    pub fp32_mode: PeFp32Mode,
    /// LDWEIGHTS and MATMUL +0x23 `perf_opt` (only `None` is encodable).
    pub perf_opt: PerfOptMode,
    /// MATMUL +0x24 `quant_offset` (u16; sunda/cayman only, 0 on mariana).
    pub quant_offset: u16,
    /// MATMUL +0x2B `psum_accumulate_flags`, one of {0, 1, 2, 3, 4, 6}.
    pub psum_accumulate_flags: u8,
    /// MATMUL +0x2F `psum_zero_region`: 0 on sunda/cayman, 0..=3 on mariana.
    pub psum_zero_region: u8,
    /// LDWEIGHTS transpose (conflict #13): bit 0 (`xpose_mode`) of `LD_WEIGHT_FLAGS` (+0x2F) on
    /// mariana; unpinned on sunda/cayman (`transpose_mode` +0x22 has no known codes).
    pub transpose: bool,
}

/// MatmulMx (mariana): one LDWEIGHTS_MX (0x09) and one MATMUL_MX (0x0A), each with an
/// MXMEM_PATTERN1D / MXINDIRECT16B operand (data + E8M0 scale) at +0x10. K (`num_active_rows`)
/// is the operands' partition count, N (`num_active_cols`) the dst's.
#[derive(Clone, Debug, PartialEq)]
pub struct MatmulMx {
    /// Stationary MX data (LDWEIGHTS_MX +0x10 data word; its dtype is +0x20).
    pub weights: AccessPattern,
    /// Its E8M0 scale (the slot's scale word, SBUF only).
    pub weights_scale: AccessPattern,
    /// Moving MX data (MATMUL_MX +0x10).
    pub moving: AccessPattern,
    /// Its scale.
    pub moving_scale: AccessPattern,
    /// PSUM result (MATMUL_MX +0x30 MEM_PATTERN3D, static, 4-byte dtype at +0x28).
    pub dst: AccessPattern,
    /// MATMUL_MX +0x2B `psum_accumulate_flags`, one of {0, 1, 2, 3, 4, 6}.
    pub psum_accumulate_flags: u8,
    /// MATMUL_MX +0x2F `psum_zero_region`, 0..=3.
    pub psum_zero_region: u8,
}

/// QuantizeMx 0xE3 (mariana, Vector): a bf16/fp16 source to fp8 data plus E8M0 block scales.
#[derive(Clone, Debug, PartialEq)]
pub struct QuantizeMx {
    /// Source (+0x10 MEM_PATTERN3D, SBUF; its dtype is +0x22, its partitions +0x21).
    pub src: AccessPattern,
    /// Quantised data (+0x30 MXMEM_PATTERN1D data word; its dtype is +0x23).
    pub dst: AccessPattern,
    /// Scale destination (the slot's scale word, SBUF only).
    pub dst_scale: AccessPattern,
}

/// `DGE_COMPUTE_OP` (header): what a DMA does with the destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum DgeComputeOp {
    /// 0: plain copy.
    None = 0,
    /// 1.
    Add = 1,
    /// 2.
    Multiply = 2,
    /// 3.
    Max = 3,
    /// 4.
    Min = 4,
}

impl DgeComputeOp {
    /// Every op, by code.
    pub const ALL: [DgeComputeOp; 5] = [
        DgeComputeOp::None,
        DgeComputeOp::Add,
        DgeComputeOp::Multiply,
        DgeComputeOp::Max,
        DgeComputeOp::Min,
    ];
}

/// `BOUND_CHECK_REG` (header, 1 byte): `bc_reg:6, bc_disable_oob_error_notif:1, bc_enabled:1`.
/// Valid iff fully inert (all zero) or enabled with a register.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BoundCheckReg {
    /// `bc_enabled`.
    pub enabled: bool,
    /// `bc_reg`: the register holding the upper limit (0..=63).
    pub reg: u8,
    /// `bc_disable_oob_error_notif`.
    pub disable_oob_error_notif: bool,
}

impl BoundCheckReg {
    /// The inert register (no bound check).
    pub const OFF: BoundCheckReg = BoundCheckReg {
        enabled: false,
        reg: 0,
        disable_oob_error_notif: false,
    };

    /// The wire byte, or `None` when the fields do not fit (a register past 63, or fields set
    /// on a disabled check).
    pub fn byte(self) -> Option<u8> {
        if self.reg > BC_REG_MASK
            || (!self.enabled && (self.reg != 0 || self.disable_oob_error_notif))
        {
            return None;
        }
        let bit = |on: bool, b: u8| if on { b } else { 0 };
        Some(
            self.reg
                | bit(self.disable_oob_error_notif, BC_DISABLE_OOB_ERROR_NOTIF)
                | bit(self.enabled, BC_ENABLED),
        )
    }

    /// The fields of a wire byte.
    pub fn from_byte(b: u8) -> BoundCheckReg {
        BoundCheckReg {
            enabled: b & BC_ENABLED != 0,
            reg: b & BC_REG_MASK,
            disable_oob_error_notif: b & BC_DISABLE_OOB_ERROR_NOTIF != 0,
        }
    }
}

/// One side of a DMA_DIRECT2D transfer: an ADDR8 immediate (the caller resolves a tensor
/// identity plus byte offset to the 64-bit address), two dims (step in elements, count) and the
/// element size in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DmaPattern2d {
    /// Resolved byte address (ADDR8 immediate; must fit the assumed 48-bit field).
    pub addr: u64,
    /// `step_elem[0..2]` (int32, elements).
    pub step: [i32; 2],
    /// `num_elem[0..2]` (u16, nonzero).
    pub num: [u16; 2],
    /// `elem_size` in bytes (nonzero).
    pub elem_size: u16,
}

impl DmaPattern2d {
    /// Bytes moved: `num[0] * num[1] * elem_size`.
    pub fn bytes(&self) -> u64 {
        self.num[0] as u64 * self.num[1] as u64 * self.elem_size as u64
    }
}

/// DMA completion fields shared by DMA_DIRECT2D and DMA_INDIRECT1D.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DmaCompletion {
    /// `semaphore`: completion semaphore index.
    pub semaphore: u8,
    /// `sem_increment`.
    pub sem_increment: u8,
    /// `dma_configs.priority_class` (0..=4).
    pub priority_class: u8,
}

/// DMA_DIRECT2D 0xB8: a 2-D copy (or DGE compute) between two resolved addresses.
#[derive(Clone, Debug, PartialEq)]
pub struct DmaDirect2d {
    /// Source side (+0x10 ADDR8, +0x18 steps, +0x20 nums, +0x24 elem size).
    pub src: DmaPattern2d,
    /// Destination side (+0x28 ADDR8, +0x30 steps, +0x38 nums, +0x3C elem size).
    pub dst: DmaPattern2d,
    /// +0x3E.
    pub in_dtype: BirDtype,
    /// +0x3F.
    pub out_dtype: BirDtype,
    /// +0x0F `compute_op`.
    pub compute_op: DgeComputeOp,
    /// +0x26 `src_bound_reg`.
    pub src_bound_reg: BoundCheckReg,
    /// +0x27 `dst_bound_reg`.
    pub dst_bound_reg: BoundCheckReg,
    /// +0x0C/+0x0D/+0x0E.
    pub completion: DmaCompletion,
}

/// One side of a DMA_INDIRECT1D transfer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DmaPattern1d {
    /// Resolved byte address (ADDR8 immediate).
    pub addr: u64,
    /// `step_elem` (int32, elements).
    pub step: i32,
    /// `num_elem` (u16, 1..=4096).
    pub num: u16,
    /// `elem_size` in bytes.
    pub elem_size: u16,
}

/// The direction bits (`flags & 3`) of DMA_INDIRECT1D. The seed's validator accepts 1 and 2 as
/// the load / save direction; CONFLICT recorded: the header's `INDIRECT_DMA_ADDRESSING_MODE`
/// names 0 SRC (gather), 1 DST (scatter), 2 SRC_DST. The seed wins: 1 = load, 2 = save.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum DmaIndirectDirection {
    /// 1: indirect load (gather through `src_idx_start_addr`).
    Load = 1,
    /// 2: indirect save (scatter).
    Save = 2,
}

/// DMA_INDIRECT1D 0xBB: a gather or scatter through an index vector.
#[derive(Clone, Debug, PartialEq)]
pub struct DmaIndirect {
    /// `flags` bits 0-1.
    pub direction: DmaIndirectDirection,
    /// `flags` bit 2 `idx_bound_is_err`.
    pub idx_bound_is_err: bool,
    /// `flags` bit 3 `non_unique_dst_idx`.
    pub non_unique_dst_idx: bool,
    /// Source (+0x10 ADDR8, +0x18 step, +0x1C num, +0x1E elem size).
    pub src: DmaPattern1d,
    /// Destination (+0x20 .. +0x2F).
    pub dst: DmaPattern1d,
    /// +0x30 `src_idx_start_addr` (ADDR4): a register, or SBUF partition 0 / PSUM, u32-aligned.
    pub src_idx: Start,
    /// +0x34 `dst_idx_start_addr` (ADDR4): never register mode.
    pub dst_idx: Start,
    /// +0x38.
    pub in_dtype: BirDtype,
    /// +0x39.
    pub out_dtype: BirDtype,
    /// +0x3A `src_idx_bound_reg`.
    pub src_idx_bound_reg: BoundCheckReg,
    /// +0x3B `dst_idx_bound_reg`.
    pub dst_idx_bound_reg: BoundCheckReg,
    /// +0x3C `compute_op`.
    pub compute_op: DgeComputeOp,
    /// +0x0C/+0x0D and `dma_configs` (+0x3D).
    pub completion: DmaCompletion,
}

/// EventSemaphore 0xA0: two waits and one update, all in the bundle's own fields (conflict #9:
/// the update mode is written through the CC LUT {11,15,17,13,14,19}, `BirUpdateMode::wire`).
/// The instruction's `sync` must be empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EventSemaphore {
    /// `instr.events.wait_*`: +0x04 mode, +0x05 index, +0x08 value.
    pub wait0: Option<SyncWait>,
    /// `instr.events_extended.wait_*`: +0x20 mode, +0x21 index, +0x24 value.
    pub wait1: Option<SyncWait>,
    /// `instr.events_extended.update_*`: +0x22 mode, +0x23 index, +0x28 value (not written for
    /// inc/dec, as `setupSyncUpdate`).
    pub update: Option<SyncUpdate>,
}

// ---------------------------------------------------------------- text

/// The `name=value` fields of one of this group's ops (after the op name).
pub(super) fn fmt_fields(op: &super::Op, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    use super::Op;
    match op {
        Op::Matmul(o) => write!(
            f,
            " weights={} moving={} dst={} fp32_mode={:?} perf_opt={:?} quant_offset={} \
             psum_accumulate_flags={} psum_zero_region={} transpose={}",
            o.weights,
            o.moving,
            o.dst,
            o.fp32_mode,
            o.perf_opt,
            o.quant_offset,
            o.psum_accumulate_flags,
            o.psum_zero_region,
            o.transpose
        ),
        Op::MatmulMx(o) => write!(
            f,
            " weights={} weights_scale={} moving={} moving_scale={} dst={} \
             psum_accumulate_flags={} psum_zero_region={}",
            o.weights,
            o.weights_scale,
            o.moving,
            o.moving_scale,
            o.dst,
            o.psum_accumulate_flags,
            o.psum_zero_region
        ),
        Op::QuantizeMx(o) => write!(f, " src={} dst={} dst_scale={}", o.src, o.dst, o.dst_scale),
        Op::DmaDirect2d(o) => write!(
            f,
            " src={} dst={} in_dtype={:?} out_dtype={:?} compute_op={:?} src_bound_reg={} \
             dst_bound_reg={} {}",
            o.src,
            o.dst,
            o.in_dtype,
            o.out_dtype,
            o.compute_op,
            o.src_bound_reg,
            o.dst_bound_reg,
            o.completion
        ),
        Op::DmaIndirect(o) => write!(
            f,
            " direction={:?} idx_bound_is_err={} non_unique_dst_idx={} src={} dst={} \
             src_idx={} dst_idx={} in_dtype={:?} out_dtype={:?} src_idx_bound_reg={} \
             dst_idx_bound_reg={} compute_op={:?} {}",
            o.direction,
            o.idx_bound_is_err,
            o.non_unique_dst_idx,
            o.src,
            o.dst,
            o.src_idx,
            o.dst_idx,
            o.in_dtype,
            o.out_dtype,
            o.src_idx_bound_reg,
            o.dst_idx_bound_reg,
            o.compute_op,
            o.completion
        ),
        Op::EventSemaphore(o) => {
            let w = |f: &mut fmt::Formatter<'_>, name: &str, w: Option<SyncWait>| match w {
                Some(w) => write!(f, " {name}={:?}:{}:{}", w.mode, w.sem, w.value),
                None => write!(f, " {name}=-"),
            };
            w(f, "wait0", o.wait0)?;
            w(f, "wait1", o.wait1)?;
            match o.update {
                Some(u) => write!(f, " update={:?}:{}:{}", u.mode, u.sem, u.value),
                None => write!(f, " update=-"),
            }
        }
        _ => Ok(()),
    }
}

/// `0xADDR[STEP0:NUM0,STEP1:NUM1]xSIZE`.
impl fmt::Display for DmaPattern2d {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:#x}[{}:{},{}:{}]x{}",
            self.addr, self.step[0], self.num[0], self.step[1], self.num[1], self.elem_size
        )
    }
}

/// `0xADDR[STEP:NUM]xSIZE`.
impl fmt::Display for DmaPattern1d {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:#x}[{}:{}]x{}",
            self.addr, self.step, self.num, self.elem_size
        )
    }
}

/// `-` when inert, else `rN` with `!noerr` when the OOB notification is disabled and `!off`
/// when the check is disabled.
impl fmt::Display for BoundCheckReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == BoundCheckReg::OFF {
            return f.write_str("-");
        }
        write!(f, "r{}", self.reg)?;
        if self.disable_oob_error_notif {
            f.write_str("!noerr")?;
        }
        if !self.enabled {
            f.write_str("!off")?;
        }
        Ok(())
    }
}

/// `semaphore=S sem_increment=I priority_class=P`.
impl fmt::Display for DmaCompletion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "semaphore={} sem_increment={} priority_class={}",
            self.semaphore, self.sem_increment, self.priority_class
        )
    }
}
