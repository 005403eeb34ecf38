//! Live CPU and memory sampling of a worker's process tree, and the CPU time a process
//! tree has used.
//!
//! CPU time of a tree is counted so that it adds up: each live process contributes its own
//! time (every thread, read to the nanosecond from its CPU clock rather than in 10 ms
//! ticks) plus the time of the children it has reaped (`cutime` + `cstime`). When a child
//! is reaped its time moves into its parent's count, so the difference between two
//! readings is what the tree used in between — a child that ends between readings is
//! neither lost (CGI-style servers run a process per request, most of them between two
//! samples) nor counted twice (live before, then again in its parent's reaped time).

mod busy;
mod cgroup;
mod orphans;
mod probe;

pub use busy::{LoadMeter, allowed_cpus, unreadable};
pub use cgroup::{CpuGroup, capacity};
pub use orphans::{adopt_orphans, adopts_orphans, children, reap, reap_one};
pub use probe::{HostProbe, probe};
use serde::{Deserialize, Serialize};
use std::time::Instant;
use sysinfo::{Pid, ProcessRefreshKind, ProcessesToUpdate, System};

/// One reading of a process tree.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    /// CPU use of the whole tree since the previous reading, percent of one core.
    pub cpu_pct: f32,
    /// Resident memory of the whole tree, bytes.
    pub rss_bytes: u64,
}

/// Samples one process and its descendants. Only the tree is refreshed, not every process
/// on the machine, so sampling stays cheap at 100 ms intervals.
pub struct TreeSampler {
    root: u32,
    sys: System,
    /// The tree's CPU time at the previous reading, ns ([`cpu_of`]).
    cpu_ns: u64,
    at: Instant,
    /// The most CPU the tree can use per unit of wall time.
    cores: f64,
}

impl TreeSampler {
    /// Starts sampling the tree rooted at `root`.
    pub fn new(root: u32) -> TreeSampler {
        // The clocks first, then the time, as in every reading.
        let cpu_ns = tree_cpu_ns(root);
        TreeSampler {
            root,
            sys: System::new(),
            cpu_ns,
            at: Instant::now(),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()) as f64,
        }
    }

    /// Reads CPU and RSS of the tree now. CPU is the tree's CPU time since the previous
    /// reading over the wall time between them: both windows end at the same instant (the
    /// clocks are read first, then the time), and what a reading would show beyond the
    /// machine's cores (tick rounding of reaped children) is carried into the next one, so
    /// a tree never shows more than the cores and its readings still add up. A process
    /// born in between counts whole; one that left the tree other than by being reaped
    /// inside it (reparented) takes its time along.
    pub fn sample(&mut self) -> Reading {
        let tree = descendants(self.root);
        let cpu = cpu_of(&tree);
        let now = Instant::now();
        let wall_ns = now.duration_since(self.at).as_nanos() as f64;
        let used = take(&mut self.cpu_ns, cpu, (wall_ns * self.cores) as u64);
        self.at = now;

        let pids: Vec<Pid> = tree.into_iter().map(Pid::from_u32).collect();
        self.sys.refresh_processes_specifics(
            ProcessesToUpdate::Some(&pids),
            true,
            ProcessRefreshKind::nothing().with_memory(),
        );
        let rss_bytes = pids
            .iter()
            .filter_map(|p| self.sys.process(*p))
            .map(|p| p.memory())
            .sum();
        let cpu_pct = if wall_ns > 0.0 {
            (used as f64 / wall_ns * 100.0) as f32
        } else {
            0.0
        };
        Reading { cpu_pct, rss_bytes }
    }
}

/// The CPU time to report for a window from the tree's count `cpu` and the count already
/// reported, `reported`, which it advances. Reaped children's time comes in 10 ms ticks,
/// so a short window can be handed a few ms that belong to the previous one: more than
/// `cap` (the cores × the window) is carried into the next window, so the reports still
/// add up. A count that went down (a process left the tree with its time) starts over.
fn take(reported: &mut u64, cpu: u64, cap: u64) -> u64 {
    if cpu < *reported {
        *reported = cpu;
        return 0;
    }
    let used = (cpu - *reported).min(cap);
    *reported += used;
    used
}

/// CPU time the tree rooted at `root` has used so far, ns: see the module's description.
/// Differences of two readings are the tree's CPU time in between.
pub fn tree_cpu_ns(root: u32) -> u64 {
    cpu_of(&descendants(root))
}

/// Sum over `pids` of each process's own CPU time and its reaped children's, ns.
fn cpu_of(pids: &[u32]) -> u64 {
    pids.iter().map(|p| process_cpu_ns(*p)).sum()
}

/// One process's own CPU time (every thread, ended ones too) plus that of the children it
/// reaped (and theirs), ns; 0 when it is gone.
fn process_cpu_ns(pid: u32) -> u64 {
    let Some(t) = stat_times(pid) else {
        return 0;
    };
    let tick = 1e9 / clock_ticks_per_sec();
    let own = cpu_clock_ns(pid).unwrap_or(((t.utime + t.stime) as f64 * tick) as u64);
    own + ((t.cutime + t.cstime) as f64 * tick) as u64
}

