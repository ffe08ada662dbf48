#[pilot::bench]
struct Sort {
    len: usize,
}

fn main() {
    let sort = Sort { len: 1 };
    assert_eq!(sort.len, 1);
}
