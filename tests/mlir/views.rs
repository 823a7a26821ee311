//! View folding (`sundial_dialects::fold::fold`): hand-computed foldings, the refusals, a
//! property test against a brute-force model (compose the index maps of the chain element by
//! element and compare with the folded pattern), and the chain the verifier reads out of IR.

use melior::ir::{
    Value,
    operation::{OperationLike, WalkOrder, WalkResult},
};
use sundial::Session;
use sundial_dialects::fold::{Base, FoldErrorKind, Folded, MAX_PAIRS, ViewStep, fold};

fn hbm(shape: &[i64]) -> Base {
    Base {
        shape: shape.to_vec(),
        elem_bytes: 4,
        on_chip: false,
    }
}

fn sbuf(shape: &[i64]) -> Base {
    Base {
        on_chip: true,
        ..hbm(shape)
    }
}

fn ok(base: &Base, chain: &[ViewStep]) -> Folded {
    fold(base, chain).unwrap_or_else(|e| panic!("{chain:?}: {e}"))
}

fn kind(base: &Base, chain: &[ViewStep]) -> (usize, FoldErrorKind) {
    let e = fold(base, chain).expect_err("the chain must not fold");
    (e.step, e.kind)
}

fn ap(pattern: &[(i64, i64)], offset: i64) -> ViewStep {
    ViewStep::Ap {
        pattern: pattern.to_vec(),
        offset,
        elem_bytes: 4,
        indirect_dim: None,
    }
}

fn slice(start: &[i64], step: &[i64], shape: &[i64]) -> ViewStep {
    ViewStep::Slice {
        start: start.to_vec(),
        step: step.to_vec(),
        shape: shape.to_vec(),
    }
}

fn reshape(shape: &[i64]) -> ViewStep {
    ViewStep::Reshape {
        shape: shape.to_vec(),
    }
}

fn permute(dims: &[i64]) -> ViewStep {
    ViewStep::Permute {
        dims: dims.to_vec(),
    }
}

fn broadcast(shape: &[i64]) -> ViewStep {
    ViewStep::Broadcast {
        shape: shape.to_vec(),
    }
}

/// Goldens computed by hand from the row-major layout (strides of [8, 16] are 16, 1).
#[test]
fn hand_folded_views() {
    // x[2:6:2, 4:12] of an [8, 16] HBM tensor: offset 2 * 16 + 4, rows every 32, columns 1.
    let f = ok(&hbm(&[8, 16]), &[slice(&[2, 4], &[2, 1], &[2, 8])]);
    assert_eq!((f.offset, f.pattern.clone()), (36, vec![(32, 2), (1, 8)]));
    assert_eq!(f.shape, vec![2, 8]);
    // The transpose of [4, 8]: 8 rows of stride 1, 4 columns of stride 8.
    let f = ok(&hbm(&[4, 8]), &[permute(&[1, 0])]);
    assert_eq!((f.offset, f.pattern), (0, vec![(1, 8), (8, 4)]));
    // One HBM tensor under two shapes: [4096] as [64, 64] is the same contiguous run.
    let f = ok(&hbm(&[4096]), &[reshape(&[64, 64])]);
    assert_eq!((f.offset, f.pattern), (0, vec![(1, 4096)]));
    // A sliced [4, 6] -> [4, 4] (columns 0..4) reshaped to [2, 8]: out[r, c] = in[2r + c/4, c%4]
    // at 12r + 6(c/4) + c%4.
    let f = ok(
        &hbm(&[4, 6]),
        &[slice(&[0, 0], &[1, 1], &[4, 4]), reshape(&[2, 8])],
    );
    // 12r + 6(c/4) is one run of stride 6: (12, 2), (6, 2) coalesce.
    assert_eq!((f.offset, f.pattern), (0, vec![(6, 4), (1, 4)]));
    // A [128, 1] per-partition column broadcast over 64 free elements (stride 0).
    let f = ok(&sbuf(&[128, 1]), &[broadcast(&[128, 64])]);
    assert_eq!((f.offset, f.pattern), (0, vec![(1, 128), (0, 64)]));
    // An SBUF [128, 4, 16] tile: partitions 32..96, free axes transposed, then an access
    // pattern on the [64, 16, 4] view taking every other row (row 1, 3, .. of the 16).
    let f = ok(
        &sbuf(&[128, 4, 16]),
        &[
            slice(&[32, 0, 0], &[1, 1, 1], &[64, 4, 16]),
            permute(&[0, 2, 1]),
            ap(&[(64, 64), (8, 8), (1, 4)], 4),
        ],
    );
    // Element (p, j, i) of the ap is view (p, 2j + 1, i) = tile (32 + p, i, 2j + 1) at
    // (32 + p) * 64 + 16 i + 2 j + 1.
    assert_eq!(
        (f.offset, f.pattern, f.shape),
        (32 * 64 + 1, vec![(64, 64), (2, 8), (16, 4)], vec![64, 8, 4])
    );
    // A negative step: the columns of [4, 8] read backwards through an ap on a permute.
    let f = ok(
        &hbm(&[4, 8]),
        &[permute(&[1, 0]), ap(&[(-4, 8), (1, 4)], 28)],
    );
    // ap element (i, j) = view flat 28 - 4 i + j = view (7 - i, j) = base (j, 7 - i).
    assert_eq!((f.offset, f.pattern), (7, vec![(-1, 8), (8, 4)]));
    // A reinterpreting ap on the allocation, then a view: bf16 [128, 64] read as f32 words.
    let base = Base {
        elem_bytes: 2,
        ..sbuf(&[128, 64])
    };
    let f = ok(
        &base,
        &[
            ViewStep::Ap {
                pattern: vec![(32, 128), (1, 32)],
                offset: 0,
                elem_bytes: 4,
                indirect_dim: None,
            },
            reshape(&[128, 4, 8]),
        ],
    );
    assert_eq!((f.elem_bytes, f.pattern), (4, vec![(32, 128), (1, 32)]));
}

