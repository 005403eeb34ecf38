//! Sampling where an interpreter says it is. An interpreter's samples land in its shared
//! handlers, which belong to no guest function; an interpreter that keeps a mark of the
//! guest function it runs (wasm3's `op_Entry`, built with `WASMETER_MARK_FUNCTION`, sets it
//! on entering a function and puts the caller's back on leaving) can be read by a second
//! thread at the session's rate instead. Each reading puts the interpreter's thread's CPU
//! time since the last reading on the function marked then: its share of that time is its
//! share of the run, whatever its instructions cost on that engine, which a count of
//! instructions cannot know (docs/profiles.md). CPU time, as the samples are taken: the
//! time a busy host keeps the thread waiting is no function's.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// A second thread reading an interpreter's mark for the open session.
pub struct Marking {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<HashMap<usize, u64>>,
}

/// Starts reading `mark` (0 while no guest function runs), which this thread keeps, every
/// period of the session open on this thread; `None` when none is open.
pub fn start(mark: impl Fn() -> usize + Send + 'static) -> Option<Marking> {
    let period = super::session_period()?;
    let clock = ThreadClock::this_thread()?;
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = Arc::clone(&stop);
    let thread = std::thread::Builder::new()
        .name("wasmeter-marks".into())
        .spawn(move || tick(&mark, &clock, period, &stopped))
        .ok()?;
    Some(Marking { stop, thread })
}

/// Reads the mark every `period` until `stop`: each mark read with the CPU nanoseconds of
/// the marking thread put on it.
fn tick(
    mark: &dyn Fn() -> usize,
    clock: &ThreadClock,
    period: Duration,
    stop: &AtomicBool,
) -> HashMap<usize, u64> {
    let mut ticks = HashMap::new();
    let mut last = clock.now_ns();
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(period);
        let at = mark();
        let now = clock.now_ns();
        if at != 0 && now > last {
            *ticks.entry(at).or_insert(0) += now - last;
        }
        last = now;
    }
    ticks
}

/// The CPU clock of one thread, readable from another.
struct ThreadClock(libc::clockid_t);

#[allow(unsafe_code)]
impl ThreadClock {
    /// This thread's CPU clock.
    fn this_thread() -> Option<ThreadClock> {
        let mut id: libc::clockid_t = 0;
        // SAFETY: pthread_self is this live thread; `id` is a valid out-pointer.
        let r = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut id) };
        (r == 0).then_some(ThreadClock(id))
    }

    /// The thread's CPU time so far (0 once it has ended).
    fn now_ns(&self) -> u64 {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid out-pointer; an invalid clock only returns an error.
        if unsafe { libc::clock_gettime(self.0, &mut ts) } != 0 {
            return 0;
        }
        ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
    }
}

impl Marking {
    /// Stops reading and keeps the CPU time each mark had in the session, each named by
    /// `index` (the function's index in the module's function space; a mark it cannot name
    /// is dropped). Call while the marks still point at live functions.
    pub fn stop(self, index: impl Fn(usize) -> Option<u32>) {
        self.stop.store(true, Ordering::Relaxed);
        let Ok(ticks) = self.thread.join() else {
            return;
        };
        let mut by_index: BTreeMap<u32, u64> = BTreeMap::new();
        for (mark, n) in ticks {
            if let Some(i) = index(mark) {
                *by_index.entry(i).or_insert(0) += n;
            }
        }
        super::add_marks(by_index);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// Spins on this thread for `ms` milliseconds of wall time.
    fn spin(ms: u64) {
        let until = std::time::Instant::now() + Duration::from_millis(ms);
        let mut x = 0u64;
        while std::time::Instant::now() < until {
            x = std::hint::black_box(x.wrapping_add(1));
        }
    }

    /// A mark that moves from one value to another has the CPU time this thread spent
    /// while each was held put on it, a mark of 0 has none, and time this thread spends
    /// asleep is no mark's.
    #[test]
    fn marks_get_the_cpu_time_spent_under_them() {
        super::super::open_session(Duration::from_micros(200));
        let mark = Arc::new(AtomicUsize::new(0));
        let read = Arc::clone(&mark);
        let marking = start(move || read.load(Ordering::Relaxed)).expect("a session is open");
        spin(20);
        mark.store(16, Ordering::Relaxed);
        spin(120);
        mark.store(24, Ordering::Relaxed);
        spin(40);
        std::thread::sleep(Duration::from_millis(200));
        mark.store(32, Ordering::Relaxed);
        spin(30);
        marking.stop(|m| (m != 32).then_some(m as u32 / 8));
        let closed = super::super::close_session().unwrap();
        let ns = &closed.marks;
        assert_eq!(ns.keys().copied().collect::<Vec<_>>(), vec![2, 3], "{ns:?}");
        // At most the CPU time spun under each (a tick's reading after a change may give
        // a little of one to the next); never none. The 200 ms asleep under 24 add nothing.
        assert!(ns[&2] > 0 && ns[&2] <= 125_000_000, "{ns:?}");
        assert!(ns[&3] > 0 && ns[&3] <= 60_000_000, "{ns:?}");
    }

    /// Without an open session nothing is started.
    #[test]
    fn no_session_no_marking() {
        assert!(start(|| 1).is_none());
    }
}
