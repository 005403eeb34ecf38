//! libsodium's own test suite end to end: built by its script (three tests, a private
//! cache), registered, checked and timed natively, embedded and through a CLI; and what a
//! user sees when the toolchain is missing, the build fails or an answer is wrong.

use crate::common::{failures, json, stderr, stdout, wasmeter_cached as wasmeter};

#[test]
fn libsodium_builds_registers_and_runs_checked_and_timed() {
    let d = tempfile::tempdir().unwrap();
    let out = wasmeter(&["run", "--suite", "libsodium"], d.path(), &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out)
            .contains("suite 'libsodium' is not built yet: run `wasmeter suite build libsodium`"),
        "{}",
        stderr(&out)
    );

    let listed = stdout(&wasmeter(&["suites"], d.path(), &[]));
    assert!(
        listed.lines().any(|l| l.starts_with("libsodium")
            && l.ends_with("not built yet: wasmeter suite build libsodium")),
        "{listed}"
    );

    let build = [("LIBSODIUM_TESTS", "auth box_seal misuse")];
    let out = wasmeter(&["suite", "build", "libsodium"], d.path(), &build);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("suite 'libsodium': 3 tests, built in "),
        "{}",
        stdout(&out)
    );
    assert!(stderr(&out).contains("4 builds in"), "{}", stderr(&out));
    let v = json(&wasmeter(&["suites", "libsodium", "--json"], d.path(), &[]));
    let names: Vec<&str> = v[0]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["auth", "box_seal", "misuse"]);

    let run = [
        "run",
        "--suite",
        "libsodium",
        "--runtimes",
        "native,wasmtime,wasmtime-cli",
        "--runs",
        "1",
        "--warmup",
        "0",
        "--invocations",
        "3",
        "--json",
    ];
    let out = wasmeter(&run, d.path(), &[]);
    let v = json(&out);
    assert_eq!(failures(&v), vec!["ok"; 9], "{}", stderr(&out));
    let cell = |rt: &str, test: &str| {
        v["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["runtime"] == rt && c["test"] == test)
            .unwrap()
            .clone()
    };
    for rt in ["native", "wasmtime", "wasmtime-cli"] {
        for test in ["auth", "box_seal"] {
            let c = cell(rt, test);
            // The guest's own timing of its loop: five HMAC or sealed-box rounds take
            // microseconds at least, and a process start-up is not in it.
            assert_eq!(c["source"], "self", "{c}");
            let median = c["stats"]["median"].as_f64().unwrap();
            assert!(median > 1e3 && median < 5e9, "{rt} {test}: {median} ns");
            let rel = c["relative"].as_f64().unwrap();
            assert!(rel > 0.1 && rel < 50.0, "{rt} {test}: {rel}");
        }
        // misuse is only checked: no time, no failure, out of the means.
        let c = cell(rt, "misuse");
        assert!(c["stats"].is_null() && c["failure"].is_null(), "{c}");
    }
    let per: Vec<(String, u64)> = v["per_runtime"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            assert!(r["geomean_relative"].as_f64().unwrap() > 0.0, "{r}");
            (
                r["runtime"].as_str().unwrap().to_string(),
                r["tests_compared"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        per,
        [("native", 2), ("wasmtime", 2), ("wasmtime-cli", 2)].map(|(r, n)| (r.to_string(), n))
    );
    let csv = wasmeter(
        &["export", "latest", "--format", "csv", "-o", "-"],
        d.path(),
        &[],
    );
    assert!(csv.status.success(), "{}", stderr(&csv));
    let csv = stdout(&csv);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let geomean: Vec<&str> = csv.lines().filter(|l| l.contains(",geomean,")).collect();
    assert_eq!(geomean.len(), 3, "{csv}");
    for line in geomean {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), header.len(), "{line}");
        assert_eq!((f[col("test")], f[col("n")]), ("geomean", "2"), "{line}");
        assert!(f[col("relative")].parse::<f64>().unwrap() > 0.0, "{line}");
        assert_eq!(f[col("note")], "2 of 3 tests", "{line}");
    }

    // A wrong answer: the known answer no longer matches what the test writes.
    let exp = d.path().join("cache/suites/libsodium/exp/auth.exp");
    let text = std::fs::read_to_string(&exp).unwrap();
    std::fs::write(&exp, format!("a different first line\n{text}")).unwrap();
    let out = wasmeter(
        &[
            "run",
            "--suite",
            "libsodium",
            "--tests",
            "auth",
            "--runtimes",
            "native,wasmtime",
            "--runs",
            "1",
            "--invocations",
            "1",
            "--json",
        ],
        d.path(),
        &[],
    );
    for f in failures(&json(&out)) {
        assert!(
            f.starts_with(
                "wrong output: check: auth.res line 1: expected 'a different first line', got "
            ),
            "{f}"
        );
    }
}

#[test]
fn a_missing_toolchain_or_a_failing_build_says_what_and_where() {
    let d = tempfile::tempdir().unwrap();
    let out = wasmeter(&["suite", "build", "nosuch"], d.path(), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .contains("nosuch/build.sh: no build script for suite 'nosuch' (suites with one: ")
            && stderr(&out).contains("libsodium"),
        "{}",
        stderr(&out)
    );

    let no_wasi = [
        ("WASI_SYSROOT", "/nonexistent-wasi-sysroot"),
        ("WASMETER_NO_INSTALL", "1"),
        ("LIBSODIUM_TESTS", "auth"),
    ];
    let out = wasmeter(&["suite", "build", "libsodium"], d.path(), &no_wasi);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("missing wasi-libc headers in WASI_SYSROOT=/nonexistent-wasi-sysroot")
            && err.contains(
                "install the Debian packages: apt-get install clang-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32 llvm-19"
            )
            && err.contains("wasmeter: building suite 'libsodium' failed after"),
        "{err}"
    );

    let bad_flag = [
        ("LIBSODIUM_WASM_CFLAGS", "-fno-such-flag-for-wasmeter"),
        ("LIBSODIUM_TESTS", "auth"),
    ];
    let out = wasmeter(&["suite", "build", "libsodium"], d.path(), &bad_flag);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    // The failing command, where its log is, and the log's last lines.
    assert!(
        err.contains("build.sh: failed: ./configure --host=wasm32-wasi"),
        "{err}"
    );
    assert!(err.contains("logs/wasm-bench/configure.log"), "{err}");
    assert!(
        err.contains("C compiler cannot create executables"),
        "{err}"
    );
    // Nothing half-built is registered.
    let out = wasmeter(&["run", "--suite", "libsodium"], d.path(), &[]);
    assert!(
        stderr(&out).contains("is not built yet"),
        "{}",
        stderr(&out)
    );
}
