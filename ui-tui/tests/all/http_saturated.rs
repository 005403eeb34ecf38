//! A saturated HTTP level in the terminal UI: the variant is not failed, its served levels
//! are drawn as before, and the saturated one is listed with its bound — never as a rate
//! or a point of the chart.

use wasmeter_core::runtime::{Metric, Phase};
use wasmeter_tui::panes::http::HttpView;

/// The common HTTP run, with wasmer-cranelift × hello saturated at 100 connections in every
/// iteration (no request in the 0.5 s each level lasts: below 2 requests per second).
fn run() -> wasmeter_core::store::SavedRun {
    let mut run = crate::common::http_run();
    let at = |r: &wasmeter_core::store::MeasurementRow| {
        r.runtime == "wasmer-cranelift" && r.test == "hello" && r.phase == Phase::Throughput(100)
    };
    let mut marks: Vec<_> = run
        .measurements
        .iter()
        .filter(|r| at(r) && r.metric == Metric::Rps)
        .cloned()
        .collect();
    assert!(!marks.is_empty());
    for m in &mut marks {
        m.metric = Metric::SaturatedBelowRps;
        m.value = 2.0;
    }
    run.measurements
        .retain(|r| !at(r) || matches!(r.metric, Metric::RssBytes | Metric::Errors));
    run.measurements.extend(marks);
    run
}

fn draw(view: &HttpView, chosen: &str) -> String {
    crate::common::screen_text(110, 36, |area, buf| {
        view.render("hello", Some(chosen), area, buf)
    })
}

#[test]
fn a_saturated_level_is_listed_with_its_bound_not_drawn() {
    let view = HttpView::new(&run(), "native");
    let cell = view
        .cells
        .iter()
        .find(|c| c.runtime == "wasmer-cranelift" && c.test == "hello")
        .unwrap();
    assert!(cell.failure.is_none());
    assert_eq!(
        cell.levels
            .iter()
            .map(|l| l.connections)
            .collect::<Vec<_>>(),
        vec![1, 10, 50]
    );
    assert_eq!(cell.saturated.len(), 1);
    assert_eq!(cell.saturated[0].label(), "saturated (< 2.00/s)");

    let s = draw(&view, "wasmer-cranelift");
    // Not a failed variant: its line is in the legend and no failure is listed.
    assert!(s.contains("━ wasmer-cranelift"), "{s}");
    assert!(!s.contains("FAILED") && !s.contains("failed:"), "{s}");
    // The chosen variant's levels in order, the saturated one with its bound.
    let lines: Vec<&str> = s.lines().collect();
    let head = lines
        .iter()
        .position(|l| l.contains("conns    req/s"))
        .unwrap_or_else(|| panic!("no level list in\n{s}"));
    // The list's column: where its header starts.
    let col = lines[head][..lines[head].find("conns").unwrap()]
        .chars()
        .count();
    let list: Vec<String> = lines[head + 1..head + 5]
        .iter()
        .map(|l| {
            l.chars()
                .skip(col)
                .collect::<String>()
                .trim_matches(|c: char| c == '│' || c.is_whitespace())
                .to_string()
        })
        .collect();
    assert_eq!(list.len(), 4, "{s}");
    assert_eq!(list[3], "100 saturated (< 2.00/s)", "{s}");
    assert!(
        list[2].starts_with("50 ") && list[2].ends_with("k/s"),
        "{list:?}"
    );
    assert!(
        list[0].starts_with("1 ") && list[1].starts_with("10 "),
        "{list:?}"
    );
}
