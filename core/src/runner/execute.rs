//! The runner's loop: one worker process per cell, watched for progress, memory and time.

use super::worker::{CellSpec, CellWork, CheckJob, CommandJob, LifecycleJob, Partners, WorkerMsg};
use super::{Event, NO_LIBRARY, NO_NATIVE, Plan, RunnerError, cross_check};
use crate::http_suites::driver::HttpJob;
use crate::machine::Machine;
use crate::runtime::WorkerCommand;
use crate::runtime::process::signal_name;
use crate::runtime::{
    Failure, Job, NATIVE_DLOPEN, NativeCompiler, NativeForm, RuntimeInfo, RuntimeKind,
};
use crate::sample::TreeSampler;
use crate::store::{
    CellRecord, Done, HistogramRow, MeasurementRow, RunMeta, RunStatus, RunWriter, SCHEMA_VERSION,
    SampleRow, TestRecord, new_run_id,
};
use crate::suite::{Build, CommandTest, HttpKind, TestCase, TestKind};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How a run ended.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutcome {
    /// Run id.
    pub run_id: String,
    /// Run directory.
    pub dir: PathBuf,
    /// Final status.
    pub status: RunStatus,
    /// Cells that failed.
    pub failed: usize,
    /// Cells run.
    pub cells: usize,
}

/// Creates the run directory and metadata for a plan.
fn start_run(plan: &Plan, results: &Path) -> Result<RunWriter, RunnerError> {
    let bytes = |f: &Path| std::fs::metadata(f).ok().map(|m| m.len());
    let tests = plan
        .tests
        .iter()
        .map(|t| TestRecord {
            name: t.name.clone(),
            source_hash: plan
                .suite
                .source_hash(t)
                .unwrap_or_else(|_| "missing".into()),
            // Sizes of what is run as given or prebuilt (a module by path, the apps
            // suite's programs, a lifecycle test's file): the size tables read them.
            module_bytes: t
                .guest()
                .filter(|g| matches!(g.build, Build::Module(_) | Build::Prebuilt { .. }))
                .map(|g| g.wasm.as_path())
                .or(t.lifecycle_file())
                .and_then(bytes),
            native_bytes: match t.guest().map(|g| &g.build) {
                Some(Build::Module(run)) => run.native.as_deref().and_then(bytes),
                Some(Build::Prebuilt { native, .. }) => bytes(native),
                _ => None,
            },
            as_given: Some(
                t.guest()
                    .is_some_and(|g| matches!(g.build, Build::Module(_))),
            ),
        })
        .collect();
    let meta = RunMeta {
        schema_version: SCHEMA_VERSION,
        id: new_run_id(&plan.suite.name),
        label: plan.label.clone(),
        suite: plan.suite.name.clone(),
        suite_kind: plan.suite.kind,
        tests,
        runtimes: plan.runtimes.clone(),
        not_applicable: plan.not_applicable.clone(),
        settings: plan.settings.clone(),
        machine: Machine::detect(),
        wasmeter_version: crate::VERSION.to_string(),
        started_unix: crate::store::now_unix(),
        finished_unix: None,
        status: RunStatus::Running,
        pid: std::process::id(),
        files: Default::default(),
    };
    let writer = RunWriter::create(results, meta)?;
    if plan.suite.saved_with_run {
        let into = writer.dir().join(SUITE_COPY);
        copy_suite(&plan.suite.dir, &into)
            .map_err(|source| RunnerError::KeepSuite { dir: into, source })?;
    }
    Ok(writer)
}

/// The folder of a run that keeps the suite it was made with, when the suite was made
/// from modules given by path: a resumed run loads it from there.
pub const SUITE_COPY: &str = "suite";

/// Copies a suite made from modules (its manifest and `wasm/`) into a run.
fn copy_suite(from: &Path, into: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(into.join("wasm"))?;
    std::fs::copy(from.join("suite.toml"), into.join("suite.toml"))?;
    for e in std::fs::read_dir(from.join("wasm"))? {
        let e = e?;
        std::fs::copy(e.path(), into.join("wasm").join(e.file_name()))?;
    }
    Ok(())
}

/// Runs a plan to the end (or until `cancel` is set), saving into `results` and sending
/// events. Cell failures are recorded and the run goes on.
pub fn execute(
    plan: &Plan,
    results: &Path,
    worker: &WorkerCommand,
    events: &Sender<Event>,
    cancel: &AtomicBool,
) -> Result<RunOutcome, RunnerError> {
    let outcome = start_run(plan, results)
        .and_then(|writer| run_cells(plan, writer, &Done::default(), &[], worker, events, cancel));
    stopped(outcome, events)
}

/// Sends [`Event::Stopped`] for a run that ends on an error, so a front end that only
/// reads events hears why.
fn stopped(
    outcome: Result<RunOutcome, RunnerError>,
    events: &Sender<Event>,
) -> Result<RunOutcome, RunnerError> {
    if let Err(e) = &outcome {
        let _ = events.send(Event::Stopped {
            message: e.to_string(),
        });
    }
    outcome
}

