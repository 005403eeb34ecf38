//! One file per pane.

pub mod compare;
pub mod confirm;
pub mod detail;
pub mod diff;
pub mod export;
pub mod features;
pub mod help;
pub mod history;
pub mod http;
pub mod live;
pub mod runs;
pub mod runtimes;
pub mod settings;
pub mod sweep;
pub mod tests;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType, Borders, Row, Sparkline, Widget};
use wasmeter_core::table::{Align, Column};

/// A bordered block whose border shows focus.
pub fn pane_block(title: &str, focused: bool) -> Block<'static> {
    let style = if focused {
        Style::default().fg(Color::Cyan)
    } else {
        Style::default().fg(Color::DarkGray)
    };
    Block::default()
        .borders(Borders::ALL)
        .border_type(if focused {
            BorderType::Thick
        } else {
            BorderType::Plain
        })
        .border_style(style)
        .title(if focused {
            format!("▶ {title}")
        } else {
            format!("  {title}")
        })
}

/// Style of the selected row.
pub fn selected() -> Style {
    Style::default()
        .add_modifier(Modifier::REVERSED)
        .add_modifier(Modifier::BOLD)
}

/// `#rrggbb` as a terminal colour.
fn hex_color(hex: &str) -> Color {
    let (r, g, b) = wasmeter_core::format::colour::rgb(hex);
    Color::Rgb(r, g, b)
}

/// Colour of a time relative to the baseline (lower is faster): core's shared scale
/// ([`wasmeter_core::format::colour`]), the desktop's and the HTML report's too.
pub fn rel_color(rel: f64) -> Color {
    match wasmeter_core::format::colour::ratio_colours(rel) {
        Some((bg, _)) => hex_color(bg),
        None => Color::Reset,
    }
}

/// A matrix cell of a time relative to the baseline: core's shared scale as the
/// background, with the text colour that meets WCAG AA on it.
pub fn rel_style(rel: f64) -> Style {
    match wasmeter_core::format::colour::ratio_colours(rel) {
        Some((bg, fg)) => Style::default().bg(hex_color(bg)).fg(hex_color(fg)),
        None => Style::default(),
    }
}

/// A bar of `width` cells for `value` out of `max` (eighth-block resolution).
pub fn bar(value: f64, max: f64, width: usize) -> String {
    if !(value.is_finite() && max > 0.0) || width == 0 {
        return String::new();
    }
    let eighths = ((value / max).clamp(0.0, 1.0) * (width * 8) as f64).round() as usize;
    let mut s = "█".repeat(eighths / 8);
    const PART: [&str; 8] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
    s.push_str(PART[eighths % 8]);
    s
}

/// Text of a core table's column ([`wasmeter_core::table`]) as a line aligned as the
/// column is in `wasmeter show` and the Markdown export: the panes that show those tables
/// draw the same cells.
pub fn aligned(column: &Column, text: impl Into<String>) -> Line<'static> {
    let line = Line::from(text.into());
    match column.align {
        Align::Left => line,
        Align::Right => line.right_aligned(),
    }
}

/// The header of a core table's `columns`, each title aligned as its column, in bold.
pub fn header_row<'a>(columns: impl IntoIterator<Item = &'a Column>) -> Row<'static> {
    Row::new(
        columns
            .into_iter()
            .map(|c| aligned(c, c.title.clone()))
            .collect::<Vec<_>>(),
    )
    .style(Style::default().add_modifier(Modifier::BOLD))
}

/// Cuts a string to `n` characters with an ellipsis.
pub fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// The CPU % and RSS (KiB) sparklines shown live and in run detail, drawn the same way:
/// CPU scaled to at least 100 %, RSS to its own peak.
pub fn resource_sparklines(
    cpu: (Block<'static>, Rect, &[u64]),
    rss: (Block<'static>, Rect, &[u64]),
    buf: &mut Buffer,
) {
    let (cpu_block, cpu_area, cpu_data) = cpu;
    Sparkline::default()
        .block(cpu_block)
        .data(cpu_data)
        .max(100.max(cpu_data.iter().copied().max().unwrap_or(0)))
        .style(Style::default().fg(Color::Yellow))
        .render(cpu_area, buf);
    let (rss_block, rss_area, rss_data) = rss;
    Sparkline::default()
        .block(rss_block)
        .data(rss_data)
        .style(Style::default().fg(Color::Magenta))
        .render(rss_area, buf);
}
