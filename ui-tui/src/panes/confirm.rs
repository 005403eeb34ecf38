//! A yes/no question in a centred box.

use super::pane_block;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};
use std::path::PathBuf;

/// What a confirmation leads to.
#[derive(Debug, Clone, PartialEq)]
pub enum Confirm {
    /// Delete a saved run directory.
    DeleteRun(PathBuf),
    /// Cancel the run in flight (finished cells stay saved).
    CancelRun,
    /// Quit while a run is in flight (cancels it).
    Quit,
    /// Start a run estimated to take long (the scope, in core's words).
    LongRun(String),
}

impl Confirm {
    /// The question.
    pub fn question(&self) -> String {
        match self {
            Confirm::DeleteRun(d) => format!(
                "Delete saved run {}? Its directory is removed.",
                d.file_name()
                    .map(|n| n.to_string_lossy())
                    .unwrap_or_default()
            ),
            Confirm::CancelRun => {
                "Cancel the run? Finished cells stay saved; the cell in flight is dropped.".into()
            }
            Confirm::Quit => {
                "A run is in flight. Cancel it and quit? Finished cells stay saved.".into()
            }
            Confirm::LongRun(scope) => format!("{scope}. Start it?"),
        }
    }

    /// Draws the dialog centred in `area`.
    pub fn render(&self, area: Rect, buf: &mut Buffer) {
        let r = centered(area, 56, 7);
        Clear.render(r, buf);
        Paragraph::new(vec![
            Line::from(self.question()),
            Line::from(""),
            Line::styled(
                "y / enter: yes    n / esc: no",
                Style::default().fg(Color::Cyan),
            ),
        ])
        .wrap(Wrap { trim: true })
        .block(
            pane_block("Confirm", true).title_style(Style::default().add_modifier(Modifier::BOLD)),
        )
        .render(r, buf);
    }
}

/// A `w`×`h` rectangle centred in `area` (clamped to it).
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}
