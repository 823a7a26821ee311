//! Property: the whole middle end (`sundial-middle-end`, default options: no contraction)
//! leaves what a kernel computes unchanged. Random small element-wise and reduction kernels
//! (chains of tensor-scalar, tensor-tensor, activation, reduce-then-scale and cast steps over
//! f32 and bf16 tiles, engines left to the middle end) run on the emulator before and after
//! the pipeline on the same random inputs and must end bit-identical (NaNs equal whatever
//! their payload, as `--compare-pipeline` counts them).

use proptest::prelude::*;
use sundial::Session;
use sundial::run::{Program, RunConfig, compare, find_function, random::fill};

const ALU: &[&str] = &["add", "subtract", "mult", "max", "min"];
const IMMS: &[&str] = &["-2.0", "-0.5", "0.25", "1.0", "3.0"];
const FUNCS: &[&str] = &["exp", "square", "tanh", "relu", "sigmoid", "copy"];
const DTYPES: &[&str] = &["f32", "bf16"];

/// One step: makes a new tile from the last one (and, for tensor-tensor, an earlier one).
#[derive(Clone, Debug)]
enum Step {
    Scalar {
        op0: usize,
        imm0: usize,
        second: Option<(usize, usize)>,
        dtype: usize,
    },
    Tensor {
        op: usize,
        other: usize,
        dtype: usize,
    },
    Activation {
        func: usize,
        dtype: usize,
    },
    ReduceScale {
        max: bool,
        dtype: usize,
    },
    Cast {
        dtype: usize,
    },
}

fn step() -> impl Strategy<Value = Step> {
    let d = 0..DTYPES.len();
    prop_oneof![
        (
            0..ALU.len(),
            0..IMMS.len(),
            proptest::option::of((0..ALU.len(), 0..IMMS.len())),
            d.clone()
        )
            .prop_map(|(op0, imm0, second, dtype)| Step::Scalar {
                op0,
                imm0,
                second,
                dtype
            }),
        (0..ALU.len(), 0..8usize, d.clone()).prop_map(|(op, other, dtype)| Step::Tensor {
            op,
            other,
            dtype
        }),
        (0..FUNCS.len(), d.clone()).prop_map(|(func, dtype)| Step::Activation { func, dtype }),
        (any::<bool>(), d.clone()).prop_map(|(max, dtype)| Step::ReduceScale { max, dtype }),
        d.prop_map(|dtype| Step::Cast { dtype }),
    ]
}

