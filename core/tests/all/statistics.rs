//! The statistics are honest: with the mock runtime's known distributions, an A/A diff
//! rarely cries wolf and a planted 5 % slowdown at 2 % noise is found.

use wasmeter_core::analysis::{DiffOptions, Rng, Verdict, diff_runs, seed_for, summarize};
use wasmeter_core::config::Config;
use wasmeter_core::machine::Machine;
use wasmeter_core::runtime::{Job, MockRuntime, Runtime, known_runtimes};
use wasmeter_core::store::*;
use wasmeter_core::suite::{Size, parse_output};

const TESTS: usize = 20;
const INVOCATIONS: u32 = 3;
const RUNS: u32 = 3;

/// A saved run whose measurements come from the mock runtime, as the worker would record
/// them (the self-timed value parsed from the guest's output), in `INVOCATIONS` worker
/// processes whose levels differ by `between` (coefficient of variation): the noise between
/// processes that a real shared machine has.
fn mock_run(id: &str, mock: &MockRuntime, between: f64) -> SavedRun {
    let tests: Vec<String> = (0..TESTS).map(|i| format!("t{i:02}")).collect();
    let mut measurements = Vec::new();
    let mut level = Rng::new(seed_for(&[id, &mock.median_ns.to_string()]) ^ mock.cv.to_bits());
    let mut cells = Vec::new();
    for t in &tests {
        let job = Job {
            program: "/dev/null".into(),
            name: t.clone(),
            args: vec![],
            env: vec![],
            scratch: "/tmp".into(),
            memory_limit: 0,
            stdout_limit: 1 << 10,
            stdin: None,
            dirs: Vec::new(),
            invoke: None,
        };
        for inv in 0..INVOCATIONS {
            let factor = 1.0 + between * level.normal();
            for i in 0..RUNS {
                let it = mock.run(&job).unwrap();
                let out = parse_output(&String::from_utf8_lossy(&it.stdout)).unwrap();
                measurements.push(MeasurementRow {
                    runtime: "mock".into(),
                    test: t.clone(),
                    phase: wasmeter_core::runtime::Phase::Execute,
                    invocation: inv,
                    iteration: i,
                    warmup: false,
                    metric: wasmeter_core::runtime::Metric::SelfNs,
                    value: out.self_time_ns.unwrap() * factor,
                });
            }
            cells.push(CellRecord {
                runtime: "mock".into(),
                test: t.clone(),
                invocation: inv,
                failure: None,
                wall_ms: 1.0,
                other_cores: None,
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
                    module_bytes: None,
                    native_bytes: None,
                })
                .collect(),
            not_applicable: Vec::new(),
            runtimes: vec![runtime],
            settings: RunSettings {
                warmup: 0,
                runs: RUNS,
                invocations: INVOCATIONS,
                order: Default::default(),
                seed: 0,
                measure: Default::default(),
                timeout_secs: 1,
                memory_cap_bytes: 1,
                sample_interval_ms: 100,
                size: Size::Quick,
                baseline: "mock".into(),
                http: None,
                plan_hash: None,
            },
            machine: Machine::detect(),
            wasmeter_version: "test".into(),
            started_unix: 0.0,
            finished_unix: Some(1.0),
            status: RunStatus::Complete,
            pid: 0,
            files: Default::default(),
        },
        cells,
        measurements,
        samples: Vec::new(),
    }
}

fn diff(a: &SavedRun, b: &SavedRun) -> wasmeter_core::analysis::Diff {
    diff_runs(a, b, &DiffOptions::default()).unwrap()
}

