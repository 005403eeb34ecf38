//! What a front end draws of the run in flight, derived from [`LiveRun`]: the progress,
//! the time left, which cell runs, and each cell with its figure and its ratio to the
//! baseline; [`LiveView`] carries them to the desktop page.

use super::{CellState, CellStatus, LiveRun, RunHead, RunState};
use std::time::Duration;

/// Iterations done of the run's.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Progress {
    /// Iterations done.
    pub done: u64,
    /// Iterations planned.
    pub total: u64,
    /// `done / total`, 0 to 1.
    pub fraction: f64,
}

/// Which cell runs, and in an interleaved run, which round.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Position {
    /// 1-based position of the cell running now (or how many finished).
    pub at: usize,
    /// Cells planned.
    pub of: usize,
    /// Which of its invocations runs, 1-based; 0 when none runs.
    pub invocation: u32,
    /// Invocations per cell.
    pub invocations: u32,
    /// In an interleaved run (another cell waits between its invocations while this one
    /// runs) every cell runs once per round, in an order shuffled each round, so the plan
    /// position says nothing: the round that runs, 1-based.
    pub round: Option<u32>,
    /// How many cells have started that round.
    pub in_round: usize,
}

/// One cell as drawn.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CellView {
    /// Its index in the plan.
    pub index: usize,
    /// Where it is and what it did.
    #[serde(flatten)]
    #[cfg_attr(feature = "ts", ts(flatten))]
    pub state: CellState,
    /// Its figure: final once it ended, from the values so far while it runs.
    pub value: Option<f64>,
    /// Over the baseline's figure for the same test (suites with a baseline; never for a
    /// partial cell or baseline, as in the saved summary).
    pub ratio: Option<f64>,
    /// The figure (or the baseline's) is from a cell not finished yet: it will move.
    pub interim: bool,
    /// Where the figure comes from (a key of core's primary sources).
    pub source: Option<String>,
}

impl std::ops::Deref for CellView {
    type Target = CellState;

    fn deref(&self) -> &CellState {
        &self.state
    }
}

/// The run in flight for the desktop page: the whole state but the cells, and the cells
/// changed since the last view (every cell in the first after the plan).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LiveView {
    /// The run besides its cells.
    #[serde(flatten)]
    #[cfg_attr(feature = "ts", ts(flatten))]
    pub head: RunHead,
    /// Cells planned.
    pub cell_count: usize,
    /// Iterations done.
    pub progress: Progress,
    /// Time left, ms, from the pace so far.
    pub eta_ms: Option<f64>,
    /// Which cell runs.
    pub position: Position,
    /// The cells changed since the last view.
    pub cells: Vec<CellView>,
}

impl LiveRun {
    /// Iterations done over the whole run. While it runs, an ended cell counts in full: no
    /// more of its work is left. A run cut short (cancelled, interrupted, stopped, or being
    /// cancelled) counts only the iterations that ran, so a cancel shows how far it got
    /// rather than jumping ahead by every cell it cut off.
    pub fn progress(&self) -> Progress {
        let per = self.head.iterations_per_cell as u64;
        let total = self.cells.len() as u64 * per;
        let cut_short = self.cancelling
            || matches!(
                self.head.state,
                RunState::Cancelled | RunState::Interrupted | RunState::Error
            );
        let done = (self.cells.iter())
            .map(|c| {
                if c.status.ended() && !cut_short {
                    per
                } else {
                    (c.done as u64).min(per)
                }
            })
            .sum();
        let fraction = match total {
            0 if self.head.state == RunState::Complete => 1.0,
            0 => 0.0,
            _ => done as f64 / total as f64,
        };
        Progress {
            done,
            total,
            fraction,
        }
    }

    /// Time left. One invocation per cell: the run's time per ended cell times the cells
    /// left (the running one counted by its iterations done), none until a cell ended.
    /// Several (cells interleaved, ending only in the last round): the time per iteration
    /// done times the iterations left, none until one was done.
    pub fn eta(&self) -> Option<Duration> {
        if self.head.state != RunState::Running || self.head.run_id.is_none() {
            return None;
        }
        if self.head.invocations > 1 {
            let p = self.progress();
            let at = self.last_progress_at?;
            if p.done == 0 {
                return None;
            }
            let per = at.saturating_sub(self.started_at).as_secs_f64() / p.done as f64;
            return Some(Duration::from_secs_f64(
                per * p.total.saturating_sub(p.done) as f64,
            ));
        }
        let at = self.last_finished_at?;
        if self.head.finished_cells == 0 {
            return None;
        }
        let per_cell =
            at.saturating_sub(self.started_at).as_secs_f64() / self.head.finished_cells as f64;
        let partial = match self.head.current.map(|i| &self.cells[i]) {
            Some(c) if self.head.iterations_per_cell > 0 => {
                (c.done as f64 / self.head.iterations_per_cell as f64).min(1.0)
            }
            _ => 0.0,
        };
        let left = (self.cells.len() as f64 - self.head.finished_cells as f64 - partial).max(0.0);
        Some(Duration::from_secs_f64(per_cell * left))
    }

    /// Which cell runs now, and which round of an interleaved run.
    pub fn position(&self) -> Position {
        let of = self.cells.len();
        let running = self.head.current.map(|i| &self.cells[i]);
        let at = match self.head.current {
            Some(i) => i + 1,
            None => self.head.finished_cells.min(of),
        };
        let interleaved = self.head.invocations > 1
            && running.is_some()
            && (self.cells.iter().enumerate())
                .any(|(i, c)| Some(i) != self.head.current && c.status == CellStatus::Queued);
        let k = running.map_or(0, |c| c.invocation);
        let in_round = if interleaved {
            (self.cells.iter())
                .filter(|c| c.status != CellStatus::Pending && c.invocation >= k)
                .count()
        } else {
            0
        };
        Position {
            at,
            of,
            invocation: if running.is_some() { k + 1 } else { 0 },
            invocations: self.head.invocations,
            round: interleaved.then_some(k + 1),
            in_round,
        }
    }

    /// A cell as drawn: its figure (interim while it runs) and its ratio to the baseline.
    pub fn cell_view(&self, index: usize) -> Option<CellView> {
        let c = self.cells.get(index)?;
        let (figure, interim) = c.shown();
        let base = (self.head.suite_kind.shape().baseline)
            .then(|| self.cell_index(&self.head.baseline, &c.test))
            .flatten()
            .map(|b| &self.cells[b]);
        let ratio = match (figure, base) {
            (Some((v, _)), Some(b))
                if c.status != CellStatus::Partial && b.status != CellStatus::Partial =>
            {
                match b.shown() {
                    (Some((bv, _)), b_interim) if bv > 0.0 => Some((v / bv, b_interim)),
                    _ => None,
                }
            }
            _ => None,
        };
        Some(CellView {
            index,
            state: c.state.clone(),
            value: figure.map(|(v, _)| v),
            ratio: ratio.map(|(r, _)| r),
            interim: interim || ratio.is_some_and(|(_, b)| b),
            source: figure.map(|(_, s)| s.to_string()),
        })
    }

    /// The state for the page, with the cells changed since the last view
    /// ([`LiveRun::take_changed`]).
    pub fn view(&mut self) -> LiveView {
        let cells = (self.take_changed().into_iter())
            .filter_map(|i| self.cell_view(i))
            .collect();
        LiveView {
            head: self.head.clone(),
            cell_count: self.cells.len(),
            progress: self.progress(),
            eta_ms: self.eta().map(|d| d.as_secs_f64() * 1000.0),
            position: self.position(),
            cells,
        }
    }
}
