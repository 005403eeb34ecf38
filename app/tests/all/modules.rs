//! `wasmeter run FILE.wasm …`: modules given by path run as a suite of their own, kept with
//! the run (so it shows, diffs and resumes like any run), and bad paths are refused before
//! anything runs.

use crate::common::{
    assert_all_ok, failures, json, not_installed, once, runtimes_missing, stderr, suites_root,
    test_data, wasi_cc, wasmeter,
};
use std::path::Path;
use std::process::{Command, Output};

/// `wasmeter run MODULES… FLAGS… -- ARGS…` with `--results` before the `--`.
fn run_modules(modules: &[&Path], flags: &[&str], args: &[&str], results: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wasmeter"))
        .arg("run")
        .args(modules)
        .args(flags)
        .arg("--results")
        .arg(results)
        .arg("--")
        .args(args)
        .env("WASMETER_SUITES", suites_root())
        .env("WASMETER_CONFIG", "/dev/null")
        .output()
        .expect("run wasmeter")
}

const FLAGS: &[&str] = &[
    "--runtimes",
    "wasmtime,wasmi,wasm3",
    "--warmup",
    "0",
    "--runs",
    "1",
    "--invocations",
    "2",
    "--json",
];

#[test]
fn modules_by_path_run_show_and_diff_by_file_name() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let mods = tmp.path().join("mods");
    std::fs::create_dir(&mods).unwrap();
    let compute = suites_root().join("compute/wasm");
    for m in ["sha256", "crc32"] {
        std::fs::copy(
            compute.join(format!("{m}.wasm")),
            mods.join(format!("{m}.wasm")),
        )
        .unwrap();
    }

    // A folder of modules, each run with the arguments after `--`.
    let out = run_modules(&[&mods], FLAGS, &["quick"], &results);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = json(&out);
    assert_all_ok(&v, &out);
    let cells = v["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 2 * 3, "{v}");
    assert!(cells.iter().all(|c| c["runtime"] != "native"), "{v}");
    // No native build: figures are relative to the first runtime.
    assert_eq!(v["baseline"], "wasmtime", "{v}");
    let wt = cells
        .iter()
        .find(|c| c["runtime"] == "wasmtime" && c["test"] == "sha256")
        .unwrap();
    assert_eq!(wt["relative"].as_f64(), Some(1.0), "{wt}");
    // The self-timing protocol is read from any module that speaks it.
    assert_eq!(wt["source"], "self", "{wt}");

    // The modules went into the run, byte for byte; nothing staged is left behind.
    let runs = json(&wasmeter(&["runs", "--json"], &results));
    assert_eq!(runs[0]["suite"], "modules", "{runs}");
    let dir = Path::new(runs[0]["dir"].as_str().unwrap()).to_path_buf();
    assert_eq!(
        std::fs::read(dir.join("suite/wasm/sha256.wasm")).unwrap(),
        std::fs::read(mods.join("sha256.wasm")).unwrap()
    );
    assert!(!results.join(".staging").exists());
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("meta.json")).unwrap()).unwrap();
    let size = std::fs::metadata(mods.join("crc32.wasm")).unwrap().len();
    let crc = meta["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "crc32")
        .unwrap();
    assert_eq!(crc["module_bytes"].as_u64(), Some(size), "{meta}");
    let show = wasmeter(&["show", "latest"], &results);
    assert!(show.status.success(), "{}", stderr(&show));
    let shown = String::from_utf8_lossy(&show.stdout);
    assert!(
        shown.contains("suite modules (modules as given)"),
        "{shown}"
    );
    let row = format!("crc32 {}", wasmeter_core::format::format_bytes(size as f64));
    assert!(
        shown.contains("sizes: each test's module beside its native build")
            && shown.lines().any(|l| l
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .starts_with(&row)),
        "module sizes are shown: {shown}"
    );

    // Another build of one module, given as a file: the runs diff by file name, and the
    // diff says the module changed.
    std::fs::copy(mods.join("crc32.wasm"), tmp.path().join("sha256.wasm")).unwrap();
    std::fs::copy(mods.join("crc32.wasm"), tmp.path().join("crc32.wasm")).unwrap();
    let again = run_modules(
        &[
            &tmp.path().join("sha256.wasm"),
            &tmp.path().join("crc32.wasm"),
        ],
        FLAGS,
        &["quick"],
        &results,
    );
    // sha256.wasm is crc32's code now: it runs, and prints crc32's answer.
    assert!(again.status.code().is_some(), "{}", stderr(&again));
    let runs = json(&wasmeter(&["runs", "--json"], &results));
    let (a, b) = (
        runs[0]["id"].as_str().unwrap(),
        runs[1]["id"].as_str().unwrap(),
    );
    let diff = wasmeter(&["diff", a, b], &results);
    let text = format!("{}{}", String::from_utf8_lossy(&diff.stdout), stderr(&diff));
    assert!(diff.status.code().is_some_and(|c| c < 2), "{text}");
    assert!(text.contains("sha256"), "{text}");
    assert!(text.contains("crc32"), "{text}");
    assert!(
        text.contains("module sha256 differs: another build"),
        "{text}"
    );
    assert!(!text.contains("module crc32 differs"), "{text}");
}

