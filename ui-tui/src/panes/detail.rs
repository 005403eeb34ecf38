//! Run detail: the runtime × test matrix coloured by speed relative to the baseline, each
//! cell with its noise (± half-width of the typical value's 95 % interval: how far the true
//! value may lie from it), partial cells of an interrupted run marked, the geomean naming
//! how many tests it covers, and a line on the selected cell (why it has no relative
//! value, if it has none); below, for the selected cell its distribution, the run's
//! resource graph, or the phases. For a
//! lifecycle run the matrix holds instantiation times, the phases are its measurements, and
//! one more view shows a measurement against initial heap size (dense and sparse lines).
//! For an HTTP run the matrix holds median latencies over one connection, and the first
//! view is the selected request's variants under load ([`super::http`]). The phases,
//! measurements and heap views draw core's tables ([`wasmeter_core::table`]), the cells
//! `wasmeter show` prints.

use super::features::FeaturesView;
use super::http::HttpView;
use super::sweep::render_sweep;
use super::{aligned, clip, header_row, pane_block, rel_color, rel_style};
use crate::component::{
    Action, Component, InRun, edit_filter, filter_keeps, filter_label, movement, step,
};
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Row, Table, Widget};
use wasmeter_core::analysis::{
    CellSummary, HeapSeries, Index, MEASURES, RunSummary, RuntimeSummary, Sweep, Unit, cell_sizes,
    heap_series, run_headline, summarize, sweep,
};
use wasmeter_core::explain::{ExplainOptions, Explanation, explain};
use wasmeter_core::features::Matrix;
use wasmeter_core::format::{FAILED, MISSING, format_bytes, format_ns, format_time, format_value};
use wasmeter_core::history::HistoryQuery;
use wasmeter_core::store::SavedRun;
use wasmeter_core::table::{
    Table as CellTable, explain_table, heap_table, module_table, phases_table, sizes_tables,
};
use wasmeter_core::table::{format_cell, format_geomean};

/// What the lower half shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Distribution of the selected cell's iterations.
    Distribution,
    /// CPU and RSS of the whole run.
    Resources,
    /// Median of each phase for the selected test, per runtime.
    Phases,
    /// Lifecycle runs: every operation of the selected module, per runtime.
    Operations,
    /// Lifecycle runs: a measurement against heap size, per runtime and fill.
    Heap,
    /// HTTP runs: the selected request's variants, requests/s against connections, and
    /// failures.
    Http,
    /// HTTP runs with offered rates: latency against offered rate and the knees.
    Rates,
    /// Runs of prebuilt or given programs: module, native and compiled sizes, and each
    /// cell's peak memory.
    Sizes,
    /// Runs with a sweep (`run --set`): the selected test's parameter scan.
    Sweep,
    /// Profiled runs (`run --profile`): where the selected cell's runtime spends its time,
    /// function by function, beside the baseline (core's explanation).
    Profile,
}

/// State of the run-detail pane.
#[derive(Debug)]
pub struct DetailPane {
    /// The run.
    pub run: SavedRun,
    /// Its summary.
    pub summary: RunSummary,
    /// Selected test (row).
    pub row: usize,
    /// Selected runtime (column).
    pub col: usize,
    /// Lower half.
    pub view: View,
    /// Measurement shown against heap size (index into `MEASURES`).
    pub measure: usize,
    /// Lifecycle run: each measurement against heap size, per runtime and fill.
    heap: Vec<HeapSeries>,
    /// HTTP run: every variant × request under load.
    http: HttpView,
    /// The size tables (none for runs without module sizes).
    sizes: Vec<CellTable>,
    /// A run of the features suite: shown as its support grid instead of times.
    features: Option<FeaturesView>,
    /// The run's sweep, when its runtimes are one engine at several settings.
    sweep: Option<Sweep>,
    /// A profiled run's explanation, or why it cannot be read.
    profile: Option<Result<Explanation, String>>,
    /// The profile view shows every runtime, not only the selected one and the baseline.
    profile_all: bool,
    /// Core's one sentence about the run, shown first (as `wasmeter show` prints it).
    headline: String,
    /// Words a test's name must hold to be shown in the matrix (`/`).
    pub filter: String,
    /// True while typing the filter.
    pub editing: bool,
    /// The runtime column (`p`) or test row (`P`) marked as the first arm of a paired diff
    /// inside the run; the second press on another opens it.
    pub marked: Option<(InRun, String)>,
}

