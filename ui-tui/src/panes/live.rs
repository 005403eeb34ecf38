//! Live run: overall gauge with ETA, per-cell status, live CPU and RSS of the running
//! worker, and a results table that fills as cells finish, with bars relative to the
//! baseline. Runner events fold into core's [`LiveRun`] (the desktop's live screen folds
//! them the same way); this pane adds only what it draws besides (the resource graphs, the
//! cursor). A cell runs in several worker processes (invocations); with the interleaved
//! order other cells run between them, so a cell between its invocations is shown queued
//! with how many ended.

use super::{bar, clip, pane_block, rel_color, selected};
use crate::component::{Action, Component, movement, scroll_offset, step};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Gauge, Paragraph, Row, Table, Widget};
use std::time::Duration;
use wasmeter_core::format::{format_bytes, format_ns};
use wasmeter_core::live::{CellStatus, LiveRun, RunState};
use wasmeter_core::runner::Event;

/// Samples kept for the live graphs.
pub const HISTORY: usize = 240;

/// State of the live-run pane.
#[derive(Debug, Default)]
pub struct LivePane {
    /// The run as core folds its events.
    pub run: LiveRun,
    /// Time since the run started (set by the app's clock, not read while drawing): the
    /// clock events are folded at.
    pub elapsed: Duration,
    /// Recent CPU samples, percent of one core.
    pub cpu: Vec<f32>,
    /// Recent RSS samples, bytes.
    pub rss: Vec<u64>,
    /// The cell the last sample came from.
    pub sampled: Option<(String, String)>,
    /// The baseline runtime asked for, shown before the plan names it.
    pub baseline: String,
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
        self.run.in_flight()
    }

    /// Folds one runner event in, at the pane's clock.
    pub fn apply(&mut self, ev: Event) {
        self.run.apply(&ev, self.elapsed);
        match ev {
            Event::Planned { baseline, .. } => self.baseline = baseline,
            Event::CellStarted { index, .. } => {
                self.cursor = index;
                self.cpu.clear();
                self.rss.clear();
            }
            Event::Sample { sample: s } => {
                push_bounded(&mut self.cpu, s.cpu_pct);
                push_bounded(&mut self.rss, s.rss_bytes);
                self.sampled = Some((s.runtime, s.test));
            }
            _ => {}
        }
    }

    /// The run stopped on an error of its own (the runner thread's result).
    pub fn stop(&mut self, message: String) {
        self.run.apply(&Event::Stopped { message }, self.elapsed);
    }

    /// Ended cells with a figure: their index, figure and ratio to the baseline.
    pub fn results(&self) -> Vec<(usize, f64, Option<f64>)> {
        (0..self.run.cells.len())
            .filter(|&i| self.run.cells[i].status.ended())
            .filter_map(|i| self.run.cell_view(i))
            .filter_map(|c| Some((c.index, c.value?, c.ratio)))
            .collect()
    }

    fn render_gauge(&self, area: Rect, buf: &mut Buffer) {
        let run = &self.run;
        let progress = run.progress();
        let state = match (run.head.state, run.head.failed_reported) {
            (RunState::Error, _) => "stopped by an error".to_string(),
            (RunState::Running, _) if run.cancelling => "cancelling…".into(),
            (RunState::Running, _) => match run.eta() {
                Some(eta) => format!("ETA {}", clock(eta)),
                None => "ETA …".into(),
            },
            (st, failed) => format!("{st}, {} failed", failed.unwrap_or(run.head.failed_cells)),
        };
        // Which invocation the running cell is in, when cells run several.
        let position = run.position();
        let invocation = if position.invocation > 0 && run.head.invocations > 1 {
            format!(
                " · invocation {}/{}",
                position.invocation, run.head.invocations
            )
        } else {
            String::new()
        };
        let label = format!(
            "{}/{} iterations · {}/{} cells{invocation} · {} elapsed · {state}",
            progress.done,
            progress.total,
            run.head.finished_cells,
            run.cells.len(),
            clock(self.elapsed)
        );
        let color = match (run.head.state, run.head.failed_reported) {
            (RunState::Error, _) => Color::Red,
            (RunState::Complete, Some(0)) => Color::Green,
            (RunState::Running, _) => Color::Cyan,
            _ => Color::Yellow,
        };
        let title = match &run.head.run_id {
            Some(id) => format!("Run {id}"),
            None => "Run".into(),
        };
        Gauge::default()
            .block(pane_block(&title, false))
            .gauge_style(Style::default().fg(color).bg(Color::Black))
            .ratio(progress.fraction.clamp(0.0, 1.0))
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
        let (per_cell, invocations) =
            (self.run.head.iterations_per_cell, self.run.head.invocations);
        let lines: Vec<Line> = (self.run.cells.iter())
            .enumerate()
            .skip(off)
            .take(height)
            .map(|(i, c)| {
                let name = format!("{} × {}", c.runtime, c.test);
                let (icon, what, style) = match c.status {
                    CellStatus::Pending => (
                        "·",
                        "pending".to_string(),
                        Style::default().fg(Color::DarkGray),
                    ),
                    CellStatus::Running if invocations > 1 => (
                        "▶",
                        format!(
                            "running {}/{per_cell} · invocation {}/{invocations}",
                            c.done,
                            c.invocation + 1,
                        ),
                        Style::default().fg(Color::Cyan),
                    ),
                    CellStatus::Running => (
                        "▶",
                        format!("running {}/{per_cell}", c.done),
                        Style::default().fg(Color::Cyan),
                    ),
                    CellStatus::Queued => (
                        "◦",
                        format!("queued {}/{invocations}", c.invocations_ended),
                        Style::default().fg(Color::Blue),
                    ),
                    CellStatus::Partial => (
                        "◦",
                        format!("partial {}/{invocations}", c.invocations_ended),
                        Style::default().fg(Color::Yellow),
                    ),
                    CellStatus::Done => (
                        "✓",
                        format!("done {:.0} ms", c.wall_ms.unwrap_or(0.0)),
                        Style::default().fg(Color::Green),
                    ),
                    CellStatus::Failed => (
                        "✗",
                        format!("failed: {}", c.failure.as_deref().unwrap_or("")),
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
            let c = &self.run.cells[*i];
            let (rt, t) = (&c.runtime, &c.test);
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
                &self.run.head.suite_kind.shape().live_value,
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
        if self.run.head.run_id.is_none() && self.run.head.error.is_none() {
            let block = pane_block("Live run", focused);
            let msg = if !self.baseline.is_empty() {
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
        if let Some(e) = &self.run.head.error {
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
            self.cursor = step(self.cursor, self.run.cells.len(), down, by);
            return Action::None;
        }
        match key.code {
            KeyCode::Char('c') | KeyCode::Esc
                if self.in_flight() && self.run.head.run_id.is_some() =>
            {
                Action::CancelRun
            }
            _ => Action::Ignored,
        }
    }

    fn hints(&self) -> Vec<(&'static str, &'static str)> {
        if self.in_flight() && self.run.head.run_id.is_some() {
            vec![("c", "cancel run"), ("↑/↓", "cells")]
        } else {
            vec![("↑/↓", "cells"), ("4", "saved runs"), ("r", "run again")]
        }
    }
}
