//! The lifecycle suite's tables, each figure a median (p99) per operation: every
//! measurement of one module per runtime, each measurement of the module files (a build
//! script's programs) with their compile throughput, and a measurement against initial
//! heap size with a line per runtime and fill (dense, sparse).

use super::Table;
use crate::analysis::{HeapSeries, MEASURES, Measure, RunSummary, heap_series, heap_sizes};
use crate::format::{FAILED, MISSING, format_size, format_value};
use crate::store::TestRecord;

/// Measurements shown against heap size unless all of them are asked for.
pub const HEAP_DEFAULT: [&str; 2] = ["instantiate", "teardown"];

/// `median (p99)` in the measurement's unit.
fn median_p99(m: &Measure, median: f64, p99: f64) -> String {
    format!(
        "{} ({})",
        format_value(m.unit, median),
        format_value(m.unit, p99)
    )
}

/// Every measurement of module `test` (down) per runtime (across).
pub fn module_table(s: &RunSummary, test: &str) -> Table {
    let mut t = Table::new(
        std::iter::once(test).chain(s.runtimes.iter().map(String::as_str)),
        1,
    );
    t.rows = MEASURES
        .iter()
        .map(|m| {
            let mut row = vec![m.label.to_string()];
            row.extend(s.runtimes.iter().map(|rt| {
                match s.cell(rt, test) {
                    Some(c) if c.failure.is_some() => FAILED.into(),
                    Some(c) => m
                        .stats(c)
                        .map_or_else(|| MISSING.into(), |st| median_p99(m, st.median, st.p99)),
                    None => MISSING.into(),
                }
            }));
            row
        })
        .collect();
    t
}

/// Measurement `m` against initial heap size (across), a row per runtime and fill, from the
/// run's [`heap_series`]; none when no heap module has it.
pub fn heap_table(s: &RunSummary, series: &[HeapSeries], m: &Measure) -> Option<Table> {
    let lines: Vec<&HeapSeries> = series.iter().filter(|x| x.measure == m.key).collect();
    if lines.is_empty() {
        return None;
    }
    let sizes = heap_sizes(s);
    let mut t = Table::new(
        std::iter::once(format!("{} vs heap", m.label))
            .chain(sizes.iter().map(|b| format_size(*b))),
        1,
    );
    t.rows = lines
        .iter()
        .map(|l| {
            let mut row = vec![format!("{} {}", l.runtime, l.fill)];
            row.extend(sizes.iter().map(|b| {
                l.points
                    .iter()
                    .find(|p| p.heap_bytes == *b)
                    .map_or_else(|| MISSING.into(), |p| median_p99(m, p.median, p.p99))
            }));
            row
        })
        .collect();
    Some(t)
}

/// The module files of a lifecycle run (tests recorded with a module size), with it.
fn module_files<'a>(s: &'a RunSummary, tests: &[TestRecord]) -> Vec<(&'a str, u64)> {
    s.tests
        .iter()
        .filter_map(|name| {
            let t = tests.iter().find(|t| &t.name == name)?;
            Some((name.as_str(), t.module_bytes?))
        })
        .collect()
}

/// The module files' measurements: one table per measurement any of them has, modules
/// (with their size) down and runtimes across, then compile throughput — module bytes per
/// second of the median compile, in MB/s — which makes engines comparable across sizes.
pub fn module_files_tables(s: &RunSummary, tests: &[TestRecord]) -> Vec<Table> {
    let files = module_files(s, tests);
    if files.is_empty() {
        return Vec::new();
    }
    let cell = |rt: &str, test: &str, m: &Measure| match s.cell(rt, test) {
        Some(c) if c.failure.is_some() => Err(FAILED),
        Some(c) => m.stats(c).map(|st| (st.median, st.p99)).ok_or(MISSING),
        None => Err(MISSING),
    };
    let table = |title: &str, value: &dyn Fn(&str, u64, &str) -> String| {
        let mut t = Table::new(
            std::iter::once(title).chain(s.runtimes.iter().map(String::as_str)),
            1,
        );
        t.rows = files
            .iter()
            .map(|(test, bytes)| {
                let mut row = vec![format!("{test} ({})", format_size(*bytes))];
                row.extend(s.runtimes.iter().map(|rt| value(rt, *bytes, test)));
                row
            })
            .collect();
        t
    };
    let mut out: Vec<Table> = MEASURES
        .iter()
        .filter(|m| {
            files
                .iter()
                .any(|(test, _)| s.runtimes.iter().any(|rt| cell(rt, test, m).is_ok()))
        })
        .map(|m| {
            table(m.label, &|rt, _, test| match cell(rt, test, m) {
                Ok((median, p99)) => median_p99(m, median, p99),
                Err(mark) => mark.into(),
            })
        })
        .collect();
    if let Some(compile) = Measure::get("compile") {
        out.push(table(
            "compile throughput",
            &|rt, bytes, test| match cell(rt, test, &compile) {
                Ok((median, _)) if median > 0.0 => {
                    format!("{:.1} MB/s", bytes as f64 / median * 1e3)
                }
                Ok(_) => MISSING.into(),
                Err(mark) => mark.into(),
            },
        ));
    }
    out
}

/// A lifecycle run's operations: the `hello` module's every measurement, then the module
/// files' ([`module_files_tables`]).
pub fn operations_tables(s: &RunSummary, tests: &[TestRecord]) -> Vec<Table> {
    let mut out: Vec<Table> = s
        .tests
        .iter()
        .filter(|t| t.as_str() == "hello")
        .map(|t| module_table(s, t))
        .collect();
    out.extend(module_files_tables(s, tests));
    out
}

/// Measurements against heap size: [`HEAP_DEFAULT`]'s, or every one when `all`.
pub fn heap_tables(s: &RunSummary, all: bool) -> Vec<Table> {
    let series = heap_series(s);
    MEASURES
        .iter()
        .filter(|m| all || HEAP_DEFAULT.contains(&m.key))
        .filter_map(|m| heap_table(s, &series, m))
        .collect()
}