#[test]
fn refusals_name_their_step_and_rule() {
    // Slicing 3 of 6 columns and reshaping to [6, 2] keeps the element order (it folds), but
    // column 0 of that [6, 2] is elements 0, 2, 4, .. of the slice: 0, 2, 7, 12, 14, 19 of the
    // tensor, which no strided pattern walks.
    let b = hbm(&[4, 6]);
    let f = ok(&b, &[slice(&[0, 0], &[1, 1], &[4, 3]), reshape(&[6, 2])]);
    assert_eq!((f.offset, f.pattern), (0, vec![(6, 4), (1, 3)]));
    assert_eq!(
        kind(
            &b,
            &[
                slice(&[0, 0], &[1, 1], &[4, 3]),
                reshape(&[6, 2]),
                slice(&[0, 0], &[1, 1], &[6, 1])
            ]
        ),
        (2, FoldErrorKind::NotFoldable)
    );
    // Six non-coalescing dimensions: one pair too many.
    let b = hbm(&[2, 3, 2, 3, 2, 3]);
    assert_eq!(
        kind(&b, &[permute(&[5, 4, 3, 2, 1, 0])]),
        (0, FoldErrorKind::TooManyPairs)
    );
    let s = sbuf(&[128, 64]);
    assert_eq!(
        kind(&s, &[reshape(&[64, 128])]),
        (0, FoldErrorKind::Partition)
    );
    assert_eq!(kind(&s, &[permute(&[1, 0])]), (0, FoldErrorKind::Partition));
    assert_eq!(
        kind(&s, &[slice(&[0, 0], &[2, 1], &[64, 64])]),
        (0, FoldErrorKind::Partition)
    );
    assert_eq!(
        kind(&sbuf(&[1, 64]), &[broadcast(&[4, 64])]),
        (0, FoldErrorKind::Partition)
    );
    assert_eq!(kind(&s, &[reshape(&[128, 63])]), (0, FoldErrorKind::Shape));
    assert_eq!(kind(&s, &[permute(&[0, 0])]), (0, FoldErrorKind::Shape));
    assert_eq!(
        kind(&s, &[broadcast(&[128, 128])]),
        (0, FoldErrorKind::Shape)
    );
    assert_eq!(
        kind(&s, &[slice(&[0, 60], &[1, 1], &[128, 8])]),
        (0, FoldErrorKind::Bounds)
    );
    // An ap on a view: partition step must be the view's free size; no reinterpretation.
    let v = [slice(&[0, 0], &[1, 1], &[128, 32])];
    let mut chain = v.to_vec();
    chain.push(ap(&[(64, 128), (1, 32)], 0));
    assert_eq!(kind(&s, &chain), (1, FoldErrorKind::Pattern));
    let mut chain = v.to_vec();
    chain.push(ViewStep::Ap {
        pattern: vec![(16, 128), (1, 16)],
        offset: 0,
        elem_bytes: 8,
        indirect_dim: None,
    });
    assert_eq!(kind(&s, &chain), (1, FoldErrorKind::Dtype));
    let mut chain = v.to_vec();
    chain.push(ap(&[(32, 128), (1, 33)], 0));
    assert_eq!(kind(&s, &chain), (1, FoldErrorKind::Bounds));
    // Indirection: no view of an indirect ap; an indirect ap only on a contiguous view.
    let ind = ViewStep::Ap {
        pattern: vec![(64, 16), (1, 64)],
        offset: 0,
        elem_bytes: 4,
        indirect_dim: Some(0),
    };
    let t = hbm(&[1024, 64]);
    assert_eq!(
        kind(&t, &[ind.clone(), reshape(&[16, 8, 8])]),
        (1, FoldErrorKind::Indirect)
    );
    let f = ok(&t, &[reshape(&[64, 16, 64]), ind.clone()]);
    assert_eq!(
        (f.indirect_dim, f.pattern),
        (Some(0), vec![(64, 16), (1, 64)])
    );
    assert_eq!(
        kind(&t, &[permute(&[1, 0]), ind]),
        (1, FoldErrorKind::Indirect)
    );
}

