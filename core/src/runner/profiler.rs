//! A profiled cell's worker side: which [`Method`] attributes a runtime's samples, and the
//! [`CellProfiler`] that samples each measured iteration into a [`ProfileRow`]. It lives
//! with the runner, not in [`crate::profile`], because it knows runtimes and the runtimes
//! call the profile's samplers.

use crate::profile::{
    Method, ProfileRow, ProfileSpec, close_session, fold_into, names, open_session, perf_map_path,
    want_perf_maps,
};
use crate::runtime::{Job, RuntimeInfo, RuntimeKind};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

/// How a runtime id's execute phase is profiled.
pub fn method(runtime: &RuntimeInfo) -> Method {
    let id = runtime.id.as_str();
    match runtime.kind {
        RuntimeKind::Native if id == crate::runtime::NATIVE_DLOPEN => {
            Method::NativeSymbols { in_worker: true }
        }
        RuntimeKind::Native => Method::NativeSymbols { in_worker: false },
        RuntimeKind::Embedded => embedded_method(id),
        RuntimeKind::Cli => match crate::runtime::perf_map_flag(id) {
            Some(flag) => Method::CliPerfMap(&flag.engine),
            None => Method::Unattributed(format!(
                "{id} writes no perf map wasmeter can ask for (of the CLI runtimes, the wasmtime CLI, node and deno do), so the code it compiles has no names"
            )),
        },
    }
}

/// An embedded engine says how its samples are named ([`EmbeddedEngine::profile_method`](crate::runtime::embedded::EmbeddedEngine::profile_method)).
fn embedded_method(id: &str) -> Method {
    crate::runtime::embedded::Embedded::parse(id).map_or_else(
        || Method::Unattributed("not a command runtime".into()),
        |engine| engine.profile_method(),
    )
}

/// A worker's profiler of its cell: decides how the runtime is profiled, gives the engine
/// a named module where a side file has the names, and turns each measured iteration's
/// samples into a [`ProfileRow`].
pub struct CellProfiler {
    method: Method,
    period: Duration,
    program: Option<PathBuf>,
    names: Option<String>,
    module: Option<String>,
    code_sha256: Option<String>,
}

impl CellProfiler {
    /// The profiler of a cell of `runtime` running `job`, whose program it may swap for a
    /// named copy (the same code) in the job's scratch folder. Call before the runtime is
    /// made: an engine writes a perf map only when asked first.
    pub fn new(runtime: &RuntimeInfo, spec: ProfileSpec, job: &mut Job) -> CellProfiler {
        let method = method(runtime);
        let mut names = None;
        let mut program = None;
        let mut module = None;
        let mut code_sha256 = None;
        match &method {
            Method::EnginePerfMap(_) | Method::CliPerfMap(_) => {
                want_perf_maps();
                let measured =
                    std::path::absolute(&job.program).unwrap_or_else(|_| job.program.clone());
                module = Some(measured.display().to_string());
                if let Ok(bytes) = std::fs::read(&job.program) {
                    code_sha256 = names::sections(&bytes).ok().and_then(|s| s.code_sha256);
                    let (named, note) = names::named_module(&job.program, &bytes, &job.scratch);
                    job.program = named;
                    names = note;
                }
            }
            Method::NativeSymbols { .. } => program = Some(job.program.clone()),
            Method::EngineUnnamed(_) | Method::Unattributed(_) => {}
        }
        CellProfiler {
            method,
            period: Duration::from_nanos(spec.period_ns.max(10_000)),
            program,
            names,
            module,
            code_sha256,
        }
    }

    /// The runtime the cell makes: a CLI runtime asked for its perf map, else `runtime`.
    pub fn runtime(&self, runtime: &RuntimeInfo) -> RuntimeInfo {
        let flag = crate::runtime::perf_map_flag(&runtime.id)
            .filter(|_| matches!(self.method, Method::CliPerfMap(_)));
        match (flag, &runtime.command) {
            (Some(flag), Some(cmd)) => RuntimeInfo {
                command: Some(cmd.with_run_words(flag.after, &flag.words)),
                ..runtime.clone()
            },
            _ => runtime.clone(),
        }
    }

    /// Samples what runs on this thread (and the processes it starts) until [`Self::end`].
    pub fn begin(&self) {
        if !matches!(self.method, Method::Unattributed(_)) {
            open_session(self.period);
        }
    }

    /// Ends the iteration's sampling: its row (runtime, test and invocation are the
    /// runner's to fill in).
    pub fn end(&self) -> ProfileRow {
        let mut row = ProfileRow {
            runtime: String::new(),
            test: String::new(),
            invocation: 0,
            method: self.method.describe(self.period),
            period_ns: self.period.as_nanos() as u64,
            iterations: 1,
            stacks: BTreeMap::new(),
            libraries: BTreeMap::new(),
            functions: Vec::new(),
            lost: 0,
            kernel: false,
            leaf_only: matches!(self.method, Method::NativeSymbols { .. }).then(|| {
                "the native build keeps no frame pointers (-O2), so only the innermost frame of each sample is known".to_string()
            }),
            names: self.names.clone(),
            unattributed: None,
            module: self.module.clone(),
            code_sha256: self.code_sha256.clone(),
            offsets: BTreeMap::new(),
        };
        match &self.method {
            Method::Unattributed(why) => {
                row.unattributed = Some(why.clone());
                return row;
            }
            Method::EngineUnnamed(why) => row.unattributed = Some(why.clone()),
            _ => {}
        }
        match close_session() {
            Ok(captures) => fold_into(&mut row, &captures, self.program.as_deref()),
            Err(why) => row.unattributed = Some(format!("the sampler could not run: {why}")),
        }
        row
    }
}

impl Drop for CellProfiler {
    fn drop(&mut self) {
        // The perf map the worker's engine wrote: read by now, of no use to anyone else.
        if matches!(self.method, Method::EnginePerfMap(_)) {
            let _ = std::fs::remove_file(perf_map_path(std::process::id()));
        }
    }
}
