//! Run detail of an HTTP run (gateway and servers suites), for the selected request: the
//! variants' overview (cold start, latency percentiles over one connection, best
//! throughput and how it compares with the baseline's, memory, CPU per 1k requests), a
//! chart of requests per second against concurrent connections (log–log as on the desktop:
//! variants differ by orders of magnitude; the measured levels label the x axis, one line
//! per variant; a saturated level — no request within the duration — is not a point: the
//! table and the chosen variant's list show it with its bound), and why variants failed.
//! Runs with offered rates have a second view: latency against offered rate (corrected
//! p99, log–log), the SLO and each variant's knee, the chosen variant's rates beside it.

use super::{aligned, clip, pane_block};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Margin, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Axis, Block, Chart, Dataset, GraphType, Paragraph, Row, Table, Widget, Wrap,
};
use wasmeter_core::analysis::{HttpCell, http_cells, levels_of};
use wasmeter_core::format::{FAILED, format_ns, format_rate};
use wasmeter_core::store::SavedRun;
use wasmeter_core::table::http_tables;

/// Line colours of the variants, in run order.
const COLORS: [Color; 8] = [
    Color::Cyan,
    Color::Yellow,
    Color::Magenta,
    Color::Green,
    Color::LightRed,
    Color::LightBlue,
    Color::White,
    Color::LightYellow,
];

/// The HTTP view of a run, computed once when the run is opened.
#[derive(Debug, Default)]
pub struct HttpView {
    /// Runtime the `×` column compares with.
    pub baseline: String,
    /// Every variant × request, test-major.
    pub cells: Vec<HttpCell>,
}

impl HttpView {
    /// The view of `run` against `baseline`.
    pub fn new(run: &SavedRun, baseline: &str) -> HttpView {
        HttpView {
            baseline: baseline.to_string(),
            cells: http_cells(run, baseline),
        }
    }

    fn of_test(&self, test: &str) -> Vec<HttpCell> {
        self.cells
            .iter()
            .filter(|c| c.test == test)
            .cloned()
            .collect()
    }

    /// Draws request `test`, the variant `chosen` in bold.
    pub fn render(&self, test: &str, chosen: Option<&str>, area: Rect, buf: &mut Buffer) {
        let block = pane_block(
            &format!("{test}: variants under load, requests/s vs connections  (v: next view)"),
            false,
        );
        let inner = block.inner(area);
        block.render(area, buf);
        let cells = self.of_test(test);
        if cells.is_empty() {
            Paragraph::new("no measurements").render(inner, buf);
            return;
        }
        let failed: Vec<&HttpCell> = cells.iter().filter(|c| c.failure.is_some()).collect();
        let table_h = cells.len() as u16 + 1;
        let fail_h = (failed.len() as u16).min(inner.height.saturating_sub(table_h + 6) / 2);
        let [table, chart, fails] = Layout::vertical([
            Constraint::Length(table_h),
            Constraint::Min(0),
            Constraint::Length(fail_h),
        ])
        .areas(inner);
        self.render_table(&cells, chosen, table, buf);
        render_chart(&cells, chosen, chart, buf);
        let lines: Vec<Line> = failed
            .iter()
            .map(|c| {
                Line::from(vec![
                    Span::styled(
                        format!("✗ {} failed: ", c.runtime),
                        Style::default().fg(Color::Red).add_modifier(Modifier::BOLD),
                    ),
                    Span::styled(
                        c.failure.clone().unwrap_or_default(),
                        Style::default().fg(Color::Red),
                    ),
                ])
            })
            .collect();
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .render(fails, buf);
    }

