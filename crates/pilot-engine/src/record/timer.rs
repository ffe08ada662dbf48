//! The timer that times units: `std::time::Instant` (the default), or x86-64's time-stamp
//! counter (`--timer tsc`), calibrated against `Instant`; and the [`Stopwatch`] the recorder
//! and the bencher read it through, with the allocation counts when a
//! [`CountingAlloc`](crate::allocations::CountingAlloc) is installed.
//!
//! # The TSC
//! `RDTSC` reads a counter that an invariant TSC (CPUID leaf `0x8000_0007`, EDX bit 8) advances
//! at a constant rate whatever the core's frequency or sleep state, the same on every core: a
//! clock as good as `Instant` (which Linux itself reads from it, with a fence and a scaling)
//! at a fraction of the cost. pilot reads it without a fence: a read may run a few dozen
//! cycles before the unit's last instructions retire or after its first ones start (the
//! processor's out-of-order window), a bias of nanoseconds that units of a microsecond or more
//! never see. It is refused where the counter is not invariant (its ticks would not be time)
//! or the processor is not x86-64.

use std::time::{Duration, Instant};

use crate::allocations::{self, Counts};

/// The clock that times units (`--timer`, `PILOT_TIMER`).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Timer {
    /// `std::time::Instant`: the default, on every platform.
    Instant,
    /// The x86-64 invariant time-stamp counter, calibrated against `Instant`.
    Tsc(Tsc),
}

impl Timer {
    /// The timer `name` asks for (`instant` or `tsc`): the TSC calibrated, or why it cannot be
    /// used here. Calibration times the counter against `Instant` for 10 ms (`CALIBRATION`).
    pub(crate) fn named(name: &str) -> Result<Timer, String> {
        match name {
            "tsc" => Tsc::calibrate().map(Timer::Tsc),
            "instant" => Ok(Timer::Instant),
            other => Err(format!("`{other}` is not a timer (instant, tsc)")),
        }
    }

    /// Nanoseconds in `raw` of this timer's units (ns for `Instant`, ticks for the TSC).
    #[inline]
    pub(crate) fn ns(&self, raw: u64) -> f64 {
        match self {
            Timer::Instant => raw as f64,
            Timer::Tsc(tsc) => raw as f64 * tsc.ns_per_tick,
        }
    }

    /// Reads this timer `reads` times back to back; the raw units they spanned.
    pub(crate) fn span_of_reads(&self, reads: u32) -> u64 {
        match self {
            Timer::Instant => {
                let start = Instant::now();
                for _ in 0..reads {
                    std::hint::black_box(Instant::now());
                }
                start.elapsed().as_nanos() as u64
            }
            Timer::Tsc(_) => {
                let start = ticks();
                for _ in 0..reads {
                    std::hint::black_box(ticks());
                }
                ticks().saturating_sub(start)
            }
        }
    }

    /// The smallest non-zero step between two successive of `reads` reads, in raw units
    /// (`u64::MAX` when none moved).
    pub(crate) fn least_step(&self, reads: u32) -> u64 {
        let mut least = u64::MAX;
        match self {
            Timer::Instant => {
                let mut last = Instant::now();
                for _ in 0..reads {
                    let now = Instant::now();
                    let step = now.saturating_duration_since(last).as_nanos() as u64;
                    if step > 0 {
                        least = least.min(step);
                    }
                    last = now;
                }
            }
            Timer::Tsc(_) => {
                let mut last = ticks();
                for _ in 0..reads {
                    let now = ticks();
                    let step = now.saturating_sub(last);
                    if step > 0 {
                        least = least.min(step);
                    }
                    last = now;
                }
            }
        }
        least
    }
}

/// The x86-64 invariant time-stamp counter, with its rate found against `Instant`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Tsc {
    ns_per_tick: f64,
}

/// How long calibration watches both clocks: `Instant`'s step (tens of ns) is then a few
/// millionths of it.
const CALIBRATION: Duration = Duration::from_millis(10);

