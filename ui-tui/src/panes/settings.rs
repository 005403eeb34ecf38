//! Run settings: size, warm-up, runs, invocations (fresh worker processes per cell) and
//! their order, timeout, baseline runtime, label; for an HTTP suite (gateway, servers) the
//! load: connection levels, seconds per level, seconds of latency. Warm-up, runs and
//! invocations start from core's defaults for the ticked suite's kind
//! ([`Repetition::default_for`]) and are kept per kind once changed. The timeout is the
//! ticked suite's own (or core's default) until the user sets one, which then wins for
//! every suite; typing an empty one goes back ([`wasmeter_core::runner::resolve_timeout`]).
//! ←/→ steps a value, Enter types one.

use super::{pane_block, selected};
use crate::component::{Action, Component, movement, step};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use std::collections::HashMap;
use wasmeter_core::analysis::{MIN_INVOCATIONS, MIN_VALUES};
use wasmeter_core::http::HttpSettings;
use wasmeter_core::runner::{
    DEFAULT_MEMORY_CAP_MIB, DEFAULT_SAMPLE_INTERVAL_MS, Repetition, RunChoices, RunDefaults,
    RunOrder, TimeoutSource,
};
use wasmeter_core::suite::{Size, Suite, SuiteKind};

/// The settings, in display order (the last three for HTTP suites only).
pub const FIELDS: [&str; 11] = [
    "size",
    "warm-up",
    "runs",
    "invocations",
    "order",
    "timeout (s)",
    "baseline",
    "label",
    "connections",
    "s per level",
    "latency (s)",
];

/// Index of the warm-up iterations in [`FIELDS`].
const WARMUP: usize = 1;
/// Index of the measured iterations.
const RUNS: usize = 2;
/// Index of the invocations.
const INVOCATIONS: usize = 3;
/// Index of the order.
const ORDER: usize = 4;
/// Index of the timeout.
const TIMEOUT: usize = 5;
/// Index of the baseline.
const BASELINE: usize = 6;
/// Index of the label.
const LABEL: usize = 7;
/// Index of the connection levels.
const LEVELS: usize = 8;
/// Index of the seconds per level.
const DURATION: usize = 9;
/// Index of the seconds of latency measurement.
const LATENCY: usize = 10;

/// State of the settings pane.
#[derive(Debug)]
pub struct SettingsPane {
    /// Problem size.
    pub size: Size,
    /// Kind of the ticked suite: whose warm-up, runs and invocations are shown and used.
    pub kind: SuiteKind,
    /// Core's defaults for the ticked suite: what a setting left alone shows and a run
    /// takes (the suite's own timeout among them).
    pub defaults: RunDefaults,
    /// Warm-up, runs and invocations changed by the user, per kind of suite; a kind not
    /// here uses core's defaults.
    pub repetition: HashMap<SuiteKind, Repetition>,
    /// Order of the cells' invocations.
    pub order: RunOrder,
    /// Per-iteration timeout the user set, seconds; `None`: the suite's own, else core's
    /// default.
    pub timeout: Option<u64>,
    /// Baseline runtime id.
    pub baseline: String,
    /// Label stored with the run.
    pub label: String,
    /// Selected field.
    pub cursor: usize,
    /// Text being typed into the selected field.
    pub editing: Option<String>,
    /// Why the last edit was refused.
    pub error: Option<String>,
    /// Runtime ids to cycle the baseline through.
    pub runtime_ids: Vec<String>,
    /// Load of an HTTP suite (levels, seconds per level, latency).
    pub http: HttpSettings,
}

impl Default for SettingsPane {
    fn default() -> Self {
        // Core's defaults for what a run request leaves unset.
        let defaults = RunDefaults::for_suite(&Suite::default());
        SettingsPane {
            size: defaults.size,
            kind: SuiteKind::default(),
            repetition: HashMap::new(),
            order: defaults.order,
            timeout: None,
            baseline: defaults.baseline.clone(),
            defaults,
            label: String::new(),
            cursor: 0,
            editing: None,
            error: None,
            runtime_ids: Vec::new(),
            http: HttpSettings::default(),
        }
    }
}

