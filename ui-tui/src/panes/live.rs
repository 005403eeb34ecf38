//! Live run: overall gauge with ETA, per-cell status, live CPU and RSS of the running
//! worker, and a results table that fills as cells finish, with bars relative to the
//! baseline. Fed by runner events; rendering depends on this state only. A cell runs in
//! several worker processes (invocations); with the interleaved order other cells run
//! between them, so a cell between its invocations is shown queued with how many ended.

use super::{bar, clip, pane_block, rel_color, selected};
use crate::component::{Action, Component, movement, scroll_offset, step};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Gauge, Paragraph, Row, Table, Widget};
use std::collections::HashMap;
use std::time::Duration;
use wasmeter_core::analysis::LiveValues;
use wasmeter_core::format::{format_bytes, format_ns};
use wasmeter_core::model::{PrimarySource, SuiteKind};
use wasmeter_core::runner::Event;
use wasmeter_core::store::RunStatus;

/// Samples kept for the live graphs.
pub const HISTORY: usize = 240;

/// Where a cell is.
#[derive(Debug, Clone, PartialEq)]
pub enum CellStatus {
    /// Not started.
    Queued,
    /// Its worker runs: iterations done so far over its invocations, and which invocation
    /// (from 0) this is.
    Running(u32, u32),
    /// Between invocations (other cells run meanwhile): invocations ended, iterations done.
    Between(u32, u32),
    /// Finished; wall time of the cell in ms.
    Done(f64),
    /// Failed, with the reason.
    Failed(String),
}

/// State of the live-run pane.
#[derive(Debug, Default)]
pub struct LivePane {
    /// Run id, once planned.
    pub run_id: Option<String>,
    /// Planned cells (runtime, test).
    pub cells: Vec<(String, String)>,
    /// Status per cell.
    pub status: Vec<CellStatus>,
    /// Iterations per cell over its invocations, warm-ups included.
    pub iterations_per_cell: u32,
    /// Worker processes (invocations) per cell.
    pub invocations: u32,
    /// The cell whose worker runs now.
    pub current: Option<usize>,
    /// The other arm of an alternating pair, running in the same worker as `current`.
    pub alongside: Option<usize>,
    /// Iterations finished over the whole run.
    pub iterations_done: u64,
    /// Time since the run started (set by the app's clock, not read while drawing).
    pub elapsed: Duration,
    /// Recent CPU samples, percent of one core.
    pub cpu: Vec<f32>,
    /// Recent RSS samples, bytes.
    pub rss: Vec<u64>,
    /// The cell the last sample came from.
    pub sampled: Option<(String, String)>,
    /// Measured values per cell, by core's primary sources: the first with values gives
    /// the cell's figure, as in the summary.
    pub values: HashMap<(String, String), LiveValues>,
    /// The figure of each finished cell (core's: the typical value, or the median for
    /// instantiation and latency).
    pub medians: Vec<Option<f64>>,
    /// Baseline runtime.
    pub baseline: String,
    /// The suite's kind: how its figures are named (core's `SuiteShape`).
    pub suite_kind: SuiteKind,
    /// How the run ended (status, failed cells).
    pub finished: Option<(RunStatus, usize)>,
    /// A runner error that stopped the run.
    pub error: Option<String>,
    /// Cancel was requested.
    pub cancelling: bool,
    /// Selected cell in the status list.
    pub cursor: usize,
}

impl LivePane {
    /// A fresh pane for a run about to start.
    pub fn new(baseline: &str) -> LivePane {
        LivePane {
            baseline: baseline.to_string(),
            ..LivePane::default()
        }
    }

    /// True until the run finished or failed.
    pub fn in_flight(&self) -> bool {
        self.finished.is_none() && self.error.is_none()
    }

