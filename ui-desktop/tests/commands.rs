//! The commands through Tauri's mock runtime with the app's real context (so the
//! capability files are checked too), on a real suite, real workers and real files.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tauri::async_runtime::block_on;
use tauri::ipc::{CallbackFn, Channel, InvokeBody, InvokeResponseBody};
use tauri::test::{MockRuntime, get_ipc_response, mock_builder};
use tauri::webview::InvokeRequest;
use tauri::{Manager, WebviewWindow, WebviewWindowBuilder};
use wasmeter_core::runner::WorkerCommand;
use wasmeter_desktop::Workbench;
use wasmeter_desktop::commands::run::{RunSettingsView, start_run};

fn suites() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites")
}

fn app(results: &Path) -> (tauri::App<MockRuntime>, WebviewWindow<MockRuntime>) {
    app_in(results, suites())
}

/// The app over the suites under `suites`.
fn app_in(
    results: &Path,
    suites: PathBuf,
) -> (tauri::App<MockRuntime>, WebviewWindow<MockRuntime>) {
    let worker = WorkerCommand {
        program: PathBuf::from(env!("CARGO_BIN_EXE_wasmeter-desktop")),
        args: vec!["worker".into()],
    };
    let wb = Workbench::new(results.to_path_buf(), suites, worker);
    let app = wasmeter_desktop::builder(mock_builder(), wb)
        .build(tauri::generate_context!())
        .expect("app builds");
    let window = WebviewWindowBuilder::new(&app, "main", Default::default())
        .build()
        .expect("main window");
    (app, window)
}

/// Invokes `cmd` with a JSON body; Ok is the returned JSON, Err the `{code, message}`.
fn invoke(w: &WebviewWindow<MockRuntime>, cmd: &str, body: Value) -> Result<Value, Value> {
    get_ipc_response(
        w,
        InvokeRequest {
            cmd: cmd.into(),
            callback: CallbackFn(0),
            error: CallbackFn(1),
            url: "tauri://localhost".parse().unwrap(),
            body: InvokeBody::Json(body),
            headers: Default::default(),
            invoke_key: tauri::test::INVOKE_KEY.to_string(),
        },
    )
    .map(|b| b.deserialize::<Value>().unwrap())
}

fn wait_idle(wb: &Workbench) {
    let start = Instant::now();
    while wb.busy() {
        assert!(
            start.elapsed() < Duration::from_secs(180),
            "run did not finish"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn catalog_lists_the_real_suites_and_runtimes() {
    let tmp = tempfile::tempdir().unwrap();
    let (_app, w) = app(tmp.path());
    let suites = invoke(&w, "list_suites", json!({})).unwrap();
    let compute = suites
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "compute")
        .expect("compute suite");
    assert_eq!(compute["kind"], "command");
    let kinds: Vec<(&str, &str)> = suites
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["kind"].as_str().unwrap()))
        .collect();
    for want in [
        ("lifecycle", "lifecycle"),
        ("gateway", "gateway"),
        ("servers", "servers"),
    ] {
        assert!(kinds.contains(&want), "{kinds:?}");
    }
    let tests: Vec<&str> = compute["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        tests.contains(&"sha256") && tests.contains(&"crc32"),
        "{tests:?}"
    );

    let runtimes = invoke(&w, "list_runtimes", json!({})).unwrap();
    let ids: Vec<&str> = runtimes
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    for id in ["native", "wasmtime", "wasmtime-pooling", "wasmer-cranelift"] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
}

/// A suite whose manifest does not load is listed with its error and no tests; the
/// others list as usual.
#[test]
fn catalog_lists_a_broken_suite_with_its_error() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("suites");
    for (name, manifest) in [
        (
            "fine",
            "[suite]\nname = \"fine\"\nkind = \"lifecycle\"\n[[test]]\nname = \"hello\"\n",
        ),
        (
            "evil",
            "[suite]\nname = \"evil\"\n[[test]]\nname = \"t\"\nsource = \"/etc/passwd\"\n",
        ),
    ] {
        std::fs::create_dir_all(root.join(name)).unwrap();
        std::fs::write(root.join(name).join("suite.toml"), manifest).unwrap();
    }
    let (_app, w) = app_in(tmp.path(), root.clone());
    let suites = invoke(&w, "list_suites", json!({})).unwrap();
    let listed: Vec<(&str, usize, Option<&str>)> = suites
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap(),
                s["tests"].as_array().unwrap().len(),
                s["error"].as_str(),
            )
        })
        .collect();
    let why = format!(
        "{}:5: 'source' path '/etc/passwd' is absolute: paths are relative to the suite folder and stay inside it",
        root.join("evil/suite.toml").display()
    );
    assert_eq!(listed, [("fine", 1, None), ("evil", 0, Some(why.as_str()))]);
    assert_eq!(suites[0]["kind"], "lifecycle");
}

