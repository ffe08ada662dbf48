//! `cargo pilot bisect GOOD BAD [FILTER]`: the first commit after GOOD at which the selected
//! benches got slower, found by halving GOOD..BAD, each step a paired measurement of the
//! commit against GOOD (the `--against` machinery: checkouts in pilot's own worktrees under
//! `target/pilot/bisect/`, interleaved pairs of processes), so the machine's drift cancels in
//! every verdict.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::anyhow;
use pilot_engine::compare::{Comparison, Verdict};
use pilot_engine::runner::counting::Valgrind;
use pilot_format::ResultDoc;

use crate::against::finished::finish_bench;
use crate::against::git::Repo;
use crate::against::pairs::{Outcome, measure};
use crate::against::plan::Plan;
use crate::against::{Bench, Out};
use crate::args::{Baselines, BenchArgs, CargoOptions, Format, HistoryArg, Settings, Thresholds};
use crate::cargo;
use crate::exit::{self, Failure};
use crate::history::{self, Git};
use crate::interrupt;

mod builds;
mod explained;
mod verdict;

use verdict::{State, classify, evidence};

/// Find the commit that made benches slower: halve the commits between GOOD and BAD, measuring
/// each step's commit against GOOD in interleaved pairs of processes.
///
/// The first step confirms BAD is slower than GOOD (its slower benches are the ones bisected);
/// then each step builds a commit in pilot's worktree (`target/pilot/bisect/`; the working
/// tree is never touched), measures it against GOOD until the verdict is settled (more pairs
/// while it is not), and halves the range. A commit that does not build is skipped, as
/// `git bisect skip` does. Every measured commit goes into the history. With `--instructions`
/// the culprit is explained: its slower benches are counted under callgrind in the last fast
/// commit's build and its own, and the functions whose instructions changed are named. Exit codes: 0 the
/// commit was named, 1 an error (or BAD is not slower than GOOD), 2 usage, 130 interrupted.
#[derive(clap::Args, Debug)]
pub struct BisectArgs {
    /// A commit (branch, tag, hash) where the benches were fast
    #[arg(value_name = "GOOD")]
    pub good: String,
    /// A later commit where they are slower
    #[arg(value_name = "BAD")]
    pub bad: String,
    /// Benches whose names contain one of these (exactly equal with --exact)
    #[arg(value_name = "FILTER")]
    pub filters: Vec<String>,
    /// Match FILTER exactly
    #[arg(long)]
    pub exact: bool,
    /// Skip benches whose names contain this (repeatable)
    #[arg(long, value_name = "FILTER")]
    pub skip: Vec<String>,
    #[command(flatten)]
    pub cargo: CargoOptions,
    /// The settings of each bench's processes (`--max-time` caps a step, as in `--against`)
    #[command(flatten)]
    pub settings: Settings,
    #[command(flatten)]
    pub thresholds: Thresholds,
    #[command(flatten)]
    pub history: HistoryArg,
}

/// One step's evidence.
struct Step {
    commit: String,
    subject: String,
    /// Place in GOOD..BAD (1-based) and the count.
    place: (usize, usize),
    comparisons: Vec<Comparison>,
    /// Each comparison's result documents, GOOD's and the commit's.
    sides: Vec<(Option<ResultDoc>, Option<ResultDoc>)>,
    measuring: Duration,
}

/// What bisecting needs throughout.
struct Bisect<'a> {
    args: &'a BisectArgs,
    repo: Repo,
    git: Git,
    root: PathBuf,
    target_dir: PathBuf,
    packages: Vec<String>,
    plan: Plan,
    out: Out,
    building: Duration,
    branch: Option<String>,
    /// The history every measured commit goes into (`None`: off).
    history: Option<history::Location>,
    /// With `--instructions`: the culprit is explained by counting under this Valgrind.
    valgrind: Option<Valgrind>,
}

