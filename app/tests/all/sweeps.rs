//! Engine settings as parameters: `run --set` sweeps every combination as a runtime of its
//! own, on the lifecycle and compute suites, for embedded engines and for CLI runtimes (as
//! flags on their command lines); `runtimes --settings` lists them; bad settings exit 2 in
//! one line naming the engine and what it accepts.

use crate::common::{
    export_latest, latest_meta, not_installed, runtimes_missing, stderr, wasmeter,
};
use serde_json::Value;

fn cells(v: &Value) -> Vec<(String, bool)> {
    v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["runtime"].as_str().unwrap().to_string(),
                c["failure"].is_null(),
            )
        })
        .collect()
}

#[test]
fn timed_a_sweep_of_two_wasmtime_settings_runs_every_combination() {
    let tmp = tempfile::tempdir().unwrap();
    let res = tmp.path();
    let o = wasmeter(
        &[
            "run",
            "--suite",
            "lifecycle",
            "--tests",
            "hello,heap-1m-dense",
            "--set",
            "wasmtime.allocator=pooling,on-demand",
            "--set",
            "wasmtime.cow=on,off",
            "--invocations",
            "3",
            "--runs",
            "2",
            "--json",
        ],
        res,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut ids: Vec<String> = Vec::new();
    for (id, ok) in cells(&v) {
        assert!(ok, "{id} failed");
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    assert_eq!(
        ids,
        [
            "wasmtime[allocator=pooling,cow=on]",
            "wasmtime[allocator=pooling,cow=off]",
            "wasmtime[allocator=on-demand,cow=on]",
            "wasmtime[allocator=on-demand,cow=off]",
        ]
    );
    // Copy-on-write maps the module's 1 MiB image where cow=off copies it in: the settings
    // reach the engine.
    let inst = |id: &str| -> f64 {
        v["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["runtime"] == id && c["test"] == "heap-1m-dense")
            .unwrap()["typical"]
            .as_f64()
            .unwrap()
    };
    assert!(
        inst("wasmtime[allocator=pooling,cow=on]") < inst("wasmtime[allocator=pooling,cow=off]"),
        "{v}"
    );
    // Read back as a parameter scan: instantiate against the allocator, a line per cow
    // value, and copy-on-write named as what moved the figure.
    let o = wasmeter(&["show", "latest", "--sweep", "--json"], res);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let sw: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(sw["engine"], "wasmtime");
    assert_eq!(sw["settings"], serde_json::json!(["allocator", "cow"]));
    assert_eq!(sw["x_values"], serde_json::json!(["pooling", "on-demand"]));
    assert_eq!(sw["lines"], serde_json::json!(["cow=on", "cow=off"]));
    assert_eq!(sw["tests"][0]["points"].as_array().unwrap().len(), 4);
    assert_eq!(sw["effects"][1]["setting"], "cow");
    // A 1 MiB copy against a mapping (370 µs against 1 µs) is a change: the sweep says so,
    // or, where busy invocations were left out of its comparisons, that it could not tell —
    // never that it was within noise.
    let has = |key: &str| {
        sw["effects"][1][key]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!("heap-1m-dense"))
    };
    assert!(has("changed") || has("undecided"), "{sw}");
    assert!(!has("within_noise"), "{sw}");
    let o = wasmeter(&["show", "latest", "--sweep"], res);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("heap-1m-dense [wasmtime]: typical instantiate time per allocator")
            && text.contains(",cow=on]"),
        "{text}"
    );

    // The HTML report draws the scan: a point per combination, the best named.
    let html = res.join("sweep.html");
    export_latest(res, "html", &html);
    assert!(
        std::fs::read_to_string(&html)
            .unwrap()
            .contains("\"sweep\":{\"effects\":[")
    );
    crate::report::browser_check(&html, "sweep.png");

    // Saved like any run: a diff of two combinations inside it.
    let o = wasmeter(
        &[
            "diff",
            "latest",
            "--runtimes",
            "wasmtime[allocator=pooling,cow=on],wasmtime[allocator=pooling,cow=off]",
            "--format",
            "json",
        ],
        res,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));

    // A compute cell on one settings id, named directly.
    let o = wasmeter(
        &[
            "run",
            "--suite",
            "compute",
            "--tests",
            "crc32",
            "--runtimes",
            "wasmtime[opt-level=none],wasmi[translation=lazy]",
            "--invocations",
            "1",
            "--json",
        ],
        res,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        cells(&v),
        [
            ("wasmtime[opt-level=none]".to_string(), true),
            ("wasmi[translation=lazy]".to_string(), true)
        ]
    );
}

