//! A table as plain text for a terminal: columns padded to their widest cell and two
//! spaces apart, a rule of dashes under the header, no trailing blanks.

use super::{Align, Table};

impl Table {
    /// The table as aligned text: its title, the header, a rule, the rows, the footer rows
    /// and then its notes (`note: …`), each line ending in a newline.
    pub fn to_text(&self) -> String {
        let w = self.widths();
        let line = |cells: &mut dyn Iterator<Item = &str>| -> String {
            let mut out = cells
                .zip(self.columns.iter().zip(&w))
                .map(|(c, (col, &width))| match col.align {
                    Align::Left => format!("{c:<width$}"),
                    Align::Right => format!("{c:>width$}"),
                })
                .collect::<Vec<_>>()
                .join("  ");
            out.truncate(out.trim_end().len());
            out.push('\n');
            out
        };
        let mut out = String::new();
        if let Some(t) = &self.title {
            out.push_str(t);
            out.push('\n');
        }
        out.push_str(&line(&mut self.columns.iter().map(|c| c.title.as_str())));
        let rule: Vec<String> = w.iter().map(|n| "-".repeat(*n)).collect();
        out.push_str(&rule.join("  "));
        out.push('\n');
        for r in self.rows.iter().chain(&self.footer) {
            out.push_str(&line(
                &mut (0..self.columns.len()).map(|i| Table::cell(r, i)),
            ));
        }
        for n in &self.notes {
            out.push_str(&format!("note: {n}\n"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_pads_to_the_widest_cell_and_aligns_by_column() {
        let mut t = Table::new(["a", "bb"], 1);
        t.rows.push(vec!["xyz".into(), "1".into()]);
        assert_eq!(t.to_text(), "a    bb\n---  --\nxyz   1\n");
    }

    #[test]
    fn text_has_title_footer_and_notes_and_no_trailing_blanks() {
        let mut t = Table::new(["test", "native", "note"], 1).titled("times");
        t.columns[2].align = Align::Left;
        t.rows
            .push(vec!["sha256".into(), "1.2 µs".into(), String::new()]);
        t.rows
            .push(vec!["nbody".into(), "FAILED".into(), "trap".into()]);
        t.footer
            .push(vec!["geomean".into(), "1.00×".into(), String::new()]);
        t.notes.push("native × nbody: trapped".into());
        assert_eq!(
            t.to_text(),
            "times\n\
             test     native  note\n\
             -------  ------  ----\n\
             sha256   1.2 µs\n\
             nbody    FAILED  trap\n\
             geomean   1.00×\n\
             note: native × nbody: trapped\n"
        );
    }

    #[test]
    fn text_widths_count_characters_not_bytes() {
        let mut t = Table::new(["x", "µs"], 1);
        t.rows.push(vec!["±".into(), "1.0 µs".into()]);
        t.rows.push(vec!["ab".into(), "2 ns".into()]);
        assert_eq!(
            t.to_text(),
            "x       µs\n--  ------\n±   1.0 µs\nab    2 ns\n"
        );
    }
}
