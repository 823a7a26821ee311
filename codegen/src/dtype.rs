//! The two dtype enumerations and the lookup tables between them.
//!
//! `BirDtype` is the compiler's IR dtype (the MX x4 gate of the indirect-gather seed reads it);
//! `WireDtype` is the ISA `NEURON_ISA_TPB_DTYPE` byte that bundles carry. The same small integer
//! means different types in each (BIR 2 is `float4_e2m1fn_x4`, wire 2 is `INT8`), so they are
//! separate types and only the LUTs below convert between them. Everything an encoder, decoder,
//! printer or validator knows about a dtype is in the tables of this module.

use crate::arch::CoreGen;

/// A BIR dtype (libBIR `Dtype`), the dtype an access pattern carries.
///
/// Order and names: bundle-layouts §4x.4 (compiler-derived, CONFIRMED); the seed pins
/// 2 = float4_e2m1fn_x4, 8 = float8_e4m3fn_x4, 9 = float8_e5m2_x4 (the MX x4 gate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum BirDtype {
    /// 0 uint8
    Uint8 = 0,
    /// 1 int8
    Int8 = 1,
    /// 2 float4_e2m1fn_x4 (four fp4 packed; seed: x4 gate)
    Float4E2m1fnX4 = 2,
    /// 3 float8e3
    Float8e3 = 3,
    /// 4 float8e4
    Float8e4 = 4,
    /// 5 float8_e4m3fn
    Float8E4m3fn = 5,
    /// 6 float8_e8m0fnu (MX block scale)
    Float8E8m0fnu = 6,
    /// 7 float8e5
    Float8e5 = 7,
    /// 8 float8_e4m3fn_x4 (seed: x4 gate)
    Float8E4m3fnX4 = 8,
    /// 9 float8_e5m2_x4 (seed: x4 gate)
    Float8E5m2X4 = 9,
    /// 10 uint16
    Uint16 = 10,
    /// 11 int16
    Int16 = 11,
    /// 12 bfloat16
    Bfloat16 = 12,
    /// 13 float16
    Float16 = 13,
    /// 14 uint32
    Uint32 = 14,
    /// 15 int32
    Int32 = 15,
    /// 16 float32
    Float32 = 16,
    /// 17 float32r
    Float32r = 17,
    /// 18 uint64
    Uint64 = 18,
    /// 19 int64
    Int64 = 19,
}

impl BirDtype {
    /// Every BIR dtype, in enum order.
    pub const ALL: [BirDtype; 20] = [
        BirDtype::Uint8,
        BirDtype::Int8,
        BirDtype::Float4E2m1fnX4,
        BirDtype::Float8e3,
        BirDtype::Float8e4,
        BirDtype::Float8E4m3fn,
        BirDtype::Float8E8m0fnu,
        BirDtype::Float8e5,
        BirDtype::Float8E4m3fnX4,
        BirDtype::Float8E5m2X4,
        BirDtype::Uint16,
        BirDtype::Int16,
        BirDtype::Bfloat16,
        BirDtype::Float16,
        BirDtype::Uint32,
        BirDtype::Int32,
        BirDtype::Float32,
        BirDtype::Float32r,
        BirDtype::Uint64,
        BirDtype::Int64,
    ];

    /// The libBIR spellings, in enum order (the names the BIR dialect's IR uses).
    pub const NAMES: [&'static str; 20] = [
        "uint8",
        "int8",
        "float4_e2m1fn_x4",
        "float8e3",
        "float8e4",
        "float8_e4m3fn",
        "float8_e8m0fnu",
        "float8e5",
        "float8_e4m3fn_x4",
        "float8_e5m2_x4",
        "uint16",
        "int16",
        "bfloat16",
        "float16",
        "uint32",
        "int32",
        "float32",
        "float32r",
        "uint64",
        "int64",
    ];

    /// The BIR dtype with this ordinal, if any.
    pub fn from_u8(v: u8) -> Option<BirDtype> {
        BirDtype::ALL.get(v as usize).copied()
    }

