//! CPU accounting that adds up: a process tree's live samples never show more CPU than the
//! machine has (cores × wall time), and processes that start and end between two samples
//! (a CGI-style server runs one per request) are counted once — neither lost when they are
//! reaped nor counted again in their parent's reaped-children time.
//!
//! Real process trees on this machine; the reference is the kernel's own account of the
//! tree (`wait4`'s resource usage of its root, which includes every descendant it reaped).

use std::process::{Child, Command};
use std::time::{Duration, Instant};
use wasmeter_core::sample::{TreeSampler, tree_cpu_ns};

/// Cores of this machine.
fn cores() -> f64 {
    std::thread::available_parallelism().map_or(1, |n| n.get()) as f64
}

/// Headroom of the sum of the samples over the kernel's account. The sampler reads every
/// process's CPU clock (exact to the nanosecond), but the children's time the kernel keeps
/// in clock ticks (10 ms, truncated) once a process is reaped: at most two ticks per
/// process that reaped children, i.e. 20 ms spread over a sample — 5 % of two cores over
/// 200 ms.
const TOLERANCE: f64 = 0.05;

/// The most one sample may show, % of one core: every core busy, and no more. The sampler
/// carries what tick rounding would put beyond that into its next reading, so a sample at
/// 212 % on two cores (seen when this test shared the machine with others) is a bug.
fn max_pct() -> f64 {
    100.0 * cores() * (1.0 + 1e-6)
}

