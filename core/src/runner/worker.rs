//! The worker side: runs one cell (runtime × test, every iteration) in its own process and
//! reports over stdout as JSON lines, so a crash or hang takes down only that cell.

use crate::http_suites::driver::{Driver as HttpDriver, HttpJob};
use crate::lifecycle::{self, Driver, LifecycleModule};
use crate::runtime::{self, Failure, Job, Metric, Phase, PhaseValue, RuntimeInfo};
use crate::runtime::{WorkerCommand, read_spec};
use crate::store::LevelHistogram;
use crate::suite::{OutputCheck, check_output, parse_output};
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What the runner asks a worker to do.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CellSpec {
    /// The runtime, as resolved by the runner (CLI command lines included).
    pub runtime: RuntimeInfo,
    /// The guest and its environment.
    pub job: Job,
    /// Warm-up iterations.
    pub warmup: u32,
    /// Measured iterations.
    pub runs: u32,
    /// What the cell does, by the kind of its suite.
    pub work: CellWork,
    /// Set when the worker runs under callgrind (`--measure instructions`): where its
    /// count goes; the runner reads it when the worker has exited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions_dir: Option<PathBuf>,
    /// The other arms of `run --pair A,B[,C…] --pair-mode alternate` (command cells too):
    /// run in this worker, iteration by iteration with this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partners: Option<Partners>,
    /// Set with `run --profile`: the measured iterations' execute phase is sampled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<crate::profile::ProfileSpec>,
}

/// The other arms of a cell that alternates several in one worker: the k-th one's reports
/// carry arm k + 1.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Partners {
    /// The arms' own cells.
    pub arms: Vec<CellSpec>,
    /// Seed of the draw that orders the arms each iteration.
    pub seed: u64,
}

/// What a cell does: each way a cell runs holds only what it needs.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CellWork {
    /// A command suite's cell: the job's program runs once per iteration.
    Command(CommandJob),
    /// A lifecycle cell: the host drives the engine, no guest program runs.
    Lifecycle(LifecycleJob),
    /// An HTTP cell: the worker starts servers and loads them.
    Http(Box<HttpJob>),
}

/// How a command cell checks and reads what its program prints.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct CommandJob {
    /// Expected answer; `None` skips the known-answer check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// A checking build to run once before the iterations; a wrong answer fails the cell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<CheckJob>,
    /// The suite's [`crate::suite::Suite::self_timed_iterations`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub self_timed_iterations: Option<u32>,
    /// Where to keep the answer of the first successful iteration (its first
    /// [`ANSWER_LIMIT`] bytes), for a test with no known answer: the runner compares the
    /// runtimes' answers when the run ends ([`super::cross_check`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_file: Option<PathBuf>,
}

/// Most bytes of an answer kept for the cross-check.
pub const ANSWER_LIMIT: usize = 1 << 20;

/// The check step of a cell, for its runtime: the program to run and the answer it must
/// write (libsodium's checking mode).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckJob {
    /// Module or executable of the checking build.
    pub program: PathBuf,
    /// Known answer, copied into the scratch directory under its file name.
    pub expected: PathBuf,
    /// File the program writes in its working directory.
    pub result: String,
}

/// What a lifecycle cell measures, besides its runtime.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LifecycleJob {
    /// The module: generated, or a file.
    pub module: LifecycleModule,
    /// How to start a fresh worker for first-in-process samples (one per iteration); without
    /// one they are not taken.
    #[serde(default)]
    pub fresh: Option<WorkerCommand>,
    /// Set in such a fresh worker: take only the first instantiation and first call of the
    /// module precompiled at this path (or, for an engine without that format, the module
    /// there), as one iteration.
    #[serde(default)]
    pub first_only: Option<PathBuf>,
}

