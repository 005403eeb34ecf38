//! The gateway's container variant end to end: the native gateway in a real OCI container
//! (podman here, or docker), its port published on loopback, measured beside the native
//! gateway; the container's creation counted in its cold start; no container left behind.

use crate::common::{exported, json, not_installed, outcome, runtimes_missing, stderr, wasmeter};
use serde_json::Value;

/// The containers wasmeter made that still exist, by name.
fn ours(engine: &str) -> Vec<String> {
    let out = std::process::Command::new(engine)
        .args([
            "ps",
            "-a",
            "--filter",
            "label=wasmeter.owner",
            "--format",
            "{{.Names}}",
        ])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn the_native_gateway_in_a_container_is_measured_and_removed() {
    let tmp = tempfile::tempdir().unwrap();
    if runtimes_missing(&not_installed(&["container"], tmp.path())) {
        return;
    }
    let listed = json(&wasmeter(&["runtimes", "--json"], tmp.path()));
    let row = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "container")
        .unwrap()
        .clone();
    let engine = if row["version"].as_str().unwrap().starts_with("docker") {
        "docker"
    } else {
        "podman"
    };
    let out = wasmeter(
        &[
            "run",
            "--suite",
            "gateway",
            "--tests",
            "hello,state,proxy",
            "--runtimes",
            "native,container",
            "--runs",
            "1",
            "--invocations",
            "2",
            "--concurrency",
            "1,8",
            "--duration",
            "0.4",
            "--latency",
            "0.3",
            "--json",
        ],
        tmp.path(),
    );
    let summary = json(&out);
    for test in ["hello", "state"] {
        for rt in ["native", "container"] {
            assert_eq!(
                outcome(&summary, rt, test),
                "ok",
                "{rt} × {test}\n{}",
                stderr(&out)
            );
        }
    }
    let proxy = outcome(&summary, "container", "proxy");
    assert!(proxy.contains("cannot reach"), "{proxy}");
    // Figures: through the published port, with the container's processes sampled.
    let v = exported(tmp.path());
    let cell = |rt: &str| {
        v["runs"][0]["http"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["runtime"] == rt && c["test"] == "hello")
            .unwrap()
            .clone()
    };
    let (native, boxed) = (cell("native"), cell("container"));
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
    // Every container is gone when the run ends.
    let left = ours(engine);
    assert!(left.is_empty(), "containers left: {left:?}");
}
