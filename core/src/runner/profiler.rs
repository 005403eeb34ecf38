//! A profiled cell's worker side: which [`Method`] attributes a runtime's samples, and the
//! [`CellProfiler`] that samples each measured iteration into a [`ProfileRow`]. It lives
//! with the runner, not in [`crate::profile`], because it knows runtimes and the runtimes
//! call the profile's samplers.

use crate::profile::counts::{Counting, spread, work};
use crate::profile::{
    CodeChecks, Counts, Method, ProfileRow, ProfileSpec, close_session, fold_into, names,
    open_session, perf_map_path, want_perf_maps,
};
use crate::runtime::{Job, Runtime, RuntimeInfo, RuntimeKind};
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
    /// The module's counting copy, for an engine in the worker, or why there is none.
    counting: Result<(Counting, PathBuf), String>,
    /// What the counting run counted, or why it could not; `None` before it ran.
    counts: Option<Result<Counts, String>>,
    /// The runtime id, whose engine may show its machine code.
    runtime: String,
    /// The checks in the engine's machine code by function, or why they could not be
    /// counted; `None` before the counting run or for a runtime that compiles no code.
    checks: Option<Result<BTreeMap<String, CodeChecks>, String>>,
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
        let mut counting = Err("not a module run by an engine in the worker".to_string());
        match &method {
            Method::EnginePerfMap(_) | Method::CliPerfMap(_) | Method::EngineUnnamed { .. } => {
                want_perf_maps();
                let measured =
                    std::path::absolute(&job.program).unwrap_or_else(|_| job.program.clone());
                module = Some(measured.display().to_string());
                if let Ok(bytes) = std::fs::read(&job.program) {
                    code_sha256 = names::sections(&bytes).ok().and_then(|s| s.code_sha256);
                    let (named, note) = names::named_module(&job.program, &bytes, &job.scratch);
                    job.program = named;
                    names = note;
                    if !matches!(method, Method::CliPerfMap(_)) {
                        counting = counting_copy(&job.program, &job.scratch);
                    }
                }
            }
            Method::NativeSymbols { .. } => program = Some(job.program.clone()),
            Method::Unattributed(_) => {}
        }
        CellProfiler {
            method,
            period: Duration::from_nanos(spec.period_ns.max(10_000)),
            program,
            names,
            module,
            code_sha256,
            counts: None,
            counting,
            runtime: runtime.id.clone(),
            checks: None,
        }
    }

    /// Runs the module's counting copy once, unsampled, on the cell's own runtime: what
    /// each function executes in one run of the program. Before the measured iterations,
    /// so the engine compiles the measured module last.
    pub fn count(&mut self, rt: &dyn Runtime, job: &Job) {
        self.counts = Some(match &self.counting {
            Err(why) => Err(why.clone()),
            Ok((counting, path)) => {
                let counted = Job {
                    program: path.clone(),
                    stdout_limit: job.stdout_limit.max(counting.output_len() + (1 << 20)),
                    ..job.clone()
                };
                let t = std::time::Instant::now();
                match rt.run(&counted) {
                    Ok(it) => counting.read(&it.stdout).map(|mut c| {
                        c.run_ns = t.elapsed().as_nanos() as u64;
                        c
                    }),
                    Err(failure) => Err(format!("the counting run failed: {failure}")),
                }
            }
        });
        if matches!(self.method, Method::EnginePerfMap(_)) {
            self.checks = Some(code_checks(&self.runtime, &job.program));
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
            sizes: BTreeMap::new(),
            counts: self.counts.as_ref().and_then(|c| c.as_ref().ok().cloned()),
            counts_note: self.counts.as_ref().and_then(|c| c.as_ref().err().cloned()),
            checks: BTreeMap::new(),
            checks_note: self.checks.as_ref().and_then(|c| c.as_ref().err().cloned()),
        };
        if let Method::Unattributed(why) = &self.method {
            row.unattributed = Some(why.clone());
            return row;
        }
        let closed = match close_session() {
            Ok(closed) => closed,
            Err(why) => {
                row.unattributed = Some(format!("the sampler could not run: {why}"));
                return row;
            }
        };
        fold_into(&mut row, &closed.captures, self.program.as_deref());
        if let Some(Ok(all)) = &self.checks {
            row.checks = sampled_only(all, &row.stacks);
        }
        if let Method::EngineUnnamed { why, pooled, .. } = &self.method {
            let marked = self.marked(&closed.marks);
            match (&row.counts, marked) {
                (_, Some(marked)) => {
                    spread(&mut row.stacks, pooled.label(), &marked);
                }
                (Some(counts), None) => {
                    spread(&mut row.stacks, pooled.label(), &work(counts));
                    // No mark was read (a run shorter than the period): the row says
                    // what its functions' shares did come from.
                    row.method = Method::EngineUnnamed {
                        why: why.clone(),
                        pooled: *pooled,
                        marked: false,
                    }
                    .describe(self.period);
                }
                (None, None) => {
                    row.unattributed = Some(format!(
                        "{why}, and {}",
                        row.counts_note
                            .as_deref()
                            .unwrap_or("its instructions were not counted")
                    ))
                }
            }
        }
        row
    }

    /// The CPU time under an engine's marks by function name, when it marked, any was read
    /// (a run shorter than the period reads none) and the module's functions have names.
    fn marked(&self, marks: &BTreeMap<u32, u64>) -> Option<BTreeMap<String, u64>> {
        let (counting, _) = self.counting.as_ref().ok()?;
        let named: BTreeMap<String, u64> = marks
            .iter()
            .filter_map(|(i, n)| counting.name(*i).map(|name| (name.to_string(), *n)))
            .collect();
        (named.values().sum::<u64>() > 0).then_some(named)
    }
}

