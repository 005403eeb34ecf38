//! The rounds of a run: every cell's invocations in the plan's order, the arms of an
//! alternating group in one worker, the rounds a precision adds, and each ended invocation
//! recorded before the next starts.

use super::{Arm, CellCtx, Ended, RunOutcome};
use crate::runner::{Event, Plan, RunnerError, cross_check};
use crate::runtime::{Failure, NativeCompiler, RuntimeInfo, WorkerCommand};
use crate::store::{CellRecord, Done, MeasurementRow, RunStatus, RunWriter};
use crate::suite::TestCase;
use crossbeam_channel::Sender;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

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

/// A run's cells and where each stands, with the run's tallies.
struct Rounds<'p> {
    plan: &'p Plan,
    cells: Vec<(&'p RuntimeInfo, &'p TestCase)>,
    state: Vec<CellState>,
    done: &'p Done,
    /// Cells finished, and of them failed.
    ran: usize,
    failed: usize,
}

/// What one worker ended with, for its arms' records.
struct WorkerEnd {
    arms: Vec<Ended>,
    /// The worker's own end (crash, timeout, cancel).
    failure: Option<Failure>,
    wall_ms: f64,
    other_cores: Option<f64>,
    host: Option<crate::sample::HostProbe>,
    started_ms: Option<f64>,
}

