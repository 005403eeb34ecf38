//! Exports of real runs: every format, and the HTML page checked in headless Chromium.

use crate::common::{export_runs, json, stderr, wasmeter};
use std::path::Path;
use std::process::Command;

const HOSTILE: &str = "<script>alert(1)</script>";

/// Two small real runs, the first with a hostile label.
fn two_runs(results: &Path) -> (String, String) {
    let mut ids = Vec::new();
    for label in [HOSTILE, "second"] {
        let out = wasmeter(
            &[
                "run",
                "--suite",
                "compute",
                "--tests",
                "sha256,nbody,hex",
                "--runtimes",
                "native,wasmtime,wasmtime-winch",
                "--warmup",
                "0",
                "--runs",
                "3",
                "--name",
                label,
                "--json",
            ],
            results,
        );
        assert!(out.status.success(), "{}", stderr(&out));
        // The scope before it starts: 3 tests × 3 runtimes, 6 invocations by default; the
        // second run's time comes from the first's.
        let err = stderr(&out);
        let want = if ids.is_empty() {
            "wasmeter: 9 cells × 6 invocations × 3 iterations; no earlier run of this suite on this machine to estimate its time"
        } else {
            "(from earlier runs of 9 of them on this machine)"
        };
        assert!(err.contains(want), "{want:?} not in: {err}");
        ids.push(json(&out)["run_id"].as_str().unwrap().to_string());
    }
    (ids[0].clone(), ids[1].clone())
}

#[test]
fn every_format_exports_and_names_its_problems() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = two_runs(tmp.path());
    for (fmt, ext) in [
        ("csv", "csv"),
        ("json", "json"),
        ("md", "md"),
        ("html", "html"),
    ] {
        let out_path = tmp.path().join(format!("one.{ext}"));
        let out = wasmeter(
            &[
                "export",
                &a,
                "--format",
                fmt,
                "-o",
                out_path.to_str().unwrap(),
            ],
            tmp.path(),
        );
        assert!(out.status.success(), "{fmt}: {}", stderr(&out));
        let text = std::fs::read_to_string(&out_path).unwrap();
        assert!(
            text.contains("sha256") && text.contains("wasmtime-winch"),
            "{fmt}"
        );
        if fmt == "html" || fmt == "md" {
            assert!(!text.contains(HOSTILE), "{fmt} carries the label as markup");
        }
    }
    let csv = std::fs::read_to_string(tmp.path().join("one.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert!(
        header.starts_with("run_id,runtime,test,phase,source,n,mean,stddev,median,min,max,"),
        "{header}"
    );
    let cols = header.split(',').count();
    for line in csv.lines() {
        assert_eq!(line.split(',').count(), cols, "{line}");
    }
    let exported: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("one.json")).unwrap())
            .unwrap();
    assert_eq!(
        exported["runs"][0]["label"], HOSTILE,
        "JSON keeps the label as data"
    );
    assert_eq!(
        exported["runs"][0]["summary"]["cells"]
            .as_array()
            .unwrap()
            .len(),
        9
    );

    // Two runs: the diff, with its rows in every format.
    let out = wasmeter(&["export", &a, &b, "--format", "md", "-o", "-"], tmp.path());
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(
        md.contains("## Diff: ") && md.contains("| wasmtime | sha256 | execute |"),
        "{md}"
    );
    let out = wasmeter(&["diff", &a, &b, "--json"], tmp.path());
    let d = json(&out);
    // native: execute + total; embedded: execute, compile, instantiate, teardown, total.
    assert_eq!(
        d["rows"].as_array().unwrap().len(),
        3 * 2 + 2 * 3 * 5,
        "{d}"
    );

    // Bad input: itself, a missing run, another suite, a corrupt run.
    let out = wasmeter(&["diff", &a, &a], tmp.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot diff run") && stderr(&out).contains("with itself"));
    let out = wasmeter(&["diff", &a, "nosuchrun"], tmp.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no saved run matches 'nosuchrun'"),
        "{}",
        stderr(&out)
    );
    let out = wasmeter(
        &[
            "run",
            "--suite",
            "overhead",
            "--runtimes",
            "wasmtime",
            "--runs",
            "1",
            "--warmup",
            "0",
            "--json",
        ],
        tmp.path(),
    );
    let other = json(&out)["run_id"].as_str().unwrap().to_string();
    let out = wasmeter(&["diff", &a, &other], tmp.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("runs of different suites cannot be diffed"),
        "{}",
        stderr(&out)
    );
    std::fs::write(tmp.path().join(&b).join("meta.json"), "{ broken").unwrap();
    let out = wasmeter(&["export", &b, "--format", "csv", "-o", "-"], tmp.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!("{b}/meta.json: not valid run metadata")),
        "{}",
        stderr(&out)
    );
    let out = wasmeter(&["runs", "--json"], tmp.path());
    assert!(
        out.status.success(),
        "listing still works with one corrupt run"
    );
}