impl Tsc {
    /// The TSC with its rate measured against `Instant` over [`CALIBRATION`] (each TSC read
    /// between two `Instant` reads, timed at their midpoint, the closest pair of five); an
    /// error saying why it cannot be used where the processor is not x86-64, does not have an
    /// invariant TSC, or the rate found is not a processor's (outside 50 MHz to 20 GHz).
    pub fn calibrate() -> Result<Tsc, String> {
        invariant()?;
        // The TSC read between two `Instant` reads, of five tries the one whose reads came
        // closest together: a preemption between them would move the midpoint by half of it.
        let paired = || {
            (0..5)
                .map(|_| {
                    let before = Instant::now();
                    let t = ticks();
                    let after = Instant::now();
                    let gap = after.saturating_duration_since(before);
                    (gap, before + gap / 2, t)
                })
                .min_by_key(|&(gap, _, _)| gap)
                .map(|(_, at, t)| (at, t))
                .expect("five tries")
        };
        let (i0, t0) = paired();
        while i0.elapsed() < CALIBRATION {
            std::hint::spin_loop();
        }
        let (i1, t1) = paired();
        let ns = i1.saturating_duration_since(i0).as_nanos() as f64;
        let ticks = t1.saturating_sub(t0) as f64;
        let ns_per_tick = ns / ticks;
        if !(0.05..=20.0).contains(&(1.0 / ns_per_tick)) {
            return Err(format!(
                "the time-stamp counter advanced {ticks} ticks in {ns} ns of `Instant`, not \
                 the rate of a processor's clock"
            ));
        }
        Ok(Tsc { ns_per_tick })
    }

    /// Reads the counter, in ticks (for pilot's own bench of what a read costs).
    #[inline(always)]
    pub fn read(&self) -> u64 {
        ticks()
    }

    /// The counter's rate in GHz (ticks per nanosecond).
    pub(crate) fn ghz(&self) -> f64 {
        1.0 / self.ns_per_tick
    }
}

/// Whether this processor's TSC is invariant: CPUID leaf `0x8000_0007`, EDX bit 8.
#[cfg(target_arch = "x86_64")]
fn invariant() -> Result<(), String> {
    use std::arch::x86_64::__cpuid;
    // SAFETY: CPUID exists on every x86-64 processor and only reads identification registers.
    #[allow(unused_unsafe)]
    let highest = unsafe { __cpuid(0x8000_0000) }.eax;
    if highest < 0x8000_0007 {
        return Err(
            "this processor does not say whether its time-stamp counter is invariant \
                    (it has no CPUID leaf 0x8000_0007)"
                .to_string(),
        );
    }
    // SAFETY: as above; the leaf exists (checked against the highest extended leaf).
    #[allow(unused_unsafe)]
    let edx = unsafe { __cpuid(0x8000_0007) }.edx;
    if edx & (1 << 8) == 0 {
        return Err(
            "this processor's time-stamp counter is not invariant (CPUID 0x8000_0007 \
                    EDX bit 8 is clear): its rate may follow the core's frequency or stop in \
                    sleep states, so its ticks are not time"
                .to_string(),
        );
    }
    Ok(())
}

/// Elsewhere there is no TSC to read.
#[cfg(not(target_arch = "x86_64"))]
fn invariant() -> Result<(), String> {
    Err(format!(
        "the time-stamp counter is x86-64's, and this processor is {}",
        std::env::consts::ARCH
    ))
}

/// Reads the time-stamp counter. The `asm!` block is a compiler barrier (it may touch memory as
/// far as the compiler knows), so no load or store of the unit moves across it.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn ticks() -> u64 {
    let (low, high): (u32, u32);
    // SAFETY: RDTSC only reads the counter into EDX:EAX (user mode may: Linux leaves CR4.TSD
    // clear); `Tsc` values exist only once `invariant` found the counter.
    unsafe {
        std::arch::asm!("rdtsc", out("eax") low, out("edx") high, options(nostack, preserves_flags));
    }
    (u64::from(high) << 32) | u64::from(low)
}

/// No `Tsc` can be made off x86-64 ([`Tsc::calibrate`] refuses), so this is never called.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn ticks() -> u64 {
    0
}

