//! Pure-Rust reference emulator (see `Cargo.toml` description).