#[test]
fn bad_module_paths_exit_2_naming_the_file_before_anything_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let text = tmp.path().join("notes.wasm");
    std::fs::write(&text, "not a module").unwrap();
    for (path, words) in [
        (
            tmp.path().join("missing.wasm"),
            "missing.wasm: No such file",
        ),
        (empty.clone(), "empty: no .wasm modules in this folder"),
        (text.clone(), "notes.wasm: not a WebAssembly module"),
    ] {
        let out = run_modules(&[&path], FLAGS, &[], &results);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(words), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    // Nothing was saved, and no staging folder is left.
    let runs = json(&wasmeter(&["runs", "--json"], &results));
    assert_eq!(runs.as_array().map(Vec::len), Some(0), "{runs}");
    assert!(!results.join(".staging").exists());
    // A suite and modules at once is a usage error.
    let out = run_modules(&[&text], &["--suite", "compute"], &[], &results);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// A module that prints its argv[0], which runtimes fill differently: the embedded engines
/// with the test's name, the wasmtime CLI with the module's path.
const ARGV0: &str = r#"(module
  (import "wasi_snapshot_preview1" "args_sizes_get" (func $sizes (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "args_get" (func $get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "_start") (local $n i32)
    (drop (call $sizes (i32.const 0) (i32.const 4)))
    (drop (call $get (i32.const 16) (i32.const 1024)))
    (block $end (loop $next
      (br_if $end (i32.eqz (i32.load8_u (i32.add (i32.const 1024) (local.get $n)))))
      (local.set $n (i32.add (local.get $n) (i32.const 1)))
      (br $next)))
    (i32.store8 (i32.add (i32.const 1024) (local.get $n)) (i32.const 10))
    (i32.store (i32.const 256) (i32.const 1024))
    (i32.store (i32.const 260) (i32.add (local.get $n) (i32.const 1)))
    (drop (call $write (i32.const 1) (i32.const 256) (i32.const 1) (i32.const 300)))))"#;

#[test]
fn without_a_known_answer_the_runtimes_answers_are_cross_checked() {
    let tmp = tempfile::tempdir().unwrap();
    if runtimes_missing(&not_installed(&["wasmtime-cli"], tmp.path())) {
        return;
    }
    let results = tmp.path().join("results");
    let module = tmp.path().join("argv0.wasm");
    std::fs::write(&module, wat::parse_str(ARGV0).unwrap()).unwrap();
    let flags = once("wasmtime,wasmi,wasmtime-cli", &[]);
    let out = run_modules(&[&module], &flags, &[], &results);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let v = json(&out);
    let f = failures(&v);
    let by_rt: Vec<(&str, &str)> = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&f)
        .map(|(c, f)| (c["runtime"].as_str().unwrap(), f.as_str()))
        .collect();
    assert_eq!(by_rt[0], ("wasmtime", "ok"), "{by_rt:?}");
    assert_eq!(by_rt[1], ("wasmi", "ok"), "{by_rt:?}");
    assert_eq!(by_rt[2].0, "wasmtime-cli");
    assert!(
        by_rt[2].1.starts_with(
            "wrong output: not the answer of the majority (2 of 3 runtimes: wasmtime, wasmi): line 1: expected 'argv0', got '"
        ),
        "{by_rt:?}"
    );
    // The answers stay with the run.
    let runs = json(&wasmeter(&["runs", "--json"], &results));
    let dir = Path::new(runs[0]["dir"].as_str().unwrap()).to_path_buf();
    assert_eq!(
        std::fs::read_to_string(dir.join("answers/argv0/wasmi.txt")).unwrap(),
        "argv0\n"
    );

    // With the answer given, every runtime is held to it instead.
    let expect = tmp.path().join("expect.txt");
    std::fs::write(&expect, "argv0\n").unwrap();
    let flags = once(
        "wasmtime,wasmi,wasm3",
        &["--expect", expect.to_str().unwrap()],
    );
    let out = run_modules(&[&module], &flags, &[], &results);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    std::fs::write(&expect, "argv1\n").unwrap();
    let out = run_modules(&[&module], &flags, &[], &results);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let f = failures(&json(&out));
    assert!(
        f.iter()
            .all(|f| f == "wrong output: line 1: expected 'argv1', got 'argv0'"),
        "{f:?}"
    );
}

/// What a cell of the example modules must end with on runtimes that cannot run them (the
/// start of the failure), or `None` where it must pass.
fn example_exception(runtime: &str, test: &str) -> Option<&'static str> {
    match (runtime, test) {
        // The empty module of start-up runs everywhere.
        (_, "_startup") => None,
        // wasm3 0.4.7's parser predates what these toolchains emit: AssemblyScript's
        // section order, Go's and Zig's value types.
        ("wasm3", "fannkuch-as") => Some("error: out of order Wasm section"),
        ("wasm3-cli", "fannkuch-as") => {
            Some("error: runtime exited 1: wasm3: error: parse: out of order Wasm section")
        }
        ("wasm3", _) => Some("error: "),
        ("wasm3-cli", _) => Some("error: runtime exited 1: wasm3: error: "),
        // The PyPI WAMR's AOT build stops Go's runtime with a Go panic.
        ("wamr", "fannkuch-go") => Some("error: runtime exited 2: "),
        _ => None,
    }
}