/// Finishes an interrupted or cancelled run in its own directory: invocations that ended
/// (other than by cancellation) are kept, the rest run now (none of a failed cell's). `plan` must be the run's own plan.
pub fn resume(
    plan: &Plan,
    dir: &Path,
    worker: &WorkerCommand,
    events: &Sender<Event>,
    cancel: &AtomicBool,
) -> Result<RunOutcome, RunnerError> {
    let (writer, done) = match RunWriter::resume(dir) {
        Ok(w) => w,
        Err(e) => return stopped(Err(e.into()), events),
    };
    // Aiming at a precision, the cells' intervals include what ran before the stop.
    let earlier = match plan.settings.precision {
        Some(_) => crate::store::load_run(dir)
            .map(|r| r.measurements)
            .unwrap_or_default(),
        None => Vec::new(),
    };
    stopped(
        run_cells(plan, writer, &done, &earlier, worker, events, cancel),
        events,
    )
}

/// Where a cell stands while its invocations are spread over the run.
#[derive(Debug, Clone, Default)]
struct CellState {
    /// Invocations ended (before a resume too).
    ended: u32,
    /// Iterations done over its invocations (for progress).
    iterations: u32,
    /// Wall time of its invocations run now, ms.
    wall_ms: f64,
    /// A failed cell runs no more invocations.
    failed: bool,
    /// Counted as finished (its planned invocations ended, or it failed).
    finished: bool,
    /// Its measured rows of this session, which `--precision` judges its interval by.
    rows: Vec<MeasurementRow>,
}

