//! The feature matrix written out, as one [`Table`] in every form (text, Markdown, HTML)
//! and as CSV: features as rows, runtimes as columns, and every ✗, flag and n/a explained
//! in the table's notes; then the changes between two matrices.

use super::{Change, Matrix, Support};
use crate::table::Table;

/// The matrix as a table: a column per runtime (its id and version), a row per feature,
/// and a note for each cell that is not a plain ✓ (one for a runtime that is n/a to all).
pub fn table(m: &Matrix) -> Table {
    let titles =
        std::iter::once("feature".to_string()).chain(m.columns.iter().map(|c| c.runtime.clone()));
    let mut t = Table::new(titles, m.columns.len() + 1)
        .titled(format!(
            "feature matrix of run {} ({} UTC, {})",
            m.run,
            crate::format::format_time(m.started_unix),
            m.machine
        ))
        .with_rows(
            m.rows
                .iter()
                .map(|r| {
                    std::iter::once(r.feature.clone())
                        .chain(r.cells.iter().map(|c| c.mark().to_string()))
                        .collect()
                })
                .collect(),
        );
    t.notes.push(format!(
        "versions: {}",
        m.columns
            .iter()
            .map(|c| format!("{} {}", c.runtime, c.version))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    for (i, c) in m.columns.iter().enumerate() {
        let cells: Vec<(&str, &Support)> = m
            .rows
            .iter()
            .map(|r| (r.feature.as_str(), &r.cells[i]))
            .collect();
        if let Some((_, Support::NotApplicable { reason })) = cells.first()
            && cells
                .iter()
                .all(|(_, s)| matches!(s, Support::NotApplicable { .. }))
        {
            t.notes.push(format!("{}: n/a, {reason}", c.runtime));
            continue;
        }
        for (feature, s) in cells {
            let d = s.detail();
            if !d.is_empty() {
                t.notes.push(format!("{} × {feature}: {d}", c.runtime));
            }
        }
    }
    t
}

/// CSV: one line per runtime × feature.
pub fn render_csv(m: &Matrix) -> String {
    use crate::export::csv::field;
    let mut s = String::from("run,runtime,version,feature,support,detail\n");
    for r in &m.rows {
        for (c, cell) in m.columns.iter().zip(&r.cells) {
            let support = serde_json::to_value(cell)
                .ok()
                .and_then(|v| v["support"].as_str().map(str::to_string))
                .unwrap_or_default();
            let fields = [
                &m.run,
                &c.runtime,
                &c.version,
                &r.feature,
                &support,
                &cell.detail(),
            ];
            s += &fields.map(|f| field(f)).join(",");
            s += "\n";
        }
    }
    s
}

/// The changes between two matrices, one line each; says so when there are none.
pub fn render_diff(a: &Matrix, b: &Matrix, changes: &[Change<'_>]) -> String {
    let mut s = format!("{} → {}\n", a.run, b.run);
    if changes.is_empty() {
        s += "no runtime × feature changed\n";
    }
    for c in changes {
        s += &format!(
            "{} × {}: {} → {}",
            c.runtime,
            c.feature,
            c.before.mark(),
            c.after.mark()
        );
        let why = c.after.detail();
        if !why.is_empty() {
            s += &format!(" ({why})");
        }
        s += "\n";
    }
    s
}