    /// Folds one runner event into the state.
    pub fn apply(&mut self, ev: Event) {
        match ev {
            Event::Planned {
                run_id,
                suite_kind,
                cells,
                iterations_per_cell,
                invocations,
                ..
            } => {
                self.run_id = Some(run_id);
                self.suite_kind = suite_kind;
                self.status = vec![CellStatus::Queued; cells.len()];
                self.medians = vec![None; cells.len()];
                self.cells = cells;
                self.iterations_per_cell = iterations_per_cell;
                self.invocations = invocations.max(1);
                self.current = None;
                self.alongside = None;
            }
            Event::CellStarted {
                index,
                invocation,
                beside,
            } => {
                if beside {
                    // The same worker runs the cell started just before too.
                    self.alongside = self.current;
                } else {
                    // The worker that ran before ended its invocation (for both arms of
                    // a pair); unless their cells are finished, they wait for their next.
                    for prev in [self.current, self.alongside.take()]
                        .into_iter()
                        .flatten()
                        .filter(|p| *p != index)
                    {
                        if let Some(CellStatus::Running(done, inv)) = self.status.get(prev).cloned()
                        {
                            self.status[prev] = CellStatus::Between(inv + 1, done);
                        }
                    }
                }
                if let Some(s) = self.status.get_mut(index) {
                    let done = match s {
                        CellStatus::Running(d, _) | CellStatus::Between(_, d) => *d,
                        _ => 0,
                    };
                    *s = CellStatus::Running(done, invocation);
                }
                self.current = Some(index);
                self.cursor = index;
                self.cpu.clear();
                self.rss.clear();
            }
            Event::Progress { index, done } => {
                if let Some(s) = self.status.get_mut(index) {
                    let inv = match s {
                        CellStatus::Running(_, inv) => *inv,
                        _ => 0,
                    };
                    *s = CellStatus::Running(done, inv);
                }
                self.iterations_done += 1;
            }
            Event::Measurement { rows } => {
                for m in rows.into_iter().filter(|m| !m.warmup) {
                    if PrimarySource::of(m.phase, m.metric).is_some() {
                        let cell = self.values.entry((m.runtime, m.test)).or_default();
                        cell.push(m.phase, m.metric, m.invocation, m.value);
                    }
                }
            }
            Event::Sample { sample: s } => {
                push_bounded(&mut self.cpu, s.cpu_pct);
                push_bounded(&mut self.rss, s.rss_bytes);
                self.sampled = Some((s.runtime, s.test));
            }
            Event::CellFinished {
                index,
                failure,
                wall_ms,
            } => {
                let done_before = match self.status.get(index) {
                    Some(CellStatus::Running(d, _) | CellStatus::Between(_, d)) => *d as u64,
                    _ => 0,
                };
                if self.current == Some(index) {
                    self.current = None;
                }
                if self.alongside == Some(index) {
                    self.alongside = None;
                }
                // Count the iterations a failed or cut-short cell will never report; a cell
                // already ended (failed after the fact by the runtimes' cross-check of
                // answers) counted them then.
                let ended = matches!(
                    self.status.get(index),
                    Some(CellStatus::Done(_) | CellStatus::Failed(_))
                );
                if !ended {
                    self.iterations_done +=
                        (self.iterations_per_cell as u64).saturating_sub(done_before);
                }
                if let Some(s) = self.status.get_mut(index) {
                    *s = match failure {
                        None => CellStatus::Done(wall_ms),
                        Some(f) => CellStatus::Failed(f.to_string()),
                    };
                }
                if let (Some(key), Some(slot)) =
                    (self.cells.get(index), self.medians.get_mut(index))
                    && matches!(self.status[index], CellStatus::Done(_))
                {
                    *slot = self
                        .values
                        .get(key)
                        .and_then(LiveValues::figure)
                        .map(|(v, _)| v);
                }
            }
            Event::RunFinished { status, failed } => self.finished = Some((status, failed)),
            Event::Stopped { message } => self.error = Some(message),
        }
    }

    fn total_iterations(&self) -> u64 {
        self.cells.len() as u64 * self.iterations_per_cell as u64
    }

    /// Estimated time left, from the pace so far.
    pub fn eta(&self) -> Option<Duration> {
        let total = self.total_iterations();
        if self.iterations_done == 0 || total == 0 || self.finished.is_some() {
            return None;
        }
        let left = total.saturating_sub(self.iterations_done) as f64;
        Some(self.elapsed.mul_f64(left / self.iterations_done as f64))
    }

    fn baseline_median(&self, test: &str) -> Option<f64> {
        self.cells
            .iter()
            .position(|(r, t)| r == &self.baseline && t == test)
            .and_then(|i| self.medians[i])
    }

