//! history: a cell's figure run after run through the command, on runs written with core's
//! synthetic writer (30 runs a day apart; one cell steps +20 % from run 15 on one machine).

use crate::commands::{app, invoke};
use serde_json::{Value, json};
use std::path::Path;
use wasmeter_core::machine::Machine;
use wasmeter_core::store::{Synthetic, write_synthetic};

fn machine(cpu: &str, arch: &str, fingerprint: &str) -> Machine {
    Machine {
        cpu_model: cpu.into(),
        cores: 2,
        os: "Debian GNU/Linux 13".into(),
        kernel: "6.1.0".into(),
        governor: None,
        memory_bytes: 8 << 30,
        arch: arch.into(),
        fingerprint: fingerprint.into(),
        cpus_allowed: None,
        cpu_quota: None,
        load_unreadable: None,
    }
}

/// Machine A's 30 runs with the step, machine B's 30 without; A's ids.
fn two_machines(results: &Path) -> Vec<String> {
    let a = machine("CPU A", "x86_64", "fp-a0123");
    let b = machine("Imaginary ARM Neoverse", "aarch64", "fp-b4567");
    let ids = write_synthetic(results, &Synthetic::daily(a, "a", true)).unwrap();
    write_synthetic(results, &Synthetic::daily(b, "b", false)).unwrap();
    ids
}

fn cell(extra: Value) -> Value {
    let mut body = json!({ "suite": "scale", "test": "t001", "runtime": "rt001" });
    body.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    body
}

fn series<'a>(h: &'a Value, fingerprint: &str) -> &'a Value {
    h["series"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["machine"] == fingerprint)
        .unwrap_or_else(|| panic!("no series of {fingerprint}: {h}"))
}

#[test]
fn a_cells_history_has_its_step_on_its_machine_only() {
    let tmp = tempfile::tempdir().unwrap();
    let ids = two_machines(tmp.path());
    let (_app, w) = app(tmp.path());
    let h = invoke(&w, "history", cell(json!({}))).unwrap();
    assert_eq!(h["runs_read"], 60, "{h}");
    assert_eq!(h["skipped"], json!([]));
    assert_eq!(h["series"].as_array().unwrap().len(), 2, "one per machine");
    let a = series(&h, "fp-a0123");
    assert_eq!(a["suite"], "scale");
    assert_eq!(a["test"], "t001");
    assert_eq!(a["runtime"], "rt001");
    assert_eq!(a["machine_label"], "CPU A x86_64 (Debian GNU/Linux 13)");
    let points = a["points"].as_array().unwrap();
    assert_eq!(points.len(), 30);
    // Oldest first, a day apart, each run's typical time inside its interval.
    for (i, p) in points.iter().enumerate() {
        assert_eq!(p["run"], ids[i].as_str());
        assert_eq!(p["started_unix"], 1_790_000_000.0 + i as f64 * 86_400.0);
        let (v, lo, hi) = (
            p["value"].as_f64().unwrap(),
            p["low"].as_f64().unwrap(),
            p["high"].as_f64().unwrap(),
        );
        assert!(lo < v && v < hi, "{p}");
        let level = if i >= 15 { 4.8e6 } else { 4e6 };
        assert!((v / level - 1.0).abs() < 0.05, "{p}");
        assert_eq!(p["version"], "1.0");
    }
    let changes = a["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(changes[0]["index"], 15);
    let pct = changes[0]["change_pct"].as_f64().unwrap();
    assert!((pct - 20.0).abs() < 3.0, "{pct}");
    assert!(changes[0]["p_value"].as_f64().unwrap() <= 0.01);
    let b = series(&h, "fp-b4567");
    assert_eq!(
        b["machine_label"],
        "Imaginary ARM Neoverse aarch64 (Debian GNU/Linux 13)"
    );
    assert_eq!(b["changes"], json!([]));

    // Asked again (now from core's index): the same answer.
    assert_eq!(invoke(&w, "history", cell(json!({}))).unwrap(), h);
}

#[test]
fn filters_pick_the_series_and_blank_ones_mean_any() {
    let tmp = tempfile::tempdir().unwrap();
    two_machines(tmp.path());
    let (_app, w) = app(tmp.path());
    // By machine: words of its CPU and architecture, or a fingerprint prefix.
    for m in ["aarch64 neoverse", "fp-b"] {
        let h = invoke(&w, "history", cell(json!({ "machine": m }))).unwrap();
        let s = h["series"].as_array().unwrap();
        assert_eq!(s.len(), 1, "{m}: {h}");
        assert_eq!(s[0]["machine"], "fp-b4567");
        assert_eq!(h["runs_read"], 30);
    }
    let h = invoke(&w, "history", cell(json!({ "machine": "CPU A" }))).unwrap();
    assert_eq!(h["series"].as_array().unwrap().len(), 1);
    assert_eq!(h["series"][0]["changes"][0]["index"], 15);
    // Nothing matches: no series, not an error.
    let h = invoke(&w, "history", cell(json!({ "machine": "sparc" }))).unwrap();
    assert_eq!(h["series"], json!([]));
    let h = invoke(&w, "history", cell(json!({ "suite": "compute" }))).unwrap();
    assert_eq!(h["series"], json!([]));
    // Any runtime of t000 on machine A: native, rt001, rt002, each 30 points.
    let h = invoke(
        &w,
        "history",
        json!({ "test": "t000", "runtime": " ", "machine": "fp-a" }),
    )
    .unwrap();
    let runtimes: Vec<&str> = h["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["runtime"].as_str().unwrap())
        .collect();
    assert_eq!(runtimes, ["native", "rt001", "rt002"], "{h}");
    assert!(
        h["series"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["points"].as_array().unwrap().len() == 30 && s["changes"] == json!([]))
    );
}

#[test]
fn no_runs_is_an_empty_history_and_a_bad_results_dir_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let (_app, w) = app(&tmp.path().join("none-yet"));
    let h = invoke(&w, "history", cell(json!({}))).unwrap();
    assert_eq!(h["series"], json!([]));
    assert_eq!(h["runs_read"], 0);

    let file = tmp.path().join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    let (_app, w) = app(&file);
    let err = invoke(&w, "history", cell(json!({}))).unwrap_err();
    assert_eq!(err["code"], "io", "{err}");
    let message = err["message"].as_str().unwrap();
    assert!(
        message.contains("a-file") && !message.contains('\n'),
        "{message}"
    );
}

/// The keys of every object in `v`, dotted by where they are (arrays looked into).
fn shape(v: &Value, at: &str, out: &mut std::collections::BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let here = format!("{at}.{k}");
                out.insert(here.clone());
                shape(x, &here, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| shape(x, at, out)),
        _ => {}
    }
}

/// The page's fixture (web/src/test/fixtures/history.json) has the command's shape.
#[test]
fn the_page_fixture_has_the_commands_shape() {
    let tmp = tempfile::tempdir().unwrap();
    two_machines(tmp.path());
    let (_app, w) = app(tmp.path());
    let h = invoke(&w, "history", cell(json!({}))).unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("web/src/test/fixtures/history.json");
    if std::env::var_os("WASMETER_WRITE_FIXTURES").is_some() {
        let mut h = h.clone();
        h["results"] = json!("results");
        std::fs::write(&path, serde_json::to_string_pretty(&h).unwrap() + "\n").unwrap();
    }
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let (mut want, mut got) = Default::default();
    shape(&h, "", &mut want);
    shape(&fixture, "", &mut got);
    assert_eq!(
        got, want,
        "fixtures/history.json: set WASMETER_WRITE_FIXTURES=1 to write it anew"
    );
}
