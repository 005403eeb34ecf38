//! wasmtime in-process: one `Engine` and `Linker` per worker, a fresh `Store` per iteration.

use super::{WasmtimeVariant, other};
use crate::runtime::embedded::invoke::{self, Scalar, Value};
use crate::runtime::embedded::{execute_then_teardown, read_module};
use crate::runtime::{Failure, Iteration, Job, Phase, Runtime};
use std::time::Instant;
use wasmtime::{
    Engine, Func, Linker, Module, Store, StoreLimits, StoreLimitsBuilder, TypedFunc, Val, ValType,
};
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
    components: super::component::Components,
    artifacts: crate::runtime::embedded::ArtifactsSeen,
}

impl Wasmtime {
    /// Builds the engine for a variant.
    pub fn new(variant: WasmtimeVariant) -> Result<Wasmtime, Failure> {
        // One instance at a time: a small pool keeps the reserved address space small.
        let engine = Engine::new(&variant.config(16)).map_err(other)?;
        let mut linker = Linker::new(&engine);
        p1::add_to_linker_sync(&mut linker, |h: &mut Host| &mut h.wasi).map_err(other)?;
        let components = super::component::Components::new(&engine)?;
        Ok(Wasmtime {
            engine,
            linker,
            components,
            artifacts: Default::default(),
        })
    }
}

impl Runtime for Wasmtime {
    fn run(&self, job: &Job) -> Result<Iteration, Failure> {
        let bytes = read_module(job)?;
        if is_component(&bytes) {
            return super::component::run(&self.engine, &self.components, job, &bytes);
        }
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

        let (mut b, stdout, stderr) = wasi_builder(job)?;
        let host = Host {
            wasi: b.build_p1(),
            limits: store_limits(job),
        };

        let t = Instant::now();
        let mut store = Store::new(&self.engine, host);
        store.limiter(|h| &mut h.limits);
        let instance = pre.instantiate(&mut store).map_err(classify)?;
        it.wall(Phase::Instantiate, t.elapsed());

        let entry = match &job.invoke {
            None => Entry::Start(
                instance
                    .get_typed_func::<(), ()>(&mut store, "_start")
                    .map_err(|e| Failure::Other(format!("no _start export: {e:#}")))?,
            ),
            Some(name) => {
                let func = instance
                    .get_func(&mut store, name)
                    .ok_or_else(|| invoke::no_export(name))?;
                let ty = func.ty(&store);
                let params: Vec<_> = ty.params().map(|t| scalar(&t)).collect();
                let args = invoke::parse_args(name, &params, &job.args)?
                    .into_iter()
                    .map(|v| match v {
                        Value::I32(v) => Val::I32(v),
                        Value::I64(v) => Val::I64(v),
                        Value::F32(v) => Val::F32(v.to_bits()),
                        Value::F64(v) => Val::F64(v.to_bits()),
                    })
                    .collect();
                let results = vec![Val::I32(0); ty.results().len()];
                let init = instance
                    .get_typed_func::<(), ()>(&mut store, "_initialize")
                    .ok();
                Entry::Invoke {
                    init,
                    func,
                    args,
                    results,
                }
            }
        };
        let mut printed = Vec::new();
        let result = execute_then_teardown(&mut it, whole, store, |store| match entry {
            Entry::Start(start) => start.call(store, ()),
            Entry::Invoke {
                init,
                func,
                args,
                mut results,
            } => {
                if let Some(init) = init {
                    init.call(&mut *store, ())?;
                }
                func.call(&mut *store, &args, &mut results)?;
                printed = results_text(&results);
                Ok(())
            }
        });

        it.stdout = stdout.contents().to_vec();
        it.stdout.extend(printed);
        it.stderr = stderr.contents().to_vec();
        if self.artifacts.first(&job.program) {
            it.artifact(module.serialize().ok().map(|a| a.len()));
        }
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

/// Whether the bytes are a component (`\0asm`, layer 1) rather than a core module.
fn is_component(bytes: &[u8]) -> bool {
    bytes.len() >= 8 && &bytes[..4] == b"\0asm" && bytes[6..8] == [1, 0]
}

/// A job's WASI context so far (arguments with the test's name first, environment, stdin,
/// the scratch folder as `.` and the host folders), the same for a core module (preview 1)
/// and a component (preview 2); with the captured stdout and stderr.
pub(super) fn wasi_builder(
    job: &Job,
) -> Result<(WasiCtxBuilder, MemoryOutputPipe, MemoryOutputPipe), Failure> {
    let stdout = MemoryOutputPipe::new(job.stdout_limit);
    let stderr = MemoryOutputPipe::new(1 << 20);
    let mut b = WasiCtxBuilder::new();
    let mut argv = vec![job.name.clone()];
    argv.extend(job.args.iter().cloned());
    b.args(&argv).stdout(stdout.clone()).stderr(stderr.clone());
    // File I/O on this thread, as the wasmtime CLI does: else each read is a round trip
    // through tokio's blocking pool, which made a module reading 5.4 MB measure 94 ms on
    // embedded wasmtime against 30 ms on the CLI (the harness measured, not the engine).
    b.allow_blocking_current_thread(true);
    for (k, v) in &job.env {
        b.env(k, v);
    }
    if let Some(p) = &job.stdin {
        let bytes = std::fs::read(p).map_err(|_| Failure::MissingFile(p.display().to_string()))?;
        b.stdin(MemoryInputPipe::new(bytes));
    }
    b.preopened_dir(&job.scratch, ".", FsPerms::ReadWrite)
        .map_err(|e| Failure::Other(format!("{}: {e:#}", job.scratch.display())))?;
    for d in &job.dirs {
        b.preopened_dir(&d.host, &d.guest, FsPerms::ReadWrite)
            .map_err(|e| Failure::Other(format!("{}: {e:#}", d.host.display())))?;
    }
    Ok((b, stdout, stderr))
}

/// The job's memory cap; a refused memory.grow ends the cell as out of memory instead of
/// leaving the guest to limp on with a NULL from malloc.
pub(super) fn store_limits(job: &Job) -> StoreLimits {
    StoreLimitsBuilder::new()
        .memory_size(usize::try_from(job.memory_limit).unwrap_or(usize::MAX))
        .trap_on_grow_failure(true)
        .build()
}

/// What the execute phase calls: `_start`, or an export with its arguments.
enum Entry {
    Start(TypedFunc<(), ()>),
    Invoke {
        init: Option<TypedFunc<(), ()>>,
        func: Func,
        args: Vec<Val>,
        results: Vec<Val>,
    },
}

/// A parameter type as `--invoke` takes it, or its name.
fn scalar(t: &ValType) -> Result<Scalar, String> {
    match t {
        ValType::I32 => Ok(Scalar::I32),
        ValType::I64 => Ok(Scalar::I64),
        ValType::F32 => Ok(Scalar::F32),
        ValType::F64 => Ok(Scalar::F64),
        other => Err(other.to_string()),
    }
}

/// An export's results as the guest's stdout.
fn results_text(results: &[Val]) -> Vec<u8> {
    let values: Vec<Value> = results
        .iter()
        .filter_map(|r| match r {
            Val::I32(v) => Some(Value::I32(*v)),
            Val::I64(v) => Some(Value::I64(*v)),
            Val::F32(v) => Some(Value::F32(f32::from_bits(*v))),
            Val::F64(v) => Some(Value::F64(f64::from_bits(*v))),
            _ => None,
        })
        .collect();
    invoke::print_results(&values)
}

pub(super) fn classify(e: wasmtime::Error) -> Failure {
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
