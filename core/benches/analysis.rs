//! Speed of analysis and export at scale: `cargo bench --profile ci -p wasmeter-core`.
//! Targets (issue 4): summarising 1,000,000 measurement rows in under 2 s; exporting HTML
//! for 20 runtimes × 50 tests in under 1 s. Issue 10: listing 100 saved runs in under
//! 200 ms.

use std::time::Instant;
use wasmeter_core::analysis::{Rng, summarize};
use wasmeter_core::config::Config;
use wasmeter_core::export::{Format, Report, exporter};
use wasmeter_core::machine::Machine;
use wasmeter_core::runtime::{Metric, Phase, known_runtimes};
use wasmeter_core::store::*;

/// A synthetic run: `runtimes` × `tests` cells, `iters` iterations, five values each.
fn run(runtimes: usize, tests: usize, iters: u32) -> SavedRun {
    let mut rng = Rng::new(1);
    let template = known_runtimes(&Config::default()).remove(1);
    let rts: Vec<_> = (0..runtimes)
        .map(|i| {
            let mut r = template.clone();
            r.id = if i == 0 {
                "native".into()
            } else {
                format!("rt{i:02}")
            };
            r
        })
        .collect();
    let names: Vec<String> = (0..tests).map(|i| format!("test{i:03}")).collect();
    let mut measurements = Vec::new();
    for r in &rts {
        for t in &names {
            for i in 0..iters {
                for (phase, metric) in [
                    (Phase::Compile, Metric::WallNs),
                    (Phase::Instantiate, Metric::WallNs),
                    (Phase::Execute, Metric::WallNs),
                    (Phase::Execute, Metric::SelfNs),
                    (Phase::Total, Metric::WallNs),
                ] {
                    measurements.push(MeasurementRow {
                        runtime: r.id.clone(),
                        test: t.clone(),
                        phase,
                        invocation: 0,
                        iteration: i,
                        warmup: false,
                        metric,
                        value: 1e6 * (1.0 + 0.05 * rng.normal()),
                    });
                }
            }
        }
    }
    let samples = (0..3000)
        .map(|i| SampleRow {
            t_ms: f64::from(i) * 100.0,
            runtime: rts[i as usize % runtimes].id.clone(),
            test: names[i as usize % tests].clone(),
            cpu_pct: 99.0,
            rss_bytes: 20 << 20,
        })
        .collect();
    SavedRun {
        dir: "/bench".into(),
        meta: RunMeta {
            schema_version: SCHEMA_VERSION,
            id: "bench".into(),
            label: None,
            suite: "bench".into(),
            suite_kind: Default::default(),
            tests: names
                .iter()
                .map(|n| TestRecord {
                    name: n.clone(),
                    source_hash: "x".into(),
                    module_bytes: None,
                    native_bytes: None,
                    as_given: None,
                })
                .collect(),
            not_applicable: Vec::new(),
            runtimes: rts,
            settings: RunSettings {
                timeout_secs: 1,
                memory_cap_bytes: 1,
                ..RunSettings::new(iters, 1)
            },
            machine: Machine::detect(),
            wasmeter_version: "bench".into(),
            started_unix: 0.0,
            finished_unix: Some(1.0),
            status: RunStatus::Complete,
            pid: 0,
            files: Default::default(),
        },
        cells: Vec::new(),
        measurements,
        samples,
    }
}

fn best_of<T>(n: usize, mut f: impl FnMut() -> T) -> f64 {
    (0..n)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    // 20 runtimes × 50 tests × 200 iterations × 5 values = 1,000,000 rows.
    let big = run(20, 50, 200);
    assert_eq!(big.measurements.len(), 1_000_000);
    let t = best_of(3, || summarize(&big, None));
    println!(
        "summarize 1,000,000 rows (20 runtimes x 50 tests x 200 iterations x 5 values): {t:.3} s (target < 2 s)"
    );

    let small = run(20, 50, 10);
    let t = best_of(5, || {
        let report = Report::new(vec![(&small, summarize(&small, None))], None);
        let mut out = Vec::with_capacity(1 << 20);
        exporter(Format::Html).write(&report, &mut out).unwrap();
        out
    });
    println!(
        "summarize + export HTML, 20 runtimes x 50 tests x 10 iterations: {t:.3} s (target < 1 s)"
    );

    // 100 saved runs on disk, each with the metadata of a 7-runtime × 19-test run; the
    // listing (what `wasmeter runs` and the UIs' run browsers call) reads only metadata.
    let dir = tempfile::tempdir().unwrap();
    let mut meta = run(7, 19, 1).meta;
    for i in 0..100 {
        meta.id = format!("20260101-{i:06}-compute-{i:04x}");
        let run_dir = dir.path().join(&meta.id);
        std::fs::create_dir_all(&run_dir).unwrap();
        std::fs::write(
            run_dir.join("meta.json"),
            serde_json::to_vec_pretty(&meta).unwrap(),
        )
        .unwrap();
    }
    assert_eq!(list_runs(dir.path()).unwrap().len(), 100);
    let t = best_of(5, || list_runs(dir.path()).unwrap());
    println!(
        "list 100 saved runs: {:.1} ms (best of 5; target < 200 ms)",
        t * 1e3
    );
}
