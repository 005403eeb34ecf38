//! Supervising a cell's worker process: spawned in its own process group, fed its spec,
//! followed line by line, sampled for CPU and memory, killed at its timeout or memory cap,
//! and its death told in one line with its last words.

use super::CellCtx;
use crate::runner::worker::{CellSpec, WorkerMsg};
use crate::runner::{Event, RunnerError};
use crate::runtime::process::signal_name;
use crate::runtime::{Failure, WorkerCommand};
use crate::sample::TreeSampler;
use crate::store::{HistogramRow, MeasurementRow, SampleRow};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

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
    /// Runs the worker for this cell, returning why it failed (if it did).
    pub(super) fn run(
        &mut self,
        worker: &WorkerCommand,
        spec: &CellSpec,
    ) -> Result<Option<Failure>, RunnerError> {
        // Counting instructions: the worker runs under callgrind, its dumps in the scratch.
        let wrapped;
        let worker = match &spec.instructions_dir {
            Some(dir) => {
                let valgrind =
                    crate::runner::instructions::valgrind().map_err(|e| RunnerError::Spawn {
                        program: "valgrind".into(),
                        source: std::io::Error::new(std::io::ErrorKind::NotFound, e),
                    })?;
                std::fs::create_dir_all(dir).map_err(|source| RunnerError::Spawn {
                    program: dir.display().to_string(),
                    source,
                })?;
                wrapped = crate::runner::instructions::wrap(&valgrind, worker, dir);
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
        let total = crate::runner::instructions::take_total(dir).ok_or_else(|| {
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
        let plan = self.plan;
        let settings = &plan.settings;
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
                    let it = (iteration, warmup, arm);
                    if let Some(f) = self.iteration(it, values, histograms) {
                        return Some(f);
                    }
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

    /// Saves and reports one iteration an arm of the worker measured.
    fn iteration(
        &mut self,
        (iteration, warmup, arm): (u32, bool, u8),
        values: Vec<crate::runtime::PhaseValue>,
        histograms: Vec<crate::store::LevelHistogram>,
    ) -> Option<Failure> {
        let keep = self.plan.settings.precision.is_some() && !warmup;
        let Some(a) = self.live.get(usize::from(arm)).map(|&k| &mut self.arms[k]) else {
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
        if keep {
            a.kept.extend(rows.iter().cloned());
        }
        a.iterations += 1;
        let _ = self.events.send(Event::Measurement { rows });
        let _ = self.events.send(Event::Progress {
            index: a.index,
            done: a.iterations_before + a.iterations,
        });
        None
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
