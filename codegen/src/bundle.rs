//! The 64-byte bundle skeleton, the sync band, and the three CodeGenModes.
//!
//! Lifecycle (seed DVE page, shared by all six ops): zero all 64 bytes, stamp the header
//! (byte 0 opcode, byte 1 `inst_word_len` 0x10, bytes 2-3 zero), stamp the sync band, fill the
//! dtype/control fields and access-pattern slots, then emit. The mode (the compiler's
//! `*(this+0x270)`) picks the sink:
//!
//! * [`CodeGenMode::Generate`] (1): fill, ISA-check, and append the bytes.
//! * [`CodeGenMode::RunIsaChecks`] (2): build a byte-identical bundle in a scratch buffer, run
//!   the validators on it, emit nothing.
//! * [`CodeGenMode::Collect`] (0): insert every opcode of the lowering (micro-pairs included)
//!   into an opcode set, emit nothing.
//!
//! `Generate` runs the validators too, as the seed's GENERATE blocks do (`runISACheck` before
//! the `fwrite`): a bundle the validator rejects is an [`EncodeError::IsaCheck`] carrying the
//! rule's diagnostic, never output. `RunIsaChecks` instead returns every diagnostic. The
//! encoders' own asserts run in every filling mode, before the ISA check.
//!
//! Sizes: every entry point that allocates or loops per bundle (`generate_vec`,
//! [`CodeGen::visit`], [`run_isa_checks`]) first refuses an instruction that lowers to more
//! than [`MAX_BUNDLES_PER_INSTRUCTION`] bundles.

use crate::arch::ArchModel;
use crate::error::EncodeError;
use crate::formats::events;
use crate::model::{Instruction, SyncInfo};
use crate::ops;
use crate::validate::{self, Diagnostic};

/// One 64-byte bundle.
pub type Bundle = [u8; 64];

/// Bundle size in bytes.
pub const BUNDLE_BYTES: usize = 64;

/// `inst_word_len`: 16 dwords (seed: byte 1 = 0x10).
pub const INST_WORD_LEN: u8 = 0x10;

/// `setupHeader` on a freshly zeroed bundle.
#[inline(always)]
pub fn setup_header(b: &mut Bundle, opcode: u8) {
    *b = [0u8; 64];
    b[0] = opcode;
    b[1] = INST_WORD_LEN;
}

/// `setupSyncWait` / `setupSyncUpdate`: the wait on the first bundle of a sequence, the update
/// on the last. The +0x08 dword is shared: the wait threshold goes there, and so does the update
/// value unless the mode is inc/dec; two different values are an error rather than a silent
/// overwrite.
#[inline]
pub fn setup_sync(
    b: &mut Bundle,
    sync: &SyncInfo,
    first: bool,
    last: bool,
) -> Result<(), EncodeError> {
    let mut value = None;
    if first && let Some(w) = sync.wait {
        events::WAIT_MODE.put_u8(b, w.mode.wire());
        events::WAIT_IDX.put_u8(b, w.sem);
        value = Some(w.value);
    }
    if last && let Some(u) = sync.update {
        events::UPDATE_MODE.put_u8(b, u.mode.wire());
        events::UPDATE_IDX.put_u8(b, u.sem);
        if u.mode.writes_value() {
            if let Some(wv) = value
                && wv != u.value
            {
                return Err(EncodeError::SyncValueConflict {
                    wait: wv,
                    update: u.value,
                });
            }
            value = Some(u.value);
        }
    }
    if let Some(v) = value {
        events::SEMAPHORE_VALUE.put_u32(b, v);
    }
    Ok(())
}

/// The three modes of the compiler's `CodeGenMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeGenMode {
    /// 0: collect opcodes.
    Collect,
    /// 1: fill and emit.
    Generate,
    /// 2: fill a scratch bundle and validate it.
    RunIsaChecks,
}

/// A set of opcodes (the COLLECT result).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpcodeSet([u64; 4]);

impl OpcodeSet {
    /// Inserts an opcode.
    pub fn insert(&mut self, op: u8) {
        self.0[op as usize >> 6] |= 1 << (op & 63);
    }

    /// Whether the set holds `op`.
    pub fn contains(&self, op: u8) -> bool {
        self.0[op as usize >> 6] & (1 << (op & 63)) != 0
    }

    /// The opcodes, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        (0..=255u8).filter(|&o| self.contains(o))
    }
}

/// Where the op encoders put bundles.
pub(crate) trait Sink {
    /// The next bundle to fill (the encoder stamps the header, which zeroes it), or
    /// `OutputFull` (with `needed` filled in by the caller) when there is no room.
    fn begin(&mut self) -> Result<&mut Bundle, EncodeError>;
    /// The bundle handed out by the last `begin` is complete.
    fn end(&mut self);
}

