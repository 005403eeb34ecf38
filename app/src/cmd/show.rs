//! `wasmeter show RUN`: one saved run's summary.

use super::Ctx;
use anyhow::Result;
use std::process::ExitCode;
use wasmeter_core::analysis::{
    RunSummary, cell_sizes, heap_series, http_cells, noise as noise_of, run_headline, summarize,
};
use wasmeter_core::model::{Depth, View};
use wasmeter_core::store::{NotApplicable, SavedRun};
use wasmeter_core::table::{RunTables, Table, noise_tables, run_tables};

/// `wasmeter show RUN --noise`: where the run's noise lies, and what its pair cancelled.
pub fn noise(ctx: &Ctx, spec: &str, json: bool) -> Result<ExitCode> {
    let run = super::load(ctx, spec)?;
    let n = noise_of(&run);
    if json {
        super::print_json(&n)?;
    } else {
        let m = &run.meta;
        let pair = m.pair().map_or_else(String::new, |p| {
            format!(
                ", pair {} ({})",
                p.arms.join(","),
                p.mode.unwrap_or_default()
            )
        });
        println!(
            "run {} — suite {}, {} invocation(s) × ({} warm-up + {} runs){pair}",
            m.id, m.suite, m.settings.invocations, m.settings.warmup, m.settings.runs
        );
        print!("{}", tables_text(noise_tables(&n)));
    }
    Ok(ExitCode::SUCCESS)
}

/// `show RUN --sweep`: the run's parameter scan; a run without a sweep is an input error.
pub fn sweep(ctx: &Ctx, spec: &str, json: bool) -> Result<ExitCode> {
    let run = super::load(ctx, spec)?;
    let summary = summarize(&run, None);
    let Some(s) = wasmeter_core::analysis::sweep(&run, &summary) else {
        return Err(crate::InputError(format!(
            "run {} has no sweep: its runtimes are not one engine at two or more settings (run it with --set ENGINE.NAME=V1,V2)",
            run.meta.id
        ))
        .into());
    };
    if json {
        super::print_json(&s)?;
    } else {
        print!("{}", sweep_text(&s));
    }
    Ok(ExitCode::SUCCESS)
}

/// A sweep's tables as text.
pub fn sweep_text(s: &wasmeter_core::analysis::Sweep) -> String {
    tables_text(wasmeter_core::table::sweep_tables(s))
}

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
        println!("{}", run_headline(&summary));
        println!(
            "run {}{} — suite {} ({}), {}, {} invocation(s) × ({} warm-up + {} runs), {}",
            m.id,
            m.label
                .as_ref()
                .map(|l| format!(" \"{l}\""))
                .unwrap_or_default(),
            m.suite,
            m.size_label(),
            m.status,
            m.settings.invocations,
            m.settings.warmup,
            m.settings.runs,
            m.settings.order
        );
        println!(
            "machine: {} ({} cores), {}, kernel {}",
            m.machine.cpu_model, m.machine.cores, m.machine.os, m.machine.kernel
        );
        if let Some(h) = &m.settings.plan_hash {
            println!("plan: {h} (runs of this plan on any machine are comparable)");
        }
        if let Some(l) = summary.load {
            let busy = if l.busy { " (busy)" } else { "" };
            println!("load: {}{busy}", l.describe(&m.id));
        }
        let depth = if phases { Depth::All } else { Depth::Shown };
        print!("{}", render_run(&run, &summary, depth));
    }
    Ok(ExitCode::SUCCESS)
}

/// Tables as text, each after a blank line.
pub fn tables_text(tables: impl IntoIterator<Item = Table>) -> String {
    tables
        .into_iter()
        .map(|t| format!("\n{}", t.to_text()))
        .collect()
}

/// A run's tables at `depth`, as its kind's views list them: the note over them, the
/// tables, how HTTP cells were adapted to the host, what was not run (except in the brief
/// words `run` closes with, whose notes said it before the run) and what failed.
pub fn render_run(run: &SavedRun, s: &RunSummary, depth: Depth) -> String {
    let m = &run.meta;
    let shape = m.suite_kind.shape();
    let http = if shape.has(View::Requests) {
        http_cells(run, &s.baseline)
    } else {
        Vec::new()
    };
    let sizes = if shape.has(View::Sizes) {
        cell_sizes(run)
    } else {
        Vec::new()
    };
    let data = RunTables {
        summary: s,
        tests: &m.tests,
        http: &http,
        sizes: &sizes,
    };
    let mut out = shape
        .note
        .as_ref()
        .map(|n| format!("{n}\n"))
        .unwrap_or_default();
    for (i, t) in run_tables(&shape, &data, depth).iter().enumerate() {
        if i > 0 || !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&t.to_text());
    }
    if depth < Depth::All && shape.has(View::Heap) && !heap_series(s).is_empty() {
        out.push_str("\n(--phases: every measurement against heap size)\n");
    }
    let mut noted = http.iter().filter(|c| !c.notes.is_empty()).peekable();
    if noted.peek().is_some() {
        out.push_str("\nhow cells were adapted to this host:\n");
        for c in noted {
            for n in &c.notes {
                out.push_str(&format!("  {} × {}: {n}\n", c.runtime, c.test));
            }
        }
    }
    if depth > Depth::Brief && !m.not_applicable.is_empty() {
        out.push('\n');
        out.push_str(&render_not_applicable(&m.not_applicable));
    }
    out.push_str(&render_failures(s));
    out
}

/// Runtimes (and single cells) left out as not applicable, grouped by why: `n/a (not run):
/// native, node — why`, `wasmtime-serve × state — why`.
pub fn render_not_applicable(list: &[NotApplicable]) -> String {
    let mut whys: Vec<&str> = Vec::new();
    for na in list {
        if !whys.contains(&na.why.as_str()) {
            whys.push(&na.why);
        }
    }
    whys.iter()
        .map(|why| {
            let ids: Vec<String> = list
                .iter()
                .filter(|na| na.why == *why)
                .map(|na| na.what())
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
