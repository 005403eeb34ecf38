//! HTML: one self-contained page (assets/report/report.html) with the report's JSON inside.

use super::{Exporter, Report};
use std::io::Write;

const TEMPLATE: &str = include_str!("../../../../assets/report/report.html");
const MARKER: &str = r#"<script type="application/json" id="wasmeter-data">{}</script>"#;
/// Core's number formats in the report's script (tested on core's cases by the desktop
/// page's tests): put where the template marks them.
const FORMAT: &str = include_str!("../../../../assets/report/format.js");
const FORMAT_MARKER: &str = "/* assets/report/format.js */";

/// Writes the report page.
pub struct HtmlExporter;

/// The report's JSON as the page reads it: the report, with core's ratio colour scale
/// (`palette`), with a diff the one line of
/// [`crate::analysis::Diff::method`] (`diff.method`) that every output of a diff shows, and
/// with a comparison its table as every front end shows it (`comparison.table`), so the
/// page formats none of its numbers itself; and each run's `shape` (how its kind is shown).
fn page_data(report: &Report) -> serde_json::Result<serde_json::Value> {
    let mut data = serde_json::to_value(report)?;
    if let (Some(c), Some(obj)) = (
        &report.comparison,
        data.get_mut("comparison").and_then(|v| v.as_object_mut()),
    ) {
        obj.insert(
            "table".into(),
            serde_json::to_value(crate::table::compare_table(c))?,
        );
    }
    // The ratio colour scale every front end uses (format::colour), so the page colours
    // a cell as the desktop and the TUI do.
    if let Some(obj) = data.as_object_mut() {
        use crate::format::colour::{BIN_LOG2, BINS_PER_SIDE, PALETTE, TEXT};
        obj.insert(
            "palette".into(),
            serde_json::json!({
                "bins": PALETTE, "text": TEXT, "bin_log2": BIN_LOG2, "per_side": BINS_PER_SIDE
            }),
        );
    }
    // How each run's kind is shown (phases, baseline, HTTP or lifecycle views): core's
    // rule, as the desktop page has it, so the page compares no kind words.
    for (k, run) in report.runs.iter().enumerate() {
        if let Some(obj) = data["runs"][k].as_object_mut() {
            obj.insert(
                "shape".into(),
                serde_json::to_value(run.meta.suite_kind.shape())?,
            );
        }
    }
    // A profiled run's tables as every front end shows them.
    for (k, run) in report.runs.iter().enumerate() {
        let Some(e) = run.profile.as_ref().and_then(|p| p.explanation.as_ref()) else {
            continue;
        };
        if let Some(obj) = data["runs"][k]["profile"].as_object_mut() {
            obj.insert(
                "tables".into(),
                serde_json::to_value(
                    e.tests
                        .iter()
                        .map(|t| crate::table::test_tables(t, &e.baseline, 15))
                        .collect::<Vec<_>>(),
                )?,
            );
        }
    }
    if let (Some(d), Some(obj)) = (
        &report.diff,
        data.get_mut("diff").and_then(|v| v.as_object_mut()),
    ) {
        obj.insert("method".into(), serde_json::Value::String(d.method()));
    }
    Ok(data)
}

/// JSON that cannot end the script element it sits in or be read as markup: `<`, `>` and
/// `&` become `\u003c`, `\u003e`, `\u0026` (still the same JSON strings), and so do the
/// line separators JavaScript treats as newlines.
pub fn script_safe_json(report: &Report) -> serde_json::Result<String> {
    let json = serde_json::to_string(&page_data(report)?)?;
    let mut out = String::with_capacity(json.len() + 64);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    Ok(out)
}

impl Exporter for HtmlExporter {
    fn write(&self, report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
        if let Some(m) = &report.features {
            let t = crate::features::table(m);
            let title = t.title.clone().unwrap_or_default();
            return out.write_all(t.to_html(&title).as_bytes());
        }
        let at = TEMPLATE
            .find(MARKER)
            .expect("report template carries the data marker");
        let data = script_safe_json(report)?;
        out.write_all(&TEMPLATE.as_bytes()[..at])?;
        write!(
            out,
            r#"<script type="application/json" id="wasmeter-data">{data}</script>"#
        )?;
        let rest = &TEMPLATE[at + MARKER.len()..];
        let f = rest
            .find(FORMAT_MARKER)
            .expect("report template marks where the formats go");
        out.write_all(&rest.as_bytes()[..f])?;
        out.write_all(FORMAT.as_bytes())?;
        out.write_all(&rest.as_bytes()[f + FORMAT_MARKER.len()..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page carries the report's data and core's formats in their places, once each,
    /// and nothing of the template's markers.
    #[test]
    fn the_page_carries_the_data_and_the_formats() {
        let report = Report::new(Vec::new(), None);
        let mut out = Vec::new();
        HtmlExporter.write(&report, &mut out).unwrap();
        let page = String::from_utf8(out).unwrap();
        assert_eq!(page.matches("var WASMETER_FORMAT = ").count(), 1);
        assert!(!page.contains(FORMAT_MARKER));
        assert_eq!(page.matches(r#"id="wasmeter-data">"#).count(), 1);
        let format = page.find("var WASMETER_FORMAT").unwrap();
        let app = page.find(r#"<script id="wasmeter-app">"#).unwrap();
        assert!(
            format < app,
            "the formats are defined before the page's script uses them"
        );
        assert!(!FORMAT.contains("</script"));
    }
}
