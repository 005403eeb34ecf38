//! The worker side: runs one cell (runtime × test, every iteration) in its own process and
//! reports over stdout as JSON lines, so a crash or hang takes down only that cell.
//! Here are the spec and messages and the loop of iterations; [`command`] runs command cells
//! (alone or alternating), [`driven`] the cells the worker drives itself (life cycle, HTTP).

mod command;
mod driven;
#[cfg(test)]
mod tests;

use command::command_cell;
use driven::{http_cell, lifecycle_cell};

use crate::http_suites::driver::{Driver as HttpDriver, HttpJob};
use crate::lifecycle::{self, Driver, LifecycleModule};
use crate::runtime::{self, Failure, Job, Metric, Phase, PhaseValue, RuntimeInfo};
use crate::runtime::{WorkerCommand, read_spec};
use crate::store::LevelHistogram;
use crate::suite::{OutputCheck, check_output, parse_output};
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What the runner asks a worker to do.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CellSpec {
    /// The runtime, as resolved by the runner (CLI command lines included).
    pub runtime: RuntimeInfo,
    /// The guest and its environment.
    pub job: Job,
    /// Warm-up iterations.
    pub warmup: u32,
    /// Measured iterations.
    pub runs: u32,
    /// What the cell does, by the kind of its suite.
    pub work: CellWork,
    /// Set when the worker runs under callgrind (`--measure instructions`): where its
    /// count goes; the runner reads it when the worker has exited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions_dir: Option<PathBuf>,
    /// The other arms of `run --pair A,B[,C…] --pair-mode alternate` (command cells too):
    /// run in this worker, iteration by iteration with this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partners: Option<Partners>,
    /// Set with `run --profile`: the measured iterations' execute phase is sampled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<crate::profile::ProfileSpec>,
}

/// The other arms of a cell that alternates several in one worker: the k-th one's reports
/// carry arm k + 1.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Partners {
    /// The arms' own cells.
    pub arms: Vec<CellSpec>,
    /// Seed of the draw that orders the arms each iteration.
    pub seed: u64,
}

/// What a cell does: each way a cell runs holds only what it needs.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CellWork {
    /// A command suite's cell: the job's program runs once per iteration.
    Command(CommandJob),
    /// A lifecycle cell: the host drives the engine, no guest program runs.
    Lifecycle(LifecycleJob),
    /// An HTTP cell: the worker starts servers and loads them.
    Http(Box<HttpJob>),
}

/// How a command cell checks and reads what its program prints.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct CommandJob {
    /// Expected answer; `None` skips the known-answer check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// A checking build to run once before the iterations; a wrong answer fails the cell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<CheckJob>,
    /// The suite's [`crate::suite::Suite::self_timed_iterations`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub self_timed_iterations: Option<u32>,
    /// Where to keep the answer of the first successful iteration (its first
    /// [`ANSWER_LIMIT`] bytes), for a test with no known answer: the runner compares the
    /// runtimes' answers when the run ends ([`super::cross_check`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer_file: Option<PathBuf>,
}

/// Most bytes of an answer kept for the cross-check.
pub const ANSWER_LIMIT: usize = 1 << 20;

/// The check step of a cell, for its runtime: the program to run and the answer it must
/// write (libsodium's checking mode).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckJob {
    /// Module or executable of the checking build.
    pub program: PathBuf,
    /// Known answer, copied into the scratch directory under its file name.
    pub expected: PathBuf,
    /// File the program writes in its working directory.
    pub result: String,
}

