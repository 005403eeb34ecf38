//! `wasmeter features`: the support matrix through the real workers, on engines whose
//! support is documented (docs/runtimes.md, "Features"), saved as a run, re-read, diffed and
//! exported; and its bad input.

use crate::common::{not_installed, runtimes_missing, stderr, wasmeter};
use serde_json::Value;
use std::path::Path;

/// The cell of `runtime` × `feature` in a matrix printed as JSON.
fn cell<'a>(m: &'a Value, runtime: &str, feature: &str) -> &'a Value {
    let col = m["columns"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c["runtime"] == runtime)
        .unwrap_or_else(|| panic!("no column {runtime}"));
    let row = m["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["feature"] == feature)
        .unwrap_or_else(|| panic!("no row {feature}"));
    &row["cells"][col]
}

/// Its support: `yes`, `no`, `needs_flag`…
fn support<'a>(m: &'a Value, runtime: &str, feature: &str) -> &'a str {
    cell(m, runtime, feature)["support"].as_str().unwrap()
}

fn matrix(args: &[&str], results: &Path) -> Value {
    let o = wasmeter(args, results);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn the_matrix_of_the_embedded_engines_matches_their_documented_support() {
    let tmp = tempfile::tempdir().unwrap();
    let res = tmp.path();
    let m = matrix(
        &[
            "features",
            "--runtimes",
            "wasmtime,wasmer-cranelift,wasmer-singlepass,wasmi,wasm3",
            "--json",
        ],
        res,
    );
    // (runtime, feature, support): one runtime known to support each probe and one known
    // not to, as their own documentation says; the sources are in docs/runtimes.md. The
    // "not" side of sign-extension, non-trapping float-to-int and the WASI calls, which
    // every engine here has, is core's `features` test: wasmi with the proposal off, and a
    // WASI without the call.
    let expect = [
        ("wasmtime", "mvp", "yes"),
        ("wasm3", "mvp", "yes"),
        ("wasmtime", "sign-extension", "yes"),
        ("wasmtime", "non-trapping-float-to-int", "yes"),
        ("wasmi", "multi-value", "yes"),
        ("wasm3", "multi-value", "no"),
        ("wasmtime", "simd", "yes"),
        ("wasm3", "simd", "no"),
        ("wasmer-singlepass", "simd", "no"),
        ("wasmtime", "relaxed-simd", "yes"),
        ("wasmer-singlepass", "relaxed-simd", "no"),
        ("wasmi", "tail-calls", "yes"),
        ("wasmer-cranelift", "tail-calls", "no"),
        ("wasmtime", "extended-const", "yes"),
        ("wasm3", "extended-const", "no"),
        ("wasmer-cranelift", "threads", "yes"),
        ("wasmi", "threads", "no"),
        ("wasmer-cranelift", "exceptions", "yes"),
        ("wasmi", "exceptions", "no"),
        ("wasmtime", "function-references", "yes"),
        ("wasmi", "function-references", "no"),
        ("wasmi", "gc", "no"),
        ("wasmtime", "memory64", "yes"),
        ("wasmi", "memory64", "no"),
        ("wasmtime", "multi-memory", "yes"),
        ("wasm3", "multi-memory", "no"),
        ("wasmi", "reference-types", "yes"),
        ("wasmtime", "bulk-memory", "yes"),
        ("wasm3", "bulk-memory", "no"),
        ("wasmtime", "wasi-poll", "yes"),
        ("wasmtime", "wasi-fd-readdir", "yes"),
        ("wasmi", "wasi-clocks", "yes"),
        ("wasmi", "wasi-random", "yes"),
        ("wasmtime", "component-model", "yes"),
        ("wasmtime", "wasi-p2-command", "yes"),
        ("wasmi", "component-model", "no"),
        ("wasmer-cranelift", "wasi-p2-command", "no"),
        ("wasmtime", "wasi-http-proxy", "yes"),
        ("wasmi", "wasi-http-proxy", "no"),
    ];
    for (rt, feature, want) in expect {
        assert_eq!(support(&m, rt, feature), want, "{rt} × {feature}");
    }
    // A probe the engine cannot even take is a ✗ with its own message, never a crash of the
    // run: wasm3 segfaults on some, and only that cell fails.
    let msg = cell(&m, "wasmer-singlepass", "simd")["message"]
        .as_str()
        .unwrap();
    assert!(msg.contains("V128Const"), "{msg}");
    assert!(!msg.contains('\n'), "{msg}");

    // A benchmark cell that fails for a feature its runtime lacks names the feature, from
    // the matrix saved beside it.
    let o = wasmeter(
        &[
            "run",
            "--suite",
            "compute",
            "--tests",
            "matmul-simd",
            "--runtimes",
            "wasm3",
            "--invocations",
            "1",
            "--json",
        ],
        res,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let run: Value = serde_json::from_slice(&o.stdout).unwrap();
    let failure = run["cells"][0]["failure"].as_str().unwrap_or_default();
    let id = m["run"].as_str().unwrap();
    assert!(
        failure.contains(&format!(
            "(the module uses simd, which wasm3 lacks in the feature matrix of run {id})"
        )),
        "{failure}"
    );

    // Saved as a run: shown again, exported, and diffed against itself.
    let again = matrix(&["features", "--run", id, "--json"], res);
    assert_eq!(again, m);
    let o = wasmeter(&["features", "--run", id, "--format", "md"], res);
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(
        md.contains("| feature | wasmtime | wasmer-cranelift |") && md.contains("| simd | ✓ |"),
        "{md}"
    );
    let o = wasmeter(&["features", "--run", id, "--format", "csv"], res);
    let csv = String::from_utf8_lossy(&o.stdout);
    assert!(
        csv.starts_with("run,runtime,version,feature,support,detail\n"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 1 + 5 * 23, "{csv}");
    // `export` of a features run writes the matrix, as every front end's export does.
    let out = res.join("matrix.md");
    let o = wasmeter(
        &[
            "export",
            id,
            "--format",
            "md",
            "--output",
            out.to_str().unwrap(),
        ],
        res,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), md);
    let o = wasmeter(&["features", "--diff", id, id], res);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("no runtime × feature changed"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn a_cli_runtime_that_supports_a_feature_only_when_asked_needs_a_flag() {
    let tmp = tempfile::tempdir().unwrap();
    if runtimes_missing(&not_installed(&["wasmtime-cli", "wasm3-cli"], tmp.path())) {
        return;
    }
    let m = matrix(
        &["features", "--runtimes", "wasmtime-cli,wasm3-cli", "--json"],
        tmp.path(),
    );
    assert_eq!(support(&m, "wasmtime-cli", "threads"), "needs_flag");
    assert_eq!(support(&m, "wasmtime-cli", "gc"), "yes");
    assert_eq!(support(&m, "wasm3-cli", "wasi-poll"), "no");
    assert_eq!(support(&m, "wasm3-cli", "wasi-clocks"), "yes");
    // Components: wasmtime's CLI runs both probes; wasm3 reads no component.
    assert_eq!(support(&m, "wasmtime-cli", "component-model"), "yes");
    assert_eq!(support(&m, "wasmtime-cli", "wasi-p2-command"), "yes");
    assert_eq!(support(&m, "wasm3-cli", "wasi-p2-command"), "no");
    // A proxy component: the wasmtime CLI serves it (`wasmtime serve`, one GET /).
    assert_eq!(support(&m, "wasmtime-cli", "wasi-http-proxy"), "yes");
    assert_eq!(support(&m, "wasm3-cli", "wasi-http-proxy"), "no");
    let cols: Vec<&str> = m["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["runtime"].as_str().unwrap())
        .collect();
    assert_eq!(
        cols,
        ["wasmtime-cli", "wasm3-cli"],
        "the +flags run is folded in"
    );
    let o = wasmeter(&["features", "--run", "latest"], tmp.path());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("wasmtime-cli × threads: needs -W shared-memory=y"),
        "{text}"
    );
}

#[test]
fn bad_input_exits_2_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let res = tmp.path();
    let o = wasmeter(
        &[
            "run",
            "--suite",
            "compute",
            "--tests",
            "crc32",
            "--runtimes",
            "wasmi",
            "--invocations",
            "1",
        ],
        res,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for (args, want) in [
        (
            &["features", "--format", "xml"][..],
            "--format: unknown format 'xml' (expected text, md, csv, html, json)",
        ),
        (
            &["features", "--run", "latest"][..],
            "is of suite 'compute', not 'features'",
        ),
        (&["features", "--runtimes", "ghost"][..], "ghost"),
        (&["features", "--run", "nosuchrun"][..], "nosuchrun"),
    ] {
        let o = wasmeter(args, res);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}