/// GENERATE into a caller-sized slice.
struct SliceSink<'a> {
    out: &'a mut [Bundle],
    n: usize,
}

impl Sink for SliceSink<'_> {
    #[inline(always)]
    fn begin(&mut self) -> Result<&mut Bundle, EncodeError> {
        let available = self.out.len();
        self.out.get_mut(self.n).ok_or(EncodeError::OutputFull {
            needed: 0,
            available,
        })
    }
    #[inline(always)]
    fn end(&mut self) {
        self.n += 1;
    }
}

/// RUN_ISA_CHECKS: a scratch bundle that is validated when complete.
struct CheckSink<'a> {
    arch: &'a ArchModel,
    scratch: Bundle,
    index: usize,
    diags: Vec<Diagnostic>,
}

impl Sink for CheckSink<'_> {
    fn begin(&mut self) -> Result<&mut Bundle, EncodeError> {
        Ok(&mut self.scratch)
    }
    fn end(&mut self) {
        self.diags.extend(validate::validate_bundle(
            &self.scratch,
            self.index,
            self.arch,
        ));
        self.index += 1;
    }
}

/// Number of bundles `inst` lowers to.
pub fn bundle_count(inst: &Instruction) -> usize {
    ops::bundle_count(inst)
}

/// GENERATE: encodes `inst` into `out`, returning the number of bundles written. On error the
/// contents of `out` are unspecified and nothing should be counted as emitted.
///
/// The common case takes a fast path that builds each bundle in registers; anything it does not
/// accept (every encoder error included) goes through [`generate_reference`], so the bytes and
/// the errors are those of the reference encoder. Either way the bundles then pass the ISA check
/// ([`isa_check`]) or the call fails with its first diagnostic: a bundle the validator rejects
/// is never handed out.
#[inline]
pub fn generate(
    inst: &Instruction,
    arch: &ArchModel,
    out: &mut [Bundle],
) -> Result<usize, EncodeError> {
    match ops::generate(inst, arch, out) {
        Some(n) => {
            // The fast path writes at most `out.len()` bundles; `min` keeps the slice total.
            isa_check(&out[..n.min(out.len())], arch)?;
            Ok(n)
        }
        None => generate_reference(inst, arch, out),
    }
}

/// The ISA check GENERATE runs on the bundles of one instruction before handing them out
/// (`runISACheck`): the first failing rule, as an [`EncodeError::IsaCheck`] whose diagnostic
/// numbers the bundles from 0. Validation allocates nothing when every rule passes.
#[inline]
pub fn isa_check(bundles: &[Bundle], arch: &ArchModel) -> Result<(), EncodeError> {
    for (i, b) in bundles.iter().enumerate() {
        if let Some(d) = validate::validate_bundle(b, i, arch).into_iter().next() {
            return Err(EncodeError::IsaCheck(d));
        }
    }
    Ok(())
}

/// GENERATE for a whole instruction stream of one target (the way a function is emitted):
/// the same bytes and errors as calling [`generate`] on each instruction in turn, without the
/// per-call model dispatch. Returns the number of bundles written, or the index of the first
/// instruction that failed with its error (the contents of `out` are then unspecified).
pub fn generate_stream(
    insts: &[Instruction],
    arch: &ArchModel,
    out: &mut [Bundle],
) -> Result<usize, (usize, EncodeError)> {
    ops::generate_stream(insts, arch, out)
}

/// GENERATE through the reference encoders, which fill each bundle field by field and check
/// every assert in the spec's order, then run the ISA check ([`isa_check`]). [`generate`]
/// produces the same bytes and errors faster; this entry point exists for it to fall back on
/// and for differential tests.
#[inline(never)]
pub fn generate_reference(
    inst: &Instruction,
    arch: &ArchModel,
    out: &mut [Bundle],
) -> Result<usize, EncodeError> {
    let mut sink = SliceSink { out, n: 0 };
    match ops::encode(inst, arch, &mut sink) {
        Ok(()) => {
            let n = sink.n;
            isa_check(&sink.out[..n.min(sink.out.len())], arch)?;
            Ok(n)
        }
        // The bundle count is only computed on this cold path.
        Err(EncodeError::OutputFull { available, .. }) => Err(EncodeError::OutputFull {
            needed: ops::bundle_count(inst),
            available,
        }),
        Err(e) => Err(e),
    }
}

/// The most bundles [`generate_vec`] allocates for one instruction. The largest real lowering
/// is a Gather whose uint32 index fills a 256 KiB SBUF partition: 65536 indices, 128 chunks,
/// 256 bundles; the limit leaves a wide margin and keeps a hostile instruction (a Gather with
/// 2^60 indices) from allocating, or aborting on, petabytes.
pub const MAX_BUNDLES_PER_INSTRUCTION: usize = 1 << 16;

