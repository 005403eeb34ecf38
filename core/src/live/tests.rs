//! The live reducer from scripted event sequences (the cases the desktop page's reducer
//! was tested by, before both front ends took this one).

use super::*;
use crate::model::{Failure, Metric, Phase};
use crate::store::MeasurementRow;

fn ms(t: u64) -> Duration {
    Duration::from_millis(t)
}

fn row(runtime: &str, test: &str, f: impl FnOnce(&mut MeasurementRow)) -> MeasurementRow {
    let mut r = MeasurementRow {
        runtime: runtime.into(),
        test: test.into(),
        phase: Phase::Execute,
        invocation: 0,
        iteration: 0,
        warmup: false,
        metric: Metric::SelfNs,
        value: 0.0,
    };
    f(&mut r);
    r
}

fn self_ns(runtime: &str, test: &str, invocation: u32, value: f64) -> Event {
    Event::Measurement {
        rows: vec![row(runtime, test, |r| {
            r.invocation = invocation;
            r.value = value;
        })],
    }
}

fn started(index: usize, invocation: u32) -> Event {
    Event::CellStarted {
        index,
        invocation,
        beside: false,
    }
}

fn finished(index: usize, failure: Option<Failure>) -> Event {
    Event::CellFinished {
        index,
        failure,
        wall_ms: 123.0,
    }
}

fn plan(cells: &[(&str, &str)], iterations_per_cell: u32, invocations: u32) -> LiveRun {
    let mut s = LiveRun::new(ms(0));
    s.apply(
        &Event::Planned {
            run_id: "r1".into(),
            suite: "compute".into(),
            suite_kind: SuiteKind::Command,
            baseline: "native".into(),
            cells: (cells.iter())
                .map(|(r, t)| (r.to_string(), t.to_string()))
                .collect(),
            iterations_per_cell,
            invocations,
        },
        ms(0),
    );
    s
}

/// 2 runtimes × 2 tests, 1 warm-up + 3 runs per cell, planned at t = 0.
fn planned() -> LiveRun {
    plan(
        &[
            ("native", "sha256"),
            ("wasmtime", "sha256"),
            ("native", "crc32"),
            ("wasmtime", "crc32"),
        ],
        4,
        1,
    )
}

/// Runs a cell to its end at `at` ms with measured self-times (after a warm-up outlier).
fn run_cell(s: &mut LiveRun, index: usize, values: &[f64], at: u64, failure: Option<Failure>) {
    let (rt, t) = (s.cells[index].runtime.clone(), s.cells[index].test.clone());
    let mut events = vec![
        started(index, 0),
        Event::Progress { index, done: 1 },
        Event::Measurement {
            rows: vec![row(&rt, &t, |r| {
                r.warmup = true;
                r.value = 1e12;
            })],
        },
    ];
    for (i, v) in values.iter().enumerate() {
        events.push(Event::Progress {
            index,
            done: i as u32 + 2,
        });
        events.push(self_ns(&rt, &t, 0, *v));
    }
    for e in &events {
        s.apply(e, ms(at - 1));
    }
    s.apply(&finished(index, failure), ms(at));
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-9 * b.abs().max(1.0))
}

#[test]
fn planned_runs_with_every_cell_pending_and_no_eta() {
    let s = planned();
    assert_eq!(s.head.state, RunState::Running);
    assert!(s.in_flight());
    assert_eq!(s.head.run_id.as_deref(), Some("r1"));
    assert!(s.cells.iter().all(|c| c.status == CellStatus::Pending));
    assert_eq!(
        s.progress(),
        Progress {
            done: 0,
            total: 16,
            fraction: 0.0
        }
    );
    assert_eq!(s.eta(), None);
}