/// Milliseconds as seconds, without trailing zeros (`2`, `0.5`).
fn secs(ms: u64) -> String {
    format!("{}", ms as f64 / 1000.0)
}

impl SettingsPane {
    /// Warm-up, runs and invocations for the ticked suite's kind: as changed, else core's
    /// defaults for it.
    pub fn repetition(&self) -> Repetition {
        self.repetition_for(self.kind)
    }

    /// Warm-up, runs and invocations for a kind of suite.
    pub fn repetition_for(&self, kind: SuiteKind) -> Repetition {
        self.repetition
            .get(&kind)
            .copied()
            .unwrap_or_else(|| Repetition::default_for(kind))
    }

    fn change(&mut self, f: impl FnOnce(&mut Repetition)) {
        let mut r = self.repetition();
        f(&mut r);
        self.repetition.insert(self.kind, r);
    }

    /// True when the ticked suite is an HTTP suite (the load fields show).
    pub fn http_suite(&self) -> bool {
        self.kind.is_http()
    }

    /// Fields shown: the load ones only for an HTTP suite.
    pub fn field_count(&self) -> usize {
        if self.http_suite() {
            FIELDS.len()
        } else {
            LEVELS
        }
    }

    /// Says which suite is ticked, if one is (fields shown and values used: its kind's
    /// repetition, its own timeout).
    pub fn set_suite(&mut self, suite: Option<&Suite>) {
        let default = Suite::default();
        let suite = suite.unwrap_or(&default);
        self.kind = suite.kind;
        self.defaults = RunDefaults::for_suite(suite);
        if self.cursor >= self.field_count() {
            self.cursor = self.field_count() - 1;
            self.editing = None;
        }
    }

    /// The timeout a run would take, seconds: the one set, else the suite's own or core's.
    pub fn timeout_secs(&self) -> u64 {
        self.timeout.unwrap_or(self.defaults.timeout_secs)
    }

    /// What the user chose for a run of a `kind` suite: the settings changed, and for those
    /// shown but left alone (warm-up, runs, invocations, timeout) `None`, for core to
    /// decide. The memory cap and sampling interval are core's: this pane has no field for
    /// them.
    pub fn choices(
        &self,
        kind: SuiteKind,
        tests: Vec<String>,
        runtimes: Vec<String>,
    ) -> RunChoices {
        let rep = self.repetition.get(&kind);
        RunChoices {
            tests,
            runtimes,
            warmup: rep.map(|r| r.warmup),
            runs: rep.map(|r| r.runs),
            invocations: rep.map(|r| r.invocations),
            order: Some(self.order),
            timeout_secs: self.timeout,
            size: Some(self.size),
            label: Some(self.label.clone()),
            baseline: Some(self.baseline.clone()),
            http: kind.is_http().then(|| self.http.clone()),
            ..RunChoices::default()
        }
    }

    /// The text an edit of field `i` starts from: its value, but nothing for a timeout not
    /// set (Enter on it leaves it to the suite).
    fn edit_text(&self, i: usize) -> String {
        match (i, self.timeout) {
            (TIMEOUT, None) => String::new(),
            _ => self.value(i),
        }
    }

    fn value(&self, i: usize) -> String {
        let rep = self.repetition();
        match i {
            0 => self.size.to_string(),
            WARMUP => rep.warmup.to_string(),
            RUNS => rep.runs.to_string(),
            INVOCATIONS => rep.invocations.to_string(),
            ORDER => self.order.to_string(),
            TIMEOUT => match (self.timeout, self.defaults.timeout_source) {
                (Some(t), _) => t.to_string(),
                (None, TimeoutSource::Suite) => format!("{} (suite's)", self.defaults.timeout_secs),
                (None, _) => format!("{} (default)", self.defaults.timeout_secs),
            },
            BASELINE => self.baseline.clone(),
            LABEL => self.label.clone(),
            LEVELS => self
                .http
                .levels
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(","),
            DURATION => secs(self.http.duration_ms),
            _ => secs(self.http.latency_ms),
        }
    }