// ---- property: the folded pattern is the composed index map -----------------------------

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.next() as usize % xs.len()]
    }
}

/// The brute-force model: a view as the flat physical address of each of its elements.
#[derive(Clone, Debug)]
struct Model {
    shape: Vec<i64>,
    addr: Vec<i64>,
}

fn strides(shape: &[i64]) -> Vec<i64> {
    let mut s = vec![1i64; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * shape[d + 1];
    }
    s
}

/// Every index of `shape` in row-major order.
fn indices(shape: &[i64]) -> Vec<Vec<i64>> {
    let n: i64 = shape.iter().product();
    let st = strides(shape);
    (0..n)
        .map(|l| (0..shape.len()).map(|d| l / st[d] % shape[d]).collect())
        .collect()
}

/// The addresses a pattern enumerates (row-major over its pairs).
fn enumerate(offset: i64, pattern: &[(i64, i64)]) -> Vec<i64> {
    let nums: Vec<i64> = pattern.iter().map(|p| p.1).collect();
    indices(&nums)
        .iter()
        .map(|i| offset + i.iter().zip(pattern).map(|(x, p)| x * p.0).sum::<i64>())
        .collect()
}

impl Model {
    fn apply(&self, step: &ViewStep) -> Model {
        match step {
            ViewStep::Reshape { shape } => Model {
                shape: shape.clone(),
                addr: self.addr.clone(),
            },
            ViewStep::Slice { start, step, shape } => {
                let st = strides(&self.shape);
                let addr = indices(shape)
                    .iter()
                    .map(|i| {
                        let l: i64 = (0..i.len())
                            .map(|d| (start[d] + i[d] * step[d]) * st[d])
                            .sum();
                        self.addr[l as usize]
                    })
                    .collect();
                Model {
                    shape: shape.clone(),
                    addr,
                }
            }
            ViewStep::Permute { dims } => {
                let shape: Vec<i64> = dims.iter().map(|&d| self.shape[d as usize]).collect();
                let st = strides(&self.shape);
                let addr = indices(&shape)
                    .iter()
                    .map(|i| {
                        let l: i64 = (0..i.len()).map(|k| i[k] * st[dims[k] as usize]).sum();
                        self.addr[l as usize]
                    })
                    .collect();
                Model { shape, addr }
            }
            ViewStep::Broadcast { shape } => {
                let st = strides(&self.shape);
                let addr = indices(shape)
                    .iter()
                    .map(|i| {
                        let l: i64 = (0..i.len())
                            .map(|d| if self.shape[d] == 1 { 0 } else { i[d] * st[d] })
                            .sum();
                        self.addr[l as usize]
                    })
                    .collect();
                Model {
                    shape: shape.clone(),
                    addr,
                }
            }
            ViewStep::Ap {
                pattern, offset, ..
            } => Model {
                shape: pattern.iter().map(|p| p.1).collect(),
                addr: enumerate(*offset, pattern)
                    .iter()
                    .map(|&l| self.addr[l as usize])
                    .collect(),
            },
        }
    }
}

