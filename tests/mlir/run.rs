//! `sundial-run` (`sundial::run`): the tables it is built from, `.npy` files read and written
//! through ndarray-npy's typed API (independently of the tool's own reader and writer), the
//! bit-exact round trip through a DMA kernel, the `nisa.ap` geometry, and the comparison that
//! `--compare-pipeline` reports.

use std::path::{Path, PathBuf};

use ndarray::{Array1, Array2, ArrayD, IxDyn};
use ndarray_npy::{read_npy, write_npy};
use sundial::Session;
use sundial::run::{
    Program, RunConfig, ap, cli, compare, exec, find_function, npy,
    ops::{HANDLERS, REFUSED, handler},
};
use sundial_dialects::dtype::Dtype;
use sundial_emu::{DType, Memory, Target, View};

/// A fresh directory for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sundial-run-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Runs the tool's `main` on `args` (after the program name).
fn tool(args: &[&str]) -> i32 {
    let mut argv = vec!["sundial-run".into()];
    argv.extend(args.iter().map(std::ffi::OsString::from));
    cli::main_with_args(argv)
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

#[test]
fn every_handler_row_names_an_op_once() {
    let context = sundial_dialects::create_context().expect("a context");
    for (i, h) in HANDLERS.iter().enumerate() {
        if let Some(mnemonic) = h.op.strip_prefix("nisa.") {
            assert!(
                sundial_dialects::nisa::op(mnemonic).is_some(),
                "handler row {} is not a NISA op",
                h.op
            );
        } else if h.op.starts_with("arith.") {
            // The index arithmetic: each row names an op of the upstream dialect.
            let name = melior::StringRef::new(h.op);
            let known = unsafe {
                mlir_sys::mlirContextIsRegisteredOperation(context.to_raw(), name.to_raw())
            };
            assert!(known, "handler row {} is not an arith op", h.op);
        } else {
            assert_eq!(h.op, "func.return", "an unexpected non-NISA row");
        }
        assert!(
            HANDLERS[..i].iter().all(|o| o.op != h.op),
            "{} has two rows",
            h.op
        );
        assert!(handler(h.op).is_some());
    }
    assert!(handler("nisa.tensor_tensor_arith").is_some());
    assert!(handler("nisa.core_barrier").is_some());
    assert!(
        handler("scf.for").is_none() && handler("scf.if").is_none(),
        "loops and conditionals are run by the program, not a handler"
    );
}

/// The enforcement test of the op table: every NISA op either runs (a row of HANDLERS) or is
/// refused with a reason (a row of REFUSED), never both and never neither; a refusal that
/// cites the emulator names an op the emulator refuses, and its diagnostic carries the
/// emulator's reason.
#[test]
fn every_nisa_op_runs_or_is_refused_with_a_reason() {
    use sundial::run::ops::{Why, refusal};
    for spec in sundial_dialects::nisa::OPS {
        let name = format!("nisa.{}", spec.name);
        let runs = handler(&name).is_some();
        let refused: Vec<_> = REFUSED.iter().filter(|(n, _)| *n == name).collect();
        assert!(
            runs ^ (refused.len() == 1),
            "{name}: a handler ({runs}) or exactly one refusal ({} rows)",
            refused.len()
        );
        if let [(_, why)] = refused[..] {
            let text = refusal(&name).expect("a refused op has a reason");
            assert!(!text.is_empty(), "{name}");
            if *why == Why::NoPublicSemantics {
                let emu = sundial_emu::refusal(spec.name)
                    .unwrap_or_else(|| panic!("the emulator does not refuse {}", spec.name));
                assert!(text.contains(emu), "{name}: {text}");
            }
        }
    }
    for (name, _) in REFUSED {
        let mnemonic = name.strip_prefix("nisa.").expect("a NISA op");
        assert!(sundial_dialects::nisa::op(mnemonic).is_some(), "{name}");
    }
    // Collectives, and only they, run on the whole rank group.
    use sundial::run::Scope;
    for h in HANDLERS {
        let collective = sundial_dialects::nisa::op(h.op.trim_start_matches("nisa."))
            .and_then(|s| s.emit)
            .is_some_and(|e| (43..=55).contains(&e));
        assert_eq!(h.scope == Scope::Group, collective, "{}", h.op);
    }
}

#[test]
fn every_nisa_dtype_has_one_format_of_its_size() {
    for &d in Dtype::ALL {
        let rows: Vec<_> = npy::FORMATS.iter().filter(|f| f.nisa == d).collect();
        assert_eq!(rows.len(), 1, "{d:?} needs exactly one row");
        let f = rows[0];
        assert_eq!(f.size() as u64, d.byte_size(), "{d:?}");
        assert!(
            f.little.contains(&f.write),
            "{d:?} must read what it writes"
        );
    }
}

#[test]
fn every_table_default_is_read_by_the_attribute_getters() {
    use sundial_dialects::spec::Presence;
    for op in sundial_dialects::nisa::OPS {
        for a in op.attrs {
            if let Presence::Default(text) = a.presence {
                assert!(
                    exec::default_parses(&a.kind, text),
                    "nisa.{} attribute '{}' default '{text}'",
                    op.name,
                    a.name
                );
            }
        }
    }
    // Golden values written from the spelling, not from the parser.
    assert_eq!(exec::parse_default_ints("array<i64: 0>"), Some(vec![0]));
    assert_eq!(
        exec::parse_default_ints("array<i64: 3, -1>"),
        Some(vec![3, -1])
    );
    assert_eq!(exec::parse_default_ints("array<i64>"), Some(vec![]));
    assert_eq!(exec::parse_default_float("-3.40282347e+38"), Some(f32::MIN));
    assert_eq!(exec::parse_default_bool("true"), Some(true));
    assert_eq!(exec::parse_default_int("-1"), Some(-1));
    assert_eq!(exec::parse_default_int("x"), None);
}

const COPY: &str = r#"
module {
  func.func @copy(%a: memref<4x5xf32, "hbm">, %b: memref<4x5xf32, "hbm">,
                  %i: memref<7xi64, "hbm">, %j: memref<7xi64, "hbm">,
                  %h: memref<3x2xbf16, "hbm">, %k: memref<3x2xbf16, "hbm">) {
    %t = "nisa.alloc"() : () -> memref<4x5xf32, "sbuf">
    "nisa.dma_copy"(%t, %a) : (memref<4x5xf32, "sbuf">, memref<4x5xf32, "hbm">) -> ()
    "nisa.dma_copy"(%b, %t) : (memref<4x5xf32, "hbm">, memref<4x5xf32, "sbuf">) -> ()
    %u = "nisa.alloc"() : () -> memref<7xi64, "sbuf">
    "nisa.dma_copy"(%u, %i) : (memref<7xi64, "sbuf">, memref<7xi64, "hbm">) -> ()
    "nisa.dma_copy"(%j, %u) : (memref<7xi64, "hbm">, memref<7xi64, "sbuf">) -> ()
    "nisa.dma_copy"(%k, %h) : (memref<3x2xbf16, "hbm">, memref<3x2xbf16, "hbm">) -> ()
    return
  }
}
"#;

/// npy in -> dma_copy kernel (through SBUF) -> npy out is the identity, bit for bit, for
/// values a conversion would disturb: NaNs with payloads, -0.0, subnormals, infinities, the
/// extremes of int64, and bf16 bit patterns.
#[test]
fn a_dma_copy_kernel_round_trips_npy_files_bit_exactly() {
    let dir = scratch("roundtrip");
    let kernel = dir.join("copy.mlir");
    std::fs::write(&kernel, COPY).unwrap();
    let bits: Vec<u32> = vec![
        0x7fc0_0001,
        0xffc1_2345,
        0x8000_0000,
        0x0000_0001,
        0x7f80_0000,
        0xff80_0000,
        0x3f80_0000,
        0x7f7f_ffff,
        0x0080_0000,
        0x807f_ffff,
        0x7fa0_0000,
        0,
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
    ];
    let a =
        Array2::from_shape_vec((4, 5), bits.iter().map(|&b| f32::from_bits(b)).collect()).unwrap();
    let i = Array1::from(vec![i64::MIN, i64::MAX, -1, 0, 1, 42, -42]);
    let h = Array2::from_shape_vec(
        (3, 2),
        vec![0x3fc0u16, 0x7f80, 0xffc1, 0x8000, 0x0001, 0x7fff],
    )
    .unwrap();
    write_npy(dir.join("a.npy"), &a).unwrap();
    write_npy(dir.join("i.npy"), &i).unwrap();
    write_npy(dir.join("h.npy"), &h).unwrap();
    let arg = |k: usize, f: &str| format!("{k}={}", path(&dir.join(f)));
    let status = tool(&[
        path(&kernel),
        "--arg",
        &arg(0, "a.npy"),
        "--arg",
        &arg(2, "i.npy"),
        "--arg",
        &arg(4, "h.npy"),
        "--save",
        &arg(1, "b.npy"),
        "--save",
        &arg(3, "j.npy"),
        "--save",
        &arg(5, "k.npy"),
    ]);
    assert_eq!(status, 0);
    let b: Array2<f32> = read_npy(dir.join("b.npy")).unwrap();
    let out: Vec<u32> = b.iter().map(|v| v.to_bits()).collect();
    assert_eq!(out, bits);
    let j: Array1<i64> = read_npy(dir.join("j.npy")).unwrap();
    assert_eq!(j, i);
    // bf16 is saved as '<u2' (raw bits): readable as uint16.
    let k: Array2<u16> = read_npy(dir.join("k.npy")).unwrap();
    assert_eq!(k, h);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An array written by ndarray-npy in Fortran order (a transposed view) reads back in C
/// order through the tool.
#[test]
fn fortran_order_files_are_read_in_their_own_order() {
    let dir = scratch("fortran");
    let c = ArrayD::from_shape_vec(IxDyn(&[2, 3, 4]), (0..24i32).collect()).unwrap();
    // A Fortran-order array with the same logical contents.
    let f = c
        .clone()
        .reversed_axes()
        .as_standard_layout()
        .reversed_axes()
        .to_owned();
    assert!(f.t().is_standard_layout());
    write_npy(dir.join("f.npy"), &f).unwrap();
    let bytes = std::fs::read(dir.join("f.npy")).unwrap();
    assert!(
        String::from_utf8_lossy(&bytes[..128]).contains("'fortran_order': True"),
        "ndarray-npy wrote C order"
    );
    let format = npy::format_of(Dtype::I32);
    let data = npy::parse(&bytes, format, &[2, 3, 4]).unwrap();
    let values: Vec<i32> = data
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(values, (0..24).collect::<Vec<_>>());
    let _ = std::fs::remove_dir_all(&dir);
}

/// What the tool writes is what numpy's format says: ndarray-npy reads every native dtype
/// back with its typed reader.
#[test]
fn saved_files_are_read_by_ndarray_npy() {
    let f = npy::format_of(Dtype::I16);
    let data: Vec<u8> = [1i16, -2, 300]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let file = npy::encode(f, &[3], &data).unwrap();
    let dir = scratch("encode");
    std::fs::write(dir.join("x.npy"), &file).unwrap();
    let back: Array1<i16> = read_npy(dir.join("x.npy")).unwrap();
    assert_eq!(back.to_vec(), vec![1, -2, 300]);
    let f = npy::format_of(Dtype::F16);
    let file = npy::encode(f, &[2], &[0x00, 0x3c, 0x00, 0xc0]).unwrap();
    // '<f2' is a numpy float16: 1.0 and -2.0.
    assert!(String::from_utf8_lossy(&file).contains("'descr': '<f2'"));
    let _ = std::fs::remove_dir_all(&dir);
}

fn sbuf_tile(mem: &mut Memory, shape: &[usize]) -> View {
    mem.alloc_sbuf(DType::F32, shape).unwrap()
}

#[test]
fn access_patterns_map_onto_emulator_layouts() {
    let mut mem = Memory::new(Target::Cayman);
    // HBM [8, 4] f32: rows 2..4, every other column from column 1.
    let h = mem.alloc_hbm("h", DType::F32, &[8, 4]).unwrap();
    let v = ap::view(&h, false, DType::F32, &[(4, 2), (2, 2)], 9, None).unwrap();
    assert_eq!(
        (v.offset(), v.shape(), v.strides()),
        (9, &[2, 2][..], &[4, 2][..])
    );
    // The same tensor read as uint16 halves: offsets and steps count halves.
    let v = ap::view(&h, false, DType::U16, &[(1, 64)], 0, None).unwrap();
    assert_eq!(v.shape(), &[64]);
    assert!(ap::view(&h, false, DType::U16, &[(1, 65)], 0, None).is_err());
    // An indirect row dimension spans every row of the table.
    let v = ap::view(&h, false, DType::F32, &[(4, 3), (1, 4)], 0, Some(0)).unwrap();
    assert_eq!(v.shape(), &[8, 4]);
    // SBUF [4, 4] f32 on cayman (224 KiB per partition = 57344 f32): offset 5 is partition 1,
    // column 1.
    let t = sbuf_tile(&mut mem, &[4, 4]);
    let v = ap::view(&t, true, DType::F32, &[(4, 2), (1, 2)], 5, None).unwrap();
    assert_eq!(v.strides(), &[57344, 1]);
    assert_eq!(v.offset(), t.offset() + 57344 + 1);
    // The partition step must be the row size, and the free part must stay in the row.
    assert!(ap::view(&t, true, DType::F32, &[(8, 2), (1, 2)], 0, None).is_err());
    let err = ap::view(&t, true, DType::F32, &[(4, 2), (1, 3)], 2, None).unwrap_err();
    assert!(err.contains("next partition"), "{err}");
    // An indirect partition dimension spans the partitions from the start one.
    let v = ap::view(&t, true, DType::F32, &[(4, 1), (1, 4)], 4, Some(0)).unwrap();
    assert_eq!(v.shape(), &[3, 4]);
    // Step 0 on an indirect dimension is refused.
    assert!(ap::view(&t, true, DType::F32, &[(4, 1), (0, 4)], 0, Some(1)).is_err());
}

#[test]
fn index_tiles_are_read_along_their_one_long_dimension() {
    let col =
        View::contiguous(sundial_emu::AllocId::from_raw(0), DType::I32, 0, vec![5, 1]).unwrap();
    let row =
        View::contiguous(sundial_emu::AllocId::from_raw(0), DType::I32, 0, vec![1, 5]).unwrap();
    let sq =
        View::contiguous(sundial_emu::AllocId::from_raw(0), DType::I32, 0, vec![2, 3]).unwrap();
    let var = sundial_emu::Affine::var(2);
    let zero = sundial_emu::Affine::constant(0);
    assert_eq!(
        ap::index_at(&col, 2).unwrap(),
        vec![var.clone(), zero.clone()]
    );
    assert_eq!(ap::index_at(&row, 2).unwrap(), vec![zero, var]);
    assert!(ap::index_at(&sq, 2).is_err());
}

const TWO_KERNELS: &str = r#"
module {
  func.func @k(%a: memref<2x3xf32, "hbm">, %b: memref<2x3xf32, "hbm">, %out: memref<2x3xf32, "hbm">) {
    "nisa.dma_copy"(%out, %a) : (memref<2x3xf32, "hbm">, memref<2x3xf32, "hbm">) -> ()
    return
  }
  func.func @other(%a: memref<2x3xf32, "hbm">, %b: memref<2x3xf32, "hbm">, %out: memref<2x3xf32, "hbm">) {
    "nisa.dma_copy"(%out, %b) : (memref<2x3xf32, "hbm">, memref<2x3xf32, "hbm">) -> ()
    return
  }
  func.func @narrow(%a: memref<2x3xf32, "hbm">) {
    return
  }
}
"#;

fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The comparison `--compare-pipeline` reports: the first differing element with its
/// argument, index and both values; NaNs equal whatever their payload.
#[test]
fn compare_runs_reports_the_first_difference() {
    let session = Session::new().unwrap();
    let parsed = session.parse(TWO_KERNELS.as_bytes(), "two.mlir");
    let module = parsed.module.expect("the kernels parse");
    let k = Program::prepare(find_function(&module, Some("k")).unwrap()).unwrap();
    let other = Program::prepare(find_function(&module, Some("other")).unwrap()).unwrap();
    let narrow = Program::prepare(find_function(&module, Some("narrow")).unwrap()).unwrap();
    let a = f32_bytes(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let mut b = a.clone();
    b[16..20].copy_from_slice(&7.5f32.to_le_bytes());
    let inputs = vec![a.clone(), b, vec![0; 24]];
    let mariana = RunConfig::new(Target::Mariana);
    let verdict = compare::compare_runs(&k, &other, &inputs, &mariana).unwrap();
    let compare::Verdict::Differs(d) = verdict else {
        panic!("the kernels differ: {verdict:?}")
    };
    assert_eq!(
        d.to_string(),
        "argument 2, index [1, 1]: before 5.0 (0x40a00000), after 7.5 (0x40f00000)"
    );
    // The same kernel compares equal, and its results are returned.
    let same = compare::compare_runs(&k, &k, &inputs, &mariana).unwrap();
    let compare::Verdict::Same(out) = same else {
        panic!("a kernel computes what it computes: {same:?}")
    };
    assert_eq!(out.args, vec![a.clone(), inputs[1].clone(), a]);
    // A different signature is an error.
    let err = compare::compare_runs(&k, &narrow, &inputs, &mariana).unwrap_err();
    assert!(
        err.message.contains("changed the arguments"),
        "{}",
        err.message
    );

    assert!(compare::same(DType::F32, 0x7fc0_0000, 0xffc0_1234));
    assert!(compare::same(DType::Bf16, 0x7fc0, 0xffff));
    assert!(!compare::same(DType::F32, 0x0000_0000, 0x8000_0000));
    assert!(!compare::same(DType::I32, 1, 2));
    assert_eq!(compare::show(DType::I8, 0xff), "-1");
    assert_eq!(compare::show(DType::U64, u64::MAX), "18446744073709551615");
    assert_eq!(compare::unravel(7, &[2, 3, 4]), vec![0, 1, 3]);
}

/// The library runs a kernel from bytes to bytes; arguments not given are the caller's.
#[test]
fn programs_execute_from_bytes_to_bytes() {
    let session = Session::new().unwrap();
    let module = session
        .parse(TWO_KERNELS.as_bytes(), "two.mlir")
        .module
        .unwrap();
    let k = Program::prepare(find_function(&module, None).unwrap()).unwrap();
    assert_eq!(k.args.len(), 3);
    assert_eq!(k.args[0].type_text, "memref<2x3xf32, \"hbm\">");
    let a = f32_bytes(&[0.5; 6]);
    let sunda = RunConfig::new(Target::Sunda);
    let out = k
        .execute(&[a.clone(), vec![0; 24], vec![0; 24]], &sunda)
        .unwrap();
    assert_eq!(out.args[2], a);
    // Contents of the wrong size are refused, not truncated.
    let err = k
        .execute(&[vec![0; 3], vec![0; 24], vec![0; 24]], &sunda)
        .unwrap_err();
    assert!(err.message.contains("3 bytes given"), "{}", err.message);
}

/// A folded view takes its logical shape wherever strides can say it, and keeps the
/// pattern's shape (same partitions, same elements per partition) where they cannot.
#[test]
fn folded_views_take_their_logical_shape_where_strides_allow() {
    let mut mem = Memory::new(Target::Cayman);
    let h = mem.alloc_hbm("h", DType::F32, &[64]).unwrap();
    // A contiguous run of 12 read as [3, 4]: strides 4 and 1.
    let run = ap::view(&h, false, DType::F32, &[(1, 12)], 8, None).unwrap();
    let v = ap::with_shape(run, &[3, 4], false);
    assert_eq!(
        (v.shape(), v.strides(), v.offset()),
        (&[3, 4][..], &[4, 1][..], 8)
    );
    // A [2, 3] walk of stride (10, 2) under [2, 3, 1]: the size-1 dimension gets stride 0.
    let walk = ap::view(&h, false, DType::F32, &[(10, 2), (2, 3)], 0, None).unwrap();
    let v = ap::with_shape(walk.clone(), &[2, 3, 1], false);
    assert_eq!(v.strides(), &[10, 2, 0]);
    // Six elements of two runs cannot be one dimension: the pattern's shape stays.
    let v = ap::with_shape(walk, &[6], false);
    assert_eq!(v.shape(), &[2, 3]);
    // On-chip the partition dimension is kept and the free run splits.
    let t = sbuf_tile(&mut mem, &[4, 8]);
    let free = ap::view(&t, true, DType::F32, &[(8, 4), (1, 8)], 0, None).unwrap();
    let v = ap::with_shape(free, &[4, 2, 4], true);
    assert_eq!(v.strides(), &[t.strides()[0], 4, 1]);
}

const LOOP_ON_RANKS: &str = r#"
func.func @k(%x: memref<4x2xf32, "hbm">, %y: memref<4x2xf32, "hbm">) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %t = "nisa.alloc"() : () -> memref<1x2xf32, "sbuf">
  scf.for %i = %c0 to %c4 step %c1 {
    %off = arith.muli %i, %c2 : index
    %s = "nisa.dynamic_ap"(%x, %off) {pattern = array<i64: 2, 1, 1, 2>} : (memref<4x2xf32, "hbm">, index) -> memref<1x2xf32, "hbm">
    "nisa.dma_copy"(%t, %s) : (memref<1x2xf32, "sbuf">, memref<1x2xf32, "hbm">) -> ()
    "nisa.tensor_scalar_arith"(%t, %t) {op0 = "add", imm0 = 1.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (memref<1x2xf32, "sbuf">, memref<1x2xf32, "sbuf">) -> ()
    %d = "nisa.dynamic_ap"(%y, %off) {pattern = array<i64: 2, 1, 1, 2>} : (memref<4x2xf32, "hbm">, index) -> memref<1x2xf32, "hbm">
    "nisa.dma_copy"(%d, %t) : (memref<1x2xf32, "hbm">, memref<1x2xf32, "sbuf">) -> ()
  }
  return
}
"#;

/// A loop runs every iteration on every rank, each rank on its own arguments; the tile
/// allocated in the body is one tile reused (and marked unwritten again) per iteration.
#[test]
fn loops_run_on_every_rank_with_their_own_arguments() {
    let session = Session::new().unwrap();
    let module = session
        .parse(LOOP_ON_RANKS.as_bytes(), "loop.mlir")
        .module
        .unwrap();
    let k = Program::prepare(find_function(&module, None).unwrap()).unwrap();
    let mut config = RunConfig::new(Target::Cayman);
    config.ranks = Some(2);
    // Rank 0 holds 0..8, rank 1 holds 10..18; y = x + 1 on each.
    let x: Vec<f32> = (0..8)
        .map(|v| v as f32)
        .chain((10..18).map(|v| v as f32))
        .collect();
    let out = k.execute(&[f32_bytes(&x), vec![0; 64]], &config).unwrap();
    let want: Vec<f32> = x.iter().map(|v| v + 1.0).collect();
    assert_eq!(out.args[1], f32_bytes(&want));
}

/// Every refusal of the op table has a lit test that triggers it: the diagnostic
/// `op 'NAME' cannot run on the emulator` appears in a CHECK line under `lit/run`.
#[test]
fn every_refused_op_has_a_lit_test() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("lit/run");
    let mut text = String::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "mlir") {
            text.push_str(&std::fs::read_to_string(&path).unwrap());
        }
    }
    let untested: Vec<&str> = REFUSED
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| !text.contains(&format!("op '{name}' cannot run on the emulator")))
        .collect();
    assert!(
        untested.is_empty(),
        "refusals without a lit test: {untested:?}"
    );
}

