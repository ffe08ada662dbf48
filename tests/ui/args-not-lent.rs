use pilot::Bencher;

#[pilot::bench(args = [1, 2])]
fn greet(lang: &str, b: &mut Bencher) {
    b.iter(|| lang.len());
}

pilot::main!();
