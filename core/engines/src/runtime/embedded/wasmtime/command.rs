//! wasmtime in-process: one `Engine` and `Linker` per worker, a fresh `Store` per iteration.

use super::host::{classify, store_limits, wasi_builder};
use super::{WasmtimeVariant, other};
use crate::runtime::embedded::invoke::{self, Scalar, Value};
use crate::runtime::embedded::{execute_then_teardown, read_module};
use crate::runtime::{Failure, Iteration, Job, Phase, Runtime};
use std::time::Instant;
use wasmtime::{Engine, Func, Linker, Module, StoreLimits, TypedFunc, Val, ValType};
use wasmtime_wasi::I32Exit;
use wasmtime_wasi::p1::{self, WasiP1Ctx};

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
        let mut store = super::store(&self.engine, host);
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
