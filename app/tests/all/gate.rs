//! The pull-request gate: scripts/bench-pr (the steps of .github/workflows/bench-pr.yml)
//! builds a module at two git revisions, runs both paired in one run and fails on a
//! slowdown; `diff --fail-on` gives the exit codes and refuses bad input with one line.

use crate::common::{refused, stderr, test_data, wasi_cc, wasmeter};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// scripts/bench-pr with the test's wasmeter.
fn bench_pr(args: &[&std::ffi::OsStr], cwd: &Path, env: &[(&str, &str)]) -> Output {
    Command::new(crate::common::suites_root().join("../scripts/bench-pr"))
        .args(args)
        .current_dir(cwd)
        .env("WASMETER", env!("CARGO_BIN_EXE_wasmeter"))
        .env("WASMETER_SUITES", crate::common::suites_root())
        .env("WASMETER_CONFIG", "/dev/null")
        .envs(env.iter().copied())
        .output()
        .expect("run scripts/bench-pr")
}

fn git(repo: &Path, args: &[&str]) -> String {
    let o = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(repo)
        .output()
        .expect("git");
    assert!(o.status.success(), "git {args:?}: {}", stderr(&o));
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// A repository whose `bench/kernel.c` does `works[i]` rounds at commit i; their hashes.
fn repo_with(dir: &Path, works: &[u32]) -> Vec<String> {
    std::fs::create_dir_all(dir.join("bench")).unwrap();
    git(dir, &["init", "-q"]);
    let src = std::fs::read_to_string(test_data("kernel.c")).unwrap();
    works
        .iter()
        .map(|w| {
            let c = src.replace("#define WORK 60000000u", &format!("#define WORK {w}u"));
            std::fs::write(dir.join("bench/kernel.c"), c).unwrap();
            git(dir, &["add", "-A"]);
            git(
                dir,
                &["commit", "-q", "--allow-empty", "-m", &format!("work {w}")],
            );
            git(dir, &["rev-parse", "HEAD"])
        })
        .collect()
}

const BUILD: &str = "clang-19 --target=wasm32-wasi -O2 -Wl,--strip-all bench/kernel.c -o \"$OUT\"";

#[test]
fn timed_the_pull_request_gate_fails_on_a_slowdown_and_passes_identical_builds() {
    // Only the toolchain check: a missing clang-19 skips (and fails under CI).
    let tmp = tempfile::tempdir().unwrap();
    if !wasi_cc(&test_data("kernel.c"), &tmp.path().join("probe.wasm")) {
        return;
    }
    let repo = tmp.path().join("repo");
    // base, a 25 % slower head, and a head identical to base.
    let revs = repo_with(&repo, &[60_000_000, 75_000_000, 60_000_000]);
    // 16 rounds: at 8, on a CI machine busy with the other tests, identical builds once
    // had their microsecond teardown called 1.29× slower (session 22's CI).
    let env = [
        ("BENCH_BUILD", BUILD),
        ("BENCH_INVOCATIONS", "16"),
        ("BENCH_ALLOW_BUSY", "1"),
        // Identical builds pass only when their intervals show them within the margin:
        // 25 %. 10 % was too narrow for 16 rounds on a 2-core VM whose other core a build
        // held (issue 45's loaded runs, 2026-11-28: [0.958, 1.101], ±6.9 %, undecided);
        // the slower head fails on its verdict, whatever the margin.
        ("BENCH_MAX_REGRESSION", "25"),
    ];
    let wasm = |name: &str| -> PathBuf { tmp.path().join(format!("{name}.wasm")) };
    for (rev, name) in revs.iter().zip(["base", "slow", "same"]) {
        let o = bench_pr(
            &["build".as_ref(), rev.as_ref(), wasm(name).as_os_str()],
            &repo,
            &env,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    assert_eq!(
        std::fs::read(wasm("base")).unwrap(),
        std::fs::read(wasm("same")).unwrap(),
        "the same source builds the same module"
    );
    // The slower head fails the gate with exit 3; its comment leads with the verdict and
    // lists the slower row before the folded rest.
    let out = tmp.path().join("slow");
    let o = bench_pr(
        &[
            "compare".as_ref(),
            wasm("base").as_os_str(),
            wasm("slow").as_os_str(),
            out.as_os_str(),
        ],
        &repo,
        &env,
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let md = std::fs::read_to_string(out.join("comment.md")).unwrap();
    let d: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("diff.json")).unwrap()).unwrap();
    let rows = d["rows"].as_array().unwrap();
    let slower = rows.iter().filter(|r| r["verdict"] == "slower").count();
    assert!(
        md.contains(&format!(
            "**{slower} slower, 0 faster** of {} rows",
            rows.len()
        )),
        "{md}"
    );
    let (changed, folded) = md.split_once("<details>").unwrap();
    assert!(
        changed.contains("| wasmtime | base → head | execute |"),
        "{md}"
    );
    assert!(
        !changed.contains("| compile |"),
        "only changed rows before the fold: {md}"
    );
    assert!(
        folded.contains(&format!("<summary>All {} rows", rows.len())),
        "{md}"
    );
    assert!(
        stderr(&o).contains("wasmtime × base → head (execute): slower"),
        "{}",
        stderr(&o)
    );
    let row = rows.iter().find(|r| r["phase"] == "execute").unwrap();
    assert_eq!(row["verdict"], "slower", "{row}");
    assert_eq!(row["pairs"], 16, "{row}");
    let ratio = row["ratio"].as_f64().unwrap();
    assert!(
        (1.1..1.45).contains(&ratio),
        "25 % more work measured as {ratio}: {row}"
    );
    assert!(d["paired"].as_bool().unwrap(), "{d}");
    // Identical builds pass.
    let out = tmp.path().join("same");
    let o = bench_pr(
        &[
            "compare".as_ref(),
            wasm("base").as_os_str(),
            wasm("same").as_os_str(),
            out.as_os_str(),
        ],
        &repo,
        &env,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let md = std::fs::read_to_string(out.join("comment.md")).unwrap();
    assert!(
        md.contains("**No change beyond ±2 % could be told** in "),
        "{md}"
    );
    assert!(md.contains(" Shown: B at most "), "{md}");

    // diff's own gate and bad input, on that run.
    let results = out.join("results");
    let diff = |args: &[&str]| wasmeter(&[&["diff", "latest"], args].concat(), &results);
    let o = diff(&[
        "--tests",
        "base,head",
        "--fail-on",
        "change",
        "--max-regression",
        "25",
        "--phases",
        "execute",
        "--allow-busy",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A margin no interval can show on both sides leaves the gate undecided, naming the
    // row (with `slower` alone, a head measured faster can end below +0.001 %).
    let o = diff(&[
        "--tests",
        "base,head",
        "--fail-on",
        "change",
        "--max-regression",
        "0.001",
        "--phases",
        "execute",
        "--allow-busy",
    ]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "could not show a change within ±0.001 %: wasmtime × base → head (execute): its interval ["
        ),
        "{}",
        stderr(&o)
    );
    // Without --fail-on the exit code does not depend on verdicts.
    assert_eq!(diff(&["--tests", "head,base"]).status.code(), Some(0));
    for (args, want) in [
        (
            &["--tests", "base,base"][..],
            "the two arms of a comparison must differ, got 'base' twice",
        ),
        (&["--tests", "base,nope"], "test 'nope' is not in run"),
        (
            &["--tests", "base,head", "--fail-on", "worse"],
            "--fail-on takes slower or change, not 'worse'",
        ),
        (
            &[
                "--tests",
                "base,head",
                "--fail-on",
                "slower",
                "--max-regression",
                "0",
            ],
            "--max-regression takes a percentage above 0 and below 100, not 0",
        ),
        (
            &["--runtimes", "wasmtime,wasmtime"],
            "must differ, got 'wasmtime' twice",
        ),
        (
            &["--tests", "base,head", "--format", "xml"],
            "--format takes text, md or json, not 'xml'",
        ),
        (
            &["--tests", "base,head", "--threshold", "-1"],
            "--threshold must be a finite percentage",
        ),
        (
            &["--tests", "base,head", "--phases", "execute,nope"],
            "phase 'nope' is in no row of this diff (it has: ",
        ),
    ] {
        let o = diff(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
    // Bad input to the script: a revision that is not one, a missing module.
    let o = bench_pr(
        &[
            "build".as_ref(),
            "no-such-rev".as_ref(),
            wasm("x").as_os_str(),
        ],
        &repo,
        &env,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no-such-rev: not a commit"),
        "{}",
        stderr(&o)
    );
    let o = bench_pr(
        &[
            "compare".as_ref(),
            wasm("nope").as_os_str(),
            wasm("base").as_os_str(),
            out.as_os_str(),
        ],
        &repo,
        &env,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("nope.wasm: no such module"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn run_pair_refuses_bad_arms_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    for (pair, want) in [
        (
            "wasmtime,wasmtime",
            "--pair needs different arms, got 'wasmtime' twice",
        ),
        (
            "wasmtime,crc32",
            "--pair takes runtimes or tests of the run, all of one kind",
        ),
        ("wasmtime", "--pair needs two or more arms, got 'wasmtime'"),
    ] {
        let err = refused(
            &[
                "run",
                "--suite",
                "compute",
                "--tests",
                "crc32,sha256",
                "--runtimes",
                "wasmtime,wasmtime-pooling",
                "--pair",
                pair,
            ],
            tmp.path(),
        );
        assert!(err.contains(want), "{pair}: {err}");
    }
}

/// A number out of core's range is refused in one line, exit 2, in the words the TUI and
/// the desktop say for the same value (ui-tui/tests/all/flow.rs,
/// ui-desktop/tests/all/commands.rs): its range is core's (model::limits), not the CLI's.
#[test]
fn run_refuses_numbers_out_of_range_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    for (flags, want) in [
        (
            ["--invocations", "0"],
            "--invocations must be from 1 to 10000, got 0",
        ),
        (
            ["--runs", "100001"],
            "--runs must be from 1 to 100000, got 100001",
        ),
        (
            ["--timeout", "90000"],
            "--timeout must be from 1 to 86400 s, got 90000",
        ),
        (
            ["--budget", "200h"],
            "--budget must be from 1 to 604800 s, got 720000",
        ),
        (
            ["--sample-ms", "5"],
            "--sample-ms must be from 10 to 60000 ms, got 5",
        ),
        (
            ["--memory-mib", "8"],
            "--memory-mib must be from 16 to 1048576 MiB, got 8",
        ),
    ] {
        let mut args = vec!["run", "--suite", "compute", "--runtimes", "wasmtime"];
        args.extend(flags);
        let err = refused(&args, tmp.path());
        assert_eq!(err.trim(), format!("wasmeter: {want}"), "{flags:?}");
    }
}

#[test]
fn precision_adds_rounds_until_the_budget_and_says_what_fell_short() {
    let tmp = tempfile::tempdir().unwrap();
    let base = [
        "run",
        "--suite",
        "compute",
        "--tests",
        "crc32",
        "--runtimes",
        "wasmtime",
        "--warmup",
        "0",
        "--runs",
        "1",
        "--invocations",
        "2",
        "--json",
    ];
    // An aim no run reaches: rounds are added until the budget is spent, then the run says
    // which cell fell short, by how much and why.
    let o = wasmeter(
        &[&base[..], &["--precision", "0.0001", "--budget", "4s"]].concat(),
        tmp.path(),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let inv = v["cells"][0]["invocations"].as_u64().unwrap();
    assert!(inv > 2, "no rounds were added: {inv} invocations\n{err}");
    assert!(err.contains("1 cell(s) did not reach ±0.0001 %:"), "{err}");
    assert!(err.contains("wasmtime × crc32: ±"), "{err}");
    assert!(
        err.contains(&format!("after {inv} invocations (budget spent")),
        "{err}"
    );
    assert!(err.contains("show ") && err.contains(" --noise"), "{err}");
    let runs = crate::common::json(&wasmeter(&["runs", "--json"], tmp.path()));
    let id = runs[0]["id"].as_str().unwrap().to_string();
    let show = crate::common::json(&wasmeter(&["show", &id, "--json"], tmp.path()));
    assert_eq!(
        show["cells"][0]["invocations"].as_u64(),
        Some(inv),
        "{show}"
    );
    // An aim four invocations meet (two give t = 12.7: an interval of ±100 % or more):
    // no round is added beyond the planned four.
    let mut four = base.to_vec();
    four[12] = "4";
    let o = wasmeter(&[&four[..], &["--precision", "100"]].concat(), tmp.path());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["cells"][0]["invocations"].as_u64(), Some(4), "{v}");
    assert!(err.contains("every cell reached ±100 %"), "{err}");
    // Bad input: one line, exit 2, nothing run.
    for (args, want) in [
        (
            &["--precision", "0"][..],
            "--precision must be a percentage over 0 and at most 100, got 0",
        ),
        (&["--precision", "101"], "got 101"),
        (&["--precision", "-5"], "got -5"),
        (
            &["--precision", "5", "--budget", "10x"],
            "--budget takes a duration such as 90s, 10m or 1h30m, not '10x'",
        ),
        (
            &["--precision", "x"],
            "--precision takes a percentage or off, not 'x'",
        ),
        (
            &["--precision", "off", "--budget", "1m"],
            "--budget bounds the rounds a precision adds; --precision off adds none",
        ),
    ] {
        let o = wasmeter(&[&base[..], args].concat(), tmp.path());
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}

/// The cells of a `--json` summary by test: (invocations, values, failed).
fn cells_by_test(v: &serde_json::Value) -> Vec<(String, u64, u64, bool)> {
    v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["test"].as_str().unwrap().to_string(),
                c["invocations"].as_u64().unwrap_or(0),
                c["stats"]["n"].as_u64().unwrap_or(0),
                !c["failure"].is_null(),
            )
        })
        .collect()
}

#[test]
fn alternating_arms_share_one_worker_and_a_failing_arm_fails_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let (good, bad) = (tmp.path().join("good.wasm"), tmp.path().join("bad.wasm"));
    let bad_src = tmp.path().join("bad.c");
    std::fs::write(&bad_src, "int main(void) { return 3; }\n").unwrap();
    if !wasi_cc(&test_data("checksum.c"), &good) || !wasi_cc(&bad_src, &bad) {
        return;
    }
    std::fs::copy(&good, tmp.path().join("twin.wasm")).unwrap();
    std::fs::copy(&good, tmp.path().join("triplet.wasm")).unwrap();
    let run = |modules: &[&str], pair: &str, results: &Path| {
        let mut args = vec!["run"];
        args.extend_from_slice(modules);
        args.extend([
            "--runtimes",
            "wasmtime",
            "--invocations",
            "3",
            "--runs",
            "2",
            "--pair",
            pair,
            "--json",
        ]);
        wasmeter(&args, results)
    };
    let paths = |names: &[&str]| -> Vec<String> {
        names
            .iter()
            .map(|n| tmp.path().join(n).display().to_string())
            .collect()
    };
    // Three healthy arms: the default for a command suite alternates them in one worker,
    // so each round's three invocations end together (one worker's wall time for all).
    let res = tmp.path().join("ok");
    let mods = paths(&["good.wasm", "twin.wasm", "triplet.wasm"]);
    let o = run(&[&mods[0], &mods[1], &mods[2]], "good,twin,triplet", &res);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for (test, inv, n, failed) in cells_by_test(&v) {
        assert_eq!((inv, n, failed), (3, 6, false), "{test}");
    }
    let dir = std::fs::read_dir(&res)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.join("meta.json").exists())
        .unwrap();
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json")).unwrap()).unwrap();
    assert_eq!(meta["settings"]["pair_mode"], "alternate");
    let records: Vec<serde_json::Value> = std::fs::read_to_string(dir.join("cells.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 9);
    for round in 0..3 {
        let walls: Vec<f64> = records
            .iter()
            .filter(|r| r["invocation"] == round)
            .map(|r| r["wall_ms"].as_f64().unwrap())
            .collect();
        assert_eq!(walls.len(), 3, "round {round}");
        assert!(
            walls.iter().all(|w| *w == walls[0]),
            "round {round}: several workers, not one: {walls:?}"
        );
    }
    // Any two of the arms diff paired, as arms that alternated.
    let o = wasmeter(
        &[
            "diff",
            "latest",
            "--tests",
            "twin,triplet",
            "--format",
            "json",
        ],
        &res,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let d: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (d["paired"].as_bool(), d["alternated"].as_bool()),
        (Some(true), Some(true)),
        "{d}"
    );
    // `show --noise` says where the noise lies, and what the pairing cancelled.
    let o = wasmeter(&["show", "latest", "--noise", "--json"], &res);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let n: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(n["cells"].as_array().unwrap().len(), 3);
    assert!(n["cells"][0]["within_pct"].as_f64().is_some());
    // Every two of the three arms.
    let pairs = n["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 3, "{n}");
    for p in pairs {
        assert_eq!(p["rounds"], 3, "{p}");
        assert!(p["paired_pct"].as_f64().unwrap() >= 0.0, "{p}");
    }

    // A failing arm fails only its own cell; the others run every iteration.
    let res = tmp.path().join("bad");
    let mods = paths(&["good.wasm", "bad.wasm", "twin.wasm"]);
    let o = run(&[&mods[0], &mods[1], &mods[2]], "good,bad,twin", &res);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let cells = cells_by_test(&v);
    for name in ["good", "twin"] {
        let c = cells.iter().find(|c| c.0 == name).unwrap();
        assert_eq!((c.1, c.2, c.3), (3, 6, false), "{name}: {cells:?}");
    }
    assert!(cells.iter().find(|c| c.0 == "bad").unwrap().3, "{cells:?}");
}

#[test]
fn pair_mode_refuses_what_cannot_alternate_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    for (args, want) in [
        (
            &[
                "--suite",
                "lifecycle",
                "--runtimes",
                "wasmtime,wasmtime-pooling",
            ][..],
            "--pair-mode alternate runs the arms in one worker, which only command suites measured by time can (this is a lifecycle suite)",
        ),
        (
            &[
                "--suite",
                "compute",
                "--tests",
                "crc32",
                "--runtimes",
                "wasmtime,wasmtime-pooling",
                "--measure",
                "instructions",
            ][..],
            "(this is a command suite counting instructions)",
        ),
    ] {
        let mut all = vec!["run"];
        all.extend_from_slice(args);
        all.extend([
            "--pair",
            "wasmtime,wasmtime-pooling",
            "--pair-mode",
            "alternate",
        ]);
        let o = wasmeter(&all, tmp.path());
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(want), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    let o = wasmeter(
        &[
            "run",
            "--suite",
            "compute",
            "--runtimes",
            "wasmtime,wasmtime-pooling",
            "--pair",
            "wasmtime,wasmtime-pooling",
            "--pair-mode",
            "sideways",
        ],
        tmp.path(),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--pair-mode: unknown pair mode 'sideways' (expected alternate or processes)"),
        "{err}"
    );
}

#[test]
fn timed_native_dlopen_alternates_with_an_engine_in_one_worker() {
    let tmp = tempfile::tempdir().unwrap();
    let res = tmp.path().join("res");
    // The library build is the same C as native's program: the same known answers, and a
    // paired comparison with wasmtime in one worker.
    let o = wasmeter(
        &[
            "run",
            "--suite",
            "compute",
            "--tests",
            "nbody,sha256",
            "--runtimes",
            "native-dlopen,wasmtime",
            "--pair",
            "native-dlopen,wasmtime",
            "--invocations",
            "3",
            "--json",
        ],
        &res,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let cells = cells_by_test(&v);
    assert_eq!(cells.len(), 4, "{cells:?}");
    for (test, inv, n, failed) in &cells {
        assert_eq!((*inv, *n, *failed), (3, 3, false), "{test}");
    }
    let o = wasmeter(
        &[
            "diff",
            "latest",
            "--runtimes",
            "native-dlopen,wasmtime",
            "--format",
            "json",
        ],
        &res,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let d: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rows = d["rows"].as_array().unwrap();
    let execute: Vec<&serde_json::Value> = rows
        .iter()
        .filter(|r| r["phase"] == "execute" && r["ratio"].is_number())
        .collect();
    assert_eq!(execute.len(), 2, "{rows:?}");
    for r in execute {
        // The pairs are by round. wasm is never significantly faster than the same C
        // natively; nbody's margin (about 1.15× here) is within a noisy VM's swing over 3
        // pairs, so only the verdict is held for every kernel, and the direction on
        // sha256, whose margin (about 1.24×) a swapped pair would turn into about 0.8×.
        assert_eq!(r["pairs"], 3, "{r}");
        assert_ne!(r["verdict"], "faster", "{r}");
        let ratio = r["ratio"].as_f64().unwrap();
        assert!((0.5..4.0).contains(&ratio), "{r}");
        if r["test"] == "sha256" {
            assert!(ratio > 1.0, "{r}");
        }
    }
    // A suite it cannot run says why, in one line.
    let o = wasmeter(
        &["run", "--suite", "lifecycle", "--runtimes", "native-dlopen"],
        &res,
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

/// Issue 59: a command suite's run whose rounds are left to wasmeter aims at ±3 % within 10
/// minutes (saved with the run), `--precision off` runs the planned rounds alone, and a
/// budget the planned rounds alone outlast is refused before anything runs.
#[test]
fn precision_is_the_default_where_the_rounds_are_left_to_wasmeter() {
    let tmp = tempfile::tempdir().unwrap();
    let base = [
        "run",
        "--suite",
        "compute",
        "--tests",
        "crc32",
        "--runtimes",
        "wasmtime",
        "--json",
    ];
    // The latest run's saved settings.
    let meta = |tmp: &Path| -> serde_json::Value {
        let runs = crate::common::json(&wasmeter(&["runs", "--json"], tmp));
        let latest = runs
            .as_array()
            .unwrap()
            .iter()
            .max_by(|a, b| {
                let t = |r: &serde_json::Value| r["started_unix"].as_f64().unwrap_or(0.0);
                t(a).total_cmp(&t(b))
            })
            .unwrap();
        let dir = Path::new(latest["dir"].as_str().unwrap());
        serde_json::from_slice(&std::fs::read(dir.join("meta.json")).unwrap()).unwrap()
    };
    let o = wasmeter(&base, tmp.path());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let m = meta(tmp.path());
    assert_eq!(
        m["settings"]["precision"],
        serde_json::json!({ "pct": 3.0, "budget_secs": 600 }),
        "{m}"
    );
    assert!(
        err.contains("every cell reached ±3 %") || err.contains("did not reach ±3 %"),
        "{err}"
    );
    // Off: the planned six and no more.
    let o = wasmeter(&[&base[..], &["--precision", "off"]].concat(), tmp.path());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["cells"][0]["invocations"].as_u64(), Some(6), "{v}");
    assert!(meta(tmp.path())["settings"]["precision"].is_null());
    assert!(!err.contains("reach ±"), "{err}");
    // Rounds chosen by hand: no default precision.
    let o = wasmeter(&[&base[..], &["--invocations", "3"]].concat(), tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(meta(tmp.path())["settings"]["precision"].is_null());
    // Two runs are history enough to estimate: 40 planned rounds outlast a 1 s budget.
    let o = wasmeter(
        &[
            &base[..],
            &["--invocations", "40", "--precision", "5", "--budget", "1s"],
        ]
        .concat(),
        tmp.path(),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--budget 1s: the planned rounds alone take about"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}
