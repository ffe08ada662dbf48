// `Divan`'s builder, prelude and `main` forms, as divan 0.1.21 has them: compiled, then run
// (in test mode).
use std::time::Duration;

use divan::counter::BytesFormat;
use divan::prelude::*;

// `#[bench]` alone would be ambiguous with the standard prelude's unstable attribute (under
// divan too): the attributes are written in full.
#[divan::bench]
fn add() -> i32 {
    black_box(1) + black_box(42)
}

#[divan::bench_group]
mod math {
    #[divan::bench(min_time = 3, max_time = 1)]
    fn mul() -> i32 {
        divan::black_box(6) * 7
    }
}

fn main() {
    Divan::from_args()
        .sample_count(10)
        .sample_size(5)
        .threads([1])
        .min_time(Duration::from_millis(10))
        .max_time(Duration::from_secs(1))
        .skip_ext_time(true)
        .items_count(1u32)
        .bytes_count(8u32)
        .chars_count(2u32)
        .cycles_count(3u32)
        .bytes_format(BytesFormat::Binary)
        .color(false)
        .skip_regex("nothing_matches_this")
        .skip_exact("math::nothing")
        .run_ignored()
        .main();
    let _ = Divan::default().config_with_args().run_only_ignored();
}
