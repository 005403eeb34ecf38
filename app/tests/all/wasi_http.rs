//! wasi:http components end to end: the gateway's C guest as a `wasi:http/proxy`
//! component, served per request by embedded wasmtime (`wasmtime-http`) and by the wasmtime
//! CLI's `serve`, beside the C-guest variants, every answer checked; the servers suite's JS
//! app componentized (SpiderMonkey compiled to wasm) on both; and components that cannot be
//! served failing their own cells with the reason.

use crate::common::{
    exported, json, not_installed, outcome, runtimes_missing, stderr, suites_root, wasmeter,
    with_own_suites,
};
use serde_json::Value;
use std::path::Path;

/// The HTTP cells of the latest run, exported as JSON.
fn http_cells(results: &Path) -> Vec<Value> {
    exported(results)["runs"][0]["http"]
        .as_array()
        .unwrap()
        .clone()
}

fn cell<'a>(cells: &'a [Value], rt: &str, test: &str) -> &'a Value {
    cells
        .iter()
        .find(|c| c["runtime"] == rt && c["test"] == test)
        .unwrap_or_else(|| panic!("no http cell {rt} × {test}"))
}

fn num(v: &Value, what: &str) -> f64 {
    v.as_f64()
        .unwrap_or_else(|| panic!("{what}: not a number: {v}"))
}

