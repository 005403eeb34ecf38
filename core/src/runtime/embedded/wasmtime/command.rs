//! wasmtime in-process: one `Engine` and `Linker` per worker, a fresh `Store` per iteration.

use super::{WasmtimeVariant, other};
use crate::runtime::embedded::{execute_then_teardown, read_module};
use crate::runtime::{Failure, Iteration, Job, Phase, Runtime};
use std::time::Instant;
use wasmtime::{Engine, Linker, Module, Store, StoreLimits, StoreLimitsBuilder};
use wasmtime_wasi::p1::{self, WasiP1Ctx};
use wasmtime_wasi::p2::pipe::{MemoryInputPipe, MemoryOutputPipe};
use wasmtime_wasi::{FsPerms, I32Exit, WasiCtxBuilder};

struct Host {
    wasi: WasiP1Ctx,
    limits: StoreLimits,
}

/// An embedded wasmtime engine in one configuration.
pub struct Wasmtime {
    engine: Engine,
    linker: Linker<Host>,
}

impl Wasmtime {
    /// Builds the engine for a variant.
    pub fn new(variant: WasmtimeVariant) -> Result<Wasmtime, Failure> {
        // One instance at a time: a small pool keeps the reserved address space small.
        let engine = Engine::new(&variant.config(16)).map_err(other)?;
        let mut linker = Linker::new(&engine);
        p1::add_to_linker_sync(&mut linker, |h: &mut Host| &mut h.wasi).map_err(other)?;
        Ok(Wasmtime { engine, linker })
    }
}

impl Runtime for Wasmtime {
    fn run(&self, job: &Job) -> Result<Iteration, Failure> {
        let bytes = read_module(job)?;
        Module::validate(&self.engine, &bytes)
            .map_err(|e| Failure::invalid_module(&job.program, format!("{e:#}")))?;
        let mut it = Iteration::default();
        let whole = Instant::now();

        let t = Instant::now();
        let module = Module::new(&self.engine, &bytes).map_err(other)?;
        let pre = self
            .linker
            .instantiate_pre(&module)
            .map_err(|e| Failure::Other(format!("cannot link: {e:#}")))?;
        it.wall(Phase::Compile, t.elapsed());

        let stdout = MemoryOutputPipe::new(job.stdout_limit);
        let stderr = MemoryOutputPipe::new(1 << 20);
        let mut b = WasiCtxBuilder::new();
        let mut argv = vec![job.name.clone()];
        argv.extend(job.args.iter().cloned());
        b.args(&argv).stdout(stdout.clone()).stderr(stderr.clone());
        for (k, v) in &job.env {
            b.env(k, v);
        }
        if let Some(p) = &job.stdin {
            let bytes =
                std::fs::read(p).map_err(|_| Failure::MissingFile(p.display().to_string()))?;
            b.stdin(MemoryInputPipe::new(bytes));
        }
        b.preopened_dir(&job.scratch, ".", FsPerms::ReadWrite)
            .map_err(|e| Failure::Other(format!("{}: {e:#}", job.scratch.display())))?;
        let host = Host {
            wasi: b.build_p1(),
            limits: StoreLimitsBuilder::new()
                .memory_size(usize::try_from(job.memory_limit).unwrap_or(usize::MAX))
                // A refused memory.grow ends the cell as out of memory instead of leaving the
                // guest to limp on with a NULL from malloc.
                .trap_on_grow_failure(true)
                .build(),
        };

        let t = Instant::now();
        let mut store = Store::new(&self.engine, host);
        store.limiter(|h| &mut h.limits);
        let instance = pre.instantiate(&mut store).map_err(classify)?;
        it.wall(Phase::Instantiate, t.elapsed());

        let start = instance
            .get_typed_func::<(), ()>(&mut store, "_start")
            .map_err(|e| Failure::Other(format!("no _start export: {e:#}")))?;
        let result = execute_then_teardown(&mut it, whole, store, |store| start.call(store, ()));

        it.stdout = stdout.contents().to_vec();
        it.stderr = stderr.contents().to_vec();
        // The pipe refuses writes past the limit; the guest then fails its own way.
        if it.stdout.len() >= job.stdout_limit && job.stdout_limit > 0 {
            return Err(Failure::stdout_over(job.stdout_limit));
        }
        match result {
            Ok(()) => Ok(it),
            Err(e) => match e.downcast_ref::<I32Exit>() {
                Some(I32Exit(0)) => Ok(it),
                Some(I32Exit(code)) => Err(Failure::ExitCode(*code)),
                None => Err(classify(e)),
            },
        }
    }
}

fn classify(e: wasmtime::Error) -> Failure {
    let msg = format!("{e:#}");
    if msg.contains("forcing trap when growing memory") || msg.contains("memory minimum size") {
        // The line that says it, not the backtrace around it.
        let line = msg
            .split([':', '\n'])
            .map(str::trim)
            .find(|l| l.contains("forcing trap") || l.contains("memory minimum size"))
            .unwrap_or(&msg);
        return Failure::OutOfMemory(format!("linear memory over the cap ({line})"));
    }
    if let Some(trap) = e.downcast_ref::<wasmtime::Trap>() {
        return Failure::Trap(trap.to_string());
    }
    Failure::Other(msg)
}
