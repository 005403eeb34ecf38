//! Run settings: size, warm-up, runs, timeout, baseline runtime, label; for an HTTP suite
//! (gateway, servers) its own warm-up and runs (default 0 and 3: an iteration loads the
//! server at every level) and the load: connection levels, seconds per level, seconds of
//! latency. ←/→ steps a value, Enter types one.

use super::{pane_block, selected};
use crate::component::{Action, Component, movement, step};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use wasmeter_core::http::HttpSettings;
use wasmeter_core::suite::Size;

/// The settings, in display order (the last three for HTTP suites only).
pub const FIELDS: [&str; 9] = [
    "size",
    "warm-up",
    "runs",
    "timeout (s)",
    "baseline",
    "label",
    "connections",
    "s per level",
    "latency (s)",
];

/// Index of the connection levels in [`FIELDS`].
const LEVELS: usize = 6;
/// Index of the seconds per level.
const DURATION: usize = 7;
/// Index of the seconds of latency measurement.
const LATENCY: usize = 8;
/// Warm-up iterations of an HTTP suite unless changed.
pub const HTTP_WARMUP: u32 = 0;
/// Measured iterations of an HTTP suite unless changed.
pub const HTTP_RUNS: u32 = 3;

/// State of the settings pane.
#[derive(Debug)]
pub struct SettingsPane {
    /// Problem size.
    pub size: Size,
    /// Warm-up iterations per cell.
    pub warmup: u32,
    /// Measured iterations per cell.
    pub runs: u32,
    /// Per-iteration timeout, seconds.
    pub timeout: u64,
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
    /// The ticked suite is an HTTP suite: warm-up and runs are [`Self::http_warmup`] and
    /// [`Self::http_runs`], and the load fields show.
    pub http_suite: bool,
    /// Warm-up iterations per cell of an HTTP suite.
    pub http_warmup: u32,
    /// Measured iterations per cell of an HTTP suite.
    pub http_runs: u32,
    /// Load of an HTTP suite (levels, seconds per level, latency).
    pub http: HttpSettings,
}

impl Default for SettingsPane {
    fn default() -> Self {
        SettingsPane {
            size: Size::Quick,
            warmup: 1,
            runs: 5,
            timeout: 60,
            baseline: "native".into(),
            label: String::new(),
            cursor: 0,
            editing: None,
            error: None,
            runtime_ids: Vec::new(),
            http_suite: false,
            http_warmup: HTTP_WARMUP,
            http_runs: HTTP_RUNS,
            http: HttpSettings::default(),
        }
    }
}

/// Milliseconds as seconds, without trailing zeros (`2`, `0.5`).
fn secs(ms: u64) -> String {
    format!("{}", ms as f64 / 1000.0)
}

impl SettingsPane {
    /// Warm-up iterations for a suite (HTTP or not).
    pub fn warmup_for(&self, http: bool) -> u32 {
        if http { self.http_warmup } else { self.warmup }
    }

    /// Measured iterations for a suite (HTTP or not).
    pub fn runs_for(&self, http: bool) -> u32 {
        if http { self.http_runs } else { self.runs }
    }

    /// Fields shown: the load ones only for an HTTP suite.
    pub fn field_count(&self) -> usize {
        if self.http_suite {
            FIELDS.len()
        } else {
            LEVELS
        }
    }

    /// Says whether the ticked suite is an HTTP suite (fields shown and values used).
    pub fn set_http_suite(&mut self, http: bool) {
        self.http_suite = http;
        if self.cursor >= self.field_count() {
            self.cursor = self.field_count() - 1;
            self.editing = None;
        }
    }

    fn value(&self, i: usize) -> String {
        match i {
            0 => self.size.to_string(),
            1 => self.warmup_for(self.http_suite).to_string(),
            2 => self.runs_for(self.http_suite).to_string(),
            3 => self.timeout.to_string(),
            4 => self.baseline.clone(),
            5 => self.label.clone(),
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
        let http = self.http_suite;
        match i {
            0 => self.size = t.parse()?,
            1 if http => self.http_warmup = num(0)? as u32,
            1 => self.warmup = num(0)? as u32,
            2 if http => self.http_runs = num(1)? as u32,
            2 => self.runs = num(1)? as u32,
            3 => self.timeout = num(1)?,
            4 if t.is_empty() => return Err("baseline: name a runtime".into()),
            4 => self.baseline = t.to_string(),
            5 => self.label = t.to_string(),
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
        let d = |v: u64, min: u64| {
            if up {
                v + 1
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
            1 if self.http_suite => self.http_warmup = d(self.http_warmup as u64, 0) as u32,
            1 => self.warmup = d(self.warmup as u64, 0) as u32,
            2 if self.http_suite => self.http_runs = d(self.http_runs as u64, 1) as u32,
            2 => self.runs = d(self.runs as u64, 1) as u32,
            3 => self.timeout = d(self.timeout, 1),
            4 if !self.runtime_ids.is_empty() => {
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
        !matches!(i, 5 | LEVELS)
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
        let msg = match &self.error {
            Some(e) => Line::styled(e.clone(), Style::default().fg(Color::Red)),
            None if self.http_suite => Line::styled(
                format!(
                    "HTTP suite: each iteration starts a fresh server, times its cold start, \
                     {} s of latency over one connection, then {} s at each of {} levels",
                    secs(self.http.latency_ms),
                    secs(self.http.duration_ms),
                    self.http.levels.len()
                ),
                Style::default().fg(Color::DarkGray),
            ),
            None => Line::styled(
                "memory cap 4096 MiB, samples every 100 ms",
                Style::default().fg(Color::DarkGray),
            ),
        };
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
                self.editing = Some(self.value(self.cursor));
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