#[test]
fn the_gateway_serves_its_component_per_request_beside_the_c_guest() {
    let tmp = tempfile::tempdir().unwrap();
    let mut rts = vec!["native", "wasmtime-pooling", "wasmtime-http"];
    let serve = !runtimes_missing(&not_installed(&["wasmtime-serve"], tmp.path()));
    if serve {
        rts.push("wasmtime-serve");
    }
    let out = wasmeter(
        &[
            "run",
            "--suite",
            "gateway",
            "--runtimes",
            &rts.join(","),
            "--runs",
            "1",
            "--invocations",
            "1",
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
    // `wasmtime serve` has no host to keep `state`'s counter: that one cell is n/a, not a
    // failure, so the run passes.
    assert!(out.status.success(), "{}", stderr(&out));
    // Every answer is checked by the driver before any load (hello, the compute digest,
    // the host's counter plus one, the echoed body), so a cell that is ok answered right.
    for test in ["hello", "compute", "state", "proxy"] {
        for rt in &rts {
            assert_eq!(
                outcome(&summary, rt, test),
                "ok",
                "{rt} × {test}\n{}",
                stderr(&out)
            );
            let c = summary["cells"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["runtime"] == *rt && c["test"] == test)
                .unwrap();
            let na = *rt == "wasmtime-serve" && test == "state";
            assert_eq!(
                c["invocations"],
                if na { 0 } else { 1 },
                "{rt} × {test}: {c}"
            );
            if na {
                let note = c["note"].as_str().unwrap_or_default();
                assert!(
                    note.starts_with("n/a (not run)")
                        && note.contains("no host in front of it keeps the counter"),
                    "{note}"
                );
            }
        }
    }
    if serve {
        assert!(
            stderr(&out).contains("n/a (not run): wasmtime-serve × state — `wasmtime serve`"),
            "{}",
            stderr(&out)
        );
        // The exports name it too; the HTML page is checked in a browser against its data.
        let id = summary["run_id"].as_str().unwrap();
        let md = wasmeter(&["export", id, "--format", "md", "-o", "-"], tmp.path());
        assert!(
            String::from_utf8_lossy(&md.stdout).contains("- wasmtime-serve × state — "),
            "{}",
            String::from_utf8_lossy(&md.stdout)
        );
        let html = tmp.path().join("gateway.html");
        crate::common::export_runs(tmp.path(), &[id], "html", &html);
        crate::report::browser_check(&html, "wasi-http-gateway.png");
    }
    let cells = http_cells(tmp.path());
    for rt in rts.iter().filter(|r| r.starts_with("wasmtime-")) {
        for test in ["hello", "compute", "proxy"] {
            let c = cell(&cells, rt, test);
            let what = format!("{rt} × {test}");
            let cold = num(&c["cold_start"]["median"], &what);
            assert!(cold > 0.0 && cold < 20e9, "{what}: cold start {cold} ns");
            let p50 = num(&c["p50_ns"], &what);
            assert!(p50 > 0.0 && p50 <= num(&c["p99_ns"], &what), "{what}: {c}");
            for l in c["levels"].as_array().unwrap() {
                assert!(num(&l["rps"]["median"], &what) > 20.0, "{what}: {l}");
                assert_eq!(num(&l["errors"], &what), 0.0, "{what}: {l}");
            }
        }
    }
    // The runtimes table says what each variant is.
    let listed = json(&wasmeter(&["runtimes", "--json"], tmp.path()));
    let row = |id: &str| {
        listed
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("no row {id}"))
            .clone()
    };
    assert!(
        row("wasmtime-http")["config"]
            .as_str()
            .unwrap()
            .contains("wasi:http/proxy component per request")
    );
    assert!(
        row("wasmtime-serve")["config"]
            .as_str()
            .unwrap()
            .contains("`serve`")
    );
}

#[test]
fn a_component_that_cannot_serve_fails_only_its_own_cell() {
    let tmp = tempfile::tempdir().unwrap();
    let src = suites_root().join("gateway");
    let dst = tmp.path().join("suites/gateway");
    std::fs::create_dir_all(dst.join("src")).unwrap();
    std::fs::create_dir_all(dst.join("wasm")).unwrap();
    for f in ["src/gateway.c", "src/sha256.h", "wasm/gateway.wasm"] {
        std::fs::copy(src.join(f), dst.join(f)).unwrap();
    }
    // A core module where the component should be, and a component of another world (the
    // probe as a wasi:cli command) that exports no incoming-handler.
    std::fs::copy(src.join("wasm/gateway.wasm"), dst.join("wasm/core.wasm")).unwrap();
    let command = assets_probe_component(tmp.path());
    std::fs::copy(&command, dst.join("wasm/command.wasm")).unwrap();
    let manifest = "[suite]\nname = \"gateway\"\nkind = \"gateway\"\nincludes = [\"src/sha256.h\"]\n\
        [[test]]\nname = \"core\"\nsource = \"src/gateway.c\"\nwasm = \"wasm/gateway.wasm\"\n\
        component = \"wasm/core.wasm\"\npath = \"/hello\"\ntags = [\"http\"]\ndescription = \"x\"\n\
        [[test]]\nname = \"command\"\nsource = \"src/gateway.c\"\nwasm = \"wasm/gateway.wasm\"\n\
        component = \"wasm/command.wasm\"\npath = \"/hello\"\ntags = [\"http\"]\ndescription = \"x\"\n\
        [[test]]\nname = \"none\"\nsource = \"src/gateway.c\"\nwasm = \"wasm/gateway.wasm\"\n\
        path = \"/hello\"\ntags = [\"http\"]\ndescription = \"x\"\n";
    std::fs::write(dst.join("suite.toml"), manifest).unwrap();
    let out = with_own_suites(
        tmp.path(),
        &[
            "run",
            "--suite",
            "gateway",
            "--runtimes",
            "wasmtime-pooling,wasmtime-http",
            "--runs",
            "1",
            "--invocations",
            "1",
            "--concurrency",
            "1",
            "--duration",
            "0.2",
            "--latency",
            "0.1",
            "--json",
        ],
    )
    .output()
    .unwrap();
    let summary = json(&out);
    // The C guest is fine in every test; each broken component fails its own cell, naming
    // the file and the problem in one line.
    for test in ["core", "command", "none"] {
        assert_eq!(outcome(&summary, "wasmtime-pooling", test), "ok");
    }
    let core = outcome(&summary, "wasmtime-http", "core");
    assert!(
        core.contains("core.wasm") && core.contains("not a valid component"),
        "{core}"
    );
    let command = outcome(&summary, "wasmtime-http", "command");
    assert!(
        command.contains("command.wasm")
            && command.contains("does not export wasi:http/incoming-handler"),
        "{command}"
    );
    let none = outcome(&summary, "wasmtime-http", "none");
    assert!(none.contains("no wasi:http component"), "{none}");
    for f in [core, command, none] {
        assert!(!f.contains('\n'), "one line: {f}");
    }
}

/// The probe as a `wasi:cli/command` component, built by assets/modules/build.sh.
fn assets_probe_component(dir: &Path) -> std::path::PathBuf {
    let out = dir.join("modules");
    let build = std::process::Command::new(suites_root().join("../assets/modules/build.sh"))
        .arg(&out)
        .output()
        .expect("run assets/modules/build.sh");
    let component = out.join("probe/probe-component.wasm");
    assert!(
        component.is_file(),
        "assets/modules/build.sh made no probe component: {}",
        String::from_utf8_lossy(&build.stderr)
    );
    component
}

#[test]
fn javascript_on_a_wasm_engine_serves_the_servers_suite_app() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let mut rts = vec!["wasmtime-http"];
    if !runtimes_missing(&not_installed(&["wasmtime-serve"], &results)) {
        rts.push("wasmtime-serve");
    }
    // The servers suite with its JS app and the wasi:http build, short loads.
    let src = suites_root().join("servers");
    let dst = tmp.path().join("suites/servers");
    let app = "src/hello-wasi-http";
    std::fs::create_dir_all(dst.join(app).join("wit/deps")).unwrap();
    for f in ["hello.js", "build.sh", "wit/world.wit"] {
        std::fs::copy(src.join(app).join(f), dst.join(app).join(f)).unwrap();
    }
    for e in std::fs::read_dir(src.join(app).join("wit/deps")).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dst.join(app).join("wit/deps").join(e.file_name())).unwrap();
    }
    let manifest = std::fs::read_to_string(src.join("suite.toml")).unwrap();
    let short = manifest
        .replace("connections = [50, 400]", "connections = 8")
        .replace("duration_secs = 5", "duration_secs = 1");
    assert_ne!(short, manifest, "the servers suite's load settings moved");
    std::fs::write(dst.join("suite.toml"), short).unwrap();
    let out = with_own_suites(
        tmp.path(),
        &[
            "run",
            "--suite",
            "servers",
            "--runtimes",
            &rts.join(","),
            "--runs",
            "1",
            "--invocations",
            "1",
            "--latency",
            "0.3",
            // The JS component's first compile took over 20 s under a loaded CI machine.
            "--ready-timeout",
            "60",
            "--json",
        ],
    )
    .output()
    .unwrap();
    let summary = json(&out);
    let cells = http_cells(&results);
    for rt in &rts {
        assert_eq!(
            outcome(&summary, rt, "hello"),
            "ok",
            "{rt}\n{}",
            stderr(&out)
        );
        let c = cell(&cells, rt, "hello");
        assert_eq!(num(&c["best"][0], rt), 8.0, "{rt}: {c}");
        assert!(num(&c["best"][1], rt) > 20.0, "{rt}: {c}");
        // SpiderMonkey's ~13 MB component compiles at start-up: seconds, not minutes.
        let cold = num(&c["cold_start"]["median"], rt);
        assert!(cold > 1e8 && cold < 60e9, "{rt}: cold start {cold} ns");
    }
}

