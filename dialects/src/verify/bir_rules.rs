//! Op rules of the BIR dialect: physical access patterns, opcode sequences, MX indirection.
//!
//! The access-pattern dictionaries are decoded into [`PhysAp`] here (the same decoding the
//! translation to bundles will use), and every BIR op's opcodes are checked against its legal
//! set and, for the micro-pair instructions, against the sequence the seeds pin
//! (StreamShuffle {0x6A, 0x69}; StreamTranspose {0x6B} or {0x6B, 0x69} from 32 destination
//! partitions; Gather {0x68, 0x67} once per 512-element chunk; RangeSelect {0xBC, 0x9B}).

use melior::ir::attribute::AttributeLike;

use super::{OpView, float_value, i64_array_value, int_value_checked};
use crate::{
    bir::BirOpSpec,
    dtype::BirDtype,
    enums::{Space, Target},
    ffi::{string_attr_value, string_ref_lossy},
    spec::AttrKind,
};
use melior::ir::Attribute;

/// Largest free-dimension count of a physical pattern (TENSOR4D).
pub const MAX_FREE_DIMS: usize = 4;
/// Bytes per SBUF partition on the largest target (mariana: 256 KiB; sunda 192, cayman 224).
pub const SBUF_PARTITION_BYTES: [i64; 3] = [192 * 1024, 224 * 1024, 256 * 1024];
/// Bytes per PSUM partition (8 banks x 2 KiB).
pub const PSUM_PARTITION_BYTES: i64 = 16 * 1024;

/// Where a static pattern starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// A byte offset (inside the partition for SBUF/PSUM, inside the tensor for HBM).
    Offset(i64),
    /// A register holding the start address (a dynamic offset).
    Register(i64),
}

/// A static physical access pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaticAp {
    /// Memory space.
    pub space: Space,
    /// First partition (SBUF/PSUM).
    pub partition: i64,
    /// Partition count (SBUF/PSUM; 1 for HBM).
    pub num_partitions: i64,
    /// Start.
    pub start: Start,
    /// Free dimensions, outermost first: (step in elements, num).
    pub dims: Vec<(i64, i64)>,
    /// Element type.
    pub dtype: BirDtype,
    /// The HBM tensor the pattern addresses (`tensor = K`: the kernel argument index, or a
    /// kernel-local HBM tensor numbered after the arguments); `None` on chip and for an HBM
    /// pattern that names no tensor.
    pub tensor: Option<i64>,
}

impl StaticAp {
    /// Elements per partition.
    pub fn elements_per_partition(&self) -> i64 {
        self.dims
            .iter()
            .fold(1i64, |acc, d| acc.saturating_mul(d.1))
    }
}

/// A decoded access pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PhysAp {
    /// Static.
    Static(StaticAp),
    /// Tensor-indirect: an index pattern, a data pattern, the indirect index count and the
    /// id of the index argument (two operands share an indirection iff these agree).
    Indirect {
        /// Index pattern.
        index: StaticAp,
        /// Data pattern.
        data: StaticAp,
        /// `getNumIndirectIndices()`.
        num_indices: i64,
        /// The index argument id.
        index_arg: i64,
    },
}

/// Whether `a` is a dictionary attribute: the C API's dictionary getters read any other
/// attribute as one (a unit attribute's "element count" was garbage, and a key written without
/// a value, `{index, ...}`, made the verifier allocate petabytes; found by the fuzzer).
fn is_dict(a: Attribute<'_>) -> bool {
    unsafe { mlir_sys::mlirAttributeIsADictionary(a.to_raw()) }
}

fn dict_get<'c>(dict: Attribute<'c>, key: &str) -> Option<Attribute<'c>> {
    if !is_dict(dict) {
        return None;
    }
    let name = std::ffi::CString::new(key).ok()?;
    unsafe {
        let sr = mlir_sys::mlirStringRefCreateFromCString(name.as_ptr());
        Attribute::from_option_raw(mlir_sys::mlirDictionaryAttrGetElementByName(
            dict.to_raw(),
            sr,
        ))
    }
}