#[test]
fn the_typical_self_time_ignores_warm_ups_and_the_eta_goes_by_finished_cells() {
    let mut s = planned();
    run_cell(&mut s, 0, &[100.0, 300.0, 200.0], 1000, None);
    let c = s.cell_view(0).unwrap();
    assert_eq!(c.status, CellStatus::Done);
    assert!(close(c.value, (100.0f64 * 300.0 * 200.0).cbrt()), "{c:?}");
    assert_eq!(c.source.as_deref(), Some("self"));
    assert_eq!(s.progress().done, 4);
    // 1000 ms for one cell, 3 left.
    assert_eq!(s.eta(), Some(ms(3000)));
    // The next cell half way (2 of 4 iterations): 2.5 cells left.
    s.apply(&started(1, 0), ms(1100));
    s.apply(&Event::Progress { index: 1, done: 2 }, ms(1200));
    assert_eq!(s.eta(), Some(ms(2500)));
    assert_eq!((s.position().at, s.position().of), (2, 4));
}

#[test]
fn ratios_are_to_the_baseline_of_the_same_test() {
    let mut s = planned();
    run_cell(&mut s, 0, &[100.0, 400.0, 250.0], 1000, None);
    run_cell(&mut s, 1, &[200.0, 200.0, 250.0], 2000, None);
    let native = s.cell_view(0).unwrap();
    assert!(close(native.ratio, 1.0) && !native.interim, "{native:?}");
    let wasm = s.cell_view(1).unwrap();
    assert!(close(wasm.ratio, 1.0), "{wasm:?}");
    let pending = s.cell_view(3).unwrap();
    assert_eq!(
        (pending.value, pending.ratio, pending.interim),
        (None, None, false)
    );
    assert_eq!(s.eta(), Some(ms(2000)));
}

#[test]
fn without_self_time_the_figure_is_wall_execute_then_wall_total() {
    let mut s = planned();
    let rows = vec![
        row("wasmtime", "sha256", |r| {
            (r.metric, r.phase, r.value) = (Metric::WallNs, Phase::Total, 900.0)
        }),
        row("wasmtime", "sha256", |r| {
            (r.metric, r.value) = (Metric::WallNs, 500.0)
        }),
        row("wasmtime", "sha256", |r| {
            (r.metric, r.phase, r.value) = (Metric::MaxRssKib, Phase::Total, 1e6)
        }),
    ];
    for e in [
        started(1, 0),
        Event::Measurement { rows },
        finished(1, None),
    ] {
        s.apply(&e, ms(1));
    }
    let total = row("wasmtime", "crc32", |r| {
        (r.metric, r.phase, r.value) = (Metric::WallNs, Phase::Total, 700.0)
    });
    for e in [
        started(3, 0),
        Event::Measurement { rows: vec![total] },
        finished(3, None),
    ] {
        s.apply(&e, ms(2));
    }
    let (a, b) = (s.cell_view(1).unwrap(), s.cell_view(3).unwrap());
    assert!(
        close(a.value, 500.0) && a.source.as_deref() == Some("wall"),
        "{a:?}"
    );
    assert!(
        close(b.value, 700.0) && b.source.as_deref() == Some("total"),
        "{b:?}"
    );
}

#[test]
fn a_failed_cell_has_its_reason_no_figure_and_counts_as_ended() {
    let mut s = planned();
    run_cell(
        &mut s,
        2,
        &[1.0, 2.0, 3.0],
        500,
        Some(Failure::Trap("unreachable".into())),
    );
    let c = s.cell_view(2).unwrap();
    assert_eq!(c.status, CellStatus::Failed);
    assert_eq!(c.failure.as_deref(), Some("trap: unreachable"));
    assert_eq!((c.value, c.source), (None, None));
    assert_eq!((s.head.failed_cells, s.progress().done), (1, 4));
}

#[test]
fn a_done_cell_fails_again_only_to_fail_it() {
    let mut s = planned();
    run_cell(&mut s, 1, &[10.0, 11.0, 12.0], 1000, None);
    s.take_changed();
    s.apply(&finished(1, None), ms(1100));
    assert!(
        s.take_changed().is_empty(),
        "a second success changes nothing"
    );
    // The cross-check of answers at the end of a run of modules.
    let wrong = Failure::WrongOutput("not the answer of the majority".into());
    s.apply(&finished(1, Some(wrong)), ms(1200));
    let c = s.cell_view(1).unwrap();
    assert_eq!(c.status, CellStatus::Failed);
    assert_eq!(
        c.failure.as_deref(),
        Some("wrong output: not the answer of the majority")
    );
    assert_eq!(c.value, None);
    assert_eq!(
        (
            s.head.failed_cells,
            s.head.finished_cells,
            s.progress().done
        ),
        (1, 1, 4)
    );
}

