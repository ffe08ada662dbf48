//! Numbers as people read them: durations, rates, counts, estimates, and columns of them; and
//! names as each format must hold them ([`terminal`], [`markdown_code`], [`csv_text`]). A
//! leaf module: every layer that prints uses it, and it uses nothing of pilot's.

mod escape;
mod paint;

pub use escape::{csv_text, markdown_code, terminal, terminal_lines, terminal_path};
pub use paint::{ColorChoice, Paint};

/// A mean time per unit with its interval's half-width relative to it: `84.90 µs ± 0.97%`.
pub fn format_estimate(mean_ns: f64, low_ns: f64, high_ns: f64) -> String {
    format!(
        "{} ± {:.2}%",
        format_ns(mean_ns),
        100.0 * (high_ns - low_ns) / 2.0 / mean_ns
    )
}

/// A count per unit (instructions, cycles) as its precision allows: a whole number with `,`
/// between thousands from 1 000 on (`12,519`), four significant digits below (`6.250`,
/// `999.5`).
pub(crate) fn format_count_value(x: f64) -> String {
    let a = x.abs();
    if a >= 1000.0 {
        let s = thousands(a.round() as u64);
        if x < 0.0 { format!("-{s}") } else { s }
    } else {
        let digits = if a >= 100.0 {
            1
        } else if a >= 10.0 {
            2
        } else {
            3
        };
        format!("{x:.digits$}")
    }
}

/// An instruction count per unit with its interval's half-width relative to it, shown even
/// when 0 (`12,519 ± 0.00%`: the counting processes agreed); the half-width 0 for a count of 0.
pub(crate) fn format_instructions_estimate(mean: f64, low: f64, high: f64) -> String {
    let relative = if mean == 0.0 {
        0.0
    } else {
        (high - low) / 2.0 / mean.abs()
    };
    format!("{} ± {:.2}%", format_count_value(mean), 100.0 * relative)
}

/// Lays `rows` out in columns under `header`, two spaces apart, each as wide as its widest
/// cell: the columns in `left` read left to right (names, verdicts), the others are
/// right-aligned (numbers). Trailing spaces are trimmed; `indent` starts every line.
pub fn columns(header: &[String], rows: &[Vec<String>], left: &[usize], indent: &str) -> String {
    // Cells hold names from outside pilot: shown, never obeyed by the terminal.
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r.iter().map(|c| terminal(c).into_owned()).collect())
        .collect();
    let rows = rows.as_slice();
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

/// The unit of `throughput = bytes(…)`: shown with binary prefixes (`KiB/s`).
pub(crate) const BYTES: &str = "B";

/// The unit of `throughput = elements(…)`: shown with decimal prefixes (`Kelem/s`).
pub(crate) const ELEMENTS: &str = "elem";

/// A throughput of `per_second` `unit`s per second, keeping 4 significant digits: bytes
/// ([`BYTES`]) with binary prefixes (`B/s`, `KiB/s`, `MiB/s`, `GiB/s`, `TiB/s`, steps of
/// 1024), elements ([`ELEMENTS`]) with decimal ones (`elem/s`, `Kelem/s`, `Melem/s`,
/// `Gelem/s`, `Telem/s`, steps of 1000), and a unit of the user's (`unit = "MiB"`) with a
/// decimal prefix set apart, so it cannot fuse with the unit: `1.205 M request/s`. A user's
/// unit that is a binary multiple of bytes (`KiB`, `MiB`, `GiB`, `TiB`) is counted in bytes:
/// 2364 `MiB` a second read `2.309 GiB/s`, not `2.364 K MiB/s`.
pub(crate) fn format_throughput(per_second: f64, unit: &str) -> String {
    let bytes_per = match unit {
        "KiB" => Some(1024.0),
        "MiB" => Some(1024.0 * 1024.0),
        "GiB" => Some(1024.0 * 1024.0 * 1024.0),
        "TiB" => Some(1024.0 * 1024.0 * 1024.0 * 1024.0),
        _ => None,
    };
    if let Some(bytes) = bytes_per {
        return format_throughput(per_second * bytes, BYTES);
    }
    let (step, prefixes) = if unit == BYTES {
        (1024.0, ["", "Ki", "Mi", "Gi", "Ti"])
    } else {
        (1000.0, ["", "K", "M", "G", "T"])
    };
    let mut v = per_second;
    let mut i = 0;
    while v.abs() >= step && i + 1 < prefixes.len() {
        v /= step;
        i += 1;
    }
    let digits = if v.abs() >= 100.0 {
        1
    } else if v.abs() >= 10.0 {
        2
    } else {
        3
    };
    let prefix = prefixes[i];
    if unit == BYTES || unit == ELEMENTS || prefix.is_empty() {
        format!("{v:.digits$} {prefix}{unit}/s")
    } else {
        format!("{v:.digits$} {prefix} {unit}/s")
    }
}