/// wasmtime's interruption as a setting: epoch checks and fuel metering compiled in, every
/// store given a deadline and fuel no run reaches, so each cell answers right; on a tight
/// loop (mandelbrot: +57 % for both here on 2026-11-27) the checks cost time that no checks
/// do not.
#[test]
fn timed_interruption_by_epochs_or_fuel_runs_and_costs_a_tight_loop_time() {
    let tmp = tempfile::tempdir().unwrap();
    let o = wasmeter(
        &[
            "run",
            "--suite",
            "compute",
            "--tests",
            "mandelbrot",
            "--runtimes",
            "wasmtime",
            "--set",
            "wasmtime.interrupt=none,epoch,fuel",
            "--invocations",
            "3",
            "--json",
        ],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let ids = [
        "wasmtime[interrupt=none]",
        "wasmtime[interrupt=epoch]",
        "wasmtime[interrupt=fuel]",
    ];
    assert_eq!(
        cells(&v),
        ids.map(|id| (id.to_string(), true)),
        "{}",
        stderr(&o)
    );
    // The median, not the geometric mean: one invocation slowed 2.8× by a noisy VM would
    // move a mean of three by 1.4×, about the whole margin (1.57× against 1.15×).
    let median = |id: &str| {
        v["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["runtime"] == id)
            .and_then(|c| c["stats"]["median"].as_f64())
            .unwrap_or_else(|| panic!("no median time for {id}: {v}"))
    };
    let none = median(ids[0]);
    for id in &ids[1..] {
        let checked = median(id);
        assert!(
            checked > 1.15 * none,
            "{id}: {checked} ns vs none {none} ns"
        );
    }
}

/// A CLI runtime's settings are flags on its command line: each combination runs the
/// adapter's command with them (recorded with the run), and answers as the base does.
#[test]
fn cli_runtimes_take_their_settings_as_flags_on_their_command_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let res = tmp.path();
    if runtimes_missing(&not_installed(&["wasmtime-cli", "node"], res)) {
        return;
    }
    let o = wasmeter(
        &[
            "run",
            "--suite",
            "compute",
            "--tests",
            "sha256",
            "--runtimes",
            "wasmtime-cli,node",
            "--set",
            "wasmtime-cli.opt-level=none,speed",
            "--set",
            "wasmtime-cli.interrupt=epoch",
            "--set",
            "node.tier=liftoff",
            "--warmup",
            "0",
            "--runs",
            "1",
            "--invocations",
            "1",
            "--json",
        ],
        res,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let ran = cells(&v);
    let ids: Vec<&str> = ran.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "wasmtime-cli[opt-level=none,interrupt=epoch]",
            "wasmtime-cli[opt-level=speed,interrupt=epoch]",
            "node[tier=liftoff]",
        ]
    );
    assert!(ran.iter().all(|(_, ok)| *ok), "{v}");

    let meta = latest_meta(res);
    let line = |id: &str| -> Vec<String> {
        let rt = meta["runtimes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("{id}: {meta}"));
        serde_json::from_value(rt["command"]["run"].clone()).unwrap()
    };
    // After `run`, before the adapter's own options, in the declared order.
    let wt = line("wasmtime-cli[opt-level=none,interrupt=epoch]");
    assert_eq!(
        wt[1..8],
        [
            "run",
            "-O",
            "opt-level=0",
            "-W",
            "epoch-interruption=y",
            "-W",
            "timeout=1000000s"
        ],
        "{wt:?}"
    );
    assert!(line("wasmtime-cli[opt-level=speed,interrupt=epoch]").contains(&"opt-level=2".into()));
    // V8's flags come before the wrapper script.
    let node = line("node[tier=liftoff]");
    assert_eq!(node[1], "--liftoff-only", "{node:?}");
}

#[test]
fn runtimes_settings_lists_each_engines_settings() {
    let tmp = tempfile::tempdir().unwrap();
    let o = wasmeter(&["runtimes", "--settings"], tmp.path());
    let out = String::from_utf8_lossy(&o.stdout);
    for want in [
        "wasmtime.allocator",
        "on-demand | pooling",
        "wasmtime.guard-size",
        "wasmer.compiler",
        "wasmi.translation",
        "wasmtime-cli.opt-level",
        "node.tier",
        "wazero.engine",
    ] {
        assert!(out.contains(want), "{want}: {out}");
    }
}

#[test]
fn bad_settings_exit_2_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let o = wasmeter(&["show", "nosuch", "--sweep"], tmp.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "--suite", "lifecycle", "--tests", "hello"];
        args.extend_from_slice(extra);
        wasmeter(&args, tmp.path())
    };
    for (extra, want) in [
        (
            &["--set", "wasmtime.allocator=pool"][..],
            "wasmtime.allocator: unknown value 'pool' (accepts on-demand, pooling)",
        ),
        (
            &["--set", "wasmtime.colour=red"][..],
            "wasmtime has no setting 'colour' (its settings: compiler,",
        ),
        (
            &["--runtimes", "wasmi", "--set", "wasmtime.cow=on,off"][..],
            "wasmtime is not in the run (its runtimes: wasmi); add wasmtime to --runtimes",
        ),
        (
            &[
                "--set",
                "wasmtime.guard-size=0,1k,2k,4k,8k,16k,32k,64k,128k",
                "--set",
                "wasmtime.opt-level=none,speed,speed-and-size",
                "--set",
                "wasmtime.cow=on,off",
                "--set",
                "wasmtime.allocator=on-demand,pooling",
            ][..],
            "--set makes 108 runtime columns, more than 64: give --yes to run them all",
        ),
        (
            &["--runtimes", "node", "--set", "node.tier=fast"][..],
            "node.tier: unknown value 'fast' (accepts tiered, liftoff, turbofan)",
        ),
        (
            &["--runtimes", "wasmtime[cow=maybe]"][..],
            "wasmtime.cow: unknown value 'maybe' (accepts on, off)",
        ),
        (
            &[
                "--runtimes",
                "wasmtime[compiler=winch,bounds-checks=explicit]",
            ][..],
            "wasmtime refuses these settings: Winch requires the signals-based-traps option to be enabled",
        ),
    ] {
        let o = run(extra);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(want), "{extra:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{extra:?}: {err}");
    }
}
