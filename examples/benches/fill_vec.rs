//! Micro form where allocation is part of the work: filling a fresh 64 KiB `Vec`.

#[pilot::bench]
fn fill_64k(b: &mut pilot::Bencher) {
    b.iter(|| {
        let mut v: Vec<u8> = Vec::with_capacity(64 << 10);
        v.resize(64 << 10, 0xA5);
        v
    });
}

pilot::main!();
