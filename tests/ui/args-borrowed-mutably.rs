use pilot::Bencher;

#[pilot::bench(args = [vec![1u8; 64], vec![1; 4096]])]
fn fill(buf: &mut Vec<u8>, b: &mut Bencher) {
    b.iter(|| buf.fill(0));
}

pilot::main!();
