//! `cargo pilot analyze`: pilot's statistics on measurements from anywhere.
//!
//! The role of Pilot's `analyze` command, Auto-pilot's Getstats and ministat: for each file, the
//! summary, the stable segment found by change-point detection, subsession analysis, the
//! confidence interval of the stable mean and the sample size a target width needs; every file
//! after the first is compared with the first by Welch's t-test.

mod input;
mod render;

use std::process::ExitCode;

use anyhow::anyhow;
use pilot_engine::settings::{Confidence, Fraction, Noise};
use pilot_stats::ChangepointConfig;
use pilot_stats::required_for_half_width;
use pilot_stats::{Analysis, AnalysisConfig, SubsessionAnalysis, analyze};
use pilot_stats::{ConfidenceInterval, Moments, Summary, power_of_two_scale};
use pilot_stats::{WelchTest, welch_test};
use pilot_stats::{WpsFit, wps};
use pilot_stats::{fieller_interval, t_quantile};

use crate::exit::Failure;
use input::{Domain, Layout};

/// Analyze measurements: mean, confidence interval, stable segment, subsession analysis.
///
/// Each FILE holds one number per line (blank and `#` lines skipped), or CSV with a header
/// (choose the column with --column). With several files, each is compared with the first.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// Files to analyze; `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
    /// Confidence level of every interval, between 0 and 1.
    #[arg(long, default_value = pilot_settings::default_of("confidence"), value_parser = confidence)]
    confidence: f64,
    /// Target half-width of the interval relative to the mean, for the required sample size.
    #[arg(
        long = "ci",
        default_value = pilot_settings::default_of("ci"),
        value_name = "REL",
        value_parser = fraction
    )]
    target: f64,
    /// Largest |lag-1 autocorrelation| subsession analysis accepts as independent.
    #[arg(long, default_value_t = 0.1, value_name = "R", value_parser = fraction)]
    autocorr_limit: f64,
    /// Analyze the whole series: no change-point detection, no warm-up removal.
    #[arg(long)]
    no_changepoints: bool,
    /// Textbook statistics for data known to be independent: no change points, no subsession
    /// merging, no variance inflation; the mean, Student-t interval and Welch test are scipy's.
    #[arg(long, conflicts_with = "wps")]
    independent: bool,
    /// CSV input: the column holding the values.
    #[arg(long, value_name = "NAME", conflicts_with = "wps")]
    column: Option<String>,
    /// Readings-only data: two columns, work amount and duration; fits t = α + w/v (WPS method).
    #[arg(long)]
    wps: bool,
    /// CSV input with --wps: the column holding the work amount.
    #[arg(long, value_name = "NAME", requires = "wps")]
    work_column: Option<String>,
    /// CSV input with --wps: the column holding the duration.
    #[arg(long, value_name = "NAME", requires = "wps")]
    duration_column: Option<String>,
    /// Significance level of the comparisons' Welch test.
    #[arg(long, default_value = pilot_settings::default_of("alpha"), value_parser = fraction)]
    alpha: f64,
    /// Relative difference below which two files count as equivalent.
    #[arg(
        long,
        default_value = pilot_settings::default_of("noise"),
        value_name = "REL",
        value_parser = noise
    )]
    noise: f64,
    /// Print one JSON document (schema `pilot.analyze/1`) instead of tables.
    #[arg(long)]
    json: bool,
    /// Read each FILE as another harness's results: `criterion` (a bench's folder, or
    /// criterion's output folder: every bench in it) or `hyperfine` (an `--export-json` file:
    /// every command in it); each bench is analysed as one file of readings.
    #[arg(long, value_enum, value_name = "HARNESS", conflicts_with_all = ["wps", "column"])]
    from: Option<crate::import::Harness>,
}

// The flags' values are bounded as everywhere else in pilot (`pilot::settings`).

fn fraction(s: &str) -> Result<f64, String> {
    s.parse::<Fraction>().map(|x| x.0)
}

fn confidence(s: &str) -> Result<f64, String> {
    s.parse::<Confidence>().map(|x| x.0)
}

fn noise(s: &str) -> Result<f64, String> {
    s.parse::<Noise>().map(|x| x.0)
}

/// The analysis of one file.
pub struct FileReport {
    /// The file's name as given.
    pub name: String,
    /// The unit-reading analysis (in WPS mode: of the durations, without change points).
    pub analysis: Analysis,
    /// The WPS fit, in `--wps` mode.
    pub wps: Option<WpsFit>,
}

