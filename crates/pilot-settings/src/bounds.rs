//! The bounds of each kind of value, as functions of the raw text: the value, or an error naming
//! it and what is accepted (the caller adds the flag or variable).

/// The longest time pilot accepts, in seconds (about 116 days): longer is a typo, and a cap far
/// beyond it cannot even be added to the clock.
pub const MAX_SECONDS: f64 = 1e7;

/// `raw` as a number; NaN is not one.
pub fn number(raw: &str) -> Result<f64, String> {
    match raw.trim().parse::<f64>() {
        Ok(x) if !x.is_nan() => Ok(x),
        _ => Err(format!("`{raw}` is not a number")),
    }
}

/// A number strictly between 0 and 1.
pub fn fraction(raw: &str) -> Result<f64, String> {
    open_unit(raw)
}

/// A number strictly between 0 and 1 (the bounds of a confidence level).
pub fn open_unit(raw: &str) -> Result<f64, String> {
    match number(raw)? {
        x if x > 0.0 && x < 1.0 => Ok(x),
        _ => Err(format!("`{raw}` must be strictly between 0 and 1")),
    }
}

/// A noise threshold: at least 0 and below 1.
pub fn noise(raw: &str) -> Result<f64, String> {
    match number(raw)? {
        x if (0.0..1.0).contains(&x) => Ok(x),
        _ => Err(format!(
            "`{raw}` must be at least 0 and below 1 (0.01 is 1%)"
        )),
    }
}

/// Seconds: above 0 (`positive`) or 0 and more, at most [`MAX_SECONDS`]. The error names the
/// one bound `raw` is beyond.
pub fn seconds(raw: &str, positive: bool) -> Result<f64, String> {
    let x = number(raw)?;
    if positive && x <= 0.0 {
        return Err(format!("`{raw}` must be above 0 seconds"));
    }
    if x < 0.0 {
        return Err(format!("`{raw}` must be 0 seconds or more"));
    }
    if x > MAX_SECONDS {
        return Err(format!(
            "`{raw}` must be at most {MAX_SECONDS:e} seconds (about 116 days)"
        ));
    }
    Ok(x)
}

/// A whole number, 1 or more.
pub fn count(raw: &str) -> Result<usize, String> {
    match raw.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("`{raw}` must be a whole number, 1 or more")),
    }
}

/// A baseline's name: 1 to 64 of `A-Z a-z 0-9 - _ .`, not starting with `.`.
pub fn baseline_name(raw: &str) -> Result<(), String> {
    let ok = !raw.is_empty()
        && raw.len() <= 64
        && !raw.starts_with('.')
        && raw
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{raw}` is not a valid baseline name (1 to 64 letters, digits, `-`, `_` or `.`, \
             not starting with `.`)"
        ))
    }
}

/// One of `words`, as given (surrounding blanks aside).
pub fn choice(raw: &str, words: &'static [&'static str]) -> Result<&'static str, String> {
    if let Some(w) = words.iter().find(|w| **w == raw.trim()) {
        return Ok(w);
    }
    let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
    let list = match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.join(""),
    };
    Err(format!("`{raw}` must be {list}"))
}

/// On or off: `1`, `true`, `yes`, `on` / `0`, `false`, `no`, `off`, or empty (off).
pub fn switch(raw: &str) -> Result<bool, String> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "" | "0" | "false" | "no" | "off" => Ok(false),
        "1" | "true" | "yes" | "on" => Ok(true),
        _ => Err(format!(
            "`{raw}` is not on or off (use 1, true, yes, on, or 0, false, no, off)"
        )),
    }
}