/// Waits for `child` and returns the CPU time the kernel charged to it and to every
/// descendant it (transitively) reaped, s.
#[allow(unsafe_code)]
fn wait_cpu(child: Child) -> f64 {
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value to be overwritten by wait4.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4 writes the status and usage into the locals it is given; `pid` is our
    // own child, not yet waited for (std's Child is dropped without waiting).
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
    assert_eq!(r, pid, "wait4: {}", std::io::Error::last_os_error());
    std::mem::forget(child);
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

/// Samples the tree of `root` every `every` until it ends; (cpu_pct, wall s) per sample.
fn sample_until_exit(root: u32, every: Duration, limit: Duration) -> Vec<(f64, f64)> {
    let mut s = TreeSampler::new(root);
    let t0 = Instant::now();
    let mut last = Instant::now();
    let mut out = Vec::new();
    while t0.elapsed() < limit {
        std::thread::sleep(every);
        // A zombie root (exited, not yet reaped by us) has no /proc/<pid>/task: done.
        let state = std::fs::read_to_string(format!("/proc/{root}/stat")).unwrap_or_default();
        let zombie = state
            .rsplit_once(')')
            .is_some_and(|(_, r)| r.trim_start().starts_with('Z'));
        let r = s.sample();
        let now = Instant::now();
        out.push((f64::from(r.cpu_pct), (now - last).as_secs_f64()));
        last = now;
        if zombie {
            break;
        }
    }
    out
}

#[test]
fn no_sample_of_a_busy_tree_exceeds_the_cores() {
    // A shell with three busy children: more runnable processes than this 2-core machine
    // has cores.
    let mut sh = Command::new("sh")
        .args([
            "-c",
            "for i in 1 2 3; do (while :; do :; done) & done; wait",
        ])
        .spawn()
        .unwrap();
    let mut s = TreeSampler::new(sh.id());
    let mut samples = Vec::new();
    for _ in 0..30 {
        std::thread::sleep(Duration::from_millis(100));
        samples.push(f64::from(s.sample().cpu_pct));
    }
    let tree = wasmeter_core::sample::descendants(sh.id());
    for pid in tree.iter().rev() {
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    }
    let _ = sh.wait();
    assert_eq!(tree.len(), 4, "the shell and its three children: {tree:?}");
    let max = max_pct();
    eprintln!("samples (% of one core): {samples:.1?}");
    for (i, pct) in samples.iter().enumerate() {
        assert!(
            *pct <= max,
            "sample {i}: {pct:.1} % of one core on {} cores (at most {max:.0} %): {samples:?}",
            cores()
        );
    }
    let mean = samples.iter().sum::<f64>() / samples.len() as f64;
    // The machine is shared (other tests, builds): the tree's share may be small, but it
    // is not nothing.
    assert!(
        mean > 5.0,
        "three busy processes show {mean:.1} % on average"
    );
}

#[test]
fn short_lived_children_are_counted_once() {
    // Three chains of short busy processes, each reaped by its subshell, which the root
    // reaps in turn: almost all of the work happens in processes no sample sees alive.
    let chain = "n=0; while [ $n -lt 150 ]; do sh -c 'i=0; while [ $i -lt 4000 ]; do i=$((i+1)); done'; n=$((n+1)); done";
    let script = format!("for c in 1 2 3; do ( {chain} ) & done; wait");
    let sh = Command::new("sh").args(["-c", &script]).spawn().unwrap();
    let root = sh.id();
    let samples = sample_until_exit(root, Duration::from_millis(100), Duration::from_secs(60));
    let kernel = wait_cpu(sh);
    let sampled: f64 = samples.iter().map(|(pct, wall)| pct / 100.0 * wall).sum();
    let max = max_pct();
    eprintln!("kernel {kernel:.3} s, samples add up to {sampled:.3} s: {samples:.1?}");
    for (pct, wall) in &samples {
        assert!(
            *pct <= max,
            "a sample of {wall:.3} s shows {pct:.1} % (at most {max:.0} %)"
        );
    }
    assert!(kernel > 0.3, "the workload used only {kernel:.3} s of CPU");
    // Lost: the last sample before the root exits misses at most one interval of the tree,
    // and the kernel's ticks round down.
    assert!(
        sampled >= 0.85 * kernel - 0.1 * cores(),
        "samples add up to {sampled:.3} s of CPU, the kernel says {kernel:.3} s: reaped children lost"
    );
    assert!(
        sampled <= kernel * (1.0 + TOLERANCE) + 0.02,
        "samples add up to {sampled:.3} s of CPU, the kernel says {kernel:.3} s: counted twice"
    );
}

#[test]
fn the_tree_total_is_conserved_when_children_are_reaped() {
    // root → mid → busy; mid reaps busy and lives on (running `sleep`). The busy child's
    // time is then in mid's reaped-children time: a total that counted that only for the
    // root would lose it, one that also kept the busy child's last reading would count it
    // twice.
    let sh = Command::new("sh")
        .env("BUSY", "i=0; while [ $i -lt 600000 ]; do i=$((i+1)); done")
        .args(["-c", "sh -c 'sh -c \"$BUSY\"; sleep 0.6; true'; true"])
        .spawn()
        .unwrap();
    let root = sh.id();
    // The first reading as soon as the busy child exists: a fixed wait let a fast machine
    // finish most of its work first (0.133 of 0.145 s once).
    let t0 = Instant::now();
    let mut tree = wasmeter_core::sample::descendants(root);
    while tree.len() < 3 && t0.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(2));
        tree = wasmeter_core::sample::descendants(root);
    }
    assert_eq!(tree.len(), 3, "root, mid and busy: {tree:?}");
    let busy = tree[2];
    let before = tree_cpu_ns(root);
    let t0 = Instant::now();
    while wasmeter_core::sample::descendants(root).contains(&busy)
        && t0.elapsed() < Duration::from_secs(30)
    {
        std::thread::sleep(Duration::from_millis(2));
    }
    let after = tree_cpu_ns(root);
    let kernel = wait_cpu(sh);
    let (before, after) = (before as f64 / 1e9, after as f64 / 1e9);
    eprintln!("before {before:.4} s, after {after:.4} s, kernel {kernel:.4} s");
    assert!(
        kernel - before > 0.05,
        "the busy child should still have work after the first reading ({before:.3} of {kernel:.3} s)"
    );
    // The shells and `sleep` use next to nothing after the busy child ends; the kernel's
    // reaped-children times are whole ticks.
    assert!(
        (after - kernel).abs() <= 0.04,
        "after the busy child was reaped the tree reads {after:.3} s, the kernel says {kernel:.3} s"
    );
    assert!(after >= before, "{before:.3} s, then {after:.3} s");
}