fn run_cells(
    plan: &Plan,
    mut writer: RunWriter,
    done: &Done,
    earlier: &[MeasurementRow],
    worker: &WorkerCommand,
    events: &Sender<Event>,
    cancel: &AtomicBool,
) -> Result<RunOutcome, RunnerError> {
    let run_id = writer.meta().id.clone();
    let cells = plan.cells();
    let invocations = plan.settings.invocations;
    let per_invocation = plan.settings.warmup + plan.settings.runs;
    let _ = events.send(Event::Planned {
        run_id: run_id.clone(),
        suite: plan.suite.name.clone(),
        suite_kind: plan.suite.kind,
        baseline: plan.settings.baseline.clone(),
        cells: cells
            .iter()
            .map(|(r, t)| (r.id.clone(), t.name.clone()))
            .collect(),
        iterations_per_cell: per_invocation * invocations,
        invocations,
    });
    let has = |rt: &RuntimeInfo, t: &TestCase, i: u32| {
        done.invocations
            .contains(&(rt.id.clone(), t.name.clone(), i))
    };
    let mut state: Vec<CellState> = cells
        .iter()
        .map(|(rt, t)| {
            let ended = (0..invocations).filter(|i| has(rt, t, *i)).count() as u32;
            CellState {
                ended,
                iterations: ended * per_invocation,
                failed: done.failed.contains(&(rt.id.clone(), t.name.clone())),
                rows: earlier
                    .iter()
                    .filter(|m| !m.warmup && m.runtime == rt.id && m.test == t.name)
                    .cloned()
                    .collect(),
                ..CellState::default()
            }
        })
        .collect();
    let started = Instant::now();
    let compiler = NativeCompiler::detect();
    let mut failed = 0;
    let mut ran = 0;
    let mut status = RunStatus::Complete;
    let mut features = super::missing_features::MissingFeatures::new(
        writer
            .dir()
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default(),
        &plan.suite.name,
    );
    let mut queue = plan.schedule();
    // With `--pair-mode alternate`, each cell's group, run in one worker.
    let alternate = match plan.settings.pair_mode {
        Some(crate::store::PairMode::Alternate) => plan.pair_groups(),
        _ => None,
    };
    let mut together = std::collections::HashSet::new();
    let mut next_round = invocations;
    let mut at = 0;
    loop {
        if at == queue.len() {
            // The planned rounds (or the last added one) are done: with a precision to
            // reach, another round of the cells that have not reached it.
            match super::precision::next_round(plan, &state_rows(&state), next_round, started) {
                Some(round) if status == RunStatus::Complete => {
                    queue.extend(round);
                    next_round += 1;
                    continue;
                }
                _ => break,
            }
        }
        let (index, invocation) = queue[at];
        at += 1;
        let (rt, test) = cells[index];
        if state[index].failed || has(rt, test, invocation) || together.remove(&(index, invocation))
        {
            continue;
        }
        if cancel.load(Ordering::SeqCst) {
            status = RunStatus::Cancelled;
            break;
        }
        // The planned rounds always run: the budget bounds the rounds a precision adds
        // (`next_round` starts none once it is spent), so no cell is left partial by it.
        // Alternating groups: the other arms' invocations run in this worker too (unless
        // one ended before a resume or its cell failed), and are skipped when their turn
        // comes.
        let mut indexes = vec![index];
        for &p in alternate.as_ref().map_or(&[][..], |a| &a[index]) {
            if p != index && !state[p].failed && !has(cells[p].0, cells[p].1, invocation) {
                indexes.push(p);
                together.insert((p, invocation));
            }
        }
        for (k, &i) in indexes.iter().enumerate() {
            let _ = events.send(Event::CellStarted {
                index: i,
                invocation,
                beside: k > 0,
            });
        }
        // The host probe just before the worker, in this process: what the host does now,
        // set beside the cell's spread by `show --noise` (about 5 ms, outside every timing).
        let host = Some(crate::sample::probe());
        let started_ms = Some((started.elapsed().as_secs_f64() * 1e3 * 10.0).round() / 10.0);
        let t0 = Instant::now();
        let load = crate::sample::LoadMeter::start();
        let mut cell = CellCtx {
            plan,
            invocation,
            arms: indexes
                .iter()
                .map(|&i| Arm::new(cells[i], i, state[i].iterations))
                .collect(),
            live: Vec::new(),
            writer: &mut writer,
            events,
            run_started: started,
            cancel,
        };
        let failure = match cell.spec(compiler.as_ref(), worker) {
            Some(spec) => cell.run(worker, &spec)?,
            None => None,
        };
        let arms: Vec<Ended> = cell
            .arms
            .into_iter()
            .map(|a| Ended {
                index: a.index,
                iterations: a.iterations,
                // The worker's own end (crash, timeout, cancel) is every live arm's.
                failure: a.failure.or_else(|| failure.clone()),
                kept: a.kept,
                notes: a.notes,
            })
            .collect();
        if failure == Some(Failure::Cancelled) {
            status = RunStatus::Cancelled;
        }
        let wall_ms = t0.elapsed().as_secs_f64() * 1e3;
        // Orphans the worker left (a headless run adopts them) are its own load, not other.
        crate::sample::reap();
        let other_cores = load
            .and_then(|l| l.other_cores())
            .map(|c| (c * 1000.0).round() / 1000.0);
        for Ended {
            index,
            iterations,
            kept,
            failure,
            notes,
        } in arms
        {
            let (rt, test) = cells[index];
            let failure = failure.map(|f| features.name_missing(f, rt, test));
            writer.cell(&CellRecord {
                runtime: rt.id.clone(),
                test: test.name.clone(),
                invocation,
                failure: failure.clone(),
                wall_ms,
                other_cores,
                notes,
                host,
                started_ms,
            })?;
            let st = &mut state[index];
            st.ended += 1;
            st.iterations += iterations;
            st.wall_ms += wall_ms;
            st.failed = failure.is_some();
            st.rows.extend(kept);
            // Finished once: at its planned count or its failure (an added round's failure
            // fails the cell too, and is said).
            if st.failed || st.ended >= invocations {
                if !st.finished || st.failed {
                    ran += usize::from(!st.finished);
                    failed += usize::from(failure.is_some());
                    let _ = events.send(Event::CellFinished {
                        index,
                        failure,
                        wall_ms: st.wall_ms,
                    });
                }
                st.finished = true;
            }
        }
        if status == RunStatus::Cancelled {
            break;
        }
    }
    if status == RunStatus::Complete {
        failed += cross_check_answers(plan, &cells, &state, &mut writer, events)?;
    }
    let dir = writer.finish(status)?;
    // A worker killed by a timeout or Ctrl-C leaves the container it started: its worker
    // is gone now, so the container is stale.
    if plan
        .runtimes
        .iter()
        .any(|r| crate::runtime::container::is_variant(&r.id))
        && let Ok(engine) = crate::runtime::container::detect()
    {
        engine.clear_stale();
        crate::runtime::container::forget_probes();
    }
    let _ = events.send(Event::RunFinished { status, failed });
    #[cfg(feature = "parquet")]
    crate::history::index_run(&dir);
    Ok(RunOutcome {
        run_id,
        dir,
        status,
        failed,
        cells: ran,
    })
}

/// Each cell's measured rows and whether it failed, for [`super::precision`].
fn state_rows(state: &[CellState]) -> Vec<(&[MeasurementRow], bool)> {
    state
        .iter()
        .map(|s| (s.rows.as_slice(), s.failed))
        .collect()
}

