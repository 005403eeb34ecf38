//! The user's own modules, added by path: checked into the suite `modules`, run like any
//! suite with the options of `wasmeter run FILE.wasm`, and refused with one line naming
//! the file or value at fault.

use crate::commands::{app, invoke, suites, wait_idle};
use serde_json::{Value, json};
use std::path::Path;
use std::sync::{Arc, Mutex};
use tauri::Manager;
use tauri::async_runtime::block_on;
use tauri::ipc::{Channel, InvokeResponseBody};
use wasmeter_core::runner::RunChoices;
use wasmeter_desktop::Workbench;
use wasmeter_desktop::commands::modules::{ModulesView, start_modules_run};

/// A folder holding a copy of the compute suite's crc32 module.
fn my_modules(tmp: &Path) -> std::path::PathBuf {
    let dir = tmp.join("mine");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        suites().join("compute/wasm/crc32.wasm"),
        dir.join("crc32.wasm"),
    )
    .unwrap();
    dir
}

#[test]
fn modules_added_by_path_are_listed_then_run_and_saved_as_the_suite_modules() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let folder = my_modules(tmp.path());
    let (app, w) = app(&results);

    // A folder lists its modules; with a native build missing, native cannot run them.
    let listed = invoke(
        &w,
        "check_modules",
        json!({ "modules": { "paths": [folder], "args": ["quick"] } }),
    )
    .unwrap();
    assert_eq!(listed["name"], "modules");
    assert_eq!(listed["kind"], "command");
    let tests: Vec<&str> = listed["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tests, ["crc32"]);
    assert!(
        listed["not_applicable"]["native"].is_string(),
        "{}",
        listed["not_applicable"]
    );
    assert!(listed["not_applicable"].get("wasmtime").is_none());
    assert!(
        !results.join(".staging").exists(),
        "checking leaves no staging folder behind"
    );

    let events: Arc<Mutex<Vec<Value>>> = Arc::default();
    let sink = events.clone();
    let channel = Channel::new(move |body: InvokeResponseBody| {
        let batch: Value = body.deserialize().unwrap();
        let batch_events = batch["events"].as_array().unwrap().clone();
        sink.lock().unwrap().extend(batch_events);
        Ok(())
    });
    let modules: ModulesView = serde_json::from_value(json!({
        "paths": [folder.join("crc32.wasm")], "args": ["quick"], "env": ["GREETING=hi"]
    }))
    .unwrap();
    let settings: RunChoices = serde_json::from_value(json!({
        "runtimes": ["wasmtime"], "runs": 2, "warmup": 0,
        "invocations": 1, "label": "my modules"
    }))
    .unwrap();
    block_on(start_modules_run(
        app.state(),
        modules.clone(),
        settings.clone(),
        channel.clone(),
    ))
    .expect("starts");
    let err = block_on(start_modules_run(app.state(), modules, settings, channel)).unwrap_err();
    assert_eq!(err.code, "busy");
    wait_idle(&app.state::<Workbench>());

    let events = events.lock().unwrap().clone();
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(types.first(), Some(&"planned"), "{types:?}");
    assert_eq!(types.last(), Some(&"run_finished"), "{types:?}");
    assert_eq!(events[0]["cells"], json!([["wasmtime", "crc32"]]));
    assert_eq!(events[0]["iterations_per_cell"], 2);
    let finished: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "cell_finished")
        .collect();
    assert_eq!(finished.len(), 1, "{events:?}");
    assert_eq!(finished[0]["failure"], Value::Null, "{}", finished[0]);
    assert_eq!(events.last().unwrap()["status"], "complete");
    assert_eq!(events.last().unwrap()["failed"], 0);
    let run_id = events[0]["run_id"].as_str().unwrap();

    let runs = invoke(&w, "list_runs", json!({})).unwrap();
    let meta = &runs[0]["meta"];
    assert_eq!(runs[0]["id"], run_id);
    assert_eq!(meta["suite"], "modules");
    assert_eq!(meta["label"], "my modules");
    assert_eq!(meta["status"], "complete");
    // Core's empty module for CLI runtimes' start-up is left out of a run without one.
    let saved: Vec<&str> = meta["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(saved, ["crc32"]);
    // No native build: relative figures are against the only runtime.
    assert_eq!(meta["settings"]["baseline"], "wasmtime");
    let report = invoke(&w, "load_run", json!({ "id": run_id })).unwrap();
    let cells = report["runs"][0]["summary"]["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 1, "{cells:?}");
    assert_eq!(
        (&cells[0]["runtime"], &cells[0]["test"]),
        (&json!("wasmtime"), &json!("crc32"))
    );
    assert_eq!(cells[0]["failure"], Value::Null, "{}", cells[0]);
    assert_eq!(cells[0]["stats"]["n"], 2, "{}", cells[0]);
    assert!(cells[0]["stats"]["median"].as_f64().unwrap() > 0.0);
    // The suite went into the run; the staging folder went with the run's end.
    assert!(
        !results.join(".staging").exists(),
        "the staging folder is removed after the run"
    );
}

#[test]
fn a_bad_module_or_option_comes_back_as_one_line_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = my_modules(tmp.path());
    let text = tmp.path().join("notes.wasm");
    std::fs::write(&text, "hello, not wasm").unwrap();
    let (_app, w) = app(&tmp.path().join("results"));
    let missing = tmp.path().join("nope.wasm");
    let nodir = tmp.path().join("nodir");
    let module = folder.join("crc32.wasm");
    let cases = [
        (
            json!({ "paths": [missing] }),
            format!("{}: No such file or directory", missing.display()),
        ),
        (
            json!({ "paths": [text] }),
            format!("{}: not a WebAssembly module", text.display()),
        ),
        (
            json!({ "paths": [] }),
            "add a .wasm module or a folder of them".to_string(),
        ),
        (
            json!({ "paths": [module], "env": ["GREETING"] }),
            "env takes KEY=VALUE, not 'GREETING'".to_string(),
        ),
        (
            json!({ "paths": [module], "dirs": [nodir] }),
            format!("{}: No such file or directory", nodir.display()),
        ),
        (
            json!({ "paths": [module], "invoke": "" }),
            "invoke names an exported function".to_string(),
        ),
    ];
    for (modules, want) in cases {
        for (cmd, body) in [
            ("check_modules", json!({ "modules": modules })),
            (
                "start_modules_run",
                json!({
                    "modules": modules,
                    "choices": { "runtimes": ["wasmtime"] },
                    "on_event": "__CHANNEL__:1"
                }),
            ),
        ] {
            let err = invoke(&w, cmd, body).unwrap_err();
            assert_eq!(err["code"], "invalid_input", "{cmd}: {err}");
            let message = err["message"].as_str().unwrap();
            assert!(message.starts_with(&want), "{cmd}: {message}");
            assert_eq!(message.lines().count(), 1, "{cmd}: {message}");
        }
    }
}
