//! Announced benches measured together rather than as they come: the members of the group open
//! under `--compare-groups`, and the comparisons `--compare-across` pairs, each interleaved by
//! processes and ranked.

use super::State;
use crate::runner::registry::Bench;

impl State {
    /// Measures the open group's members, if any: interleaved by processes, then ranked.
    pub(super) fn flush_group(&mut self) {
        let Some((_, members)) = self.group.take() else {
            return;
        };
        if members.is_empty() {
            return;
        }
        let refs: Vec<&Bench> = members.iter().collect();
        let run = self.run();
        if run.interleaved_group(&refs).is_break() {
            run.interrupted();
            std::process::exit(i32::from(pilot_format::Exit::Interrupted.code()));
        }
        self.stopped = run.failed > 0 && self.args.fail_fast;
        self.benches.extend(members);
    }

    /// Measures the benches `--compare-across` paired: each comparison's members interleaved
    /// by processes and ranked, in the order of their first member. A bench without a partner
    /// is measured alone (by processes too: its closure is gone), and said to be.
    pub(super) fn measure_deferred(&mut self) {
        let deferred = std::mem::take(&mut self.deferred);
        if deferred.is_empty() {
            return;
        }
        let mut benches = std::mem::take(&mut self.benches);
        let mut comparisons: Vec<Vec<usize>> = Vec::new();
        for &i in &deferred {
            let key = &benches[i].group;
            match comparisons.iter_mut().find(|c| &benches[c[0]].group == key) {
                Some(c) => c.push(i),
                None => comparisons.push(vec![i]),
            }
        }
        let pattern = self.args.compare_across.as_deref().unwrap_or_default();
        for c in &comparisons {
            if let [alone] = c[..] {
                crate::outln!(
                    "`{}` has no partner under --compare-across `{}` (no other bench's id is \
                     the same once its matches are set aside): measured alone",
                    crate::fmt::terminal(&benches[alone].name),
                    crate::fmt::terminal(pattern)
                );
                benches[alone].group = None;
            }
        }
        for c in &comparisons {
            if self.stopped {
                break;
            }
            let members: Vec<&Bench> = c.iter().map(|&i| &benches[i]).collect();
            let run = self.run();
            if run.interleaved_group(&members).is_break() {
                run.interrupted();
                std::process::exit(i32::from(pilot_format::Exit::Interrupted.code()));
            }
            self.stopped = run.failed > 0 && self.args.fail_fast;
        }
        self.benches = benches;
    }
}
