//! The "how:" note under a comparison table: how its verdicts were reached. Each bench's method
//! names its own figures (`Welch's t over 8 vs 10 process estimates`, the machine's sd), so
//! benches measured alike differ only in them; the note states each method once, with the
//! range of each figure across the benches that used it (`8–10`), instead of a line per bench.

/// One way the verdicts were reached, with the benches (or counts) it was used for.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Method {
    /// The method in words, each figure its range across the benches (`2–4`).
    pub(crate) text: String,
    /// How many of the methods given were this one.
    pub(crate) uses: usize,
}

/// A method's words with its figures taken out: the words between figures, and the figures.
fn split_figures(method: &str) -> (Vec<&str>, Vec<&str>) {
    let bytes = method.as_bytes();
    let (mut words, mut figures) = (Vec::new(), Vec::new());
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        // A figure starts with a digit that does not continue a name (`x86`).
        let starts = bytes[i].is_ascii_digit()
            && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'));
        if !starts {
            i += 1;
            continue;
        }
        let mut end = i;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
        if end + 1 < bytes.len() && bytes[end] == b'.' && bytes[end + 1].is_ascii_digit() {
            end += 1;
            while end < bytes.len() && bytes[end].is_ascii_digit() {
                end += 1;
            }
        }
        words.push(&method[start..i]);
        figures.push(&method[i..end]);
        start = end;
        i = end;
    }
    words.push(&method[start..]);
    (words, figures)
}

/// Groups `methods` (one for each bench and measure, in order) by their words with the figures
/// set aside, in the order each was first seen; a group's text has each figure as its range
/// over the group (`8 vs 8–10 process estimates`). Time: O(total length · groups).
pub(super) fn summarise(methods: &[String]) -> Vec<Method> {
    struct Group<'a> {
        words: Vec<&'a str>,
        /// Each figure's (least, greatest), as written.
        ranges: Vec<(&'a str, &'a str)>,
        uses: usize,
    }
    let value = |figure: &str| figure.parse::<f64>().unwrap_or(0.0);
    let mut groups: Vec<Group> = Vec::new();
    for method in methods {
        let (words, figures) = split_figures(method);
        match groups.iter_mut().find(|g| g.words == words) {
            Some(g) => {
                g.uses += 1;
                for (range, figure) in g.ranges.iter_mut().zip(figures) {
                    if value(figure) < value(range.0) {
                        range.0 = figure;
                    }
                    if value(figure) > value(range.1) {
                        range.1 = figure;
                    }
                }
            }
            None => groups.push(Group {
                words,
                ranges: figures.iter().map(|f| (*f, *f)).collect(),
                uses: 1,
            }),
        }
    }
    groups
        .into_iter()
        .map(|g| {
            let mut text = String::new();
            for (i, words) in g.words.iter().enumerate() {
                text.push_str(words);
                if let Some((low, high)) = g.ranges.get(i) {
                    if value(low) == value(high) {
                        text.push_str(low);
                    } else {
                        text.push_str(&format!("{low}–{high}"));
                    }
                }
            }
            Method { text, uses: g.uses }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(all: &[&str]) -> Vec<String> {
        all.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn benches_measured_alike_give_one_method_with_ranges() {
        let found = summarise(&strings(&[
            "Welch's t over 8 vs 8 process estimates; with the machine's run-to-run variation \
             on each side (sd 0.75%, 3 runs)",
            "Welch's t over 8 vs 10 process estimates; with the machine's run-to-run variation \
             on each side (sd 0.38%, 3 runs)",
            "Welch's t over 8 vs 8 process estimates; with the machine's run-to-run variation \
             on each side (sd 0.80%, 4 runs)",
        ]));
        assert_eq!(
            found,
            [Method {
                text: "Welch's t over 8 vs 8–10 process estimates; with the machine's \
                       run-to-run variation on each side (sd 0.38–0.80%, 3–4 runs)"
                    .into(),
                uses: 3,
            }]
        );
    }

    #[test]
    fn different_methods_stay_apart_in_the_order_first_seen() {
        let found = summarise(&strings(&[
            "Welch's t over 3 vs 3 process estimates; the machine's run-to-run variation not \
             known yet",
            "Welch's t within one process each (3 vs 3 subsession samples)",
            "Welch's t over 2 vs 4 process estimates; the machine's run-to-run variation not \
             known yet",
            "1 process vs the baseline's 2 process estimates (their spread added to the new \
             run's); the machine's run-to-run variation not known yet",
        ]));
        let texts: Vec<(&str, usize)> = found.iter().map(|m| (m.text.as_str(), m.uses)).collect();
        assert_eq!(
            texts,
            [
                (
                    "Welch's t over 2–3 vs 3–4 process estimates; the machine's \
                     run-to-run variation not known yet",
                    2
                ),
                (
                    "Welch's t within one process each (3 vs 3 subsession samples)",
                    1
                ),
                (
                    "1 process vs the baseline's 2 process estimates (their spread added to the \
                     new run's); the machine's run-to-run variation not known yet",
                    1
                ),
            ]
        );
    }

    #[test]
    fn digits_inside_names_are_words() {
        let (words, figures) = split_figures("x86 over 2.5 vs 10, t=1 and 3.");
        assert_eq!(figures, ["2.5", "10", "1", "3"]);
        assert_eq!(words, ["x86 over ", " vs ", ", t=", " and ", "."]);
    }
}
