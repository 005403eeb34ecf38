//! `run --precision PCT [--budget DURATION]`: after the planned rounds, more rounds for the
//! cells whose 95 % interval is still wider than ±PCT, until every cell meets it, the
//! budget is spent, or a cell has [`Precision::MAX_INVOCATIONS`]. The time goes where the
//! noise is: a tight interpreter cell gets no more invocations, a noisy JIT cell gets
//! several. With `--pair A,B` the aim is the two arms' paired interval, which is what their
//! diff will use.

use super::Plan;
use crate::analysis::{Index, LogMean, paired_estimate};
use crate::store::{MeasurementRow, Precision};
use std::time::Instant;

/// Half the 95 % interval of a cell's typical value, percent, and its invocations: no
/// width while it has fewer than 2 invocations (the iterations inside one process leave
/// out the noise between processes, so their width would stop a run too soon).
fn width_of(index: &Index, rt: &str, test: &str) -> (Option<f64>, u32) {
    let Some((g, _, _)) = index.primary(rt, test) else {
        return (None, 0);
    };
    let invocations = g.invocations() as u32;
    let width = LogMean::of(&g)
        .filter(|_| invocations >= 2)
        .and_then(|m| m.interval())
        .map(|(lo, hi)| 50.0 * (hi - lo) / (lo * hi).sqrt());
    (width, invocations)
}

/// Half the paired interval of two arms' cells, percent.
fn paired_width(ia: &Index, a: (&str, &str), ib: &Index, b: (&str, &str)) -> Option<f64> {
    let (ga, _, _) = ia.primary(a.0, a.1)?;
    let (gb, _, _) = ib.primary(b.0, b.1)?;
    paired_estimate(&ga, &gb).map(|(e, _)| e.halfwidth_pct())
}

/// Whether the run's budget is spent.
pub fn over_budget(plan: &Plan, started: Instant) -> bool {
    plan.settings
        .precision
        .and_then(|p| p.budget_secs)
        .is_some_and(|b| started.elapsed().as_secs_f64() >= b as f64)
}

/// The cells (indexes into `plan.cells()`) still short of the precision: not failed, under
/// the invocation cap, interval wider than ±pct (or none yet). A pair's arms go together.
pub fn short_cells(plan: &Plan, cells: &[(&[MeasurementRow], bool)], p: Precision) -> Vec<usize> {
    let plan_cells = plan.cells();
    let partner = plan.partners();
    let indexes: Vec<Index> = cells.iter().map(|(rows, _)| Index::new(rows)).collect();
    let mut short = Vec::new();
    for (i, (_, failed)) in cells.iter().enumerate() {
        let (rt, test) = (plan_cells[i].0.id.as_str(), plan_cells[i].1.name.as_str());
        let (own, invocations) = width_of(&indexes[i], rt, test);
        if *failed || invocations >= Precision::MAX_INVOCATIONS {
            continue;
        }
        let width = match partner.as_ref().and_then(|p| p[i]) {
            Some(j) if !cells[j].1 => {
                let b = (plan_cells[j].0.id.as_str(), plan_cells[j].1.name.as_str());
                paired_width(&indexes[i], (rt, test), &indexes[j], b)
            }
            _ => own,
        };
        if width.is_none_or(|w| w > p.pct) {
            short.push(i);
        }
    }
    short
}

/// The next round (`round` is its invocation index) when the run aims at a precision and
/// has budget left: the short cells in an order shuffled by the seed and the round, pairs
/// side by side. `None` when there is nothing to add.
pub fn next_round(
    plan: &Plan,
    cells: &[(&[MeasurementRow], bool)],
    round: u32,
    started: Instant,
) -> Option<Vec<(usize, u32)>> {
    let p = plan.settings.precision?;
    if over_budget(plan, started) {
        return None;
    }
    let short = short_cells(plan, cells, p);
    if short.is_empty() {
        return None;
    }
    let order = plan.round_order(round, Some(&short));
    Some(order)
}

/// Why a cell did not reach the precision, for the run's closing words: `None` when it did.
fn shortfall(width: Option<f64>, invocations: u32, failed: bool, p: Precision) -> Option<String> {
    if failed {
        return Some("failed".into());
    }
    match width {
        Some(w) if w <= p.pct => None,
        Some(w) if invocations >= Precision::MAX_INVOCATIONS => Some(format!(
            "±{w:.1} % after {invocations} invocations (the cap)"
        )),
        Some(w) => Some(format!(
            "±{w:.1} % after {invocations} invocations (budget spent)"
        )),
        None => Some(format!("no interval ({invocations} invocation(s))")),
    }
}

/// The cells of a saved run that aimed at a precision and did not reach it, as
/// `(runtime, test, why)` in plan order; empty for a run that aimed at none.
pub fn shortfalls(run: &crate::store::SavedRun) -> Vec<(String, String, String)> {
    let Some(p) = run.meta.settings.precision else {
        return Vec::new();
    };
    // One index of the whole run: each cell a lookup, not a scan of its rows.
    let index = Index::new(&run.measurements);
    let failed = |rt: &str, t: &str| {
        run.cells
            .iter()
            .any(|c| c.runtime == rt && c.test == t && c.failure.is_some())
    };
    let partner = |rt: &str, t: &str| -> Option<(String, String)> {
        let [a, b] = run.meta.settings.pair.as_ref()?;
        let other = |x: &str| {
            if x == a {
                Some(b)
            } else if x == b {
                Some(a)
            } else {
                None
            }
        };
        let is_rt = |x: &str| run.meta.runtimes.iter().any(|r| r.id == x);
        if is_rt(a) {
            other(rt).map(|o| (o.clone(), t.to_string()))
        } else {
            other(t).map(|o| (rt.to_string(), o.clone()))
        }
    };
    let mut out = Vec::new();
    for t in &run.meta.tests {
        for r in &run.meta.runtimes {
            let (rt, test) = (r.id.as_str(), t.name.as_str());
            let (own, invocations) = width_of(&index, rt, test);
            let width = match partner(rt, test) {
                Some((prt, ptest)) if !failed(&prt, &ptest) => {
                    paired_width(&index, (rt, test), &index, (&prt, &ptest))
                }
                _ => own,
            };
            if let Some(why) = shortfall(width, invocations, failed(rt, test), p) {
                out.push((rt.to_string(), test.to_string(), why));
            }
        }
    }
    out
}
