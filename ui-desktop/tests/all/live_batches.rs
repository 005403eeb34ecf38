//! What the page's live-screen tests replay: scripted runner events folded by core's
//! reducer, as the backend folds a real run's (`commands::run::fold`), written to
//! `web/src/test/live/*.json`. The page's tests draw them; a change in core's reduction
//! fails here until the files are rewritten (`WASMETER_BLESS=1`), and then the page's
//! tests until the screen follows.

use std::path::Path;
use std::time::Duration;
use wasmeter_core::live::LiveRun;
use wasmeter_core::model::{Failure, Metric, Phase};
use wasmeter_core::runner::Event;
use wasmeter_core::store::{MeasurementRow, RunStatus, SampleRow};
use wasmeter_core::suite::SuiteKind;
use wasmeter_desktop::commands::run::fold;

fn self_ns(runtime: &str, value: f64, warmup: bool) -> Event {
    Event::Measurement {
        rows: vec![MeasurementRow {
            runtime: runtime.into(),
            test: "sha256".into(),
            phase: Phase::Execute,
            invocation: 0,
            iteration: 0,
            warmup,
            metric: Metric::SelfNs,
            value,
        }],
    }
}

fn started(index: usize, invocation: u32) -> Event {
    Event::CellStarted {
        index,
        invocation,
        beside: false,
    }
}

fn planned(iterations_per_cell: u32, invocations: u32, run_id: &str) -> Event {
    Event::Planned {
        run_id: run_id.into(),
        suite: "compute".into(),
        suite_kind: SuiteKind::Command,
        baseline: "native".into(),
        cells: vec![
            ("native".into(), "sha256".into()),
            ("wasmtime".into(), "sha256".into()),
        ],
        iterations_per_cell,
        invocations,
    }
}

/// A run of native and wasmtime × sha256, two invocations a cell interleaved, to the end.
fn interleaved() -> Vec<Vec<Event>> {
    let progress = |index, done| Event::Progress { index, done };
    let done = |index, wall_ms| Event::CellFinished {
        index,
        failure: None,
        wall_ms,
    };
    vec![
        vec![
            planned(4, 2, "run-42"),
            started(0, 0),
            progress(0, 1),
            self_ns("native", 5e9, true),
            Event::Sample {
                sample: SampleRow {
                    t_ms: 100.0,
                    runtime: "native".into(),
                    test: "sha256".into(),
                    cpu_pct: 97.0,
                    rss_bytes: 13_688_832,
                },
            },
        ],
        vec![
            progress(0, 2),
            self_ns("native", 100e6, false),
            started(1, 0),
            progress(1, 2),
            self_ns("wasmtime", 115e6, false),
        ],
        vec![
            started(0, 1),
            progress(0, 4),
            self_ns("native", 102e6, false),
            done(0, 800.0),
            started(1, 1),
            progress(1, 4),
            self_ns("wasmtime", 117e6, false),
            done(1, 900.0),
        ],
        vec![Event::RunFinished {
            status: RunStatus::Complete,
            failed: 0,
        }],
    ]
}

/// A run cancelled in its first cell.
fn cancelled() -> Vec<Vec<Event>> {
    vec![
        vec![planned(2, 1, "r"), started(0, 0)],
        vec![
            Event::CellFinished {
                index: 0,
                failure: Some(Failure::Cancelled),
                wall_ms: 10.0,
            },
            Event::RunFinished {
                status: RunStatus::Cancelled,
                failed: 1,
            },
        ],
    ]
}

#[test]
fn the_pages_live_fixtures_are_cores_reduction_of_their_events() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/src/test/live");
    for (name, script) in [("interleaved", interleaved()), ("cancelled", cancelled())] {
        let mut live = LiveRun::new(Duration::ZERO);
        let batches: Vec<_> = (script.into_iter().enumerate())
            .map(|(i, events)| fold(&mut live, events, Duration::from_secs(i as u64), false))
            .collect();
        let fresh = serde_json::to_string_pretty(&batches).unwrap() + "\n";
        let path = dir.join(format!("{name}.json"));
        if std::env::var_os("WASMETER_BLESS").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &fresh).unwrap();
        }
        let kept = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            kept == fresh,
            "{} is not core's reduction of its events; rerun with WASMETER_BLESS=1 and make \
             the page's tests follow",
            path.display()
        );
    }
}