#[test]
fn a_run_streams_events_saves_and_can_be_loaded_diffed_and_deleted() {
    let tmp = tempfile::tempdir().unwrap();
    let (app, w) = app(tmp.path());
    let events: Arc<Mutex<Vec<Value>>> = Arc::default();
    let sink = events.clone();
    let channel = Channel::new(move |body: InvokeResponseBody| {
        let batch: Vec<Value> = body.deserialize().unwrap();
        sink.lock().unwrap().extend(batch);
        Ok(())
    });
    // Two worker processes a cell, interleaved: the least a diff gives a verdict on.
    let settings: RunSettingsView = serde_json::from_value(json!({
        "suite": "compute", "tests": ["crc32"], "runtimes": ["native", "wasmtime"],
        "runs": 2, "warmup": 0, "invocations": 2, "order": "interleaved",
        "label": "desktop test"
    }))
    .unwrap();
    block_on(start_run(app.state(), settings.clone(), channel.clone())).expect("starts");
    // A second run while the first is in flight is refused with `busy`.
    let err = block_on(start_run(app.state(), settings, channel)).unwrap_err();
    assert_eq!(err.code, "busy");
    wait_idle(&app.state::<Workbench>());

    let events = events.lock().unwrap().clone();
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(types.first(), Some(&"planned"), "{types:?}");
    assert_eq!(types.last(), Some(&"runFinished"), "{types:?}");
    assert_eq!(
        events[0]["cells"],
        json!([["native", "crc32"], ["wasmtime", "crc32"]])
    );
    // Over both invocations of a cell.
    assert_eq!(events[0]["iterationsPerCell"], 4);
    assert_eq!(events[0]["invocations"], 2);
    // A cell starts once per invocation; each of its invocations once.
    let mut started: Vec<(u64, u64)> = events
        .iter()
        .filter(|e| e["type"] == "cellStarted")
        .map(|e| {
            (
                e["index"].as_u64().unwrap(),
                e["invocation"].as_u64().unwrap(),
            )
        })
        .collect();
    started.sort();
    assert_eq!(started, [(0, 0), (0, 1), (1, 0), (1, 1)]);
    let finished: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "cellFinished")
        .collect();
    assert_eq!(finished.len(), 2);
    assert!(
        finished.iter().all(|e| e["failure"].is_null()),
        "{finished:?}"
    );
    let measured = events
        .iter()
        .filter(|e| e["type"] == "measurement")
        .flat_map(|e| e["rows"].as_array().unwrap())
        .filter(|r| r["metric"] == "wall_ns" && r["value"].as_f64().unwrap() > 0.0)
        .count();
    assert!(
        measured >= 8,
        "wall times of 2 cells × 2 invocations × 2 runs, got {measured}"
    );
    assert_eq!(events.last().unwrap()["status"], "complete");
    let run_id = events[0]["runId"].as_str().unwrap().to_string();

    let runs = invoke(&w, "list_runs", json!({})).unwrap();
    assert_eq!(runs.as_array().unwrap().len(), 1);
    assert_eq!(runs[0]["id"], run_id.as_str());
    assert_eq!(runs[0]["meta"]["label"], "desktop test");
    assert_eq!(runs[0]["meta"]["status"], "complete");
    let saved = &runs[0]["meta"]["settings"];
    assert_eq!(
        (&saved["invocations"], &saved["order"], &saved["runs"]),
        (&json!(2), &json!("interleaved"), &json!(2))
    );

    let report = invoke(&w, "load_run", json!({ "id": run_id })).unwrap();
    let cells = report["runs"][0]["summary"]["cells"].as_array().unwrap();
    let wasmtime = cells.iter().find(|c| c["runtime"] == "wasmtime").unwrap();
    let rel = wasmtime["relative"].as_f64().unwrap();
    assert!(
        rel > 0.3 && rel < 10.0,
        "wasmtime vs native on crc32: {rel}"
    );
    // Each cell: its values from both invocations, whole, with its noise.
    for c in cells {
        assert_eq!(c["invocations"], 2, "{c}");
        assert_eq!(c["partial"], false, "{c}");
        assert_eq!(c["stats"]["n"], 4, "{c}");
        let h = c["halfwidth_pct"].as_f64().unwrap();
        assert!(h.is_finite() && h >= 0.0, "{c}");
    }
    let per = report["runs"][0]["summary"]["per_runtime"]
        .as_array()
        .unwrap();
    assert!(
        per.iter()
            .all(|p| p["tests_total"] == 1 && p["tests_compared"] == 1),
        "{per:?}"
    );
    assert_eq!(
        report["runs"][0]["distributions"].as_array().unwrap().len(),
        2
    );
    // Against wasmtime as baseline, wasmtime is exactly 1.
    let rebased = invoke(
        &w,
        "load_run",
        json!({ "id": run_id, "baseline": "wasmtime" }),
    )
    .unwrap();
    let cells = rebased["runs"][0]["summary"]["cells"].as_array().unwrap();
    let wasmtime = cells.iter().find(|c| c["runtime"] == "wasmtime").unwrap();
    assert_eq!(wasmtime["relative"].as_f64(), Some(1.0));

    let err = invoke(&w, "diff_runs", json!({ "a": run_id, "b": run_id })).unwrap_err();
    assert_eq!(err["code"], "invalid_input", "{err}");

    // A second run to diff against: same cells, so every row has both sides.
    let again: RunSettingsView = serde_json::from_value(json!({
        "suite": "compute", "tests": ["crc32"], "runtimes": ["native", "wasmtime"],
        "runs": 2, "warmup": 0, "invocations": 2, "order": "sequential"
    }))
    .unwrap();
    block_on(start_run(app.state(), again, Channel::new(|_| Ok(())))).expect("second run starts");
    wait_idle(&app.state::<Workbench>());
    let runs = invoke(&w, "list_runs", json!({})).unwrap();
    let newest = runs[0]["id"].as_str().unwrap().to_string();
    assert_ne!(newest, run_id, "newest first");
    let diff = invoke(&w, "diff_runs", json!({ "a": run_id, "b": newest })).unwrap();
    assert_eq!(diff["runs"].as_array().unwrap().len(), 2);
    let rows = diff["diff"]["rows"].as_array().unwrap();
    assert!(rows.len() >= 4, "execute+total for 2 runtimes: {rows:?}");
    // Not normalised unless asked; every row says so through the diff.
    assert_eq!(diff["diff"]["normalize"], Value::Null);
    assert_eq!(diff["diff"]["alpha"], 0.05);
    // Each row is B's median over A's, inside its interval, the interval's half-width its
    // noise; 4 values from 2 invocations a side are enough for a verdict. (No bounds on
    // the ratio itself: two real runs of two iterations differ by what the machine was
    // doing, a cold first instantiate 5× a warm one among them.)
    for r in rows {
        let num = |k: &str| r[k].as_f64().unwrap_or_else(|| panic!("{k} in {r}"));
        let (ratio, lo, hi, a, b) = (
            num("ratio"),
            num("ci_low"),
            num("ci_high"),
            num("a_median"),
            num("b_median"),
        );
        assert!(a > 0.0 && b > 0.0, "{r}");
        assert!((ratio - b / a).abs() <= 1e-9 * ratio, "{r}");
        assert!(lo <= ratio && ratio <= hi, "{r}");
        let h = num("halfwidth_pct");
        assert!(
            (h - 50.0 * (hi - lo) / ratio).abs() <= 1e-9 * h.max(1.0),
            "{r}"
        );
        assert_eq!(
            (&r["n"], &r["invocations"]),
            (&json!([4, 4]), &json!([2, 2])),
            "{r}"
        );
        let v = r["verdict"].as_str().unwrap();
        assert!(["faster", "slower", "no change"].contains(&v), "{r}");
        assert!(r["p_adjusted"].as_f64().is_some(), "{r}");
    }
    // Normalised to native: wasmtime's rows are its ratio to native in each run; native's
    // own rows are not normalised and say so.
    let norm = invoke(
        &w,
        "diff_runs",
        json!({ "a": run_id, "b": newest, "normalize": "native" }),
    )
    .unwrap();
    assert_eq!(norm["diff"]["normalize"], "native");
    let nrows = norm["diff"]["rows"].as_array().unwrap();
    assert_eq!(nrows.len(), rows.len());
    let native = nrows
        .iter()
        .find(|r| r["runtime"] == "native" && r["phase"] == "execute")
        .unwrap();
    assert_eq!(
        native["note"], "not normalised: native is the reference",
        "{native}"
    );
    let err = invoke(
        &w,
        "diff_runs",
        json!({ "a": run_id, "b": newest, "thresholdPct": -1.0 }),
    )
    .unwrap_err();
    assert_eq!(err["code"], "invalid_input", "{err}");

    invoke(&w, "delete_run", json!({ "id": newest })).unwrap();
    invoke(&w, "delete_run", json!({ "id": run_id })).unwrap();
    assert_eq!(invoke(&w, "list_runs", json!({})).unwrap(), json!([]));
}