/// The checks in the machine code `runtime`'s engine makes of `module`, by function: the
/// module compiled again as the cell compiles it (an engine that shows its code).
fn code_checks(
    runtime: &str,
    module: &std::path::Path,
) -> Result<BTreeMap<String, CodeChecks>, String> {
    let engine = crate::runtime::embedded::Embedded::parse(runtime)
        .ok_or_else(|| format!("{runtime} is not an engine in the worker"))?;
    let bytes = std::fs::read(module).map_err(|e| format!("{}: {e}", module.display()))?;
    let functions = engine.module_code(runtime, &bytes)?;
    crate::profile::checks::count(&bytes, &functions).ok_or_else(|| {
        format!(
            "{runtime} compiles for {}, whose machine code this build does not decode",
            std::env::consts::ARCH
        )
    })
}

/// The checks of the functions the samples name (a module's thousands of others would fill
/// every row of the run's profile with what no table shows).
fn sampled_only(
    all: &BTreeMap<String, CodeChecks>,
    stacks: &BTreeMap<String, u64>,
) -> BTreeMap<String, CodeChecks> {
    use crate::profile::names::canonical;
    let sampled: std::collections::HashSet<&str> = stacks
        .keys()
        .flat_map(|s| s.split(';'))
        .map(canonical)
        .collect();
    all.iter()
        .filter(|(name, _)| sampled.contains(canonical(name)))
        .map(|(name, c)| (name.clone(), *c))
        .collect()
}

/// The counting copy of a module, written beside the job's other scratch files.
fn counting_copy(
    module: &std::path::Path,
    scratch: &std::path::Path,
) -> Result<(Counting, PathBuf), String> {
    let bytes = std::fs::read(module).map_err(|e| format!("{}: {e}", module.display()))?;
    let counting = Counting::new(&bytes).map_err(|e| format!("{}: {e}", module.display()))?;
    let stem = module
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "module".into());
    let path = scratch.join(format!("{stem}.counting.wasm"));
    std::fs::write(&path, &counting.module).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((counting, path))
}

impl Drop for CellProfiler {
    fn drop(&mut self) {
        // The perf map the worker's engine wrote: read by now, of no use to anyone else.
        if matches!(self.method, Method::EnginePerfMap(_)) {
            let _ = std::fs::remove_file(perf_map_path(std::process::id()));
        }
    }
}
