//! The programs of a `cargo pilot run`: each COMMAND for each combination of the parameters'
//! values (`-P`, `-L`), named, and split into what is started (through the shell or not).

use crate::program::Program;
use anyhow::{anyhow, bail};
use pilot_engine::fmt::counted;

use super::RunArgs;

/// The values of one parameter, in order.
type Values = (String, Vec<String>);

/// The parameters' values from `-P VAR MIN MAX [-D STEP]` and `-L VAR a,b,c`.
fn parameters(args: &RunArgs) -> anyhow::Result<Vec<Values>> {
    let mut out = Vec::new();
    for (k, scan) in args.parameter_scan.chunks(3).enumerate() {
        let [var, min, max] = scan else {
            bail!("--parameter-scan takes VAR MIN MAX")
        };
        let int = |s: &str| -> anyhow::Result<i64> {
            s.parse()
                .map_err(|_| anyhow!("--parameter-scan {var}: `{s}` is not an integer"))
        };
        let (min, max) = (int(min)?, int(max)?);
        let step = args.parameter_step_size.get(k).copied().unwrap_or(1);
        if step <= 0 {
            bail!("--parameter-step-size must be positive, not {step}");
        }
        if min > max {
            bail!("--parameter-scan {var} {min} {max} has no values: MIN is above MAX");
        }
        let values: Vec<String> = (0..)
            .map(|i| min + i * step)
            .take_while(|v| *v <= max)
            .map(|v| v.to_string())
            .collect();
        out.push((var.clone(), values));
    }
    for list in args.parameter_list.chunks(2) {
        let [var, values] = list else {
            bail!("--parameter-list takes VAR VALUES")
        };
        let values: Vec<String> = values
            .split(',')
            .filter(|v| !v.is_empty())
            .map(str::to_string)
            .collect();
        if values.is_empty() {
            bail!("--parameter-list {var} has no values");
        }
        out.push((var.clone(), values));
    }
    Ok(out)
}

/// Every combination of the parameters' values (cartesian product, the first parameter
/// varying slowest); one empty combination without parameters.
fn combinations(params: &[Values]) -> Vec<Vec<(String, String)>> {
    let mut out = vec![Vec::new()];
    for (var, values) in params {
        out = out
            .into_iter()
            .flat_map(|combo: Vec<(String, String)>| {
                values.iter().map(move |v| {
                    let mut c = combo.clone();
                    c.push((var.clone(), v.clone()));
                    c
                })
            })
            .collect();
    }
    out
}

/// `{VAR}` in `text` replaced by each parameter's value.
fn fill(text: &str, combo: &[(String, String)]) -> String {
    combo.iter().fold(text.to_string(), |t, (var, value)| {
        t.replace(&format!("{{{var}}}"), value)
    })
}

/// What is started for `command` with the parameters `combo`: the shell with `-c` and the
/// command filled in, or (`-N`) the command's words, each filled in after the split, so that a
/// parameter's value is one argument whatever spaces or quotes it holds.
pub fn argv(
    args: &RunArgs,
    command: &str,
    combo: &[(String, String)],
) -> anyhow::Result<Vec<String>> {
    if args.no_shell {
        let words = shlex::split(command)
            .ok_or_else(|| anyhow!("cannot split `{command}` into words (an unclosed quote?)"))?;
        if words.is_empty() {
            bail!("an empty command");
        }
        Ok(words.iter().map(|w| fill(w, combo)).collect())
    } else {
        Ok(vec![
            args.shell.clone(),
            "-c".to_string(),
            fill(command, combo),
        ])
    }
}

