//! Reading measurements for `cargo pilot analyze`: one number per line, or CSV columns.

use std::io::Read;

use anyhow::{Context, anyhow};

use crate::Failure;

/// Where the numbers are in a file.
pub enum Layout<'a> {
    /// One number per line; blank lines and lines starting with `#` are skipped.
    Lines,
    /// Two numbers per line (work amount, duration), separated by white space or a comma.
    Pairs,
    /// CSV with a header row; the named columns, in order.
    Csv(Vec<&'a str>),
}

/// Reads the whole of `path` (`-` is standard input) as text.
pub fn read_text(path: &str) -> Result<String, Failure> {
    let mut text = String::new();
    if path == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .context("failed to read standard input")?;
    } else {
        text = std::fs::read_to_string(path).with_context(|| format!("failed to read `{path}`"))?;
    }
    Ok(text)
}

/// Parses the columns of `text` (named `name` in messages) laid out as `layout`: one vector per
/// column, all of the same length.
pub fn parse(name: &str, text: &str, layout: &Layout<'_>) -> Result<Vec<Vec<f64>>, Failure> {
    match layout {
        Layout::Lines => parse_lines(name, text, 1),
        Layout::Pairs => parse_lines(name, text, 2),
        Layout::Csv(columns) => parse_csv(name, text, columns),
    }
}

fn parse_number(name: &str, line: u64, what: &str, field: &str) -> Result<f64, Failure> {
    let field = field.trim();
    let x: f64 = field
        .parse()
        .map_err(|_| anyhow!("{name}:{line}: {what}`{field}` is not a number"))?;
    if !x.is_finite() {
        return Err(anyhow!("{name}:{line}: {what}`{field}` is not a finite number").into());
    }
    Ok(x)
}

fn parse_lines(name: &str, text: &str, width: usize) -> Result<Vec<Vec<f64>>, Failure> {
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
        for (column, field) in columns.iter_mut().zip(&fields) {
            match parse_number(name, lineno, "", field) {
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

fn parse_csv(name: &str, text: &str, wanted: &[&str]) -> Result<Vec<Vec<f64>>, Failure> {
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
            column.push(parse_number(name, line, &what, field)?);
        }
    }
    Ok(columns)
}

fn bail_usage(message: String) -> Result<(), Failure> {
    Err(Failure::Usage(anyhow::Error::msg(message)))
}
