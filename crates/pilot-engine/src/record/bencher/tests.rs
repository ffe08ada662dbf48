//! The bencher's methods in each mode: how often they call the routine and setup, how many
//! readings they give, how many inputs live at once, and that drops fall between units.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use std::time::Duration;

use super::*;
use crate::record::{AsyncExecutor, BlockingExecutor};

const TEST: BencherMode = BencherMode::Test;
/// A target no unit reaches: calibration runs up to the batch size's most inputs.
const CALIBRATE_TO_MAX: BencherMode = BencherMode::Calibrate {
    target_ns: u64::MAX,
    inputs_ns: u64::MAX,
};

fn measure(work: u64, iters: u64) -> BencherMode {
    BencherMode::Measure { work, iters }
}

/// What the inputs and outputs of a batched routine have done so far.
#[derive(Default)]
struct Counts {
    made: Cell<u64>,
    live: Cell<u64>,
    most_live: Cell<u64>,
    dropped: Cell<u64>,
    /// `(made, dropped)` as each routine call saw them.
    seen: RefCell<Vec<(u64, u64)>>,
}

/// An input (or output) that counts itself in and out of existence.
struct Tracked(Rc<Counts>);

impl Tracked {
    fn new(counts: &Rc<Counts>) -> Self {
        counts.made.set(counts.made.get() + 1);
        counts.live.set(counts.live.get() + 1);
        counts
            .most_live
            .set(counts.most_live.get().max(counts.live.get()));
        Tracked(counts.clone())
    }

    fn see(&self) {
        let c = &self.0;
        c.seen.borrow_mut().push((c.made.get(), c.dropped.get()));
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.0.live.set(self.0.live.get() - 1);
        self.0.dropped.set(self.0.dropped.get() + 1);
    }
}

/// Runs `by_value` (routine takes the input and returns it as its output) or by reference
/// (routine returns nothing of it) under `mode` with `size`; returns the counts and the bencher.
fn batched(mode: BencherMode, size: BatchSize, by_value: bool) -> (Rc<Counts>, Bencher) {
    let counts = Rc::new(Counts::default());
    let mut b = Bencher::new(mode);
    if by_value {
        b.iter_batched_with(
            || Tracked::new(&counts),
            |t| {
                t.see();
                t
            },
            size,
        );
    } else {
        b.iter_batched_ref_with(|| Tracked::new(&counts), |t| t.see(), size);
    }
    assert_eq!(counts.live.get(), 0, "every input is dropped by the end");
    (counts, b)
}

/// Every routine call of unit `k` (of `n` iterations) saw all `(k + 1) n` inputs of units up
/// to its own made, and the `k n` of the units before dropped: setup ran ahead of the unit, and
/// nothing was dropped while it ran.
fn assert_units_of(counts: &Counts, n: u64) {
    let seen = counts.seen.borrow();
    for (i, &(made, dropped)) in seen.iter().enumerate() {
        let k = i as u64 / n;
        assert_eq!((made, dropped), ((k + 1) * n, k * n), "call {i}");
    }
}

fn calibrate(target_ns: u64, max: u64, mut time: impl FnMut(u64) -> u64) -> u64 {
    let mut c = Calibration::new(target_ns, max);
    while !c.reached(time(c.iters()), 0) {}
    c.iters()
}

#[test]
fn calibration_reaches_the_target() {
    // A routine of exactly 3 ns per iteration.
    let iters = calibrate(1000, u64::MAX, |n| 3 * n);
    assert!(3 * iters >= 1000, "{iters}");
    assert!(3 * iters <= 1500, "overshoots: {iters}");
    assert_eq!(calibrate(1000, 8, |n| n), 8);
    assert_eq!(calibrate(10, u64::MAX, |_| 50), 1);
    assert_eq!(calibrate(u64::MAX, 1, |n| n), 1);
}

/// Calibration with `inputs_ns` of budget, `time` giving each tried count's (timed, wall)
/// nanoseconds: the iterations found and every count tried.
fn calibrate_with_inputs(
    target_ns: u64,
    inputs_ns: u64,
    mut time: impl FnMut(u64) -> (u64, u64),
) -> (u64, Vec<u64>) {
    let mut c = Calibration::new(target_ns, u64::MAX).inputs_within(inputs_ns);
    let mut tried = Vec::new();
    loop {
        tried.push(c.iters());
        let (ns, wall) = time(c.iters());
        if c.reached(ns, wall) {
            break;
        }
    }
    (c.iters(), tried)
}

