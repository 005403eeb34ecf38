//! `wasmeter show RUN`: one saved run's summary.

use super::Ctx;
use anyhow::Result;
use std::process::ExitCode;
use wasmeter_core::analysis::{
    RunSummary, cell_sizes, heap_series, http_cells, noise as noise_of, run_headline, summarize,
};
use wasmeter_core::store::SavedRun;
use wasmeter_core::store::{NotApplicable, TestRecord};
use wasmeter_core::suite::SuiteKind;
use wasmeter_core::table::{
    Table, http_tables, lifecycle_tables, noise_tables, phases_table, sizes_tables,
    startup_corrected_table, summary_table,
};

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
        match m.suite_kind {
            SuiteKind::Lifecycle => print!(
                "{}",
                render_lifecycle(&summary, &m.tests, &m.not_applicable, phases)
            ),
            SuiteKind::Gateway | SuiteKind::Servers => print!("{}", render_http(&run, &summary)),
            SuiteKind::Command => {
                print!("{}", render_summary(&summary));
                if phases {
                    print!("{}", render_phases(&summary));
                }
                print!(
                    "{}",
                    tables_text(sizes_tables(&m.tests, &summary.runtimes, &cell_sizes(&run)))
                );
                if !m.not_applicable.is_empty() {
                    print!("{}", render_not_applicable(&m.not_applicable));
                }
            }
        }
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

/// A lifecycle run: the `hello` module's every measurement per runtime, then measurements
/// against heap size (dense and sparse lines per runtime), all as median (p99) per
/// operation; then what was not applicable and what failed.
pub fn render_lifecycle(
    s: &RunSummary,
    tests: &[TestRecord],
    not_applicable: &[NotApplicable],
    all: bool,
) -> String {
    let mut out = String::from(
        "per operation: median (p99) over the samples; each sample times a batch of operations as one\n",
    );
    out.push_str(&tables_text(lifecycle_tables(s, tests, all)));
    if !all && !heap_series(s).is_empty() {
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
    tables_text([phases_table(s, None)])
}

/// The summary as a table: median per test × runtime with time relative to the baseline,
/// then the geometric mean per runtime and the failures.
pub fn render_summary(s: &RunSummary) -> String {
    let mut out = summary_table(s).to_text();
    if let Some(t) = startup_corrected_table(s) {
        out.push('\n');
        out.push_str(&t.to_text());
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
        "medians over iterations; latency over one keep-alive connection; each iteration starts a fresh server\n",
    );
    out.push_str(&tables_text(http_tables(&cells, &s.baseline)));
    let mut noted = cells.iter().filter(|c| !c.notes.is_empty()).peekable();
    if noted.peek().is_some() {
        out.push_str("\nhow cells were adapted to this host:\n");
        for c in noted {
            for n in &c.notes {
                out.push_str(&format!("  {} × {}: {n}\n", c.runtime, c.test));
            }
        }
    }
    if !run.meta.not_applicable.is_empty() {
        out.push('\n');
        out.push_str(&render_not_applicable(&run.meta.not_applicable));
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
