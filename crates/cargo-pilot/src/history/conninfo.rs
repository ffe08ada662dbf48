//! A PostgreSQL connection string, in either form libpq accepts: a URL (`postgres://` or
//! `postgresql://`, the scheme in any case) or `key=value` words (`host=db password='a b'`).
//! It is read once, when the history's location is (so a malformed one is a usage error before
//! anything is measured), and it is only ever shown with its password hidden: in the URL's
//! user information, in a `password=` parameter (its key percent-encoded or not, `sslpassword`
//! too), or in a `key=value` word, quoted or not. A message of the driver's is scrubbed of the
//! password as well ([`Conninfo::scrub`]).

use std::fmt;

/// What stands in for a password.
const HIDDEN: &str = "***";

/// A PostgreSQL connection string, read.
#[derive(Clone)]
pub struct Conninfo {
    /// The driver's reading of it.
    config: tokio_postgres::Config,
    /// The text with its password hidden.
    shown: String,
}

impl Conninfo {
    /// Reads `text`, a URL (its scheme in any case) or `key=value` words.
    ///
    /// # Errors
    ///
    /// The driver cannot read it, it names no host, or it asks for TLS (`sslmode=require`),
    /// which cargo-pilot does not speak; the message holds no password.
    pub fn parse(text: &str) -> Result<Conninfo, String> {
        let shown = redact(text);
        // The driver knows the schemes in lower case only.
        let text = match scheme_of(text) {
            Some(scheme) => format!("{}{}", scheme.to_ascii_lowercase(), &text[scheme.len()..]),
            None => text.to_string(),
        };
        let config: tokio_postgres::Config = text.parse().map_err(|e: tokio_postgres::Error| {
            let mut msg = e.to_string();
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                msg.push_str(&format!(": {s}"));
                source = s.source();
            }
            msg
        })?;
        let mut c = Conninfo {
            shown,
            config: config.clone(),
        };
        c.shown = c.safe(c.shown.clone());
        if config.get_hosts().is_empty() && config.get_hostaddrs().is_empty() {
            return Err(
                "it names no host: add one (`postgres://HOST/DB`), or the folder of the server's \
                 socket (`?host=/var/run/postgresql`)"
                    .into(),
            );
        }
        if config.get_ssl_mode() == tokio_postgres::config::SslMode::Require {
            return Err(
                "`sslmode=require`, but cargo-pilot connects without TLS: reach the server \
                 through a tunnel, or drop `sslmode=require`"
                    .into(),
            );
        }
        Ok(c)
    }

    /// The driver's reading.
    pub fn config(&self) -> &tokio_postgres::Config {
        &self.config
    }

    /// The connection string with its password hidden.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// `message` (a driver's error, a server's) with this connection's password hidden,
    /// as it is or percent-encoded.
    pub fn scrub(&self, message: &str) -> String {
        match self.password() {
            Some(p) => hide_secret(message, &p),
            None => message.to_string(),
        }
    }

    /// The password as the driver read it, when it is not empty.
    fn password(&self) -> Option<String> {
        self.config
            .get_password()
            .map(|p| String::from_utf8_lossy(p).into_owned())
            .filter(|p| !p.is_empty())
    }

    /// `shown` when it holds nothing of the password; else what the driver read, rebuilt
    /// without it (a text the redaction misread, such as a password that holds a separator
    /// unencoded).
    fn safe(&self, shown: String) -> String {
        let Some(p) = self.password() else {
            return shown;
        };
        if !shown.contains(&p) && !percent_decoded(&shown).contains(&p) {
            return shown;
        }
        let c = &self.config;
        let user = c.get_user().map(|u| format!("{u}@")).unwrap_or_default();
        let hosts: Vec<String> = c
            .get_hosts()
            .iter()
            .map(|h| match h {
                tokio_postgres::config::Host::Tcp(h) => h.clone(),
                #[cfg(unix)]
                tokio_postgres::config::Host::Unix(p) => p.display().to_string(),
            })
            .collect();
        let port = c
            .get_ports()
            .first()
            .map(|p| format!(":{p}"))
            .unwrap_or_default();
        let db = c.get_dbname().unwrap_or_default();
        hide_secret(
            &format!("postgres://{user}{}{port}/{db}", hosts.join(",")),
            &p,
        )
    }
}

