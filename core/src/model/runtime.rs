//! What wasmeter knows about a runtime before running anything on it: plain data, recorded
//! with a run and sent to workers and gateway servers.

use serde::{Deserialize, Serialize};

/// How a runtime runs a guest; decides which phases it can time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum RuntimeKind {
    /// An engine linked into wasmeter: every phase timed separately.
    Embedded,
    /// An external runtime's command line: the whole process, plus self-timing.
    Cli,
    /// The C build of the test, the baseline.
    Native,
}

impl std::fmt::Display for RuntimeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RuntimeKind::Embedded => "embedded",
            RuntimeKind::Cli => "cli",
            RuntimeKind::Native => "native",
        })
    }
}

/// A resolved CLI invocation: recorded with the run, sent to the worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CliCommand {
    /// Program (absolute) then arguments, with placeholders.
    pub run: Vec<String>,
    /// Ahead-of-time step, timed as the `compile` phase.
    pub precompile: Option<Vec<String>>,
    /// Environment the runtime itself needs (deno's update check off), added to the job's
    /// (empty unless configured); values take the same placeholders.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<(String, String)>,
}

/// What wasmeter knows about a runtime before running anything on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RuntimeInfo {
    /// Stable id used on the command line and in saved runs.
    pub id: String,
    /// How it runs guests.
    pub kind: RuntimeKind,
    /// Version of the engine, CLI or compiler.
    pub version: String,
    /// The configuration in words (compiler, allocator, flags).
    pub config: String,
    /// Why it cannot run here, if it cannot.
    pub unavailable: Option<String>,
    /// How to get it, for runtimes wasmeter does not link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The exact command lines of a CLI runtime.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<CliCommand>,
}

impl RuntimeInfo {
    /// True when it can run here.
    pub fn available(&self) -> bool {
        self.unavailable.is_none()
    }
}