/// The fewest `[step, num]` pairs that enumerate `a`, or `None` when no pattern does (the
/// innermost pair is the longest arithmetic run from the start; every block must repeat it).
fn min_pairs(a: &[i64]) -> Option<usize> {
    if a.len() <= 1 {
        return Some(0);
    }
    let s = a[1] - a[0];
    let mut k = 2;
    while k < a.len() && a[k] == a[0] + k as i64 * s {
        k += 1;
    }
    if !a.len().is_multiple_of(k) {
        return None;
    }
    for block in a.chunks(k) {
        if (0..k).any(|i| block[i] != block[0] + i as i64 * s) {
            return None;
        }
    }
    let starts: Vec<i64> = a.chunks(k).map(|b| b[0]).collect();
    min_pairs(&starts).map(|n| n + 1)
}

/// A random shape of `rank` dimensions with `total` elements.
fn factor(rng: &mut Rng, mut total: i64, rank: usize) -> Vec<i64> {
    let mut shape = Vec::with_capacity(rank);
    for _ in 0..rank.saturating_sub(1) {
        let divisors: Vec<i64> = (1..=total).filter(|d| total % d == 0).collect();
        let d = rng.pick(&divisors);
        shape.push(d);
        total /= d;
    }
    shape.push(total);
    shape
}

/// A random access pattern over `size` logical elements (pairs given; `None` when the pattern
/// cannot fit).
fn random_pattern(rng: &mut Rng, size: i64, pairs: usize) -> Option<(Vec<(i64, i64)>, i64)> {
    let pattern: Vec<(i64, i64)> = (0..pairs)
        .map(|_| (rng.range(-3, size.min(12)), rng.range(1, 4)))
        .collect();
    let lo: i64 = pattern.iter().map(|&(s, n)| (s * (n - 1)).min(0)).sum();
    let hi: i64 = pattern.iter().map(|&(s, n)| (s * (n - 1)).max(0)).sum();
    let (first, last) = (-lo, size - 1 - hi);
    (first <= last).then(|| (pattern, rng.range(first, last)))
}

/// One random step that is valid on `m` (on-chip: the partition dimension stays put).
fn random_step(rng: &mut Rng, m: &Model, on_chip: bool) -> Option<ViewStep> {
    let rank = m.shape.len();
    let lead = usize::from(on_chip);
    match rng.range(0, 4) {
        0 => {
            let total: i64 = m.shape[lead..].iter().product();
            let mut shape = m.shape[..lead].to_vec();
            let r = rng.range(1, 3) as usize;
            shape.extend(factor(rng, total, r));
            Some(reshape(&shape))
        }
        1 => {
            let mut start = Vec::new();
            let mut step = Vec::new();
            let mut shape = Vec::new();
            for d in 0..rank {
                let st = if on_chip && d == 0 {
                    1
                } else {
                    rng.range(1, 2)
                };
                let size = rng.range(1, (m.shape[d] - 1) / st + 1);
                let begin = rng.range(0, m.shape[d] - 1 - (size - 1) * st);
                start.push(begin);
                step.push(st);
                shape.push(size);
            }
            Some(slice(&start, &step, &shape))
        }
        2 => {
            let mut dims: Vec<i64> = (0..rank as i64).collect();
            for i in (lead + 1..rank).rev() {
                let j = rng.range(lead as i64, i as i64) as usize;
                dims.swap(i, j);
            }
            Some(permute(&dims))
        }
        3 => {
            let ones: Vec<usize> = (lead..rank).filter(|&d| m.shape[d] == 1).collect();
            if ones.is_empty() {
                return None;
            }
            let mut shape = m.shape.clone();
            shape[rng.pick(&ones)] = rng.range(2, 3);
            Some(broadcast(&shape))
        }
        _ => {
            if on_chip {
                let p = m.shape[0];
                let free: i64 = m.shape[1..].iter().product();
                let pnum = rng.range(1, p);
                let start_p = rng.range(0, p - pnum);
                let k = rng.range(1, 2) as usize;
                let (mut pairs, f0) = random_pattern(rng, free, k)?;
                pairs.insert(0, (free, pnum));
                Some(ap(&pairs, start_p * free + f0))
            } else {
                let size: i64 = m.shape.iter().product();
                let k = rng.range(1, 3) as usize;
                let (pairs, off) = random_pattern(rng, size, k)?;
                Some(ap(&pairs, off))
            }
        }
    }
}

