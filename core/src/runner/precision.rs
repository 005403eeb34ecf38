//! `run --precision PCT [--budget DURATION]`: Stein's two-stage rule. The planned rounds
//! are the first stage; from their spread each cell is given, once, the invocations its 95 %
//! interval needs to be within ±PCT ([`stein_needed`]), and rounds are added until every
//! cell has them, the budget is spent, or a cell has [`Precision::MAX_INVOCATIONS`]. Its
//! interval is then the first stage's spread over all of them ([`LogMean::of`]): deciding
//! from the first stage alone, never peeking after each round, is what keeps it 95 %. The time goes where the
//! noise is: a tight interpreter cell gets no more invocations, a noisy JIT cell gets
//! several. With `--pair A,B[,C…]` the aim is each arm's widest paired interval against
//! the others, which is what their diffs will use.

use super::Plan;
use crate::analysis::{Groups, Index, LogMean, paired_estimate, paired_units, t_quantile};
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

/// Half the paired interval of two arms' cells, percent: Stein's, over the first stage of
/// `n0` planned rounds, as their diff reports it.
fn paired_width(index: &Index, a: (&str, &str), b: (&str, &str), n0: usize) -> Option<f64> {
    let (ga, _, _) = index.primary(a.0, a.1)?;
    let (gb, _, _) = index.primary(b.0, b.1)?;
    paired_estimate(&ga, &gb, Some(n0)).map(|(e, _)| e.halfwidth_pct())
}

/// An arm's width: the widest of its paired intervals against the other arms of its group
/// that did not fail (any missing: none), or its own without them.
fn arm_width(own: Option<f64>, others: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    let mut any = false;
    let mut widest = Some(0.0f64);
    for w in others {
        any = true;
        widest = widest.zip(w).map(|(a, b)| a.max(b));
    }
    if any { widest } else { own }
}

/// Whether the run's budget is spent.
pub fn over_budget(plan: &Plan, started: Instant) -> bool {
    plan.settings
        .precision
        .and_then(|p| p.budget_secs)
        .is_some_and(|b| started.elapsed().as_secs_f64() >= b as f64)
}

/// The invocations Stein's two-stage rule asks of a cell (or a pair of arms) whose first
/// stage, the planned rounds, gave these units (log means, or paired differences of them):
/// the least N whose interval t(n₀ − 1) · s₀ / √N, as [`LogMean::of`] then reports it, is
/// within ±`pct`; at least the first stage, at most the cap. Decided once from the first
/// stage, never by looking again, so the interval keeps its 95 %. With it, the first
/// stage's standard deviation that asked it (in the units' own scale). `None` from fewer
/// than 2 units.
pub fn stein_needed(first: &[f64], pct: f64) -> Option<(u32, f64)> {
    let n0 = first.len();
    if n0 < 2 {
        return None;
    }
    let mean = first.iter().sum::<f64>() / n0 as f64;
    let sd = (first.iter().map(|u| (u - mean).powi(2)).sum::<f64>() / (n0 - 1) as f64).sqrt();
    // The reported half-width is 100 · sinh(t · s₀ / √N) percent.
    let h = (pct / 100.0).asinh();
    let n = (t_quantile(0.975, (n0 - 1) as f64) * sd / h).powi(2).ceil();
    Some((
        (n.max(n0 as f64) as u32).min(Precision::MAX_INVOCATIONS.max(n0 as u32)),
        sd,
    ))
}

