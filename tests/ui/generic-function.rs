use pilot::Bencher;

#[pilot::bench]
fn sort<T: Ord + Default + Clone>(b: &mut Bencher) {
    b.iter(|| vec![T::default(); 100].sort());
}

pilot::main!();