/// The number of bundles `inst` lowers to, or [`EncodeError::TooManyBundles`] past
/// [`MAX_BUNDLES_PER_INSTRUCTION`]: the check every allocating or per-bundle loop runs first.
pub fn checked_bundle_count(inst: &Instruction) -> Result<usize, EncodeError> {
    let needed = ops::bundle_count(inst);
    if needed > MAX_BUNDLES_PER_INSTRUCTION {
        return Err(EncodeError::TooManyBundles {
            needed,
            limit: MAX_BUNDLES_PER_INSTRUCTION,
        });
    }
    Ok(needed)
}

/// GENERATE into a new vector.
pub fn generate_vec(inst: &Instruction, arch: &ArchModel) -> Result<Vec<Bundle>, EncodeError> {
    let mut v = Vec::new();
    generate_append(inst, arch, &mut v)?;
    Ok(v)
}

/// GENERATE appended to `out` (a stream being emitted): returns the number of bundles
/// added. On error `out` is as it was. The count is checked against
/// [`MAX_BUNDLES_PER_INSTRUCTION`] before `out` grows.
pub fn generate_append(
    inst: &Instruction,
    arch: &ArchModel,
    out: &mut Vec<Bundle>,
) -> Result<usize, EncodeError> {
    let needed = checked_bundle_count(inst)?;
    let start = out.len();
    out.resize(start + needed, [0u8; 64]);
    match generate(inst, arch, &mut out[start..]) {
        Ok(n) => {
            out.truncate(start + n);
            Ok(n)
        }
        Err(e) => {
            out.truncate(start);
            Err(e)
        }
    }
}

/// RUN_ISA_CHECKS: builds each bundle in a scratch buffer and validates it; emits nothing.
/// `first_index` numbers the bundles in the diagnostics. Encoder asserts are errors; validator
/// failures are the returned diagnostics (empty = valid). An instruction past
/// [`MAX_BUNDLES_PER_INSTRUCTION`] is refused before any bundle is built.
pub fn run_isa_checks(
    inst: &Instruction,
    arch: &ArchModel,
    first_index: usize,
) -> Result<Vec<Diagnostic>, EncodeError> {
    checked_bundle_count(inst)?;
    let mut sink = CheckSink {
        arch,
        scratch: [0; 64],
        index: first_index,
        diags: Vec::new(),
    };
    ops::encode(inst, arch, &mut sink)?;
    Ok(sink.diags)
}

/// COLLECT: inserts the opcodes of `inst`'s lowering into `set`.
pub fn collect(
    inst: &Instruction,
    arch: &ArchModel,
    set: &mut OpcodeSet,
) -> Result<(), EncodeError> {
    ops::check_target(inst, arch)?;
    for op in ops::opcodes(inst, arch) {
        set.insert(*op);
    }
    Ok(())
}

/// A code generator for one instruction stream in one mode.
pub struct CodeGen<'a> {
    /// Target model.
    pub arch: &'a ArchModel,
    /// Mode.
    pub mode: CodeGenMode,
    /// GENERATE output.
    pub bundles: Vec<Bundle>,
    /// COLLECT output.
    pub opcodes: OpcodeSet,
    /// RUN_ISA_CHECKS output.
    pub diagnostics: Vec<Diagnostic>,
    checked: usize,
}

impl<'a> CodeGen<'a> {
    /// A generator in `mode`.
    pub fn new(arch: &'a ArchModel, mode: CodeGenMode) -> Self {
        CodeGen {
            arch,
            mode,
            bundles: Vec::new(),
            opcodes: OpcodeSet::default(),
            diagnostics: Vec::new(),
            checked: 0,
        }
    }

    /// Visits one instruction in the generator's mode.
    pub fn visit(&mut self, inst: &Instruction) -> Result<(), EncodeError> {
        match self.mode {
            CodeGenMode::Generate => {
                let start = self.bundles.len();
                let n = checked_bundle_count(inst)?;
                self.bundles.resize(start + n, [0; 64]);
                match generate(inst, self.arch, &mut self.bundles[start..]) {
                    Ok(_) => Ok(()),
                    Err(e) => {
                        self.bundles.truncate(start);
                        Err(e)
                    }
                }
            }
            CodeGenMode::RunIsaChecks => {
                let d = run_isa_checks(inst, self.arch, self.checked)?;
                self.checked += checked_bundle_count(inst)?;
                self.diagnostics.extend(d);
                Ok(())
            }
            CodeGenMode::Collect => collect(inst, self.arch, &mut self.opcodes),
        }
    }
}