/// A worker's report line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum WorkerMsg {
    /// An iteration is starting (resets the runner's timeout).
    Started {
        /// Iteration index (warm-ups first).
        iteration: u32,
    },
    /// An iteration succeeded.
    Iteration {
        /// Iteration index.
        iteration: u32,
        /// True for warm-ups.
        warmup: bool,
        /// Phase values.
        values: Vec<PhaseValue>,
        /// Latency histograms of its open-model levels (HTTP suites).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        histograms: Vec<LevelHistogram>,
        /// Which arm of an alternating pair (0, left out, for a cell alone).
        #[serde(default, skip_serializing_if = "is_zero")]
        arm: u8,
    },
    /// The cell (of an alternating pair: this arm) failed; no more of its iterations follow.
    Failed {
        /// Iteration at which it failed.
        iteration: u32,
        /// Why.
        failure: Failure,
        /// Which arm of an alternating pair (0, left out, for a cell alone).
        #[serde(default, skip_serializing_if = "is_zero")]
        arm: u8,
    },
    /// A measured iteration's profile (`run --profile`), sent after its values.
    Profile {
        /// Iteration index.
        iteration: u32,
        /// Its samples, folded; the runner names the runtime, test and invocation.
        row: Box<crate::profile::ProfileRow>,
    },
    /// Something the reader of the run should know about how the cell was measured (an
    /// adaptation to this host), kept with the cell's record.
    Note {
        /// One line.
        text: String,
    },
    /// Every iteration ran.
    Done,
}

fn is_zero(arm: &u8) -> bool {
    *arm == 0
}

fn send(out: &mut impl Write, msg: &WorkerMsg) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, msg)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// Runs one iteration of a command and checks its answer.
fn iterate(
    rt: &dyn runtime::Runtime,
    job: &Job,
    cmd: &CommandJob,
) -> Result<Vec<PhaseValue>, Failure> {
    let it = rt.run(job)?;
    let stdout = String::from_utf8_lossy(&it.stdout);
    let parsed = parse_output(&stdout).map_err(Failure::Other)?;
    if let Some(expected) = &cmd.expected
        && let OutputCheck::Mismatch(why) = check_output(&parsed.answer, expected)
    {
        return Err(Failure::WrongOutput(why));
    }
    if let Some(file) = &cmd.answer_file
        && !file.exists()
    {
        let mut end = parsed.answer.len().min(ANSWER_LIMIT);
        while !parsed.answer.is_char_boundary(end) {
            end -= 1;
        }
        std::fs::write(file, &parsed.answer[..end])
            .map_err(|e| Failure::Other(format!("{}: {e}", file.display())))?;
    }
    let mut values = it.values;
    let self_ns = match cmd.self_timed_iterations {
        // The loop's whole time, so that start-up (total minus self) stays meaningful.
        Some(n) => Some(
            parsed
                .ps_per_iteration
                .ok_or_else(|| no_timing(&parsed.answer))?
                * f64::from(n)
                / 1000.0,
        ),
        // Only the protocol line is a time here: a module that prints one integer (its
        // checksum, say) is timed by its phases or process, never read as picoseconds.
        None => parsed.self_time_ns,
    };
    if let Some(ns) = self_ns {
        values.push(PhaseValue {
            phase: Phase::Execute,
            metric: Metric::SelfNs,
            value: ns,
        });
    }
    Ok(values)
}

/// The failure of a self-timed test that printed no timing.
fn no_timing(answer: &str) -> Failure {
    let said = answer.trim();
    Failure::WrongOutput(if said.is_empty() {
        "printed no timing (expected one integer: picoseconds per iteration)".into()
    } else {
        format!(
            "expected one integer (picoseconds per iteration), got '{}'",
            said.chars().take(80).collect::<String>()
        )
    })
}

/// Runs a cell's checking build once in the scratch directory and compares what it wrote
/// with the known answer. libsodium's tests compare it themselves and exit 99 when it
/// differs; a few end through `_exit(0)` in a signal handler before their output is
/// flushed, so an exit 0 with an unfinished (prefix) result is their own pass.
fn check_step(rt: &dyn runtime::Runtime, job: &Job, check: &CheckJob) -> Result<(), Failure> {
    let name = check.expected.file_name().unwrap_or_default();
    let expected = std::fs::read_to_string(&check.expected)
        .map_err(|_| Failure::MissingFile(check.expected.display().to_string()))?;
    std::fs::write(job.scratch.join(name), &expected)
        .map_err(|e| Failure::Other(format!("{}: {e}", job.scratch.display())))?;
    let result_path = job.scratch.join(&check.result);
    let _ = std::fs::remove_file(&result_path);
    let ran = rt.run(&Job {
        program: check.program.clone(),
        args: Vec::new(),
        ..job.clone()
    });
    let result = std::fs::read(&result_path).unwrap_or_default();
    let _ = std::fs::remove_file(&result_path);
    let _ = std::fs::remove_file(job.scratch.join(name));
    let result = String::from_utf8_lossy(&result);
    let mismatch = match check_output(&result, &expected) {
        OutputCheck::Match => None,
        OutputCheck::Mismatch(why) => Some(format!("check: {} {why}", check.result)),
    };
    let wrong = |fallback: String| Failure::WrongOutput(mismatch.clone().unwrap_or(fallback));
    match ran {
        Ok(_) if mismatch.is_none() || expected.starts_with(&*result) => Ok(()),
        Ok(_) => Err(wrong(String::new())),
        Err(Failure::ExitCode(99)) => Err(wrong(
            "check: the test reported a failed check (exit 99)".into(),
        )),
        Err(Failure::Other(m)) if m.contains("exited 99") => Err(wrong(format!("check: {m}"))),
        Err(f) => Err(f),
    }
}

