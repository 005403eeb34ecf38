//! A cell's history of 10,000 runs with a step at run 6,000: drawn by a test (what the pane
//! shows) and by `benches/scale.rs` (how long a frame takes).

use wasmeter_core::history::{ChangeOptions, ChangePoint, History, Point, Series};

/// The history: one series, 10,000 points, +20 % from run 6,000 on.
pub fn ten_thousand_runs() -> History {
    let n = 10_000;
    let points: Vec<Point> = (0..n)
        .map(|i| {
            let v = if i >= 6_000 { 1.2e6 } else { 1e6 } * (1.0 + 0.01 * ((i % 7) as f64 - 3.0));
            Point {
                run: format!("run-{i:05}"),
                started_unix: 1_790_000_000.0 + i as f64 * 3600.0,
                value: v,
                low: Some(v * 0.98),
                high: Some(v * 1.02),
                median: v,
                invocations: 3,
                version: Some("1.0".into()),
                partial: false,
                busy: false,
            }
        })
        .collect();
    let series = Series {
        suite: "scale".into(),
        test: "t001".into(),
        runtime: "rt001".into(),
        machine: "fp-1".into(),
        machine_label: "Test CPU".into(),
        phase: "execute".into(),
        source: "self".into(),
        size: "quick".into(),
        plan_hash: None,
        points,
        changes: vec![ChangePoint {
            index: 6_000,
            before: 1e6,
            after: 1.2e6,
            change_pct: 20.0,
            p_value: 0.005,
        }],
    };
    History {
        results: "/results".into(),
        runs_read: n,
        skipped: vec![],
        notes: vec![],
        changes: ChangeOptions::default(),
        series: vec![series],
    }
}
