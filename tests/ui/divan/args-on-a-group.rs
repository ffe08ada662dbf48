// A group takes no `args` (its benches do), in divan 0.1.21 as here.
#[divan::bench_group(args = [1, 2])]
mod math {
    #[divan::bench]
    fn add() -> i32 {
        divan::black_box(1) + 2
    }
}

fn main() {
    divan::main();
}