/// Entry point of `wasmeter worker`: reads a [`CellSpec`] as JSON from `input`, writes
/// [`WorkerMsg`] lines to `output`. Returns the process exit code.
pub fn worker_main(input: impl Read, mut output: impl Write) -> i32 {
    let spec: CellSpec = match read_spec(input) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("wasmeter worker: bad cell spec on stdin: {e}");
            return 2;
        }
    };
    match &spec.work {
        CellWork::Command(cmd) => command_cell(&spec, cmd, &mut output),
        CellWork::Lifecycle(lc) => lifecycle_cell(&spec, lc, &mut output),
        CellWork::Http(job) => http_cell(&spec, job, &mut output),
    }
}

/// A command cell: the check step, if any, then every iteration.
fn command_cell(spec: &CellSpec, cmd: &CommandJob, out: &mut impl Write) -> i32 {
    if let Some(partners) = &spec.partners {
        return alternating_cells(spec, partners, out);
    }
    // A profiled cell: the engine is asked for a perf map before it is made, and may run
    // a named copy of the module (the same code).
    let mut job = spec.job.clone();
    let profiler = spec
        .profile
        .map(|p| super::profiler::CellProfiler::new(&spec.runtime, p, &mut job));
    let runtime = match &profiler {
        Some(p) => p.runtime(&spec.runtime),
        None => spec.runtime.clone(),
    };
    let rt = match command_runtime(spec, &runtime, cmd, out) {
        Ok(Some(rt)) => rt,
        Ok(None) => return 1,
        Err(failure) => return fail(out, 0, failure),
    };
    iterations(out, spec.warmup, spec.runs, |i| {
        let Some(p) = profiler.as_ref().filter(|_| i >= spec.warmup) else {
            return iterate(rt.as_ref(), &job, cmd).map(Measured::from);
        };
        p.begin();
        let ran = iterate(rt.as_ref(), &job, cmd);
        let row = p.end();
        ran.map(|values| Measured(values, Vec::new(), Some(row)))
    })
}

/// A command cell's runtime, its check step passed; `None` when the runner has gone.
fn command_runtime(
    spec: &CellSpec,
    runtime: &RuntimeInfo,
    cmd: &CommandJob,
    out: &mut impl Write,
) -> Result<Option<Box<dyn runtime::Runtime>>, Failure> {
    let rt = runtime::instantiate(runtime)?;
    if let Some(check) = &cmd.check {
        if send(out, &WorkerMsg::Started { iteration: 0 }).is_err() {
            return Ok(None);
        }
        check_step(rt.as_ref(), &spec.job, check)?;
    }
    Ok(Some(rt))
}

