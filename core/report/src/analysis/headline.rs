//! The one sentence a person reads first, like hyperfine's "X ran 1.44 times faster than
//! Y": for a run, which runtime is fastest relative to the baseline and whether the data
//! can tell it from the next; for a diff, how many rows changed. Every front end (CLI, TUI,
//! desktop, HTML) shows this text as it is, so they cannot disagree.

use super::{CellSummary, Diff, RunSummary, RuntimeSummary};
use crate::suite::STARTUP_TEST;

/// The normal quantile of a two-sided 95 % interval. The cells' own intervals are 95 %
/// Student-t intervals; their variances are recovered from them and summed, so the
/// combination is a normal approximation (the headline, not a verdict).
const Z95: f64 = 1.959_964;

/// Variance of a log estimate whose 95 % interval is `[lo, hi]` (`None` without one).
fn log_var(lo: Option<f64>, hi: Option<f64>) -> Option<f64> {
    let (lo, hi) = (lo?, hi?);
    (lo > 0.0 && hi >= lo).then(|| ((hi / lo).ln() / (2.0 * Z95)).powi(2))
}

/// A geometric mean of ratios with the half-width of its 95 % interval, percent: each
/// test's interval is its measurement noise, and the tests are measured apart.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Mean {
    value: f64,
    halfwidth_pct: Option<f64>,
    tests: usize,
}

/// The geometric mean of `(estimate, variance of its log)` pairs; `None` when empty or a
/// value is not positive. The half-width is missing when any term has no interval.
fn log_mean(terms: &[(f64, Option<f64>)]) -> Option<Mean> {
    if terms.is_empty()
        || terms
            .iter()
            .any(|(v, _)| v.is_nan() || *v <= 0.0 || !v.is_finite())
    {
        return None;
    }
    let n = terms.len() as f64;
    let mean = terms.iter().map(|(v, _)| v.ln()).sum::<f64>() / n;
    let var: Option<f64> = terms.iter().map(|(_, s)| *s).sum();
    Some(Mean {
        value: mean.exp(),
        halfwidth_pct: var.map(|v| ((Z95 * v.sqrt() / n).exp() - 1.0) * 100.0),
        tests: terms.len(),
    })
}

/// Whether a cell counts towards its runtime's mean: whole, not the start-up module.
fn counts(c: &CellSummary) -> bool {
    c.test != STARTUP_TEST && c.failure.is_none() && !c.partial
}

/// The cells of `runtime` that count towards its mean.
fn counted<'a>(s: &'a RunSummary, runtime: &'a str) -> impl Iterator<Item = &'a CellSummary> {
    s.cells
        .iter()
        .filter(move |c| c.runtime == runtime && counts(c))
}

/// The runtime's geometric mean relative to the baseline, over the tests it has a ratio
/// for (as [`RuntimeSummary::geomean_relative`]), with its interval.
fn relative_mean(s: &RunSummary, runtime: &str) -> Option<Mean> {
    let terms: Vec<_> = counted(s, runtime)
        .filter_map(|c| Some((c.relative?, log_var(c.relative_low, c.relative_high))))
        .collect();
    log_mean(&terms)
}

/// `b` over `a` on the tests both ran (their typical times, each with its own interval):
/// the baseline cancels, so two runtimes are ranked on their own noise.
fn between(s: &RunSummary, a: &str, b: &str) -> Option<Mean> {
    let terms: Vec<_> = counted(s, a)
        .filter_map(|ca| {
            let cb = s
                .cell(b, &ca.test)
                .filter(|c| counts(c) && c.source == ca.source)?;
            let (ta, tb) = (ca.typical?, cb.typical?);
            let (sa, sb) = (ca.stats?, cb.stats?);
            let var = log_var(sa.ci_low, sa.ci_high).zip(log_var(sb.ci_low, sb.ci_high));
            Some((tb / ta, var.map(|(x, y)| x + y)))
        })
        .collect();
    log_mean(&terms)
}

fn times(x: f64) -> String {
    if x >= 10.0 {
        format!("{x:.1}×")
    } else {
        format!("{x:.2}×")
    }
}

/// How much slower `x` (> 1) is: percent while small, a factor past 2×.
fn slower(x: f64) -> String {
    if x >= 2.0 {
        format!("{} slower", times(x))
    } else {
        format!("{:.1} % slower", (x - 1.0) * 100.0)
    }
}

fn pm(h: Option<f64>) -> String {
    h.map(|h| format!("±{h:.1} %"))
        .unwrap_or_else(|| "no interval".into())
}

