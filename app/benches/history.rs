//! Issue 21 item 5: `wasmeter history` for one cell and `wasmeter runs` over a synthetic
//! results directory of 10,000 runs × 133 cells (19 tests × 7 runtimes, 3 invocations × 5
//! runs each), timed as a user runs them: the real binary, its wall time and peak RSS.
//!
//! The directory is written once by this bench (never shipped) with the store's own writer,
//! under ~/.cache/wasmeter-bench (or WASMETER_BENCH_DIR), and reused. One cell steps
//! +15 % at run 4,000 and −10 % at run 7,000, so the bench also checks that history finds
//! exactly those two change points. `cargo bench -p wasmeter --bench history` (profile ci
//! in docs/benchmarks.md); WASMETER_BENCH_RUNS changes the number of runs.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;
use wasmeter_core::machine::Machine;
use wasmeter_core::runtime::process::wait_with_usage;
use wasmeter_core::store::{Synthetic, write_synthetic};

const TESTS: usize = 19;
const RUNTIMES: usize = 7;
const INVOCATIONS: u32 = 3;
const RUNS: u32 = 5;
/// The cell whose level steps, and where.
const STEP_TEST: &str = "t003";
const STEP_RUNTIME: &str = "rt002";

fn level(i: usize, test: usize, rt: usize) -> f64 {
    let base = 1e6 * (1.0 + test as f64) * (1.0 + 0.3 * rt as f64);
    if format!("t{test:03}") == STEP_TEST && format!("rt{rt:03}") == STEP_RUNTIME {
        base * if i >= 7000 {
            1.15 * 0.9
        } else if i >= 4000 {
            1.15
        } else {
            1.0
        }
    } else {
        base
    }
}

/// Runs the binary with `args`; wall seconds, peak RSS in MiB, and its stdout.
#[allow(clippy::zombie_processes)] // reaped by wait_with_usage (wait4), for its peak RSS
fn timed(bin: &Path, args: &[&str]) -> (f64, f64, String) {
    let t = Instant::now();
    let mut child = Command::new(bin)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start wasmeter");
    let read = |mut s: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut v = String::new();
            s.read_to_string(&mut v).unwrap();
            v
        })
    };
    let stdout = read(Box::new(child.stdout.take().unwrap()));
    let stderr = read(Box::new(child.stderr.take().unwrap()));
    // Reaped with wait4 for the child's own peak RSS.
    let (status, usage) = wait_with_usage(child.id()).expect("wait for wasmeter");
    let wall = t.elapsed().as_secs_f64();
    let (out, err) = (stdout.join().unwrap(), stderr.join().unwrap());
    assert!(status.success(), "wasmeter {args:?} failed: {err}");
    (wall, usage.max_rss_kib / 1024.0, out)
}

fn main() {
    let n: usize = std::env::var("WASMETER_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let root = std::env::var_os("WASMETER_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache/wasmeter-bench")
        })
        .join(format!("history-{n}-v1"));
    let results = root.join("results");
    if !root.join("complete").exists() {
        let _ = std::fs::remove_dir_all(&root);
        let t = Instant::now();
        eprintln!("writing {n} synthetic runs into {} …", results.display());
        write_synthetic(
            &results,
            &Synthetic {
                suite: "scale".into(),
                runs: n,
                tests: TESTS,
                runtimes: RUNTIMES,
                invocations: INVOCATIONS,
                iterations: RUNS,
                start_unix: 1_767_225_600.0, // 2026-01-01 UTC, then one run every 30 minutes
                every_secs: 1800.0,
                machine: Machine::detect(),
                level,
                noise: (0.01, 0.005),
                id_tag: String::new(),
            },
        )
        .expect("write the synthetic runs");
        std::fs::write(root.join("complete"), b"").unwrap();
        eprintln!("written in {:.1} s", t.elapsed().as_secs_f64());
    }
    let bin = Path::new(env!("CARGO_BIN_EXE_wasmeter"));
    let r = results.to_str().unwrap();
    let history = [
        "history",
        "--results",
        r,
        "--suite",
        "scale",
        "--test",
        STEP_TEST,
        "--runtime",
        STEP_RUNTIME,
        "--format",
        "json",
    ];
    let runs = ["runs", "--results", r, "--json"];
    let mut report = Vec::new();
    // The first history summarises every run into the index (results/.history): timed
    // on its own, from no index.
    let _ = std::fs::remove_dir_all(results.join(wasmeter_core::history::INDEX_DIR));
    let (first, first_rss, _) = timed(bin, &history);
    report.push(format!(
        "history, first (every run summarised into the index): {first:.3} s, peak RSS {first_rss:.0} MiB"
    ));
    for (name, args) in [("history (one cell)", &history[..]), ("runs", &runs[..])] {
        // One warm-up (page cache), then five timed.
        let (_, _, out) = timed(bin, args);
        if name.starts_with("history") {
            let h: serde_json::Value = serde_json::from_str(&out).unwrap();
            let s = &h["series"][0];
            assert_eq!(
                s["points"].as_array().unwrap().len(),
                n,
                "one point per run"
            );
            let at: Vec<u64> = s["changes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["index"].as_u64().unwrap())
                .collect();
            if n > 7000 {
                assert_eq!(at, [4000, 7000], "the two steps, and nothing else");
            }
        } else {
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v.as_array().unwrap().len(), n);
        }
        let mut walls = Vec::new();
        let mut rss: f64 = 0.0;
        for _ in 0..5 {
            let (w, m, _) = timed(bin, args);
            walls.push(w);
            rss = rss.max(m);
        }
        walls.sort_by(f64::total_cmp);
        report.push(format!(
            "{name}: median {:.3} s (min {:.3}, max {:.3}) over 5, peak RSS {:.0} MiB",
            walls[2], walls[0], walls[4], rss
        ));
    }
    println!("{n} runs × {} cells:", TESTS * RUNTIMES);
    for l in report {
        println!("  {l}");
    }
}