    /// Finished cells with their median and time relative to the baseline.
    pub fn results(&self) -> Vec<(usize, f64, Option<f64>)> {
        self.medians
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.map(|m| (i, m, self.baseline_median(&self.cells[i].1))))
            .map(|(i, m, b)| (i, m, b.filter(|b| *b > 0.0).map(|b| m / b)))
            .collect()
    }

    fn render_gauge(&self, area: Rect, buf: &mut Buffer) {
        let total = self.total_iterations();
        let ratio = if total == 0 {
            0.0
        } else {
            (self.iterations_done as f64 / total as f64).clamp(0.0, 1.0)
        };
        let cells_done = self
            .status
            .iter()
            .filter(|s| matches!(s, CellStatus::Done(_) | CellStatus::Failed(_)))
            .count();
        let state = match (&self.finished, &self.error, self.cancelling) {
            (_, Some(_), _) => "stopped by an error".to_string(),
            (Some((st, failed)), _, _) => format!("{st}, {failed} failed"),
            (None, None, true) => "cancelling…".into(),
            (None, None, false) => match self.eta() {
                Some(eta) => format!("ETA {}", clock(eta)),
                None => "ETA …".into(),
            },
        };
        // Which invocation the running cell is in, when cells run several.
        let invocation = match self.current.and_then(|i| self.status.get(i)) {
            Some(CellStatus::Running(_, inv)) if self.invocations > 1 => {
                format!(" · invocation {}/{}", inv + 1, self.invocations)
            }
            _ => String::new(),
        };
        let label = format!(
            "{}/{} iterations · {}/{} cells{invocation} · {} elapsed · {state}",
            self.iterations_done.min(total),
            total,
            cells_done,
            self.cells.len(),
            clock(self.elapsed)
        );
        let color = match (&self.finished, &self.error) {
            (_, Some(_)) => Color::Red,
            (Some((RunStatus::Complete, 0)), _) => Color::Green,
            (Some(_), _) => Color::Yellow,
            _ => Color::Cyan,
        };
        let title = match &self.run_id {
            Some(id) => format!("Run {id}"),
            None => "Run".into(),
        };
        Gauge::default()
            .block(pane_block(&title, false))
            .gauge_style(Style::default().fg(color).bg(Color::Black))
            .ratio(ratio)
            .label(label)
            .render(area, buf);
    }

    fn render_cells(&self, area: Rect, buf: &mut Buffer, focused: bool) {
        let block = pane_block("Cells", focused);
        let inner = block.inner(area);
        block.render(area, buf);
        let height = inner.height as usize;
        let off = scroll_offset(self.cursor, height);
        let w = inner.width as usize;
        let lines: Vec<Line> = self
            .cells
            .iter()
            .zip(&self.status)
            .enumerate()
            .skip(off)
            .take(height)
            .map(|(i, ((rt, t), st))| {
                let name = format!("{rt} × {t}");
                let (icon, what, style) = match st {
                    CellStatus::Queued => (
                        "·",
                        "queued".to_string(),
                        Style::default().fg(Color::DarkGray),
                    ),
                    CellStatus::Running(d, inv) if self.invocations > 1 => (
                        "▶",
                        format!(
                            "running {d}/{} · invocation {}/{}",
                            self.iterations_per_cell,
                            inv + 1,
                            self.invocations
                        ),
                        Style::default().fg(Color::Cyan),
                    ),
                    CellStatus::Running(d, _) => (
                        "▶",
                        format!("running {d}/{}", self.iterations_per_cell),
                        Style::default().fg(Color::Cyan),
                    ),
                    CellStatus::Between(ended, _) => (
                        "◦",
                        format!("queued {ended}/{}", self.invocations),
                        Style::default().fg(Color::Blue),
                    ),
                    CellStatus::Done(ms) => (
                        "✓",
                        format!("done {:.0} ms", ms),
                        Style::default().fg(Color::Green),
                    ),
                    CellStatus::Failed(why) => (
                        "✗",
                        format!("failed: {why}"),
                        Style::default().fg(Color::Red),
                    ),
                };
                let text = clip(&format!("{icon} {name:<28} {what}"), w);
                let line = Line::styled(text, style);
                if i == self.cursor && focused {
                    line.style(selected())
                } else {
                    line
                }
            })
            .collect();
        Paragraph::new(lines).render(inner, buf);
    }

    fn render_graphs(&self, area: Rect, buf: &mut Buffer) {
        let [cpu, rss] =
            Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(area);
        let who = self
            .sampled
            .as_ref()
            .map(|(r, t)| format!(" — {r} × {t}"))
            .unwrap_or_default();
        let cpu_now = self
            .cpu
            .last()
            .map(|c| format!("{c:.0} %"))
            .unwrap_or("-".into());
        let rss_now = self
            .rss
            .last()
            .map(|b| format_bytes(*b as f64))
            .unwrap_or("-".into());
        let rss_max = self.rss.iter().max().copied().unwrap_or(0);
        let cpu_block = pane_block(&format!("CPU {cpu_now}{who}"), false);
        let rss_title = if self.rss.is_empty() {
            "RSS -".to_string()
        } else {
            format!("RSS {rss_now} (max {})", format_bytes(rss_max as f64))
        };
        let rss_block = pane_block(&rss_title, false);
        let ci = cpu_block.inner(cpu);
        let cpu_data: Vec<u64> = tail(&self.cpu, ci.width as usize)
            .iter()
            .map(|c| c.round().max(0.0) as u64)
            .collect();
        let ri = rss_block.inner(rss);
        let rss_data: Vec<u64> = tail(&self.rss, ri.width as usize)
            .iter()
            .map(|b| b >> 10)
            .collect();
        super::resource_sparklines(
            (cpu_block, cpu, &cpu_data),
            (rss_block, rss, &rss_data),
            buf,
        );
    }

    fn render_results(&self, area: Rect, buf: &mut Buffer) {
        let block = pane_block(
            &format!("Results (× {}, lower is faster)", self.baseline),
            false,
        );
        let results = self.results();
        let max_rel = results.iter().filter_map(|r| r.2).fold(1.0_f64, f64::max);
        let bar_w = (area.width as usize)
            .saturating_sub(2 + 18 + 16 + 10 + 10 + 4)
            .max(4);
        let height = area.height.saturating_sub(3) as usize;
        let skip = results.len().saturating_sub(height);
        let rows = results.iter().skip(skip).map(|(i, m, rel)| {
            let (rt, t) = &self.cells[*i];
            let (rel_s, bar_s, color) = match rel {
                Some(r) => (format!("{r:.2}×"), bar(*r, max_rel, bar_w), rel_color(*r)),
                None => ("-".into(), String::new(), Color::Gray),
            };
            Row::new(vec![
                Line::from(clip(rt, 18)),
                Line::from(clip(t, 16)),
                Line::from(format_ns(*m)).right_aligned(),
                Line::from(rel_s).right_aligned(),
                Line::styled(bar_s, Style::default().fg(color)),
            ])
        });
        Table::new(
            rows,
            [
                Constraint::Length(18),
                Constraint::Length(16),
                Constraint::Length(10),
                Constraint::Length(8),
                Constraint::Min(4),
            ],
        )
        .header(
            Row::new([
                "runtime",
                "test",
                &self.suite_kind.shape().live_value,
                "relative",
                "",
            ])
            .style(Style::default().add_modifier(Modifier::BOLD)),
        )
        .block(block)
        .render(area, buf);
    }
}

