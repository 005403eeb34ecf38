//! `wasmeter show RUN`: one saved run's summary.

use super::Ctx;
use crate::fmt::{duration_ns, table};
use anyhow::Result;
use std::process::ExitCode;
use wasmeter_core::analysis::{
    HeapSeries, MEASURES, Measure, RunSummary, heap_series, heap_sizes, http_cells, summarize,
};
use wasmeter_core::export::{format_cell, format_geomean, format_size, format_value, http_tables};
use wasmeter_core::runtime::Phase;
use wasmeter_core::store::NotApplicable;
use wasmeter_core::store::SavedRun;
use wasmeter_core::suite::SuiteKind;

pub fn main(
    ctx: &Ctx,
    spec: &str,
    baseline: Option<&str>,
    phases: bool,
    json: bool,
) -> Result<ExitCode> {
    let run = super::load(ctx, spec)?;
    let summary = summarize(&run, baseline);
    if json {
        super::print_json(&summary)?;
    } else {
        let m = &run.meta;
        println!(
            "run {}{} — suite {} ({}), {}, {} warm-up + {} runs",
            m.id,
            m.label
                .as_ref()
                .map(|l| format!(" \"{l}\""))
                .unwrap_or_default(),
            m.suite,
            m.settings.size,
            m.status,
            m.settings.warmup,
            m.settings.runs
        );
        println!(
            "machine: {} ({} cores), {}, kernel {}",
            m.machine.cpu_model, m.machine.cores, m.machine.os, m.machine.kernel
        );
        if m.suite_kind == SuiteKind::Lifecycle {
            print!("{}", render_lifecycle(&summary, &m.not_applicable, phases));
        } else if m.suite_kind.is_http() {
            print!("{}", render_http(&run, &summary));
        } else {
            print!("{}", render_summary(&summary));
            if phases {
                print!("{}", render_phases(&summary));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Measurements shown against heap size by default (all of them with `--phases`).
const HEAP_DEFAULT: [&str; 2] = ["instantiate", "teardown"];

/// A lifecycle run: the `hello` module's every measurement per runtime, then measurements
/// against heap size (dense and sparse lines per runtime), all as median (p99) per
/// operation; then what was not applicable and what failed.
pub fn render_lifecycle(s: &RunSummary, not_applicable: &[NotApplicable], all: bool) -> String {
    let mut out = String::from(
        "per operation: median (p99) over the samples; each sample times a batch of operations as one\n",
    );
    let stat = |rt: &str, test: &str, m: &Measure| -> String {
        match s.cell(rt, test) {
            Some(c) if c.failure.is_some() => "FAILED".into(),
            Some(c) => m
                .stats(c)
                .map(|st| {
                    format!(
                        "{} ({})",
                        format_value(m.unit, st.median),
                        format_value(m.unit, st.p99)
                    )
                })
                .unwrap_or_else(|| "-".into()),
            None => "-".into(),
        }
    };
    for test in s.tests.iter().filter(|t| t.as_str() == "hello") {
        let mut header = vec![test.clone()];
        header.extend(s.runtimes.iter().cloned());
        let rows: Vec<Vec<String>> = MEASURES
            .iter()
            .map(|m| {
                let mut row = vec![m.label.to_string()];
                row.extend(s.runtimes.iter().map(|rt| stat(rt, test, m)));
                row
            })
            .collect();
        out.push('\n');
        out.push_str(&table(&header, &rows, 1));
    }
    let sizes = heap_sizes(s);
    let series = heap_series(s);
    for m in MEASURES
        .iter()
        .filter(|m| all || HEAP_DEFAULT.contains(&m.key))
    {
        let lines: Vec<&HeapSeries> = series.iter().filter(|x| x.measure == m.key).collect();
        if lines.is_empty() {
            continue;
        }
        let mut header = vec![format!("{} vs heap", m.label)];
        header.extend(sizes.iter().map(|b| format_size(*b)));
        let rows: Vec<Vec<String>> = lines
            .iter()
            .map(|l| {
                let mut row = vec![format!("{} {}", l.runtime, l.fill)];
                row.extend(sizes.iter().map(|b| {
                    l.points
                        .iter()
                        .find(|p| p.heap_bytes == *b)
                        .map(|p| {
                            format!(
                                "{} ({})",
                                format_value(m.unit, p.median),
                                format_value(m.unit, p.p99)
                            )
                        })
                        .unwrap_or_else(|| "-".into())
                }));
                row
            })
            .collect();
        out.push('\n');
        out.push_str(&table(&header, &rows, 1));
    }
    if !all && !series.is_empty() {
        out.push_str("\n(--phases: every measurement against heap size)\n");
    }
    if !not_applicable.is_empty() {
        out.push('\n');
        out.push_str(&render_not_applicable(not_applicable));
    }
    out.push_str(&render_failures(s));
    out
}

/// Median of each phase per runtime and test: where the time of an iteration goes, and how
/// the guest's own timing compares with the harness's timing of `execute`.
pub fn render_phases(s: &RunSummary) -> String {
    let names: Vec<&str> = Phase::COMMAND.iter().map(|p| p.as_str()).collect();
    let mut header = vec!["runtime".to_string(), "test".to_string()];
    header.extend(names.iter().map(|n| n.to_string()));
    header.push("self-timed".into());
    let cell = |v: Option<&f64>| v.map(|ns| duration_ns(*ns)).unwrap_or_else(|| "-".into());
    let rows: Vec<Vec<String>> = s
        .cells
        .iter()
        .filter(|c| c.failure.is_none())
        .map(|c| {
            let mut row = vec![c.runtime.clone(), c.test.clone()];
            row.extend(names.iter().map(|n| cell(c.phases.get(*n))));
            row.push(match (&c.stats, c.source.as_str()) {
                (Some(t), "self") => duration_ns(t.median),
                _ => "-".into(),
            });
            row
        })
        .collect();
    format!(
        "\nmedian per phase (harness wall clock)\n{}",
        table(&header, &rows, 2)
    )
}

/// The summary as a table: median per test × runtime with time relative to the baseline,
/// then the geometric mean per runtime and the failures.
pub fn render_summary(s: &RunSummary) -> String {
    let mut header = vec!["test".to_string()];
    header.extend(s.runtimes.iter().cloned());
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    for t in &s.tests {
        let mut row = vec![t.clone()];
        for rt in &s.runtimes {
            row.push(match s.cell(rt, t) {
                Some(c) if c.failure.is_some() => "FAILED".into(),
                Some(c) => {
                    if let Some(n) = &c.note {
                        notes.push(format!("{rt} × {t}: {n}"));
                    }
                    format_cell(c)
                }
                None => "-".into(),
            });
        }
        rows.push(row);
    }
    let mut g = vec![format!("geomean × {}", s.baseline)];
    g.extend(s.per_runtime.iter().map(format_geomean));
    rows.push(g);
    let mut out = format!(
        "median time per iteration (self-timed where the guest reports it) ± half its 95 % interval over invocations; (n×) = time relative to {}, lower is faster\n",
        s.baseline
    );
    out.push_str(&table(&header, &rows, 1));
    for n in notes {
        out.push_str(&format!("note: {n}\n"));
    }
    out.push_str(&render_failures(s));
    out
}

/// An HTTP run: per request, the variants' cold start, latency, best throughput, memory
/// and CPU, then requests per second at each concurrency level; then what was not run and
/// what failed.
pub fn render_http(run: &SavedRun, s: &RunSummary) -> String {
    let cells = http_cells(run, &s.baseline);
    let mut out = String::from(
        "medians over iterations; latency over one keep-alive connection; each iteration starts a fresh server
",
    );
    for t in http_tables(&cells, &s.baseline) {
        out.push('\n');
        out.push_str(&t.title);
        out.push('\n');
        out.push_str(&table(&t.header, &t.rows, 1));
    }
    if !run.meta.not_applicable.is_empty() {
        out.push('\n');
        out.push_str(&render_not_applicable(&run.meta.not_applicable));
    }
    out.push_str(&render_failures(s));
    out
}

/// Runtimes left out as not applicable, grouped by why: `n/a: native, node (why)`.
pub fn render_not_applicable(list: &[NotApplicable]) -> String {
    let mut whys: Vec<&str> = Vec::new();
    for na in list {
        if !whys.contains(&na.why.as_str()) {
            whys.push(&na.why);
        }
    }
    whys.iter()
        .map(|why| {
            let ids: Vec<&str> = list
                .iter()
                .filter(|na| na.why == *why)
                .map(|na| na.runtime.as_str())
                .collect();
            format!("n/a (not run): {} — {why}\n", ids.join(", "))
        })
        .collect()
}

/// The failed cells with why, if any.
fn render_failures(s: &RunSummary) -> String {
    let failures: Vec<String> = s
        .cells
        .iter()
        .filter_map(|c| {
            c.failure
                .as_ref()
                .map(|f| format!("  {} × {}: {f}", c.runtime, c.test))
        })
        .collect();
    if failures.is_empty() {
        return String::new();
    }
    format!(
        "{} failed cells:\n{}\n",
        failures.len(),
        failures.join("\n")
    )
}
