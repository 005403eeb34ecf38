//! Diff of two saved runs: ratio B/A of medians with its 95 % interval, the interval's
//! half-width (how far the true ratio may lie from it) and a verdict per runtime × test
//! × phase; the comparability warnings first, then how rows were compared
//! ([`Diff::method`]: threshold, false discovery rate, normalisation). Rows without a
//! verdict say why (insufficient data, not comparable); the selected row's note, values
//! and invocations show under the table. Columns and cells are core's diff table
//! ([`diff_columns`], [`diff_row`]), as `wasmeter diff` prints them, each row formatted
//! only when it is in view.

use super::{aligned, clip, header_row, pane_block, selected};
use crate::component::{
    Action, Component, edit_filter, filter_keeps, filter_label, movement, scroll_offset, step,
};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Row, Table, Widget, Wrap};
use std::path::PathBuf;
use wasmeter_core::analysis::{Diff, DiffRow, Verdict, diff_headline};
use wasmeter_core::table::format_ratio;
use wasmeter_core::table::{diff_columns, diff_row};

/// State of the diff pane.
#[derive(Debug)]
pub struct DiffPane {
    /// The diff.
    pub diff: Diff,
    /// The two run directories (A, B), for export.
    pub dirs: (PathBuf, PathBuf),
    /// Selected row, among the rows shown.
    pub cursor: usize,
    /// Only rows with a change (`c` switches): a diff of two runs opens on them.
    pub changes_only: bool,
    /// The column the rows are sorted by (`s` steps through them, `S` reverses).
    pub sort: SortBy,
    /// Sorted the other way.
    pub descending: bool,
    /// Words every row shown has in its runtime, test or phase (`/` types them).
    pub filter: String,
    /// True while typing the filter.
    pub editing: bool,
}

/// What the diff's rows are sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortBy {
    /// The diff's own order (the plan's).
    #[default]
    Plan,
    /// B/A.
    Ratio,
    /// Slower, faster, no change, then the rows without a verdict.
    Verdict,
    /// The interval's half-width.
    Noise,
    /// Runtime name.
    Runtime,
    /// Test name.
    Test,
}

impl SortBy {
    const ALL: [SortBy; 6] = [
        SortBy::Plan,
        SortBy::Ratio,
        SortBy::Verdict,
        SortBy::Noise,
        SortBy::Runtime,
        SortBy::Test,
    ];

    fn next(self) -> SortBy {
        let i = Self::ALL.iter().position(|s| *s == self).unwrap_or(0);
        Self::ALL[(i + 1) % Self::ALL.len()]
    }

    fn label(self) -> &'static str {
        match self {
            SortBy::Plan => "plan order",
            SortBy::Ratio => "B/A",
            SortBy::Verdict => "verdict",
            SortBy::Noise => "noise",
            SortBy::Runtime => "runtime",
            SortBy::Test => "test",
        }
    }
}

fn verdict_rank(v: Verdict) -> u8 {
    match v {
        Verdict::Slower => 0,
        Verdict::Faster => 1,
        Verdict::SlowerNotHeld => 2,
        Verdict::FasterNotHeld => 3,
        Verdict::NoChange => 4,
        Verdict::Undecided => 5,
        Verdict::InsufficientData => 6,
        Verdict::NotComparable => 7,
    }
}

