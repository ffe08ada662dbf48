//! Test mode (`cargo test --benches`, nextest): one tiny round of each bench, reported the way
//! libtest reports tests.

use std::process::ExitCode;
use std::time::Instant;

use super::panics::{NEVER_ITERATED, catch};
use super::registry::Bench;
use super::workload::BenchWorkload;
use crate::cli::Args;
use crate::entry::BenchBody;
use crate::record::{Bencher, BencherMode, Recorder};
use crate::session::Workload;

/// Test mode: one tiny round of each bench, reported the way libtest reports tests.
pub(super) fn test_mode(
    args: &Args,
    selection: &super::Selection,
    all: &[Bench],
    selected: &[&Bench],
    filtered_out: usize,
) -> ExitCode {
    let start = Instant::now();
    // With neither --ignored nor --include-ignored, ignored benches are listed as such.
    let shown_ignored: Vec<&Bench> = if args.ignored || args.include_ignored {
        Vec::new()
    } else {
        all.iter()
            .filter(|b| b.def.options.ignore && selection.selects(&b.name, false))
            .collect()
    };
    crate::outln!(
        "\nrunning {}",
        crate::fmt::counted(selected.len() + shown_ignored.len(), "bench", "benches")
    );
    let (mut passed, mut failed) = (0, Vec::new());
    for b in selected {
        let outcome = smoke(b);
        match &outcome {
            Ok(()) => {
                passed += 1;
                crate::outln!("test {} ... ok", crate::fmt::terminal(&b.name));
            }
            Err(msg) => {
                crate::outln!("test {} ... FAILED", crate::fmt::terminal(&b.name));
                failed.push((b.name.clone(), msg.clone()));
                if args.fail_fast {
                    break;
                }
            }
        }
    }
    for b in &shown_ignored {
        crate::outln!("test {} ... ignored", crate::fmt::terminal(&b.name));
    }
    if !failed.is_empty() {
        crate::outln!("\nfailures:");
        for (name, msg) in &failed {
            crate::outln!("    {name}: {msg}");
        }
    }
    crate::outln!(
        "\ntest result: {}. {passed} passed; {} failed; {} ignored; 0 measured; {} filtered out; \
         finished in {:.2}s\n",
        if failed.is_empty() { "ok" } else { "FAILED" },
        failed.len(),
        shown_ignored.len(),
        filtered_out - shown_ignored.len().min(filtered_out),
        start.elapsed().as_secs_f64()
    );
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// One round with the smallest work amount, no statistics: does the bench run at all? With
/// `threads`, the round runs on that many threads, as in a measurement.
pub(super) fn smoke(b: &Bench) -> Result<(), String> {
    if let Some(msg) = &b.broken {
        return Err(msg.clone());
    }
    let def = b.def;
    let low = def.options.work.map_or(1, |(a, _)| a);
    if b.threads > 1 {
        let mut workload = BenchWorkload::new(b, 0);
        workload.round(low)?;
        return Ok(());
    }
    let arg = b.arg;
    match def.body {
        BenchBody::Full(f) => {
            let mut rec = Recorder::with_capacity(low);
            catch(|| f(arg, low, &mut rec))?;
            if rec.units() == 0 {
                return Err("the bench timed no work unit: call `rec.unit(|| ...)`".into());
            }
        }
        BenchBody::Micro(f) => {
            let mut b = Bencher::new(BencherMode::Test);
            catch(|| f(arg, &mut b))?;
            if !b.was_called() {
                return Err(NEVER_ITERATED.into());
            }
        }
        BenchBody::ReadingsOnly(f) => catch(|| f(arg, low))?,
    }
    Ok(())
}
