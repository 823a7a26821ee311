//! The back end: allocation properties (no two simultaneously live tiles overlap; alignment,
//! capacity and PSUM banks hold; random kernels either allocate or fail with the
//! out-of-memory diagnostic), the pure placement, and the round trip of compiled kernels
//! (every bundle passes the validators and lifts back to the instruction that encoded it).

use std::collections::HashMap;
use sundial::{CompileOptions, Emit, Session, Severity};
use sundial_codegen::{
    arch::{CoreGen, Target},
    decode_instructions,
    dtype::{bir_to_wire, wire_to_bir},
    model::{AccessPattern, Dim, Dims, Engine, Instruction, Op, TsForm},
    text::validate_all,
};
use sundial_isel::allocate::{OutOfMemory, Request, SpaceModel, peak_demand, place};

/// A small deterministic generator (xorshift64*), so that a failing case replays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

// ---------------------------------------------------------------- the pure placement

#[test]
fn placement_reuses_space_of_ranges_that_do_not_meet() {
    let sbuf = SpaceModel {
        capacity: 1000,
        bank: None,
    };
    let r = |bytes, align, live| Request { bytes, align, live };
    // [0,2] and [3,5] do not meet; [2,3] meets both.
    let reqs = [
        r(600, 4, Some((0, 2))),
        r(600, 4, Some((3, 5))),
        r(100, 8, Some((2, 3))),
    ];
    assert_eq!(place(&reqs, sbuf), Ok(vec![0, 0, 600]));
    assert_eq!(peak_demand(&reqs), 700);
    // Alignment: after a 6-byte tile, an 8-aligned one starts at 8.
    assert_eq!(
        place(&[r(6, 2, Some((0, 1))), r(8, 8, Some((1, 1)))], sbuf),
        Ok(vec![0, 8])
    );
    // Out of memory names the request and the peak.
    assert_eq!(
        place(&[r(600, 4, Some((0, 1))), r(600, 4, Some((1, 2)))], sbuf),
        Err(OutOfMemory {
            index: 1,
            peak: 1200,
            capacity: 1000
        })
    );
    // A dead tile meets nobody.
    assert_eq!(
        place(&[r(900, 4, Some((0, 9))), r(900, 4, None)], sbuf),
        Ok(vec![0, 0])
    );
}

#[test]
fn placement_keeps_psum_tiles_inside_banks() {
    let psum = SpaceModel {
        capacity: 16384,
        bank: Some(2048),
    };
    let r = |bytes| Request {
        bytes,
        align: 4,
        live: Some((0, 0)),
    };
    // The 4096-byte tile goes first (larger first) at 0, on a bank boundary; then 1536 bytes
    // at 4096, and the next 1536 would straddle 6144, so it starts there.
    assert_eq!(
        place(&[r(1536), r(1536), r(4096)], psum),
        Ok(vec![4096, 6144, 0])
    );
    assert_eq!(place(&[r(1536), r(1536)], psum), Ok(vec![0, 2048]));
    assert_eq!(
        place(&[r(512), r(512), r(512), r(512), r(100)], psum),
        Ok(vec![0, 512, 1024, 1536, 2048])
    );
}

/// Checks a placement against the requests: inside the space, aligned, banks respected, and
/// no two requests whose live ranges meet share a byte.
fn check_placement(reqs: &[Request], offsets: &[u64], space: SpaceModel) {
    for (i, (r, &o)) in reqs.iter().zip(offsets).enumerate() {
        assert!(o + r.bytes <= space.capacity, "request {i} past the end");
        assert_eq!(o % r.align, 0, "request {i} misaligned");
        if let Some(bank) = space.bank {
            if r.bytes <= bank && r.bytes > 0 {
                assert_eq!(
                    o / bank,
                    (o + r.bytes - 1) / bank,
                    "request {i} straddles a bank"
                );
            } else {
                assert_eq!(o % bank, 0, "request {i} not on a bank boundary");
            }
        }
        for (j, (q, &p)) in reqs.iter().zip(offsets).enumerate().skip(i + 1) {
            let (Some(a), Some(b)) = (r.live, q.live) else {
                continue;
            };
            let meet = a.0 <= b.1 && b.0 <= a.1;
            let share = o < p + q.bytes && p < o + r.bytes;
            assert!(
                !(meet && share),
                "requests {i} and {j} are live together and overlap"
            );
        }
    }
}

