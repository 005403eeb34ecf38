//! A run's profiles (`run --profile`): one row per cell and invocation, folded stacks and
//! what names them, kept beside the run's other records and read back with them.

use super::StoreError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The file of a run that holds its profiles, one [`ProfileRow`] a line.
pub const PROFILES_FILE: &str = "profiles.jsonl";

/// One invocation's profile of one cell: its measured iterations' samples, folded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ProfileRow {
    /// Runtime id.
    pub runtime: String,
    /// Test name.
    pub test: String,
    /// Invocation (worker process) it came from.
    pub invocation: u32,
    /// How it was sampled and named, in words.
    pub method: String,
    /// Sampling period, nanoseconds of CPU time.
    pub period_ns: u64,
    /// Measured iterations sampled.
    pub iterations: u32,
    /// Folded stacks, outermost frame first, joined by `;`, with their sample counts. A
    /// stack ends in a function's name or in a pseudo-frame ([`crate::profile`]'s `Outside::label`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stacks: BTreeMap<String, u64>,
    /// Functions that came from a C library natively, with the library.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub libraries: BTreeMap<String, String>,
    /// Every function the program has (its perf map's, or its symbol table's): one with no
    /// samples that is missing here was inlined into its callers in this build.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<String>,
    /// Samples the kernel dropped.
    #[serde(default)]
    pub lost: u64,
    /// Whether kernel code was sampled too.
    #[serde(default)]
    pub kernel: bool,
    /// Why the stacks are only their innermost frame, if they are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaf_only: Option<String>,
    /// What to know about the names (none in the module: indexes, and how to keep names).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub names: Option<String>,
    /// Why this runtime's time cannot be put on functions (an interpreter), or why the
    /// sampler could not run; then there are no stacks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unattributed: Option<String>,
    /// The module measured (before any names were appended), so its code can be shown
    /// later; `None` for a native program and in runs profiled before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module: Option<String>,
    /// SHA-256 of that module's code section when it ran: the code shown later must be
    /// this code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_sha256: Option<String>,
    /// Samples whose innermost frame was code wasmtime or wasmer compiled, by function:
    /// (byte offset in its machine code, samples), by offset — what the hot-code view puts
    /// on instructions. Pairs, not a map keyed by offset: the worker's message is an
    /// internally tagged enum, through which serde cannot read integer map keys.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub offsets: BTreeMap<String, Vec<(u32, u64)>>,
}

impl ProfileRow {
    /// Samples in all.
    pub fn samples(&self) -> u64 {
        self.stacks.values().sum()
    }
}

/// Reads a run's profiles; `Ok(empty)` when it has none. A line that is not a profile
/// names the file and its line.
pub fn read_profiles(run_dir: &Path) -> Result<Vec<ProfileRow>, StoreError> {
    let path = run_dir.join(PROFILES_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(StoreError::io(&path, e)),
    };
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| StoreError::Corrupt {
                path: path.clone(),
                message: format!("line {}: not a profile: {e}", i + 1),
            })
        })
        .collect()
}
