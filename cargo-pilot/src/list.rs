//! `cargo pilot list`: the pilot benches of the workspace and their latest results.

use std::process::ExitCode;

use crate::Failure;
use crate::cargo::{self, CargoOptions};

/// List the pilot benches of the workspace with their latest results.
///
/// Builds the bench targets (as `cargo pilot bench` would) and asks each binary for its
/// benches; the latest result of each comes from `target/pilot/results`.
#[derive(clap::Args, Debug)]
pub struct ListArgs {
    #[command(flatten)]
    pub cargo: CargoOptions,
}

pub fn run(args: &ListArgs) -> Result<ExitCode, Failure> {
    let metadata = cargo::metadata(&args.cargo)?;
    let target_dir = cargo::target_dir(&args.cargo, &metadata);
    let packages = cargo::pilot_packages(&metadata, &args.cargo)?;
    let exes = cargo::build(&args.cargo, &packages)?;
    let mut rows: Vec<[String; 4]> = Vec::new();
    let mut problems = Vec::new();
    for exe in exes.iter().filter(|e| cargo::is_pilot(&e.path)) {
        for name in cargo::list_benches(&exe.path)? {
            let path = pilot::store::latest_path(&target_dir, &exe.target, &name);
            let (latest, when) = if !path.exists() {
                ("not run yet".to_string(), String::new())
            } else {
                match pilot::store::read_file(&path) {
                    Ok(rs) => match rs.first() {
                        Some(r) => (describe(r), r.finished.clone().unwrap_or_default()),
                        None => ("-".into(), String::new()),
                    },
                    Err(e) => {
                        problems.push(e.to_string());
                        ("unreadable result".into(), String::new())
                    }
                }
            };
            rows.push([
                format!("{}/{name}", exe.target),
                latest,
                when,
                exe.package.clone(),
            ]);
        }
    }
    let header = ["bench", "latest result", "finished", "package"].map(String::from);
    let lines: Vec<Vec<String>> = rows.iter().map(|r| r.to_vec()).collect();
    print!(
        "{}",
        pilot::report::columns(&header, &lines, &[0, 1, 2, 3], "")
    );
    println!("\n{} benches", rows.len());
    for p in &problems {
        eprintln!("warning: {p}");
    }
    Ok(ExitCode::SUCCESS)
}

/// `84.90 µs ± 0.97% (ok)`.
fn describe(r: &pilot::store::SavedResult) -> String {
    match &r.time {
        Some(t) => format!(
            "{} ({})",
            pilot::report::format_estimate(t.mean, t.low, t.high),
            r.status
        ),
        None => r.status.clone(),
    }
}
