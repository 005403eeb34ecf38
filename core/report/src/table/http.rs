//! The HTTP suites' tables: per request, a table of variants with cold start, latency
//! percentiles, best throughput, memory and CPU, then requests per second against
//! concurrency, where a saturated level reads `saturated (< 0.50/s)`: its bound, not a rate;
//! then, for runs with offered rates, latency at each rate (corrected for coordinated
//! omission, uncorrected beside it) and each variant's knee.

use super::Table;
use crate::analysis::{HttpCell, RatePoint, levels_of};
use crate::format::{FAILED, MISSING, format_bytes, format_ns, format_rate};

fn or_dash(v: Option<String>) -> String {
    v.unwrap_or_else(|| MISSING.into())
}

/// Two tables per request (test): the overview and throughput by concurrency.
pub fn http_tables(cells: &[HttpCell], baseline: &str) -> Vec<Table> {
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
        let mut overview = Table::new(
            [
                "variant",
                "cold start",
                "p50",
                "p90",
                "p99",
                "best rps (conns)",
                &format!("× {baseline}"),
                "peak RSS",
                "CPU/1k req",
            ],
            1,
        )
        .titled(format!(
            "{test}: cold start, latency over one connection, best throughput (higher is better)"
        ));
        let columns = overview.columns.len();
        overview.rows = mine
            .iter()
            .map(|c| {
                if c.failure.is_some() {
                    // The reason is long: front ends list it under the table.
                    let mut row = vec![c.runtime.clone(), FAILED.into()];
                    row.resize(columns, String::new());
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
                        (Some((lv, r)), _) => format!("{} ({lv})", format_rate(r)),
                        // Not one level served: the lowest one's bound says how slow.
                        (None, Some(s)) => format!("{} ({})", s.label(), s.connections),
                        (None, None) => MISSING.into(),
                    },
                    or_dash(c.best_vs_baseline.map(|x| format!("{x:.2}×"))),
                    or_dash(c.peak_rss_kib.map(|k| format_bytes(k * 1024.0))),
                    or_dash(best_level.and_then(|l| l.cpu_ns_per_1k).map(format_ns)),
                ]
            })
            .collect();
        out.push(overview);
        out.extend(rate_tables(test, &mine));
        if levels.is_empty() {
            continue;
        }
        let mut by_level = Table::new(
            std::iter::once("requests/s by connections".to_string())
                .chain(levels.iter().map(|l| l.to_string())),
            1,
        );
        by_level.rows = mine
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
                            format!("{}{notes}", format_rate(l.rps.median))
                        })
                        .unwrap_or_else(|| MISSING.into())
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
        out.push(by_level.titled(format!(
            "{test}: requests per second (p50 latency under load in the JSON and HTML){saturated_note}"
        )));
    }
    out
}

/// Latency at each offered rate, and the knee of each variant; none without rates.
fn rate_tables(test: &str, mine: &[&HttpCell]) -> Vec<Table> {
    let served: Vec<&&HttpCell> = mine
        .iter()
        .filter(|c| c.failure.is_none() && !c.rates.is_empty())
        .collect();
    let Some(slo) = served
        .iter()
        .find_map(|c| c.knee.as_ref().map(|k| k.slo_p99_ms))
    else {
        return Vec::new();
    };
    let mut at_rate = Table::new(
        [
            "variant",
            "offered/s",
            "achieved/s",
            "p50",
            "p90",
            "p99",
            "p99.9",
            "uncorrected p50",
            "uncorrected p99",
            "errors",
            "SLO",
        ],
        2,
    )
    .titled(format!(
        "{test}: latency at offered rates, corrected for coordinated omission (lower is better); SLO p99 ≤ {}",
        crate::format::format_ns(slo * 1e6)
    ));
    let ns = |v: Option<f64>| or_dash(v.map(format_ns));
    for c in &served {
        for r in &c.rates {
            at_rate.rows.push(vec![
                c.runtime.clone(),
                format_rate(f64::from(r.offered)),
                or_dash(r.achieved.map(format_rate)),
                ns(r.corrected_ns[0]),
                ns(r.corrected_ns[1]),
                ns(r.corrected_ns[2]),
                ns(r.corrected_ns[3]),
                ns(r.uncorrected_ns[0]),
                ns(r.uncorrected_ns[2]),
                error_note(r),
                verdict(r),
            ]);
        }
    }
    let mut knees = Table::new(["variant", "knee", "how far it went"], 1).titled(format!(
        "{test}: knee, the highest offered rate whose p99 stayed within {} (higher is better)",
        crate::format::format_ns(slo * 1e6)
    ));
    for c in &served {
        let Some(k) = &c.knee else { continue };
        let top = c.rates.last().map(|r| r.offered).unwrap_or(0);
        let bound = c.rates.iter().find_map(|r| r.generator_bound_rps);
        let why = match (k.unbroken, bound) {
            (true, Some(g)) => format!(
                "the load generator could offer only {}: no higher rate was tried",
                format_rate(g)
            ),
            (true, None) => format!(
                "held up to {} (the highest tried within the budget)",
                format_rate(f64::from(top))
            ),
            (false, _) => "broke above it".into(),
        };
        knees.rows.push(vec![c.runtime.clone(), k.label(), why]);
    }
    vec![at_rate, knees]
}

fn error_note(r: &RatePoint) -> String {
    match (r.errors, r.timeouts) {
        (0.0, _) => "0".into(),
        (e, 0.0) => format!("{e}"),
        (e, t) => format!("{e} ({t} timeouts)"),
    }
}

/// `met`, `broke`, or why the rate says nothing of the server.
fn verdict(r: &RatePoint) -> String {
    match r.generator_bound_rps {
        Some(g) => format!("beyond the load generator (sent {})", format_rate(g)),
        None if r.met_slo => "met".into(),
        None => match r.unsent {
            Some(n) => format!("broke ({n:.0} due, never sent)"),
            None => "broke".into(),
        },
    }
}
