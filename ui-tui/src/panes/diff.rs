//! Diff of two saved runs: ratio B/A of medians with its 95 % interval, the interval's
//! half-width (the smallest change the row could detect) and a verdict per runtime × test
//! × phase; the comparability warnings first, then how rows were compared
//! ([`Diff::method`]: threshold, false discovery rate, normalisation). Rows without a
//! verdict say why (insufficient data, not comparable); the selected row's note, values
//! and invocations show under the table. Columns and cells are core's diff table
//! ([`diff_columns`], [`diff_row`]), as `wasmeter diff` prints them, each row formatted
//! only when it is in view.

use super::{aligned, clip, header_row, pane_block, selected};
use crate::component::{Action, Component, movement, scroll_offset, step};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Row, Table, Widget, Wrap};
use std::path::PathBuf;
use wasmeter_core::analysis::{Diff, DiffRow, Verdict, diff_headline};
use wasmeter_core::format::format_ratio;
use wasmeter_core::table::{diff_columns, diff_row};

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

/// Table width from which rows show their note in a column of their own.
const WIDE: u16 = 135;

/// Columns of [`diff_columns`] drawn in their own way: names clipped to fit, the verdict
/// coloured, the note dimmed.
const RUNTIME: usize = 0;
const TEST: usize = 1;
const VERDICT: usize = 6;
const NOTE: usize = 7;

fn verdict_style(v: Verdict) -> Style {
    match v {
        Verdict::Faster => Style::default()
            .fg(Color::Green)
            .add_modifier(Modifier::BOLD),
        Verdict::Slower => Style::default().fg(Color::Red).add_modifier(Modifier::BOLD),
        Verdict::NoChange => Style::default().fg(Color::DarkGray),
        Verdict::InsufficientData => Style::default().fg(Color::Yellow),
        Verdict::NotComparable => Style::default().fg(Color::Magenta),
    }
}

/// One line on the selected row: what it compares, from how many values and invocations,
/// its adjusted p-value, and why it has no verdict when it has none.
fn about_row(r: &DiffRow) -> Line<'static> {
    let dim = Style::default().fg(Color::DarkGray);
    let mut spans = vec![Span::styled(
        format!(
            "{} × {} ({}): {} · n {}/{} from {}/{} invocations",
            r.runtime,
            r.test,
            r.phase,
            format_ratio(r),
            r.n.0,
            r.n.1,
            r.invocations.0,
            r.invocations.1
        ),
        dim,
    )];
    if let Some(p) = r.p_adjusted {
        let p = if p < 0.001 {
            "< 0.001".to_string()
        } else {
            format!("{p:.3}")
        };
        spans.push(Span::styled(format!(" · adjusted p {p}"), dim));
    }
    if let Some(note) = &r.note {
        spans.push(Span::styled(
            format!(" · {note}"),
            verdict_style(r.verdict).remove_modifier(Modifier::BOLD),
        ));
    }
    Line::from(spans)
}

impl Component for DiffPane {
    fn render(&self, area: Rect, buf: &mut Buffer, focused: bool) {
        let d = &self.diff;
        let block = pane_block(&format!("Diff: B {} against A {}", d.b, d.a), focused);
        let inner = block.inner(area);
        block.render(area, buf);
        let warn_h = (d.warnings.len() as u16).min(4);
        let only = d.only_a.len() + d.only_b.len();
        let method = d.method();
        // The method wraps onto up to three lines when narrow.
        let method_h = ((method.chars().count() + 6) as u16)
            .div_ceil(inner.width.max(1))
            .clamp(1, 3);
        let [head, how, warn, table, about, foot] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(method_h),
            Constraint::Length(warn_h),
            Constraint::Min(3),
            Constraint::Length(1),
            Constraint::Length(if only > 0 { 2 } else { 0 }),
        ])
        .areas(inner);
        // Core's sentence, as `wasmeter diff` prints it first; the rows carry the colours.
        let mut counts = vec![Span::styled(
            diff_headline(d),
            Style::default().add_modifier(Modifier::BOLD),
        )];
        counts.push(Span::styled(
            format!(
                " · {}",
                match &d.normalize {
                    Some(n) => format!("each side relative to its run's {n}"),
                    None => "not normalised".into(),
                }
            ),
            Style::default().add_modifier(Modifier::BOLD),
        ));
        Paragraph::new(Line::from(counts)).render(head, buf);
        Paragraph::new(Line::styled(
            format!("how: {method}"),
            Style::default().fg(Color::DarkGray),
        ))
        .wrap(Wrap { trim: true })
        .render(how, buf);
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
        // Wide enough for a note column (160 columns); narrower, the names shrink, the
        // note goes (the selected row's shows under the table) and nothing else is cut.
        let wide = table.width >= WIDE;
        let columns = diff_columns();
        // Every column but the note, which shows only when wide.
        let shown = if wide { NOTE + 1 } else { NOTE };
        let (rt_w, test_w, med_w, ratio_w) = if wide {
            (18, 14, 10, 28)
        } else {
            (16, 12, 9, 27)
        };
        let rows = d
            .rows
            .iter()
            .enumerate()
            .skip(off)
            .take(height)
            .map(|(i, r)| {
                let cells: Vec<Line> = diff_row(r)
                    .into_iter()
                    .zip(&columns)
                    .enumerate()
                    .take(shown)
                    .map(|(c, (text, column))| match c {
                        RUNTIME => aligned(column, clip(&text, rt_w as usize)),
                        TEST => aligned(column, clip(&text, test_w as usize)),
                        VERDICT => aligned(column, text).style(verdict_style(r.verdict)),
                        NOTE => aligned(column, text).style(Style::default().fg(Color::DarkGray)),
                        _ => aligned(column, text),
                    })
                    .collect();
                let row = Row::new(cells);
                if focused && i == self.cursor {
                    row.style(selected())
                } else {
                    row
                }
            });
        let mut widths = vec![
            Constraint::Length(rt_w),
            Constraint::Length(test_w),
            Constraint::Length(11),
            Constraint::Length(med_w),
            Constraint::Length(med_w),
            Constraint::Length(ratio_w),
            Constraint::Length(17),
        ];
        if wide {
            widths.push(Constraint::Min(0));
        }
        Table::new(rows, widths)
            .header(header_row(&columns[..shown]))
            .render(table, buf);
        if let Some(r) = d.rows.get(self.cursor) {
            Paragraph::new(about_row(r)).render(about, buf);
        }
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
