//! Many saved runs side by side, as `wasmeter compare` prints them: core's comparison
//! ([`compare_runs`]) drawn as core's table ([`compare_table`]), runtime × test rows and one
//! column per run (or machine), each figure relative to its own run's reference runtime with
//! its 95 % interval. What differs between the runs (plans, machines, runtime versions) shows
//! above the table, the geometric means stay under it while the rows scroll, and the reasons
//! for missing figures come last. Switching columns by run or machine, or the runtime the
//! figures are relative to, makes the comparison again from the runs held here.

use super::{aligned, clip, pane_block, rel_style, selected};
use crate::component::{Action, Component, movement, scroll_offset, step};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Text};
use ratatui::widgets::{Paragraph, Row, Table as Grid, Widget, Wrap};
use std::path::PathBuf;
use wasmeter_core::analysis::{CompareError, CompareOptions, Comparison, compare_runs};
use wasmeter_core::store::SavedRun;
use wasmeter_core::table::{Table, compare_table};

use wasmeter_core::analysis::COMPARE_NORMALIZE;

/// How runs are compared until the user switches: core's defaults (columns by run, each
/// relative to its own run's native).
pub fn default_options() -> CompareOptions {
    CompareOptions::default()
}

/// Keys of the pane, for the hint bar and the help overlay (also when no comparison is
/// open).
pub const HINTS: [(&str, &str); 5] = [
    ("↑/↓", "rows"),
    ("←/→", "runs"),
    ("m", "by run/machine"),
    ("n", "relative to"),
    ("e", "export"),
];

/// Header lines a column title may wrap onto (a machine's title is long).
const HEADER_LINES: usize = 4;

/// Blank columns between two columns: two, so that run ids side by side read apart.
const SPACING: usize = 2;

/// Lines of notes on missing figures shown under the table.
const NOTE_LINES: usize = 3;

/// State of the compare pane.
#[derive(Debug)]
pub struct ComparePane {
    /// The runs, in column order: kept to compare them again with other options.
    runs: Vec<SavedRun>,
    /// How they are compared now.
    pub opts: CompareOptions,
    /// The comparison under `opts`.
    pub comparison: Comparison,
    /// Core's table of it: what is drawn.
    table: Table,
    /// Selected row.
    pub cursor: usize,
    /// First run column in view, when they do not all fit.
    pub first_column: usize,
}

impl ComparePane {
    /// Compares `runs` (two or more, of one suite) as `wasmeter compare` does by default:
    /// columns by run, each relative to its own run's native.
    pub fn new(runs: Vec<SavedRun>) -> Result<ComparePane, CompareError> {
        let opts = default_options();
        let comparison = compare_runs(&runs, &opts)?;
        Ok(ComparePane {
            table: compare_table(&comparison),
            runs,
            opts,
            comparison,
            cursor: 0,
            first_column: 0,
        })
    }

    /// The run directories, in column order (for export).
    pub fn dirs(&self) -> Vec<PathBuf> {
        self.runs.iter().map(|r| r.dir.clone()).collect()
    }

    /// Compares the runs again under `opts`.
    pub fn set_options(&mut self, opts: CompareOptions) -> Result<(), CompareError> {
        self.comparison = compare_runs(&self.runs, &opts)?;
        self.table = compare_table(&self.comparison);
        self.opts = opts;
        self.cursor = self.cursor.min(self.table.rows.len().saturating_sub(1));
        Ok(())
    }

    /// What the figures can be relative to, in the order `n` goes through them: native,
    /// none (times as measured), then every other runtime of the runs.
    pub fn normalizations(&self) -> Vec<Option<String>> {
        let mut v = vec![Some(COMPARE_NORMALIZE.to_string()), None];
        v.extend(
            self.comparison
                .runtimes
                .iter()
                .filter(|r| *r != COMPARE_NORMALIZE)
                .map(|r| Some(r.clone())),
        );
        v
    }