    /// The overview table, as `wasmeter show` prints it.
    fn render_table(&self, cells: &[HttpCell], chosen: Option<&str>, area: Rect, buf: &mut Buffer) {
        let Some(t) = http_tables(cells, &self.baseline).into_iter().next() else {
            return;
        };
        let all_widths = t.widths();
        let width = |i: usize| all_widths[i] as u16;
        let mut cols: Vec<usize> = (0..t.columns.len()).collect();
        let widths_of = |cols: &[usize]| -> Vec<u16> {
            cols.iter()
                .map(|&i| if i == 0 { width(0).min(20) } else { width(i) })
                .collect()
        };
        // Too narrow for every column: leave out the least telling ones first.
        for drop in DROP_ORDER {
            let w = widths_of(&cols);
            if w.iter().sum::<u16>() + w.len() as u16 - 1 <= area.width {
                break;
            }
            cols.retain(|&c| c != drop);
        }
        let widths: Vec<Constraint> = widths_of(&cols)
            .into_iter()
            .map(Constraint::Length)
            .collect();
        let header = cols
            .iter()
            .map(|&i| aligned(&t.columns[i], t.columns[i].title.clone()));
        let rows = t.rows.iter().map(|r| {
            let failed = r.get(1).is_some_and(|c| c == FAILED);
            let line = cols.iter().map(|&i| (i, &r[i])).map(|(i, c)| {
                let column = &t.columns[i];
                if i == 0 {
                    // The variant's line colour: the table doubles as the chart's legend.
                    let index = cells.iter().position(|x| x.runtime == *c).unwrap_or(0);
                    let style = if failed {
                        Style::default().fg(Color::Red)
                    } else {
                        Style::default().fg(color(index))
                    };
                    aligned(column, clip(c, 20)).style(style)
                } else if failed {
                    aligned(column, c.clone())
                        .style(Style::default().fg(Color::Red).add_modifier(Modifier::BOLD))
                } else {
                    aligned(column, c.clone())
                }
            });
            let row = Row::new(line.collect::<Vec<_>>());
            if Some(r[0].as_str()) == chosen {
                row.style(Style::default().add_modifier(Modifier::BOLD))
            } else {
                row
            }
        });
        Table::new(rows, widths)
            .header(
                Row::new(header.collect::<Vec<_>>()).style(
                    Style::default()
                        .add_modifier(Modifier::BOLD)
                        .add_modifier(Modifier::UNDERLINED),
                ),
            )
            .render(area, buf);
    }
}

/// Columns of the overview table (variant, cold start, p50, p90, p99, best rps, ×
/// baseline, peak RSS, CPU/1k) left out, in this order, while the table does not fit.
const DROP_ORDER: [usize; 5] = [3, 7, 1, 8, 4];

/// A decade of requests per second as an axis label (`1k/s`, `100k/s`, `1M/s`).
fn decade_label(k: i32) -> String {
    match k {
        i32::MIN..=-1 => format!("{}/s", 10f64.powi(k)),
        0..=2 => format!("{}/s", 10u64.pow(k as u32)),
        3..=5 => format!("{}k/s", 10u64.pow(k as u32 - 3)),
        6..=8 => format!("{}M/s", 10u64.pow(k as u32 - 6)),
        _ => format!("1e{k}/s"),
    }
}

/// The x coordinate of a connection count: log10, so 1, 10, 100 are evenly spaced.
fn log_x(connections: u32) -> f64 {
    (connections.max(1) as f64).log10()
}

/// A variant's line: its position in the run (its colour), the cell, its points.
type Series<'a> = (usize, &'a HttpCell, Vec<(f64, f64)>);

/// Colour of the variant at `index` (its position in the run).
fn color(index: usize) -> Color {
    COLORS[index % COLORS.len()]
}