/// Runs `cargo pilot bisect`.
pub fn run(args: &BisectArgs) -> Result<ExitCode, Failure> {
    args.settings.check_together().map_err(Failure::Usage)?;
    interrupt::install();
    let metadata = cargo::metadata(&args.cargo)?;
    let target_dir = cargo::target_dir(&args.cargo, &metadata);
    // A history that cannot be one is a usage error before anything is built.
    let location = history::location(args.history.history.as_deref(), &target_dir)?;
    // Explaining the culprit needs Valgrind: said before anything is built.
    let valgrind = args
        .settings
        .on("instructions")
        .then(Valgrind::find)
        .transpose()
        .map_err(|e| Failure::Error(anyhow!(e)))?;
    let root = metadata.workspace_root.clone().into_std_path_buf();
    let repo = Repo::find(&root)?;
    let good = repo.resolve(&args.good)?;
    let bad = repo.resolve(&args.bad)?;
    let git = Git::at(&repo.top);
    let commits = git
        .first_parent_range(&good, &bad)
        .filter(|c| !c.is_empty())
        .ok_or_else(|| {
            Failure::Usage(anyhow!(
                "`{}` is not after `{}` on its first-parent line: nothing to bisect",
                args.bad,
                args.good
            ))
        })?;
    let packages = cargo::pilot_packages(&metadata, &args.cargo)?;
    if packages.is_empty() {
        return Err(Failure::Error(anyhow!(
            "no bench target uses pilot in this workspace"
        )));
    }
    let bench_args = bench_args(args);
    let plan = Plan::from_args(&bench_args);
    let mut b = Bisect {
        args,
        git: git.clone(),
        branch: history::branch_of_run(&git),
        repo,
        root,
        target_dir,
        packages,
        plan,
        out: Out {
            format: Format::Table,
        },
        building: Duration::ZERO,
        history: location,
        valgrind,
    };
    let result = b.bisect(&good, &commits);
    if interrupt::happened() {
        match result {
            Err(Failure::Interrupted(e)) => say!("cargo pilot: {e:#}"),
            _ => say!("cargo pilot: interrupted; the commits measured so far are in the history"),
        }
        return Ok(ExitCode::from(exit::Exit::Interrupted));
    }
    result
}

/// `cargo pilot bench`'s arguments with the bisect's selection and settings, for the plan and
/// the listing of benches.
fn bench_args(args: &BisectArgs) -> BenchArgs {
    BenchArgs {
        cargo: args.cargo.clone(),
        filters: args.filters.clone(),
        exact: args.exact,
        skip: args.skip.clone(),
        baselines: Baselines {
            save_baseline: None,
            baseline: None,
            thresholds: args.thresholds,
        },
        settings: args.settings.clone(),
        resume: false,
        json: None,
        against: None,
        base_target_dir: None,
        format: Format::Table,
        partition: None,
        history: args.history.clone(),
    }
}

fn short(c: &str) -> &str {
    &c[..12.min(c.len())]
}

