//! Diff of two saved runs: ratio B/A of medians with its 95 % interval and a verdict per
//! runtime × test × phase, the comparability warnings first.

use super::{clip, pane_block, selected};
use crate::component::{Action, Component, movement, scroll_offset, step};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Row, Table, Widget, Wrap};
use std::path::PathBuf;
use wasmeter_core::analysis::{Diff, Verdict};
use wasmeter_core::export::format_ns;

/// State of the diff pane.
#[derive(Debug)]
pub struct DiffPane {
    /// The diff.
    pub diff: Diff,
    /// The two run directories (A, B), for export.
    pub dirs: (PathBuf, PathBuf),
    /// Selected row.
    pub cursor: usize,
}

fn verdict_style(v: Verdict) -> Style {
    match v {
        Verdict::Faster => Style::default()
            .fg(Color::Green)
            .add_modifier(Modifier::BOLD),
        Verdict::Slower => Style::default().fg(Color::Red).add_modifier(Modifier::BOLD),
        Verdict::NoChange => Style::default().fg(Color::DarkGray),
    }
}

impl Component for DiffPane {
    fn render(&self, area: Rect, buf: &mut Buffer, focused: bool) {
        let d = &self.diff;
        let block = pane_block(&format!("Diff: B {} against A {}", d.b, d.a), focused);
        let inner = block.inner(area);
        block.render(area, buf);
        let warn_h = (d.warnings.len() as u16).min(4);
        let only = d.only_a.len() + d.only_b.len();
        let [head, warn, table, foot] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(warn_h),
            Constraint::Min(3),
            Constraint::Length(if only > 0 { 2 } else { 0 }),
        ])
        .areas(inner);
        let (f, s, n) = d.counts();
        Paragraph::new(Line::from(vec![
            Span::styled(format!("{f} faster"), verdict_style(Verdict::Faster)),
            Span::raw(", "),
            Span::styled(format!("{s} slower"), verdict_style(Verdict::Slower)),
            Span::raw(format!(
                ", {n} no change · ratio B/A with 95 % interval · noise threshold {} %",
                d.threshold_pct
            )),
        ]))
        .render(head, buf);
        let warnings: Vec<Line> = d
            .warnings
            .iter()
            .map(|w| Line::styled(format!("⚠ {w}"), Style::default().fg(Color::Yellow)))
            .collect();
        Paragraph::new(warnings)
            .wrap(Wrap { trim: true })
            .render(warn, buf);
        let height = table.height.saturating_sub(1) as usize;
        let off = scroll_offset(self.cursor, height);
        let rows = d
            .rows
            .iter()
            .enumerate()
            .skip(off)
            .take(height)
            .map(|(i, r)| {
                let row = Row::new(vec![
                    Line::from(clip(&r.runtime, 18)),
                    Line::from(clip(&r.test, 14)),
                    Line::from(r.phase.clone()),
                    Line::from(format_ns(r.a_median)).right_aligned(),
                    Line::from(format_ns(r.b_median)).right_aligned(),
                    Line::from(format!(
                        "{:.3} [{:.3}, {:.3}]",
                        r.ratio, r.ci_low, r.ci_high
                    ))
                    .right_aligned(),
                    Line::styled(r.verdict.to_string(), verdict_style(r.verdict)),
                ]);
                if focused && i == self.cursor {
                    row.style(selected())
                } else {
                    row
                }
            });
        Table::new(
            rows,
            [
                Constraint::Length(18),
                Constraint::Length(14),
                Constraint::Length(11),
                Constraint::Length(10),
                Constraint::Length(10),
                Constraint::Length(22),
                Constraint::Min(9),
            ],
        )
        .header(
            Row::new([
                "runtime",
                "test",
                "phase",
                "A",
                "B",
                "B/A [95% CI]",
                "verdict",
            ])
            .style(Style::default().add_modifier(Modifier::BOLD)),
        )
        .render(table, buf);
        if only > 0 {
            let list = |keys: &[wasmeter_core::analysis::DiffKey]| {
                keys.iter()
                    .map(|k| format!("{} × {} ({})", k.runtime, k.test, k.phase))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let mut lines = Vec::new();
            if !d.only_a.is_empty() {
                lines.push(Line::from(clip(
                    &format!("only in A: {}", list(&d.only_a)),
                    foot.width as usize,
                )));
            }
            if !d.only_b.is_empty() {
                lines.push(Line::from(clip(
                    &format!("only in B: {}", list(&d.only_b)),
                    foot.width as usize,
                )));
            }
            Paragraph::new(lines)
                .style(Style::default().fg(Color::DarkGray))
                .render(foot, buf);
        }
    }

    fn on_key(&mut self, key: KeyEvent) -> Action {
        if let Some((down, by)) = movement(&key) {
            self.cursor = step(self.cursor, self.diff.rows.len(), down, by);
            return Action::None;
        }
        match key.code {
            KeyCode::Char('e') => Action::Export(vec![self.dirs.0.clone(), self.dirs.1.clone()]),
            _ => Action::Ignored,
        }
    }

    fn hints(&self) -> Vec<(&'static str, &'static str)> {
        vec![("↑/↓", "rows"), ("e", "export runs + diff")]
    }
}
