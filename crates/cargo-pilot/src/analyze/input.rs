//! Reading measurements for `cargo pilot analyze`: one number per line, or CSV columns.

use std::io::{BufRead, BufReader, Read};

use anyhow::{Context, anyhow};

use crate::exit::Failure;

/// How much `analyze` reads, so that `/dev/zero` or a stray binary file is an error rather than
/// a read without end.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Most bytes in one line, its newline not counted.
    pub line: u64,
    /// Most bytes in one file.
    pub file: u64,
}

impl Limits {
    /// A line of 1 MiB holds a CSV row of tens of thousands of numbers; a file of 1 GiB, some
    /// 50 million readings.
    pub const DEFAULT: Limits = Limits {
        line: 1 << 20,
        file: 1 << 30,
    };
}

/// What the numbers of a file may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    /// Any finite number (unit readings, or any other measurement).
    Finite,
    /// Finite and greater than 0: the work amounts and durations of `--wps`.
    Positive,
}

/// Where the numbers are in a file.
pub enum Layout<'a> {
    /// One number per line; blank lines and lines starting with `#` are skipped.
    Lines,
    /// Two numbers per line (work amount, duration), separated by white space or a comma.
    Pairs,
    /// CSV with a header row; the named columns, in order.
    Csv(Vec<&'a str>),
}

/// Reads the whole of `path` (`-` is standard input) as UTF-8 text within [`Limits::DEFAULT`],
/// without the byte-order mark some editors put first.
pub fn read_text(path: &str) -> Result<String, Failure> {
    let limits = Limits::DEFAULT;
    if path == "-" {
        return read_bounded("-", "standard input", std::io::stdin().lock(), limits);
    }
    let file = std::fs::File::open(path).with_context(|| format!("failed to read `{path}`"))?;
    // A regular file's size is known up front: a huge one is refused before it is read.
    if let Ok(meta) = file.metadata()
        && meta.is_file()
        && meta.len() > limits.file
    {
        return Err(anyhow!("{path}: {}", too_large(limits)).into());
    }
    read_bounded(path, &format!("`{path}`"), file, limits)
}

fn too_large(limits: Limits) -> String {
    format!(
        "more than {}, the most `cargo pilot analyze` reads from one file",
        bytes(limits.file)
    )
}

/// `n` bytes in the largest binary unit that divides it.
fn bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 30 && n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