pub(super) fn run_cells(
    plan: &Plan,
    mut writer: RunWriter,
    done: &Done,
    earlier: &[MeasurementRow],
    worker: &WorkerCommand,
    events: &Sender<Event>,
    cancel: &AtomicBool,
) -> Result<RunOutcome, RunnerError> {
    let run_id = writer.meta().id.clone();
    let mut r = Rounds::new(plan, done, earlier);
    r.announce(&run_id, events);
    let started = Instant::now();
    let compiler = NativeCompiler::detect();
    let mut status = RunStatus::Complete;
    let mut features = crate::runner::missing_features::MissingFeatures::new(
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
    let mut next_round = plan.settings.invocations;
    let mut at = 0;
    loop {
        if at == queue.len() {
            // The planned rounds (or the last added one) are done: with a precision to
            // reach, another round of the cells that have not reached it.
            let rows = state_rows(&r.state);
            match crate::runner::precision::next_round(plan, &rows, next_round, started) {
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
        if r.state[index].failed
            || r.has(index, invocation)
            || together.remove(&(index, invocation))
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
            if p != index && !r.state[p].failed && !r.has(p, invocation) {
                indexes.push(p);
                together.insert((p, invocation));
            }
        }
        let cell = CellCtx {
            plan,
            invocation,
            arms: indexes
                .iter()
                .map(|&i| Arm::new(r.cells[i], i, r.state[i].iterations))
                .collect(),
            live: Vec::new(),
            writer: &mut writer,
            events,
            run_started: started,
            cancel,
        };
        let end = cell.run_worker(compiler.as_ref(), worker)?;
        if end.failure == Some(Failure::Cancelled) {
            status = RunStatus::Cancelled;
        }
        r.record(end, invocation, &mut writer, &mut features, events)?;
        if status == RunStatus::Cancelled {
            break;
        }
    }
    if status == RunStatus::Complete {
        r.failed += cross_check_answers(plan, &r.cells, &r.state, &mut writer, events)?;
    }
    let dir = writer.finish(status)?;
    clear_stale_containers(plan);
    let _ = events.send(Event::RunFinished {
        status,
        failed: r.failed,
    });
    #[cfg(feature = "parquet")]
    crate::history::index_run(&dir);
    Ok(RunOutcome {
        run_id,
        dir,
        status,
        failed: r.failed,
        cells: r.ran,
    })
}

impl<'p> Rounds<'p> {
    /// Every cell where it stands: what ran before a resume counts.
    fn new(plan: &'p Plan, done: &'p Done, earlier: &[MeasurementRow]) -> Rounds<'p> {
        let cells = plan.cells();
        let invocations = plan.settings.invocations;
        let per_invocation = plan.settings.warmup + plan.settings.runs;
        let mut r = Rounds {
            plan,
            cells,
            state: Vec::new(),
            done,
            ran: 0,
            failed: 0,
        };
        r.state = (0..r.cells.len())
            .map(|index| {
                let (rt, t) = r.cells[index];
                let ended = (0..invocations).filter(|i| r.has(index, *i)).count() as u32;
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
        r
    }

    /// Whether a cell's invocation ended before a resume.
    fn has(&self, index: usize, invocation: u32) -> bool {
        let (rt, t) = self.cells[index];
        self.done
            .invocations
            .contains(&(rt.id.clone(), t.name.clone(), invocation))
    }

    /// Tells the front ends what the run will do.
    fn announce(&self, run_id: &str, events: &Sender<Event>) {
        let plan = self.plan;
        let invocations = plan.settings.invocations;
        let _ = events.send(Event::Planned {
            run_id: run_id.to_string(),
            suite: plan.suite.name.clone(),
            suite_kind: plan.suite.kind,
            baseline: plan.settings.baseline.clone(),
            cells: self
                .cells
                .iter()
                .map(|(r, t)| (r.id.clone(), t.name.clone()))
                .collect(),
            iterations_per_cell: (plan.settings.warmup + plan.settings.runs) * invocations,
            invocations,
        });
    }

    /// Saves each arm's record of an ended worker and moves its cell on; a cell is finished
    /// once, at its planned count or its failure (an added round's failure fails the cell
    /// too, and is said).
    fn record(
        &mut self,
        end: WorkerEnd,
        invocation: u32,
        writer: &mut RunWriter,
        features: &mut crate::runner::missing_features::MissingFeatures,
        events: &Sender<Event>,
    ) -> Result<(), RunnerError> {
        let invocations = self.plan.settings.invocations;
        for Ended {
            index,
            iterations,
            kept,
            failure,
            notes,
        } in end.arms
        {
            let (rt, test) = self.cells[index];
            // The worker's own end is every live arm's.
            let failure = failure
                .or_else(|| end.failure.clone())
                .map(|f| features.name_missing(f, rt, test));
            writer.cell(&CellRecord {
                runtime: rt.id.clone(),
                test: test.name.clone(),
                invocation,
                failure: failure.clone(),
                wall_ms: end.wall_ms,
                other_cores: end.other_cores,
                notes,
                host: end.host,
                started_ms: end.started_ms,
            })?;
            let st = &mut self.state[index];
            st.ended += 1;
            st.iterations += iterations;
            st.wall_ms += end.wall_ms;
            st.failed = failure.is_some();
            st.rows.extend(kept);
            if st.failed || st.ended >= invocations {
                if !st.finished || st.failed {
                    self.ran += usize::from(!st.finished);
                    self.failed += usize::from(failure.is_some());
                    let _ = events.send(Event::CellFinished {
                        index,
                        failure,
                        wall_ms: st.wall_ms,
                    });
                }
                st.finished = true;
            }
        }
        Ok(())
    }
}

impl CellCtx<'_> {
    /// Runs one worker for this invocation's arms, with the host probe just before it and
    /// the load of other processes over it.
    fn run_worker(
        mut self,
        compiler: Result<&NativeCompiler, &String>,
        worker: &WorkerCommand,
    ) -> Result<WorkerEnd, RunnerError> {
        for (k, a) in self.arms.iter().enumerate() {
            let _ = self.events.send(Event::CellStarted {
                index: a.index,
                invocation: self.invocation,
                beside: k > 0,
            });
        }
        // The host probe just before the worker, in this process: what the host does now,
        // set beside the cell's spread by `show --noise` (about 4 ms, outside every timing).
        let host = Some(crate::sample::probe());
        let started_ms =
            Some((self.run_started.elapsed().as_secs_f64() * 1e3 * 10.0).round() / 10.0);
        let t0 = Instant::now();
        let load = crate::sample::LoadMeter::start();
        let failure = match self.spec(compiler, worker) {
            Some(spec) => self.run(worker, &spec)?,
            None => None,
        };
        let wall_ms = t0.elapsed().as_secs_f64() * 1e3;
        // Orphans the worker left (a headless run adopts them) are its own load, not other.
        crate::sample::reap();
        let other_cores = load
            .and_then(|l| l.other_cores())
            .map(|c| (c * 1000.0).round() / 1000.0);
        let arms = self
            .arms
            .into_iter()
            .map(|a| Ended {
                index: a.index,
                iterations: a.iterations,
                failure: a.failure,
                kept: a.kept,
                notes: a.notes,
            })
            .collect();
        Ok(WorkerEnd {
            arms,
            failure,
            wall_ms,
            other_cores,
            host,
            started_ms,
        })
    }
}

/// A worker killed by a timeout or Ctrl-C leaves the container it started: its worker is
/// gone now, so the container is stale.
fn clear_stale_containers(plan: &Plan) {
    if plan
        .runtimes
        .iter()
        .any(|r| crate::runtime::container::is_variant(&r.id))
        && let Ok(engine) = crate::runtime::container::detect()
    {
        engine.clear_stale();
        crate::runtime::container::forget_probes();
    }
}

/// Each cell's measured rows and whether it failed, for [`crate::runner::precision`].
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
