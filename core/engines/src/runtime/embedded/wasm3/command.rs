//! wasm3 in-process: per iteration a fresh environment, runtime and WASI context (wasm3
//! keeps nothing worth sharing between runs: it compiles lazily, per runtime).

use super::{Ended, Loaded, Parsed, cap_pages, unknown_import, validate};
use crate::runtime::embedded::wasi_ctx::{self, take};
use crate::runtime::embedded::{execute_then_teardown, read_module};
use crate::runtime::{Failure, Iteration, Job, Phase, Runtime};
use crate::runtime::embedded::EmbeddedEngine as _;
use std::sync::Arc;
use std::time::Instant;

/// An embedded wasm3 interpreter.
pub struct Wasm3;

impl Wasm3 {
    /// wasm3 has no engine to build ahead of a module.
    pub fn new() -> Result<Wasm3, Failure> {
        Ok(Wasm3)
    }
}

impl Runtime for Wasm3 {
    fn run(&self, job: &Job) -> Result<Iteration, Failure> {
        if job.invoke.is_some() {
            let why = super::Wasm3Engine.cannot_invoke();
            return Err(Failure::Unavailable(why.unwrap_or_default().into()));
        }
        let bytes: Arc<[u8]> = read_module(job)?.into();
        validate(&bytes).map_err(|e| Failure::invalid_module(&job.program, e))?;
        if let Some(why) = unknown_import(&bytes) {
            return Err(Failure::Other(why));
        }
        let mut it = Iteration::default();
        let whole = Instant::now();

        let t = Instant::now();
        let parsed = Parsed::new(bytes).map_err(Failure::Other)?;
        it.wall(Phase::Compile, t.elapsed());

        let (wasi, stdout, stderr) = wasi_ctx::for_job(job)?;
        let t = Instant::now();
        let instance = parsed
            .instantiate(wasi, cap_pages(job.memory_limit))
            .map_err(|e| match e {
                Loaded::OverCap(bytes) => Failure::OutOfMemory(format!(
                    "linear memory over the cap: the module starts with {} MiB",
                    bytes >> 20
                )),
                Loaded::Error(why) => Failure::Other(why),
            })?;
        it.wall(Phase::Instantiate, t.elapsed());

        let (ended, at_cap, used) = execute_then_teardown(&mut it, whole, instance, |i| {
            (i.start(), i.at_cap(), i.memory_bytes())
        });
        it.stdout = take(&stdout);
        it.stderr = take(&stderr);
        if it.stdout.len() >= job.stdout_limit && job.stdout_limit > 0 {
            return Err(Failure::stdout_over(job.stdout_limit));
        }
        let over_cap = |what: String| {
            Failure::OutOfMemory(format!(
                "{what} with its linear memory at the cap ({} of {} MiB)",
                used >> 20,
                job.memory_limit >> 20
            ))
        };
        match ended {
            Ended::Done => Ok(it),
            Ended::Exit(code) if at_cap => Err(over_cap(format!("exited {code}"))),
            Ended::Exit(code) => Err(Failure::ExitCode(code)),
            Ended::Trap(why) if at_cap => Err(over_cap(why)),
            Ended::Trap(why) => Err(Failure::Trap(why)),
            Ended::Error(why) => Err(Failure::Other(why)),
        }
    }
}
