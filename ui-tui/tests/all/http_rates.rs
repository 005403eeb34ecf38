//! Offered rates in the terminal UI: latency against offered rate per variant, the SLO in
//! the title, each variant's knee beside the chart and the chosen variant's rates with
//! their verdicts — and no such view for a run without rates.

use wasmeter_core::runtime::{Metric, Phase};
use wasmeter_core::store::MeasurementRow;
use wasmeter_tui::panes::http::HttpView;

/// The common HTTP run, with every variant of `hello` offered 1k, 10k and 100k requests/s:
/// native holds all three, wasmtime-pooling breaks at 100k and wasmer-cranelift at 10k.
fn run() -> wasmeter_core::store::SavedRun {
    let mut run = crate::common::http_run();
    if let Some(h) = &mut run.meta.settings.http {
        h.rates = vec![1000, 10_000, 100_000];
        h.slo_p99_ms = 50.0;
    }
    let mut rows = Vec::new();
    for (ri, rt) in ["native", "wasmtime-pooling", "wasmer-cranelift"]
        .iter()
        .enumerate()
    {
        let breaks_at = [u32::MAX, 100_000, 10_000][ri];
        for i in 0..3u32 {
            let mut row = |phase, metric, value: f64| {
                rows.push(MeasurementRow {
                    runtime: rt.to_string(),
                    test: "hello".into(),
                    phase,
                    invocation: 0,
                    iteration: i,
                    warmup: false,
                    metric,
                    value,
                })
            };
            let mut knee = None;
            for r in [1000u32, 10_000, 100_000] {
                let ph = Phase::Rate(r);
                let broke = r >= breaks_at;
                let p99 = if broke {
                    400e6
                } else {
                    0.3e6 * (ri + 1) as f64
                };
                row(
                    ph,
                    Metric::Rps,
                    if broke {
                        f64::from(r) * 0.6
                    } else {
                        f64::from(r)
                    },
                );
                row(ph, Metric::WallNs, p99 / 4.0);
                row(ph, Metric::P90Ns, p99 / 2.0);
                row(ph, Metric::P99Ns, p99);
                row(ph, Metric::P999Ns, p99 * 1.2);
                row(ph, Metric::UncorrectedP50Ns, 0.1e6);
                row(ph, Metric::UncorrectedP99Ns, if broke { 2e6 } else { p99 });
                row(ph, Metric::Errors, 0.0);
                row(ph, Metric::Timeouts, 0.0);
                if !broke && knee.is_none_or(|k| k < r) {
                    knee = Some(r);
                }
            }
            row(Phase::Knee, Metric::Rps, f64::from(knee.unwrap()));
            row(
                Phase::Knee,
                Metric::Unbroken,
                if breaks_at == u32::MAX { 1.0 } else { 0.0 },
            );
        }
    }
    run.measurements.extend(rows);
    run
}

fn draw(view: &HttpView, chosen: &str) -> String {
    crate::common::screen_text(120, 30, |area, buf| {
        view.render_rates("hello", Some(chosen), area, buf)
    })
}

#[test]
fn the_rates_view_draws_latency_against_rate_and_the_knees() {
    let view = HttpView::new(&run(), "native");
    assert!(view.has_rates());
    let text = draw(&view, "wasmtime-pooling");
    assert!(
        text.contains("hello: corrected p99 vs offered rate, SLO 50.00 ms"),
        "{text}"
    );
    assert!(text.contains("offered requests/s (log)"), "{text}");
    // Knees: native never broke (a lower bound), the others at their last good rate.
    assert!(
        text.contains("native") && text.contains("knee ≥ 100.0k/s"),
        "{text}"
    );
    assert!(text.contains("knee 10.0k/s"), "{text}");
    assert!(text.contains("knee 1.0k/s"), "{text}");
    // The chosen variant's rates: two held, the third broke, the uncorrected p99 beside.
    let listed: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(" ok") || l.contains(" ✗"))
        .collect();
    assert_eq!(listed.len(), 3, "{text}");
    assert!(
        listed[2].contains("400.00 ms") && listed[2].contains("2.00 ms") && listed[2].contains('✗'),
        "{}",
        listed[2]
    );
    // A line per variant and the knee markers are drawn on the plot.
    assert!(text.contains('█'), "no knee marker: {text}");
    assert!(
        text.chars()
            .filter(|c| ('\u{2800}'..='\u{28FF}').contains(c))
            .count()
            > 20,
        "{text}"
    );
}

#[test]
fn a_run_without_rates_has_no_rates_view() {
    let view = HttpView::new(&crate::common::http_run(), "native");
    assert!(!view.has_rates());
    let text = draw(&view, "native");
    assert!(text.contains("no offered rates in this run"), "{text}");
}
