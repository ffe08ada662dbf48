//! criterion's groups and ids: `BenchmarkGroup` and `BenchmarkId`, and the methods of
//! `Criterion` that make groups (a bench of its own is a group of one).

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::Duration;

use pilot_engine::runner::driven::{self, Announced};

use crate::Bencher;
use crate::criterion::Criterion;
use crate::measurement::Measurement;
use crate::plot::{PlotConfiguration, SamplingMode};
use crate::settings::Settings;
use crate::throughput::Throughput;

/// A bench's id within its group: a function name, a parameter, or both.
#[derive(Clone, Debug, Eq, PartialEq, Hash)]
pub struct BenchmarkId {
    function_name: Option<String>,
    parameter: Option<String>,
}

impl BenchmarkId {
    /// The id `function_name/parameter`.
    pub fn new<S: Into<String>, P: std::fmt::Display>(
        function_name: S,
        parameter: P,
    ) -> BenchmarkId {
        BenchmarkId {
            function_name: Some(function_name.into()),
            parameter: Some(parameter.to_string()),
        }
    }

    /// The id `parameter`, for one function over several inputs.
    pub fn from_parameter<P: std::fmt::Display>(parameter: P) -> BenchmarkId {
        BenchmarkId {
            function_name: None,
            parameter: Some(parameter.to_string()),
        }
    }

    pub(crate) fn no_function() -> BenchmarkId {
        BenchmarkId {
            function_name: None,
            parameter: None,
        }
    }

    pub(crate) fn no_function_with_input(parameter: Option<String>) -> BenchmarkId {
        BenchmarkId {
            function_name: None,
            parameter,
        }
    }

    pub(crate) fn into_parts(self) -> (Option<String>, Option<String>) {
        (self.function_name, self.parameter)
    }
}

mod private {
    pub trait Sealed {}
    impl Sealed for super::BenchmarkId {}
    impl<S: Into<String>> Sealed for S {}
}

/// What a group's `bench_function` takes as an id: a [`BenchmarkId`] or a function name.
pub trait IntoBenchmarkId: private::Sealed {
    /// The id.
    fn into_benchmark_id(self) -> BenchmarkId;
}

impl IntoBenchmarkId for BenchmarkId {
    fn into_benchmark_id(self) -> BenchmarkId {
        self
    }
}

impl<S: Into<String>> IntoBenchmarkId for S {
    /// A function name; panics when empty, as criterion does.
    fn into_benchmark_id(self) -> BenchmarkId {
        let function_name = self.into();
        assert!(
            !function_name.is_empty(),
            "Function name must not be empty."
        );
        BenchmarkId {
            function_name: Some(function_name),
            parameter: None,
        }
    }
}

/// Every bench id this process has announced: an id seen before gets criterion's ` #2`,
/// ` #3`… suffix, as criterion gives it.
static TITLES: Mutex<Option<HashSet<String>>> = Mutex::new(None);

fn unique_title(title: String) -> String {
    let mut guard = TITLES.lock().unwrap_or_else(|e| e.into_inner());
    let titles = guard.get_or_insert_with(HashSet::new);
    let mut unique = title.clone();
    let mut counter = 2;
    while titles.contains(&unique) {
        unique = format!("{title} #{counter}");
        counter += 1;
    }
    titles.insert(unique.clone());
    unique
}

/// Benches under one name, with settings of their own: ids `group/function/parameter`.
///
/// A group's benches run one after another, as criterion runs them, each in its own adaptive
/// session. With `--compare-groups` (`PILOT_COMPARE_GROUPS=1`), a group is one of pilot's
/// compared groups instead: its members run interleaved, one process of each in turn, and the
/// members with the same parameter (`BenchmarkId`'s) are ranked, each adjacent pair with a
/// ratio, its interval and Welch's verdict over the processes' estimates.
pub struct BenchmarkGroup<'a, M: Measurement> {
    criterion: &'a mut Criterion<M>,
    name: String,
    settings: Settings,
    throughput: Option<Throughput>,
    ids: Vec<String>,
}

impl<'a, M: Measurement> BenchmarkGroup<'a, M> {
    pub(crate) fn new(criterion: &'a mut Criterion<M>, name: String) -> Self {
        let settings = criterion.settings.clone();
        driven::group(Some(&name));
        BenchmarkGroup {
            criterion,
            name,
            settings,
            throughput: None,
            ids: Vec::new(),
        }
    }

    /// Accepted, with no effect (see [`Criterion::sample_size`]).
    pub fn sample_size(&mut self, n: usize) -> &mut Self {
        self.settings.sample_size(n);
        self
    }

    /// Part of this group's session time cap (see [`Criterion::warm_up_time`]).
    pub fn warm_up_time(&mut self, dur: Duration) -> &mut Self {
        self.settings.warm_up_time(dur);
        self
    }

    /// Part of this group's session time cap (see [`Criterion::measurement_time`]).
    pub fn measurement_time(&mut self, dur: Duration) -> &mut Self {
        self.settings.measurement_time(dur);
        self
    }

