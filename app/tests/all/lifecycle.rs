//! The lifecycle suite end to end: a real run on real engines, every measurement saved with
//! sane values, the runtimes it does not apply to left out, and every view of the run.

use crate::common::{json, stderr, wasmeter};
use serde_json::Value;

const PHASES: [&str; 7] = [
    "compile",
    "load",
    "instantiate",
    "first_instantiate",
    "call",
    "first_call",
    "teardown",
];
const METRICS: [&str; 2] = ["rss_per_instance_bytes", "instances_per_sec"];

fn cell<'a>(summary: &'a Value, rt: &str, test: &str) -> &'a Value {
    summary["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["runtime"] == rt && c["test"] == test)
        .unwrap_or_else(|| panic!("no cell {rt} × {test}"))
}

fn median(c: &Value, key: &str) -> f64 {
    let v = if METRICS.contains(&key) {
        &c["metrics"][key]["median"]
    } else {
        &c["phase_stats"][key]["median"]
    };
    v.as_f64()
        .unwrap_or_else(|| panic!("{} × {}: no {key} in {c}", c["runtime"], c["test"]))
}

#[test]
fn lifecycle_run_measures_every_phase_and_every_view_shows_it() {
    let tmp = tempfile::tempdir().unwrap();
    let rts = [
        "wasmtime-pooling",
        "wasmtime-pooling-nocow",
        "wasmer-cranelift",
    ];
    let out = wasmeter(
        &[
            "run",
            "--suite",
            "lifecycle",
            "--tests",
            "hello,heap-1m-sparse,heap-16m-dense",
            "--runtimes",
            &format!("native,{}", rts.join(",")),
            "--warmup",
            "0",
            "--runs",
            "3",
            "--invocations",
            "1",
            "--json",
        ],
        tmp.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    // native is not applicable: said, not run, not a failure.
    assert!(
        stderr(&out)
            .contains("n/a (not run): native — the lifecycle suite drives an engine in-process"),
        "{}",
        stderr(&out)
    );
    let s = json(&out);
    assert_eq!(s["runtimes"], serde_json::json!(rts));
    let id = s["run_id"].as_str().unwrap().to_string();

    for rt in rts {
        for test in ["hello", "heap-1m-sparse", "heap-16m-dense"] {
            let c = cell(&s, rt, test);
            assert!(c["failure"].is_null(), "{rt} × {test}: {}", c["failure"]);
            assert_eq!(c["primary_phase"], "instantiate");
            for key in PHASES.iter().chain(&METRICS) {
                let st = if METRICS.contains(key) {
                    &c["metrics"][key]
                } else {
                    &c["phase_stats"][key]
                };
                assert_eq!(st["n"], 3, "{rt} × {test} × {key}: {st}");
                assert!(st["p99"].as_f64().unwrap() >= st["median"].as_f64().unwrap());
            }
            let inst = median(c, "instantiate");
            let call = median(c, "call");
            assert!(inst > 0.0 && call > 0.0, "{rt} × {test}");
            assert!(
                call < inst,
                "{rt} × {test}: call {call} ns ≥ instantiate {inst} ns"
            );
            assert!(
                median(c, "compile") > inst,
                "{rt} × {test}: compiling is dearer"
            );
            assert!(median(c, "instances_per_sec") > 0.0);
        }
        let hello = cell(&s, rt, "hello");
        assert!(
            median(hello, "first_instantiate") > median(hello, "instantiate"),
            "{rt}: the first instance of a process pays its set-up"
        );
    }
    // Copying 16 MiB of data per instance (no copy-on-write) dwarfs an empty instance, and
    // every page of it stays resident; copy-on-write maps it instead.
    let nocow = |t| median(cell(&s, "wasmtime-pooling-nocow", t), "instantiate");
    let cow = |t| median(cell(&s, "wasmtime-pooling", t), "instantiate");
    assert!(nocow("heap-16m-dense") > 20.0 * nocow("hello"));
    assert!(nocow("heap-16m-dense") > 10.0 * cow("heap-16m-dense"));
    let rss = |rt, t| median(cell(&s, rt, t), "rss_per_instance_bytes");
    assert!(rss("wasmtime-pooling-nocow", "heap-16m-dense") > 15.0 * (1 << 20) as f64);
    assert!(rss("wasmtime-pooling", "heap-16m-dense") < (1 << 20) as f64);
    let sparse = rss("wasmer-cranelift", "heap-1m-sparse");
    assert!(
        sparse > 100.0 * 1024.0 && sparse < 400.0 * 1024.0,
        "one page in eight of 1 MiB resident: {sparse}"
    );

    // show: per-operation figures, the heap view, and native as n/a.
    let out = wasmeter(&["show", &id, "--phases"], tmp.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    for want in [
        "median (p99)",
        "first instantiate",
        "instantiate vs heap",
        "teardown vs heap",
        "memory/instance vs heap",
        "wasmtime-pooling-nocow dense",
        "wasmer-cranelift sparse",
        "16 MiB",
        "n/a (not run): native",
    ] {
        assert!(text.contains(want), "no '{want}' in:\n{text}");
    }
    assert!(!text.contains("geomean"), "{text}");

    // Exports carry the same measurements.
    let out = wasmeter(&["export", &id, "--format", "csv", "-o", "-"], tmp.path());
    let csv = String::from_utf8_lossy(&out.stdout);
    assert!(
        csv.contains(",wasmer-cranelift,hello,call,wall,3,"),
        "{csv}"
    );
    assert!(
        csv.contains(",hello,instantiate,rss_per_instance_bytes,3,"),
        "{csv}"
    );
    assert!(!csv.contains(",execute,"), "{csv}");
    let out = wasmeter(&["export", &id, "--format", "md", "-o", "-"], tmp.path());
    let md = String::from_utf8_lossy(&out.stdout);
    // The tables of `show --phases`: every measurement of `hello`, each against heap size.
    assert!(
        md.contains("| first call |")
            && md.contains("| first call vs heap |")
            && md.contains("| 16 MiB |")
            && md.contains("| wasmtime-pooling-nocow dense |"),
        "{md}"
    );
    let out = wasmeter(&["export", &id, "--format", "json", "-o", "-"], tmp.path());
    let series = json(&out)["runs"][0]["heap_series"].clone();
    let inst: Vec<&Value> = series
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["measure"] == "instantiate")
        .collect();
    // dense and sparse per runtime, each with its one heap size here.
    assert_eq!(inst.len(), 6, "{series}");

    // A diff of the run with itself is refused; against runtimes inside it, by phase.
    let out = wasmeter(
        &[
            "diff",
            &id,
            "--runtimes",
            "wasmtime-pooling,wasmtime-pooling-nocow",
            "--json",
        ],
        tmp.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let d = json(&out);
    let phases: Vec<&str> = d["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["test"] == "hello")
        .map(|r| r["phase"].as_str().unwrap())
        .collect();
    assert_eq!(phases.len(), PHASES.len(), "{phases:?}");
    for p in PHASES {
        assert!(phases.contains(&p), "{phases:?}");
    }
}

#[test]
fn lifecycle_refuses_only_inapplicable_runtimes() {
    let tmp = tempfile::tempdir().unwrap();
    let out = wasmeter(
        &["run", "--suite", "lifecycle", "--runtimes", "native"],
        tmp.path(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no selected runtime can run the lifecycle suite"),
        "{}",
        stderr(&out)
    );
    let out = wasmeter(&["suites", "--json"], tmp.path());
    let v = json(&out);
    let kinds: Vec<(&str, &str)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["kind"].as_str().unwrap()))
        .collect();
    assert!(kinds.contains(&("lifecycle", "lifecycle")) && kinds.contains(&("compute", "command")));
}
