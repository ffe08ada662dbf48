//! The table of every option `#[pilot::bench]` knows: its key, its example, and how its value
//! is checked and stored. The keys that are settings (`ci`, `max_time`, …) are checked against
//! their row of `pilot_settings::SETTINGS`: its bounds, and what the error says.

use syn::Expr;

use super::OptionArg;
use super::values::{
    flag, non_empty_string, path, setting_number, setting_word, thread_counts, throughput,
    unwrap_expr, value, work_range,
};
use crate::parse::BenchAttr;

/// One known option: its key, an example shown in messages, and how it is applied.
///
/// To add an option, add a field to [`BenchAttr`] and a row to [`OPTIONS`].
pub(crate) struct OptionSpec {
    pub(crate) key: &'static str,
    /// A valid use, quoted in error messages.
    pub(super) example: &'static str,
    /// Validates the value (`None` for a bare `key`) and stores it in the attribute.
    pub(super) apply: fn(&mut BenchAttr, &OptionArg, &'static str) -> syn::Result<()>,
}

/// Every option `#[pilot::bench]` knows, in the order the docs list them.
pub(crate) const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "name",
        example: "name = \"sort_10k\"",
        apply: |attr, arg, example| {
            attr.name = Some(non_empty_string(arg, example)?);
            Ok(())
        },
    },
    OptionSpec {
        key: "unit",
        example: "unit = \"MiB\"",
        apply: |attr, arg, example| {
            attr.unit = Some(non_empty_string(arg, example)?);
            Ok(())
        },
    },
    OptionSpec {
        key: "throughput",
        example: "throughput = bytes(n)",
        apply: |attr, arg, example| {
            attr.throughput = Some(throughput(arg, example)?);
            Ok(())
        },
    },
    OptionSpec {
        key: "work",
        example: "work = 1..=4096",
        apply: |attr, arg, example| {
            attr.work = Some(work_range(arg, example)?);
            Ok(())
        },
    },
    OptionSpec {
        key: "ci",
        example: "ci = 0.01",
        apply: |attr, arg, example| {
            attr.ci = Some(setting_number(arg, example, "ci")?);
            Ok(())
        },
    },
    OptionSpec {
        key: "confidence",
        example: "confidence = 0.99",
        apply: |attr, arg, example| {
            attr.confidence = Some(setting_number(arg, example, "confidence")?);
            Ok(())
        },
    },
    OptionSpec {
        key: "max_time",
        example: "max_time = 5",
        apply: |attr, arg, example| {
            attr.max_time = Some(setting_number(arg, example, "max_time")?);
            Ok(())
        },
    },
    OptionSpec {
        key: "min_time",
        example: "min_time = 1",
        apply: |attr, arg, example| {
            attr.min_time = Some(setting_number(arg, example, "min_time")?);
            Ok(())
        },
    },
    OptionSpec {
        key: "estimator",
        example: "estimator = \"mean\"",
        apply: |attr, arg, example| {
            attr.estimator = Some(setting_word(arg, example, "estimator")?);
            Ok(())
        },
    },
    OptionSpec {
        key: "ignore",
        example: "ignore",
        apply: |attr, arg, _| {
            attr.ignore = flag(arg)?;
            Ok(())
        },
    },
    OptionSpec {
        key: "group",
        example: "group = \"maps\"",
        apply: |attr, arg, example| {
            attr.group = Some(non_empty_string(arg, example)?);
            Ok(())
        },
    },
    OptionSpec {
        key: "bottleneck",
        example: "bottleneck = \"disk\"",
        apply: |attr, arg, example| {
            let device = non_empty_string(arg, example)?;
            if !["disk", "network"].contains(&device.as_str()) {
                return Err(syn::Error::new_spanned(
                    value(arg, example)?,
                    format!(
                        "`bottleneck` names the device the bench is meant to saturate: \
                         `\"disk\"` or `\"network\"`, e.g. `{example}`"
                    ),
                ));
            }
            attr.bottleneck = Some(device);
            Ok(())
        },
    },
    OptionSpec {
        key: "args",
        example: "args = [100, 10_000]",
        apply: |attr, arg, example| {
            let value = value(arg, example)?;
            let empty = match value {
                Expr::Array(array) => array.elems.is_empty(),
                Expr::Reference(reference) => {
                    matches!(unwrap_expr(&reference.expr), Expr::Array(a) if a.elems.is_empty())
                }
                _ => false,
            };
            if empty || matches!(value, Expr::Lit(_)) {
                return Err(syn::Error::new_spanned(
                    value,
                    format!(
                        "`args` expects a non-empty list of argument values, e.g. `{example}` \
                         or `args = pilot::range(1, 64, 2)`"
                    ),
                ));
            }
            attr.args = Some(value.clone());
            Ok(())
        },
    },
    OptionSpec {
        key: "threads",
        example: "threads = 4",
        apply: |attr, arg, example| {
            attr.threads = Some(thread_counts(arg, example)?);
            Ok(())
        },
    },
    OptionSpec {
        key: "crate",
        example: "crate = ::my_crate::pilot",
        apply: |attr, arg, example| {
            attr.krate = Some(path(arg, example)?);
            Ok(())
        },
    },
];
