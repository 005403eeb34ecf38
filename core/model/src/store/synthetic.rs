//! A test double for history at scale (issue 21): saved runs of made-up measurements,
//! written by the store's own writer, so that the history of 10,000 runs can be measured
//! and its change points checked against steps planted in them. Only with the `testing`
//! feature; never offered as results.

use super::{MeasurementRow, RunMeta, RunSettings, RunStatus, RunWriter, StoreError, TestRecord};
use crate::machine::Machine;
use crate::model::{Metric, Phase, RuntimeInfo, RuntimeKind};
use crate::random::{Rng, seed_for};
use std::path::Path;

/// What to write.
#[derive(Debug, Clone)]
pub struct Synthetic {
    /// Suite name of every run.
    pub suite: String,
    /// Runs, one every `every_secs` from `start_unix`.
    pub runs: usize,
    /// Tests `t000`…
    pub tests: usize,
    /// Runtimes `native`, `rt001`…
    pub runtimes: usize,
    /// Invocations per cell.
    pub invocations: u32,
    /// Iterations per invocation.
    pub iterations: u32,
    /// Start of the first run.
    pub start_unix: f64,
    /// Time between runs.
    pub every_secs: f64,
    /// The machine every run says it ran on.
    pub machine: Machine,
    /// The level (ns) of cell (test, runtime) in run `i`: where steps are planted.
    pub level: fn(run: usize, test: usize, runtime: usize) -> f64,
    /// Relative noise between invocations, and between iterations of one.
    pub noise: (f64, f64),
    /// Run `i` gets id `<date-time>-<suite>-<id_tag><i>`: tags keep two sets apart.
    pub id_tag: String,
}

/// The level of [`Synthetic::daily`]'s cells: t001 on rt001 steps +20 % from run 15.
fn stepped(run: usize, test: usize, rt: usize) -> f64 {
    if test == 1 && rt == 1 && run >= 15 {
        flat(run, test, rt) * 1.2
    } else {
        flat(run, test, rt)
    }
}

/// The level of [`Synthetic::daily`]'s cells without the step.
fn flat(_: usize, test: usize, rt: usize) -> f64 {
    1e6 * (1 + test + 2 * rt) as f64
}

impl Synthetic {
    /// The history tests' runs (every front end checks the same): 30 runs a day apart of 2
    /// tests × 3 runtimes on `machine`, 3 invocations × 3 iterations, 1 % noise between
    /// invocations; with `step`, t001 on rt001 is 20 % slower from run 15 on.
    pub fn daily(machine: Machine, tag: &str, step: bool) -> Synthetic {
        Synthetic {
            suite: "scale".into(),
            runs: 30,
            tests: 2,
            runtimes: 3,
            invocations: 3,
            iterations: 3,
            start_unix: 1_790_000_000.0,
            every_secs: 86_400.0,
            machine,
            level: if step { stepped } else { flat },
            noise: (0.01, 0.005),
            id_tag: tag.into(),
        }
    }
}

/// The runtime id of index `r`.
pub fn synthetic_runtime(r: usize) -> String {
    if r == 0 {
        "native".into()
    } else {
        format!("rt{r:03}")
    }
}

/// Writes the runs into `results` on every core; their ids, in run order.
pub fn write_synthetic(results: &Path, s: &Synthetic) -> Result<Vec<String>, StoreError> {
    let ids: Vec<String> = (0..s.runs)
        .map(|i| {
            let t = s.start_unix + i as f64 * s.every_secs;
            let (y, mo, d, h, mi, se) = crate::format::civil(t as i64);
            format!(
                "{y:04}{mo:02}{d:02}-{h:02}{mi:02}{se:02}-{}-{}{i:05}",
                s.suite, s.id_tag
            )
        })
        .collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let ids = &ids;
                scope.spawn(move || -> Result<(), StoreError> {
                    for i in (t..s.runs).step_by(threads) {
                        write_one(results, s, i, &ids[i])?;
                    }
                    Ok(())
                })
            })
            .collect();
        handles
            .into_iter()
            .try_for_each(|h| h.join().expect("a writer thread panicked"))
    })?;
    Ok(ids)
}

fn write_one(results: &Path, s: &Synthetic, i: usize, id: &str) -> Result<(), StoreError> {
    let meta = RunMeta {
        schema_version: super::SCHEMA_VERSION,
        id: id.to_string(),
        label: None,
        suite: s.suite.clone(),
        suite_kind: Default::default(),
        tests: (0..s.tests)
            .map(|t| TestRecord {
                name: format!("t{t:03}"),
                source_hash: "synthetic".into(),
                module_bytes: None,
                as_given: None,
                native_bytes: None,
            })
            .collect(),
        runtimes: (0..s.runtimes)
            .map(|r| RuntimeInfo {
                id: synthetic_runtime(r),
                kind: RuntimeKind::Embedded,
                version: format!("1.{}", i / 1000),
                config: "synthetic".into(),
                unavailable: None,
                hint: None,
                command: None,
            })
            .collect(),
        not_applicable: Vec::new(),
        settings: RunSettings::new(s.iterations, s.invocations),
        machine: s.machine.clone(),
        wasmeter_version: crate::VERSION.into(),
        started_unix: s.start_unix + i as f64 * s.every_secs,
        finished_unix: None,
        status: RunStatus::Running,
        pid: std::process::id(),
        files: Default::default(),
    };
    let mut w = RunWriter::create(results, meta)?;
    let mut rng = Rng::new(i as u64 ^ seed_for(&[&s.id_tag]));
    let per = (s.invocations * s.iterations) as usize;
    let mut rows = Vec::with_capacity(s.tests * s.runtimes * per);
    for test in 0..s.tests {
        for r in 0..s.runtimes {
            let level = (s.level)(i, test, r);
            for invocation in 0..s.invocations {
                let shift = 1.0 + s.noise.0 * rng.normal();
                for iteration in 0..s.iterations {
                    rows.push(MeasurementRow {
                        runtime: synthetic_runtime(r),
                        test: format!("t{test:03}"),
                        phase: Phase::Execute,
                        invocation,
                        iteration,
                        warmup: false,
                        metric: Metric::SelfNs,
                        value: level * shift * (1.0 + s.noise.1 * rng.normal()),
                    });
                }
            }
        }
    }
    w.measurements(&rows)?;
    w.finish(RunStatus::Complete)?;
    Ok(())
}
