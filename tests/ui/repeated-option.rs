use pilot::Bencher;

#[pilot::bench(max_time = 5, ci = 0.01, max_time = 10)]
fn sort(b: &mut Bencher) {
    b.iter(|| 1 + 1);
}

pilot::main!();
