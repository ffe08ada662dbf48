//! One of callgrind's dump files, read: what triggered it (the label a client request gave),
//! its events and their totals, its functions; and the estimated cycles of a cache
//! simulation's events.

use super::callgraph::CallGraph;
use super::error::DumpError;

/// The events of one dump: their names (`events:` line) and totals (`totals:` or `summary:`
/// line), in the same order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Dump {
    /// The text after `Client Request: ` on the dump's trigger line; empty when the dump was
    /// not triggered by a labelled request (the one written as the program ends).
    pub(crate) label: String,
    /// The events counted, as callgrind names them: `Ir`, and with `--cache-sim=yes` also
    /// `Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw`.
    pub(crate) events: Vec<String>,
    /// Each event's total, in the order of `events`.
    pub(crate) totals: Vec<u64>,
    /// Its instructions by function.
    pub(crate) graph: CallGraph,
}

impl Dump {
    /// Reads a callgrind output file's header: the trigger, the `events:` line and the
    /// `totals:` line (or, from older writers, `summary:`). Callgrind leaves trailing zero
    /// totals out of the line (`totals: 1000 200` for `Ir Dr Dw` when `Dw` is 0); they are
    /// read as 0; then its functions ([`CallGraph::parse`]). Time: O(length of the text).
    pub(crate) fn parse(text: &str) -> Result<Dump, DumpError> {
        let mut label = String::new();
        let mut events: Option<Vec<String>> = None;
        let mut totals: Option<&str> = None;
        let mut summary: Option<&str> = None;
        for line in text.lines() {
            if let Some(t) = line.strip_prefix("desc: Trigger: ") {
                label = t
                    .strip_prefix("Client Request: ")
                    .unwrap_or("")
                    .trim()
                    .to_string();
            } else if let Some(e) = line.strip_prefix("events:") {
                events = Some(e.split_whitespace().map(str::to_string).collect());
            } else if let Some(t) = line.strip_prefix("totals:") {
                totals = Some(t);
            } else if let Some(s) = line.strip_prefix("summary:") {
                summary = Some(s);
            }
        }
        let events = events.ok_or(DumpError::NoEventsLine)?;
        if events.is_empty() {
            return Err(DumpError::NoEvent);
        }
        let line = totals.or(summary).ok_or(DumpError::NoTotalsLine)?;
        let mut totals = Vec::with_capacity(events.len());
        for word in line.split_whitespace() {
            totals.push(word.parse::<u64>().map_err(|_| DumpError::NotACount {
                word: word.to_string(),
            })?);
        }
        if totals.len() > events.len() {
            return Err(DumpError::TooManyTotals {
                totals: totals.len(),
                events: events.len(),
            });
        }
        totals.resize(events.len(), 0);
        Ok(Dump {
            label,
            events,
            totals,
            graph: CallGraph::parse(text)?,
        })
    }

    /// The total of event `name`, 0 when the dump has no such event.
    pub(crate) fn total(&self, name: &str) -> u64 {
        self.events
            .iter()
            .position(|e| e == name)
            .map_or(0, |i| self.totals[i])
    }

    /// Instructions executed (`Ir`).
    pub(crate) fn instructions(&self) -> u64 {
        self.total("Ir")
    }

    /// The cycles the cache simulation's events stand for (see [`estimated_cycles`]); `None`
    /// without a cache simulation (no `Dr` event).
    pub(crate) fn estimated_cycles(&self) -> Option<f64> {
        self.events
            .iter()
            .any(|e| e == "Dr")
            .then(|| estimated_cycles(&CacheEvents::of(self)))
    }
}

/// The events of callgrind's cache simulation (`--cache-sim=yes`): accesses, and misses of the
/// first-level caches and of the last-level cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct CacheEvents {
    /// Instruction reads (`Ir`).
    pub(crate) ir: u64,
    /// Data reads (`Dr`).
    pub(crate) dr: u64,
    /// Data writes (`Dw`).
    pub(crate) dw: u64,
    /// First-level misses of instruction reads, data reads, data writes (`I1mr D1mr D1mw`).
    pub(crate) l1_misses: [u64; 3],
    /// Last-level misses of the same (`ILmr DLmr DLmw`).
    pub(crate) ll_misses: [u64; 3],
}

