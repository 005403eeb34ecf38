//! Export dialog: pick a format and a path; writes one run, two with their diff, or runs
//! compared (core's comparison leading the report), and reports where it wrote.

use super::compare::default_options;
use super::confirm::centered;
use super::pane_block;
use crate::component::{Action, Component};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};
use std::path::{Path, PathBuf};
use wasmeter_core::analysis::{CompareOptions, DiffOptions, compare_runs, diff_runs, summarize};
use wasmeter_core::export::{Format, Report, export_to, is_comparison};
use wasmeter_core::store::load_run;

/// Formats offered: core's.
pub const FORMATS: [Format; 5] = Format::ALL;

/// State of the export dialog.
#[derive(Debug)]
pub struct ExportDialog {
    /// Run directories: one run, or two (A, B) exported with their diff, or runs compared.
    pub runs: Vec<PathBuf>,
    /// How the runs are compared, when they are exported compared rather than diffed.
    pub compare: Option<CompareOptions>,
    /// Index into [`FORMATS`].
    pub format: usize,
    /// Output path as typed.
    pub path: String,
    /// Where it wrote, or why it could not.
    pub outcome: Option<Result<String, String>>,
    stem: String,
}

fn run_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "run".into())
}

impl ExportDialog {
    /// A dialog for these runs, writing into `dir` by default; more than two are compared
    /// (as `wasmeter export RUN RUN RUN…` does), with `wasmeter compare`'s defaults.
    pub fn new(runs: Vec<PathBuf>, dir: &Path) -> ExportDialog {
        let name = runs
            .iter()
            .map(|r| run_name(r))
            .collect::<Vec<_>>()
            .join("-vs-");
        let stem = dir.join(format!("wasmeter-{name}")).display().to_string();
        let mut d = ExportDialog {
            compare: is_comparison(runs.len(), false).then(default_options),
            runs,
            format: 0,
            path: String::new(),
            outcome: None,
            stem,
        };
        d.path = format!("{}.{}", d.stem, FORMATS[0].extension());
        d
    }

    /// The same dialog exporting the runs compared under `opts` (also two runs).
    pub fn compared(mut self, opts: CompareOptions) -> ExportDialog {
        self.compare = Some(opts);
        self
    }

    fn set_format(&mut self, i: usize) {
        let old = format!("{}.{}", self.stem, FORMATS[self.format].extension());
        self.format = i;
        if self.path == old {
            self.path = format!("{}.{}", self.stem, FORMATS[i].extension());
        }
    }

    /// Writes the export; returns the absolute path written.
    pub fn write(&self) -> Result<PathBuf, String> {
        let loaded = self
            .runs
            .iter()
            .map(|d| load_run(d).map_err(|e| e.to_string()))
            .collect::<Result<Vec<_>, _>>()?;
        let summaries = || loaded.iter().map(|r| (r, summarize(r, None))).collect();
        let report = match &self.compare {
            Some(opts) => Report::new(summaries(), None)
                .with_comparison(compare_runs(&loaded, opts).map_err(|e| e.to_string())?),
            None => {
                let diff = match loaded.as_slice() {
                    [a, b] => {
                        Some(diff_runs(a, b, &DiffOptions::default()).map_err(|e| e.to_string())?)
                    }
                    _ => None,
                };
                Report::new(summaries(), diff)
            }
        };
        let path = PathBuf::from(self.path.trim());
        if self.path.trim().is_empty() {
            return Err("give a path".into());
        }
        export_to(FORMATS[self.format], &report, &path).map_err(|e| e.to_string())?;
        Ok(std::path::absolute(&path).unwrap_or(path))
    }
}

impl Component for ExportDialog {
    fn render(&self, area: Rect, buf: &mut Buffer, _focused: bool) {
        let r = centered(area, 76, 12);
        Clear.render(r, buf);
        let what = match (self.runs.as_slice(), &self.compare) {
            (runs, Some(opts)) => format!(
                "{} runs compared ({}, by {}): {}",
                runs.len(),
                match &opts.normalize {
                    Some(n) => format!("relative to {n}"),
                    None => "times as measured".into(),
                },
                if opts.by_machine { "machine" } else { "run" },
                runs.iter()
                    .map(|r| run_name(r))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            ([a, b], None) => format!("runs {} and {} with their diff", run_name(a), run_name(b)),
            ([a], None) => format!("run {}", run_name(a)),
            _ => String::new(),
        };
        let mut formats = vec![Span::raw("format: ")];
        for (i, name) in FORMATS.iter().map(|f| f.label()).enumerate() {
            let style = if i == self.format {
                Style::default()
                    .fg(Color::Black)
                    .bg(Color::Cyan)
                    .add_modifier(Modifier::BOLD)
            } else {
                Style::default()
            };
            formats.push(Span::styled(format!(" {name} "), style));
            formats.push(Span::raw(" "));
        }
        let mut lines = vec![
            Line::from(format!("Export {what}")),
            Line::from(""),
            Line::from(formats),
            Line::from(vec![
                Span::raw("path:   "),
                Span::raw(self.path.clone()),
                Span::styled("▏", Style::default().fg(Color::Cyan)),
            ]),
            Line::from(""),
        ];
        match &self.outcome {
            Some(Ok(p)) => lines.push(Line::styled(
                format!("wrote {p}"),
                Style::default().fg(Color::Green),
            )),
            Some(Err(e)) => lines.push(Line::styled(
                format!("cannot export: {e}"),
                Style::default().fg(Color::Red),
            )),
            None => {}
        }
        lines.push(Line::styled(
            "←/→ format · type the path · enter write · esc close",
            Style::default().fg(Color::DarkGray),
        ));
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(pane_block("Export", true))
            .render(r, buf);
    }

    fn on_key(&mut self, key: KeyEvent) -> Action {
        match key.code {
            KeyCode::Esc => return Action::Close,
            KeyCode::Left | KeyCode::Up => {
                self.set_format((self.format + FORMATS.len() - 1) % FORMATS.len())
            }
            KeyCode::Right | KeyCode::Down | KeyCode::Tab => {
                self.set_format((self.format + 1) % FORMATS.len())
            }
            KeyCode::Backspace => {
                self.path.pop();
            }
            KeyCode::Char(c) => self.path.push(c),
            KeyCode::Enter => {
                self.outcome = Some(self.write().map(|p| {
                    let bytes = std::fs::metadata(&p).map(|m| m.len()).unwrap_or(0);
                    format!("{} ({bytes} bytes)", p.display())
                }));
            }
            _ => {}
        }
        Action::None
    }

    fn hints(&self) -> Vec<(&'static str, &'static str)> {
        vec![("←/→", "format"), ("enter", "write"), ("esc", "close")]
    }

    fn captures_input(&self) -> bool {
        true
    }
}
