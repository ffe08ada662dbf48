use pilot::Bencher;

#[pilot::bench]
unsafe fn read_raw(b: &mut Bencher) {
    b.iter(|| 1 + 1);
}

pilot::main!();
