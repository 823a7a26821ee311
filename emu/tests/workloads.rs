//! The seven benchmark workloads, scaled down, through both paths: the gate must pick
//! the blocked path with long runs, both paths must agree byte for byte, and the result
//! must equal plain slicing of the source. (Full sizes run only in the benchmark.)

use sundial_emu::workloads;
use sundial_emu::{OobMode, Path, PathChoice, Plan, indirect_load};

#[test]
fn scaled_workloads_agree_on_both_paths_and_match_slicing() {
    for w in workloads::all() {
        let shape: Vec<usize> = w.source_shape.iter().map(|&d| d.min(12)).collect();
        let picks: Vec<usize> = w
            .picks
            .iter()
            .zip(&shape)
            .map(|(&p, &d)| p.min(d / 2).max(1))
            .collect();
        let small = w.scaled(&shape, &picks);
        let mut inst = small.build(42).unwrap();
        let plan = Plan::new(&inst.mem, &inst.access, "t").unwrap();
        assert_eq!(plan.gate(), Path::Blocked, "{}", w.name);
        let trailing: usize = shape[picks.len()..].iter().product();
        assert_eq!(plan.blocked_run_len(), trailing, "{}", w.name);
        assert_eq!(
            plan.blocked_index_reads(),
            picks.iter().product::<usize>() * picks.len(),
            "{}",
            w.name
        );

        let dst = inst.dst.clone();
        let other = inst
            .mem
            .alloc_hbm("general", dst.dtype(), dst.shape())
            .unwrap();
        indirect_load(&mut inst.mem, &dst, &inst.access, OobMode::Error).unwrap();
        inst.mem.set_path_choice(PathChoice::General);
        indirect_load(&mut inst.mem, &other, &inst.access, OobMode::Error).unwrap();
        let a = inst.mem.read_bytes(&dst).unwrap();
        let b = inst.mem.read_bytes(&other).unwrap();
        assert_eq!(a, b, "{}", w.name);
        assert!(inst.matches_reference(&a).unwrap(), "{}", w.name);
        // A corrupted result must not match (the reference check can fail).
        let mut bad = a.clone();
        bad[0] ^= 1;
        assert!(!inst.matches_reference(&bad).unwrap(), "{}", w.name);
    }
}
