//! End-to-end tests of the `wasmeter` binary: real runtimes, real files, real processes.

use crate::common::{failures, json, once, stderr, suites_root};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn wasmeter(args: &[&str], results: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wasmeter"))
        .args(args)
        .arg("--results")
        .arg(results)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("WASMETER_SUITES", suites_root())
        .output()
        .expect("run wasmeter")
}

#[test]
fn runtimes_lists_embedded_and_native() {
    let tmp = tempfile::tempdir().unwrap();
    let out = wasmeter(&["runtimes", "--json"], tmp.path());
    assert!(out.status.success());
    let v = json(&out);
    let ids: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    for id in [
        "native",
        "wasmtime",
        "wasmtime-pooling",
        "wasmtime-winch",
        "wasmtime-o0",
        "wasmer-cranelift",
        "wasmer-singlepass",
        "wasmi",
        "wasm3",
    ] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
    let wt = v
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "wasmtime")
        .unwrap();
    assert_eq!(wt["kind"], "embedded");
    assert!(
        wt["version"]
            .as_str()
            .unwrap()
            .starts_with(char::is_numeric)
    );
    assert!(wt["unavailable"].is_null());
}

#[test]
fn suites_lists_the_compute_tests() {
    let tmp = tempfile::tempdir().unwrap();
    let out = wasmeter(&["suites", "compute", "--json"], tmp.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let v = json(&out);
    let tests = v[0]["tests"].as_array().unwrap();
    assert!(tests.len() >= 14, "only {} tests", tests.len());
}

#[test]
fn a_real_run_saves_summarises_and_shows() {
    let tmp = tempfile::tempdir().unwrap();
    let out = wasmeter(
        &[
            "run",
            "--suite",
            "compute",
            "--tests",
            "sha256,nbody",
            "--runtimes",
            "native,wasmtime,wasmer-singlepass",
            "--warmup",
            "0",
            "--runs",
            "2",
            "--invocations",
            "2",
            "--seed",
            "7",
            "--name",
            "e2e",
            "--json",
        ],
        tmp.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let s = json(&out);
    assert_eq!(s["baseline"], "native");
    assert_eq!(s["cells"].as_array().unwrap().len(), 6);
    for c in s["cells"].as_array().unwrap() {
        assert!(c["failure"].is_null(), "{c}");
        assert_eq!(c["source"], "self", "guest self-timing should be used: {c}");
        // Two worker processes of two runs each.
        assert_eq!(c["stats"]["n"], 4);
        assert_eq!(c["invocations"], 2);
        assert_eq!(c["partial"], false);
        // Two invocations give one degree of freedom (t = 12.7): a wide interval is the
        // honest one, so only its presence and sign are asserted here.
        let h = c["halfwidth_pct"].as_f64().unwrap();
        assert!(h.is_finite() && h > 0.0, "{c}");
        assert!(c["stats"]["median"].as_f64().unwrap() > 1000.0);
        let rel = c["relative"].as_f64().unwrap();
        if c["runtime"] == "native" {
            assert_eq!(rel, 1.0);
        } else {
            assert!(rel > 0.2 && rel < 50.0, "implausible relative time {rel}");
            assert!(c["phases"]["compile"].as_f64().unwrap() > 0.0, "{c}");
            assert!(c["phases"]["instantiate"].as_f64().unwrap() > 0.0, "{c}");
        }
    }
    // Listed, loadable by prefix and `latest`, identical summary.
    let runs = json(&wasmeter(&["runs", "--json"], tmp.path()));
    let runs = runs.as_array().unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0]["label"], "e2e");
    assert_eq!(runs[0]["status"], "complete");
    let id = runs[0]["id"].as_str().unwrap();
    let shown = json(&wasmeter(
        &["show", &id[..id.len() - 2], "--json"],
        tmp.path(),
    ));
    assert_eq!(shown, s);
    let latest = json(&wasmeter(&["show", "latest", "--json"], tmp.path()));
    assert_eq!(latest, s);
    // Compacted to Parquet; samples recorded.
    let dir = tmp.path().join(id);
    // Seed and order saved; the cells' invocations ran in rounds: every cell's first
    // before any cell's second.
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json")).unwrap()).unwrap();
    assert_eq!(meta["settings"]["invocations"], 2);
    assert_eq!(meta["settings"]["order"], "interleaved");
    assert_eq!(meta["settings"]["seed"], 7);
    let rounds: Vec<u64> = std::fs::read_to_string(dir.join("cells.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["invocation"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(rounds, [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
    assert!(dir.join("measurements.parquet").is_file());
    assert!(!dir.join("measurements.jsonl").exists());
    assert!(dir.join("samples.parquet").is_file());
    let text = String::from_utf8_lossy(&wasmeter(&["show", id], tmp.path()).stdout).to_string();
    assert!(text.contains("geomean"), "{text}");

    // `show --phases` and the Markdown export draw the same tables, cell for cell.
    let out = wasmeter(&["show", id, "--phases"], tmp.path());
    let shown = text_tables(&String::from_utf8_lossy(&out.stdout));
    let out = wasmeter(&["export", id, "--format", "md", "-o", "-"], tmp.path());
    let exported = markdown_tables(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(shown.len(), 2, "summary and phases: {shown:?}");
    assert_eq!(shown, exported);
    // The summary: tests down, runtimes across, the geomean last; six cells and their
    // relative times, native's 1.00× (its own baseline).
    let summary = &shown[0];
    assert_eq!(
        summary[0],
        ["test", "native", "wasmtime", "wasmer-singlepass"]
    );
    assert_eq!(summary.len(), 1 + 2 + 1);
    assert_eq!(summary[3][0], "geomean × native");
    assert_eq!(summary[3][1], "1.00×");
    for row in &summary[1..3] {
        assert!(row[1].ends_with("(1.00×)"), "{row:?}");
        assert!(row[1..].iter().all(|c| c.contains(" ±")), "{row:?}");
    }
    // The phases: one row per cell.
    assert_eq!(shown[1].len(), 1 + 6);
    assert_eq!(
        shown[1][0],
        [
            "runtime",
            "test",
            "compile",
            "instantiate",
            "execute",
            "teardown",
            "total",
            "self-timed"
        ]
    );
}

/// The tables of `wasmeter show`'s text, as rows of cells (the header first): a table is
/// the line above a rule of dashes and the lines under it up to a blank line or a note;
/// the rule's dashes give each column's span.
fn text_tables(text: &str) -> Vec<Vec<Vec<String>>> {
    let lines: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let is_rule = |l: &[char]| !l.is_empty() && l.iter().all(|c| *c == '-' || *c == ' ');
    let mut tables = Vec::new();
    for at in 1..lines.len() {
        if !is_rule(&lines[at]) {
            continue;
        }
        let rule = &lines[at];
        let mut spans = Vec::new();
        let mut i = 0;
        while i < rule.len() {
            if rule[i] == '-' {
                let start = i;
                while i < rule.len() && rule[i] == '-' {
                    i += 1;
                }
                spans.push((start, i));
            } else {
                i += 1;
            }
        }
        let cells = |l: &[char]| -> Vec<String> {
            spans
                .iter()
                .map(|&(a, b)| {
                    l.get(a.min(l.len())..b.min(l.len()))
                        .map(|c| c.iter().collect::<String>().trim().to_string())
                        .unwrap_or_default()
                })
                .collect()
        };
        let mut table = vec![cells(&lines[at - 1])];
        for l in &lines[at + 1..] {
            let s: String = l.iter().collect();
            if s.is_empty() || s.starts_with("note: ") || s.contains("failed cells:") {
                break;
            }
            table.push(cells(l));
        }
        tables.push(table);
    }
    tables
}

/// The tables of a Markdown export, as rows of cells (the header first, no delimiter row),
/// unescaped and without the footer's bold.
fn markdown_tables(md: &str) -> Vec<Vec<Vec<String>>> {
    let mut tables: Vec<Vec<Vec<String>>> = Vec::new();
    let mut open = false;
    for line in md.lines() {
        if !line.starts_with('|') {
            open = false;
            continue;
        }
        let inner = &line[1..line.len() - 1];
        let cells: Vec<String> = inner
            .split(" | ")
            .map(|c| {
                let c = c.trim();
                let c = c
                    .strip_prefix("**")
                    .and_then(|c| c.strip_suffix("**"))
                    .unwrap_or(c);
                c.replace("\\|", "|")
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&amp;", "&")
            })
            .collect();
        if cells.iter().all(|c| c == "---" || c == "---:") {
            continue;
        }
        if !open {
            tables.push(Vec::new());
            open = true;
        }
        tables.last_mut().unwrap().push(cells);
    }
    tables
}

#[test]
fn input_errors_exit_2_and_name_the_problem() {
    let tmp = tempfile::tempdir().unwrap();
    let out = wasmeter(
        &["run", "--suite", "compute", "--runtimes", "nosuch"],
        tmp.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown runtime 'nosuch' (known: native, native-dlopen, wasmtime"),
        "{}",
        stderr(&out)
    );

    let out = wasmeter(
        &["run", "--suite", "compute", "--tests", "nosuch"],
        tmp.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown test 'nosuch' in suite 'compute' (known: "),
        "{}",
        stderr(&out)
    );

    let out = wasmeter(&["run", "--suite", "nosuch"], tmp.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown suite 'nosuch'"));

    let out = wasmeter(&["run", "--suite", "compute", "--size", "huge"], tmp.path());
    assert_eq!(out.status.code(), Some(2));

    let out = wasmeter(&["show", "nosuch"], tmp.path());
    assert_eq!(out.status.code(), Some(2));

    // Counts, orders and thresholds that make no sense: exit 2 naming the flag.
    for (args, says) in [
        (
            &["run", "--suite", "compute", "--invocations", "0"][..],
            "--invocations",
        ),
        (
            &["run", "--suite", "compute", "--invocations", "-1"][..],
            "--invocations",
        ),
        (
            &["run", "--suite", "compute", "--invocations", "x"][..],
            "--invocations",
        ),
        (&["run", "--suite", "compute", "--runs", "0"][..], "--runs"),
        (
            &["run", "--suite", "compute", "--order", "random"][..],
            "--order",
        ),
        (
            &["run", "--suite", "compute", "--measure", "cycles"][..],
            "--measure",
        ),
        // Instructions are counted in a command's execute phase only.
        (
            &["run", "--suite", "lifecycle", "--measure", "instructions"][..],
            "--measure instructions",
        ),
        (&["diff", "a", "b", "--threshold", "NaN"][..], "--threshold"),
        (&["diff", "a", "b", "--threshold", "150"][..], "--threshold"),
        (&["diff", "a", "b", "--threshold", "-5"][..], "--threshold"),
        (&["diff", "a", "b", "--threshold", "two"][..], "--threshold"),
        (
            &["diff", "a", "--runtimes", "x,y", "--normalize", "native"][..],
            "--normalize",
        ),
        (
            &[
                "export",
                "a",
                "b",
                "--format",
                "csv",
                "-o",
                "-",
                "--threshold",
                "inf",
            ][..],
            "--threshold",
        ),
    ] {
        let out = wasmeter(args, tmp.path());
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).trim().lines().count() <= 4, "{}", stderr(&out));
    }

    // A results "directory" that is a file: refused before anything runs.
    let file = tmp.path().join("not-a-dir");
    std::fs::write(&file, "keep me").unwrap();
    let out = wasmeter(&["run", "--suite", "compute", "--tests", "sha256"], &file);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("not writable"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me");
}

/// A one-test suite in a temp dir whose module is `wasm` and whose expected answer is `expected`.
fn custom_suite(root: &Path, wasm: &[u8], expected: &str) {
    custom_suite_with_source(root, wasm, expected, "int main(void){return 0;}\n");
}

/// Like [`custom_suite`], with the C source the native runtime builds.
fn custom_suite_with_source(root: &Path, wasm: &[u8], expected: &str, c_source: &str) {
    let dir = root.join("custom");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join("wasm")).unwrap();
    std::fs::create_dir_all(dir.join("expected")).unwrap();
    std::fs::write(dir.join("src/t.c"), c_source).unwrap();
    std::fs::write(dir.join("wasm/t.wasm"), wasm).unwrap();
    std::fs::write(dir.join("expected/t.quick.txt"), expected).unwrap();
    std::fs::write(
        dir.join("suite.toml"),
        "[suite]\nname = \"custom\"\n\n[[test]]\nname = \"t\"\nsource = \"src/t.c\"\n",
    )
    .unwrap();
}

fn run_custom(root: &Path, results: &Path, runtimes: &str, extra: &[&str]) -> (Output, Value) {
    let mut args = vec!["run", "--suite", "custom"];
    args.extend(once(runtimes, extra));
    let out = Command::new(env!("CARGO_BIN_EXE_wasmeter"))
        .args(&args)
        .arg("--results")
        .arg(results)
        .env("WASMETER_SUITES", root)
        .output()
        .unwrap();
    let v = json(&out);
    (out, v)
}

// (module (func (export "_start") (loop (br 0))))
const LOOP_FOREVER: &[u8] = &[
    0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0, 3, 2, 1, 0, 7, 10, 1, 6, b'_', b's',
    b't', b'a', b'r', b't', 0, 0, 10, 9, 1, 7, 0, 3, 0x40, 0x0c, 0, 0x0b, 0x0b,
];
// (module (func (export "_start") unreachable))
const TRAP: &[u8] = &[
    0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0, 3, 2, 1, 0, 7, 10, 1, 6, b'_', b's',
    b't', b'a', b'r', b't', 0, 0, 10, 5, 1, 3, 0, 0, 0x0b,
];

#[test]
fn malformed_module_fails_its_cell_with_the_file_named() {
    let tmp = tempfile::tempdir().unwrap();
    custom_suite(tmp.path(), b"\0asm\x01\0\0\0garbage", "");
    let (out, v) = run_custom(
        tmp.path(),
        &tmp.path().join("r"),
        "wasmtime,wasmer-cranelift",
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    for f in failures(&v) {
        assert!(
            f.contains("custom/wasm/t.wasm: not a valid WebAssembly module ("),
            "{f}"
        );
    }
}

#[test]
fn trap_and_hang_fail_their_cells_and_the_run_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    custom_suite(tmp.path(), TRAP, "");
    let (out, v) = run_custom(tmp.path(), &tmp.path().join("r"), "wasmtime", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(failures(&v)[0].starts_with("trap: "), "{:?}", failures(&v));

    let tmp = tempfile::tempdir().unwrap();
    custom_suite(tmp.path(), LOOP_FOREVER, "");
    let started = std::time::Instant::now();
    let (out, v) = run_custom(
        tmp.path(),
        &tmp.path().join("r"),
        "wasmtime,wasmtime-winch",
        &["--timeout", "1"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(failures(&v), vec!["timeout after 1 s", "timeout after 1 s"]);
    assert!(started.elapsed().as_secs() < 30);
}

#[test]
fn wrong_answer_fails_as_wrong_output() {
    let tmp = tempfile::tempdir().unwrap();
    let wasm = std::fs::read(suites_root().join("compute/wasm/sha256.wasm")).unwrap();
    custom_suite(tmp.path(), &wasm, "not the answer\n");
    let (out, v) = run_custom(tmp.path(), &tmp.path().join("r"), "wasmtime", &[]);
    assert_eq!(out.status.code(), Some(1));
    let f = &failures(&v)[0];
    assert!(
        f.starts_with("wrong output: line 1: expected 'not the answer'"),
        "{f}"
    );
}

/// `wasmeter ARGS` over the suites under `root`.
fn wasmeter_in(root: &Path, args: &[&str]) -> Output {
    // A cache of its own: suites generated on this machine (a built libsodium) stay out.
    Command::new(env!("CARGO_BIN_EXE_wasmeter"))
        .args(args)
        .env("WASMETER_SUITES", root)
        .env("WASMETER_CACHE", root.join(".cache"))
        .env("WASMETER_CONFIG", "/dev/null")
        .output()
        .unwrap()
}

/// A broken manifest is listed with its error (file and line) and the other suites list
/// and run: a real run of a small suite on the native runtime; asking for the broken one
/// exits 2 with its error.
#[test]
fn a_broken_suite_is_listed_and_another_still_runs() {
    let tmp = tempfile::tempdir().unwrap();
    custom_suite_with_source(
        tmp.path(),
        TRAP,
        "ok\n",
        "#include <stdio.h>\nint main(void){puts(\"ok\");return 0;}\n",
    );
    let broken = tmp.path().join("broken");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(
        broken.join("suite.toml"),
        "[suite]\nname = \"broken\"\n\n[[test]]\nname = \"t\"\nsource = \"src/none.c\"\n",
    )
    .unwrap();
    let why = format!(
        "{}:6: source file 'src/none.c' does not exist",
        broken.join("suite.toml").display()
    );

    let out = wasmeter_in(tmp.path(), &["suites"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<Vec<&str>> = text
        .lines()
        .map(|l| {
            l.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect()
        })
        .collect();
    assert_eq!(rows[0], ["suite", "tests", "description"], "{text}");
    assert_eq!(rows.len(), 4, "{text}");
    assert!(rows.contains(&vec!["custom", "1"]), "{text}");
    assert!(
        rows.contains(&vec!["broken", "-", format!("broken: {why}").as_str()]),
        "{text}"
    );
    let v = json(&wasmeter_in(tmp.path(), &["suites", "--json"]));
    let listed: Vec<(&str, Option<&str>)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["error"].as_str()))
        .collect();
    assert_eq!(listed, [("custom", None), ("broken", Some(why.as_str()))]);

    let (out, v) = run_custom(tmp.path(), &tmp.path().join("r"), "native", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(failures(&v), ["ok"]);

    for args in [
        &["suites", "broken"][..],
        &["run", "--suite", "broken", "--runtimes", "native"],
    ] {
        let out = wasmeter_in(tmp.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains(&format!("suite 'broken' is broken: {why}")),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

/// Every path field of a manifest stays inside the suite folder: a `..` out, an absolute
/// path or a link out is refused naming the manifest, the line and the field.
#[test]
fn manifest_paths_that_leave_the_suite_folder_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret"), "secret").unwrap();
    let escape = "../../../../../../etc/passwd";
    let files = ["src/t.c", "b/t.wasm", "b/t", "c/t.wasm", "c/t", "exp/t.exp"];
    let prebuilt = |wasm: &str, native: &str, cw: &str, cn: &str, ce: &str| {
        format!(
            "wasm = \"{wasm}\"\nnative = \"{native}\"\ncheck = {{ wasm = \"{cw}\", native = \"{cn}\", expected = \"{ce}\", result = \"t.res\" }}\n"
        )
    };
    let ok = ["b/t.wasm", "b/t", "c/t.wasm", "c/t", "exp/t.exp"];
    // (suite, test lines after `name`, suite lines after `name`, line, field, bad value)
    let mut cases: Vec<(String, String, String, usize, &str, String)> = vec![
        (
            "inc".into(),
            "source = \"src/t.c\"\n".into(),
            format!("includes = [\"{escape}\"]\n"),
            3,
            "includes",
            escape.into(),
        ),
        (
            "src".into(),
            format!("source = \"{escape}\"\n"),
            String::new(),
            5,
            "source",
            escape.into(),
        ),
        (
            "abs".into(),
            "source = \"/etc/passwd\"\n".into(),
            String::new(),
            5,
            "source",
            "/etc/passwd".into(),
        ),
        (
            "link".into(),
            "source = \"out/secret\"\n".into(),
            String::new(),
            5,
            "source",
            "out/secret".into(),
        ),
        (
            "wasm".into(),
            format!("source = \"src/t.c\"\nwasm = \"{escape}\"\n"),
            String::new(),
            6,
            "wasm",
            escape.into(),
        ),
    ];
    for (i, field) in [
        "wasm",
        "native",
        "check.wasm",
        "check.native",
        "check.expected",
    ]
    .into_iter()
    .enumerate()
    {
        let mut v = ok;
        v[i] = escape;
        let line = if i < 2 { 5 + i } else { 7 };
        let name = field.replace('.', "-");
        cases.push((
            format!("pre-{name}"),
            prebuilt(v[0], v[1], v[2], v[3], v[4]),
            String::new(),
            line,
            field,
            escape.into(),
        ));
    }
    let mut want = Vec::new();
    for (name, test, suite, line, field, bad) in &cases {
        let dir = tmp.path().join(name);
        for f in files {
            let p = dir.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x").unwrap();
        }
        std::os::unix::fs::symlink(outside.path(), dir.join("out")).unwrap();
        let manifest = dir.join("suite.toml");
        std::fs::write(
            &manifest,
            format!("[suite]\nname = \"{name}\"\n{suite}[[test]]\nname = \"t\"\n{test}"),
        )
        .unwrap();
        let why = if bad.starts_with('/') {
            "is absolute".to_string()
        } else if bad.starts_with("out/") {
            format!(
                "leads outside the suite folder (through a symbolic link, to {})",
                std::fs::canonicalize(outside.path().join("secret"))
                    .unwrap()
                    .display()
            )
        } else {
            "leaves the suite folder".to_string()
        };
        want.push((
            name.clone(),
            format!(
                "{}:{line}: '{field}' path '{bad}' {why}: paths are relative to the suite folder and stay inside it",
                manifest.display()
            ),
        ));
    }
    want.sort();
    let out = wasmeter_in(tmp.path(), &["suites", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let got: Vec<(String, String)> = json(&out)
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["error"].as_str().unwrap_or("loaded").to_string(),
            )
        })
        .collect();
    assert_eq!(got, want);
    let out = wasmeter_in(
        tmp.path(),
        &["run", "--suite", "src", "--runtimes", "native"],
    );
    assert_eq!(out.status.code(), Some(2));
    let (_, src_why) = want.iter().find(|(n, _)| n == "src").unwrap();
    let e = stderr(&out);
    assert!(
        e.contains(&format!("suite 'src' is broken: {src_why}")),
        "{e}"
    );
}

// (module (memory 1) (func (export "_start") (drop (memory.grow (i32.const 1000)))))
const GROW_64_MIB: &[u8] = &[
    0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0, 3, 2, 1, 0, 5, 3, 1, 0, 1, 7, 10, 1, 6,
    b'_', b's', b't', b'a', b'r', b't', 0, 0, 10, 10, 1, 8, 0, 0x41, 0xe8, 0x07, 0x40, 0, 0x1a,
    0x0b,
];

#[test]
fn memory_cap_ends_cells_as_out_of_memory() {
    // Linear memory: a refused memory.grow ends the cell.
    let tmp = tempfile::tempdir().unwrap();
    custom_suite(tmp.path(), GROW_64_MIB, "");
    let (out, v) = run_custom(
        tmp.path(),
        &tmp.path().join("r"),
        "wasmtime,wasmtime-pooling",
        &["--memory-mib", "32"],
    );
    assert_eq!(out.status.code(), Some(1));
    for f in failures(&v) {
        assert!(
            f.starts_with("out of memory: linear memory over the cap"),
            "{f}"
        );
    }
    // The same module under a cap it fits in succeeds.
    let (out, v) = run_custom(
        tmp.path(),
        &tmp.path().join("r"),
        "wasmtime",
        &["--memory-mib", "256"],
    );
    assert_eq!(out.status.code(), Some(0), "{:?}", failures(&v));

    // A process tree whose resident memory passes the cap is killed by the sampler.
    let tmp = tempfile::tempdir().unwrap();
    custom_suite_with_source(
        tmp.path(),
        TRAP,
        "",
        "#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\n\
         int main(void){size_t n=(size_t)256<<20;char*p=malloc(n);memset(p,1,n);sleep(20);return p[n-1]==7;}\n",
    );
    let started = std::time::Instant::now();
    let (out, v) = run_custom(
        tmp.path(),
        &tmp.path().join("r"),
        "native",
        &["--memory-mib", "64", "--timeout", "30"],
    );
    assert_eq!(out.status.code(), Some(1));
    let f = &failures(&v)[0];
    assert!(
        f.starts_with("out of memory: resident memory") && f.ends_with("over the cap of 64 MiB"),
        "{f}"
    );
    assert!(started.elapsed().as_secs() < 15, "not killed promptly");
}

#[test]
fn desktop_without_its_binary_says_how_to_build_it() {
    // A copy of wasmeter alone in a directory: no wasmeter-desktop beside it.
    let dir = tempfile::tempdir().unwrap();
    let lone = dir.path().join("wasmeter");
    std::fs::copy(env!("CARGO_BIN_EXE_wasmeter"), &lone).unwrap();
    let out = std::process::Command::new(&lone)
        .arg("desktop")
        .env("WASMETER_CONFIG", "/dev/null")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("wasmeter-desktop") && err.contains("scripts/desktop"),
        "{err}"
    );
}

/// `--measure instructions`: embedded cells counted under callgrind, one value per
/// invocation, nearly free of noise; the others keep their times and are not compared
/// with counts. Valgrind comes with `scripts/test`; without it the run is refused.
#[test]
fn instructions_are_counted_under_callgrind() {
    let tmp = tempfile::tempdir().unwrap();
    let out = wasmeter(
        &[
            "run",
            "--suite",
            "compute",
            "--tests",
            "crc32",
            "--runtimes",
            "native,wasmtime",
            "--invocations",
            "2",
            "--runs",
            "1",
            "--measure",
            "instructions",
            "--json",
        ],
        tmp.path(),
    );
    if stderr(&out).contains("needs Valgrind") {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "valgrind missing under CI: {}",
            stderr(&out)
        );
        eprintln!("SKIPPED: valgrind is not installed");
        return;
    }
    assert!(out.status.success(), "{}", stderr(&out));
    let s = json(&out);
    let cell = |rt: &str| {
        s["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["runtime"] == rt)
            .unwrap()
            .clone()
    };
    let wt = cell("wasmtime");
    assert_eq!(wt["source"], "instructions", "{wt}");
    assert_eq!(wt["stats"]["n"], 2);
    // crc32 over 160 MiB: hundreds of millions of instructions, the same in both processes.
    let median = wt["stats"]["median"].as_f64().unwrap();
    assert!(median > 1e8, "{wt}");
    assert!(wt["halfwidth_pct"].as_f64().unwrap() < 1.0, "{wt}");
    assert!(wt["relative"].is_null());
    assert!(
        wt["note"]
            .as_str()
            .unwrap()
            .contains("timing sources differ"),
        "{wt}"
    );
    assert_eq!(cell("native")["source"], "self");
    let meta: Value = serde_json::from_str(
        &std::fs::read_to_string(
            wasmeter_core::store::list_runs(tmp.path()).unwrap()[0]
                .dir
                .join("meta.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(meta["settings"]["measure"], "instructions");
}

/// `wasmeter suites SUITE` says the defaults a run of it gets, from core's policy (the help
/// of `run` points there instead of repeating numbers that drift).
#[test]
fn a_suite_shows_its_run_defaults() {
    use wasmeter_core::runner::Repetition;
    use wasmeter_core::suite::SuiteKind;
    let tmp = tempfile::tempdir().unwrap();
    let text = |suite: &str| {
        let out = wasmeter(&["suites", suite], tmp.path());
        assert!(out.status.success(), "{}", stderr(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    let r = Repetition::default_for(SuiteKind::Command);
    let compute = text("compute");
    let want = format!(
        "defaults: {} invocations × ({} warm-up + {} runs), interleaved, timeout 60 s (default)",
        r.invocations, r.warmup, r.runs
    );
    assert!(compute.contains(&want), "{want:?} not in\n{compute}");
    assert!(
        text("faults").contains("timeout 10 s (the suite's own)"),
        "faults keeps its own timeout"
    );
    let r = Repetition::default_for(SuiteKind::Lifecycle);
    assert!(text("lifecycle").contains(&format!(
        "defaults: {} invocations × ({} warm-up + {} runs)",
        r.invocations, r.warmup, r.runs
    )));
}
