//! How much of the machine other processes took while a cell ran. On a shared machine that
//! load, not wasmeter's method, decides whether two runs can be compared (an A/A diff on a
//! 2-core VM where builds took 1.6 cores gave a false verdict on one row in five): each
//! invocation records it, and a diff withholds its verdicts from a busy run.

use super::cgroup::CpuGroup;
use std::time::Instant;

/// A reading of the machine's busy CPU time and this process tree's own, to tell later how
/// much CPU other processes used in between.
#[derive(Debug, Clone)]
pub struct LoadMeter {
    machine_ns: u64,
    own_ns: u64,
    at: Instant,
    /// The CPU cgroup, its throttled time now, and the cores' worth it may use.
    group: Option<(CpuGroup, u64, f64)>,
}

impl LoadMeter {
    /// Reads both clocks now; `None` where the machine's CPU time is not readable (no
    /// /proc/stat).
    pub fn start() -> Option<LoadMeter> {
        let group = CpuGroup::find().and_then(|g| {
            let throttled = g.throttled_ns()?;
            let capacity =
                super::cgroup::capacity(allowed_cpus().map_or(1, |c| c.len()), g.quota());
            Some((g, throttled, capacity))
        });
        Some(LoadMeter {
            machine_ns: machine_busy_ns()?,
            own_ns: own_ns(),
            at: Instant::now(),
            group,
        })
    }

    /// Cores' worth of CPU that processes other than this one and the children it has
    /// reaped used since [`LoadMeter::start`]. Children still running count as other until
    /// reaped, so read this after the cell's worker has ended. /proc/stat counts in clock
    /// ticks (10 ms a core), so a short window can come out slightly below 0 or above
    /// the truth; a run's load is the mean over all its invocations, weighted by their
    /// wall time.
    pub fn other_cores(&self) -> Option<f64> {
        let machine = machine_busy_ns()?;
        let wall = self.at.elapsed().as_nanos() as f64;
        if wall <= 0.0 {
            return None;
        }
        let busy = machine.saturating_sub(self.machine_ns) as f64;
        let own = own_ns().saturating_sub(self.own_ns) as f64;
        // Time the cgroup stood throttled at its quota: nothing of it ran, as if other
        // processes had held all the cores it may use.
        let throttled = self.group.as_ref().map_or(0.0, |(g, before, capacity)| {
            let now = g.throttled_ns().unwrap_or(*before);
            now.saturating_sub(*before) as f64 / wall * capacity
        });
        Some((busy - own) / wall + throttled)
    }
}

/// Why the load of other processes cannot be measured here, if it cannot: the busy rule
/// then has nothing to judge by, and a diff says so and withholds its verdicts.
pub fn unreadable() -> Option<String> {
    match std::fs::read_to_string("/proc/stat") {
        Err(e) => Some(format!("/proc/stat cannot be read ({e})")),
        Ok(stat) if parse_busy_ticks(&stat, None).is_none() => {
            Some("/proc/stat has no cpu line".into())
        }
        Ok(_) => None,
    }
}

/// CPU time the CPUs this process may run on have spent busy, ns: user, nice, system, irq,
/// softirq and steal of their /proc/stat lines (steal: time the hypervisor gave to other
/// guests). Under `taskset` or a cgroup CPU set, load on the other CPUs does not slow a
/// cell and is not counted.
fn machine_busy_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    parse_busy_ticks(&stat, allowed_cpus().as_deref())
        .map(|ticks| (ticks as f64 * 1e9 / super::clock_ticks_per_sec()) as u64)
}

/// The CPUs this process may run on (its affinity, which a cgroup CPU set narrows), in
/// order; `None` where they cannot be read.
#[allow(unsafe_code)]
pub fn allowed_cpus() -> Option<Vec<usize>> {
    // SAFETY: sched_getaffinity writes at most size_of::<cpu_set_t>() bytes into the
    // zeroed set it is given; CPU_ISSET only reads it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return None;
        }
        let cpus: Vec<usize> = (0..libc::CPU_SETSIZE as usize)
            .filter(|i| libc::CPU_ISSET(*i, &set))
            .collect();
        (!cpus.is_empty()).then_some(cpus)
    }
}

