//! A table as a standalone HTML page (the fleet's report, `wasmeter compare --format
//! html`): the same cells as the text and Markdown forms, escaped, numbers right-aligned.

use super::{Align, Table};

/// Text safe inside HTML.
fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Table {
    /// The table as a whole HTML document titled `page_title`: its title as a caption, the
    /// footer rows in bold, its notes as a list.
    pub fn to_html(&self, page_title: &str) -> String {
        let cell = |tag: &str, align: Align, text: &str| {
            let style = match align {
                Align::Left => "",
                Align::Right => " style=\"text-align:right\"",
            };
            format!("<{tag}{style}>{}</{tag}>", escape_html(text))
        };
        let row = |tag: &str, cells: &[String]| {
            let tds: Vec<String> = cells
                .iter()
                .zip(&self.columns)
                .map(|(c, col)| cell(tag, col.align, c))
                .collect();
            format!("<tr>{}</tr>\n", tds.join(""))
        };
        let mut out = format!(
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n<style>body{{font-family:system-ui,sans-serif;margin:2em}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:.25em .6em;font-variant-numeric:tabular-nums}}tfoot td{{font-weight:bold}}</style></head><body>\n<table>\n",
            escape_html(page_title)
        );
        if let Some(t) = &self.title {
            out.push_str(&format!("<caption>{}</caption>\n", escape_html(t)));
        }
        let titles: Vec<String> = self.columns.iter().map(|c| c.title.clone()).collect();
        out.push_str("<thead>");
        out.push_str(&row("th", &titles));
        out.push_str("</thead>\n<tbody>\n");
        for r in &self.rows {
            out.push_str(&row("td", r));
        }
        out.push_str("</tbody>\n");
        if !self.footer.is_empty() {
            out.push_str("<tfoot>\n");
            for r in &self.footer {
                out.push_str(&row("td", r));
            }
            out.push_str("</tfoot>\n");
        }
        out.push_str("</table>\n");
        if !self.notes.is_empty() {
            out.push_str("<ul>\n");
            for n in &self.notes {
                out.push_str(&format!("<li>{}</li>\n", escape_html(n)));
            }
            out.push_str("</ul>\n");
        }
        out.push_str("</body></html>\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_escaped_and_numbers_right_aligned() {
        let mut t = Table::new(["test", "a<b"], 1).titled("x & y");
        t.rows.push(vec!["<script>".into(), "1.00×".into()]);
        t.footer.push(vec!["geomean".into(), "2.00×".into()]);
        t.notes.push("warning: \"q\"".into());
        let h = t.to_html("page");
        assert!(h.contains("<caption>x &amp; y</caption>"), "{h}");
        assert!(
            h.contains("<th style=\"text-align:right\">a&lt;b</th>"),
            "{h}"
        );
        assert!(h.contains("<td>&lt;script&gt;</td>"), "{h}");
        assert!(!h.contains("<script>"), "{h}");
        assert!(h.contains("<tfoot>\n<tr><td>geomean</td>"), "{h}");
        assert!(h.contains("<li>warning: &quot;q&quot;</li>"), "{h}");
    }
}