#[test]
fn example_modules_from_go_zig_and_assemblyscript_run_on_every_available_runtime() {
    let tmp = tempfile::tempdir().unwrap();
    let modules = dirs_modules();
    let build = Command::new(suites_root().join("../assets/modules/build.sh"))
        .arg(&modules)
        .output()
        .expect("run assets/modules/build.sh");
    if !build.status.success() {
        let why = String::from_utf8_lossy(&build.stderr).to_string();
        assert!(
            std::env::var("CI").is_err(),
            "CI must build the example modules: {why}"
        );
        eprintln!("skipping: the example modules did not build here: {why}");
        return;
    }
    let expect = tmp.path().join("fannkuch-8.txt");
    std::fs::write(&expect, "1616\nPfannkuchen(8) = 22\n").unwrap();
    let results = tmp.path().join("results");
    let out = run_modules(
        &[&modules],
        &once(
            "all",
            &["--skip-missing", "--expect", expect.to_str().unwrap()],
        ),
        &["8"],
        &results,
    );
    let v = json(&out);
    let mut wrong = Vec::new();
    let mut ran = std::collections::BTreeSet::new();
    for c in v["cells"].as_array().unwrap() {
        let (rt, test) = (c["runtime"].as_str().unwrap(), c["test"].as_str().unwrap());
        let got = c["failure"].as_str().unwrap_or("ok");
        ran.insert(rt.to_string());
        match example_exception(rt, test) {
            None if got != "ok" => wrong.push(format!("{rt} × {test}: {got}")),
            Some(want) if !got.starts_with(want) => {
                wrong.push(format!("{rt} × {test}: want '{want}…', got '{got}'"))
            }
            _ => {}
        }
        if got == "ok" && test != "_startup" {
            assert_eq!(c["source"], "self", "{rt} × {test} self-times: {c}");
        }
    }
    assert!(wrong.is_empty(), "{}\n{}", wrong.join("\n"), stderr(&out));
    // Every embedded engine took part, and the CLI runtimes CI installs.
    for rt in [
        "wasmtime",
        "wasmer-cranelift",
        "wasmi",
        "wasm3",
        "wasmtime-cli",
        "node",
    ] {
        assert!(ran.contains(rt), "{rt} did not run: {ran:?}");
    }
    // The three, and the empty module CLI runtimes' start-up is measured on.
    assert_eq!(v["tests"].as_array().map(Vec::len), Some(4), "{v}");
    assert_eq!(v["tests"][3], "_startup", "{v}");
}