/// The busy ticks of /proc/stat: summed over the `cpuN` lines of `cpus`, or the all-CPU
/// `cpu ` line when `cpus` is `None` or names a CPU the file lacks.
fn parse_busy_ticks(stat: &str, cpus: Option<&[usize]>) -> Option<u64> {
    let busy = |line: &str| -> Option<u64> {
        let f: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .map(|v| v.parse().ok())
            .collect::<Option<_>>()?;
        // user nice system idle iowait irq softirq steal (guest time is inside user).
        let at = |i: usize| f.get(i).copied().unwrap_or(0);
        (f.len() >= 4).then(|| at(0) + at(1) + at(2) + at(5) + at(6) + at(7))
    };
    if let Some(cpus) = cpus {
        let per_cpu: Option<u64> = cpus
            .iter()
            .map(|n| {
                let name = format!("cpu{n} ");
                stat.lines().find(|l| l.starts_with(&name)).and_then(busy)
            })
            .sum();
        if per_cpu.is_some() {
            return per_cpu;
        }
    }
    busy(stat.lines().find(|l| l.starts_with("cpu "))?)
}

/// CPU time of this process (all threads) and of the children it has reaped, ns.
#[allow(unsafe_code)]
fn own_ns() -> u64 {
    let of = |who: libc::c_int| {
        // SAFETY: getrusage only writes into the zeroed struct it is given.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(who, &mut ru) } != 0 {
            return 0;
        }
        let tv = |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1_000;
        tv(ru.ru_utime) + tv(ru.ru_stime)
    };
    of(libc::RUSAGE_SELF) + of(libc::RUSAGE_CHILDREN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_ticks_leave_out_idle_and_iowait() {
        let stat = "cpu  100 20 30 5000 70 4 6 8 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n";
        assert_eq!(
            parse_busy_ticks(stat, None),
            Some(100 + 20 + 30 + 4 + 6 + 8)
        );
        assert_eq!(parse_busy_ticks("cpu0 1 2 3 4\n", None), None);
        assert_eq!(parse_busy_ticks("cpu  1 x 3 4\n", None), None);
    }

    #[test]
    fn busy_ticks_count_only_the_allowed_cpus() {
        let stat = "cpu  111 0 0 900 0 0 0 0 0 0\n\
                    cpu0 100 0 0 100 0 0 0 0 0 0\n\
                    cpu1 10 0 0 400 0 0 0 0 0 0\n\
                    cpu10 1 0 0 400 0 0 0 0 0 0\n";
        // Under taskset -c 1 a build spinning on CPU 0 is not this run's load; `cpu1 `
        // must not match `cpu10`.
        assert_eq!(parse_busy_ticks(stat, Some(&[1])), Some(10));
        assert_eq!(parse_busy_ticks(stat, Some(&[0, 10])), Some(101));
        // A CPU the file does not list: the whole machine, rather than nothing.
        assert_eq!(parse_busy_ticks(stat, Some(&[7])), Some(111));
    }

    #[test]
    fn this_process_may_run_on_some_cpus() {
        let cpus = allowed_cpus().expect("sched_getaffinity on Linux");
        assert!(!cpus.is_empty() && cpus.len() <= libc::CPU_SETSIZE as usize);
        assert!(cpus.windows(2).all(|w| w[0] < w[1]), "{cpus:?}");
    }

    #[test]
    fn a_busy_child_of_another_process_is_other_load() {
        let Some(m) = LoadMeter::start() else {
            assert!(
                std::env::var_os("CI").is_none(),
                "no /proc/stat under CI: the load cannot be measured"
            );
            eprintln!("SKIP: no /proc/stat");
            return;
        };
        // A process that is not reaped before the reading counts as other load: a shell
        // that spins for 2 s in the background, still running when read.
        let mut spin = std::process::Command::new("sh")
            .args([
                "-c",
                "end=$(($(date +%s) + 2)); while [ $(date +%s) -lt $end ]; do :; done",
            ])
            .spawn()
            .expect("sh");
        std::thread::sleep(std::time::Duration::from_millis(600));
        let other = m.other_cores().unwrap();
        let _ = spin.kill();
        let _ = spin.wait();
        assert!(other > 0.3, "a spinning child counted as {other} cores");
    }
}
