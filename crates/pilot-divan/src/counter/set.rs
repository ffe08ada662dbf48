//! The counters a bench sets: by attribute, group, `Divan` or flag, then by its `Bencher`.

use super::IntoCounter;
use super::sealed::Sealed;

/// What a counter counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Bytes,
    Chars,
    Cycles,
    Items,
}

impl Kind {
    /// In the order pilot picks the one throughput it shows.
    const SHOWN: [Kind; 4] = [Kind::Bytes, Kind::Chars, Kind::Items, Kind::Cycles];

    fn slot(self) -> usize {
        self as usize
    }

    /// The unit pilot shows throughput in.
    pub fn unit(self) -> &'static str {
        match self {
            Kind::Bytes => "B",
            Kind::Chars => "char",
            Kind::Cycles => "cycle",
            Kind::Items => "item",
        }
    }
}

/// A count per kind of counter, each set at most once (a later one of a kind replaces the
/// earlier): what a bench's iterations process.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CounterSet {
    counts: [Option<f64>; 4],
}

impl CounterSet {
    /// With `counter` added (replacing one of its kind).
    pub fn with(mut self, counter: impl IntoCounter) -> Self {
        self.insert(counter);
        self
    }

    /// Adds `counter`, replacing one of its kind.
    pub fn insert(&mut self, counter: impl IntoCounter) -> &mut Self {
        let (kind, count) = counter.into_counter().kind_count();
        self.set(kind, count as f64);
        self
    }

    pub(crate) fn set(&mut self, kind: Kind, count: f64) {
        self.counts[kind.slot()] = Some(count);
    }

    /// `self`'s counts, with `under`'s where `self` has none of a kind.
    pub(crate) fn over(&self, under: &CounterSet) -> CounterSet {
        let mut counts = self.counts;
        for (c, u) in counts.iter_mut().zip(under.counts) {
            *c = c.or(u);
        }
        CounterSet { counts }
    }

    /// The one throughput pilot shows: unit and count per iteration.
    pub(crate) fn shown(&self) -> Option<(&'static str, f64)> {
        Kind::SHOWN
            .iter()
            .find_map(|&k| self.counts[k.slot()].map(|c| (k.unit(), c)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counter::{BytesCount, CyclesCount, ItemsCount};

    #[test]
    fn bytes_are_shown_first_and_a_later_counter_replaces_one_of_its_kind() {
        let set = CounterSet::default()
            .with(ItemsCount::new(3u8))
            .with(CyclesCount::new(9u8));
        assert_eq!(set.shown(), Some(("item", 3.0)));
        let set = set
            .with(BytesCount::new(64u32))
            .with(BytesCount::new(32u32));
        assert_eq!(set.shown(), Some(("B", 32.0)));
        let under = CounterSet::default()
            .with(BytesCount::new(1u8))
            .with(10usize);
        let over = CounterSet::default().with(ItemsCount::new(2u8));
        assert_eq!(over.over(&under).shown(), Some(("B", 1.0)));
        assert_eq!(CounterSet::default().shown(), None);
    }
}
