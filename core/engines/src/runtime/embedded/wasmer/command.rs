//! wasmer in-process with wasmer-wasix: one `Engine` per worker, a fresh `Store` per iteration.

use super::{WasmerCompiler, other};
use crate::runtime::embedded::invoke::{self, Scalar, Value};
use crate::runtime::embedded::read_module;
use crate::runtime::{Failure, Iteration, Job, Phase, Runtime};
use std::io::Read;
use std::time::Instant;
use wasmer::{Engine, Instance, Module, Store};
use wasmer_wasix::{Pipe, WasiEnv, WasiError};

/// An embedded wasmer engine with one compiler.
pub struct Wasmer {
    engine: Engine,
    // wasmer-wasix schedules its host tasks on tokio; the runtime must outlive every store.
    tokio: tokio::runtime::Runtime,
    artifacts: crate::runtime::embedded::ArtifactsSeen,
}

impl Wasmer {
    /// Builds the engine for a compiler.
    pub fn new(compiler: WasmerCompiler) -> Result<Wasmer, Failure> {
        let engine = compiler.engine();
        let tokio = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .map_err(|e| Failure::Other(format!("cannot start tokio: {e}")))?;
        Ok(Wasmer {
            engine,
            tokio,
            artifacts: Default::default(),
        })
    }
}

/// The import namespaces wasmer-wasix provides.
const WASI_NAMESPACES: [&str; 4] = [
    "wasi_snapshot_preview1",
    "wasi_unstable",
    "wasix_32v1",
    "wasix_64v1",
];

/// The first import no namespace of wasmer-wasix provides, said as wasmtime says it:
/// without this check wasmer-wasix answers "The WASI version could not be determined",
/// which does not name the import.
pub fn unknown_import(module: &Module) -> Option<String> {
    module
        .imports()
        .find(|i| !WASI_NAMESPACES.contains(&i.module()))
        .map(|i| {
            format!(
                "unknown import: `{}::{}` has not been defined",
                i.module(),
                i.name()
            )
        })
}

