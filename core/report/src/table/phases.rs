//! Where the time of an iteration goes: the median wall time of each phase per runtime and
//! test, next to the guest's own timing of its run.

use super::Table;
use crate::analysis::{CellSummary, RunSummary};
use crate::format::{FAILED, MISSING, format_ns};
use crate::model::Phase;

/// Median of each phase per runtime and test (cells in summary order), or per runtime for
/// one `test`; a failed cell says so in its first phase.
pub fn phases_table(s: &RunSummary, test: Option<&str>) -> Table {
    let names = Phase::COMMAND.map(|p| p.as_str());
    let keys: &[&str] = if test.is_some() {
        &["runtime"]
    } else {
        &["runtime", "test"]
    };
    let mut t = Table::new(
        keys.iter().copied().chain(names).chain(["self-timed"]),
        keys.len(),
    );
    t.title = Some(match test {
        Some(test) => format!("median wall time per phase of {test}"),
        None => "median per phase (harness wall clock)".into(),
    });
    let cells: Vec<&CellSummary> = match test {
        Some(test) => s
            .runtimes
            .iter()
            .filter_map(|rt| s.cell(rt, test))
            .collect(),
        None => s.cells.iter().collect(),
    };
    for c in cells {
        let mut row = vec![c.runtime.clone()];
        if test.is_none() {
            row.push(c.test.clone());
        }
        if c.failure.is_some() {
            row.push(FAILED.into());
            row.resize(t.columns.len(), String::new());
        } else {
            row.extend(names.iter().map(|n| {
                c.phases
                    .get(*n)
                    .map_or_else(|| MISSING.into(), |ns| format_ns(*ns))
            }));
            row.push(match (&c.stats, c.source.as_str()) {
                (Some(st), "self") => format_ns(st.median),
                _ => MISSING.into(),
            });
        }
        t.rows.push(row);
    }
    t
}
