//! Interruptions: `kill -9` mid-run leaves an interrupted run with every finished cell intact,
//! `--resume` runs only the missing cells, and Ctrl-C stops cleanly and saves.
//!
//! Every cell runs in `INVOCATIONS` worker processes, interleaved, so `cells.jsonl` holds one
//! record per (cell, invocation) and a kill lands between invocations of the same cell.

use crate::common::{json, stderr, suites_root, wasmeter};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CELLS: usize = 8;
const INVOCATIONS: usize = 2;
const RUNS: usize = 2;

fn start(results: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_wasmeter"))
        .args([
            "run",
            "--suite",
            "compute",
            "--tests",
            "sha256,nbody,hex,sort",
            "--runtimes",
            "native,wasmtime",
            "--warmup",
            "0",
            "--runs",
            "2",
            "--invocations",
            "2",
            "--order",
            "interleaved",
            "--results",
        ])
        .arg(results)
        .env("WASMETER_SUITES", suites_root())
        .env("WASMETER_CONFIG", "/dev/null")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Waits until the run has recorded at least `n` ended (cell, invocation) records; returns
/// its directory.
fn wait_for_cells(results: &Path, n: usize) -> PathBuf {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(dir) = std::fs::read_dir(results)
            .ok()
            .and_then(|mut d| d.next())
            .and_then(|e| e.ok())
            .map(|e| e.path())
        {
            let cells = std::fs::read_to_string(dir.join("cells.jsonl")).unwrap_or_default();
            if cells.lines().count() >= n {
                return dir;
            }
        }
        assert!(Instant::now() < deadline, "run made no progress");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn kill_9_then_resume_runs_only_the_missing_cells() {
    let tmp = tempfile::tempdir().unwrap();
    let mut child = start(tmp.path());
    let dir = wait_for_cells(tmp.path(), 3);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = std::fs::read_to_string(dir.join("cells.jsonl")).unwrap();
    let ended = before.lines().count();
    assert!(
        (3..CELLS * INVOCATIONS).contains(&ended),
        "{ended} invocations ended before the kill"
    );
    let id = dir.file_name().unwrap().to_str().unwrap().to_string();

    let runs = json(&wasmeter(&["runs", "--json"], tmp.path()));
    assert_eq!(runs[0]["status"], "interrupted");
    let shown = json(&wasmeter(&["show", &id, "--json"], tmp.path()));
    let with_stats = shown["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| !c["stats"].is_null())
        .count();
    assert!(with_stats >= 3, "finished cells are readable: {shown}");

    let out = wasmeter(&["run", "--resume", &id, "--json"], tmp.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let s = json(&out);
    assert_eq!(s["run_id"], id.as_str());
    assert_eq!(s["cells"].as_array().unwrap().len(), CELLS);
    assert!(
        s["cells"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| { c["stats"]["n"] == INVOCATIONS * RUNS && c["invocations"] == INVOCATIONS }),
        "{s}"
    );
    // The cells that had ended were kept as they were, not run again.
    let after = std::fs::read_to_string(dir.join("cells.jsonl")).unwrap();
    assert!(
        after.starts_with(&before),
        "finished cells were rewritten:\n{before}\n---\n{after}"
    );
    assert_eq!(after.lines().count(), CELLS * INVOCATIONS);
    let runs = json(&wasmeter(&["runs", "--json"], tmp.path()));
    assert_eq!(runs[0]["status"], "complete");
    let out = wasmeter(&["run", "--resume", &id], tmp.path());
    assert_eq!(
        out.status.code(),
        Some(2),
        "a complete run cannot be resumed"
    );
}

#[test]
fn ctrl_c_stops_cleanly_and_saves() {
    let tmp = tempfile::tempdir().unwrap();
    let mut child = start(tmp.path());
    let dir = wait_for_cells(tmp.path(), 2);
    let st = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let status = child.wait().unwrap();
    assert_eq!(
        status.code(),
        Some(1),
        "a cancelled run is not a clean success"
    );
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("meta.json")).unwrap()).unwrap();
    assert_eq!(meta["status"], "cancelled");
    assert!(
        dir.join("measurements.parquet").is_file(),
        "compacted on the way out"
    );
    let id = dir.file_name().unwrap().to_str().unwrap();
    let out = wasmeter(&["run", "--resume", id, "--json"], tmp.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["cells"].as_array().unwrap().len(), CELLS);
}
