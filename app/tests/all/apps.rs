//! The apps suite end to end: two real programs (bzip2 and Lua, the quickest to build)
//! built by its script from registry sources into a private cache, registered, and run
//! checked and self-timed natively and on three engines, and their modules through the
//! lifecycle suite's phases (`apps-lifecycle`); and what a user sees when a
//! source cannot be fetched, a target does not build, or an answer is wrong: only that
//! program's cells fail, with the cause, and the run goes on.

use crate::common::{failures, json, once, stderr, stdout, wasmeter_cached as wasmeter};
use serde_json::Value;

const RUNTIMES: &str = "native,wasmtime,wasmer-cranelift,wasmi";

fn run_apps(dir: &std::path::Path) -> (std::process::Output, Value) {
    let mut args = vec!["run", "--suite", "apps"];
    args.extend(once(RUNTIMES, &[]));
    let out = wasmeter(&args, dir, &[]);
    let v = json(&out);
    (out, v)
}

fn cell<'a>(v: &'a Value, rt: &str, test: &str) -> &'a Value {
    v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["runtime"] == rt && c["test"] == test)
        .unwrap_or_else(|| panic!("no cell {rt} × {test}: {v}"))
}

#[test]
fn two_apps_build_from_registry_sources_and_run_checked_on_three_engines_and_native() {
    let d = tempfile::tempdir().unwrap();
    for suite in ["apps", "apps-lifecycle"] {
        let out = wasmeter(&["run", "--suite", suite], d.path(), &[]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).contains(&format!(
                "suite '{suite}' is not built yet: run `wasmeter suite build apps`"
            )),
            "{}",
            stderr(&out)
        );
    }

    let out = wasmeter(
        &["suite", "build", "apps"],
        d.path(),
        &[("APPS", "bzip2 lua")],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("suite 'apps': 2 tests, built in "),
        "{}",
        stdout(&out)
    );
    // Each program's result and time, with both builds' sizes.
    let err = stderr(&out);
    for app in ["bzip2", "lua"] {
        assert!(
            err.lines()
                .any(|l| l.starts_with(&format!("apps: {app}: ok in "))
                    && l.contains(" bytes, native ")),
            "{err}"
        );
    }
    let v = json(&wasmeter(&["suites", "apps", "--json"], d.path(), &[]));
    let desc = v[0]["tests"][1]["description"].as_str().unwrap();
    assert!(desc.contains("crate lua-src 551.1.0"), "{desc}");

    let (out, v) = run_apps(d.path());
    assert_eq!(failures(&v), vec!["ok"; 8], "{}", stderr(&out));
    for test in ["bzip2", "lua"] {
        for rt in RUNTIMES.split(',') {
            let c = cell(&v, rt, test);
            // The program's own timing of its work (not its start-up): tens of
            // milliseconds at least natively, and not minutes on an interpreter.
            assert_eq!(c["source"], "self", "{c}");
            let median = c["stats"]["median"].as_f64().unwrap();
            assert!(median > 20e6 && median < 60e9, "{rt} {test}: {median} ns");
            let rel = c["relative"].as_f64().unwrap();
            if rt == "native" {
                assert_eq!(rel, 1.0, "{c}");
            } else {
                // An order of magnitude, which noise cannot flip: one iteration beside
                // other tests on two cores read wasmtime's bzip2 (1.1× native when quiet)
                // at 0.48× once, and an interpreter is not a thousand times slower.
                assert!(rel > 0.1 && rel < 200.0, "{rt} {test}: {rel}");
            }
        }
    }
    // Sizes: each program's module beside its native build, and each cell's peak memory,
    // in show and in the Markdown export; the JSON export carries the bytes.
    let show = stdout(&wasmeter(&["show", "latest"], d.path(), &[]));
    let table = show
        .split("sizes: each test's module beside its native build")
        .nth(1)
        .unwrap_or_else(|| panic!("no size table: {show}"));
    let lua_row: Vec<&str> = table
        .lines()
        .find(|l| l.starts_with("lua "))
        .unwrap()
        .split_whitespace()
        .collect();
    // lua  312.9 KiB  274.8 KiB  1.14  833.0 KiB  1.5 MiB: both sizes, their ratio near
    // 1, then the compiled artifacts of wasmtime and wasmer-cranelift.
    let ratio: f64 = lua_row[5].parse().unwrap();
    assert!(
        lua_row.len() == 10 && ratio > 0.5 && ratio < 2.0,
        "{lua_row:?}"
    );
    assert!(show.contains("peak resident memory"), "{show}");
    let md = stdout(&wasmeter(
        &["export", "latest", "--format", "md", "-o", "-"],
        d.path(),
        &[],
    ));
    assert!(md.contains("sizes: each test"), "{md}");
    let out = wasmeter(
        &["export", "latest", "--format", "json", "-o", "-"],
        d.path(),
        &[],
    );
    let report = json(&out);
    let run = &report["runs"][0];
    for t in run["tests"].as_array().unwrap() {
        assert!(t["module_bytes"].as_u64().unwrap() > 50_000, "{t}");
        assert!(t["native_bytes"].as_u64().unwrap() > 50_000, "{t}");
        assert_eq!(t["as_given"], false, "{t}");
    }
    let sizes = run["cell_sizes"].as_array().unwrap();
    assert_eq!(sizes.len(), 8, "{sizes:?}");
    for c in sizes {
        // Every cell holds at least its program's working set (bzip2 quick: 1 MiB in,
        // ~5 MiB of tables) and not gigabytes.
        let b = c["peak_rss_bytes"].as_u64().unwrap();
        assert!(b > 2 << 20 && b < 2 << 30, "{c}");
        // wasmtime and wasmer save their compiled module: machine code for the whole
        // program, larger than nothing and within 20× of the module; the others make
        // no artifact.
        let rt = c["runtime"].as_str().unwrap();
        match c["artifact_bytes"].as_u64() {
            Some(a) => {
                assert!(["wasmtime", "wasmer-cranelift"].contains(&rt), "{c}");
                let module = run["tests"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|t| t["name"] == c["test"])
                    .unwrap()["module_bytes"]
                    .as_u64()
                    .unwrap();
                assert!(a > module / 4 && a < module * 20, "{c}: module {module}");
            }
            None => assert!(["native", "wasmi"].contains(&rt), "{c}"),
        }
    }
    assert!(
        show.contains("wasmtime compiled") && show.contains("wasmer-cranelift compiled"),
        "{show}"
    );
    // The HTML report draws both tables, held to the data in headless Chromium.
    let html = d.path().join("apps.html");
    let out = wasmeter(
        &[
            "export",
            "latest",
            "--format",
            "html",
            "-o",
            html.to_str().unwrap(),
        ],
        d.path(),
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    crate::report::browser_check(&html, "apps-report.png");

    // The interpreter is slower than both compilers on both programs.
    for test in ["bzip2", "lua"] {
        let rel = |rt| cell(&v, rt, test)["relative"].as_f64().unwrap();
        assert!(
            rel("wasmi") > rel("wasmtime") && rel("wasmi") > rel("wasmer-cranelift"),
            "{test}"
        );
    }
    lifecycle_of_the_modules(d.path());
    profiles_of_the_apps(d.path());
}

