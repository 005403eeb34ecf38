//! A diff as a table: per runtime × test × phase the two typical values (what the ratio is
//! of: geometric means over invocations), the ratio B/A with its
//! interval and noise, the verdict and why it is what it is; then what only one side has.

use super::figures::format_ratio;
use super::{Align, Column, Table};
use crate::analysis::{Diff, DiffRow, Unit};
use crate::format::format_value;

/// The columns of a diff table: the row's key (text), the two typical values and the ratio
/// (numbers), the verdict and its note (text).
pub fn diff_columns() -> Vec<Column> {
    let mut t = Table::new(
        [
            "runtime",
            "test",
            "phase",
            "A",
            "B",
            "B/A [CI] ±noise",
            "verdict",
            "note",
        ],
        3,
    );
    for c in &mut t.columns[6..] {
        c.align = Align::Left;
    }
    t.columns
}

/// The cells of one compared row, as [`diff_columns`] names them; values under 100 ns
/// keep a decimal (a lifecycle call takes ~10 ns).
pub fn diff_row(r: &DiffRow) -> Vec<String> {
    vec![
        r.runtime.clone(),
        r.test.clone(),
        r.phase.clone(),
        format_value(Unit::Ns, r.a_typical.unwrap_or(r.a_median)),
        format_value(Unit::Ns, r.b_typical.unwrap_or(r.b_median)),
        format_ratio(r),
        r.verdict.to_string(),
        r.note.clone().unwrap_or_default(),
    ]
}

/// One row per compared runtime × test × phase (in [`Diff::rows`] order, so row `i` is
/// `d.rows[i]`), then a row for each key only A or only B has, its verdict `only in A` or
/// `only in B`.
pub fn diff_table(d: &Diff) -> Table {
    let mut t = Table {
        columns: diff_columns(),
        rows: d.rows.iter().map(diff_row).collect(),
        ..Table::default()
    };
    for (keys, what) in [(&d.only_a, "only in A"), (&d.only_b, "only in B")] {
        t.rows.extend(keys.iter().map(|k| {
            let mut row = vec![k.runtime.clone(), k.test.clone(), k.phase.clone()];
            row.extend(["", "", ""].map(String::from));
            row.extend([what.to_string(), String::new()]);
            row
        }));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{DiffKey, Verdict};

    #[test]
    fn a_diff_row_per_compared_key_then_what_one_side_has() {
        let mut d = Diff::fixture(vec![DiffRow {
            runtime: "wasmtime".into(),
            test: "sha256".into(),
            phase: "execute".into(),
            a_median: 2.0e6,
            b_median: 1.9e6,
            a_typical: Some(2.05e6),
            b_typical: Some(1.85e6),
            ratio: Some(0.9),
            ci_low: Some(0.872),
            ci_high: Some(0.929),
            halfwidth_pct: Some(3.2),
            level: None,
            p_adjusted: Some(0.0001),
            verdict: Verdict::Faster,
            note: None,
            n: (6, 6),
            invocations: (2, 2),
            pairs: None,
        }]);
        d.only_a = vec![DiffKey {
            runtime: "native".into(),
            test: "nbody".into(),
            phase: "total".into(),
        }];
        // A and B are the typical values the ratio is of, not the medians.
        let t = diff_table(&d);
        assert_eq!(
            t.rows,
            [
                [
                    "wasmtime",
                    "sha256",
                    "execute",
                    "2.05 ms",
                    "1.85 ms",
                    "0.900 [0.872, 0.929] ±3.2 %",
                    "faster",
                    ""
                ],
                ["native", "nbody", "total", "", "", "", "only in A", ""],
            ]
        );
        // A lifecycle call of a few ns keeps its decimal.
        let mut call = d.rows[0].clone();
        (call.a_typical, call.b_typical) = (Some(34.6), Some(71.24));
        assert_eq!(diff_row(&call)[3..5], ["34.6 ns", "71.2 ns"]);
        let aligns: Vec<Align> = t.columns.iter().map(|c| c.align).collect();
        use Align::{Left as L, Right as R};
        assert_eq!(aligns, [L, L, L, R, R, R, L, L]);
    }
}
