//! The run in flight as front ends show it: every runner [`Event`] folded into one state,
//! the TUI's live pane and the desktop's live screen alike (the desktop folds them in its
//! backend and sends the page the [`LiveView`]), so progress, ETA, cell statuses and each
//! cell's figure are decided once. A cell runs in several worker processes (invocations);
//! with the interleaved order other cells run in between, so a cell is
//! [`CellStatus::Queued`] between its invocations and [`CellStatus::Done`] only after its
//! last one.
//!
//! The clock is passed in (`now`, from any fixed origin), so a scripted event sequence
//! tests it all.

mod view;

pub use self::view::{CellView, LiveView, Position, Progress};

use crate::analysis::LiveValues;
use crate::runner::Event;
use crate::store::RunStatus;
use crate::suite::SuiteKind;
use std::collections::HashMap;
use std::time::Duration;

/// How the run stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum RunState {
    /// Planned or running.
    #[default]
    Running,
    /// Every cell ran (some may have failed).
    Complete,
    /// Stopped by the user.
    Cancelled,
    /// Ended without finishing normally.
    Interrupted,
    /// Stopped by an error (saving failed, no worker).
    Error,
}

impl std::fmt::Display for RunState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RunState::Running => "running",
            RunState::Complete => "complete",
            RunState::Cancelled => "cancelled",
            RunState::Interrupted => "interrupted",
            RunState::Error => "stopped by an error",
        })
    }
}

/// Where a cell is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum CellStatus {
    /// Not started.
    #[default]
    Pending,
    /// Its worker runs.
    Running,
    /// Between invocations (other cells run meanwhile), some ended.
    Queued,
    /// Finished.
    Done,
    /// Failed, or cut short by the end of the run.
    Failed,
    /// The run ended between its invocations: its values are kept, but it is left out of
    /// relative figures, as the saved summary does.
    Partial,
}

impl CellStatus {
    /// No more of its work is left.
    pub fn ended(self) -> bool {
        matches!(
            self,
            CellStatus::Done | CellStatus::Failed | CellStatus::Partial
        )
    }
}

/// Where a cell is and what it did: kept by [`LiveRun`] and sent as it is in each
/// [`CellView`].
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CellState {
    /// Its runtime.
    pub runtime: String,
    /// Its test.
    pub test: String,
    /// Where it is.
    pub status: CellStatus,
    /// Iterations done over its invocations, warm-ups included.
    pub done: u32,
    /// The invocation running now, or last started (from 0).
    pub invocation: u32,
    /// Invocations that ended.
    pub invocations_ended: u32,
    /// Why it failed.
    pub failure: Option<String>,
    /// Its wall time over its invocations, ms, once finished.
    pub wall_ms: Option<f64>,
}

/// One planned cell: its state (reached through it, as `cell.status`), its values and,
/// once it ended, its figure.
#[derive(Debug, Clone, Default)]
pub struct LiveCell {
    /// Where it is and what it did.
    pub state: CellState,
    /// Its measured values, by core's primary sources.
    pub values: LiveValues,
    /// Its figure and the key of its source once it ended with values (the summary's:
    /// [`LiveValues::figure`]), kept so that drawing an ended cell computes nothing.
    pub figure: Option<(f64, &'static str)>,
    /// It ended its planned invocations: a round a precision adds runs it again, and it is
    /// done again when that round ends, never partial.
    pub finished: bool,
}

impl std::ops::Deref for LiveCell {
    type Target = CellState;

    fn deref(&self) -> &CellState {
        &self.state
    }
}

impl std::ops::DerefMut for LiveCell {
    fn deref_mut(&mut self) -> &mut CellState {
        &mut self.state
    }
}

impl LiveCell {
    /// The figure as shown, with the key of its source: final once the cell ended, from
    /// the values so far while it runs (then `interim`).
    pub fn shown(&self) -> (Option<(f64, &'static str)>, bool) {
        match self.status {
            CellStatus::Done | CellStatus::Partial => (self.figure, false),
            CellStatus::Failed => (None, false),
            _ => {
                let f = self.values.figure().map(|(v, s)| (v, s.key));
                (f, f.is_some())
            }
        }
    }
}

/// What a front end shows of the run besides its cells: kept by [`LiveRun`] and sent as
/// it is in each [`LiveView`].
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunHead {
    /// How it stands.
    pub state: RunState,
    /// Its id, once planned.
    pub run_id: Option<String>,
    /// Its suite.
    pub suite: String,
    /// Its suite's kind: how its figures are named and compared.
    pub suite_kind: SuiteKind,
    /// The runtime ratios are taken against.
    pub baseline: String,
    /// Iterations per cell over all its invocations.
    pub iterations_per_cell: u32,
    /// Worker processes per cell.
    pub invocations: u32,
    /// The cell running now.
    pub current: Option<usize>,
    /// The other arm of an alternating pair, running in the same worker as `current`.
    pub alongside: Option<usize>,
    /// Cells that ended (failed ones included).
    pub finished_cells: usize,
    /// Cells that failed.
    pub failed_cells: usize,
    /// Failed cells as the runner counted them at the end.
    pub failed_reported: Option<usize>,
    /// The error that stopped the run.
    pub error: Option<String>,
}

/// The run in flight: fold its events in with [`LiveRun::apply`], read it through the
/// views ([`LiveRun::progress`], [`LiveRun::eta`], [`LiveRun::position`],
/// [`LiveRun::cell_view`]).
#[derive(Debug, Clone, Default)]
pub struct LiveRun {
    /// The run besides its cells.
    pub head: RunHead,
    /// The planned cells, in plan order.
    pub cells: Vec<LiveCell>,
    /// Cell index by runtime, then test: looked up per measurement row, by `&str`.
    index: HashMap<String, HashMap<String, usize>>,
    /// The cells of each test, in plan order: a baseline cell's change reaches them.
    by_test: HashMap<String, Vec<usize>>,
    /// Cancel was asked for (set by the front end): progress counts only what ran.
    pub cancelling: bool,
    started_at: Duration,
    last_finished_at: Option<Duration>,
    last_progress_at: Option<Duration>,
    /// Cells changed since [`LiveRun::take_changed`] was last called.
    changed: Vec<usize>,
    all_changed: bool,
}

impl LiveRun {
    /// A run about to be planned, at `now`.
    pub fn new(now: Duration) -> LiveRun {
        LiveRun {
            head: RunHead {
                invocations: 1,
                ..RunHead::default()
            },
            started_at: now,
            ..LiveRun::default()
        }
    }

