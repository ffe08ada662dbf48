//! The programs of a `cargo pilot run`: each COMMAND for each combination of the parameters'
//! values (`-P`, `-L`), named, and split into what is started (through the shell or not).

use crate::program::Program;
use anyhow::{anyhow, bail};

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
            "{} names (-n) for {} commands: give one name per command, or none",
            args.name.len(),
            args.commands.len()
        );
    }
    let params = parameters(args)?;
    let mut out = Vec::new();
    for (i, command) in args.commands.iter().enumerate() {
        for combo in combinations(&params) {
            let text = fill(command, &combo);
            let mut name = args
                .name
                .get(i)
                .map_or_else(|| text.clone(), |n| fill(n, &combo));
            if args.name.get(i).is_some() || !params.is_empty() {
                for (var, value) in &combo {
                    if !args
                        .name
                        .get(i)
                        .is_some_and(|n| n.contains(&format!("{{{var}}}")))
                    {
                        name.push_str(&format!("/{var}={value}"));
                    }
                }
            }
            out.push(Program {
                name,
                argv: argv(args, command, &combo)?,
                command: text,
                parameters: combo,
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
