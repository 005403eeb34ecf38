//! The summary of a command suite's run: the typical time per test × runtime with its noise and the
//! time relative to the baseline, then each runtime's geometric mean.

use super::Table;
use super::figures::{format_cell, format_geomean};
use crate::analysis::{Corrected, RunSummary};
use crate::format::{MISSING, format_ns};
use crate::suite::STARTUP_TEST;

/// Tests down, runtimes across; a footer row of geometric means; a note for each cell
/// that says why it has no relative value.
pub fn summary_table(s: &RunSummary) -> Table {
    let mut t = Table::new(
        std::iter::once("test").chain(s.runtimes.iter().map(String::as_str)),
        1,
    )
    .titled(format!(
        "typical time per iteration (self-timed where the guest reports it): the geometric mean over invocations ± half its 95 % interval; (n×) = time relative to {}, lower is faster",
        s.baseline
    ));
    for test in &s.tests {
        let mut row = vec![test.clone()];
        for rt in &s.runtimes {
            row.push(match s.cell(rt, test) {
                Some(c) => {
                    if let (None, Some(n)) = (&c.failure, &c.note) {
                        t.notes.push(format!("{rt} × {test}: {n}"));
                    }
                    format_cell(c)
                }
                None => MISSING.into(),
            });
        }
        t.rows.push(row);
    }
    let mut geomeans = vec![format!("geomean × {}", s.baseline)];
    geomeans.extend(s.runtimes.iter().map(|rt| {
        s.per_runtime
            .iter()
            .find(|r| &r.runtime == rt)
            .map_or_else(|| MISSING.into(), format_geomean)
    }));
    t.footer.push(geomeans);
    if let Some(l) = s.load.filter(|l| l.busy) {
        t.notes.push(format!(
            "{}: its figures carry that load, and a diff with this run gives no verdicts",
            l.describe(&s.run_id)
        ));
    }
    t
}

/// CLI runtimes' whole-process times less their start-up (the empty module's time), tests
/// down; `None` when no cell has one (no empty module, or no CLI runtime timed by its
/// process). Never mixed into the summary's figures: labelled as what it is.
pub fn startup_corrected_table(s: &RunSummary) -> Option<Table> {
    let runtimes: Vec<&String> = s
        .runtimes
        .iter()
        .filter(|rt| {
            s.cells
                .iter()
                .any(|c| &c.runtime == *rt && c.startup_corrected.is_some())
        })
        .collect();
    if runtimes.is_empty() {
        return None;
    }
    let mut t = Table::new(
        std::iter::once("test").chain(runtimes.iter().map(|r| r.as_str())),
        1,
    )
    .titled(format!(
        "start-up corrected: a CLI runtime's median whole-process time less its median for the empty module ({STARTUP_TEST}), with a 95 % interval that holds both; not comparable with embedded runtimes' execute times"
    ));
    for test in s.tests.iter().filter(|t| *t != STARTUP_TEST) {
        let mut row = vec![test.clone()];
        for rt in &runtimes {
            row.push(
                s.cell(rt, test)
                    .and_then(|c| c.startup_corrected)
                    .map_or_else(|| MISSING.into(), |c| format_corrected(&c)),
            );
        }
        t.rows.push(row);
    }
    Some(t)
}

/// `12.3 ms (11.0 ms–13.9 ms)`; below zero the start-up hides the program: said so.
fn format_corrected(c: &Corrected) -> String {
    let time = format_ns;
    if c.high.is_some_and(|h| h <= 0.0) || c.ns <= 0.0 {
        return "within start-up".into();
    }
    match (c.low, c.high) {
        (Some(lo), Some(hi)) => format!("{} ({}–{})", time(c.ns), time(lo.max(0.0)), time(hi)),
        _ => time(c.ns),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{CellSummary, RuntimeSummary};

    fn cell(rt: &str, test: &str, median: f64, relative: Option<f64>) -> CellSummary {
        CellSummary {
            relative,
            halfwidth_pct: Some(2.0),
            ..CellSummary::fixture(rt, test, Some(median))
        }
    }

    /// Two tests on native and wasmtime: wasmtime failed one and has a note on the other.
    fn run() -> RunSummary {
        let mut failed = cell("wasmtime", "nbody", 0.0, None);
        failed.stats = None;
        failed.failure = Some("trap: unreachable".into());
        let mut noted = cell("wasmtime", "sha256", 3e6, None);
        noted.note = Some("timing sources differ".into());
        RunSummary {
            run_id: "r".into(),
            baseline: "native".into(),
            tests: vec!["sha256".into(), "nbody".into()],
            runtimes: vec!["native".into(), "wasmtime".into()],
            cells: vec![
                cell("native", "sha256", 2e6, Some(1.0)),
                noted,
                cell("native", "nbody", 12e6, Some(1.0)),
                failed,
            ],
            per_runtime: vec![
                RuntimeSummary {
                    runtime: "native".into(),
                    geomean_relative: Some(1.0),
                    tests_compared: 2,
                    tests_total: 2,
                    failed: 0,
                },
                RuntimeSummary {
                    runtime: "wasmtime".into(),
                    geomean_relative: None,
                    tests_compared: 0,
                    tests_total: 2,
                    failed: 1,
                },
            ],
            load: None,
        }
    }

    #[test]
    fn the_summary_has_a_cell_per_test_and_runtime_and_geomeans_last() {
        let t = summary_table(&run());
        let titles: Vec<&str> = t.columns.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(titles, ["test", "native", "wasmtime"]);
        assert_eq!(
            t.rows,
            [
                ["sha256", "2.00 ms ±2.0 % (1.00×)", "3.00 ms ±2.0 %"],
                ["nbody", "12.0 ms ±2.0 % (1.00×)", "FAILED"],
            ]
        );
        assert_eq!(t.footer, [["geomean × native", "1.00×", "-"]]);
        assert_eq!(t.notes, ["wasmtime × sha256: timing sources differ"]);
        assert!(t.title.unwrap().contains("relative to native"));
    }

    #[test]
    fn a_busy_run_says_so_and_a_quiet_one_does_not() {
        let mut s = run();
        s.load = Some(crate::analysis::RunLoad::new(1.6, 2));
        let notes = summary_table(&s).notes;
        assert_eq!(
            notes.last().unwrap(),
            "other processes took 1.60 of 2 cores during run r: its figures carry that load, \
             and a diff with this run gives no verdicts"
        );
        s.load = Some(crate::analysis::RunLoad::new(0.4, 2));
        assert_eq!(
            summary_table(&s).notes.len(),
            1,
            "0.4 of 2 cores is quiet enough"
        );
    }
}
