//! `wasmeter compare RUN…`: many runs side by side, each relative to its own run's native,
//! intervals included; what differs between them said; runs of other suites refused.

use crate::common::{json, stderr, wasmeter};

/// The flags of a quick run of compute's crc32 on native and wasmtime.
const QUICK: &[&str] = &[
    "--tests",
    "crc32",
    "--runtimes",
    "native,wasmtime",
    "--invocations",
    "2",
    "--runs",
    "1",
    "--warmup",
    "0",
];

/// `wasmeter run ARGS --json`, which must succeed; the run's id.
fn run_id(results: &std::path::Path, args: &[&str]) -> String {
    let mut all = vec!["run"];
    all.extend_from_slice(args);
    all.push("--json");
    let out = wasmeter(&all, results);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    json(&out)["run_id"].as_str().unwrap().to_string()
}

#[test]
fn runs_side_by_side_each_relative_to_its_own_native() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let a = run_id(&results, &[&["--suite", "compute"], QUICK].concat());
    // The same through a plan: the comparison says the plans differ.
    let plan = tmp.path().join("plan.toml");
    let mut plan_args = vec!["plan", "--suite", "compute", "-o", plan.to_str().unwrap()];
    plan_args.extend_from_slice(QUICK);
    let out = wasmeter(&plan_args, &results);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let b = run_id(&results, &["--plan", plan.to_str().unwrap()]);
    let ids = [a.as_str(), b.as_str()];
    let out = wasmeter(&["compare", ids[0], ids[1], "--format", "json"], &results);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let c = json(&out);
    assert_eq!(c["suite"], "compute", "{c}");
    assert_eq!(c["columns"].as_array().unwrap().len(), 2, "{c}");
    assert_eq!(
        c["runtimes"],
        serde_json::json!(["native", "wasmtime"]),
        "{c}"
    );
    for cell in c["cells"].as_array().unwrap() {
        let v = cell["value"].as_f64().unwrap();
        if cell["runtime"] == "native" {
            assert_eq!(v, 1.0, "{cell}");
        } else {
            // A ratio to this run's own native, inside its interval.
            assert!(v > 0.0 && v.is_finite(), "{cell}");
            let (lo, hi) = (
                cell["low"].as_f64().unwrap(),
                cell["high"].as_f64().unwrap(),
            );
            assert!(lo <= v && v <= hi, "{cell}");
        }
    }
    let warnings = c["warnings"].to_string();
    assert!(warnings.contains("different plans"), "{warnings}");
    // As text: one row per test and runtime, a column per run, the geomean as footer.
    let out = wasmeter(&["compare", ids[0], ids[1]], &results);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("relative to native of the same run"),
        "{text}"
    );
    assert!(text.contains(ids[0]) && text.contains(ids[1]), "{text}");
    assert!(text.contains("geomean"), "{text}");
    assert!(
        text.contains("warning: the runs come from different plans"),
        "{text}"
    );

    // A run of another suite: refused, naming both.
    let out = wasmeter(
        &[
            "run",
            "--suite",
            "calibration",
            "--tests",
            "control",
            "--runtimes",
            "wasmtime",
            "--invocations",
            "1",
            "--runs",
            "1",
            "--warmup",
            "0",
            "--json",
        ],
        &results,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let other = json(&out)["run_id"].as_str().unwrap().to_string();
    let out = wasmeter(&["compare", ids[0], &other], &results);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("runs of different suites cannot be compared"),
        "{err}"
    );
    assert!(err.contains(&format!("{other} is 'calibration'")), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}
