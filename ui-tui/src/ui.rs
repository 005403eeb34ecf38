//! The whole screen as a function of [`App`]: tab bar, the current screen's panes, status
//! line, hint bar, and overlays (export, confirm, help). Below 80×24 it asks for a bigger
//! terminal instead.

use crate::app::{App, Pane};
use crate::component::Component;
use crate::panes::live::clock;
use crate::panes::{compare, help, history, pane_block};
use crate::tabs::tab_titles;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// Smallest usable terminal.
pub const MIN_WIDTH: u16 = 80;
/// Smallest usable terminal.
pub const MIN_HEIGHT: u16 = 24;

const GLOBAL_HINTS: &str = "tab pane · 1-7 screen · ? help · q quit";

/// Draws the application.
pub fn draw(f: &mut Frame, app: &App) {
    let area = f.area();
    render(app, area, f.buffer_mut());
}

/// Renders the application into a buffer (what `draw` does, usable without a terminal).
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let msg = vec![
            Line::from(""),
            Line::styled(
                format!("The terminal is {}×{}.", area.width, area.height),
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Line::from(format!(
                "Please enlarge the terminal to at least {MIN_WIDTH}×{MIN_HEIGHT}."
            )),
            Line::from("q quits"),
        ];
        Paragraph::new(msg)
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true })
            .render(area, buf);
        return;
    }
    let [tabs, body, status, hints] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(10),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    render_tabs(app, tabs, buf);
    render_body(app, body, buf);
    render_status(app, status, buf);
    render_hints(app, hints, buf);
    if let Some(d) = &app.export {
        d.render(body, buf, true);
    }
    if let Some(c) = &app.confirm {
        c.render(body, buf);
    }
    if app.help {
        let names = [
            ("Runtimes", Pane::Runtimes),
            ("Suites & tests", Pane::Tests),
            ("Run settings", Pane::Settings),
            ("Live run", Pane::Live),
            ("Saved runs", Pane::Runs),
            ("Run detail", Pane::Detail),
            ("Diff", Pane::Diff),
            ("Compare", Pane::Compare),
            ("History", Pane::History),
        ];
        let sections: Vec<(&str, Vec<(&'static str, &'static str)>)> = names
            .iter()
            .map(|(n, p)| {
                let hints = match p {
                    Pane::Detail => vec![
                        ("arrows", "cell"),
                        ("v", "view"),
                        ("H", "history of the cell"),
                        ("e", "export"),
                    ],
                    Pane::Diff => vec![("↑/↓", "rows"), ("e", "export runs + diff")],
                    Pane::Compare => compare::HINTS.to_vec(),
                    Pane::History => history::HINTS.to_vec(),
                    _ => app.pane(*p).map(|c| c.hints()).unwrap_or_default(),
                };
                (*n, hints)
            })
            .collect();
        help::render(body, buf, &sections);
    }
}

fn render_tabs(app: &App, area: Rect, buf: &mut Buffer) {
    let current = app.focus.screen();
    let mut spans = Vec::new();
    for (i, title) in tab_titles(area.width).into_iter().enumerate() {
        let style = if i == current {
            Style::default()
                .fg(Color::Black)
                .bg(Color::Cyan)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::default().fg(Color::Gray)
        };
        spans.push(Span::styled(title, style));
    }
    if app.is_running() {
        spans.push(Span::styled(" ● running", Style::default().fg(Color::Cyan)));
    }
    Paragraph::new(Line::from(spans)).render(area, buf);
}

fn render_body(app: &App, area: Rect, buf: &mut Buffer) {
    let f = app.focus;
    match f.screen() {
        0 => app.runtimes.render(area, buf, true),
        1 => {
            let [l, r] =
                Layout::horizontal([Constraint::Percentage(62), Constraint::Percentage(38)])
                    .areas(area);
            app.tests.render(l, buf, f == Pane::Tests);
            app.settings.render(r, buf, f == Pane::Settings);
        }
        2 => app.live.render(area, buf, true),
        3 => app.runs.render(area, buf, true),
        4 if f == Pane::History && app.history.is_some() => {
            if let Some(h) = &app.history {
                h.render(area, buf, true)
            }
        }
        4 => match &app.detail {
            Some(d) => d.render(area, buf, true),
            None => empty(
                area,
                buf,
                "Run detail",
                "no run open: pick one in Saved runs (4) and press enter",
            ),
        },
        5 => match &app.diff {
            Some(d) => d.render(area, buf, true),
            None => empty(
                area,
                buf,
                "Diff",
                "no diff open: in Saved runs (4) mark run A with space, select run B, press D",
            ),
        },
        _ => match &app.compare {
            Some(c) => c.render(area, buf, true),
            None => empty(
                area,
                buf,
                "Compare",
                "no comparison open: in Saved runs (4) mark two or more runs with space, press c",
            ),
        },
    }
}

fn empty(area: Rect, buf: &mut Buffer, title: &str, text: &str) {
    Paragraph::new(text)
        .style(Style::default().fg(Color::DarkGray))
        .wrap(Wrap { trim: true })
        .block(pane_block(title, true))
        .render(area, buf);
}

fn render_status(app: &App, area: Rect, buf: &mut Buffer) {
    let line = match &app.message {
        Some((m, true)) => Line::styled(m.clone(), Style::default().fg(Color::Red)),
        Some((m, false)) => Line::styled(m.clone(), Style::default().fg(Color::Green)),
        None if app.is_running() => {
            let l = &app.live;
            let progress = l.run.progress();
            Line::styled(
                format!(
                    "running {}: {}/{} iterations, {} elapsed",
                    l.run.head.run_id.as_deref().unwrap_or("…"),
                    progress.done,
                    progress.total,
                    clock(l.elapsed)
                ),
                Style::default().fg(Color::Cyan),
            )
        }
        None => Line::styled(
            format!("results in {}", app.results.display()),
            Style::default().fg(Color::DarkGray),
        ),
    };
    Paragraph::new(line).render(area, buf);
}

fn render_hints(app: &App, area: Rect, buf: &mut Buffer) {
    let hints = if let Some(d) = &app.export {
        d.hints()
    } else if app.confirm.is_some() {
        vec![("y", "yes"), ("n", "no")]
    } else {
        app.pane(app.focus).map(|p| p.hints()).unwrap_or_default()
    };
    let key = Style::default()
        .fg(Color::Cyan)
        .add_modifier(Modifier::BOLD);
    let mut spans = Vec::new();
    for (k, what) in hints {
        spans.push(Span::styled(k, key));
        spans.push(Span::raw(format!(" {what}  ")));
    }
    spans.push(Span::styled(
        GLOBAL_HINTS,
        Style::default().fg(Color::DarkGray),
    ));
    Paragraph::new(Line::from(spans)).render(area, buf);
}
