//! `wasmeter history`: one cell's figure over every saved run, with its change points.

use super::Ctx;
use crate::InputError;
use crate::args::HistoryArgs;
use anyhow::Result;
use std::fmt::Write as _;
use std::process::ExitCode;
use wasmeter_core::export::csv_field as field;
use wasmeter_core::history::{History, HistoryError, HistoryQuery, Results, history};
use wasmeter_core::table::history_table;

/// The columns of `--format csv`, one row per run and cell (the series' size and plan, and
/// the flags of points left out of change points, after the columns scripts already read).
const CSV_COLUMNS: &str = "suite,test,runtime,machine,phase,source,run,started_unix,value_ns,low_ns,high_ns,median_ns,invocations,version,change_pct,size,plan_hash,partial,busy";

fn csv(h: &History) -> String {
    let num = |v: Option<f64>| v.map(|v| format!("{v:.3}")).unwrap_or_default();
    let mut out = format!("{CSV_COLUMNS}\n");
    for s in &h.series {
        for (i, p) in s.points.iter().enumerate() {
            let change = s
                .changes
                .iter()
                .find(|c| c.index == i)
                .map(|c| c.change_pct);
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{:.3},{},{},{},{},{},{},{},{},{},{},{}",
                field(&s.suite),
                field(&s.test),
                field(&s.runtime),
                field(&s.machine),
                s.phase,
                s.source,
                field(&p.run),
                p.started_unix,
                num(Some(p.value)),
                num(p.low),
                num(p.high),
                num(Some(p.median)),
                p.invocations,
                field(p.version.as_deref().unwrap_or("")),
                change.map(|c| format!("{c:.3}")).unwrap_or_default(),
                field(&s.size),
                field(s.plan_hash.as_deref().unwrap_or("")),
                p.partial,
                p.busy
            );
        }
    }
    out
}

fn text(h: &History, last: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} runs read, {} series{}",
        h.results,
        h.runs_read,
        h.series.len(),
        if h.skipped.is_empty() {
            String::new()
        } else {
            format!(", {} runs left out", h.skipped.len())
        }
    );
    for note in &h.notes {
        let _ = writeln!(out, "  note: {note}");
    }
    for why in h.skipped.iter().take(5) {
        let _ = writeln!(out, "  left out: {why}");
    }
    if h.skipped.len() > 5 {
        let _ = writeln!(
            out,
            "  … and {} more (--format json lists them)",
            h.skipped.len() - 5
        );
    }
    if h.series.is_empty() {
        out.push_str("no runs match (check --suite, --test, --runtime and --machine against `wasmeter runs`)\n");
    }
    for s in &h.series {
        out.push('\n');
        out.push_str(&history_table(s, &h.changes, last).to_text());
    }
    out
}

pub fn main(ctx: &Ctx, a: &HistoryArgs) -> Result<ExitCode> {
    if !["text", "csv", "json"].contains(&a.format.as_str()) {
        return Err(InputError(format!(
            "--format takes text, csv or json, not '{}'",
            a.format
        ))
        .into());
    }
    let results =
        Results::parse(&ctx.results.to_string_lossy()).map_err(|e| InputError(e.to_string()))?;
    let q = HistoryQuery {
        suite: a.suite.clone(),
        test: a.test.clone(),
        runtime: a.runtime.clone(),
        machine: a.machine.clone(),
        ..HistoryQuery::default()
    };
    let h = history(&results, &q).map_err(|e| match e {
        HistoryError::Query(_) => InputError(e.to_string()).into(),
        e => anyhow::Error::from(e),
    })?;
    let out = match a.format.as_str() {
        "json" => serde_json::to_string_pretty(&h)? + "\n",
        "csv" => csv(&h),
        _ => text(&h, a.last),
    };
    super::write_output(a.output.as_deref(), &out)?;
    Ok(ExitCode::SUCCESS)
}
