//! The process's memory round by round, and Auto-pilot's leak check: memory that grows round
//! after round while the bench runs.

use std::sync::atomic::{AtomicI64, Ordering};

use super::{Kind, check, figure};
use pilot_format::CheckDoc;

/// Bytes pilot itself keeps allocated for the sessions under way (their stable readings),
/// which the leak check must not blame on the bench. Sessions add what they grow by and take
/// it back when they end.
static KEPT: AtomicI64 = AtomicI64::new(0);

/// Adds `delta` bytes to what pilot keeps (negative: gives them back).
pub(crate) fn keep(delta: i64) {
    KEPT.fetch_add(delta, Ordering::Relaxed);
}

/// What the process holds after a round.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Memory {
    /// Resident memory, bytes (`/proc/self/statm`).
    pub(crate) resident: Option<u64>,
    /// Memory the bench holds, bytes: the allocator's bytes in use (glibc's `mallinfo2`), or
    /// the resident memory where that cannot be read, less what pilot keeps.
    pub(crate) held: Option<f64>,
}

/// Reads the process's memory (see [`Memory`]): two small reads between rounds, never on the
/// timing path.
pub(crate) fn read() -> Memory {
    let resident = resident_bytes();
    let held = heap_in_use()
        .or(resident)
        .map(|b| b as f64 - KEPT.load(Ordering::Relaxed) as f64);
    Memory { resident, held }
}

/// The process's resident memory in bytes (`/proc/self/statm`), `None` where it cannot be read
/// (not Linux).
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf only reads a constant of the system.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Some(pages * u64::try_from(page).ok()?)
}

/// Bytes the allocator has handed out and not got back (`uordblks + hblkhd` of glibc's
/// `mallinfo2`): unlike the resident size, memory freed after pilot's own analysis does not
/// count. `mallinfo2` is looked up at run time (glibc 2.33 and later), so the binary still
/// links against older glibc; `None` there, under another C library, or when the bench
/// installs its own global allocator (which glibc does not see).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn heap_in_use() -> Option<u64> {
    use std::sync::OnceLock;
    type Mallinfo2 = unsafe extern "C" fn() -> libc::mallinfo2;
    static FUNCTION: OnceLock<Option<Mallinfo2>> = OnceLock::new();
    let f = (*FUNCTION.get_or_init(|| {
        // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only looks a symbol up.
        let symbol = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"mallinfo2".as_ptr()) };
        // SAFETY: glibc's `mallinfo2` has exactly this signature.
        (!symbol.is_null())
            .then(|| unsafe { std::mem::transmute::<*mut libc::c_void, Mallinfo2>(symbol) })
    }))?;
    // SAFETY: mallinfo2 takes no argument and only reads the allocator's statistics.
    let info = unsafe { f() };
    let in_use = (info.uordblks as u64).saturating_add(info.hblkhd as u64);
    // A program whose allocations glibc never saw (another global allocator) shows ~0.
    (in_use > 0).then_some(in_use)
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn heap_in_use() -> Option<u64> {
    None
}

/// The memory a round's call kept: what the bench held just after the call less what it held
/// just before, less `pilot_bytes` that pilot made for the call and that outlive it (the
/// round's readings). Pilot's own growth between calls (its analysis of the rounds, the records
/// it keeps, the allocator settling under them) is not in it: a leak is memory kept from call
/// to call. `None` where the memory cannot be read.
pub(crate) fn kept_by_call(before: &Memory, after: &Memory, pilot_bytes: f64) -> Option<f64> {
    Some(after.held? - before.held? - pilot_bytes)
}

/// Least rounds with a memory reading before a leak can be told.
const MIN_ROUNDS: usize = 8;
/// Least growth per round a leak is called at: two pages (smaller growth is the allocator's
/// own rounding).
const MIN_BYTES_PER_ROUND: f64 = 8192.0;
/// Least share of round-to-round steps in which memory grew by at least a quarter of
/// [`MIN_BYTES_PER_ROUND`]: a leak grows every round by about the same amount, while a cache
/// or a buffer that reaches its size grows in steps and then stays, and the allocator settles
/// in a few jumps as the rounds lengthen and then by a few bytes a round: in three quarters of
/// the steps, only a leak grows.
const MIN_GROWING_SHARE: f64 = 0.75;

