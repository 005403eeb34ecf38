//! The feature matrix written out, as one [`Table`] in every form (text, Markdown, HTML)
//! and as CSV: features as rows, runtimes as columns, and every ✗, flag and n/a explained
//! in the table's notes; then the changes between two matrices.

use super::{Change, Matrix, Support};
use crate::table::Table;

/// Whether every cell of column `i` is n/a: such a runtime is left out of the grid and
/// said once in the notes.
fn all_na(m: &Matrix, i: usize) -> bool {
    m.rows
        .iter()
        .all(|r| matches!(r.cells[i], Support::NotApplicable { .. }))
}

/// The matrix as a table: a column per runtime the suite applies to, a row per feature, and
/// a note for each cell that is not a plain ✓ and for each runtime the suite does not apply
/// to.
pub fn table(m: &Matrix) -> Table {
    let shown: Vec<usize> = (0..m.columns.len()).filter(|&i| !all_na(m, i)).collect();
    let titles = std::iter::once("feature".to_string())
        .chain(shown.iter().map(|&i| m.columns[i].runtime.clone()));
    let mut t = Table::new(titles, shown.len() + 1)
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
                        .chain(shown.iter().map(|&i| r.cells[i].mark().to_string()))
                        .collect()
                })
                .collect(),
        );
    t.notes.push(format!(
        "versions: {}",
        shown
            .iter()
            .map(|&i| format!("{} {}", m.columns[i].runtime, m.columns[i].version))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    for (i, c) in m.columns.iter().enumerate() {
        if all_na(m, i) {
            let reason = m
                .rows
                .first()
                .map(|r| r.cells[i].detail())
                .unwrap_or_default();
            t.notes.push(format!("{}: n/a, {reason}", c.runtime));
            continue;
        }
        for r in &m.rows {
            let d = r.cells[i].detail();
            if !d.is_empty() {
                t.notes.push(format!("{} × {}: {d}", c.runtime, r.feature));
            }
        }
    }
    t
}

/// CSV: one line per runtime × feature.
pub fn render_csv(m: &Matrix) -> String {
    use crate::text::csv_field as field;
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