/// Where the example modules are built: the shared cache, so runs after the first are
/// up to date.
fn dirs_modules() -> std::path::PathBuf {
    std::env::var_os("HOME")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(std::env::temp_dir)
        .join(".cache/wasmeter/modules")
}

/// A module that prints its environment, one variable a line, then copies stdin to stdout.
const ENV_AND_STDIN: &str = r#"(module
  (import "wasi_snapshot_preview1" "environ_sizes_get" (func $sizes (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "environ_get" (func $get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read" (func $read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func $out (param $at i32) (param $len i32)
    (i32.store (i32.const 256) (local.get $at))
    (i32.store (i32.const 260) (local.get $len))
    (drop (call $write (i32.const 1) (i32.const 256) (i32.const 1) (i32.const 300))))
  (func (export "_start") (local $i i32) (local $n i32)
    (drop (call $sizes (i32.const 0) (i32.const 4)))
    (drop (call $get (i32.const 64) (i32.const 1024)))
    (local.set $n (i32.load (i32.const 4)))
    (block $end (loop $next
      (br_if $end (i32.ge_u (local.get $i) (local.get $n)))
      (if (i32.eqz (i32.load8_u (i32.add (i32.const 1024) (local.get $i))))
        (then (i32.store8 (i32.add (i32.const 1024) (local.get $i)) (i32.const 10))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next)))
    (call $out (i32.const 1024) (local.get $n))
    (block $eof (loop $more
      (i32.store (i32.const 256) (i32.const 8192))
      (i32.store (i32.const 260) (i32.const 4096))
      (br_if $eof (call $read (i32.const 0) (i32.const 256) (i32.const 1) (i32.const 300)))
      (local.set $n (i32.load (i32.const 300)))
      (br_if $eof (i32.eqz (local.get $n)))
      (call $out (i32.const 8192) (local.get $n))
      (br $more)))))"#;

#[test]
fn env_and_stdin_reach_the_guest_on_every_runtime_that_can_pass_them() {
    let tmp = tempfile::tempdir().unwrap();
    let wanted = [
        "wasmtime",
        "wasmer-cranelift",
        "wasmi",
        "wasm3",
        "wasmtime-cli",
        "node",
        "wazero",
        "iwasm",
    ];
    if runtimes_missing(&not_installed(
        &[&wanted[..], &["wamr"]].concat(),
        tmp.path(),
    )) {
        return;
    }
    let module = tmp.path().join("env.wasm");
    std::fs::write(&module, wat::parse_str(ENV_AND_STDIN).unwrap()).unwrap();
    let input = tmp.path().join("input.txt");
    std::fs::write(&input, "line one\nline two\n").unwrap();
    let expect = tmp.path().join("expect.txt");
    std::fs::write(&expect, "GREETING=hi there\nline one\nline two\n").unwrap();
    let runtimes = format!("{},wasm3-cli", wanted.join(","));
    let out = run_modules(
        &[&module],
        &once(
            &runtimes,
            &[
                "--skip-missing",
                "--env",
                "GREETING=hi there",
                "--stdin",
                input.to_str().unwrap(),
                "--expect",
                expect.to_str().unwrap(),
            ],
        ),
        &[],
        &tmp.path().join("results"),
    );
    let v = json(&out);
    assert_all_ok(&v, &out);
    let ran: Vec<&str> = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["test"] == "env")
        .map(|c| c["runtime"].as_str().unwrap())
        .collect();
    assert_eq!(ran, wanted, "{}", stderr(&out));
    assert!(
        stderr(&out)
            .contains("wasm3-cli — wasm3's own WASI gives the guest no environment variables"),
        "{}",
        stderr(&out)
    );
    // The PyPI wamr gets the variables through its own environment. (Not its stdin: its
    // fd_read of a file never reaches the end, it reads the start again; docs/runtimes.md.)
    let env_only = tmp.path().join("env-only.txt");
    std::fs::write(&env_only, "GREETING=hi there\n").unwrap();
    let out = run_modules(
        &[&module],
        &once(
            "wamr",
            &[
                "--env",
                "GREETING=hi there",
                "--expect",
                env_only.to_str().unwrap(),
            ],
        ),
        &[],
        &tmp.path().join("results"),
    );
    assert_all_ok(&json(&out), &out);
    // A bad variable is refused before anything runs.
    let out = run_modules(
        &[&module],
        &["--runtimes", "wasmtime", "--env", "NOEQUALS"],
        &[],
        &tmp.path().join("results"),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--env takes KEY=VALUE, not 'NOEQUALS'"));
}

#[test]
fn a_killed_run_of_modules_resumes_from_its_own_copy() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let module = tmp.path().join("mods/argv0.wasm");
    std::fs::create_dir_all(module.parent().unwrap()).unwrap();
    std::fs::write(&module, wat::parse_str(ARGV0).unwrap()).unwrap();
    let sha = tmp.path().join("mods/sha256.wasm");
    std::fs::copy(suites_root().join("compute/wasm/sha256.wasm"), &sha).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_wasmeter"))
        .args([
            "run",
            "--runtimes",
            "wasmtime,wasm3",
            "--warmup",
            "0",
            "--runs",
            "1",
        ])
        .args(["--invocations", "3", "--results"])
        .arg(&results)
        .arg(tmp.path().join("mods"))
        .args(["--", "quick"])
        .env("WASMETER_SUITES", suites_root())
        .env("WASMETER_CONFIG", "/dev/null")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once some invocations have ended.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let dir = loop {
        let run = std::fs::read_dir(&results).ok().and_then(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .find(|p| p.join("cells.jsonl").is_file())
        });
        if let Some(d) = run
            && std::fs::read_to_string(d.join("cells.jsonl"))
                .unwrap_or_default()
                .lines()
                .count()
                >= 2
        {
            break d;
        }
        assert!(std::time::Instant::now() < deadline, "no progress");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    // The modules given and the staging folder are gone: the run has its own copy.
    std::fs::remove_dir_all(tmp.path().join("mods")).unwrap();
    let _ = std::fs::remove_dir_all(results.join(".staging"));
    let id = dir.file_name().unwrap().to_str().unwrap().to_string();
    let runs = json(&wasmeter(&["runs", "--json"], &results));
    assert_eq!(runs[0]["status"], "interrupted", "{runs}");
    let out = wasmeter(&["run", "--resume", &id, "--json"], &results);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = json(&out);
    assert_all_ok(&v, &out);
    assert_eq!(v["cells"].as_array().unwrap().len(), 4, "{v}");
    assert!(
        v["cells"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["invocations"] == 3),
        "{v}"
    );
}

/// The C probe of assets/modules (its wasm and its native build), built by build.sh into
/// the shared cache; `None` (a skip, refused under CI) when it cannot be built here.
fn probe() -> Option<(std::path::PathBuf, std::path::PathBuf, std::path::PathBuf)> {
    let modules = dirs_modules();
    let build = Command::new(suites_root().join("../assets/modules/build.sh"))
        .arg(&modules)
        .output()
        .expect("run assets/modules/build.sh");
    let (wasm, native, component) = (
        modules.join("probe/probe.wasm"),
        modules.join("probe/probe-native"),
        modules.join("probe/probe-component.wasm"),
    );
    if build.status.success() {
        return Some((wasm, native, component));
    }
    let why = String::from_utf8_lossy(&build.stderr).to_string();
    assert!(
        std::env::var("CI").is_err(),
        "CI must build the probe: {why}"
    );
    eprintln!("skipping: the probe module did not build here: {why}");
    None
}

/// The cells of one test in a run's JSON summary: (runtime, failure or "ok").
fn cells_of<'a>(v: &'a serde_json::Value, test: &str) -> Vec<(&'a str, &'a str)> {
    v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["test"] == test)
        .map(|c| {
            (
                c["runtime"].as_str().unwrap(),
                c["failure"].as_str().unwrap_or("ok"),
            )
        })
        .collect()
}