/// Issue 60: `run --suite apps --profile` explains each program function by function on
/// native and the JIT engines, and the two sides name the same functions: the build
/// keeps each module's names in `APP.names` and native's symbols in `APP.debug`, beside
/// the stripped builds it measures.
fn profiles_of_the_apps(dir: &std::path::Path) {
    const PROFILED: &str = "native,wasmtime,wasmer-cranelift";
    let mut args = vec!["run", "--suite", "apps"];
    args.extend(once(PROFILED, &["--profile=4000"]));
    let out = wasmeter(&args, dir, &[]);
    assert_eq!(failures(&json(&out)), vec!["ok"; 6], "{}", stderr(&out));
    let out = wasmeter(&["explain", "latest", "--format", "json"], dir, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let e = json(&out);
    // (test, a function both sides must name, how many they must share at least)
    for (test, hot, shared) in [
        ("lua", "luaV_execute", 10),
        ("bzip2", "BZ2_compressBlock", 4),
    ] {
        let t = e["tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["test"] == test)
            .unwrap_or_else(|| panic!("{test} not explained: {e}"));
        let columns = crate::profile::columns(t);
        assert_eq!(columns, PROFILED.split(',').collect::<Vec<_>>(), "{t}");
        for c in t["runtimes"].as_array().unwrap() {
            assert!(c["unattributed"].is_null(), "{test}: {c}");
        }
        let functions = t["functions"].as_array().unwrap();
        let on = |k: usize| -> Vec<&str> {
            functions
                .iter()
                .filter(|r| !r["cells"][0].is_null() && !r["cells"][k].is_null())
                .map(|r| r["name"].as_str().unwrap())
                .collect()
        };
        for k in [1, 2] {
            let both = on(k);
            assert!(
                both.len() >= shared && both.contains(&hot),
                "{test}: native and {} share {both:?}",
                columns[k]
            );
        }
        // Named, not hidden: on native, under a fifth outside the program's functions.
        let outside: f64 = t["outside"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|r| r["cells"][0]["share"].as_f64())
            .sum();
        assert!(outside < 0.2, "{test}: {outside} outside on native: {t}");
    }
}

/// The built modules through the lifecycle suite: compile, load where an engine has a
/// precompiled format, instantiate with the imports as stubs; nothing called; lazy
/// translation starts far sooner than eager; compile throughput shown per engine.
fn lifecycle_of_the_modules(dir: &std::path::Path) {
    const ENGINES: &str = "wasmtime,wasmtime-serial,wasmer-singlepass,wasmi,wasmi-lazy";
    let mut args = vec!["run", "--suite", "apps-lifecycle"];
    args.extend(once(ENGINES, &[]));
    let out = wasmeter(&args, dir, &[]);
    let v = json(&out);
    assert_eq!(failures(&v), vec!["ok"; 10], "{}", stderr(&out));
    for test in ["bzip2", "lua"] {
        let phase = |rt: &str, p: &str| cell(&v, rt, test)["phase_stats"][p]["median"].as_f64();
        for rt in ENGINES.split(',') {
            let interpreter = rt.starts_with("wasmi");
            assert!(phase(rt, "compile").unwrap() > 0.0, "{rt} {test}");
            assert!(phase(rt, "instantiate").unwrap() > 0.0, "{rt} {test}");
            assert!(phase(rt, "first_instantiate").unwrap() > 0.0, "{rt} {test}");
            assert_eq!(phase(rt, "load").is_some(), !interpreter, "{rt} {test}");
            assert_eq!(phase(rt, "call"), None, "{rt} {test}");
        }
        let (lazy, eager) = (
            phase("wasmi-lazy", "compile").unwrap(),
            phase("wasmi", "compile").unwrap(),
        );
        assert!(
            lazy * 5.0 < eager,
            "{test}: lazy {lazy} ns, eager {eager} ns"
        );
    }
    let show = stdout(&wasmeter(&["show", "latest"], dir, &[]));
    let throughput = show
        .split("compile throughput")
        .nth(1)
        .unwrap_or_else(|| panic!("no throughput table: {show}"));
    for test in ["bzip2", "lua"] {
        let row: Vec<&str> = throughput
            .lines()
            .find(|l| l.starts_with(&format!("{test} (")))
            .unwrap_or_else(|| panic!("{show}"))
            .split(" MB/s")
            .collect();
        // One figure per engine: a module of ~100–300 KiB compiles at more than 0.1 MB/s
        // (Cranelift, one thread) and less than 100 GB/s (lazy: parsing only).
        assert_eq!(row.len(), 6, "{row:?}");
        for mbs in &row[..5] {
            let mbs: f64 = mbs.split_whitespace().last().unwrap().parse().unwrap();
            assert!(mbs > 0.1 && mbs < 100_000.0, "{test}: {row:?}");
        }
    }
}

#[test]
fn a_source_that_cannot_be_fetched_a_target_that_does_not_build_and_a_wrong_answer_fail_only_their_cells()
 {
    // bzip2 cannot be fetched: cargo is offline with an empty registry of its own.
    let d = tempfile::tempdir().unwrap();
    let empty_cargo = d.path().join("cargo-home");
    std::fs::create_dir_all(&empty_cargo).unwrap();
    let build = [
        ("APPS", "bzip2"),
        ("CARGO_HOME", empty_cargo.to_str().unwrap()),
        ("CARGO_NET_OFFLINE", "true"),
    ];
    let out = wasmeter(&["suite", "build", "apps"], d.path(), &build);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("apps: bzip2: FAILED")
            && err.contains("cargo could not fetch the crate bzip2-sys 0.1.13+1.0.8"),
        "{err}"
    );
    // The suite is registered all the same, and the run goes on: the app's cells fail
    // with the cause.
    assert!(err.contains("1 of 1 programs did not build"), "{err}");
    let (out, v) = run_apps(d.path());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    for f in failures(&v) {
        assert!(
            f.starts_with("error: not built: source: cargo could not fetch the crate bzip2-sys"),
            "{f}"
        );
    }

    // The wasm build fails (a flag clang refuses), the native one does not: the native
    // cell runs, every wasm cell fails naming the target and clang's words.
    let d = tempfile::tempdir().unwrap();
    let build = [("APPS", "bzip2"), ("APPS_WASM_CFLAGS", "-fno-such-flag")];
    let out = wasmeter(&["suite", "build", "apps"], d.path(), &build);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let (_, v) = run_apps(d.path());
    assert_eq!(cell(&v, "native", "bzip2")["failure"], Value::Null, "{v}");
    for rt in ["wasmtime", "wasmer-cranelift", "wasmi"] {
        let f = cell(&v, rt, "bzip2")["failure"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            f.starts_with("error: not built: wasm32-wasi build: compiling for wasm failed")
                && f.contains("-fno-such-flag"),
            "{rt}: {f}"
        );
    }

    // A program whose answer differs from the known one fails as wrong output, naming
    // the line; the same build with the right answer passes.
    let suite = d.path().join("cache/apps/suite");
    let expected = suite.join("expected/bzip2.quick.txt");
    let right = std::fs::read_to_string(&expected).unwrap();
    std::fs::write(&expected, right.replace("round trip ok", "round trip fine")).unwrap();
    let (_, v) = run_apps(d.path());
    let f = cell(&v, "native", "bzip2")["failure"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        f.starts_with("wrong output: line 4: expected 'round trip fine', got 'round trip ok'"),
        "{f}"
    );
}
