//! CSV: the tidy summary, one row per run/runtime/test/phase and a `geomean` row per
//! runtime; for two runs, the diff; for runs compared, the matrix of runtime × test × run.
//! Times are in seconds, and the columns follow hyperfine's (`mean,stddev,median,min,max`)
//! so scripts written for it keep working.

use super::{Exporter, Report};
use crate::analysis::{Comparison, Stats};
use crate::text::csv_field as field;
use std::io::Write;

/// Writes CSV.
pub struct CsvExporter;

/// Summary columns, in order.
pub const SUMMARY_COLUMNS: &str = "run_id,runtime,test,phase,source,n,mean,stddev,median,min,max,mad,p90,p99,ci_low,ci_high,relative,relative_low,relative_high,startup,failure,invocations,halfwidth_pct,note";
/// Diff columns, in order.
pub const DIFF_COLUMNS: &str = "runtime,test,phase,a_median,b_median,ratio,ci_low,ci_high,verdict,halfwidth_pct,p_adjusted,n_a,n_b,invocations_a,invocations_b,note,a_typical,b_typical,pairs";

/// Comparison columns, in order: one row per runtime × test × run, then per runtime × run
/// the geometric mean (test `geomean`).
pub const COMPARE_COLUMNS: &str =
    "run_id,column,machine,plan_hash,runtime,test,value,low,high,note";

fn secs(ns: Option<f64>) -> String {
    ns.map(|v| format!("{:.9}", v / 1e9)).unwrap_or_default()
}

fn num(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.6}")).unwrap_or_default()
}

fn stats_fields(s: Option<&Stats>) -> String {
    let g = |f: fn(&Stats) -> f64| secs(s.map(f));
    let o = |f: fn(&Stats) -> Option<f64>| secs(s.and_then(f));
    [
        s.map(|s| s.n.to_string()).unwrap_or_default(),
        g(|s| s.mean),
        g(|s| s.stddev),
        g(|s| s.median),
        g(|s| s.min),
        g(|s| s.max),
        g(|s| s.mad),
        g(|s| s.p90),
        g(|s| s.p99),
        o(|s| s.ci_low),
        o(|s| s.ci_high),
    ]
    .join(",")
}

/// The same columns for a measurement that is not a time: values in its own unit.
fn raw_stats_fields(s: &Stats) -> String {
    [
        s.n.to_string(),
        num(Some(s.mean)),
        num(Some(s.stddev)),
        num(Some(s.median)),
        num(Some(s.min)),
        num(Some(s.max)),
        num(Some(s.mad)),
        num(Some(s.p90)),
        num(Some(s.p99)),
        num(s.ci_low),
        num(s.ci_high),
    ]
    .join(",")
}

/// The comparison of many runs: what the values are and the warnings as `#` lines first.
fn write_comparison(c: &Comparison, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "# values: {}", c.unit.replace(['\n', '\r'], " "))?;
    for w in &c.warnings {
        writeln!(out, "# warning: {}", w.replace(['\n', '\r'], " "))?;
    }
    writeln!(out, "{COMPARE_COLUMNS}")?;
    let col = |i: usize| {
        let k = &c.columns[i];
        format!(
            "{},{},{},{}",
            field(&k.run),
            field(&k.title),
            field(&k.machine),
            field(k.plan_hash.as_deref().unwrap_or(""))
        )
    };
    for cell in &c.cells {
        writeln!(
            out,
            "{},{},{},{},{},{},{}",
            col(cell.column),
            field(&cell.runtime),
            field(&cell.test),
            num(cell.value),
            num(cell.low),
            num(cell.high),
            field(cell.note.as_deref().unwrap_or(""))
        )?;
    }
    for (rt, per) in &c.geomeans {
        for (i, g) in per.iter().enumerate() {
            if g.is_some() {
                writeln!(out, "{},{},geomean,{},,,", col(i), field(rt), num(*g))?;
            }
        }
    }
    Ok(())
}