/// Command cells in one worker, iteration by iteration, in an order drawn afresh each
/// iteration: whatever this process and this moment of the machine do to one arm, they do
/// to the others. An arm that fails reports it and the others go on without it.
fn alternating_cells(a: &CellSpec, partners: &Partners, out: &mut impl Write) -> i32 {
    let mut rng = crate::analysis::Rng::new(partners.seed);
    let specs: Vec<&CellSpec> = std::iter::once(a).chain(&partners.arms).collect();
    // The arms' runtimes are made in a drawn order too: the engine made second in a
    // process tore instances down up to 1.9× slower than the first, identical modules
    // alike (a same-code pair's teardown was called slower), so no arm may always be it.
    let mut made: Vec<usize> = (0..specs.len()).collect();
    rng.shuffle(&mut made);
    let mut arms: Vec<Option<ArmRun>> = (0..specs.len()).map(|_| None).collect();
    for k in made {
        let spec = specs[k];
        let CellWork::Command(cmd) = &spec.work else {
            eprintln!("wasmeter worker: only command cells alternate");
            return 2;
        };
        match command_runtime(spec, &spec.runtime, cmd, out) {
            Ok(Some(rt)) => arms[k] = Some((spec, cmd, rt)),
            Ok(None) => return 1,
            Err(failure) => {
                let msg = WorkerMsg::Failed {
                    iteration: 0,
                    failure,
                    arm: k as u8,
                };
                if send(out, &msg).is_err() {
                    return 1;
                }
            }
        }
    }
    let rounds = specs.iter().map(|s| s.warmup + s.runs).max().unwrap_or(0);
    let mut order: Vec<usize> = (0..specs.len()).collect();
    for i in 0..rounds {
        rng.shuffle(&mut order);
        for &k in &order {
            let Some((spec, cmd, rt)) = &arms[k] else {
                continue;
            };
            if i >= spec.warmup + spec.runs {
                continue;
            }
            if send(out, &WorkerMsg::Started { iteration: i }).is_err() {
                return 1;
            }
            let msg = match iterate(rt.as_ref(), &spec.job, cmd) {
                Ok(values) => WorkerMsg::Iteration {
                    iteration: i,
                    warmup: i < spec.warmup,
                    values,
                    histograms: Vec::new(),
                    arm: k as u8,
                },
                Err(failure) => {
                    arms[k] = None;
                    WorkerMsg::Failed {
                        iteration: i,
                        failure,
                        arm: k as u8,
                    }
                }
            };
            if send(out, &msg).is_err() {
                return 1;
            }
        }
    }
    let _ = send(out, &WorkerMsg::Done);
    0
}

/// One arm of an alternating worker: its cell, its command, its runtime.
type ArmRun<'a> = (&'a CellSpec, &'a CommandJob, Box<dyn runtime::Runtime>);

/// Reports a failure before any iteration ran.
fn fail(out: &mut impl Write, iteration: u32, failure: Failure) -> i32 {
    let _ = send(
        out,
        &WorkerMsg::Failed {
            iteration,
            failure,
            arm: 0,
        },
    );
    0
}

/// Runs and reports every iteration, warm-ups first, until one fails.
/// What one iteration measured: its values, the histograms of HTTP rate levels, and its
/// profile when the cell is profiled.
pub struct Measured(
    Vec<PhaseValue>,
    Vec<LevelHistogram>,
    Option<crate::profile::ProfileRow>,
);

impl From<Vec<PhaseValue>> for Measured {
    fn from(v: Vec<PhaseValue>) -> Measured {
        Measured(v, Vec::new(), None)
    }
}

impl From<(Vec<PhaseValue>, Vec<LevelHistogram>)> for Measured {
    fn from((v, h): (Vec<PhaseValue>, Vec<LevelHistogram>)) -> Measured {
        Measured(v, h, None)
    }
}

fn iterations<M: Into<Measured>>(
    out: &mut impl Write,
    warmup: u32,
    runs: u32,
    mut one: impl FnMut(u32) -> Result<M, Failure>,
) -> i32 {
    for i in 0..warmup + runs {
        if send(out, &WorkerMsg::Started { iteration: i }).is_err() {
            return 1;
        }
        let mut profile = None;
        let msg = match one(i).map(Into::into) {
            Ok(Measured(values, histograms, row)) => {
                profile = row;
                WorkerMsg::Iteration {
                    iteration: i,
                    warmup: i < warmup,
                    values,
                    histograms,
                    arm: 0,
                }
            }
            Err(failure) => WorkerMsg::Failed {
                iteration: i,
                failure,
                arm: 0,
            },
        };
        let failed = matches!(msg, WorkerMsg::Failed { .. });
        if send(out, &msg).is_err() {
            return 1;
        }
        if let Some(row) = profile {
            let msg = WorkerMsg::Profile {
                iteration: i,
                row: Box::new(row),
            };
            if send(out, &msg).is_err() {
                return 1;
            }
        }
        if failed {
            return 0;
        }
    }
    let _ = send(out, &WorkerMsg::Done);
    0
}

