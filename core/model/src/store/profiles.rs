//! A run's profiles (`run --profile`): one row per cell and invocation, folded stacks and
//! what names them, kept beside the run's other records and read back with them.

use super::StoreError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The file of a run that holds its profiles, one [`ProfileRow`] a line.
pub const PROFILES_FILE: &str = "profiles.jsonl";

/// One invocation's profile of one cell: its measured iterations' samples, folded.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
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
    /// Each function's machine code, bytes, where the build says (an engine's perf map, a
    /// native build's symbol table): code size against native.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sizes: BTreeMap<String, u64>,
    /// What one run of the program executed, by function, counted by a copy of the module
    /// with a counter on every straight run of its code (`profile::counts`); `None` for a
    /// native program and in runs profiled before counts were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts: Option<Counts>,
    /// Why the program's instructions could not be counted, when they could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts_note: Option<String>,
    /// The checks in the engine's machine code, by function (an engine that shows its code:
    /// wasmtime's variants, compiled again as the cell was).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub checks: BTreeMap<String, CodeChecks>,
    /// Why the machine code's checks could not be counted, when they could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checks_note: Option<String>,
}

/// The explicit checks in one function's machine code: its branches to a trap, by the wasm
/// instruction each guards. Places in the code, not executions; a check the engine leaves
/// to the hardware (a guard page, a fault on a null pointer) has no branch and is not here.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CodeChecks {
    /// On entry, before the function's first instruction: the stack's limit.
    pub stack: u32,
    /// Guarding loads, stores and bulk memory: bounds checks.
    pub bounds: u32,
    /// Guarding indirect calls: the table's bounds, a null entry, the callee's signature.
    pub indirect: u32,
    /// Guarding division, remainder and float-to-int conversion: zero, overflow, range.
    pub arithmetic: u32,
    /// Any other (`unreachable`, table access, the engine's own).
    pub other: u32,
}

/// One run of a program, counted function by function: the causes a profile can show
/// beside each function's time (its helper calls, its checks' occasions), and what an
/// engine with no names for its code is attributed by.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Counts {
    /// Each function that ran, by name.
    pub functions: BTreeMap<String, FunctionCounts>,
    /// The counting run's wall time, ns: what counting cost the cell, beside its measured
    /// iterations (which run the module itself).
    #[serde(default)]
    pub run_ns: u64,
}

/// What one function executed in one run of the program.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FunctionCounts {
    /// Times it was entered.
    pub entries: u64,
    /// Instructions executed, weighted as engines spend time on them (a block's structure
    /// and `local.get` are free): what an unnamed engine's time is shared by.
    pub work: u64,
    /// Instructions executed.
    pub instructions: u64,
    /// Loads and stores executed: each is bounds-checked where the engine's memory has no
    /// guard pages (interpreters; an engine with them checks none).
    pub memory: u64,
    /// Indirect calls executed: each checks the callee's signature.
    pub indirect: u64,
    /// `memory.grow`s executed: each is the engine's own work.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub grows: u64,
    /// Direct calls to each of the module's functions.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub calls: BTreeMap<String, u64>,
    /// Calls to each imported (host) function: WASI's, the engine's.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub host_calls: BTreeMap<String, u64>,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
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