#[test]
fn the_run_ends_with_the_runners_status_and_a_cell_cut_short_fails() {
    let mut s = planned();
    s.apply(&started(0, 0), ms(1));
    s.cancelling = true;
    s.apply(
        &Event::RunFinished {
            status: RunStatus::Cancelled,
            failed: 0,
        },
        ms(2),
    );
    assert_eq!(s.head.state, RunState::Cancelled);
    assert!(!s.cancelling && !s.in_flight());
    assert_eq!(s.cells[0].status, CellStatus::Failed);
    assert_eq!(s.eta(), None);
    for (status, state) in [
        (RunStatus::Complete, RunState::Complete),
        (RunStatus::Interrupted, RunState::Interrupted),
        (RunStatus::Running, RunState::Interrupted),
    ] {
        let mut s = planned();
        s.apply(&Event::RunFinished { status, failed: 2 }, ms(1));
        assert_eq!((s.head.state, s.head.failed_reported), (state, Some(2)));
    }
    let mut s = planned();
    s.apply(
        &Event::Stopped {
            message: "cannot save run: disk full".into(),
        },
        ms(1),
    );
    assert_eq!(s.head.state, RunState::Error);
    assert_eq!(s.head.error.as_deref(), Some("cannot save run: disk full"));
}

#[test]
fn events_for_unknown_cells_change_nothing() {
    let mut s = planned();
    s.take_changed();
    s.apply(&started(99, 0), ms(1));
    s.apply(&self_ns("x", "y", 0, 1.0), ms(1));
    s.apply(&Event::Progress { index: 99, done: 1 }, ms(1));
    s.apply(&finished(99, None), ms(1));
    assert!(s.take_changed().is_empty());
    assert_eq!(s.head.current, None);
}

#[test]
fn interleaved_invocations_queue_a_cell_between_them_and_finish_it_after_its_last() {
    // 2 cells × 2 invocations of (1 warm-up + 2 runs): 6 iterations a cell, 12 in all.
    let mut s = plan(&[("native", "sha256"), ("wasmtime", "sha256")], 6, 2);
    let invocation = |s: &mut LiveRun, index: usize, k: u32, values: [f64; 2], at: u64| {
        let rt = s.cells[index].runtime.clone();
        let from = k * 3;
        s.apply(&started(index, k), ms(at));
        s.apply(
            &Event::Progress {
                index,
                done: from + 1,
            },
            ms(at),
        );
        for (i, v) in values.into_iter().enumerate() {
            let done = from + i as u32 + 2;
            s.apply(&Event::Progress { index, done }, ms(at));
            s.apply(&self_ns(&rt, "sha256", k, v), ms(at));
        }
    };
    // Round 0: wasmtime first, then native.
    invocation(&mut s, 1, 0, [240.0, 260.0], 1000);
    let c = &s.cells[1];
    assert_eq!(
        (c.status, c.invocation, c.done),
        (CellStatus::Running, 0, 3)
    );
    assert_eq!(
        s.position(),
        Position {
            at: 2,
            of: 2,
            invocation: 1,
            invocations: 2,
            round: None,
            in_round: 0
        }
    );
    invocation(&mut s, 0, 0, [200.0, 210.0], 2000);
    // Interleaved: a round of every cell, its order shuffled, so the round says where it is.
    let p = s.position();
    assert_eq!((p.round, p.in_round), (Some(1), 2));
    let w = s.cell_view(1).unwrap();
    assert_eq!(
        (w.status, w.invocations_ended, w.done),
        (CellStatus::Queued, 1, 3)
    );
    // Interim figures from the invocations so far, marked as such.
    assert!(w.interim);
    assert!(close(w.value, (240.0f64 * 260.0).sqrt()), "{w:?}");
    let ratio = (240.0f64 * 260.0).sqrt() / (200.0f64 * 210.0).sqrt();
    assert!(close(w.ratio, ratio), "{w:?}");
    assert_eq!(s.progress().done, 6);
    // No cell finished yet, but the ETA comes from the iterations: 2 s for 6, 6 left.
    assert_eq!(s.head.finished_cells, 0);
    assert_eq!(s.eta(), Some(ms(2000)));
    // Round 1: native's second invocation ends that cell.
    invocation(&mut s, 0, 1, [220.0, 190.0], 3000);
    let p = s.position();
    assert_eq!((p.round, p.in_round), (Some(2), 1));
    s.apply(&finished(0, None), ms(3000));
    // Each invocation weighs the same: the geometric mean of their geometric means.
    let native = (200.0f64 * 210.0 * 220.0 * 190.0).powf(0.25);
    let n = s.cell_view(0).unwrap();
    assert_eq!((n.status, n.invocations_ended), (CellStatus::Done, 2));
    assert!(close(n.value, native), "{n:?}");
    invocation(&mut s, 1, 1, [250.0, 230.0], 4000);
    s.apply(&finished(1, None), ms(4000));
    let wasmtime = (240.0f64 * 260.0 * 250.0 * 230.0).powf(0.25);
    let w = s.cell_view(1).unwrap();
    assert!(close(w.ratio, wasmtime / native) && !w.interim, "{w:?}");
    assert_eq!(s.progress().fraction, 1.0);
}