#[test]
fn costly_inputs_stop_a_unit_short_of_the_target() {
    // divan's search over a million elements: each input takes 0.3 s to build, the search
    // 2 µs; one unit is over the 31 ms budget already: one iteration.
    let (iters, tried) = calibrate_with_inputs(9_200, 31_000_000, |n| {
        (2_000 * n, 300_000_000 * n + 2_000 * n)
    });
    assert_eq!((iters, tried), (1, vec![1]));
    // Inputs of 1 ms, a routine of 10 ns, a 10 µs target and a 50 ms budget. Doubling from 1
    // to 32 (320 ns, under 10 000 / 16); 64 would take 64 ms: ⌊50 000 000 / 1 000 010⌋ = 49
    // is the most a unit may hold, and it is the answer (490 ns, short of the target).
    let (iters, tried) =
        calibrate_with_inputs(10_000, 50_000_000, |n| (10 * n, 1_000_000 * n + 10 * n));
    assert_eq!((iters, tried), (49, vec![1, 2, 4, 8, 16, 32, 49]));
    // Inputs of 20 ms against a 50 ms budget: two a unit.
    let (iters, tried) = calibrate_with_inputs(10_000, 50_000_000, |n| (10 * n, 20_000_000 * n));
    assert_eq!((iters, tried), (2, vec![1, 2]));
}

#[test]
fn cheap_inputs_leave_the_target_alone() {
    // Inputs of 1 µs beside a 3 ns routine (4000 of them, 4 ms, within the least budget of
    // 1000 targets): the target decides, as without a budget.
    let (iters, _) = calibrate_with_inputs(10_000, 1000 * 10_000, |n| (3 * n, 1_003 * n));
    assert_eq!(iters, calibrate(10_000, u64::MAX, |n| 3 * n));
    // `iter`'s wall is its timed part: never over a budget larger than the target.
    let (iters, _) = calibrate_with_inputs(10_000, 1000 * 10_000, |n| (3 * n, 3 * n));
    assert_eq!(iters, calibrate(10_000, u64::MAX, |n| 3 * n));
}

#[test]
fn most_within_a_budget_is_at_least_one() {
    assert_eq!(most_within(1_000, 10.0), 100);
    assert_eq!(most_within(1_000, 300.0), 3);
    assert_eq!(most_within(1_000, 5_000.0), 1);
    assert_eq!(most_within(1_000, 0.0), 1_000);
}

#[test]
fn iter_runs_once_in_test_mode_and_work_times_iters_in_measure() {
    let mut b = Bencher::new(TEST);
    let mut calls = 0;
    b.iter(|| calls += 1);
    assert_eq!((calls, b.take_readings().len()), (1, 1));

    let mut b = Bencher::new(measure(5, 3));
    let mut calls = 0;
    b.iter(|| calls += 1);
    assert_eq!(calls, 15);
    assert_eq!(b.take_readings().len(), 5);
    assert_eq!(
        b.unit_shape(),
        UnitShape {
            iters: 3,
            may_grow: true
        }
    );
    assert!(b.was_called());
}

#[test]
fn iter_calibrates_by_doubling_a_unit() {
    let mut b = Bencher::new(BencherMode::Calibrate {
        target_ns: 200_000,
        inputs_ns: u64::MAX,
    });
    let mut calls = 0u64;
    b.iter(|| {
        calls += 1;
        std::thread::sleep(Duration::from_micros(20));
    });
    let iters = b.calibrated_iters().unwrap();
    // Each call sleeps at least 20 µs, so 10 calls reach 200 µs: never more than 10.
    assert!((1..=10).contains(&iters), "{iters}");
    assert!(calls >= iters, "{calls} calls for {iters}");
    assert!(b.take_readings().is_empty());
}

