//! criterion's `Throughput`: what one iteration of a bench processes.

/// What one iteration of a bench processes: its throughput is shown beside its time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Throughput {
    /// Bits per iteration: shown in `bit/s` with decimal prefixes.
    Bits(u64),
    /// Bytes per iteration: shown in `B/s` with binary prefixes (`MiB/s`).
    Bytes(u64),
    /// Bytes per iteration, shown by criterion with decimal prefixes (`MB/s`); pilot shows
    /// them as [`Bytes`](Throughput::Bytes), with binary prefixes.
    BytesDecimal(u64),
    /// Elements per iteration: shown in `elem/s`.
    Elements(u64),
    /// Elements and bytes per iteration: pilot shows the elements, which criterion calls the
    /// primary throughput.
    ElementsAndBytes {
        /// Elements per iteration.
        elements: u64,
        /// Bytes per iteration.
        bytes: u64,
    },
}

impl Throughput {
    /// The unit pilot counts and how many of it one iteration processes.
    pub(crate) fn rate(&self) -> (&'static str, u64) {
        match *self {
            Throughput::Bits(n) => ("bit", n),
            Throughput::Bytes(n) | Throughput::BytesDecimal(n) => ("B", n),
            Throughput::Elements(n) | Throughput::ElementsAndBytes { elements: n, .. } => {
                ("elem", n)
            }
        }
    }
}