    fn set(&mut self, i: usize, text: &str) -> Result<(), String> {
        let t = text.trim();
        let num = |min: u64| -> Result<u64, String> {
            t.parse::<u64>()
                .ok()
                .filter(|v| *v >= min && *v <= 100_000)
                .ok_or_else(|| format!("{}: a whole number from {min}", FIELDS[i]))
        };
        let seconds = || -> Result<u64, String> {
            t.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v > 0.0 && *v <= 3600.0)
                .map(|v| ((v * 1000.0).round() as u64).max(1))
                .ok_or_else(|| format!("{}: seconds, over 0 and at most 3600", FIELDS[i]))
        };
        match i {
            0 => self.size = t.parse()?,
            WARMUP => {
                let v = num(0)? as u32;
                self.change(|r| r.warmup = v);
            }
            RUNS => {
                let v = num(1)? as u32;
                self.change(|r| r.runs = v);
            }
            INVOCATIONS => {
                let v = num(1)? as u32;
                self.change(|r| r.invocations = v);
            }
            ORDER => self.order = t.parse().map_err(|e: String| format!("order: {e}"))?,
            // Empty: back to the suite's own timeout, or core's default.
            TIMEOUT if t.is_empty() => self.timeout = None,
            TIMEOUT => self.timeout = Some(num(1)?),
            BASELINE if t.is_empty() => return Err("baseline: name a runtime".into()),
            BASELINE => self.baseline = t.to_string(),
            LABEL => self.label = t.to_string(),
            LEVELS => {
                let levels: Option<Vec<u32>> = t
                    .split([',', ' '])
                    .filter(|p| !p.is_empty())
                    .map(|p| p.parse::<u32>().ok().filter(|v| (1..=100_000).contains(v)))
                    .collect();
                match levels {
                    Some(mut l) if !l.is_empty() => {
                        l.sort_unstable();
                        l.dedup();
                        self.http.levels = l;
                    }
                    _ => {
                        return Err("connections: whole numbers from 1, separated by commas".into());
                    }
                }
            }
            DURATION => self.http.duration_ms = seconds()?,
            _ => self.http.latency_ms = seconds()?,
        }
        Ok(())
    }

    fn nudge(&mut self, up: bool) {
        let d = |v: u32, min: u32| {
            if up {
                v.saturating_add(1).min(100_000)
            } else {
                v.saturating_sub(1).max(min)
            }
        };
        match self.cursor {
            0 => {
                self.size = if self.size == Size::Quick {
                    Size::Full
                } else {
                    Size::Quick
                }
            }
            WARMUP => self.change(|r| r.warmup = d(r.warmup, 0)),
            RUNS => self.change(|r| r.runs = d(r.runs, 1)),
            INVOCATIONS => self.change(|r| r.invocations = d(r.invocations, 1)),
            ORDER => {
                self.order = match self.order {
                    RunOrder::Interleaved => RunOrder::Sequential,
                    RunOrder::Sequential => RunOrder::Interleaved,
                }
            }
            TIMEOUT => {
                let t = self.timeout_secs();
                self.timeout = Some(if up {
                    t.saturating_add(1)
                } else {
                    t.saturating_sub(1).max(1)
                })
            }
            BASELINE if !self.runtime_ids.is_empty() => {
                let n = self.runtime_ids.len();
                let i = self.runtime_ids.iter().position(|r| *r == self.baseline);
                let next = match (i, up) {
                    (None, _) => 0,
                    (Some(i), true) => (i + 1) % n,
                    (Some(i), false) => (i + n - 1) % n,
                };
                self.baseline = self.runtime_ids[next].clone();
            }
            // Half a second at a time, at least half a second.
            DURATION | LATENCY => {
                let ms = if self.cursor == DURATION {
                    &mut self.http.duration_ms
                } else {
                    &mut self.http.latency_ms
                };
                *ms = if up {
                    (*ms / 500 + 1) * 500
                } else {
                    (ms.div_ceil(500).saturating_sub(1) * 500).max(500)
                }
                .min(3_600_000);
            }
            _ => {}
        }
    }

    /// True for fields ←/→ change.
    fn steps(i: usize) -> bool {
        !matches!(i, LABEL | LEVELS)
    }
}