#[test]
fn a_cell_cancelled_between_invocations_is_partial_without_a_ratio() {
    let mut s = plan(&[("native", "sha256"), ("wasmtime", "sha256")], 4, 2);
    let two = Event::Measurement {
        rows: vec![
            row("native", "sha256", |r| r.value = 100.0),
            row("native", "sha256", |r| (r.iteration, r.value) = (1, 120.0)),
        ],
    };
    for e in [
        started(0, 0),
        two,
        Event::Progress { index: 0, done: 2 },
        started(1, 0),
        self_ns("wasmtime", "sha256", 0, 300.0),
        Event::RunFinished {
            status: RunStatus::Cancelled,
            failed: 0,
        },
    ] {
        s.apply(&e, ms(1));
    }
    let n = s.cell_view(0).unwrap();
    assert_eq!((n.status, n.invocations_ended), (CellStatus::Partial, 1));
    assert!(close(n.value, (100.0f64 * 120.0).sqrt()));
    assert_eq!((n.ratio, n.interim, n.failure.clone()), (None, false, None));
    let w = s.cell_view(1).unwrap();
    assert_eq!(w.status, CellStatus::Failed);
    assert_eq!(
        w.failure.as_deref(),
        Some("the run ended before this cell finished")
    );
    // How far it got: 2 of 8 iterations, not the cells it cut off counted as done.
    assert_eq!(s.progress().done, 2);
}

#[test]
fn a_cancel_does_not_jump_progress_ahead_by_the_cells_it_cut_off() {
    let mut s = planned();
    for e in [
        started(0, 0),
        Event::Progress { index: 0, done: 4 },
        finished(0, None),
        started(1, 0),
        Event::Progress { index: 1, done: 1 },
    ] {
        s.apply(&e, ms(1));
    }
    assert_eq!(s.progress().done, 5);
    s.cancelling = true;
    for i in 1..4 {
        s.apply(&finished(i, Some(Failure::Cancelled)), ms(2));
    }
    assert_eq!(s.progress().done, 5);
    s.apply(
        &Event::RunFinished {
            status: RunStatus::Cancelled,
            failed: 3,
        },
        ms(3),
    );
    assert_eq!(s.progress().done, 5);
    // A cell that failed by itself in a run that went on counts as no work left.
    let mut t = planned();
    t.apply(&started(0, 0), ms(1));
    t.apply(&finished(0, Some(Failure::ExitCode(1))), ms(2));
    assert_eq!(t.progress().done, 4);
}