fn push_bounded<T>(v: &mut Vec<T>, x: T) {
    if v.len() == HISTORY {
        v.remove(0);
    }
    v.push(x);
}

fn tail<T>(v: &[T], n: usize) -> &[T] {
    &v[v.len().saturating_sub(n)..]
}

/// `m:ss` (or `h:mm:ss`).
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

impl Component for LivePane {
    fn render(&self, area: Rect, buf: &mut Buffer, focused: bool) {
        if self.run_id.is_none() && self.error.is_none() {
            let block = pane_block("Live run", focused);
            let msg = if self.cells.is_empty() && !self.baseline.is_empty() {
                "starting…"
            } else {
                "no run yet: pick runtimes (1) and tests (2), then press r"
            };
            Paragraph::new(msg).block(block).render(area, buf);
            return;
        }
        let [gauge, mid, results] = Layout::vertical([
            Constraint::Length(3),
            Constraint::Percentage(45),
            Constraint::Min(5),
        ])
        .areas(area);
        self.render_gauge(gauge, buf);
        let [cells, graphs] =
            Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(mid);
        self.render_cells(cells, buf, focused);
        self.render_graphs(graphs, buf);
        if let Some(e) = &self.error {
            Paragraph::new(format!("run stopped: {e}"))
                .style(Style::default().fg(Color::Red))
                .block(pane_block("Error", false))
                .render(results, buf);
        } else {
            self.render_results(results, buf);
        }
    }

    fn on_key(&mut self, key: KeyEvent) -> Action {
        if let Some((down, by)) = movement(&key) {
            self.cursor = step(self.cursor, self.cells.len(), down, by);
            return Action::None;
        }
        match key.code {
            KeyCode::Char('c') | KeyCode::Esc if self.in_flight() && self.run_id.is_some() => {
                Action::CancelRun
            }
            _ => Action::Ignored,
        }
    }

    fn hints(&self) -> Vec<(&'static str, &'static str)> {
        if self.in_flight() && self.run_id.is_some() {
            vec![("c", "cancel run"), ("↑/↓", "cells")]
        } else {
            vec![("↑/↓", "cells"), ("4", "saved runs"), ("r", "run again")]
        }
    }
}
