use pilot::Recorder;

#[pilot::bench]
fn sort(work: u32, rec: &mut Recorder) {
    for _ in 0..work {
        rec.unit(|| 1);
    }
}

pilot::main!();