#[test]
fn an_alternating_pair_keeps_both_arms_running_until_the_next_worker() {
    let mut s = plan(
        &[
            ("wasmtime", "sha256"),
            ("wasmer-cranelift", "sha256"),
            ("native", "sha256"),
        ],
        4,
        2,
    );
    let beside = Event::CellStarted {
        index: 0,
        invocation: 0,
        beside: true,
    };
    for e in [started(1, 0), beside, Event::Progress { index: 0, done: 1 }] {
        s.apply(&e, ms(1));
    }
    assert_eq!(s.cells[0].status, CellStatus::Running);
    assert_eq!(s.cells[1].status, CellStatus::Running);
    assert_eq!((s.head.current, s.head.alongside), (Some(0), Some(1)));
    // The next worker: both arms ended their invocation and wait for the next.
    s.apply(&started(2, 0), ms(2));
    for i in [0, 1] {
        assert_eq!(s.cells[i].status, CellStatus::Queued);
        assert_eq!(s.cells[i].invocations_ended, 1);
    }
    assert_eq!((s.head.current, s.head.alongside), (Some(2), None));
}

#[test]
fn the_view_carries_only_the_cells_changed_and_a_baselines_change_brings_its_test() {
    let mut s = planned();
    assert_eq!(
        s.view().cells.len(),
        4,
        "the first view after the plan has every cell"
    );
    assert!(s.view().cells.is_empty());
    s.apply(&started(1, 0), ms(1));
    assert_eq!(
        s.view().cells.iter().map(|c| c.index).collect::<Vec<_>>(),
        [1]
    );
    // A baseline value moves the ratios of its test's cells.
    s.apply(&started(0, 0), ms(2));
    s.apply(&self_ns("native", "sha256", 0, 50.0), ms(2));
    let v = s.view();
    assert_eq!(v.cells.iter().map(|c| c.index).collect::<Vec<_>>(), [0, 1]);
    assert_eq!(v.position.at, 1);
    assert_eq!(v.progress.total, 16);
}

/// Plans two cells of one test on `native`/`wasm` in a suite of `kind` and feeds each its
/// rows (warm-ups marked by iteration 0 when `warm`), then finishes both.
fn two_cells(kind: SuiteKind, baseline: &str, rows: [Vec<MeasurementRow>; 2]) -> LiveRun {
    let mut s = LiveRun::new(ms(0));
    let cells = vec![
        (rows[0][0].runtime.clone(), "hello".to_string()),
        (rows[1][0].runtime.clone(), "hello".to_string()),
    ];
    s.apply(
        &Event::Planned {
            run_id: "r".into(),
            suite: kind.as_str().into(),
            suite_kind: kind,
            baseline: baseline.into(),
            cells,
            iterations_per_cell: 3,
            invocations: 1,
        },
        ms(0),
    );
    for (index, rows) in rows.into_iter().enumerate() {
        s.apply(&started(index, 0), ms(1));
        s.apply(&Event::Measurement { rows }, ms(1));
        s.apply(&finished(index, None), ms(2));
    }
    s
}

fn http(runtime: &str, phase: Phase, metric: Metric, value: f64) -> MeasurementRow {
    row(runtime, "hello", |r| {
        (r.phase, r.metric, r.value) = (phase, metric, value)
    })
}

#[test]
fn an_http_cell_shows_its_median_latency_over_one_connection_and_its_ratio() {
    let w = Metric::WallNs;
    let s = two_cells(
        SuiteKind::Gateway,
        "native",
        [
            vec![
                http("native", Phase::ColdStart, w, 2e6),
                http("native", Phase::Latency, w, 40e3),
                http("native", Phase::Latency, Metric::P99Ns, 90e3),
                http("native", Phase::Throughput(50), w, 1e9 / 21000.0),
                http("native", Phase::Latency, w, 44e3),
            ],
            vec![http("wasmtime-pooling", Phase::Latency, w, 84e3)],
        ],
    );
    let (n, w) = (s.cell_view(0).unwrap(), s.cell_view(1).unwrap());
    assert_eq!(
        (n.value, n.source.as_deref()),
        (Some(42e3), Some("latency"))
    );
    assert_eq!(w.ratio, Some(2.0));
}

