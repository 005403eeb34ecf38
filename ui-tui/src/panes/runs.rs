//! Saved runs: label, date, suite, runtimes, status; a run that cannot be read shows its
//! error and does not stop the others. Open, mark runs (two to diff, any number to
//! compare side by side), export (one run, two with their diff, more compared), delete.

use super::{clip, pane_block, selected};
use crate::component::{Action, Component, movement, scroll_offset, step};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Row, Table, Widget};
use std::path::PathBuf;
use wasmeter_core::format::format_time;
use wasmeter_core::store::{RunListing, RunMeta, RunStatus};

/// One row of the list.
#[derive(Debug, Clone)]
pub struct RunRow {
    /// Run directory.
    pub dir: PathBuf,
    /// Metadata, or why it could not be read.
    pub meta: Result<RunMeta, String>,
}

impl RunRow {
    /// From a store listing.
    pub fn from_listing(l: RunListing) -> RunRow {
        RunRow {
            dir: l.dir,
            meta: l.meta.map_err(|e| e.to_string()),
        }
    }

    fn name(&self) -> String {
        self.dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

/// State of the saved-runs pane.
#[derive(Debug, Default)]
pub struct RunsPane {
    /// Runs, newest first.
    pub rows: Vec<RunRow>,
    /// Why the results directory could not be listed.
    pub error: Option<String>,
    /// Selected row.
    pub cursor: usize,
    /// Rows marked, in marking order (A, B, C…): the first two are a diff's A and B, all
    /// of them a comparison's columns.
    pub marked: Vec<PathBuf>,
}

impl RunsPane {
    /// Replaces the rows (newest first), keeping the selection on the same run if it is
    /// still there.
    pub fn set(&mut self, mut rows: Vec<RunRow>) {
        let keep = self.rows.get(self.cursor).map(|r| r.dir.clone());
        rows.reverse();
        self.marked.retain(|m| rows.iter().any(|r| &r.dir == m));
        self.cursor = keep
            .and_then(|k| rows.iter().position(|r| r.dir == k))
            .unwrap_or(0);
        self.rows = rows;
    }

    fn current(&self) -> Option<&RunRow> {
        self.rows.get(self.cursor)
    }
}

impl Component for RunsPane {
    fn render(&self, area: Rect, buf: &mut Buffer, focused: bool) {
        let block = pane_block("Saved runs", focused);
        let inner = block.inner(area);
        block.render(area, buf);
        if let Some(e) = &self.error {
            Paragraph::new(format!("cannot list saved runs: {e}"))
                .style(Style::default().fg(Color::Red))
                .render(inner, buf);
            return;
        }
        if self.rows.is_empty() {
            Paragraph::new("no saved runs yet: press r to run")
                .style(Style::default().fg(Color::DarkGray))
                .render(inner, buf);
            return;
        }
        let [list, foot] =
            Layout::vertical([Constraint::Min(2), Constraint::Length(2)]).areas(inner);
        let height = list.height.saturating_sub(1) as usize;
        let off = scroll_offset(self.cursor, height);
        let rows = self
            .rows
            .iter()
            .enumerate()
            .skip(off)
            .take(height)
            .map(|(i, r)| {
                let mark = self
                    .marked
                    .iter()
                    .position(|m| m == &r.dir)
                    .map_or_else(|| " ".to_string(), mark_letter);
                let row = match &r.meta {
                    Ok(m) => {
                        let status_style = match m.status {
                            RunStatus::Complete => Style::default().fg(Color::Green),
                            RunStatus::Running => Style::default().fg(Color::Cyan),
                            _ => Style::default().fg(Color::Yellow),
                        };
                        Row::new(vec![
                            Line::from(mark),
                            Line::from(m.label.clone().unwrap_or_else(|| m.id.clone())),
                            Line::from(format_time(m.started_unix)),
                            Line::from(m.suite.clone()),
                            Line::from(
                                m.runtimes
                                    .iter()
                                    .map(|r| r.id.as_str())
                                    .collect::<Vec<_>>()
                                    .join(","),
                            ),
                            Line::styled(m.status.to_string(), status_style),
                        ])
                    }
                    Err(e) => {
                        let red = Style::default().fg(Color::Red);
                        Row::new(vec![
                            Line::from(mark),
                            Line::from(r.name()),
                            Line::styled("unreadable", red),
                            Line::from(""),
                            Line::styled(
                                e.strip_prefix(&format!("{}/", r.dir.display()))
                                    .unwrap_or(e)
                                    .to_string(),
                                red,
                            ),
                            Line::styled("broken", red),
                        ])
                    }
                };
                if i == self.cursor && focused {
                    row.style(selected())
                } else {
                    row
                }
            });
        Table::new(
            rows,
            [
                Constraint::Length(1),
                Constraint::Length(30),
                Constraint::Length(16),
                Constraint::Length(8),
                Constraint::Fill(1),
                Constraint::Length(11),
            ],
        )
        .header(
            Row::new([
                "",
                "label / id",
                "started (UTC)",
                "suite",
                "runtimes",
                "status",
            ])
            .style(Style::default().add_modifier(Modifier::BOLD)),
        )
        .render(list, buf);
        let sel = self.current();
        let info = match sel.map(|r| &r.meta) {
            Some(Ok(m)) => format!(
                "{} · {} tests × {} runtimes · {} × ({} warm-up + {} runs) · {} · {}",
                m.id,
                m.tests.len(),
                m.runtimes.len(),
                m.settings.invocations,
                m.settings.warmup,
                m.settings.runs,
                m.settings.size,
                m.machine.cpu_model
            ),
            Some(Err(e)) => e.clone(),
            None => String::new(),
        };
        let marks = match self.marked.len() {
            0 => "space marks runs to diff (A, then B) or to compare (any number)".to_string(),
            1 => "A marked: mark B with space, or press D to diff A against the selected run \
                  (c compares them)"
                .into(),
            2 => {
                "A and B marked: D diffs them, c compares them, e exports both with the diff".into()
            }
            n => format!(
                "{n} runs marked (A–{}): c compares them side by side, e exports them compared",
                mark_letter(n - 1)
            ),
        };
        Paragraph::new(vec![
            Line::from(clip(&info, foot.width as usize)),
            Line::styled(marks, Style::default().fg(Color::DarkGray)),
        ])
        .render(foot, buf);
    }

    fn on_key(&mut self, key: KeyEvent) -> Action {
        if let Some((down, by)) = movement(&key) {
            self.cursor = step(self.cursor, self.rows.len(), down, by);
            return Action::None;
        }
        let Some(cur) = self.current().cloned() else {
            return match key.code {
                KeyCode::Char('R') => Action::Reload,
                _ => Action::Ignored,
            };
        };
        match key.code {
            KeyCode::Enter | KeyCode::Char('o') => match &cur.meta {
                Ok(_) => Action::OpenRun(cur.dir),
                Err(e) => Action::Message(format!("cannot open {}: {e}", cur.name())),
            },
            KeyCode::Char('d') | KeyCode::Delete => Action::DeleteRun(cur.dir),
            KeyCode::Char(' ') => {
                if let Some(p) = self.marked.iter().position(|m| *m == cur.dir) {
                    self.marked.remove(p);
                } else if cur.meta.is_err() {
                    return Action::Message(format!("cannot mark {}: unreadable", cur.name()));
                } else {
                    self.marked.push(cur.dir);
                }
                Action::None
            }
            KeyCode::Char('D') => match self.marked.as_slice() {
                [a, b] => Action::Diff(a.clone(), b.clone()),
                [a] if *a != cur.dir => Action::Diff(a.clone(), cur.dir),
                [_, _, _, ..] => Action::Message(format!(
                    "D diffs two runs and {} are marked: c compares them all, or unmark all \
                     but two (space)",
                    self.marked.len()
                )),
                _ => Action::Message("mark run A with space, then select or mark run B".into()),
            },
            KeyCode::Char('c') => match self.marked.as_slice() {
                [a] if *a != cur.dir => Action::Compare(vec![a.clone(), cur.dir]),
                [_, _, ..] => Action::Compare(self.marked.clone()),
                _ => Action::Message(
                    "mark two or more runs with space, then press c to compare them".into(),
                ),
            },
            KeyCode::Char('e') => {
                if self.marked.len() >= 2 {
                    Action::Export(self.marked.clone())
                } else {
                    Action::Export(vec![cur.dir])
                }
            }
            KeyCode::Char('R') => Action::Reload,
            _ => Action::Ignored,
        }
    }

    fn hints(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("enter", "open"),
            ("space", "mark"),
            ("D", "diff"),
            ("c", "compare"),
            ("e", "export"),
            ("d", "delete"),
            ("R", "reload"),
        ]
    }
}

/// The letter a run marked `i`-th shows (A, B, C…; `+` past Z): the diff calls its runs A
/// and B, and a comparison's columns follow the same order.
fn mark_letter(i: usize) -> String {
    u8::try_from(i)
        .ok()
        .filter(|i| *i < 26)
        .map_or_else(|| "+".to_string(), |i| char::from(b'A' + i).to_string())
}
