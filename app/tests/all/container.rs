//! The gateway's container variant end to end: the native gateway in a real OCI container
//! (podman here, or docker), its port published on loopback, measured beside the native
//! gateway; the container's creation counted in its cold start; no container left behind.

use crate::common::{exported, json, not_installed, outcome, runtimes_missing, stderr, wasmeter};
use serde_json::Value;

/// The tests here count every container wasmeter made on the machine: one at a time.
static ENGINE: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ENGINE.lock().unwrap_or_else(|p| p.into_inner())
}

/// The containers wasmeter made that still exist, by name.
fn ours(engine: &str) -> Vec<String> {
    listed(engine, &["-a"])
}

/// Those of [`ours`] that are running (not just created, which a killed client's
/// `--rm` may still take away).
fn ours_running(engine: &str) -> Vec<String> {
    listed(engine, &["--filter", "status=running"])
}

fn listed(engine: &str, filter: &[&str]) -> Vec<String> {
    let out = std::process::Command::new(engine)
        .arg("ps")
        .args(filter)
        .args(["--filter", "label=wasmeter.owner", "--format", "{{.Names}}"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn the_native_gateway_in_a_container_is_measured_and_removed() {
    let Some((_one, tmp, engine)) = engine_here() else {
        return;
    };
    // `proxy` too: the gateway in its container reaches the upstream in a sidecar.
    let load = "--invocations 2 --concurrency 1,8 --duration 0.4 --latency 0.3";
    three_requests(tmp.path(), "container", load);
    // Figures: through the published port, with the container's processes sampled.
    let v = exported(tmp.path());
    let (native, boxed) = (
        http_cell(&v, "native", "hello"),
        http_cell(&v, "container", "hello"),
    );
    for l in http_cell(&v, "container", "proxy")["levels"]
        .as_array()
        .unwrap()
    {
        assert!(l["rps"]["median"].as_f64().unwrap() > 100.0, "{l}");
        assert_eq!(l["errors"].as_f64().unwrap(), 0.0, "{l}");
    }
    let cold = |c: &Value| c["cold_start"]["median"].as_f64().unwrap();
    // Creating and starting a container costs more than starting a process.
    assert!(cold(&boxed) > cold(&native), "{boxed}\n{native}");
    let native_cpu: f64 = native["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["cpu_ns_per_1k"].as_f64().unwrap())
        .fold(f64::INFINITY, f64::min);
    for l in boxed["levels"].as_array().unwrap() {
        assert!(l["rps"]["median"].as_f64().unwrap() > 100.0, "{l}");
        assert_eq!(l["errors"].as_f64().unwrap(), 0.0, "{l}");
        // The gateway inside counts, not only the engine's client: its memory, and at
        // least half the CPU per request of the same gateway outside.
        assert!(l["rss_bytes"].as_f64().unwrap() > 5e6, "{l}");
        let cpu = l["cpu_ns_per_1k"].as_f64().unwrap();
        assert!(
            cpu > native_cpu / 2.0,
            "container {cpu} ns/1k vs native {native_cpu}: {l}"
        );
    }
    // What the host needed (flags the probe found) is kept with the cell and shown.
    let notes: Vec<&str> = boxed["notes"]
        .as_array()
        .map(|n| n.iter().map(|v| v.as_str().unwrap()).collect())
        .unwrap_or_default();
    assert!(native["notes"].is_null(), "{native}");
    let shown = wasmeter(&["show", "latest"], tmp.path());
    let shown = String::from_utf8_lossy(&shown.stdout);
    for n in &notes {
        assert!(n.starts_with("adapted to this host: "), "{n}");
        assert!(
            shown.contains(&format!("container × hello: {n}")),
            "{n}\n{shown}"
        );
    }
    eprintln!("container notes: {notes:?}");
    // Every container is gone when the run ends.
    let left = ours(engine);
    assert!(left.is_empty(), "containers left: {left:?}");
}

/// Runs `hello`, `state` and `proxy` on native and `variant` with `load`'s settings, and
/// checks every cell answered right.
fn three_requests(dir: &std::path::Path, variant: &str, load: &str) {
    let runtimes = format!("native,{variant}");
    let head = ["run", "--suite", "gateway", "--tests", "hello,state,proxy"];
    let load: Vec<&str> = load.split(' ').collect();
    let args = [
        &head[..],
        &["--runtimes", &runtimes, "--runs", "1", "--json"],
        &load,
    ]
    .concat();
    let out = wasmeter(&args, dir);
    let summary = json(&out);
    for test in ["hello", "state", "proxy"] {
        for rt in ["native", variant] {
            assert_eq!(
                outcome(&summary, rt, test),
                "ok",
                "{rt} × {test}\n{}",
                stderr(&out)
            );
        }
    }
}

/// The exported cell of a runtime and test in the latest run.
fn http_cell(v: &Value, rt: &str, test: &str) -> Value {
    v["runs"][0]["http"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["runtime"] == rt && c["test"] == test)
        .unwrap_or_else(|| panic!("no {rt} × {test} in {v}"))
        .clone()
}

/// The guest, built natively, in a fresh container per request: every request answered
/// right (`state`'s counter kept by the host, `proxy` forwarded by it), far slower than
/// the native gateway, with the containers' own processes (the engine's monitor and the
/// guest) counted in its CPU, and none left.
#[test]
fn the_guest_in_a_container_per_request_is_measured_and_removed() {
    let Some((_one, tmp, engine)) = engine_here() else {
        return;
    };
    let load = "--invocations 1 --concurrency 1,4 --duration 1.5 --latency 0.5";
    three_requests(tmp.path(), "container-per-request", load);
    let v = exported(tmp.path());
    let (native, boxed) = (
        http_cell(&v, "native", "hello"),
        http_cell(&v, "container-per-request", "hello"),
    );
    let min_cpu = |c: &Value| {
        c["levels"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|l| l["cpu_ns_per_1k"].as_f64())
            .fold(f64::INFINITY, f64::min)
    };
    // A container per request: its latency is a container's start, tens of milliseconds
    // at least, where the native gateway answers in well under one.
    let latency = |c: &Value| c["p50_ns"].as_f64().unwrap();
    assert!(latency(&boxed) > 10e6, "{boxed}");
    assert!(
        latency(&boxed) > 50.0 * latency(&native),
        "{boxed}\n{native}"
    );
    for l in boxed["levels"].as_array().unwrap() {
        assert!(l["rps"]["median"].as_f64().unwrap() > 0.5, "{l}");
        assert_eq!(l["errors"].as_f64().unwrap(), 0.0, "{l}");
        // The engine's client, its monitor and the guest, per request.
        assert!(l["rss_bytes"].as_f64().unwrap() > 20e6, "{l}");
    }
    // CPU per request: the engine's client alone is ~60 ms here; with its monitor and the
    // guest (adopted by the gateway) more, and far more than the native gateway's.
    let cpu = min_cpu(&boxed);
    assert!(
        cpu > 1e3 * min_cpu(&native),
        "{cpu} vs {}",
        min_cpu(&native)
    );
    assert!(cpu / 1e3 > 20e6, "{cpu} ns per 1k requests");
    let left = ours(engine);
    assert!(left.is_empty(), "containers left: {left:?}");
}

/// `kill -9` of wasmeter and its workers (the whole process group) mid-cell leaves the
/// container running, owned by a dead process; resuming the run clears it before anything
/// else, finishes the run, and leaves none behind.
#[test]
fn a_container_left_by_a_killed_run_is_removed_when_it_resumes() {
    use std::os::unix::process::CommandExt;
    let Some((_one, tmp, engine)) = engine_here() else {
        return;
    };
    let results = tmp.path().join("results");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_wasmeter"))
        .args([
            "run",
            "--suite",
            "gateway",
            "--tests",
            "hello",
            "--runtimes",
            "container",
            "--warmup",
            "0",
            "--runs",
            "2",
            "--invocations",
            "1",
            "--concurrency",
            "1",
            "--duration",
            "4",
            "--latency",
            "0.3",
            "--results",
        ])
        .arg(&results)
        .env("WASMETER_SUITES", crate::common::suites_root())
        .env("WASMETER_CONFIG", "/dev/null")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap();
    // Until the gateway's container runs (the image may be made first): killed while it
    // was only created, its client's `--rm` could still remove it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(180);
    while ours_running(engine).is_empty() {
        assert!(std::time::Instant::now() < deadline, "no container started");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    std::thread::sleep(std::time::Duration::from_millis(1000));
    let pgid = child.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-KILL", "--", &format!("-{pgid}")])
        .status()
        .unwrap();
    assert!(killed.success());
    child.wait().unwrap();
    let left = ours(engine);
    assert!(
        !left.is_empty(),
        "the kill left no container: nothing to test"
    );
    let dir = std::fs::read_dir(&results)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let id = dir.file_name().unwrap().to_str().unwrap().to_string();
    let out = wasmeter(&["run", "--resume", &id, "--json"], &results);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(outcome(&json(&out), "container", "hello"), "ok");
    let after = ours(engine);
    assert!(
        after.is_empty(),
        "containers left after the resumed run: {after:?} (before: {left:?})"
    );
}

/// The lock, the scratch directory and the engine of a container test.
type Here = (
    std::sync::MutexGuard<'static, ()>,
    tempfile::TempDir,
    &'static str,
);

/// One test at a time, a scratch directory and the engine (`None`, said, when the machine
/// has none: allowed outside CI only).
fn engine_here() -> Option<Here> {
    let one = one_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    if runtimes_missing(&not_installed(&["container"], tmp.path())) {
        return None;
    }
    let engine = engine_of(tmp.path());
    Some((one, tmp, engine))
}

/// `docker` when the runtimes row says so, else `podman`.
fn engine_of(results: &std::path::Path) -> &'static str {
    let listed = json(&wasmeter(&["runtimes", "--json"], results));
    let row = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "container")
        .unwrap()
        .clone();
    if row["version"].as_str().unwrap().starts_with("docker") {
        "docker"
    } else {
        "podman"
    }
}

/// A container engine's CLI that fails one way, put first on PATH as both `docker` (whose
/// engine never answers) and `podman`: `import` fails for `image`, the probe's start for
/// `refuse`, and the gateway's start for `port`.
const FAKE_ENGINE: &str = r#"#!/bin/sh
case "$0" in *docker) exit 1;; esac
case "$1" in
  version) echo "4.3.1-fake"; exit 0;;
  image) exit 1;;
  import)
    cat >/dev/null
    if [ "$FAKE_MODE" = image ]; then echo "Error: writing blob: no space left on device" >&2; exit 125; fi
    exit 0;;
  run)
    for a; do last=$a; done
    if [ "$last" = "--version" ]; then
      if [ "$FAKE_MODE" = refuse ]; then echo "Error: OCI runtime error: runc: permission denied" >&2; exit 126; fi
      exit 0
    fi
    cat >/dev/null
    echo "Error: rootlessport listen tcp 127.0.0.1:8080: bind: address already in use" >&2
    exit 126;;
  *) exit 0;;
