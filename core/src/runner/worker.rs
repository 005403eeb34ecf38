//! The worker side: runs one cell (runtime × test, every iteration) in its own process and
//! reports over stdout as JSON lines, so a crash or hang takes down only that cell.

use crate::runtime::{self, Failure, Job, Metric, Phase, PhaseValue, RuntimeInfo};
use crate::suite::{OutputCheck, check_output, parse_output};
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};

/// What the runner asks a worker to do.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CellSpec {
    /// The runtime, as resolved by the runner (CLI command lines included).
    pub runtime: RuntimeInfo,
    /// The guest and its environment.
    pub job: Job,
    /// Expected answer; `None` skips the known-answer check.
    pub expected: Option<String>,
    /// Warm-up iterations.
    pub warmup: u32,
    /// Measured iterations.
    pub runs: u32,
}

/// A worker's report line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum WorkerMsg {
    /// An iteration is starting (resets the runner's timeout).
    Started {
        /// Iteration index (warm-ups first).
        iteration: u32,
    },
    /// An iteration succeeded.
    Iteration {
        /// Iteration index.
        iteration: u32,
        /// True for warm-ups.
        warmup: bool,
        /// Phase values.
        values: Vec<PhaseValue>,
    },
    /// The cell failed; no more iterations follow.
    Failed {
        /// Iteration at which it failed.
        iteration: u32,
        /// Why.
        failure: Failure,
    },
    /// Every iteration ran.
    Done,
}

fn send(out: &mut impl Write, msg: &WorkerMsg) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, msg)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// Runs one iteration and checks its answer.
fn iterate(rt: &dyn runtime::Runtime, spec: &CellSpec) -> Result<Vec<PhaseValue>, Failure> {
    let it = rt.run(&spec.job)?;
    let stdout = String::from_utf8_lossy(&it.stdout);
    let parsed = parse_output(&stdout).map_err(Failure::Other)?;
    if let Some(expected) = &spec.expected
        && let OutputCheck::Mismatch(why) = check_output(&parsed.answer, expected)
    {
        return Err(Failure::WrongOutput(why));
    }
    let mut values = it.values;
    let self_ns = parsed
        .self_time_ns
        .or(parsed.ps_per_iteration.map(|ps| ps / 1000.0));
    if let Some(ns) = self_ns {
        values.push(PhaseValue {
            phase: Phase::Execute,
            metric: Metric::SelfNs,
            value: ns,
        });
    }
    Ok(values)
}

/// Entry point of `wasmeter worker`: reads a [`CellSpec`] as JSON from `input`, writes
/// [`WorkerMsg`] lines to `output`. Returns the process exit code.
pub fn worker_main(mut input: impl Read, mut output: impl Write) -> i32 {
    let mut text = String::new();
    let spec: CellSpec = match input
        .read_to_string(&mut text)
        .map_err(|e| e.to_string())
        .and_then(|_| serde_json::from_str(&text).map_err(|e| e.to_string()))
    {
        Ok(s) => s,
        Err(e) => {
            eprintln!("wasmeter worker: bad cell spec on stdin: {e}");
            return 2;
        }
    };
    let rt = match runtime::instantiate(&spec.runtime) {
        Ok(rt) => rt,
        Err(failure) => {
            let _ = send(
                &mut output,
                &WorkerMsg::Failed {
                    iteration: 0,
                    failure,
                },
            );
            return 0;
        }
    };
    for i in 0..spec.warmup + spec.runs {
        if send(&mut output, &WorkerMsg::Started { iteration: i }).is_err() {
            return 1;
        }
        let msg = match iterate(rt.as_ref(), &spec) {
            Ok(values) => WorkerMsg::Iteration {
                iteration: i,
                warmup: i < spec.warmup,
                values,
            },
            Err(failure) => WorkerMsg::Failed {
                iteration: i,
                failure,
            },
        };
        let failed = matches!(msg, WorkerMsg::Failed { .. });
        if send(&mut output, &msg).is_err() {
            return 1;
        }
        if failed {
            return 0;
        }
    }
    let _ = send(&mut output, &WorkerMsg::Done);
    0
}
