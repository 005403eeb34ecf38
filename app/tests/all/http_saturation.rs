//! A saturated HTTP level end to end: a real server on loopback that answers too slowly at
//! one concurrency level (each request there takes longer than the level's load lasts).
//! The run does not fail the cell; it keeps the levels that served and records the
//! saturated one with its bound (fewer than one request per duration), and every view says
//! so: `show`, the JSON, CSV, Markdown and HTML exports, and the diff, which leaves the
//! saturated level out instead of comparing a bound as a rate.

use crate::common::{failures, json, stderr};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The Python test server every HTTP test shares (assets/testing).
const SERVER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/testing/http_test_server.py"
);

fn wasmeter(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_wasmeter"))
        .args(args)
        .arg("--results")
        .arg(dir.join("results"))
        .env("WASMETER_SUITES", dir.join("suites"))
        .env("WASMETER_CONFIG", "/dev/null")
        .output()
        .unwrap()
}

/// One run of the suite; its id.
fn run(dir: &Path) -> String {
    let out = wasmeter(
        dir,
        &[
            "run",
            "--suite",
            "slow",
            "--runtimes",
            "native",
            "--warmup",
            "0",
            "--runs",
            "1",
            "--concurrency",
            "1,2,8",
            "--duration",
            "0.5",
            "--latency",
            "0.2",
            "--json",
        ],
    );
    let s = json(&out);
    assert_eq!(failures(&s), vec!["ok", "ok"], "{}", stderr(&out));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    s["run_id"].as_str().unwrap().to_string()
}

fn http_cell<'a>(report: &'a Value, test: &str) -> &'a Value {
    report["runs"][0]["http"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["test"] == test)
        .unwrap_or_else(|| panic!("no http cell for {test}"))
}

fn text(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{}", stderr(out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_saturated_level_is_kept_marked_with_its_bound_and_shown_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let suite = dir.join("suites/slow");
    std::fs::create_dir_all(&suite).unwrap();
    // At `/`, up to 3 connections are answered at once; with more open, every request
    // first waits 4 s — longer than a level's warm-up and load together.
    std::fs::copy(SERVER, suite.join("server.py")).unwrap();
    std::fs::write(
        suite.join("suite.toml"),
        r#"[suite]
name = "slow"
kind = "servers"

[[test]]
name = "slow"
path = "/"
[[test.server]]
runtime = "native"
command = ["python3", "{suite}/server.py", "{port}", "--slow-over", "3", "--slow-s", "4"]
ready = "/ready"

[[test]]
name = "fast"
path = "/fast"
[[test.server]]
runtime = "native"
command = ["python3", "{suite}/server.py", "{port}", "--slow-over", "3", "--slow-s", "4"]
ready = "/ready"
"#,
    )
    .unwrap();
    let a = run(dir);

    // JSON: the cell is not failed; levels 1 and 2 served, 8 saturated below 2 req/s.
    let out = wasmeter(dir, &["export", &a, "--format", "json", "-o", "-"]);
    let report: Value = serde_json::from_str(&text(&out)).unwrap();
    let cell = http_cell(&report, "slow");
    // The same server at a path it always answers at once: every level served.
    let fast = http_cell(&report, "fast");
    assert_eq!(fast["levels"].as_array().unwrap().len(), 3, "{fast}");
    assert_eq!(fast["saturated"].as_array().unwrap().len(), 0, "{fast}");
    assert!(cell["failure"].is_null(), "{cell}");
    let served: Vec<u64> = cell["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["connections"].as_u64().unwrap())
        .collect();
    assert_eq!(served, vec![1, 2], "{cell}");
    for l in cell["levels"].as_array().unwrap() {
        assert!(l["rps"]["median"].as_f64().unwrap() > 2.0, "{l}");
        assert_eq!(l["saturated_iterations"], 0, "{l}");
    }
    let sat = cell["saturated"].as_array().unwrap();
    assert_eq!(sat.len(), 1, "{cell}");
    assert_eq!(sat[0]["connections"], 8);
    assert_eq!(sat[0]["below_rps"].as_f64(), Some(2.0), "1 / 0.5 s: {cell}");
    let n = sat[0]["of"].as_u64().unwrap();
    assert!(n >= 1 && sat[0]["iterations"].as_u64() == Some(n), "{cell}");
    assert!(
        matches!(cell["best"][0].as_u64(), Some(1 | 2)),
        "the best is a served level: {cell}"
    );

    // show and Markdown: the bound where the rate would be.
    let show = text(&wasmeter(dir, &["show", &a]));
    assert!(show.contains("saturated (< 2.00/s)"), "{show}");
    assert!(
        show.contains("no request completed within the duration"),
        "{show}"
    );
    assert!(!show.contains("FAILED"), "{show}");
    let md = text(&wasmeter(dir, &["export", &a, "--format", "md", "-o", "-"]));
    // Markdown escapes the `<` of the bound.
    assert!(md.contains("saturated (&lt; 2.00/s)"), "{md}");

    // CSV: rates of the served levels only; no rate for the saturated one.
    let csv = text(&wasmeter(
        dir,
        &["export", &a, "--format", "csv", "-o", "-"],
    ));
    assert!(csv.contains(",native,slow,throughput_c1,rps,"), "{csv}");
    assert!(!csv.contains(",native,slow,throughput_c8,rps"), "{csv}");
    assert!(csv.contains(",native,fast,throughput_c8,rps,"), "{csv}");

    // HTML: the data carries the mark; the page renders it without errors.
    let html = dir.join("report.html");
    let out = wasmeter(
        dir,
        &[
            "export",
            &a,
            "--format",
            "html",
            "-o",
            html.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let page = std::fs::read_to_string(&html).unwrap();
    let marker = r#"<script type="application/json" id="wasmeter-data">"#;
    let data = &page[page.find(marker).unwrap() + marker.len()..];
    let data: Value = serde_json::from_str(&data[..data.find("</script>").unwrap()]).unwrap();
    let sat = &http_cell(&data, "slow")["saturated"][0];
    assert_eq!(sat["connections"], 8, "the page's data: {sat}");
    assert_eq!(
        sat["below_rps"].as_f64(),
        Some(2.0),
        "the page's data: {sat}"
    );
    browser_check(&html);

    // Diff of two runs: the served levels are compared, the saturated one is not (a bound
    // is not a rate).
    let b = run(dir);
    let d = json(&wasmeter(dir, &["diff", &a, &b, "--json"]));
    let phases: Vec<&str> = d["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["test"] == "slow")
        .map(|r| r["phase"].as_str().unwrap())
        .collect();
    assert!(phases.contains(&"throughput_c1"), "{phases:?}");
    assert!(!phases.contains(&"throughput_c8"), "{phases:?}");
}

/// The report page in headless Chromium (tests/browser/check-report.mjs: renders, no
/// errors, a table row per variant, a chart line per variant with throughput and a point
/// per served level — the saturated level is none); skipped where the browser is missing,
/// outside CI.
fn browser_check(html: &Path) {
    let browser_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/browser");
    if !(Path::new("/usr/bin/chromium").exists()
        && browser_dir.join("node_modules/playwright-core").exists())
    {
        assert!(std::env::var("CI").is_err(), "CI must have chromium");
        eprintln!("skipping the browser check: chromium or playwright-core not installed");
        return;
    }
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("http-saturated.png");
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
}
