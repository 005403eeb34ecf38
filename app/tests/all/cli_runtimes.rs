//! External runtimes end to end: real CLIs on the compute suite, and custom runtimes from a
//! config file that lie, crash, hang or cannot be executed.

use crate::common::{failures, json, once, runtimes_missing, stderr, suites_root};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn wasmeter(args: &[&str], results: &Path, config: Option<&Path>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_wasmeter"));
    c.args(args)
        .arg("--results")
        .arg(results)
        .env("WASMETER_SUITES", suites_root());
    match config {
        Some(p) => c.env("WASMETER_CONFIG", p),
        None => c.env("WASMETER_CONFIG", "/dev/null"),
    };
    c.output().expect("run wasmeter")
}

fn available(tmp: &Path) -> Vec<String> {
    let v = json(&wasmeter(&["runtimes", "--json"], tmp, None));
    v.as_array()
        .unwrap()
        .iter()
        .filter(|r| r["unavailable"].is_null())
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn quick_compute_suite_on_real_cli_runtimes() {
    let tmp = tempfile::tempdir().unwrap();
    let have = available(tmp.path());
    // wasm3 and the two WAMR builds are built from crates.io by scripts/install-runtimes.
    let mut wanted = vec![
        "node",
        "wasmtime-cli",
        "wazero",
        "wasm3-cli",
        "iwasm",
        "iwasm-fast-jit",
    ];
    if have.iter().any(|r| r == "wamr") {
        wanted.push("wamr");
    }
    let missing: Vec<&str> = wanted
        .iter()
        .copied()
        .filter(|w| !have.iter().any(|h| h == w))
        .collect();
    if runtimes_missing(&missing) {
        return;
    }
    let list = format!("native,{}", wanted.join(","));
    let mut args = vec!["run", "--suite", "compute"];
    args.extend(once(&list, &[]));
    let out = wasmeter(&args, tmp.path(), None);
    let v = json(&out);
    let bad: Vec<String> = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| !c["failure"].is_null())
        .filter(|c| {
            // Runtimes without SIMD may fail the SIMD variant, but only that, and saying so.
            let no_simd = match c["runtime"].as_str().unwrap() {
                "wamr" => "UnsupportedOpcode",
                "wasm3-cli" => "unknown value_type",
                "iwasm-fast-jit" => "v128 value type requires simd feature",
                _ => return true,
            };
            !(c["test"] == "matmul-simd" && c["failure"].as_str().unwrap().contains(no_simd))
        })
        .map(|c| format!("{} × {}: {}", c["runtime"], c["test"], c["failure"]))
        .collect();
    assert!(bad.is_empty(), "{bad:#?}");
    for c in v["cells"].as_array().unwrap() {
        if c["failure"].is_null() {
            assert_eq!(c["source"], "self", "{c}");
            assert!(c["stats"]["median"].as_f64().unwrap() > 1e5, "{c}");
            if c["runtime"] != "native" {
                // CLI cells carry the process's wall time and a start-up overhead.
                assert!(
                    c["phases"]["total"].as_f64().unwrap() > c["stats"]["median"].as_f64().unwrap(),
                    "{c}"
                );
                assert!(c["startup_ns"].as_f64().unwrap() > 0.0, "{c}");
            }
        }
    }
    // The exact command line is recorded with the run.
    let meta = crate::common::latest_meta(tmp.path());
    let wt = meta["runtimes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "wasmtime-cli")
        .unwrap();
    assert!(
        wt["command"]["run"][0]
            .as_str()
            .unwrap()
            .ends_with("wasmtime"),
        "{wt}"
    );
}

fn write_config(dir: &Path, body: &str) -> PathBuf {
    let p = dir.join("wasmeter.toml");
    std::fs::write(&p, body).unwrap();
    p
}

#[test]
fn misbehaving_runtimes_fail_their_cells_and_the_run_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let not_exec = tmp.path().join("not-executable");
    // The hung runtime's shell carries this as its $0, so the check below finds only it.
    let marker = format!("wasmeter-hang-{}", std::process::id());
    std::fs::write(&not_exec, "#!/bin/sh\necho hi\n").unwrap();
    let cfg = write_config(
        tmp.path(),
        &format!(
            r#"
[[runtime]]
id = "liar"
command = ["/bin/sh", "-c", "echo 'sha256 0000'", "sh", "{{wasm}}", "{{args}}"]

[[runtime]]
id = "segv"
command = ["/bin/sh", "-c", "kill -SEGV $$", "sh", "{{wasm}}"]

[[runtime]]
id = "hang"
command = ["/bin/sh", "-c", "sleep 300; :", "{marker}", "{{wasm}}"]

[[runtime]]
id = "noexec"
command = ["{}", "{{wasm}}"]
"#,
            not_exec.display(),
            marker = marker
        ),
    );
    let started = std::time::Instant::now();
    let out = wasmeter(
        &[
            "run",
            "--suite",
            "compute",
            "--tests",
            "sha256",
            "--runtimes",
            "liar,segv,hang,noexec,wasmtime",
            "--warmup",
            "0",
            "--runs",
            "1",
            "--invocations",
            "1",
            "--timeout",
            "2",
            "--json",
        ],
        &tmp.path().join("r"),
        Some(&cfg),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let f = failures(&json(&out));
    assert!(f[0].starts_with("wrong output: line "), "{f:?}");
    assert_eq!(f[1], "crash: killed by signal 11 (SIGSEGV)");
    assert_eq!(f[2], "timeout after 2 s");
    assert!(f[3].contains("not-executable: not executable"), "{f:?}");
    assert_eq!(f[4], "ok", "the good runtime still ran: {f:?}");
    assert!(started.elapsed().as_secs() < 60);
    // The hung runtime (its shell and the sleep under it) was killed with its worker.
    let ps = Command::new("pgrep")
        .args(["-f", &marker])
        .output()
        .unwrap();
    assert!(
        ps.stdout.is_empty(),
        "left behind: {}",
        String::from_utf8_lossy(&ps.stdout)
    );
}

#[test]
fn unavailable_runtimes_exit_2_with_a_hint_unless_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = write_config(
        tmp.path(),
        "[[runtime]]\nid = \"ghost\"\ncommand = [\"/no/such/runtime\", \"{wasm}\"]\n",
    );
    let args = [
        "run",
        "--suite",
        "compute",
        "--tests",
        "sha256",
        "--runtimes",
        "ghost,wasmtime",
        "--runs",
        "1",
        "--invocations",
        "1",
        "--warmup",
        "0",
    ];
    let out = wasmeter(&args, &tmp.path().join("r"), Some(&cfg));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("runtime 'ghost' is unavailable: /no/such/runtime: not found"),
        "{}",
        stderr(&out)
    );

    if !available(tmp.path()).iter().any(|r| r == "wavm") {
        let out = wasmeter(
            &["run", "--suite", "compute", "--runtimes", "wavm"],
            &tmp.path().join("r"),
            None,
        );
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).contains("runtime 'wavm' is unavailable")
                && stderr(&out).contains("(install: "),
            "{}",
            stderr(&out)
        );
    }

    let mut skip = args.to_vec();
    skip.push("--skip-missing");
    let out = wasmeter(&skip, &tmp.path().join("r"), Some(&cfg));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("warning: skipping runtime 'ghost'"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn config_errors_exit_2_naming_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = write_config(
        tmp.path(),
        "[[runtime]]\nid = \"x\"\ncommand = [\"/bin/true\"]\n",
    );
    let out = wasmeter(&["runtimes"], tmp.path(), Some(&cfg));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("wasmeter.toml:3: command must"),
        "{}",
        stderr(&out)
    );
    // Found in the working directory without the environment variable.
    let out = Command::new(env!("CARGO_BIN_EXE_wasmeter"))
        .arg("runtimes")
        .current_dir(tmp.path())
        .env_remove("WASMETER_CONFIG")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("wasmeter.toml:3:"),
        "{}",
        stderr(&out)
    );
}
