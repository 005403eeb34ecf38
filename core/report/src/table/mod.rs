//! Tables of results as text: one model (rows × columns of already formatted cells, each
//! column aligned), built once per kind of table — the summary ([`summary_table`]), the
//! phases ([`phases_table`]), a diff ([`diff_table`]), the lifecycle suite's
//! ([`operations_tables`], [`heap_tables`]) and the HTTP suites' ([`http_tables`]), and
//! which of them a run shows ([`run_tables`], from its kind's views) — and rendered as plain
//! text (`wasmeter show`, `wasmeter diff`), as Markdown (the export) or as ratatui tables
//! (the terminal UI), so that every front end shows the same cells.

mod compare;
mod diff;
mod explain;
mod figures;
#[cfg(feature = "parquet")]
mod history;
mod html;
mod http;
mod lifecycle;
mod markdown;
mod noise;
mod phases;
mod sizes;
mod summary;
mod sweep;
mod text;
mod views;

pub use compare::compare_table;
pub use diff::{diff_columns, diff_row, diff_table};
pub use explain::{explain_table, explain_tables, test_tables};
pub use figures::{format_cell, format_geomean, format_ratio};
#[cfg(feature = "parquet")]
pub use history::history_table;
pub use http::http_tables;
pub use lifecycle::{
    HEAP_DEFAULT, heap_table, heap_tables, module_files_tables, module_table, operations_tables,
};
pub use markdown::escape_markdown;
pub use noise::noise_tables;
pub use phases::phases_table;
pub use sizes::sizes_tables;
pub use summary::{startup_corrected_table, summary_table};
pub use sweep::sweep_tables;
pub use views::{RunTables, run_tables, view_tables};

/// How a column's cells line up: text to the left, numbers to the right (so that digits
/// of the same weight stand one above the other).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Align {
    /// Names and words.
    Left,
    /// Numbers.
    Right,
}

/// A column: its title and how its cells line up.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Column {
    /// Title in the header.
    pub title: String,
    /// Alignment of its cells (and title).
    pub align: Align,
}

/// A table of formatted cells. Every row has one cell per column.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Table {
    /// What the table shows, written above it.
    pub title: Option<String>,
    /// The columns, left to right.
    pub columns: Vec<Column>,
    /// The rows, top to bottom.
    pub rows: Vec<Vec<String>>,
    /// Rows that sum up the others (a geometric mean), after them; Markdown sets them bold.
    pub footer: Vec<Vec<String>>,
    /// Remarks on single cells, written under the table.
    pub notes: Vec<String>,
}

impl Table {
    /// A table with columns titled `titles`, the first `left` of them text (left-aligned),
    /// the rest numbers (right-aligned): the usual shape of a results table.
    pub fn new<S: Into<String>>(titles: impl IntoIterator<Item = S>, left: usize) -> Table {
        Table {
            columns: titles
                .into_iter()
                .enumerate()
                .map(|(i, title)| Column {
                    title: title.into(),
                    align: if i < left { Align::Left } else { Align::Right },
                })
                .collect(),
            ..Table::default()
        }
    }

    /// The same table with these rows.
    pub fn with_rows(mut self, rows: Vec<Vec<String>>) -> Table {
        self.rows = rows;
        self
    }

    /// The same table with a title.
    pub fn titled(mut self, title: impl Into<String>) -> Table {
        self.title = Some(title.into());
        self
    }

    /// The cell of `row` in column `col`, empty where a row is short.
    pub fn cell(row: &[String], col: usize) -> &str {
        row.get(col).map_or("", String::as_str)
    }