fn dict_keys(dict: Attribute<'_>) -> Vec<String> {
    if !is_dict(dict) {
        return Vec::new();
    }
    unsafe {
        let n = mlir_sys::mlirDictionaryAttrGetNumElements(dict.to_raw()).max(0);
        (0..n)
            .map(|i| {
                let named = mlir_sys::mlirDictionaryAttrGetElement(dict.to_raw(), i);
                string_ref_lossy(mlir_sys::mlirIdentifierStr(named.name))
            })
            .collect()
    }
}

fn get_int(dict: Attribute<'_>, key: &str) -> Result<Option<i64>, String> {
    match dict_get(dict, key) {
        None => Ok(None),
        Some(a) if !a.is_integer() || a.is_bool() => Err(format!("'{key}' must be an integer")),
        Some(a) => int_value_checked(a)
            .map(Some)
            .map_err(|m| format!("'{key}': {m}")),
    }
}

/// Decodes a static access-pattern dictionary.
pub fn decode_static(dict: Attribute<'_>) -> Result<StaticAp, String> {
    if !is_dict(dict) {
        return Err(
            "expected an access pattern dictionary {space = ..., pattern = ..., ...}".into(),
        );
    }
    const KEYS: &[&str] = &[
        "space",
        "partition",
        "num_partitions",
        "offset",
        "start_reg",
        "pattern",
        "dtype",
        "tensor",
    ];
    for k in dict_keys(dict) {
        if !KEYS.contains(&k.as_str()) {
            return Err(format!("unknown key '{k}' (expected {})", KEYS.join(", ")));
        }
    }
    let space = match dict_get(dict, "space") {
        Some(a) if a.is_string() => {
            let t = string_attr_value(a);
            Space::parse(&t)
                .ok_or_else(|| format!("unknown space \"{t}\" (expected hbm|sbuf|psum)"))?
        }
        Some(_) => return Err("'space' must be a string".into()),
        None => return Err("missing 'space'".into()),
    };
    let on_chip = space != Space::Hbm;
    let partition = get_int(dict, "partition")?.unwrap_or(0);
    let num_partitions = get_int(dict, "num_partitions")?.unwrap_or(1);
    if on_chip {
        if !(0..128).contains(&partition) {
            return Err(format!("'partition' {partition} is out of range [0, 127]"));
        }
        if !(1..=128).contains(&num_partitions) || partition + num_partitions > 128 {
            return Err(format!(
                "partitions {partition}..{} exceed the 128 partitions (rule: partitions <= 128)",
                partition.saturating_add(num_partitions)
            ));
        }
    } else if dict_get(dict, "partition").is_some() || dict_get(dict, "num_partitions").is_some() {
        return Err("an HBM pattern has no 'partition' / 'num_partitions'".into());
    }
    let tensor = get_int(dict, "tensor")?;
    match tensor {
        Some(_) if on_chip => {
            return Err(format!(
                "'tensor' names an HBM tensor: a {space} pattern has none"
            ));
        }
        Some(t) if t < 0 => return Err(format!("'tensor' {t} is negative")),
        _ => {}
    }
    let start = match (get_int(dict, "offset")?, get_int(dict, "start_reg")?) {
        (Some(_), Some(_)) => return Err("give 'offset' or 'start_reg', not both".into()),
        (Some(o), None) | (None, Some(o)) if o < 0 => return Err(format!("start {o} is negative")),
        (_, Some(r)) if r > 63 => return Err(format!("'start_reg' {r} is not a register (0..63)")),
        (_, Some(r)) => Start::Register(r),
        (Some(o), None) => Start::Offset(o),
        (None, None) => Start::Offset(0),
    };
    let pattern = match dict_get(dict, "pattern") {
        Some(a) => i64_array_value(a)
            .ok_or_else(|| "'pattern' must be array<i64: step, num, ...>".to_string())?,
        None => return Err("missing 'pattern'".into()),
    };
    if pattern.is_empty() || pattern.len() % 2 != 0 || pattern.len() / 2 > MAX_FREE_DIMS {
        return Err(format!(
            "'pattern' must hold 1 to {MAX_FREE_DIMS} [step, num] pairs, got {} values",
            pattern.len()
        ));
    }
    let mut dims = Vec::new();
    for c in pattern.chunks(2) {
        let (step, num) = (c[0], c[1]);
        // On chip the step is a TENSORnD `int16 step_elem`; an HBM pattern only ever feeds a
        // DMA descriptor, whose `step_elem` is an int32 (DMA_DIRECT2D, bundle-layouts §4.13).
        if on_chip && !(i16::MIN as i64..=i16::MAX as i64).contains(&step) {
            return Err(format!(
                "step {step} does not fit the signed 16-bit step field"
            ));
        }
        if !on_chip && !(i32::MIN as i64..=i32::MAX as i64).contains(&step) {
            return Err(format!(
                "step {step} does not fit the DMA's signed 32-bit step field"
            ));
        }
        if !(1..=u16::MAX as i64).contains(&num) {
            return Err(format!("num {num} is out of range [1, 65535]"));
        }
        dims.push((step, num));
    }
    let dtype = match dict_get(dict, "dtype") {
        Some(a) if a.is_string() => {
            let t = string_attr_value(a);
            BirDtype::from_name(&t).ok_or_else(|| format!("unknown BIR dtype \"{t}\""))?
        }
        Some(_) => return Err("'dtype' must be a string (a libBIR dtype name)".into()),
        None => return Err("missing 'dtype'".into()),
    };
    if let Start::Offset(o) = start {
        let limit = match space {
            Space::Sbuf => SBUF_PARTITION_BYTES[2],
            Space::Psum => PSUM_PARTITION_BYTES,
            Space::Hbm => i64::MAX,
        };
        if o >= limit {
            return Err(format!(
                "byte offset {o} is beyond the {limit}-byte {space} partition"
            ));
        }
        if o % dtype.byte_size() as i64 != 0 {
            return Err(format!(
                "byte offset {o} is not aligned to {} bytes for {} (rule: dtype alignment)",
                dtype.byte_size(),
                dtype.name()
            ));
        }
    }
    Ok(StaticAp {
        space,
        partition,
        num_partitions,
        start,
        dims,
        dtype,
        tensor,
    })
}