    fn next_normalization(&self) -> Option<String> {
        let all = self.normalizations();
        let i = all
            .iter()
            .position(|n| *n == self.opts.normalize)
            .map_or(0, |i| (i + 1) % all.len());
        all[i].clone()
    }

    fn redo(&mut self, opts: CompareOptions) -> Action {
        match self.set_options(opts) {
            Ok(()) => Action::None,
            Err(e) => Action::Message(e.to_string()),
        }
    }

    /// The comparison's cell behind row `row`, run column `col` of the table (cells are
    /// test-major, then runtime, then column, as the table's rows are).
    fn value(&self, row: usize, col: usize) -> Option<f64> {
        let c = &self.comparison;
        let cell = c.cells.get(row * c.columns.len() + col)?;
        (cell.column == col).then_some(cell.value)?
    }

    /// Notes on missing figures: core's table notes less the warnings it appends after
    /// them (those show above the table).
    fn cell_notes(&self) -> &[String] {
        let n = self.table.notes.len();
        &self.table.notes[..n.saturating_sub(self.comparison.warnings.len())]
    }
}

/// Widest cell of column `i` among the rows and the footer (not its title).
fn content_width(t: &Table, i: usize) -> usize {
    t.rows
        .iter()
        .chain(&t.footer)
        .map(|r| Table::cell(r, i).chars().count())
        .max()
        .unwrap_or(0)
}

