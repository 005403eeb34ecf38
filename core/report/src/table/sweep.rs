//! A sweep as text ([`crate::analysis::sweep`]): per test, the scan — the scanned setting's
//! values down, one column per combination of the others — each figure with its 95 %
//! interval; then per setting, where it moved a figure beyond noise.

use super::Table;
use crate::analysis::Sweep;
use crate::format::{MISSING, format_ns};

/// The tests' scans, then the settings' effects.
pub fn sweep_tables(s: &Sweep) -> Vec<Table> {
    let x = &s.settings[0];
    let mut out = Vec::new();
    for t in &s.tests {
        let columns: Vec<String> = if s.lines.len() == 1 && s.lines[0].is_empty() {
            vec![t.phase.clone()]
        } else {
            s.lines.clone()
        };
        let mut table = Table::new(std::iter::once(x.clone()).chain(columns), 1).titled(format!(
            "{} [{}]: typical {} time per {x} (95 % interval), lower is faster",
            t.test, s.engine, t.phase
        ));
        for xv in &s.x_values {
            let mut row = vec![xv.clone()];
            for line in &s.lines {
                let p = t.points.iter().find(|p| &p.x == xv && &p.line == line);
                row.push(match p.and_then(|p| Some((p.typical?, p.low, p.high))) {
                    Some((v, Some(lo), Some(hi))) => {
                        format!("{} [{}, {}]", format_ns(v), format_ns(lo), format_ns(hi))
                    }
                    Some((v, _, _)) => format_ns(v),
                    None => MISSING.into(),
                });
            }
            table.rows.push(row);
        }
        if let Some(best) = &t.best {
            table.notes.push(format!("best: {best}"));
        }
        out.push(table);
    }
    let mut effects = Table::new(
        [
            "setting",
            "moved the figure beyond noise",
            "within noise",
            "could not tell",
        ],
        4,
    )
        .titled(format!(
            "what each {} setting did: a faster or slower verdict between two combinations that differ in it alone (in-run, paired by round)",
            s.engine
        ));
    let list = |v: &[String]| {
        if v.is_empty() {
            MISSING.to_string()
        } else {
            v.join(", ")
        }
    };
    for e in &s.effects {
        effects.rows.push(vec![
            e.setting.clone(),
            list(&e.changed),
            list(&e.within_noise),
            list(&e.undecided),
        ]);
    }
    out.push(effects);
    out
}
