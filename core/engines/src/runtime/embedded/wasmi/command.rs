//! wasmi in-process: one `Engine` and `Linker` per worker, a fresh `Store` per iteration.

use super::{Host, WasmiTranslation, engine, limits, linker, other, unknown_import};
use crate::runtime::embedded::invoke::{self, Scalar, Value};
use crate::runtime::embedded::wasi_ctx::{self, take};
use crate::runtime::embedded::{execute_then_teardown, read_module};
use crate::runtime::{Failure, Iteration, Job, Phase, Runtime};
use std::time::Instant;
use wasmi::errors::{ErrorKind, MemoryError};
use wasmi::{Engine, Linker, Module, Store, TrapCode, Val, ValType};

/// An embedded wasmi interpreter.
pub struct Wasmi {
    engine: Engine,
    linker: Linker<Host>,
}

impl Wasmi {
    /// Builds the engine, translating as `translation` says.
    pub fn new(translation: WasmiTranslation) -> Result<Wasmi, Failure> {
        let engine = engine(translation);
        let linker = linker(&engine).map_err(other)?;
        Ok(Wasmi { engine, linker })
    }
}

impl Runtime for Wasmi {
    fn run(&self, job: &Job) -> Result<Iteration, Failure> {
        let bytes = read_module(job)?;
        Module::validate(&self.engine, &bytes)
            .map_err(|e| Failure::invalid_module(&job.program, e))?;
        let mut it = Iteration::default();
        let whole = Instant::now();

        let t = Instant::now();
        let module = Module::new(&self.engine, &bytes).map_err(other)?;
        it.wall(Phase::Compile, t.elapsed());

        let (wasi, stdout, stderr) = wasi_ctx::for_job(job)?;
        let host = Host {
            wasi,
            limits: limits(job.memory_limit),
        };

        let t = Instant::now();
        if let Some(why) = unknown_import(&module) {
            return Err(Failure::Other(why));
        }
        let mut store = Store::new(&self.engine, host);
        store.limiter(|h| &mut h.limits);
        let instance = self
            .linker
            .instantiate_and_start(&mut store, &module)
            .map_err(classify)?;
        it.wall(Phase::Instantiate, t.elapsed());

        let (entry, args, mut results) = match &job.invoke {
            None => (
                instance
                    .get_func(&store, "_start")
                    .ok_or_else(|| Failure::Other("no _start export".into()))?,
                Vec::new(),
                Vec::new(),
            ),
            Some(name) => {
                let func = instance
                    .get_func(&store, name)
                    .ok_or_else(|| invoke::no_export(name))?;
                let ty = func.ty(&store);
                let params: Vec<_> = ty.params().iter().map(scalar).collect();
                let args = invoke::parse_args(name, &params, &job.args)?
                    .into_iter()
                    .map(|v| match v {
                        Value::I32(v) => Val::I32(v),
                        Value::I64(v) => Val::I64(v),
                        Value::F32(v) => Val::from(v),
                        Value::F64(v) => Val::from(v),
                    })
                    .collect();
                (func, args, vec![Val::I32(0); ty.results().len()])
            }
        };
        // A reactor sets itself up in `_initialize` before an export is called.
        let init = job
            .invoke
            .as_ref()
            .and_then(|_| instance.get_func(&store, "_initialize"));
        let result = execute_then_teardown(&mut it, whole, store, |store| {
            if let Some(init) = init {
                init.call(&mut *store, &[], &mut [])?;
            }
            entry.call(&mut *store, &args, &mut results)
        });

        it.stdout = take(&stdout);
        if job.invoke.is_some() && result.is_ok() {
            let values: Vec<Value> = results
                .iter()
                .filter_map(|r| match r {
                    Val::I32(v) => Some(Value::I32(*v)),
                    Val::I64(v) => Some(Value::I64(*v)),
                    Val::F32(v) => Some(Value::F32(v.to_float())),
                    Val::F64(v) => Some(Value::F64(v.to_float())),
                    _ => None,
                })
                .collect();
            it.stdout.extend(invoke::print_results(&values));
        }
        it.stderr = take(&stderr);
        if it.stdout.len() >= job.stdout_limit && job.stdout_limit > 0 {
            return Err(Failure::stdout_over(job.stdout_limit));
        }
        match result {
            Ok(()) => Ok(it),
            Err(e) => match e.i32_exit_status() {
                Some(0) => Ok(it),
                Some(code) => Err(Failure::ExitCode(code)),
                None => Err(classify(e)),
            },
        }
    }
}

/// A parameter type as `--invoke` takes it, or its name.
fn scalar(t: &ValType) -> Result<Scalar, String> {
    match t {
        ValType::I32 => Ok(Scalar::I32),
        ValType::I64 => Ok(Scalar::I64),
        ValType::F32 => Ok(Scalar::F32),
        ValType::F64 => Ok(Scalar::F64),
        other => Err(format!("{other:?}").to_lowercase()),
    }
}

fn classify(e: wasmi::Error) -> Failure {
    let msg = e.to_string();
    // A refused `memory.grow` traps; a minimum over the cap is refused at instantiation.
    let over_cap = matches!(e.as_trap_code(), Some(TrapCode::GrowthOperationLimited))
        || matches!(
            e.kind(),
            ErrorKind::Memory(MemoryError::ResourceLimiterDeniedAllocation)
        );
    if over_cap {
        return Failure::OutOfMemory(format!("linear memory over the cap ({msg})"));
    }
    match e.as_trap_code() {
        Some(_) => Failure::Trap(msg),
        None => Failure::Other(msg),
    }
}