impl DetailPane {
    /// Opens a loaded run.
    pub fn new(run: SavedRun) -> DetailPane {
        let summary = summarize(&run, None);
        let is_http = run
            .meta
            .suite_kind
            .shape()
            .has(wasmeter_core::model::View::Requests);
        let sizes = sizes_tables(&run.meta.tests, &summary.runtimes, &cell_sizes(&run));
        let features = Matrix::from_run(&run)
            .ok()
            .map(|m| FeaturesView::new(m, run.dir.clone()));
        let sweep = sweep(&run, &summary);
        let profile = run
            .meta
            .settings
            .profile
            .map(|_| explain(&run, &ExplainOptions::default()).map_err(|e| e.to_string()));
        let mut pane = DetailPane {
            headline: run_headline(&summary),
            view: View::Distribution,
            sweep,
            profile,
            profile_all: false,
            features,
            sizes,
            heap: heap_series(&summary),
            http: if is_http {
                HttpView::new(&run, &summary.baseline)
            } else {
                HttpView::default()
            },
            run,
            summary,
            row: 0,
            col: 0,
            filter: String::new(),
            editing: false,
            marked: None,
            measure: MEASURES
                .iter()
                .position(|m| m.key == "instantiate")
                .unwrap_or(0),
        };
        // The sweep or the profile first when the run has one, else the kind's first view.
        let views = pane.views();
        pane.view = [View::Sweep, View::Profile]
            .into_iter()
            .find(|v| views.contains(v))
            .or(views.first().copied())
            .unwrap_or(View::Distribution);
        pane
    }

    /// The lower half's views of this run in the order `v` steps through them: those of
    /// its kind's views ([`wasmeter_core::model::SuiteShape::views`]) this pane draws and
    /// the run has data for, then the sweep and the profile when the run has them.
    fn views(&self) -> Vec<View> {
        use wasmeter_core::model::View as Kind;
        let mut out = Vec::new();
        for v in self.run.meta.suite_kind.shape().views {
            match v.view {
                Kind::Requests => {
                    out.push(View::Http);
                    if self.http.has_rates() {
                        out.push(View::Rates);
                    }
                }
                Kind::Distribution => out.push(View::Distribution),
                Kind::Resources => out.push(View::Resources),
                Kind::Phases => out.push(View::Phases),
                Kind::Sizes if !self.sizes.is_empty() => out.push(View::Sizes),
                Kind::Operations => out.push(View::Operations),
                Kind::Heap => out.push(View::Heap),
                // The matrix is the upper half; paired diffs open from marks (`p`, `P`);
                // the start-up corrected figures are in the selected cell's line; a run
                // without module sizes has no sizes view.
                Kind::Matrix | Kind::StartupCorrected | Kind::Paired | Kind::Sizes => {}
            }
        }
        if self.sweep.is_some() {
            out.push(View::Sweep);
        }
        if self.profile.is_some() {
            out.push(View::Profile);
        }
        out
    }

    /// Indices of the tests the matrix shows: those whose name holds every word of the
    /// filter (any case), in the run's order.
    pub fn shown_tests(&self) -> Vec<usize> {
        (0..self.summary.tests.len())
            .filter(|&i| filter_keeps(&self.filter, &self.summary.tests[i]))
            .collect()
    }

    /// Moves the selected test within the shown ones (onto the first when it is hidden).
    fn move_row(&mut self, down: bool, by: usize) {
        let shown = self.shown_tests();
        let at = shown.iter().position(|&i| i == self.row);
        let next = match at {
            Some(p) => step(p, shown.len(), down, by),
            None => 0,
        };
        if let Some(&i) = shown.get(next) {
            self.row = i;
        }
    }

    /// Marks the selected runtime (or test) as an arm of a paired diff; with one already
    /// marked of the same kind, opens the diff of the two.
    fn mark(&mut self, kind: InRun) -> Action {
        let Some((rt, test)) = self.selected() else {
            return Action::Message("no cell selected".into());
        };
        let (this, what) = match kind {
            InRun::Runtimes => (rt.to_string(), "runtime column"),
            InRun::Tests => (test.to_string(), "test row"),
        };
        match self.marked.take() {
            Some((k, a)) if k == kind && a != this => {
                Action::DiffInRun(self.run.dir.clone(), kind, a, this)
            }
            Some((k, a)) if k == kind && a == this => Action::Info(format!("{a} unmarked")),
            _ => {
                let key = if kind == InRun::Runtimes { "p" } else { "P" };
                let info = format!(
                    "{this} marked: select another {what} and press {key} for their paired diff (Esc unmarks)"
                );
                self.marked = Some((kind, this));
                Action::Info(info)
            }
        }
    }

    fn selected(&self) -> Option<(&str, &str)> {
        Some((
            self.summary.runtimes.get(self.col)?.as_str(),
            self.summary.tests.get(self.row)?.as_str(),
        ))
    }