/// Fails, after the fact, the cells of tests without a known answer whose answer is not
/// the majority's ([`cross_check`]); returns how many.
fn cross_check_answers(
    plan: &Plan,
    cells: &[(&RuntimeInfo, &TestCase)],
    state: &[CellState],
    writer: &mut RunWriter,
    events: &Sender<Event>,
) -> Result<usize, RunnerError> {
    let mut failed = 0;
    for test in plan.tests.iter().filter(|t| t.cross_checked()) {
        let ok: Vec<&str> = cells
            .iter()
            .zip(state)
            .filter(|((_, t), st)| t.name == test.name && !st.failed)
            .map(|((rt, _), _)| rt.id.as_str())
            .collect();
        for (runtime, why) in cross_check::disagreements(writer.dir(), &test.name, &ok) {
            let failure = Failure::WrongOutput(why);
            writer.cell(&CellRecord {
                runtime: runtime.clone(),
                test: test.name.clone(),
                invocation: 0,
                failure: Some(failure.clone()),
                wall_ms: 0.0,
                other_cores: None,
                notes: Vec::new(),
                host: None,
                started_ms: None,
            })?;
            failed += 1;
            if let Some(index) = cells
                .iter()
                .position(|(rt, t)| rt.id == runtime && t.name == test.name)
            {
                let _ = events.send(Event::CellFinished {
                    index,
                    failure: Some(failure),
                    wall_ms: state[index].wall_ms,
                });
            }
        }
    }
    Ok(failed)
}

/// Creates a cell's scratch directory.
fn make_scratch(dir: &Path) -> Result<(), Failure> {
    std::fs::create_dir_all(dir).map_err(|e| Failure::Other(format!("{}: {e}", dir.display())))
}

struct CellCtx<'a> {
    plan: &'a Plan,
    invocation: u32,
    /// The cell, and with `--pair-mode alternate` the other arms of its group, run in one
    /// worker.
    arms: Vec<Arm<'a>>,
    /// The arms the worker runs, by the arm number of its reports.
    live: Vec<usize>,
    writer: &'a mut RunWriter,
    events: &'a Sender<Event>,
    run_started: Instant,
    cancel: &'a AtomicBool,
}

/// How one arm's invocation ended, as its cell record and the run's state take it.
struct Ended {
    index: usize,
    iterations: u32,
    kept: Vec<MeasurementRow>,
    failure: Option<Failure>,
    notes: Vec<String>,
}

/// One cell of an invocation's worker.
struct Arm<'a> {
    index: usize,
    runtime: &'a RuntimeInfo,
    test: &'a TestCase,
    /// Iterations the cell's earlier invocations did (progress counts over all of them).
    iterations_before: u32,
    /// Iterations this invocation did.
    iterations: u32,
    /// The measured (not warm-up) rows of this invocation, kept for `--precision`.
    kept: Vec<MeasurementRow>,
    /// This arm's own failure, when the worker went on with the other.
    failure: Option<Failure>,
    /// The worker's notes of this invocation.
    notes: Vec<String>,
}

impl<'a> Arm<'a> {
    fn new(cell: (&'a RuntimeInfo, &'a TestCase), index: usize, before: u32) -> Arm<'a> {
        Arm {
            index,
            runtime: cell.0,
            test: cell.1,
            iterations_before: before,
            iterations: 0,
            kept: Vec::new(),
            failure: None,
            notes: Vec::new(),
        }
    }
}

/// Recording a count can fail the cell, or (saving) the run.
enum RecordError {
    Cell(Failure),
    Run(RunnerError),
}

enum Line {
    Msg(WorkerMsg),
    Garbage(String),
    Eof,
}

#[allow(unsafe_code)]
fn kill_group(pgid: u32) {
    // SAFETY: kill has no memory effects; a negative pid addresses the worker's own
    // process group, which it leads, so nothing else is signalled.
    unsafe {
        libc::kill(-(pgid as libc::pid_t), libc::SIGKILL);
    }
}

