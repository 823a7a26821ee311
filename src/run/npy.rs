//! `.npy` files for `sundial-run`: which numpy dtype holds each NISA element type, reading an
//! argument's array and writing a saved one.
//!
//! The header (magic, version, `HEADER_LEN`, the Python-literal dictionary) is read and written
//! by the `ndarray-npy` crate; this module only decides what a header must say for a given
//! argument and moves the data bytes that follow it. [`FORMATS`] is the one table of the
//! correspondence:
//!
//! - element types numpy has (`float32`, `float16`, the integers) use their numpy `descr`; a
//!   big-endian file (`>f4`) is accepted and byte-swapped;
//! - element types numpy lacks (`bfloat16`, the fp8 formats, the MX scale and the MX x4
//!   containers) are stored as their raw bits in the unsigned integer of their size: **bf16 is
//!   written as `<u2`**, fp8 and `float8_e8m0fnu` as `|u1`, the fp8 x4 containers as `<u4` and
//!   `float4_e2m1fn_x4` as `<u2` (the packed word). Reading also accepts the void type of the
//!   same size (`|V2`, `<V2`: what `np.save` writes for an `ml_dtypes.bfloat16` array, which
//!   numpy cannot describe otherwise) and the `ml_dtypes` name (`bfloat16`, ...), which a
//!   header written by hand with `str(a.dtype)` holds. In numpy:
//!   `np.load(f).view(ml_dtypes.bfloat16)` reads a saved bf16 array;
//!   `np.save(f, a.view(np.uint16))` writes one;
//! - `tf32` is fp32 storage (`<f4`). The dialect has no `bool` element type, so none is read.
//!
//! Arrays are C order; a Fortran-order file is reordered when read. The dtype and the shape
//! must be exactly the argument's (no casting, no broadcasting).
//!
//! Sizes from a file are checked before anything is allocated for them: the header length
//! against the file length (the crate would allocate `HEADER_LEN` bytes first), and the data
//! length against the argument's size.

use std::io::Read;
use std::path::Path;

use ndarray_npy::npy::header::{Header, Layout};
use py_literal::Value as PyValue;
use sundial_dialects::dtype::Dtype;
use sundial_emu::DType;

/// How one NISA element type is held by the emulator and in a `.npy` file.
#[derive(Debug)]
pub struct Format {
    /// The NISA element type.
    pub nisa: Dtype,
    /// The emulator's element type (its memory layout).
    pub emu: DType,
    /// The `descr` written by `--save`.
    pub write: &'static str,
    /// The `descr`s read as little-endian (or byte-order-free) data.
    pub little: &'static [&'static str],
    /// The `descr`s read as big-endian data (byte-swapped per element).
    pub big: &'static [&'static str],
}

impl Format {
    /// Bytes per element (per packed word for the x4 containers).
    pub fn size(&self) -> usize {
        self.emu.size()
    }