/// The leak check over the memory the bench's calls kept, accumulated round by round (`rss`,
/// bytes, in round order; see [`kept_by_call`]): fires when, over the last two thirds of the
/// rounds
/// (the first third is where buffers reach their size), memory grew by at least 2 KiB in at
/// least three quarters of the steps, the fitted growth is at least 8 KiB per round, and its slope is significant
/// (p < 0.001, OLS over the round index). Time: O(rounds).
pub(crate) fn leak(rss: &[f64]) -> Option<CheckDoc> {
    if rss.len() < MIN_ROUNDS {
        return None;
    }
    let tail = &rss[rss.len() / 3..];
    let steps = tail.len() - 1;
    let growing = tail
        .windows(2)
        .filter(|w| w[1] - w[0] >= MIN_BYTES_PER_ROUND / 4.0)
        .count();
    if (growing as f64) < MIN_GROWING_SHARE * steps as f64 {
        return None;
    }
    let t = pilot_stats::trend(tail, 0.95).ok()?;
    if t.slope < MIN_BYTES_PER_ROUND || t.p >= 0.001 {
        return None;
    }
    let total = t.slope * (rss.len() - 1) as f64;
    Some(check(
        Kind::Leak,
        format!(
            "memory grew by about {} per round ({} over {} rounds, {}): the bench keeps \
             memory from round to round (a leak, or a cache that never stops growing); results \
             drift as the heap grows",
            crate::fmt::format_bytes(t.slope),
            crate::fmt::format_bytes(total),
            rss.len(),
            crate::fmt::p_clause(t.p)
        ),
        serde_json::json!({
            "bytes_per_round": figure(t.slope),
            "bytes_total": figure(total),
            "rounds": rss.len(),
            "growing_rounds": growing,
            "p": figure(t.p),
        }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steady_growth_is_a_leak_and_a_plateau_is_not() {
        // 64 KiB more every round on top of 20 MiB, with a page of jitter.
        let leaking: Vec<f64> = (0..20)
            .map(|i| (20 << 20) as f64 + 65536.0 * i as f64 + 4096.0 * (i % 2) as f64)
            .collect();
        let c = leak(&leaking).expect("a leak");
        assert_eq!(c.kind, "leak");
        let per_round = c.figures["bytes_per_round"].as_f64().unwrap();
        assert!((per_round - 65536.0).abs() < 4096.0, "{per_round}");
        // Buffers that grow to their size in the first rounds and then stay.
        let plateau: Vec<f64> = (0..20)
            .map(|i| (20 << 20) as f64 + 1e6 * (i.min(5) as f64))
            .collect();
        assert!(leak(&plateau).is_none());
        // Growth of a page now and then: the allocator, not a leak.
        let pages: Vec<f64> = (0..20)
            .map(|i| (20 << 20) as f64 + 4096.0 * (i / 3) as f64)
            .collect();
        assert!(leak(&pages).is_none());
        assert!(leak(&leaking[..7]).is_none());
        // A process of 15 rounds as measured (held bytes after each round): the allocator
        // settles in a few jumps as the rounds lengthen, then grows by bytes a round. A slope
        // of 9.7 KiB a round, p = 2e-4, and every step up: no leak.
        let settling = [
            637_504.0, 637_696.0, 637_920.0, 638_272.0, 638_880.0, 640_368.0, 643_584.0, 645_728.0,
            650_752.0, 655_504.0, 656_760.0, 710_880.0, 712_592.0, 712_656.0, 712_784.0,
        ];
        assert!(leak(&settling).is_none());
    }

    /// What the leak check is given for rounds whose calls kept `kept[k]` bytes each, while
    /// pilot's own bytes held between calls are `between[k]` after round `k`'s analysis and
    /// each round's readings take `readings` bytes: the check's series as the session builds
    /// it from the reads just before and just after each call.
    fn series(between: &[f64], kept: &[f64], readings: f64) -> Vec<f64> {
        let held = |h: f64| Memory {
            resident: None,
            held: Some(h),
        };
        let mut so_far = 0.0;
        let mut bench = 0.0;
        let mut out = Vec::new();
        for (k, pilot) in between.iter().enumerate() {
            let before = held(pilot + bench);
            bench += kept[k];
            let after = held(pilot + bench + readings);
            so_far += kept_by_call(&before, &after, readings).unwrap();
            out.push(so_far);
        }
        out
    }

    #[test]
    fn pilots_own_growth_between_calls_is_no_leak_of_the_bench() {
        // A CPU-only bench in a process of 12 rounds, as measured: the memory held after each
        // round grew as pilot's records of the lengthening rounds grew and the allocator
        // settled under them (+2.5 KiB a round at the end, a 32 KiB step), and the check,
        // given that, called it a leak. The bench's calls kept nothing.
        let after_rounds = [
            770_064.0, 770_256.0, 770_480.0, 770_832.0, 771_440.0, 772_928.0, 780_496.0, 782_904.0,
            786_288.0, 818_976.0, 821_568.0, 824_160.0,
        ];
        assert!(leak(&after_rounds).is_some());
        let cpu_only = series(&after_rounds, &[0.0; 12], 80_000.0);
        assert!(cpu_only.iter().all(|&x| x == 0.0), "{cpu_only:?}");
        assert!(leak(&cpu_only).is_none());
        // The fixture's `leak` bench keeps one more 64 KiB block every call: still a leak,
        // whatever pilot does between the calls.
        let leaking = series(&after_rounds, &[65_536.0; 12], 80_000.0);
        let c = leak(&leaking).expect("a leak");
        let per_round = c.figures["bytes_per_round"].as_f64().unwrap();
        assert!((per_round - 65_536.0).abs() < 64.0, "{per_round}");
        // A bench whose first calls fill a cache it then keeps (lazy statics, buffers reaching
        // their size): no leak.
        let mut filling = [0.0; 12];
        filling[..3].copy_from_slice(&[300_000.0, 120_000.0, 40_000.0]);
        assert!(leak(&series(&after_rounds, &filling, 80_000.0)).is_none());
    }

    #[test]
    fn the_heap_in_use_follows_an_allocation() {
        if !cfg!(all(target_os = "linux", target_env = "gnu")) {
            return;
        }
        let rss = resident_bytes().expect("statm");
        assert!(rss > 100_000, "{rss}");
        // Tests on other threads allocate and free too: one of a few tries sees 8 MiB alone.
        let seen: Vec<f64> = (0..5)
            .map(|_| {
                let before = heap_in_use().expect("mallinfo2 on glibc") as f64;
                let block = std::hint::black_box(vec![1u8; 8 << 20]);
                let during = heap_in_use().unwrap() as f64;
                drop(block);
                during - before
            })
            .collect();
        assert!(
            seen.iter().any(|d| (d - 8_388_608.0).abs() < 1e6),
            "{seen:?}"
        );
    }
}