#[test]
fn random_placements_never_overlap_live_tiles() {
    let mut rng = Rng(0x5EED_1234);
    for round in 0..400 {
        let space = if round % 2 == 0 {
            SpaceModel {
                capacity: 4096,
                bank: None,
            }
        } else {
            SpaceModel {
                capacity: 4096,
                bank: Some(1024),
            }
        };
        let n = 1 + rng.below(24) as usize;
        let reqs: Vec<Request> = (0..n)
            .map(|_| {
                let start = rng.below(20) as usize;
                let live = (rng.below(8) != 0).then(|| (start, start + rng.below(6) as usize));
                Request {
                    bytes: 1 + rng.below(1500),
                    align: 1 << rng.below(4),
                    live,
                }
            })
            .collect();
        match place(&reqs, space) {
            Ok(offsets) => check_placement(&reqs, &offsets, space),
            Err(oom) => {
                assert!(oom.index < n);
                assert_eq!(oom.peak, peak_demand(&reqs));
            }
        }
    }
}

// ---------------------------------------------------------------- allocation in the IR

/// One tile of a random kernel, and the op positions (in the function's block) that touch it.
struct GenTile {
    name: String,
    bytes: u64,
    align: u64,
    space: &'static str,
    dtype: &'static str,
    free: u64,
    uses: Vec<usize>,
}

impl GenTile {
    fn ty(&self) -> String {
        format!(
            "memref<128x{}x{}, \"{}\">",
            self.free, self.dtype, self.space
        )
    }
}

/// A random kernel: tiles of random shape and dtype in SBUF and PSUM, and a random sequence
/// of memsets and same-shape copies between them (the text, and the tiles with their uses).
struct RandomKernel {
    text: String,
    tiles: Vec<GenTile>,
}

fn random_kernel(rng: &mut Rng, target: Target) -> RandomKernel {
    let dtypes = [("f32", 4u64), ("bf16", 2), ("ui8", 1), ("i32", 4)];
    let n = 2 + rng.below(10) as usize;
    let mut tiles = Vec::new();
    let mut body = String::new();
    for t in 0..n {
        let (dtype, size) = dtypes[rng.below(dtypes.len() as u64) as usize];
        let psum = dtype == "f32" && rng.below(3) == 0;
        let space = if psum { "psum" } else { "sbuf" };
        let free = 1 + rng.below(if psum { 1200 } else { 30000 });
        let tile = GenTile {
            name: format!("t{t}"),
            bytes: free * size,
            align: size,
            space,
            dtype,
            free,
            uses: Vec::new(),
        };
        body.push_str(&format!(
            "    %t{t} = \"nisa.alloc\"() {{name = \"t{t}\"}} : () -> {}\n",
            tile.ty()
        ));
        tiles.push(tile);
    }
    // The allocs take positions 0..n.
    let ops = 1 + rng.below(3 * n as u64) as usize;
    for position in n..n + ops {
        let a = rng.below(n as u64) as usize;
        // A copy between two tiles of the same element count (not both in PSUM), else a
        // memset.
        let partner = (0..n).find(|&b| {
            b != a
                && tiles[b].free == tiles[a].free
                && !(tiles[a].space == "psum" && tiles[b].space == "psum")
        });
        match partner {
            Some(b) if rng.below(2) == 0 => {
                body.push_str(&format!(
                    "    \"nisa.tensor_copy\"(%t{a}, %t{b}) {{engine = \"vector\"}} : ({}, {}) -> ()\n",
                    tiles[a].ty(),
                    tiles[b].ty()
                ));
                tiles[a].uses.push(position);
                tiles[b].uses.push(position);
            }
            _ => {
                let value = if tiles[a].dtype.starts_with('f') || tiles[a].dtype == "bf16" {
                    "1.0 : f32"
                } else {
                    "1"
                };
                body.push_str(&format!(
                    "    \"nisa.memset\"(%t{a}) {{value = {value}, engine = \"vector\"}} : ({}) -> ()\n",
                    tiles[a].ty()
                ));
                tiles[a].uses.push(position);
            }
        }
    }
    let text = format!(
        "module attributes {{sundial.target = \"{}\"}} {{\n  func.func @k() {{\n{body}    return\n  }}\n}}\n",
        target.name()
    );
    RandomKernel { text, tiles }
}

/// `name`'s `sundial.offset` in printed IR.
fn offset_of(printed: &str, name: &str) -> Option<u64> {
    let line = printed
        .lines()
        .find(|l| l.contains(&format!("name = \"{name}\"")))?;
    let at = line.find("sundial.offset = ")? + "sundial.offset = ".len();
    line[at..].split(' ').next()?.parse().ok()
}

