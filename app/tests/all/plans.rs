//! Plans as files: `wasmeter plan` writes what a run takes, `wasmeter run --plan` runs it
//! as it is on whatever machine, saving the plan's hash, and bad plan files are refused
//! with the file and line.

use crate::common::{json, stderr, wasmeter};

#[test]
fn a_plan_file_runs_as_written_and_its_runs_carry_its_hash() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let plan = tmp.path().join("plan.toml");
    let plan_arg = plan.to_str().unwrap();
    // wasmedge is a runtime wasmeter knows and this machine lacks (no registry has it).
    let out = wasmeter(
        &[
            "plan",
            "--suite",
            "compute",
            "--tests",
            "crc32,sha256",
            "--runtimes",
            "wasmtime,wasmi,wasmedge",
            "--invocations",
            "2",
            "--warmup",
            "0",
            "--runs",
            "1",
            "-o",
            plan_arg,
        ],
        &results,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    let hash = said.split_whitespace().nth(1).unwrap().to_string();
    assert_eq!(hash.len(), 16, "{said}");
    let text = std::fs::read_to_string(&plan).unwrap();
    assert!(text.contains("suite = \"compute\""), "{text}");
    assert!(text.contains("invocations = 2"), "{text}");
    assert!(
        !text.contains("memory_cap_mib"),
        "defaults stay out: {text}"
    );

    for _ in 0..2 {
        let out = wasmeter(&["run", "--plan", plan_arg, "--json"], &results);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let v = json(&out);
        assert_eq!(
            v["runtimes"],
            serde_json::json!(["wasmtime", "wasmi"]),
            "{v}"
        );
        assert_eq!(v["tests"], serde_json::json!(["crc32", "sha256"]), "{v}");
    }
    let runs = json(&wasmeter(&["runs", "--json"], &results));
    let runs = runs.as_array().unwrap();
    assert_eq!(runs.len(), 2);
    for r in runs {
        let dir = std::path::Path::new(r["dir"].as_str().unwrap());
        let meta: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join("meta.json")).unwrap()).unwrap();
        assert_eq!(meta["settings"]["plan_hash"], hash.as_str(), "{meta}");
        assert_eq!(meta["settings"]["invocations"], 2, "{meta}");
        assert!(
            meta["not_applicable"]
                .as_array()
                .unwrap()
                .iter()
                .any(|n| n["runtime"] == "wasmedge"
                    && n["why"]
                        .as_str()
                        .unwrap()
                        .starts_with("not available on this machine: ")),
            "{meta}"
        );
    }
    let show = wasmeter(&["show", "latest"], &results);
    let shown = String::from_utf8_lossy(&show.stdout);
    assert!(shown.contains(&format!("plan: {hash}")), "{shown}");
    assert!(
        shown.contains("n/a (not run): wasmedge — not available on this machine"),
        "{shown}"
    );
}

#[test]
fn bad_plan_files_and_flags_exit_2_naming_the_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let plan = tmp.path().join("plan.toml");
    let plan_arg = plan.to_str().unwrap();
    for (text, words) in [
        (
            "[plan]\nversion = 1\nsuite = \"compute\"\n\n[run]\nrutimes = [\"wasmtime\"]\n",
            "plan.toml:6: unknown field 'run.rutimes'",
        ),
        (
            "[plan]\nversion = 9\nsuite = \"compute\"\n",
            "plan.toml:2: plan version 9 is not one this wasmeter reads (1)",
        ),
        ("[plan]\nversion = 1\nsuite = \"nosuch\"\n", "plan.toml: "),
    ] {
        std::fs::write(&plan, text).unwrap();
        let out = wasmeter(&["run", "--plan", plan_arg], &results);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(words), "{words}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    // A plan runs as written: other settings beside it are refused.
    std::fs::write(&plan, "[plan]\nversion = 1\nsuite = \"compute\"\n").unwrap();
    let out = wasmeter(&["run", "--plan", plan_arg, "--runs", "3"], &results);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // A plan of a runtime wasmeter does not know is refused when written.
    let out = wasmeter(
        &[
            "plan",
            "--suite",
            "compute",
            "--runtimes",
            "nosuch",
            "-o",
            plan_arg,
        ],
        &results,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("unknown runtime 'nosuch'"),
        "{}",
        stderr(&out)
    );
    // Nothing ran.
    let runs = json(&wasmeter(&["runs", "--json"], &results));
    assert_eq!(runs.as_array().map(Vec::len), Some(0), "{runs}");
}

/// scripts/fleet, the steps of .github/workflows/fleet.yml: each machine runs the plan,
/// then every run is put side by side in one report.
#[test]
fn the_fleet_steps_run_a_plan_per_machine_and_report_them_side_by_side() {
    let tmp = tempfile::tempdir().unwrap();
    let plan = tmp.path().join("plan.toml");
    std::fs::write(
        &plan,
        "[plan]\nversion = 1\nsuite = \"compute\"\n\n[run]\ntests = [\"crc32\"]\nruntimes = [\"native\", \"wasmtime\", \"wasmedge\"]\nwarmup = 0\nruns = 1\ninvocations = 2\n",
    )
    .unwrap();
    let fleet = |args: &[&std::ffi::OsStr]| {
        std::process::Command::new(crate::common::suites_root().join("../scripts/fleet"))
            .args(args)
            .env("WASMETER", env!("CARGO_BIN_EXE_wasmeter"))
            .env("WASMETER_SUITES", crate::common::suites_root())
            .env("WASMETER_CONFIG", "/dev/null")
            .output()
            .expect("run scripts/fleet")
    };
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    for out in [&a, &b] {
        let o = fleet(&["job".as_ref(), plan.as_os_str(), out.as_os_str()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let report = tmp.path().join("report");
    let o = fleet(&[
        "gather".as_ref(),
        report.as_os_str(),
        a.as_os_str(),
        b.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(
        md.contains("suite compute: relative to native of the same run"),
        "{md}"
    );
    let ids: Vec<String> = std::fs::read_dir(report.join("results"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        // Run directories, not the history index the runs added themselves to.
        .filter(|n| !n.starts_with('.'))
        .collect();
    assert_eq!(ids.len(), 2, "{ids:?}");
    for id in &ids {
        assert!(md.contains(id.as_str()), "{id}: {md}");
    }
    assert!(md.contains("| crc32 | wasmtime |"), "{md}");
    let html = std::fs::read_to_string(report.join("report.html")).unwrap();
    assert!(html.starts_with("<!doctype html>"), "{html}");
    assert!(html.contains("<td>crc32</td><td>wasmtime</td>"), "{html}");
    for id in &ids {
        assert!(html.contains(id.as_str()), "{id}: {html}");
    }
    // A gather of one run has nothing to compare.
    let o = fleet(&[
        "gather".as_ref(),
        tmp.path().join("r1").as_os_str(),
        a.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("found 1 run(s)"), "{}", stderr(&o));
}