thread_local! {
    static DECODED: std::cell::RefCell<Option<crate::view::FastMap<usize, Result<PhysAp, String>>>> =
        const { std::cell::RefCell::new(None) };
}

/// Turns the [`decode`] cache on or off (the scope of [`crate::tile::with_caches`]).
pub(crate) fn decode_cache(on: bool) {
    DECODED.with(|d| *d.borrow_mut() = on.then(crate::view::FastMap::default));
}

/// Decodes an access-pattern dictionary (static or indirect). Inside
/// [`crate::tile::with_caches`] each dictionary is decoded once: attributes are uniqued and
/// immutable, so one handle always decodes the same way (the verifier and the lowering read
/// the same few patterns of a kernel over and over).
pub fn decode(dict: Attribute<'_>) -> Result<PhysAp, String> {
    let key = dict.to_raw().ptr as usize;
    if let Some(hit) = DECODED.with(|d| d.borrow().as_ref().and_then(|m| m.get(&key).cloned())) {
        return hit;
    }
    let decoded = decode_uncached(dict);
    DECODED.with(|d| {
        if let Some(m) = d.borrow_mut().as_mut() {
            m.insert(key, decoded.clone());
        }
    });
    decoded
}

fn decode_uncached(dict: Attribute<'_>) -> Result<PhysAp, String> {
    if unsafe { !mlir_sys::mlirAttributeIsADictionary(dict.to_raw()) } {
        return Err("expected an access pattern dictionary".into());
    }
    let kind = dict_get(dict, "kind")
        .filter(|a| a.is_string())
        .map(string_attr_value);
    match kind.as_deref() {
        None | Some("static") => {
            if dict_get(dict, "kind").is_some_and(|a| !a.is_string()) {
                return Err("'kind' must be \"static\" or \"indirect\"".into());
            }
            let stripped = strip_kind(dict);
            decode_static(stripped.unwrap_or(dict)).map(PhysAp::Static)
        }
        Some("indirect") => {
            for k in dict_keys(dict) {
                if !["kind", "index", "data", "num_indices", "index_arg"].contains(&k.as_str()) {
                    return Err(format!(
                        "unknown key '{k}' in an indirect pattern (expected kind, index, data, num_indices, index_arg)"
                    ));
                }
            }
            let index = dict_get(dict, "index").ok_or("missing 'index'")?;
            let data = dict_get(dict, "data").ok_or("missing 'data'")?;
            let index = decode_static(index).map_err(|m| format!("'index': {m}"))?;
            let data = decode_static(data).map_err(|m| format!("'data': {m}"))?;
            let num_indices = get_int(dict, "num_indices")?.ok_or("missing 'num_indices'")?;
            if !(1..=u16::MAX as i64).contains(&num_indices) {
                return Err(format!(
                    "'num_indices' {num_indices} does not fit the 16-bit NUM field"
                ));
            }
            let index_arg = get_int(dict, "index_arg")?.unwrap_or(0);
            if index_arg < 0 {
                return Err("'index_arg' must be non-negative".into());
            }
            // The index vector is on chip for every instruction; the data may be an HBM
            // table (a DMA-indirect gather or scatter), which the op rules allow only on
            // bir.dma_indirect.
            if index.space == Space::Hbm {
                return Err("a tensor-indirect index pattern lives in SBUF or PSUM".into());
            }
            if data.space == Space::Hbm && data.tensor.is_none() {
                return Err("an HBM data pattern of an indirect access needs 'tensor' (the table the indices address)".into());
            }
            Ok(PhysAp::Indirect {
                index,
                data,
                num_indices,
                index_arg,
            })
        }
        Some(other) => Err(format!(
            "unknown pattern kind \"{other}\" (expected static or indirect)"
        )),
    }
}