#[test]
fn iter_batched_builds_each_units_inputs_ahead_and_drops_outputs_after() {
    for by_value in [true, false] {
        let (counts, mut b) = batched(TEST, BatchSize::SmallInput, by_value);
        assert_eq!((counts.made.get(), b.take_readings().len()), (1, 1));

        let (counts, mut b) = batched(measure(4, 5), BatchSize::SmallInput, by_value);
        assert_eq!(counts.made.get(), 20);
        assert_eq!(counts.seen.borrow().len(), 20);
        assert_eq!(counts.most_live.get(), 5);
        assert_units_of(&counts, 5);
        assert_eq!(b.take_readings().len(), 4);
        assert_eq!(
            b.unit_shape(),
            UnitShape {
                iters: 5,
                may_grow: true
            }
        );
    }
}

#[test]
fn two_argument_forms_are_small_input() {
    let counts = Rc::new(Counts::default());
    let mut b = Bencher::new(measure(2, 10_000));
    b.iter_batched(|| Tracked::new(&counts), |t| t);
    assert_eq!(counts.most_live.get(), 4096);
    assert_eq!(b.unit_shape().iters, 4096);
    let counts = Rc::new(Counts::default());
    let mut b = Bencher::new(CALIBRATE_TO_MAX);
    b.iter_batched_ref(|| Tracked::new(&counts), |_| ());
    assert_eq!(b.calibrated_iters(), Some(4096));
    assert_eq!(counts.most_live.get(), 4096);
}

#[test]
fn large_input_holds_a_few_inputs_at_once() {
    for by_value in [true, false] {
        // The runner asks for 1000 iterations a unit; at most 8 large inputs may exist at once.
        let (counts, mut b) = batched(measure(3, 1000), BatchSize::LargeInput, by_value);
        assert_eq!(counts.most_live.get(), 8);
        assert_eq!(counts.made.get(), 24);
        assert_units_of(&counts, 8);
        assert_eq!(b.take_readings().len(), 3);
        assert_eq!(
            b.unit_shape(),
            UnitShape {
                iters: 8,
                may_grow: true
            }
        );

        let (counts, b) = batched(CALIBRATE_TO_MAX, BatchSize::LargeInput, by_value);
        assert_eq!(b.calibrated_iters(), Some(8));
        assert_eq!(counts.most_live.get(), 8);
        // Calibration tried 1, 2, 4 and 8 inputs.
        assert_eq!(counts.made.get(), 15);
    }
}

#[test]
fn per_iteration_times_one_input_a_unit() {
    for by_value in [true, false] {
        let (counts, mut b) = batched(measure(6, 50), BatchSize::PerIteration, by_value);
        assert_eq!((counts.made.get(), counts.most_live.get()), (6, 1));
        assert_units_of(&counts, 1);
        assert_eq!(b.take_readings().len(), 6);
        assert_eq!(
            b.unit_shape(),
            UnitShape {
                iters: 1,
                may_grow: false
            }
        );

        let (counts, b) = batched(CALIBRATE_TO_MAX, BatchSize::PerIteration, by_value);
        assert_eq!((b.calibrated_iters(), counts.made.get()), (Some(1), 1));
    }
}

#[test]
fn num_batches_and_num_iterations_fix_the_unit() {
    // NumBatches(4): calibration's most (4096, as no unit reaches the target) in 4 units.
    let (_, b) = batched(CALIBRATE_TO_MAX, BatchSize::NumBatches(4), true);
    assert_eq!(b.calibrated_iters(), Some(1024));
    let (counts, b) = batched(measure(2, 1_000_000), BatchSize::NumBatches(4), false);
    assert_eq!(counts.most_live.get(), 1024);
    assert_eq!(
        b.unit_shape(),
        UnitShape {
            iters: 1024,
            may_grow: false
        }
    );

    let (counts, b) = batched(CALIBRATE_TO_MAX, BatchSize::NumIterations(3), true);
    assert_eq!(b.calibrated_iters(), Some(3));
    assert_eq!(counts.most_live.get(), 3);
    let (counts, mut b) = batched(measure(5, 100), BatchSize::NumIterations(3), true);
    assert_eq!((counts.made.get(), counts.most_live.get()), (15, 3));
    assert_units_of(&counts, 3);
    assert_eq!(b.take_readings().len(), 5);
    assert_eq!(
        b.unit_shape(),
        UnitShape {
            iters: 3,
            may_grow: false
        }
    );
}