    fn render_matrix(&self, area: Rect, buf: &mut Buffer, focused: bool) {
        let s = &self.summary;
        let shape = self.run.meta.suite_kind.shape();
        let against = if shape.baseline {
            format!(" × {}", s.baseline)
        } else {
            String::new()
        };
        let title = format!(
            "Matrix: typical {}{against} (lower is faster)",
            shape.measure
        );
        let block = pane_block(&title, focused);
        let inner = block.inner(area);
        block.render(area, buf);
        let [inner, about] =
            Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(inner);
        self.render_selected(about, buf);
        // Wide enough for the lifecycle suite's names (heap-256k-sparse); compute's fit in 14.
        let longest = s.tests.iter().map(|t| t.chars().count()).max().unwrap_or(0);
        let test_w = (longest as u16).clamp(14, 18);
        let n = s.runtimes.len().max(1) as u16;
        let col_w = (inner.width.saturating_sub(test_w) / n)
            .saturating_sub(1)
            .clamp(9, 24);
        let fit = ((inner.width.saturating_sub(test_w + 1)) / (col_w + 1)).max(1) as usize;
        let col_off = self.col.saturating_sub(fit - 1);
        let cols: Vec<usize> = (col_off..s.runtimes.len()).take(fit).collect();
        let mut header = vec![Line::from("test")];
        header.extend(
            cols.iter()
                .map(|&c| Line::from(clip(&s.runtimes[c], col_w as usize)).right_aligned()),
        );
        let height = inner.height.saturating_sub(2) as usize;
        let tests = self.shown_tests();
        let at = tests.iter().position(|&i| i == self.row).unwrap_or(0);
        let row_off = at.saturating_sub(height.saturating_sub(1));
        let filtered = filter_label(&self.filter, self.editing)
            .map(|f| format!(" {f} ·"))
            .unwrap_or_default();
        if tests.len() > height || !filtered.is_empty() {
            let shown = height.min(tests.len().saturating_sub(row_off));
            let what = if tests.is_empty() {
                format!(
                    "{filtered} no test of {} matches (Esc clears) ",
                    s.tests.len()
                )
            } else {
                format!(
                    "{filtered} tests {}–{} of {} (↑↓) ",
                    row_off + 1,
                    row_off + shown,
                    tests.len()
                )
            };
            let x = area.right().saturating_sub(what.chars().count() as u16 + 1);
            buf.set_string(x, area.y, what, Style::default().fg(Color::Yellow));
        }
        let mut rows: Vec<Row> = tests
            .iter()
            .map(|&ti| (ti, &s.tests[ti]))
            .skip(row_off)
            .take(height)
            .map(|(ti, t)| {
                let mut cells = vec![Line::from(clip(t, test_w as usize))];
                // One form of text per row: every cell compact when one's full text does
                // not fit, so a row never mixes the two.
                let compact = cols.iter().any(|&c| {
                    s.cell(&s.runtimes[c], t)
                        .is_some_and(|cell| !full_fits(cell, col_w as usize))
                });
                for &c in &cols {
                    let (text, style) = match s.cell(&s.runtimes[c], t) {
                        Some(cell) => matrix_text(cell, col_w as usize, compact),
                        None => (MISSING.into(), Style::default().fg(Color::DarkGray)),
                    };
                    let style = if focused && ti == self.row && c == self.col {
                        style.add_modifier(Modifier::REVERSED)
                    } else {
                        style
                    };
                    cells.push(Line::styled(text, style).right_aligned());
                }
                Row::new(cells)
            })
            .collect();
        let mut g = vec![Line::styled(
            "geomean",
            Style::default().add_modifier(Modifier::BOLD),
        )];
        for &c in &cols {
            g.push(match s.per_runtime.get(c) {
                Some(r) => geomean_line(r, col_w as usize),
                None => Line::from(MISSING).right_aligned(),
            });
        }
        if shape.baseline {
            rows.push(Row::new(g));
        }
        let mut widths = vec![Constraint::Length(test_w)];
        widths.extend(cols.iter().map(|_| Constraint::Length(col_w)));
        Table::new(rows, widths)
            .header(Row::new(header).style(Style::default().add_modifier(Modifier::BOLD)))
            .render(inner, buf);
    }

    /// One line on the selected cell: its figures as every front end writes them, the
    /// invocations and values they come from, and why it has no relative value.
    fn render_selected(&self, area: Rect, buf: &mut Buffer) {
        let Some((rt, test)) = self.selected() else {
            return;
        };
        let Some(c) = self.summary.cell(rt, test) else {
            return;
        };
        let dim = Style::default().fg(Color::DarkGray);
        let mut spans = vec![
            Span::styled(format!("{rt} × {test}: "), dim),
            Span::raw(match &c.failure {
                Some(f) => format!("failed: {f}"),
                None => format_cell(c),
            }),
        ];
        if let Some(st) = c.stats {
            spans.push(Span::styled(
                format!(
                    " · {} value{} from {} invocation{}",
                    st.n,
                    if st.n == 1 { "" } else { "s" },
                    c.invocations,
                    if c.invocations == 1 { "" } else { "s" }
                ),
                dim,
            ));
        }
        if let Some(note) = &c.note {
            spans.push(Span::styled(
                format!(" · {note}"),
                Style::default().fg(Color::Yellow),
            ));
        }
        Paragraph::new(Line::from(spans)).render(area, buf);
    }