/// Requests per second against connections, one line per variant that has throughput,
/// log–log. The chart spreads its own axis labels evenly, which a log axis does not fit:
/// it gets blank ones (to keep the axes and their room) and the levels and decades are
/// written where the canvas puts them. The legend stands right of the plot so it never
/// hides a line, the chosen variant's requests/s at each level under it.
fn render_chart(cells: &[HttpCell], chosen: Option<&str>, area: Rect, buf: &mut Buffer) {
    let levels = levels_of(cells);
    if levels.is_empty() {
        Paragraph::new("no throughput measured").render(area, buf);
        return;
    }
    if area.height < 6 || area.width < 24 {
        return;
    }
    let (mut x_lo, mut x_hi) = (log_x(levels[0]), log_x(levels[levels.len() - 1]));
    if x_hi - x_lo < 1e-9 {
        x_lo -= 0.5;
        x_hi += 0.5;
    }
    let rates = cells
        .iter()
        .filter(|c| c.failure.is_none())
        .flat_map(|c| c.levels.iter().map(|l| l.rps.median))
        .filter(|r| *r > 0.0);
    let (min, max) = rates.fold((f64::INFINITY, 0.0_f64), |(a, b), r| (a.min(r), b.max(r)));
    let (y_lo, y_hi) = if max > 0.0 {
        let (a, b) = (min.log10(), max.log10());
        let pad = ((b - a) * 0.08).max(0.05);
        (a - pad, b + pad)
    } else {
        (0.0, 1.0)
    };
    let series: Vec<Series> = cells
        .iter()
        .enumerate()
        .filter(|(_, c)| c.failure.is_none() && !c.levels.is_empty())
        .map(|(i, c)| {
            let pts = c
                .levels
                .iter()
                // A level that served nothing sits on the floor.
                .map(|l| {
                    let y = if l.rps.median > 0.0 {
                        l.rps.median.log10().max(y_lo)
                    } else {
                        y_lo
                    };
                    (log_x(l.connections), y)
                })
                .collect();
            (i, c, pts)
        })
        .collect();
    let legend_w = series
        .iter()
        .map(|(_, c, _)| c.runtime.chars().count().min(20) as u16 + 5)
        .max()
        .unwrap_or(0)
        .max(24)
        // Room for a saturated level's bound in the chosen variant's list.
        .max(
            cells
                .iter()
                .flat_map(|c| &c.saturated)
                .map(|s| s.label().chars().count() as u16 + 8)
                .max()
                .unwrap_or(0),
        );
    let (plot, legend) = if !series.is_empty() && area.width >= legend_w + 60 {
        let [p, l] =
            Layout::horizontal([Constraint::Min(0), Constraint::Length(legend_w)]).areas(area);
        (p, Some(l))
    } else {
        (area, None)
    };
    let datasets: Vec<Dataset> = series
        .iter()
        .map(|(i, c, pts)| {
            let mut style = Style::default().fg(color(*i));
            if Some(c.runtime.as_str()) == chosen {
                style = style.add_modifier(Modifier::BOLD);
            }
            Dataset::default()
                .marker(Marker::Braille)
                .graph_type(GraphType::Line)
                .style(style)
                .data(pts)
        })
        .collect();
    // Decades inside the range; too few of them, the range's own ends.
    let mut y_labels: Vec<(f64, String)> = (y_lo.ceil() as i32..=y_hi.floor() as i32)
        .map(|k| (k as f64, decade_label(k)))
        .collect();
    if y_labels.len() < 2 {
        y_labels = [y_lo, y_hi]
            .into_iter()
            .map(|v| (v, format_rate(10f64.powf(v))))
            .collect();
    }
    let y_label_w = y_labels
        .iter()
        .map(|(_, l)| l.chars().count())
        .max()
        .unwrap_or(0);
    let dim = Style::default().fg(Color::DarkGray);
    let blank = " ".repeat(y_label_w);
    Chart::new(datasets)
        .x_axis(
            Axis::default()
                .title(Line::styled("connections (log)", dim))
                .bounds([x_lo, x_hi])
                .labels(["", ""])
                .style(dim),
        )
        .y_axis(
            Axis::default()
                .title(Line::styled("requests/s (log)", dim))
                .bounds([y_lo, y_hi])
                .labels([blank.clone(), blank])
                .style(dim),
        )
        .render(plot, buf);
    // Where the chart put its graph (its layout: y labels take at most a third of the
    // width, then the y axis; the x labels on the last row, the x axis above them).
    let graph_left = plot.left() + (y_label_w as u16).min(plot.width / 3) + 1;
    let graph_w = plot.right().saturating_sub(graph_left);
    let label_y = plot.bottom() - 1;
    let axis_y = label_y - 1;
    let graph_h = axis_y - plot.top();
    let mut free_from = plot.left();
    for lv in &levels {
        let frac = (log_x(*lv) - x_lo) / (x_hi - x_lo);
        // The canvas's own rounding: two braille dots per cell across.
        let dot = (frac * (graph_w as f64 * 2.0 - 1.0)).max(0.0) as u16;
        let x = graph_left + (dot / 2).min(graph_w.saturating_sub(1));
        let text = lv.to_string();
        let w = text.chars().count() as u16;
        let start = x
            .saturating_sub(w / 2)
            .clamp(plot.left(), plot.right().saturating_sub(w));
        if start < free_from {
            continue;
        }
        buf.set_string(start, label_y, &text, Style::default());
        buf[(x, axis_y)].set_symbol("┴");
        free_from = start + w + 1;
    }
    // Four braille dots per cell down, counted from the top.
    let mut taken: Option<u16> = None;
    for (v, text) in y_labels.iter().rev() {
        let dot = ((y_hi - v) / (y_hi - y_lo) * (graph_h as f64 * 4.0 - 1.0)).max(0.0) as u16;
        let y = plot.top() + (dot / 4).min(graph_h.saturating_sub(1));
        if taken.is_some_and(|t| y <= t + 1) {
            continue;
        }
        let w = y_label_w.min((graph_left - plot.left()).saturating_sub(1) as usize);
        buf.set_string(plot.left(), y, clip(text, w), Style::default());
        buf[(graph_left - 1, y)].set_symbol("┤");
        taken = Some(y);
    }
    if let Some(l) = legend {
        let lines: Vec<Line> = series
            .iter()
            .map(|(i, c, _)| {
                let mut style = Style::default().fg(color(*i));
                if Some(c.runtime.as_str()) == chosen {
                    style = style.add_modifier(Modifier::BOLD);
                }
                Line::from(vec![
                    Span::styled("━ ", style),
                    Span::styled(clip(&c.runtime, 20), style),
                ])
            })
            .collect();
        let h = (lines.len() as u16 + 2).min(l.height);
        let [legend, below] =
            Layout::vertical([Constraint::Length(h), Constraint::Min(0)]).areas(l);
        Paragraph::new(lines)
            .block(
                Block::bordered()
                    .border_style(dim)
                    .title(Line::styled("variants", dim)),
            )
            .render(legend, buf);
        if let Some((i, c, _)) = series
            .iter()
            .find(|(_, c, _)| Some(c.runtime.as_str()) == chosen)
        {
            let mut lines = vec![
                Line::styled(
                    clip(&c.runtime, below.width as usize),
                    Style::default().fg(color(*i)),
                ),
                Line::styled(format!("{:>5} {:>8}", "conns", "req/s"), dim),
            ];
            // Served and saturated levels in order of connections; a saturated one shows
            // its bound, never a rate (it is not on the chart either).
            let mut rows: Vec<(u32, Line)> = c
                .levels
                .iter()
                .map(|l| {
                    let err = if l.errors > 0.0 {
                        Span::styled(
                            format!(" {:.0} err", l.errors),
                            Style::default().fg(Color::Red),
                        )
                    } else {
                        Span::raw("")
                    };
                    let line = Line::from(vec![
                        Span::raw(format!(
                            "{:>5} {:>8}",
                            l.connections,
                            format_rate(l.rps.median)
                        )),
                        err,
                    ]);
                    (l.connections, line)
                })
                .chain(c.saturated.iter().map(|s| {
                    let line = Line::from(vec![
                        Span::raw(format!("{:>5} ", s.connections)),
                        Span::styled(s.label(), Style::default().fg(Color::Yellow)),
                    ]);
                    (s.connections, line)
                }))
                .collect();
            rows.sort_by_key(|(c, _)| *c);
            lines.extend(rows.into_iter().map(|(_, l)| l));
            Paragraph::new(lines).render(below.inner(Margin::new(1, 0)), buf);
        }
    }
}