/// A component built here from the gateway's committed bindings: `hello` answers, `trap`
/// traps, `hang` never returns, `short` promises 10 bytes and sends 3.
const MISBEHAVING: &str = r#"
#include <string.h>
#include "gateway_http.h"

static void answer(wasi_http_types_own_response_outparam_t out, const char *len, const char *body) {
    wasi_http_types_own_fields_t h = wasi_http_types_constructor_fields();
    wasi_http_types_field_name_t n = {(uint8_t *)"content-length", 14};
    wasi_http_types_field_value_t v = {(uint8_t *)len, strlen(len)};
    wasi_http_types_header_error_t herr;
    wasi_http_types_method_fields_append(wasi_http_types_borrow_fields(h), &n, &v, &herr);
    wasi_http_types_own_outgoing_response_t r = wasi_http_types_constructor_outgoing_response(h);
    wasi_http_types_own_outgoing_body_t b;
    wasi_http_types_method_outgoing_response_body(wasi_http_types_borrow_outgoing_response(r), &b);
    wasi_http_types_result_own_outgoing_response_error_code_t res = {.is_err = false};
    res.val.ok = r;
    wasi_http_types_static_response_outparam_set(out, &res);
    wasi_http_types_own_output_stream_t s;
    wasi_http_types_method_outgoing_body_write(wasi_http_types_borrow_outgoing_body(b), &s);
    gateway_http_list_u8_t chunk = {(uint8_t *)body, strlen(body)};
    wasi_io_streams_stream_error_t err;
    wasi_io_streams_method_output_stream_blocking_write_and_flush(
        wasi_io_streams_borrow_output_stream(s), &chunk, &err);
    wasi_io_streams_output_stream_drop_own(s);
    wasi_http_types_error_code_t ferr;
    wasi_http_types_static_outgoing_body_finish(b, NULL, &ferr);
}

void exports_wasi_http_incoming_handler_handle(
    exports_wasi_http_incoming_handler_own_incoming_request_t req,
    exports_wasi_http_incoming_handler_own_response_outparam_t out) {
    gateway_http_string_t t;
    wasi_http_types_method_incoming_request_path_with_query(
        wasi_http_types_borrow_incoming_request(req), &t);
    if (t.len >= 5 && memcmp(t.ptr, "/trap", 5) == 0) __builtin_trap();
    if (t.len >= 5 && memcmp(t.ptr, "/hang", 5) == 0) for (volatile int i = 0;; i++) {}
    if (t.len >= 6 && memcmp(t.ptr, "/short", 6) == 0) answer(out, "10", "abc");
    else answer(out, "13", "hello, world\n");
    wasi_http_types_incoming_request_drop_own(req);
}
"#;

