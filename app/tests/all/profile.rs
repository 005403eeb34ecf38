//! Profiles end to end (issue 46): a run with `--profile` samples each cell's execute phase
//! on native and two engines, `explain` joins the functions by name across them, the HTML
//! report draws a flame graph per profiled cell in headless Chromium, the folded export
//! opens in speedscope; bad input gets one line and exit 2.

use crate::common::{json, stderr, stdout, wasmeter};
use serde_json::Value;

/// The profiled runtimes of the run below.
const RUNTIMES: &str = "native,wasmtime,wasmer-cranelift,wasmi";

/// A profiled run at 4 kHz (enough samples from a few invocations of tens of milliseconds)
/// into `results`, which must succeed.
fn profiled_run(results: &std::path::Path, suite: &str, tests: &str, runtimes: &str, n: &str) {
    let out = wasmeter(
        &[
            "run",
            "--suite",
            suite,
            "--tests",
            tests,
            "--runtimes",
            runtimes,
            "--invocations",
            n,
            "--profile=4000",
            "--json",
        ],
        results,
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

fn explained(results: &std::path::Path, extra: &[&str]) -> Value {
    let mut args = vec!["explain", "latest", "--format", "json"];
    args.extend_from_slice(extra);
    let out = wasmeter(&args, results);
    assert!(out.status.success(), "{}", stderr(&out));
    json(&out)
}

/// An explained test's columns, by runtime id.
pub fn columns(t: &Value) -> Vec<&str> {
    t["runtimes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["runtime"].as_str().unwrap())
        .collect()
}

/// Each column's shares: its functions and the code outside them.
fn shares(t: &Value, k: usize) -> (Vec<(String, f64)>, f64) {
    let of = |rows: &Value| -> Vec<(String, f64)> {
        rows.as_array()
            .unwrap()
            .iter()
            .filter_map(|r| {
                let c = &r["cells"][k];
                (!c.is_null()).then(|| {
                    (
                        r["name"].as_str().unwrap().to_string(),
                        c["share"].as_f64().unwrap(),
                    )
                })
            })
            .collect()
    };
    let functions = of(&t["functions"]);
    let outside: f64 = of(&t["outside"]).iter().map(|(_, s)| s).sum();
    (functions, outside)
}

#[test]
fn a_profiled_run_is_explained_function_by_function_across_engines_and_native() {
    let tmp = tempfile::tempdir().unwrap();
    profiled_run(tmp.path(), "compute", "x25519,matmul", RUNTIMES, "3");
    let e = explained(tmp.path(), &[]);
    assert_eq!(e["baseline"], "native");
    let tests = e["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 2, "{e}");
    for t in tests {
        assert_eq!(columns(t), RUNTIMES.split(',').collect::<Vec<_>>(), "{t}");
        for (k, c) in t["runtimes"].as_array().unwrap().iter().enumerate() {
            let rt = c["runtime"].as_str().unwrap();
            assert!(c["unattributed"].is_null(), "{rt}: {c}");
            if rt == "wasmi" {
                // An interpreter's samples land in its loop: they are put on the functions
                // by a counting run, and the method says so.
                let method = c["method"].as_str().unwrap();
                assert!(method.contains("counting run"), "{method}");
            }
            // Three invocations of tens of milliseconds at 4 kHz: hundreds of samples.
            assert!(c["samples"].as_u64().unwrap() > 200, "{rt}: {c}");
            assert_eq!(c["few_samples"], false, "{rt}: {c}");
            let (functions, outside) = shares(t, k);
            let total: f64 = functions.iter().map(|(_, s)| s).sum::<f64>() + outside;
            assert!((total - 1.0).abs() < 0.01, "{rt}: shares add up to {total}");
            // The estimated times add up to the cell's typical time as the shares do.
            let typical = c["typical_ns"].as_f64().unwrap();
            assert_eq!(t["total"]["cells"][k]["ns"].as_f64().unwrap(), typical);
            // Where the time goes is named, not hidden in "outside".
            assert!(
                outside < 0.2,
                "{rt}: {outside} outside the program's functions"
            );
        }
        let name = t["test"].as_str().unwrap();
        let row = |f: &str| {
            t["functions"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["name"] == f)
                .unwrap_or_else(|| panic!("{name}: no {f} in {t}"))
                .clone()
        };
        if name == "x25519" {
            // The field multiplication is one function on every side, and the ratio is
            // the engine's time over native's for it.
            let fe_mul = row("fe_mul");
            for k in 0..3 {
                assert!(!fe_mul["cells"][k].is_null(), "{fe_mul}");
            }
            let (n, w) = (&fe_mul["cells"][0], &fe_mul["cells"][1]);
            let ratio = w["ns"].as_f64().unwrap() / n["ns"].as_f64().unwrap();
            assert!((w["ratio"].as_f64().unwrap() - ratio).abs() < 1e-9 * ratio);
            // wasm has no 128-bit multiply: compiler-rt's __multi3 is a function of the
            // module, which native inlines as one instruction; said as inlined there.
            let multi3 = row("__multi3");
            assert!(multi3["cells"][0].is_null() && !multi3["cells"][1].is_null());
            assert!(
                multi3["note"]
                    .as_str()
                    .unwrap()
                    .contains("no function of that name in the build on native"),
                "{multi3}"
            );
            // Why, as data: fe_mul's calls of __multi3 per iteration, counted in a run of
            // the module, with the time they account for; native inlines them.
            let causes = &fe_mul["causes"][1];
            let call = &causes["calls"][0];
            assert_eq!(call["name"], "__multi3", "{causes}");
            assert!(call["per_iteration"].as_f64().unwrap() > 1e6, "{call}");
            let share = call["share"].as_f64().unwrap();
            assert!(share > 0.1 && share < multi3["cells"][1]["share"].as_f64().unwrap());
            assert_eq!(call["inlined_in_baseline"], true);
            assert!(causes["memory"].as_f64().unwrap() > 0.0);
            // Machine code against native's, both from the builds themselves.
            assert!(causes["code_bytes"].as_u64().unwrap() > 0, "{causes}");
            assert!(fe_mul["causes"][0]["code_bytes"].as_u64().unwrap() > 0);
            assert!(fe_mul["causes"][0]["entries"].as_f64().unwrap() == 0.0);
            for k in 1..4 {
                let named = shares(t, k).0.len();
                assert!(named >= 3, "{k}: {named} named functions");
            }
            // The interpreter's time, too, is on its multiply functions, not its loop.
            on_the_multiplies(t, 3, "wasmi");
        } else {
            // matmul's kernel is inlined into main in every build.
            assert!(row("main")["cells"][0]["share"].as_f64().unwrap() > 0.9);
        }
    }
    // Engine against engine: each function's part of the difference from wasmtime, the
    // parts of every row summing to the whole.
    let against = explained(tmp.path(), &["--tests", "x25519", "--baseline", "wasmtime"]);
    let t = &against["tests"][0];
    let k = 2; // wasmer-cranelift
    let parts: f64 = t["functions"]
        .as_array()
        .unwrap()
        .iter()
        .chain(t["outside"].as_array().unwrap())
        .map(|r| {
            let c = &r["cells"][k];
            let base = r["cells"][1]["ns"].as_f64().unwrap_or(0.0);
            let whole = t["total"]["cells"][k]["ns"].as_f64().unwrap()
                - t["total"]["cells"][1]["ns"].as_f64().unwrap();
            match c["part"].as_f64() {
                Some(p) => p,
                None => -base / whole,
            }
        })
        .sum();
    assert!((parts - 1.0).abs() < 0.02, "parts sum to {parts}");
    let unknown = wasmeter(&["explain", "latest", "--baseline", "wasm9"], tmp.path());
    assert_eq!(unknown.status.code(), Some(2), "{}", stderr(&unknown));
    assert!(stderr(&unknown).contains("wasm9"));

    // --runtimes and --tests narrow the table.
    let two = explained(
        tmp.path(),
        &["--tests", "x25519", "--runtimes", "native,wasmtime"],
    );
    assert_eq!(two["tests"].as_array().unwrap().len(), 1);
    assert_eq!(two["tests"][0]["runtimes"].as_array().unwrap().len(), 2);

    // The text form: a table per test, every function on one row.
    let text = stdout(&wasmeter(&["explain", "latest", "--top", "3"], tmp.path()));
    assert!(text.contains("x25519 — samples: native "), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("fe_mul ") && l.contains(" %")),
        "{text}"
    );
    assert!(
        text.contains("more functions") || text.contains("[kernel]"),
        "{text}"
    );
    // Then where each runtime differs from native, and the causes counted.
    assert!(
        text.contains("x25519 — where each runtime's time differs from native's"),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("fe_mul ") && l.contains("__multi3 ×")),
        "{text}"
    );

    // The HTML report: the table and a flame graph per profiled cell, in Chromium.
    let html = tmp.path().join("profile.html");
    crate::common::export_latest(tmp.path(), "html", &html);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("\"flames\":[{"),
        "the report carries the flame graphs"
    );
    crate::report::browser_check(&html, "profile-report.png");

    // Folded stacks for speedscope: test;runtime;frames count, one line per stack.
    let folded = tmp.path().join("run.folded");
    crate::common::export_latest(tmp.path(), "folded", &folded);
    let lines = std::fs::read_to_string(&folded).unwrap();
    let mut counted = 0;
    for l in lines.lines() {
        let (stack, n) = l.rsplit_once(' ').unwrap();
        counted += n.parse::<u64>().unwrap();
        let mut frames = stack.split(';');
        assert!(
            ["x25519", "matmul"].contains(&frames.next().unwrap()),
            "{l}"
        );
        assert!(RUNTIMES.contains(frames.next().unwrap()), "{l}");
        assert!(frames.next().is_some(), "{l}");
    }
    let sampled: u64 = e["tests"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["runtimes"].as_array().unwrap().clone())
        .map(|c| c["samples"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, sampled, "every sample in the folded file, once");

    hot_code_of_the_run(tmp.path(), &e);
}

/// `explain --hot`: each wasmtime and wasmer cell's hottest function, its wasm beside the
/// machine code, every sample of the function on one of its instructions; other engines
/// refused by name.
fn hot_code_of_the_run(results: &std::path::Path, e: &Value) {
    let hot = explained(results, &["--hot"]);
    let cells: Vec<(&str, &str)> = hot
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["test"].as_str().unwrap(), h["runtime"].as_str().unwrap()))
        .collect();
    // wasmtime and wasmer give their code per function (wasmer's through its watched
    // compiler); wasmi and native not.
    assert_eq!(
        cells,
        [
            ("x25519", "wasmtime"),
            ("x25519", "wasmer-cranelift"),
            ("matmul", "wasmtime"),
            ("matmul", "wasmer-cranelift")
        ]
    );
    for h in hot.as_array().unwrap() {
        let test = e["tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["test"] == h["test"])
            .unwrap();
        let k = RUNTIMES.split(',').position(|r| h["runtime"] == r).unwrap();
        let top = test["functions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| !r["cells"][k].is_null())
            .max_by_key(|r| r["cells"][k]["samples"].as_u64().unwrap())
            .unwrap();
        assert_eq!(h["function"], top["name"], "{h}");
        // Every sample of the function falls on one of its instructions.
        let samples = h["samples"].as_u64().unwrap();
        assert_eq!(samples, top["cells"][k]["samples"].as_u64().unwrap(), "{h}");
        let lines = h["lines"].as_array().unwrap();
        let on_instructions: u64 = lines
            .iter()
            .flat_map(|l| l["machine"].as_array().unwrap())
            .map(|m| m["samples"].as_u64().unwrap())
            .sum();
        assert_eq!(on_instructions, samples, "{h}");
        assert!(samples > 50, "{h}");
        // Wasm lines carry their machine code, which is real x86-64 text.
        let joined: Vec<&Value> = lines
            .iter()
            .filter(|l| !l["wasm_offset"].is_null() && !l["machine"].as_array().unwrap().is_empty())
            .collect();
        assert!(joined.len() > 5, "{h}");
        assert!(
            lines
                .iter()
                .flat_map(|l| l["machine"].as_array().unwrap())
                .any(|m| m["text"].as_str().unwrap().starts_with("mov")),
            "{h}"
        );
        assert_eq!(h["arch"], std::env::consts::ARCH);
        assert!(h["module"].as_str().unwrap().ends_with(".wasm"), "{h}");
        // No data decoded as instructions: where a constant pool follows the code, a
        // line says the code ends there and the pool is shown as data.
        let texts: Vec<&str> = lines
            .iter()
            .flat_map(|l| l["machine"].as_array().unwrap())
            .map(|m| m["text"].as_str().unwrap())
            .collect();
        assert!(!texts.iter().any(|t| t.contains("(bad)")), "{h}");
        if let Some(end) = lines.iter().position(|l| {
            l["wasm"]
                .as_str()
                .unwrap()
                .starts_with("(end of the function's code")
        }) {
            assert_eq!(end, lines.len() - 1, "{h}");
            assert!(
                lines[end]["machine"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|m| m["text"].as_str().unwrap().starts_with(".quad"))
            );
        }
    }
    // x25519's __multi3 reads its mask from its pool: the mark is there.
    let x = hot
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["test"] == "x25519")
        .unwrap();
    if x["function"] == "__multi3" {
        assert!(
            x["lines"].as_array().unwrap().iter().any(|l| l["wasm"]
                .as_str()
                .unwrap()
                .starts_with("(end of the function's code")),
            "{x}"
        );
    }
    // The text form: the listing, wasm and machine code side by side.
    let text = stdout(&wasmeter(
        &["explain", "latest", "--hot", "--tests", "x25519"],
        results,
    ));
    assert!(text.contains("x25519 · wasmtime · "), "{text}");
    assert!(
        text.lines().filter(|l| l.contains(" │ ")).count() > 20,
        "{text}"
    );
    // Another function by name; one the module lacks, an engine that shows no code, and
    // a module whose code changed since the run: one line each, exit 2.
    let fe_mul = explained(
        results,
        &["--hot", "--tests", "x25519", "--function", "fe_mul"],
    );
    assert_eq!(fe_mul[0]["function"], "fe_mul");
    assert!(fe_mul[0]["samples"].as_u64().unwrap() > 0, "{fe_mul}");
    refused(
        &wasmeter(
            &["explain", "latest", "--hot", "--function", "nosuch"],
            results,
        ),
        "the module has no function named nosuch",
    );
    refused(
        &wasmeter(
            &["explain", "latest", "--hot", "--runtimes", "wasmi"],
            results,
        ),
        "wasmi interprets",
    );
    let profiles = std::fs::read_dir(results)
        .unwrap()
        .map(|d| d.unwrap().path().join("profiles.jsonl"))
        .find(|p| p.exists())
        .unwrap();
    let kept = std::fs::read_to_string(&profiles).unwrap();
    let sha = serde_json::from_str::<Value>(
        kept.lines()
            .find(|l| l.contains("\"code_sha256\""))
            .unwrap(),
    )
    .unwrap()["code_sha256"]
        .as_str()
        .unwrap()
        .to_string();
    std::fs::write(&profiles, kept.replace(&sha, &"0".repeat(64))).unwrap();
    refused(
        &wasmeter(&["explain", "latest", "--hot"], results),
        "its code changed since run",
    );
    std::fs::write(&profiles, kept).unwrap();
}

/// The CLI runtimes that write perf maps (the wasmtime CLI, V8 in node) are profiled from
/// exec to exit and named by their maps: the guest's functions meet the embedded engine's
/// by name, start-up and compilation are the engine's.
#[test]
fn cli_runtimes_are_profiled_through_their_perf_maps() {
    let tmp = tempfile::tempdir().unwrap();
    let missing =
        crate::common::not_installed(&["wasmtime-cli", "wasmtime-cli-aot", "node"], tmp.path());
    if crate::common::runtimes_missing(&missing) {
        return;
    }
    profiled_run(
        tmp.path(),
        "compute",
        "x25519",
        "wasmtime,wasmtime-cli,wasmtime-cli-aot,node",
        "2",
    );
    let e = explained(tmp.path(), &[]);
    let t = &e["tests"][0];
    let fe_mul = t["functions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "fe_mul")
        .unwrap_or_else(|| panic!("no fe_mul in {t}"));
    for (k, c) in t["runtimes"].as_array().unwrap().iter().enumerate() {
        let rt = c["runtime"].as_str().unwrap();
        assert!(c["unattributed"].is_null(), "{rt}: {c}");
        assert!(c["samples"].as_u64().unwrap() > 200, "{rt}: {c}");
        let (functions, outside) = shares(t, k);
        let total: f64 = functions.iter().map(|(_, s)| s).sum::<f64>() + outside;
        assert!((total - 1.0).abs() < 0.01, "{rt}: shares add up to {total}");
        // The field multiplication, by the same name on every engine.
        assert!(!fe_mul["cells"][k].is_null(), "{rt}: {fe_mul}");
        assert!(functions.len() >= 3, "{rt}: {functions:?}");
        if rt != "wasmtime" {
            assert!(c["method"].as_str().unwrap().contains("perf map"), "{c}");
            // The whole process: its start-up is the engine's, and it is there.
            assert!(outside > 0.0, "{rt}: {outside}");
        }
    }
}

/// One line on stderr and exit 2, and nothing left where the output would have gone.
fn refused(out: &std::process::Output, words: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(words), "{words}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn profile_input_that_cannot_be_explained_exits_2_with_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            "--suite",
            "compute",
            "--tests",
            "sha256",
            "--runtimes",
            "native",
        ];
        args.extend_from_slice(extra);
        wasmeter(&args, tmp.path())
    };
    refused(
        &run(&["--profile", "--measure", "instructions"]),
        "--profile samples the execute phase's time; --measure instructions",
    );
    refused(
        &wasmeter(
            &[
                "run",
                "--suite",
                "lifecycle",
                "--runtimes",
                "wasmtime",
                "--profile",
            ],
            tmp.path(),
        ),
        "--profile samples a command's execute phase; 'lifecycle' is a lifecycle suite",
    );
    // A run without profiles: explain and the folded export say how to get them.
    let out = run(&["--invocations", "2", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    refused(
        &wasmeter(&["explain", "latest"], tmp.path()),
        "has no profiles: run it with --profile",
    );
    let folded = tmp.path().join("x.folded");
    refused(
        &wasmeter(
            &[
                "export",
                "latest",
                "--format",
                "folded",
                "-o",
                folded.to_str().unwrap(),
            ],
            tmp.path(),
        ),
        "--format folded exports profiles",
    );
    assert!(!folded.exists(), "no partial file");
    // A profiled run: unknown tests and runtimes are named with what there is.
    let out = run(&["--invocations", "2", "--profile", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    refused(
        &wasmeter(&["explain", "latest", "--tests", "nope"], tmp.path()),
        "has no profiled test 'nope' (profiled: sha256)",
    );
    refused(
        &wasmeter(&["explain", "latest", "--runtimes", "wasmtime"], tmp.path()),
        "has no profiled runtime 'wasmtime' (profiled: native)",
    );
    refused(
        &wasmeter(&["explain", "latest", "--format", "svg"], tmp.path()),
        "--format: 'svg' is not text or json",
    );
    // A damaged profile file: named, with its line; the run's other data is untouched.
    let dir = std::fs::read_dir(tmp.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("profiles.jsonl").exists())
        .max()
        .unwrap();
    let file = dir.join("profiles.jsonl");
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str("{\"runtime\": 3}\n");
    std::fs::write(&file, &text).unwrap();
    refused(
        &wasmeter(&["explain", "latest"], tmp.path()),
        "profiles.jsonl: line 3: not a profile",
    );
    let shown = wasmeter(&["show", "latest"], tmp.path());
    assert!(shown.status.success(), "{}", stderr(&shown));
}

/// x25519 on wasm3 (its marked copy) and wasmer-singlepass (wasmer's perf map): the time is
/// on the program's multiply functions, not in the engine — `__multi3` and `fe_mul` among
/// the top three, the engine and host under half — and each says how it was attributed.
#[test]
fn x25519_on_wasm3_and_singlepass_is_on_its_multiplies() {
    let tmp = tempfile::tempdir().unwrap();
    profiled_run(
        tmp.path(),
        "compute",
        "x25519",
        "wasm3,wasmer-singlepass",
        "1",
    );
    let e = explained(tmp.path(), &[]);
    let t = &e["tests"][0];
    for (k, c) in t["runtimes"].as_array().unwrap().iter().enumerate() {
        let rt = c["runtime"].as_str().unwrap();
        assert!(c["unattributed"].is_null(), "{rt}: {c}");
        let method = c["method"].as_str().unwrap();
        let how = if rt == "wasm3" {
            "the engine marked itself in"
        } else {
            "named by wasmer (Singlepass)'s perf map"
        };
        assert!(method.contains(how), "{rt}: {method}");
        on_the_multiplies(t, k, rt);
    }
}

/// x25519's column `k` has `__multi3` and `fe_mul` among its top three functions, and the
/// time outside the program's functions under half.
fn on_the_multiplies(t: &Value, k: usize, rt: &str) {
    let (mut named, outside) = shares(t, k);
    named.sort_by(|a, b| b.1.total_cmp(&a.1));
    let top: Vec<&str> = named.iter().take(3).map(|(n, _)| n.as_str()).collect();
    assert!(
        top.contains(&"__multi3") && top.contains(&"fe_mul"),
        "{rt}: {top:?}"
    );
    assert!(
        outside < 0.5,
        "{rt}: {outside} outside the program's functions"
    );
}

/// The calibration suite's `shares`: three functions of different kinds, about 60/30/10 %
/// natively, each call timed by the program itself (its `wasmeter:split` line). On every
/// attributed runtime — sampled and named (native, the JITs, Singlepass by wasmer's perf
/// map), sampled and put where wasm3's marked copy says it is, or counted (wasmi) — each
/// function's share of the three must read within 10 points of the share the program timed
/// on that runtime. A timed test (CI runs those one at a time): the program's clock is the
/// wall clock, which a busy host moves.
#[test]
fn timed_every_engine_puts_a_known_split_on_its_functions() {
    const SHARED: [&str; 3] = ["mix_words", "sum_bytes", "collatz"];
    // How each engine without names for its code is attributed (the rest by sampling).
    const COUNTED: &str = "wasmi";
    const MARKED: &str = "wasm3";
    let runtimes = "native,wasmtime,wasmer-cranelift,wasmi,wasm3,wasmer-singlepass";
    let tmp = tempfile::tempdir().unwrap();
    profiled_run(tmp.path(), "calibration", "shares", runtimes, "3");
    let e = explained(tmp.path(), &[]);
    let t = &e["tests"][0];
    let module = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../suites/calibration/wasm/shares.wasm");
    for (k, c) in t["runtimes"].as_array().unwrap().iter().enumerate() {
        let rt = c["runtime"].as_str().unwrap();
        assert!(c["unattributed"].is_null(), "{rt}: {c}");
        let (functions, outside) = shares(t, k);
        let of = |f: &str| {
            functions
                .iter()
                .find(|(n, _)| n == f)
                .map_or(0.0, |(_, s)| *s)
        };
        let three: f64 = SHARED.iter().map(|f| of(f)).sum();
        assert!(
            three > 0.8,
            "{rt}: the three functions have {three} of the samples"
        );
        assert!(
            outside < 0.2,
            "{rt}: {outside} outside the program's functions"
        );
        if rt == "native" {
            // Sampled where it runs; its own split is what the suite's passes set.
            continue;
        }
        let method = c["method"].as_str().unwrap();
        let counted = method.contains("instructions each executed in a counting run");
        assert_eq!(counted, rt == COUNTED, "{rt}: {method}");
        let marked = method.contains("the engine marked itself in");
        assert_eq!(marked, rt == MARKED, "{rt}: {method}");
        let truth = clock_split(rt, &module, tmp.path());
        for (f, want) in SHARED.iter().zip(truth) {
            let got = of(f) / three;
            // What docs/profiles.md quotes (`-- --nocapture`).
            eprintln!(
                "shares: {rt:<18} {f:<10} profile {:5.1} %  timed {:5.1} %  error {:+5.1} points",
                100.0 * got,
                100.0 * want,
                100.0 * (got - want)
            );
            assert!(
                (got - want).abs() <= 0.10,
                "{rt}: {f} reads {:.1} %, the program timed {:.1} %",
                100.0 * got,
                100.0 * want
            );
        }
    }
}

/// The split the `shares` program times itself on an embedded runtime: each function's
/// share of the three over three runs, as its `wasmeter:split` line gives them.
fn clock_split(runtime: &str, module: &std::path::Path, scratch: &std::path::Path) -> [f64; 3] {
    let engine = wasmeter_core::runtime::embedded::Embedded::parse(runtime).unwrap();
    let rt = engine.runtime().unwrap();
    let job = wasmeter_core::runtime::Job {
        args: vec!["quick".into()],
        ..wasmeter_core::runtime::Job::plain(module.to_path_buf(), "shares", scratch)
    };
    let mut ns = [0.0; 3];
    for _ in 0..3 {
        let it = rt.run(&job).unwrap_or_else(|f| panic!("{runtime}: {f}"));
        let text = String::from_utf8_lossy(&it.stdout);
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix("wasmeter:split "))
            .unwrap_or_else(|| panic!("{runtime}: no split line in {text}"));
        for (k, word) in line.split(' ').enumerate() {
            ns[k] += word.split_once('=').unwrap().1.parse::<f64>().unwrap();
        }
    }
    let total: f64 = ns.iter().sum();
    ns.map(|v| v / total)
}
