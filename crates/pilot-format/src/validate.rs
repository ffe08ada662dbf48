//! The range checks of a result document, in one place: [`ResultDoc::validate`].

use crate::{
    PiDoc, RESULT_SCHEMA, ReproducibilityDoc, ResultDoc, STATUSES, SubsessionDoc, WARM_UP_CLASSES,
};

impl ResultDoc {
    /// Checks every key a reader relies on: the schema, a known status, a non-empty name, and
    /// with an estimate a `time` PI whose mean is positive and inside a finite interval at a
    /// confidence in (0, 1), and the samples' statistics a comparison needs. The error names
    /// the key at fault, e.g. "`pis[0].ci.low` (101) is above the mean (100)".
    pub fn validate(&self) -> Result<(), String> {
        check_schema(&self.schema, RESULT_SCHEMA)?;
        if self.name.is_empty() {
            return Err("`name` is empty".into());
        }
        if !STATUSES.contains(&self.status.as_str()) {
            return Err(format!(
                "`status` is `{}`, expected one of: {}",
                self.status,
                STATUSES.join(", ")
            ));
        }
        if let Some(w) = &self.warm_up
            && !WARM_UP_CLASSES.contains(&w.as_str())
        {
            return Err(format!(
                "`warm_up` is `{w}`, expected one of: {}",
                WARM_UP_CLASSES.join(", ")
            ));
        }
        if let Some(i) = self.checks.iter().position(|c| c.kind.is_empty()) {
            return Err(format!("`checks[{i}].kind` is empty"));
        }
        for (i, r) in self.rounds.iter().enumerate() {
            if let Some(bins) = &r.readings {
                let at = format!("rounds[{i}].readings");
                bins.validate(&at)?;
                if bins.count != r.units {
                    return Err(format!(
                        "`{at}.count` is {}, but the round has {} unit readings",
                        bins.count, r.units
                    ));
                }
            }
        }
        let Some(time) = self.pis.first() else {
            if self.status == "ok" {
                return Err("`pis` is empty but `status` is `ok`".into());
            }
            return Ok(());
        };
        if self.time().is_none() && self.status != "ok" {
            // No estimate of the time, but counts (`--instructions` counts a bench whatever
            // its time found): only count PIs.
            return self.validate_counts_alone();
        }
        time.validate_time()?;
        for (i, pi) in self.pis.iter().enumerate().skip(1) {
            if crate::ALLOCATION_PIS.contains(&pi.name.as_str()) {
                pi.validate_count(i)?;
            }
        }
        let sub = self
            .subsession
            .as_ref()
            .ok_or("`subsession` is missing: the comparison needs its samples' statistics")?;
        sub.validate()?;
        for (i, pi) in self.pis.iter().enumerate().skip(1) {
            if pi.name == crate::INSTRUCTIONS_PI || pi.name == crate::CYCLES_PI {
                pi.validate_count(i)?;
            }
        }
        if let Some(c) = &self.counts {
            let cycles = c.cycles_process_means.iter().flatten();
            if c.process_means.iter().chain(cycles).any(|m| !m.is_finite()) {
                return Err("`counts` holds a process mean that is not a number".into());
            }
        }
        for (i, m) in self.processes.means.iter().enumerate() {
            // A process's readings-only slope may be 0 or less when noise swamped its rounds;
            // the mean over processes (pis[0].mean) is what has to be positive.
            if !m.is_finite() {
                return Err(format!("`processes.means[{i}]` is not a number"));
            }
        }
        Ok(())
    }

    /// The PIs of a document without a time: each one a count (instructions or cycles), as
    /// its `counts` says how they were counted.
    fn validate_counts_alone(&self) -> Result<(), String> {
        for (i, pi) in self.pis.iter().enumerate() {
            if pi.name != crate::INSTRUCTIONS_PI && pi.name != crate::CYCLES_PI {
                return Err(format!(
                    "`pis[{i}]` is `{}`, but a document without a `time` PI holds only counts",
                    pi.name
                ));
            }
            pi.validate_count(i)?;
        }
        if self.counts.is_none() {
            return Err("`counts` is missing: the document has counts and no time".into());
        }
        Ok(())
    }

    /// Analysed rounds with a stable phase: the samples of a between-round interval.
    pub fn stable_rounds(&self) -> usize {
        self.rounds
            .iter()
            .filter(|r| r.analysed && r.stable.is_some())
            .count()
    }
}

impl PiDoc {
    fn validate_time(&self) -> Result<(), String> {
        if self.name != "time" {
            return Err("`pis[0]` is not the `time` performance index".into());
        }
        let mean = finite(self.mean, "pis[0].mean")?;
        if mean <= 0.0 {
            return Err(format!("`pis[0].mean` is {mean}, expected a positive time"));
        }
        let low = finite(self.ci.low, "pis[0].ci.low")?;
        let high = finite(self.ci.high, "pis[0].ci.high")?;
        if low > mean {
            return Err(format!(
                "`pis[0].ci.low` ({low}) is above the mean ({mean})"
            ));
        }
        if high < mean {
            return Err(format!(
                "`pis[0].ci.high` ({high}) is below the mean ({mean})"
            ));
        }
        let c = self.ci.confidence;
        if !(c > 0.0 && c < 1.0) {
            return Err(format!(
                "`pis[0].ci.confidence` is {c}, expected between 0 and 1"
            ));
        }
        match self.interval_from.as_deref() {
            // `machine`: a document written before reproducibility was a figure of its own.
            None
            | Some("readings" | "rounds" | "processes" | "modes" | "regression" | "machine") => {}
            Some(other) => {
                return Err(format!(
                    "`pis[0].interval_from` is `{other}`, expected readings, rounds, processes, \
                     modes, regression or machine"
                ));
            }
        }
        match &self.reproducibility {
            Some(r) => r.validate(),
            None => Ok(()),
        }
    }
}

