//! divan's command line (its flags and `DIVAN_*` variables), read into pilot's before pilot's
//! runner reads it, so that `cargo bench -- …` habits carry over.

use std::ffi::OsString;

use crate::counter::{BytesCount, CharsCount, CounterSet, CyclesCount, ItemsCount};

/// divan's flags that take a value and have no meaning under pilot: dropped with it.
const IGNORED_WITH_VALUE: &[&str] = &[
    "--sample-count",
    "--sample-size",
    "--timer",
    "--bytes-format",
];

/// How `--list` sorts divan's tree (`--sort ATTRIBUTE`, `--sortr ATTRIBUTE` for descending, or
/// `DIVAN_SORT`, `DIVAN_SORTR`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Sort {
    /// Leaves before parents, then by name, then by place (divan's default).
    #[default]
    Kind,
    /// By name, then place, then kind.
    Name,
    /// By place, then kind, then name.
    Location,
}

impl Sort {
    /// `kind`, `name` or `location`, as divan's `--sort` takes them; the error names `source`.
    fn parse(text: &str, source: &str) -> Result<Sort, String> {
        match text {
            "kind" => Ok(Sort::Kind),
            "name" => Ok(Sort::Name),
            "location" => Ok(Sort::Location),
            other => Err(format!("{source}: `{other}` is not kind, name or location")),
        }
    }

    /// The attributes compared in turn: this one, then the ones that break its ties.
    pub(crate) fn with_tie_breakers(self) -> [Sort; 3] {
        match self {
            Sort::Kind => [Sort::Kind, Sort::Name, Sort::Location],
            Sort::Name => [Sort::Name, Sort::Location, Sort::Kind],
            Sort::Location => [Sort::Location, Sort::Kind, Sort::Name],
        }
    }
}

/// What divan's command line says that pilot's runner does not read itself.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct DivanFlags {
    /// `--threads N,M` (or `DIVAN_THREADS`): every bench's thread counts.
    pub threads: Option<Vec<usize>>,
    /// `--items-count N` and the like (or their variables): every bench's counters.
    pub counters: CounterSet,
    /// `--sort` or `--sortr` (the last given wins, as in divan), or their variables: how
    /// `--list` sorts, and whether descending.
    pub sort: (Sort, bool),
}

/// The arguments `args` as pilot's runner reads them, and what divan's flags among them say
/// that pilot's runner does not read; `env` gives a variable's value. divan's flags pilot has
/// (`--min-time`, `--max-time`, `--color`, the filters, `--exact`, `--skip`, `--list`,
/// `--test`, `--ignored`, `--include-ignored`) are kept; the ones without meaning under
/// pilot are dropped. A `DIVAN_MIN_TIME` or `DIVAN_MAX_TIME` becomes the flag unless the flag
/// or pilot's own variable is given.
pub(crate) fn translate(
    args: impl IntoIterator<Item = OsString>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<(Vec<OsString>, DivanFlags), String> {
    let mut out = Vec::new();
    let mut flags = DivanFlags::default();
    let mut seen_min = false;
    let mut seen_max = false;
    let mut seen_sort = false;
    let mut it = args.into_iter().peekable();
    while let Some(arg) = it.next() {
        let text = arg.to_string_lossy().into_owned();
        let (flag, inline) = match text.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (text.clone(), None),
        };
        let mut value = || -> Result<String, String> {
            inline
                .clone()
                .or_else(|| it.next().map(|v| v.to_string_lossy().into_owned()))
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            f if IGNORED_WITH_VALUE.contains(&f) => {
                value()?;
            }
            "--skip-ext-time" => {
                // Its value is optional: `--skip-ext-time`, `--skip-ext-time false`.
                if inline.is_none() && it.peek().is_some_and(|v| v == "true" || v == "false") {
                    it.next();
                }
            }
            "--sort" | "--sortr" => {
                let v = value()?;
                flags.sort = (Sort::parse(&v, &flag)?, flag == "--sortr");
                seen_sort = true;
            }
            "--threads" => {
                let v = value()?;
                let counts = flags.threads.get_or_insert_with(Vec::new);
                counts.extend(thread_list(&v, "--threads")?);
            }
            "--items-count" | "--bytes-count" | "--chars-count" | "--cycles-count" => {
                let v = value()?;
                count(&mut flags.counters, &flag, &v)?;
            }
            _ => {
                seen_min |= flag == "--min-time";
                seen_max |= flag == "--max-time";
                out.push(arg);
            }
        }
    }
    if let Some(t) = &mut flags.threads {
        t.sort_unstable();
        t.dedup();
    }
    let var = |name: &str| env(name).filter(|v| !v.trim().is_empty());
    if !seen_sort {
        // divan's `--sortr` overrides `--sort`: so do their variables.
        for (variable, reverse) in [("DIVAN_SORTR", true), ("DIVAN_SORT", false)] {
            if let Some(v) = var(variable) {
                flags.sort = (Sort::parse(v.trim(), variable)?, reverse);
                break;
            }
        }
    }
    if flags.threads.is_none()
        && let Some(v) = var("DIVAN_THREADS")
    {
        let mut counts = thread_list(&v, "DIVAN_THREADS")?;
        counts.sort_unstable();
        counts.dedup();
        flags.threads = Some(counts);
    }
    for (flag, variable) in [
        ("--items-count", "DIVAN_ITEMS_COUNT"),
        ("--bytes-count", "DIVAN_BYTES_COUNT"),
        ("--chars-count", "DIVAN_CHARS_COUNT"),
        ("--cycles-count", "DIVAN_CYCLES_COUNT"),
    ] {
        if let Some(v) = var(variable) {
            let mut from_var = CounterSet::default();
            count(&mut from_var, flag, &v).map_err(|e| e.replacen(flag, variable, 1))?;
            flags.counters = flags.counters.over(&from_var);
        }
    }
    for (seen, flag, divan, pilot) in [
        (seen_min, "--min-time", "DIVAN_MIN_TIME", "PILOT_MIN_TIME"),
        (seen_max, "--max-time", "DIVAN_MAX_TIME", "PILOT_MAX_TIME"),
    ] {
        if let (false, None, Some(v)) = (seen, var(pilot), var(divan)) {
            out.push(flag.into());
            out.push(v.into());
        }
    }
    Ok((out, flags))
}