/// Reads `reader` to its end as UTF-8 text, refusing a line longer than `limits.line` or more
/// than `limits.file` bytes as soon as they are seen; a leading byte-order mark is dropped.
/// Messages name the input as `name:line` (`name` as given on the command line) or, for an I/O
/// error, as `source` ("`data.txt`", "standard input").
fn read_bounded(
    name: &str,
    source: &str,
    reader: impl Read,
    limits: Limits,
) -> Result<String, Failure> {
    let mut reader = BufReader::new(reader);
    let mut bytes = Vec::new();
    let mut line = 0_u64;
    loop {
        line += 1;
        let start = bytes.len();
        // One byte over the limit is enough to know the line is too long.
        let read = (&mut reader)
            .take(limits.line + 1)
            .read_until(b'\n', &mut bytes)
            .with_context(|| format!("failed to read {source}"))?;
        if read == 0 {
            break;
        }
        let ended = bytes.last() == Some(&b'\n');
        let length = (bytes.len() - start - usize::from(ended)) as u64;
        if length > limits.line {
            return Err(anyhow!(
                "{name}:{line}: the line is longer than {}, the most `cargo pilot analyze` reads \
                 in one line (is this a text file of numbers?)",
                self::bytes(limits.line)
            )
            .into());
        }
        if bytes.len() as u64 > limits.file {
            return Err(anyhow!("{name}: {}", too_large(limits)).into());
        }
    }
    let mut text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        Failure::from(anyhow!(
            "{name}:{line}: not UTF-8 text (byte {at} of the file is not valid UTF-8)"
        ))
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

/// Parses the columns of `text` (named `name` in messages) laid out as `layout`: one vector per
/// column, all of the same length, every number in `domain`.
pub fn parse(
    name: &str,
    text: &str,
    layout: &Layout<'_>,
    domain: Domain,
) -> Result<Vec<Vec<f64>>, Failure> {
    match layout {
        Layout::Lines => parse_lines(name, text, &[""], domain),
        Layout::Pairs => parse_lines(name, text, &["work amount ", "duration "], domain),
        Layout::Csv(columns) => parse_csv(name, text, columns, domain),
    }
}

fn parse_number(
    name: &str,
    line: u64,
    what: &str,
    field: &str,
    domain: Domain,
) -> Result<f64, Failure> {
    let field = field.trim();
    let x: f64 = field
        .parse()
        .map_err(|_| anyhow!("{name}:{line}: {what}`{field}` is not a number"))?;
    if !x.is_finite() {
        return Err(anyhow!("{name}:{line}: {what}`{field}` is not a finite number").into());
    }
    if domain == Domain::Positive && x <= 0.0 {
        return Err(anyhow!(
            "{name}:{line}: {what}`{field}` is not positive (--wps needs work amounts and \
             durations greater than 0)"
        )
        .into());
    }
    Ok(x)
}

fn parse_lines(
    name: &str,
    text: &str,
    labels: &[&str],
    domain: Domain,
) -> Result<Vec<Vec<f64>>, Failure> {
    let width = labels.len();
    let mut columns = vec![Vec::new(); width];
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let lineno = i as u64 + 1;
        let fields: Vec<&str> = if width == 1 {
            vec![line]
        } else {
            line.split(|c: char| c == ',' || c.is_whitespace())
                .filter(|f| !f.is_empty())
                .collect()
        };
        let first = columns[0].is_empty();
        let header_hint = |what: &str| -> Failure {
            let flags = if width == 1 {
                "--column NAME"
            } else {
                "--work-column and --duration-column"
            };
            Failure::Usage(anyhow!(
                "{name}:{lineno}: `{line}` {what}; if it is a CSV header, name the column{} with \
                 {flags}",
                if width == 1 { "" } else { "s" }
            ))
        };
        if fields.len() != width {
            if first && looks_like_header(line) {
                return Err(header_hint("is not data"));
            }
            return Err(anyhow!(
                "{name}:{lineno}: expected {width} number{} per line, found `{line}`",
                if width == 1 { "" } else { "s" }
            )
            .into());
        }
        for ((column, field), label) in columns.iter_mut().zip(&fields).zip(labels) {
            match parse_number(name, lineno, label, field, domain) {
                Ok(x) => column.push(x),
                Err(_) if first && looks_like_header(line) => {
                    return Err(header_hint("is not a number"));
                }
                Err(e) => return Err(e),
            }
        }
    }
    Ok(columns)
}

/// A first line with a comma and a field that is not a number is most likely a CSV header.
fn looks_like_header(line: &str) -> bool {
    line.contains(',') && line.split(',').any(|f| f.trim().parse::<f64>().is_err())
}

fn parse_csv(
    name: &str,
    text: &str,
    wanted: &[&str],
    domain: Domain,
) -> Result<Vec<Vec<f64>>, Failure> {
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .with_context(|| format!("{name}: failed to read the CSV header"))?;
    let mut indices = Vec::new();
    for column in wanted {
        match headers.iter().position(|h| h == *column) {
            Some(i) => indices.push(i),
            None => {
                let have: Vec<&str> = headers.iter().collect();
                bail_usage(format!(
                    "{name}: no column `{column}` in the CSV header (columns: {})",
                    have.join(", ")
                ))?;
            }
        }
    }
    let mut columns = vec![Vec::new(); wanted.len()];
    for record in reader.records() {
        let record = record.with_context(|| format!("{name}: malformed CSV"))?;
        let line = record.position().map_or(0, |p| p.line());
        if record.iter().all(|f| f.is_empty()) {
            continue;
        }
        for ((column, &index), label) in columns.iter_mut().zip(&indices).zip(wanted) {
            let field = record.get(index).unwrap_or("");
            let what = format!("column `{label}`: ");
            column.push(parse_number(name, line, &what, field, domain)?);
        }
    }
    Ok(columns)
}

