//! The HTTP suites' tables as text cells, built once for every text-like front end (the
//! CLI, Markdown, the terminal UI): per request, a table of variants with cold start,
//! latency percentiles, best throughput, memory and CPU, then requests per second against
//! concurrency, where a saturated level reads `saturated (< 0.50/s)`: its bound, not a rate.

use super::{format_bytes, format_ns, format_rate};
use crate::analysis::{HttpCell, levels_of};

/// One table: a title, column names and rows of cells (first column text, rest numbers).
#[derive(Debug, Clone, PartialEq)]
pub struct TextTable {
    /// What the table shows.
    pub title: String,
    /// Column names.
    pub header: Vec<String>,
    /// Rows of formatted cells.
    pub rows: Vec<Vec<String>>,
}

fn or_dash(v: Option<String>) -> String {
    v.unwrap_or_else(|| "-".into())
}

/// A rate, with decimals below 10/s (a level that served one request in 2 s: `0.50/s`).
fn rate(r: f64) -> String {
    if r < 10.0 {
        format!("{r:.2}/s")
    } else {
        format_rate(r)
    }
}

/// Two tables per request (test): the overview and throughput by concurrency.
pub fn http_tables(cells: &[HttpCell], baseline: &str) -> Vec<TextTable> {
    let mut tests: Vec<&str> = Vec::new();
    for c in cells {
        if !tests.contains(&c.test.as_str()) {
            tests.push(&c.test);
        }
    }
    let levels = levels_of(cells);
    let mut out = Vec::new();
    for test in tests {
        let mine: Vec<&HttpCell> = cells.iter().filter(|c| c.test == test).collect();
        let header = [
            "variant",
            "cold start",
            "p50",
            "p90",
            "p99",
            "best rps (conns)",
            &format!("× {baseline}"),
            "peak RSS",
            "CPU/1k req",
        ]
        .map(String::from)
        .to_vec();
        let rows = mine
            .iter()
            .map(|c| {
                if c.failure.is_some() {
                    // The reason is long: front ends list it under the table.
                    let mut row = vec![c.runtime.clone(), "FAILED".into()];
                    row.resize(header.len(), String::new());
                    return row;
                }
                let best_level = c
                    .best
                    .and_then(|(lv, _)| c.levels.iter().find(|l| l.connections == lv));
                vec![
                    c.runtime.clone(),
                    or_dash(c.cold_start.as_ref().map(|s| format_ns(s.median))),
                    or_dash(c.p50_ns.map(format_ns)),
                    or_dash(c.p90_ns.map(format_ns)),
                    or_dash(c.p99_ns.map(format_ns)),
                    match (c.best, c.saturated.first()) {
                        (Some((lv, r)), _) => format!("{} ({lv})", rate(r)),
                        // Not one level served: the lowest one's bound says how slow.
                        (None, Some(s)) => format!("{} ({})", s.label(), s.connections),
                        (None, None) => "-".into(),
                    },
                    or_dash(c.best_vs_baseline.map(|x| format!("{x:.2}×"))),
                    or_dash(c.peak_rss_kib.map(|k| format_bytes(k * 1024.0))),
                    or_dash(best_level.and_then(|l| l.cpu_ns_per_1k).map(format_ns)),
                ]
            })
            .collect();
        out.push(TextTable {
            title: format!(
                "{test}: cold start, latency over one connection, best throughput (higher is better)"
            ),
            header,
            rows,
        });
        if levels.is_empty() {
            continue;
        }
        let mut header = vec!["requests/s by connections".to_string()];
        header.extend(levels.iter().map(|l| l.to_string()));
        let rows = mine
            .iter()
            .filter(|c| c.failure.is_none())
            .map(|c| {
                let mut row = vec![c.runtime.clone()];
                row.extend(levels.iter().map(|lv| {
                    if let Some(s) = c.saturated.iter().find(|s| s.connections == *lv) {
                        return s.label();
                    }
                    c.levels
                        .iter()
                        .find(|l| l.connections == *lv)
                        .map(|l| {
                            let mut notes = Vec::new();
                            if l.errors > 0.0 {
                                notes.push(format!("{} err", l.errors));
                            }
                            if l.saturated_iterations > 0 {
                                notes.push(format!(
                                    "saturated {} of {} runs",
                                    l.saturated_iterations,
                                    l.saturated_iterations + l.rps.n
                                ));
                            }
                            let notes = if notes.is_empty() {
                                String::new()
                            } else {
                                format!(" ({})", notes.join(", "))
                            };
                            format!("{}{notes}", rate(l.rps.median))
                        })
                        .unwrap_or_else(|| "-".into())
                }));
                row
            })
            .collect();
        let any_saturated = mine
            .iter()
            .any(|c| c.failure.is_none() && !c.saturated.is_empty());
        let saturated_note = if any_saturated {
            "; saturated: no request completed within the duration, so the rate was below 1 / duration"
        } else {
            ""
        };
        out.push(TextTable {
            title: format!(
                "{test}: requests per second (p50 latency under load in the JSON and HTML){saturated_note}"
            ),
            header,
            rows,
        });
    }
    out
}
