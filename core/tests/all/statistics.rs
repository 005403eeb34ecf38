//! The statistics are honest: with the mock runtime's known distributions, an A/A diff
//! rarely cries wolf and a planted 5 % slowdown at 2 % noise is found.

use wasmeter_core::analysis::{
    Diff, DiffOptions, FailOn, Gate, GateRule, Groups, Rng, Verdict, compare_runtimes,
    compare_tests, diff_runs, gate, ratio_estimate, seed_for, summarize,
};
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
                notes: Vec::new(),
                host: None,
                started_ms: None,
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
            tests: records(&tests),
            not_applicable: Vec::new(),
            runtimes: vec![runtime],
            settings: RunSettings {
                timeout_secs: 1,
                memory_cap_bytes: 1,
                baseline: "mock".into(),
                ..RunSettings::new(RUNS, INVOCATIONS)
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

/// Test records of the same source.
fn records(tests: &[String]) -> Vec<TestRecord> {
    tests
        .iter()
        .map(|t| TestRecord {
            name: t.clone(),
            source_hash: "x".into(),
            module_bytes: None,
            native_bytes: None,
            as_given: None,
        })
        .collect()
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
            ..DiffOptions::default()
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
fn a_run_without_its_baseline_is_relative_to_its_first_runtime() {
    // Issue 61: a suite run without native kept "native" as its baseline, so every front
    // end said "relative to native" over cells with no ratio at all.
    let mut run = mock_run("a", &MockRuntime::new(1e6, 0.02, 77), 0.0);
    run.meta.settings.baseline = "native".into();
    let s = summarize(&run, None);
    assert_eq!(s.baseline, "mock");
    assert!(
        s.cells.iter().all(|c| c.relative == Some(1.0)),
        "{:?}",
        s.cells[0]
    );
    // A baseline asked for by name is kept, even one the run lacks.
    assert_eq!(summarize(&run, Some("native")).baseline, "native");
    // The run's own baseline wins when the run has it.
    run.meta.settings.baseline = "mock".into();
    assert_eq!(wasmeter_core::analysis::default_baseline(&run), "mock");
}

/// Run "a" and run "b", whose every test is `slowdown` times slower, at 1 % noise.
fn a_and_slower_b(slowdown: f64) -> (SavedRun, SavedRun) {
    let a = mock_run("a", &MockRuntime::new(1e6, 0.01, 7), 0.01);
    let b = mock_run(
        "b",
        &MockRuntime::new(1e6, 0.01, 8).with_slowdown(slowdown),
        0.01,
    );
    (a, b)
}

#[test]
fn busy_invocations_are_left_out_of_verdicts_unless_allowed() {
    let (a, mut b) = a_and_slower_b(1.10);
    let m = &b.meta.machine;
    let cpus = m.cpus_allowed.unwrap_or(m.cores) as f64;
    let load = |b: &mut SavedRun, share: f64, which: &dyn Fn(u32) -> bool| {
        for c in &mut b.cells {
            c.other_cores = Some(if which(c.invocation) {
                share * cpus
            } else {
                0.0
            });
        }
    };
    // Quiet enough: the planted change is found.
    load(&mut b, 0.2, &|_| true);
    let d = diff(&a, &b);
    assert!(d.rows.iter().any(|r| r.verdict == Verdict::Slower));
    assert!(d.warnings.is_empty(), "{:?}", d.warnings);
    assert_eq!(d.busy_left_out, 0);
    // Busy throughout: every invocation of B is left out, so no row can claim anything,
    // and the diff says how many were left out of which run.
    load(&mut b, 0.8, &|_| true);
    let d = diff(&a, &b);
    assert_eq!(d.rows.len(), TESTS);
    assert!(
        d.rows.iter().all(|r| r.verdict == Verdict::NotComparable
            && r.ci_low.is_some()
            && r.p_adjusted.is_none()
            && r.note.as_deref()
                == Some("not comparable: every invocation in B was measured on a busy machine (see warnings)")),
        "{:?}",
        d.rows[0]
    );
    assert_eq!(d.family(), 0);
    assert_eq!(d.busy_left_out, TESTS * INVOCATIONS as usize);
    let want = format!("{} of {} in run b", TESTS * 3, TESTS * 3);
    assert!(
        d.warnings
            .iter()
            .any(|w| w.starts_with("left out of the verdicts") && w.contains(&want)),
        "{:?}",
        d.warnings
    );
    // --allow-busy: verdicts anyway, and a warning saying so in every output.
    let allow = DiffOptions {
        allow_busy: true,
        ..DiffOptions::default()
    };
    let d = diff_runs(&a, &b, &allow).unwrap();
    assert!(d.rows.iter().any(|r| r.verdict == Verdict::Slower));
    assert!(
        d.warnings.iter().any(|w| w.starts_with("--allow-busy")),
        "{:?}",
        d.warnings
    );
    assert!(
        summarize(&b, None).load.is_some_and(|l| l.busy),
        "the summary carries the load"
    );
    // One busy round of three: only its invocations go; the other two still decide.
    load(&mut b, 0.8, &|inv| inv == 1);
    let d = diff(&a, &b);
    assert_eq!(d.busy_left_out, TESTS);
    assert!(
        d.rows.iter().all(|r| r.invocations == (3, 2)),
        "{:?}",
        d.rows[0]
    );
    assert!(d.rows.iter().any(|r| r.verdict == Verdict::Slower));
    // A run saved before loads were recorded is taken as it is.
    for c in &mut b.cells {
        c.other_cores = None;
    }
    assert!(summarize(&b, None).load.is_none());
    let d = diff(&a, &b);
    assert!(d.rows.iter().any(|r| r.verdict == Verdict::Slower));
    assert!(d.warnings.is_empty(), "{:?}", d.warnings);
}

#[test]
fn a_cpu_quota_narrows_the_capacity_and_an_unreadable_load_withholds_verdicts() {
    let (a, mut b) = a_and_slower_b(1.10);
    let cpus = b.meta.machine.cpus_allowed.unwrap_or(b.meta.machine.cores) as f64;
    // Other processes took a tenth of the CPUs: quiet on the whole machine...
    for c in &mut b.cells {
        c.other_cores = Some(0.1 * cpus);
    }
    assert_eq!(diff(&a, &b).busy_left_out, 0);
    // ...but busy for a run that a quota held to a fifth of them.
    b.meta.machine.cpu_quota = Some(0.2 * cpus);
    assert!((b.meta.machine.capacity() - 0.2 * cpus).abs() < 1e-9);
    let d = diff(&a, &b);
    assert_eq!(d.busy_left_out, TESTS * INVOCATIONS as usize);
    assert!(summarize(&b, None).load.is_some_and(|l| l.busy));
    // A quota above the CPUs changes nothing.
    b.meta.machine.cpu_quota = Some(4.0 * cpus);
    assert_eq!(diff(&a, &b).busy_left_out, 0);
    b.meta.machine.cpu_quota = None;

    // The load could not be read: nothing shows an invocation quiet, so every one is
    // left out, with a warning that says why; --allow-busy gives verdicts and says so.
    for c in &mut b.cells {
        c.other_cores = None;
    }
    b.meta.machine.load_unreadable = Some("/proc/stat cannot be read (denied)".into());
    let d = diff(&a, &b);
    assert!(
        d.rows.iter().all(|r| r.verdict == Verdict::NotComparable),
        "{:?}",
        d.rows[0]
    );
    assert!(
        d.warnings
            .iter()
            .any(|w| w.starts_with("verdicts withheld from run b")
                && w.contains("/proc/stat cannot be read")),
        "{:?}",
        d.warnings
    );
    let allow = DiffOptions {
        allow_busy: true,
        ..DiffOptions::default()
    };
    let d = diff_runs(&a, &b, &allow).unwrap();
    assert!(d.rows.iter().any(|r| r.verdict == Verdict::Slower));
    assert!(
        d.warnings
            .iter()
            .any(|w| w.starts_with("--allow-busy: verdicts include run b")),
        "{:?}",
        d.warnings
    );
}

/// A run of `runtimes` × `tests` whose `k` rounds each have a factor shared by every cell
/// of that round (the machine drifting: sd `drift`), each invocation its own small factor
/// (sd `process`), and `value(runtime, test)` as the cell's true time.
fn rounds_run(
    id: &str,
    runtimes: &[&str],
    tests: &[String],
    k: u32,
    (drift, process): (f64, f64),
    seed: u64,
    value: &dyn Fn(&str, &str) -> f64,
) -> SavedRun {
    let mut run = mock_run(id, &MockRuntime::new(1e6, 0.0, 0), 0.0);
    let template = run.meta.runtimes[0].clone();
    run.meta.runtimes = runtimes
        .iter()
        .map(|r| {
            let mut info = template.clone();
            info.id = r.to_string();
            info
        })
        .collect();
    run.meta.tests = records(tests);
    run.meta.settings.invocations = k;
    run.meta.settings.runs = 1;
    let mut rng = Rng::new(seed);
    let (mut measurements, mut cells) = (Vec::new(), Vec::new());
    for inv in 0..k {
        let round = (drift * rng.normal()).exp();
        for rt in runtimes {
            for t in tests {
                measurements.push(MeasurementRow {
                    runtime: rt.to_string(),
                    test: t.clone(),
                    phase: wasmeter_core::runtime::Phase::Execute,
                    invocation: inv,
                    iteration: 0,
                    warmup: false,
                    metric: wasmeter_core::runtime::Metric::SelfNs,
                    value: value(rt, t) * round * (process * rng.normal()).exp(),
                });
                cells.push(CellRecord {
                    runtime: rt.to_string(),
                    test: t.clone(),
                    invocation: inv,
                    failure: None,
                    wall_ms: 1.0,
                    other_cores: Some(0.0),
                    notes: Vec::new(),
                    host: None,
                    started_ms: None,
                });
            }
        }
    }
    run.measurements = measurements;
    run.cells = cells;
    run
}

#[test]
fn pairing_by_round_cancels_drift_that_welch_cannot() {
    // Rounds drift by 10 % (sd), processes differ by 1 %: two runtimes of one run, B 5 %
    // slower on every test. Paired by round, the drift cancels and the 5 % is found on
    // nearly every row; the same data as two independent samples (Welch) find almost
    // nothing.
    let tests: Vec<String> = (0..TESTS).map(|i| format!("t{i:02}")).collect();
    let (mut paired_found, mut welch_found, mut rows) = (0, 0, 0);
    for trial in 0..10 {
        let run = rounds_run(
            &format!("r{trial}"),
            &["x", "y"],
            &tests,
            8,
            (0.10, 0.01),
            100 + trial,
            &|rt, _| if rt == "y" { 1.05e6 } else { 1e6 },
        );
        let opts = DiffOptions::default();
        let d = compare_runtimes(&run, "x", "y", &opts).unwrap();
        assert!(d.paired && d.method().contains("paired"), "{}", d.method());
        rows += d.rows.len();
        paired_found += d
            .rows
            .iter()
            .filter(|r| r.verdict == Verdict::Slower)
            .count();
        assert!(d.rows.iter().all(|r| r.pairs == Some(8)), "{:?}", d.rows[0]);
        assert!(d.rows.iter().all(|r| r.verdict != Verdict::Faster));
        // The same cells as independent samples.
        for r in &run.meta.tests {
            let g = |rt: &str| -> Vec<f64> {
                run.measurements
                    .iter()
                    .filter(|m| m.runtime == rt && m.test == r.name)
                    .map(|m| m.value)
                    .collect()
            };
            let (ya, yb) = (g("x"), g("y"));
            let e = ratio_estimate(&Groups::flat(&ya), &Groups::flat(&yb), None).unwrap();
            welch_found += usize::from(e.low > 1.02);
        }
    }
    assert!(
        paired_found as f64 >= 0.9 * rows as f64,
        "paired found {paired_found} of {rows}"
    );
    assert!(
        (welch_found as f64) < 0.2 * rows as f64,
        "Welch found {welch_found} of {rows}: the drift was not large enough to matter"
    );
}

#[test]
fn paired_same_code_rarely_cries_wolf() {
    let tests: Vec<String> = (0..TESTS).map(|i| format!("t{i:02}")).collect();
    let (mut rows, mut changed) = (0, 0);
    for trial in 0..30 {
        let run = rounds_run(
            &format!("s{trial}"),
            &["x"],
            &["old".to_string(), "new".to_string()],
            6,
            (0.10, 0.02),
            500 + trial,
            &|_, _| 1e6,
        );
        let d = compare_tests(&run, "old", "new", &DiffOptions::default()).unwrap();
        assert_eq!(d.rows.len(), 1);
        assert_eq!(d.rows[0].test, "old → new");
        assert_eq!(d.rows[0].runtime, "x");
        rows += d.rows.len();
        changed += d.rows.iter().filter(|r| r.verdict.is_change()).count();
        let many = rounds_run(
            &format!("m{trial}"),
            &["x", "y"],
            &tests,
            6,
            (0.10, 0.02),
            900 + trial,
            &|_, _| 1e6,
        );
        let d = compare_runtimes(&many, "x", "y", &DiffOptions::default()).unwrap();
        rows += d.rows.len();
        changed += d.rows.iter().filter(|r| r.verdict.is_change()).count();
    }
    assert!(
        changed as f64 <= 0.01 * rows as f64,
        "same code: {changed} of {rows} rows flagged"
    );
}

#[test]
fn in_run_comparisons_refuse_bad_arms() {
    let tests = vec!["a".to_string(), "b".to_string()];
    let run = rounds_run("r", &["x", "y"], &tests, 3, (0.0, 0.01), 1, &|_, _| 1e6);
    let opts = DiffOptions::default();
    let e = compare_tests(&run, "a", "a", &opts)
        .unwrap_err()
        .to_string();
    assert_eq!(e, "the two arms of a comparison must differ, got 'a' twice");
    let e = compare_tests(&run, "a", "zzz", &opts)
        .unwrap_err()
        .to_string();
    assert_eq!(e, "test 'zzz' is not in run r (it has: a, b)");
    let e = compare_runtimes(&run, "x", "x", &opts)
        .unwrap_err()
        .to_string();
    assert!(e.contains("must differ"), "{e}");
    // A round that only one arm ran (a failed invocation) is left out of the pairs.
    let mut gap = run.clone();
    gap.measurements
        .retain(|m| !(m.runtime == "y" && m.invocation == 0));
    gap.cells
        .retain(|c| !(c.runtime == "y" && c.invocation == 0));
    gap.meta.settings.invocations = 3;
    let d = compare_runtimes(&gap, "x", "y", &opts).unwrap();
    assert!(
        d.rows
            .iter()
            .all(|r| r.verdict == Verdict::InsufficientData),
        "{:?}",
        d.rows
    );
}

#[test]
fn guards_withhold_verdicts_on_different_work_or_a_failed_reference() {
    let (a, mut b) = a_and_slower_b(1.5);
    b.meta.settings.size = Size::Full;
    let d = diff(&a, &b);
    assert!(
        d.rows.iter().all(|r| r.verdict == Verdict::NotComparable
            && r.note.as_deref() == Some("not comparable: problem sizes differ")),
        "{:?}",
        d.rows[0]
    );
    assert!(
        d.warnings
            .iter()
            .any(|w| w.starts_with("problem size differs: quick vs full"))
    );
    assert_eq!(d.family(), 0);
    // The method line names the family the correction was over: rows with an estimate.
    b.meta.settings.size = Size::Quick;
    let d = diff(&a, &b);
    assert_eq!(d.family(), TESTS);
    assert!(
        d.method()
            .contains(&format!("over the {TESTS} rows with an estimate"))
    );
    // Showing fewer rows (`--phases`) keeps the family the verdicts were decided over.
    let mut fewer = d.clone();
    let first = fewer.rows[0].phase.clone();
    fewer.rows.truncate(1);
    assert_eq!(fewer.family(), 1);
    assert!(
        fewer
            .method()
            .contains(&format!("over the {TESTS} rows with an estimate")),
        "{} ({first})",
        fewer.method()
    );
    // Normalised by a runtime that failed in one run: no verdict, not a raw ratio.
    let tests: Vec<String> = (0..3).map(|i| format!("t{i}")).collect();
    let ra = rounds_run(
        "ra",
        &["native", "x"],
        &tests,
        4,
        (0.0, 0.01),
        1,
        &|_, _| 1e6,
    );
    let mut rb = rounds_run(
        "rb",
        &["native", "x"],
        &tests,
        4,
        (0.0, 0.01),
        2,
        &|rt, _| {
            if rt == "x" { 2e6 } else { 1e6 }
        },
    );
    rb.measurements
        .retain(|m| !(m.runtime == "native" && m.test == "t0"));
    rb.cells.push(CellRecord {
        runtime: "native".into(),
        test: "t0".into(),
        invocation: 0,
        failure: Some(wasmeter_core::runtime::Failure::Trap("unreachable".into())),
        wall_ms: 1.0,
        other_cores: None,
        notes: Vec::new(),
        host: None,
        started_ms: None,
    });
    let opts = DiffOptions::parse(2.0, Some("native")).unwrap();
    let d = diff_runs(&ra, &rb, &opts).unwrap();
    let row = d
        .rows
        .iter()
        .find(|r| r.runtime == "x" && r.test == "t0")
        .unwrap();
    assert_eq!(row.verdict, Verdict::NotComparable, "{row:?}");
    assert_eq!(
        row.note.as_deref(),
        Some("not comparable: the reference native failed in B")
    );
    let other = d
        .rows
        .iter()
        .find(|r| r.runtime == "x" && r.test == "t1")
        .unwrap();
    assert_eq!(other.verdict, Verdict::Slower, "{other:?}");
}

/// The gate of `d` at `margin` percent (`None`: the diff's threshold, as `--fail-on` alone).
fn gated(d: &Diff, on: FailOn, margin: Option<f64>) -> Gate {
    gate(d, GateRule::new(on, margin, d))
}

#[test]
fn a_slowdown_hidden_by_a_busy_neighbour_is_undecided_not_passed() {
    // B is 10 % slower, but processes swing by 20 %: every row's interval is too wide to
    // call it slower, and too wide to show it within the margin either.
    let a = mock_run("a", &MockRuntime::new(1e6, 0.01, 21), 0.20);
    let b = mock_run(
        "b",
        &MockRuntime::new(1e6, 0.01, 22).with_slowdown(1.10),
        0.20,
    );
    let d = diff(&a, &b);
    let blind = d
        .rows
        .iter()
        .filter(|r| r.verdict == Verdict::NoChange)
        .count();
    assert!(blind >= TESTS / 2, "most rows no change: {:?}", d.counts());
    let g = gated(&d, FailOn::Slower, None);
    if d.counts().slower == 0 {
        assert_eq!(g.exit_code(), 4, "{g:?}");
    } else {
        assert_eq!(g.exit_code(), 3, "{g:?}");
    }
    let g = gated(&d, FailOn::Slower, Some(5.0));
    assert_ne!(g.exit_code(), 0, "a blind gate passed: {g:?}");
    // The undecided rows are named with their intervals and half-widths.
    let mut none_slower = d.clone();
    none_slower.rows.retain(|r| r.verdict == Verdict::NoChange);
    let g = gated(&none_slower, FailOn::Slower, None);
    let text = g.describe();
    assert_eq!(g.exit_code(), 4, "{text}");
    assert!(
        text.contains(&format!(
            "{} row(s) could not show a change within ±2 %: mock × t",
            none_slower.rows.len()
        )),
        "{text}"
    );
    assert!(text.contains("(execute): its interval ["), "{text}");
    assert!(text.contains("past the ±2 % margin"), "{text}");
    // A margin wider than every interval's reach passes what it has shown.
    let widest = none_slower
        .rows
        .iter()
        .filter_map(|r| r.ci_high)
        .fold(1.0f64, f64::max);
    let margin = (widest - 1.0) * 100.0 + 1.0;
    assert_eq!(
        gated(&none_slower, FailOn::Slower, Some(margin)),
        Gate::Pass
    );
    // Rows only in B (no base to compare with) cannot pass either.
    let mut only_b = none_slower.clone();
    only_b.rows.clear();
    only_b.only_b = vec![wasmeter_core::analysis::DiffKey {
        runtime: "mock".into(),
        test: "new".into(),
        phase: "execute".into(),
    }];
    let text = gated(&only_b, FailOn::Slower, Some(margin)).describe();
    assert!(text.contains("1 row(s) only in B"), "{text}");
    assert_eq!(
        GateRule::check_margin(0.0).unwrap_err(),
        "--max-regression takes a percentage above 0 and below 100, not 0"
    );
}

#[test]
fn the_gate_fails_on_a_slowdown_and_never_passes_what_it_could_not_tell() {
    let (a, slow) = a_and_slower_b(1.10);
    let same = mock_run("s", &MockRuntime::new(1e6, 0.01, 9), 0.01);
    let fast = mock_run(
        "f",
        &MockRuntime::new(1e6, 0.01, 10).with_slowdown(0.90),
        0.01,
    );
    assert_eq!(
        gated(&diff(&a, &same), FailOn::Slower, Some(10.0)),
        Gate::Pass
    );
    let g = gated(&diff(&a, &slow), FailOn::Slower, None);
    assert_eq!(g.exit_code(), 3, "{g:?}");
    assert!(
        g.describe().starts_with("gate failed: "),
        "{}",
        g.describe()
    );
    assert_eq!(
        gated(&diff(&a, &fast), FailOn::Slower, Some(10.0)),
        Gate::Pass
    );
    assert_eq!(gated(&diff(&a, &fast), FailOn::Change, None).exit_code(), 3);
    // Could not tell: one invocation a side.
    let mut one = slow.clone();
    one.measurements.retain(|m| m.invocation == 0);
    one.cells.retain(|c| c.invocation == 0);
    one.meta.settings.invocations = 1;
    let g = gated(&diff(&a, &one), FailOn::Slower, None);
    assert_eq!(g.exit_code(), 4, "{g:?}");
    assert!(
        g.describe().contains("insufficient data"),
        "{}",
        g.describe()
    );
    // Across many runs: a failure anywhere fails; else undecided anywhere is undecided.
    assert_eq!(
        Gate::all([Gate::Pass, gated(&diff(&a, &one), FailOn::Slower, None)]).exit_code(),
        4
    );
    assert_eq!(
        Gate::all([
            gated(&diff(&a, &one), FailOn::Slower, None),
            gated(&diff(&a, &slow), FailOn::Slower, None)
        ])
        .exit_code(),
        3
    );
    assert_eq!(
        "faster".parse::<FailOn>().unwrap_err(),
        "--fail-on takes slower or change, not 'faster'"
    );
}

#[test]
fn a_gate_on_some_phases_keeps_their_rows_and_verdicts_only() {
    let (a, slow) = a_and_slower_b(1.10);
    let mut all = diff(&a, &slow);
    // The mock times execute only: the same rows again as another phase, undecided.
    let other: Vec<_> = all
        .rows
        .iter()
        .map(|r| wasmeter_core::analysis::DiffRow {
            phase: "instantiate".into(),
            verdict: Verdict::InsufficientData,
            ..r.clone()
        })
        .collect();
    all.rows.extend(other);
    assert_eq!(gated(&all, FailOn::Slower, None).exit_code(), 3);
    let mut kept = all.clone();
    kept.keep_phases(&["execute".to_string()]).unwrap();
    let want: Vec<_> = all.rows.iter().filter(|r| r.phase == "execute").collect();
    assert!(!want.is_empty());
    assert_eq!(kept.rows.iter().collect::<Vec<_>>(), want);
    assert_eq!(gated(&kept, FailOn::Slower, None).exit_code(), 3);
    // Kept to the undecided phase only, the gate cannot tell.
    let mut undecided = all.clone();
    undecided.keep_phases(&["instantiate".to_string()]).unwrap();
    assert_eq!(gated(&undecided, FailOn::Slower, None).exit_code(), 4);
    // Nothing named keeps everything; a phase no row has is refused, naming those it has.
    let mut same = all.clone();
    same.keep_phases(&[]).unwrap();
    assert_eq!(same.rows, all.rows);
    let e = all
        .clone()
        .keep_phases(&["execute".into(), "nope".into()])
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("phase 'nope' is in no row of this diff (it has: ") && e.contains("execute"),
        "{e}"
    );
}

#[test]
fn busy_rounds_count_for_arms_that_alternated_in_one_worker_only() {
    // Two runtimes of one run, y 10 % slower; every invocation measured on a busy machine.
    let tests: Vec<String> = (0..TESTS).map(|i| format!("t{i:02}")).collect();
    let mut run = rounds_run(
        "busy",
        &["x", "y", "z"],
        &tests,
        8,
        (0.10, 0.01),
        77,
        &|rt, _| if rt == "y" { 1.10e6 } else { 1e6 },
    );
    let cpus = run
        .meta
        .machine
        .cpus_allowed
        .unwrap_or(run.meta.machine.cores) as f64;
    for c in &mut run.cells {
        c.other_cores = Some(0.9 * cpus);
    }
    let opts = DiffOptions::default();
    // Not a pair of the run: busy invocations are left out, nothing is decided.
    let d = compare_runtimes(&run, "x", "y", &opts).unwrap();
    assert!(d.rows.iter().all(|r| r.verdict == Verdict::NotComparable));
    // Paired in processes side by side: still left out.
    run.meta.settings.pair = Some(vec!["x".into(), "y".into()]);
    run.meta.settings.pair_mode = Some(PairMode::Processes);
    let d = compare_runtimes(&run, "x", "y", &opts).unwrap();
    assert!(d.rows.iter().all(|r| r.verdict == Verdict::NotComparable));
    // Alternated in one worker: the load fell on both arms alike, the verdicts stand, and
    // the diff says why it kept them.
    run.meta.settings.pair_mode = Some(PairMode::Alternate);
    let d = compare_runtimes(&run, "y", "x", &opts).unwrap();
    assert!(
        d.rows.iter().all(|r| r.verdict == Verdict::Faster),
        "{:?}",
        d.rows[0]
    );
    assert_eq!(d.busy_left_out, 0);
    assert!(d.alternated && d.method().contains("the arms alternated in one worker"));
    assert!(
        d.warnings
            .iter()
            .any(|w| w.contains("alternated in one worker, so the load fell on both alike")),
        "{:?}",
        d.warnings
    );
    // Another pair of the same run is not exempt.
    let d = compare_runtimes(&run, "x", "z", &opts).unwrap();
    assert!(d.rows.iter().all(|r| r.verdict == Verdict::NotComparable));
}

/// Issue 59's target at the defaults: a paired run of `--pair`'s default rounds, 20 tests,
/// one of them planted +10 %, rounds drifting 10 % and processes 3 % apart (a paired spread
/// of 4.2 % a round). The planted row is held "slower" in at least 9 of 10 trials; same
/// code has a held change in at most 1 of 20; and no row whose interval lies beyond the
/// threshold is ever "no change".
#[test]
fn at_the_default_rounds_one_planted_row_of_20_is_found_and_same_code_is_not() {
    use wasmeter_core::analysis::DEFAULT_PAIR_ROUNDS;
    let tests: Vec<String> = (0..TESTS).map(|i| format!("t{i:02}")).collect();
    let beyond = |r: &wasmeter_core::analysis::DiffRow| {
        r.ci_low.is_some_and(|l| l > 1.02) || r.ci_high.is_some_and(|h| h < 0.98)
    };
    let mut found = 0;
    for trial in 0..10 {
        let run = rounds_run(
            &format!("p{trial}"),
            &["x", "y"],
            &tests,
            DEFAULT_PAIR_ROUNDS,
            (0.10, 0.03),
            5900 + trial,
            &|rt, t| if rt == "y" && t == "t00" { 1.10e6 } else { 1e6 },
        );
        let d = compare_runtimes(&run, "x", "y", &DiffOptions::default()).unwrap();
        assert_eq!(d.family(), TESTS);
        found += usize::from(d.rows[0].verdict == Verdict::Slower);
        for r in &d.rows {
            assert!(
                !(beyond(r) && r.verdict == Verdict::NoChange),
                "an interval beyond ±2 % called no change: {r:?}"
            );
            assert!(r.level.is_some_and(|l| (0.95..0.96).contains(&l)), "{r:?}");
        }
    }
    assert!(found >= 9, "planted +10 % held in {found} of 10 trials");
    let mut flagged = 0;
    for trial in 0..20 {
        let run = rounds_run(
            &format!("q{trial}"),
            &["x", "y"],
            &tests,
            DEFAULT_PAIR_ROUNDS,
            (0.10, 0.03),
            7900 + trial,
            &|_, _| 1e6,
        );
        let d = compare_runtimes(&run, "x", "y", &DiffOptions::default()).unwrap();
        flagged += usize::from(d.rows.iter().any(|r| r.verdict.is_change()));
        assert!(
            d.rows
                .iter()
                .all(|r| !(beyond(r) && r.verdict == Verdict::NoChange))
        );
    }
    assert!(flagged <= 1, "same code flagged in {flagged} of 20 trials");
}

/// At 6 rounds a signed-rank test gives no p below 0.031, and a family of 20 needs 0.0025
/// from its best row: a row whose interval lies wholly beyond +2 % is "undecided", says
/// how many rounds it needs, and the gate is undecided (exit 4), never passed.
#[test]
fn too_few_rounds_for_the_family_is_undecided_never_no_change() {
    let tests: Vec<String> = (0..TESTS).map(|i| format!("t{i:02}")).collect();
    let run = rounds_run("u", &["x", "y"], &tests, 6, (0.10, 0.002), 59, &|rt, t| {
        if rt == "y" && t == "t00" { 1.5e6 } else { 1e6 }
    });
    let d = compare_runtimes(&run, "x", "y", &DiffOptions::default()).unwrap();
    let r = &d.rows[0];
    assert!(r.ci_low.unwrap() > 1.02, "{r:?}");
    assert_eq!(r.verdict, Verdict::Undecided, "{r:?}");
    let note = r.note.as_deref().unwrap();
    assert!(
        note.starts_with("undecided: needs ≥ 10 rounds for a family of 20 (has 6"),
        "{note}"
    );
    assert!(
        note.contains("its interval lies beyond +2 % on its own"),
        "{note}"
    );
    assert!((r.level.unwrap() - (1.0 - 2.0 / 64.0)).abs() < 1e-9);
    assert!(d.rows.iter().all(|r| r.verdict == Verdict::Undecided));
    assert_eq!(d.counts().undecided, TESTS);
    let g = gated(&d, FailOn::Slower, None);
    assert_eq!(g.exit_code(), 4, "{g:?}");
    assert!(
        g.describe().contains("20 row(s) undecided at their rounds"),
        "{}",
        g.describe()
    );
    assert!(
        wasmeter_core::analysis::diff_headline(&d).contains("20 undecided"),
        "{}",
        wasmeter_core::analysis::diff_headline(&d)
    );
    // One row alone (a family of 1): 6 rounds can decide it.
    let one = rounds_run(
        "v",
        &["x", "y"],
        &tests[..1],
        6,
        (0.10, 0.002),
        60,
        &|rt, _| {
            if rt == "y" { 1.5e6 } else { 1e6 }
        },
    );
    let d = compare_runtimes(&one, "x", "y", &DiffOptions::default()).unwrap();
    assert_eq!(d.rows[0].verdict, Verdict::Slower, "{:?}", d.rows[0]);
}

/// A cell that failed in both runs gives no row: the diff says so, and the gate is
/// undecided (exit 4) naming it, instead of passing over it.
#[test]
fn a_cell_failed_in_both_runs_leaves_the_gate_undecided() {
    let (a, b) = a_and_slower_b(1.0);
    let (mut a, mut b) = (a, b);
    for run in [&mut a, &mut b] {
        run.measurements.retain(|m| m.test != "t03");
        for c in run.cells.iter_mut().filter(|c| c.test == "t03") {
            c.failure = Some(wasmeter_core::model::Failure::Trap("unreachable".into()));
        }
    }
    let d = diff(&a, &b);
    assert_eq!(d.dropped.len(), 1, "{:?}", d.dropped);
    assert_eq!(d.dropped[0].test, "t03");
    assert_eq!(d.dropped[0].why, "failed in both");
    let g = gated(&d, FailOn::Slower, Some(50.0));
    assert_eq!(g.exit_code(), 4, "{g:?}");
    assert!(
        g.describe().contains("mock × t03: no row, failed in both"),
        "{}",
        g.describe()
    );
}

/// `show --noise` names the host from the probe timed before every worker: processes that
/// move with the probe are the host's slow phases; a probe that does not move with them
/// says their spread is each process's own; processes slower after a large worker say so.
#[test]
fn show_noise_names_the_host_from_the_probe_and_the_worker_before() {
    use wasmeter_core::analysis::noise;
    use wasmeter_core::sample::HostProbe;
    let tests: Vec<String> = (0..TESTS).map(|i| format!("t{i:02}")).collect();
    let mut run = rounds_run("h", &["x", "y"], &tests, 8, (0.10, 0.01), 77, &|_, _| 1e6);
    // Each round's factor, as the cells saw it (their mean log over the round).
    let factor: Vec<f64> = (0..8)
        .map(|inv| {
            let v: Vec<f64> = run
                .measurements
                .iter()
                .filter(|m| m.invocation == inv)
                .map(|m| (m.value / 1e6).ln())
                .collect();
            (v.iter().sum::<f64>() / v.len() as f64).exp()
        })
        .collect();
    let mut with = run.clone();
    for c in &mut with.cells {
        c.host = Some(HostProbe {
            cpu_ns: 1e6,
            mem_ns: 5e6 * factor[c.invocation as usize],
        });
    }
    let h = noise(&with).host.unwrap();
    assert_eq!(h.invocations, with.cells.len());
    assert!(h.shared_r.unwrap() > 0.9, "{h:?}");
    assert!(h.mem_pct > 5.0 && h.cpu_pct < 0.01, "{h:?}");
    assert!(
        h.describe()[1].starts_with("slow phases of the host"),
        "{:?}",
        h.describe()
    );
    // A probe that keeps still while the processes move: their spread is their own.
    let mut rng = Rng::new(5);
    for c in &mut run.cells {
        c.host = Some(HostProbe {
            cpu_ns: 1e6,
            mem_ns: 5e6 * (1.0 + 0.01 * rng.normal()),
        });
    }
    let h = noise(&run).host.unwrap();
    assert!(h.shared_r.unwrap().abs() < 0.3, "{h:?}");
    assert!(
        h.describe()[1].starts_with("the host was steady (the probe within ±1.0 %)"),
        "{:?}",
        h.describe()
    );
    // A probe that moves as much as the processes, but not in step with them: the host's
    // moments are shorter than a process.
    let mut fast = run.clone();
    for c in &mut fast.cells {
        c.host = Some(HostProbe {
            cpu_ns: 1e6,
            mem_ns: 5e6 * (1.0 + 0.1 * rng.normal()),
        });
    }
    let h = noise(&fast).host.unwrap();
    assert!(
        h.describe()[1].starts_with("the host's moments are shorter than a process"),
        "{:?}",
        h.describe()
    );
    // Slower after a large worker: x's workers are large (1 GiB), y's small; y's processes
    // are 10 % slower right after an x, and each runs right after one or the other.
    let mut order = run.clone();
    order.samples.clear();
    // The cells of each round in a drawn order, so that about half of y's run after an x.
    let mut draw = Rng::new(11);
    let mut keyed: Vec<(u32, u64, CellRecord)> = order
        .cells
        .drain(..)
        .map(|c| (c.invocation, (draw.unit() * 1e9) as u64, c))
        .collect();
    keyed.sort_by_key(|(inv, k, _)| (*inv, *k));
    order.cells = keyed.into_iter().map(|(_, _, c)| c).collect();
    let mut t = 0.0;
    let mut after_big = std::collections::HashSet::new();
    let mut prev_big = false;
    for c in &mut order.cells {
        c.started_ms = Some(t);
        c.wall_ms = 10.0;
        let big = c.runtime == "x";
        if prev_big && c.runtime == "y" {
            after_big.insert((c.test.clone(), c.invocation));
        }
        order.samples.push(SampleRow {
            t_ms: t + 5.0,
            runtime: c.runtime.clone(),
            test: c.test.clone(),
            cpu_pct: 100.0,
            rss_bytes: if big { 1 << 30 } else { 10 << 20 },
        });
        prev_big = big;
        t += 20.0;
    }
    for m in &mut order.measurements {
        if m.runtime == "y" && after_big.contains(&(m.test.clone(), m.invocation)) {
            m.value *= 1.10;
        }
    }
    let h = noise(&order).host.unwrap();
    assert!(h.after_large_r.unwrap() > 0.2, "{h:?}");
    assert!(
        h.describe()
            .iter()
            .any(|l| l.starts_with("slower after a large process")),
        "{:?}",
        h.describe()
    );
    // A run saved before the probe: no host lines.
    let mut old = run.clone();
    for c in &mut old.cells {
        c.host = None;
    }
    assert!(noise(&old).host.is_none());
}