impl CellCtx<'_> {
    /// The worker's spec: every arm that could be prepared (one that could not has its
    /// failure set), the others as the first's partners; `None` when none could.
    fn spec(
        &mut self,
        compiler: Result<&NativeCompiler, &String>,
        worker: &WorkerCommand,
    ) -> Option<CellSpec> {
        let mut specs = Vec::new();
        for k in 0..self.arms.len() {
            match self.prepare(&self.arms[k], compiler, worker) {
                Ok(spec) => {
                    self.live.push(k);
                    specs.push(spec);
                }
                Err(f) => self.arms[k].failure = Some(f),
            }
        }
        let mut specs = specs.into_iter();
        let mut spec = specs.next()?;
        let others: Vec<CellSpec> = specs.collect();
        spec.partners = (!others.is_empty()).then(|| Partners {
            arms: others,
            seed: self.plan.settings.seed
                ^ u64::from(self.invocation).rotate_left(32)
                ^ self.arms[0].index as u64,
        });
        Some(spec)
    }

    /// Everything the worker needs for one arm; failures here are the cell's, not the run's.
    fn prepare(
        &self,
        a: &Arm<'_>,
        compiler: Result<&NativeCompiler, &String>,
        worker: &WorkerCommand,
    ) -> Result<CellSpec, Failure> {
        if let Some(why) = &a.runtime.unavailable {
            return Err(Failure::Unavailable(why.clone()));
        }
        // Unique in the process too: two runs in one process (a library user, parallel
        // tests) must not share, and so delete, each other's scratch.
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let scratch = std::env::temp_dir().join(format!(
            "wasmeter-scratch-{}-{}-{}",
            std::process::id(),
            a.index,
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        match &a.test.kind {
            // A command makes its scratch directory once nothing else can fail.
            TestKind::Command(cmd) => self.command_spec(a, cmd, compiler, scratch),
            TestKind::Lifecycle(module) => {
                make_scratch(&scratch)?;
                Ok(self.lifecycle_spec(a, module, scratch, worker))
            }
            TestKind::Gateway(g) => {
                let guest = match a.runtime.id.as_str() {
                    crate::runtime::container::PER_REQUEST => {
                        Some(self.native_program(a, &g.guest, compiler, NativeForm::Program)?)
                    }
                    _ => None,
                };
                make_scratch(&scratch)?;
                let http = (HttpKind::Gateway, &g.request);
                Ok(self.http_spec(a, http, guest, scratch, worker))
            }
            TestKind::Servers(http) => {
                make_scratch(&scratch)?;
                Ok(self.http_spec(a, (HttpKind::Servers, http), None, scratch, worker))
            }
        }
    }

    /// A command cell: its program on this runtime (the native build made when needed),
    /// the answer it must give and its check step.
    fn command_spec(
        &self,
        a: &Arm<'_>,
        cmd: &CommandTest,
        compiler: Result<&NativeCompiler, &String>,
        scratch: PathBuf,
    ) -> Result<CellSpec, Failure> {
        let size = self.plan.settings.size;
        let on_native = a.runtime.kind == RuntimeKind::Native;
        let guest = &cmd.guest;
        let read = |path: &Path| {
            std::fs::read_to_string(path)
                .map_err(|_| Failure::MissingFile(path.display().to_string()))
        };
        // A prebuilt test (from a suite's build script) has no answer file or size
        // argument unless it is sized: its check step, if any, checks it. A module as
        // given has its own arguments, environment and stdin, and an answer only when the
        // user gave one. A build the script could not make fails its cells with its reason.
        let none = crate::suite::ModuleRun::default();
        if let Build::Prebuilt {
            wasm_error,
            native_error,
            ..
        } = &guest.build
            && let Some(e) = if on_native { native_error } else { wasm_error }
        {
            return Err(Failure::Other(format!("not built: {e}")));
        }
        let (expected, args, run) = match &guest.build {
            Build::Prebuilt { sized: false, .. } => (None, Vec::new(), &none),
            Build::Module(run) => (
                run.expect.as_deref().map(read).transpose()?,
                run.args.clone(),
                run,
            ),
            Build::Source(_) | Build::Prebuilt { sized: true, .. } => (
                Some(read(&self.plan.suite.expected_path(a.test, size))?),
                vec![size.as_str().to_string()],
                &none,
            ),
        };
        let in_worker = a.runtime.id == NATIVE_DLOPEN;
        let program = match (&guest.build, on_native, in_worker) {
            (_, false, _) => guest.wasm.clone(),
            (Build::Source(_), true, true) => {
                self.native_program(a, guest, compiler, NativeForm::Library)?
            }
            (_, true, true) => return Err(Failure::Unavailable(NO_LIBRARY.into())),
            (_, true, false) => self.native_program(a, guest, compiler, NativeForm::Program)?,
        };
        let check = cmd.check.as_ref().map(|c| CheckJob {
            program: if on_native {
                c.native.clone()
            } else {
                c.wasm.clone()
            },
            expected: c.expected.clone(),
            result: c.result.clone(),
        });
        let untimed = cmd.check.as_ref().is_some_and(|c| c.untimed.is_some());
        make_scratch(&scratch)?;
        // No known answer: the runtimes' answers are compared when the run ends.
        let answer_file = a
            .test
            .cross_checked()
            .then(|| cross_check::answer_file(self.writer.dir(), &a.test.name, &a.runtime.id));
        if let Some(dir) = answer_file.as_ref().and_then(|f| f.parent()) {
            make_scratch(dir)?;
        }
        let instructions_dir = (self.plan.settings.measure == crate::store::Measure::Instructions
            && a.runtime.kind == RuntimeKind::Embedded)
            .then(|| scratch.join("callgrind"));
        Ok(CellSpec {
            runtime: a.runtime.clone(),
            job: Job {
                program,
                name: a.test.name.clone(),
                args,
                env: run.env.clone(),
                scratch,
                memory_limit: self.plan.settings.memory_cap_bytes,
                stdout_limit: 16 << 20,
                stdin: run.stdin.clone(),
                dirs: run.dirs.clone(),
                // A native build has no exports: it runs as a program.
                invoke: run.invoke.clone().filter(|_| !on_native),
            },
            // An untimed test is only checked.
            warmup: if untimed {
                0
            } else {
                self.plan.settings.warmup
            },
            runs: if untimed { 0 } else { self.plan.settings.runs },
            work: CellWork::Command(CommandJob {
                expected,
                check,
                self_timed_iterations: self.plan.suite.self_timed_iterations,
                answer_file,
            }),
            instructions_dir,
            partners: None,
            profile: self
                .plan
                .settings
                .profile
                .map(crate::profile::ProfileSpec::at_hz),
        })
    }

    /// A lifecycle cell: no answer file; the worker generates or reads the module and may
    /// start fresh copies of itself for first-in-process samples.
    fn lifecycle_spec(
        &self,
        a: &Arm<'_>,
        module: &crate::lifecycle::LifecycleModule,
        scratch: PathBuf,
        worker: &WorkerCommand,
    ) -> CellSpec {
        self.host_driven(
            a,
            PathBuf::new(),
            scratch,
            CellWork::Lifecycle(LifecycleJob {
                module: module.clone(),
                fresh: Some(worker.clone()),
                first_only: None,
            }),
        )
    }

    /// A cell the worker drives itself (lifecycle, HTTP): no arguments, no answer file.
    fn host_driven(
        &self,
        a: &Arm<'_>,
        program: PathBuf,
        scratch: PathBuf,
        work: CellWork,
    ) -> CellSpec {
        CellSpec {
            runtime: a.runtime.clone(),
            job: Job {
                program,
                name: a.test.name.clone(),
                args: Vec::new(),
                env: Vec::new(),
                scratch,
                memory_limit: self.plan.settings.memory_cap_bytes,
                stdout_limit: 0,
                stdin: None,
                dirs: Vec::new(),
                invoke: None,
            },
            warmup: self.plan.settings.warmup,
            runs: self.plan.settings.runs,
            work,
            instructions_dir: None,
            partners: None,
            profile: None,
        }
    }

    /// An HTTP cell: the worker starts the server (the gateway is wasmeter itself,
    /// `serve-gateway`) and loads it; no answer file, the driver checks answers.
    fn http_spec(
        &self,
        a: &Arm<'_>,
        (kind, http): (HttpKind, &crate::suite::HttpTest),
        native_guest: Option<PathBuf>,
        scratch: PathBuf,
        worker: &WorkerCommand,
    ) -> CellSpec {
        // The gateway's guest (none for a servers suite): its module, or its native build
        // for the variant that runs it in a container per request.
        let program = native_guest
            .or_else(|| a.test.wasm().map(Path::to_path_buf))
            .unwrap_or_default();
        let job = HttpJob {
            kind,
            test: http.clone(),
            settings: self.plan.settings.http.clone().unwrap_or_default(),
            serve_gateway: WorkerCommand {
                program: worker.program.clone(),
                args: vec![super::SERVE_GATEWAY.into()],
            },
            suite_dir: self.plan.suite.dir.clone(),
            cache_dir: crate::runtime::cache_root()
                .join("servers")
                .join(&self.plan.suite.name),
        };
        self.host_driven(a, program, scratch, CellWork::Http(Box::new(job)))
    }

    /// The native build of a test's guest (the native baseline's program, native-dlopen's
    /// library, the guest container-per-request runs): built from its source in `form`,
    /// the suite script's prebuilt one, or the one given with a module.
    fn native_program(
        &self,
        a: &Arm<'_>,
        guest: &crate::suite::Guest,
        compiler: Result<&NativeCompiler, &String>,
        form: NativeForm,
    ) -> Result<PathBuf, Failure> {
        match &guest.build {
            Build::Source(src) => compiler
                .map_err(|e| Failure::Unavailable(e.clone()))?
                .build(&self.plan.suite, &a.test.name, src, form),
            Build::Prebuilt {
                native_error: Some(e),
                ..
            } => Err(Failure::Other(format!("not built: {e}"))),
            Build::Prebuilt { native, .. } => Ok(native.clone()),
            Build::Module(run) => run
                .native
                .clone()
                .ok_or_else(|| Failure::Unavailable(NO_NATIVE.into())),
        }
    }

    /// Runs the worker for this cell, returning why it failed (if it did).
    fn run(
        &mut self,
        worker: &WorkerCommand,
        spec: &CellSpec,
    ) -> Result<Option<Failure>, RunnerError> {
        // Counting instructions: the worker runs under callgrind, its dumps in the scratch.
        let wrapped;
        let worker = match &spec.instructions_dir {
            Some(dir) => {
                let valgrind = super::instructions::valgrind().map_err(|e| RunnerError::Spawn {
                    program: "valgrind".into(),
                    source: std::io::Error::new(std::io::ErrorKind::NotFound, e),
                })?;
                std::fs::create_dir_all(dir).map_err(|source| RunnerError::Spawn {
                    program: dir.display().to_string(),
                    source,
                })?;
                wrapped = super::instructions::wrap(&valgrind, worker, dir);
                &wrapped
            }
            None => worker,
        };
        let mut result = self.supervise(worker, spec);
        if let (Ok(None), Some(dir)) = (&result, &spec.instructions_dir) {
            result = self
                .record_instructions(dir)
                .map(|()| None)
                .or_else(|f| match f {
                    RecordError::Cell(f) => Ok(Some(f)),
                    RecordError::Run(e) => Err(e),
                });
        }
        let _ = std::fs::remove_dir_all(&spec.job.scratch);
        for p in spec.partners.iter().flat_map(|p| &p.arms) {
            let _ = std::fs::remove_dir_all(&p.job.scratch);
        }
        result
    }

    /// Saves the instructions per iteration that callgrind counted in this invocation, as one
    /// value of the execute phase.
    fn record_instructions(&mut self, dir: &Path) -> Result<(), RecordError> {
        let total = super::instructions::take_total(dir).ok_or_else(|| {
            RecordError::Cell(Failure::Other(format!(
                "callgrind left no instruction count in {}",
                dir.display()
            )))
        })?;
        // Counting never alternates (plan::pair_mode): the worker ran one arm.
        let a = &self.arms[0];
        let row = MeasurementRow {
            runtime: a.runtime.id.clone(),
            test: a.test.name.clone(),
            phase: crate::runtime::Phase::Execute,
            invocation: self.invocation,
            iteration: 0,
            warmup: false,
            metric: crate::runtime::Metric::Instructions,
            value: total / f64::from(a.iterations.max(1)),
        };
        self.writer
            .measurements(std::slice::from_ref(&row))
            .map_err(|e| RecordError::Run(e.into()))?;
        let _ = self.events.send(Event::Measurement { rows: vec![row] });
        Ok(())
    }

    fn supervise(
        &mut self,
        worker: &WorkerCommand,
        spec: &CellSpec,
    ) -> Result<Option<Failure>, RunnerError> {
        let mut child = Command::new(&worker.program)
            .args(&worker.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .env("RUST_BACKTRACE", "0")
            .spawn()
            .map_err(|source| RunnerError::Spawn {
                program: worker.program.display().to_string(),
                source,
            })?;
        let pid = child.id();
        let spec_json = serde_json::to_vec(spec).expect("cell spec serialises");
        if let Some(mut stdin) = child.stdin.take() {
            let _ = stdin.write_all(&spec_json);
        }
        let (tx, rx) = unbounded();
        let stdout = child.stdout.take().expect("piped");
        std::thread::spawn(move || read_lines(stdout, tx));
        let mut stderr = child.stderr.take().expect("piped");
        let stderr_tail = std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = stderr.read_to_end(&mut buf);
            last_words(&String::from_utf8_lossy(&buf))
        });

        let failure = self.watch(pid, &rx, spec);
        if failure.is_some() {
            kill_group(pid);
        }
        let status = child.wait().ok();
        let tail = stderr_tail.join().unwrap_or_default();
        Ok(failure.map(|f| match f {
            // A worker that vanished mid-cell: say how it died, with its last words.
            Failure::Crash(m) if m.is_empty() => {
                let how = match status {
                    Some(s) if s.signal().is_some() => {
                        let sig = s.signal().unwrap_or(0);
                        format!("worker killed by signal {sig} ({})", signal_name(sig))
                    }
                    Some(s) => format!("worker exited with {}", s.code().unwrap_or(-1)),
                    None => "worker vanished".into(),
                };
                if tail.is_empty() {
                    Failure::Crash(how)
                } else {
                    Failure::Crash(format!("{how}: {tail}"))
                }
            }
            other => other,
        }))
    }

    /// Follows the worker until it is done, fails, hangs, or outgrows its memory cap.
    fn watch(&mut self, pid: u32, rx: &Receiver<Line>, spec: &CellSpec) -> Option<Failure> {
        let settings = &self.plan.settings;
        let interval = Duration::from_millis(settings.sample_interval_ms);
        // Under callgrind a worker runs tens of times slower.
        let slowdown = if spec.instructions_dir.is_some() {
            50
        } else {
            1
        };
        let timeout = Duration::from_secs(settings.timeout_secs) * slowdown;
        let mut sampler = TreeSampler::new(pid);
        let mut deadline = Instant::now() + timeout;
        let mut next_sample = Instant::now() + interval;
        loop {
            let wait = next_sample.saturating_duration_since(Instant::now());
            match rx.recv_timeout(wait) {
                Ok(Line::Msg(WorkerMsg::Started { .. })) => deadline = Instant::now() + timeout,
                Ok(Line::Msg(WorkerMsg::Iteration {
                    iteration,
                    warmup,
                    values,
                    histograms,
                    arm,
                })) => {
                    let Some(a) = self.live.get(usize::from(arm)).map(|&k| &mut self.arms[k])
                    else {
                        return Some(Failure::Other(format!(
                            "worker reported arm {arm}, which it was not given"
                        )));
                    };
                    let rows: Vec<MeasurementRow> = values
                        .into_iter()
                        .map(|v| MeasurementRow {
                            runtime: a.runtime.id.clone(),
                            test: a.test.name.clone(),
                            phase: v.phase,
                            invocation: self.invocation,
                            iteration,
                            warmup,
                            metric: v.metric,
                            value: v.value,
                        })
                        .collect();
                    if let Err(e) = self.writer.measurements(&rows) {
                        return Some(Failure::Other(format!("cannot save: {e}")));
                    }
                    if !histograms.is_empty() {
                        let saved: Vec<HistogramRow> = histograms
                            .into_iter()
                            .map(|level| HistogramRow {
                                runtime: a.runtime.id.clone(),
                                test: a.test.name.clone(),
                                invocation: self.invocation,
                                iteration,
                                warmup,
                                level,
                            })
                            .collect();
                        if let Err(e) = self.writer.histograms(&saved) {
                            return Some(Failure::Other(format!("cannot save: {e}")));
                        }
                    }
                    if settings.precision.is_some() && !warmup {
                        a.kept.extend(rows.iter().cloned());
                    }
                    a.iterations += 1;
                    let _ = self.events.send(Event::Measurement { rows });
                    let _ = self.events.send(Event::Progress {
                        index: a.index,
                        done: a.iterations_before + a.iterations,
                    });
                }
                // A cell alone stops at its failure; an alternating worker goes on with the
                // other arms and says when it is done.
                Ok(Line::Msg(WorkerMsg::Failed { failure, arm, .. })) => {
                    match self.live.get(usize::from(arm)) {
                        Some(&k) if self.live.len() > 1 => self.arms[k].failure = Some(failure),
                        _ => return Some(failure),
                    }
                }
                Ok(Line::Msg(WorkerMsg::Profile { iteration, row })) => {
                    let Some(a) = self.live.first().map(|&k| &self.arms[k]) else {
                        continue;
                    };
                    let mut row = *row;
                    row.runtime = a.runtime.id.clone();
                    row.test = a.test.name.clone();
                    row.invocation = self.invocation;
                    let _ = iteration;
                    if let Err(e) = self.writer.profile(&row) {
                        return Some(Failure::Other(format!("cannot save: {e}")));
                    }
                }
                Ok(Line::Msg(WorkerMsg::Note { text })) => {
                    // A note concerns the cell (every arm of a group runs the same way).
                    for &k in &self.live {
                        if !self.arms[k].notes.contains(&text) {
                            self.arms[k].notes.push(text.clone());
                        }
                    }
                }
                Ok(Line::Msg(WorkerMsg::Done)) => return None,
                Ok(Line::Garbage(l)) => {
                    return Some(Failure::Other(format!(
                        "worker said something unexpected: {l}"
                    )));
                }
                Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    return Some(Failure::Crash(String::new()));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            let now = Instant::now();
            if now >= next_sample {
                next_sample = now + interval;
                let r = sampler.sample();
                // One worker for every arm of an alternating group: each cell's graph shows it.
                for &k in &self.live {
                    let a = &self.arms[k];
                    let row = SampleRow {
                        t_ms: self.run_started.elapsed().as_secs_f64() * 1e3,
                        runtime: a.runtime.id.clone(),
                        test: a.test.name.clone(),
                        cpu_pct: r.cpu_pct,
                        rss_bytes: r.rss_bytes,
                    };
                    let _ = self.writer.sample(&row);
                    let _ = self.events.send(Event::Sample { sample: row });
                }
                if r.rss_bytes > settings.memory_cap_bytes {
                    return Some(Failure::OutOfMemory(format!(
                        "resident memory {} MiB over the cap of {} MiB",
                        r.rss_bytes >> 20,
                        settings.memory_cap_bytes >> 20
                    )));
                }
            }
            if now >= deadline {
                return Some(Failure::Timeout(settings.timeout_secs));
            }
            if self.cancel.load(Ordering::SeqCst) {
                return Some(Failure::Cancelled);
            }
        }
    }
}

fn read_lines(stdout: impl Read, tx: Sender<Line>) {
    for line in BufReader::new(stdout).lines() {
        let Ok(line) = line else { break };
        let msg = match serde_json::from_str::<WorkerMsg>(&line) {
            Ok(m) => Line::Msg(m),
            Err(_) => Line::Garbage(line.chars().take(200).collect()),
        };
        if tx.send(msg).is_err() {
            return;
        }
    }
    let _ = tx.send(Line::Eof);
}

/// The useful part of a dead worker's stderr: a panic's message, else its last lines.
fn last_words(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    if let Some(i) = lines.iter().position(|l| l.contains("panicked at")) {
        return lines[i..lines.len().min(i + 2)].join(" ");
    }
    let tail = &lines[lines.len().saturating_sub(3)..];
    tail.join(" | ")
}