    fn render_distribution(&self, area: Rect, buf: &mut Buffer) {
        let Some((rt, test)) = self.selected() else {
            return;
        };
        let block = pane_block(
            &format!("Distribution: {rt} × {test}  (v: next view)"),
            false,
        );
        let inner = block.inner(area);
        block.render(area, buf);
        let cell = self.summary.cell(rt, test);
        if let Some(f) = cell.and_then(|c| c.failure.as_ref()) {
            Paragraph::new(format!("failed: {f}"))
                .style(Style::default().fg(Color::Red))
                .render(inner, buf);
            return;
        }
        let index = Index::new(&self.run.measurements);
        let Some((values, source, _)) = index.primary(rt, test) else {
            Paragraph::new("no measurements").render(inner, buf);
            return;
        };
        let values = values.values;
        let mut lines = Vec::new();
        if let Some(st) = cell.and_then(|c| c.stats) {
            let ci = match (st.ci_low, st.ci_high) {
                (Some(l), Some(h)) => format!(" [{} – {}]", format_ns(l), format_ns(h)),
                _ => String::new(),
            };
            lines.push(Line::from(format!(
                "n {} ({source}) · median {}{ci} · mean {} ± {} · min {} · max {}",
                st.n,
                format_ns(st.median),
                format_ns(st.mean),
                format_ns(st.stddev),
                format_ns(st.min),
                format_ns(st.max)
            )));
        }
        let bins = (inner.height.saturating_sub(1) as usize)
            .clamp(1, 8)
            .min(values.len());
        let (lo, hi) = values
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(*v), b.max(*v))
            });
        let mut counts = vec![0usize; bins];
        let width = (hi - lo).max(f64::MIN_POSITIVE);
        for v in values {
            let i = (((v - lo) / width) * bins as f64) as usize;
            counts[i.min(bins - 1)] += 1;
        }
        let maxc = counts.iter().copied().max().unwrap_or(1).max(1);
        let bar_w = (inner.width as usize).saturating_sub(28).max(4);
        for (i, c) in counts.iter().enumerate() {
            let from = lo + width * i as f64 / bins as f64;
            let to = lo + width * (i + 1) as f64 / bins as f64;
            lines.push(Line::from(vec![
                Span::raw(format!("{:>9} – {:<9} ", format_ns(from), format_ns(to))),
                Span::styled(
                    super::bar(*c as f64, maxc as f64, bar_w),
                    Style::default().fg(Color::Cyan),
                ),
                Span::raw(format!(" {c}")),
            ]));
        }
        Paragraph::new(lines).render(inner, buf);
    }

    fn render_resources(&self, area: Rect, buf: &mut Buffer) {
        let samples = &self.run.samples;
        let peak = samples.iter().map(|s| s.rss_bytes).max().unwrap_or(0);
        let mean_cpu = if samples.is_empty() {
            0.0
        } else {
            samples.iter().map(|s| s.cpu_pct as f64).sum::<f64>() / samples.len() as f64
        };
        let [cpu, rss] =
            Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(area);
        let cpu_block = pane_block(
            &format!(
                "Resources: CPU of the workers, mean {mean_cpu:.0} % ({} samples)  (v: next view)",
                samples.len()
            ),
            false,
        );
        let rss_block = pane_block(&format!("RSS, peak {}", format_bytes(peak as f64)), false);
        let w = cpu_block.inner(cpu).width.max(1) as usize;
        // Fit the whole run to the width: the peak of each bucket, or each sample widened.
        let bucket = samples.len().div_ceil(w).max(1);
        let widen = if samples.is_empty() {
            1
        } else {
            (w / samples.len()).max(1)
        };
        let fit = |f: &dyn Fn(&wasmeter_core::store::SampleRow) -> u64| -> Vec<u64> {
            samples
                .chunks(bucket)
                .map(|c| c.iter().map(f).max().unwrap_or(0))
                .flat_map(|v| std::iter::repeat_n(v, widen))
                .collect()
        };
        let cpu_data = fit(&|s| s.cpu_pct.round().max(0.0) as u64);
        let rss_data = fit(&|s| s.rss_bytes >> 10);
        super::resource_sparklines(
            (cpu_block, cpu, &cpu_data),
            (rss_block, rss, &rss_data),
            buf,
        );
    }

    fn render_phases(&self, area: Rect, buf: &mut Buffer) {
        let Some((_, test)) = self.selected() else {
            return;
        };
        let block = pane_block(
            &format!("Phases of {test}: median wall time per phase  (v: next view)"),
            false,
        );
        let t = phases_table(&self.summary, Some(test));
        let widths = fitted_widths(&t, 18, 11, 11);
        let rows = t.rows.iter().map(|r| {
            Row::new(
                r.iter()
                    .zip(&t.columns)
                    .enumerate()
                    .map(|(i, (c, column))| {
                        if i == 0 {
                            aligned(column, clip(c, 18))
                        } else if c == FAILED {
                            aligned(column, c.clone()).style(failed_style())
                        } else {
                            aligned(column, c.clone())
                        }
                    })
                    .collect::<Vec<_>>(),
            )
        });
        Table::new(rows, widths)
            .header(header_row(&t.columns))
            .block(block)
            .render(area, buf);
    }

    /// Profiled runs: the selected test's functions for the selected runtime and the
    /// baseline (every runtime with `a`), as core's table, its notes under it.
    fn render_profile(&self, area: Rect, buf: &mut Buffer) {
        let Some((rt, test)) = self.selected() else {
            return;
        };
        let e = match &self.profile {
            Some(Ok(e)) => e,
            Some(Err(why)) => {
                Paragraph::new(why.as_str())
                    .style(failed_style())
                    .block(pane_block("Profile  (v: next view)", false))
                    .render(area, buf);
                return;
            }
            None => return,
        };
        let Some(t) = e.tests.iter().find(|t| t.test == test) else {
            Paragraph::new(format!("{test} has no profile in this run"))
                .block(pane_block("Profile  (v: next view)", false))
                .render(area, buf);
            return;
        };
        let shown = if self.profile_all {
            t.clone()
        } else {
            t.only(&[e.baseline.as_str(), rt])
        };
        let rows_room = area.height.saturating_sub(9) as usize;
        let ct = explain_table(
            &shown,
            &e.baseline,
            rows_room.saturating_sub(shown.outside.len() + 1).max(3),
        );
        let title = format!(
            "Profile: {}  (a: {}, v: next view)",
            ct.title.clone().unwrap_or_default(),
            if self.profile_all {
                "selected vs baseline"
            } else {
                "all runtimes"
            }
        );
        // What the selected runtime's hottest functions did, counted (core's words).
        let column = shown.runtimes.iter().position(|c| c.runtime == rt);
        let causes: Vec<Line> = column
            .map(|k| {
                shown
                    .functions
                    .iter()
                    .filter_map(|f| {
                        let c = f.causes.get(k)?.as_ref()?;
                        (!c.said.is_empty()).then(|| {
                            Line::from(vec![
                                Span::styled(format!("{}: ", f.name), Style::default().bold()),
                                Span::raw(c.said.clone()),
                            ])
                        })
                    })
                    .take(3)
                    .collect()
            })
            .unwrap_or_default();
        let notes = (ct.notes.len() as u16).min(4);
        let parts = Layout::vertical([
            Constraint::Min(4),
            Constraint::Length(causes.len() as u16),
            Constraint::Length(notes),
        ])
        .split(area);
        Paragraph::new(causes).render(parts[1], buf);
        let widths = fitted_widths(&ct, 26, 7, 24);
        let rows = ct.rows.iter().chain(&ct.footer).map(|r| {
            Row::new(
                r.iter()
                    .zip(&ct.columns)
                    .enumerate()
                    .map(|(i, (c, column))| {
                        if i == 0 {
                            aligned(column, clip(c, 26))
                        } else {
                            aligned(column, c.clone())
                        }
                    })
                    .collect::<Vec<_>>(),
            )
        });
        Table::new(rows, widths)
            .header(header_row(&ct.columns))
            .block(pane_block(&title, false))
            .render(parts[0], buf);
        let lines: Vec<Line> = ct
            .notes
            .iter()
            .take(notes as usize)
            .map(|n| Line::styled(n.clone(), Style::default().fg(Color::DarkGray)))
            .collect();
        Paragraph::new(lines)
            .wrap(ratatui::widgets::Wrap { trim: true })
            .render(parts[2], buf);
    }

    /// The size tables stacked: each program's module, native build and compiled
    /// artifacts, then each cell's peak memory.
    fn render_sizes(&self, area: Rect, buf: &mut Buffer) {
        let heights: Vec<Constraint> = self
            .sizes
            .iter()
            .map(|t| Constraint::Length(t.rows.len() as u16 + 3))
            .collect();
        let parts = Layout::vertical(heights).split(area);
        let titles = [
            "Sizes: module, native build (same sources), compiled artifact per engine  (v: next view)",
            "Peak resident memory per cell (native, CLIs: the program's process; embedded: the worker)",
        ];
        for ((t, part), title) in self.sizes.iter().zip(parts.iter()).zip(titles) {
            let widths = fitted_widths(t, 12, 9, 26);
            let rows = t.rows.iter().map(|r| {
                Row::new(
                    r.iter()
                        .zip(&t.columns)
                        .map(|(c, column)| aligned(column, c.clone()))
                        .collect::<Vec<_>>(),
                )
            });
            Table::new(rows, widths)
                .header(header_row(&t.columns))
                .block(pane_block(title, false))
                .render(*part, buf);
        }
    }

    /// HTTP: the selected request's variants under load.
    fn render_http(&self, area: Rect, buf: &mut Buffer) {
        let Some((rt, test)) = self.selected() else {
            return;
        };
        self.http.render(test, Some(rt), area, buf);
    }

    /// Lifecycle: every measurement of the selected module, runtimes across (scrolled so
    /// the selected one is in view).
    fn render_measures(&self, test: &str, area: Rect, buf: &mut Buffer) {
        let block = pane_block(
            &format!("Measurements of {test}: median (p99) per operation  (v: next view)"),
            false,
        );
        let t = module_table(&self.summary, test);
        let inner_w = area.width.saturating_sub(2);
        let all = fitted_widths(&t, 18, 9, 21);
        let value_w = all.iter().skip(1).max().copied().unwrap_or(9);
        let fit = (inner_w.saturating_sub(all[0] + 2) / (value_w + 2)).max(1) as usize;
        let first = 1 + self.col.saturating_sub(fit - 1);
        let cols: Vec<usize> = std::iter::once(0)
            .chain((first..t.columns.len()).take(fit))
            .collect();
        let rows = t.rows.iter().map(|r| {
            Row::new(
                cols.iter()
                    .map(|&i| {
                        let c = &r[i];
                        if i == 0 {
                            aligned(&t.columns[0], c.clone())
                        } else if c == FAILED {
                            aligned(&t.columns[i], c.clone()).style(failed_style())
                        } else {
                            aligned(&t.columns[i], c.clone())
                        }
                    })
                    .collect::<Vec<_>>(),
            )
        });
        let widths: Vec<Constraint> = cols
            .iter()
            .map(|&i| Constraint::Length(if i == 0 { all[0] } else { value_w }))
            .collect();
        // Two spaces between columns, as `wasmeter show` has them: each cell is two figures.
        Table::new(rows, widths)
            .header(header_row(cols.iter().map(|&i| &t.columns[i])))
            .column_spacing(2)
            .block(block)
            .render(area, buf);
    }

    /// Lifecycle: one measurement against initial heap size, a line per runtime and fill
    /// (the selected runtime's in bold).
    fn render_heap(&self, area: Rect, buf: &mut Buffer) {
        let m = MEASURES[self.measure % MEASURES.len()];
        let block = pane_block(
            &format!(
                "{} vs initial heap: median (p99) per operation  (m: next measurement · v: next view)",
                m.label
            ),
            false,
        );
        let Some(t) = heap_table(&self.summary, &self.heap, &m) else {
            let inner = block.inner(area);
            block.render(area, buf);
            Paragraph::new("no heap modules measured in this run").render(inner, buf);
            return;
        };
        // The table's rows are the measurement's series, in order.
        let lines: Vec<&HeapSeries> = self.heap.iter().filter(|l| l.measure == m.key).collect();
        let chosen = self.selected().map(|(rt, _)| rt);
        let rows = t.rows.iter().zip(&lines).map(|(r, l)| {
            let row = Row::new(
                r.iter()
                    .zip(&t.columns)
                    .enumerate()
                    .map(|(i, (c, column))| {
                        aligned(column, if i == 0 { clip(c, 30) } else { c.clone() })
                    })
                    .collect::<Vec<_>>(),
            );
            if Some(l.runtime.as_str()) == chosen {
                row.style(Style::default().add_modifier(Modifier::BOLD))
            } else {
                row
            }
        });
        Table::new(rows, fitted_widths(&t, 30, 9, 21))
            .header(header_row(&t.columns))
            .column_spacing(2)
            .block(block)
            .render(area, buf);
    }
}

