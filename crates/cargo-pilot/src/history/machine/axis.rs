//! One machine's series on one axis of commits: each series' values there, the machine's own
//! series (the benches' shared level), what the runs recorded of the machine (its speed probe,
//! its load), and the small statistics the machine's changes are told by.

use std::collections::HashMap;

pub(super) use pilot_stats::summary::median;

use crate::history::changes::{readings, values};
use crate::history::read::{Point, Series};

/// Least benches measured at a commit for the machine's series to have a value there.
pub(super) const MIN_BENCHES: usize = 4;

/// The commits of one machine's series, in order, and each series' values on them.
pub(super) struct Axis {
    /// Per member: (position, index of the point, value) for each commit it has a value at
    /// that counts for its changes (`changes::values`).
    pub(super) vals: Vec<Vec<(usize, usize, f64)>>,
    /// Per member: (position, value) for each commit it has a reading at, imprecise runs too
    /// (`changes::readings`): what the machine's series is made of.
    pub(super) readings: Vec<Vec<(usize, f64)>>,
    /// Per position: (member, point) of the first run there.
    pub(super) first: Vec<(usize, usize)>,
    /// Per member: each point's position, `None` for one that counts for no change.
    pub(super) places: Vec<Vec<Option<usize>>>,
}

/// A place on the axis: a commit, or a run outside git.
type Key = (Option<String>, Option<i64>);

/// The first run seen at a place: its order, its member and its point.
type First = ((i64, i64, String), usize, usize);

/// A point's commit, or its run outside git: what makes a place on the axis.
fn key(p: &Point) -> Key {
    match &p.commit {
        Some(c) => (Some(c.clone()), None),
        None => (None, Some(p.run_id)),
    }
}

impl Axis {
    pub(super) fn of(all: &[Series], members: &[usize]) -> Axis {
        let mut seen: HashMap<Key, First> = HashMap::new();
        for (m, &s) in members.iter().enumerate() {
            for (pi, _) in readings(&all[s].points) {
                let p = &all[s].points[pi];
                let order = p.order();
                seen.entry(key(p))
                    .and_modify(|e| {
                        if order < e.0 {
                            *e = (order.clone(), m, pi);
                        }
                    })
                    .or_insert((order, m, pi));
            }
        }
        let mut keys: Vec<_> = seen.into_iter().collect();
        keys.sort_by(|a, b| a.1.0.cmp(&b.1.0));
        let first = keys.iter().map(|(_, (_, m, p))| (*m, *p)).collect();
        let position: HashMap<_, usize> = keys
            .into_iter()
            .enumerate()
            .map(|(i, (k, _))| (k, i))
            .collect();
        let vals = members
            .iter()
            .map(|&s| {
                values(&all[s].points)
                    .into_iter()
                    .map(|(pi, v)| (position[&key(&all[s].points[pi])], pi, v))
                    .collect()
            })
            .collect();
        let readings = members
            .iter()
            .map(|&s| {
                readings(&all[s].points)
                    .into_iter()
                    .map(|(pi, v)| (position[&key(&all[s].points[pi])], v))
                    .collect()
            })
            .collect();
        let places = members
            .iter()
            .map(|&s| {
                all[s]
                    .points
                    .iter()
                    .map(|p| {
                        (p.dirty != Some(true) && p.on_branch)
                            .then(|| position.get(&key(p)).copied())
                            .flatten()
                    })
                    .collect()
            })
            .collect();
        Axis {
            vals,
            readings,
            first,
            places,
        }
    }

    /// The machine's series: at each position where at least [`MIN_BENCHES`] benches have a
    /// value, the median of their values less each one's median.
    pub(super) fn shared(&self) -> Vec<(usize, f64)> {
        let mut at: Vec<Vec<f64>> = vec![Vec::new(); self.first.len()];
        // A bench with no value on this line (every run of it dirty, failed or off the line)
        // has no level of its own and adds nothing.
        for v in self.readings.iter().filter(|v| !v.is_empty()) {
            let own = median(&v.iter().map(|x| x.1).collect::<Vec<f64>>());
            for &(pos, x) in v {
                at[pos].push(x - own);
            }
        }
        at.into_iter()
            .enumerate()
            .filter(|(_, d)| d.len() >= MIN_BENCHES)
            .map(|(pos, d)| (pos, median(&d)))
            .collect()
    }

    /// The mean of `of` (the logarithm of the probe's time, or the load) over the runs at each
    /// position that recorded it.
    pub(super) fn recorded(
        &self,
        all: &[Series],
        members: &[usize],
        of: fn(&Point) -> Option<f64>,
    ) -> Vec<(usize, f64)> {
        let mut sum = vec![(0.0, 0usize); self.first.len()];
        for (m, &s) in members.iter().enumerate() {
            for (p, place) in all[s].points.iter().zip(&self.places[m]) {
                if let (Some(pos), Some(x)) = (place, of(p).filter(|x| x.is_finite())) {
                    sum[*pos].0 += x;
                    sum[*pos].1 += 1;
                }
            }
        }
        sum.into_iter()
            .enumerate()
            .filter(|(_, (_, n))| *n > 0)
            .map(|(pos, (s, n))| (pos, s / n as f64))
            .collect()
    }
}

/// The mean of the values of `series` at positions in `from..to`, and how many there are.
pub(super) fn mean_in(series: &[(usize, f64)], from: usize, to: usize) -> Option<f64> {
    let xs: Vec<f64> = series
        .iter()
        .filter(|(p, _)| (from..to).contains(p))
        .map(|x| x.1)
        .collect();
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// How many benches moved by `shift`'s sign from `lo..at` to `at..hi`, of those measured on
/// both sides.
pub(super) fn moved(
    axis: &Axis,
    (lo, at, hi): (usize, usize, usize),
    shift: f64,
) -> (usize, usize) {
    let mut out = (0, 0);
    for v in &axis.vals {
        let s: Vec<(usize, f64)> = v.iter().map(|x| (x.0, x.2)).collect();
        if let (Some(a), Some(b)) = (mean_in(&s, lo, at), mean_in(&s, at, hi)) {
            out.1 += 1;
            if (b - a) * shift > 0.0 {
                out.0 += 1;
            }
        }
    }
    out
}

/// The machine's level at each position: the mean of its series over the segment between its
/// changes `cuts` (those its benches saw) that holds the position.
pub(super) fn steps(shared: &[(usize, f64)], cuts: Vec<usize>) -> impl Fn(usize) -> f64 {
    let segment = move |pos: usize| cuts.iter().filter(|c| **c <= pos).count();
    let mut sums: Vec<(f64, usize)> = Vec::new();
    for &(pos, x) in shared {
        let k = segment(pos);
        if sums.len() <= k {
            sums.resize(k + 1, (0.0, 0));
        }
        sums[k].0 += x;
        sums[k].1 += 1;
    }
    move |pos: usize| {
        sums.get(segment(pos))
            .filter(|s| s.1 > 0)
            .map_or(0.0, |s| s.0 / s.1 as f64)
    }
}

/// One-sided sign test: the chance of at least `k` of `n` fair coins falling one way.
pub(super) fn sign_test(k: usize, n: usize) -> f64 {
    let mut c = 1.0f64;
    let mut tail = 0.0;
    for i in 0..=n {
        if i > 0 {
            c = c * (n - i + 1) as f64 / i as f64;
        }
        if i >= k {
            tail += c;
        }
    }
    tail / 2f64.powi(n as i32)
}
