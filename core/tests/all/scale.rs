//! Scale: a run of 10,000 cells through the real runner (each cell a real worker process,
//! a stand-in that reports one measurement) keeps the runner's memory bounded, and the
//! saved run loads and summarises. Issue 10.

use std::sync::atomic::AtomicBool;
use std::time::Instant;
use wasmeter_core::analysis::{DiffOptions, Verdict, compare_runtimes, summarize};
use wasmeter_core::runner::{Event, execute, stand_in_run};
use wasmeter_core::store::{RunStatus, load_run};

/// Peak resident memory of this process so far, KiB.
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

#[test]
fn ten_thousand_cells_run_with_bounded_memory_and_load_back() {
    const RUNTIMES: usize = 100;
    const TESTS: usize = 100;
    let tmp = tempfile::tempdir().unwrap();
    let (plan, worker) = stand_in_run(tmp.path(), RUNTIMES, TESTS).unwrap();
    let results = tmp.path().join("results");
    let (tx, rx) = crossbeam_channel::unbounded();
    // A UI drains events as they come; count what it would draw.
    let drain = std::thread::spawn(move || {
        rx.iter()
            .filter(|e| matches!(e, Event::CellFinished { .. }))
            .count()
    });
    let before = peak_rss_kib();
    let started = Instant::now();
    let outcome = execute(&plan, &results, &worker, &tx, &AtomicBool::new(false)).unwrap();
    let took = started.elapsed();
    drop(tx);
    let growth_mib = (peak_rss_kib() - before) / 1024;
    assert_eq!(outcome.status, RunStatus::Complete);
    assert_eq!((outcome.cells, outcome.failed), (RUNTIMES * TESTS, 0));
    assert_eq!(drain.join().unwrap(), RUNTIMES * TESTS);
    // Rows go to disk as they come: the runner holds per-cell state only.
    assert!(
        growth_mib < 64,
        "peak RSS grew {growth_mib} MiB over the run"
    );

    let t = Instant::now();
    let run = load_run(&outcome.dir).unwrap();
    let summary = summarize(&run, None);
    let load = t.elapsed();
    assert_eq!(summary.cells.len(), RUNTIMES * TESTS);
    assert!(summary.cells.iter().all(|c| c.relative == Some(1.0)));
    // A cell is found by its position; a summary ordered otherwise is searched.
    let c = summary.cell("rt042", "t017").unwrap();
    assert_eq!((c.runtime.as_str(), c.test.as_str()), ("rt042", "t017"));
    let mut reordered = summary.clone();
    reordered.cells.reverse();
    assert_eq!(reordered.cell("rt042", "t017"), Some(c));
    assert_eq!(reordered.cell("rt042", "t100"), None);

    // Two runtimes compared test by test: a lookup per cell, not a scan of the run's cells.
    let t = Instant::now();
    let d = compare_runtimes(&run, "native", "rt001", &DiffOptions::default()).unwrap();
    let diff = t.elapsed();
    assert_eq!(d.rows.len(), TESTS);
    assert!(
        d.rows
            .iter()
            .all(|r| r.verdict == Verdict::InsufficientData && r.ratio == Some(1.0))
    );
    eprintln!(
        "10,000 cells: run {:.1} s, peak RSS growth {growth_mib} MiB, load + summarise {:.0} ms, \
         compare two runtimes {:.1} ms",
        took.as_secs_f64(),
        load.as_secs_f64() * 1e3,
        diff.as_secs_f64() * 1e3
    );
}