#[test]
fn folding_a_chain_is_composing_its_index_maps() {
    let mut rng = Rng(0x005e_ed0f_5a11);
    let (mut folded, mut refused) = (0, 0);
    for case in 0..10_000 {
        let on_chip = rng.range(0, 1) == 1;
        let rank = rng.range(1, 3) as usize;
        let shape: Vec<i64> = (0..rank).map(|_| rng.range(1, 5)).collect();
        let base = Base {
            shape: shape.clone(),
            elem_bytes: 4,
            on_chip,
        };
        let n: i64 = shape.iter().product();
        let mut model = Model {
            shape,
            addr: (0..n).collect(),
        };
        let mut chain = Vec::new();
        // The model after each step (a refusal at step k is judged on the view it makes).
        let mut models = Vec::new();
        for _ in 0..rng.range(1, 4) {
            if let Some(step) = random_step(&mut rng, &model, on_chip) {
                model = model.apply(&step);
                chain.push(step);
                models.push(model.clone());
            }
        }
        // The model of an on-chip view: every partition the same free pattern, one row apart;
        // the pattern to find is partition 0's.
        let row: i64 = base.shape[1..].iter().product();
        let reference = |m: &Model| -> (Vec<i64>, usize) {
            if !on_chip {
                return (m.addr.clone(), 0);
            }
            let p = m.shape[0] as usize;
            let free = m.addr.len() / p;
            let same = (0..p)
                .all(|i| (0..free).all(|f| m.addr[i * free + f] == m.addr[f] + i as i64 * row));
            assert!(
                same,
                "case {case}: the model broke the partition rule: {chain:?}"
            );
            (m.addr[..free].to_vec(), 1)
        };
        match fold(&base, &chain) {
            Ok(f) => {
                folded += 1;
                assert_eq!(f.shape, model.shape, "case {case}: {chain:?}");
                assert!(f.pattern.len() <= MAX_PAIRS, "case {case}");
                assert_eq!(
                    enumerate(f.offset, &f.pattern),
                    model.addr,
                    "case {case}: {base:?} {chain:?} folded to {f:?}"
                );
                if on_chip {
                    assert_eq!(f.pattern[0], (row, model.shape[0]));
                }
            }
            Err(e) => {
                refused += 1;
                let (reference, extra) = reference(&models[e.step]);
                let pairs = min_pairs(&reference).map(|p| p + extra);
                match e.kind {
                    // Refused only when no strided pattern exists (the fold is complete).
                    FoldErrorKind::NotFoldable => assert_eq!(
                        pairs, None,
                        "case {case}: {base:?} {chain:?} refused ({e}) but {:?} is a pattern",
                        reference
                    ),
                    FoldErrorKind::TooManyPairs => {
                        assert!(pairs.is_none_or(|p| p > MAX_PAIRS), "case {case}: {e}")
                    }
                    _ => panic!("case {case}: a valid chain refused: {base:?} {chain:?}: {e}"),
                }
            }
        }
    }
    // The generator reaches both outcomes often.
    assert!(
        folded > 5000 && refused > 50,
        "{folded} folded, {refused} refused"
    );
}

// ---- the chain the verifier reads ------------------------------------------------------------

const CHAIN: &str = r#"
func.func @views(%t: memref<4096xf32, "hbm">) {
  %r = "nisa.reshape"(%t) : (memref<4096xf32, "hbm">) -> memref<64x64xf32, "hbm">
  %s = "nisa.slice"(%r) {start = array<i64: 8, 16>, step = array<i64: 2, 1>} : (memref<64x64xf32, "hbm">) -> memref<4x32xf32, "hbm">
  %p = "nisa.permute"(%s) {dims = array<i64: 1, 0>, name = "target"} : (memref<4x32xf32, "hbm">) -> memref<32x4xf32, "hbm">
  return
}
"#;