#[test]
fn random_kernels_allocate_or_report_out_of_memory() {
    let session = Session::new().unwrap();
    let mut rng = Rng(0xA110_C8ED);
    let (mut placed, mut refused) = (0, 0);
    for round in 0..120 {
        let target = Target::ALL[round % 3];
        let arch = target.model();
        let kernel = random_kernel(&mut rng, target);
        let parsed = session.parse(kernel.text.as_bytes(), "random.mlir");
        let mut module = parsed.module.unwrap_or_else(|| {
            panic!(
                "generated kernel does not verify: {:?}\n{}",
                parsed.diagnostics, kernel.text
            )
        });
        match session.run_pipeline(
            &mut module,
            "sundial-allocate",
            &Default::default(),
            "random.mlir",
        ) {
            Ok(_) => {
                placed += 1;
                let printed = session.print(&module, Default::default());
                let mut by_space: HashMap<&str, (Vec<Request>, Vec<u64>)> = HashMap::new();
                for t in &kernel.tiles {
                    let offset = offset_of(&printed, &t.name)
                        .unwrap_or_else(|| panic!("{} has no offset:\n{printed}", t.name));
                    let live = t.uses.first().zip(t.uses.last()).map(|(&a, &b)| (a, b));
                    let entry = by_space.entry(t.space).or_default();
                    entry.0.push(Request {
                        bytes: t.bytes,
                        align: t.align,
                        live,
                    });
                    entry.1.push(offset);
                }
                for (space, (reqs, offsets)) in by_space {
                    let model = if space == "psum" {
                        SpaceModel {
                            capacity: arch.psum_active_bytes as u64,
                            bank: Some(arch.psum_bank_bytes as u64),
                        }
                    } else {
                        SpaceModel {
                            capacity: arch.sbuf_active_bytes as u64,
                            bank: None,
                        }
                    };
                    check_placement(&reqs, &offsets, model);
                }
            }
            Err(diags) => {
                refused += 1;
                assert!(
                    diags.iter().any(|d| d.severity == Severity::Error
                        && d.message.contains("does not fit")
                        && d.message.contains("(rule: out of memory)")
                        && d.loc.is_some()),
                    "not an out-of-memory diagnostic at an alloc: {diags:?}"
                );
            }
        }
    }
    assert!(
        placed > 10 && refused > 10,
        "both outcomes exercised ({placed} placed, {refused} refused)"
    );
}

// ---------------------------------------------------------------- compile and round trip

/// The example kernel, retargeted.
fn add_kernel(target: Target) -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/kernels/elementwise.mlir"
    ))
    .unwrap()
    .replace("\"cayman\"", &format!("\"{}\"", target.name()))
}