/// The cells (indexes into `plan.cells()`) still short of the precision: not failed, under
/// the invocation cap, and fewer invocations than Stein's rule asked from the planned
/// rounds ([`stein_needed`]). A pair's arms go together: each needs what its widest paired
/// comparison needs.
pub fn short_cells(plan: &Plan, cells: &[(&[MeasurementRow], bool)], p: Precision) -> Vec<usize> {
    let plan_cells = plan.cells();
    let groups = plan.pair_groups();
    let n0 = plan.settings.invocations;
    let indexes: Vec<Index> = cells.iter().map(|(rows, _)| Index::new(rows)).collect();
    // Each cell's primary values, looked up once.
    let values: Vec<Option<Groups>> = indexes
        .iter()
        .zip(&plan_cells)
        .map(|(index, (r, t))| index.primary(&r.id, &t.name).map(|(g, _, _)| g))
        .collect();
    let mut short = Vec::new();
    for (i, (_, failed)) in cells.iter().enumerate() {
        let invocations = values[i].map_or(0, |g| g.invocations() as u32);
        if *failed || invocations >= Precision::MAX_INVOCATIONS {
            continue;
        }
        let others: Vec<usize> = groups
            .as_ref()
            .map_or(&[][..], |g| &g[i])
            .iter()
            .copied()
            .filter(|&j| j != i && !cells[j].1)
            .collect();
        let needed = values[i].and_then(|own| {
            let others: Option<Vec<Groups>> = others.iter().map(|&j| values[j]).collect();
            need(&own, &others?, n0, p.pct).map(|(n, _)| n)
        });
        // No first-stage spread (a cell short of 2 planned invocations): nothing to decide
        // from; the planned rounds stand.
        if needed.is_some_and(|n| invocations < n) {
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

/// What Stein's rule asks of a cell from its first stage of `n0` planned rounds, and the
/// spread (percent) of the units that asked it: alone, from its own log means; as an arm of
/// a pair, the most any of its paired comparisons asks (`None` if one cannot tell). The one
/// rule the run adds rounds by ([`short_cells`]) and its closing words report by
/// ([`shortfalls`]).
fn need(own: &Groups, others: &[Groups], n0: u32, pct: f64) -> Option<(u32, f64)> {
    let of = |first: Vec<f64>| stein_needed(&first, pct).map(|(n, sd)| (n, sd * 100.0));
    if others.is_empty() {
        let units = own.log_units()?;
        return of(units
            .into_iter()
            .filter(|(id, _)| *id < n0)
            .map(|(_, u)| u)
            .collect());
    }
    others.iter().try_fold((0, 0.0), |most: (u32, f64), other| {
        let rounds = paired_units(own, other).unwrap_or_default();
        let first = rounds
            .into_iter()
            .filter(|(id, ..)| *id < n0)
            .map(|(_, x, y)| y - x)
            .collect();
        of(first).map(|n| if n.0 > most.0 { n } else { most })
    })
}

/// Why a cell did not reach the precision, for the run's closing words: `None` when it did.
/// `spent`: the run's budget ran out (a run without one never says so); `need`: the
/// invocations Stein's rule asked of it and the spread between its processes that asked
/// for them, percent.
fn shortfall(
    width: Option<f64>,
    invocations: u32,
    failed: bool,
    p: Precision,
    spent: bool,
    need: Option<(u32, f64)>,
    paired: bool,
) -> Option<String> {
    if failed {
        return Some("failed".into());
    }
    let why = if invocations >= Precision::MAX_INVOCATIONS {
        "the cap"
    } else if spent {
        "budget spent"
    } else {
        "the run ended before the rounds it needed"
    };
    let need = need
        .filter(|(n, _)| *n > invocations)
        .map(|(n, sd)| {
            let of = if paired {
                "the spread of its paired rounds"
            } else {
                "its spread between processes"
            };
            format!("; {of}, {sd:.1} %, needs {n}")
        })
        .unwrap_or_default();
    match width {
        Some(w) if w <= p.pct => None,
        Some(w) => Some(format!(
            "±{w:.1} % after {invocations} invocations ({why}{need})"
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
    let n0 = run.meta.settings.invocations as usize;
    let spent = p.budget_secs.is_some_and(|b| {
        run.meta
            .finished_unix
            .is_some_and(|end| end - run.meta.started_unix >= b as f64 * 0.98)
    });
    // One index of the whole run: each cell a lookup, not a scan of its rows; its
    // intervals are Stein's, as every report of the run gives them.
    let index = Index::of_run(run);
    let failed = |rt: &str, t: &str| {
        run.cells
            .iter()
            .any(|c| c.runtime == rt && c.test == t && c.failure.is_some())
    };
    let pair = run.meta.pair();
    let has = |rt: &str, t: &str| run.cells.iter().any(|c| c.runtime == rt && c.test == t);
    // The other arms' cells beside (rt, t), where they ran.
    let others = |rt: &str, t: &str| -> Vec<(String, String)> {
        let Some(pair) = pair else {
            return Vec::new();
        };
        let (mine, shared) = pair.arm_of(rt, t);
        if !pair.has(mine) {
            return Vec::new();
        }
        pair.arms
            .iter()
            .filter(|a| *a != mine)
            .map(|a| {
                let (r, x) = pair.cell(a, shared);
                (r.to_string(), x.to_string())
            })
            .filter(|(r, x)| has(r, x) && !failed(r, x))
            .collect()
    };
    let mut out = Vec::new();
    for t in &run.meta.tests {
        for r in &run.meta.runtimes {
            let (rt, test) = (r.id.as_str(), t.name.as_str());
            let (own, invocations) = width_of(&index, rt, test);
            let paired = others(rt, test);
            let width = arm_width(
                own,
                paired
                    .iter()
                    .map(|(r, x)| paired_width(&index, (rt, test), (r, x), n0)),
            );
            let groups = |(r, x): &(String, String)| index.primary(r, x).map(|(g, _, _)| g);
            let asked = index.primary(rt, test).and_then(|(own, _, _)| {
                let others: Option<Vec<Groups>> = paired.iter().map(groups).collect();
                need(&own, &others?, n0 as u32, p.pct)
            });
            let (dead, arm) = (failed(rt, test), !paired.is_empty());
            if let Some(why) = shortfall(width, invocations, dead, p, spent, asked, arm) {
                out.push((rt.to_string(), test.to_string(), why));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Rng;

    /// Coverage of the interval a `--precision` run reports, by simulation through the
    /// rule's and the report's own code ([`stein_needed`], [`LogMean::of`] of groups that
    /// carry the first stage): seeded normal log units, 2,000 cells per line, first stages
    /// of 3, 5 and 8 invocations, spreads of 1 and 3 % against aims of ±1 and ±2 %. Every
    /// line must cover within 93–97 %; peeking after every round covered 89.7–94.9 % in
    /// `scripts/sim-stopping`.
    #[test]
    fn steins_rule_keeps_the_interval_at_95_percent() {
        let mut rng = Rng::new(4);
        for n0 in [3usize, 5, 8] {
            for (sd, pct) in [(0.03, 2.0), (0.03, 1.0), (0.01, 1.0)] {
                let trials = 2000;
                let mut covered = 0;
                for _ in 0..trials {
                    let mut units: Vec<f64> = (0..n0).map(|_| sd * rng.normal()).collect();
                    let n = stein_needed(&units, pct).unwrap().0 as usize;
                    assert!(n >= n0 && n <= Precision::MAX_INVOCATIONS as usize);
                    units.extend((n0..n).map(|_| sd * rng.normal()));
                    let values: Vec<f64> = units.iter().map(|u| u.exp()).collect();
                    let starts: Vec<usize> = (0..n).collect();
                    let ids: Vec<u32> = (0..n as u32).collect();
                    let g = Groups {
                        values: &values,
                        starts: &starts,
                        ids: &ids,
                        first_stage: n0,
                    };
                    let (lo, hi) = LogMean::of(&g).unwrap().interval().unwrap();
                    covered += usize::from(lo <= 1.0 && 1.0 <= hi);
                }
                let share = covered as f64 / trials as f64;
                assert!(
                    (0.93..=0.97).contains(&share),
                    "n0 {n0}, sd {sd}, ±{pct} %: {share}"
                );
            }
        }
    }

    /// One side of a `--precision` run's cell, as the rule makes it: a first stage of `n0`
    /// units around `mean` (sd `sd`), then the rounds Stein asks for ±`pct`.
    fn staged(rng: &mut Rng, n0: usize, mean: f64, sd: f64, pct: f64) -> Vec<f64> {
        let mut units: Vec<f64> = (0..n0).map(|_| mean + sd * rng.normal()).collect();
        let n = stein_needed(&units, pct).unwrap().0 as usize;
        units.extend((n0..n).map(|_| mean + sd * rng.normal()));
        units
    }

    /// Groups of one value per invocation, carrying the first stage.
    fn groups<'a>(values: &'a [f64], index: &'a [usize], ids: &'a [u32], n0: usize) -> Groups<'a> {
        Groups {
            values,
            starts: &index[..values.len()],
            ids: &ids[..values.len()],
            first_stage: n0,
        }
    }

    /// The diff of two `--precision` runs, through the rule's and the diff's own code
    /// ([`stein_needed`] on each side, then [`ratio_estimate`] of groups that carry their
    /// first stage): 4,000 seeded A/A pairs a line, first stages of 3 and 6, spreads of 1
    /// and 3 % against aims of ±1 and ±2 %. Every line must cover 94–97.5 % (Welch's
    /// degrees of freedom over Stein's variances covered 90–93 %; the fewest first-stage
    /// degrees of freedom err wide, most at a first stage of 3 and an aim the spread barely
    /// needs: 97.5 % in 40,000 trials there, docs/statistics.md).
    #[test]
    fn a_diff_of_two_precision_runs_covers_95_percent() {
        let mut rng = Rng::new(59);
        let index: Vec<usize> = (0..64).collect();
        let ids: Vec<u32> = (0..64).collect();
        for n0 in [3usize, 6] {
            for (sd, pct) in [(0.03, 2.0), (0.03, 1.0), (0.01, 1.0)] {
                let trials = 4000;
                let mut covered = 0;
                for _ in 0..trials {
                    let a: Vec<f64> = staged(&mut rng, n0, 0.0, sd, pct)
                        .iter()
                        .map(|u| u.exp())
                        .collect();
                    let b: Vec<f64> = staged(&mut rng, n0, 0.0, sd, pct)
                        .iter()
                        .map(|u| u.exp())
                        .collect();
                    let e = crate::analysis::ratio_estimate(
                        &groups(&a, &index, &ids, n0),
                        &groups(&b, &index, &ids, n0),
                        None,
                    )
                    .unwrap();
                    covered += usize::from(e.low <= 1.0 && 1.0 <= e.high);
                }
                let share = covered as f64 / trials as f64;
                assert!(
                    (0.94..=0.975).contains(&share),
                    "n0 {n0}, sd {sd}, ±{pct} %: {share}"
                );
            }
        }
    }

    /// `--pair` with `--precision`, through the rule and the diff's own code: each round a
    /// shared factor (the machine, sd 10 %, which pairing cancels) and each arm its own
    /// noise; [`stein_needed`] on the first stage's differences, then [`paired_estimate`]
    /// with that first stage. 4,000 seeded A/A pairs a line, first stages of 3 and 6: every
    /// line 94–97 % (the signed-rank interval reported over Stein's rounds covered 92–93 %).
    #[test]
    fn a_paired_precision_diff_covers_95_percent() {
        let mut rng = Rng::new(61);
        let index: Vec<usize> = (0..64).collect();
        let ids: Vec<u32> = (0..64).collect();
        for n0 in [3usize, 6] {
            for (sd, pct) in [(0.03, 2.0), (0.03, 1.0), (0.01, 1.0)] {
                let trials = 4000;
                let mut covered = 0;
                for _ in 0..trials {
                    let shared: Vec<f64> = (0..n0).map(|_| 0.1 * rng.normal()).collect();
                    let mut a: Vec<f64> = shared.iter().map(|r| r + sd * rng.normal()).collect();
                    let mut b: Vec<f64> = shared.iter().map(|r| r + sd * rng.normal()).collect();
                    let first: Vec<f64> = a.iter().zip(&b).map(|(x, y)| y - x).collect();
                    let n = stein_needed(&first, pct).unwrap().0 as usize;
                    for _ in n0..n {
                        let r = 0.1 * rng.normal();
                        a.push(r + sd * rng.normal());
                        b.push(r + sd * rng.normal());
                    }
                    let (a, b): (Vec<f64>, Vec<f64>) = (
                        a.iter().map(|u| u.exp()).collect(),
                        b.iter().map(|u| u.exp()).collect(),
                    );
                    let (e, rounds) = paired_estimate(
                        &groups(&a, &index, &ids, n0),
                        &groups(&b, &index, &ids, n0),
                        Some(n0),
                    )
                    .unwrap();
                    assert_eq!(rounds, n);
                    covered += usize::from(e.low <= 1.0 && 1.0 <= e.high);
                }
                let share = covered as f64 / trials as f64;
                assert!(
                    (0.94..=0.97).contains(&share),
                    "n0 {n0}, sd {sd}, ±{pct} %: {share}"
                );
            }
        }
    }

    #[test]
    fn budget_spent_only_when_a_budget_was_spent() {
        let p = Precision {
            pct: 3.0,
            budget_secs: None,
        };
        let why = shortfall(Some(5.0), 12, false, p, false, None, false).unwrap();
        assert_eq!(
            why,
            "±5.0 % after 12 invocations (the run ended before the rounds it needed)"
        );
        assert!(
            shortfall(Some(5.0), 12, false, p, true, None, false)
                .unwrap()
                .ends_with("(budget spent)")
        );
        let cap = Precision::MAX_INVOCATIONS;
        assert!(
            shortfall(Some(5.0), cap, false, p, true, None, false)
                .unwrap()
                .ends_with("(the cap)")
        );
        assert_eq!(shortfall(Some(2.0), 12, false, p, false, None, false), None);
        assert_eq!(
            shortfall(Some(5.0), 12, false, p, true, Some((23, 6.14)), false).unwrap(),
            "±5.0 % after 12 invocations (budget spent; its spread between processes, 6.1 %, needs 23)"
        );
        // An arm of a pair: what its paired rounds asked.
        assert_eq!(
            shortfall(Some(5.0), 12, false, p, true, Some((23, 6.14)), true).unwrap(),
            "±5.0 % after 12 invocations (budget spent; the spread of its paired rounds, 6.1 %, needs 23)"
        );
    }

    #[test]
    fn the_rule_asks_what_the_first_stage_needs() {
        // A first stage spread of 3 % over 5 invocations: t(4) · 0.03 / asinh(0.02) ≈ 4.17,
        // squared 17.4 → 18 invocations for ±2 %.
        let first = [0.03, -0.03, 0.0, 0.03, -0.03];
        let sd = (4.0 * 0.03f64.powi(2) / 4.0).sqrt();
        let want = (2.776_445 * sd / 0.02f64.asinh()).powi(2).ceil() as u32;
        assert_eq!(stein_needed(&first, 2.0).map(|(n, _)| n), Some(want));
        // Already tight: no more than the first stage; very loose: the cap.
        assert_eq!(
            stein_needed(&[0.0, 0.001, -0.001], 5.0).map(|(n, _)| n),
            Some(3)
        );
        assert_eq!(
            stein_needed(&[0.0, 0.5], 1.0).map(|(n, _)| n),
            Some(Precision::MAX_INVOCATIONS)
        );
        assert_eq!(stein_needed(&[0.1], 1.0), None);
    }
}