/// How units are timed and counted in a round: the timer, and whether a
/// [`CountingAlloc`](crate::allocations::CountingAlloc) counts this process's allocations.
/// Decided once per round; read on both sides of every unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Stopwatch {
    pub(crate) timer: Timer,
    pub(crate) counting: bool,
}

/// What [`Stopwatch::start`] read before a unit.
pub(crate) struct Mark {
    clock: ClockMark,
    counts: Counts,
}

enum ClockMark {
    Instant(Instant),
    Tsc(u64),
}

/// One unit as the stopwatch saw it: its duration in the timer's raw units, and what its
/// thread allocated meanwhile (zero when not counting).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Lap {
    pub(crate) raw: u64,
    pub(crate) counts: Counts,
}

impl Stopwatch {
    /// Times with `timer`, counting allocations when this process's allocator counts them.
    pub(crate) fn new(timer: Timer) -> Self {
        Stopwatch {
            timer,
            counting: allocations::counting(),
        }
    }

    /// `Instant`, counting as [`Stopwatch::new`] finds.
    pub(crate) fn instant() -> Self {
        Stopwatch::new(Timer::Instant)
    }

    /// Before a unit: the counts (when counting), then the clock, last.
    #[inline(always)]
    pub(crate) fn start(self) -> Mark {
        let counts = if self.counting {
            allocations::snapshot()
        } else {
            Counts::default()
        };
        let clock = match self.timer {
            Timer::Instant => ClockMark::Instant(Instant::now()),
            Timer::Tsc(_) => ClockMark::Tsc(ticks()),
        };
        Mark { clock, counts }
    }

    /// After a unit: the clock first, then the counts (when counting).
    #[inline(always)]
    pub(crate) fn stop(self, mark: Mark) -> Lap {
        let raw = match mark.clock {
            ClockMark::Instant(start) => {
                Instant::now().saturating_duration_since(start).as_nanos() as u64
            }
            // A thread moved to a core whose counter lags by a few ticks reads 0, not 2^64.
            ClockMark::Tsc(start) => ticks().saturating_sub(start),
        };
        let counts = if self.counting {
            allocations::snapshot().since(mark.counts)
        } else {
            Counts::default()
        };
        Lap { raw, counts }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tsc_is_calibrated_or_refused_with_its_reason() {
        match Timer::named("tsc") {
            Ok(Timer::Tsc(tsc)) => {
                assert!((0.05..=20.0).contains(&tsc.ghz()), "{}", tsc.ghz());
                // A millisecond of `Instant` is a millisecond of the TSC, to within the two
                // clocks' steps.
                let timer = Timer::Tsc(tsc);
                let watch = Stopwatch {
                    timer,
                    counting: false,
                };
                let before = Instant::now();
                let mark = watch.start();
                while before.elapsed() < Duration::from_millis(2) {}
                let lap = watch.stop(mark);
                let outer = before.elapsed().as_nanos() as f64;
                // The lap spans the 2 ms loop less the moment from `before` to its start, and
                // lies within `outer` (a preemption anywhere only widens `outer`).
                let tsc_ns = timer.ns(lap.raw);
                assert!(
                    tsc_ns >= 1.99e6 && tsc_ns <= outer + 1000.0,
                    "{tsc_ns} vs {outer}"
                );
            }
            Ok(other) => panic!("{other:?}"),
            Err(why) => assert!(why.contains("invariant") || why.contains("x86-64"), "{why}"),
        }
        assert_eq!(Timer::named("instant"), Ok(Timer::Instant));
        assert!(Timer::named("hpet").is_err());
    }

    #[test]
    fn a_lap_of_instant_is_nanoseconds() {
        let watch = Stopwatch {
            timer: Timer::Instant,
            counting: false,
        };
        let before = Instant::now();
        let mark = watch.start();
        std::thread::sleep(Duration::from_millis(1));
        let lap = watch.stop(mark);
        let outer = before.elapsed().as_nanos() as u64;
        assert!(lap.raw >= 1_000_000 && lap.raw <= outer, "{}", lap.raw);
        assert_eq!(Timer::Instant.ns(lap.raw), lap.raw as f64);
        assert_eq!(lap.counts, Counts::default());
    }
}
