//! Wire enumerations of the 4D-slot compute formats (TENSOR_SUBDIM, pool function, cross-lane
//! REDUCE_OP / REDUCE_AXIS, AFFINE_SELECT_CMP) and the ALU-op classes of the arith / bitvec
//! opcode twins.

use super::NameTable;

/// `TENSOR_SUBDIM` (header common.h:1195): UNUSED = 0, X = 2, XY = 3, XYZ = 4, XYZW = 5.
pub const TENSOR_SUBDIMS: NameTable = &[
    (0x00, "unused"),
    (0x02, "x"),
    (0x03, "xy"),
    (0x04, "xyz"),
    (0x05, "xyzw"),
];

/// The `TENSOR_SUBDIM` UNUSED and X codes (the only ones Copy / Cast accept, header).
pub const SUBDIM_UNUSED: u8 = 0x00;
/// `TENSOR_SUBDIM` X.
pub const SUBDIM_X: u8 = 0x02;

/// Pool function byte (CC: BIR Max = 0 / Avg = 1 written + 1).
pub const POOL_FUNCS: NameTable = &[(1, "max"), (2, "avg")];

/// The pool mode byte the CC writes on every Pool bundle (a constant of unknown meaning).
pub const POOL_MODE: u8 = 3;

/// `NEURON_ISA_TPB_REDUCE_OP` of S4D4_CR (header).
pub const CR_REDUCE_OPS: NameTable = &[
    (0, "add"),
    (1, "average"),
    (2, "max"),
    (3, "bitwise_or"),
    (4, "bitwise_and"),
    (5, "bitwise_xor"),
];

/// `REDUCE_AXIS` of S4D4_CR (header).
pub const CR_REDUCE_AXES: NameTable = &[(0, "all"), (1, "partitions")];

/// `AFFINE_SELECT_CMP` (header).
pub const AFFINE_SELECT_CMPS: NameTable = &[(0, "gt"), (1, "ge"), (2, "eq"), (3, "ne")];

/// Header `is_general_bitvec_op` (stated for 0x51): BYPASS, NOT, ASL, ASR, AND, OR, XOR, LSL,
/// LSR. ASSUMPTION: the reduce twin 0x52 accepts the same class.
pub const BITVEC_ALU_OPS: [u8; 9] = [0x00, 0x01, 0x02, 0x03, 0x0a, 0x0b, 0x0c, 0x10, 0x11];

/// Whether a wire ALU byte is legal on the arith reduce opcode 0x42. The header states the arith
/// class for 0x41 only as `is_general_arith_op || POW || is_valid_int_aluop` "(not raw DIVIDE /
/// RSQRT)" without listing `is_general_arith_op`. ASSUMPTION: any named ALU code except the
/// bitvec-only ones (the bitvec class minus BYPASS), DIVIDE, RSQRT and the Pool-only CRC32.
pub fn is_arith_reduce_op(w: u8) -> bool {
    super::name_of(super::ALU_OPS, w).is_some()
        && (w == 0x00 || !BITVEC_ALU_OPS.contains(&w))
        && !matches!(w, 0x07 | 0x1c | 0x1d)
}

/// Whether a wire ALU byte is legal on the bitvec reduce opcode 0x52.
pub fn is_bitvec_reduce_op(w: u8) -> bool {
    BITVEC_ALU_OPS.contains(&w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_have_unique_codes_and_names() {
        for t in [
            TENSOR_SUBDIMS,
            POOL_FUNCS,
            CR_REDUCE_OPS,
            CR_REDUCE_AXES,
            AFFINE_SELECT_CMPS,
        ] {
            for (i, a) in t.iter().enumerate() {
                for b in &t[i + 1..] {
                    assert_ne!(a.0, b.0);
                    assert_ne!(a.1, b.1);
                }
            }
        }
    }

    #[test]
    fn reduce_classes() {
        assert!(is_arith_reduce_op(0x04) && is_arith_reduce_op(0x08) && is_arith_reduce_op(0));
        assert!(
            !is_arith_reduce_op(0x0b) && !is_arith_reduce_op(0x07) && !is_arith_reduce_op(0x1e)
        );
        assert!(is_bitvec_reduce_op(0x0b) && !is_bitvec_reduce_op(0x04));
    }
}
