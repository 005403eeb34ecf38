//! wasmeter's own binary started again as a helper process: a cell's worker, a gateway
//! cell's server, the `proxy` upstream's echo server. The runner, the HTTP suites and the
//! container runtime start them; each binary hands these subcommands to
//! `runner::worker_entry` before anything else, and the helper reads its spec on stdin.

use std::io::Read;
use std::path::PathBuf;

/// Subcommand of a cell's worker: reads a `runner::CellSpec` on stdin.
pub const WORKER: &str = "worker";
/// Subcommand of a gateway cell's server: reads a gateway spec on stdin.
pub const SERVE_GATEWAY: &str = "serve-gateway";
/// Subcommand of the `proxy` upstream's sidecar container: reads an echo spec on stdin.
pub const SERVE_ECHO: &str = "serve-echo";
/// Every subcommand the runner starts a worker program with.
pub const HOST_COMMANDS: [&str; 3] = [WORKER, SERVE_GATEWAY, SERVE_ECHO];

/// How to start a worker: normally the wasmeter binary itself with `worker`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WorkerCommand {
    /// Program to run.
    pub program: PathBuf,
    /// Arguments before the cell spec is written to its stdin.
    pub args: Vec<String>,
}

impl WorkerCommand {
    /// The running executable with the `worker` subcommand (which it must hand to
    /// `runner::worker_entry`).
    pub fn current_exe() -> std::io::Result<WorkerCommand> {
        Ok(WorkerCommand {
            program: std::env::current_exe()?,
            args: vec![WORKER.into()],
        })
    }
}

/// Reads a JSON spec from `input`: how the runner hands a cell to a worker, and a worker
/// a gateway to its server process.
pub fn read_spec<T: serde::de::DeserializeOwned>(mut input: impl Read) -> Result<T, String> {
    let mut text = String::new();
    input.read_to_string(&mut text).map_err(|e| e.to_string())?;
    serde_json::from_str(&text).map_err(|e| e.to_string())
}
