//! The random ops (`rng`, `rand2`, `set_rng_seed`, `rand_set_state`, `rand_get_state`) and
//! `dropout`: determinism given the seed or state, the pinned properties (low-bit
//! truncation, set/get round trip, drop probabilities 0 and 1), and error paths. The
//! generator is the emulator's own, so no test pins a hardware bit pattern.

use sundial_emu::{
    DType, DropProb, EmuError, Engine, Memory, RngState, Target, View, dropout, rand_get_state,
    rand_set_state, rand2, rng, set_rng_seed,
};

fn seed_tile(m: &mut Memory, seed: i64) -> View {
    let s = m.alloc_sbuf(DType::U32, &[1, 1]).unwrap();
    m.write_i64(&s, &[seed]).unwrap();
    s
}

fn draw(seed: i64, shape: &[usize], dtype: DType) -> Vec<i64> {
    let mut m = Memory::new(Target::Cayman);
    let mut st = RngState::new();
    let s = seed_tile(&mut m, seed);
    set_rng_seed(&mut m, &mut st, &s, Engine::Vector).unwrap();
    let dst = m.alloc_sbuf(dtype, shape).unwrap();
    rng(&mut m, &mut st, &dst, Engine::Vector).unwrap();
    m.read_i64(&dst).unwrap()
}

#[test]
fn the_same_seed_gives_the_same_numbers() {
    let a = draw(42, &[4, 16], DType::U32);
    assert_eq!(a, draw(42, &[4, 16], DType::U32));
    assert_ne!(a, draw(43, &[4, 16], DType::U32));
    // Lanes differ from one another, and draws within a lane differ.
    assert_ne!(a[..16], a[16..32]);
    assert!(a[..16].windows(2).any(|w| w[0] != w[1]));
}

#[test]
fn rng_truncates_32_random_bits_to_the_low_bits_of_the_dtype() {
    let wide = draw(7, &[2, 8], DType::U32);
    let narrow = draw(7, &[2, 8], DType::U8);
    let low: Vec<i64> = wide.iter().map(|v| v & 0xFF).collect();
    assert_eq!(narrow, low);
    let signed = draw(7, &[2, 8], DType::I16);
    let low16: Vec<i64> = wide.iter().map(|v| (*v as u16 as i16).into()).collect();
    assert_eq!(signed, low16);
}

#[test]
fn the_state_persists_across_instructions() {
    let mut m = Memory::new(Target::Cayman);
    let mut st = RngState::new();
    let a = m.alloc_sbuf(DType::U32, &[1, 4]).unwrap();
    let b = m.alloc_sbuf(DType::U32, &[1, 4]).unwrap();
    rng(&mut m, &mut st, &a, Engine::Vector).unwrap();
    rng(&mut m, &mut st, &b, Engine::Vector).unwrap();
    assert_ne!(m.read_i64(&a).unwrap(), m.read_i64(&b).unwrap());
    // Without any seeding the state is deterministic too (seed 0).
    let mut m2 = Memory::new(Target::Cayman);
    let mut st2 = RngState::new();
    let a2 = m2.alloc_sbuf(DType::U32, &[1, 4]).unwrap();
    rng(&mut m2, &mut st2, &a2, Engine::Vector).unwrap();
    assert_eq!(m.read_i64(&a).unwrap(), m2.read_i64(&a2).unwrap());
    // Seed 0 explicitly is the initial state.
    let mut st3 = RngState::new();
    let z = seed_tile(&mut m2, 0);
    set_rng_seed(&mut m2, &mut st3, &z, Engine::Vector).unwrap();
    assert_eq!(st3, RngState::new());
}

#[test]
fn set_state_then_get_state_returns_what_was_set_and_replays_the_stream() {
    for (engine, words) in [(Engine::GpSimd, 6), (Engine::Vector, 24)] {
        let mut m = Memory::new(Target::Mariana);
        let mut st = RngState::new();
        let state = m.alloc_sbuf(DType::U32, &[3, words]).unwrap();
        let vals: Vec<i64> = (0..3 * words as i64).map(|i| i * 7919 + 1).collect();
        m.write_i64(&state, &vals).unwrap();
        rand_set_state(&mut m, &mut st, &state, engine).unwrap();
        let back = m.alloc_sbuf(DType::U32, &[3, words]).unwrap();
        rand_get_state(&mut m, &st, &back, engine).unwrap();
        assert_eq!(m.read_i64(&back).unwrap(), vals, "{engine:?}");
        // Draw, restore, draw again: the same numbers.
        let a = m.alloc_sbuf(DType::U32, &[3, 5]).unwrap();
        rng(&mut m, &mut st, &a, engine).unwrap();
        rand_set_state(&mut m, &mut st, &state, engine).unwrap();
        let b = m.alloc_sbuf(DType::U32, &[3, 5]).unwrap();
        rng(&mut m, &mut st, &b, engine).unwrap();
        assert_eq!(m.read_i64(&a).unwrap(), m.read_i64(&b).unwrap());
    }
}

