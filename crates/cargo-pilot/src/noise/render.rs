//! `cargo pilot noise`'s figures for a terminal (aligned columns) and as Markdown: the same
//! header, table, meanings and advice.

use pilot_engine::fmt::{columns, format_ns, markdown_code, terminal};
use pilot_format::MachineDoc;

use super::figures::{NoiseDoc, WorkloadDoc, percent, seconds};

/// The figures as a terminal shows them.
pub fn table(doc: &NoiseDoc) -> String {
    let mut out = String::new();
    for line in header(doc) {
        out.push_str(&terminal(&line));
        out.push('\n');
    }
    out.push('\n');
    let (head, rows) = cells(doc);
    out.push_str(&columns(&head, &rows, &[0], ""));
    out.push('\n');
    for line in meanings(doc) {
        out.push_str(&line);
        out.push('\n');
    }
    if !doc.advice.lines.is_empty() {
        out.push_str("\nwhat to do:\n");
        for line in &doc.advice.lines {
            out.push_str(&format!("- {line}\n"));
        }
    }
    out
}

/// The figures as Markdown (a pull-request comment, a wiki page).
pub fn markdown(doc: &NoiseDoc) -> String {
    let mut out = String::from("### How noisy is this machine?\n\n");
    let mut head = header(doc);
    // The machine's line names a CPU and a system: a code span, which nothing in it can close.
    head[1] = format!("machine: {}", markdown_code(&machine_line(&doc.machine)));
    out.push_str(&head.join("  \n"));
    out.push_str("\n\n");
    let (titles, rows) = cells(doc);
    let row = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
    out.push_str(&row(&titles));
    let rule: Vec<String> = (0..titles.len())
        .map(|i| if i == 0 { "---" } else { "---:" }.to_string())
        .collect();
    out.push_str(&row(&rule));
    for r in &rows {
        out.push_str(&row(r));
    }
    out.push('\n');
    for line in meanings(doc) {
        out.push_str(&format!("- {line}\n"));
    }
    if !doc.advice.lines.is_empty() {
        out.push_str("\n**What to do:**\n\n");
        for line in &doc.advice.lines {
            out.push_str(&format!("- {line}\n"));
        }
    }
    out
}

/// What ran, on what machine, beside what load.
fn header(doc: &NoiseDoc) -> Vec<String> {
    let rounds = doc.rounds.len();
    let busy = match &doc.busy {
        Some(b) => format!(
            "other processes: {:.2} of {} cores busy on average over the whole time; during \
             the rounds {:.2} on average, {:.2} at most{}",
            b.others_cores,
            b.cores,
            b.others_cores_rounds,
            b.others_cores_max,
            if b.steal >= 0.01 {
                format!(
                    "; the hypervisor stole {} of the CPU time",
                    percent(b.steal)
                )
            } else {
                String::new()
            }
        ),
        None => "other processes: their load cannot be read here (no /proc/stat)".to_string(),
    };
    vec![
        format!(
            "a plain program (no harness) in {} fresh processes: two back to back every {} \
             over {}, each {} ({} calls of each workload, timed with Instant; their median is \
             the process's reading)",
            2 * rounds,
            seconds_short(doc.spacing_s),
            seconds_short(doc.elapsed_s),
            seconds_short(doc.process_s),
            doc.calls
        ),
        format!("machine: {}", machine_line(&doc.machine)),
        busy,
    ]
}

/// The table's titles and rows.
fn cells(doc: &NoiseDoc) -> (Vec<String>, Vec<Vec<String>>) {
    let titles = [
        "workload",
        "level",
        "spread",
        "min … max",
        "next run",
        "same code",
        "baseline detects",
        &format!("--against detects in {}", seconds(doc.against_time_s)),
    ]
    .map(str::to_string)
    .to_vec();
    let opt = |x: Option<f64>, f: &dyn Fn(f64) -> String| x.map_or("-".to_string(), f);
    let rows = doc
        .workloads
        .iter()
        .map(|w: &WorkloadDoc| {
            vec![
                w.name.to_string(),
                format_ns(w.level_ns),
                percent(w.spread),
                format!("{} … {}", format_ns(w.min_ns), format_ns(w.max_ns)),
                opt(w.next_run, &|x| format!("±{}", percent(x))),
                opt(w.same_code, &|x| format!("±{}", percent(x))),
                opt(w.baseline_detectable, &percent),
                opt(w.against_detectable, &|x| {
                    format!("{} ({} pairs)", percent(x), doc.against_pairs)
                }),
            ]
        })
        .collect();
    (titles, rows)
}