    /// True until the run ended.
    pub fn in_flight(&self) -> bool {
        self.head.state == RunState::Running
    }

    /// The cell of a runtime and test.
    pub fn cell_index(&self, runtime: &str, test: &str) -> Option<usize> {
        self.index.get(runtime)?.get(test).copied()
    }

    /// Folds one event in, at `now`.
    pub fn apply(&mut self, ev: &Event, now: Duration) {
        match ev {
            Event::Planned {
                run_id,
                suite,
                suite_kind,
                baseline,
                cells,
                iterations_per_cell,
                invocations,
            } => {
                *self = LiveRun {
                    head: RunHead {
                        run_id: Some(run_id.clone()),
                        suite: suite.clone(),
                        suite_kind: *suite_kind,
                        baseline: baseline.clone(),
                        iterations_per_cell: *iterations_per_cell,
                        invocations: (*invocations).max(1),
                        ..RunHead::default()
                    },
                    cells: (cells.iter())
                        .map(|(runtime, test)| LiveCell {
                            state: CellState {
                                runtime: runtime.clone(),
                                test: test.clone(),
                                ..CellState::default()
                            },
                            ..LiveCell::default()
                        })
                        .collect(),
                    index: cells.iter().enumerate().fold(
                        HashMap::new(),
                        |mut m: HashMap<String, HashMap<String, usize>>, (i, (r, t))| {
                            m.entry(r.clone()).or_default().insert(t.clone(), i);
                            m
                        },
                    ),
                    by_test: cells.iter().enumerate().fold(
                        HashMap::new(),
                        |mut m: HashMap<String, Vec<usize>>, (i, (_, t))| {
                            m.entry(t.clone()).or_default().push(i);
                            m
                        },
                    ),
                    started_at: now,
                    all_changed: true,
                    ..LiveRun::default()
                };
            }
            Event::CellStarted {
                index,
                invocation,
                beside,
            } => self.cell_started(*index, *invocation, *beside),
            Event::Progress { index, done } => {
                if let Some(c) = self.cells.get_mut(*index) {
                    if c.status == CellStatus::Pending {
                        c.status = CellStatus::Running;
                    }
                    // A round a precision adds goes past the planned iterations: progress
                    // stays within them.
                    c.done = c
                        .done
                        .max(*done)
                        .min(self.head.iterations_per_cell.max(c.done));
                    self.last_progress_at = Some(now);
                    self.touch(*index);
                }
            }
            Event::Measurement { rows } => {
                for m in rows.iter().filter(|m| !m.warmup) {
                    let Some(i) = self.cell_index(&m.runtime, &m.test) else {
                        continue;
                    };
                    if self.cells[i]
                        .values
                        .push(m.phase, m.metric, m.invocation, m.value)
                    {
                        self.touch(i);
                    }
                }
            }
            Event::Sample { .. } => {}
            Event::CellFinished {
                index,
                failure,
                wall_ms,
            } => self.cell_finished(
                *index,
                failure.as_ref().map(|f| f.to_string()),
                *wall_ms,
                now,
            ),
            Event::RunFinished { status, failed } => self.run_finished(*status, *failed),
            Event::Stopped { message } => {
                self.head.state = RunState::Error;
                self.head.error = Some(message.clone());
                self.cancelling = false;
                self.head.current = None;
                self.head.alongside = None;
            }
        }
    }