    /// Every accepted `descr`, for messages.
    pub fn accepted(&self) -> String {
        self.little
            .iter()
            .chain(self.big)
            .map(|d| format!("'{d}'"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

macro_rules! format_row {
    ($nisa:ident, $emu:ident, $write:literal, [$($l:literal),*], [$($b:literal),*]) => {
        Format {
            nisa: Dtype::$nisa,
            emu: DType::$emu,
            write: $write,
            little: &[$($l),*],
            big: &[$($b),*],
        }
    };
}

/// Every NISA element type: its emulator type and its `.npy` dtypes (see the module doc).
pub static FORMATS: &[Format] = &[
    format_row!(F32, F32, "<f4", ["<f4"], [">f4"]),
    format_row!(Tf32, F32, "<f4", ["<f4"], [">f4"]),
    format_row!(F16, F16, "<f2", ["<f2"], [">f2"]),
    format_row!(
        Bf16,
        Bf16,
        "<u2",
        ["<u2", "|V2", "<V2", "bfloat16"],
        [">u2"]
    ),
    format_row!(
        F8E4M3,
        Fp8E4m3,
        "|u1",
        ["|u1", "<u1", "|V1", "<V1", "float8_e4m3"],
        []
    ),
    format_row!(
        F8E4M3Fn,
        Fp8E4m3Fn,
        "|u1",
        ["|u1", "<u1", "|V1", "<V1", "float8_e4m3fn"],
        []
    ),
    format_row!(
        F8E5M2,
        Fp8E5m2,
        "|u1",
        ["|u1", "<u1", "|V1", "<V1", "<f1", "float8_e5m2"],
        []
    ),
    format_row!(
        F8E3M4,
        Fp8E3m4,
        "|u1",
        ["|u1", "<u1", "|V1", "<V1", "float8_e3m4"],
        []
    ),
    format_row!(
        E8M0,
        Fp8E8m0,
        "|u1",
        ["|u1", "<u1", "|V1", "<V1", "float8_e8m0fnu"],
        []
    ),
    format_row!(I8, I8, "|i1", ["|i1", "<i1"], []),
    format_row!(I16, I16, "<i2", ["<i2"], [">i2"]),
    format_row!(I32, I32, "<i4", ["<i4"], [">i4"]),
    format_row!(I64, I64, "<i8", ["<i8"], [">i8"]),
    format_row!(U8, U8, "|u1", ["|u1", "<u1"], []),
    format_row!(U16, U16, "<u2", ["<u2"], [">u2"]),
    format_row!(U32, U32, "<u4", ["<u4"], [">u4"]),
    format_row!(U64, U64, "<u8", ["<u8"], [">u8"]),
    format_row!(
        F8E4M3FnX4,
        Fp8E4m3FnX4,
        "<u4",
        ["<u4", "|V4", "<V4"],
        [">u4"]
    ),
    format_row!(F8E5M2X4, Fp8E5m2X4, "<u4", ["<u4", "|V4", "<V4"], [">u4"]),
    format_row!(
        F4E2M1FnX4,
        Fp4E2m1FnX4,
        "<u2",
        ["<u2", "|V2", "<V2"],
        [">u2"]
    ),
];

/// The row of `dtype` (every NISA dtype has one).
pub fn format_of(dtype: Dtype) -> &'static Format {
    FORMATS
        .iter()
        .find(|f| f.nisa == dtype)
        .unwrap_or(&FORMATS[0])
}

/// `shape` as numpy prints it: `(128, 512)`, `(4,)`.
pub fn numpy_shape(shape: &[usize]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Reads the array of `path` for an argument of element format `format` and `shape`: the
/// elements as little-endian bytes in C order. The error is a sentence naming what is wrong.
pub fn read(path: &Path, format: &Format, shape: &[usize]) -> Result<Vec<u8>, String> {
    let bytes = read_file(path)?;
    parse(&bytes, format, shape)
}

/// The bytes of `path`, allocated only once its length is known.
fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    let mut file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let len = file
        .metadata()
        .map_err(|e| format!("cannot read: {e}"))?
        .len();
    let len = usize::try_from(len).map_err(|_| "the file does not fit in memory".to_string())?;
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(len)
        .map_err(|_| format!("the file ({len} bytes) does not fit in memory"))?;
    file.read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    Ok(bytes)
}

/// [`read`] accepting any of `shapes`: the array's bytes and which shape the file has.
/// `stacked` names what the leading dimension of the other shapes counts (`rank`,
/// `program`), for messages. The header is read first and the data straight into the
/// buffer returned (one buffer, no copy: fresh memory is what reading a large input costs).
pub fn read_any(
    path: &Path,
    format: &Format,
    shapes: &[Vec<usize>],
    stacked: &str,
) -> Result<(Vec<u8>, usize), String> {
    let mut file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let len = file
        .metadata()
        .map_err(|e| format!("cannot read: {e}"))?
        .len();
    let mut head = Vec::new();
    (&mut file)
        .take(12)
        .read_to_end(&mut head)
        .map_err(|e| format!("cannot read: {e}"))?;
    let start = match data_start(&head) {
        Some(start) if start as u64 <= len && start >= head.len() => start,
        // Not a .npy file, or one whose header does not fit: read whole, so that the
        // parser names what is wrong.
        _ => {
            file.read_to_end(&mut head)
                .map_err(|e| format!("cannot read: {e}"))?;
            return parse_any(&head, format, shapes, stacked);
        }
    };
    let known = head.len();
    head.resize(start, 0);
    file.read_exact(&mut head[known..])
        .map_err(|e| format!("cannot read: {e}"))?;
    let found = parse_header(&head, format, shapes, stacked)?;
    let available = usize::try_from(len - start as u64).unwrap_or(usize::MAX);
    check_data_length(available, found.want)?;
    let mut out = Vec::new();
    out.try_reserve_exact(found.want)
        .map_err(|_| format!("the array ({} bytes) does not fit in memory", found.want))?;
    (&mut file)
        .take(found.want as u64)
        .read_to_end(&mut out)
        .map_err(|e| format!("cannot read: {e}"))?;
    check_data_length(out.len(), found.want)?;
    Ok((
        finish(out, format, &shapes[found.which], &found),
        found.which,
    ))
}

/// Where the data of a `.npy` file starts, from its first (up to) 12 bytes: after the
/// magic, the version and `HEADER_LEN`; `None` when they are not a `.npy` preamble.
fn data_start(pre: &[u8]) -> Option<usize> {
    const MAGIC: &[u8] = b"\x93NUMPY";
    if pre.len() < 10 || &pre[..6] != MAGIC {
        return None;
    }
    match pre[6] {
        1 => Some(10 + usize::from(u16::from_le_bytes([pre[8], pre[9]]))),
        2 | 3 if pre.len() >= 12 => {
            let n = u32::from_le_bytes([pre[8], pre[9], pre[10], pre[11]]);
            usize::try_from(n).ok()?.checked_add(12)
        }
        _ => None,
    }
}

/// What a header says about the data that follows it.
struct Found {
    /// Which of the accepted shapes.
    which: usize,
    /// The data's length in bytes.
    want: usize,
    /// Big-endian elements (swapped when read).
    big: bool,
    /// Fortran order (reordered when read).
    fortran: bool,
}

/// The data of an array of `want` bytes is `available` bytes long.
fn check_data_length(available: usize, want: usize) -> Result<(), String> {
    if available < want {
        return Err(format!(
            "the data is truncated: {available} bytes after the header, {want} expected"
        ));
    }
    if available > want {
        return Err(format!(
            "{} bytes follow the {want} bytes of data",
            available - want
        ));
    }
    Ok(())
}

/// [`read`] on the bytes of a file.
pub fn parse(bytes: &[u8], format: &Format, shape: &[usize]) -> Result<Vec<u8>, String> {
    parse_any(bytes, format, &[shape.to_vec()], "rank").map(|(b, _)| b)
}

/// [`parse`] accepting any of `shapes` (the first is the argument's own, which messages name;
/// the others stack one per `stacked` on a leading dimension).
pub fn parse_any(
    bytes: &[u8],
    format: &Format,
    shapes: &[Vec<usize>],
    stacked: &str,
) -> Result<(Vec<u8>, usize), String> {
    check_header_length(bytes)?;
    let mut cursor = std::io::Cursor::new(bytes);
    let found = header_of(&mut cursor, format, shapes, stacked)?;
    let start = usize::try_from(cursor.position()).unwrap_or(bytes.len());
    let data = &bytes[start.min(bytes.len())..];
    check_data_length(data.len(), found.want)?;
    let mut out = Vec::new();
    out.try_reserve_exact(found.want)
        .map_err(|_| format!("the array ({} bytes) does not fit in memory", found.want))?;
    out.extend_from_slice(data);
    Ok((
        finish(out, format, &shapes[found.which], &found),
        found.which,
    ))
}

/// The header of `head` (a whole header, nothing after it).
fn parse_header(
    head: &[u8],
    format: &Format,
    shapes: &[Vec<usize>],
    stacked: &str,
) -> Result<Found, String> {
    check_header_length(head)?;
    header_of(&mut std::io::Cursor::new(head), format, shapes, stacked)
}

/// Reads the header at `cursor` and checks it against the argument: its dtype one of the
/// format's, its shape one of `shapes`.
fn header_of(
    cursor: &mut std::io::Cursor<&[u8]>,
    format: &Format,
    shapes: &[Vec<usize>],
    stacked: &str,
) -> Result<Found, String> {
    let header = Header::from_reader(cursor).map_err(|e| format!("not a valid .npy file: {e}"))?;
    let descr = match &header.type_descriptor {
        PyValue::String(s) => s.as_str(),
        other => {
            return Err(format!(
                "dtype mismatch: the file holds the structured dtype {other}, the argument is {} (accepted: {})",
                format.nisa.mlir_name(),
                format.accepted()
            ));
        }
    };
    let big = if format.little.contains(&descr) {
        false
    } else if format.big.contains(&descr) {
        true
    } else {
        return Err(format!(
            "dtype mismatch: the file holds '{descr}', the argument is {} (accepted: {})",
            format.nisa.mlir_name(),
            format.accepted()
        ));
    };
    let Some(which) = shapes.iter().position(|s| *s == header.shape) else {
        let also = shapes[1..]
            .iter()
            .map(|s| format!(", or {} for every {stacked}", numpy_shape(s)))
            .collect::<String>();
        return Err(format!(
            "shape mismatch: the file holds {}, the argument is {}{also}",
            numpy_shape(&header.shape),
            numpy_shape(shapes.first().map_or(&[][..], |s| &s[..]))
        ));
    };
    // The argument's size was checked when its type was read: this cannot overflow.
    let want = shapes[which]
        .iter()
        .try_fold(format.size(), |a, &d| a.checked_mul(d))
        .ok_or_else(|| "the argument's size overflows".to_string())?;
    Ok(Found {
        which,
        want,
        big,
        fortran: header.layout.is_fortran(),
    })
}

/// The data in the argument's form: little-endian elements in C order.
fn finish(mut out: Vec<u8>, format: &Format, shape: &[usize], found: &Found) -> Vec<u8> {
    let esize = format.size();
    if found.big && esize > 1 {
        for element in out.chunks_exact_mut(esize) {
            element.reverse();
        }
    }
    if found.fortran && shape.len() > 1 {
        out = fortran_to_c(&out, shape, esize);
    }
    out
}

/// Refuses a `HEADER_LEN` that runs past the end of the file, before the crate allocates a
/// buffer of that length (up to 4 GiB for a version 2 header). A file that is not `.npy` at
/// all is left to the crate, which names what is wrong.
fn check_header_length(bytes: &[u8]) -> Result<(), String> {
    const MAGIC: &[u8] = b"\x93NUMPY";
    if bytes.len() < 8 || &bytes[..6] != MAGIC {
        return Ok(());
    }
    // Version 1 stores HEADER_LEN as a little-endian u16 at offset 8, versions 2 and 3 as a u32.
    let (start, header_len) = match bytes[6] {
        1 if bytes.len() >= 10 => (10, u64::from(u16::from_le_bytes([bytes[8], bytes[9]]))),
        2 | 3 if bytes.len() >= 12 => (
            12,
            u64::from(u32::from_le_bytes([
                bytes[8], bytes[9], bytes[10], bytes[11],
            ])),
        ),
        _ => return Ok(()),
    };
    let available = (bytes.len() - start) as u64;
    if header_len > available {
        return Err(format!(
            "not a valid .npy file: the header is {header_len} bytes long but only {available} bytes follow"
        ));
    }
    Ok(())
}

/// Reorders Fortran-order elements (first index fastest) into C order.
fn fortran_to_c(bytes: &[u8], shape: &[usize], esize: usize) -> Vec<u8> {
    let rank = shape.len();
    // Fortran strides, in elements.
    let mut fstride = vec![1usize; rank];
    for k in 1..rank {
        fstride[k] = fstride[k - 1] * shape[k - 1];
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = vec![0usize; rank];
    let count = bytes.len() / esize.max(1);
    let mut f = 0usize;
    for _ in 0..count {
        out.extend_from_slice(&bytes[f * esize..(f + 1) * esize]);
        // Next C-order index (last fastest), keeping the Fortran offset in step.
        for k in (0..rank).rev() {
            index[k] += 1;
            f += fstride[k];
            if index[k] < shape[k] {
                break;
            }
            f -= fstride[k] * shape[k];
            index[k] = 0;
        }
    }
    out
}

/// The header of a `.npy` file holding an array of `format` and `shape` (C order), which the
/// data follows.
pub fn header(format: &Format, shape: &[usize]) -> Result<Vec<u8>, String> {
    let header = Header {
        type_descriptor: PyValue::String(format.write.to_string()),
        layout: Layout::Standard,
        shape: shape.to_vec(),
    };
    header
        .to_bytes()
        .map_err(|e| format!("cannot format the .npy header: {e}"))
}

/// The bytes of a `.npy` file holding `data` (little-endian elements of `format`, C order) of
/// `shape`.
pub fn encode(format: &Format, shape: &[usize], data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = header(format, shape)?;
    out.try_reserve_exact(data.len())
        .map_err(|_| format!("the array ({} bytes) does not fit in memory", data.len()))?;
    out.extend_from_slice(data);
    Ok(out)
}
