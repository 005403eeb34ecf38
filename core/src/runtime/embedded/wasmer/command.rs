//! wasmer in-process with wasmer-wasix: one `Engine` per worker, a fresh `Store` per iteration.

use super::{WasmerCompiler, other};
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
        Ok(Wasmer { engine, tokio })
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
pub(crate) fn unknown_import(module: &Module) -> Option<String> {
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
        // The guest's whole file system is the scratch dir: a host FS rooted there.
        let host_fs = wasmer_wasix::virtual_fs::host_fs::FileSystem::new(
            tokio::runtime::Handle::current(),
            &job.scratch,
        )
        .map_err(|e| Failure::Other(format!("{}: {e}", job.scratch.display())))?;
        let builder = builder
            .fs(std::sync::Arc::new(host_fs)
                as std::sync::Arc<
                    dyn wasmer_wasix::virtual_fs::FileSystem + Send + Sync,
                >)
            .map_dir(".", "/")
            .map_err(|e| Failure::Other(format!("{}: {e}", job.scratch.display())))?;
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

        let start = instance
            .exports
            .get_function("_start")
            .map_err(|e| Failure::Other(format!("no _start export: {e}")))?
            .clone();
        let mut result = None;
        let took = crate::runtime::embedded::wasmeter_measured_region(&mut || {
            result = Some(start.call(&mut store, &[]))
        });
        let result = result.expect("the execute phase ran");
        it.wall(Phase::Execute, took);

        let t = Instant::now();
        wasi.on_exit(&mut store, None);
        drop(instance);
        drop(store);
        it.wall(Phase::Teardown, t.elapsed());
        it.wall(Phase::Total, whole.elapsed());

        // Every writer end is gone with the store, so these reads end.
        let _ = out_rx.read_to_end(&mut it.stdout);
        let _ = err_rx.read_to_end(&mut it.stderr);
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
