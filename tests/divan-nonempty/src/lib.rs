//! nonempty-collections 1.4.0's divan benches (`benches/vec.rs`), unchanged, run under pilot
//! through pilot-divan. See `Cargo.toml` for where the file comes from, and `ids.sh` for the
//! check of its ids against divan's.