/// Orders two optional figures with the missing ones last either way.
fn by_figure(a: Option<f64>, b: Option<f64>, descending: bool) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        (Some(x), Some(y)) if descending => y.total_cmp(&x),
        (Some(x), Some(y)) => x.total_cmp(&y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

impl DiffPane {
    /// A diff of two runs, opened on its changed rows.
    pub fn new(diff: Diff, dirs: (PathBuf, PathBuf)) -> DiffPane {
        DiffPane {
            diff,
            dirs,
            cursor: 0,
            changes_only: true,
            sort: SortBy::Plan,
            descending: false,
            filter: String::new(),
            editing: false,
        }
    }

    /// Indices of the rows shown, in the order shown: those the filter and "changes only"
    /// keep, sorted as picked (equal keys in the diff's order).
    pub fn visible(&self) -> Vec<usize> {
        let rows = &self.diff.rows;
        let mut shown: Vec<usize> = (0..rows.len())
            .filter(|&i| {
                let r = &rows[i];
                (!self.changes_only || r.verdict.is_beyond())
                    && filter_keeps(
                        &self.filter,
                        &format!("{} {} {}", r.runtime, r.test, r.phase),
                    )
            })
            .collect();
        let d = self.descending;
        let flip = |o: std::cmp::Ordering| if d { o.reverse() } else { o };
        match self.sort {
            SortBy::Plan if d => shown.reverse(),
            SortBy::Plan => {}
            SortBy::Ratio => shown.sort_by(|&a, &b| by_figure(rows[a].ratio, rows[b].ratio, d)),
            SortBy::Noise => {
                shown.sort_by(|&a, &b| by_figure(rows[a].halfwidth_pct, rows[b].halfwidth_pct, d))
            }
            SortBy::Verdict => shown.sort_by(|&a, &b| {
                flip(verdict_rank(rows[a].verdict).cmp(&verdict_rank(rows[b].verdict)))
            }),
            SortBy::Runtime => shown.sort_by(|&a, &b| flip(rows[a].runtime.cmp(&rows[b].runtime))),
            SortBy::Test => shown.sort_by(|&a, &b| flip(rows[a].test.cmp(&rows[b].test))),
        }
        shown
    }

    /// What the rows shown are, for the line above them.
    fn view_line(&self, shown: usize) -> String {
        let mut parts = vec![format!(
            "showing {shown} of {} rows{}",
            self.diff.rows.len(),
            if self.changes_only {
                " (changes only: c shows all)"
            } else {
                ""
            }
        )];
        if self.sort != SortBy::Plan {
            let arrow = if self.descending { "↓" } else { "↑" };
            parts.push(format!("sorted by {} {arrow}", self.sort.label()));
        }
        parts.extend(filter_label(&self.filter, self.editing));
        parts.join(" · ")
    }
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
        Verdict::FasterNotHeld => Style::default().fg(Color::Green),
        Verdict::SlowerNotHeld => Style::default().fg(Color::Red),
        Verdict::NoChange => Style::default().fg(Color::DarkGray),
        Verdict::Undecided => Style::default().fg(Color::Yellow),
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
        let [head, how, warn, view, table, about, foot] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(method_h),
            Constraint::Length(warn_h),
            Constraint::Length(1),
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
        let visible = self.visible();
        Paragraph::new(Line::styled(
            self.view_line(visible.len()),
            Style::default().fg(Color::Cyan),
        ))
        .render(view, buf);
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
        let rows = visible
            .iter()
            .map(|&k| &d.rows[k])
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
        if visible.is_empty() {
            let why = if self.changes_only && !d.rows.iter().any(|r| r.verdict.is_beyond()) {
                format!(
                    "No row changed beyond ±{} %: c shows all {} rows",
                    d.threshold_pct,
                    d.rows.len()
                )
            } else {
                "No rows match the filter".to_string()
            };
            let [_, line] =
                Layout::vertical([Constraint::Length(1), Constraint::Length(1)]).areas(table);
            Paragraph::new(Line::styled(why, Style::default().fg(Color::DarkGray)))
                .render(line, buf);
        }
        if let Some(r) = visible.get(self.cursor).map(|&k| &d.rows[k]) {
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
        if self.editing {
            edit_filter(&mut self.filter, &mut self.editing, &key);
            self.cursor = step(self.cursor, self.visible().len(), false, 0);
            return Action::None;
        }
        if let Some((down, by)) = movement(&key) {
            self.cursor = step(self.cursor, self.visible().len(), down, by);
            return Action::None;
        }
        match key.code {
            // A diff inside one run exports that run.
            KeyCode::Char('e') if self.dirs.0 == self.dirs.1 => {
                return Action::Export(vec![self.dirs.0.clone()]);
            }
            KeyCode::Char('e') => {
                return Action::Export(vec![self.dirs.0.clone(), self.dirs.1.clone()]);
            }
            KeyCode::Char('c') => self.changes_only = !self.changes_only,
            KeyCode::Char('s') => {
                self.sort = self.sort.next();
                self.descending = false;
            }
            KeyCode::Char('S') => self.descending = !self.descending,
            KeyCode::Char('/') => self.editing = true,
            KeyCode::Esc if !self.filter.is_empty() => self.filter.clear(),
            _ => return Action::Ignored,
        }
        self.cursor = step(self.cursor, self.visible().len(), false, 0);
        Action::None
    }

    fn hints(&self) -> Vec<(&'static str, &'static str)> {
        if self.editing {
            return vec![("type", "filter"), ("enter", "done"), ("esc", "clear")];
        }
        vec![
            ("↑/↓", "rows"),
            ("c", "changes only / all"),
            ("s/S", "sort / reverse"),
            ("/", "filter"),
            ("e", "export runs + diff"),
        ]
    }

    fn captures_input(&self) -> bool {
        self.editing
    }
}