#[test]
fn a_component_that_traps_hangs_or_breaks_its_response_fails_its_own_cell() {
    let tmp = tempfile::tempdir().unwrap();
    let gw = suites_root().join("gateway");
    let dst = tmp.path().join("suites/gateway");
    std::fs::create_dir_all(dst.join("src")).unwrap();
    std::fs::create_dir_all(dst.join("wasm")).unwrap();
    for f in ["src/gateway.c", "src/sha256.h", "wasm/gateway.wasm"] {
        std::fs::copy(gw.join(f), dst.join(f)).unwrap();
    }
    let src = tmp.path().join("bad.c");
    std::fs::write(&src, MISBEHAVING).unwrap();
    let core = tmp.path().join("bad-core.wasm");
    let built = std::process::Command::new("clang-19")
        .args(["--target=wasm32-wasi", "-O2", "-mexec-model=reactor", "-I"])
        .arg(gw.join("component"))
        .arg(&src)
        .arg(gw.join("component/gateway_http.c"))
        .arg(gw.join("component/gateway_http_component_type.o"))
        .arg("-o")
        .arg(&core)
        .output();
    match built {
        Ok(o) if o.status.success() => {}
        other => {
            assert!(
                std::env::var("CI").is_err(),
                "CI must build the component with clang-19: {other:?}"
            );
            eprintln!("skipping: clang-19 for wasm32-wasi is not installed");
            return;
        }
    }
    let made = std::process::Command::new(suites_root().join("../scripts/wasm-tools"))
        .args(["component", "new"])
        .arg(&core)
        .arg("-o")
        .arg(dst.join("wasm/bad.wasm"))
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let mut manifest = String::from(
        "[suite]\nname = \"gateway\"\nkind = \"gateway\"\nincludes = [\"src/sha256.h\"]\n",
    );
    for t in ["trap", "hang", "short", "hello"] {
        manifest.push_str(&format!(
            "[[test]]\nname = \"{t}\"\nsource = \"src/gateway.c\"\nwasm = \"wasm/gateway.wasm\"\n\
             component = \"wasm/bad.wasm\"\npath = \"/{t}\"\ntags = [\"http\"]\ndescription = \"x\"\n"
        ));
    }
    std::fs::write(dst.join("suite.toml"), manifest).unwrap();
    let out = with_own_suites(
        tmp.path(),
        &[
            "run",
            "--suite",
            "gateway",
            "--runtimes",
            "wasmtime-http",
            "--runs",
            "1",
            "--invocations",
            "1",
            "--concurrency",
            "1",
            "--duration",
            "0.2",
            "--latency",
            "0.1",
            "--json",
        ],
    )
    .output()
    .unwrap();
    let summary = json(&out);
    let trap = outcome(&summary, "wasmtime-http", "trap");
    assert!(
        trap.contains("the component failed") && trap.contains("unreachable"),
        "{trap}"
    );
    let hang = outcome(&summary, "wasmtime-http", "hang");
    assert!(hang.contains("GET /hang"), "{hang}");
    let short = outcome(&summary, "wasmtime-http", "short");
    assert!(
        short.contains("GET /short") && short.contains("502"),
        "{short}"
    );
    for f in [&trap, &hang, &short] {
        assert!(!f.contains('\n'), "one line: {f}");
    }
    // The run went on: the well-behaved request after them was served.
    assert_eq!(
        outcome(&summary, "wasmtime-http", "hello"),
        "ok",
        "{}",
        stderr(&out)
    );
}

/// A proxy component given as a module (`run FILE.wasm`) is served one `GET /` by each
/// runtime that runs components: embedded wasmtime through wasmtime-wasi-http, the
/// wasmtime CLI as `wasmtime serve` with wasi:cli on (the gateway's component reads its
/// environment through it).
#[test]
fn a_proxy_component_run_as_a_module_answers_one_request() {
    let tmp = tempfile::tempdir().unwrap();
    let mut rts = vec!["wasmtime"];
    if !runtimes_missing(&not_installed(&["wasmtime-cli"], tmp.path())) {
        rts.push("wasmtime-cli");
    }
    let gateway = suites_root().join("gateway/wasm/gateway-http.wasm");
    let probe = suites_root().join("features/wasm/wasi-http-proxy.wasm");
    let o = wasmeter(
        &[
            "run",
            gateway.to_str().unwrap(),
            probe.to_str().unwrap(),
            "--runtimes",
            &rts.join(","),
            "--invocations",
            "1",
            "--json",
        ],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let run = json(&o);
    for rt in &rts {
        for test in ["gateway-http", "wasi-http-proxy"] {
            let c = run["cells"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["runtime"] == *rt && c["test"] == test)
                .unwrap_or_else(|| panic!("no cell {rt} × {test}"));
            assert!(c["failure"].is_null(), "{rt} × {test}: {}", c["failure"]);
            assert!(num(&c["typical"], "typical") > 0.0, "{rt} × {test}");
        }
    }
}