/// A lifecycle cell: calibrate, then per iteration one sample of every measurement, plus
/// the first instantiation and call of a fresh process.
fn lifecycle_cell(spec: &CellSpec, lc: &LifecycleJob, out: &mut impl Write) -> i32 {
    let id = spec.runtime.id.as_str();
    if let Some(path) = &lc.first_only {
        let call = lc.module.generated().is_some();
        return iterations(out, 0, 1, |_| lifecycle::first_in_process(id, path, call));
    }
    // Calibration can take a while: it counts as the first iteration's time.
    if send(out, &WorkerMsg::Started { iteration: 0 }).is_err() {
        return 1;
    }
    let mut driver = match Driver::new(id, &lc.module, &spec.job.scratch, spec.job.memory_limit) {
        Ok(d) => d,
        Err(failure) => return fail(out, 0, failure),
    };
    iterations(out, spec.warmup, spec.runs, |_| {
        let mut values = driver.sample()?;
        if let Some(cmd) = &lc.fresh {
            values.extend(first_in_fresh_process(cmd, spec, lc, driver.start_from())?);
        }
        Ok(values)
    })
}

/// An HTTP cell: prepare (build step, upstream server), then per iteration a fresh server
/// measured from cold start through every concurrency level.
fn http_cell(spec: &CellSpec, job: &HttpJob, out: &mut impl Write) -> i32 {
    if send(out, &WorkerMsg::Started { iteration: 0 }).is_err() {
        return 1;
    }
    let mut driver = match HttpDriver::new(
        &spec.runtime,
        job,
        &spec.job.program,
        &spec.job.scratch,
        spec.job.memory_limit,
    ) {
        Ok(d) => d,
        Err(failure) => return fail(out, 0, failure),
    };
    for text in driver.take_notes() {
        if send(out, &WorkerMsg::Note { text }).is_err() {
            return 1;
        }
    }
    iterations(out, spec.warmup, spec.runs, |_| driver.iteration())
}