    /// Each column's width in characters: its widest cell, title included.
    pub fn widths(&self) -> Vec<usize> {
        self.columns
            .iter()
            .enumerate()
            .map(|(i, c)| {
                self.rows
                    .iter()
                    .chain(&self.footer)
                    .map(|r| Table::cell(r, i).chars().count())
                    .chain([c.title.chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_columns_are_text_the_rest_numbers() {
        let t = Table::new(["test", "a", "b"], 1).titled("t");
        let aligns: Vec<Align> = t.columns.iter().map(|c| c.align).collect();
        assert_eq!(aligns, [Align::Left, Align::Right, Align::Right]);
        assert_eq!(t.title.as_deref(), Some("t"));
    }

    #[test]
    fn widths_count_characters_of_cells_titles_and_footer() {
        let mut t = Table::new(["test", "native"], 1);
        t.rows.push(vec!["sha256".into(), "1.2 µs".into()]);
        t.footer
            .push(vec!["geomean × native".into(), "1.00×".into()]);
        assert_eq!(t.widths(), [16, 6]);
        // A short row counts as empty cells.
        t.rows.push(vec!["x".into()]);
        assert_eq!(t.widths(), [16, 6]);
    }
}

/// Both renderings of a table read back into cells give the model's cells: what `show`
/// prints and what the Markdown export writes are the same table.
#[cfg(test)]
mod round_trip {
    use super::*;

    /// Rows of cells of a text table (header first), each column where its rule of dashes
    /// is.
    fn from_text(text: &str) -> Vec<Vec<String>> {
        let lines: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
        let at = lines
            .iter()
            .position(|l| !l.is_empty() && l.iter().all(|c| *c == '-' || *c == ' '))
            .expect("a rule");
        let mut spans = Vec::new();
        let mut start = None;
        for (i, c) in lines[at].iter().chain([&' ']).enumerate() {
            match (c, start) {
                ('-', None) => start = Some(i),
                (' ', Some(s)) => {
                    spans.push((s, i));
                    start = None;
                }
                _ => {}
            }
        }
        std::iter::once(&lines[at - 1])
            .chain(lines[at + 1..].iter().take_while(|l| {
                let s: String = l.iter().collect();
                !s.starts_with("note: ")
            }))
            .map(|l| {
                spans
                    .iter()
                    .map(|&(a, b)| {
                        l[a.min(l.len())..b.min(l.len())]
                            .iter()
                            .collect::<String>()
                            .trim()
                            .to_string()
                    })
                    .collect()
            })
            .collect()
    }

    /// Rows of cells of a Markdown table (header first), split at unescaped pipes,
    /// unescaped, the footer's bold taken off.
    fn from_markdown(md: &str) -> Vec<Vec<String>> {
        md.lines()
            .filter(|l| l.starts_with('|') && !l.starts_with("| ---"))
            .map(|l| {
                let mut cells = vec![String::new()];
                let mut chars = l[1..l.len() - 1].chars().peekable();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' if chars.peek() == Some(&'|') => {
                            cells.last_mut().unwrap().push('|');
                            chars.next();
                        }
                        '|' => cells.push(String::new()),
                        c => cells.last_mut().unwrap().push(c),
                    }
                }
                cells
                    .iter()
                    .map(|c| {
                        let c = c.trim();
                        c.strip_prefix("**")
                            .and_then(|c| c.strip_suffix("**"))
                            .unwrap_or(c)
                            .replace("&lt;", "<")
                            .replace("&gt;", ">")
                            .replace("&amp;", "&")
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn text_and_markdown_carry_the_same_cells() {
        let mut t = Table::new(["variant", "best rps (conns)", "× native"], 1)
            .titled("slow: requests per second");
        t.rows.push(vec![
            "a|b".into(),
            "saturated (< 0.50/s) (1)".into(),
            "0.12×".into(),
        ]);
        t.rows.push(vec![
            "wasmtime".into(),
            "21.2k/s (10)".into(),
            String::new(),
        ]);
        t.footer.push(vec![
            "geomean × native".into(),
            "µ & ±".into(),
            "1.00×".into(),
        ]);
        t.notes.push("a note".into());
        let mut model = vec![t.columns.iter().map(|c| c.title.clone()).collect()];
        model.extend(t.rows.iter().chain(&t.footer).cloned());
        assert_eq!(from_text(&t.to_text()), model);
        assert_eq!(from_markdown(&t.to_markdown()), model);
    }
}
