//! The `?` overlay: every key, globally and per pane.

use super::confirm::centered;
use super::pane_block;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget, Wrap};

/// Keys that work everywhere (outside text fields).
pub const GLOBAL: [(&str, &str); 9] = [
    ("tab / shift-tab", "next / previous pane"),
    (
        "1 … 7",
        "screen: runtimes, suites, live, saved, detail, diff, compare",
    ),
    (
        "↑↓ / j k",
        "move (page up/down, g/G: first/last; mouse wheel)",
    ),
    ("r", "start a run with the ticked runtimes and tests"),
    ("c", "cancel the run (on the live screen, asks first)"),
    ("?", "this help"),
    ("q / ctrl-c", "quit (asks first while a run is in flight)"),
    ("esc", "close a dialog"),
    ("click", "a tab title switches screen"),
];

/// Draws the help overlay: global keys, then each pane's. It widens to its longest line
/// when the terminal lets it, else lines wrap; how to close it sits on its bottom border.
pub fn render(area: Rect, buf: &mut Buffer, panes: &[(&str, Vec<(&'static str, &'static str)>)]) {
    let key = Style::default()
        .fg(Color::Cyan)
        .add_modifier(Modifier::BOLD);
    let mut lines: Vec<Line> = GLOBAL
        .iter()
        .map(|(k, what)| {
            Line::from(vec![
                Span::styled(format!("{k:<16}"), key),
                Span::raw(*what),
            ])
        })
        .collect();
    lines.push(Line::from(""));
    for (name, hints) in panes {
        let mut spans = vec![Span::styled(
            format!("{name:<16}"),
            Style::default().add_modifier(Modifier::BOLD),
        )];
        for (k, what) in hints {
            spans.push(Span::styled(*k, key));
            spans.push(Span::raw(format!(" {what}  ")));
        }
        lines.push(Line::from(spans));
    }
    let longest = lines.iter().map(|l| l.width()).max().unwrap_or(0) as u16;
    let w = longest.saturating_add(2).clamp(78, area.width.max(78));
    let inner_w = w.min(area.width).saturating_sub(2).max(1);
    let h = lines
        .iter()
        .map(|l| (l.width() as u16).div_ceil(inner_w).max(1))
        .sum::<u16>()
        + 2;
    let r = centered(area, w, h);
    Clear.render(r, buf);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(pane_block("Help", true).title_bottom(Line::styled(
            " any key closes this help ",
            Style::default().fg(Color::DarkGray),
        )))
        .render(r, buf);
}
