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

/// `wasmeter export RUN RUN RUN`: the comparison's matrix in every format, the same figures
/// as `compare --format json`; two runs are a diff unless `--compare` says otherwise.
#[test]
fn three_runs_export_as_one_matrix_in_every_format() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    // Two tests: the page's checks want a matrix of more than one row.
    let quick: Vec<&str> = QUICK
        .iter()
        .map(|a| if *a == "crc32" { "crc32,sha256" } else { a })
        .collect();
    let ids: Vec<String> = (0..3)
        .map(|_| run_id(&results, &[&["--suite", "compute"], &quick[..]].concat()))
        .collect();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let want = json(&wasmeter(
        &["compare", ids[0], ids[1], ids[2], "--format", "json"],
        &results,
    ));
    let export = |fmt: &str, extra: &[&str], runs: &[&str]| -> String {
        let path = tmp.path().join(format!("out-{fmt}-{}.{fmt}", runs.len()));
        let mut args = vec!["export"];
        args.extend_from_slice(runs);
        args.extend_from_slice(&["--format", fmt, "-o", path.to_str().unwrap()]);
        args.extend_from_slice(extra);
        let out = wasmeter(&args, &results);
        assert_eq!(out.status.code(), Some(0), "{fmt}: {}", stderr(&out));
        std::fs::read_to_string(&path).unwrap()
    };

    // CSV: one row per runtime × test × run with the comparison's value and interval, then
    // the geomeans; every line as wide as the header.
    let csv = export("csv", &[], &ids);
    let lines: Vec<&str> = csv.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        lines[0],
        "run_id,column,machine,plan_hash,runtime,test,value,low,high,note"
    );
    assert!(csv.starts_with("# values: relative to native"), "{csv}");
    for l in &lines {
        assert_eq!(l.split(',').count(), 10, "{l}");
    }
    let cells = want["cells"].as_array().unwrap();
    let rows: Vec<Vec<&str>> = lines[1..].iter().map(|l| l.split(',').collect()).collect();
    let (matrix, geomeans): (Vec<_>, Vec<_>) = rows.iter().partition(|r| r[5] != "geomean");
    assert_eq!(matrix.len(), cells.len(), "{csv}");
    for (r, c) in matrix.iter().zip(cells) {
        let col = c["column"].as_u64().unwrap() as usize;
        assert_eq!(r[0], ids[col], "{r:?}");
        assert_eq!(
            (r[4], r[5]),
            (c["runtime"].as_str().unwrap(), c["test"].as_str().unwrap())
        );
        for (i, k) in [(6, "value"), (7, "low"), (8, "high")] {
            let v: f64 = r[i].parse().unwrap();
            let w = c[k].as_f64().unwrap();
            assert!((v - w).abs() < 1e-6, "{k}: {v} against {w} in {r:?}");
        }
    }
    // native and wasmtime, in each of the three runs.
    assert_eq!(geomeans.len(), 6, "{csv}");

    // Markdown and HTML lead with the comparison's table; JSON carries its figures.
    let md = export("md", &[], &ids);
    assert!(md.starts_with("## 3 runs of compute compared"), "{md}");
    assert!(md.contains("relative to native of the same run"), "{md}");
    let j: serde_json::Value = serde_json::from_str(&export("json", &[], &ids)).unwrap();
    assert_eq!(j["comparison"]["cells"], want["cells"]);
    assert_eq!(j["runs"].as_array().unwrap().len(), 3);
    let html = export("html", &[], &ids);
    assert!(
        html.contains("\"comparison\":"),
        "no comparison in the page"
    );
    crate::report::browser_check(&tmp.path().join("out-html-3.html"), "comparison-report.png");

    // Two runs: a diff, unless compared; --by machine names the columns by machine.
    let two = &ids[..2];
    assert!(export("md", &[], two).starts_with("## Diff: "));
    let md = export("md", &["--compare", "--by", "machine"], two);
    assert!(md.starts_with("## 2 runs of compute compared"), "{md}");
    let header = md.lines().find(|l| l.starts_with("| test")).unwrap();
    assert!(
        header.contains(std::env::consts::ARCH) && header.contains(ids[0]),
        "columns by machine (two runs of one machine keep their ids): {header}"
    );
}