fn tests(n: usize) -> String {
    format!("{n} test{}", if n == 1 { "" } else { "s" })
}

/// The run's headline: the fastest runtime relative to the baseline (geometric mean, its
/// interval), the next one and whether the data tells them apart, the spread of the rest,
/// and failed cells. Without a baseline to be relative to (the lifecycle suite) runtimes
/// are ranked on their own typical times, relative to the fastest.
pub fn run_headline(s: &RunSummary) -> String {
    let failed: usize = s.per_runtime.iter().map(|r| r.failed).sum();
    let failed = match failed {
        0 => String::new(),
        1 => "; 1 cell failed".into(),
        n => format!("; {n} cells failed"),
    };
    let others = |rest: &[(&RuntimeSummary, f64)], unit: &str| match rest {
        [] => String::new(),
        [(r, x)] => format!("; then {} {}{unit}", r.runtime, times(*x)),
        [.., (_, last)] => format!(
            "; the other {} {}–{}{unit}",
            rest.len(),
            times(rest[0].1).trim_end_matches('×'),
            times(*last)
        ),
    };
    // Ranked relative to the baseline where there are ratios.
    let mut ranked: Vec<(&RuntimeSummary, f64)> = s
        .per_runtime
        .iter()
        .filter(|r| r.runtime != s.baseline)
        .filter_map(|r| Some((r, r.geomean_relative?)))
        .collect();
    let by_ratio = !ranked.is_empty();
    if !by_ratio {
        // No ratios (no baseline run alongside): the geometric mean of each runtime's
        // typical times over the tests every ranked runtime ran, relative to the fastest.
        let timed: Vec<&RuntimeSummary> = s
            .per_runtime
            .iter()
            .filter(|r| counted(s, &r.runtime).any(|c| c.typical.is_some()))
            .collect();
        let Some(first) = timed.first() else {
            return format!(
                "No runtime has a time to rank by ({} cells){failed}",
                s.cells.len()
            );
        };
        let mut rel: Vec<(&RuntimeSummary, f64)> = timed
            .iter()
            .filter_map(|r| Some((*r, between(s, &first.runtime, &r.runtime)?.value)))
            .collect();
        rel.sort_by(|a, b| a.1.total_cmp(&b.1));
        let fastest = rel[0].1;
        ranked = rel.into_iter().map(|(r, x)| (r, x / fastest)).collect();
    }
    ranked.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.runtime.cmp(&b.0.runtime)));
    // Every runtime that ran is named: those with times but no figure to rank by (timing
    // sources that differ from the baseline's, say) after the ranking, with why.
    let unranked: Vec<String> = s
        .per_runtime
        .iter()
        .filter(|r| !(by_ratio && r.runtime == s.baseline))
        .filter(|r| !ranked.iter().any(|(x, _)| x.runtime == r.runtime))
        .filter(|r| counted(s, &r.runtime).any(|c| c.typical.is_some()))
        .map(|r| {
            let why = counted(s, &r.runtime)
                .find_map(|c| c.note.clone())
                .unwrap_or_else(|| "no figure to rank by".into());
            format!("{} ({why})", r.runtime)
        })
        .collect();
    let alone = if unranked.is_empty() {
        "only runtime: "
    } else {
        "only runtime ranked: "
    };
    let failed = if unranked.is_empty() {
        failed
    } else {
        format!("; not ranked: {}{failed}", unranked.join(", "))
    };
    let base = &s.baseline;
    let Some(&(first, first_x)) = ranked.first() else {
        return format!(
            "No runtime has a time relative to {base} ({} cells){failed}",
            s.cells.len()
        );
    };
    // What the figures are relative to: the baseline, else the fastest.
    let unit = if by_ratio {
        format!(" {base}")
    } else {
        format!(" {}", first.runtime)
    };
    let own = if by_ratio {
        relative_mean(s, &first.runtime)
    } else {
        None
    };
    let lead = match own {
        Some(m) => format!(
            "{} {}{unit} (geomean of {}, {})",
            first.runtime,
            times(first_x),
            tests(m.tests),
            pm(m.halfwidth_pct)
        ),
        None if by_ratio => format!("{} {}{unit}", first.runtime, times(first_x)),
        None => first.runtime.clone(),
    };
    let Some(&(second, second_x)) = ranked.get(1) else {
        let what = if by_ratio { "" } else { alone };
        return format!("{what}{lead}{failed}");
    };
    let rest = others(&ranked[2..], &unit);
    match between(s, &first.runtime, &second.runtime) {
        // Told apart: the whole interval of second/first lies above 1.
        Some(d) if d.halfwidth_pct.is_some_and(|h| (d.value - 1.0) * 100.0 > h) => {
            // Relative to the fastest, the next one's figure is the factor itself.
            let figure = if by_ratio {
                format!(" {}{unit},", times(second_x))
            } else {
                ",".into()
            };
            format!(
                "fastest: {lead}; next {}{figure} {} ({} over {}){rest}{failed}",
                second.runtime,
                slower(d.value),
                pm(d.halfwidth_pct),
                tests(d.tests)
            )
        }
        Some(d) => format!(
            "{} and {} cannot be ranked: {} and {}{unit}, {:.1} % apart ({} over {}){rest}{failed}",
            first.runtime,
            second.runtime,
            times(first_x),
            times(second_x),
            (d.value - 1.0).abs() * 100.0,
            pm(d.halfwidth_pct),
            tests(d.tests)
        ),
        None => format!(
            "{} and {} cannot be ranked: they ran no test in common ({} and {}{unit}){rest}{failed}",
            first.runtime,
            second.runtime,
            times(first_x),
            times(second_x)
        ),
    }
}

