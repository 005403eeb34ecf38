//! A cell's history (`wasmeter history` for one suite × test × runtime): its typical time
//! run after run with the 95 % interval, the levels between change points and the change
//! points themselves, as core finds them ([`history`]); under the chart core's words on each
//! change and core's table of the runs ([`history_table`]). Opened from run detail on the
//! selected cell; every machine and timing source is a series of its own, one shown at a
//! time.
//!
//! The history is read once on a thread when the pane opens (the first history of a results
//! directory summarises every run into its index, which can take seconds) and again on
//! `r`; the chart's points and the table are made once per series, not per frame.

use super::{aligned, clip, header_row, pane_block, selected};
use crate::component::{Action, Component, movement, scroll_offset, step};
use crossbeam_channel::{Receiver, TryRecvError};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Axis, Chart, Dataset, GraphType, Paragraph, Row, Table as Grid, Widget, Wrap,
};
use std::path::PathBuf;
use wasmeter_core::format::{format_ns, format_time};
use wasmeter_core::history::{History, HistoryQuery, Results, Series, history};
use wasmeter_core::table::{Table, history_table};

/// Keys of the pane, for the hint bar and the help overlay.
pub const HINTS: [(&str, &str); 4] = [
    ("↑/↓", "runs"),
    ("s/S", "next/previous series"),
    ("r", "read again"),
    ("esc", "back to the run"),
];

/// Rows of the table of runs at the most (header included), when the pane is tall.
const TABLE_MAX: u16 = 12;

/// Lines of core's notes (the change points) under the chart at the most.
const NOTES_MAX: u16 = 4;

/// What the pane has: the history being read, read, or why not.
#[derive(Debug)]
enum State {
    /// Being read on a thread.
    Reading(Receiver<Result<History, String>>),
    /// Read.
    Read(History),
    /// Could not be read.
    Failed(String),
}

/// A series made ready to draw: core's table of it and the chart's points.
#[derive(Debug)]
struct Drawn {
    /// Core's table of every run of the series, oldest first.
    table: Table,
    /// (run index, typical time).
    line: Vec<(f64, f64)>,
    /// (run index, low end of the interval), where there is one.
    low: Vec<(f64, f64)>,
    /// (run index, high end of the interval).
    high: Vec<(f64, f64)>,
    /// Each level between change points: two points at its ends.
    levels: Vec<[(f64, f64); 2]>,
    /// Each change point: a vertical marker over the whole y range, and whether it is
    /// slower.
    markers: Vec<([(f64, f64); 2], bool)>,
    /// y bounds (ns).
    y: [f64; 2],
}

impl Drawn {
    fn new(s: &Series, h: &History) -> Drawn {
        let points = &s.points;
        let at = |i: usize| i as f64;
        let line: Vec<(f64, f64)> = points
            .iter()
            .enumerate()
            .map(|(i, p)| (at(i), p.value))
            .collect();
        let low: Vec<(f64, f64)> = points
            .iter()
            .enumerate()
            .filter_map(|(i, p)| Some((at(i), p.low?)))
            .collect();
        let high: Vec<(f64, f64)> = points
            .iter()
            .enumerate()
            .filter_map(|(i, p)| Some((at(i), p.high?)))
            .collect();
        let (mut lo, mut hi) = line
            .iter()
            .chain(&low)
            .chain(&high)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (_, y)| {
                (a.min(*y), b.max(*y))
            });
        if !lo.is_finite() {
            (lo, hi) = (0.0, 1.0);
        }
        // A little room above and below; a flat series gets some around it.
        let pad = if hi > lo {
            (hi - lo) * 0.05
        } else {
            hi.abs() * 0.05 + 1.0
        };
        let y = [(lo - pad).max(0.0), hi + pad];
        // Each level between change points, from core's medians either side of them.
        let mut bounds = vec![0];
        bounds.extend(s.changes.iter().map(|c| c.index));
        bounds.push(points.len());
        let levels = if s.changes.is_empty() {
            Vec::new()
        } else {
            bounds
                .windows(2)
                .enumerate()
                .map(|(k, w)| {
                    let level = match s.changes.get(k) {
                        Some(c) => c.before,
                        None => s.changes[k - 1].after,
                    };
                    [(at(w[0]), level), (at(w[1].saturating_sub(1)), level)]
                })
                .collect()
        };
        // A marker half-way between the last run of a level and the first of the next.
        let markers = s
            .changes
            .iter()
            .map(|c| {
                let x = at(c.index) - 0.5;
                ([(x, y[0]), (x, y[1])], c.change_pct > 0.0)
            })
            .collect();
        Drawn {
            table: history_table(s, &h.changes, 0),
            line,
            low,
            high,
            levels,
            markers,
            y,
        }
    }
}

