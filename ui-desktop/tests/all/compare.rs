//! compare_runs: many saved runs side by side through the command, on runs written with
//! core's writer whose ratios are known exactly.

use crate::commands::{app, invoke};
use serde_json::{Value, json};
use std::path::Path;
use wasmeter_core::machine::Machine;
use wasmeter_core::runtime::{Metric, Phase, RuntimeInfo, RuntimeKind};
use wasmeter_core::store::{
    CellRecord, MeasurementRow, RunMeta, RunSettings, RunStatus, RunWriter, SCHEMA_VERSION,
    TestRecord,
};

const TESTS: [&str; 2] = ["crc32", "sha256"];
const RUNTIMES: [&str; 2] = ["native", "wasmtime"];

fn machine(cpu: &str, fingerprint: &str) -> Machine {
    Machine {
        cpu_model: cpu.into(),
        cores: 2,
        os: "Debian GNU/Linux 13".into(),
        kernel: "6.1.0".into(),
        governor: None,
        memory_bytes: 8 << 30,
        arch: "x86_64".into(),
        fingerprint: fingerprint.into(),
        cpus_allowed: None,
        cpu_quota: None,
        load_unreadable: None,
    }
}

/// Writes a complete run of `suite` on `machine`: native takes 1 ms on crc32 and 2 ms on
/// sha256, wasmtime `factor` times that on crc32 and twice `factor` on sha256; two
/// invocations of two iterations, the second invocation 2 % slower for both runtimes, so
/// each ratio is exact and has an interval.
fn write_run(results: &Path, id: &str, suite: &str, machine: Machine, factor: f64, started: f64) {
    let meta = RunMeta {
        schema_version: SCHEMA_VERSION,
        id: id.into(),
        label: None,
        suite: suite.into(),
        suite_kind: Default::default(),
        tests: TESTS
            .iter()
            .map(|t| TestRecord {
                name: t.to_string(),
                source_hash: format!("hash-{t}"),
                module_bytes: None,
                native_bytes: None,
                as_given: None,
            })
            .collect(),
        runtimes: RUNTIMES
            .iter()
            .map(|r| RuntimeInfo {
                id: r.to_string(),
                kind: if *r == "native" {
                    RuntimeKind::Native
                } else {
                    RuntimeKind::Embedded
                },
                version: "1.0".into(),
                config: "test".into(),
                unavailable: None,
                hint: None,
                command: None,
            })
            .collect(),
        not_applicable: Vec::new(),
        settings: RunSettings::new(2, 2),
        machine,
        wasmeter_version: "0.1.0".into(),
        started_unix: started,
        finished_unix: Some(started + 10.0),
        status: RunStatus::Complete,
        pid: 1,
        files: Default::default(),
    };
    let mut w = RunWriter::create(results, meta).unwrap();
    let mut rows = Vec::new();
    let mut cells = Vec::new();
    for (ti, test) in TESTS.iter().enumerate() {
        for rt in RUNTIMES {
            let times = if rt == "native" {
                1.0
            } else {
                factor * (ti + 1) as f64
            };
            for invocation in 0..2 {
                for iteration in 0..2 {
                    rows.push(MeasurementRow {
                        runtime: rt.into(),
                        test: test.to_string(),
                        phase: Phase::Execute,
                        invocation,
                        iteration,
                        warmup: false,
                        metric: Metric::SelfNs,
                        value: 1.0e6
                            * (ti + 1) as f64
                            * times
                            * (1.0 + 0.02 * invocation as f64)
                            * (1.0 + 0.001 * iteration as f64),
                    });
                }
                cells.push(CellRecord {
                    runtime: rt.into(),
                    test: test.to_string(),
                    invocation,
                    failure: None,
                    wall_ms: 10.0,
                    other_cores: None,
                    notes: Vec::new(),
                    host: None,
                    started_ms: None,
                });
            }
        }
    }
    w.measurements(&rows).unwrap();
    for c in &cells {
        w.cell(c).unwrap();
    }
    w.finish(RunStatus::Complete).unwrap();
}