impl Bisect<'_> {
    /// Measures each bench of `benches` (GOOD's build against `commit`'s) in pairs, measuring
    /// more (up to twice again) while a verdict is undecided; appends both sides to the history.
    fn step(
        &self,
        benches: &[Bench],
        (good, commit): (&str, &str),
        place: (usize, usize),
    ) -> Result<Step, Failure> {
        let machine = pilot_engine::probe::machine();
        let options = self.plan.options;
        let mut comparisons = Vec::new();
        let mut sides = Vec::new();
        let mut docs: Vec<ResultDoc> = Vec::new();
        let mut measuring = Duration::ZERO;
        for b in benches {
            let mut outcome: Option<Outcome> = None;
            for _ in 0..3 {
                let more = measure(b, &self.plan, &self.out);
                measuring += more.elapsed;
                outcome = Some(match outcome {
                    None => more,
                    Some(mut o) => {
                        o.base.extend(more.base);
                        o.head.extend(more.head);
                        o.elapsed += more.elapsed;
                        o.failure = o.failure.or(more.failure);
                        o.finished = more.finished;
                        o
                    }
                });
                if interrupt::happened() {
                    return Err(Failure::Error(anyhow!("interrupted")));
                }
                let o = outcome.as_ref().expect("just measured");
                let pairs: Vec<(f64, f64)> = o
                    .base
                    .iter()
                    .zip(&o.head)
                    .map(|(x, y)| (x.mean(), y.mean()))
                    .collect();
                // The verdict `finish_bench` will take: its sequential p counts every look.
                let settled = pilot_engine::compare::compare_sequential(
                    &pairs,
                    (self.plan.least, self.plan.family),
                    self.plan.confidence,
                    &options,
                )
                .is_some_and(|(c, _)| c.verdict != Verdict::Undecided);
                if o.failure.is_some() || (settled && pairs.len() >= self.plan.least) {
                    break;
                }
                self.out.say("  undecided: measuring more");
            }
            let done = finish_bench(
                b,
                outcome.expect("measured at least once"),
                &options,
                &self.plan,
                &machine,
                short(good),
            );
            sides.push((done.base.clone(), done.head.clone()));
            for (doc, at) in [(done.base, good), (done.head, commit)] {
                if let Some(mut d) = doc {
                    if let Some(m) = d.machine.as_mut() {
                        m.git_commit = Some(at.to_string());
                        m.git_dirty = Some(false);
                    }
                    docs.push(d);
                }
            }
            comparisons.push(done.comparison);
        }
        self.record(&docs)?;
        Ok(Step {
            commit: commit.to_string(),
            subject: self.git.commit(commit).subject.unwrap_or_default(),
            place,
            comparisons,
            sides,
            measuring,
        })
    }

    /// Appends the documents of a step to the history; a failure is said, and the bisect goes
    /// on (its verdicts do not depend on the history), unless an interrupt stopped it.
    fn record(&self, docs: &[ResultDoc]) -> Result<(), Failure> {
        let Some(location) = &self.history else {
            return Ok(());
        };
        let runs = history::runs_of(
            docs,
            "bisect",
            self.branch.clone(),
            &pilot_engine::probe::machine(),
        );
        if let Err(e) = history::record(location, &runs, &self.git) {
            if interrupt::happened() {
                return Err(Failure::Interrupted(anyhow!(
                    "{e:#}\nthis step's measurements are not in the history; the commits \
                     measured before it are"
                )));
            }
            say!(
                "warning: {}",
                pilot_engine::fmt::terminal_lines(&format!("{e:#}"))
            );
        }
        Ok(())
    }

    /// Prints a step's evidence.
    fn say_step(&self, n: usize, s: &Step, state: &State, how: &str) {
        self.out.say(&format!(
            "\nstep {n}: {} ({} of {}) {}: {}",
            short(&s.commit),
            s.place.0,
            s.place.1,
            pilot_engine::fmt::terminal(&s.subject),
            match state {
                State::Good => "good (as fast as GOOD)",
                State::Bad => "bad (slower than GOOD)",
                _ => "undecided",
            }
        ));
        for c in &s.comparisons {
            self.out.say(&format!(
                "  {}",
                evidence(c, self.plan.confidence, &self.plan.options)
            ));
        }
        if !how.is_empty() {
            self.out.say(&format!("  {how}"));
        }
    }

    /// The whole bisection over `commits` (GOOD..BAD, oldest first; the last is BAD).
    fn bisect(&mut self, good: &str, commits: &[String]) -> Result<ExitCode, Failure> {
        let n = commits.len();
        let bad = commits[n - 1].clone();
        self.out.say(&format!(
            "== bisect: {} commits after {} up to {}; each step measures a commit against GOOD in \
             pairs of processes",
            n,
            short(good),
            short(&bad)
        ));
        let good_exes = self
            .build(good)?
            .ok_or_else(|| Failure::Error(anyhow!("GOOD ({}) does not build", short(good))))?;
        // The commits' builds replace GOOD's executables: they are kept apart.
        let good_exes = self.keep(&good_exes, "good-bin")?;
        let bad_exes = self
            .build(&bad)?
            .ok_or_else(|| Failure::Error(anyhow!("BAD ({}) does not build", short(&bad))))?;
        let benches = self.benches(&good_exes, &bad_exes, None)?;
        if benches.is_empty() {
            return Err(Failure::Error(anyhow!(
                "no pilot bench matches in both GOOD and BAD"
            )));
        }
        let first = self.step(&benches, (good, &bad), (n, n))?;
        let slower: Vec<&Comparison> = first
            .comparisons
            .iter()
            .filter(|c| c.verdict == Verdict::Regressed)
            .collect();
        self.say_step(
            1,
            &first,
            if slower.is_empty() {
                &State::Good
            } else {
                &State::Bad
            },
            "",
        );
        if slower.is_empty() {
            return Err(Failure::Error(anyhow!(
                "no selected bench is slower at BAD ({}) than at GOOD ({}): nothing to bisect",
                short(&bad),
                short(good)
            )));
        }
        let only: Vec<(String, String)> = slower
            .iter()
            .map(|c| (c.target.clone(), c.name.clone()))
            .collect();
        // Half the slowdown seen at BAD: an undecided step is classed by the nearer level.
        let half: f64 = slower
            .iter()
            .filter_map(|c| c.change)
            .fold(f64::INFINITY, f64::min)
            / 2.0;
        let mut states = vec![State::Untested; n];
        states[n - 1] = State::Bad;
        let mut steps = vec![first];
        let mut culprit_step = 0;
        loop {
            let lo = states
                .iter()
                .rposition(|s| *s == State::Good)
                .map_or(0, |i| i + 1);
            let hi = states
                .iter()
                .position(|s| *s == State::Bad)
                .expect("BAD is bad");
            let open: Vec<usize> = (lo..hi).filter(|i| states[*i] == State::Untested).collect();
            if open.is_empty() {
                break;
            }
            // The untested commit nearest the middle, as `git bisect` picks past skipped ones.
            let mid = (lo + hi) / 2;
            let i = *open
                .iter()
                .min_by_key(|i| i.abs_diff(mid))
                .expect("not empty");
            let Some(exes) = self.build(&commits[i])? else {
                states[i] = State::Skipped;
                continue;
            };
            let these = self.benches(&good_exes, &exes, Some(&only))?;
            let step = self.step(&these, (good, &commits[i]), (i + 1, n))?;
            let (state, how) = classify(&step.comparisons, half);
            self.say_step(steps.len() + 1, &step, &state, &how);
            states[i] = state;
            if states[i] == State::Bad {
                culprit_step = steps.len();
            }
            steps.push(step);
        }
        self.conclude(commits, &states, &steps, culprit_step);
        let found = (commits, &states[..]);
        self.explain_found((good, &good_exes), found, (&steps[culprit_step], half))?;
        Ok(ExitCode::SUCCESS)
    }

    /// Names the culprit (or the skipped range it is in), with its change and the time spent.
    fn conclude(&self, commits: &[String], states: &[State], steps: &[Step], culprit_step: usize) {
        let hi = states
            .iter()
            .position(|s| *s == State::Bad)
            .expect("BAD is bad");
        let lo = states
            .iter()
            .rposition(|s| *s == State::Good)
            .map_or(0, |i| i + 1);
        let skipped: Vec<&String> = (lo..hi).map(|i| &commits[i]).collect();
        let measuring: Duration = steps.iter().map(|s| s.measuring).sum();
        let culprit = &commits[hi];
        let step = &steps[culprit_step];
        pilot_engine::outln!(
            "\nfirst slower commit: {} {}",
            culprit,
            pilot_engine::fmt::terminal(&step.subject)
        );
        for c in &step.comparisons {
            pilot_engine::outln!(
                "  {}",
                evidence(c, self.plan.confidence, &self.plan.options)
            );
        }
        if !skipped.is_empty() {
            pilot_engine::outln!(
                "  (or one of the {} commits before it that did not build: {})",
                skipped.len(),
                skipped
                    .iter()
                    .map(|c| short(c))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        pilot_engine::outln!(
            "{} steps; measuring {:.1} s, building {:.1} s",
            steps.len(),
            measuring.as_secs_f64(),
            self.building.as_secs_f64()
        );
    }
}