/// State of the history pane.
#[derive(Debug)]
pub struct HistoryPane {
    /// Results directory read.
    pub results: PathBuf,
    /// The cell asked for (suite, test, runtime; every machine).
    pub query: HistoryQuery,
    state: State,
    /// Series shown (index into the history's series).
    pub series: usize,
    /// Selected run (row of the table, index into the series' points).
    pub cursor: usize,
    drawn: Option<Drawn>,
    /// Machine and timing source of the series shown, kept across a read.
    shown: Option<(String, String)>,
}

impl HistoryPane {
    /// Starts reading the history of `query` in `results` on a thread.
    pub fn open(results: PathBuf, query: HistoryQuery) -> HistoryPane {
        let mut p = HistoryPane {
            results,
            query,
            state: State::Failed(String::new()),
            series: 0,
            cursor: 0,
            drawn: None,
            shown: None,
        };
        p.read();
        p
    }

    /// The pane over a history already read (tests and tools; `r` reads it again from
    /// `results`).
    pub fn with_history(results: PathBuf, query: HistoryQuery, h: History) -> HistoryPane {
        let mut p = HistoryPane {
            results,
            query,
            state: State::Read(h),
            series: 0,
            cursor: 0,
            drawn: None,
            shown: None,
        };
        p.select(0, false);
        p
    }

    /// Reads the history again (on a thread); the series shown stays when it still is.
    pub fn read(&mut self) {
        let (tx, rx) = crossbeam_channel::bounded(1);
        let results = Results::Local(self.results.clone());
        let q = self.query.clone();
        let spawned = std::thread::Builder::new()
            .name("wasmeter-history".into())
            .spawn(move || {
                let _ = tx.send(history(&results, &q).map_err(|e| e.to_string()));
            });
        self.state = match spawned {
            Ok(_) => State::Reading(rx),
            Err(e) => State::Failed(format!("cannot start reading: {e}")),
        };
    }

    /// True while the history is being read.
    pub fn is_reading(&self) -> bool {
        matches!(self.state, State::Reading(_))
    }

    /// The history, once read.
    pub fn history(&self) -> Option<&History> {
        match &self.state {
            State::Read(h) => Some(h),
            _ => None,
        }
    }

    /// Takes the history when it has been read: `None` while nothing changed, `Some(Err)`
    /// with the error to show when it could not be read.
    pub fn poll(&mut self) -> Option<Result<(), String>> {
        let State::Reading(rx) = &self.state else {
            return None;
        };
        let got = match rx.try_recv() {
            Ok(r) => r,
            Err(TryRecvError::Empty) => return None,
            Err(TryRecvError::Disconnected) => Err("the history thread stopped".into()),
        };
        match got {
            Ok(h) => {
                // The series shown before stays shown when it is still there.
                self.series = self
                    .shown
                    .take()
                    .and_then(|(m, src)| {
                        h.series
                            .iter()
                            .position(|s| s.machine == m && s.source == src)
                    })
                    .unwrap_or(0);
                self.state = State::Read(h);
                self.select(self.series, true);
                Some(Ok(()))
            }
            Err(e) => {
                self.state = State::Failed(e.clone());
                self.drawn = None;
                Some(Err(e))
            }
        }
    }

    /// The series shown.
    pub fn current(&self) -> Option<&Series> {
        self.history()?.series.get(self.series)
    }

    /// Shows series `i`, its newest run selected (or the same row when `keep` and the
    /// series is as long).
    fn select(&mut self, i: usize, keep: bool) {
        let Some(h) = self.history() else { return };
        let Some(s) = h.series.get(i) else {
            self.drawn = None;
            return;
        };
        let drawn = Drawn::new(s, h);
        let n = s.points.len();
        self.shown = Some((s.machine.clone(), s.source.clone()));
        self.series = i;
        self.cursor = if keep && self.cursor < n && self.drawn.is_some() {
            self.cursor
        } else {
            n.saturating_sub(1)
        };
        self.drawn = Some(drawn);
    }

    fn what(&self) -> String {
        let q = &self.query;
        [&q.suite, &q.test, &q.runtime]
            .into_iter()
            .flatten()
            .cloned()
            .collect::<Vec<_>>()
            .join(" · ")
    }

