//! Starting a server process for a cell and stopping it whatever happens: a free loopback
//! port, stderr kept for error messages, readiness polled with real requests, and its CPU
//! time read from /proc. A server stays in its worker's process group, so the runner's kill
//! of a cell (timeout, Ctrl-C) takes it along; it also dies with the worker (parent-death
//! signal), and dropping it kills it with every process it started.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use wasmeter_http::client::request_once;

/// Bytes of a server's stderr kept for error messages.
const TAIL: usize = 4096;

/// A free port on 127.0.0.1, as the kernel hands them out.
pub fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?
        .local_addr()?
        .port())
}

/// Whether something already listens on a loopback port.
pub fn port_in_use(port: u16) -> bool {
    TcpListener::bind((Ipv4Addr::LOCALHOST, port)).is_err()
}

/// A running server process; dropping it kills its whole process group.
pub struct ServerProcess {
    child: Child,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// Where it serves.
    pub addr: SocketAddr,
    /// Processes serving for it outside its own tree (a container's monitor and main
    /// process): sampled with it.
    extra: Vec<u32>,
    /// Run after it is killed (removing its container).
    cleanup: Option<Box<dyn FnOnce() + Send>>,
}

impl ServerProcess {
    /// Starts `cmd` (stdin: `input`, if any), serving at `port` on loopback. Call it from
    /// the thread that lives as long as the cell: the server dies when that thread does.
    pub fn spawn(
        mut cmd: Command,
        input: Option<Vec<u8>>,
        port: u16,
    ) -> Result<ServerProcess, String> {
        let program = cmd.get_program().to_string_lossy().into_owned();
        cmd.stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
        die_with_parent(&mut cmd);
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        if let (Some(mut stdin), Some(input)) = (child.stdin.take(), input) {
            let _ = stdin.write_all(&input);
        }
        let stderr = Arc::new(Mutex::new(Vec::new()));
        if let Some(mut pipe) = child.stderr.take() {
            let tail = Arc::clone(&stderr);
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = pipe.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    let mut t = tail.lock().unwrap_or_else(|p| p.into_inner());
                    t.extend_from_slice(&buf[..n]);
                    if t.len() > 2 * TAIL {
                        let cut = t.len() - TAIL;
                        t.drain(..cut);
                    }
                }
            });
        }
        Ok(ServerProcess {
            child,
            stderr,
            addr: SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
            extra: Vec::new(),
            cleanup: None,
        })
    }

    /// Samples these processes' trees with the server's own.
    pub fn add_roots(&mut self, pids: Vec<u32>) {
        self.extra.extend(pids);
    }

    /// The roots of every process tree that serves: its own, then the added ones.
    pub fn roots(&self) -> Vec<u32> {
        let mut v = vec![self.pid()];
        v.extend(&self.extra);
        v
    }

    /// Runs `f` once the server is killed, before what earlier calls gave.
    pub fn on_drop(&mut self, f: Box<dyn FnOnce() + Send>) {
        self.cleanup = Some(match self.cleanup.take() {
            Some(earlier) => Box::new(move || {
                f();
                earlier();
            }),
            None => f,
        });
    }

    /// The process id (leader of its group).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The last lines of its stderr on one line, after `prefix`; empty when it wrote
    /// nothing, so an error message reads the same either way.
    pub fn stderr_suffix(&self, prefix: &str) -> String {
        let t = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
        let text = String::from_utf8_lossy(&t);
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        match &lines[lines.len().saturating_sub(3)..] {
            [] => String::new(),
            tail => format!("{prefix}{}", tail.join(" | ")),
        }
    }

    /// How it ended, if it has.
    pub fn exited(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(s)) => Some(s.to_string()),
            Ok(None) => None,
            Err(e) => Some(e.to_string()),
        }
    }

    /// "exited with …: <stderr tail>", for an error message.
    fn died(&mut self, status: &str) -> String {
        // Let the stderr reader catch the last words.
        std::thread::sleep(Duration::from_millis(20));
        format!("server {status}{}", self.stderr_suffix(": "))
    }

    /// Polls GET `path` until it answers 200; returns the time from `spawned`. Fails when
    /// the process exits, answers an error status for longer than the timeout, or never
    /// answers.
    pub fn wait_ready(
        &mut self,
        path: &str,
        spawned: Instant,
        timeout: Duration,
    ) -> Result<Duration, String> {
        let deadline = spawned + timeout;
        let mut last: String;
        loop {
            if let Some(status) = self.exited() {
                return Err(self.died(&format!("exited ({status}) before it was ready")));
            }
            match request_once(self.addr, "GET", path, b"", Duration::from_secs(2)) {
                Ok((200, _)) => return Ok(spawned.elapsed()),
                Ok((status, body)) => {
                    last = format!(
                        "answered {status}: {}",
                        String::from_utf8_lossy(&body[..body.len().min(200)]).trim()
                    )
                }
                Err(e) => last = e,
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "server never became ready on {} within {:.1} s (last: {last}){}",
                    self.addr,
                    timeout.as_secs_f64(),
                    self.stderr_suffix("; stderr: ")
                ));
            }
            std::thread::sleep(Duration::from_micros(250));
        }
    }

    /// CPU time the server's process tree has used so far ([`crate::sample::tree_cpu_ns`]:
    /// every live process's own time plus what it reaped, so a child that ends between two
    /// readings is counted once).
    pub fn cpu_time(&self) -> Duration {
        Duration::from_nanos(
            self.roots()
                .into_iter()
                .map(crate::sample::tree_cpu_ns)
                .sum(),
        )
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        // Children first, so none is reparented and missed.
        let pid = self.child.id();
        let mut tree = crate::sample::descendants(pid);
        tree.retain(|p| *p != pid);
        for p in tree.into_iter().rev() {
            kill(p);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(f) = self.cleanup.take() {
            f();
        }
    }
}

#[allow(unsafe_code)]
fn kill(pid: u32) {
    // SAFETY: kill has no memory effects; `pid` is a descendant of a server this process
    // started, read from /proc just now.
    unsafe {
        libc::kill(pid as libc::pid_t, libc::SIGKILL);
    }
}

/// Asks the kernel to SIGKILL the child when the thread that started it ends, so that a
/// worker killed outright (timeout, Ctrl-C, crash) leaves no server behind.
#[allow(unsafe_code)]
fn die_with_parent(cmd: &mut Command) {
    // SAFETY: the closure runs in the child between fork and exec and only calls prctl,
    // which is async-signal-safe, allocates nothing and touches no lock.
    unsafe {
        cmd.pre_exec(|| {
            if libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            ) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// A command run in `dir`.
pub fn command_in(argv: &[String], dir: &Path) -> Command {
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..]).current_dir(dir);
    cmd
}
