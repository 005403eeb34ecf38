//! The statistics are honest: with the mock runtime's known distributions, an A/A diff
//! rarely cries wolf and a planted 5 % slowdown at 2 % noise is found.

use wasmeter_core::analysis::{Verdict, diff_runs, summarize};
use wasmeter_core::config::Config;
use wasmeter_core::machine::Machine;
use wasmeter_core::runtime::{Job, MockRuntime, Runtime, known_runtimes};
use wasmeter_core::store::*;
use wasmeter_core::suite::{Size, parse_output};

const TESTS: usize = 20;
const RUNS: u32 = 10;

/// A saved run whose measurements come from the mock runtime, as the worker would record
/// them (the self-timed value parsed from the guest's output).
fn mock_run(id: &str, mock: &MockRuntime) -> SavedRun {
    let tests: Vec<String> = (0..TESTS).map(|i| format!("t{i:02}")).collect();
    let mut measurements = Vec::new();
    for t in &tests {
        let job = Job {
            program: "/dev/null".into(),
            name: t.clone(),
            args: vec![],
            env: vec![],
            scratch: "/tmp".into(),
            memory_limit: 0,
            stdout_limit: 1 << 10,
        };
        for i in 0..RUNS {
            let it = mock.run(&job).unwrap();
            let out = parse_output(&String::from_utf8_lossy(&it.stdout)).unwrap();
            measurements.push(MeasurementRow {
                runtime: "mock".into(),
                test: t.clone(),
                phase: wasmeter_core::runtime::Phase::Execute,
                iteration: i,
                warmup: false,
                metric: wasmeter_core::runtime::Metric::SelfNs,
                value: out.self_time_ns.unwrap(),
            });
        }
    }
    let mut runtime = known_runtimes(&Config::default()).remove(1);
    runtime.id = "mock".into();
    SavedRun {
        dir: "/nonexistent".into(),
        meta: RunMeta {
            schema_version: SCHEMA_VERSION,
            id: id.into(),
            label: None,
            suite: "mock".into(),
            suite_kind: Default::default(),
            tests: tests
                .iter()
                .map(|t| TestRecord {
                    name: t.clone(),
                    source_hash: "x".into(),
                })
                .collect(),
            not_applicable: Vec::new(),
            runtimes: vec![runtime],
            settings: RunSettings {
                warmup: 0,
                runs: RUNS,
                timeout_secs: 1,
                memory_cap_bytes: 1,
                sample_interval_ms: 100,
                size: Size::Quick,
                baseline: "mock".into(),
                http: None,
            },
            machine: Machine::detect(),
            wasmeter_version: "test".into(),
            started_unix: 0.0,
            finished_unix: Some(1.0),
            status: RunStatus::Complete,
            pid: 0,
            files: Default::default(),
        },
        cells: Vec::new(),
        measurements,
        samples: Vec::new(),
    }
}

#[test]
fn a_a_comparisons_mark_at_most_5_percent_of_rows_changed() {
    let (mut rows, mut changed) = (0, 0);
    for trial in 0..50u64 {
        let a = mock_run("a", &MockRuntime::new(1e6, 0.02, trial * 2));
        let b = mock_run("b", &MockRuntime::new(1e6, 0.02, trial * 2 + 1));
        let d = diff_runs(&a, &b, 2.0).unwrap();
        assert!(d.warnings.is_empty(), "{:?}", d.warnings);
        rows += d.rows.len();
        changed += d
            .rows
            .iter()
            .filter(|r| r.verdict != Verdict::NoChange)
            .count();
    }
    let rate = changed as f64 / rows as f64;
    assert_eq!(rows, 50 * TESTS);
    assert!(
        rate <= 0.05,
        "A/A marked {changed} of {rows} rows changed ({:.1} %)",
        rate * 100.0
    );
}

#[test]
fn a_planted_5_percent_slowdown_at_2_percent_noise_is_found() {
    let (mut rows, mut found, mut wrong) = (0, 0, 0);
    for trial in 0..50u64 {
        let a = mock_run("a", &MockRuntime::new(1e6, 0.02, 1000 + trial * 2));
        let b = mock_run(
            "b",
            &MockRuntime::new(1e6, 0.02, 1001 + trial * 2).with_slowdown(1.05),
        );
        let d = diff_runs(&a, &b, 2.0).unwrap();
        rows += d.rows.len();
        found += d
            .rows
            .iter()
            .filter(|r| r.verdict == Verdict::Slower)
            .count();
        wrong += d
            .rows
            .iter()
            .filter(|r| r.verdict == Verdict::Faster)
            .count();
        for r in &d.rows {
            assert!(r.ci_low <= r.ci_high);
        }
    }
    let rate = found as f64 / rows as f64;
    assert!(
        rate >= 0.90,
        "detected {found} of {rows} ({:.1} %)",
        rate * 100.0
    );
    assert_eq!(wrong, 0);
}

#[test]
fn relative_intervals_contain_the_truth() {
    // Same mock as its own baseline: relative is exactly 1 with a degenerate interval, and
    // the summary's interval of the median covers the known median most of the time.
    let run = mock_run("a", &MockRuntime::new(1e6, 0.02, 77));
    let s = summarize(&run, None);
    let mock = MockRuntime::new(1e6, 0.0, 0);
    let mut covered = 0;
    for c in &s.cells {
        assert_eq!(c.relative, Some(1.0));
        let st = c.stats.unwrap();
        let truth = mock.draw(&c.test);
        covered += usize::from(st.ci_low.unwrap() <= truth && truth <= st.ci_high.unwrap());
        assert_eq!(st.n, RUNS as usize);
    }
    assert!(
        covered >= TESTS * 8 / 10,
        "interval covered the true median in {covered} of {TESTS} tests"
    );
}
