//! Pure-Rust bundle encoders (see `Cargo.toml` description).