/// Widths of a core table's columns for a pane: each its widest cell, the first at most
/// `first_max`, the others between `min` and `max`.
fn fitted_widths(t: &CellTable, first_max: u16, min: u16, max: u16) -> Vec<u16> {
    t.widths()
        .into_iter()
        .enumerate()
        .map(|(i, w)| {
            let w = w as u16;
            if i == 0 {
                w.min(first_max)
            } else {
                w.clamp(min, max)
            }
        })
        .collect()
}

/// A failed cell in a table: red and bold.
fn failed_style() -> Style {
    Style::default().fg(Color::Red).add_modifier(Modifier::BOLD)
}

/// `3 invocations` (or `1 invocation`).
fn invocations(n: u32) -> String {
    format!("{n} invocation{}", if n == 1 { "" } else { "s" })
}

/// Whether a measured cell's full text ([`format_cell`]) fits `width` (a failed or empty
/// cell's word always does).
fn full_fits(c: &CellSummary, width: usize) -> bool {
    c.failure.is_some() || c.stats.is_none() || format_cell(c).chars().count() <= width
}

/// A matrix cell: the summary's text ([`format_cell`]) unless the row is `compact`, else its
/// relative value (or median) with the noise; partial cells and cells with a note in yellow.
fn matrix_text(c: &CellSummary, width: usize, compact: bool) -> (String, Style) {
    if c.failure.is_some() {
        return (FAILED.into(), failed_style());
    }
    let Some(st) = c.stats else {
        return (MISSING.into(), Style::default().fg(Color::DarkGray));
    };
    let style = match c.relative {
        _ if c.partial || c.note.is_some() => Style::default().fg(Color::Yellow),
        Some(r) => rel_style(r),
        None => Style::default(),
    };
    if !compact && full_fits(c, width) {
        return (format_cell(c), style);
    }
    let noise = c
        .halfwidth_pct
        .map(|h| format!(" ±{h:.1}%"))
        .unwrap_or_default();
    let mut text = match c.relative {
        Some(r) => format!("{r:.2}×{noise}"),
        None => format!("{}{noise}", format_value(Unit::Ns, st.median)),
    };
    if c.partial {
        text.push_str(" p");
    }
    (text, style)
}

