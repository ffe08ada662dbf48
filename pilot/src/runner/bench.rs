//! Benchmark mode: an adaptive session per bench, results saved, a table at the end.

use std::process::ExitCode;

use serde_json::json;

use super::config::session_config;
use super::interrupt;
use super::processes::{child_mode, measure_in_processes};
use super::registry::Bench;
use super::resume::RunLog;
use super::workload::{form, measure};
use super::{group, now, threads};
use crate::cli::Args;
use crate::fmt::{format_count, format_estimate, format_ns, format_rate};
use crate::record::measure_clock;
use crate::report::{Row, render_table};
use crate::session::{SessionResult, Status};
use crate::store::{self, result};

/// The exit code for a regression found against a baseline.
const EXIT_REGRESSION: u8 = 3;

/// The baseline's results for this target, read before anything runs so that a missing or
/// corrupt baseline stops the run at once.
pub(super) fn load_baseline(
    args: &Args,
    root: &std::path::Path,
    target: &str,
) -> Result<Option<Vec<store::SavedResult>>, String> {
    let Some(name) = &args.baseline else {
        return Ok(None);
    };
    let dir = store::baseline(&store::baselines_dir(root), name).map_err(|e| e.to_string())?;
    let dir = dir.join(target);
    if !dir.is_dir() {
        return Ok(Some(Vec::new()));
    }
    store::read_dir(&dir).map(Some).map_err(|e| e.to_string())
}

/// Benchmark mode: an adaptive session per bench, results saved, a table at the end.
pub(super) fn bench_mode(args: &Args, selected: &[&Bench], filtered_out: usize) -> ExitCode {
    if args.child {
        return child_mode(args, selected);
    }
    let root = store::target_dir();
    let target = store::bench_target_name();
    interrupt::install();
    let base = match load_baseline(args, &root, &target) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let clock = measure_clock();
    let machine = crate::probe::machine();
    let run_started = now();
    println!(
        "\nrunning {} benches ({} filtered out); clock: {:.1} ns per read, resolution {} ns",
        selected.len(),
        filtered_out,
        clock.overhead_ns,
        clock.resolution_ns
    );
    let mut rows = Vec::new();
    let mut documents = Vec::new();
    let mut run_log = RunLog::start(args, &root, &target, &run_started);
    let mut groups = group::Groups::new(args, selected);
    let mut failed = 0;
    let mut confidence = 0.95;
    let processes =
        args.processes
            .unwrap_or(if args.baseline.is_some() || args.save_baseline.is_some() {
                crate::compare::BASELINE_PROCESSES
            } else {
                1
            });
    if let Some(name) = &args.save_baseline {
        if !selected.is_empty() && store::baselines_dir(&root).join(name).is_dir() {
            println!("baseline `{name}` exists: the results of these benches replace its own");
        }
    }
    for b in selected {
        let config = session_config(args, b.def);
        confidence = config.confidence;
        if let Some(doc) = run_log.resumed(b, &root, &target) {
            println!(
                "{}: finished by the interrupted run, not measured again",
                b.name
            );
            rows.push(crate::report::row_of_document(&doc, false));
            documents.push(doc);
            run_log.done(&b.name);
            continue;
        }
        let started = now();
        // One in-process session by default: measured side by side on this project's shared
        // machine, it covered run-to-run spread as well as several short processes did (13 of
        // 15 runs against 10 of 15), in less time. `--processes N` asks for at least N processes.
        let (session, iters) = match groups.measure(args, b, clock) {
            Some(measured) => measured,
            None => match processes {
                1 => measure(b, &config, clock),
                n => measure_in_processes(b, &config, n),
            },
        };
        if session.status == Status::Interrupted || interrupt::requested() {
            // Nothing of this bench is saved; the run's progress says it is still to do.
            interrupt::report(&store::results_dir(&root).join(&target));
            return ExitCode::from(interrupt::EXIT_INTERRUPTED);
        }
        let finished = now();
        let record = result::BenchRecord {
            name: &b.name,
            target: &target,
            form: form(&b.def.body),
            unit: b.def.options.unit,
            config: &config,
            session: &session,
            iterations_per_unit: iters,
            clock,
            machine: &machine,
            started,
            finished,
        };
        let mut doc = result::document(&record);
        threads::annotate(&mut doc, b.threads, &session);
        let bytes = serde_json::to_vec_pretty(&doc).expect("JSON values serialise");
        let path = store::latest_path(&root, &target, &b.name);
        // What is written must read back: a document the reader rejects would break every
        // later comparison, so it is refused here, where the bench that made it is known.
        let readable = match store::from_document(&doc, &path) {
            Ok(_) => true,
            Err(e) => {
                eprintln!(
                    "error: bench `{}` produced a result pilot cannot read back, so it was not \
                     saved (a bug in pilot): {e}",
                    b.name
                );
                failed += 1;
                false
            }
        };
        let written = if readable {
            store::write_atomic(&path, &bytes)
        } else {
            Ok(())
        };
        if let Err(e) = written {
            eprintln!("warning: failed to write `{}`: {e}", path.display());
        }
        if let Some(name) = args.save_baseline.as_ref().filter(|_| readable) {
            let path = store::baseline_path(&root, name, &target, &b.name);
            if let Err(e) = store::write_atomic(&path, &bytes) {
                eprintln!("error: failed to save baseline `{}`: {e}", path.display());
                failed += 1;
            }
        }
        print_outcome(&b.name, &session);
        if matches!(session.status, Status::Failed(_)) {
            failed += 1;
        }
        rows.push(threads::row(
            row(&b.name, b.def.options.unit, &session),
            b,
            &session,
        ));
        documents.push(doc);
        run_log.done(&b.name);
        if failed > 0 && args.fail_fast {
            break;
        }
    }
    run_log.finish();
    if !args.no_table {
        println!("\n{}", render_table(&rows, confidence));
        print!("{}", groups.render());
        println!(
            "results: {}",
            store::results_dir(&root).join(&target).display()
        );
    }
    let mut regressed = false;
    let mut comparison = serde_json::Value::Null;
    if let Some(base) = &base {
        let ran: Vec<store::SavedResult> = documents
            .iter()
            .filter_map(|d| {
                let name = d["name"].as_str().unwrap_or("");
                store::from_document(d, &store::latest_path(&root, &target, name)).ok()
            })
            .collect();
        // Benches left out by the filters are not "missing".
        let base: Vec<store::SavedResult> = base
            .iter()
            .filter(|r| selected.iter().any(|b| b.name == r.name))
            .cloned()
            .collect();
        let options = crate::compare::CompareOptions {
            alpha: args.alpha.unwrap_or(0.01),
            noise: args.noise.unwrap_or(0.01),
            confidence: None,
        };
        let comparisons = crate::compare::compare(&base, &ran, &options);
        regressed = comparisons
            .iter()
            .any(|c| c.verdict == crate::compare::Verdict::Regressed);
        println!(
            "\ncompared with baseline `{}`:\n{}",
            args.baseline.as_deref().unwrap_or(""),
            crate::report::comparison_table(&comparisons, &options)
        );
        comparison = crate::report::comparison_json(&comparisons, &options);
    }
    if let Some(path) = &args.json {
        let run = json!({
            "schema": "pilot.run/1",
            "target": target,
            "started": run_started,
            "machine": machine,
            "benches": selected.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(),
            "results": documents,
            "comparison": comparison,
            "groups": groups.json(),
        });
        let bytes = serde_json::to_vec_pretty(&run).expect("JSON values serialise");
        if let Err(e) = store::write_atomic(std::path::Path::new(path), &bytes) {
            eprintln!("error: failed to write `{path}`: {e}");
            return ExitCode::FAILURE;
        }
    }
    if failed > 0 {
        ExitCode::FAILURE
    } else if regressed {
        ExitCode::from(EXIT_REGRESSION)
    } else {
        ExitCode::SUCCESS
    }
}

