//! Markdown: tables to paste into an issue or a pull request, the same tables as `wasmeter
//! diff` and `wasmeter show --phases` print ([`crate::table`]), with the run's settings.

use super::{Exporter, Report};
use crate::analysis::{Diff, RunSummary};
use crate::model::Depth;
use crate::table::{
    RunTables, compare_table, diff_table, escape_markdown as cell, run_tables, sweep_tables,
};
use std::io::Write;

/// Writes GitHub-flavoured Markdown.
pub struct MarkdownExporter;

impl Exporter for MarkdownExporter {
    fn write(&self, report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
        if let Some(m) = &report.features {
            return out.write_all(crate::features::table(m).to_markdown().as_bytes());
        }
        if let Some(c) = &report.comparison {
            writeln!(
                out,
                "## {} runs of {} compared\n",
                c.columns.len(),
                cell(&c.suite)
            )?;
            write!(out, "{}", compare_table(c).to_markdown())?;
        }
        if let Some(d) = &report.diff {
            write!(out, "{}", diff_markdown(d))?;
        }
        for run in &report.runs {
            let m = run.meta;
            let s = &run.summary;
            writeln!(
                out,
                "## Run {}{}\n",
                cell(&m.id),
                m.label
                    .as_deref()
                    .map(|l| format!(" — {}", cell(l)))
                    .unwrap_or_default()
            )?;
            writeln!(
                out,
                "Suite `{}` ({}), {} invocation(s) × ({} warm-up + {} runs), {} order, {}. Machine: {} ({} cores), {}, kernel {}.\n",
                cell(&m.suite),
                m.settings.size,
                m.settings.invocations,
                m.settings.warmup,
                m.settings.runs,
                m.settings.order,
                m.status,
                cell(&m.machine.cpu_model),
                m.machine.cores,
                cell(&m.machine.os),
                cell(&m.machine.kernel)
            )?;
            for na in &m.not_applicable {
                let what = na.what();
                writeln!(out, "- {} — {}", cell(&what), cell(&na.why))?;
            }
            if !m.not_applicable.is_empty() {
                writeln!(out)?;
            }
            let shape = m.suite_kind.shape();
            if let Some(note) = &shape.note {
                writeln!(out, "{}.\n", sentence(note))?;
            }
            let data = RunTables {
                summary: s,
                tests: &m.tests,
                http: &run.http,
                sizes: &run.cell_sizes,
            };
            let tables = run_tables(&shape, &data, Depth::All);
            for t in tables {
                write!(out, "{}", t.to_markdown())?;
            }
            write_failures(out, s)?;
        }
        if let Some(sw) = &report.sweep {
            writeln!(out, "## Sweep of {}\n", cell(&sw.engine))?;
            for t in sweep_tables(sw) {
                write!(out, "{}", t.to_markdown())?;
            }
        }
        Ok(())
    }
}

/// A diff as a pull-request comment: a headline that says the outcome, the warnings, only
/// the rows with a change, then every row and the method folded under `<details>` (GitHub
/// renders it closed), so a reviewer sees the verdict without scrolling past 100 rows of
/// no change.
pub fn diff_markdown(d: &Diff) -> String {
    let c = d.counts();
    let mut out = format!("## Diff: {} → {}\n\n", cell(&d.a), cell(&d.b));
    let changed = c.faster + c.slower;
    let levels = d.levels();
    let level = match levels.as_slice() {
        [one] => format!("{} intervals", crate::analysis::level_text(*one)),
        [lo, .., hi] => format!(
            "intervals at {}–{}",
            crate::analysis::level_text(*lo),
            crate::analysis::level_text(*hi)
        ),
        [] => "intervals".into(),
    };
    // "No change" says what could not be told; the bound says what was shown.
    let bound = crate::analysis::shown_bound(d)
        .map(|(pct, row)| {
            format!(
                " Shown: B at most {pct:+.1} % slower than A in every row ({level}; the widest is {})",
                cell(&row)
            )
        })
        .unwrap_or_default();
    let undecided = c.undecided + c.insufficient + c.not_comparable + d.dropped.len();
    out.push_str(&if changed > 0 {
        format!(
            "**{} slower, {} faster** of {} rows ({c}).\n\n",
            c.slower,
            c.faster,
            d.rows.len()
        )
    } else if c.not_held > 0 || c.undecided > 0 {
        format!(
            "**Undecided**: no change held over the {} rows with an estimate, but {} lie beyond ±{} % on their own and {} need more rounds ({c}).\n\n",
            d.family(),
            c.not_held,
            d.threshold_pct,
            c.undecided
        )
    } else {
        format!(
            "**No change beyond ±{} % could be told** in {} rows ({c}).{bound}\n\n",
            d.threshold_pct,
            d.rows.len()
        )
    });
    for w in &d.warnings {
        out.push_str(&format!("> **Warning:** {}\n", cell(w)));
    }
    for k in &d.dropped {
        out.push_str(&format!(
            "> **No row:** {} × {}{}: {}\n",
            cell(&k.runtime),
            cell(&k.test),
            if k.phase.is_empty() {
                String::new()
            } else {
                format!(" ({})", cell(&k.phase))
            },
            cell(&k.why)
        ));
    }
    if !d.warnings.is_empty() || !d.dropped.is_empty() {
        out.push('\n');
    }
    if undecided > 0 && changed > 0 {
        out.push_str(&format!("{undecided} row(s) undecided (see below).\n\n"));
    }
    let mut table = diff_table(d);
    if d.rows.iter().any(|r| r.verdict.is_beyond()) {
        let mut only = table.clone();
        only.rows = d
            .rows
            .iter()
            .zip(&table.rows)
            .filter(|(r, _)| r.verdict.is_beyond())
            .map(|(_, t)| t.clone())
            .collect();
        out.push_str(&only.to_markdown());
    }
    table.title = None;
    out.push_str(&format!(
        "<details><summary>All {} rows, and how they were compared</summary>\n\n{}\n\n{}</details>\n\n",
        table.rows.len(),
        cell(&d.method()),
        table.to_markdown()
    ));
    out
}

/// A note as a sentence: its first letter a capital (the note ends without a stop).
fn sentence(note: &str) -> String {
    let mut c = note.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn write_failures(out: &mut dyn Write, s: &RunSummary) -> std::io::Result<()> {
    let failed: Vec<_> = s.cells.iter().filter(|c| c.failure.is_some()).collect();
    if !failed.is_empty() {
        writeln!(out, "Failed cells:\n")?;
        for c in failed {
            writeln!(
                out,
                "- {} × {}: {}",
                cell(&c.runtime),
                cell(&c.test),
                cell(c.failure.as_deref().unwrap_or(""))
            )?;
        }
        writeln!(out)?;
    }
    Ok(())
}