/// The diff's headline: rows by verdict (slower, faster, beyond the threshold on their own
/// but not held over the family, no change, and undecided: too few rounds, too little data
/// or not comparable), and the rows only one run has.
pub fn diff_headline(d: &Diff) -> String {
    let c = d.counts();
    let mut text = format!("{} slower, {} faster", c.slower, c.faster);
    if c.not_held > 0 {
        text.push_str(&format!(
            ", {} beyond ±{} % alone (not held over {} rows)",
            c.not_held,
            d.threshold_pct,
            d.family()
        ));
    }
    text.push_str(&format!(
        ", {} no change, {} undecided",
        c.no_change,
        c.undecided + c.insufficient + c.not_comparable + d.dropped.len()
    ));
    if !d.only_a.is_empty() {
        text.push_str(&format!("; {} only in A", d.only_a.len()));
    }
    if !d.only_b.is_empty() {
        text.push_str(&format!("; {} only in B", d.only_b.len()));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Stats;

    /// A cell with a typical time and a ±`pct` interval around it, relative `rel` with the
    /// same relative width.
    fn cell(runtime: &str, test: &str, typical: f64, pct: f64, rel: Option<f64>) -> CellSummary {
        let mut c = CellSummary::fixture(runtime, test, Some(typical));
        let f = 1.0 + pct / 100.0;
        let mut st = Stats::describe(&[typical, typical, typical]).unwrap();
        st.ci_low = Some(typical / f);
        st.ci_high = Some(typical * f);
        c.stats = Some(st);
        c.relative = rel;
        c.relative_low = rel.map(|r| r / f);
        c.relative_high = rel.map(|r| r * f);
        c
    }

    fn summary(cells: Vec<CellSummary>, baseline: &str) -> RunSummary {
        let mut runtimes: Vec<String> = Vec::new();
        let mut tests: Vec<String> = Vec::new();
        for c in &cells {
            if !runtimes.contains(&c.runtime) {
                runtimes.push(c.runtime.clone());
            }
            if !tests.contains(&c.test) {
                tests.push(c.test.clone());
            }
        }
        let per_runtime = runtimes
            .iter()
            .map(|rt| {
                let rel: Vec<f64> = cells
                    .iter()
                    .filter(|c| &c.runtime == rt)
                    .filter_map(|c| c.relative)
                    .collect();
                RuntimeSummary {
                    runtime: rt.clone(),
                    geomean_relative: crate::analysis::geomean(&rel),
                    tests_compared: rel.len(),
                    tests_total: tests.len(),
                    failed: cells
                        .iter()
                        .filter(|c| &c.runtime == rt && c.failure.is_some())
                        .count(),
                }
            })
            .collect();
        RunSummary {
            run_id: "r".into(),
            baseline: baseline.into(),
            tests,
            runtimes,
            cells,
            per_runtime,
            load: None,
        }
    }

    /// native 100 ns on two tests; `a` and `b` at the given times with ±`pct` intervals;
    /// an interpreter far behind.
    fn three(a: f64, b: f64, pct: f64) -> RunSummary {
        let mut cells = Vec::new();
        for t in ["sha256", "crc32"] {
            cells.push(cell("native", t, 100.0, pct, Some(1.0)));
            cells.push(cell("wasmtime", t, a, pct, Some(a / 100.0)));
            cells.push(cell("wasmer", t, b, pct, Some(b / 100.0)));
            cells.push(cell("wasmi", t, 1500.0, pct, Some(15.0)));
            cells.push(cell("wasm3", t, 2000.0, pct, Some(20.0)));
        }
        summary(cells, "native")
    }

    #[test]
    fn names_the_fastest_when_the_data_tells_it_from_the_next() {
        // 144 against 150 ns (4.2 % apart), every cell ±1 %: told apart.
        let h = run_headline(&three(144.0, 150.0, 1.0));
        assert_eq!(
            h,
            "fastest: wasmtime 1.44× native (geomean of 2 tests, ±0.7 %); next wasmer 1.50× native, 4.2 % slower (±1.0 % over 2 tests); the other 2 15.0–20.0× native"
        );
    }

    #[test]
    fn says_so_when_the_data_cannot_rank_the_first_two() {
        // 144 against 146 ns (1.4 % apart), every cell ±3 %: the interval of the
        // difference (±3.0 %) holds no change.
        let h = run_headline(&three(144.0, 146.0, 3.0));
        assert!(
            h.starts_with(
                "wasmtime and wasmer cannot be ranked: 1.44× and 1.46× native, 1.4 % apart (±3.0 % over 2 tests)"
            ),
            "{h}"
        );
        assert!(!h.contains("fastest"), "{h}");
    }

    #[test]
    fn counts_failed_cells_and_leaves_out_the_baseline() {
        let mut s = three(144.0, 150.0, 1.0);
        s.cells[1].failure = Some("trap".into());
        s.cells[1].relative = None;
        s.per_runtime[1].failed = 1;
        s.per_runtime[1].geomean_relative = Some(1.5);
        let h = run_headline(&s);
        assert!(h.ends_with("; 1 cell failed"), "{h}");
        assert!(!h.contains("native 1.00×"), "{h}");
    }

    #[test]
    fn without_ratios_ranks_on_typical_times_relative_to_the_fastest() {
        let mut cells = Vec::new();
        for t in ["hello", "heap-1m"] {
            cells.push(cell("wasmtime", t, 300.0, 1.0, None));
            cells.push(cell("wasmtime-pooling", t, 100.0, 1.0, None));
        }
        let h = run_headline(&summary(cells, "wasmtime"));
        assert!(
            h.starts_with(
                "fastest: wasmtime-pooling; next wasmtime, 3.00× slower (±1.0 % over 2 tests)"
            ),
            "{h}"
        );
    }

    #[test]
    fn a_run_without_times_says_so() {
        let mut c = cell("wasmtime", "sha256", 1.0, 1.0, None);
        c.failure = Some("trap".into());
        c.stats = None;
        c.typical = None;
        let mut s = summary(vec![c], "native");
        s.per_runtime[0].failed = 1;
        assert_eq!(
            run_headline(&s),
            "No runtime has a time to rank by (1 cells); 1 cell failed"
        );
    }

    #[test]
    fn a_diff_headline_counts_rows_by_verdict() {
        use crate::analysis::{DiffKey, DiffRow, Verdict};
        let row = |test: &str, verdict: Verdict| DiffRow {
            runtime: "wasmtime".into(),
            test: test.into(),
            phase: "execute".into(),
            a_median: 1.0,
            b_median: 1.0,
            a_typical: Some(1.0),
            b_typical: Some(1.0),
            ratio: Some(1.0),
            ci_low: Some(0.99),
            ci_high: Some(1.01),
            halfwidth_pct: Some(1.0),
            level: None,
            p_adjusted: Some(0.5),
            verdict,
            note: None,
            n: (6, 6),
            invocations: (2, 2),
            pairs: None,
        };
        let key = |test: &str| DiffKey {
            runtime: "wasmtime".into(),
            test: test.into(),
            phase: "execute".into(),
        };
        let mut d = Diff::fixture(vec![
            row("a", Verdict::Slower),
            row("b", Verdict::Slower),
            row("c", Verdict::Faster),
            row("d", Verdict::NoChange),
            row("e", Verdict::InsufficientData),
            row("f", Verdict::NotComparable),
        ]);
        assert_eq!(
            diff_headline(&d),
            "2 slower, 1 faster, 1 no change, 2 undecided"
        );
        d.only_a = vec![key("x"), key("y")];
        d.only_b = vec![key("z")];
        assert_eq!(
            diff_headline(&d),
            "2 slower, 1 faster, 1 no change, 2 undecided; 2 only in A; 1 only in B"
        );
    }
}
