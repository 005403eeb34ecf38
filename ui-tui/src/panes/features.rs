//! A run of the features suite, shown as what it answers: a grid of features (rows) by
//! runtimes (columns), ✓ ✗ flag n/a, and below it the selected cell's message in full
//! (core's [`Matrix`], the grid `wasmeter features` prints).

use super::{clip, pane_block};
use crate::component::{Action, Component, movement, step};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Row, Table, Widget, Wrap};
use std::path::PathBuf;
use wasmeter_core::features::{Matrix, Support};

/// The grid and its cursor.
#[derive(Debug)]
pub struct FeaturesView {
    /// The matrix.
    pub matrix: Matrix,
    /// The run's folder, for export.
    dir: PathBuf,
    /// Selected feature (row).
    pub row: usize,
    /// Selected runtime (column).
    pub col: usize,
}

/// A mark's colour: green supported, red not, yellow with a flag, grey not applicable.
fn color(s: &Support) -> Color {
    match s {
        Support::Yes => Color::Green,
        Support::No { .. } => Color::Red,
        Support::NeedsFlag { .. } => Color::Yellow,
        Support::NotApplicable { .. } | Support::NotRun => Color::DarkGray,
    }
}

impl FeaturesView {
    /// The view of a features run.
    pub fn new(matrix: Matrix, dir: PathBuf) -> FeaturesView {
        FeaturesView {
            matrix,
            dir,
            row: 0,
            col: 0,
        }
    }

    fn selected(&self) -> Option<(&str, &str, &Support)> {
        let c = self.matrix.columns.get(self.col)?;
        let r = self.matrix.rows.get(self.row)?;
        Some((&c.runtime, &r.feature, r.cells.get(self.col)?))
    }
}

impl Component for FeaturesView {
    fn render(&self, area: Rect, buf: &mut Buffer, focused: bool) {
        let m = &self.matrix;
        let [grid, about] = Layout::vertical([
            Constraint::Length(m.rows.len() as u16 + 3),
            Constraint::Min(3),
        ])
        .areas(area);
        let block = pane_block(
            &format!(
                "Features: run {} on {} (✓ supported, ✗ not, flag: with a flag, n/a)",
                m.run, m.machine
            ),
            focused,
        );
        let inner = block.inner(grid);
        block.render(grid, buf);
        let name_w = m
            .rows
            .iter()
            .map(|r| r.feature.len())
            .max()
            .unwrap_or(7)
            .max(7) as u16;
        let col_w = m
            .columns
            .iter()
            .map(|c| c.runtime.chars().count())
            .max()
            .unwrap_or(4)
            .clamp(4, 12) as u16;
        let fit = ((inner.width.saturating_sub(name_w + 1)) / (col_w + 1)).max(1) as usize;
        let off = self.col.saturating_sub(fit - 1);
        let cols: Vec<usize> = (off..m.columns.len()).take(fit).collect();
        let mut header = vec![Line::from("feature")];
        header.extend(
            cols.iter()
                .map(|&c| Line::from(clip(&m.columns[c].runtime, col_w as usize))),
        );
        let rows: Vec<Row> = m
            .rows
            .iter()
            .enumerate()
            .map(|(ri, r)| {
                let mut cells = vec![Line::from(r.feature.clone())];
                for &c in &cols {
                    let s = &r.cells[c];
                    let mut style = Style::default().fg(color(s));
                    if focused && ri == self.row && c == self.col {
                        style = style.add_modifier(Modifier::REVERSED);
                    }
                    cells.push(Line::styled(s.mark(), style));
                }
                Row::new(cells)
            })
            .collect();
        let mut widths = vec![Constraint::Length(name_w)];
        widths.extend(cols.iter().map(|_| Constraint::Length(col_w)));
        Table::new(rows, widths)
            .header(Row::new(header).style(Style::default().add_modifier(Modifier::BOLD)))
            .render(inner, buf);

        let block = pane_block("Selected cell", false);
        let inner = block.inner(about);
        block.render(about, buf);
        let Some((rt, feature, s)) = self.selected() else {
            return;
        };
        let version = &m.columns[self.col].version;
        let what = match s {
            Support::Yes => "supported: the probe printed its known answer".to_string(),
            Support::NotRun => "not run: the run ended before this cell".to_string(),
            Support::No { .. } => format!("not supported: {}", s.detail()),
            Support::NeedsFlag { .. } => format!("supported with a flag: {}", s.detail()),
            Support::NotApplicable { .. } => format!("n/a: {}", s.detail()),
        };
        Paragraph::new(vec![
            Line::styled(
                format!("{rt} {version} × {feature}"),
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Line::styled(what, Style::default().fg(color(s))),
        ])
        .wrap(Wrap { trim: false })
        .render(inner, buf);
    }

    fn on_key(&mut self, key: KeyEvent) -> Action {
        if let Some((down, by)) = movement(&key) {
            self.row = step(self.row, self.matrix.rows.len(), down, by);
            return Action::None;
        }
        match key.code {
            KeyCode::Left | KeyCode::Char('h') => self.col = self.col.saturating_sub(1),
            KeyCode::Right | KeyCode::Char('l') => {
                self.col = step(self.col, self.matrix.columns.len(), true, 1)
            }
            KeyCode::Char('e') => return Action::Export(vec![self.dir.clone()]),
            _ => return Action::Ignored,
        }
        Action::None
    }

    fn hints(&self) -> Vec<(&'static str, &'static str)> {
        vec![("arrows", "cell"), ("e", "export")]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasmeter_core::features::{Column, Row as MatrixRow};

    fn matrix() -> Matrix {
        Matrix {
            run: "r1".into(),
            machine: "m".into(),
            started_unix: 0.0,
            columns: vec![
                Column {
                    runtime: "wasmtime".into(),
                    version: "48.0.0".into(),
                },
                Column {
                    runtime: "wasm3".into(),
                    version: "0.4.7".into(),
                },
            ],
            rows: vec![MatrixRow {
                feature: "simd".into(),
                cells: vec![
                    Support::Yes,
                    Support::No {
                        message: "unknown value_type".into(),
                    },
                ],
            }],
        }
    }

    fn text(v: &FeaturesView) -> String {
        let area = Rect::new(0, 0, 80, 12);
        let mut buf = Buffer::empty(area);
        v.render(area, &mut buf, true);
        (0..area.height)
            .map(|y| {
                (0..area.width)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn the_grid_shows_marks_and_the_selected_cells_message() {
        let mut v = FeaturesView::new(matrix(), PathBuf::from("/r/r1"));
        let t = text(&v);
        assert!(
            t.contains("simd") && t.contains('✓') && t.contains('✗'),
            "{t}"
        );
        assert!(
            t.contains("supported: the probe printed its known answer"),
            "{t}"
        );
        v.on_key(KeyEvent::from(KeyCode::Right));
        let t = text(&v);
        assert!(t.contains("wasm3 0.4.7 × simd"), "{t}");
        assert!(t.contains("not supported: unknown value_type"), "{t}");
        assert_eq!(
            v.on_key(KeyEvent::from(KeyCode::Char('e'))),
            Action::Export(vec![PathBuf::from("/r/r1")])
        );
    }
}
