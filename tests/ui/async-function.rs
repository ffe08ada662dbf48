use pilot::Bencher;

#[pilot::bench]
async fn fetch(b: &mut Bencher) {
    b.iter(|| 1 + 1);
}

pilot::main!();
