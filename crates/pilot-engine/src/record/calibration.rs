//! How many iterations a micro-form unit holds: calibration's search for the unit target,
//! bounded by what the unit's inputs cost to make.

/// Calibration's search for the iterations that make a unit reach `target_ns`: from 1, doubling,
/// then straight towards the target once a timing is meaningful, never past `max`, and never
/// past what makes the unit's inputs cost more than `inputs_ns` to build.
///
/// Why the inputs' cost bounds a unit: a batched routine's inputs are built before its unit,
/// one per iteration. When building one costs far more than the routine (a million-element
/// set searched once), the iterations a session can run in its time are set by the building,
/// whatever their grouping: more iterations per unit buy a smaller clock share (the only reason
/// for the target) at the price of fewer units, and a unit of 4096 inputs built at 0.3 s each
/// would never finish. So the count stops where the unit's wall time (inputs and routine) would
/// pass `inputs_ns`, at least one iteration; the clock's share of such units may pass the 0.5%
/// the target keeps, and pilot's clock check reports it. Measured rounds lengthen short units
/// only within the same budget, from their own wall time (so a first unit that paid a one-time
/// cost does not fix the count for good).
pub(crate) struct Calibration {
    target_ns: u64,
    max: u64,
    iters: u64,
    inputs_ns: u64,
}

impl Calibration {
    pub(crate) fn new(target_ns: u64, max: u64) -> Self {
        Calibration {
            target_ns,
            max: max.max(1),
            iters: 1,
            inputs_ns: u64::MAX,
        }
    }

    /// The same search, its units' wall time (inputs made, routine run) bounded by `inputs_ns`.
    pub(crate) fn inputs_within(mut self, inputs_ns: u64) -> Self {
        self.inputs_ns = inputs_ns;
        self
    }

    /// The iteration count to time next (the answer once [`reached`](Self::reached)).
    pub(crate) fn iters(&self) -> u64 {
        self.iters
    }

    /// Takes the time of a unit of [`iters`](Self::iters) iterations, `ns` timed and `wall`
    /// from before its inputs were made to its end: true when it reached the target, the count
    /// is at `max`, or a longer unit's inputs would cost too much; else moves on to the next
    /// count.
    pub(crate) fn reached(&mut self, ns: u64, wall: u64) -> bool {
        let (iters, target_ns) = (self.iters, self.target_ns);
        if ns >= target_ns || iters >= self.max {
            return true;
        }
        let next = if ns > target_ns / 16 {
            // Close enough to extrapolate; aim 20% past the target.
            (iters as f64 * 1.2 * target_ns as f64 / ns.max(1) as f64).ceil() as u64
        } else {
            iters.saturating_mul(2)
        };
        // Wall time grows with the iterations: the most whose wall stays within the budget.
        let affordable = most_within(self.inputs_ns, wall as f64 / iters as f64);
        if affordable < next {
            let most = affordable.clamp(1, self.max);
            let done = most <= iters;
            self.iters = most;
            return done;
        }
        self.iters = next.clamp(iters + 1, self.max);
        false
    }
}

/// The most iterations whose wall time, at `wall_per_iter_ns` each (inputs made and routine
/// run), stays within `budget_ns`; at least 1.
pub(crate) fn most_within(budget_ns: u64, wall_per_iter_ns: f64) -> u64 {
    ((budget_ns as f64 / wall_per_iter_ns.max(1.0)).floor() as u64).max(1)
}