    fn render_chart(&self, s: &Series, d: &Drawn, area: Rect, buf: &mut Buffer) {
        let n = s.points.len();
        let x = if n > 1 {
            [0.0, (n - 1) as f64]
        } else {
            [-0.5, 0.5]
        };
        let dim = Style::default().fg(Color::DarkGray);
        let mut sets = Vec::new();
        for (m, slower) in &d.markers {
            sets.push(
                Dataset::default()
                    .marker(Marker::Braille)
                    .graph_type(GraphType::Line)
                    .style(Style::default().fg(if *slower { Color::Red } else { Color::Green }))
                    .data(m),
            );
        }
        for band in [&d.low, &d.high] {
            sets.push(
                Dataset::default()
                    .marker(Marker::Braille)
                    .graph_type(GraphType::Line)
                    .style(dim)
                    .data(band),
            );
        }
        for l in &d.levels {
            sets.push(
                Dataset::default()
                    .marker(Marker::Braille)
                    .graph_type(GraphType::Line)
                    .style(Style::default().fg(Color::Yellow))
                    .data(l),
            );
        }
        sets.push(
            Dataset::default()
                .marker(Marker::Braille)
                .graph_type(if n > 1 {
                    GraphType::Line
                } else {
                    GraphType::Scatter
                })
                .style(Style::default().fg(Color::Cyan))
                .data(&d.line),
        );
        if let Some(p) = d.line.get(self.cursor) {
            sets.push(
                Dataset::default()
                    .marker(Marker::Block)
                    .graph_type(GraphType::Scatter)
                    .style(Style::default().fg(Color::White))
                    .data(std::slice::from_ref(p)),
            );
        }
        let date = |i: usize| {
            s.points
                .get(i)
                .map(|p| format_time(p.started_unix))
                .unwrap_or_default()
        };
        let x_labels: Vec<String> = match n {
            0 => Vec::new(),
            1 => vec![String::new(), date(0)],
            2 => vec![date(0), date(1)],
            _ => vec![date(0), date((n - 1) / 2), date(n - 1)],
        };
        let [lo, hi] = d.y;
        let y_labels = [format_ns(lo), format_ns((lo + hi) / 2.0), format_ns(hi)];
        Chart::new(sets)
            .legend_position(None)
            .x_axis(
                Axis::default()
                    .bounds(x)
                    .labels(x_labels)
                    .labels_alignment(Alignment::Center)
                    .style(dim),
            )
            .y_axis(Axis::default().bounds(d.y).labels(y_labels).style(dim))
            .render(area, buf);
    }

    fn render_table(&self, d: &Drawn, area: Rect, buf: &mut Buffer, focused: bool) {
        let t = &d.table;
        let spacing = 2u16;
        let all: Vec<u16> = t.widths().into_iter().map(|w| w as u16).collect();
        // When the columns do not fit, the start time goes (the x axis has it), then the
        // version, then the run id is clipped.
        let fits = |cols: &[usize]| {
            cols.iter().map(|&c| all[c]).sum::<u16>() + spacing * (cols.len() as u16 - 1)
                <= area.width
        };
        let mut cols: Vec<usize> = (0..all.len()).collect();
        for drop in [1, 3] {
            if !fits(&cols) {
                cols.retain(|&c| c != drop);
            }
        }
        let mut widths: Vec<u16> = cols.iter().map(|&c| all[c]).collect();
        let total: u16 = widths.iter().sum::<u16>() + spacing * (widths.len() as u16 - 1);
        if total > area.width {
            widths[0] = widths[0].saturating_sub(total - area.width).max(12);
        }
        let height = area.height.saturating_sub(1) as usize;
        let off = scroll_offset(self.cursor, height);
        let change_col = t.columns.len() - 1;
        let rows = t
            .rows
            .iter()
            .enumerate()
            .skip(off)
            .take(height)
            .map(|(i, r)| {
                let row = Row::new(
                    cols.iter()
                        .map(|&c| {
                            let text = Table::cell(r, c);
                            let text = if c == 0 {
                                clip(text, widths[0] as usize)
                            } else {
                                text.to_string()
                            };
                            aligned(&t.columns[c], text)
                        })
                        .collect::<Vec<_>>(),
                );
                if focused && i == self.cursor {
                    row.style(selected())
                } else if !Table::cell(r, change_col).is_empty() {
                    row.style(Style::default().fg(Color::Yellow))
                } else {
                    row
                }
            });
        Grid::new(
            rows,
            widths
                .iter()
                .map(|w| Constraint::Length(*w))
                .collect::<Vec<_>>(),
        )
        .header(header_row(cols.iter().map(|&c| &t.columns[c])))
        .column_spacing(spacing)
        .render(area, buf);
    }
}