#[test]
fn bad_input_comes_back_as_code_and_message() {
    let tmp = tempfile::tempdir().unwrap();
    let (_app, w) = app(tmp.path());
    let err = invoke(
        &w,
        "start_run",
        json!({ "settings": { "suite": "compute", "runtimes": ["nosuch"] }, "onEvent": "__CHANNEL__:1" }),
    )
    .unwrap_err();
    assert_eq!(err["code"], "invalid_input");
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("unknown runtime 'nosuch'"),
        "{err}"
    );

    let err = invoke(
        &w,
        "start_run",
        json!({ "settings": { "suite": "compute", "order": "random" }, "onEvent": "__CHANNEL__:1" }),
    )
    .unwrap_err();
    assert_eq!(err["code"], "invalid_input", "{err}");
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("unknown order 'random'"),
        "{err}"
    );
    let err = invoke(
        &w,
        "start_run",
        json!({ "settings": { "suite": "compute", "invocations": 0 }, "onEvent": "__CHANNEL__:1" }),
    )
    .unwrap_err();
    assert_eq!(err["code"], "invalid_input", "{err}");
    assert!(
        err["message"].as_str().unwrap().contains("--invocations"),
        "{err}"
    );

    let err = invoke(&w, "load_run", json!({ "id": "../../etc" })).unwrap_err();
    assert_eq!(err["code"], "invalid_input", "{err}");
    let err = invoke(&w, "load_run", json!({ "id": "nosuch" })).unwrap_err();
    assert_eq!(err["code"], "not_found", "{err}");
    let err = invoke(&w, "export_report", json!({ "runs": [], "format": "pdf" })).unwrap_err();
    assert_eq!(err["code"], "invalid_input", "{err}");
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("unknown format 'pdf'"),
        "{err}"
    );
}

