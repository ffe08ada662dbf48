use pilot::Recorder;

#[pilot::bench(unit = "MiB", work = 4096..=1)]
fn copy(work: u64, rec: &mut Recorder) {
    for _ in 0..work {
        rec.unit(|| 1 + 1);
    }
}

pilot::main!();