#[test]
#[should_panic(expected = "NumBatches(0)")]
fn zero_batches_fail_the_bench() {
    batched(measure(1, 1), BatchSize::NumBatches(0), true);
}

/// A routine timing itself: unit `k` of `iters` iterations lasts `1000 k + 7 iters` ns.
fn custom_durations() -> (Rc<RefCell<Vec<u64>>>, impl FnMut(u64) -> Duration) {
    let calls = Rc::new(RefCell::new(Vec::new()));
    let log = calls.clone();
    let routine = move |iters: u64| {
        let k = log.borrow().len() as u64;
        log.borrow_mut().push(iters);
        Duration::from_nanos(1000 * k + 7 * iters)
    };
    (calls, routine)
}

#[test]
fn iter_custom_durations_are_the_readings() {
    let (calls, routine) = custom_durations();
    let mut b = Bencher::new(measure(4, 9));
    b.iter_custom(routine);
    assert_eq!(*calls.borrow(), [9, 9, 9, 9]);
    assert_eq!(b.take_readings(), [63.0, 1063.0, 2063.0, 3063.0]);

    let (calls, routine) = custom_durations();
    let mut b = Bencher::new(TEST);
    b.iter_custom(routine);
    assert_eq!(
        (calls.borrow().clone(), b.take_readings()),
        (vec![1], vec![7.0])
    );
}

#[test]
fn a_second_iter_call_replaces_the_first_calls_readings() {
    // criterion keeps the last routine's time when a bench function calls `iter` twice: the
    // first routine (1000 ns an iteration) leaves no reading beside the second's (10 ns).
    let mut b = Bencher::new(measure(3, 2));
    b.iter_custom(|iters| Duration::from_nanos(1000 * iters));
    b.iter_custom(|iters| Duration::from_nanos(10 * iters));
    assert_eq!(b.take_readings(), [20.0, 20.0, 20.0]);
    // Whatever form the first call had.
    let mut b = Bencher::new(measure(2, 1));
    b.iter(|| std::thread::sleep(Duration::from_micros(1)));
    b.iter_custom(|iters| Duration::from_nanos(7 * iters));
    assert_eq!(b.take_readings(), [7.0, 7.0]);
}

#[test]
fn iter_custom_calibrates_on_the_durations_it_returns() {
    let mut tried = Vec::new();
    let mut b = Bencher::new(BencherMode::Calibrate {
        target_ns: 10_000,
        inputs_ns: u64::MAX,
    });
    b.iter_custom(|iters| {
        tried.push(iters);
        Duration::from_nanos(3 * iters)
    });
    // 3 ns an iteration: doubling to 256 (768 ns > 10 000 / 16), then 1.2 × 10 000 / 3.
    assert_eq!(tried, [1, 2, 4, 8, 16, 32, 64, 128, 256, 4000]);
    assert_eq!(b.calibrated_iters(), Some(4000));
    assert!(b.take_readings().is_empty());
}

/// A future that is pending once, waking its task before it returns `Pending`.
struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            return Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

#[test]
fn async_iter_awaits_each_routine_future() {
    let mut b = Bencher::new(measure(3, 4));
    let (mut made, done) = (0, Cell::new(0));
    b.to_async(BlockingExecutor).iter(|| {
        made += 1;
        let done = &done;
        async move {
            YieldOnce(false).await;
            done.set(done.get() + 1);
        }
    });
    assert_eq!((made, done.get()), (12, 12));
    assert_eq!(b.take_readings().len(), 3);

    let mut b = Bencher::new(TEST);
    let mut calls = 0;
    b.to_async(&BlockingExecutor).iter(|| {
        calls += 1;
        std::future::ready(())
    });
    assert_eq!((calls, b.take_readings().len()), (1, 1));

    let mut b = Bencher::new(CALIBRATE_TO_MAX);
    b.to_async(BlockingExecutor)
        .iter_custom(|iters| async move {
            YieldOnce(false).await;
            Duration::from_nanos(iters)
        });
    // Never reaching the target, calibration doubles up to the largest count.
    assert_eq!(b.calibrated_iters(), Some(u64::MAX));
}