/// The programs: each COMMAND for each combination of parameters.
pub fn programs(args: &RunArgs) -> anyhow::Result<Vec<Program>> {
    if !args.name.is_empty() && args.name.len() != args.commands.len() {
        bail!(
            "{} (-n) for {}: give one name per command, or none",
            counted(args.name.len(), "name", "names"),
            counted(args.commands.len(), "command", "commands")
        );
    }
    // Refused before anything runs: a result needs a name, and a command of nothing measures
    // only the shell, whose start-up is subtracted.
    if let Some(i) = args.commands.iter().position(|c| c.trim().is_empty()) {
        bail!(
            "COMMAND {} is empty (or only spaces): give the command line to measure",
            i + 1
        );
    }
    if let Some(i) = args.name.iter().position(|n| n.trim().is_empty()) {
        bail!(
            "the name (-n) of COMMAND {} is empty (or only spaces): a result is known by its \
             name; give it one, or leave out every -n to name each command by its command line",
            i + 1
        );
    }
    let params = parameters(args)?;
    let mut out = Vec::new();
    for (i, command) in args.commands.iter().enumerate() {
        for combo in combinations(&params) {
            let text = fill(command, &combo);
            // hyperfine's name of it: the -n name filled in, else the command.
            let label = args
                .name
                .get(i)
                .map_or_else(|| text.clone(), |n| fill(n, &combo));
            let template = args.name.get(i).unwrap_or(command);
            let unused: Vec<&(String, String)> = combo
                .iter()
                .filter(|(var, _)| !template.contains(&format!("{{{var}}}")))
                .collect();
            let mut name = label.clone();
            for (var, value) in &combo {
                // Without -n every value is added: pilot's names have always said them.
                if args.name.get(i).is_none() || unused.iter().any(|(v, _)| v == var) {
                    name.push_str(&format!("/{var}={value}"));
                }
            }
            let shown: Vec<String> = unused.iter().map(|(v, x)| format!("{v} = {x}")).collect();
            let label_with_unused = if shown.is_empty() {
                label.clone()
            } else {
                format!("{label} ({})", shown.join(", "))
            };
            out.push(Program {
                name,
                argv: argv(args, command, &combo)?,
                command: text,
                parameters: combo,
                label,
                label_with_unused,
            });
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    for p in &out {
        if !seen.insert(&p.name) {
            bail!(
                "two commands are both named `{}`: name them apart with -n",
                p.name
            );
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::tests::args;

    #[test]
    fn parameters_expand_as_a_cartesian_product_with_names() {
        let a = args(&[
            "-P", "n", "1", "5", "-D", "2", "-L", "c", "gzip,xz", "{c} -{n}",
        ]);
        let p = programs(&a).unwrap();
        let names: Vec<&str> = p.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "gzip -1/n=1/c=gzip",
                "xz -1/n=1/c=xz",
                "gzip -3/n=3/c=gzip",
                "xz -3/n=3/c=xz",
                "gzip -5/n=5/c=gzip",
                "xz -5/n=5/c=xz"
            ]
        );
        assert_eq!(p[0].argv, ["sh", "-c", "gzip -1"]);
        assert_eq!(
            p[3].parameters,
            [("n".into(), "3".into()), ("c".into(), "xz".into())]
        );
        let e = programs(&args(&["-P", "n", "5", "1", "x"])).unwrap_err();
        assert!(e.to_string().contains("has no values"), "{e}");
        let e = programs(&args(&["-L", "n", ",", "x"])).unwrap_err();
        assert!(e.to_string().contains("has no values"), "{e}");
    }

    #[test]
    fn labels_are_hyperfines_names() {
        // hyperfine's `command` is the -n name filled in, else the command; its Markdown adds
        // the parameters the name does not show.
        let p = programs(&args(&[
            "-L",
            "n",
            "1,2",
            "-n",
            "gz",
            "gzip -{n}",
            "-n",
            "x{n}",
            "xz -{n}",
        ]))
        .unwrap();
        let got: Vec<(&str, &str, &str)> = p
            .iter()
            .map(|p| {
                (
                    p.name.as_str(),
                    p.label.as_str(),
                    p.label_with_unused.as_str(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("gz/n=1", "gz", "gz (n = 1)"),
                ("gz/n=2", "gz", "gz (n = 2)"),
                ("x1", "x1", "x1"),
                ("x2", "x2", "x2"),
            ]
        );
        let p = programs(&args(&["-L", "n", "1", "-L", "c", "a", "echo {n}"])).unwrap();
        assert_eq!(p[0].name, "echo 1/n=1/c=a");
        assert_eq!(p[0].label, "echo 1");
        assert_eq!(p[0].label_with_unused, "echo 1 (c = a)");
        let p = programs(&args(&["-n", "A", "sleep 1", "-n", "B", "sleep 1"])).unwrap();
        assert_eq!((p[0].label.as_str(), p[1].label.as_str()), ("A", "B"));
    }

    #[test]
    fn commands_split_into_words_without_a_shell() {
        let p = programs(&args(&["-N", "grep -c 'a b' \"x y\""])).unwrap();
        assert_eq!(p[0].argv, ["grep", "-c", "a b", "x y"]);
        // A parameter's value is one word, its spaces and quotes kept.
        let p = programs(&args(&["-N", "-L", "x", "b c,'d", "prog {x} --n={x}"])).unwrap();
        assert_eq!(p[0].argv, ["prog", "b c", "--n=b c"]);
        assert_eq!(p[1].argv, ["prog", "'d", "--n='d"]);
        assert!(programs(&args(&["-N", "echo 'open"])).is_err());
    }
}