pub(super) fn print_outcome(name: &str, s: &SessionResult) {
    match (&s.status, &s.estimate) {
        (Status::Failed(msg), _) => println!("{name}: FAILED: {msg}"),
        (status, Some(e)) => println!(
            "{name}: {} ± {:.2}% [{}]",
            format_ns(e.mean),
            100.0 * e.relative_half_width(),
            status.as_str()
        ),
        (status, None) => println!("{name}: no estimate [{}]", status.as_str()),
    }
    for w in &s.warnings {
        println!("  warning: {w}");
    }
}

pub(super) fn row(name: &str, unit: Option<&str>, s: &SessionResult) -> Row {
    let (time, throughput, samples, q) = match &s.estimate {
        Some(e) => {
            let time = format_estimate(e.mean, e.ci.low, e.ci.high);
            let throughput = match (unit, result::throughput(e.mean, e.ci.low, e.ci.high).0) {
                (Some(u), Some(t)) => format!("{}{u}/s", format_rate(t)),
                _ => String::new(),
            };
            (
                time,
                throughput,
                format_count(e.n),
                e.subsession_size.to_string(),
            )
        }
        None => ("-".into(), String::new(), "-".into(), "-".into()),
    };
    let status = match &s.status {
        Status::Failed(_) => "FAILED".to_string(),
        other => other.as_str().to_string(),
    };
    Row {
        name: name.to_string(),
        time,
        throughput,
        samples,
        subsession: q,
        warmup: format_count(s.removed),
        rounds: s.rounds.len().to_string(),
        processes: s.process_means.len().max(1).to_string(),
        wall: format!("{:.1} s", s.elapsed.as_secs_f64()),
        status,
    }
}
