//! `wasmeter show RUN`: one saved run's summary.

use super::Ctx;
use crate::InputError;
use crate::fmt::{duration_ns, table};
use anyhow::Result;
use std::process::ExitCode;
use wasmeter_core::analysis::{RunSummary, summarize};
use wasmeter_core::store::{StoreError, load_run, resolve_run};

pub fn main(ctx: &Ctx, spec: &str, baseline: Option<&str>, json: bool) -> Result<ExitCode> {
    let dir = resolve_run(&ctx.results, spec).map_err(|e| match e {
        StoreError::NotFound { .. } | StoreError::Ambiguous { .. } => {
            InputError(e.to_string()).into()
        }
        e => anyhow::Error::from(e),
    })?;
    let run = load_run(&dir)?;
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
    }
    Ok(ExitCode::SUCCESS)
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
                Some(c) => match (c.time, c.relative) {
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