/// Three runs of compute: two on machine A (wasmtime 2× and 1.5× native), one on B (3×).
fn three_runs(results: &Path) {
    let a = || machine("CPU A", "fp-a");
    write_run(results, "r1", "compute", a(), 2.0, 1_795_300_000.0);
    write_run(results, "r2", "compute", a(), 1.5, 1_795_300_100.0);
    write_run(
        results,
        "r3",
        "compute",
        machine("CPU B", "fp-b"),
        3.0,
        1_795_300_200.0,
    );
}

fn cell<'a>(c: &'a Value, rt: &str, test: &str, column: usize) -> &'a Value {
    c["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["runtime"] == rt && x["test"] == test && x["column"] == column)
        .unwrap_or_else(|| panic!("no cell {rt} × {test} in column {column}: {c}"))
}

fn close(got: &Value, want: f64) -> bool {
    got.as_f64()
        .is_some_and(|g| (g - want).abs() <= 1e-9 * want)
}

#[test]
fn three_runs_are_three_columns_each_relative_to_its_own_native() {
    let tmp = tempfile::tempdir().unwrap();
    three_runs(tmp.path());
    let (_app, w) = app(tmp.path());
    let c = invoke(&w, "compare_runs", json!({ "runs": ["r1", "r2", "r3"] })).unwrap();
    assert_eq!(c["suite"], "compute");
    assert_eq!(c["unit"], "relative to native of the same run");
    let titles: Vec<&str> = c["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["r1", "r2", "r3"]);
    assert_eq!(c["runtimes"], json!(RUNTIMES));
    assert_eq!(c["tests"], json!(TESTS));
    assert_eq!(c["cells"].as_array().unwrap().len(), 2 * 2 * 3);
    for (column, factor) in [2.0, 1.5, 3.0].into_iter().enumerate() {
        for (ti, test) in TESTS.iter().enumerate() {
            let n = cell(&c, "native", test, column);
            assert_eq!(n["value"], 1.0, "{n}");
            let x = cell(&c, "wasmtime", test, column);
            let want = factor * (ti + 1) as f64;
            assert!(close(&x["value"], want), "{x} want {want}");
            let (lo, hi) = (x["low"].as_f64().unwrap(), x["high"].as_f64().unwrap());
            assert!(lo < want && want < hi, "{x}");
            assert_eq!(x["note"], Value::Null, "{x}");
        }
    }
    // The footer: each run's geometric mean over both tests, √(f · 2f).
    let geomeans = c["geomeans"].as_array().unwrap();
    assert_eq!(geomeans.len(), 2);
    assert_eq!(geomeans[0][0], "native");
    assert_eq!(geomeans[0][1], json!([1.0, 1.0, 1.0]));
    assert_eq!(geomeans[1][0], "wasmtime");
    for (i, f) in [2.0_f64, 1.5, 3.0].into_iter().enumerate() {
        let want = (f * 2.0 * f).sqrt();
        assert!(close(&geomeans[1][1][i], want), "{geomeans:?}");
    }
    // Machine B's run differs from A's: core says so once.
    assert_eq!(
        c["warnings"],
        json!([
            "the runs are from different machines: each figure is relative to its own run's reference, times are not compared"
        ])
    );

    // Relative to wasmtime: native is 1/f, wasmtime 1.
    let c = invoke(
        &w,
        "compare_runs",
        json!({ "runs": ["r1", "r3"], "normalize": "wasmtime" }),
    )
    .unwrap();
    assert_eq!(c["unit"], "relative to wasmtime of the same run");
    assert!(close(&cell(&c, "native", "crc32", 1)["value"], 1.0 / 3.0));
    assert_eq!(cell(&c, "wasmtime", "sha256", 0)["value"], 1.0);

    // None: typical times in ns, no geomeans.
    let c = invoke(
        &w,
        "compare_runs",
        json!({ "runs": ["r2", "r1"], "normalize": "none" }),
    )
    .unwrap();
    assert!(
        c["unit"].as_str().unwrap().starts_with("typical time"),
        "{c}"
    );
    assert_eq!(c["geomeans"], json!([]));
    assert_eq!(c["columns"][0]["run"], "r2", "the order given");
    let t = cell(&c, "wasmtime", "crc32", 0)["value"].as_f64().unwrap();
    assert!((1.5e6..1.6e6).contains(&t), "{t}");
}

#[test]
fn columns_by_machine_are_titled_by_machine_and_kept_apart_by_run() {
    let tmp = tempfile::tempdir().unwrap();
    three_runs(tmp.path());
    let (_app, w) = app(tmp.path());
    let c = invoke(
        &w,
        "compare_runs",
        json!({ "runs": ["r1", "r2", "r3"], "by_machine": true }),
    )
    .unwrap();
    let titles: Vec<&str> = c["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "CPU A x86_64 (Debian GNU/Linux 13) r1",
            "CPU A x86_64 (Debian GNU/Linux 13) r2",
            "CPU B x86_64 (Debian GNU/Linux 13)",
        ]
    );
    assert_eq!(c["columns"][2]["machine"], "fp-b");
}

