//! A run's profiles as tables, one per test: each function's share of the samples, its
//! estimated time per iteration and its ratio to the baseline, per runtime; then the code
//! outside the program's functions, and the totals.

use super::Table;
use crate::explain::{FunctionCell, FunctionRow, TestExplained};
use crate::format::format_ns;

/// The tables of each test of an explanation, its `top` hottest functions (0: all): where
/// the time goes, where each runtime's difference from the baseline comes from, and the
/// causes the counting run counted.
pub fn explain_tables(e: &crate::explain::Explanation, top: usize) -> Vec<Table> {
    e.tests
        .iter()
        .flat_map(|t| test_tables(t, &e.baseline, top))
        .collect()
}

/// One test's tables, as [`explain_tables`] gives them.
pub fn test_tables(t: &TestExplained, baseline: &str, top: usize) -> Vec<Table> {
    std::iter::once(explain_table(t, baseline, top))
        .chain(difference_table(t, baseline, top))
        .chain(causes_table(t, baseline, top))
        .collect()
}

/// Where each runtime's cell differs from the baseline's, function by function: its time
/// less the baseline's for the same name, and that as a part of the cells' difference
/// (parts sum to 100 % over every row, outside rows included); `None` without a baseline
/// column or another column.
pub fn difference_table(t: &TestExplained, baseline: &str, top: usize) -> Option<Table> {
    let base = t.runtimes.iter().position(|c| c.runtime == baseline)?;
    let others: Vec<usize> = (0..t.runtimes.len())
        .filter(|k| *k != base && t.total.cells[*k].and_then(|c| c.ns).is_some())
        .collect();
    if others.is_empty() || t.total.cells[base].and_then(|c| c.ns).is_none() {
        return None;
    }
    let mut titles = vec!["function".to_string()];
    for &k in &others {
        titles.push(format!("{} − {baseline}", t.runtimes[k].runtime));
        titles.push("part".into());
    }
    let mut table = Table::new(titles, 1);
    table.title = Some(format!(
        "{} — where each runtime's time differs from {baseline}'s",
        t.test
    ));
    let shown = if top == 0 {
        t.functions.len()
    } else {
        top.min(t.functions.len())
    };
    let base_ns = |r: &FunctionRow| r.cells[base].and_then(|c| c.ns).unwrap_or(0.0);
    let row = |r: &FunctionRow| -> Vec<String> {
        let mut cells = vec![r.name.clone()];
        for &k in &others {
            match r.cells[k].as_ref() {
                Some(c) => {
                    let d = c.ns.unwrap_or(0.0) - base_ns(r);
                    cells.push(signed_ns(d));
                    cells.push(
                        c.part
                            .map(|p| signed_pct(100.0 * p))
                            .unwrap_or_else(|| "—".into()),
                    );
                }
                None if r.cells[base].is_some() => {
                    cells.push(signed_ns(-base_ns(r)));
                    let whole = t.total.cells[k].and_then(|c| c.ns).unwrap_or(0.0)
                        - t.total.cells[base].and_then(|c| c.ns).unwrap_or(0.0);
                    cells.push(if whole.abs() > 0.0 {
                        signed_pct(-100.0 * base_ns(r) / whole)
                    } else {
                        "—".into()
                    });
                }
                None => cells.extend(["—".to_string(), "—".to_string()]),
            }
        }
        cells
    };
    table.rows = t.functions[..shown]
        .iter()
        .chain(&t.outside)
        .map(row)
        .collect();
    if shown < t.functions.len() {
        let rest = rest_row(&t.functions[shown..], t.runtimes.len());
        table.rows.insert(shown, row(&rest));
    }
    table.footer.push(row(&t.total));
    table.notes.push(format!(
        "{baseline}'s time for the same function is subtracted (none where its build has no function of that name); part: of the cells' whole difference"
    ));
    Some(table)
}

fn signed_pct(p: f64) -> String {
    if p < 0.0 {
        format!("−{:.1} %", -p)
    } else {
        format!("+{p:.1} %")
    }
}

fn signed_ns(d: f64) -> String {
    if d < 0.0 {
        format!("−{}", format_ns(-d))
    } else {
        format!("+{}", format_ns(d))
    }
}

/// What each hot function did per iteration in each column that counted it: its calls
/// (the top callee, with the time those calls account for), loads and stores, indirect
/// calls, and its machine code's size against the baseline's; `None` when nothing was
/// counted.
pub fn causes_table(t: &TestExplained, baseline: &str, top: usize) -> Option<Table> {
    let shown = if top == 0 {
        t.functions.len()
    } else {
        top.min(t.functions.len())
    };
    let base = t.runtimes.iter().position(|c| c.runtime == baseline);
    let mut table = Table::new(
        [
            "function",
            "runtime",
            "entries",
            "instructions",
            "loads & stores",
            "indirect calls",
            "most calls",
            "code",
            &format!("{baseline} code"),
            "checks in code",
        ],
        2,
    );
    table.title = Some(format!(
        "{} — causes, per iteration (counted in a run of the module)",
        t.test
    ));
    let count = crate::explain::short_count;
    for r in &t.functions[..shown] {
        let base_code = base
            .and_then(|b| r.causes.get(b).cloned().flatten())
            .and_then(|c| c.code_bytes);
        for (k, c) in t.runtimes.iter().enumerate() {
            let Some(causes) = r.causes.get(k).and_then(|c| c.as_ref()) else {
                continue;
            };
            if causes.entries == 0.0 {
                continue;
            }
            let most = causes.calls.first().map_or_else(
                || "—".to_string(),
                |callee| {
                    let mut s = format!("{} ×{}", callee.name, count(callee.per_iteration));
                    if let Some(share) = callee.share {
                        s.push_str(&format!(" ({:.1} %)", 100.0 * share));
                    }
                    if callee.inlined_in_baseline {
                        s.push_str(&format!(", inlined on {baseline}"));
                    }
                    s
                },
            );
            let bytes = |b: Option<u64>| b.map_or_else(|| "—".into(), |b| format!("{b} B"));
            table.rows.push(vec![
                r.name.clone(),
                c.runtime.clone(),
                count(causes.entries),
                count(causes.instructions),
                count(causes.memory),
                count(causes.indirect),
                most,
                bytes(causes.code_bytes),
                bytes(base_code),
                causes
                    .checks
                    .as_ref()
                    .map_or_else(|| "—".into(), crate::explain::checks_text),
            ]);
        }
    }
    if table.rows.is_empty() {
        return None;
    }
    table.notes.push(
        "counted by a copy of the module with a counter on every straight run of code, run once per invocation on the cell's engine; most calls: the function it calls most, with the share of the samples those calls account for; code: machine code bytes where the build says (an engine's perf map, native symbols); checks in code: the branches to a trap in the engine's machine code, by what they guard, where the engine shows its code (wasmtime's variants)".into(),
    );
    Some(table)
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
                part: None,
            })
        })
        .collect();
    FunctionRow {
        name: format!("{} more functions", hidden.len()),
        library: None,
        cells,
        causes: vec![None; columns],
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