    /// The libBIR spelling.
    pub fn name(self) -> &'static str {
        BirDtype::NAMES[self as usize]
    }

    /// Parses a libBIR spelling.
    pub fn from_name(name: &str) -> Option<BirDtype> {
        BirDtype::NAMES
            .iter()
            .position(|n| *n == name)
            .and_then(|i| BirDtype::from_u8(i as u8))
    }

    /// Bytes per element (per packed container for the x4 types: fp8 x4 is a 32-bit word,
    /// fp4 x4 a 16-bit word).
    pub fn byte_size(self) -> u32 {
        use BirDtype::*;
        match self {
            Uint8 | Int8 | Float8e3 | Float8e4 | Float8E4m3fn | Float8E8m0fnu | Float8e5 => 1,
            Float4E2m1fnX4 | Uint16 | Int16 | Bfloat16 | Float16 => 2,
            Float8E4m3fnX4 | Float8E5m2X4 | Uint32 | Int32 | Float32 | Float32r => 4,
            Uint64 | Int64 => 8,
        }
    }

    /// The MX x4 gate of `assign_indirect_pattern_for_mx`: `Dtype == 2 || (unsigned)(Dtype - 8) <= 1`
    /// (seed, CONFIRMED at 0x150e10e..11c). Only these counts are multiplied by 4.
    pub fn is_x4_packed(self) -> bool {
        let d = self as u8;
        d == 2 || d.wrapping_sub(8) <= 1
    }
}

/// BIR -> wire LUT for CoreV2/CoreV3 (`byte_1DF5760`, bundle-layouts §4x.4, CONFIRMED).
pub const BIR_TO_WIRE_V2_V3: [u8; 20] = [
    0x03, 0x02, 0x05, 0x0d, 0x0e, 0x0e, 0x03, 0x0f, 0x0e, 0x0f, 0x05, 0x04, 0x06, 0x07, 0x09, 0x08,
    0x0a, 0x0b, 0x01, 0x0c,
];

/// BIR -> wire LUT for CoreV4 (`byte_1DFBAD0`): identical except index 2 (fp4-x4) -> 0x10 FP4.
pub const BIR_TO_WIRE_V4: [u8; 20] = [
    0x03, 0x02, 0x10, 0x0d, 0x0e, 0x0e, 0x03, 0x0f, 0x0e, 0x0f, 0x05, 0x04, 0x06, 0x07, 0x09, 0x08,
    0x0a, 0x0b, 0x01, 0x0c,
];

/// The BIR -> wire LUTs by `CoreGen as usize` (V2, V3, V4). A `const`, so a crate that inlines
/// [`wire_lut`] holds its own copy and, for a known core, a constant table address.
const WIRE_LUTS: [[u8; 20]; 3] = [BIR_TO_WIRE_V2_V3, BIR_TO_WIRE_V2_V3, BIR_TO_WIRE_V4];

/// The BIR -> wire LUT of a core generation, indexed by `BirDtype as usize`.
#[inline(always)]
pub fn wire_lut(core: CoreGen) -> &'static [u8; 20] {
    &WIRE_LUTS[core as usize]
}

/// The wire dtype byte for a BIR dtype on a core generation (the `sub_120E650` conversion).
#[inline]
pub fn bir_to_wire(d: BirDtype, core: CoreGen) -> WireDtype {
    WireDtype(wire_lut(core)[d as usize])
}

