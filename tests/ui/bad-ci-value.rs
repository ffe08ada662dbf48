use pilot::Bencher;

// A percentage where a fraction is expected.
#[pilot::bench(ci = 5)]
fn sort(b: &mut Bencher) {
    b.iter(|| 1 + 1);
}

pilot::main!();
