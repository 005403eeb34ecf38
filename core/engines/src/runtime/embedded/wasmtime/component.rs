//! A WASI preview 2 command component (`wasi:cli/command`) on embedded wasmtime: compiled
//! and pre-linked against wasmtime-wasi's preview 2 host, run through `wasi:cli/run`, and
//! timed in the same phases as a core module. A `wasi:http/proxy` component is served one
//! request instead (`gateway_http::answer_once`).

use super::host::{classify, store_limits, wasi_builder};
use super::other;
use crate::runtime::embedded::execute_then_teardown;
use crate::runtime::{Failure, Iteration, Job, Phase};
use std::time::Instant;
use wasmtime::component::{Component, Linker, ResourceTable};
use wasmtime::{Engine, StoreLimits};
use wasmtime_wasi::p2::bindings::sync::CommandPre;
use wasmtime_wasi::{I32Exit, WasiCtx, WasiCtxView, WasiView};

/// A store's state: the preview 2 context, its resources and the memory cap.
struct Host {
    ctx: WasiCtx,
    table: ResourceTable,
    limits: StoreLimits,
}

impl WasiView for Host {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.ctx,
            table: &mut self.table,
        }
    }
}

/// The preview 2 linker, made once per worker like the core one.
pub(super) struct Components {
    linker: Linker<Host>,
}

impl Components {
    /// Links wasmtime-wasi's preview 2 host.
    pub(super) fn new(engine: &Engine) -> Result<Components, Failure> {
        let mut linker = Linker::new(engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker).map_err(other)?;
        Ok(Components { linker })
    }
}

/// Runs a command component once: compile (and pre-link), instantiate, `wasi:cli/run`,
/// teardown. `--invoke` takes core modules' exports only: a component refuses it.
pub(super) fn run(
    engine: &Engine,
    components: &Components,
    job: &Job,
    bytes: &[u8],
) -> Result<Iteration, Failure> {
    if job.invoke.is_some() {
        return Err(Failure::Unavailable(
            "--invoke calls a core module's export; a component runs as a command".into(),
        ));
    }
    if crate::suite::serves_http(bytes) {
        return super::gateway_http::answer_once(engine, job, bytes);
    }
    let mut it = Iteration::default();
    let whole = Instant::now();

    let t = Instant::now();
    let component = Component::new(engine, bytes)
        .map_err(|e| Failure::invalid_module(&job.program, format!("{e:#}")))?;
    let pre = components
        .linker
        .instantiate_pre(&component)
        .and_then(CommandPre::new)
        .map_err(|e| Failure::Other(format!("cannot link: {e:#}")))?;
    it.wall(Phase::Compile, t.elapsed());

    let (mut b, stdout, stderr) = wasi_builder(job)?;
    let host = Host {
        ctx: b.build(),
        table: ResourceTable::new(),
        limits: store_limits(job),
    };
    let t = Instant::now();
    let mut store = super::store(engine, host);
    store.limiter(|h| &mut h.limits);
    let command = pre.instantiate(&mut store).map_err(classify)?;
    it.wall(Phase::Instantiate, t.elapsed());

    let result = execute_then_teardown(&mut it, whole, store, |store| {
        command.wasi_cli_run().call_run(store)
    });
    it.stdout = stdout.contents().to_vec();
    it.stderr = stderr.contents().to_vec();
    if it.stdout.len() >= job.stdout_limit && job.stdout_limit > 0 {
        return Err(Failure::stdout_over(job.stdout_limit));
    }
    match result {
        Ok(Ok(())) => Ok(it),
        // `wasi:cli/exit` with an error: the preview 1 adapter says so for any non-zero
        // `proc_exit`, whose code it does not pass on.
        Ok(Err(())) => Err(Failure::ExitCode(1)),
        Err(e) => match e.downcast_ref::<I32Exit>() {
            Some(I32Exit(0)) => Ok(it),
            Some(I32Exit(code)) => Err(Failure::ExitCode(*code)),
            None => Err(classify(e)),
        },
    }
}
