use pilot::Bencher;

struct Index {
    len: usize,
}

impl Index {
    #[pilot::bench]
    fn lookup(&self, b: &mut Bencher) {
        b.iter(|| self.len);
    }
}

fn main() {}