impl Exporter for CsvExporter {
    fn write(&self, report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
        if let Some(m) = &report.features {
            return out.write_all(crate::features::render_csv(m).as_bytes());
        }
        if let Some(c) = &report.comparison {
            return write_comparison(c, out);
        }
        if let Some(d) = &report.diff {
            for w in &d.warnings {
                writeln!(out, "# warning: {}", w.replace(['\n', '\r'], " "))?;
            }
            writeln!(out, "# method: {}", d.method())?;
            writeln!(out, "{DIFF_COLUMNS}")?;
            for r in &d.rows {
                writeln!(
                    out,
                    "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                    field(&r.runtime),
                    field(&r.test),
                    r.phase,
                    secs(Some(r.a_median)),
                    secs(Some(r.b_median)),
                    num(r.ratio),
                    num(r.ci_low),
                    num(r.ci_high),
                    r.verdict,
                    num(r.halfwidth_pct),
                    num(r.p_adjusted),
                    r.n.0,
                    r.n.1,
                    r.invocations.0,
                    r.invocations.1,
                    field(r.note.as_deref().unwrap_or("")),
                    secs(r.a_typical),
                    secs(r.b_typical),
                    r.pairs.map(|p| p.to_string()).unwrap_or_default()
                )?;
            }
            for (keys, what) in [(&d.only_a, "only in A"), (&d.only_b, "only in B")] {
                for k in keys {
                    writeln!(
                        out,
                        "{},{},{},,,,,,{what},,,,,,,,,,",
                        field(&k.runtime),
                        field(&k.test),
                        k.phase
                    )?;
                }
            }
            return Ok(());
        }
        writeln!(out, "{SUMMARY_COLUMNS}")?;
        for run in &report.runs {
            let id = field(&run.meta.id);
            for c in &run.summary.cells {
                let (rt, test) = (field(&c.runtime), field(&c.test));
                if let Some(f) = &c.failure {
                    writeln!(
                        out,
                        "{id},{rt},{test},{},,{},,,,,{},,,",
                        c.primary_phase,
                        ",".repeat(9),
                        field(f)
                    )?;
                    continue;
                }
                writeln!(
                    out,
                    "{id},{rt},{test},{},{},{},{},{},{},{},,{},{},{}",
                    c.primary_phase,
                    c.source,
                    stats_fields(c.stats.as_ref()),
                    num(c.relative),
                    num(c.relative_low),
                    num(c.relative_high),
                    secs(c.startup_ns),
                    c.invocations,
                    num(c.halfwidth_pct),
                    field(&match (&c.note, c.partial) {
                        (Some(n), _) => n.clone(),
                        (None, true) => "partial".into(),
                        (None, false) => String::new(),
                    })
                )?;
                for (phase, s) in &c.phase_stats {
                    if *phase == c.primary_phase && c.source == "wall" {
                        continue;
                    }
                    writeln!(
                        out,
                        "{id},{rt},{test},{phase},wall,{},,,,,,,,",
                        stats_fields(Some(s))
                    )?;
                }
                // Not times: the source column names the metric, values are in its unit.
                for (metric, s) in &c.metrics {
                    writeln!(
                        out,
                        "{id},{rt},{test},instantiate,{metric},{},,,,,,,,",
                        raw_stats_fields(s)
                    )?;
                }
            }
            // One line per runtime: the geometric mean of its relative times, over `n` tests.
            let phase = run
                .summary
                .cells
                .first()
                .map(|c| c.primary_phase.as_str())
                .unwrap_or("execute");
            for p in &run.summary.per_runtime {
                if let Some(g) = p.geomean_relative {
                    writeln!(
                        out,
                        "{id},{},geomean,{phase},geomean,{},{}{},{},,,{}",
                        field(&p.runtime),
                        p.tests_compared,
                        ",".repeat(10),
                        num(Some(g)),
                        ",".repeat(3),
                        if p.tests_compared < p.tests_total {
                            format!("{} of {} tests", p.tests_compared, p.tests_total)
                        } else {
                            String::new()
                        }
                    )?;
                }
            }
            // HTTP suites: requests per second at each concurrency level.
            for c in &run.http {
                let (rt, test) = (field(&c.runtime), field(&c.test));
                for l in &c.levels {
                    writeln!(
                        out,
                        "{id},{rt},{test},throughput_c{},rps,{},,,,,,,,",
                        l.connections,
                        raw_stats_fields(&l.rps)
                    )?;
                }
                // A saturated level has no rate, only its bound: the `max` column holds it,
                // the note says so.
                for l in &c.saturated {
                    writeln!(
                        out,
                        "{id},{rt},{test},throughput_c{},saturated_below_rps,{},,,,,{},,,,,,,,,,,,,{}",
                        l.connections,
                        l.iterations,
                        num(Some(l.below_rps)),
                        field(&l.label())
                    )?;
                }
            }
        }
        Ok(())
    }
}