/// A process's own CPU time read from its CPU-time clock, ns: exact, where /proc gives
/// clock ticks (10 ms, so a 100 ms sample of a few busy processes could be off by tens of
/// percent). `None` when the process is gone or the clock cannot be read (a zombie).
#[allow(unsafe_code)]
fn cpu_clock_ns(pid: u32) -> Option<u64> {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: clock_getcpuclockid only writes a clock id into the local it is given.
    if unsafe { libc::clock_getcpuclockid(pid as libc::pid_t, &mut clock) } != 0 {
        return None;
    }
    wasmeter_http::cpu::clock_ns(clock)
}

/// CPU times of a process from /proc/<pid>/stat, clock ticks.
struct StatTimes {
    utime: u64,
    stime: u64,
    cutime: u64,
    cstime: u64,
}

fn stat_times(pid: u32) -> Option<StatTimes> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses; fields are counted after its
    // closing parenthesis: rest[0] is field 3 (state), utime is field 14, i.e. rest[11].
    let (_, rest) = stat.rsplit_once(')')?;
    let f: Vec<u64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0))
        .collect();
    let get = |i: usize| f.get(i).copied().unwrap_or(0);
    Some(StatTimes {
        utime: get(11),
        stime: get(12),
        cutime: get(13),
        cstime: get(14),
    })
}

#[allow(unsafe_code)]
fn clock_ticks_per_sec() -> f64 {
    // SAFETY: sysconf only reads a system constant.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 { t as f64 } else { 100.0 }
}

/// The process and all its descendants, from /proc's children lists (each thread keeps
/// the children it started, so every thread's list is read; threads are not processes
/// and are not listed).
pub fn descendants(root: u32) -> Vec<u32> {
    let mut out = vec![root];
    let mut i = 0;
    while i < out.len() {
        let pid = out[i];
        if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
            for t in tasks.flatten() {
                if let Ok(s) = std::fs::read_to_string(t.path().join("children")) {
                    out.extend(s.split_whitespace().filter_map(|x| x.parse::<u32>().ok()));
                }
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_never_shows_more_than_the_cores_and_the_excess_comes_next() {
        let mut reported = 1_000;
        // 30 ms beyond a cap of 200 ms: 200 now, the 30 with the next window.
        assert_eq!(take(&mut reported, 1_230, 200), 200);
        assert_eq!(take(&mut reported, 1_230, 200), 30);
        assert_eq!(take(&mut reported, 1_300, 200), 70);
        assert_eq!(reported, 1_300);
        // A process left the tree with its time: nothing, and counting starts over.
        assert_eq!(take(&mut reported, 900, 200), 0);
        assert_eq!(take(&mut reported, 950, 200), 50);
    }

    /// CPU seconds a process has used, from the kernel (clock ticks of 1/100 s).
    fn cpu_secs(pid: u32) -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        let after_name = &stat[stat.rfind(')').unwrap() + 2..];
        let f: Vec<f64> = after_name
            .split_whitespace()
            .map(|x| x.parse().unwrap_or(0.0))
            .collect();
        (f[11] + f[12]) / 100.0
    }

    #[test]
    fn agrees_with_the_kernel_on_a_busy_child() {
        let mut child = std::process::Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .spawn()
            .unwrap();
        let mut s = TreeSampler::new(child.id());
        let (c0, t0) = (cpu_secs(child.id()), Instant::now());
        std::thread::sleep(std::time::Duration::from_millis(600));
        let r = s.sample();
        let (c1, t1) = (cpu_secs(child.id()), Instant::now());
        let tree = descendants(std::process::id());
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(tree.contains(&child.id()), "{tree:?}");
        let kernel_pct = (c1 - c0) / (t1 - t0).as_secs_f64() * 100.0;
        assert!(r.cpu_pct > 0.0, "a busy child shows no CPU");
        assert!(
            (f64::from(r.cpu_pct) - kernel_pct).abs() < 10.0,
            "sampler says {} %, kernel says {kernel_pct:.1} %",
            r.cpu_pct
        );
        assert!(r.rss_bytes > 100 << 10, "rss {}", r.rss_bytes);
    }

    #[test]
    fn the_cpu_clock_of_another_process_is_readable_and_agrees_with_proc() {
        let mut child = std::process::Command::new("sh")
            .args([
                "-c",
                "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; sleep 5",
            ])
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(400));
        let clock = cpu_clock_ns(child.id());
        let ticks = cpu_secs(child.id());
        child.kill().unwrap();
        child.wait().unwrap();
        let clock = clock.expect("clock_gettime on a child's CPU clock") as f64 / 1e9;
        assert!(clock > 0.0);
        // /proc truncates to whole ticks.
        assert!(
            (clock - ticks).abs() < 0.03,
            "clock {clock} s, /proc {ticks} s"
        );
    }
}