impl Component for SettingsPane {
    fn render(&self, area: Rect, buf: &mut Buffer, focused: bool) {
        let block = pane_block("Run settings", focused);
        let inner = block.inner(area);
        block.render(area, buf);
        let n = self.field_count();
        let [fields, note] =
            Layout::vertical([Constraint::Length(n as u16), Constraint::Min(1)]).areas(inner);
        let lines: Vec<Line> = FIELDS[..n]
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let value = match (&self.editing, i == self.cursor) {
                    (Some(t), true) => format!("{t}▏"),
                    _ => {
                        let v = self.value(i);
                        if v.is_empty() { "(none)".into() } else { v }
                    }
                };
                let arrows =
                    if focused && Self::steps(i) && i == self.cursor && self.editing.is_none() {
                        format!("◂ {value} ▸")
                    } else {
                        format!("  {value}")
                    };
                let line = Line::from(vec![Span::raw(format!("{name:<12}")), Span::raw(arrows)]);
                if i == self.cursor && focused {
                    line.style(selected())
                } else {
                    line
                }
            })
            .collect();
        Paragraph::new(lines).render(fields, buf);
        let rep = self.repetition();
        let dim = Style::default().fg(Color::DarkGray);
        let mut msg: Vec<Line> = self
            .error
            .iter()
            .map(|e| Line::styled(e.clone(), Style::default().fg(Color::Red)))
            .collect();
        msg.push(Line::styled(
            format!(
                "each cell: {} fresh worker process{} × ({} warm-up + {} runs) = {} values, {}",
                rep.invocations,
                if rep.invocations == 1 { "" } else { "es" },
                rep.warmup,
                rep.runs,
                rep.invocations * rep.runs,
                match self.order {
                    RunOrder::Interleaved => "cells interleaved in a shuffled order",
                    RunOrder::Sequential => "each cell's processes back to back",
                }
            ),
            dim,
        ));
        if (rep.invocations as usize) < MIN_INVOCATIONS
            || ((rep.invocations * rep.runs) as usize) < MIN_VALUES
        {
            msg.push(Line::styled(
                format!(
                    "a diff needs {MIN_INVOCATIONS} invocations and {MIN_VALUES} values a cell for a verdict"
                ),
                Style::default().fg(Color::Yellow),
            ));
        }
        msg.push(if self.http_suite() {
            Line::styled(
                format!(
                    "HTTP suite: each iteration starts a fresh server, times its cold start, \
                     {} s of latency over one connection, then {} s at each of {} levels",
                    secs(self.http.latency_ms),
                    secs(self.http.duration_ms),
                    self.http.levels.len()
                ),
                dim,
            )
        } else {
            Line::styled(
                format!(
                    "memory cap {DEFAULT_MEMORY_CAP_MIB} MiB, samples every {DEFAULT_SAMPLE_INTERVAL_MS} ms"
                ),
                dim,
            )
        });
        Paragraph::new(msg)
            .wrap(Wrap { trim: true })
            .render(note, buf);
    }

    fn on_key(&mut self, key: KeyEvent) -> Action {
        if let Some(text) = &mut self.editing {
            match key.code {
                KeyCode::Esc => self.editing = None,
                KeyCode::Backspace => {
                    text.pop();
                }
                KeyCode::Char(c) => text.push(c),
                KeyCode::Enter => {
                    let t = text.clone();
                    self.editing = None;
                    self.error = self.set(self.cursor, &t).err();
                }
                _ => {}
            }
            return Action::None;
        }
        if let Some((down, by)) = movement(&key) {
            self.cursor = step(self.cursor, self.field_count(), down, by);
            return Action::None;
        }
        match key.code {
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Char('-') => self.nudge(false),
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char('+') | KeyCode::Char(' ') => {
                self.nudge(true)
            }
            KeyCode::Enter => {
                self.error = None;
                self.editing = Some(self.edit_text(self.cursor));
            }
            _ => return Action::Ignored,
        }
        Action::None
    }

    fn hints(&self) -> Vec<(&'static str, &'static str)> {
        if self.editing.is_some() {
            vec![("type", "value"), ("enter", "set"), ("esc", "cancel")]
        } else {
            vec![("←/→", "change"), ("enter", "type"), ("r", "run")]
        }
    }

    fn captures_input(&self) -> bool {
        self.editing.is_some()
    }
}
