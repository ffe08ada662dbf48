//! The options: each parsed, each mistake with its message.

use super::*;

// --- options ---

#[test]
fn no_options_is_all_defaults() {
    let attr = attr(quote!());
    assert!(attr.name.is_none() && attr.unit.is_none() && attr.work.is_none());
    assert!(attr.ci.is_none() && attr.confidence.is_none());
    assert!(attr.max_time.is_none() && attr.min_time.is_none());
    assert!(!attr.ignore && attr.krate.is_none());
}

#[test]
fn every_option_is_parsed() {
    let attr = attr(quote!(
        name = "copy",
        unit = "MiB",
        work = 1..=4096,
        ci = 0.02,
        confidence = 0.99,
        max_time = 5,
        min_time = 0.5,
        ignore,
        crate = ::my_crate::pilot,
    ));
    assert_eq!(attr.name.as_deref(), Some("copy"));
    assert_eq!(attr.unit.as_deref(), Some("MiB"));
    assert_eq!(attr.work, Some((1, 4096)));
    assert_eq!(attr.ci, Some(0.02));
    assert_eq!(attr.confidence, Some(0.99));
    assert_eq!(attr.max_time, Some(5.0));
    assert_eq!(attr.min_time, Some(0.5));
    assert!(attr.ignore);
    let krate = attr.krate.unwrap();
    assert_eq!(
        quote!(#krate).to_string(),
        quote!(::my_crate::pilot).to_string()
    );
}

#[test]
fn work_ranges() {
    assert_eq!(attr(quote!(work = 1..4097)).work, Some((1, 4096)));
    assert_eq!(
        attr(quote!(work = 1_000..=1_000_000)).work,
        Some((1000, 1_000_000))
    );
    assert_eq!(attr(quote!(work = 7..=7)).work, Some((7, 7)));
    assert_eq!(attr(quote!(work = 7..8)).work, Some((7, 7)));
    assert_eq!(attr(quote!(work = 1u64..=2u64)).work, Some((1, 2)));
    let max = u64::MAX;
    assert_eq!(attr(quote!(work = 1..=#max)).work, Some((1, max)));
}

#[test]
fn flags_and_crate_paths() {
    assert!(attr(quote!(ignore = true)).ignore);
    assert!(!attr(quote!(ignore = false)).ignore);
    assert!(attr(quote!(crate = pilot)).krate.is_some());
    assert!(
        attr(quote!(crate = crate::reexported::pilot))
            .krate
            .is_some()
    );
}

#[test]
fn numbers_accept_integers_and_floats() {
    assert_eq!(attr(quote!(max_time = 2.5)).max_time, Some(2.5));
    assert_eq!(attr(quote!(min_time = 0)).min_time, Some(0.0));
    assert_eq!(attr(quote!(min_time = 2, max_time = 2)).min_time, Some(2.0));
    assert_eq!(attr(quote!(ci = 1e-2)).ci, Some(0.01));
}

#[test]
fn unknown_option_lists_the_valid_ones() {
    assert_eq!(
        attr_error(quote!(foo = 1)),
        "unknown `#[pilot::bench]` option `foo`; expected one of `name`, `unit`, `throughput`, \
         `work`, `ci`, `confidence`, `max_time`, `min_time`, `estimator`, `ignore`, `group`, `bottleneck`, \
         `args`, `threads`, `crate`"
    );
}

#[test]
fn bottleneck_names_a_device() {
    assert_eq!(
        attr_error(quote!(bottleneck = "gpu")),
        "`bottleneck` names the device the bench is meant to saturate: `\"disk\"` or \
         `\"network\"`, e.g. `bottleneck = \"disk\"`"
    );
}

#[test]
fn repeated_option() {
    assert_eq!(
        attr_error(quote!(ci = 0.01, ci = 0.02)),
        "repeated `#[pilot::bench]` option `ci`: give each option once"
    );
}

#[test]
fn missing_value() {
    assert_eq!(
        attr_error(quote!(ci)),
        "`#[pilot::bench]` option `ci` needs a value, e.g. `ci = 0.01`"
    );
}

#[test]
fn strings_must_be_non_empty_literals() {
    let name = "`name` expects a non-empty string literal, e.g. `name = \"sort_10k\"`";
    assert_eq!(attr_error(quote!(name = sort)), name);
    assert_eq!(attr_error(quote!(name = "")), name);
    assert_eq!(
        attr_error(quote!(unit = 3)),
        "`unit` expects a non-empty string literal, e.g. `unit = \"MiB\"`"
    );
}

#[test]
fn bad_work_ranges() {
    let not_a_range = "`work` expects a range of work amounts with integer literal bounds, \
                       e.g. `work = 1..=4096` or `work = 1..4097`";
    assert_eq!(attr_error(quote!(work = 4096)), not_a_range);
    assert_eq!(attr_error(quote!(work = 1..)), not_a_range);
    assert_eq!(attr_error(quote!(work = ..=10)), not_a_range);
    assert_eq!(attr_error(quote!(work = 1.0..=2.0)), not_a_range);
    assert_eq!(attr_error(quote!(work = 1..=N)), not_a_range);
    assert_eq!(attr_error(quote!(work = 1i32..=2)), not_a_range);
    let empty = "`work` range is empty: its lower bound must be at most its upper bound, \
                 e.g. `work = 1..=4096`";
    assert_eq!(attr_error(quote!(work = 4096..=1)), empty);
    assert_eq!(attr_error(quote!(work = 5..5)), empty);
    assert_eq!(
        attr_error(quote!(work = 0..=10)),
        "`work` must start at 1 or more: every round does at least one work unit"
    );
    assert_eq!(
        attr_error(quote!(work = 1..=18446744073709551616)),
        "`work` bounds must fit in a `u64`"
    );
}

#[test]
fn fractions_are_strictly_between_0_and_1() {
    let ci = "`ci` is the target relative half-width of the confidence interval: expected \
              a number greater than 0 and less than 1, e.g. `ci = 0.01` for ±1%";
    for bad in [
        quote!(ci = 0),
        quote!(ci = 1.0),
        quote!(ci = -0.1),
        quote!(ci = "1%"),
    ] {
        assert_eq!(attr_error(bad), ci);
    }
    let confidence = "`confidence` is the confidence level: expected a number greater \
                      than 0 and less than 1, e.g. `confidence = 0.99`";
    for bad in [quote!(confidence = 95), quote!(confidence = 0.0)] {
        assert_eq!(attr_error(bad), confidence);
    }
}

#[test]
fn times() {
    // The bounds are the table of settings', as the bench binary's: above 1e7 s is refused.
    assert_eq!(attr(quote!(max_time = 1e7)).max_time, Some(1e7));
    assert_eq!(
        attr_error(quote!(max_time = 2e7)),
        "`max_time` is the time cap in seconds: expected a number greater than 0, at most 1e7, \
         e.g. `max_time = 5` or `max_time = 2.5`"
    );
    assert_eq!(
        attr_error(quote!(max_time = 0)),
        "`max_time` is the time cap in seconds: expected a number greater than 0, at most 1e7, \
         e.g. `max_time = 5` or `max_time = 2.5`"
    );
    assert_eq!(
        attr_error(quote!(min_time = -1)),
        "`min_time` is the least session time in seconds: expected a number, 0 or more, at \
         most 1e7, e.g. `min_time = 1`"
    );
    assert_eq!(
        attr_error(quote!(max_time = 1e999)),
        "`max_time` is the time cap in seconds: expected a number greater than 0, at most 1e7, \
         e.g. `max_time = 5` or `max_time = 2.5`"
    );
    assert_eq!(
        attr_error(quote!(min_time = 5, max_time = 2.5)),
        "`min_time = 5` exceeds `max_time = 2.5`: the least session time must be at most \
         the time cap"
    );
}

#[test]
fn bad_flag_and_crate() {
    assert_eq!(
        attr_error(quote!(ignore = 1)),
        "`ignore` is a flag: write `ignore`, `ignore = true` or `ignore = false`"
    );
    assert_eq!(
        attr_error(quote!(crate = "pilot")),
        "`crate` expects the path of the pilot crate, e.g. `crate = ::my_crate::pilot`"
    );
}

#[test]
fn every_mistake_is_reported_once() {
    let errors = attr_errors(quote!(foo, ci = 2, ci = 0.5, work = 3..1));
    assert_eq!(errors.len(), 4, "{errors:?}");
    assert!(errors[0].starts_with("unknown"));
    assert!(errors[1].starts_with("`ci`"));
    assert!(errors[2].starts_with("repeated"));
    assert!(errors[3].starts_with("`work` range is empty"));
}

#[test]
fn syntax_errors_come_from_syn() {
    assert!(parse_attr(quote!(ci = )).is_err());
    assert!(parse_attr(quote!(ci 0.01)).is_err());
}

// --- groups, sweeps, threads ---

#[test]
fn group_args_and_threads_are_parsed() {
    let attr = attr(quote!(
        group = "maps",
        args = pilot::range(1, 64, 2),
        threads = [1, 2, 4]
    ));
    assert_eq!(attr.group.as_deref(), Some("maps"));
    let args = attr.args.unwrap();
    assert_eq!(
        quote!(#args).to_string(),
        quote!(pilot::range(1, 64, 2)).to_string()
    );
    assert_eq!(attr.threads, Some(vec![1, 2, 4]));
    assert_eq!(self::attr(quote!(threads = 8)).threads, Some(vec![8]));
    assert!(self::attr(quote!(args = [100, 10_000])).args.is_some());
    assert!(self::attr(quote!(args = &[1u8, 2])).args.is_some());
}

#[test]
fn group_args_and_threads_mistakes() {
    assert_eq!(
        attr_error(quote!(group = "")),
        "`group` expects a non-empty string literal, e.g. `group = \"maps\"`"
    );
    let threads = "`threads` is how many threads run the workload at once: expected an integer \
                   1 or more, or a list of them, e.g. `threads = 4` or `threads = [1, 2, 4]`";
    assert_eq!(attr_error(quote!(threads = 0)), threads);
    assert_eq!(attr_error(quote!(threads = [1, 0])), threads);
    assert_eq!(attr_error(quote!(threads = [])), threads);
    assert_eq!(attr_error(quote!(threads = N)), threads);
    assert_eq!(
        attr_error(quote!(threads = [2, 2])),
        "repeated thread count `2` in `threads`: give each once"
    );
    let args = "`args` expects a non-empty list of argument values, e.g. \
                `args = [100, 10_000]` or `args = pilot::range(1, 64, 2)`";
    assert_eq!(attr_error(quote!(args = [])), args);
    assert_eq!(attr_error(quote!(args = 5)), args);
}

#[test]
fn throughput_counts_bytes_or_elements() {
    let t = attr(quote!(args = [64, 4096], throughput = bytes(n)))
        .throughput
        .unwrap();
    assert_eq!(t.kind, ThroughputKind::Bytes);
    let amount = &t.amount;
    assert_eq!(quote!(#amount).to_string(), "n");
    let t = attr(quote!(throughput = elements(64 * 1024)))
        .throughput
        .unwrap();
    assert_eq!(t.kind, ThroughputKind::Elements);
    let amount = &t.amount;
    assert_eq!(quote!(#amount).to_string(), quote!(64 * 1024).to_string());
}

#[test]
fn throughput_mistakes() {
    let expected = "`throughput` expects `bytes(AMOUNT)` or `elements(AMOUNT)`: how many bytes \
                    or elements one work unit (one iteration in the micro form) processes, \
                    e.g. `throughput = bytes(n)` or `throughput = elements(1024)`";
    assert_eq!(attr_error(quote!(throughput = foo(1))), expected);
    assert_eq!(attr_error(quote!(throughput = 4096)), expected);
    assert_eq!(attr_error(quote!(throughput = pilot::bytes(1))), expected);
    assert_eq!(
        attr_error(quote!(throughput = bytes())),
        "`bytes(…)` takes one expression: the bytes one work unit (one iteration in the micro \
         form) processes, e.g. `throughput = bytes(4096)`, or `throughput = bytes(n)` with the \
         argument `n` of a bench with `args`"
    );
    assert!(attr_error(quote!(throughput = elements(1, 2))).starts_with("`elements(…)` takes one"));
    assert_eq!(
        attr_error(quote!(throughput)),
        "`#[pilot::bench]` option `throughput` needs a value, e.g. `throughput = bytes(n)`"
    );
    let both = "`unit` and `throughput` both say what throughput counts: give one, `unit = \"…\"` \
                when a work unit is itself the thing counted, or `throughput = bytes(…)` / \
                `elements(…)` for the bytes or elements in each work unit";
    assert_eq!(
        attr_error(quote!(unit = "MiB", throughput = bytes(1))),
        both
    );
    assert_eq!(
        attr_error(quote!(throughput = bytes(1), unit = "MiB")),
        both
    );
}

#[test]
fn estimators_are_the_tables_words() {
    assert_eq!(
        attr(quote!(estimator = "mean")).estimator.as_deref(),
        Some("mean")
    );
    assert_eq!(
        attr_error(quote!(estimator = "median")),
        "`estimator` is what the time estimates (`\"trimmed\"`: the code's cost, the default; \
         `\"mean\"`: every unit, the interrupted ones included): expected one of \
         `\"trimmed\"`, `\"mean\"`, e.g. `estimator = \"mean\"`"
    );
}

#[test]
fn every_attribute_setting_of_the_table_is_an_option() {
    for s in pilot_settings::SETTINGS {
        let known = crate::parse::attr::options::OPTIONS
            .iter()
            .any(|o| o.key == s.name);
        assert_eq!(
            known,
            s.attribute.is_some(),
            "`{}`: an attribute in the table of settings is an option of the macro, and a \
             setting the macro takes is an attribute of the table",
            s.name
        );
    }
}
