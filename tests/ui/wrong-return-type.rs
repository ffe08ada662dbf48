#[pilot::bench]
fn checksum(work: u64) -> u64 {
    work * 2
}

pilot::main!();
