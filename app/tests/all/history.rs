//! `wasmeter history`: a cell's figure run after run, change points where the level steps,
//! machines kept apart, damaged runs left out by name; the same history read from an
//! S3-compatible server on loopback; an endpoint that is down is one line, fast.

use crate::common::{json, stderr, wasmeter};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use wasmeter_core::machine::Machine;
use wasmeter_core::store::{Synthetic, write_synthetic};

/// The runs of two machines: this one with a step, another without.
fn two_machines(results: &Path) -> Vec<String> {
    let here = Machine::detect();
    let mut other = here.clone();
    other.fingerprint = format!(
        "0ther{}",
        &here.fingerprint[5.min(here.fingerprint.len())..]
    );
    other.cpu_model = "Imaginary ARM Neoverse".into();
    other.arch = "aarch64".into();
    let ids = write_synthetic(results, &Synthetic::daily(here, "a", true)).unwrap();
    write_synthetic(results, &Synthetic::daily(other, "b", false)).unwrap();
    ids
}

const CELL: &[&str] = &["--suite", "scale", "--test", "t001", "--runtime", "rt001"];

fn history(results: &str, extra: &[&str], env: &[(&str, String)]) -> std::process::Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_wasmeter"));
    c.arg("history")
        .args(CELL)
        .args(extra)
        .arg("--results")
        .arg(results);
    c.env("WASMETER_CONFIG", "/dev/null");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