impl Component for HistoryPane {
    fn render(&self, area: Rect, buf: &mut Buffer, focused: bool) {
        let h = self.history();
        let mut title = format!("History of {}", self.what());
        if let Some(h) = h
            && h.series.len() > 1
        {
            title.push_str(&format!(
                " · series {} of {} (s: next)",
                self.series + 1,
                h.series.len()
            ));
        }
        let block = pane_block(&title, focused);
        let inner = block.inner(area);
        block.render(area, buf);
        let say = |text: String, style: Style, buf: &mut Buffer| {
            Paragraph::new(text)
                .style(style)
                .wrap(Wrap { trim: true })
                .render(inner, buf);
        };
        let h = match &self.state {
            State::Reading(_) => {
                return say(
                    format!(
                        "reading history of {} in {}… (the first history of a results directory summarises every run once: it can take a while)",
                        self.what(),
                        self.results.display()
                    ),
                    Style::default().fg(Color::DarkGray),
                    buf,
                );
            }
            State::Failed(e) => {
                return say(
                    format!("cannot read the history: {e} (r reads it again)"),
                    Style::default().fg(Color::Red),
                    buf,
                );
            }
            State::Read(h) => h,
        };
        let (Some(s), Some(d)) = (self.current(), &self.drawn) else {
            let mut text = format!(
                "no history: no finished run in {} has {}",
                self.results.display(),
                self.what(),
            );
            if !h.skipped.is_empty() {
                text.push_str(&format!(", {} runs left out", h.skipped.len()));
            }
            return say(text, Style::default().fg(Color::DarkGray), buf);
        };
        let notes = &d.table.notes;
        // Each note whole, wrapped when narrow.
        let width = inner.width.max(1);
        let notes_h = notes
            .iter()
            .map(|n| (n.chars().count() as u16).div_ceil(width).max(1))
            .sum::<u16>()
            .min(NOTES_MAX);
        let table_h = (s.points.len() as u16 + 1)
            .min(TABLE_MAX)
            .min(inner.height.saturating_sub(notes_h + 1) * 2 / 5)
            .max(2);
        let [head, chart, notes_area, table] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(4),
            Constraint::Length(notes_h),
            Constraint::Length(table_h),
        ])
        .areas(inner);
        let mut spans = vec![Span::styled(
            d.table.title.clone().unwrap_or_default(),
            Style::default().add_modifier(Modifier::BOLD),
        )];
        if !h.skipped.is_empty() {
            spans.push(Span::styled(
                format!(" · {} runs left out", h.skipped.len()),
                Style::default().fg(Color::Yellow),
            ));
        }
        // What the chart's lines are, in their colours.
        spans.push(Span::styled(" · ", Style::default().fg(Color::DarkGray)));
        for (what, color) in [
            ("typical", Color::Cyan),
            ("95 % interval", Color::DarkGray),
            ("level", Color::Yellow),
            ("change", Color::Red),
        ] {
            spans.push(Span::styled(
                format!("─ {what} "),
                Style::default().fg(color),
            ));
        }
        Paragraph::new(Line::from(spans)).render(head, buf);
        self.render_chart(s, d, chart, buf);
        let lines: Vec<Line> = notes
            .iter()
            .map(|n| {
                let style = if n.starts_with("change") {
                    Style::default().fg(Color::Yellow)
                } else {
                    Style::default().fg(Color::DarkGray)
                };
                Line::styled(n.clone(), style)
            })
            .collect();
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .render(notes_area, buf);
        self.render_table(d, table, buf, focused);
    }

    fn on_key(&mut self, key: KeyEvent) -> Action {
        let n = self.current().map_or(0, |s| s.points.len());
        if let Some((down, by)) = movement(&key) {
            self.cursor = step(self.cursor, n, down, by);
            return Action::None;
        }
        let series = self.history().map_or(0, |h| h.series.len());
        match key.code {
            KeyCode::Esc => Action::Close,
            KeyCode::Char('r') => {
                self.read();
                Action::None
            }
            KeyCode::Char('s') if series > 1 => {
                self.select((self.series + 1) % series, false);
                Action::None
            }
            KeyCode::Char('S') if series > 1 => {
                self.select((self.series + series - 1) % series, false);
                Action::None
            }
            _ => Action::Ignored,
        }
    }

    fn hints(&self) -> Vec<(&'static str, &'static str)> {
        HINTS.to_vec()
    }
}
