//! Helpers shared by the end-to-end tests.
#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

/// Runs wasmeter with the repository's suites, no user config, and `--results`.
pub fn wasmeter(args: &[&str], results: &Path) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_wasmeter"))
        .args(args)
        .arg("--results")
        .arg(results)
        .env("WASMETER_SUITES", suites_root())
        .env("WASMETER_CONFIG", "/dev/null")
        .output()
        .expect("run wasmeter")
}

/// wasmeter with the repository's suites, no user config, a private cache
/// (`DIR/cache`, where built suites go) and results (`DIR/results`), and `env` added.
pub fn wasmeter_cached(args: &[&str], dir: &Path, env: &[(&str, &str)]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_wasmeter"))
        .args(args)
        .arg("--results")
        .arg(dir.join("results"))
        .env("WASMETER_SUITES", suites_root())
        .env("WASMETER_CONFIG", "/dev/null")
        .env("WASMETER_CACHE", dir.join("cache"))
        // The installed runtime CLIs stay where scripts/install-runtimes put them.
        .env(
            "WASMETER_RUNTIMES_DIR",
            wasmeter_core::runtime::runtimes_dir(),
        )
        .envs(env.iter().copied())
        .output()
        .expect("run wasmeter")
}

/// stdout as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// The repository's suites directory.
pub fn suites_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites")
}

/// stdout as JSON, or a panic showing both streams.
pub fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): stdout={} stderr={}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// stderr as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// Runs wasmeter on bad input: it must exit 2 with one line on stderr, which is returned.
pub fn refused(args: &[&str], results: &Path) -> String {
    let out = wasmeter(args, results);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    err
}

/// Each cell's failure message, or "ok", in plan order.
pub fn failures(v: &Value) -> Vec<String> {
    v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["failure"].as_str().unwrap_or("ok").to_string())
        .collect()
}

/// Asserts that every cell of a run's JSON summary finished, showing the failures and
/// wasmeter's stderr when not.
pub fn assert_all_ok(summary: &Value, out: &Output) {
    let f = failures(summary);
    assert!(f.iter().all(|f| f == "ok"), "{f:?}\n{}", stderr(out));
}

/// Flags of a short run (one invocation of one run, no warm-up, JSON) on `runtimes`, then
/// `extra`.
pub fn once<'a>(runtimes: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "--runtimes",
        runtimes,
        "--warmup",
        "0",
        "--runs",
        "1",
        "--invocations",
        "1",
    ];
    v.extend_from_slice(extra);
    v.push("--json");
    v
}

/// The runtimes of `ids` that `wasmeter runtimes` does not list as available.
pub fn not_installed<'a>(ids: &[&'a str], results: &Path) -> Vec<&'a str> {
    let listed = json(&wasmeter(&["runtimes", "--json"], results));
    ids.iter()
        .copied()
        .filter(|id| {
            !listed
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["id"] == *id && r["unavailable"].is_null())
        })
        .collect()
}

/// True when a test must skip because these runtimes are not installed (it says which);
/// under CI a missing runtime fails instead, so a failed install cannot pass silently.
pub fn runtimes_missing(missing: &[&str]) -> bool {
    if missing.is_empty() {
        return false;
    }
    assert!(
        std::env::var("CI").is_err(),
        "CI must have these runtimes (scripts/install-runtimes): {missing:?}"
    );
    eprintln!("skipping: runtimes not installed: {missing:?}");
    true
}

/// Builds a C source for wasm32-wasi with clang-19 (as `suites/*/build.sh` do) into `out`;
/// `false` when clang-19 or wasi-libc is missing (said), which fails under CI.
pub fn wasi_cc(src: &Path, out: &Path) -> bool {
    let built = std::process::Command::new("clang-19")
        .args(["--target=wasm32-wasi", "-O2", "-Wl,--strip-all"])
        .arg(src)
        .arg("-o")
        .arg(out)
        .output();
    match built {
        Ok(o) if o.status.success() => true,
        other => {
            let why = match other {
                Ok(o) => String::from_utf8_lossy(&o.stderr).to_string(),
                Err(e) => e.to_string(),
            };
            assert!(
                std::env::var("CI").is_err(),
                "CI must build {} with clang-19 (scripts/test installs it): {why}",
                src.display()
            );
            eprintln!("skipping: clang-19 for wasm32-wasi is not installed: {why}");
            false
        }
    }
}

/// A file of the end-to-end tests' data.
pub fn test_data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// `wasmeter export RUNS… --format FORMAT -o OUT`, which must succeed.
pub fn export_runs(results: &Path, runs: &[&str], format: &str, out: &Path) {
    let mut args = vec!["export"];
    args.extend_from_slice(runs);
    args.extend(["--format", format, "-o", out.to_str().unwrap()]);
    let ex = wasmeter(&args, results);
    assert!(ex.status.success(), "{}", stderr(&ex));
}

/// `wasmeter export latest --format FORMAT -o OUT`, which must succeed.
pub fn export_latest(results: &Path, format: &str, out: &Path) {
    export_runs(results, &["latest"], format, out);
}

/// The latest run in `results`, exported as JSON.
pub fn exported(results: &Path) -> Value {
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("export.json");
    export_latest(results, "json", &file);
    serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap()
}

/// A cell of a run's JSON summary by runtime and test: its failure, or "ok".
pub fn outcome(summary: &Value, rt: &str, test: &str) -> String {
    summary["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["runtime"] == rt && c["test"] == test)
        .map(|c| c["failure"].as_str().unwrap_or("ok").to_string())
        .unwrap_or_else(|| panic!("no cell {rt} × {test}: {summary}"))
}

/// wasmeter with the suites under `dir/suites`, results in `dir/results`, no user config.
pub fn with_own_suites(dir: &Path, args: &[&str]) -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_wasmeter"));
    c.args(args)
        .arg("--results")
        .arg(dir.join("results"))
        .env("WASMETER_SUITES", dir.join("suites"))
        .env("WASMETER_CONFIG", "/dev/null");
    c
}

/// meta.json of the newest run saved in `results`, as JSON.
pub fn latest_meta(results: &Path) -> Value {
    let run = wasmeter_core::store::list_runs(results).unwrap()[0]
        .dir
        .clone();
    serde_json::from_slice(&std::fs::read(run.join("meta.json")).unwrap()).unwrap()
}