impl fmt::Debug for Conninfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Conninfo({:?})", self.shown)
    }
}

impl PartialEq for Conninfo {
    fn eq(&self, other: &Self) -> bool {
        self.config == other.config
    }
}

/// The scheme of a URL-like `text` (`postgres` of `postgres://…`, in its own case), `None`
/// when `text` does not start `SCHEME:/`.
pub fn scheme_of(text: &str) -> Option<&str> {
    let end = text.find(':')?;
    let scheme = &text[..end];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        && text[end + 1..].starts_with('/'))
    .then_some(scheme)
}

/// Whether `text` is libpq's `key=value` form: its first word is a key libpq knows, followed
/// by `=`. (A file name such as `run=1.sqlite` is not: its first word is no such key.)
pub fn is_key_value(text: &str) -> bool {
    const KEYS: &[&str] = &[
        "host",
        "hostaddr",
        "port",
        "dbname",
        "user",
        "password",
        "passfile",
        "connect_timeout",
        "options",
        "application_name",
        "sslmode",
        "sslnegotiation",
        "target_session_attrs",
        "channel_binding",
        "load_balance_hosts",
        "keepalives",
        "keepalives_idle",
        "keepalives_interval",
        "keepalives_count",
        "tcp_user_timeout",
        "service",
    ];
    let t = text.trim_start();
    let key_end = t
        .find(|c: char| c == '=' || c.is_whitespace())
        .unwrap_or(t.len());
    KEYS.contains(&&t[..key_end]) && t[key_end..].trim_start().starts_with('=')
}

/// `text`, a connection string in any form (or a URL of another scheme), with every password
/// in it hidden. What cannot be read is cut off rather than shown.
pub fn redact(text: &str) -> String {
    match scheme_of(text) {
        Some(scheme) => redact_url(text, scheme.len()),
        None => redact_key_value(text),
    }
}

/// A URL's password hidden: the user information's (`user:PASSWORD@`, up to the last `@`
/// before the query, so that a password holding `@` or `/` unencoded is hidden whole), and
/// every query parameter whose key, percent-decoded, holds `password`.
fn redact_url(text: &str, scheme_len: usize) -> String {
    let start = text[scheme_len..]
        .find(|c| c != ':' && c != '/')
        .map_or(text.len(), |i| scheme_len + i);
    let (head, rest) = text.split_at(start);
    // The driver reads the user information up to the first `@`, libpq up to an `@` before
    // the first `/`; a password may hold either unencoded. Up to the last `@` before the
    // query covers them all.
    let userinfo_end = rest.find('@').map(|first| {
        let query = rest[first..].find('?').map_or(rest.len(), |i| first + i);
        rest[..query].rfind('@').unwrap_or(first)
    });
    let mut out = String::from(head);
    let after = match userinfo_end {
        Some(at) => {
            let userinfo = &rest[..at];
            match userinfo.split_once(':') {
                Some((user, _)) => out.push_str(&format!("{user}:{HIDDEN}")),
                None => out.push_str(userinfo),
            }
            &rest[at..]
        }
        None => rest,
    };
    let Some(q) = after.find('?') else {
        out.push_str(after);
        return out;
    };
    out.push_str(&after[..=q]);
    let params: Vec<String> = after[q + 1..]
        .split('&')
        .map(|p| match p.split_once('=') {
            Some((k, _)) if percent_decoded(k).to_ascii_lowercase().contains("password") => {
                format!("{k}={HIDDEN}")
            }
            _ => p.to_string(),
        })
        .collect();
    out.push_str(&params.join("&"));
    out
}

