//! base64 0.22.1's criterion benches (`benches/benchmarks.rs`, unchanged), built against
//! pilot-criterion renamed `criterion`. The crate has no code of its own: see `Cargo.toml`.