/// The canonical BIR dtype of a wire code on `core`: the BIR dtype the code is named after
/// (`uint16` for `u16`, `float8e4` for `fp8e4`, `float4_e2m1fn_x4` for `fp4`). Several BIR dtypes
/// share a wire code (`float8_e4m3fn` and its x4 form are also `fp8e4`), and the bundle cannot tell
/// them apart; `None` when no BIR dtype maps to the code on this core.
pub fn wire_to_bir(code: u8, core: CoreGen) -> Option<BirDtype> {
    use BirDtype::*;
    let named = match code {
        0x01 => Uint64,
        0x02 => Int8,
        0x03 => Uint8,
        0x04 => Int16,
        0x05 => Uint16,
        0x06 => Bfloat16,
        0x07 => Float16,
        0x08 => Int32,
        0x09 => Uint32,
        0x0a => Float32,
        0x0b => Float32r,
        0x0c => Int64,
        0x0d => Float8e3,
        0x0e => Float8e4,
        0x0f => Float8e5,
        0x10 => Float4E2m1fnX4,
        _ => return None,
    };
    (bir_to_wire(named, core).0 == code).then_some(named)
}

/// An ISA wire dtype byte (`NEURON_ISA_TPB_DTYPE`). Any byte value can appear in a decoded
/// bundle; the table below names the defined ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WireDtype(pub u8);

/// One row of the wire dtype table.
pub struct WireDtypeInfo {
    /// The wire code.
    pub code: u8,
    /// The text name used by the disassembler and assembler.
    pub name: &'static str,
    /// Element size in bytes, where the header defines one (0 for INVALID).
    pub size: u8,
    /// `addr_aligned_dtype` alignment; 0 = "no alignment defined" (the validator rejects).
    pub align: u8,
    /// First core generation that defines the code.
    pub since: CoreGen,
}

/// The wire dtype table: names from the header enum (bundle-layouts §4x.4, GPSIMD, HIGH/OBSERVED);
/// alignment from `addr_aligned_dtype` (bundle-layouts §1d, CC, CERTAIN); FP4 (0x10) is a
/// CoreV4 addition (header §4x.5) and joins the align-1 set on core_v4 (§1d).
pub const WIRE_DTYPES: [WireDtypeInfo; 17] = [
    WireDtypeInfo {
        code: 0x00,
        name: "invalid",
        size: 0,
        align: 0,
        since: CoreGen::V2,
    },
    WireDtypeInfo {
        code: 0x01,
        name: "u64",
        size: 8,
        align: 8,
        since: CoreGen::V2,
    },
    WireDtypeInfo {
        code: 0x02,
        name: "i8",
        size: 1,
        align: 1,
        since: CoreGen::V2,
    },
    WireDtypeInfo {
        code: 0x03,
        name: "u8",
        size: 1,
        align: 1,
        since: CoreGen::V2,
    },
    WireDtypeInfo {
        code: 0x04,
        name: "i16",
        size: 2,
        align: 2,
        since: CoreGen::V2,
    },
    WireDtypeInfo {
        code: 0x05,
        name: "u16",
        size: 2,
        align: 2,
        since: CoreGen::V2,
    },
    WireDtypeInfo {
        code: 0x06,
        name: "bf16",
        size: 2,
        align: 2,
        since: CoreGen::V2,
    },
    WireDtypeInfo {
        code: 0x07,
        name: "fp16",
        size: 2,
        align: 2,
        since: CoreGen::V2,
    },
    WireDtypeInfo {
        code: 0x08,
        name: "i32",
        size: 4,
        align: 4,
        since: CoreGen::V2,
    },
    WireDtypeInfo {
        code: 0x09,
        name: "u32",
        size: 4,
        align: 4,
        since: CoreGen::V2,
    },
    WireDtypeInfo {
        code: 0x0a,
        name: "fp32",
        size: 4,
        align: 4,
        since: CoreGen::V2,
    },
    // FP32R: header "output only" (isa-table §4).
    WireDtypeInfo {
        code: 0x0b,
        name: "fp32r",
        size: 4,
        align: 4,
        since: CoreGen::V2,
    },
    WireDtypeInfo {
        code: 0x0c,
        name: "i64",
        size: 8,
        align: 8,
        since: CoreGen::V2,
    },
    WireDtypeInfo {
        code: 0x0d,
        name: "fp8e3",
        size: 1,
        align: 1,
        since: CoreGen::V2,
    },
    WireDtypeInfo {
        code: 0x0e,
        name: "fp8e4",
        size: 1,
        align: 1,
        since: CoreGen::V2,
    },
    WireDtypeInfo {
        code: 0x0f,
        name: "fp8e5",
        size: 1,
        align: 1,
        since: CoreGen::V2,
    },
    // FP4_E2M1 x4-packed: element size taken as 1 byte (the packed group of the x4 dtypes).
    WireDtypeInfo {
        code: 0x10,
        name: "fp4",
        size: 1,
        align: 1,
        since: CoreGen::V4,
    },
];

