//! A runtime CLI spawned per request (CGI-style): the request body on its stdin, the
//! guest's reply on its stdout. A precompile step, if the adapter has one, runs once at
//! start-up. At most `inflight` guest processes run at once; later requests wait.

use super::Backend;
use crate::http::guest::{GuestCall, GuestReply, parse_reply};
use crate::runtime::process::run_process;
use crate::runtime::{CliCommand, Job, expand};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Condvar, Mutex};

/// Spawns the runtime's command line once per request.
pub struct CliBackend {
    command: CliCommand,
    wasm: PathBuf,
    scratch: PathBuf,
    aot: PathBuf,
    memory_limit: u64,
    slots: Mutex<usize>,
    freed: Condvar,
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
        };
        if let Some(pre) = &b.command.precompile {
            let job = b.job(&[]);
            let argv = expand(pre, &job, &b.aot);
            let env = b.command.env_for(&job, &b.aot);
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
        let mut child = Command::new(&argv[0])
            .args(&argv[1..])
            .env_clear()
            .envs(self.command.env_for(&job, &self.aot))
            .current_dir(&self.scratch)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{}: {e}", argv[0]))?;
        if let Some(mut stdin) = child.stdin.take() {
            // Bodies are small (well under a pipe buffer); a guest that does not read
            // its stdin just gets EPIPE here, which is not an error of the request.
            let _ = stdin.write_all(&call.stdin);
        }
        let out = child
            .wait_with_output()
            .map_err(|e| format!("{}: {e}", argv[0]))?;
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
