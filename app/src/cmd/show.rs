//! `wasmeter show RUN`: one saved run's summary.

use super::Ctx;
use crate::fmt::{duration_ns, table};
use anyhow::Result;
use std::process::ExitCode;
use wasmeter_core::analysis::{RunSummary, summarize};
use wasmeter_core::runtime::Phase;

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
        print!("{}", render_summary(&summary));
        if phases {
            print!("{}", render_phases(&summary));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Median of each phase per runtime and test: where the time of an iteration goes, and how
/// the guest's own timing compares with the harness's timing of `execute`.
pub fn render_phases(s: &RunSummary) -> String {
    let names: Vec<&str> = Phase::ALL.iter().map(|p| p.as_str()).collect();
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
    for t in &s.tests {
        let mut row = vec![t.clone()];
        for rt in &s.runtimes {
            row.push(match s.cell(rt, t) {
                Some(c) if c.failure.is_some() => "FAILED".into(),
                Some(c) => match (c.stats, c.relative) {
                    (Some(st), Some(rel)) => format!("{} ({rel:.2}×)", duration_ns(st.median)),
                    (Some(st), None) => duration_ns(st.median),
                    _ => "-".into(),
                },
                None => "-".into(),
            });
        }
        rows.push(row);
    }
    let mut g = vec![format!("geomean × {}", s.baseline)];
    for r in &s.per_runtime {
        g.push(
            r.geomean_relative
                .map(|v| format!("{v:.2}×"))
                .unwrap_or_else(|| "-".into()),
        );
    }
    rows.push(g);
    let mut out = format!(
        "median time per iteration (self-timed where the guest reports it); (n×) = time relative to {}, lower is faster\n",
        s.baseline
    );
    out.push_str(&table(&header, &rows, 1));
    let failures: Vec<String> = s
        .cells
        .iter()
        .filter_map(|c| {
            c.failure
                .as_ref()
                .map(|f| format!("  {} × {}: {f}", c.runtime, c.test))
        })
        .collect();
    if !failures.is_empty() {
        out.push_str(&format!(
            "{} failed cells:\n{}\n",
            failures.len(),
            failures.join("\n")
        ));
    }
    out
}