/// Starts a fresh worker that loads the precompiled module and reports its first
/// instantiation and call; returns those values.
fn first_in_fresh_process(
    cmd: &WorkerCommand,
    spec: &CellSpec,
    lc: &LifecycleJob,
    precompiled: &Path,
) -> Result<Vec<PhaseValue>, Failure> {
    let child_spec = CellSpec {
        warmup: 0,
        runs: 1,
        work: CellWork::Lifecycle(LifecycleJob {
            module: lc.module.clone(),
            fresh: None,
            first_only: Some(precompiled.to_path_buf()),
        }),
        ..spec.clone()
    };
    let mut child = Command::new(&cmd.program)
        .args(&cmd.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            Failure::Other(format!(
                "cannot start a fresh worker '{}': {e}",
                cmd.program.display()
            ))
        })?;
    if let Some(mut stdin) = child.stdin.take() {
        let json = serde_json::to_vec(&child_spec).expect("cell spec serialises");
        let _ = stdin.write_all(&json);
    }
    let done = child
        .wait_with_output()
        .map_err(|e| Failure::Other(format!("fresh worker: {e}")))?;
    for line in String::from_utf8_lossy(&done.stdout).lines() {
        match serde_json::from_str::<WorkerMsg>(line) {
            Ok(WorkerMsg::Iteration { values, .. }) => return Ok(values),
            Ok(WorkerMsg::Failed { failure, .. }) => return Err(failure),
            _ => {}
        }
    }
    let stderr = String::from_utf8_lossy(&done.stderr);
    Err(Failure::Crash(format!(
        "fresh worker for the first instance ended ({}) without a result: {}",
        done.status,
        stderr.lines().last().unwrap_or("")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::NativeRuntime;
    use std::os::unix::fs::PermissionsExt;

    /// A profile row crosses the worker's pipe whole, hot-code offsets included (a map
    /// keyed by integers did not: serde cannot read those through a tagged enum).
    #[test]
    fn a_profile_message_reads_back_whole() {
        let row = crate::profile::ProfileRow {
            runtime: String::new(),
            test: String::new(),
            invocation: 0,
            method: "m".into(),
            period_ns: 250_000,
            iterations: 1,
            stacks: [("main;fe_mul".to_string(), 7)].into(),
            libraries: Default::default(),
            functions: vec!["fe_mul".into()],
            lost: 0,
            kernel: false,
            leaf_only: None,
            names: None,
            unattributed: None,
            module: Some("/x/y.wasm".into()),
            code_sha256: Some("ab".into()),
            offsets: [("fe_mul".to_string(), vec![(4, 3), (19, 4)])].into(),
        };
        let msg = WorkerMsg::Profile {
            iteration: 2,
            row: Box::new(row.clone()),
        };
        let line = serde_json::to_string(&msg).unwrap();
        match serde_json::from_str::<WorkerMsg>(&line).unwrap() {
            WorkerMsg::Profile { iteration, row: r } => {
                assert_eq!(iteration, 2);
                assert_eq!(*r, row);
            }
            other => panic!("{other:?}"),
        }
    }

    /// A job whose program is a shell script, run natively in a scratch directory.
    fn script(dir: &Path, body: &str) -> Job {
        let program = dir.join(format!("prog{}.sh", body.len()));
        std::fs::write(&program, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        let scratch = dir.join("scratch");
        std::fs::create_dir_all(&scratch).unwrap();
        Job {
            program,
            name: "t".into(),
            args: Vec::new(),
            env: Vec::new(),
            scratch,
            memory_limit: 1 << 30,
            stdout_limit: 1 << 20,
            stdin: None,
            dirs: Vec::new(),
            invoke: None,
        }
    }

    /// Runs `f` again while exec says "Text file busy": a script just written can be held
    /// open for a moment by a child that another test thread forks.
    fn busy_retry<T>(f: impl Fn() -> Result<T, Failure>) -> Result<T, Failure> {
        for _ in 0..50 {
            match f() {
                Err(Failure::Other(m)) if m.contains("Text file busy") => {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                other => return other,
            }
        }
        f()
    }

    fn check(dir: &Path, body: &str) -> Result<(), Failure> {
        let expected = dir.join("t.exp");
        std::fs::write(&expected, "a\nb\n").unwrap();
        let job = script(dir, body);
        let check = CheckJob {
            program: job.program.clone(),
            expected,
            result: "t.res".into(),
        };
        let out = busy_retry(|| check_step(&NativeRuntime, &job, &check));
        // The scratch directory is left as it was found.
        assert!(!job.scratch.join("t.res").exists() && !job.scratch.join("t.exp").exists());
        out
    }

    #[test]
    fn the_check_step_compares_what_the_test_wrote() {
        let d = tempfile::tempdir().unwrap();
        // libsodium's tests read their .exp from the working directory.
        check(d.path(), "cat t.exp > t.res").unwrap();
        assert_eq!(
            check(d.path(), "printf 'a\\nc\\n' > t.res; exit 99"),
            Err(Failure::WrongOutput(
                "check: t.res line 2: expected 'b', got 'c'".into()
            ))
        );
        assert_eq!(
            check(d.path(), "cat t.exp > t.res; exit 99"),
            Err(Failure::WrongOutput(
                "check: the test reported a failed check (exit 99)".into()
            ))
        );
        // Ended early (libsodium's `_exit(0)` from a signal handler): its own pass.
        check(d.path(), "true").unwrap();
        check(d.path(), "printf 'a\\n' > t.res").unwrap();
        assert_eq!(
            check(d.path(), "printf 'x\\n' > t.res"),
            Err(Failure::WrongOutput(
                "check: t.res line 1: expected 'a', got 'x'".into()
            ))
        );
        assert_eq!(check(d.path(), "exit 3"), Err(Failure::ExitCode(3)));
    }

    #[test]
    fn self_timed_suites_need_a_timing_and_record_the_whole_loop() {
        let d = tempfile::tempdir().unwrap();
        let cmd = CommandJob {
            self_timed_iterations: Some(5),
            ..CommandJob::default()
        };
        let run = |body: &str| {
            let job = script(d.path(), body);
            busy_retry(|| iterate(&NativeRuntime, &job, &cmd))
        };
        let values = run("echo 12000").unwrap();
        let own: Vec<f64> = values
            .iter()
            .filter(|v| v.metric == Metric::SelfNs)
            .map(|v| v.value)
            .collect();
        // 12,000 ps per iteration, 5 iterations: 60 ns.
        assert_eq!(own, vec![60.0]);
        assert_eq!(
            run("true").unwrap_err(),
            Failure::WrongOutput(
                "printed no timing (expected one integer: picoseconds per iteration)".into()
            )
        );
        assert_eq!(
            run("echo hello").unwrap_err(),
            Failure::WrongOutput(
                "expected one integer (picoseconds per iteration), got 'hello'".into()
            )
        );
    }
}