/// `key=value` words with the value of every key that holds `password` hidden, quoted or not
/// (`password='a b'`, `password=a\ b`). Words after one that cannot be read are cut off.
fn redact_key_value(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start();
        out.push_str(&rest[..rest.len() - trimmed.len()]);
        rest = trimmed;
        if rest.is_empty() {
            return out;
        }
        let key_end = rest
            .find(|c: char| c == '=' || c.is_whitespace())
            .unwrap_or(rest.len());
        let key = &rest[..key_end];
        let after_key = rest[key_end..].trim_start();
        let Some(value) = after_key.strip_prefix('=') else {
            // Not a `key=value` word: shown only if it is the whole text (a path).
            if out.is_empty() {
                out.push_str(rest);
            } else {
                out.push('…');
            }
            return out;
        };
        let value = value.trim_start();
        let Some(len) = value_len(value) else {
            out.push_str(&format!("{key}=…"));
            return out;
        };
        if key.to_ascii_lowercase().contains("password") {
            out.push_str(&format!("{key}={HIDDEN}"));
        } else {
            out.push_str(&format!("{key}={}", &value[..len]));
        }
        rest = &value[len..];
    }
}

/// The length of the value at the start of `s`, as libpq reads it: quoted (`'a b'`, `\`
/// escaping) up to its closing quote, else up to white space (`\` escaping); `None` when a
/// quote is never closed or the value is empty.
fn value_len(s: &str) -> Option<usize> {
    let mut chars = s.char_indices();
    if s.starts_with('\'') {
        chars.next();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    chars.next();
                }
                '\'' => return Some(i + 1),
                _ => {}
            }
        }
        return None;
    }
    let mut end = 0;
    while let Some((i, c)) = chars.next() {
        if c.is_whitespace() {
            break;
        }
        end = i + c.len_utf8();
        if c == '\\'
            && let Some((j, e)) = chars.next()
        {
            end = j + e.len_utf8();
        }
    }
    (end > 0).then_some(end)
}

/// `message` with every occurrence of `secret` hidden, as it is or percent-encoded (any of
/// its bytes encoded, in either case of hex digits).
fn hide_secret(message: &str, secret: &str) -> String {
    let mut out = message.replace(secret, HIDDEN);
    // A percent-encoded form: find it by decoding the message around each `%`.
    if out.contains('%') && percent_decoded(&out).contains(secret) {
        let mut kept = String::new();
        let mut rest = out.as_str();
        while !rest.is_empty() {
            // The shortest stretch from here whose decoding starts with the secret (encoded
            // whole, it is three times as long).
            let found = (1..=rest.len().min(3 * secret.len()))
                .filter(|&n| rest.is_char_boundary(n))
                .find(|&n| percent_decoded(&rest[..n]).starts_with(secret));
            match found {
                Some(n) => {
                    kept.push_str(HIDDEN);
                    rest = &rest[n..];
                }
                None => {
                    let c = rest.chars().next().expect("not empty");
                    kept.push(c);
                    rest = &rest[c.len_utf8()..];
                }
            }
        }
        out = kept;
    }
    out
}

