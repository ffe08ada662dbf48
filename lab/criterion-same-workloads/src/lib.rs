//! Nothing here: see `benches/compare.rs`.