/// What a lifecycle cell measures, besides its runtime.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LifecycleJob {
    /// The module: generated, or a file.
    pub module: LifecycleModule,
    /// How to start a fresh worker for first-in-process samples (one per iteration); without
    /// one they are not taken.
    #[serde(default)]
    pub fresh: Option<WorkerCommand>,
    /// Set in such a fresh worker: take only the first instantiation and first call of the
    /// module precompiled at this path (or, for an engine without that format, the module
    /// there), as one iteration.
    #[serde(default)]
    pub first_only: Option<PathBuf>,
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
        /// Latency histograms of its open-model levels (HTTP suites).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        histograms: Vec<LevelHistogram>,
        /// Which arm of an alternating pair (0, left out, for a cell alone).
        #[serde(default, skip_serializing_if = "is_zero")]
        arm: u8,
    },
    /// The cell (of an alternating pair: this arm) failed; no more of its iterations follow.
    Failed {
        /// Iteration at which it failed.
        iteration: u32,
        /// Why.
        failure: Failure,
        /// Which arm of an alternating pair (0, left out, for a cell alone).
        #[serde(default, skip_serializing_if = "is_zero")]
        arm: u8,
    },
    /// A measured iteration's profile (`run --profile`), sent after its values.
    Profile {
        /// Iteration index.
        iteration: u32,
        /// Its samples, folded; the runner names the runtime, test and invocation.
        row: Box<crate::profile::ProfileRow>,
    },
    /// Something the reader of the run should know about how the cell was measured (an
    /// adaptation to this host), kept with the cell's record.
    Note {
        /// One line.
        text: String,
    },
    /// Every iteration ran.
    Done,
}

fn is_zero(arm: &u8) -> bool {
    *arm == 0
}

fn send(out: &mut impl Write, msg: &WorkerMsg) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, msg)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// Entry point of `wasmeter worker`: reads a [`CellSpec`] as JSON from `input`, writes
/// [`WorkerMsg`] lines to `output`. Returns the process exit code.
pub fn worker_main(input: impl Read, mut output: impl Write) -> i32 {
    let spec: CellSpec = match read_spec(input) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("wasmeter worker: bad cell spec on stdin: {e}");
            return 2;
        }
    };
    match &spec.work {
        CellWork::Command(cmd) => command_cell(&spec, cmd, &mut output),
        CellWork::Lifecycle(lc) => lifecycle_cell(&spec, lc, &mut output),
        CellWork::Http(job) => http_cell(&spec, job, &mut output),
    }
}

/// Reports a failure before any iteration ran.
fn fail(out: &mut impl Write, iteration: u32, failure: Failure) -> i32 {
    let _ = send(
        out,
        &WorkerMsg::Failed {
            iteration,
            failure,
            arm: 0,
        },
    );
    0
}

/// What one iteration measured: its values, the histograms of HTTP rate levels, and its
/// profile when the cell is profiled.
pub struct Measured(
    Vec<PhaseValue>,
    Vec<LevelHistogram>,
    Option<crate::profile::ProfileRow>,
);

impl From<Vec<PhaseValue>> for Measured {
    fn from(v: Vec<PhaseValue>) -> Measured {
        Measured(v, Vec::new(), None)
    }
}

impl From<(Vec<PhaseValue>, Vec<LevelHistogram>)> for Measured {
    fn from((v, h): (Vec<PhaseValue>, Vec<LevelHistogram>)) -> Measured {
        Measured(v, h, None)
    }
}

/// Runs and reports every iteration, warm-ups first, until one fails.
fn iterations<M: Into<Measured>>(
    out: &mut impl Write,
    warmup: u32,
    runs: u32,
    mut one: impl FnMut(u32) -> Result<M, Failure>,
) -> i32 {
    for i in 0..warmup + runs {
        if send(out, &WorkerMsg::Started { iteration: i }).is_err() {
            return 1;
        }
        let mut profile = None;
        let msg = match one(i).map(Into::into) {
            Ok(Measured(values, histograms, row)) => {
                profile = row;
                WorkerMsg::Iteration {
                    iteration: i,
                    warmup: i < warmup,
                    values,
                    histograms,
                    arm: 0,
                }
            }
            Err(failure) => WorkerMsg::Failed {
                iteration: i,
                failure,
                arm: 0,
            },
        };
        let failed = matches!(msg, WorkerMsg::Failed { .. });
        if send(out, &msg).is_err() {
            return 1;
        }
        if let Some(row) = profile {
            let msg = WorkerMsg::Profile {
                iteration: i,
                row: Box::new(row),
            };
            if send(out, &msg).is_err() {
                return 1;
            }
        }
        if failed {
            return 0;
        }
    }
    let _ = send(out, &WorkerMsg::Done);
    0
}
