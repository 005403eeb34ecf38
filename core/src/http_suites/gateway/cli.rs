//! A runtime CLI spawned per request (CGI-style): the request body on its stdin, the
//! guest's reply on its stdout. A precompile step, if the adapter has one, runs once at
//! start-up. At most `inflight` guest processes run at once; later requests wait.
//!
//! A container engine's client hands its container to a monitor that forks away (podman's
//! conmon), so the guest would run outside the server's process tree, its CPU time and
//! memory unseen. [`CliBackend::adopting`] makes the server those orphans' subreaper and
//! reaps them, so they are sampled as the server's and their time reaches its own.

use super::Backend;
use crate::runtime::process::run_process;
use crate::runtime::{CliCommand, Job, expand};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::time::Duration;
use wasmeter_http::guest::{GuestCall, GuestReply, parse_reply};

/// Spawns the runtime's command line once per request.
pub struct CliBackend {
    command: CliCommand,
    wasm: PathBuf,
    scratch: PathBuf,
    aot: PathBuf,
    memory_limit: u64,
    slots: Mutex<usize>,
    freed: Condvar,
    /// Set when adopting: the children this backend waits for itself.
    own: Option<Arc<Own>>,
}

/// The clients a backend spawned and waits for, which the reaper must leave alone. A spawn
/// and its recording happen under `gate`'s read side and a reaper pass under its write
/// side, so a client is never reaped between the two.
#[derive(Default)]
struct Own {
    gate: RwLock<()>,
    pids: Mutex<HashSet<u32>>,
}

impl CliBackend {
    /// Checks the module and runs the precompile step, if any.
    pub fn new(
        command: CliCommand,
        wasm: &Path,
        scratch: &Path,
        inflight: usize,
        memory_limit: u64,
    ) -> Result<CliBackend, String> {
        if !wasm.is_file() {
            return Err(format!("{}: no such file", wasm.display()));
        }
        std::fs::create_dir_all(scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
        let b = CliBackend {
            command,
            wasm: wasm.to_path_buf(),
            scratch: scratch.to_path_buf(),
            aot: scratch.join("gateway.aot"),
            memory_limit,
            slots: Mutex::new(inflight.max(1)),
            freed: Condvar::new(),
            own: None,
        };
        if let Some(pre) = &b.command.precompile {
            let job = b.job(&[]);
            let argv = expand(pre, &job, &b.aot);
            let env = crate::runtime::command_env(&b.command, &job, &b.aot);
            let done = run_process(
                Path::new(&argv[0]),
                &argv[1..],
                scratch,
                Some(&env),
                None,
                1 << 20,
            )
            .map_err(|f| format!("precompile: {f}"))?;
            if !done.status.success() {
                return Err(format!(
                    "precompile exited {}: {}",
                    done.status,
                    done.stderr_tail()
                ));
            }
        }
        Ok(b)
    }

    /// Adopts the orphans its clients leave (a container's monitor) and reaps them every
    /// 20 ms, for as long as the backend lives; `Err` when this process cannot be a
    /// subreaper.
    pub fn adopting(mut self) -> Result<CliBackend, String> {
        if !crate::sample::adopt_orphans() {
            return Err("cannot become the subreaper of the guests' containers".into());
        }
        let own = Arc::new(Own::default());
        let weak = Arc::downgrade(&own);
        std::thread::Builder::new()
            .name("wasmeter-reaper".into())
            .spawn(move || {
                while let Some(own) = weak.upgrade() {
                    {
                        let _pass = own.gate.write().unwrap_or_else(|p| p.into_inner());
                        let waited = own.pids.lock().unwrap_or_else(|p| p.into_inner());
                        for pid in crate::sample::children() {
                            if !waited.contains(&pid) {
                                crate::sample::reap_one(pid);
                            }
                        }
                    }
                    drop(own);
                    std::thread::sleep(Duration::from_millis(20));
                }
            })
            .map_err(|e| format!("cannot start the reaper: {e}"))?;
        self.own = Some(own);
        Ok(self)
    }

    fn job(&self, args: &[String]) -> Job {
        Job {
            program: self.wasm.clone(),
            name: "gateway".into(),
            args: args.to_vec(),
            env: Vec::new(),
            scratch: self.scratch.clone(),
            memory_limit: self.memory_limit,
            stdout_limit: 1 << 20,
            stdin: None,
            dirs: Vec::new(),
            invoke: None,
        }
    }

    fn spawn(&self, call: &GuestCall) -> Result<GuestReply, String> {
        let argv = call.argv();
        let job = self.job(&argv[1..]);
        let argv = expand(&self.command.run, &job, &self.aot);
        // No host environment, as for command cells (some runtimes pass theirs on).
        let mut cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..])
            .env_clear()
            .envs(crate::runtime::command_env(&self.command, &job, &self.aot))
            .current_dir(&self.scratch)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = {
            let _spawning = self
                .own
                .as_ref()
                .map(|o| o.gate.read().unwrap_or_else(|p| p.into_inner()));
            let child = cmd.spawn().map_err(|e| format!("{}: {e}", argv[0]))?;
            if let Some(o) = &self.own {
                o.pids
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(child.id());
            }
            child
        };
        let pid = child.id();
        if let Some(mut stdin) = child.stdin.take() {
            // Bodies are small (well under a pipe buffer); a guest that does not read
            // its stdin just gets EPIPE here, which is not an error of the request.
            let _ = stdin.write_all(&call.stdin);
        }
        let out = child.wait_with_output();
        if let Some(o) = &self.own {
            o.pids
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&pid);
        }
        let out = out.map_err(|e| format!("{}: {e}", argv[0]))?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            return Err(format!(
                "runtime exited {}: {}",
                out.status,
                err.lines().last().unwrap_or("")
            ));
        }
        parse_reply(&out.stdout)
    }
}

impl Backend for CliBackend {
    fn call(&self, call: &GuestCall) -> Result<GuestReply, String> {
        {
            let mut free = self.slots.lock().unwrap_or_else(|p| p.into_inner());
            while *free == 0 {
                free = self.freed.wait(free).unwrap_or_else(|p| p.into_inner());
            }
            *free -= 1;
        }
        let r = self.spawn(call);
        *self.slots.lock().unwrap_or_else(|p| p.into_inner()) += 1;
        self.freed.notify_one();
        r
    }
}
