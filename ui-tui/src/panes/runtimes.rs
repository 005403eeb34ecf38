//! Runtimes pane: every known runtime with kind, version and availability (and why not);
//! space includes or leaves out a runtime.

use super::{clip, pane_block, selected};
use crate::component::{Action, Component, movement, scroll_offset, step};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Row, Table, Widget, Wrap};
use wasmeter_core::runner::preselected;
use wasmeter_core::runtime::RuntimeInfo;

/// State of the runtimes pane.
#[derive(Debug, Default)]
pub struct RuntimesPane {
    /// Known runtimes; `None` while they are still being detected.
    pub items: Option<Vec<RuntimeInfo>>,
    /// Included in the next run, parallel to `items`.
    pub included: Vec<bool>,
    /// Selected row.
    pub cursor: usize,
}

impl RuntimesPane {
    /// Sets the detected runtimes; core's preselection starts included (native and every
    /// available embedded runtime, as the desktop's Setup).
    pub fn set(&mut self, items: Vec<RuntimeInfo>) {
        let picked = preselected(&items, |_| true);
        self.included = items.iter().map(|r| picked.contains(&r.id)).collect();
        self.items = Some(items);
        self.cursor = 0;
    }

    /// Ids of the included runtimes, in list order.
    pub fn selected_ids(&self) -> Vec<String> {
        self.items
            .iter()
            .flatten()
            .zip(&self.included)
            .filter(|(_, on)| **on)
            .map(|(r, _)| r.id.clone())
            .collect()
    }

    /// Includes exactly these ids (others are left out).
    pub fn select_only(&mut self, ids: &[&str]) {
        if let Some(items) = &self.items {
            self.included = items
                .iter()
                .map(|r| r.available() && ids.contains(&r.id.as_str()))
                .collect();
        }
    }
}

impl Component for RuntimesPane {
    fn render(&self, area: Rect, buf: &mut Buffer, focused: bool) {
        let block = pane_block("Runtimes", focused);
        let inner = block.inner(area);
        block.render(area, buf);
        let Some(items) = &self.items else {
            Paragraph::new("detecting runtimes…").render(inner, buf);
            return;
        };
        let [list, detail] =
            Layout::vertical([Constraint::Min(3), Constraint::Length(3)]).areas(inner);
        let n = self.included.iter().filter(|b| **b).count();
        let height = list.height.saturating_sub(1) as usize;
        let off = scroll_offset(self.cursor, height);
        // The id column as wide as the longest id (ids such as `wasmer-cli-singlepass` were
        // cut at a fixed 18 columns).
        let id_width = items
            .iter()
            .map(|r| r.id.chars().count())
            .max()
            .unwrap_or(0)
            .clamp(7, 32) as u16;
        let rows = items
            .iter()
            .enumerate()
            .skip(off)
            .take(height)
            .map(|(i, r)| {
                let mark = if self.included[i] { "[x]" } else { "[ ]" };
                let status = match &r.unavailable {
                    None => Span::styled("available", Style::default().fg(Color::Green)),
                    // How to get it, on the row itself, not only when selected.
                    Some(why) => Span::styled(
                        unavailable(why, r.hint.as_deref()),
                        Style::default().fg(Color::DarkGray),
                    ),
                };
                let row = Row::new(vec![
                    Line::from(mark),
                    Line::from(r.id.clone()),
                    Line::from(r.kind.to_string()),
                    Line::from(clip(&r.version, 18)),
                    Line::from(status),
                ]);
                if i == self.cursor && focused {
                    row.style(selected())
                } else if r.unavailable.is_some() {
                    row.style(Style::default().fg(Color::DarkGray))
                } else {
                    row
                }
            });
        Table::new(
            rows,
            [
                Constraint::Length(3),
                Constraint::Length(id_width),
                Constraint::Length(8),
                Constraint::Length(18),
                Constraint::Min(10),
            ],
        )
        .header(
            Row::new(["", "runtime", "kind", "version", "availability"])
                .style(Style::default().add_modifier(Modifier::BOLD)),
        )
        .render(list, buf);
        let detail_text = match items.get(self.cursor) {
            Some(r) => {
                let mut l = vec![Line::from(vec![
                    Span::styled(
                        format!("{}: ", r.id),
                        Style::default().add_modifier(Modifier::BOLD),
                    ),
                    Span::raw(r.config.clone()),
                ])];
                if let Some(why) = &r.unavailable {
                    l.push(Line::styled(
                        unavailable(why, r.hint.as_deref()),
                        Style::default().fg(Color::Yellow),
                    ));
                }
                l
            }
            None => vec![],
        };
        let mut lines = vec![Line::from(Span::styled(
            format!("{n} of {} runtimes included", items.len()),
            Style::default().fg(Color::Cyan),
        ))];
        lines.extend(detail_text);
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .render(detail, buf);
    }

    fn on_key(&mut self, key: KeyEvent) -> Action {
        let Some(items) = &self.items else {
            return Action::Ignored;
        };
        if let Some((down, by)) = movement(&key) {
            self.cursor = step(self.cursor, items.len(), down, by);
            return Action::None;
        }
        match key.code {
            KeyCode::Char(' ') | KeyCode::Enter => match items.get(self.cursor) {
                Some(r) if r.available() => {
                    self.included[self.cursor] = !self.included[self.cursor];
                    Action::None
                }
                Some(r) => Action::Message(format!(
                    "{} is unavailable: {}{}",
                    r.id,
                    r.unavailable.as_deref().unwrap_or(""),
                    r.hint
                        .as_ref()
                        .map(|h| format!(" (install: {h})"))
                        .unwrap_or_default()
                )),
                None => Action::None,
            },
            KeyCode::Char('a') => {
                let all = items
                    .iter()
                    .zip(&self.included)
                    .all(|(r, on)| *on || !r.available());
                for (i, r) in items.iter().enumerate() {
                    self.included[i] = !all && r.available();
                }
                Action::None
            }
            _ => Action::Ignored,
        }
    }

    fn hints(&self) -> Vec<(&'static str, &'static str)> {
        vec![("space", "include"), ("a", "all/none"), ("r", "run")]
    }
}

/// Why a runtime cannot run here, and how to get it when wasmeter knows.
fn unavailable(why: &str, hint: Option<&str>) -> String {
    match hint {
        Some(h) => format!("unavailable: {why} (install: {h})"),
        None => format!("unavailable: {why}"),
    }
}
