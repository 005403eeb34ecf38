//! Running a guest as a child process (native builds and runtime CLIs): wall time from spawn
//! to exit, CPU and peak RSS from the kernel's accounting of the finished child (`wait4`).

use super::{Failure, Iteration, Metric, Phase, PhaseValue};
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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

/// What a finished child left behind.
#[derive(Debug, Clone)]
pub struct Finished {
    /// How it ended.
    pub status: std::process::ExitStatus,
    /// Spawn to exit.
    pub wall: Duration,
    /// Kernel accounting.
    pub usage: ChildUsage,
    /// Captured stdout (at most the limit).
    pub stdout: Vec<u8>,
    /// Captured stderr (at most 1 MiB).
    pub stderr: Vec<u8>,
    /// True when stdout went past the limit.
    pub stdout_over: bool,
}

impl Finished {
    /// Records wall, CPU and RSS as values of `phase`.
    pub fn record(&self, it: &mut Iteration, phase: Phase) {
        it.wall(phase, self.wall);
        for (metric, value) in [
            (Metric::UserNs, self.usage.user_ns),
            (Metric::SysNs, self.usage.sys_ns),
            (Metric::MaxRssKib, self.usage.max_rss_kib),
        ] {
            it.values.push(PhaseValue {
                phase,
                metric,
                value,
            });
        }
    }

    /// The last non-empty line of stderr, for failure messages.
    pub fn stderr_tail(&self) -> String {
        String::from_utf8_lossy(&self.stderr)
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim()
            .chars()
            .take(300)
            .collect()
    }
}

/// Waits for a child with `wait4`, returning its status and resource use.
pub fn wait_with_usage(pid: u32) -> std::io::Result<(std::process::ExitStatus, ChildUsage)> {
    let mut status: libc::c_int = 0;
    let mut ru = zeroed_rusage();
    loop {
        if wait4(pid as libc::pid_t, &mut status, &mut ru) != -1 {
            break;
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
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
fn zeroed_rusage() -> libc::rusage {
    // SAFETY: libc::rusage is a C struct of integers; all-zero is a valid value.
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

/// Runs `program args` in `cwd` to completion, capturing output and kernel accounting.
/// `env`: `None` inherits wasmeter's environment, `Some` replaces it. `stdin`: a file to
/// read from, else none.
pub fn run_process(
    program: &Path,
    args: &[String],
    cwd: &Path,
    env: Option<&[(String, String)]>,
    stdin: Option<&Path>,
    stdout_limit: usize,
) -> Result<Finished, Failure> {
    let input = match stdin {
        Some(p) => Stdio::from(
            std::fs::File::open(p).map_err(|_| Failure::MissingFile(p.display().to_string()))?,
        ),
        None => Stdio::null(),
    };
    let mut cmd = Command::new(program);
    cmd.args(args)
        .current_dir(cwd)
        .stdin(input)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(env) = env {
        cmd.env_clear().envs(env.iter().map(|(k, v)| (k, v)));
    }
    let t = Instant::now();
    let mut child = cmd.spawn().map_err(|e| match e.kind() {
        // Spawning also fails with NotFound when the working directory is gone.
        std::io::ErrorKind::NotFound if !cwd.is_dir() => {
            Failure::MissingFile(cwd.display().to_string())
        }
        std::io::ErrorKind::NotFound => Failure::MissingFile(program.display().to_string()),
        std::io::ErrorKind::PermissionDenied => {
            Failure::Other(format!("{}: not executable ({e})", program.display()))
        }
        _ => Failure::Other(format!("{}: {e}", program.display())),
    })?;
    // A profiled cell samples the program from here (it has just been exec'd) to its end.
    let sampled = crate::profile::start_process(child.id());
    let out = drain(child.stdout.take().expect("piped"), stdout_limit);
    let err = drain(child.stderr.take().expect("piped"), 1 << 20);
    let (status, usage) =
        wait_with_usage(child.id()).map_err(|e| Failure::Other(format!("wait: {e}")))?;
    let wall = t.elapsed();
    match sampled {
        Some(s) => s.stop(),
        // A perf map no profile reads (a profiled CLI runtime's warm-up or check step).
        None if crate::profile::perf_maps_wanted() => {
            let _ = std::fs::remove_file(crate::profile::perf_map_path(child.id()));
        }
        None => {}
    }
    let (stdout, stdout_over) = out.join().unwrap_or_default();
    let (stderr, _) = err.join().unwrap_or_default();
    Ok(Finished {
        status,
        wall,
        usage,
        stdout,
        stderr,
        stdout_over,
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