/// The kernel: x [P, F] f32 in HBM to SBUF, the steps, the last tile to y [P, F] f32.
fn kernel(p: usize, f: usize, steps: &[Step]) -> String {
    let ty = |d: &str| format!("memref<{p}x{f}x{d}, \"sbuf\">");
    let mut body = String::new();
    let mut tiles: Vec<(String, &str)> = vec![("%t0".into(), "f32")];
    body.push_str(&format!(
        "  %t0 = \"nisa.alloc\"() : () -> {}\n  \"nisa.dma_copy\"(%t0, %x) : ({}, memref<{p}x{f}xf32, \"hbm\">) -> ()\n",
        ty("f32"),
        ty("f32")
    ));
    for (k, s) in steps.iter().enumerate() {
        let (src, sd) = tiles.last().cloned().expect("a tile");
        let name = format!("%t{}", k + 1);
        let alloc = |d: &str| format!("  {name} = \"nisa.alloc\"() : () -> {}\n", ty(d));
        let d = match s {
            Step::Scalar { dtype, .. }
            | Step::Tensor { dtype, .. }
            | Step::Activation { dtype, .. }
            | Step::ReduceScale { dtype, .. }
            | Step::Cast { dtype } => DTYPES[*dtype],
        };
        body.push_str(&alloc(d));
        match s {
            Step::Scalar {
                op0, imm0, second, ..
            } => {
                let (extra, segs) = match second {
                    Some((op1, imm1)) => (
                        format!(", op1 = \"{}\", imm1 = {} : f32", ALU[*op1], IMMS[*imm1]),
                        "1, 1, 0, 0",
                    ),
                    None => (String::new(), "1, 1, 0, 0"),
                };
                body.push_str(&format!(
                    "  \"nisa.tensor_scalar_arith\"({name}, {src}) {{op0 = \"{}\", imm0 = {} : f32{extra}, operandSegmentSizes = array<i32: {segs}>}} : ({}, {}) -> ()\n",
                    ALU[*op0], IMMS[*imm0], ty(d), ty(sd)
                ));
            }
            Step::Tensor { op, other, .. } => {
                let (o, od) = tiles[other % tiles.len()].clone();
                body.push_str(&format!(
                    "  \"nisa.tensor_tensor_arith\"({name}, {src}, {o}) {{op = \"{}\"}} : ({}, {}, {}) -> ()\n",
                    ALU[*op], ty(d), ty(sd), ty(od)
                ));
            }
            Step::Activation { func, .. } => {
                body.push_str(&format!(
                    "  \"nisa.activation\"({name}, {src}) {{op = \"{}\", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}} : ({}, {}) -> ()\n",
                    FUNCS[*func], ty(d), ty(sd)
                ));
            }
            Step::ReduceScale { max, .. } => {
                let r = format!("%r{}", k + 1);
                body.push_str(&format!(
                    "  {r} = \"nisa.alloc\"() : () -> memref<{p}x1xf32, \"sbuf\">\n  \"nisa.tensor_reduce_arith\"({r}, {src}) {{op = \"{}\", axis = array<i64: 1>, keepdims = true}} : (memref<{p}x1xf32, \"sbuf\">, {}) -> ()\n  \"nisa.tensor_scalar_arith\"({name}, {src}, {r}) {{op0 = \"mult\", operandSegmentSizes = array<i32: 1, 1, 1, 0>}} : ({}, {}, memref<{p}x1xf32, \"sbuf\">) -> ()\n",
                    if *max { "max" } else { "add" },
                    ty(sd),
                    ty(d),
                    ty(sd)
                ));
            }
            Step::Cast { .. } => {
                body.push_str(&format!(
                    "  \"nisa.tensor_copy\"({name}, {src}) : ({}, {}) -> ()\n",
                    ty(d),
                    ty(sd)
                ));
            }
        }
        tiles.push((name, d));
    }
    let (last, ld) = tiles.last().cloned().expect("a tile");
    format!(
        "module attributes {{sundial.target = \"cayman\"}} {{\nfunc.func @k(%x: memref<{p}x{f}xf32, \"hbm\">, %y: memref<{p}x{f}xf32, \"hbm\">) {{\n{body}  \"nisa.dma_copy\"(%y, {last}) : (memref<{p}x{f}xf32, \"hbm\">, {}) -> ()\n  return\n}}\n}}\n",
        ty(ld)
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn the_middle_end_keeps_what_random_kernels_compute(
        p in prop_oneof![Just(1usize), Just(16), Just(128)],
        f in prop_oneof![Just(1usize), Just(8), Just(64)],
        steps in proptest::collection::vec(step(), 1..6),
        seed in any::<u64>(),
    ) {
        let text = kernel(p, f, &steps);
        let session = Session::new().unwrap();
        let before = session.parse(text.as_bytes(), "random.mlir");
        prop_assert!(before.module.is_some(), "the generated kernel does not verify: {:?}\n{text}", before.diagnostics);
        let before = before.module.unwrap();
        let mut after = session.parse(text.as_bytes(), "random.mlir").module.unwrap();
        let piped = session.run_pipeline(&mut after, "builtin.module(sundial-middle-end)", &Default::default(), "random.mlir");
        prop_assert!(piped.is_ok(), "the middle end refuses a kernel: {:?}\n{text}", piped.err());
        let b = Program::prepare(find_function(&before, None).unwrap()).unwrap();
        let a = Program::prepare(find_function(&after, None).unwrap()).unwrap();
        let inputs: Vec<Vec<u8>> = b
            .args
            .iter()
            .map(|arg| fill(arg.format, arg.num_elements(), seed, arg.index))
            .collect();
        let config = RunConfig::new(sundial_emu::Target::Cayman);
        let verdict = compare::compare_runs(&b, &a, &inputs, &config);
        match verdict {
            Ok(compare::Verdict::Same(_)) => {}
            Ok(compare::Verdict::Differs(d)) => prop_assert!(false, "{d}\n{text}"),
            Err(e) => prop_assert!(false, "cannot run: {}\n{text}", e.message),
        }
    }
}