/// Forms on which the verifier and the emulator used to disagree, written the way both now
/// accept (NKI's docstrings): each verifies and runs. Before, the verifier refused the first
/// three (a `[P, 1]` select_reduce `on_false`, a uint16 find_index8 result, an integer
/// range_start) and accepted forms the emulator then refused (see `lit/nisa/invalid-*.mlir`).
const RECONCILED: &str = r#"
module attributes {sundial.target = "mariana"} {
  func.func @k(%a: memref<2x8xf32, "sbuf">, %p: memref<2x8xui8, "sbuf">, %f: memref<2x1xf32, "sbuf">,
               %d: memref<2x8xf32, "sbuf">, %r: memref<2x1xf32, "sbuf">, %i: memref<2x8xui16, "sbuf">,
               %v: memref<2x8xf32, "sbuf">, %seed: memref<1x1xui32, "sbuf">, %bits: memref<2x8xui16, "sbuf">,
               %st: memref<2x24xui32, "sbuf">) {
    "nisa.select_reduce"(%d, %p, %a, %f, %r) {reduce_cmd = "reset_reduce", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}
        : (memref<2x8xf32, "sbuf">, memref<2x8xui8, "sbuf">, memref<2x8xf32, "sbuf">, memref<2x1xf32, "sbuf">, memref<2x1xf32, "sbuf">) -> ()
    "nisa.find_index8"(%i, %a, %v) : (memref<2x8xui16, "sbuf">, memref<2x8xf32, "sbuf">, memref<2x8xf32, "sbuf">) -> ()
    "nisa.range_select"(%d, %a, %f, %f, %r) {comp_op0 = "is_ge", comp_op1 = "is_lt", range_start = 3 : i64}
        : (memref<2x8xf32, "sbuf">, memref<2x8xf32, "sbuf">, memref<2x1xf32, "sbuf">, memref<2x1xf32, "sbuf">, memref<2x1xf32, "sbuf">) -> ()
    "nisa.set_rng_seed"(%seed) : (memref<1x1xui32, "sbuf">) -> ()
    "nisa.rng"(%bits) : (memref<2x8xui16, "sbuf">) -> ()
    "nisa.rand_get_state"(%st) {engine = "vector"} : (memref<2x24xui32, "sbuf">) -> ()
    "nisa.rand2"(%a) {min = -1.0 : f32, max = 1.0 : f32} : (memref<2x8xf32, "sbuf">) -> ()
    return
  }
}
"#;

