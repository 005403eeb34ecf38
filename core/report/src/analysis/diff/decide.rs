//! Verdicts from the rows' estimates: beyond the threshold, held over the family
//! (Benjamini–Hochberg), or undecided at the rounds there are; the method line that says so.

use super::*;

impl Diff {
    pub(super) fn new(a: String, b: String, opts: &DiffOptions) -> Diff {
        Diff {
            a,
            b,
            threshold_pct: opts.threshold_pct,
            normalize: opts.normalize.clone(),
            alpha: ALPHA,
            warnings: Vec::new(),
            rows: Vec::new(),
            only_a: Vec::new(),
            only_b: Vec::new(),
            method: String::new(),
            paired: false,
            alternated: false,
            stein: false,
            busy_left_out: 0,
            dropped: Vec::new(),
        }
    }

    /// Decides the verdicts of every row with an estimate, corrected together, so that each
    /// follows from the interval shown beside it: a change when the whole interval lies
    /// beyond the threshold and the change holds at the false discovery rate over the
    /// family (Benjamini–Hochberg); "not held" when the interval lies beyond on its own but
    /// the correction does not hold it; "undecided" when the row's test cannot reach the
    /// level its family needs at its rounds, whatever they show; else no change. A row
    /// whose interval lies beyond the threshold is never "no change".
    pub(super) fn decide(&mut self, estimates: Vec<Option<RatioEstimate>>) {
        let t = self.threshold_pct;
        let which: Vec<usize> = (0..self.rows.len())
            .filter(|i| estimates[*i].is_some())
            .collect();
        let m = which.len();
        let p: Vec<f64> = which
            .iter()
            .map(|i| estimates[*i].as_ref().map_or(1.0, |e| e.p_beyond(t)))
            .collect();
        let adjusted = bh_adjust(&p);
        let side = |row: &DiffRow| -> Option<bool> {
            let (lo, hi) = (row.ci_low?, row.ci_high?);
            if lo > 1.0 + t / 100.0 {
                Some(true)
            } else if hi < 1.0 - t / 100.0 {
                Some(false)
            } else {
                None
            }
        };
        let held = which
            .iter()
            .zip(&adjusted)
            .filter(|(i, adj)| **adj <= self.alpha && side(&self.rows[**i]).is_some())
            .count();
        // The level a row not yet held would need to join them (BH's next step).
        let needed = self.alpha * (held + 1) as f64 / m.max(1) as f64;
        for (i, adj) in which.into_iter().zip(adjusted) {
            let Some(e) = estimates[i].as_ref() else {
                continue;
            };
            let row = &mut self.rows[i];
            row.p_adjusted = Some(adj);
            row.level = Some(e.level);
            let beyond = side(row);
            let alone = |slower: bool| {
                format!(
                    "its interval lies beyond {}{t} % on its own",
                    if slower { "+" } else { "−" }
                )
            };
            row.verdict = match beyond {
                Some(true) if adj <= self.alpha => Verdict::Slower,
                Some(false) if adj <= self.alpha => Verdict::Faster,
                _ if e.least_p() > needed => {
                    let rounds = e.rounds.as_ref().map_or(0, Vec::len);
                    let mut note = format!(
                        "undecided: needs ≥ {} rounds for a family of {m} (has {rounds}: its test gives no p below {:.3})",
                        crate::analysis::signed_rank::rounds_for(needed),
                        e.least_p()
                    );
                    if let Some(slower) = beyond {
                        note.push_str(&format!("; {}", alone(slower)));
                    }
                    push_note(row, note);
                    Verdict::Undecided
                }
                Some(slower) => {
                    push_note(
                        row,
                        format!(
                            "{}, not held over {m} rows (adjusted p {adj:.3} > {})",
                            alone(slower),
                            self.alpha
                        ),
                    );
                    if slower {
                        Verdict::SlowerNotHeld
                    } else {
                        Verdict::FasterNotHeld
                    }
                }
                None => Verdict::NoChange,
            };
        }
        self.method = self.describe_method();
    }

    /// Withholds every verdict (the two sides measured different problems), saying why
    /// once in the warnings and on each row.
    pub(super) fn withhold(&mut self, why: String, row_note: &str) {
        for r in &mut self.rows {
            if r.verdict.is_estimated() {
                r.verdict = Verdict::NotComparable;
                r.p_adjusted = None;
                r.note = Some(match r.note.take() {
                    Some(n) => format!("{row_note}; {n}"),
                    None => row_note.into(),
                });
            }
        }
        self.warnings.push(why);
        self.method = self.describe_method();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::t_quantile;

    /// A row and its Student-t estimate (10 degrees of freedom) with this interval.
    fn row(ratio: f64, lo: f64, hi: f64) -> (DiffRow, Option<RatioEstimate>) {
        let se = (hi.ln() - lo.ln()) / 2.0 / t_quantile(0.975, 10.0);
        let r = DiffRow {
            runtime: "wasmtime".into(),
            test: "t".into(),
            phase: "execute".into(),
            a_median: 1.0,
            b_median: ratio,
            a_typical: None,
            b_typical: None,
            ratio: Some(ratio),
            ci_low: Some(lo),
            ci_high: Some(hi),
            halfwidth_pct: Some(50.0 * (hi - lo) / ratio),
            level: Some(0.95),
            p_adjusted: None,
            verdict: Verdict::NoChange,
            note: None,
            n: (6, 6),
            invocations: (6, 6),
            pairs: None,
        };
        let e = RatioEstimate {
            ratio,
            low: lo,
            high: hi,
            log_se: se,
            df: 10.0,
            rounds: None,
            level: 0.95,
        };
        (r, Some(e))
    }

    #[test]
    fn beyond_alone_is_not_held_over_many_rows_and_never_no_change() {
        let (mut rows, mut est): (Vec<_>, Vec<_>) = std::iter::once(row(1.11, 1.03, 1.20)).unzip();
        for _ in 0..39 {
            let (r, e) = row(1.0, 0.99, 1.01);
            rows.push(r);
            est.push(e);
        }
        let mut d = Diff::fixture(rows.clone());
        d.decide(est.clone());
        let r = &d.rows[0];
        assert_eq!(r.verdict, Verdict::SlowerNotHeld, "{r:?}");
        let note = r.note.as_deref().unwrap();
        assert!(
            note.starts_with(
                "its interval lies beyond +2 % on its own, not held over 40 rows (adjusted p "
            ),
            "{note}"
        );
        assert_eq!(d.counts().not_held, 1);
        assert_eq!(d.counts().no_change, 39);
        assert!(d.method().contains("not held"), "{}", d.method());
        // The same row alone: held.
        let mut one = Diff::fixture(rows[..1].to_vec());
        one.decide(est[..1].to_vec());
        assert_eq!(one.rows[0].verdict, Verdict::Slower);
        // Faster, likewise.
        let (r, e) = row(0.9, 0.83, 0.97);
        rows[0] = r;
        est[0] = e;
        let mut d = Diff::fixture(rows);
        d.decide(est);
        assert_eq!(d.rows[0].verdict, Verdict::FasterNotHeld);
        assert!(d.rows[0].note.as_deref().unwrap().contains("beyond −2 %"));
    }

    #[test]
    fn level_text_says_the_level_achieved() {
        assert_eq!(level_text(0.95), "95 %");
        assert_eq!(level_text(0.96875), "96.9 %");
        assert_eq!(level_text(0.9522), "95.2 %");
    }
}
