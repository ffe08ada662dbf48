use super::*;

/// A result document of bench `name` ending with `status`, its interval ±`half` of 100 ns,
/// and the checks `kinds` with the figures given.
fn doc(name: &str, status: &str, half: f64, checks: serde_json::Value) -> ResultDoc {
    serde_json::from_value(serde_json::json!({
        "schema": "pilot.result/1", "name": name, "target": "t", "status": status,
        "pis": [{"name": "time", "unit": "ns", "mean": 100.0,
                 "ci": {"low": 100.0 - 100.0 * half, "high": 100.0 + 100.0 * half,
                        "confidence": 0.95}}],
        "checks": checks,
    }))
    .unwrap()
}

fn busy(mean: f64) -> serde_json::Value {
    serde_json::json!({"kind": "busy_machine", "message": "m", "mean": mean})
}

fn alone(_: &ResultDoc) -> Context {
    Context {
        threads: 1,
        ..Context::default()
    }
}

#[test]
fn each_kind_is_explained_once_with_its_benches_and_spread() {
    let vm = serde_json::json!({"kind": "virtual_machine", "message": "m"});
    let docs = [
        doc("a", "ok", 0.004, serde_json::json!([busy(1.04), vm])),
        doc("b", "time cap", 0.021, serde_json::json!([busy(1.79), vm])),
        doc("c", "time cap", 0.135, serde_json::json!([vm])),
        doc("d", "ok", 0.003, serde_json::json!([vm])),
    ];
    let mut explained = BTreeSet::new();
    let text = summary(&docs, &alone, &mut explained, Paint::plain());
    let lines: Vec<&str> = text.lines().collect();
    // The statuses first, then the run's state, then what the sessions found.
    assert!(
        lines[0].starts_with("check: time cap (2 of 4 benches: b, c) [reached ±2.1% to ±13.5%]: "),
        "{text}"
    );
    assert!(
        lines[0].ends_with(
            "raise --max-time (or the bench's `max_time`), or accept a wider interval (--ci)"
        ),
        "{text}"
    );
    // A state of the run names no benches.
    assert!(
        lines[1].starts_with("check: virtual machine: neighbours share"),
        "{text}"
    );
    assert!(lines[1].contains("--against"), "{text}");
    assert!(
        lines[2]
            .starts_with("check: busy machine (2 of 4 benches: a, b) [1.0 to 1.8 cores busy]: "),
        "{text}"
    );
    assert!(
        lines[2].contains("compare alternatives in a group"),
        "{text}"
    );
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(explained.len(), 3);
    // A second target of the same job: explained kinds are left to the markers.
    let more = [doc("e", "ok", 0.01, serde_json::json!([busy(1.2)]))];
    assert_eq!(summary(&more, &alone, &mut explained, Paint::plain()), "");
    assert_eq!(summary(&[], &alone, &mut explained, Paint::plain()), "");
}

#[test]
fn advice_fits_what_the_benches_share() {
    let docs = [
        doc("g/a", "ok", 0.01, serde_json::json!([busy(1.2)])),
        doc("g/b", "out of reach", 0.3, serde_json::json!([busy(1.3)])),
    ];
    let grouped = |_: &ResultDoc| Context {
        grouped: true,
        threads: 1,
        ..Context::default()
    };
    let text = summary(&docs, &grouped, &mut BTreeSet::new(), Paint::plain());
    assert!(!text.contains("group"), "{text}");
    assert!(
        text.contains("out of reach (1 of 2 benches: g/b) [reached ±30.0%]"),
        "{text}"
    );
    // One bench alone among group members: the advice must fit it too.
    let mixed = |d: &ResultDoc| Context {
        grouped: d.name == "g/a",
        threads: 1,
        ..Context::default()
    };
    let text = summary(&docs, &mixed, &mut BTreeSet::new(), Paint::plain());
    assert!(text.contains("compare alternatives in a group"), "{text}");
}

#[test]
fn markers_name_what_fired_on_the_bench_not_the_runs_state() {
    let d = doc(
        "a",
        "ok",
        0.01,
        serde_json::json!([
            {"kind": "outliers", "message": "m"},
            {"kind": "few_cores", "message": "m"},
            busy(1.0),
            {"kind": "some_future_kind", "message": "m"},
        ]),
    );
    assert_eq!(markers(&d), ["busy", "outliers"]);
}

#[test]
fn names_are_shown_not_obeyed() {
    let docs = [
        doc("\u{1b}[2Jevil", "time cap", 0.1, serde_json::json!([])),
        doc("b", "ok", 0.01, serde_json::json!([])),
    ];
    let text = summary(&docs, &alone, &mut BTreeSet::new(), Paint::plain());
    assert!(!text.contains('\u{1b}'), "{text:?}");
}
