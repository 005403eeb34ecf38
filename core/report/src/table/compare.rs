//! Many runs side by side: tests and runtimes down, one column a run (or machine), each
//! figure with its 95 % interval; geometric means as the footer.

use super::Table;
use crate::analysis::Comparison;
use crate::format::{MISSING, format_ns};

/// The comparison as one table; its warnings and the reasons for missing figures as notes.
pub fn compare_table(c: &Comparison) -> Table {
    let relative = !c.geomeans.is_empty();
    let mut t = Table::new(
        ["test", "runtime"]
            .into_iter()
            .map(String::from)
            .chain(c.columns.iter().map(|col| col.title.clone())),
        2,
    )
    .titled(format!(
        "suite {}: {}, each with its 95 % interval",
        c.suite, c.unit
    ));
    let show = |v: f64| {
        if relative {
            format!("{v:.2}×")
        } else {
            format_ns(v)
        }
    };
    // Cells are test-major, then runtime, then column: found by position, not searched
    // (a comparison of many runs has many cells).
    let mut cells = c.cells.iter();
    for test in &c.tests {
        for rt in &c.runtimes {
            let mut row = vec![test.clone(), rt.clone()];
            for (i, col) in c.columns.iter().enumerate() {
                let cell = cells
                    .next()
                    .filter(|x| x.column == i && &x.runtime == rt && &x.test == test);
                row.push(match cell {
                    Some(x) => match (x.value, x.low, x.high) {
                        (Some(v), Some(lo), Some(hi)) => {
                            format!("{} ({}–{})", show(v), show(lo), show(hi))
                        }
                        (Some(v), _, _) => show(v),
                        (None, _, _) => {
                            if let Some(n) = &x.note
                                && n != "not in this run"
                            {
                                t.notes.push(format!("{rt} × {test} in {}: {n}", col.run));
                            }
                            MISSING.into()
                        }
                    },
                    None => MISSING.into(),
                });
            }
            t.rows.push(row);
        }
    }
    for (rt, per) in &c.geomeans {
        let mut row = vec!["geomean".to_string(), rt.clone()];
        row.extend(
            per.iter()
                .map(|g| g.map_or_else(|| MISSING.into(), |g| format!("{g:.2}×"))),
        );
        t.footer.push(row);
    }
    t.notes
        .extend(c.warnings.iter().map(|w| format!("warning: {w}")));
    t
}
