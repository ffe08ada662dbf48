//! Valgrind's client requests that instruction counts use: switching callgrind's collection on
//! and off around each work unit, writing its counts out after each round, and asking whether
//! the process runs under Valgrind at all.
//!
//! A client request is Valgrind's documented "special instruction sequence" (`valgrind.h`,
//! `VALGRIND_DO_CLIENT_REQUEST_EXPR`): four rotates of one register whose amounts add up to
//! twice its width, so that the register ends as it began, then an exchange of a register with
//! itself. On a real CPU it changes nothing and costs a few cycles; Valgrind's translator
//! recognises it and hands the request (an array of six words: the request's code and its
//! arguments) to the tool, whose answer lands in a register that otherwise keeps the default.
//! Written here in a few lines of inline assembly for x86-64 and AArch64, as `valgrind.h` has
//! it, rather than through a crate that compiles `valgrind.h` with a C compiler at build time:
//! that would make every user's bench build need Valgrind's headers (and a request built
//! without them panics at run time). On other architectures every request is a no-op that
//! answers its default, and [`SUPPORTED`] is false.
//!
//! None of this is on the timing path: measured units never reach a request; only the
//! counting mode of [`Recorder`](super::Recorder) and [`Bencher`](super::Bencher) does, in a
//! process started under callgrind.

/// Whether client requests exist on this architecture (x86-64 and AArch64).
pub(crate) const SUPPORTED: bool = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));

/// `VG_USERREQ__RUNNING_ON_VALGRIND` (`valgrind.h`).
const RUNNING_ON_VALGRIND: usize = 0x1001;

/// The first of callgrind's requests: `VG_USERREQ_TOOL_BASE('C', 'T')` (`callgrind.h`), which
/// is `DUMP_STATS`, then `ZERO_STATS`, `TOGGLE_COLLECT`, `DUMP_STATS_AT`, in that order.
const CALLGRIND: usize = ((b'C' as usize) << 24) | ((b'T' as usize) << 16);
const DUMP_STATS: usize = CALLGRIND;
const TOGGLE_COLLECT: usize = CALLGRIND + 2;
const DUMP_STATS_AT: usize = CALLGRIND + 3;

/// Sends request `code` with argument `arg` to Valgrind; `default` when not under Valgrind.
#[inline(always)]
fn request(code: usize, arg: usize, default: usize) -> usize {
    let args: [usize; 6] = [code, arg, 0, 0, 0, 0];
    send(&args, default)
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn send(args: &[usize; 6], default: usize) -> usize {
    let mut result = default;
    // SAFETY: the rotates add up to 128 bits and leave `rdi` as it was, `xchg rbx, rbx`
    // changes nothing, and the flags they touch are not declared preserved. Valgrind reads
    // the six words at `rax` (borrowed for the call) and writes only `rdx`.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") args.as_ptr(),
            inout("rdx") result,
            options(nostack),
        );
    }
    result
}

#[cfg(target_arch = "aarch64")]
#[inline(always)]
fn send(args: &[usize; 6], default: usize) -> usize {
    let mut result = default;
    // SAFETY: the rotates add up to 128 bits and leave `x12` as it was, `orr x10, x10, x10`
    // changes nothing. Valgrind reads the six words at `x4` (borrowed for the call) and
    // writes only `x3`.
    unsafe {
        core::arch::asm!(
            "ror x12, x12, #3",
            "ror x12, x12, #13",
            "ror x12, x12, #51",
            "ror x12, x12, #61",
            "orr x10, x10, x10",
            in("x4") args.as_ptr(),
            inout("x3") result,
            options(nostack),
        );
    }
    result
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
#[inline(always)]
fn send(_: &[usize; 6], default: usize) -> usize {
    default
}

/// Whether this process runs under Valgrind (any tool).
pub(crate) fn running_on_valgrind() -> bool {
    request(RUNNING_ON_VALGRIND, 0, 0) > 0
}

/// Switches callgrind's collection of events on this thread on if it was off, off if it was on
/// (`CALLGRIND_TOGGLE_COLLECT`). Never inlined: each unit's two calls then cost the same
/// instructions whatever the unit, which the count of an empty unit measures and takes off.
#[inline(never)]
pub(crate) fn toggle_collect() {
    request(TOGGLE_COLLECT, 0, 0);
}

/// Writes the counts since the last dump to a new file whose trigger line has no label, which
/// the reader skips, and sets them to zero (`CALLGRIND_DUMP_STATS`). This, not
/// `CALLGRIND_ZERO_STATS`, is how counts are set to zero: callgrind's `ZERO_STATS` zeroes the
/// instructions but leaves the numbers of calls between functions as they were (its
/// `zero_bbcc` resets a call's cost, not its counter), so the next dump's calls would hold the
/// earlier ones; a dump sets both to zero for the code it writes. Callgrind counts calls even
/// while collection is off, and writes (so zeroes) only code that collected some cost: calls
/// made outside collection by code that never collects are never written, and those made by
/// code that collects later are written with its next dump.
pub(crate) fn dump_stats() {
    request(DUMP_STATS, 0, 0);
}

/// Writes the counts since the last dump to a new file, its trigger line naming `label`, and
/// sets them to zero (`CALLGRIND_DUMP_STATS_AT`).
pub(crate) fn dump_stats_at(label: &std::ffi::CStr) {
    request(DUMP_STATS_AT, label.as_ptr() as usize, 0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_requests_codes_are_valgrinds() {
        // callgrind.h: VG_USERREQ_TOOL_BASE('C','T') = ('C' & 0xff) << 24 | ('T' & 0xff) << 16.
        assert_eq!(CALLGRIND, 0x4354_0000);
        assert_eq!(DUMP_STATS, 0x4354_0000);
        assert_eq!(TOGGLE_COLLECT, 0x4354_0002);
        assert_eq!(DUMP_STATS_AT, 0x4354_0003);
    }

    #[test]
    fn natively_a_request_changes_nothing_and_answers_its_default() {
        assert!(!running_on_valgrind());
        assert_eq!(request(RUNNING_ON_VALGRIND, 0, 7), 7);
        toggle_collect();
        dump_stats();
        dump_stats_at(c"pilot test");
    }
}
