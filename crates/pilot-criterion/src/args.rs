//! criterion's command-line flags, translated into pilot's before pilot's runner reads them, so
//! that `cargo bench -- …` habits carry over.

use std::ffi::OsString;

/// criterion's flags that take a value and have no meaning under pilot: dropped with it.
const IGNORED_WITH_VALUE: &[&str] = &[
    "--sample-size",
    "--warm-up-time",
    "--nresamples",
    "--plotting-backend",
    "--profile-time",
    "--colour",
];

/// criterion's flags without a value that have no meaning under pilot: dropped.
const IGNORED_FLAGS: &[&str] = &["--noplot", "-n", "--discard-baseline", "-v", "--verbose"];

/// criterion's flags that pilot has under another name.
const RENAMED: &[(&str, &str)] = &[
    ("--measurement-time", "--max-time"),
    ("--significance-level", "--alpha"),
    ("--noise-threshold", "--noise"),
    ("--confidence-level", "--confidence"),
    ("--baseline-lenient", "--baseline"),
    ("-s", "--save-baseline"),
    ("-b", "--baseline"),
];

/// Starts pilot's runner with this process's arguments, translated, its filters read as
/// criterion reads them: regular expressions (once; later calls do nothing).
pub(crate) fn start() {
    pilot_engine::runner::driven::start_with(
        cfg!(debug_assertions),
        pilot_engine::runner::FilterSyntax::Regex,
        || translate(std::env::args_os().skip(1)),
    );
}

/// criterion's flags as pilot's: renamed ones renamed, meaningless ones dropped, criterion's
/// `--output-format criterion|verbose|quiet` as pilot's default, `--load-baseline` refused
/// (pilot does not compare without measuring: `cargo pilot compare` compares saved results).
pub(crate) fn translate(args: impl IntoIterator<Item = OsString>) -> Result<Vec<OsString>, String> {
    let mut out = Vec::new();
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let text = arg.to_string_lossy().into_owned();
        let (flag, inline) = match text.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (text.clone(), None),
        };
        let value = |it: &mut dyn Iterator<Item = OsString>| -> Result<String, String> {
            inline
                .clone()
                .or_else(|| it.next().map(|v| v.to_string_lossy().into_owned()))
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        if IGNORED_WITH_VALUE.contains(&flag.as_str()) {
            value(&mut it)?;
        } else if IGNORED_FLAGS.contains(&flag.as_str()) {
        } else if let Some((_, pilot)) = RENAMED.iter().find(|(c, _)| *c == flag) {
            let v = value(&mut it)?;
            out.push(OsString::from(*pilot));
            out.push(OsString::from(v));
        } else if flag == "--output-format" {
            let v = value(&mut it)?;
            let v = match v.as_str() {
                "criterion" | "verbose" | "quiet" => "pretty".to_string(),
                _ => v,
            };
            out.push(OsString::from("--output-format"));
            out.push(OsString::from(v));
        } else if flag == "--load-baseline" {
            return Err(
                "--load-baseline is criterion's: pilot compares a run with a baseline as it \
                 measures (--baseline NAME), and saved results with `cargo pilot compare OLD NEW`"
                    .to_string(),
            );
        } else {
            out.push(arg);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(args: &[&str]) -> Result<Vec<String>, String> {
        translate(args.iter().map(OsString::from))
            .map(|v| v.into_iter().map(|a| a.into_string().unwrap()).collect())
    }

    #[test]
    fn criterion_flags_become_pilots() {
        assert_eq!(
            t(&[
                "--bench",
                "--noplot",
                "--sample-size",
                "50",
                "--warm-up-time=2",
                "dec"
            ])
            .unwrap(),
            ["--bench", "dec"]
        );
        assert_eq!(
            t(&[
                "--measurement-time",
                "3",
                "--significance-level=0.05",
                "-s",
                "main"
            ])
            .unwrap(),
            [
                "--max-time",
                "3",
                "--alpha",
                "0.05",
                "--save-baseline",
                "main"
            ]
        );
        assert_eq!(
            t(&["--output-format", "criterion", "--baseline", "b"]).unwrap(),
            ["--output-format", "pretty", "--baseline", "b"]
        );
        assert_eq!(
            t(&["--output-format=bencher"]).unwrap(),
            ["--output-format", "bencher"]
        );
    }

    #[test]
    fn load_baseline_and_missing_values_are_errors() {
        assert!(
            t(&["--load-baseline", "x"])
                .unwrap_err()
                .contains("cargo pilot compare")
        );
        assert_eq!(
            t(&["--sample-size"]).unwrap_err(),
            "--sample-size needs a value"
        );
    }
}
