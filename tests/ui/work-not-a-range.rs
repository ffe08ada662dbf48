#[pilot::bench(work = 4096)]
fn build_index(work: u64) {
    pilot::black_box(work);
}

pilot::main!();