/// A size in bytes with a binary prefix: `64.0 KiB`, `1.25 MiB`, `512 B`.
pub(crate) fn format_bytes(bytes: f64) -> String {
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
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` things, the noun singular for exactly one: `counted(1, "bench", "benches")` is
/// `1 bench`, `counted(3, "bench", "benches")` is `3 benches`, and 0 takes the plural.
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

// How a p-value is written lives with the statistics that report one (`pilot_stats`'s
// `analyze` writes it in its warnings); every output here writes it the same way.
pub(crate) use pilot_stats::{format_p, p_clause};

/// An amount per unit (allocations, bytes): a whole number with `,` between thousands
/// (`4,220`), else two decimals below 10, one below 1 000, none above (`3.25`, `12.5`,
/// `1,235`).
pub(crate) fn format_amount(x: f64) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    if x.fract() == 0.0 && x.abs() < 1e15 {
        let sign = if x < 0.0 { "-" } else { "" };
        return format!("{sign}{}", thousands(x.abs() as u64));
    }
    if x.abs() < 10.0 {
        format!("{x:.2}")
    } else if x.abs() < 1000.0 {
        format!("{x:.1}")
    } else {
        format_amount(x.round())
    }
}

/// An amount per unit with its interval: the amount alone when the interval has zero width
/// (an exact count: `3`, `4,220`), else with the half-width relative to it (`3.10 ± 1.93%`),
/// or absolute when the amount is 0.
pub(crate) fn format_count_estimate(mean: f64, low: f64, high: f64) -> String {
    let half = (high - low) / 2.0;
    if half == 0.0 {
        format_amount(mean)
    } else if mean != 0.0 {
        format!(
            "{} ± {:.2}%",
            format_amount(mean),
            100.0 * half / mean.abs()
        )
    } else {
        format!("0 ± {}", format_amount(half))
    }
}

/// A count with a k/M suffix.
pub(crate) fn format_count(n: usize) -> String {
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
    fn amounts_are_whole_with_thousands_or_rounded_and_exact_counts_have_no_interval() {
        assert_eq!(format_amount(3.0), "3");
        assert_eq!(format_amount(4220.0), "4,220");
        assert_eq!(format_amount(3.254), "3.25");
        assert_eq!(format_amount(12.54), "12.5");
        assert_eq!(format_amount(1234.6), "1,235");
        assert_eq!(format_amount(0.0), "0");
        assert_eq!(format_count_estimate(3.0, 3.0, 3.0), "3");
        assert_eq!(format_count_estimate(4220.0, 4220.0, 4220.0), "4,220");
        // 3.1 ± 0.06: 1.94% of the amount.
        assert_eq!(format_count_estimate(3.1, 3.04, 3.16), "3.10 ± 1.94%");
        assert_eq!(format_count_estimate(0.0, -0.5, 0.5), "0 ± 0.50");
    }

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
    fn one_thing_is_singular_and_others_plural() {
        assert_eq!(counted(0, "bench", "benches"), "0 benches");
        assert_eq!(counted(1, "bench", "benches"), "1 bench");
        assert_eq!(counted(2, "benchmark", "benchmarks"), "2 benchmarks");
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

    #[test]
    fn counts_show_whole_numbers_from_a_thousand_and_four_digits_below() {
        assert_eq!(format_count_value(12_519.0), "12,519");
        assert_eq!(format_count_value(12_518.6), "12,519");
        assert_eq!(format_count_value(1_000.0), "1,000");
        assert_eq!(format_count_value(999.54), "999.5");
        assert_eq!(format_count_value(6.25), "6.250");
        assert_eq!(format_count_value(0.0), "0.000");
        assert_eq!(format_count_value(-2_000.0), "-2,000");
        // Half-width 1 of 10 000: 0.01%.
        assert_eq!(
            format_instructions_estimate(10_000.0, 9_999.0, 10_001.0),
            "10,000 ± 0.01%"
        );
        assert_eq!(format_instructions_estimate(0.0, 0.0, 0.0), "0.000 ± 0.00%");
    }

    #[test]
    fn bytes_per_second_take_binary_prefixes() {
        assert_eq!(format_throughput(0.0, BYTES), "0.000 B/s");
        assert_eq!(format_throughput(1000.0, BYTES), "1000.0 B/s");
        // 1536 = 1.5 · 1024.
        assert_eq!(format_throughput(1536.0, BYTES), "1.500 KiB/s");
        // 300 · 1024² = 314 572 800.
        assert_eq!(format_throughput(314_572_800.0, BYTES), "300.0 MiB/s");
        // 64 KiB at 929 979 units/s (groups.rs's fill_threads): 60 947 103 744 B/s, and
        // 60 947 103 744 / 1024³ = 56.760… GiB/s.
        assert_eq!(
            format_throughput(65_536.0 * 929_979.0, BYTES),
            "56.76 GiB/s"
        );
        // 2.25 · 1024⁴ stays in TiB, the largest prefix, however large.
        assert_eq!(
            format_throughput(2.25 * 1_099_511_627_776.0, BYTES),
            "2.250 TiB/s"
        );
        assert_eq!(
            format_throughput(2048.0 * 1_099_511_627_776.0, BYTES),
            "2048.0 TiB/s"
        );
    }

    #[test]
    fn elements_per_second_take_decimal_prefixes() {
        assert_eq!(format_throughput(999.0, ELEMENTS), "999.0 elem/s");
        // 12 346 / 1000 = 12.346, to 4 digits 12.35.
        assert_eq!(format_throughput(12_346.0, ELEMENTS), "12.35 Kelem/s");
        assert_eq!(format_throughput(2_500_000.0, ELEMENTS), "2.500 Melem/s");
        assert_eq!(format_throughput(7.5e9, ELEMENTS), "7.500 Gelem/s");
    }

    #[test]
    fn a_units_own_name_keeps_its_prefix_apart() {
        assert_eq!(format_throughput(42.0, "MiB"), "42.00 MiB/s");
        // 2364 MiB/s = 2364 / 1024 GiB/s = 2.30859… GiB/s.
        assert_eq!(format_throughput(2364.0, "MiB"), "2.309 GiB/s");
        assert_eq!(format_throughput(0.5, "GiB"), "512.0 MiB/s");
        assert_eq!(format_throughput(1_205_000.0, "64KiB"), "1.205 M 64KiB/s");
        assert_eq!(format_throughput(150_000.0, "request"), "150.0 K request/s");
    }
}
