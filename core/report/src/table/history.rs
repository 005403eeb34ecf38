//! One cell's history as a table: a row per run (the last ones), the change points marked
//! on the run where each new level starts and described under the table.

use super::Table;
use crate::analysis::BUSY_SHARE;
use crate::format::{MISSING, format_ns, format_time};
use crate::history::{ChangeOptions, Point, Series};

/// The last `last` points of a series (all when 0), oldest first; `o`: how its change
/// points were searched for. A `flag` column (before `change`) appears when a point shown
/// is partial or busy.
pub fn history_table(s: &Series, o: &ChangeOptions, last: usize) -> Table {
    let from = if last == 0 {
        0
    } else {
        s.points.len().saturating_sub(last)
    };
    let flagged = s.points[from..].iter().any(Point::left_out);
    let mut columns = vec!["run", "started (UTC)", "typical (95 % interval)", "version"];
    if flagged {
        columns.push("flag");
    }
    columns.push("change");
    let mut t = Table::new(columns, 2).titled(format!(
        "{} · {} · {} on {}: {} ({}), size {}, {}, {} runs",
        s.suite,
        s.test,
        s.runtime,
        s.machine_label,
        s.phase,
        s.source,
        s.size,
        s.plan_hash
            .as_ref()
            .map_or_else(|| "no plan".to_string(), |h| format!("plan {h}")),
        s.points.len()
    ));
    for (i, p) in s.points.iter().enumerate().skip(from) {
        let typical = match (p.low, p.high) {
            (Some(lo), Some(hi)) => format!(
                "{} ({}–{})",
                format_ns(p.value),
                format_ns(lo),
                format_ns(hi)
            ),
            _ => format_ns(p.value),
        };
        let change = s
            .changes
            .iter()
            .find(|c| c.index == i)
            .map_or_else(String::new, |c| format!("{:+.1} %", c.change_pct));
        let mut row = vec![
            p.run.clone(),
            format_time(p.started_unix),
            typical,
            p.version.clone().unwrap_or_else(|| MISSING.into()),
        ];
        if flagged {
            let flags: Vec<&str> = [(p.partial, "partial"), (p.busy, "busy")]
                .into_iter()
                .filter_map(|(on, word)| on.then_some(word))
                .collect();
            row.push(flags.join(", "));
        }
        row.push(change);
        t.rows.push(row);
    }
    if from > 0 {
        t.notes.push(format!(
            "the last {} of {} runs (--last 0: every run)",
            s.points.len() - from,
            s.points.len()
        ));
    }
    let left_out = s.points.iter().filter(|p| p.left_out()).count();
    if left_out > 0 {
        t.notes.push(format!(
            "left out of change points: {left_out} of {} runs, partial (fewer invocations \
             than planned: a cancelled run) or busy (other processes took more than {:.0} % \
             of the machine)",
            s.points.len(),
            BUSY_SHARE * 100.0
        ));
    }
    if s.changes.is_empty() {
        t.notes
            .push(if s.points.len() - left_out < 2 * o.min_segment {
                format!(
                    "no change points: too few runs to tell (at least {} are needed)",
                    2 * o.min_segment
                )
            } else {
                "no change points".to_string()
            });
    }
    for c in &s.changes {
        let p = &s.points[c.index];
        t.notes.push(format!(
            "change from {} ({}): {} → {} ({:+.1} %, p = {:.3})",
            p.run,
            format_time(p.started_unix),
            format_ns(c.before),
            format_ns(c.after),
            c.change_pct,
            c.p_value
        ));
    }
    t
}
