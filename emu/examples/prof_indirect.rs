use sundial_emu::{OobMode, indirect_load, workloads};
fn main() {
    let name = std::env::args().nth(1).unwrap();
    let n: usize = std::env::args().nth(2).unwrap().parse().unwrap();
    let w = workloads::all().into_iter().find(|w| w.name == name).unwrap();
    let mut inst = w.build(1).unwrap();
    let dst = inst.dst.clone();
    for _ in 0..n {
        indirect_load(&mut inst.mem, &dst, &inst.access, OobMode::Error).unwrap();
    }
}
