//! Micro form: hashing 4 KiB with the standard library's SipHash.

use std::hash::{DefaultHasher, Hasher};

#[pilot::bench]
fn siphash_4k(b: &mut pilot::Bencher) {
    let data: Vec<u8> = (0..4096u32).map(|i| (i * 31 % 251) as u8).collect();
    b.iter(|| {
        let mut h = DefaultHasher::new();
        h.write(pilot::black_box(&data));
        h.finish()
    });
}

pilot::main!();
