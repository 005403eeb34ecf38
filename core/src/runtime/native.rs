//! The native baseline: runs the C build of a test as a child process, timed from spawn to
//! exit, with CPU and peak RSS from the kernel's accounting of the finished child.

use super::{Failure, Iteration, Job, Metric, Phase, PhaseValue, Runtime};
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::time::Instant;

/// Runs native executables.
#[derive(Debug, Default)]
pub struct NativeRuntime;

/// Resource use of a finished child process.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ChildUsage {
    /// User CPU, ns.
    pub user_ns: f64,
    /// System CPU, ns.
    pub sys_ns: f64,
    /// Peak RSS, KiB.
    pub max_rss_kib: f64,
}

/// Waits for a child with `wait4`, returning its status and resource use.
pub fn wait_with_usage(pid: u32) -> std::io::Result<(std::process::ExitStatus, ChildUsage)> {
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain data that wait4 fills in; zeroed is a valid value for it.
    let mut ru: libc::rusage = unsafe_zeroed_rusage();
    loop {
        // wait4 is the only way to get this child's own rusage.
        let r = wait4(pid as libc::pid_t, &mut status, &mut ru);
        if r == -1 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        break;
    }
    let tv = |t: libc::timeval| t.tv_sec as f64 * 1e9 + t.tv_usec as f64 * 1e3;
    Ok((
        std::process::ExitStatus::from_raw(status),
        ChildUsage {
            user_ns: tv(ru.ru_utime),
            sys_ns: tv(ru.ru_stime),
            max_rss_kib: ru.ru_maxrss as f64,
        },
    ))
}

#[allow(unsafe_code)]
fn unsafe_zeroed_rusage() -> libc::rusage {
    // SAFETY: libc::rusage is a C struct of integers; all-zero is valid.
    unsafe { std::mem::zeroed() }
}

#[allow(unsafe_code)]
fn wait4(pid: libc::pid_t, status: &mut libc::c_int, ru: &mut libc::rusage) -> libc::pid_t {
    // SAFETY: both pointers are valid for the duration of the call.
    unsafe { libc::wait4(pid, status, 0, ru) }
}

/// Reads a pipe to the end, keeping at most `limit` bytes (the rest is drained).
fn drain(
    mut r: impl Read + Send + 'static,
    limit: usize,
) -> std::thread::JoinHandle<(Vec<u8>, bool)> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 64 * 1024];
        let mut over = false;
        while let Ok(n) = r.read(&mut buf) {
            if n == 0 {
                break;
            }
            let room = limit.saturating_sub(kept.len());
            kept.extend_from_slice(&buf[..n.min(room)]);
            over |= n > room;
        }
        (kept, over)
    })
}

/// Describes how a process ended when it did not exit with 0.
pub fn exit_failure(status: std::process::ExitStatus) -> Option<Failure> {
    if let Some(sig) = status.signal() {
        return Some(Failure::Crash(format!(
            "killed by signal {sig} ({})",
            signal_name(sig)
        )));
    }
    match status.code() {
        Some(0) => None,
        Some(c) => Some(Failure::ExitCode(c)),
        None => Some(Failure::Crash("ended without an exit code".into())),
    }
}

/// Name of a POSIX signal number.
pub fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGKILL => "SIGKILL",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        libc::SIGTRAP => "SIGTRAP",
        _ => "signal",
    }
}

impl Runtime for NativeRuntime {
    fn run(&self, job: &Job) -> Result<Iteration, Failure> {
        if !job.program.is_file() {
            return Err(Failure::MissingFile(job.program.display().to_string()));
        }
        let t = Instant::now();
        let mut child = Command::new(&job.program)
            .args(&job.args)
            .env_clear()
            .envs(job.env.iter().map(|(k, v)| (k, v)))
            .current_dir(&job.scratch)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Failure::Other(format!("{}: {e}", job.program.display())))?;
        let out = drain(child.stdout.take().expect("piped"), job.stdout_limit);
        let err = drain(child.stderr.take().expect("piped"), 1 << 20);
        let (status, usage) =
            wait_with_usage(child.id()).map_err(|e| Failure::Other(format!("wait: {e}")))?;
        let wall = t.elapsed();
        let (stdout, over) = out.join().unwrap_or_default();
        let (stderr, _) = err.join().unwrap_or_default();
        if let Some(f) = exit_failure(status) {
            return Err(f);
        }
        if over {
            return Err(Failure::Other(format!(
                "stdout exceeded {} bytes",
                job.stdout_limit
            )));
        }
        let mut it = Iteration {
            stdout,
            stderr,
            ..Default::default()
        };
        it.wall(Phase::Total, wall);
        for (metric, value) in [
            (Metric::UserNs, usage.user_ns),
            (Metric::SysNs, usage.sys_ns),
            (Metric::MaxRssKib, usage.max_rss_kib),
        ] {
            it.values.push(PhaseValue {
                phase: Phase::Total,
                metric,
                value,
            });
        }
        Ok(it)
    }
}