impl Runtime for Wasmer {
    fn run(&self, job: &Job) -> Result<Iteration, Failure> {
        let _guard = self.tokio.enter();
        let bytes = read_module(job)?;
        let mut store = Store::new(self.engine.clone());
        Module::validate(&store, &bytes).map_err(|e| Failure::invalid_module(&job.program, e))?;
        let mut it = Iteration::default();
        let whole = Instant::now();

        let t = Instant::now();
        let module = Module::new(&store, &bytes).map_err(other)?;
        it.wall(Phase::Compile, t.elapsed());

        let (out_tx, mut out_rx) = Pipe::channel();
        let (err_tx, mut err_rx) = Pipe::channel();
        let mut builder = WasiEnv::builder(job.name.clone())
            .engine(self.engine.clone())
            .args(job.args.iter())
            .stdout(Box::new(out_tx))
            .stderr(Box::new(err_tx));
        for (k, v) in &job.env {
            builder.add_env(k, v);
        }
        if let Some(p) = &job.stdin {
            let bytes =
                std::fs::read(p).map_err(|_| Failure::MissingFile(p.display().to_string()))?;
            builder = builder.stdin(Box::new(wasmer_wasix::virtual_fs::StaticFile::new(bytes)));
        }
        // The guest's whole file system is the scratch dir: a host FS rooted there, with
        // the job's host folders mounted where the guest names them.
        let host_fs = |dir: &std::path::Path| {
            wasmer_wasix::virtual_fs::host_fs::FileSystem::new(
                tokio::runtime::Handle::current(),
                dir,
            )
            .map_err(|e| Failure::Other(format!("{}: {e}", dir.display())))
        };
        type DynFs = std::sync::Arc<dyn wasmer_wasix::virtual_fs::FileSystem + Send + Sync>;
        let scratch: DynFs = std::sync::Arc::new(host_fs(&job.scratch)?);
        let mut builder = if job.dirs.is_empty() {
            builder.fs(scratch)
        } else {
            let mounts = wasmer_wasix::virtual_fs::MountFileSystem::new();
            let mount = |at: &std::path::Path, fs: DynFs| {
                mounts
                    .mount(at, fs)
                    .map_err(|e| Failure::Other(format!("cannot mount {}: {e}", at.display())))
            };
            mount(std::path::Path::new("/"), scratch)?;
            for d in &job.dirs {
                mount(
                    &std::path::Path::new("/").join(&d.guest),
                    std::sync::Arc::new(host_fs(&d.host)?),
                )?;
            }
            builder.mount_fs(mounts)
        }
        .map_dir(".", "/")
        .map_err(|e| Failure::Other(format!("{}: {e}", job.scratch.display())))?;
        for d in &job.dirs {
            builder = builder
                .map_dir(&d.guest, std::path::Path::new("/").join(&d.guest))
                .map_err(|e| Failure::Other(format!("{}: {e}", d.host.display())))?;
        }
        let mut wasi = builder.finalize(&mut store).map_err(other)?;

        let t = Instant::now();
        if let Some(why) = unknown_import(&module) {
            return Err(Failure::Other(why));
        }
        let imports = wasi.import_object(&mut store, &module).map_err(other)?;
        let instance = Instance::new(&mut store, &module, &imports).map_err(|e| match e {
            wasmer::InstantiationError::Start(rt) => classify(rt),
            e => Failure::Other(e.to_string()),
        })?;
        wasi.initialize(&mut store, instance.clone())
            .map_err(other)?;
        it.wall(Phase::Instantiate, t.elapsed());

        let (entry, args) = match &job.invoke {
            None => (
                instance
                    .exports
                    .get_function("_start")
                    .map_err(|e| Failure::Other(format!("no _start export: {e}")))?
                    .clone(),
                Vec::new(),
            ),
            Some(name) => {
                let func = instance
                    .exports
                    .get_function(name)
                    .map_err(|_| invoke::no_export(name))?
                    .clone();
                let params: Vec<_> = func.ty(&store).params().iter().map(scalar).collect();
                let args = invoke::parse_args(name, &params, &job.args)?
                    .into_iter()
                    .map(|v| match v {
                        Value::I32(v) => wasmer::Value::I32(v),
                        Value::I64(v) => wasmer::Value::I64(v),
                        Value::F32(v) => wasmer::Value::F32(v),
                        Value::F64(v) => wasmer::Value::F64(v),
                    })
                    .collect();
                (func, args)
            }
        };
        // A reactor sets itself up in `_initialize` before an export is called.
        let init = job
            .invoke
            .as_ref()
            .and_then(|_| instance.exports.get_function("_initialize").ok().cloned());
        let mut result = None;
        let took = crate::runtime::embedded::wasmeter_measured_region(&mut || {
            let ran = match &init {
                Some(init) => init.call(&mut store, &[]).map(drop),
                None => Ok(()),
            };
            result = Some(ran.and_then(|()| entry.call(&mut store, &args)))
        });
        let result = result.expect("the execute phase ran");
        it.wall(Phase::Execute, took);
        let printed = match &result {
            Ok(values) if job.invoke.is_some() => invoke::print_results(
                &values
                    .iter()
                    .filter_map(|v| match v {
                        wasmer::Value::I32(v) => Some(Value::I32(*v)),
                        wasmer::Value::I64(v) => Some(Value::I64(*v)),
                        wasmer::Value::F32(v) => Some(Value::F32(*v)),
                        wasmer::Value::F64(v) => Some(Value::F64(*v)),
                        _ => None,
                    })
                    .collect::<Vec<_>>(),
            ),
            _ => Vec::new(),
        };

        let t = Instant::now();
        wasi.on_exit(&mut store, None);
        drop(instance);
        drop(store);
        it.wall(Phase::Teardown, t.elapsed());
        it.wall(Phase::Total, whole.elapsed());

        // Every writer end is gone with the store, so these reads end.
        let _ = out_rx.read_to_end(&mut it.stdout);
        let _ = err_rx.read_to_end(&mut it.stderr);
        it.stdout.extend(printed);
        if self.artifacts.first(&job.program) {
            it.artifact(module.serialize().ok().map(|a| a.len()));
        }
        if it.stdout.len() > job.stdout_limit {
            return Err(Failure::stdout_over(job.stdout_limit));
        }
        match result.map_err(classify) {
            // `exit(0)` ends `_start` through an error, but it is a success.
            Ok(_) | Err(Failure::ExitCode(0)) => Ok(it),
            Err(f) => Err(f),
        }
    }
}

/// A parameter type as `--invoke` takes it, or its name.
fn scalar(t: &wasmer::Type) -> Result<Scalar, String> {
    match t {
        wasmer::Type::I32 => Ok(Scalar::I32),
        wasmer::Type::I64 => Ok(Scalar::I64),
        wasmer::Type::F32 => Ok(Scalar::F32),
        wasmer::Type::F64 => Ok(Scalar::F64),
        other => Err(other.to_string()),
    }
}

fn classify(e: wasmer::RuntimeError) -> Failure {
    match e.downcast::<WasiError>() {
        Ok(WasiError::Exit(code)) if code.is_success() => Failure::ExitCode(0),
        Ok(WasiError::Exit(code)) => Failure::ExitCode(code.raw()),
        Ok(other) => Failure::Other(other.to_string()),
        Err(rt) => match rt.clone().to_trap() {
            Some(code) => Failure::Trap(code.to_string()),
            None => Failure::Other(rt.message()),
        },
    }
}
