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
use wasmeter_core::runner::{RunChoices, WorkerCommand};
use wasmeter_desktop::Workbench;
use wasmeter_desktop::commands::run::start_run;

pub(crate) fn suites() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites")
}

pub(crate) fn app(results: &Path) -> (tauri::App<MockRuntime>, WebviewWindow<MockRuntime>) {
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
pub(crate) fn invoke(
    w: &WebviewWindow<MockRuntime>,
    cmd: &str,
    body: Value,
) -> Result<Value, Value> {
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

pub(crate) fn wait_idle(wb: &Workbench) {
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
    // Suites a script generates on this machine (a built libsodium or apps, and the
    // further suites named after them, `apps-lifecycle`) come from its cache, not from
    // this test's folder.
    let generated = |name: &str| {
        ["libsodium", "apps"]
            .iter()
            .any(|g| name == *g || name.starts_with(&format!("{g}-")))
    };
    let ours: Vec<&serde_json::Value> = suites
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| !generated(s["name"].as_str().unwrap()))
        .collect();
    let listed: Vec<(&str, usize, Option<&str>)> = ours
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
    assert_eq!(ours[0]["kind"], "lifecycle");
}

#[test]
fn a_run_streams_events_saves_and_can_be_loaded_diffed_and_deleted() {
    let tmp = tempfile::tempdir().unwrap();
    let (app, w) = app(tmp.path());
    let events: Arc<Mutex<Vec<Value>>> = Arc::default();
    let views: Arc<Mutex<Vec<Value>>> = Arc::default();
    let (sink, view_sink) = (events.clone(), views.clone());
    let channel = Channel::new(move |body: InvokeResponseBody| {
        let mut batch: Value = body.deserialize().unwrap();
        let batch_events = batch["events"].as_array().unwrap().clone();
        sink.lock().unwrap().extend(batch_events);
        view_sink.lock().unwrap().push(batch["view"].take());
        Ok(())
    });
    // Two worker processes a cell, interleaved: the least a diff gives a verdict on.
    let settings: RunChoices = serde_json::from_value(json!({
        "tests": ["crc32"], "runtimes": ["native", "wasmtime"],
        "runs": 2, "warmup": 0, "invocations": 2, "order": "interleaved",
        "label": "desktop test"
    }))
    .unwrap();
    block_on(start_run(
        app.state(),
        "compute".into(),
        settings.clone(),
        channel.clone(),
    ))
    .expect("starts");
    // A second run while the first is in flight is refused with `busy`.
    let err = block_on(start_run(app.state(), "compute".into(), settings, channel)).unwrap_err();
    assert_eq!(err.code, "busy");
    wait_idle(&app.state::<Workbench>());

    let events = events.lock().unwrap().clone();
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(types.first(), Some(&"planned"), "{types:?}");
    assert_eq!(types.last(), Some(&"run_finished"), "{types:?}");
    assert_eq!(
        events[0]["cells"],
        json!([["native", "crc32"], ["wasmtime", "crc32"]])
    );
    // Over both invocations of a cell.
    assert_eq!(events[0]["iterations_per_cell"], 4);
    assert_eq!(events[0]["invocations"], 2);
    // The page is told the suite's kind and the baseline; it guesses neither.
    assert_eq!(events[0]["suite"], "compute");
    assert_eq!(events[0]["suite_kind"], "command");
    assert_eq!(events[0]["baseline"], "native");
    // A cell starts once per invocation; each of its invocations once.
    let mut started: Vec<(u64, u64)> = events
        .iter()
        .filter(|e| e["type"] == "cell_started")
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
        .filter(|e| e["type"] == "cell_finished")
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
    let run_id = events[0]["run_id"].as_str().unwrap().to_string();
    // Each batch came with core's view of the run after it: the first with every cell, the
    // last with the run complete and each cell done with its figure.
    let views = views.lock().unwrap().clone();
    assert_eq!(views[0]["run_id"], run_id.as_str());
    assert_eq!(
        views[0]["cells"].as_array().unwrap().len(),
        2,
        "{}",
        views[0]
    );
    let last = views.last().unwrap();
    assert_eq!(last["state"], "complete");
    assert_eq!(last["progress"]["fraction"], 1.0);
    assert_eq!(
        (
            last["finished_cells"].as_u64(),
            last["failed_cells"].as_u64()
        ),
        (Some(2), Some(0))
    );
    let mut cells: Vec<&Value> = views
        .iter()
        .flat_map(|v| v["cells"].as_array().unwrap())
        .collect();
    cells.retain(|c| c["status"] == "done");
    for index in [0, 1] {
        let c = cells
            .iter()
            .rev()
            .find(|c| c["index"] == index)
            .expect("a done view of each cell");
        assert!(c["value"].as_f64().unwrap() > 0.0, "{c}");
        assert!(
            ["self", "wall"].contains(&c["source"].as_str().unwrap()),
            "{c}"
        );
        assert_eq!(c["interim"], false, "{c}");
    }

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
    // The headline the page shows first is core's sentence for this summary.
    let summary: wasmeter_core::analysis::RunSummary =
        serde_json::from_value(report["runs"][0]["summary"].clone()).unwrap();
    assert_eq!(
        report["runs"][0]["headline"].as_str(),
        Some(wasmeter_core::analysis::run_headline(&summary).as_str())
    );
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

    // Two runtimes inside the run, paired by round: `diff RUN --runtimes native,wasmtime`.
    let pair = invoke(
        &w,
        "diff_runtimes",
        json!({ "id": run_id, "a": "native", "b": "wasmtime" }),
    )
    .unwrap();
    let d: wasmeter_core::analysis::Diff = serde_json::from_value(pair["diff"].clone()).unwrap();
    assert!(d.paired, "{pair}");
    assert!(
        d.rows
            .iter()
            .any(|r| r.test == "crc32" && r.ratio.is_some()),
        "{pair}"
    );
    assert_eq!(
        pair["diff_headline"].as_str(),
        Some(wasmeter_core::analysis::diff_headline(&d).as_str())
    );
    let err = invoke(
        &w,
        "diff_runtimes",
        json!({ "id": run_id, "a": "native", "b": "nosuch" }),
    )
    .unwrap_err();
    assert_eq!(err["code"], "invalid_input", "{err}");

    // A second run to diff against: same cells, so every row has both sides.
    let again: RunChoices = serde_json::from_value(json!({
        "tests": ["crc32"], "runtimes": ["native", "wasmtime"],
        "runs": 2, "warmup": 0, "invocations": 2, "order": "sequential"
    }))
    .unwrap();
    block_on(start_run(
        app.state(),
        "compute".into(),
        again,
        Channel::new(|_| Ok(())),
    ))
    .expect("second run starts");
    wait_idle(&app.state::<Workbench>());
    let runs = invoke(&w, "list_runs", json!({})).unwrap();
    let newest = runs[0]["id"].as_str().unwrap().to_string();
    assert_ne!(newest, run_id, "newest first");
    let second = invoke(&w, "load_run", json!({ "id": newest })).unwrap();
    let cells = second["runs"][0]["summary"]["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 2, "{cells:?}");
    for c in cells {
        assert!(c["failure"].is_null(), "the second run's cell failed: {c}");
        assert_eq!(c["stats"]["n"], 4, "{c}");
    }
    // Parallel tests load the machine: the rows' shape is what is checked here, so busy
    // invocations are kept (the page's allowBusy), and the diff warns that they were.
    let diff = invoke(
        &w,
        "diff_runs",
        json!({ "a": run_id, "b": newest, "allow_busy": true }),
    )
    .unwrap();
    assert_eq!(diff["runs"].as_array().unwrap().len(), 2);
    let d: wasmeter_core::analysis::Diff = serde_json::from_value(diff["diff"].clone()).unwrap();
    assert_eq!(
        diff["diff_headline"].as_str(),
        Some(wasmeter_core::analysis::diff_headline(&d).as_str())
    );
    let rows = diff["diff"]["rows"].as_array().unwrap();
    for rt in ["native", "wasmtime"] {
        assert!(
            rows.iter()
                .any(|r| r["runtime"] == rt && r["phase"] == "execute"),
            "an execute row for {rt}: {rows:?}"
        );
    }
    // Not normalised unless asked; every row says so through the diff.
    assert_eq!(diff["diff"]["normalize"], Value::Null);
    assert_eq!(diff["diff"]["alpha"], 0.05);
    // Each row is B's typical value over A's, inside its interval, the interval's half-width its
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
        // The ratio of the typical values (geometric means over invocations) sits in the
        // middle of its interval on the log scale (Student t is symmetric there).
        let (up, down) = ((hi / ratio).ln(), (ratio / lo).ln());
        assert!((up - down).abs() <= 1e-9 * up.max(1e-12), "{r}");
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
        // A verdict, busy machine or not (allowBusy).
        let v = r["verdict"].as_str().unwrap();
        assert!(
            [
                "faster",
                "slower",
                "no change",
                "faster, not held",
                "slower, not held",
                "undecided"
            ]
            .contains(&v),
            "{r}"
        );
        assert!(r["p_adjusted"].as_f64().is_some(), "{r}");
    }
    // Normalised to native: wasmtime's rows are its ratio to native in each run; native's
    // own rows are not normalised and say so.
    let norm = invoke(
        &w,
        "diff_runs",
        json!({ "a": run_id, "b": newest, "normalize": "native", "allow_busy": true }),
    )
    .unwrap();
    assert_eq!(norm["diff"]["normalize"], "native");
    let nrows = norm["diff"]["rows"].as_array().unwrap();
    assert_eq!(nrows.len(), rows.len());
    let native = nrows
        .iter()
        .find(|r| r["runtime"] == "native" && r["phase"] == "execute")
        .unwrap_or_else(|| panic!("no native execute row: {nrows:?}"));
    assert!(
        native["note"]
            .as_str()
            .is_some_and(|n| n.ends_with("not normalised: native is the reference")),
        "{native}"
    );
    let err = invoke(
        &w,
        "diff_runs",
        json!({ "a": run_id, "b": newest, "threshold_pct": -1.0 }),
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
        json!({ "suite": "compute", "choices": { "runtimes": ["nosuch"] }, "on_event": "__CHANNEL__:1" }),
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

    // A value the typed page cannot send is refused by the arguments' own types, naming
    // the argument and the value.
    let err = invoke(
        &w,
        "start_run",
        json!({ "suite": "compute", "choices": { "order": "random" }, "on_event": "__CHANNEL__:1" }),
    )
    .unwrap_err();
    let line = err.as_str().unwrap_or_default();
    assert!(
        line.contains("choices") && line.contains("random") && line.lines().count() == 1,
        "{err}"
    );
    let err = invoke(
        &w,
        "start_run",
        json!({ "suite": "compute", "choices": { "invocations": 0 }, "on_event": "__CHANNEL__:1" }),
    )
    .unwrap_err();
    assert_eq!(err["code"], "invalid_input", "{err}");
    assert!(
        err["message"].as_str().unwrap().contains("--invocations"),
        "{err}"
    );

    // The page's pair is checked by core when it plans the choices (plan_scope, as the
    // page does once they rest): the same line as the CLI's and the TUI's
    // (app/tests/all/gate.rs, ui-tui/tests/all/flow.rs).
    let err = invoke(
        &w,
        "plan_scope",
        json!({ "suite": "compute", "choices": { "runtimes": ["wasmtime", "native"], "pair": ["wasmtime", "native", "wasmtime"] } }),
    )
    .unwrap_err();
    assert_eq!(err["code"], "invalid_input", "{err}");
    assert_eq!(
        err["message"], "--pair needs different arms, got 'wasmtime' twice",
        "{err}"
    );
    // And its precision: the page sends any number, core says what it cannot aim at.
    let err = invoke(
        &w,
        "plan_scope",
        json!({ "suite": "compute", "choices": { "runtimes": ["wasmtime"], "precision": { "pct": 101.0 } } }),
    )
    .unwrap_err();
    assert_eq!(err["code"], "invalid_input", "{err}");
    assert_eq!(
        err["message"], "--precision must be a percentage over 0 and at most 100, got 101",
        "{err}"
    );

    // And any number out of core's range (model::limits): the page sends what was typed,
    // core says the line the CLI and the TUI say for the same value
    // (app/tests/all/gate.rs, ui-tui/tests/all/flow.rs).
    for (choices, line) in [
        (
            json!({ "invocations": 0 }),
            "--invocations must be from 1 to 10000, got 0",
        ),
        (
            json!({ "runs": 100001 }),
            "--runs must be from 1 to 100000, got 100001",
        ),
        (
            json!({ "timeout_secs": 90000 }),
            "--timeout must be from 1 to 86400 s, got 90000",
        ),
        (
            json!({ "precision": { "pct": 5.0, "budget_secs": 720000 } }),
            "--budget must be from 1 to 604800 s, got 720000",
        ),
    ] {
        let mut choices = choices;
        choices["runtimes"] = json!(["wasmtime"]);
        let err = invoke(
            &w,
            "plan_scope",
            json!({ "suite": "compute", "choices": choices }),
        )
        .unwrap_err();
        assert_eq!(err["code"], "invalid_input", "{err}");
        assert_eq!(err["message"], line, "{err}");
    }

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

/// The settings the page sends make core's plan for the same choices: a suite left at its
/// defaults (the page sends a timeout only when the user typed one) keeps its own timeout
/// — faults 10 s, libsodium 600 s — or gets 60 s; a timeout typed wins.
#[test]
fn the_page_plans_as_core_does() {
    use wasmeter_core::config::Config;
    use wasmeter_core::runner::{RunRequest, planned, timeout_cases};
    use wasmeter_core::suite::SuiteCatalog;
    use wasmeter_desktop::commands::run::request;
    let tmp = tempfile::tempdir().unwrap();
    let wb = Workbench::new(
        tmp.path().to_path_buf(),
        suites(),
        WorkerCommand::current_exe().unwrap(),
    );
    for case in timeout_cases(&SuiteCatalog::discover(&suites()).unwrap()) {
        let (suite, timeout, want) = (&case.suite, case.timeout, case.want);
        let mut body = json!({ "runtimes": ["wasmtime"] });
        if let Some(t) = timeout {
            body["timeout_secs"] = json!(t);
        }
        let choices: RunChoices = serde_json::from_value(body).unwrap();
        let page = if suite.name == "libsodium" {
            // Not among the repository's suites: its choices are planned against it directly.
            RunRequest::from_choices(suite.clone(), choices, Config::default())
        } else {
            request(&wb, &suite.name, choices).unwrap()
        };
        let (page, core) = (planned(page), case.core_settings());
        assert_eq!(page.timeout_secs, want, "{}", suite.name);
        assert_eq!(page, core, "{}", suite.name);
    }
}

/// What the page shows before the user changes anything comes from core through the
/// commands: each suite's run defaults, whether each runtime applies to each suite (and
/// why not; the Docker variant to the gateway suite only), the diff's threshold.
#[test]
fn the_page_gets_defaults_applicability_and_threshold_from_core() {
    use wasmeter_core::runner::{RunDefaults, applicability};
    use wasmeter_core::runtime::RuntimeInfo;
    use wasmeter_core::suite::SuiteCatalog;
    let tmp = tempfile::tempdir().unwrap();
    let (_app, w) = app(tmp.path());
    let cat = SuiteCatalog::discover(&suites()).unwrap();
    let listed = invoke(&w, "list_suites", json!({})).unwrap();
    let view = |name: &str| {
        listed
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap_or_else(|| panic!("{name} not listed"))
            .clone()
    };
    for s in &cat.suites {
        assert_eq!(
            view(&s.name)["defaults"],
            serde_json::to_value(RunDefaults::for_suite(s)).unwrap(),
            "{}",
            s.name
        );
    }
    let faults = view("faults")["defaults"].clone();
    assert_eq!(
        (&faults["timeout_secs"], &faults["timeout_source"]),
        (&json!(10), &json!("suite"))
    );
    assert_eq!(
        faults["repetition"],
        json!({ "invocations": 6, "warmup": 0, "runs": 1 })
    );
    assert_eq!(faults["http"], Value::Null);
    let compute = view("compute")["defaults"].clone();
    assert_eq!(
        (&compute["timeout_secs"], &compute["timeout_source"]),
        (&json!(60), &json!("default"))
    );
    let lifecycle = view("lifecycle")["defaults"].clone();
    assert_eq!(
        lifecycle["repetition"],
        json!({ "invocations": 4, "warmup": 1, "runs": 2 })
    );
    let gateway = view("gateway")["defaults"].clone();
    assert_eq!(
        gateway["repetition"],
        json!({ "invocations": 3, "warmup": 0, "runs": 1 })
    );
    assert_eq!(gateway["http"]["levels"], json!([1, 10, 100]));
    assert_eq!(
        (
            &gateway["http"]["duration_ms"],
            &gateway["http"]["latency_ms"]
        ),
        (&json!(800), &json!(400))
    );

    let runtimes = invoke(&w, "list_runtimes", json!({})).unwrap();
    let runtimes = runtimes.as_array().unwrap();
    for r in runtimes {
        let info: RuntimeInfo = serde_json::from_value(r.clone()).unwrap();
        for s in &cat.suites {
            assert_eq!(
                r["not_applicable"].get(&s.name).and_then(Value::as_str),
                applicability(&info, s).err().as_deref(),
                "{} × {}",
                info.id,
                s.name
            );
        }
    }
    let not_applicable = |id: &str| -> Vec<String> {
        let r = runtimes.iter().find(|r| r["id"] == id).unwrap();
        r["not_applicable"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    };
    let all_but = |except: &[&str]| -> Vec<String> {
        cat.suites
            .iter()
            .map(|s| s.name.clone())
            .filter(|n| !except.contains(&n.as_str()))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect()
    };
    // Lifecycle suites: the repository's, and any a build script made on this machine
    // (`apps-lifecycle`).
    let lifecycle: Vec<&str> = cat
        .suites
        .iter()
        .filter(|s| s.kind == wasmeter_core::suite::SuiteKind::Lifecycle)
        .map(|s| s.name.as_str())
        .collect();
    assert!(lifecycle.contains(&"lifecycle"), "{lifecycle:?}");
    assert_eq!(not_applicable("container"), all_but(&["gateway"]));
    assert_eq!(
        not_applicable("container-per-request"),
        all_but(&["gateway"])
    );
    // Native has no build of the lifecycle suites' engines' work nor of the features
    // suite's probe modules (given as they are).
    let mut native_na = lifecycle.clone();
    native_na.push("features");
    native_na.sort();
    assert_eq!(not_applicable("native"), native_na);
    assert_eq!(not_applicable("wasmtime"), ["servers"]);
    assert_eq!(
        not_applicable("wasmtime-pooling-nocow"),
        all_but(&lifecycle)
    );

    assert_eq!(
        invoke(&w, "run_policy", json!({})).unwrap(),
        json!({
            "threshold_pct": 2.0,
            "min_invocations": 2,
            "min_values": 3,
            "compare_normalize": "native",
            "formats": wasmeter_core::export::formats(),
        })
    );
}

/// The page's test fixtures carry what these commands answer for their suites and
/// runtimes, so the page's tests run on core's defaults and applicability, not a copy.
#[test]
fn the_page_fixtures_carry_cores_defaults_and_applicability() {
    use wasmeter_core::runner::RunDefaults;
    use wasmeter_core::runtime::RuntimeInfo;
    use wasmeter_core::suite::{Suite, SuiteCatalog};
    use wasmeter_desktop::commands::catalog::RuntimeView;
    let fixture = |name: &str| -> Value {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("web/src/test/fixtures")
            .join(name);
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap()
    };
    let cat = SuiteCatalog::discover(&suites()).unwrap();
    let fixture_suites = fixture("suites.json");
    let suites: Vec<Suite> = fixture_suites
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let name = f["name"].as_str().unwrap();
            let s = cat.get(name).unwrap().clone();
            assert_eq!(f["kind"], json!(s.kind), "{name}");
            assert_eq!(
                f["defaults"],
                serde_json::to_value(RunDefaults::for_suite(&s)).unwrap(),
                "fixtures/suites.json: {name}"
            );
            s
        })
        .collect();
    let rows = fixture("runtimes.json");
    let infos: Vec<RuntimeInfo> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|f| serde_json::from_value(f.clone()).unwrap())
        .collect();
    let views = RuntimeView::all(infos.clone(), &suites);
    for ((f, info), view) in rows.as_array().unwrap().iter().zip(&infos).zip(&views) {
        let want = serde_json::to_value(view).unwrap();
        for field in ["not_applicable", "preselected"] {
            assert_eq!(
                f[field], want[field],
                "fixtures/runtimes.json: {} {field}",
                info.id
            );
        }
    }
    // The policy the page's tests run on is the command's answer, formats included.
    assert_eq!(
        fixture("policy.json"),
        serde_json::to_value(wasmeter_desktop::commands::catalog::run_policy()).unwrap(),
        "fixtures/policy.json"
    );
}

/// The desktop binary is its own gateway: a gateway cell starts `wasmeter-desktop
/// serve-gateway`, which serves (rather than opening another window), natively and by an
/// embedded engine, and every phase is measured.
#[test]
fn a_gateway_cell_is_served_by_the_desktop_binary() {
    let tmp = tempfile::tempdir().unwrap();
    let (app, w) = app(tmp.path());
    let channel = Channel::new(|_: InvokeResponseBody| Ok(()));
    let settings: RunChoices = serde_json::from_value(json!({
        "tests": ["hello"], "runtimes": ["native", "wasmtime-pooling"],
        "runs": 1, "warmup": 0, "invocations": 1,
        "http": { "levels": [1, 4], "duration_ms": 300, "latency_ms": 200 }
    }))
    .unwrap();
    block_on(start_run(app.state(), "gateway".into(), settings, channel)).expect("starts");
    wait_idle(&app.state::<Workbench>());
    let runs = invoke(&w, "list_runs", json!({})).unwrap();
    let run_id = runs[0]["id"].as_str().unwrap();
    assert_eq!(runs[0]["meta"]["status"], "complete", "{runs}");
    let report = invoke(&w, "load_run", json!({ "id": run_id })).unwrap();
    let cells = report["runs"][0]["http"].as_array().unwrap();
    assert_eq!(cells.len(), 2, "{cells:?}");
    for c in cells {
        let what = format!("{} × {}", c["runtime"], c["test"]);
        assert!(c["failure"].is_null(), "{what}: {c}");
        let cold = c["cold_start"]["median"].as_f64().unwrap();
        assert!(cold > 0.0 && cold < 10e9, "{what}: cold start {cold} ns");
        let p50 = c["p50_ns"].as_f64().unwrap();
        assert!(p50 > 0.0 && p50 < 1e9, "{what}: p50 {p50} ns");
        let levels = c["levels"].as_array().unwrap();
        assert_eq!(levels.len(), 2, "{what}: {c}");
        for l in levels {
            assert!(l["rps"]["median"].as_f64().unwrap() > 10.0, "{what}: {l}");
            assert_eq!(l["errors"].as_f64(), Some(0.0), "{what}: {l}");
        }
    }
}