#[test]
fn a_corrupt_run_is_listed_with_its_error_and_others_still_list() {
    let tmp = tempfile::tempdir().unwrap();
    let broken = tmp.path().join("20260101-000000-compute-dead");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(broken.join("meta.json"), "{ not json").unwrap();
    let (_app, w) = app(tmp.path());
    let runs = invoke(&w, "list_runs", json!({})).unwrap();
    assert_eq!(runs[0]["id"], "20260101-000000-compute-dead");
    assert!(runs[0]["meta"].is_null());
    let msg = runs[0]["error"].as_str().unwrap();
    assert!(
        msg.contains("meta.json") && msg.contains("not valid run metadata"),
        "{msg}"
    );
    let err = invoke(
        &w,
        "load_run",
        json!({ "id": "20260101-000000-compute-dead" }),
    )
    .unwrap_err();
    assert_eq!(err["code"], "corrupt", "{err}");
    // Nothing was deleted or rewritten.
    assert_eq!(
        std::fs::read_to_string(broken.join("meta.json")).unwrap(),
        "{ not json"
    );
}

/// The page's default invocations, warm-up and runs per kind of suite
/// (web/src/repetition.ts) are core's.
#[test]
fn the_page_repeats_cells_as_core_does_by_default() {
    use wasmeter_core::runner::Repetition;
    use wasmeter_core::suite::SuiteKind;
    let ts = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("web/src/repetition.ts"),
    )
    .unwrap();
    for (group, kind) in [
        ("command", SuiteKind::Command),
        ("lifecycle", SuiteKind::Lifecycle),
        ("http", SuiteKind::Gateway),
        ("http", SuiteKind::Servers),
    ] {
        let r = Repetition::default_for(kind);
        let line = format!(
            "{group}: {{ invocations: {}, warmup: {}, runs: {} }},",
            r.invocations, r.warmup, r.runs
        );
        assert!(
            ts.lines().any(|l| l.trim() == line),
            "web/src/repetition.ts should have `{line}` (core's default for {kind:?})"
        );
    }
    for (name, value) in [
        ("MIN_INVOCATIONS", wasmeter_core::analysis::MIN_INVOCATIONS),
        ("MIN_VALUES", wasmeter_core::analysis::MIN_VALUES),
    ] {
        let line = format!("export const {name} = {value};");
        assert!(ts.lines().any(|l| l.trim() == line), "{line}");
    }
}