/// `s` in lines of at most `width` characters, broken between words or after a hyphen
/// where it can (run ids are words joined by hyphens), at most `max` lines (the last one
/// clipped).
fn wrap(s: &str, width: usize, max: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in s.split_whitespace() {
        // Pieces of the word that end at a hyphen: each goes on with no space before it.
        let mut pieces: Vec<String> = word.split_inclusive('-').map(String::from).collect();
        let mut glued = false;
        while !pieces.is_empty() {
            let piece = &pieces[0];
            let sep = usize::from(!glued && !cur.is_empty());
            let len = cur.chars().count();
            let plen = piece.chars().count();
            if len + sep + plen <= width {
                if sep == 1 {
                    cur.push(' ');
                }
                cur.push_str(piece);
                pieces.remove(0);
                glued = true;
            } else if len > 0 {
                lines.push(std::mem::take(&mut cur));
                glued = false;
            } else {
                // A piece longer than a line: cut it.
                let head: String = piece.chars().take(width).collect();
                let rest: String = piece.chars().skip(width).collect();
                pieces[0] = rest;
                lines.push(head);
            }
        }
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    if lines.len() > max {
        let rest = lines.split_off(max - 1).join(" ");
        lines.push(clip(&rest, width));
    }
    lines
}

/// Lines `s` takes when wrapped at `width`.
fn wrapped_height(s: &str, width: u16) -> u16 {
    (s.chars().count() as u16).div_ceil(width.max(1)).max(1)
}

/// Which run columns are in view from `first`, and the width each gets: its cells' width,
/// then the room left shared out so that titles wrap onto fewer lines.
fn layout_columns(t: &Table, first: usize, room: usize) -> Vec<(usize, usize)> {
    let runs = t.columns.len().saturating_sub(2);
    let mut shown: Vec<(usize, usize)> = Vec::new();
    let mut used = 0;
    for i in (2 + first)..(2 + runs) {
        let w = content_width(t, i).max(4);
        if !shown.is_empty() && used + SPACING + w > room {
            break;
        }
        used += SPACING + w;
        shown.push((i, w));
    }
    let mut spare = room.saturating_sub(used);
    // One character at a time to each column whose title is wider than it.
    while spare > 0 {
        let mut gave = false;
        for (i, w) in shown.iter_mut() {
            if spare > 0 && t.columns[*i].title.chars().count() > *w {
                *w += 1;
                spare -= 1;
                gave = true;
            }
        }
        if !gave {
            break;
        }
    }
    shown
}

impl Component for ComparePane {
    fn render(&self, area: Rect, buf: &mut Buffer, focused: bool) {
        let c = &self.comparison;
        let t = &self.table;
        let inner = pane_block("", focused).inner(area);
        let test_w = content_width(t, 0).clamp(4, 18);
        let rt_w = content_width(t, 1).clamp(7, 20);
        let room = (inner.width as usize).saturating_sub(test_w + SPACING + rt_w);
        // Scrolled no further than it takes to show the last run (all of them when they fit).
        let runs = c.columns.len();
        let last_first = (0..runs)
            .find(|f| layout_columns(t, *f, room).len() == runs - f)
            .unwrap_or(0);
        let first = self.first_column.min(last_first);
        let shown = layout_columns(t, first, room);
        let mut title = format!("Compare: {} runs of {}", c.columns.len(), c.suite);
        if shown.len() < c.columns.len() {
            title.push_str(&format!(
                " · {}–{} in view (←/→)",
                first + 1,
                first + shown.len()
            ));
        }
        pane_block(&title, focused).render(area, buf);
        let head = format!(
            "{} · columns by {}",
            t.title.as_deref().unwrap_or_default(),
            if self.opts.by_machine {
                "machine"
            } else {
                "run"
            }
        );
        let head_h = wrapped_height(&head, inner.width).min(2);
        let warnings: Vec<String> = c.warnings.iter().map(|w| format!("⚠ {w}")).collect();
        let warn_h = warnings
            .iter()
            .map(|w| wrapped_height(w, inner.width))
            .sum::<u16>()
            .min(4);
        let notes = self.cell_notes();
        let notes_h = notes.len().min(NOTE_LINES) as u16;
        let titles: Vec<Vec<String>> = shown
            .iter()
            .map(|(i, w)| wrap(&t.columns[*i].title, *w, HEADER_LINES))
            .collect();
        let header_h = titles.iter().map(Vec::len).max().unwrap_or(1).max(1);
        // The geometric means and notes follow the rows, or stay at the bottom while the
        // rows scroll.
        let [head_area, warn_area, rest] = Layout::vertical([
            Constraint::Length(head_h),
            Constraint::Length(warn_h),
            Constraint::Fill(1),
        ])
        .areas(inner);
        let foot_h = t.footer.len() as u16;
        let table_h = ((header_h + t.rows.len()) as u16)
            .min(rest.height.saturating_sub(foot_h + notes_h))
            .max(3);
        let [table_area, foot_area, notes_area] = Layout::vertical([
            Constraint::Length(table_h),
            Constraint::Length(foot_h),
            Constraint::Length(notes_h),
        ])
        .areas(rest);
        Paragraph::new(Line::styled(
            head,
            Style::default().add_modifier(Modifier::BOLD),
        ))
        .wrap(Wrap { trim: true })
        .render(head_area, buf);
        Paragraph::new(
            warnings
                .into_iter()
                .map(|w| Line::styled(w, Style::default().fg(Color::Yellow)))
                .collect::<Vec<_>>(),
        )
        .wrap(Wrap { trim: true })
        .render(warn_area, buf);

        let mut widths = vec![
            Constraint::Length(test_w as u16),
            Constraint::Length(rt_w as u16),
        ];
        widths.extend(shown.iter().map(|(_, w)| Constraint::Length(*w as u16)));
        // Every title sits on the header's last lines: the names' titles beside the runs'.
        let title = |i: usize, lines: &[String]| {
            let mut text = vec![Line::from(""); header_h - lines.len()];
            text.extend(lines.iter().map(|l| aligned(&t.columns[i], l.clone())));
            Text::from(text)
        };
        let mut header = vec![
            title(0, std::slice::from_ref(&t.columns[0].title)),
            title(1, std::slice::from_ref(&t.columns[1].title)),
        ];
        header.extend(
            shown
                .iter()
                .zip(&titles)
                .map(|((i, _), lines)| title(*i, lines)),
        );
        let header = Row::new(header)
            .height(header_h as u16)
            .style(Style::default().add_modifier(Modifier::BOLD));

        let cells = |row: &[String], r: Option<usize>| {
            let mut cells = vec![
                aligned(&t.columns[0], clip(Table::cell(row, 0), test_w)),
                aligned(&t.columns[1], clip(Table::cell(row, 1), rt_w)),
            ];
            cells.extend(shown.iter().map(|(i, w)| {
                let line = aligned(&t.columns[*i], clip(Table::cell(row, *i), *w));
                match r.and_then(|r| self.value(r, i - 2)) {
                    Some(v) if self.opts.normalize.is_some() => line.style(rel_style(v)),
                    _ => line,
                }
            }));
            cells
        };
        let height = (table_area.height as usize).saturating_sub(header_h);
        let off = scroll_offset(self.cursor, height);
        let rows = t
            .rows
            .iter()
            .enumerate()
            .skip(off)
            .take(height)
            .map(|(r, row)| {
                let row_ = Row::new(cells(row, Some(r)));
                if focused && r == self.cursor {
                    row_.style(selected())
                } else {
                    row_
                }
            });
        Grid::new(rows, widths.clone())
            .header(header)
            .column_spacing(SPACING as u16)
            .render(table_area, buf);
        let footer = t.footer.iter().map(|row| {
            Row::new(cells(row, None)).style(Style::default().add_modifier(Modifier::BOLD))
        });
        Grid::new(footer, widths)
            .column_spacing(SPACING as u16)
            .render(foot_area, buf);

        let mut lines: Vec<Line> = Vec::new();
        let fits = if notes.len() > NOTE_LINES {
            NOTE_LINES - 1
        } else {
            notes.len()
        };
        for n in &notes[..fits] {
            lines.push(Line::from(clip(n, notes_area.width as usize)));
        }
        if fits < notes.len() {
            lines.push(Line::from(format!(
                "… and {} more without a figure",
                notes.len() - fits
            )));
        }
        Paragraph::new(lines)
            .style(Style::default().fg(Color::DarkGray))
            .render(notes_area, buf);
    }

    fn on_key(&mut self, key: KeyEvent) -> Action {
        if let Some((down, by)) = movement(&key) {
            self.cursor = step(self.cursor, self.table.rows.len(), down, by);
            return Action::None;
        }
        match key.code {
            KeyCode::Left | KeyCode::Char('h') => {
                self.first_column = self.first_column.saturating_sub(1);
                Action::None
            }
            // Clamped when drawn, where the room is known.
            KeyCode::Right | KeyCode::Char('l') => {
                self.first_column =
                    (self.first_column + 1).min(self.comparison.columns.len().saturating_sub(1));
                Action::None
            }
            KeyCode::Char('m') => self.redo(CompareOptions {
                by_machine: !self.opts.by_machine,
                ..self.opts.clone()
            }),
            KeyCode::Char('n') => self.redo(CompareOptions {
                normalize: self.next_normalization(),
                ..self.opts.clone()
            }),
            KeyCode::Char('e') => Action::ExportCompared(self.dirs(), self.opts.clone()),
            _ => Action::Ignored,
        }
    }

    fn hints(&self) -> Vec<(&'static str, &'static str)> {
        HINTS.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn wrap_breaks_between_words_splits_long_words_and_clips_the_last_line() {
        assert_eq!(
            wrap("Test CPU @ 3.00GHz x86_64 (Debian GNU/Linux 13)", 20, 4),
            ["Test CPU @ 3.00GHz", "x86_64 (Debian", "GNU/Linux 13)"]
        );
        assert_eq!(wrap("abcdefghij", 4, 4), ["abcd", "efgh", "ij"]);
        assert_eq!(
            wrap("compute-20261121-101500-a1b2", 25, 4),
            ["compute-20261121-101500-", "a1b2"]
        );
        assert_eq!(wrap("a-b c", 3, 4), ["a-b", "c"]);
        assert_eq!(wrap("aa bb cc dd", 2, 2), ["aa", "b…"]);
        assert_eq!(wrap("", 5, 2), Vec::<String>::new());
    }
}
