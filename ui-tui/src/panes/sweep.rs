//! A sweep's parameter scan (core's [`Sweep`]) for one test: the figure against the first
//! swept setting's values, one coloured line per combination of the others, each point's
//! 95 % interval as a vertical bar; beside it the best combination and what each setting
//! did.

use super::pane_block;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Paragraph, Widget, Wrap};
use wasmeter_core::analysis::Sweep;
use wasmeter_core::format::format_ns;

const COLORS: [Color; 6] = [
    Color::Cyan,
    Color::Yellow,
    Color::Magenta,
    Color::Green,
    Color::Red,
    Color::Blue,
];

/// Draws the scan of `test` into `area`.
pub fn render_sweep(s: &Sweep, test: &str, area: Rect, buf: &mut Buffer) {
    let x_name = s.settings.first().map(String::as_str).unwrap_or("");
    let block = pane_block(
        &format!(
            "Sweep of {}: {test} against {x_name}  (v: next view)",
            s.engine
        ),
        false,
    );
    let inner = block.inner(area);
    block.render(area, buf);
    let Some(t) = s.tests.iter().find(|t| t.test == test) else {
        Paragraph::new("no figures for this test").render(inner, buf);
        return;
    };
    let [plot, side] =
        Layout::horizontal([Constraint::Min(20), Constraint::Length(44)]).areas(inner);
    let x_of = |v: &str| s.x_values.iter().position(|x| x == v).unwrap_or(0) as f64;
    let mut lines: Vec<Vec<(f64, f64)>> = vec![Vec::new(); s.lines.len()];
    let mut bars: Vec<(usize, [(f64, f64); 2])> = Vec::new();
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in &t.points {
        let Some(v) = p.typical else { continue };
        let li = s.lines.iter().position(|l| *l == p.line).unwrap_or(0);
        // Lines side by side at one x, so their bars do not hide each other.
        let x = x_of(&p.x) + (li as f64 - (s.lines.len() as f64 - 1.0) / 2.0) * 0.08;
        lines[li].push((x, v));
        let (a, b) = (p.low.unwrap_or(v), p.high.unwrap_or(v));
        bars.push((li, [(x, a), (x, b)]));
        lo = lo.min(a);
        hi = hi.max(b);
    }
    if !lo.is_finite() {
        Paragraph::new("no figures for this test").render(inner, buf);
        return;
    }
    let pad = ((hi - lo) * 0.1).max(hi * 0.01);
    let (lo, hi) = ((lo - pad).max(0.0), hi + pad);
    for l in &mut lines {
        l.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let mut sets: Vec<Dataset> = Vec::new();
    for (li, pts) in lines.iter().enumerate() {
        sets.push(
            Dataset::default()
                .marker(Marker::Braille)
                .graph_type(GraphType::Line)
                .style(Style::default().fg(COLORS[li % COLORS.len()]))
                .data(pts),
        );
    }
    for (li, seg) in &bars {
        sets.push(
            Dataset::default()
                .marker(Marker::Braille)
                .graph_type(GraphType::Line)
                .style(Style::default().fg(COLORS[li % COLORS.len()]))
                .data(seg),
        );
    }
    let dim = Style::default().fg(Color::DarkGray);
    let n = s.x_values.len().max(1) as f64;
    Chart::new(sets)
        .x_axis(
            Axis::default()
                .title(Line::styled(x_name.to_string(), dim))
                .bounds([-0.5, n - 0.5])
                .labels(
                    s.x_values
                        .iter()
                        .map(|x| Span::raw(x.clone()))
                        .collect::<Vec<_>>(),
                )
                .style(dim),
        )
        .y_axis(
            Axis::default()
                .title(Line::styled(format!("{} time", t.phase), dim))
                .bounds([lo, hi])
                .labels([format_ns(lo), format_ns((lo + hi) / 2.0), format_ns(hi)])
                .style(dim),
        )
        .render(plot, buf);
    let mut text: Vec<Line> = s
        .lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            Line::styled(
                format!("── {}", if l.is_empty() { "all" } else { l }),
                Style::default().fg(COLORS[i % COLORS.len()]),
            )
        })
        .collect();
    if let Some(best) = &t.best {
        text.push(Line::raw(format!("best: {best}")));
    }
    for e in &s.effects {
        let moved = e.changed.iter().any(|x| x == test);
        let what = if moved {
            "moved it beyond noise"
        } else if e.undecided.iter().any(|x| x == test) {
            "could not tell (busy or too few invocations)"
        } else {
            "within noise"
        };
        text.push(Line::styled(
            format!("{}: {what}", e.setting),
            if moved { Style::default() } else { dim },
        ));
    }
    Paragraph::new(text)
        .wrap(Wrap { trim: true })
        .render(side, buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasmeter_core::analysis::{ScanPoint, ScanTest, SettingEffect};

    fn point(x: &str, line: &str, v: f64) -> ScanPoint {
        ScanPoint {
            runtime: format!("wasmtime[allocator={x},{line}]"),
            x: x.into(),
            line: line.into(),
            typical: Some(v),
            low: Some(v * 0.9),
            high: Some(v * 1.1),
        }
    }

    #[test]
    fn the_scan_draws_lines_intervals_the_best_and_each_settings_effect() {
        let s = Sweep {
            engine: "wasmtime".into(),
            settings: vec!["allocator".into(), "cow".into()],
            x_values: vec!["pooling".into(), "on-demand".into()],
            lines: vec!["cow=on".into(), "cow=off".into()],
            tests: vec![ScanTest {
                test: "hello".into(),
                phase: "instantiate".into(),
                points: vec![
                    point("pooling", "cow=on", 2_000.0),
                    point("pooling", "cow=off", 2_100.0),
                    point("on-demand", "cow=on", 20_000.0),
                    point("on-demand", "cow=off", 21_000.0),
                ],
                best: Some("wasmtime[allocator=pooling,cow=on]".into()),
            }],
            effects: vec![
                SettingEffect {
                    setting: "allocator".into(),
                    changed: vec!["hello".into()],
                    within_noise: vec![],
                    undecided: vec![],
                },
                SettingEffect {
                    setting: "cow".into(),
                    changed: vec![],
                    within_noise: vec!["hello".into()],
                    undecided: vec![],
                },
            ],
        };
        let area = Rect::new(0, 0, 110, 16);
        let mut buf = Buffer::empty(area);
        render_sweep(&s, "hello", area, &mut buf);
        let text: String = (0..area.height)
            .map(|y| {
                (0..area.width)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect::<String>()
                    + "\n"
            })
            .collect();
        for want in [
            "Sweep of wasmtime: hello against allocator",
            "── cow=on",
            "── cow=off",
            "best: wasmtime[allocator=pooling,cow=on]",
            "allocator: moved it beyond noise",
            "cow: within noise",
            "pooling",
            "on-demand",
        ] {
            assert!(text.contains(want), "{want}:\n{text}");
        }
        // Something is plotted (braille dots).
        assert!(
            text.chars().any(|c| ('\u{2801}'..='\u{28ff}').contains(&c)),
            "{text}"
        );
    }
}