/// What each column means, with its formula at this run's counts.
fn meanings(doc: &NoiseDoc) -> Vec<String> {
    let n = doc.rounds.len();
    let dof = n.saturating_sub(1);
    let conf = 100.0 * doc.confidence;
    let alpha = doc.alpha;
    let power = 100.0 * doc.power;
    let quantile = 1.0 - alpha / 2.0;
    let pairs = doc.against_pairs;
    let kept = pairs - 2 * (pilot_stats::DEFAULT_TRIM * pairs as f64) as usize;
    let pair_spreads: Vec<String> = doc
        .workloads
        .iter()
        .map(|w| {
            let sd = |x: Option<f64>| x.map_or("-".to_string(), percent);
            format!(
                "{} {} ({})",
                w.name,
                sd(w.pair_spread),
                sd(w.pair_winsorized_sd)
            )
        })
        .collect();
    vec![
        format!(
            "spread: the standard deviation of the logarithm of each round's first process's \
             median (relative), over {n} rounds {} apart; level: their geometric mean",
            seconds_short(doc.spacing_s)
        ),
        format!(
            "next run: where a fresh run lands around the level, {conf:.0} times in 100 (a \
             prediction band): t({:.3}, {dof}) · sd · √(1 + 1/{n}); pilot's \"run-to-run \
             variation ±x%\" of a bench is t · sd over its earlier runs, without √(1 + 1/n)",
            1.0 - (1.0 - doc.confidence) / 2.0
        ),
        format!(
            "same code: how far two runs of unchanged code differ, {:.0} times in 100: \
             t({quantile}, {dof}) · √2 · sd",
            100.0 * (1.0 - alpha)
        ),
        format!(
            "baseline detects: the least change a saved baseline (`--baseline`) catches \
             {power:.0} times in 100 at p < {alpha}, each run one draw of the spread: \
             (t({quantile}, {dof}) + t({}, {dof})) · √2 · sd",
            doc.power
        ),
        format!(
            "--against detects: the same for `cargo pilot bench --against` given {}: a pair \
             of processes back to back cancels the machine's drift, leaving the spread of their \
             log ratio (the rounds' two processes in ABBA order; sd, and s_w winsorized at 20%: \
             {}); m = {pairs} pairs of {} fit, judged by their 20%-trimmed mean (h = {kept} \
             kept): (t({quantile}, {}) + t({}, {})) · s_w · √((m − 1) / (h(h − 1))){}",
            seconds(doc.against_time_s),
            pair_spreads.join(", "),
            seconds_short(doc.against_pair_s),
            kept.saturating_sub(1),
            doc.power,
            kept.saturating_sub(1),
            if n < 10 {
                "; from fewer than 10 rounds s_w is the plain sd, which errs large"
            } else {
                ""
            },
        ),
    ]
}

/// The machine in one line: CPU, cores, governor, system, virtualisation or CI, load.
pub fn machine_line(m: &MachineDoc) -> String {
    let mut parts = vec![m.cpu.clone().unwrap_or_else(|| "unknown CPU".to_string())];
    if let Some(c) = m.cores {
        parts.push(format!("{c} cores"));
    }
    if let Some(g) = &m.governor {
        parts.push(format!("governor {g}"));
    }
    let system = match (&m.os_release, &m.kernel) {
        (Some(r), Some(k)) => format!("{r}, {} {k}", m.os),
        (None, Some(k)) => format!("{} {k}", m.os),
        (Some(r), None) => r.clone(),
        (None, None) => m.os.clone(),
    };
    parts.push(system);
    if let Some(v) = &m.virtualization {
        parts.push(format!("in {v}"));
    }
    if let Some(ci) = &m.ci {
        parts.push(format!("on {ci}"));
    }
    if let Some(l) = m.load {
        parts.push(format!("load {l:.2} at the start"));
    }
    parts.join(", ")
}

/// Seconds with a precision that suits them: `0.21 s`, `3.0 s`, `90 s`.
fn seconds_short(s: f64) -> String {
    if s >= 20.0 {
        format!("{s:.0} s")
    } else if s >= 1.0 {
        format!("{s:.1} s")
    } else {
        format!("{s:.2} s")
    }
}