/// `1,4,16`: thread counts.
fn thread_list(v: &str, source: &str) -> Result<Vec<usize>, String> {
    v.split(',')
        .map(|n| {
            n.trim()
                .parse::<usize>()
                .map_err(|_| format!("{source}: `{n}` is not a thread count"))
        })
        .collect()
}

/// A counter flag's value, set into `set`.
fn count(set: &mut CounterSet, flag: &str, v: &str) -> Result<(), String> {
    let n: u64 = v
        .trim()
        .parse()
        .map_err(|_| format!("{flag}: `{v}` is not a count"))?;
    match flag {
        "--items-count" => set.insert(ItemsCount::new(n)),
        "--bytes-count" => set.insert(BytesCount::new(n)),
        "--chars-count" => set.insert(CharsCount::new(n)),
        _ => set.insert(CyclesCount::new(n)),
    };
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(args: &[&str], vars: &[(&str, &str)]) -> Result<(Vec<String>, DivanFlags), String> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        translate(args.iter().map(OsString::from), |k| {
            vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
        })
        .map(|(a, f)| (a.into_iter().map(|a| a.into_string().unwrap()).collect(), f))
    }

    #[test]
    fn divan_flags_become_pilots() {
        let (args, flags) = t(
            &[
                "--bench",
                "--sample-count",
                "10",
                "--timer=tsc",
                "--skip-ext-time",
                "false",
                "math",
                "--threads",
                "4,1",
                "--threads=4",
                "--bytes-count",
                "64",
                "--max-time",
                "2",
            ],
            &[],
        )
        .unwrap();
        assert_eq!(args, ["--bench", "math", "--max-time", "2"]);
        assert_eq!(flags.threads, Some(vec![1, 4]));
        assert_eq!(flags.counters.shown(), Some(("B", 64.0)));
        let (args, _) = t(&["--skip-ext-time", "add"], &[]).unwrap();
        assert_eq!(args, ["add"]);
    }

    #[test]
    fn sorting_is_read_for_the_list() {
        assert_eq!(t(&[], &[]).unwrap().1.sort, (Sort::Kind, false));
        let (args, flags) = t(&["--list", "--sort", "name"], &[]).unwrap();
        assert_eq!(
            (args, flags.sort),
            (vec!["--list".to_string()], (Sort::Name, false))
        );
        let flags = t(&["--sort=name", "--sortr", "location"], &[]).unwrap().1;
        assert_eq!(flags.sort, (Sort::Location, true));
        let flags = t(&[], &[("DIVAN_SORT", "name"), ("DIVAN_SORTR", "kind")])
            .unwrap()
            .1;
        assert_eq!(flags.sort, (Sort::Kind, true));
        let flags = t(&["--sort", "location"], &[("DIVAN_SORTR", "name")])
            .unwrap()
            .1;
        assert_eq!(flags.sort, (Sort::Location, false));
        assert_eq!(
            t(&["--sort", "size"], &[]).unwrap_err(),
            "--sort: `size` is not kind, name or location"
        );
    }

    #[test]
    fn divan_variables_below_flags() {
        let (args, flags) = t(
            &["--min-time", "1"],
            &[
                ("DIVAN_MIN_TIME", "3"),
                ("DIVAN_MAX_TIME", "5"),
                ("DIVAN_THREADS", "2"),
                ("DIVAN_ITEMS_COUNT", "7"),
            ],
        )
        .unwrap();
        assert_eq!(args, ["--min-time", "1", "--max-time", "5"]);
        assert_eq!(flags.threads, Some(vec![2]));
        assert_eq!(flags.counters.shown(), Some(("item", 7.0)));
        // A child process's cap (pilot's own variable) is not overridden by divan's.
        let (args, _) = t(&[], &[("DIVAN_MAX_TIME", "5"), ("PILOT_MAX_TIME", "0.5")]).unwrap();
        assert!(args.is_empty());
    }

    #[test]
    fn bad_values_are_named() {
        assert_eq!(
            t(&["--threads", "x"], &[]).unwrap_err(),
            "--threads: `x` is not a thread count"
        );
        assert_eq!(
            t(&["--sample-size"], &[]).unwrap_err(),
            "--sample-size needs a value"
        );
        assert_eq!(
            t(&[], &[("DIVAN_BYTES_COUNT", "-1")]).unwrap_err(),
            "DIVAN_BYTES_COUNT: `-1` is not a count"
        );
    }
}