esac
"#;

#[test]
fn an_engine_that_fails_fails_only_the_container_cell_with_one_line() {
    use std::os::unix::fs::PermissionsExt;
    for (mode, words) in [
        (
            "image",
            "the image build failed (podman import): Error: writing blob: no space left on device",
        ),
        (
            "refuse",
            "the container engine refused to start it: Error: OCI runtime error: runc: permission denied",
        ),
        ("port", "address already in use"),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let bin = tmp.path().join("bin");
        std::fs::create_dir(&bin).unwrap();
        for name in ["podman", "docker"] {
            let p = bin.join(name);
            std::fs::write(&p, FAKE_ENGINE).unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let load = [
            "--concurrency",
            "1",
            "--duration",
            "0.3",
            "--latency",
            "0.2",
            "--ready-timeout",
            "5",
        ];
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_wasmeter"))
            .args(["run", "--suite", "gateway", "--tests", "hello"])
            .args(crate::common::once("native,container", &load))
            .arg("--results")
            .arg(tmp.path().join("results"))
            .env("WASMETER_SUITES", crate::common::suites_root())
            .env("WASMETER_CONFIG", "/dev/null")
            .env("PATH", path)
            .env("FAKE_MODE", mode)
            .output()
            .unwrap();
        let summary = json(&out);
        assert_eq!(
            outcome(&summary, "native", "hello"),
            "ok",
            "{mode}: {}",
            stderr(&out)
        );
        let failure = outcome(&summary, "container", "hello");
        assert!(failure.contains(words), "{mode}: {failure}");
        assert_eq!(failure.lines().count(), 1, "{mode}: {failure}");
        assert_eq!(
            out.status.code(),
            Some(1),
            "{mode}: a failed cell fails the run"
        );
    }
}
