//! Numbers as people read them: durations, rates, counts, estimates, and columns of them. A
//! leaf module: every layer that prints uses it, and it uses nothing of pilot's.

/// A mean time per unit with its interval's half-width relative to it: `84.90 µs ± 0.97%`.
pub fn format_estimate(mean_ns: f64, low_ns: f64, high_ns: f64) -> String {
    format!(
        "{} ± {:.2}%",
        format_ns(mean_ns),
        100.0 * (high_ns - low_ns) / 2.0 / mean_ns
    )
}

/// Lays `rows` out in columns under `header`, two spaces apart, each as wide as its widest
/// cell: the columns in `left` read left to right (names, verdicts), the others are
/// right-aligned (numbers). Trailing spaces are trimmed; `indent` starts every line.
pub fn columns(header: &[String], rows: &[Vec<String>], left: &[usize], indent: &str) -> String {
    let width = |i: usize| {
        rows.iter()
            .chain([&header.to_vec()])
            .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..header.len()).map(width).collect();
    let mut out = String::new();
    for row in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        let mut line = String::from(indent);
        for (i, cell) in row.iter().enumerate() {
            let pad = " ".repeat(widths[i] - cell.chars().count());
            if left.contains(&i) {
                line.push_str(&format!("{cell}{pad}  "));
            } else {
                line.push_str(&format!("{pad}{cell}  "));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A duration in nanoseconds, with a unit that keeps 3–4 significant digits.
pub fn format_ns(ns: f64) -> String {
    let a = ns.abs();
    let (v, unit) = if a >= 1e9 {
        (ns / 1e9, "s")
    } else if a >= 1e6 {
        (ns / 1e6, "ms")
    } else if a >= 1e3 {
        (ns / 1e3, "µs")
    } else {
        (ns, "ns")
    };
    let digits = if v.abs() >= 100.0 {
        1
    } else if v.abs() >= 10.0 {
        2
    } else {
        3
    };
    format!("{v:.digits$} {unit}")
}

/// A rate (`per` units per second) with a metric prefix: `1.23 G`, `456 k`.
pub fn format_rate(per_second: f64) -> String {
    let a = per_second.abs();
    let (v, prefix) = if a >= 1e9 {
        (per_second / 1e9, "G")
    } else if a >= 1e6 {
        (per_second / 1e6, "M")
    } else if a >= 1e3 {
        (per_second / 1e3, "k")
    } else {
        (per_second, "")
    };
    format!("{v:.3} {prefix}")
}

/// A size in bytes with a binary prefix: `64.0 KiB`, `1.25 MiB`, `512 B`.
pub fn format_bytes(bytes: f64) -> String {
    let a = bytes.abs();
    if a >= (1u64 << 30) as f64 {
        format!("{:.2} GiB", bytes / (1u64 << 30) as f64)
    } else if a >= (1u64 << 20) as f64 {
        format!("{:.2} MiB", bytes / (1u64 << 20) as f64)
    } else if a >= 1024.0 {
        format!("{:.1} KiB", bytes / 1024.0)
    } else {
        format!("{bytes:.0} B")
    }
}

/// An integer with `,` between each group of three digits, as libtest and criterion print
/// `ns/iter`: `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count with a k/M suffix.
pub fn format_count(n: usize) -> String {
    if n >= 10_000_000 {
        format!("{:.0}M", n as f64 / 1e6)
    } else if n >= 1_000_000 {
        format!("{:.1}M", n as f64 / 1e6)
    } else if n >= 10_000 {
        format!("{:.0}k", n as f64 / 1e3)
    } else {
        n.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_separated_as_libtest_does() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(37_174), "37,174");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn durations_and_rates_read_well() {
        assert_eq!(format_ns(0.4567), "0.457 ns");
        assert_eq!(format_ns(12_345.0), "12.35 µs");
        assert_eq!(format_ns(123_456_789.0), "123.5 ms");
        assert_eq!(format_ns(2.5e9), "2.500 s");
        assert_eq!(format_rate(2.5e9), "2.500 G");
        assert_eq!(format_count(123_456), "123k");
        assert_eq!(format_count(999), "999");
        assert_eq!(format_bytes(65536.0), "64.0 KiB");
        assert_eq!(format_bytes(1.25 * 1048576.0), "1.25 MiB");
        assert_eq!(format_bytes(512.0), "512 B");
    }
}