/// A `{kind = "static", ...}` dictionary without its `kind` key, for [`decode_static`].
fn strip_kind(dict: Attribute<'_>) -> Option<Attribute<'_>> {
    dict_get(dict, "kind")?;
    unsafe {
        let ctx = mlir_sys::mlirAttributeGetContext(dict.to_raw());
        let n = mlir_sys::mlirDictionaryAttrGetNumElements(dict.to_raw()).max(0);
        let mut elems = Vec::new();
        for i in 0..n {
            let named = mlir_sys::mlirDictionaryAttrGetElement(dict.to_raw(), i);
            if string_ref_lossy(mlir_sys::mlirIdentifierStr(named.name)) != "kind" {
                elems.push(named);
            }
        }
        Attribute::from_option_raw(mlir_sys::mlirDictionaryAttrGet(
            ctx,
            elems.len() as isize,
            elems.as_ptr(),
        ))
    }
}

/// Checks the EXTENDED_INST byte string: `xx_xx_...` hex bytes and placeholders
/// `{events:...}`, `{srcs[N]:...}`, `{dsts[N]:...}`; only the `datapath` sync type.
pub fn check_asm_bytes(text: &str) -> Result<(), String> {
    if text.is_empty() {
        return Err("the byte string is empty".into());
    }
    let mut rest = text;
    let mut first = true;
    while !rest.is_empty() {
        if !first {
            rest = rest
                .strip_prefix('_')
                .ok_or_else(|| format!("expected '_' between bytes near \"{}\"", head(rest)))?;
        }
        first = false;
        if let Some(body) = rest.strip_prefix('{') {
            let end = body
                .find('}')
                .ok_or_else(|| "unterminated placeholder '{'".to_string())?;
            let inner = &body[..end];
            let (kind, desc) = inner
                .split_once(':')
                .ok_or_else(|| format!("placeholder {{{inner}}} needs 'kind:descriptor'"))?;
            let ok_kind = kind == "events" || indexed(kind, "srcs") || indexed(kind, "dsts");
            if !ok_kind {
                return Err(format!(
                    "unknown placeholder kind '{kind}' (expected events, srcs[N] or dsts[N])"
                ));
            }
            if kind == "events" && !desc.to_ascii_lowercase().contains("datapath") {
                return Err(format!(
                    "only the datapath sync type is supported in {{events:...}}, got '{desc}'"
                ));
            }
            rest = &body[end + 1..];
        } else {
            let b = rest
                .get(..2)
                .ok_or_else(|| format!("truncated byte near \"{}\"", head(rest)))?;
            if !b.chars().all(|c| c.is_ascii_hexdigit()) {
                return Err(format!("'{b}' is not a two-hex-digit byte"));
            }
            rest = &rest[2..];
        }
    }
    Ok(())
}

fn indexed(kind: &str, base: &str) -> bool {
    kind.strip_prefix(base)
        .and_then(|r| r.strip_prefix('['))
        .and_then(|r| r.strip_suffix(']'))
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

fn head(s: &str) -> String {
    s.chars().take(8).collect()
}

/// Runs the op rules of `v` (a BIR op).
pub fn check(v: &mut OpView<'_, '_, '_>, spec: &BirOpSpec, target: Option<Target>) {
    // Access patterns.
    let mut aps = Vec::new();
    for attr in v.spec.attrs {
        let AttrKind::Ap { indirect } = attr.kind else {
            continue;
        };
        let Some(dict) = v.attr(attr.name) else {
            continue;
        };
        match decode(dict) {
            Err(msg) => v.error(format!(
                "attribute '{}': {msg} (rule: access pattern)",
                attr.name
            )),
            Ok(ap) => {
                if !indirect && matches!(ap, PhysAp::Indirect { .. }) {
                    v.error(format!("attribute '{}': must be a static access pattern (this operand cannot be tensor-indirect) (rule: static operand)", attr.name));
                }
                if let PhysAp::Indirect { data, .. } = &ap
                    && data.space == Space::Hbm
                    && spec.spec.name != "dma_indirect"
                {
                    v.error(format!("attribute '{}': indirect data in HBM is read only by a DMA-indirect transfer (bir.dma_indirect); compute engines address SBUF/PSUM (rule: indirect data space)", attr.name));
                }
                aps.push((attr.name, ap));
            }
        }
    }
    // Opcodes.
    let Some(opcodes) = v.i64_array("opcodes") else {
        return;
    };
    // The legal set is the ISA table's (codegen `isa::legal_opcodes`).
    let legal_set = spec.opcodes();
    for &o in &opcodes {
        if !(0..=255).contains(&o) || !legal_set.contains(o as u8) {
            let legal = spec.opcodes_text(", ");
            v.error(format!("attribute 'opcodes': 0x{o:X} is not an opcode of {} (legal: {legal}) (rule: opcode)", spec.bir_class));
            return;
        }
    }
    let find = |name: &str| aps.iter().find(|(n, _)| *n == name).map(|(_, a)| a.clone());
    match spec.spec.name {
        "stream_shuffle" => {
            sequence(
                v,
                &opcodes,
                &[0x6A, 0x69],
                "StreamShuffle lowers to {0x6A, 0x69}",
            );
            if let Some(mask) = v.i64_array("shuffle_mask")
                && mask.iter().any(|&m| !(0..32).contains(&m) && m != 255)
            {
                v.error("attribute 'shuffle_mask': entries are 0..31 or 255 (rule: mask entries)");
            }
        }
        "stream_transpose" => {
            let wide = match find("dst") {
                Some(PhysAp::Static(d)) => d.num_partitions >= 32,
                _ => false,
            };
            let want: &[i64] = if wide { &[0x6B, 0x69] } else { &[0x6B] };
            sequence(
                v,
                &opcodes,
                want,
                "StreamTranspose is {0x6B}, or {0x6B, 0x69} when dst has >= 32 partitions",
            );
            // The 0x69 half of the wide form shuffles lanes by the map; the narrow form has
            // no 0x69 bundle to hold one.
            match (wide, v.i64_array("lane_mask")) {
                (true, None) => v.error("attribute 'lane_mask': the wide transpose {0x6B, 0x69} needs the 32-lane map of its 0x69 half (rule: transpose lane mask)"),
                (false, Some(_)) => v.error("attribute 'lane_mask': a transpose to fewer than 32 partitions is {0x6B} alone, with no 0x69 half to hold a lane map (rule: transpose lane mask)"),
                (_, Some(mask)) if mask.iter().any(|&m| !(0..32).contains(&m) && m != 255) => {
                    v.error("attribute 'lane_mask': entries are 0..31 or 255 (rule: mask entries)");
                }
                _ => {}
            }
            if let Some(PhysAp::Static(s)) = find("src")
                && s.dims.len() == MAX_FREE_DIMS
                && s.dims[0].1 != 1
            {
                v.error("attribute 'src': instr.src_mem_pattern.num_elem[3] == 1 failed (rule: transpose num_elem[3])");
            }
        }
        "gather" => {
            // Without a valid static index pattern there is nothing to count (its own error is
            // reported where the pattern is decoded).
            let Some(PhysAp::Static(index)) = find("index") else {
                return;
            };
            // The chunk count is codegen's (`gather_chunks`, the ISA table's rule), so the
            // verifier and the encoder agree everywhere. (An empty index, 0 chunks, never gets
            // here: a pattern's counts are at least 1, the access-pattern rule.) The expected list
            // is built only when it can fit in `opcodes` (at most 64 entries): a large index
            // pattern (up to 65535^4 elements) made `n + 511` overflow and the list exhaust
            // memory.
            let chunks =
                sundial_codegen::gather_chunks(index.elements_per_partition().max(0) as u64);
            let why =
                format!("Gather emits {{0x68, 0x67}} once per 512-element chunk ({chunks} chunks)");
            if chunks <= 32 {
                let want: Vec<i64> = std::iter::repeat_n([0x68i64, 0x67], chunks as usize)
                    .flatten()
                    .collect();
                sequence(v, &opcodes, &want, &why);
            } else {
                v.error(format!(
                    "attribute 'opcodes': {why}, more than one instruction's 64 opcodes hold (rule: opcode sequence)"
                ));
            }
        }
        "range_select" => {
            sequence(v, &opcodes, &[0xBC, 0x9B], "RangeSelect is {0xBC, 0x9B}");
            if target.is_some_and(|t| t == Target::Sunda) {
                v.error(
                    "RangeSelect is a CoreV3 instruction: not available on sunda (rule: target)",
                );
            }
            if let Some(f) = v.attr("fill_value").and_then(float_value)
                && (f as f32) != f32::MIN
            {
                v.error("attribute 'fill_value': fill_val in RangeSelect must be float MAX_NEG (rule: range_select fill)");
            }
            same_count(v, &find("src"), &find("dst"), "inNumEles == outNumEles");
            for (imm, ap) in [("bound0", "bound0_ap"), ("bound1", "bound1_ap")] {
                if v.attr(imm).is_some() == v.attr(ap).is_some() {
                    v.error(format!("attributes '{imm}' / '{ap}': a RangeSelect bound is an immediate or an operand pattern, exactly one of them (rule: range_select bound)"));
                }
            }
            // The header's reduce_cmd: only IDLE, ACCUMULATE and ZERO_ACCUMULATE.
            if let Some(cmd) = v.str_attr("reduce_cmd")
                && !["idle", "reduce", "reset_reduce"].contains(&cmd.as_str())
            {
                v.error(format!("attribute 'reduce_cmd': '{cmd}': RangeSelect's ACCUM_CMD is IDLE, ACCUMULATE or ZERO_ACCUMULATE (idle, reduce, reset_reduce) (rule: range_select reduce_cmd)"));
            }
            // base + count <= 2^24: the index origin and every index stay exact in fp32.
            if let (Some(start), Some(PhysAp::Static(s))) = (v.int_attr("range_start"), find("src"))
            {
                let last = start.saturating_add(s.elements_per_partition());
                if !(-(1i64 << 24)..=(1i64 << 24)).contains(&start) || last > 1 << 24 {
                    v.error(format!("attribute 'range_start': {start} + {} indices passes 2^24: base + count <= 2^24 (rule: range_select base)", s.elements_per_partition()));
                }
            }
        }
        "indirect_copy" => {
            if !matches!(find("src"), Some(PhysAp::Indirect { .. })) {
                v.error("attribute 'src': INDIRECT_COPY is a prototype instruction of Tensor Indirect on TRN1, it must not have a static source (rule: indirect_copy source)");
            }
            single(v, &opcodes);
        }
        "matmult_mx" | "quantize_mx" => {
            if target.is_some_and(|t| t != Target::Mariana) {
                v.error("MX instructions are CoreV4 (mariana) only (rule: target)");
            }
            let pairs: &[(&str, &str)] = if spec.spec.name == "quantize_mx" {
                &[("dst", "dst_scale")]
            } else {
                &[
                    ("stationary", "stationary_scale"),
                    ("moving", "moving_scale"),
                ]
            };
            for (data, scale) in pairs {
                mx_pair(v, data, scale, &find(data), &find(scale));
            }
        }
        "dropout" => {
            single(v, &opcodes);
            if let (Some(PhysAp::Static(s)), Some(PhysAp::Static(d))) = (find("src"), find("dst"))
                && s.dtype != d.dtype
            {
                v.error("attributes 'src' and 'dst': d3_dropout_same_src_dst_type failed (rule: same src/dst dtype)");
            }
            same_count(
                v,
                &find("src"),
                &find("dst"),
                "d3_dropout_src_dst_count_check",
            );
        }
        "matmult" => sequence(
            v,
            &opcodes,
            &[0x01, 0x02],
            "Matmult is {LdWeights 0x01, Matmul 0x02}",
        ),
        "tensor_tensor" | "tensor_copy" => {
            if let Some(t) = target {
                dtype_dispatch(v, spec, t, &opcodes, &find);
            }
        }
        _ => {}
    }
}

/// The dtype-dispatch rule: on a known target, the opcodes of a `tensor_tensor` or
/// `tensor_copy` are the ones codegen's ISA table selects for its ALU op, operand dtypes and
/// engine (0x8a is sunda's bf16 add, never an fp32 one; 0x47 is a cast, 0x46 a copy).
fn dtype_dispatch(
    v: &mut OpView<'_, '_, '_>,
    spec: &BirOpSpec,
    target: Target,
    opcodes: &[i64],
    find: &dyn Fn(&str) -> Option<PhysAp>,
) {
    use sundial_codegen::{isa, model::Engine};
    let dtype = |name: &str| match find(name) {
        Some(PhysAp::Static(s)) => Some(s.dtype),
        Some(PhysAp::Indirect { data, .. }) => Some(data.dtype),
        None => None,
    };
    let Some(dst) = dtype("dst") else { return };
    let engine = v.str_attr("engine").and_then(|e| Engine::from_name(&e));
    let (row, inputs, alu) = if spec.spec.name == "tensor_copy" {
        ("tensor_copy", vec![dtype("src")], None)
    } else {
        let Some(op) = v
            .str_attr("op")
            .and_then(|o| sundial_codegen::enums::BirAluOp::from_name(&o))
        else {
            return;
        };
        let row = if crate::nisa::BITVEC_OPS.contains(&op.name()) && op.name() != "bypass" {
            "tensor_tensor_bitvec"
        } else {
            "tensor_tensor_arith"
        };
        (row, vec![dtype("src0"), dtype("src1")], Some(op))
    };
    let Some(inputs) = inputs.into_iter().collect::<Option<Vec<BirDtype>>>() else {
        return;
    };
    let mut q = isa::SelectQuery::new(target).with_dtypes(dst, &inputs);
    q.engine = engine;
    q.alu = alu;
    let Ok(selection) = isa::select(row, &q) else {
        // An illegal engine or dtype is another rule's to report.
        return;
    };
    let want: Vec<i64> = selection.opcodes().map(i64::from).collect();
    if opcodes != want.as_slice() {
        let show = |s: &[i64]| {
            s.iter()
                .map(|o| format!("0x{o:02X}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let operands = inputs
            .iter()
            .map(|d| d.name())
            .collect::<Vec<_>>()
            .join(", ");
        v.error(format!(
            "attribute 'opcodes': [{}] is not what the ISA table selects on {target} for {}{} -> {} on {} ([{}]) (rule: dtype dispatch)",
            show(opcodes),
            alu.map(|a| format!("{} of ", a.name())).unwrap_or_default(),
            operands,
            dst.name(),
            selection.engine,
            show(&want)
        ));
    }
}

fn single(v: &mut OpView<'_, '_, '_>, opcodes: &[i64]) {
    if opcodes.len() != 1 {
        v.error(format!("attribute 'opcodes': this instruction is one bundle, got {} opcodes (rule: opcode sequence)", opcodes.len()));
    }
}

fn sequence(v: &mut OpView<'_, '_, '_>, opcodes: &[i64], want: &[i64], why: &str) {
    if opcodes != want {
        let show = |s: &[i64]| {
            s.iter()
                .map(|o| format!("0x{o:02X}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        v.error(format!(
            "attribute 'opcodes': expected [{}], got [{}]: {why} (rule: opcode sequence)",
            show(want),
            show(opcodes)
        ));
    }
}

fn same_count(v: &mut OpView<'_, '_, '_>, src: &Option<PhysAp>, dst: &Option<PhysAp>, rule: &str) {
    if let (Some(PhysAp::Static(s)), Some(PhysAp::Static(d))) = (src, dst) {
        let a = s.elements_per_partition().saturating_mul(s.num_partitions);
        let b = d.elements_per_partition().saturating_mul(d.num_partitions);
        if a != b {
            v.error(format!("attributes 'src' ({a} elements) and 'dst' ({b} elements): {rule} failed (rule: element counts agree)"));
        }
    }
}

/// The seeds' MX indirection asserts, at the IR level.
fn mx_pair(
    v: &mut OpView<'_, '_, '_>,
    data_name: &str,
    scale_name: &str,
    data: &Option<PhysAp>,
    scale: &Option<PhysAp>,
) {
    let (Some(data), Some(scale)) = (data, scale) else {
        return;
    };
    match (data, scale) {
        (PhysAp::Indirect { .. }, PhysAp::Static(_)) => v.error(format!(
            "attribute '{scale_name}': If the argument of matmult MX is indirect, the corresponding scale should also have indirection ('{data_name}' is indirect) (rule: MX scale indirection)"
        )),
        (PhysAp::Static(_), PhysAp::Indirect { .. }) => v.error(format!(
            "attribute '{data_name}': DataAP must be a Tensor Indirect AP when its scale '{scale_name}' is indirect (rule: MX scale indirection)"
        )),
        (PhysAp::Indirect { index: i1, index_arg: a1, .. }, PhysAp::Indirect { index: i2, index_arg: a2, .. }) => {
            if i1 != i2 || a1 != a2 {
                v.error(format!(
                    "attribute '{scale_name}': Furthermore, the corresponding scale must have exactly the same indirection as the argument '{data_name}' (rule: MX scale indirection)"
                ));
            }
        }
        (PhysAp::Static(_), PhysAp::Static(s)) => {
            if s.space != Space::Sbuf {
                v.error(format!("attribute '{scale_name}': MX Scale Tensor can only be in SB (rule: MX scale space)"));
            }
        }
    }
    if let PhysAp::Indirect { data: s, .. } = scale
        && s.space != Space::Sbuf
    {
        v.error(format!(
            "attribute '{scale_name}': MX Scale Tensor can only be in SB (rule: MX scale space)"
        ));
    }
}
