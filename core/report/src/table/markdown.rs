//! A table as GitHub-flavoured Markdown, to paste into an issue or a pull request: cells
//! escaped so that none breaks a column or opens HTML, numbers right-aligned by the
//! delimiter row, footer rows in bold.

use super::{Align, Table};

/// Text safe inside a Markdown table cell (and in a paragraph): no column breaks, no raw
/// HTML, one line.
pub fn escape_markdown(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}

impl Table {
    /// The table as Markdown: its title as a paragraph, the table, then its notes as a
    /// list, each block followed by a blank line.
    pub fn to_markdown(&self) -> String {
        let row = |cells: &mut dyn Iterator<Item = String>| -> String {
            let cells: Vec<String> = cells.collect();
            format!("| {} |\n", cells.join(" | "))
        };
        let n = self.columns.len();
        let mut out = String::new();
        if let Some(t) = &self.title {
            out.push_str(&escape_markdown(t));
            out.push_str("\n\n");
        }
        out.push_str(&row(&mut self
            .columns
            .iter()
            .map(|c| escape_markdown(&c.title))));
        out.push_str(&row(&mut self.columns.iter().map(|c| {
            match c.align {
                Align::Left => "---",
                Align::Right => "---:",
            }
            .to_string()
        })));
        for r in &self.rows {
            out.push_str(&row(&mut (0..n).map(|i| escape_markdown(Table::cell(r, i)))));
        }
        for r in &self.footer {
            out.push_str(&row(&mut (0..n).map(|i| match Table::cell(r, i) {
                "" => String::new(),
                c => format!("**{}**", escape_markdown(c)),
            })));
        }
        out.push('\n');
        if !self.notes.is_empty() {
            for note in &self.notes {
                out.push_str(&format!("- note: {}\n", escape_markdown(note)));
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_aligns_by_the_delimiter_row_and_bolds_the_footer() {
        let mut t = Table::new(["test", "native", "wasmtime"], 1).titled("Times");
        t.rows
            .push(vec!["sha256".into(), "1.2 µs".into(), "-".into()]);
        t.footer.push(vec![
            "geomean × native".into(),
            "1.00×".into(),
            String::new(),
        ]);
        t.notes.push("wasmtime × sha256: not run".into());
        assert_eq!(
            t.to_markdown(),
            "Times\n\n\
             | test | native | wasmtime |\n\
             | --- | ---: | ---: |\n\
             | sha256 | 1.2 µs | - |\n\
             | **geomean × native** | **1.00×** |  |\n\
             \n\
             - note: wasmtime × sha256: not run\n\
             \n"
        );
    }

    #[test]
    fn markdown_escapes_pipes_html_and_newlines_in_every_cell() {
        assert_eq!(escape_markdown("a|b"), "a\\|b");
        assert_eq!(
            escape_markdown("saturated (< 2.00/s) & <b>\nx"),
            "saturated (&lt; 2.00/s) &amp; &lt;b&gt; x"
        );
        let mut t = Table::new(["a|b", "c"], 1).titled("x | y");
        t.rows.push(vec!["p|q".into(), "<1".into()]);
        assert_eq!(
            t.to_markdown(),
            "x \\| y\n\n| a\\|b | c |\n| --- | ---: |\n| p\\|q | &lt;1 |\n\n"
        );
    }
}
