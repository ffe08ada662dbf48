//! Notes to standard error that never panic: `say!` and `say_inline!`, which every module
//! uses in place of `eprintln!` and `eprint!`.

/// `eprintln!` that never panics: a standard error closed or full (`2>&1 | head -1`,
/// `2>/dev/full`) loses the message, not the command's work or its exit code.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprint!` that never panics, as [`say!`].
macro_rules! say_inline {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}
