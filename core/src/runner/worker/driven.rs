//! Cells the worker drives itself: a life cycle (with a fresh process's first instance)
//! and an HTTP server under load.

use super::*;

/// A lifecycle cell: calibrate, then per iteration one sample of every measurement, plus
/// the first instantiation and call of a fresh process.
pub(super) fn lifecycle_cell(spec: &CellSpec, lc: &LifecycleJob, out: &mut impl Write) -> i32 {
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
pub(super) fn http_cell(spec: &CellSpec, job: &HttpJob, out: &mut impl Write) -> i32 {
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
pub(super) fn first_in_fresh_process(
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