/// A file compared with the first.
pub struct Comparison {
    /// Name of the first file.
    pub base: String,
    /// Name of the compared file.
    pub other: String,
    /// Welch's test, other − base.
    pub test: WelchTest,
    /// Relative difference `(other − base)/|base|`, with its interval (Fieller's, of the ratio
    /// of the means); `None` when the base mean is not significantly different from 0 (the
    /// ratio's interval is unbounded) or the ratio passes `f64::MAX`.
    pub relative: Option<Relative>,
    /// Plain verdict: `larger`, `smaller`, `equivalent` or `inconclusive`.
    pub verdict: &'static str,
}

/// A relative difference and its interval.
#[derive(Debug, Clone, Copy)]
pub struct Relative {
    /// `(other − base)/|base|`.
    pub estimate: f64,
    /// Fieller's interval of `other/base`, less 1 (with the sign of `base`): it accounts for
    /// the base mean's own uncertainty, and for two positive means never reaches below −100%.
    pub ci: (f64, f64),
}

/// Runs the command; the exit code is 0 on success.
pub fn run(args: &AnalyzeArgs) -> Result<ExitCode, Failure> {
    let config = AnalysisConfig {
        confidence: args.confidence,
        target_relative_half_width: args.target,
        autocorrelation_limit: args.autocorr_limit,
        changepoints: (!args.no_changepoints && !args.wps && !args.independent)
            .then(ChangepointConfig::default),
        ..AnalysisConfig::default()
    };
    let layout = layout(args)?;
    let domain = if args.wps {
        Domain::Positive
    } else {
        Domain::Finite
    };
    let mut reports = Vec::new();
    for name in &args.files {
        if let Some(harness) = args.from {
            for series in crate::import::read_series(harness, std::path::Path::new(name))? {
                let label = format!("{name}: {}", series.origin);
                reports.push(analyze_file(&label, &[series.readings], &config, args)?);
            }
            continue;
        }
        let text = input::read_text(name)?;
        let columns = input::parse(name, &text, &layout, domain)?;
        reports.push(analyze_file(name, &columns, &config, args)?);
    }
    let comparisons = compare(&reports, args)?;
    if args.json {
        pilot_engine::outln!("{}", render::json(&reports, &comparisons, args));
    } else {
        // File names and column labels are the user's: shown, never obeyed.
        pilot_engine::out!(
            "{}",
            pilot_engine::fmt::terminal_lines(&render::human(&reports, &comparisons, args))
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn layout(args: &AnalyzeArgs) -> Result<Layout<'_>, Failure> {
    match (
        args.wps,
        &args.column,
        &args.work_column,
        &args.duration_column,
    ) {
        (false, Some(c), _, _) => Ok(Layout::Csv(vec![c])),
        (false, None, _, _) => Ok(Layout::Lines),
        (true, _, Some(w), Some(d)) => Ok(Layout::Csv(vec![w, d])),
        (true, _, None, None) => Ok(Layout::Pairs),
        (true, _, _, _) => Err(Failure::Usage(anyhow!(
            "--work-column and --duration-column go together: give both, or neither for two \
             numbers per line"
        ))),
    }
}

fn analyze_file(
    name: &str,
    columns: &[Vec<f64>],
    config: &AnalysisConfig,
    args: &AnalyzeArgs,
) -> Result<FileReport, Failure> {
    let values = columns.last().expect("at least one column");
    match values.len() {
        0 => return Err(anyhow!("{name}: no values to analyze").into()),
        1 => {
            return Err(anyhow!(
                "{name}: only one value ({}); a confidence interval needs at least 2",
                values[0]
            )
            .into());
        }
        _ => {}
    }
    let mut analysis = analyze(values, config).map_err(|e| anyhow!("{name}: {e}"))?;
    if args.independent {
        as_independent(&mut analysis, values, config);
    }
    let wps = if args.wps {
        let fit = wps(&columns[0], values, args.confidence, args.autocorr_limit)
            .map_err(|e| anyhow!("{name}: the WPS regression failed: {e}"))?;
        // The durations of rounds with different work amounts are not one population: warnings
        // about their outliers or drift would be noise.
        analysis.warnings.clear();
        Some(fit)
    } else {
        None
    };
    Ok(FileReport {
        name: name.to_string(),
        analysis,
        wps,
    })
}

/// `--independent`: the analysis of the whole series as independent values, the textbook way:
/// the raw mean and Student-t interval, every value its own sample (subsession size 1, no
/// variance inflation), and the required sample size from the raw variance.
fn as_independent(a: &mut Analysis, values: &[f64], config: &AnalysisConfig) {
    // Values taken as independent have no autocorrelation left to remove: its warning goes.
    if let Some(gone) =
        pilot_stats::autocorrelation_warning(&a.subsession, config.autocorrelation_limit)
    {
        a.warnings.retain(|w| *w != gone);
    }
    a.mean = a.raw.mean;
    a.ci = a.raw_ci;
    a.subsession = SubsessionAnalysis {
        size: 1,
        means: values.to_vec(),
        autocorrelation: a.raw_autocorrelation,
        converged: true,
        input_len: values.len(),
        input_autocorrelation: a.raw_autocorrelation,
    };
    a.required_n = required_for_half_width(
        a.raw.variance,
        a.raw.n as f64 - 1.0,
        config.target_relative_half_width * a.mean.abs(),
        config.confidence,
    );
}

/// How many times wider the interval is than the textbook Student-t interval over the readings
/// kept (the stable segment): what subsession merging and variance inflation did to it.
/// `None` when the textbook interval has no width (constant readings) or is not finite.
pub(crate) fn widening(a: &Analysis, confidence: f64) -> Option<f64> {
    let textbook = a.stable_summary.mean_ci(confidence).ok()?.half_width();
    Some(a.ci.half_width() / textbook).filter(|w| w.is_finite())
}

/// The variance inflation a file's interval and comparisons use: 1 with `--independent`.
pub(crate) fn inflation(a: &Analysis, independent: bool) -> f64 {
    if independent {
        1.0
    } else {
        a.subsession.variance_inflation()
    }
}

/// The samples a file contributes to a comparison: its subsession samples divided by `scale` (a
/// power of two, so that the variances of values near 1e200 or 1e-200 neither overflow nor
/// underflow), with their variance inflated by the correlation left between them (unless
/// `independent`), so the test is as honest as the interval.
fn comparison_moments(a: &Analysis, scale: f64, independent: bool) -> Moments {
    let s = &a.subsession;
    let scaled: Vec<f64> = s.means.iter().map(|m| m / scale).collect();
    let summary = Summary::of(&scaled).expect("subsession samples are finite and non-empty");
    Moments {
        n: s.count(),
        mean: summary.mean,
        variance: summary.variance * inflation(a, independent),
    }
}

/// Welch's test of `other` against `base`, computed on both files' subsession samples divided by
/// one power of two and its difference multiplied back (exact); the relative difference is
/// taken before that, where it cannot overflow, its interval by Fieller's theorem on the ratio
/// of the means at Welch's degrees of freedom (as `cargo pilot compare` does): the difference's
/// interval divided by the base mean would ignore the base's own uncertainty, and reach below
/// −100% for two positive means.
fn welch(
    base: &Analysis,
    other: &Analysis,
    confidence: f64,
    independent: bool,
) -> pilot_stats::Result<(WelchTest, Option<Relative>)> {
    let scale = power_of_two_scale(&[
        power_of_two_scale(&base.subsession.means),
        power_of_two_scale(&other.subsession.means),
    ]);
    let (b, o) = (
        comparison_moments(base, scale, independent),
        comparison_moments(other, scale, independent),
    );
    let test = welch_test(&b, &o, confidence)?;
    let relative = relative_change(&b, &o, confidence, test.dof)
        .filter(|r| r.estimate.is_finite() && r.ci.0.is_finite() && r.ci.1.is_finite());
    let unscaled = WelchTest {
        difference: test.difference * scale,
        difference_ci: ConfidenceInterval {
            low: test.difference_ci.low * scale,
            high: test.difference_ci.high * scale,
            ..test.difference_ci
        },
        ..test
    };
    let d = &unscaled.difference_ci;
    if !(unscaled.difference.is_finite() && d.low.is_finite() && d.high.is_finite()) {
        return Err(pilot_stats::Error::OutOfRange {
            quantity: "confidence interval of the difference of the means",
        });
    }
    Ok((unscaled, relative))
}

/// `(o − b)/|b|` with Fieller's interval of `o/b` at `dof` degrees of freedom, less 1 and turned
/// by the sign of `b`; `None` when `b`'s mean is not significantly different from 0 (the
/// interval is unbounded). Time: O(1).
fn relative_change(b: &Moments, o: &Moments, confidence: f64, dof: f64) -> Option<Relative> {
    let se2 = |m: &Moments| m.variance / m.n as f64;
    let t = t_quantile((1.0 + confidence) / 2.0, dof.max(1.0));
    let (low, high) = fieller_interval(o.mean, se2(o), b.mean, se2(b), t)?;
    let sign = b.mean.signum();
    let (low, high) = if sign > 0.0 {
        (low - 1.0, high - 1.0)
    } else {
        (1.0 - high, 1.0 - low)
    };
    Some(Relative {
        estimate: (o.mean - b.mean) / b.mean.abs(),
        ci: (low, high),
    })
}

fn compare(reports: &[FileReport], args: &AnalyzeArgs) -> Result<Vec<Comparison>, Failure> {
    let Some((base, others)) = reports.split_first() else {
        return Ok(Vec::new());
    };
    if args.wps {
        // WPS results are speeds from a regression, not sample means: not compared here.
        return Ok(Vec::new());
    }
    others
        .iter()
        .map(|other| {
            let (test, relative) = welch(
                &base.analysis,
                &other.analysis,
                args.confidence,
                args.independent,
            )
            .map_err(|e| anyhow!("cannot compare `{}` with `{}`: {e}", other.name, base.name))?;
            // Without a relative difference (a base mean of 0), any significant difference is
            // beyond the noise threshold, and none is within it.
            let beyond_noise = relative.is_none_or(|r| r.estimate.abs() > args.noise);
            let within_noise =
                relative.is_some_and(|r| r.ci.0 >= -args.noise && r.ci.1 <= args.noise);
            let verdict = if test.p < args.alpha && beyond_noise {
                if test.difference > 0.0 {
                    "larger"
                } else {
                    "smaller"
                }
            } else if within_noise {
                "equivalent"
            } else {
                "inconclusive"
            };
            Ok(Comparison {
                base: base.name.clone(),
                other: other.name.clone(),
                test,
                relative,
                verdict,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moments(n: usize, mean: f64, variance: f64) -> Moments {
        Moments { n, mean, variance }
    }

    #[test]
    fn a_change_of_positive_means_stays_above_minus_100_percent() {
        // A base of 100 ± a wide spread and a much smaller other: the difference's interval
        // divided by the base mean reached below −100%; the ratio's cannot.
        let (b, o) = (moments(5, 100.0, 400.0), moments(5, 1.0, 0.01));
        let test = welch_test(&b, &o, 0.95).unwrap();
        assert!(test.difference_ci.low / b.mean < -1.0, "{test:?}");
        let r = relative_change(&b, &o, 0.95, test.dof).unwrap();
        assert!((r.estimate - (-0.99)).abs() < 1e-12, "{r:?}");
        assert!(
            r.ci.0 > -1.0 && r.ci.0 < r.estimate && r.estimate < r.ci.1,
            "{r:?}"
        );
    }

    #[test]
    fn a_negative_base_turns_the_ratio_around() {
        // (−90 − (−100)) / |−100| = +10%: the other is larger.
        let (b, o) = (moments(10, -100.0, 4.0), moments(10, -90.0, 4.0));
        let test = welch_test(&b, &o, 0.95).unwrap();
        let r = relative_change(&b, &o, 0.95, test.dof).unwrap();
        assert!((r.estimate - 0.1).abs() < 1e-12, "{r:?}");
        assert!(r.ci.0 < 0.1 && 0.1 < r.ci.1 && r.ci.0 > 0.0, "{r:?}");
        // A base mean indistinguishable from 0 has no bounded ratio.
        assert!(relative_change(&moments(3, 0.1, 4.0), &o, 0.95, 2.0).is_none());
    }

    #[test]
    fn independent_values_drop_the_autocorrelation_warning_and_keep_the_rest() {
        // A slow sine: autocorrelated at every subsession size the 40 values allow.
        let values: Vec<f64> = (0..40).map(|i| 100.0 + (i as f64 / 6.0).sin()).collect();
        let config = AnalysisConfig {
            changepoints: None,
            ..AnalysisConfig::default()
        };
        let mut a = analyze(&values, &config).unwrap();
        let autocorrelation =
            pilot_stats::autocorrelation_warning(&a.subsession, config.autocorrelation_limit)
                .expect("the series stays autocorrelated");
        // A note of the caller's own in the same words' neighbourhood stays: only the
        // analysis's own warning is dropped.
        a.warnings.push(format!("{autocorrelation} (a note)"));
        let others: Vec<String> = (a.warnings.iter())
            .filter(|w| **w != autocorrelation)
            .cloned()
            .collect();
        assert!(a.warnings.contains(&autocorrelation), "{:?}", a.warnings);
        as_independent(&mut a, &values, &config);
        assert_eq!(a.warnings, others);
    }
}
