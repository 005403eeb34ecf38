//! Command cells in the worker: the check step, then every iteration, alone or with the
//! arms of an alternating group iteration by iteration.

use super::*;

/// Runs one iteration of a command and checks its answer.
pub(super) fn iterate(
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
pub(super) fn no_timing(answer: &str) -> Failure {
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
pub(super) fn check_step(
    rt: &dyn runtime::Runtime,
    job: &Job,
    check: &CheckJob,
) -> Result<(), Failure> {
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

/// A command cell: the check step, if any, then every iteration.
pub(super) fn command_cell(spec: &CellSpec, cmd: &CommandJob, out: &mut impl Write) -> i32 {
    if let Some(partners) = &spec.partners {
        return alternating_cells(spec, partners, out);
    }
    // A profiled cell: the engine is asked for a perf map before it is made, and may run
    // a named copy of the module (the same code).
    let mut job = spec.job.clone();
    let mut profiler = spec
        .profile
        .map(|p| crate::runner::profiler::CellProfiler::new(&spec.runtime, p, &mut job));
    let runtime = match &profiler {
        Some(p) => p.runtime(&spec.runtime),
        None => spec.runtime.clone(),
    };
    let rt = match command_runtime(spec, &runtime, cmd, out) {
        Ok(Some(rt)) => rt,
        Ok(None) => return 1,
        Err(failure) => return fail(out, 0, failure),
    };
    if let Some(p) = profiler.as_mut() {
        p.count(rt.as_ref(), &job);
    }
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
pub(super) fn command_runtime(
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
pub(super) fn alternating_cells(a: &CellSpec, partners: &Partners, out: &mut impl Write) -> i32 {
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
pub(super) type ArmRun<'a> = (&'a CellSpec, &'a CommandJob, Box<dyn runtime::Runtime>);
