// A measurement of one's own: criterion 0.8 ACCEPTS this file (its `Measurement` trait is open
// to users, for CPU cycles or perf counters). pilot measures wall time only, so here the trait
// is sealed and implementing it is an error naming `Measurement`: the one place pilot-criterion
// rejects, on purpose, what criterion accepts.
use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// Counts calls instead of time.
struct Calls;

struct CallsFormatter;

impl ValueFormatter for CallsFormatter {
    fn scale_values(&self, _typical_value: f64, _values: &mut [f64]) -> &'static str {
        "calls"
    }

    fn scale_throughputs(
        &self,
        _typical_value: f64,
        _throughput: &Throughput,
        _values: &mut [f64],
    ) -> &'static str {
        "calls"
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "calls"
    }
}

impl Measurement for Calls {
    type Intermediate = ();
    type Value = u64;

    fn start(&self) {}

    fn end(&self, _i: ()) -> u64 {
        1
    }

    fn add(&self, v1: &u64, v2: &u64) -> u64 {
        v1 + v2
    }

    fn zero(&self) -> u64 {
        0
    }

    fn to_f64(&self, value: &u64) -> f64 {
        *value as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        &CallsFormatter
    }
}

fn bench(c: &mut Criterion<Calls>) {
    c.bench_function("add", |b| b.iter(|| std::hint::black_box(1) + 1));
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(Calls);
    targets = bench
}
criterion_main!(benches);
