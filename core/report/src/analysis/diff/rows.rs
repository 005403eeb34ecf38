//! One row of a diff: two cells' values of one phase and measure, estimated unpaired or
//! paired by round, and the cells of two arms of one run matched up.

use super::*;

/// One side of a row: its values, whether its cell is partial, and its reference (the
/// same phase of the normalising runtime in the same run) when normalising.
pub(super) struct Part<'s, 'v> {
    pub(super) side: &'s Side<'s>,
    pub(super) name: &'static str,
    pub(super) values: &'v Values<'v>,
    pub(super) partial: Option<u32>,
}

/// How the two sides of a row are related.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Design {
    /// Two runs: independent samples (Welch).
    Independent,
    /// Two cells of one run: paired by round; with Stein's first stage when the run sized
    /// the pair's rounds by Stein's rule.
    Paired(Option<usize>),
}

/// Builds a row (its verdict decided later, with the others) and its estimate; why not,
/// when its values allow no ratio at all.
pub(super) fn row(
    key: &DiffKey,
    a: &Part,
    b: &Part,
    refs: Option<(&Part, &Part)>,
    note: Option<String>,
    design: Design,
) -> Result<(DiffRow, Option<RatioEstimate>), String> {
    let (ga, gb) = (a.values.groups(), b.values.groups());
    let (Some(am), Some(bm)) = (median(ga.values), median(gb.values)) else {
        return Err("no values on one side".into());
    };
    if am <= 0.0 || !am.is_finite() || !bm.is_finite() {
        return Err(format!(
            "no ratio: A's median is {am}, B's {bm} (a ratio needs a positive, finite A)"
        ));
    }
    let mut r = DiffRow {
        runtime: key.runtime.clone(),
        test: key.test.clone(),
        phase: key.phase.clone(),
        a_median: am,
        b_median: bm,
        a_typical: a.values.typical(),
        b_typical: b.values.typical(),
        ratio: None,
        ci_low: None,
        ci_high: None,
        halfwidth_pct: None,
        level: None,
        p_adjusted: None,
        verdict: Verdict::InsufficientData,
        note,
        n: (ga.values.len(), gb.values.len()),
        invocations: (ga.invocations(), gb.invocations()),
        pairs: None,
    };
    let mut sources = vec![(a.values.source, b.values.source)];
    if let Some((ra, rb)) = refs {
        sources.push((a.values.source, ra.values.source));
        sources.push((b.values.source, rb.values.source));
    }
    if let Some((x, y)) = sources.iter().find(|(x, y)| x != y) {
        r.verdict = Verdict::NotComparable;
        r.note = Some(format!(
            "not comparable: timing sources differ ({x} vs {y})"
        ));
        return Ok((r, None));
    }
    let (rga, rgb) = match refs {
        Some((ra, rb)) => (Some(ra.values.groups()), Some(rb.values.groups())),
        None => (None, None),
    };
    let estimate = match design {
        Design::Independent => ratio_estimate(&ga, &gb, rga.as_ref().zip(rgb.as_ref())),
        Design::Paired(stein) => paired_estimate(&ga, &gb, stein).map(|(e, n)| {
            r.pairs = Some(n);
            e
        }),
    };
    r.ratio = estimate
        .as_ref()
        .map(|e| e.ratio)
        .or_else(|| median_ratio(ga.values, gb.values));
    let mut parts: Vec<(&Part, Groups)> = vec![(a, ga), (b, gb)];
    if let (Some((ra, rb)), Some(x), Some(y)) = (refs, rga, rgb) {
        parts.push((ra, x));
        parts.push((rb, y));
    }
    let lacking = parts
        .iter()
        .find_map(|(p, g)| too_little(p.name, g, p.partial, p.side.planned));
    if let Some(why) = lacking {
        r.note = Some(why);
        return Ok((r, None));
    }
    let Some(e) = estimate else {
        if design != Design::Independent {
            r.note = Some(format!(
                "fewer than {MIN_INVOCATIONS} rounds that both sides ran"
            ));
        }
        return Ok((r, None));
    };
    r.ci_low = Some(e.low);
    r.ci_high = Some(e.high);
    r.halfwidth_pct = Some(e.halfwidth_pct());
    r.level = Some(e.level);
    // A side measured only on a busy machine: its interval is shown, never decided on.
    if let Some(p) = parts.iter().map(|(p, _)| p).find(|p| p.values.all_busy) {
        r.verdict = Verdict::NotComparable;
        r.note = Some(format!(
            "not comparable: every invocation in {} was measured on a busy machine (see warnings)",
            p.name
        ));
        return Ok((r, None));
    }
    r.verdict = Verdict::NoChange;
    Ok((r, Some(e)))
}

/// One arm of a row: a side (run), a runtime and a test of it.
#[derive(Clone, Copy)]
pub(super) struct Arm<'s> {
    pub(super) side: &'s Side<'s>,
    pub(super) runtime: &'s str,
    pub(super) test: &'s str,
}