/// A kernel using every family the selector builds on all targets.
const FAMILIES: &str = r#"
module attributes {sundial.target = "TARGET"} {
  func.func @families(%in: memref<128x512xbf16, "hbm">, %idx_in: memref<128x64xui32, "hbm">, %out: memref<128x512xf32, "hbm">) {
    %x = "nisa.alloc"() : () -> memref<128x512xbf16, "sbuf">
    %y = "nisa.alloc"() : () -> memref<128x512xf32, "sbuf">
    %r = "nisa.alloc"() : () -> memref<128x1xf32, "sbuf">
    %m = "nisa.alloc"() : () -> memref<128x512xui8, "sbuf">
    %row = "nisa.alloc"() : () -> memref<1x512xf32, "sbuf">
    %idx = "nisa.alloc"() : () -> memref<128x64xui32, "sbuf">
    %g = "nisa.alloc"() : () -> memref<128x64xf32, "sbuf">
    %ps = "nisa.alloc"() : () -> memref<128x512xf32, "psum">
    %w = "nisa.alloc"() : () -> memref<128x128xbf16, "sbuf">
    %i = "nisa.alloc"() : () -> memref<128x64xi32, "sbuf">
    %ri = "nisa.alloc"() : () -> memref<128x1xi32, "sbuf">
    %s = "nisa.alloc"() : () -> memref<32x64xf32, "sbuf">
    %t = "nisa.alloc"() : () -> memref<16x16xf32, "sbuf">
    %tt = "nisa.alloc"() : () -> memref<16x16xf32, "sbuf">
    "nisa.dma_copy"(%x, %in) : (memref<128x512xbf16, "sbuf">, memref<128x512xbf16, "hbm">) -> ()
    "nisa.dma_copy"(%idx, %idx_in) : (memref<128x64xui32, "sbuf">, memref<128x64xui32, "hbm">) -> ()
    "nisa.tensor_copy"(%y, %x) {engine = "vector"} : (memref<128x512xf32, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
    "nisa.tensor_scalar_cache_reduce"(%y, %y, %r) {op0 = "mult", imm0 = 2.0 : f32, reduce_op = "add", operandSegmentSizes = array<i32: 1, 1, 0, 1>}
        : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_cache_cumulative"(%y, %y) {op0 = "add", op1 = "add", imm0 = 0.0 : f32}
        : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
    "nisa.activation_read_accumulator"(%r) : (memref<128x1xf32, "sbuf">) -> ()
    "nisa.memset"(%m) {value = 1, engine = "vector"} : (memref<128x512xui8, "sbuf">) -> ()
    "nisa.copy_predicated"(%y, %y, %m) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">, memref<128x512xui8, "sbuf">) -> ()
    "nisa.cross_lane_reduce_arith"(%row, %y) {op = "max"} : (memref<1x512xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
    "nisa.gather"(%g, %y, %idx) : (memref<128x64xf32, "sbuf">, memref<128x512xf32, "sbuf">, memref<128x64xui32, "sbuf">) -> ()
    "nisa.memset"(%w) {value = 1.0 : f32, engine = "vector"} : (memref<128x128xbf16, "sbuf">) -> ()
    "nisa.matmul"(%ps, %w, %x) : (memref<128x512xf32, "psum">, memref<128x128xbf16, "sbuf">, memref<128x512xbf16, "sbuf">) -> ()
    "nisa.tensor_reduce_arith"(%r, %ps) {op = "add", axis = array<i64: 1>} : (memref<128x1xf32, "sbuf">, memref<128x512xf32, "psum">) -> ()
    "nisa.tensor_tensor_arith"(%y, %ps, %y) {op = "mult", engine = "vector"} : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "psum">, memref<128x512xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_arith"(%y, %y, %r) {op0 = "divide", engine = "vector", operandSegmentSizes = array<i32: 1, 1, 1, 0>}
        : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">, memref<128x1xf32, "sbuf">) -> ()
    "nisa.reciprocal"(%y, %y) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
    "nisa.iota"(%i) {pattern = array<i64: 1, 64>, offset = 3} : (memref<128x64xi32, "sbuf">) -> ()
    "nisa.tensor_tensor_arith"(%i, %i, %i) {op = "add"} : (memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
    "nisa.tensor_tensor_bitvec"(%i, %i, %i) {op = "bitwise_xor"} : (memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
    "nisa.tensor_scalar_bitvec"(%i, %i) {op0 = "bitwise_and", imm0 = 255} : (memref<128x64xi32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
    "nisa.tensor_reduce_bitvec"(%ri, %i) {op = "bitwise_or", axis = array<i64: 1>} : (memref<128x1xi32, "sbuf">, memref<128x64xi32, "sbuf">) -> ()
    "nisa.memset"(%s) {value = 1.0 : f32, engine = "vector"} : (memref<32x64xf32, "sbuf">) -> ()
    "nisa.stream_shuffle"(%s, %s) {shuffle_mask = array<i64: 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 17, 16, 19, 18, 21, 20, 23, 22, 25, 24, 27, 26, 29, 28, 31, 30>}
        : (memref<32x64xf32, "sbuf">, memref<32x64xf32, "sbuf">) -> ()
    "nisa.memset"(%tt) {value = 2.0 : f32, engine = "vector"} : (memref<16x16xf32, "sbuf">) -> ()
    "nisa.stream_transpose"(%t, %tt) : (memref<16x16xf32, "sbuf">, memref<16x16xf32, "sbuf">) -> ()
    "nisa.tensor_tensor_power"(%y, %y, %y) : (memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">, memref<128x512xf32, "sbuf">) -> ()
    "nisa.dma_copy"(%out, %y) : (memref<128x512xf32, "hbm">, memref<128x512xf32, "sbuf">) -> ()
    return
  }
}
"#;

/// Unit dims dropped, parents cleared and the dtype the wire code is named after: what lifting
/// gives back for a pattern (the bytes cannot tell a unit dim from a spare slot, nor two BIR
/// dtypes of one wire code apart).
fn canonical_ap(ap: &mut AccessPattern, core: CoreGen) {
    let s = match ap {
        AccessPattern::Static(s) => s,
        AccessPattern::TensorIndirect(i) => &mut i.data,
    };
    s.parent = 0;
    s.dtype = wire_to_bir(bir_to_wire(s.dtype, core).0, core).unwrap_or(s.dtype);
    let dims: Vec<_> = s.dims.iter().filter(|d| d.num != 1).collect();
    s.dims = Dims::try_from(&dims[..]).unwrap();
}

/// An MX data operand as the MXMEM_PATTERN1D slot gives it back: the dtype the wire code is
/// named after (an x4 container shares its code with the plain fp8/fp4 type) and, for an x4
/// container read as plain elements, four times the count (the slot's `k_extent`).
fn mx_data(ap: &mut AccessPattern, core: CoreGen) {
    let AccessPattern::Static(s) = ap else { return };
    let named = wire_to_bir(bir_to_wire(s.dtype, core).0, core).unwrap_or(s.dtype);
    if s.dtype.is_x4_packed() && !named.is_x4_packed() {
        let dims: Vec<Dim> = s.dims.iter().map(|d| Dim::new(d.step, d.num * 4)).collect();
        s.dims = Dims::try_from(&dims[..]).unwrap();
    }
    s.dtype = named;
}

/// An MX scale operand as its slot gives it back: only its start is on the wire, so it lifts
/// with no dims, the E8M0 dtype and the data's partition count.
fn mx_scale(ap: &mut AccessPattern, partitions: u32) {
    if let AccessPattern::Static(s) = ap {
        s.dims = Dims::new();
        s.parent = 0;
        s.dtype = sundial_codegen::dtype::BirDtype::Float8E8m0fnu;
        s.partitions = partitions;
    }
}

/// The canonical form of an instruction for comparison with its lifted twin.
fn canonical(mut inst: Instruction, core: CoreGen) -> Instruction {
    inst.id = 0;
    let aps: Vec<&mut AccessPattern> = match &mut inst.op {
        Op::TensorTensor(o) => vec![&mut o.in0, &mut o.in1, &mut o.dst],
        Op::TensorScalar(o) => {
            let mut v = vec![&mut o.src, &mut o.dst];
            if let TsForm::CacheReduce { reduce_res } = &mut o.form {
                v.push(reduce_res);
            }
            v
        }
        Op::TensorCopy(o) => vec![&mut o.src, &mut o.dst],
        Op::Reciprocal(o) => vec![&mut o.src, &mut o.dst],
        Op::Memset(o) => vec![&mut o.dst],
        Op::TensorReduceArith(o) | Op::TensorReduceBitvec(o) => vec![&mut o.src, &mut o.dst],
        Op::Iota(o) => vec![&mut o.dst],
        Op::CopyPredicated(o) => vec![&mut o.mask, &mut o.src, &mut o.dst],
        Op::CrossLaneReduceArith(o) | Op::CrossLaneReduceBitvec(o) => vec![&mut o.src, &mut o.dst],
        Op::StreamShuffle(o) => vec![&mut o.src, &mut o.dst],
        Op::StreamTranspose(o) => vec![&mut o.src, &mut o.dst],
        Op::Gather(o) => vec![&mut o.data, &mut o.index, &mut o.dst],
        Op::Matmul(o) => vec![&mut o.weights, &mut o.moving, &mut o.dst],
        Op::MatmulMx(o) => {
            mx_data(&mut o.weights, core);
            mx_data(&mut o.moving, core);
            mx_scale(&mut o.weights_scale, o.weights.partitions());
            mx_scale(&mut o.moving_scale, o.moving.partitions());
            vec![&mut o.weights, &mut o.moving, &mut o.dst]
        }
        Op::QuantizeMx(o) => {
            mx_data(&mut o.dst, core);
            mx_scale(&mut o.dst_scale, o.dst.partitions());
            vec![&mut o.src, &mut o.dst]
        }
        Op::Activation(o) => vec![&mut o.src, &mut o.dst],
        Op::ActivationReadAccumulator(o) => vec![&mut o.dst],
        Op::RangeSelect(o) => vec![&mut o.src, &mut o.dst, &mut o.reduce_res],
        Op::DmaDirect2d(_) | Op::DmaIndirect(_) | Op::EventSemaphore(_) => vec![],
        other => panic!("the round trip does not canonicalise {other:?}"),
    };
    for ap in aps {
        canonical_ap(ap, core);
    }
    inst
}

fn compile(source: &str, target: Option<Target>) -> sundial::Compiled {
    let session = Session::new().unwrap();
    session
        .compile(
            source.as_bytes(),
            "kernel.mlir",
            &CompileOptions {
                target,
                ..Default::default()
            },
        )
        .unwrap_or_else(|d| panic!("does not compile: {d:?}"))
}

/// Every bundle passes the validators, and the bundles lift back to the instructions that
/// encoded them (up to what the wire cannot carry: unit dims, ids, and the engine of ops that
/// run on several, which lifts as the op's default).
fn round_trip(compiled: &sundial::Compiled) {
    let arch = compiled.target.model();
    for image in &compiled.engines {
        let bundles: Vec<[u8; 64]> = image
            .bytes
            .chunks(64)
            .map(|c| c.try_into().unwrap())
            .collect();
        assert_eq!(
            validate_all(&bundles, arch),
            vec![],
            "{} fails validation",
            image.file
        );
        let lifted = decode_instructions(&image.bytes, arch)
            .unwrap_or_else(|e| panic!("{} does not lift: {e}", image.file));
        assert_eq!(lifted.len(), image.instructions.len(), "{}", image.file);
        for (l, ours) in lifted.into_iter().zip(&image.instructions) {
            let mut ours = canonical(ours.clone(), arch.core);
            let l = canonical(l, arch.core);
            let default = ours.op.kind().info().engine;
            if l.engine == default && ours.engine != default {
                // The wire does not say which engine ran it (e.g. a GpSimd pow).
                ours.engine = default;
            }
            assert_eq!(l, ours, "{}: lifted instruction differs", image.file);
        }
    }
}

#[test]
fn example_kernels_round_trip_on_every_target() {
    for target in Target::ALL {
        let add = compile(&add_kernel(target), None);
        assert_eq!(add.target, target);
        round_trip(&add);
        let families = compile(&FAMILIES.replace("TARGET", target.name()), None);
        round_trip(&families);
        let engines: Vec<&str> = families.engines.iter().map(|e| e.engine.as_str()).collect();
        assert_eq!(engines, ["vector", "gpsimd", "scalar", "tensor", "dma"]);
    }
    let mx = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/kernels/mx_matmul.mlir"
    ))
    .unwrap();
    round_trip(&compile(&mx, None));
}

/// The shipped example kernels (examples/kernels/*.mlir, what scripts/example.sh compiles):
/// each compiles on its own target, every bundle passes the validators and lifts back to the
/// instruction that encoded it; and each kernel's selection shows the family it exists for.
#[test]
fn shipped_example_kernels_round_trip() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/kernels");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "elementwise",
            "moe_gather",
            "mx_matmul",
            "paged_attention",
            "rmsnorm"
        ]
    );
    for name in &names {
        let source = std::fs::read_to_string(dir.join(format!("{name}.mlir"))).unwrap();
        let compiled = compile(&source, None);
        round_trip(&compiled);
        let count = |opcode: u8| -> usize {
            compiled
                .engines
                .iter()
                .map(|e| e.opcodes.get(&opcode).copied().unwrap_or(0))
                .sum()
        };
        let insts: Vec<&Instruction> = compiled
            .engines
            .iter()
            .flat_map(|e| &e.instructions)
            .collect();
        // Hand-derived from each kernel's text.
        match name.as_str() {
            "elementwise" => assert_eq!((count(0x41), count(0x43), count(0xb8)), (1, 1, 3)),
            "rmsnorm" => {
                assert_eq!((count(0x41), count(0x42), count(0x43)), (2, 1, 3));
                assert_eq!(compiled.target, Target::Cayman);
            }
            "moe_gather" => {
                assert_eq!((count(0xbb), count(0x43)), (2, 1));
                let directions: Vec<_> = insts
                    .iter()
                    .filter_map(|i| match &i.op {
                        Op::DmaIndirect(d) => Some((d.direction, d.src.step, d.src.num)),
                        _ => None,
                    })
                    .collect();
                use sundial_codegen::model::DmaIndirectDirection::{Load, Save};
                // The gather reads 256-element rows at a 256-element pitch; the scatter writes
                // from SBUF, one partition per channel: the 2^18-byte SBUF partition stride
                // (bundle-layouts §1c) in bf16 elements.
                assert_eq!(directions, [(Load, 256, 256), (Save, 1 << 17, 256)]);
            }
            "paged_attention" => {
                assert_eq!((count(0xbb), count(0x01), count(0x02)), (2, 2, 2));
                let flags: Vec<u8> = insts
                    .iter()
                    .filter_map(|i| match &i.op {
                        Op::Matmul(m) => Some(m.psum_accumulate_flags),
                        _ => None,
                    })
                    .collect();
                assert_eq!(flags, [1, 2], "one accumulation group: BEGIN, END");
            }
            "mx_matmul" => {
                assert_eq!(compiled.target, Target::Mariana);
                assert_eq!((count(0xe3), count(0x09), count(0x0a)), (1, 1, 1));
            }
            other => panic!("no expectation for example {other}"),
        }
    }
}

#[test]
fn compile_returns_artefacts_as_values() {
    let compiled = compile(&add_kernel(Target::Cayman), Some(Target::Cayman));
    assert_eq!(compiled.kernel, "add_half");
    let manifest = compiled.manifest();
    assert_eq!(manifest["target"], "cayman");
    let engines = manifest["engines"].as_array().unwrap();
    assert_eq!(engines.len(), 2);
    assert_eq!(engines[1]["engine"], "dma");
    assert_eq!(engines[1]["file"], "dma.bin");
    assert_eq!(engines[1]["bundles"], 3);
    assert_eq!(engines[1]["bytes"], 192);
    assert_eq!(engines[1]["opcodes"]["0xb8"], 3);
    assert_eq!(engines[0]["opcodes"]["0x41"], 1);
    let phases: Vec<&str> = manifest["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        phases,
        [
            "parse", "unroll", "allocate", "isel", "lower", "sync", "encode", "validate"
        ]
    );
    let args = manifest["arguments"].as_array().unwrap();
    assert_eq!(args.len(), 3);
    // Hand-derived: tensor k's window starts at (k + 1) << 40.
    assert_eq!(args[2]["address"], "0x30000000000");
    assert_eq!(args[2]["bytes"], 128 * 512 * 4);
    let listing = compiled.listing().unwrap();
    assert!(listing.starts_with("# vector.bin: 2 bundles\ntensor_tensor_arith "));
    assert_eq!(listing.lines().count(), 2 + 2 + 3);

    // --emit=bir: the BIR text, no bundles.
    let session = Session::new().unwrap();
    let bir = session
        .compile(
            add_kernel(Target::Cayman).as_bytes(),
            "k.mlir",
            &CompileOptions {
                emit: Emit::Bir,
                ..Default::default()
            },
        )
        .unwrap();
    assert!(bir.engines.is_empty());
    assert!(bir.bir.contains("\"bir.tensor_tensor\"") && !bir.bir.contains("nisa."));

    // A middle-end pipeline runs first and is timed.
    let piped = session
        .compile(
            add_kernel(Target::Cayman).as_bytes(),
            "k.mlir",
            &CompileOptions {
                pipeline: Some("builtin.module(sundial-verify)".into()),
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(piped.phases[1].name, "middle-end");
}

#[test]
fn compile_errors_are_values() {
    let session = Session::new().unwrap();
    let options = CompileOptions::default();
    for (source, wanted) in [
        ("this is not mlir", "unknown"),
        ("func.func @k() {\n  return\n}\n", "no target: give one"),
        (
            "module attributes {sundial.target = \"cayman\"} {\n  func.func @a() {\n    return\n  }\n  func.func @b() {\n    return\n  }\n}\n",
            "holds 2 functions with a body",
        ),
    ] {
        let diags = session
            .compile(source.as_bytes(), "bad.mlir", &options)
            .err()
            .unwrap_or_else(|| panic!("compiled: {source}"));
        assert!(
            diags
                .iter()
                .any(|d| d.severity == Severity::Error && d.message.contains(wanted)),
            "{wanted}: {diags:?}"
        );
    }
    // An encoding failure is located at the op it came from.
    let four = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/lit/translate/Inputs/four-dims.mlir"
    ))
    .unwrap();
    let diags = session
        .compile(four.as_bytes(), "four.mlir", &options)
        .err()
        .unwrap();
    let d = diags
        .iter()
        .find(|d| d.message.contains("cannot be encoded"))
        .unwrap();
    assert_eq!(d.loc.as_ref().map(|l| (l.line, l.col)), Some((10, 5)));
    assert!(Engine::ALL.len() == 6);
}

/// A front end builds a kernel in memory (OpBuild) and compiles it: out = in * 2 through SBUF.
#[test]
fn a_built_kernel_compiles_to_bundles() {
    use melior::ir::{
        Block, BlockLike, Identifier, Location, Module, Region, RegionLike,
        attribute::{StringAttribute, TypeAttribute},
        operation::OperationBuilder,
        r#type::FunctionType,
    };
    use sundial_dialects::{
        build::{OpBuild, tile_type},
        dtype::Dtype,
        enums::Space,
    };
    let session = Session::new().unwrap();
    let context = session.context();
    let location = Location::unknown(context);
    let hbm = tile_type(context, Space::Hbm, &[128, 256], Dtype::Bf16).unwrap();
    let sbuf = tile_type(context, Space::Sbuf, &[128, 256], Dtype::Bf16).unwrap();
    let mut module = Module::new(location);
    let block = Block::new(&[(hbm, location), (hbm, location)]);
    let (input, output) = (
        block.argument(0).unwrap().into(),
        block.argument(1).unwrap().into(),
    );
    let alloc = block.append_operation(
        OpBuild::new(context, location, "nisa.alloc")
            .unwrap()
            .str("name", "x")
            .unwrap()
            .result(sbuf)
            .build()
            .unwrap(),
    );
    let x = alloc.result(0).unwrap().into();
    let ops = [
        OpBuild::new(context, location, "nisa.dma_copy")
            .unwrap()
            .operand("dst", x)
            .unwrap()
            .operand("src", input)
            .unwrap(),
        OpBuild::new(context, location, "nisa.tensor_scalar_arith")
            .unwrap()
            .operand("dst", x)
            .unwrap()
            .operand("data", x)
            .unwrap()
            .str("op0", "mult")
            .unwrap()
            .f32("imm0", 2.0)
            .unwrap()
            .str("engine", "vector")
            .unwrap(),
        OpBuild::new(context, location, "nisa.dma_copy")
            .unwrap()
            .operand("dst", output)
            .unwrap()
            .operand("src", x)
            .unwrap(),
    ];
    for op in ops {
        block.append_operation(op.build().unwrap());
    }
    block.append_operation(
        OperationBuilder::new("func.return", location)
            .build()
            .unwrap(),
    );
    let region = Region::new();
    region.append_block(block);
    module.body().append_operation(
        OperationBuilder::new("func.func", location)
            .add_attributes(&[
                (
                    Identifier::new(context, "sym_name"),
                    StringAttribute::new(context, "double").into(),
                ),
                (
                    Identifier::new(context, "function_type"),
                    TypeAttribute::new(FunctionType::new(context, &[hbm, hbm], &[]).into()).into(),
                ),
            ])
            .add_regions([region])
            .build()
            .unwrap(),
    );
    let compiled = session
        .compile_module(
            &mut module,
            "built",
            &CompileOptions {
                target: Some(Target::Sunda),
                ..Default::default()
            },
        )
        .unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(compiled.kernel, "double");
    assert_eq!(compiled.phases[0].name, "verify");
    let listing = compiled.listing().unwrap();
    // Hand-derived: 2.0 is 0x40000000 in fp32; the DMA moves 128 rows of 256 bf16.
    assert!(
        listing.contains("tensor_scalar_arith") && listing.contains("imm0=0x40000000"),
        "{listing}"
    );
    assert!(
        listing.contains("src_num_elem[0]=256 src_num_elem[1]=128"),
        "{listing}"
    );
    round_trip(&compiled);
}

/// The example front end (examples/frontend): its OpBuild-built kernel compiles on every
/// target, its bundles round-trip, and the listing shows the row-max reduction and the
/// per-partition subtraction.
#[test]
fn the_example_front_end_compiles_its_kernel() {
    let session = Session::new().unwrap();
    for target in Target::ALL {
        let compiled = crate::frontend_kernel::compile(&session, target)
            .unwrap_or_else(|d| panic!("{target}: {d}"));
        assert_eq!(compiled.kernel, "row_max_subtract");
        round_trip(&compiled);
        let listing = compiled.listing().unwrap();
        assert!(
            listing.starts_with("# vector.bin: 2 bundles\ntensor_reduce_arith "),
            "{listing}"
        );
        // The operand comes by pointer (imm0_src=ptr), the op is subtract.
        let ts = listing
            .lines()
            .find(|l| l.starts_with("tensor_scalar_arith"))
            .unwrap();
        assert!(
            ts.contains("op0=subtract") && ts.contains("imm0_src=ptr"),
            "{ts}"
        );
        assert!(listing.contains("# dma.bin: 2 bundles"));
    }
}

/// The families selected after the first examples round-trip too: range_select (with its
/// 0x9b read-out), the DMA-indirect gather and scatter, and the cache reduce with a
/// per-partition operand, from their lit/isel kernels.
#[test]
fn range_select_dma_indirect_and_cache_reduce_round_trip() {
    // Hand-counted from each file: the opcode of its family and how many bundles carry it.
    for (file, opcode, bundles) in [
        ("range-select.mlir", 0xbc, 1),
        ("dma-indirect.mlir", 0xbb, 2),
        ("tensor-scalar-cache.mlir", 0x9a, 2),
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("lit/isel")
            .join(file);
        let compiled = compile(&std::fs::read_to_string(path).unwrap(), None);
        round_trip(&compiled);
        let count: usize = compiled
            .engines
            .iter()
            .map(|e| e.opcodes.get(&opcode).copied().unwrap_or(0))
            .sum();
        assert_eq!(count, bundles, "{file}");
    }
}

/// BIR's accumulation commands (`reduce_cmd`, NKI's names) are codegen's `BirAccumulation`s:
/// each names the one whose wire ACCUM_CMD code is its own code, and every wire-encodable
/// accumulation is named (codegen's `Accumulate` has no wire code, bundle-layouts' LUT).
#[test]
fn bir_reduce_cmds_are_codegens_accumulations() {
    use sundial_codegen::enums::{BirAccumulation as A, accum_from_wire, accum_to_wire};
    use sundial_dialects::enums::ReduceCmd;
    let named: Vec<A> = ReduceCmd::ALL
        .iter()
        .map(|c| accum_from_wire(c.code() as u8).unwrap_or_else(|| panic!("{}", c.as_str())))
        .collect();
    // Hand-derived from the two tables: idle 0, reset 1 (Zero), reduce 2 (AddAccumulate),
    // reset_reduce 3 (ZeroAccumulate), load_reduce 4 (LoadAccumulate).
    assert_eq!(
        named,
        [
            A::Idle,
            A::Zero,
            A::AddAccumulate,
            A::ZeroAccumulate,
            A::LoadAccumulate
        ]
    );
    let encodable = A::ALL
        .iter()
        .filter(|a| accum_to_wire(**a).is_some())
        .count();
    assert_eq!(encodable, named.len());
}