impl ReproducibilityDoc {
    /// A band of positive, finite bounds around its centre, with a finite spread learnt from
    /// a known source; or the runs a band still waits for.
    fn validate(&self) -> Result<(), String> {
        let key = "pis[0].reproducibility";
        match self {
            ReproducibilityDoc::Learnt(b) => {
                for (name, x) in [
                    ("center", b.center),
                    ("low", b.low),
                    ("high", b.high),
                    ("half_width", b.half_width),
                    ("sd", b.sd),
                    ("dof", b.dof),
                ] {
                    if !x.is_finite() || x < 0.0 {
                        return Err(format!(
                            "`{key}.{name}` is {x}, expected a finite number of 0 or more"
                        ));
                    }
                }
                if !(b.low <= b.center && b.center <= b.high && b.low > 0.0) {
                    return Err(format!(
                        "`{key}` [{}, {}] does not hold its center ({})",
                        b.low, b.high, b.center
                    ));
                }
                if !["bench", "benches", "probe"].contains(&b.learnt_from.as_str()) {
                    return Err(format!(
                        "`{key}.learnt_from` is `{}`, expected bench, benches or probe",
                        b.learnt_from
                    ));
                }
                Ok(())
            }
            ReproducibilityDoc::Learning(l) if l.runs >= l.runs_needed => Err(format!(
                "`{key}.runs` is {}, but a band still learning needs more than that ({})",
                l.runs, l.runs_needed
            )),
            ReproducibilityDoc::Learning(_) => Ok(()),
        }
    }
}

impl PiDoc {
    /// A count per unit (`allocations`, `allocated_bytes`) at `pis[i]`: a mean of 0 or more
    /// inside a finite interval (of zero width when every unit counted the same).
    fn validate_count(&self, i: usize) -> Result<(), String> {
        let key = |k: &str| format!("pis[{i}].{k}");
        let mean = finite(self.mean, &key("mean"))?;
        if mean < 0.0 {
            return Err(format!(
                "`{}` is {mean}, expected a count of 0 or more",
                key("mean")
            ));
        }
        let low = finite(self.ci.low, &key("ci.low"))?;
        let high = finite(self.ci.high, &key("ci.high"))?;
        if low > mean || high < mean {
            return Err(format!(
                "`{}` [{low}, {high}] does not hold the mean ({mean})",
                key("ci")
            ));
        }
        let c = self.ci.confidence;
        if !(c > 0.0 && c < 1.0) {
            return Err(format!(
                "`{}` is {c}, expected between 0 and 1",
                key("ci.confidence")
            ));
        }
        Ok(())
    }
}

impl SubsessionDoc {
    fn validate(&self) -> Result<(), String> {
        if self.count < 1 {
            return Err("`subsession.count` is 0, expected at least 1".into());
        }
        finite(Some(self.mean), "subsession.mean")?;
        let v = finite(Some(self.variance), "subsession.variance")?;
        if v < 0.0 {
            return Err(format!("`subsession.variance` is {v}, expected 0 or more"));
        }
        let f = finite(
            Some(self.variance_inflation),
            "subsession.variance_inflation",
        )?;
        if f < 1.0 - 1e-9 {
            return Err(format!(
                "`subsession.variance_inflation` is {f}, expected 1 or more"
            ));
        }
        Ok(())
    }
}

/// `x` when it is a finite number; else an error naming `key`.
fn finite(x: Option<f64>, key: &str) -> Result<f64, String> {
    match x {
        Some(x) if x.is_finite() => Ok(x),
        _ => Err(format!("`{key}` is missing or not a number")),
    }
}

/// An error unless `schema` (a document's `schema` key) is `expected` (one of this crate's
/// schema constants); the error says when the document was written by a newer pilot.
pub fn check_schema(schema: &str, expected: &str) -> Result<(), String> {
    if schema == expected {
        return Ok(());
    }
    let (family, version) = expected.rsplit_once('/').expect("a versioned schema name");
    let newer = schema
        .strip_prefix(family)
        .and_then(|rest| rest.strip_prefix('/'))
        .and_then(|v| v.parse::<u32>().ok())
        .zip(version.parse::<u32>().ok())
        .is_some_and(|(found, known)| found > known);
    Err(if newer {
        format!(
            "schema `{schema}` was written by a newer pilot; this one reads `{expected}`: update \
             cargo-pilot and pilot"
        )
    } else {
        format!("schema `{schema}` is not `{expected}`")
    })
}