#[test]
fn a_host_folder_an_export_and_a_native_build_reach_every_runtime_that_can_take_them() {
    let tmp = tempfile::tempdir().unwrap();
    let Some((wasm, native, _)) = probe() else {
        return;
    };
    let cli = ["wasmtime-cli", "node", "wazero", "wamr", "bun", "deno"];
    if runtimes_missing(&not_installed(&cli, tmp.path())) {
        return;
    }
    let results = tmp.path().join("results");
    let data = tmp.path().join("data");
    std::fs::create_dir(&data).unwrap();
    std::fs::write(data.join("hello.txt"), "hi there\n").unwrap();
    let expect = tmp.path().join("expect.txt");
    std::fs::write(&expect, "hi there\n9 bytes\n").unwrap();
    let dir = format!("{}::input", data.display());
    let embedded = ["wasmtime", "wasmer-cranelift", "wasmi", "wasm3"];
    let runtimes = format!(
        "native,{},{},wasm3-cli,iwasm",
        embedded.join(","),
        cli.join(",")
    );
    let out = run_modules(
        &[&wasm],
        &once(
            &runtimes,
            &[
                "--skip-missing",
                "--dir",
                &dir,
                "--native",
                native.to_str().unwrap(),
                "--expect",
                expect.to_str().unwrap(),
            ],
        ),
        &["input/hello.txt"],
        &results,
    );
    let v = json(&out);
    let err = stderr(&out);
    assert_all_ok(&v, &out);
    let ran: Vec<&str> = cells_of(&v, "probe").iter().map(|c| c.0).collect();
    let want: Vec<&str> = std::iter::once("native")
        .chain(embedded)
        .chain(cli)
        .collect();
    assert_eq!(ran, want, "{err}");
    assert!(
        err.contains("wasm3-cli — wasm3's own WASI preopens only its working folder"),
        "{err}"
    );
    assert!(err.contains("iwasm — wasmeter's iwasm driver"), "{err}");
    // The native build is the baseline; sizes of both are shown; CLI runtimes' times are
    // also shown less their start-up, labelled so.
    assert_eq!(v["baseline"], "native", "{v}");
    let show = wasmeter(&["show", "latest"], &results);
    let shown = String::from_utf8_lossy(&show.stdout);
    let (wasm_bytes, native_bytes) = (
        std::fs::metadata(&wasm).unwrap().len(),
        std::fs::metadata(&native).unwrap().len(),
    );
    let size = |b: u64| wasmeter_core::format::format_bytes(b as f64);
    let row = format!(
        "probe {} {} {:.2}",
        size(wasm_bytes),
        size(native_bytes),
        wasm_bytes as f64 / native_bytes as f64
    );
    assert!(
        shown.lines().any(|l| l
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .starts_with(&row)),
        "{row}: {shown}"
    );
    assert!(
        shown.contains("start-up corrected: a CLI runtime's"),
        "{shown}"
    );
    let corrected: Vec<&serde_json::Value> = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["test"] == "probe" && !c["startup_corrected"].is_null())
        .collect();
    assert_eq!(corrected.len(), cli.len(), "{v}");
    for c in corrected {
        let (ns, median) = (
            c["startup_corrected"]["ns"].as_f64().unwrap(),
            c["stats"]["median"].as_f64().unwrap(),
        );
        assert!(ns < median, "{c}");
    }

    // An export instead of _start: its arguments typed by its parameters, its result
    // printed; runtimes that cannot call one are not applicable.
    let mixed = tmp.path().join("mix.txt");
    std::fs::write(&mixed, "7000026\n").unwrap();
    let runtimes = format!("wasmtime,wasmer-cranelift,wasmi,wasm3,{}", cli.join(","));
    let out = run_modules(
        &[&wasm],
        &once(
            &runtimes,
            &["--invoke", "mix", "--expect", mixed.to_str().unwrap()],
        ),
        &["7", "5"],
        &results,
    );
    let v = json(&out);
    let err = stderr(&out);
    assert_all_ok(&v, &out);
    let ran: Vec<&str> = cells_of(&v, "probe").iter().map(|c| c.0).collect();
    assert_eq!(
        ran,
        [
            "wasmtime",
            "wasmer-cranelift",
            "wasmi",
            "wasmtime-cli",
            "node",
            "bun",
            "deno"
        ],
        "{err}"
    );
    for why in [
        "wasm3 — wasm3 0.4.7's API",
        "wazero — wazero's command line has no way to call an exported function",
        "wamr — wamr's command line has no way",
    ] {
        assert!(err.contains(why), "{why}: {err}");
    }
    // A wrong argument fails the cell, naming it.
    let out = run_modules(
        &[&wasm],
        &once("wasmtime,wasmi", &["--invoke", "mix"]),
        &["7", "x"],
        &results,
    );
    let f = failures(&json(&out));
    assert!(
        f.iter().any(|f| f.contains("argument 'x' of 'mix'")),
        "{f:?}"
    );

    // Bad input, before anything runs: a host folder that is not there, a native build
    // that is not a program, an export without a name.
    let runs_before = json(&wasmeter(&["runs", "--json"], &results))
        .as_array()
        .map(Vec::len);
    for (flags, words) in [
        (
            vec!["--dir", "/no/such/folder::x"],
            "/no/such/folder: No such file",
        ),
        (
            vec!["--native", expect.to_str().unwrap()],
            "expect.txt: not an executable file (--native)",
        ),
        (vec!["--invoke", ""], "--invoke names an exported function"),
    ] {
        let mut all = vec!["--runtimes", "wasmtime"];
        all.extend(flags);
        let out = run_modules(&[&wasm], &all, &[], &results);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(words), "{words}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    let runs_after = json(&wasmeter(&["runs", "--json"], &results))
        .as_array()
        .map(Vec::len);
    assert_eq!(runs_before, runs_after);
}