    /// Accepted, with no effect (see [`Criterion::nresamples`]).
    pub fn nresamples(&mut self, n: usize) -> &mut Self {
        self.settings.nresamples(n);
        self
    }

    /// Accepted (see [`Criterion::noise_threshold`]).
    pub fn noise_threshold(&mut self, threshold: f64) -> &mut Self {
        self.settings.noise_threshold(threshold);
        self
    }

    /// The confidence level of this group's intervals.
    pub fn confidence_level(&mut self, cl: f64) -> &mut Self {
        self.settings.confidence_level(cl);
        self
    }

    /// Accepted (see [`Criterion::significance_level`]).
    pub fn significance_level(&mut self, sl: f64) -> &mut Self {
        self.settings.significance_level(sl);
        self
    }

    /// Accepted, with no effect.
    pub fn plot_config(&mut self, _new_config: PlotConfiguration) -> &mut Self {
        self
    }

    /// What one iteration of the benches added after this call processes.
    pub fn throughput(&mut self, throughput: Throughput) -> &mut Self {
        self.throughput = Some(throughput);
        self
    }

    /// Accepted, with no effect (see [`SamplingMode`]).
    pub fn sampling_mode(&mut self, _new_mode: SamplingMode) -> &mut Self {
        self
    }

    /// Bench `id` of this group.
    pub fn bench_function<ID: IntoBenchmarkId, F>(&mut self, id: ID, mut f: F) -> &mut Self
    where
        F: FnMut(&mut Bencher<'_, M>),
    {
        self.run_bench(id.into_benchmark_id(), &(), |b, _| f(b));
        self
    }

    /// Bench `id` of this group, with `input` (borrowed for the bench's whole session).
    pub fn bench_with_input<ID: IntoBenchmarkId, F, I>(
        &mut self,
        id: ID,
        input: &I,
        f: F,
    ) -> &mut Self
    where
        F: FnMut(&mut Bencher<'_, M>, &I),
        I: ?Sized,
    {
        self.run_bench(id.into_benchmark_id(), input, f);
        self
    }

    /// Ends the group (dropping it does the same). With `--compare-groups`, its benches are
    /// measured now, interleaved; otherwise each was measured as it was added.
    pub fn finish(self) {}

    fn run_bench<F, I>(&mut self, id: BenchmarkId, input: &I, mut f: F)
    where
        F: FnMut(&mut Bencher<'_, M>, &I),
        I: ?Sized,
    {
        let mut title = self.name.clone();
        for part in [&id.function_name, &id.parameter].into_iter().flatten() {
            title.push('/');
            title.push_str(part);
        }
        assert!(
            !self.ids.contains(&title),
            "Benchmark IDs must be unique within a group. Encountered duplicated benchmark ID {title}"
        );
        self.ids.push(title.clone());
        let title = unique_title(title);
        if !self.criterion.filter_matches(&title) {
            return;
        }
        let announced = Announced {
            name: &title,
            max_time: Some(self.settings.max_time()),
            confidence: Some(self.settings.confidence()),
            throughput: self.throughput.as_ref().map(Throughput::rate),
            parameter: id.parameter.as_deref(),
        };
        driven::bench(announced, &mut |b: &mut pilot::Bencher| {
            f(&mut Bencher::new(b), input)
        });
    }
}

impl<M: Measurement> Drop for BenchmarkGroup<'_, M> {
    fn drop(&mut self) {
        driven::group(None);
    }
}

/// The benches of a [`Criterion`]: each is a group, or a group of one.
impl<M: Measurement> Criterion<M> {
    /// A group of benches: their ids are `group_name/function/parameter`. Panics on an
    /// empty name, as criterion does.
    pub fn benchmark_group<S: Into<String>>(&mut self, group_name: S) -> BenchmarkGroup<'_, M> {
        let name = group_name.into();
        assert!(!name.is_empty(), "Group name must not be empty.");
        BenchmarkGroup::new(self, name)
    }

    /// Bench `id`: its id is `id`.
    pub fn bench_function<F>(&mut self, id: &str, f: F) -> &mut Criterion<M>
    where
        F: FnMut(&mut Bencher<'_, M>),
    {
        self.benchmark_group(id)
            .bench_function(BenchmarkId::no_function(), f);
        self
    }

    /// Bench `id` with `input`: its id is `function/parameter`. Panics for an id made by
    /// [`BenchmarkId::from_parameter`], as criterion does.
    pub fn bench_with_input<F, I>(&mut self, id: BenchmarkId, input: &I, f: F) -> &mut Criterion<M>
    where
        F: FnMut(&mut Bencher<'_, M>, &I),
        I: ?Sized,
    {
        let (function, parameter) = id.into_parts();
        let group = function
            .expect("Cannot use BenchmarkId::from_parameter with Criterion::bench_with_input");
        self.benchmark_group(group).bench_with_input(
            BenchmarkId::no_function_with_input(parameter),
            input,
            f,
        );
        self
    }
}