#[test]
fn runs_of_different_suites_or_too_few_are_refused_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    three_runs(tmp.path());
    write_run(
        tmp.path(),
        "c1",
        "calibration",
        machine("CPU A", "fp-a"),
        1.0,
        1_795_300_300.0,
    );
    let (_app, w) = app(tmp.path());
    let err = invoke(&w, "compare_runs", json!({ "runs": ["r1", "r2", "c1"] })).unwrap_err();
    assert_eq!(
        err,
        json!({
            "code": "invalid_input",
            "message": "runs of different suites cannot be compared: r1 is 'compute', c1 is 'calibration'"
        })
    );
    let err = invoke(&w, "compare_runs", json!({ "runs": ["r1"] })).unwrap_err();
    assert_eq!(
        err["message"], "compare takes at least two runs, 1 given",
        "{err}"
    );
    let err = invoke(&w, "compare_runs", json!({ "runs": ["r1", "nosuch"] })).unwrap_err();
    assert_eq!(err["code"], "not_found", "{err}");
    let err = invoke(&w, "compare_runs", json!({ "runs": ["r1", "../r2"] })).unwrap_err();
    assert_eq!(err["code"], "invalid_input", "{err}");
}

#[test]
fn the_export_of_a_comparison_is_cores_with_the_screens_options() {
    use wasmeter_core::analysis::CompareOptions;
    use wasmeter_core::export::{Format, export_to};
    use wasmeter_desktop::commands::compare::report;
    let tmp = tempfile::tempdir().unwrap();
    three_runs(tmp.path());
    write_run(
        tmp.path(),
        "c1",
        "calibration",
        machine("CPU A", "fp-a"),
        1.0,
        1_795_300_300.0,
    );
    let runs: Vec<_> = ["r1", "r2", "r3"]
        .iter()
        .map(|id| wasmeter_core::store::load_run(&tmp.path().join(id)).unwrap())
        .collect();
    let r = report(
        &runs,
        None,
        &CompareOptions::new(Some("native"), Some(true)),
    )
    .unwrap();
    assert_eq!(r.title, "wasmeter: 3 runs of compute compared");
    assert_eq!(r.runs.len(), 3);
    let csv = tmp.path().join("out.csv");
    export_to(Format::Csv, &r, &csv).unwrap();
    let text = std::fs::read_to_string(&csv).unwrap();
    // The matrix, one row per runtime × test × run, columns titled by machine.
    let row = text
        .lines()
        .find(|l| l.starts_with("r3,") && l.contains(",wasmtime,sha256,"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        row.starts_with("r3,CPU B x86_64 (Debian GNU/Linux 13),fp-b,,wasmtime,sha256,6.000000,"),
        "{row}"
    );

    // Refused before the save dialog opens: other suites (three runs imply a comparison),
    // and a comparison of one run.
    let (_app, w) = app(tmp.path());
    let err = invoke(
        &w,
        "export_report",
        json!({ "runs": ["r1", "r2", "c1"], "format": "csv" }),
    )
    .unwrap_err();
    assert_eq!(
        err["message"],
        "runs of different suites cannot be compared: r1 is 'compute', c1 is 'calibration'"
    );
    let err = invoke(
        &w,
        "export_report",
        json!({ "runs": ["r1"], "format": "html", "compare": { "normalize": "wasmtime", "by_machine": true } }),
    )
    .unwrap_err();
    assert_eq!(
        err,
        json!({ "code": "invalid_input", "message": "compare takes at least two runs, 1 given" })
    );
}
