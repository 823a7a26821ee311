//! Encoding benchmark (being written).
fn main() {}
