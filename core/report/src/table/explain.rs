//! A run's profiles as tables, one per test: each function's share of the samples, its
//! estimated time per iteration and its ratio to the baseline, per runtime; then the code
//! outside the program's functions, and the totals.

use super::Table;
use crate::explain::{FunctionCell, FunctionRow, TestExplained};
use crate::format::format_ns;

/// One table per test of an explanation, its `top` hottest functions (0: all).
pub fn explain_tables(e: &crate::explain::Explanation, top: usize) -> Vec<Table> {
    e.tests
        .iter()
        .map(|t| explain_table(t, &e.baseline, top))
        .collect()
}

/// One test's table.
pub fn explain_table(t: &TestExplained, baseline: &str, top: usize) -> Table {
    let mut titles = vec!["function".to_string()];
    for c in &t.runtimes {
        titles.push(format!("{} share", c.runtime));
        titles.push("time".into());
        if c.runtime != baseline {
            titles.push(format!("×{baseline}"));
        }
    }
    let mut table = Table::new(titles, 1);
    let samples: Vec<String> = t
        .runtimes
        .iter()
        .map(|c| format!("{} {}", c.runtime, c.samples))
        .collect();
    table.title = Some(format!("{} — samples: {}", t.test, samples.join(", ")));
    let shown = if top == 0 {
        t.functions.len()
    } else {
        top.min(t.functions.len())
    };
    let row = |r: &FunctionRow| -> Vec<String> {
        let mut cells = vec![match &r.library {
            Some(lib) => format!("{} ({lib})", r.name),
            None => r.name.clone(),
        }];
        for (k, c) in t.runtimes.iter().enumerate() {
            let (share, time, ratio) = cell_text(r.cells[k].as_ref());
            cells.push(share);
            cells.push(time);
            if c.runtime != baseline {
                cells.push(ratio);
            }
        }
        cells
    };
    table.rows = t.functions[..shown].iter().map(row).collect();
    let hidden = &t.functions[shown..];
    if !hidden.is_empty() {
        let rest = rest_row(hidden, t.runtimes.len());
        table.rows.push(row(&rest));
    }
    table.rows.extend(t.outside.iter().map(row));
    table.footer.push(row(&t.total));
    for r in t.functions[..shown].iter().filter(|r| r.note.is_some()) {
        table
            .notes
            .push(format!("{}: {}", r.name, r.note.as_deref().unwrap_or("")));
    }
    table.notes.extend(t.notes.iter().cloned());
    let outside: Vec<&str> = crate::profile::symbols::Outside::ALL
        .iter()
        .map(|o| o.label())
        .collect();
    table.notes.push(format!(
        "share: of the runtime's samples; time: the share of the cell's typical time per iteration; outside the program's functions: {}",
        outside.join(", ")
    ));
    table
}

/// The functions not shown, summed into one row.
fn rest_row(hidden: &[FunctionRow], columns: usize) -> FunctionRow {
    let cells = (0..columns)
        .map(|k| {
            let present: Vec<&FunctionCell> =
                hidden.iter().filter_map(|r| r.cells[k].as_ref()).collect();
            (!present.is_empty()).then(|| FunctionCell {
                samples: present.iter().map(|c| c.samples).sum(),
                share: present.iter().map(|c| c.share).sum(),
                inclusive: None,
                ns: present.iter().map(|c| c.ns).sum(),
                ratio: None,
            })
        })
        .collect();
    FunctionRow {
        name: format!("{} more functions", hidden.len()),
        library: None,
        cells,
        note: None,
    }
}

/// A cell as share, time and ratio; dashes where the function has no samples.
fn cell_text(c: Option<&FunctionCell>) -> (String, String, String) {
    match c {
        None => ("—".into(), "—".into(), "—".into()),
        Some(c) => (
            format!("{:.1} %", 100.0 * c.share),
            c.ns.map(format_ns).unwrap_or_else(|| "—".into()),
            c.ratio
                .map(|r| format!("{r:.2}×"))
                .unwrap_or_else(|| "—".into()),
        ),
    }
}
