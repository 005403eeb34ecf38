//! What wasmeter knows about a runtime before running anything on it: plain data, recorded
//! with a run and sent to workers and gateway servers.

use super::RuntimeKind;
use super::cli::CliCommand;
use serde::{Deserialize, Serialize};

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