impl HttpView {
    /// True when any variant of `test` was loaded at offered rates.
    pub fn has_rates(&self) -> bool {
        self.cells.iter().any(|c| !c.rates.is_empty())
    }

    /// Latency against offered rate for request `test`, the variant `chosen` in bold and
    /// its rates listed beside the chart.
    pub fn render_rates(&self, test: &str, chosen: Option<&str>, area: Rect, buf: &mut Buffer) {
        let cells = self.of_test(test);
        let slo = cells
            .iter()
            .find_map(|c| c.knee.as_ref().map(|k| k.slo_p99_ms));
        let block = pane_block(
            &format!(
                "{test}: corrected p99 vs offered rate{}  (v: next view)",
                slo.map(|s| format!(", SLO {}", format_ns(s * 1e6)))
                    .unwrap_or_default()
            ),
            false,
        );
        let inner = block.inner(area);
        block.render(area, buf);
        let series: Vec<Series> = cells
            .iter()
            .enumerate()
            .filter(|(_, c)| c.failure.is_none())
            .map(|(i, c)| {
                let pts = c
                    .rates
                    .iter()
                    .filter_map(|r| Some((f64::from(r.offered).log10(), r.p99_ns()?.log10())))
                    .collect();
                (i, c, pts)
            })
            .filter(|(_, _, pts): &Series| !pts.is_empty())
            .collect();
        if series.is_empty() || inner.height < 6 || inner.width < 30 {
            Paragraph::new("no offered rates in this run (wasmeter run --rates 1000,5000,…)")
                .render(inner, buf);
            return;
        }
        let xs = series.iter().flat_map(|s| s.2.iter().map(|p| p.0));
        let ys = series
            .iter()
            .flat_map(|s| s.2.iter().map(|p| p.1))
            .chain(slo.map(|s| (s * 1e6).log10()));
        let bounds = |v: Vec<f64>| {
            let (a, b) = v
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                    (a.min(*x), b.max(*x))
                });
            let pad = ((b - a) * 0.08).max(0.1);
            [a - pad, b + pad]
        };
        let (xb, yb) = (bounds(xs.collect()), bounds(ys.collect()));
        let [plot, side] =
            Layout::horizontal([Constraint::Min(0), Constraint::Length(44)]).areas(inner);
        let knees: Vec<Vec<(f64, f64)>> = series
            .iter()
            .map(|(_, c, _)| {
                let k = c.knee.as_ref().and_then(|k| k.rps);
                c.rates
                    .iter()
                    .filter(|r| Some(f64::from(r.offered)) == k)
                    .filter_map(|r| Some((f64::from(r.offered).log10(), r.p99_ns()?.log10())))
                    .collect()
            })
            .collect();
        let slo_line: Vec<(f64, f64)> = slo
            .map(|s| vec![(xb[0], (s * 1e6).log10()), (xb[1], (s * 1e6).log10())])
            .unwrap_or_default();
        let mut datasets: Vec<Dataset> = vec![
            Dataset::default()
                .marker(Marker::Braille)
                .graph_type(GraphType::Line)
                .style(Style::default().fg(Color::Red))
                .data(&slo_line),
        ];
        for ((i, c, pts), knee) in series.iter().zip(&knees) {
            let mut style = Style::default().fg(color(*i));
            if Some(c.runtime.as_str()) == chosen {
                style = style.add_modifier(Modifier::BOLD);
            }
            datasets.push(
                Dataset::default()
                    .marker(Marker::Braille)
                    .graph_type(GraphType::Line)
                    .style(style)
                    .data(pts),
            );
            // The knee: a block on the line.
            datasets.push(
                Dataset::default()
                    .marker(Marker::Block)
                    .graph_type(GraphType::Scatter)
                    .style(style)
                    .data(knee),
            );
        }
        // Labels evenly spaced on a log axis are the powers at those places.
        let labels = |b: [f64; 2], f: &dyn Fn(f64) -> String| -> Vec<String> {
            (0..3)
                .map(|k| f(10f64.powf(b[0] + (b[1] - b[0]) * k as f64 / 2.0)))
                .collect()
        };
        let dim = Style::default().fg(Color::DarkGray);
        Chart::new(datasets)
            .x_axis(
                Axis::default()
                    .title(Line::styled("offered requests/s (log)", dim))
                    .bounds(xb)
                    .labels(labels(xb, &format_rate))
                    .style(dim),
            )
            .y_axis(
                Axis::default()
                    .title(Line::styled("p99, corrected (log)", dim))
                    .bounds(yb)
                    .labels(labels(yb, &format_ns))
                    .style(dim),
            )
            .render(plot, buf);
        let mut lines: Vec<Line> = series
            .iter()
            .map(|(i, c, _)| {
                let mut style = Style::default().fg(color(*i));
                if Some(c.runtime.as_str()) == chosen {
                    style = style.add_modifier(Modifier::BOLD);
                }
                let knee = c.knee.as_ref().map(|k| k.label()).unwrap_or_default();
                Line::from(vec![
                    Span::styled(format!("━ {:<20}", clip(&c.runtime, 20)), style),
                    Span::raw(format!(" knee {knee}")),
                ])
            })
            .collect();
        if let Some((_, c, _)) = series
            .iter()
            .find(|(_, c, _)| Some(c.runtime.as_str()) == chosen)
        {
            lines.push(Line::raw(""));
            lines.push(Line::styled(
                format!(
                    "{:>8} {:>8} {:>9} {:>9}",
                    "offered", "achieved", "p99", "uncorr."
                ),
                dim,
            ));
            for r in &c.rates {
                let verdict = match r.generator_bound_rps {
                    Some(_) => Span::styled(" gen", Style::default().fg(Color::Yellow)),
                    None if r.met_slo => Span::styled(" ok", Style::default().fg(Color::Green)),
                    None => Span::styled(" ✗", Style::default().fg(Color::Red)),
                };
                lines.push(Line::from(vec![
                    Span::raw(format!(
                        "{:>8} {:>8} {:>9} {:>9}",
                        format_rate(f64::from(r.offered)),
                        r.achieved.map(format_rate).unwrap_or_default(),
                        r.p99_ns().map(format_ns).unwrap_or_default(),
                        r.uncorrected_ns[2].map(format_ns).unwrap_or_default(),
                    )),
                    verdict,
                ]));
            }
        }
        Paragraph::new(lines).render(side.inner(Margin::new(1, 0)), buf);
    }
}