#[test]
fn forms_the_verifier_and_the_emulator_now_agree_on_run() {
    let session = Session::new().unwrap();
    let parsed = session.parse(RECONCILED.as_bytes(), "reconciled.mlir");
    let module = parsed
        .module
        .unwrap_or_else(|| panic!("does not verify: {:?}", parsed.diagnostics));
    let k = Program::prepare(find_function(&module, None).unwrap()).unwrap();
    // a = 0..16 (distinct), vals = a's first row on both partitions, the bounds (f) 4 and 6.
    let a: Vec<f32> = (0..16).map(|x| x as f32).collect();
    let mut args: Vec<Vec<u8>> = k.args.iter().map(|x| vec![0; x.num_bytes()]).collect();
    args[0] = f32_bytes(&a);
    args[1] = vec![1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1];
    args[2] = f32_bytes(&[4.0, 6.0]);
    args[6] = f32_bytes(&[&a[..8], &a[..8]].concat());
    let out = k
        .execute(&args, &RunConfig::new(Target::Mariana))
        .unwrap_or_else(|e| panic!("{}", e.message));
    let u16s = |b: &[u8]| -> Vec<u16> {
        b.chunks(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect()
    };
    // find_index8 of a[0, 0..8] in each row: row 0 finds them at 0..8; row 1 (8..16) finds
    // none, each miss the uint16 all-ones.
    assert_eq!(
        u16s(&out.args[5]),
        [
            0, 1, 2, 3, 4, 5, 6, 7, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF
        ]
    );
    // range_select: index = 3 + i kept where bound0 <= index < bound1 with both bounds the
    // same tile, so nothing is kept: every element FP32_MIN, the max FP32_MIN.
    let d: Vec<f32> = out.args[3]
        .chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert!(d.iter().all(|&x| x == f32::MIN), "{d:?}");
}

/// `cli::run_buffer` (a kernel already in memory, as the fuzzer runs one) gives the outcome
/// `cli::run` gives on the same text read from a file: the same stdout, diagnostics and
/// status, for a kernel that runs and for one that fails (it reads a tile nothing wrote); a
/// buffer without its NUL is refused with a diagnostic, not read past.
#[test]
fn a_kernel_in_memory_runs_as_the_same_file_does() {
    use clap::Parser;
    let dir = scratch("buffer");
    let text = "module {\n  func.func @k(%a: memref<2x3xf32, \"sbuf\">) {\n    \"nisa.device_print\"(%a) {prefix = \"a\"} : (memref<2x3xf32, \"sbuf\">) -> ()\n    return\n  }\n  func.func @bad(%a: memref<2x3xf32, \"sbuf\">) {\n    %t = \"nisa.alloc\"() : () -> memref<2x3xf32, \"sbuf\">\n    \"nisa.device_print\"(%t) {prefix = \"t\"} : (memref<2x3xf32, \"sbuf\">) -> ()\n    return\n  }\n}\n";
    let file = dir.join("k.mlir");
    std::fs::write(&file, text).unwrap();
    let mut buffer = text.as_bytes().to_vec();
    buffer.push(0);
    for func in ["k", "bad"] {
        let args = cli::RunArgs::try_parse_from([
            "sundial-run",
            path(&file),
            "--random-inputs",
            "3",
            "--func",
            func,
        ])
        .unwrap();
        let from_file = cli::run(&args);
        let in_memory = cli::run_buffer(&args, &buffer, path(&file));
        assert_eq!(in_memory.stdout, from_file.stdout, "{func}");
        assert_eq!(in_memory.stderr, from_file.stderr, "{func}");
        assert_eq!(in_memory.status, from_file.status, "{func}");
        assert_eq!(
            from_file.status == 0,
            func == "k",
            "{func}: {}",
            from_file.stderr
        );
    }
    let args = cli::RunArgs::try_parse_from(["sundial-run", "--random-inputs", "3"]).unwrap();
    let unterminated = cli::run_buffer(&args, text.as_bytes(), "k.mlir");
    assert_ne!(unterminated.status, 0);
    assert!(
        unterminated.stderr.contains("does not end in a NUL byte"),
        "{}",
        unterminated.stderr
    );
}