#[test]
fn a_a_comparisons_mark_at_most_5_percent_of_rows_changed() {
    // Processes differ by 3 %, iterations inside one by 1 %: intervals of the iterations
    // alone would cry wolf on many rows; the hierarchical ones, corrected over the rows,
    // must not.
    let (mut rows, mut changed) = (0, 0);
    for trial in 0..50u64 {
        let a = mock_run(
            &format!("a{trial}"),
            &MockRuntime::new(1e6, 0.01, trial * 2),
            0.03,
        );
        let b = mock_run(
            &format!("b{trial}"),
            &MockRuntime::new(1e6, 0.01, trial * 2 + 1),
            0.03,
        );
        let d = diff(&a, &b);
        assert!(d.warnings.is_empty(), "{:?}", d.warnings);
        rows += d.rows.len();
        changed += d.rows.iter().filter(|r| r.verdict.is_change()).count();
        assert!(d.rows.iter().all(|r| r.p_adjusted.is_some()));
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
fn a_planted_10_percent_slowdown_is_found() {
    let (mut rows, mut found, mut wrong) = (0, 0, 0);
    for trial in 0..50u64 {
        let a = mock_run(
            &format!("a{trial}"),
            &MockRuntime::new(1e6, 0.01, 1000 + trial * 2),
            0.01,
        );
        let b = mock_run(
            &format!("b{trial}"),
            &MockRuntime::new(1e6, 0.01, 1001 + trial * 2).with_slowdown(1.10),
            0.01,
        );
        let d = diff(&a, &b);
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
            let (lo, hi) = (r.ci_low.unwrap(), r.ci_high.unwrap());
            assert!(lo <= r.ratio.unwrap() && r.ratio.unwrap() <= hi, "{r:?}");
            // Slower means the whole interval lies beyond the threshold.
            if r.verdict == Verdict::Slower {
                assert!(lo > 1.02, "{r:?}");
            }
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
fn too_little_data_gives_no_verdict() {
    // One invocation: the noise between processes is not in the data.
    let mut a = mock_run("a", &MockRuntime::new(1e6, 0.01, 1), 0.0);
    let mut b = mock_run("b", &MockRuntime::new(1e6, 0.01, 2).with_slowdown(2.0), 0.0);
    for run in [&mut a, &mut b] {
        run.measurements.retain(|m| m.invocation == 0);
        run.cells.retain(|c| c.invocation == 0);
        run.meta.settings.invocations = 1;
    }
    let d = diff(&a, &b);
    assert!(
        d.rows
            .iter()
            .all(|r| r.verdict == Verdict::InsufficientData),
        "{:?}",
        d.rows[0]
    );
    assert!(
        d.rows[0].note.as_deref().unwrap().contains("invocation"),
        "{:?}",
        d.rows[0].note
    );
    // Two values a side: too few, whatever the invocations.
    let mut c = mock_run("c", &MockRuntime::new(1e6, 0.01, 3), 0.0);
    c.measurements
        .retain(|m| m.iteration == 0 && m.invocation < 2);
    let d = diff(&c, &mock_run("d", &MockRuntime::new(1e6, 0.01, 4), 0.0));
    assert!(
        d.rows
            .iter()
            .all(|r| r.verdict == Verdict::InsufficientData)
    );
    assert!(
        d.rows[0].note.as_deref().unwrap().contains("value"),
        "{:?}",
        d.rows[0].note
    );
    // A partial cell (an interrupted run that ended 2 of 3 invocations): no verdict either,
    // even with a change far beyond the noise.
    let mut p = mock_run("p", &MockRuntime::new(1e6, 0.01, 5).with_slowdown(3.0), 0.0);
    p.meta.status = RunStatus::Interrupted;
    p.cells.retain(|c| c.invocation < 2);
    let d = diff(&mock_run("q", &MockRuntime::new(1e6, 0.01, 6), 0.0), &p);
    assert!(
        d.rows
            .iter()
            .all(|r| r.verdict == Verdict::InsufficientData)
    );
    assert!(
        d.rows[0].note.as_deref().unwrap().contains("partial"),
        "{:?}",
        d.rows[0].note
    );
    let s = summarize(&p, None);
    assert!(s.cells.iter().all(|c| c.partial && c.relative.is_none()));
    assert!(s.per_runtime[0].geomean_relative.is_none());
}

#[test]
fn thresholds_must_be_percentages() {
    let a = mock_run("a", &MockRuntime::new(1e6, 0.01, 1), 0.0);
    let b = mock_run("b", &MockRuntime::new(1e6, 0.01, 2), 0.0);
    for bad in [f64::NAN, f64::INFINITY, -1.0, 100.5] {
        let opts = DiffOptions {
            threshold_pct: bad,
            normalize: None,
        };
        let e = diff_runs(&a, &b, &opts).unwrap_err().to_string();
        assert!(e.contains("--threshold"), "{e}");
    }
}

#[test]
fn relative_intervals_contain_the_truth() {
    // Same mock as its own baseline: relative is exactly 1 with a degenerate interval, and
    // the summary's interval of the median covers the known median most of the time.
    let run = mock_run("a", &MockRuntime::new(1e6, 0.02, 77), 0.0);
    let s = summarize(&run, None);
    let mock = MockRuntime::new(1e6, 0.0, 0);
    let mut covered = 0;
    for c in &s.cells {
        assert_eq!(c.relative, Some(1.0));
        let st = c.stats.unwrap();
        let truth = mock.draw(&c.test);
        covered += usize::from(st.ci_low.unwrap() <= truth && truth <= st.ci_high.unwrap());
        assert_eq!(st.n, (RUNS * INVOCATIONS) as usize);
        assert_eq!(c.invocations, INVOCATIONS);
        assert!(c.halfwidth_pct.unwrap() > 0.0 && c.halfwidth_pct.unwrap() < 5.0);
    }
    assert!(
        covered >= TESTS * 8 / 10,
        "interval covered the true median in {covered} of {TESTS} tests"
    );
}

#[test]
fn a_run_on_a_busy_machine_gets_no_verdicts_and_says_why() {
    let a = mock_run("a", &MockRuntime::new(1e6, 0.01, 7), 0.01);
    let mut b = mock_run(
        "b",
        &MockRuntime::new(1e6, 0.01, 8).with_slowdown(1.10),
        0.01,
    );
    let cores = b.meta.machine.cores as f64;
    let load = |b: &mut SavedRun, share: f64| {
        for c in &mut b.cells {
            c.other_cores = Some(share * cores);
        }
    };
    // Quiet enough: the planted change is found.
    load(&mut b, 0.2);
    let d = diff(&a, &b);
    assert!(d.rows.iter().any(|r| r.verdict == Verdict::Slower));
    assert!(d.warnings.is_empty(), "{:?}", d.warnings);
    // Busy: every row keeps its ratio and interval but claims nothing, and the diff says
    // which run was busy and how busy.
    load(&mut b, 0.8);
    let d = diff(&a, &b);
    assert!(
        d.rows.iter().all(|r| r.verdict == Verdict::NotComparable
            && r.ci_low.is_some()
            && r.note.as_deref() == Some("not comparable: the machine was busy (see warnings)")),
        "{:?}",
        d.rows
    );
    let want = format!(
        "other processes took {:.2} of {} cores during run b",
        0.8 * cores,
        b.meta.machine.cores
    );
    assert!(
        d.warnings.iter().any(|w| w.starts_with(&want)),
        "{:?}",
        d.warnings
    );
    assert!(
        summarize(&b, None).load.is_some_and(|l| l.busy),
        "the summary carries the load"
    );
    // A run saved before loads were recorded is taken as it is.
    for c in &mut b.cells {
        c.other_cores = None;
    }
    assert!(summarize(&b, None).load.is_none());
    assert!(
        diff(&a, &b)
            .rows
            .iter()
            .any(|r| r.verdict == Verdict::Slower)
    );
}
