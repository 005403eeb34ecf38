//! The figures of a summary or a diff as their table cells read, the same text in every
//! front end: a cell's typical value with its noise and relative time, a runtime's geometric
//! mean, a diff row's ratio with its interval.

use crate::analysis::{CellSummary, DiffRow, RuntimeSummary};
use crate::format::{FAILED, MISSING, format_count, format_ns_within};

/// A diff row's ratio with its interval and half-width (`1.034 [1.012, 1.057] ±2.2 %`), the
/// interval's level when it is not 95 % (`… ±9.1 % at 96.9 %`: a signed-rank interval's
/// exact level), or why it has none.
pub fn format_ratio(r: &DiffRow) -> String {
    match (r.ratio, r.ci_low, r.ci_high, r.halfwidth_pct) {
        (Some(x), Some(lo), Some(hi), Some(h)) => {
            let level = r
                .level
                .filter(|l| (l - 0.95).abs() >= 0.0005)
                .map(|l| format!(" at {}", crate::analysis::level_text(l)))
                .unwrap_or_default();
            format!("{x:.3} [{lo:.3}, {hi:.3}] ±{h:.1} %{level}")
        }
        (Some(x), ..) => format!("{x:.3} (no interval)"),
        _ => MISSING.into(),
    }
}

/// A summary cell's typical value ([`crate::analysis::Stats::typical`]: what its interval
/// is of, to the digits that interval supports) with its noise and relative time
/// (`12.3 ms ±1.2 % (1.05×)`), marked when partial; [`FAILED`] or [`MISSING`] when it has no value.
pub fn format_cell(c: &CellSummary) -> String {
    if c.failure.is_some() {
        return FAILED.into();
    }
    let Some(st) = c.stats else {
        return MISSING.into();
    };
    let mut text = if c.source == "instructions" {
        format_count(st.typical(), "instr")
    } else {
        format_ns_within(st.typical(), c.halfwidth_pct)
    };
    if let Some(h) = c.halfwidth_pct {
        text.push_str(&format!(" ±{h:.1} %"));
    }
    if let Some(r) = c.relative {
        text.push_str(&format!(" ({r:.2}×)"));
    }
    if c.partial {
        text.push_str(" partial");
    }
    text
}

/// A runtime's geometric mean, naming how many tests it covers when that is not all of
/// them (`1.23×`, `1.23× (12 of 15 tests)`).
pub fn format_geomean(r: &RuntimeSummary) -> String {
    match r.geomean_relative {
        Some(g) if r.tests_total > 0 && r.tests_compared < r.tests_total => {
            format!("{g:.2}× ({} of {} tests)", r.tests_compared, r.tests_total)
        }
        Some(g) => format!("{g:.2}×"),
        None => MISSING.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Verdict;

    fn cell(median: Option<f64>) -> CellSummary {
        CellSummary::fixture("wasmtime", "sha256", median)
    }

    #[test]
    fn cells_say_median_noise_relative_and_partial() {
        let mut c = cell(Some(12_345_678.0));
        assert_eq!(format_cell(&c), "12.35 ms");
        c.halfwidth_pct = Some(1.23);
        c.relative = Some(1.049);
        assert_eq!(format_cell(&c), "12.3 ms ±1.2 % (1.05×)");
        c.partial = true;
        assert_eq!(format_cell(&c), "12.3 ms ±1.2 % (1.05×) partial");
        c.source = "instructions".into();
        assert_eq!(format_cell(&c), "12.346M instr ±1.2 % (1.05×) partial");
        assert_eq!(format_cell(&cell(None)), MISSING);
        let mut failed = cell(Some(1.0));
        failed.failure = Some("trap".into());
        assert_eq!(format_cell(&failed), FAILED);
    }

    /// Seen in session 14: wasm3's median 7.85 ms printed against an interval of
    /// 8.15–8.58 ms. The figure shown is the one the interval is of.
    #[test]
    fn a_cell_shows_what_its_interval_is_of_not_a_median_outside_it() {
        let mut c = cell(Some(7_850_000.0));
        let st = c.stats.as_mut().unwrap();
        st.ci_low = Some(8_150_000.0);
        st.ci_high = Some(8_580_000.0);
        let shown = format_cell(&c);
        assert_eq!(shown, "8.36 ms", "{shown}");
        assert!(c.stats.unwrap().typical() > 8_150_000.0);
    }

    #[test]
    fn geomeans_name_their_coverage() {
        let mut r = RuntimeSummary {
            runtime: "wasmtime".into(),
            geomean_relative: Some(1.234),
            tests_compared: 3,
            tests_total: 3,
            failed: 0,
        };
        assert_eq!(format_geomean(&r), "1.23×");
        r.tests_compared = 2;
        assert_eq!(format_geomean(&r), "1.23× (2 of 3 tests)");
        r.geomean_relative = None;
        assert_eq!(format_geomean(&r), MISSING);
    }

    #[test]
    fn ratios_carry_their_interval_or_say_why_not() {
        let mut r = DiffRow {
            runtime: "wasmtime".into(),
            test: "sha256".into(),
            phase: "execute".into(),
            a_median: 1e6,
            b_median: 1.034e6,
            a_typical: None,
            b_typical: None,
            ratio: Some(1.034),
            ci_low: Some(1.0121),
            ci_high: Some(1.057),
            halfwidth_pct: Some(2.2),
            level: None,
            p_adjusted: None,
            verdict: Verdict::NoChange,
            note: None,
            n: (6, 6),
            invocations: (2, 2),
            pairs: None,
        };
        assert_eq!(format_ratio(&r), "1.034 [1.012, 1.057] ±2.2 %");
        r.ci_low = None;
        assert_eq!(format_ratio(&r), "1.034 (no interval)");
        r.ratio = None;
        assert_eq!(format_ratio(&r), MISSING);
    }
}
