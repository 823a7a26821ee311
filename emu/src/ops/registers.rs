//! Sequencer registers: NKI `register_alloc`, `register_move`, `register_load` (the NISA
//! `load_register`) and `register_store` (the NISA `store_register`).
//!
//! Semantics restated from the public docstrings: a virtual register holds a scalar of up
//! to 32 bits (each engine sequencer has 64 physical 32-bit registers; the compiler maps
//! virtual registers onto them, so the emulator keys registers by a virtual id and sets no
//! count limit). `register_alloc(x)` allocates one, uninitialised or holding the integer
//! `x`; `register_move` sets one to an immediate or to another register's value;
//! `register_load` reads the single element of a one-element HBM or SBUF tensor (`[1]` or
//! `[1, 1]`); `register_store` writes a register to such a tensor.
//!
//! Values: a register holds an integer in `[-2^31, 2^32)`, the values a 32-bit register
//! can mean as `int32` or `uint32` (the NISA dialect also loads from and stores to 64-bit
//! tiles: the value must still fit). Loading a `uint32` keeps it non-negative; storing
//! writes the value's low 32 bits (two's complement) into a 32-bit tile, the value itself
//! into a 64-bit one. A value that does not fit is refused rather than truncated, as is
//! reading a register never written and naming one never allocated.

use std::collections::BTreeMap;

use crate::dtype::DType;
use crate::error::{EmuError, Result};
use crate::memory::{MemSpace, Memory};
use crate::view::View;

const OP_ALLOC: &str = "register_alloc";
const OP_MOVE: &str = "register_move";
const OP_LOAD: &str = "load_register";
const OP_STORE: &str = "store_register";

/// Smallest value a register holds (`int32::MIN`).
pub const REGISTER_MIN: i64 = i32::MIN as i64;
/// Largest value a register holds (`uint32::MAX`).
pub const REGISTER_MAX: i64 = u32::MAX as i64;

/// A virtual register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegisterId(pub u32);

/// The source of `register_move`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegSource {
    /// A compile-time integer.
    Imm(i64),
    /// Another register.
    Reg(RegisterId),
}

/// The virtual register file of one core: register id to value (`None` = uninitialised).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Registers {
    regs: BTreeMap<RegisterId, Option<i64>>,
    next: u32,
}

impl Registers {
    /// An empty register file.
    pub fn new() -> Registers {
        Registers::default()
    }

    /// `register_alloc(init)`: a new register, uninitialised or holding `init`.
    pub fn register_alloc(&mut self, init: Option<i64>) -> Result<RegisterId> {
        if let Some(v) = init {
            fits(OP_ALLOC, v)?;
        }
        let id = RegisterId(self.next);
        self.next = self
            .next
            .checked_add(1)
            .ok_or_else(|| EmuError::register(OP_ALLOC, "register ids exhausted"))?;
        self.regs.insert(id, init);
        Ok(id)
    }

    /// The value of `id` on behalf of `op`.
    pub fn get(&self, op: &'static str, id: RegisterId) -> Result<i64> {
        match self.regs.get(&id) {
            Some(Some(v)) => Ok(*v),
            Some(None) => Err(EmuError::register(
                op,
                format!(
                    "register {} is read before anything was written to it",
                    id.0
                ),
            )),
            None => Err(EmuError::register(
                op,
                format!("register {} was never allocated", id.0),
            )),
        }
    }

    /// Sets `id` to `value` on behalf of `op` (the register must exist; the value fit).
    pub fn set(&mut self, op: &'static str, id: RegisterId, value: i64) -> Result<()> {
        fits(op, value)?;
        match self.regs.get_mut(&id) {
            Some(slot) => {
                *slot = Some(value);
                Ok(())
            }
            None => Err(EmuError::register(
                op,
                format!("register {} was never allocated", id.0),
            )),
        }
    }
}

fn fits(op: &'static str, v: i64) -> Result<()> {
    if (REGISTER_MIN..=REGISTER_MAX).contains(&v) {
        Ok(())
    } else {
        Err(EmuError::register(
            op,
            format!("{v} does not fit a 32-bit register"),
        ))
    }
}

/// `register_move`: `dst = src` (an immediate or a register).
pub fn register_move(regs: &mut Registers, dst: RegisterId, src: RegSource) -> Result<()> {
    let v = match src {
        RegSource::Imm(v) => v,
        RegSource::Reg(r) => regs.get(OP_MOVE, r)?,
    };
    regs.set(OP_MOVE, dst, v)
}

/// `register_load` (NISA `load_register`): `dst = src[0]` for a one-element integer tensor.
pub fn register_load(
    mem: &Memory,
    regs: &mut Registers,
    dst: RegisterId,
    src: &View,
) -> Result<()> {
    scalar_tensor(mem, OP_LOAD, "src", src)?;
    let v = mem.read_i64_for(OP_LOAD, src)?[0];
    regs.set(OP_LOAD, dst, v)
}

/// `register_store` (NISA `store_register`): `dst[0] = src` for a one-element integer
/// tensor.
pub fn register_store(
    mem: &mut Memory,
    regs: &Registers,
    dst: &View,
    src: RegisterId,
) -> Result<()> {
    scalar_tensor(mem, OP_STORE, "dst", dst)?;
    let v = regs.get(OP_STORE, src)?;
    let d = dst.dtype();
    let fits_dtype = match d {
        DType::I32 | DType::U32 | DType::I64 => true,
        // A uint64 tile cannot hold a negative value.
        _ => v >= 0,
    };
    if !fits_dtype {
        return Err(EmuError::register(
            OP_STORE,
            format!("register value {v} does not fit {d}"),
        ));
    }
    mem.write_i64_for(OP_STORE, dst, &[v])
}

/// A one-element (`[1]` or `[1, 1]`) 32- or 64-bit integer tensor in HBM or SBUF.
fn scalar_tensor(mem: &Memory, op: &'static str, what: &str, v: &View) -> Result<()> {
    if mem.space(v.alloc())? == MemSpace::Psum {
        return Err(EmuError::memory(
            op,
            format!("{what} must be in HBM or SBUF, not PSUM"),
        ));
    }
    if !matches!(v.dtype(), DType::I32 | DType::U32 | DType::I64 | DType::U64) {
        return Err(EmuError::dtype(
            op,
            format!("{what} must be a 32- or 64-bit integer, not {}", v.dtype()),
        ));
    }
    if v.num_elements() != 1 || v.rank() > 2 {
        return Err(EmuError::shape(
            op,
            format!(
                "{what} must hold exactly one element ([1] or [1, 1]), not {:?}",
                v.shape()
            ),
        ));
    }
    Ok(())
}
