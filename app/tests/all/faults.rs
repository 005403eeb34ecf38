//! The faults suite: every way a guest can misbehave, on native, embedded and CLI runtimes.
//! Each cell must end failed with its own reason, within the timeout and memory cap, and
//! the run (and the well-behaved `control` after the faults) must go on unharmed.

use crate::common::{json, stderr, wasmeter};

/// What each test must end with, as the start of its failure message ("ok": passes).
fn expected(runtime: &str, test: &str) -> &'static str {
    let native = runtime == "native";
    match test {
        "trap" if native => "crash: killed by signal 4 (SIGILL)",
        "trap" => "trap",
        "oob" if native => "crash: killed by signal 11 (SIGSEGV)",
        "oob" => "trap",
        "infinite_loop" => "timeout after 6 s",
        "memory_grow" => "out of memory",
        "stack_overflow" if native => "crash: killed by signal 11 (SIGSEGV)",
        "stack_overflow" => "trap",
        "exit3" => "exit code 3",
        "big_stdout" => "error: stdout exceeded 16777216 bytes",
        "wrong_answer" => "wrong output: line 1: expected 'wrong_answer 42', got 'wrong_answer 41'",
        // Native code is not sandboxed: it reads the host's files, which is the point.
        "escape" if native => {
            "wrong output: line 1: expected 'escape: /etc/passwd refused', got 'escape: /etc/passwd READABLE'"
        }
        // wasm3's WASI has no fd_readdir: the guest's `opendir("..")` stops it.
        "escape" if runtime == "wasm3-cli" => {
            "error: runtime exited 1: wasm3: error: run: missing imported function ('wasi_snapshot_preview1.fd_readdir')"
        }
        "escape" | "control" => "ok",
        other => panic!("unexpected test {other}"),
    }
}

#[test]
fn every_fault_fails_its_own_cell_with_its_reason_and_the_run_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let runtimes =
        "native,wasmtime,wasmer-singlepass,wasmi,wasmtime-cli,wazero,wasm3-cli,iwasm,wasm3";
    let out = wasmeter(
        &[
            "run",
            "--suite",
            "faults",
            "--runtimes",
            runtimes,
            "--runs",
            "1",
            "--invocations",
            "1",
            "--warmup",
            "0",
            // iwasm's memory_grow took over 3 s under a loaded CI machine.
            "--timeout",
            "6",
            "--memory-mib",
            "512",
            "--json",
        ],
        tmp.path(),
    );
    let v = json(&out);
    let mut wrong = Vec::new();
    for c in v["cells"].as_array().unwrap() {
        let (rt, test) = (c["runtime"].as_str().unwrap(), c["test"].as_str().unwrap());
        let got = c["failure"].as_str().unwrap_or("ok");
        let want = expected(rt, test);
        let matches = if want == "ok" {
            got == "ok"
        } else {
            got.starts_with(want)
        };
        if !matches {
            wrong.push(format!("{rt} × {test}: want '{want}…', got '{got}'"));
        }
    }
    assert!(wrong.is_empty(), "{}\n{}", wrong.join("\n"), stderr(&out));
    assert_eq!(v["cells"].as_array().unwrap().len(), 9 * 10);
    // The run itself ended normally and is listed as complete.
    let runs = json(&wasmeter(&["runs", "--json"], tmp.path()));
    assert_eq!(runs[0]["status"], "complete", "{runs}");
}
