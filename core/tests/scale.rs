//! Scale: a run of 10,000 cells through the real runner (each cell a real worker process,
//! a stand-in that reports one measurement) keeps the runner's memory bounded, and the
//! saved run loads and summarises. Issue 10.

use std::os::unix::fs::PermissionsExt;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use wasmeter_core::analysis::summarize;
use wasmeter_core::runner::{Event, Plan, WorkerCommand, execute};
use wasmeter_core::runtime::{RuntimeInfo, RuntimeKind};
use wasmeter_core::store::{RunSettings, RunStatus, load_run};
use wasmeter_core::suite::{Size, Suite, TestCase};

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
    // The stand-in worker: reads its cell spec, reports one iteration, done.
    let worker = tmp.path().join("worker.sh");
    std::fs::write(
        &worker,
        "#!/bin/sh\ncat >/dev/null\n\
         echo '{\"type\":\"started\",\"iteration\":0}'\n\
         echo '{\"type\":\"iteration\",\"iteration\":0,\"warmup\":false,\"values\":[{\"phase\":\"execute\",\"metric\":\"self_ns\",\"value\":1000}]}'\n\
         echo '{\"type\":\"done\"}'\n",
    )
    .unwrap();
    std::fs::set_permissions(&worker, std::fs::Permissions::from_mode(0o755)).unwrap();
    let runtimes: Vec<RuntimeInfo> = (0..RUNTIMES)
        .map(|i| RuntimeInfo {
            id: if i == 0 {
                "native".into()
            } else {
                format!("rt{i:03}")
            },
            kind: RuntimeKind::Embedded,
            version: "0".into(),
            config: "stand-in".into(),
            unavailable: None,
            hint: None,
            command: None,
        })
        .collect();
    // Prebuilt tests need no answer file or build: the stand-in never opens them.
    let tests: Vec<TestCase> = (0..TESTS)
        .map(|i| TestCase {
            name: format!("t{i:03}"),
            wasm: tmp.path().join("none.wasm"),
            native: Some(tmp.path().join("none")),
            ..Default::default()
        })
        .collect();
    let plan = Plan {
        suite: Suite {
            name: "scale".into(),
            dir: tmp.path().to_path_buf(),
            tests: tests.clone(),
            ..Default::default()
        },
        tests,
        runtimes,
        settings: RunSettings {
            warmup: 0,
            runs: 1,
            timeout_secs: 10,
            memory_cap_bytes: 1 << 30,
            sample_interval_ms: 100,
            size: Size::Quick,
            baseline: "native".into(),
            http: None,
        },
        label: None,
        skipped: Vec::new(),
        not_applicable: Vec::new(),
    };
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
    let outcome = execute(
        &plan,
        &results,
        &WorkerCommand {
            program: worker,
            args: Vec::new(),
        },
        &tx,
        &AtomicBool::new(false),
    )
    .unwrap();
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
    eprintln!(
        "10,000 cells: run {:.1} s, peak RSS growth {growth_mib} MiB, load + summarise {:.0} ms",
        took.as_secs_f64(),
        load.as_secs_f64() * 1e3
    );
}