/// Rows the views under the matrix (distribution, resources, phases) keep at the least.
const LOWER_MIN: u16 = 10;

/// A runtime's geomean under the matrix, naming the tests it covers when not all
/// ([`format_geomean`], shortened to `1.23× 2/3` when narrow).
fn geomean_line(r: &RuntimeSummary, width: usize) -> Line<'static> {
    let Some(v) = r.geomean_relative else {
        return Line::from(MISSING).right_aligned();
    };
    let full = format_geomean(r);
    let text = if full.chars().count() <= width {
        full
    } else {
        format!("{v:.2}× {}/{}", r.tests_compared, r.tests_total)
    };
    let partial = r.tests_total > 0 && r.tests_compared < r.tests_total;
    let style = Style::default()
        .fg(if partial { Color::Yellow } else { rel_color(v) })
        .add_modifier(Modifier::BOLD);
    Line::styled(text, style).right_aligned()
}

impl Component for DetailPane {
    fn render(&self, area: Rect, buf: &mut Buffer, focused: bool) {
        if let Some(f) = &self.features {
            return f.render(area, buf, focused);
        }
        let m = &self.run.meta;
        // The matrix gets the rows it needs (borders, header, geomean and the selected
        // cell's line around the tests): half the screen, or more while the views below
        // keep `LOWER_MIN`; past that it scrolls, and its title says which tests it shows.
        let most = (area.height / 2)
            .max(area.height.saturating_sub(2 + LOWER_MIN))
            .max(6);
        let matrix_h = (self.summary.tests.len() as u16 + 5).clamp(6, most);
        let [head, matrix, lower] = Layout::vertical([
            Constraint::Length(3),
            Constraint::Length(matrix_h),
            Constraint::Min(6),
        ])
        .areas(area);
        let label = m
            .label
            .as_ref()
            .map(|l| format!(" \"{l}\""))
            .unwrap_or_default();
        Paragraph::new(vec![
            Line::from(Span::styled(
                self.headline.as_str(),
                Style::default().add_modifier(Modifier::BOLD),
            )),
            Line::from(vec![
                Span::styled(
                    format!("{}{label}", m.id),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
                Span::raw(format!(
                    " · suite {} ({}) · {}",
                    m.suite,
                    match &m.settings.http {
                        Some(h) => format!(
                            "connections {}, {} s per level, latency {} s",
                            h.levels
                                .iter()
                                .map(|l| l.to_string())
                                .collect::<Vec<_>>()
                                .join(" "),
                            h.duration_ms as f64 / 1000.0,
                            h.latency_ms as f64 / 1000.0
                        ),
                        None => m.size_label(),
                    },
                    m.status,
                )),
            ]),
            Line::from(vec![
                Span::styled(
                    format!(
                        "{} × ({} warm-up + {} runs), {} · started {} UTC on {} ({} cores), {}",
                        invocations(m.settings.invocations),
                        m.settings.warmup,
                        m.settings.runs,
                        m.settings.order,
                        format_time(m.started_unix),
                        m.machine.cpu_model,
                        m.machine.cores,
                        m.machine.os
                    ),
                    Style::default().fg(Color::DarkGray),
                ),
                match self.summary.load {
                    Some(l) if l.busy => Span::styled(
                        format!(
                            " · busy: other processes took {:.2} cores, a diff gives no verdicts",
                            l.other_cores
                        ),
                        Style::default().fg(Color::Yellow),
                    ),
                    Some(l) => Span::styled(
                        format!(" · other processes {:.2} cores", l.other_cores),
                        Style::default().fg(Color::DarkGray),
                    ),
                    None => Span::raw(""),
                },
            ]),
        ])
        .render(head, buf);
        self.render_matrix(matrix, buf, focused);
        match self.view {
            View::Distribution => self.render_distribution(lower, buf),
            View::Resources => self.render_resources(lower, buf),
            View::Phases => self.render_phases(lower, buf),
            View::Operations => {
                if let Some((_, test)) = self.selected() {
                    self.render_measures(test, lower, buf);
                }
            }
            View::Heap => self.render_heap(lower, buf),
            View::Http => self.render_http(lower, buf),
            View::Rates => {
                if let Some((rt, test)) = self.selected() {
                    self.http.render_rates(test, Some(rt), lower, buf);
                }
            }
            View::Sizes => self.render_sizes(lower, buf),
            View::Sweep => {
                if let (Some(s), Some((_, test))) = (&self.sweep, self.selected()) {
                    render_sweep(s, test, lower, buf);
                }
            }
            View::Profile => self.render_profile(lower, buf),
        }
    }

    fn on_key(&mut self, key: KeyEvent) -> Action {
        if let Some(f) = &mut self.features {
            return f.on_key(key);
        }
        if self.editing {
            edit_filter(&mut self.filter, &mut self.editing, &key);
            self.move_row(false, 0);
            return Action::None;
        }
        if let Some((down, by)) = movement(&key) {
            self.move_row(down, by);
            return Action::None;
        }
        match key.code {
            KeyCode::Char('/') => self.editing = true,
            KeyCode::Char('p') => return self.mark(InRun::Runtimes),
            KeyCode::Char('P') => return self.mark(InRun::Tests),
            KeyCode::Esc if self.marked.is_some() => self.marked = None,
            KeyCode::Esc if !self.filter.is_empty() => {
                self.filter.clear();
                self.move_row(false, 0);
            }
            KeyCode::Left | KeyCode::Char('h') => self.col = self.col.saturating_sub(1),
            KeyCode::Right | KeyCode::Char('l') => {
                self.col = step(self.col, self.summary.runtimes.len(), true, 1)
            }
            KeyCode::Char('v') => {
                let views = self.views();
                let at = views.iter().position(|v| *v == self.view);
                self.view = at
                    .and_then(|i| views.get((i + 1) % views.len()))
                    .or(views.first())
                    .copied()
                    .unwrap_or(View::Distribution);
            }
            KeyCode::Char('m') if self.views().contains(&View::Heap) => {
                self.measure = (self.measure + 1) % MEASURES.len();
                self.view = View::Heap;
            }
            KeyCode::Char('e') => return Action::Export(vec![self.run.dir.clone()]),
            KeyCode::Char('a') if self.profile.is_some() => {
                self.profile_all = !self.profile_all;
                self.view = View::Profile;
            }
            KeyCode::Char('H') => {
                let Some((rt, test)) = self.selected() else {
                    return Action::Message("no cell selected".into());
                };
                return Action::History(HistoryQuery {
                    suite: Some(self.run.meta.suite.clone()),
                    test: Some(test.to_string()),
                    runtime: Some(rt.to_string()),
                    ..HistoryQuery::default()
                });
            }
            _ => return Action::Ignored,
        }
        Action::None
    }

    fn hints(&self) -> Vec<(&'static str, &'static str)> {
        if let Some(f) = &self.features {
            return f.hints();
        }
        if self.editing {
            return vec![
                ("type", "filter tests"),
                ("enter", "done"),
                ("esc", "clear"),
            ];
        }
        let views = self.views();
        if views.contains(&View::Heap) {
            return vec![
                ("arrows", "cell"),
                ("/", "filter tests"),
                ("p/P", "paired diff"),
                ("v", "distribution/resources/measurements/heap"),
                ("m", "measurement vs heap"),
                ("H", "history"),
                ("e", "export"),
            ];
        }
        if views.contains(&View::Http) {
            return vec![
                ("arrows", "cell"),
                ("/", "filter tests"),
                ("p/P", "paired diff"),
                ("v", "variants/distribution/resources"),
                ("H", "history"),
                ("e", "export"),
            ];
        }
        if self.profile.is_some() {
            return vec![
                ("arrows", "cell (profile: its runtime vs the baseline)"),
                ("/", "filter tests"),
                ("p/P", "paired diff"),
                ("v", "profile/distribution/resources/phases"),
                ("a", "profile: all runtimes"),
                ("H", "history"),
                ("e", "export"),
            ];
        }
        vec![
            ("arrows", "cell"),
            ("/", "filter tests"),
            ("p/P", "paired diff"),
            ("v", "distribution/resources/phases"),
            ("H", "history"),
            ("e", "export"),
        ]
    }

    fn captures_input(&self) -> bool {
        self.features.is_none() && self.editing
    }
}