#[test]
fn a_component_runs_on_the_runtimes_that_take_components_and_the_rest_say_why_not() {
    let tmp = tempfile::tempdir().unwrap();
    let Some((_, _, component)) = probe() else {
        return;
    };
    if runtimes_missing(&not_installed(&["wasmtime-cli", "node"], tmp.path())) {
        return;
    }
    let results = tmp.path().join("results");
    let data = tmp.path().join("data");
    std::fs::create_dir(&data).unwrap();
    std::fs::write(data.join("hello.txt"), "a component\n").unwrap();
    let expect = tmp.path().join("expect.txt");
    std::fs::write(&expect, "a component\n12 bytes\n").unwrap();
    let dir = format!("{}::input", data.display());
    let out = run_modules(
        &[&component],
        &once(
            "wasmtime,wasmtime-pooling,wasmi,wasm3,wasmtime-cli,wasmtime-cli-aot,node",
            &["--dir", &dir, "--expect", expect.to_str().unwrap()],
        ),
        &["input/hello.txt"],
        &results,
    );
    let v = json(&out);
    let err = stderr(&out);
    assert_all_ok(&v, &out);
    let ran: Vec<&str> = cells_of(&v, "probe-component")
        .iter()
        .map(|c| c.0)
        .collect();
    assert_eq!(
        ran,
        [
            "wasmtime",
            "wasmtime-pooling",
            "wasmtime-cli",
            "wasmtime-cli-aot"
        ],
        "{err}"
    );
    assert!(
        err.contains(
            "wasmi, wasm3, node — core modules only: it cannot run a WebAssembly component"
        ),
        "{err}"
    );
    // Only core-module runtimes: nothing can run it, said before anything runs.
    let out = run_modules(&[&component], &once("wasmi", &[]), &[], &results);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("core modules only"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

/// A program that prints one integer (its checksum, 13288) after about 0.1 s of work is
/// timed by its phases, not read as libsodium's picoseconds per iteration: it was once
/// reported as 13 ns "self-timed".
#[test]
fn a_module_printing_one_integer_is_not_self_timed() {
    let tmp = tempfile::tempdir().unwrap();
    let module = tmp.path().join("k.wasm");
    if !crate::common::wasi_cc(&crate::common::test_data("checksum.c"), &module) {
        return;
    }
    let results = tmp.path().join("results");
    // A command suite's defaults: no warm-up, one run per invocation.
    let flags = ["--runtimes", "wasmtime", "--invocations", "2", "--json"];
    let out = run_modules(&[&module], &flags, &[], &results);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = json(&out);
    let cell = &v["cells"][0];
    assert_eq!(cell["test"], "k", "{cell}");
    assert_ne!(cell["source"], "self", "{cell}");
    assert_eq!(cell["source"], "wall", "{cell}");
    // The loop takes tens of milliseconds on any runtime here; 13288 ps would be 13 ns.
    let typical = cell["typical"].as_f64().unwrap();
    assert!(typical > 5e6, "timed as {typical} ns: {cell}");
    // Its answer is still what the run kept and compared.
    let runs = json(&wasmeter(&["runs", "--json"], &results));
    let dir = Path::new(runs[0]["dir"].as_str().unwrap()).to_path_buf();
    let answers: Vec<String> = walk(&dir)
        .into_iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter(|s| s.trim() == "13288")
        .collect();
    assert!(
        !answers.is_empty(),
        "the answer 13288 was not kept in {}",
        dir.display()
    );
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// Issue 59: a user's program against its own native build compares by default. `--native`
/// adds native whatever `--runtimes` names (and says so), and an embedded engine's execute
/// phase (timed alone) gets a ratio to native's process time less native's start-up (an
/// empty program), labelled so; the headline ranks both.
#[test]
fn your_program_against_its_native_build_gives_a_labelled_ratio() {
    let tmp = tempfile::tempdir().unwrap();
    let wasm = tmp.path().join("kernel.wasm");
    let native = tmp.path().join("kernel");
    if !wasi_cc(&test_data("kernel.c"), &wasm) {
        return;
    }
    let built = Command::new("cc")
        .args(["-O2"])
        .arg(test_data("kernel.c"))
        .arg("-o")
        .arg(&native)
        .status()
        .expect("cc");
    assert!(built.success());
    let results = tmp.path().join("results");
    let out = run_modules(
        &[&wasm],
        &[
            "--runtimes",
            "wasmtime",
            "--native",
            native.to_str().unwrap(),
            "--invocations",
            "3",
            "--json",
        ],
        &[],
        &results,
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("--native adds the native runtime to --runtimes"),
        "{err}"
    );
    let v = json(&out);
    let cell = |rt: &str| {
        v["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["runtime"] == rt && c["test"] == "kernel")
            .unwrap_or_else(|| panic!("no {rt} × kernel in {v}"))
            .clone()
    };
    let (n, w) = (cell("native"), cell("wasmtime"));
    assert_eq!(n["relative"].as_f64(), Some(1.0), "{n}");
    let r = w["relative"]
        .as_f64()
        .unwrap_or_else(|| panic!("no ratio: {w}"));
    // The same loop, compiled twice: within a factor of three either way.
    assert!(r > 0.33 && r < 3.0, "{w}");
    assert!(
        w["note"]
            .as_str()
            .unwrap_or_default()
            .starts_with("relative to native less its start-up ("),
        "{w}"
    );
    let show = wasmeter(&["show", "latest"], &results);
    let text = String::from_utf8_lossy(&show.stdout);
    assert!(!text.contains("only runtime"), "{text}");
    assert!(text.contains("wasmtime"), "{text}");
}