/// Runs tests/browser/check-report.mjs on an HTML report; false when the browser or
/// playwright-core is missing (allowed outside CI only).
pub fn browser_check(html: &Path, shot_name: &str) -> bool {
    let browser_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/browser");
    let ready = Path::new("/usr/bin/chromium").exists()
        && browser_dir.join("node_modules/playwright-core").exists();
    if !ready {
        assert!(
            std::env::var("CI").is_err(),
            "CI must have chromium and tests/browser/node_modules (scripts/test installs them)"
        );
        eprintln!("skipping: chromium or playwright-core not installed");
        return false;
    }
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join(shot_name);
    let check = Command::new("node")
        .arg(browser_dir.join("check-report.mjs"))
        .arg(html)
        .arg(&shot)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "browser check failed:\n{}{}",
        String::from_utf8_lossy(&check.stdout),
        stderr(&check)
    );
    assert!(
        std::fs::metadata(&shot).unwrap().len() > 10_000,
        "screenshot written"
    );
    true
}

#[test]
fn html_report_is_clean_in_headless_chromium() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = two_runs(tmp.path());
    let html = tmp.path().join("report.html");
    export_runs(tmp.path(), &[&a, &b], "html", &html);
    // The page carries the diff's method line and rows with intervals and noise (three
    // invocations a cell by default), which check-report.mjs finds drawn at their values.
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains(
            "\"method\":\"B/A of geometric means over invocations, 95 % Student-t interval"
        ),
        "no method line in the page's data"
    );
    // The page's headline is the one `wasmeter diff` prints first, in core's words; each
    // run's is the one `wasmeter show` prints first (check-report.mjs finds it drawn).
    let text = |args: &[&str]| String::from_utf8(wasmeter(args, tmp.path()).stdout).unwrap();
    let diff_first = text(&["diff", &a, &b]).lines().next().unwrap().to_string();
    assert!(
        diff_first.contains(" slower, ") && diff_first.contains(" undecided"),
        "{diff_first}"
    );
    assert!(
        page.contains(&format!("\"diff_headline\":\"{diff_first}\"")),
        "the page's diff headline is not the CLI's: {diff_first}"
    );
    for run in [&a, &b] {
        let first = text(&["show", run]).lines().next().unwrap().to_string();
        assert!(first.contains("native"), "{first}");
        assert!(
            page.contains(&format!("\"headline\":\"{first}\"")),
            "the page's run headline is not the CLI's: {first}"
        );
    }
    let d = json(&wasmeter(&["diff", &a, &b, "--json"], tmp.path()));
    let rows = d["rows"].as_array().unwrap();
    assert!(
        rows.iter()
            .any(|r| r["ci_low"].is_f64() && r["halfwidth_pct"].as_f64().is_some_and(|h| h > 0.0)),
        "{d}"
    );
    browser_check(&html, "report.png");
}

/// A lifecycle run's page: its measurements table and instantiation against heap size,
/// one line per runtime and fill (sparse dashed), switchable to another measurement.
#[test]
fn lifecycle_html_report_draws_heap_lines_in_headless_chromium() {
    let tmp = tempfile::tempdir().unwrap();
    let out = wasmeter(
        &[
            "run",
            "--suite",
            "lifecycle",
            "--tests",
            "hello,heap-64k-dense,heap-64k-sparse,heap-256k-dense,heap-256k-sparse",
            "--runtimes",
            "wasmtime-pooling,wasmer-singlepass",
            "--warmup",
            "0",
            "--runs",
            "2",
            "--json",
        ],
        tmp.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let id = json(&out)["run_id"].as_str().unwrap().to_string();
    let html = tmp.path().join("lifecycle.html");
    export_runs(tmp.path(), &[&id], "html", &html);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("\"heap_series\":[") && page.contains("\"suite_kind\":\"lifecycle\""));
    browser_check(&html, "lifecycle.png");
}