fn bail_usage(message: String) -> Result<(), Failure> {
    Err(Failure::Usage(anyhow::Error::msg(message)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(f: Failure) -> String {
        format!("{:#}", f.error())
    }

    const SMALL: Limits = Limits { line: 8, file: 20 };

    #[test]
    fn lines_and_files_within_the_limits_are_read_whole() {
        // 8 bytes per line exactly, a last line without newline: 9 + 9 + 2 = 20 bytes.
        let text = read_bounded("f", "`f`", "12345678\n1.234567\n42".as_bytes(), SMALL).unwrap();
        assert_eq!(text, "12345678\n1.234567\n42");
        assert_eq!(read_bounded("f", "`f`", &b""[..], SMALL).unwrap(), "");
    }

    #[test]
    fn a_long_line_or_file_is_refused_naming_it_and_the_limit() {
        let e = read_bounded("f", "`f`", "1\n123456789\n".as_bytes(), SMALL).unwrap_err();
        assert_eq!(
            message(e),
            "f:2: the line is longer than 8 bytes, the most `cargo pilot analyze` reads in one \
             line (is this a text file of numbers?)"
        );
        // An endless stream stops at the limit: /dev/zero as a reader.
        let zeros = std::io::repeat(0);
        let e = read_bounded("z", "`z`", zeros, Limits::DEFAULT).unwrap_err();
        assert!(message(e).starts_with("z:1: the line is longer than 1 MiB"));
        let e = read_bounded("f", "`f`", std::io::repeat(b'\n'), SMALL).unwrap_err();
        assert_eq!(
            message(e),
            "f: more than 20 bytes, the most `cargo pilot analyze` reads from one file"
        );
    }

    #[test]
    fn a_byte_order_mark_is_dropped_and_bad_utf8_named() {
        let text = read_bounded("f", "`f`", "\u{feff}1\n2\n".as_bytes(), SMALL).unwrap();
        assert_eq!(text, "1\n2\n");
        let e = read_bounded("f", "`f`", &b"1\n2\xff\n"[..], SMALL).unwrap_err();
        assert_eq!(
            message(e),
            "f:2: not UTF-8 text (byte 3 of the file is not valid UTF-8)"
        );
    }

    #[test]
    fn limits_are_named_in_binary_units() {
        assert_eq!(bytes(1 << 30), "1 GiB");
        assert_eq!(bytes(1 << 20), "1 MiB");
        assert_eq!(bytes(3 << 10), "3 KiB");
        assert_eq!(bytes(1000), "1000 bytes");
    }

    #[test]
    fn wps_readings_must_be_positive() {
        let e = parse("w.txt", "1 2\n2 -3\n", &Layout::Pairs, Domain::Positive).unwrap_err();
        assert_eq!(
            message(e),
            "w.txt:2: duration `-3` is not positive (--wps needs work amounts and durations \
             greater than 0)"
        );
        let e = parse("w.txt", "0 2\n", &Layout::Pairs, Domain::Positive).unwrap_err();
        assert!(message(e).starts_with("w.txt:1: work amount `0` is not positive"));
        let csv = Layout::Csv(vec!["w", "ns"]);
        let e = parse("w.csv", "w,ns\n1,2\n2,0\n", &csv, Domain::Positive).unwrap_err();
        assert!(message(e).starts_with("w.csv:3: column `ns`: `0` is not positive"));
        // Plain readings may be zero or negative.
        let ok = parse("x.txt", "0\n-1\n", &Layout::Lines, Domain::Finite).unwrap();
        assert_eq!(ok, vec![vec![0.0, -1.0]]);
    }
}