#[test]
fn async_iter_batched_builds_inputs_outside_the_unit() {
    for (size, n) in [(BatchSize::LargeInput, 8), (BatchSize::NumIterations(2), 2)] {
        let counts = Rc::new(Counts::default());
        let mut b = Bencher::new(measure(3, 100));
        b.to_async(BlockingExecutor).iter_batched_with(
            || Tracked::new(&counts),
            |t| async move {
                YieldOnce(false).await;
                t.see();
                t
            },
            size,
        );
        assert_eq!((counts.made.get(), counts.most_live.get()), (3 * n, n));
        assert_eq!(counts.live.get(), 0);
        assert_units_of(&counts, n);
        assert_eq!(b.take_readings().len(), 3);
    }
    let mut b = Bencher::new(TEST);
    let mut made = 0;
    b.to_async(BlockingExecutor)
        .iter_batched(|| made += 1, |()| async {});
    assert_eq!((made, b.take_readings().len()), (1, 1));
}

#[test]
fn async_iter_custom_durations_are_the_readings() {
    let (calls, mut routine) = custom_durations();
    let mut b = Bencher::new(measure(3, 5));
    b.to_async(BlockingExecutor)
        .iter_custom(|iters| std::future::ready(routine(iters)));
    assert_eq!(*calls.borrow(), [5, 5, 5]);
    assert_eq!(b.take_readings(), [35.0, 1035.0, 2035.0]);
}

/// An executor that takes 50 ms to start before it runs the future.
struct SlowStart;

impl AsyncExecutor for SlowStart {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        std::thread::sleep(Duration::from_millis(50));
        BlockingExecutor.block_on(future)
    }
}

#[test]
fn the_executors_start_up_is_outside_every_unit() {
    let mut b = Bencher::new(measure(3, 1));
    b.to_async(SlowStart).iter(|| async {});
    let readings = b.take_readings();
    assert_eq!(readings.len(), 3);
    assert!(readings.iter().all(|&ns| ns < 25e6), "{readings:?}");
}

#[cfg(feature = "tokio")]
#[test]
fn a_tokio_runtime_runs_the_units() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let mut b = Bencher::new(measure(2, 3));
    let mut calls = 0;
    // `spawn` panics outside a runtime: the routine's futures run inside `rt`.
    b.to_async(&rt).iter(|| {
        calls += 1;
        async { tokio::spawn(async { 1 }).await.unwrap() }
    });
    assert_eq!((calls, b.take_readings().len()), (6, 2));
    let mut b = Bencher::new(TEST);
    b.to_async(rt.handle().clone())
        .iter(|| async { tokio::task::yield_now().await });
    assert_eq!(b.take_readings().len(), 1);
}

#[test]
fn an_output_is_kept_until_the_unit_ends_only_when_it_needs_dropping() {
    // An output with a drop is kept (and dropped later, outside the timing); one without goes
    // through `black_box` and is not stored: storing and reloading it is what stalled.
    let dropped = Rc::new(Cell::new(0));
    struct Counted(Rc<Cell<usize>>);
    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }
    let mut kept: Vec<Counted> = Vec::new();
    for _ in 0..3 {
        keep(&mut kept, Counted(dropped.clone()));
    }
    assert_eq!((kept.len(), dropped.get()), (3, 0));
    drop(kept);
    assert_eq!(dropped.get(), 3);
    let mut plain: Vec<Option<i32>> = Vec::new();
    keep(&mut plain, Some(7));
    assert!(plain.is_empty() && plain.capacity() == 0);
}

#[test]
fn batched_outputs_with_a_drop_are_dropped_after_each_unit() {
    // Three units of four: each unit's four outputs are dropped after its time is read, not
    // while it runs.
    let dropped = Rc::new(Cell::new(0));
    let at_call = RefCell::new(Vec::new());
    struct Counted(Rc<Cell<usize>>);
    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }
    let mut b = Bencher::new(measure(3, 4));
    b.iter_batched(
        || (),
        |()| {
            at_call.borrow_mut().push(dropped.get());
            Counted(dropped.clone())
        },
    );
    assert_eq!(dropped.get(), 12);
    assert_eq!(*at_call.borrow(), vec![0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8]);
}