impl<'s> Arm<'s> {
    pub(super) fn part<'v>(&self, name: &'static str, values: &'v Values<'v>) -> Part<'s, 'v> {
        Part {
            side: self.side,
            name,
            values,
            partial: self.side.partial(self.runtime, self.test),
        }
    }
}

/// A normalising reference of one side: its series, whether partial, whether failed.
pub(super) type Reference<'s> = (Vec<(String, Values<'s>)>, Option<u32>, bool);

/// The reference runtime `n`'s cell beside an arm.
pub(super) fn reference<'s>(arm: Arm<'s>, n: &str) -> Reference<'s> {
    (
        arm.side.series(n, arm.test),
        arm.side.partial(n, arm.test),
        arm.side.failed.contains(&(n, arm.test)),
    )
}

/// Matches the cells of A and B into rows (verdicts undecided), or into only-A / only-B.
/// `label` names the row's runtime column, `test_label` its test column.
#[allow(clippy::too_many_arguments)]
pub(super) fn pair_cells(
    d: &mut Diff,
    estimates: &mut Vec<Option<RatioEstimate>>,
    a: Arm,
    b: Arm,
    (label, test_label): (&str, &str),
    normalize: Option<&str>,
    design: Design,
) {
    let va = a.side.series(a.runtime, a.test);
    let vb = b.side.series(b.runtime, b.test);
    // References: the normalising runtime's series in each run (none for itself).
    let refs: Option<(Reference, Reference)> = normalize
        .filter(|n| *n != a.runtime && *n != b.runtime)
        .map(|n| (reference(a, n), reference(b, n)));
    let key = |phase: &str| DiffKey {
        runtime: label.to_string(),
        test: test_label.to_string(),
        phase: phase.to_string(),
    };
    for (phase, va) in &va {
        let k = key(phase);
        let Some((_, vb)) = vb.iter().find(|(p, _)| p == phase) else {
            d.only_a.push(k);
            continue;
        };
        let (pa, pb) = (a.part("A", va), b.part("B", vb));
        let mut note = None;
        let mut refused = None;
        let found = match (&refs, normalize) {
            (Some(((ra, pra, fa), (rb, prb, fb))), Some(n)) => {
                let ra = ra.iter().find(|(p, _)| p == phase);
                let rb = rb.iter().find(|(p, _)| p == phase);
                match (ra, rb) {
                    (Some((_, ra)), Some((_, rb))) => Some((
                        Part {
                            side: a.side,
                            name: "A's reference",
                            values: ra,
                            partial: *pra,
                        },
                        Part {
                            side: b.side,
                            name: "B's reference",
                            values: rb,
                            partial: *prb,
                        },
                    )),
                    // The reference failed: a raw ratio would answer another question
                    // silently, so the row gets none.
                    _ if *fa || *fb => {
                        let side = if *fa { "A" } else { "B" };
                        refused = Some(format!(
                            "not comparable: the reference {n} failed in {side}"
                        ));
                        None
                    }
                    // A phase the reference never has (native has no compile): compared as
                    // measured, and said.
                    _ => {
                        note = Some(format!("not normalised: {n} has no {phase}"));
                        None
                    }
                }
            }
            (None, Some(n)) if n == a.runtime => {
                note = Some(format!("not normalised: {n} is the reference"));
                None
            }
            _ => None,
        };
        let refs = found.as_ref().map(|(x, y)| (x, y));
        match row(&k, &pa, &pb, refs, note, design) {
            Ok((mut r, _)) if refused.is_some() => {
                r.verdict = Verdict::NotComparable;
                r.note = refused;
                d.rows.push(r);
                estimates.push(None);
            }
            Ok((r, e)) => {
                d.rows.push(r);
                estimates.push(e);
            }
            Err(why) => d.dropped.push(Dropped {
                runtime: k.runtime,
                test: k.test,
                phase: k.phase,
                why,
            }),
        }
    }
    // A cell that failed, with nothing on the other side either, gives no row and no
    // only-in-A/B key: said here, so no gate passes over it. (Neither failed: not run on
    // either side, as a cell that does not apply.)
    let failed = |arm: &Arm| arm.side.failed.contains(&(arm.runtime, arm.test));
    if va.is_empty() && vb.is_empty() && (failed(&a) || failed(&b)) {
        let why = match (failed(&a), failed(&b)) {
            (true, true) => "failed in both",
            (true, false) => "failed in A, no measurements in B",
            _ => "no measurements in A, failed in B",
        };
        d.dropped.push(Dropped {
            runtime: label.to_string(),
            test: test_label.to_string(),
            phase: String::new(),
            why: why.to_string(),
        });
    }
    for (phase, _) in &vb {
        if !va.iter().any(|(p, _)| p == phase) {
            d.only_b.push(key(phase));
        }
    }
}
