//! Criterion-style batching: an operation too fast to time alone (a call takes nanoseconds,
//! a clock read tens of them) is repeated in a batch whose size is picked once so that one
//! sample takes at least [`SAMPLE_TARGET`]. A sample's value is the batch's time divided by
//! its size, so the clock's cost and resolution are spread over the whole batch.

use crate::runtime::Failure;
use std::time::Duration;

/// Least time one sample should take: clock overhead (< 100 ns) is then below 0.005 % of a
/// sample, far under the 50 ns per operation we must resolve.
pub const SAMPLE_TARGET: Duration = Duration::from_millis(2);

/// The batch size that makes one sample of `run` take about `target`, at most `max`.
///
/// `run(n)` does the operation `n` times and returns the time of the batch. Sizes double
/// from 1 until a batch takes a tenth of the target (so the per-operation estimate is no
/// longer dominated by the clock), then scale to the target.
pub fn calibrate(
    target: Duration,
    max: u64,
    mut run: impl FnMut(u64) -> Result<Duration, Failure>,
) -> Result<u64, Failure> {
    let max = max.max(1);
    let mut n = 1u64;
    loop {
        let d = run(n)?;
        if d >= target / 10 || n >= max {
            let per_op = (d.as_secs_f64() / n as f64).max(1e-12);
            let want = (target.as_secs_f64() / per_op).ceil();
            return Ok((want.min(max as f64) as u64).clamp(1, max));
        }
        n = n.saturating_mul(2).min(max);
    }
}

/// Nanoseconds per operation of a batch of `n`.
pub fn per_op_ns(d: Duration, n: u64) -> f64 {
    d.as_nanos() as f64 / n.max(1) as f64
}

/// Resident memory of this process, bytes (Linux `/proc/self/statm`).
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * page_size())
}

#[allow(unsafe_code)]
fn page_size() -> u64 {
    // SAFETY: sysconf only reads a configuration value.
    let n = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if n > 0 { n as u64 } else { 4096 }
}

/// Gives memory that malloc holds but does not use back to the system, so that resident
/// growth measured next is what the new instances take, not a reuse of freed memory.
#[allow(unsafe_code)]
pub fn trim_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free heap memory; it has no other effect.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake operation of exactly `ns` per op: the sizing arithmetic, without a clock.
    fn fake(ns: u64, calls: &mut Vec<u64>) -> impl FnMut(u64) -> Result<Duration, Failure> + '_ {
        move |n| {
            calls.push(n);
            Ok(Duration::from_nanos(n * ns))
        }
    }

    #[test]
    fn batch_fills_the_target() {
        let mut calls = Vec::new();
        let n = calibrate(SAMPLE_TARGET, u64::MAX, fake(37, &mut calls)).unwrap();
        assert_eq!(n, 2_000_000u64.div_ceil(37));
        // Doubled until a tenth of the target (200 µs = 5,406 ops): 1, 2, …, 8192.
        assert_eq!(calls.first(), Some(&1));
        assert_eq!(calls.last(), Some(&8192));
        assert!(per_op_ns(Duration::from_nanos(n * 37), n) - 37.0 < 1e-9);
    }

    #[test]
    fn slow_operations_run_alone_and_caps_hold() {
        let mut calls = Vec::new();
        assert_eq!(
            calibrate(SAMPLE_TARGET, 1000, fake(5_000_000, &mut calls)).unwrap(),
            1
        );
        assert_eq!(calls, vec![1]);
        let mut calls = Vec::new();
        assert_eq!(
            calibrate(SAMPLE_TARGET, 100, fake(10, &mut calls)).unwrap(),
            100
        );
        assert_eq!(*calls.last().unwrap(), 100);
    }

    #[test]
    fn failures_pass_through() {
        let r = calibrate(SAMPLE_TARGET, 10, |_| Err(Failure::Trap("x".into())));
        assert_eq!(r, Err(Failure::Trap("x".into())));
    }

    #[test]
    fn resident_memory_grows_when_touched() {
        let before = resident_bytes().unwrap();
        let v = std::hint::black_box(vec![1u8; 64 << 20]);
        let after = resident_bytes().unwrap();
        assert!(after >= before + (60 << 20), "{before} -> {after}");
        drop(v);
    }
}