#[test]
fn rand2_is_uniform_in_range_and_deterministic() {
    let run = || {
        let mut m = Memory::new(Target::Mariana);
        let mut st = RngState::new();
        let dst = m.alloc_sbuf(DType::F32, &[8, 64]).unwrap();
        rand2(&mut m, &mut st, &dst, -2.0, 3.0, Engine::Vector).unwrap();
        m.read_f32(&dst).unwrap()
    };
    let v = run();
    assert_eq!(v, run());
    assert!(v.iter().all(|&x| (-2.0..=3.0).contains(&x)));
    let mean = v.iter().sum::<f32>() / v.len() as f32;
    // 512 draws of U(-2, 3): mean 0.5, standard error 1.44 / sqrt(512) = 0.064.
    assert!((mean - 0.5).abs() < 0.3, "mean {mean}");
    // Into an integer dtype: converted from fp32.
    let mut m = Memory::new(Target::Mariana);
    let mut st = RngState::new();
    let ints = m.alloc_sbuf(DType::I32, &[1, 32]).unwrap();
    rand2(&mut m, &mut st, &ints, 0.0, 10.0, Engine::Vector).unwrap();
    assert!(
        m.read_i64(&ints)
            .unwrap()
            .iter()
            .all(|&x| (0..=10).contains(&x))
    );
}

#[test]
fn dropout_keeps_or_zeroes_whole_elements() {
    let mut m = Memory::new(Target::Cayman);
    let mut st = RngState::new();
    let data = m.alloc_sbuf(DType::Bf16, &[128, 512]).unwrap();
    let vals: Vec<f32> = (0..128 * 512).map(|i| (i % 97) as f32 + 1.0).collect();
    m.write_f32(&data, &vals).unwrap();
    let dst = m.alloc_sbuf(DType::Bf16, &[128, 512]).unwrap();
    dropout(&mut m, &mut st, &dst, &data, DropProb::Scalar(0.0)).unwrap();
    assert_eq!(m.read_f32(&dst).unwrap(), vals);
    dropout(&mut m, &mut st, &dst, &data, DropProb::Scalar(1.0)).unwrap();
    assert!(m.read_f32(&dst).unwrap().iter().all(|&v| v == 0.0));
    dropout(&mut m, &mut st, &dst, &data, DropProb::Scalar(0.5)).unwrap();
    let out = m.read_f32(&dst).unwrap();
    assert!(out.iter().zip(&vals).all(|(o, v)| *o == 0.0 || o == v));
    let dropped = out.iter().filter(|&&v| v == 0.0).count();
    // 65536 draws at p = 0.5: 32768 +- 128 (one standard deviation); allow 6.
    assert!((32768 - 768..=32768 + 768).contains(&dropped), "{dropped}");
}

#[test]
fn dropout_is_deterministic_given_the_seed_and_takes_per_partition_probabilities() {
    let run = |seed: i64| {
        let mut m = Memory::new(Target::Cayman);
        let mut st = RngState::new();
        let s = seed_tile(&mut m, seed);
        set_rng_seed(&mut m, &mut st, &s, Engine::Vector).unwrap();
        let data = m.alloc_sbuf(DType::I32, &[2, 64]).unwrap();
        m.write_i64(&data, &[5; 128]).unwrap();
        let prob = m.alloc_sbuf(DType::F32, &[2, 1]).unwrap();
        m.write_f32(&prob, &[0.0, 1.0]).unwrap();
        let dst = m.alloc_sbuf(DType::I32, &[2, 64]).unwrap();
        dropout(&mut m, &mut st, &dst, &data, DropProb::Tile(&prob)).unwrap();
        let per_part = m.read_i64(&dst).unwrap();
        let half = m.alloc_sbuf(DType::I32, &[2, 64]).unwrap();
        dropout(&mut m, &mut st, &half, &data, DropProb::Scalar(0.5)).unwrap();
        (per_part, m.read_i64(&half).unwrap())
    };
    let (per_part, half) = run(9);
    // Partition 0 keeps everything, partition 1 drops everything.
    assert_eq!(per_part[..64], [5; 64]);
    assert_eq!(per_part[64..], [0; 64]);
    assert_eq!(run(9).1, half);
    assert_ne!(run(10).1, half);
}