/// Wire code of FP32R (output only).
pub const WIRE_FP32R: u8 = 0x0b;

impl WireDtype {
    /// The table row for this code, if the header defines it.
    pub fn info(self) -> Option<&'static WireDtypeInfo> {
        WIRE_DTYPES.get(self.0 as usize)
    }

    /// The row for this code if it is defined on `core` (0 INVALID is never "defined").
    pub fn defined_on(self, core: CoreGen) -> Option<&'static WireDtypeInfo> {
        self.info().filter(|i| i.code != 0 && i.since <= core)
    }

    /// `addr_aligned_dtype` alignment on `core`; `None` = no alignment defined (rejected).
    pub fn align(self, core: CoreGen) -> Option<u32> {
        self.defined_on(core).map(|i| i.align as u32)
    }

    /// PSUM writes must use a 4-byte dtype: wire tag in {8, 9, 10, 11} (bundle-layouts §1e, CERTAIN).
    pub fn is_psum_write_dtype(self) -> bool {
        (0x08..=0x0b).contains(&self.0)
    }

    /// Floating-point wire dtypes (bf16, fp16, fp32, fp32r, fp8*, fp4).
    pub fn is_float(self) -> bool {
        matches!(self.0, 0x06 | 0x07 | 0x0a | 0x0b | 0x0d..=0x10)
    }

    /// The text name, if the code is named.
    pub fn name(self) -> Option<&'static str> {
        self.info().map(|i| i.name)
    }

    /// The code with this text name.
    pub fn from_name(s: &str) -> Option<WireDtype> {
        WIRE_DTYPES
            .iter()
            .find(|i| i.name == s)
            .map(|i| WireDtype(i.code))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luts_differ_only_at_fp4() {
        for i in 0..20 {
            if i == 2 {
                assert_ne!(BIR_TO_WIRE_V2_V3[i], BIR_TO_WIRE_V4[i]);
            } else {
                assert_eq!(BIR_TO_WIRE_V2_V3[i], BIR_TO_WIRE_V4[i]);
            }
        }
    }

    #[test]
    fn wire_to_bir_inverts_the_luts() {
        for core in [CoreGen::V2, CoreGen::V3, CoreGen::V4] {
            for code in 0..=255u8 {
                match wire_to_bir(code, core) {
                    Some(d) => assert_eq!(bir_to_wire(d, core).0, code),
                    None => assert!(
                        BirDtype::ALL
                            .iter()
                            .all(|&d| bir_to_wire(d, core).0 != code),
                        "{code:#x} on {core:?}"
                    ),
                }
            }
        }
    }

    #[test]
    fn x4_gate_is_exactly_2_8_9() {
        let gated: Vec<u8> = BirDtype::ALL
            .iter()
            .filter(|d| d.is_x4_packed())
            .map(|d| *d as u8)
            .collect();
        assert_eq!(gated, vec![2, 8, 9]);
    }

    #[test]
    fn wire_table_is_indexed_by_code() {
        for (i, r) in WIRE_DTYPES.iter().enumerate() {
            assert_eq!(r.code as usize, i);
        }
        assert_eq!(WireDtype(0x10).align(CoreGen::V3), None);
        assert_eq!(WireDtype(0x10).align(CoreGen::V4), Some(1));
        assert_eq!(WireDtype(0).align(CoreGen::V4), None);
    }
}
