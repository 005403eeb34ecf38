//! Why a cell failed, as data: stored with the run and shown to the user.

use serde::{Deserialize, Serialize};

/// Why a runtime without the component model cannot run a component.
pub const CORE_MODULES_ONLY: &str = "core modules only: it cannot run a WebAssembly component";

/// The reason a cell (runtime × test) failed. The run goes on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "kind", content = "detail", rename_all = "snake_case")]
pub enum Failure {
    /// The guest trapped (unreachable, out-of-bounds access, stack overflow, ...).
    #[error("trap: {0}")]
    Trap(String),
    /// The guest called `proc_exit` (or the process exited) with a non-zero code.
    #[error("exit code {0}")]
    ExitCode(i32),
    /// No progress within the timeout.
    #[error("timeout after {0} s")]
    Timeout(u64),
    /// The worker or the guest process died (signal, abort).
    #[error("crash: {0}")]
    Crash(String),
    /// The guest's answer differs from the expected file.
    #[error("wrong output: {0}")]
    WrongOutput(String),
    /// A file the cell needs does not exist.
    #[error("missing file: {0}")]
    MissingFile(String),
    /// The module does not validate; the message names the file.
    #[error("{0}")]
    InvalidModule(String),
    /// The cell went over its memory cap.
    #[error("out of memory: {0}")]
    OutOfMemory(String),
    /// The runtime cannot run here.
    #[error("unavailable: {0}")]
    Unavailable(String),
    /// The run was cancelled by the user before the cell ended.
    #[error("cancelled")]
    Cancelled,
    /// Anything else, with the runtime's words.
    #[error("error: {0}")]
    Other(String),
}

impl Failure {
    /// A guest that printed more than the job's stdout limit (the same words for every
    /// runtime, so reports group them).
    pub fn stdout_over(limit: usize) -> Failure {
        Failure::Other(format!("stdout exceeded {limit} bytes"))
    }

    /// Short stable name of the kind, for tables and filters.
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::Trap(_) => "trap",
            Failure::ExitCode(_) => "exit_code",
            Failure::Timeout(_) => "timeout",
            Failure::Crash(_) => "crash",
            Failure::WrongOutput(_) => "wrong_output",
            Failure::MissingFile(_) => "missing_file",
            Failure::InvalidModule(_) => "invalid_module",
            Failure::OutOfMemory(_) => "out_of_memory",
            Failure::Unavailable(_) => "unavailable",
            Failure::Cancelled => "cancelled",
            Failure::Other(_) => "error",
        }
    }

    /// The same failure with a clause on why (a feature the runtime lacks) after its
    /// message; kinds whose message is a number or nothing stay as they are.
    pub fn with_context(self, clause: &str) -> Failure {
        let add = |m: String| format!("{m} ({clause})");
        match self {
            Failure::Trap(m) => Failure::Trap(add(m)),
            Failure::Crash(m) => Failure::Crash(add(m)),
            Failure::WrongOutput(m) => Failure::WrongOutput(add(m)),
            Failure::InvalidModule(m) => Failure::InvalidModule(add(m)),
            Failure::OutOfMemory(m) => Failure::OutOfMemory(add(m)),
            Failure::Other(m) => Failure::Other(add(m)),
            other => other,
        }
    }

    /// A file a cell needs that could not be read: a missing one is its own kind.
    pub fn unreadable(file: &std::path::Path, e: std::io::Error) -> Failure {
        if e.kind() == std::io::ErrorKind::NotFound {
            Failure::MissingFile(file.display().to_string())
        } else {
            Failure::Other(format!("{}: {e}", file.display()))
        }
    }

    /// The message for a module that does not validate: `<file>: not a valid WebAssembly module (<reason>)`.
    pub fn invalid_module(file: &std::path::Path, reason: impl std::fmt::Display) -> Failure {
        Failure::InvalidModule(format!(
            "{}: not a valid WebAssembly module ({reason})",
            file.display()
        ))
    }
}
