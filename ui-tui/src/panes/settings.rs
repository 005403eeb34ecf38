//! Run settings: size, warm-up, runs, timeout, baseline runtime, label. ←/→ steps a value,
//! Enter types one.

use super::{pane_block, selected};
use crate::component::{Action, Component, movement, step};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use wasmeter_core::suite::Size;

/// The settings, in display order.
pub const FIELDS: [&str; 6] = [
    "size",
    "warm-up",
    "runs",
    "timeout (s)",
    "baseline",
    "label",
];

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
        }
    }
}

impl SettingsPane {
    fn value(&self, i: usize) -> String {
        match i {
            0 => self.size.to_string(),
            1 => self.warmup.to_string(),
            2 => self.runs.to_string(),
            3 => self.timeout.to_string(),
            4 => self.baseline.clone(),
            _ => self.label.clone(),
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
        match i {
            0 => self.size = t.parse()?,
            1 => self.warmup = num(0)? as u32,
            2 => self.runs = num(1)? as u32,
            3 => self.timeout = num(1)?,
            4 if t.is_empty() => return Err("baseline: name a runtime".into()),
            4 => self.baseline = t.to_string(),
            _ => self.label = t.to_string(),
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
            1 => self.warmup = d(self.warmup as u64, 0) as u32,
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
            _ => {}
        }
    }
}

impl Component for SettingsPane {
    fn render(&self, area: Rect, buf: &mut Buffer, focused: bool) {
        let block = pane_block("Run settings", focused);
        let inner = block.inner(area);
        block.render(area, buf);
        let [fields, note] =
            Layout::vertical([Constraint::Length(FIELDS.len() as u16), Constraint::Min(1)])
                .areas(inner);
        let lines: Vec<Line> = FIELDS
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
                let arrows = if focused && i < 5 && i == self.cursor && self.editing.is_none() {
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
            self.cursor = step(self.cursor, FIELDS.len(), down, by);
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