/// `s` with `%XX` sequences decoded (invalid ones and invalid UTF-8 kept as they are).
fn percent_decoded(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "s3cr#t";

    /// Every form libpq accepts a password in, each with the secret `s3cr#t` (or its
    /// percent-encoded forms), shown without it.
    #[test]
    fn no_form_of_a_password_is_shown() {
        for (text, shown) in [
            (
                "postgres://pilot:s3cr%23t@db.example:5432/bench",
                "postgres://pilot:***@db.example:5432/bench",
            ),
            (
                "POSTGRESQL://pilot:s3cr%23t@db.example/bench",
                "POSTGRESQL://pilot:***@db.example/bench",
            ),
            (
                "postgresql://127.0.0.1:1/x?user=pilot&password=s3cr%23t",
                "postgresql://127.0.0.1:1/x?user=pilot&password=***",
            ),
            (
                "postgresql://127.0.0.1:1/x?user=pilot&pass%77ord=s3cr%23t&connect_timeout=2",
                "postgresql://127.0.0.1:1/x?user=pilot&pass%77ord=***&connect_timeout=2",
            ),
            (
                "postgresql://127.0.0.1/x?PASSWORD=s3cr%23t",
                "postgresql://127.0.0.1/x?PASSWORD=***",
            ),
            (
                "postgres://127.0.0.1/x?sslpassword=s3cr%23t",
                "postgres://127.0.0.1/x?sslpassword=***",
            ),
            // Separators in the password, unencoded: hidden whole all the same.
            (
                "postgres://pilot:s3cr@t/x@db.example/bench",
                "postgres://pilot:***@db.example/bench",
            ),
            (
                "host=127.0.0.1 user=pilot password=s3cr#t dbname=x",
                "host=127.0.0.1 user=pilot password=*** dbname=x",
            ),
            (
                "host=127.0.0.1 password = 's3cr#t and more' dbname=x",
                "host=127.0.0.1 password=*** dbname=x",
            ),
            (
                r"host=127.0.0.1 password=s3cr\ #t port=1",
                "host=127.0.0.1 password=*** port=1",
            ),
            // Cannot be read: cut off where it cannot.
            (
                "host=127.0.0.1 password='s3cr#t",
                "host=127.0.0.1 password=…",
            ),
            ("host=127.0.0.1 s3cr#t", "host=127.0.0.1 …"),
            // Other schemes too (a usage error names the URL).
            (
                "postgress://pilot:s3cr%23t@db/x",
                "postgress://pilot:***@db/x",
            ),
        ] {
            let r = redact(text);
            assert_eq!(r, shown, "{text}");
            assert!(
                !r.contains("s3cr") && !percent_decoded(&r).contains("s3cr"),
                "{r}"
            );
        }
        // Nothing to hide: shown as given.
        for text in [
            "postgres://pilot@localhost/bench",
            "postgresql://localhost",
            "postgresql:///pilot?host=/var/run/postgresql",
            "history.sqlite",
        ] {
            assert_eq!(redact(text), text);
        }
    }

    #[test]
    fn a_connection_string_is_read_in_both_forms_and_any_case() {
        for text in [
            "postgres://pilot:s3cr%23t@127.0.0.1:5433/bench",
            "PostgreSQL://pilot:s3cr%23t@127.0.0.1:5433/bench",
            "host=127.0.0.1 port=5433 user=pilot password='s3cr#t' dbname=bench",
        ] {
            let c = Conninfo::parse(text).unwrap();
            assert_eq!(c.config().get_password(), Some(SECRET.as_bytes()), "{text}");
            assert_eq!(c.config().get_ports(), [5433]);
            assert!(!c.shown().contains("s3cr"), "{}", c.shown());
            assert!(!format!("{c:?}").contains("s3cr"));
        }
    }

    #[test]
    fn a_malformed_connection_string_is_refused_without_its_password() {
        for (text, says) in [
            (
                "postgres://pilot:s3cr%23t@127.0.0.1:99999/x",
                "invalid value for option `port`",
            ),
            (
                "postgres://127.0.0.1/x?password=s3cr%23t&nope=1",
                "unknown option `nope`",
            ),
            ("postgres:///x?password=s3cr%23t", "names no host"),
            (
                "postgres://h/x?sslmode=require&password=s3cr%23t",
                "without TLS",
            ),
            ("host=h password='s3cr#t", "unterminated quoted"),
        ] {
            let e = Conninfo::parse(text).unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
            assert!(!e.contains("s3cr"), "{e}");
        }
    }

    #[test]
    fn a_driver_message_is_scrubbed_of_the_password() {
        let c = Conninfo::parse("postgres://pilot:s3cr%23t@127.0.0.1/x").unwrap();
        assert_eq!(
            c.scrub("FATAL: role s3cr#t, or s3cr%23t, or s3cr%2523t"),
            "FATAL: role ***, or ***, or s3cr%2523t"
        );
        assert!(!c.scrub("s3cr%23t").contains("s3cr"));
    }

    #[test]
    fn a_key_value_string_starts_with_a_key_libpq_knows() {
        assert!(is_key_value("host=db password=x"));
        assert!(is_key_value("  dbname = x"));
        assert!(!is_key_value("run=1.sqlite"));
        assert!(!is_key_value("history.sqlite"));
        assert!(!is_key_value("host"));
        assert_eq!(scheme_of("POSTGRES://x"), Some("POSTGRES"));
        assert_eq!(scheme_of("postgres:/x"), Some("postgres"));
        assert_eq!(scheme_of("C:\\x"), None);
        assert_eq!(scheme_of("./a:/b"), None);
        assert_eq!(scheme_of("history.sqlite"), None);
    }
}