#[test]
fn the_verifier_reads_the_chain_from_ir() {
    let session = Session::new().unwrap();
    let parsed = session.parse(CHAIN.as_bytes(), "views.mlir");
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let module = parsed.module.expect("module");
    let mut got = None;
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if op.attribute("name").is_ok()
            && let Ok(r) = op.result(0)
        {
            got = Some(sundial_dialects::verify::view_rules::view_chain(
                Value::from(r),
            ));
        }
        WalkResult::Advance
    });
    let (base, chain) = got.expect("the permute").expect("a chain");
    assert_eq!(base.shape, vec![4096]);
    assert_eq!(
        chain,
        vec![
            reshape(&[64, 64]),
            slice(&[8, 16], &[2, 1], &[4, 32]),
            permute(&[1, 0])
        ]
    );
    let f = ok(&hbm(&base.shape), &chain);
    // Row 8 + 2i, column 16 + j of the [64, 64] view, transposed: j outer (stride 1), i inner
    // (stride 128).
    assert_eq!(
        (f.offset, f.pattern),
        (8 * 64 + 16, vec![(1, 32), (128, 4)])
    );
}

/// Every refusal `fold` can give through its API, including the ones the verifier's own rules
/// catch first in IR (malformed patterns, negative offsets, empty shapes, overflow).
#[test]
fn every_refusal_has_its_kind_and_sentence() {
    let t = hbm(&[8, 16]);
    let cases: Vec<(Base, Vec<ViewStep>, FoldErrorKind, &str)> = vec![
        (
            hbm(&[0, 4]),
            vec![],
            FoldErrorKind::Shape,
            "has no elements",
        ),
        (
            hbm(&[i64::MAX, 4]),
            vec![],
            FoldErrorKind::Overflow,
            "64 bits",
        ),
        (
            t.clone(),
            vec![ap(&[], 0)],
            FoldErrorKind::Pattern,
            "no pairs",
        ),
        (
            t.clone(),
            vec![ap(&[(1, 0)], 0)],
            FoldErrorKind::Pattern,
            "num 0",
        ),
        (
            t.clone(),
            vec![ViewStep::Ap {
                pattern: vec![(16, 8)],
                offset: 0,
                elem_bytes: 4,
                indirect_dim: Some(1),
            }],
            FoldErrorKind::Pattern,
            "indirect dimension 1",
        ),
        (
            t.clone(),
            vec![ap(&[(1, 4)], -1)],
            FoldErrorKind::Bounds,
            "negative",
        ),
        (
            t.clone(),
            vec![ap(&[(1, 128)], 1)],
            FoldErrorKind::Bounds,
            "element 128",
        ),
        (
            Base {
                elem_bytes: 2,
                ..sbuf(&[128, 3])
            },
            vec![ap(&[(1, 128), (1, 1)], 0)],
            FoldErrorKind::Dtype,
            "does not divide",
        ),
        (
            t.clone(),
            vec![reshape(&[8, 0])],
            FoldErrorKind::Shape,
            "empty dimension",
        ),
        (
            t.clone(),
            vec![slice(&[0, -1], &[1, 1], &[8, 4])],
            FoldErrorKind::Shape,
            "starts are at least 0",
        ),
        (
            t.clone(),
            vec![slice(&[0, 0], &[1, 0], &[8, 4])],
            FoldErrorKind::Shape,
            "steps and sizes at least 1",
        ),
        (
            t.clone(),
            vec![broadcast(&[8])],
            FoldErrorKind::Shape,
            "keeps the rank",
        ),
        (
            sbuf(&[128, 64]),
            vec![ap(&[(64, 64), (1, 64)], 65 * 64)],
            FoldErrorKind::Bounds,
            "partitions 65..129",
        ),
    ];
    for (base, chain, want, text) in cases {
        let e = fold(&base, &chain).expect_err(text);
        assert_eq!(e.kind, want, "{text}: {e}");
        assert!(e.message.contains(text), "{text}: {e}");
    }
}
