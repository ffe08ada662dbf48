use pilot::Bencher;

// A median is not one of the estimators pilot offers.
#[pilot::bench(estimator = "median")]
fn sort(b: &mut Bencher) {
    b.iter(|| 1 + 1);
}

pilot::main!();