#[test]
fn rng_and_dropout_error_paths() {
    let mut m = Memory::new(Target::Cayman);
    let mut st = RngState::new();
    let f = m.alloc_sbuf(DType::F32, &[1, 4]).unwrap();
    assert!(matches!(
        rng(&mut m, &mut st, &f, Engine::Vector),
        Err(EmuError::DType { .. })
    ));
    let p = m.alloc_psum(DType::U32, &[1, 4]).unwrap();
    assert!(matches!(
        rng(&mut m, &mut st, &p, Engine::GpSimd),
        Err(EmuError::Memory { .. })
    ));
    let u = m.alloc_sbuf(DType::U32, &[1, 4]).unwrap();
    assert!(matches!(
        rng(&mut m, &mut st, &u, Engine::Scalar),
        Err(EmuError::Unsupported { .. })
    ));
    // rand2: v4 and Vector only; min < max.
    assert!(matches!(
        rand2(&mut m, &mut st, &f, 0.0, 1.0, Engine::Vector),
        Err(EmuError::Unsupported { .. })
    ));
    let mut v4 = Memory::new(Target::Mariana);
    let f4 = v4.alloc_sbuf(DType::F32, &[1, 4]).unwrap();
    assert!(matches!(
        rand2(&mut v4, &mut st, &f4, 1.0, 1.0, Engine::Vector),
        Err(EmuError::InvalidAccess { .. })
    ));
    assert!(matches!(
        rand2(&mut v4, &mut st, &f4, 0.0, 1.0, Engine::GpSimd),
        Err(EmuError::Unsupported { .. })
    ));
    // Seeds: one 32-bit word, Vector only.
    let two = m.alloc_sbuf(DType::U32, &[1, 2]).unwrap();
    assert!(matches!(
        set_rng_seed(&mut m, &mut st, &two, Engine::Vector),
        Err(EmuError::Shape { .. })
    ));
    let s = seed_tile(&mut m, 1);
    assert!(matches!(
        set_rng_seed(&mut m, &mut st, &s, Engine::GpSimd),
        Err(EmuError::Unsupported { .. })
    ));
    // State tiles: word counts, engines per version, dtype.
    let six = m.alloc_sbuf(DType::U32, &[1, 6]).unwrap();
    m.write_i64(&six, &[1; 6]).unwrap();
    assert!(matches!(
        rand_set_state(&mut m, &mut st, &six, Engine::Vector),
        Err(EmuError::Unsupported { .. })
    ));
    let seven = m.alloc_sbuf(DType::U32, &[1, 7]).unwrap();
    assert!(matches!(
        rand_set_state(&mut m, &mut st, &seven, Engine::GpSimd),
        Err(EmuError::Shape { .. })
    ));
    let i6 = m.alloc_sbuf(DType::I32, &[1, 6]).unwrap();
    assert!(matches!(
        rand_get_state(&mut m, &st, &i6, Engine::GpSimd),
        Err(EmuError::DType { .. })
    ));
    let mut v2 = Memory::new(Target::Sunda);
    let six2 = v2.alloc_sbuf(DType::U32, &[1, 6]).unwrap();
    assert!(matches!(
        rand_get_state(&mut v2, &st, &six2, Engine::GpSimd),
        Err(EmuError::Unsupported { .. })
    ));
    let u2 = v2.alloc_sbuf(DType::U32, &[1, 6]).unwrap();
    assert!(matches!(
        rng(&mut v2, &mut st, &u2, Engine::GpSimd),
        Err(EmuError::Unsupported { .. })
    ));
    // Dropout: dtype kept, NaN probability, prob tile shape and dtype.
    let data = m.alloc_sbuf(DType::I32, &[2, 4]).unwrap();
    m.write_i64(&data, &[1; 8]).unwrap();
    let fdst = m.alloc_sbuf(DType::F32, &[2, 4]).unwrap();
    assert!(matches!(
        dropout(&mut m, &mut st, &fdst, &data, DropProb::Scalar(0.5)),
        Err(EmuError::DType { .. })
    ));
    let dst = m.alloc_sbuf(DType::I32, &[2, 4]).unwrap();
    assert!(matches!(
        dropout(&mut m, &mut st, &dst, &data, DropProb::Scalar(f32::NAN)),
        Err(EmuError::InvalidAccess { .. })
    ));
    let bfprob = m.alloc_sbuf(DType::Bf16, &[2, 1]).unwrap();
    m.write_f32(&bfprob, &[0.5; 2]).unwrap();
    assert!(matches!(
        dropout(&mut m, &mut st, &dst, &data, DropProb::Tile(&bfprob)),
        Err(EmuError::DType { .. })
    ));
    let wide = m.alloc_sbuf(DType::F32, &[2, 2]).unwrap();
    assert!(matches!(
        dropout(&mut m, &mut st, &dst, &data, DropProb::Tile(&wide)),
        Err(EmuError::Shape { .. })
    ));
    // A failed op leaves the state alone.
    let before = st.clone();
    assert!(rng(&mut m, &mut st, &f, Engine::Vector).is_err());
    assert_eq!(st, before);
}

#[test]
fn a_view_claiming_lanes_past_the_last_partition_is_an_error_not_a_panic() {
    let mut m = Memory::new(Target::Cayman);
    let mut st = RngState::new();
    let sb = m.sbuf().unwrap();
    let bpp = sundial_emu::target::sbuf_bytes_per_partition(Target::Cayman) as i64 / 4;
    // Rows 100..164 of a partition-strided view over the SBUF.
    let v = View::new(sb, DType::U32, 100 * bpp, vec![64, 2], vec![bpp, 1]).unwrap();
    assert!(matches!(
        rng(&mut m, &mut st, &v, Engine::Vector),
        Err(EmuError::Shape { .. })
    ));
    // Rows that are not partitions.
    let w = View::new(sb, DType::U32, 0, vec![4, 2], vec![2, 1]).unwrap();
    assert!(matches!(
        rng(&mut m, &mut st, &w, Engine::Vector),
        Err(EmuError::Shape { .. })
    ));
}