#[test]
fn a_lifecycle_cell_shows_its_median_instantiate_time_and_no_ratio() {
    let rows = |runtime: &str, values: [f64; 3]| {
        let mut rows: Vec<MeasurementRow> = (values.iter().enumerate())
            .map(|(i, v)| {
                row(runtime, "hello", |r| {
                    (r.phase, r.metric, r.value) = (Phase::Instantiate, Metric::WallNs, *v);
                    (r.iteration, r.warmup) = (i as u32, i == 0);
                })
            })
            .collect();
        // Not the primary time: left out of the figure.
        rows.push(row(runtime, "hello", |r| {
            (r.phase, r.value) = (Phase::Call, 12.0)
        }));
        rows
    };
    let s = two_cells(
        SuiteKind::Lifecycle,
        "wasmtime-pooling",
        [
            rows("wasmtime-pooling", [9e9, 1200.0, 1100.0]),
            rows("wasmer-cranelift", [9e9, 990.0, 1010.0]),
        ],
    );
    let (a, b) = (s.cell_view(0).unwrap(), s.cell_view(1).unwrap());
    assert_eq!(
        (a.value, a.source.as_deref()),
        (Some(1150.0), Some("instantiate"))
    );
    assert_eq!((b.value, b.ratio), (Some(1000.0), None));
}

#[test]
fn a_lifecycle_run_has_no_ratios() {
    let mut s = planned();
    s.head.suite_kind = SuiteKind::Lifecycle;
    run_cell(&mut s, 0, &[100.0, 100.0, 100.0], 10, None);
    run_cell(&mut s, 1, &[200.0, 200.0, 200.0], 20, None);
    let c = s.cell_view(1).unwrap();
    assert!(close(c.value, 200.0));
    assert_eq!(c.ratio, None);
}

/// A round a precision adds runs a finished cell again: it shows running, then done again
/// when the next worker starts or the run ends (never partial), with the round in its
/// figure, and its progress stays within the planned iterations.
#[test]
fn an_added_round_leaves_a_finished_cell_done() {
    let mut s = plan(&[("native", "sha256"), ("wasmtime", "sha256")], 2, 2);
    for (inv, t) in [(0u32, 10u64), (1, 20)] {
        for i in 0..2 {
            s.apply(&started(i, inv), ms(t));
            s.apply(
                &self_ns(s.cells[i].runtime.clone().as_str(), "sha256", inv, 100.0),
                ms(t),
            );
            s.apply(
                &Event::Progress {
                    index: i,
                    done: inv + 1,
                },
                ms(t),
            );
        }
    }
    for i in 0..2 {
        s.apply(&finished(i, None), ms(30));
        assert_eq!(s.cells[i].status, CellStatus::Done);
    }
    // An added round of native only: running, then done again when wasmtime's starts.
    s.apply(&started(0, 2), ms(40));
    assert_eq!(s.cells[0].status, CellStatus::Running);
    s.apply(&self_ns("native", "sha256", 2, 400.0), ms(41));
    s.apply(&Event::Progress { index: 0, done: 3 }, ms(41));
    assert_eq!(
        s.cells[0].done, 2,
        "progress stays within the planned iterations"
    );
    s.apply(&started(1, 2), ms(50));
    assert_eq!(s.cells[0].status, CellStatus::Done);
    let (v, _) = s.cells[0].figure.unwrap();
    assert!(v > 100.0, "the added round is in the figure: {v}");
    // The run ends during wasmtime's added round: done, not failed or partial.
    s.apply(
        &Event::RunFinished {
            status: RunStatus::Complete,
            failed: 0,
        },
        ms(60),
    );
    assert_eq!(s.cells[1].status, CellStatus::Done);
    assert_eq!(s.head.finished_cells, 2);
}