impl CacheEvents {
    /// The events of `dump` (0 for those it lacks).
    pub(crate) fn of(dump: &Dump) -> CacheEvents {
        let t = |name| dump.total(name);
        CacheEvents {
            ir: t("Ir"),
            dr: t("Dr"),
            dw: t("Dw"),
            l1_misses: [t("I1mr"), t("D1mr"), t("D1mw")],
            ll_misses: [t("ILmr"), t("DLmr"), t("DLmw")],
        }
    }
}

/// Cycles estimated from a cache simulation's events, by the weights iai and gungraun use
/// (after Itamar Turner-Trauring's estimate): an access served by the first-level cache costs
/// 1 cycle, one served by the last-level cache 5, one that goes to memory 35. Accesses are
/// instruction reads, data reads and data writes; those that miss the first level and hit the
/// last are the first level's misses less the last level's. Not the cycles a CPU would take
/// (no pipelining, no prefetching, no branch prediction): a deterministic figure that moves
/// when memory behaviour moves. Time: O(1).
pub(crate) fn estimated_cycles(e: &CacheEvents) -> f64 {
    let accesses = e.ir + e.dr + e.dw;
    let l1_misses: u64 = e.l1_misses.iter().sum();
    let memory: u64 = e.ll_misses.iter().sum();
    let l1_hits = accesses.saturating_sub(l1_misses);
    let ll_hits = l1_misses.saturating_sub(memory);
    l1_hits as f64 + 5.0 * ll_hits as f64 + 35.0 * memory as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROUND: &str = "\
# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 14235
cmd:  /tmp/bench --bench --exact sum
part: 2

desc: I1 cache: 
desc: D1 cache: 
desc: LL cache: 
desc: Timerange: Basic block 66814 - 69116
desc: Trigger: Client Request: pilot-count round 1 1000 1

positions: line
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
summary: 101000 100000 500000 16 0 0 16
totals: 101000 100000 500000 16 0 0 16

fl=(1) ???
fn=(1) main
0 3
";

    #[test]
    fn a_dump_gives_its_label_events_and_totals_with_trailing_zeros() {
        let d = Dump::parse(ROUND).unwrap();
        assert_eq!(d.label, "pilot-count round 1 1000 1");
        assert_eq!(d.events.len(), 9);
        assert_eq!(d.totals, [101_000, 100_000, 500_000, 16, 0, 0, 16, 0, 0]);
        assert_eq!(d.instructions(), 101_000);
        assert_eq!(d.total("DLmw"), 0);
        assert_eq!(d.total("nothing"), 0);
    }

    #[test]
    fn the_dump_at_the_programs_end_has_no_label() {
        let d =
            Dump::parse("desc: Trigger: Program termination\nevents: Ir\nsummary: 0\ntotals: 0\n")
                .unwrap();
        assert_eq!(d.label, "");
        assert_eq!(d.instructions(), 0);
        assert_eq!(d.estimated_cycles(), None);
    }

    #[test]
    fn a_file_that_is_not_callgrinds_is_refused_with_the_reason() {
        assert_eq!(
            Dump::parse("hello\n").unwrap_err().to_string(),
            "no `events:` line: not a callgrind output file"
        );
        assert_eq!(
            Dump::parse("events: Ir\n").unwrap_err().to_string(),
            "no `totals:` line: not a callgrind output file"
        );
        assert_eq!(
            Dump::parse("events: Ir\ntotals: 12x\n")
                .unwrap_err()
                .to_string(),
            "`12x` on its `totals:` line is not a count"
        );
        assert_eq!(
            Dump::parse("events: Ir\ntotals: 1 2\n")
                .unwrap_err()
                .to_string(),
            "its `totals:` line has 2 counts for 1 events"
        );
    }

    #[test]
    fn estimated_cycles_by_hand() {
        // Accesses 1000 + 200 + 100 = 1300; first-level misses 10 + 20 + 5 = 35, of which
        // 2 + 3 + 1 = 6 went to memory: 1300 − 35 = 1265 first-level hits, 35 − 6 = 29
        // last-level hits. 1265 + 5 · 29 + 35 · 6 = 1265 + 145 + 210 = 1620.
        let e = CacheEvents {
            ir: 1000,
            dr: 200,
            dw: 100,
            l1_misses: [10, 20, 5],
            ll_misses: [2, 3, 1],
        };
        assert_eq!(estimated_cycles(&e), 1620.0);
        // The dump above: 101 000 + 100 000 + 500 000 = 701 000 accesses, 16 first-level
        // misses that all went to memory: 700 984 + 35 · 16 = 701 544.
        assert_eq!(
            Dump::parse(ROUND).unwrap().estimated_cycles(),
            Some(701_544.0)
        );
    }
}
