//! CPU-time clocks: how busy a load generator thread was (wall time would blame the
//! generator for a neighbour's work), and the per-process clocks core's sampler reads.

/// CPU time of the calling thread, ns; `None` when the clock cannot be read.
pub fn thread_ns() -> Option<u64> {
    clock_ns(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// The time on a CPU-time clock (a thread's, a process's from `clock_getcpuclockid`), ns;
/// `None` when it cannot be read (a process that is gone).
#[allow(unsafe_code)]
pub fn clock_ns(clock: libc::clockid_t) -> Option<u64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the time into the local it is given.
    if unsafe { libc::clock_gettime(clock, &mut ts) } != 0 {
        return None;
    }
    Some(ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
}