#[test]
fn a_step_is_found_on_its_machine_and_only_there() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let ids = two_machines(&results);
    let out = history(results.to_str().unwrap(), &["--format", "json"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let h = json(&out);
    assert_eq!(h["runs_read"], 60, "{h}");
    let series = h["series"].as_array().unwrap();
    assert_eq!(series.len(), 2, "one series per machine: {h}");
    let here = series
        .iter()
        .find(|s| !s["machine"].as_str().unwrap().starts_with("0ther"))
        .unwrap();
    let other = series
        .iter()
        .find(|s| s["machine"].as_str().unwrap().starts_with("0ther"))
        .unwrap();
    assert_eq!(here["points"].as_array().unwrap().len(), 30);
    let changes = here["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(changes[0]["index"], 15);
    let pct = changes[0]["change_pct"].as_f64().unwrap();
    assert!((pct - 20.0).abs() < 3.0, "{pct}");
    assert!(changes[0]["p_value"].as_f64().unwrap() <= 0.01);
    assert_eq!(other["changes"].as_array().unwrap().len(), 0, "{other}");
    // Each point: the typical time inside its interval, the runtime's version.
    for p in here["points"].as_array().unwrap() {
        let (v, lo, hi) = (
            p["value"].as_f64().unwrap(),
            p["low"].as_f64().unwrap(),
            p["high"].as_f64().unwrap(),
        );
        assert!(lo <= v && v <= hi && lo < hi, "{p}");
        assert_eq!(p["version"], "1.0");
        assert_eq!(p["invocations"], 3);
    }

    // As text, one machine: the change on the run where the new level starts.
    let out = history(
        results.to_str().unwrap(),
        &["--machine", "aarch64 neoverse"],
        &[],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("1 series") && text.contains("no change points"),
        "{text}"
    );
    let out = history(results.to_str().unwrap(), &["--last", "0"], &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&format!("change from {}", ids[15])), "{text}");
    let row = text.lines().find(|l| l.starts_with(&ids[15])).unwrap();
    let marked: f64 = row
        .trim_end()
        .trim_end_matches('%')
        .trim_end()
        .rsplit(' ')
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("the row of run 15 carries the change: {row}"));
    assert!((marked - 20.0).abs() < 3.0, "{row}");

    // CSV: a row per run and series.
    let out = history(results.to_str().unwrap(), &["--format", "csv"], &[]);
    let csv = String::from_utf8_lossy(&out.stdout);
    assert_eq!(csv.lines().count(), 1 + 60, "{csv}");
    assert!(csv.starts_with("suite,test,runtime,machine,"), "{csv}");

    // Each run was summarised once, into the index: damage done since does not reach the
    // figures. Rebuilt from the runs, a damaged run is left out by name; the rest still read.
    let index = results.join(wasmeter_core::history::INDEX_DIR);
    assert!(index.is_dir());
    let victim = results.join(&ids[3]).join("measurements.parquet");
    let mut bytes = std::fs::read(&victim).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    std::fs::write(&victim, bytes).unwrap();
    let out = history(results.to_str().unwrap(), &["--format", "json"], &[]);
    assert_eq!(json(&out)["runs_read"], 60);
    std::fs::remove_dir_all(&index).unwrap();
    let out = history(results.to_str().unwrap(), &["--format", "json"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let h = json(&out);
    assert_eq!(h["runs_read"], 59, "{h}");
    // An index that cannot be written (here: a file in its place, which stops root too):
    // the runs are read afresh, the same figures.
    let before = json(&history(
        results.to_str().unwrap(),
        &["--format", "json"],
        &[],
    ));
    std::fs::remove_dir_all(&index).unwrap();
    std::fs::write(&index, b"not a folder").unwrap();
    let out = history(results.to_str().unwrap(), &["--format", "json"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let after = json(&out);
    assert_eq!(after["series"], before["series"]);
    assert_eq!(after["runs_read"], 59);
    assert_eq!(std::fs::read(&index).unwrap(), b"not a folder");
    std::fs::remove_file(&index).unwrap();
    // A run added later is summarised into the index on the next history.
    let more = Synthetic {
        runs: 1,
        start_unix: 1_800_000_000.0,
        ..Synthetic::daily(Machine::detect(), "c", true)
    };
    write_synthetic(&results, &more).unwrap();
    let out = history(results.to_str().unwrap(), &["--format", "json"], &[]);
    assert_eq!(json(&out)["runs_read"], 60);
    let skipped = h["skipped"].to_string();
    assert!(
        skipped.contains(&ids[3]) && skipped.contains("measurements.parquet"),
        "{skipped}"
    );
}

/// A real run: its point is the figure `compare --normalize none` gives the same cell.
#[test]
fn a_real_runs_point_is_its_compared_figure() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let mut ids = Vec::new();
    for _ in 0..2 {
        let out = wasmeter(
            &[
                "run",
                "--suite",
                "compute",
                "--tests",
                "crc32",
                "--runtimes",
                "native,wasmtime",
                "--invocations",
                "2",
                "--runs",
                "2",
                "--warmup",
                "0",
                "--json",
            ],
            &results,
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        ids.push(json(&out)["run_id"].as_str().unwrap().to_string());
    }
    let c = json(&wasmeter(
        &[
            "compare",
            &ids[0],
            &ids[1],
            "--normalize",
            "none",
            "--format",
            "json",
        ],
        &results,
    ));
    let out = wasmeter(
        &[
            "history",
            "--test",
            "crc32",
            "--runtime",
            "wasmtime",
            "--format",
            "json",
        ],
        &results,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let h = json(&out);
    let points = h["series"][0]["points"].as_array().unwrap();
    assert_eq!(points.len(), 2, "{h}");
    for (i, p) in points.iter().enumerate() {
        assert_eq!(p["run"], ids[i].as_str());
        let cell = c["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["runtime"] == "wasmtime" && x["column"] == i)
            .unwrap();
        let (a, b) = (
            p["value"].as_f64().unwrap(),
            cell["value"].as_f64().unwrap(),
        );
        if p["invocations"] == 2 {
            assert!((a / b - 1.0).abs() < 1e-9, "{a} against {b}");
        } else {
            // History leaves out an invocation the machine was busy during, one by one as a
            // diff does; compare shows every invocation. A loaded CI host makes that happen.
            assert_eq!(p["invocations"], 1, "{p}");
            eprintln!("run {i}: one invocation left out as busy: {a} against {b}");
        }
    }
    assert_eq!(h["series"][0]["source"], "self", "{h}");
    let text = String::from_utf8_lossy(
        &wasmeter(
            &["history", "--test", "crc32", "--runtime", "wasmtime"],
            &results,
        )
        .stdout,
    )
    .to_string();
    assert!(text.contains("too few runs to tell"), "{text}");
}

/// The S3-compatible server of tests/s3 (gofakes3), built with Go on first use.
fn s3_server() -> Option<std::path::PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/s3");
    let bin = Path::new(env!("CARGO_TARGET_TMPDIR")).join("s3server");
    let go = Command::new("go").arg("version").output();
    if go.is_err() {
        assert!(
            std::env::var("CI").is_err(),
            "CI must have Go (scripts/test installs it)"
        );
        eprintln!("skipping: no Go to build the S3 server");
        return None;
    }
    let out = Command::new("go")
        .args(["build", "-o"])
        .arg(&bin)
        .arg(".")
        .current_dir(&src)
        .output()
        .unwrap();
    assert!(out.status.success(), "go build tests/s3: {}", stderr(&out));
    Some(bin)
}

struct Server(Child, String);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(bin: &Path, seed: &Path) -> Server {
    let mut child = Command::new(bin)
        .args([
            "-addr",
            "127.0.0.1:0",
            "-bucket",
            "runs",
            "-prefix",
            "nightly/x86",
            "-seed",
        ])
        .arg(seed)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("s3server said {line:?}"))
        .to_string();
    Server(child, addr)
}

fn aws_env(endpoint: &str) -> Vec<(&'static str, String)> {
    vec![
        ("AWS_ENDPOINT_URL", endpoint.to_string()),
        ("AWS_ALLOW_HTTP", "true".into()),
        ("AWS_ACCESS_KEY_ID", "wasmeter".into()),
        ("AWS_SECRET_ACCESS_KEY", "wasmeter-secret".into()),
        ("AWS_REGION", "us-east-1".into()),
    ]
}

#[test]
fn the_same_history_is_read_from_s3() {
    let Some(bin) = s3_server() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    two_machines(&results);
    let local = json(&history(
        results.to_str().unwrap(),
        &["--format", "json"],
        &[],
    ));
    let server = start(&bin, &results);
    let env = aws_env(&format!("http://{}", server.1));
    let out = history("s3://runs/nightly/x86", &["--format", "json"], &env);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let remote = json(&out);
    assert_eq!(remote["results"], "s3://runs/nightly/x86");
    assert_eq!(remote["runs_read"], 60);
    assert_eq!(remote["series"], local["series"], "S3 and local differ");
    // Another prefix holds nothing.
    let out = history("s3://runs/nightly/arm", &["--format", "json"], &env);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json(&out)["runs_read"], 0);
}

#[test]
fn an_endpoint_that_is_down_is_one_line_within_the_connect_timeout() {
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let tmp = tempfile::tempdir().unwrap();
    let env = aws_env(&format!("http://127.0.0.1:{port}"));
    let t = Instant::now();
    let mut c = Command::new(env!("CARGO_BIN_EXE_wasmeter"));
    c.args([
        "history",
        "--results",
        "s3://runs/nightly",
        "--suite",
        "scale",
    ])
    .current_dir(tmp.path())
    .env("WASMETER_CONFIG", "/dev/null")
    .env_remove("WASMETER_RESULTS");
    for (k, v) in &env {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    let took = t.elapsed();
    let err = stderr(&out);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(
        took < wasmeter_core::history::CONNECT_TIMEOUT + Duration::from_secs(2),
        "took {took:?}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("s3://runs/nightly"), "{err}");
    assert_eq!(
        std::fs::read_dir(tmp.path()).unwrap().count(),
        0,
        "nothing written locally"
    );
}