    fn cell_started(&mut self, index: usize, invocation: u32, beside: bool) {
        if index >= self.cells.len() {
            return;
        }
        // Beside: the same worker runs the cell started just before too. Otherwise the
        // worker before this one ended its invocation (both arms of a pair): unless their
        // cells finished, they wait for their next invocation.
        if !beside {
            for prev in [self.head.current, self.head.alongside]
                .into_iter()
                .flatten()
            {
                let c = &mut self.cells[prev];
                if prev != index && c.status == CellStatus::Running {
                    c.invocations_ended = c.invocation + 1;
                    if c.finished {
                        // An added round of a finished cell ended: done again, with the
                        // round in its figure.
                        c.status = CellStatus::Done;
                        c.figure = c.values.figure().map(|(v, s)| (v, s.key));
                    } else {
                        c.status = CellStatus::Queued;
                    }
                    self.touch(prev);
                }
            }
        }
        self.head.alongside = if beside { self.head.current } else { None };
        self.head.current = Some(index);
        let per_invocation = self.head.iterations_per_cell as f64 / self.head.invocations as f64;
        let c = &mut self.cells[index];
        c.status = CellStatus::Running;
        c.invocation = invocation;
        c.invocations_ended = c.invocations_ended.max(invocation);
        // Progress counts over the invocations; a resumed cell starts past its earlier ones.
        c.done = c
            .done
            .max((invocation as f64 * per_invocation).round() as u32);
        self.touch(index);
    }

    fn cell_finished(
        &mut self,
        index: usize,
        failure: Option<String>,
        wall_ms: f64,
        now: Duration,
    ) {
        let Some(c) = self.cells.get_mut(index) else {
            return;
        };
        match (c.status, &failure) {
            (CellStatus::Failed, _) | (CellStatus::Done, None) => return,
            // Failed after the fact: the runtimes' answers are cross-checked when a run of
            // modules without a known answer ends.
            (CellStatus::Done, Some(_)) => {
                c.status = CellStatus::Failed;
                c.failure = failure;
                c.figure = None;
                self.head.failed_cells += 1;
                self.touch(index);
                return;
            }
            _ => {}
        }
        let failed = failure.is_some();
        c.status = if failed {
            CellStatus::Failed
        } else {
            CellStatus::Done
        };
        if !failed {
            // A failed cell keeps the iterations it ran: progress after a cancel counts them.
            c.done = self.head.iterations_per_cell;
            c.invocations_ended = self.head.invocations;
            c.figure = c.values.figure().map(|(v, s)| (v, s.key));
            c.finished = true;
        }
        c.failure = failure;
        c.wall_ms = Some(wall_ms);
        if self.head.current == Some(index) {
            self.head.current = None;
        }
        if self.head.alongside == Some(index) {
            self.head.alongside = None;
        }
        self.head.finished_cells += 1;
        self.head.failed_cells += usize::from(failed);
        self.last_finished_at = Some(now);
        self.touch(index);
    }

    fn run_finished(&mut self, status: RunStatus, failed: usize) {
        if self.head.state != RunState::Error {
            self.head.state = match status {
                RunStatus::Complete => RunState::Complete,
                RunStatus::Cancelled => RunState::Cancelled,
                // "running" cannot end a run; if it ever did, it did not finish normally.
                RunStatus::Interrupted | RunStatus::Running => RunState::Interrupted,
            };
        }
        self.head.failed_reported = Some(failed);
        self.cancelling = false;
        self.head.current = None;
        self.head.alongside = None;
        // A cell still running when the run ended was cut short; one between its
        // invocations keeps what it measured, as a partial cell.
        for i in 0..self.cells.len() {
            let c = &mut self.cells[i];
            match c.status {
                // A finished cell in a round its precision added: done, with what it measured.
                CellStatus::Running if c.finished => {
                    c.status = CellStatus::Done;
                    c.figure = c.values.figure().map(|(v, s)| (v, s.key));
                }
                CellStatus::Running => {
                    c.status = CellStatus::Failed;
                    c.failure
                        .get_or_insert_with(|| "the run ended before this cell finished".into());
                }
                CellStatus::Queued => {
                    c.status = CellStatus::Partial;
                    c.figure = c.values.figure().map(|(v, s)| (v, s.key));
                }
                _ => continue,
            }
            self.touch(i);
        }
    }

    /// Marks a cell's view changed.
    fn touch(&mut self, i: usize) {
        if !self.all_changed {
            self.changed.push(i);
        }
    }

    /// The cells whose view changed since the last call (each once, in plan order): a
    /// front end that keeps views redraws or sends only these. A baseline cell's change
    /// brings the cells of its test, whose ratios it moves.
    pub fn take_changed(&mut self) -> Vec<usize> {
        let mut out = if std::mem::take(&mut self.all_changed) {
            (0..self.cells.len()).collect()
        } else {
            let mut out = std::mem::take(&mut self.changed);
            out.sort_unstable();
            out.dedup();
            let tests: Vec<usize> = (out.iter().copied())
                .filter(|&i| self.cells[i].runtime == self.head.baseline)
                .collect();
            for i in tests {
                if let Some(cells) = self.by_test.get(&self.cells[i].test) {
                    out.extend(cells);
                }
            }
            out
        };
        self.changed.clear();
        out.sort_unstable();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests;
