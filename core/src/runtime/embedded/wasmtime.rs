//! wasmtime in-process: one `Engine` and `Linker` per worker, a fresh `Store` per iteration.

use super::super::{Failure, Iteration, Job, Phase, Runtime};
use super::read_module;
use std::time::Instant;
use wasmtime::{
    Config, Enabled, Engine, InstanceAllocationStrategy, Linker, Module, OptLevel,
    PoolingAllocationConfig, Store, StoreLimits, StoreLimitsBuilder, Strategy,
};
use wasmtime_wasi::p1::{self, WasiP1Ctx};
use wasmtime_wasi::p2::pipe::MemoryOutputPipe;
use wasmtime_wasi::{FsPerms, I32Exit, WasiCtxBuilder};

/// The wasmtime configurations wasmeter compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WasmtimeVariant {
    /// Cranelift with the default configuration.
    Default,
    /// Pooling instance allocator with copy-on-write memory initialisation.
    Pooling,
    /// Pooling instance allocator, data segments copied in at each instantiation (the
    /// lifecycle suite's contrast to [`WasmtimeVariant::Pooling`]).
    PoolingNoCow,
    /// Winch, the baseline (single-pass) compiler.
    Winch,
    /// Cranelift with optimisations off: shows what the optimiser is worth.
    O0,
}

impl WasmtimeVariant {
    /// The engine configuration of this variant. `slots` sizes a pooling allocator: how
    /// many instances (with their memory, table and stack) can be alive at once.
    pub fn config(self, slots: u32) -> Config {
        self.config_with(slots, false)
    }

    /// [`WasmtimeVariant::config`] for a server that instantiates a small module over and
    /// over (the gateway): released pooling slots keep up to 1 MiB of memory resident
    /// and are reset in place — only the pages the instance dirtied, found with
    /// `PAGEMAP_SCAN` where the kernel has it — instead of being unmapped with `madvise`,
    /// which costs every request page faults and a TLB shootdown.
    pub fn server_config(self, slots: u32) -> Config {
        self.config_with(slots, true)
    }

    fn config_with(self, slots: u32, keep_resident: bool) -> Config {
        let mut cfg = Config::new();
        let pooling = |cfg: &mut Config, cow: bool| {
            let mut pool = PoolingAllocationConfig::default();
            pool.total_memories(slots)
                .total_tables(slots)
                .total_core_instances(slots)
                .total_stacks(slots)
                // Every slot stays warm (its module's image mapped) when released, as the
                // few a server reuses would; without this, the lifecycle harness's batches
                // of live instances would cool slots a one-at-a-time server keeps warm.
                .max_unused_warm_slots(slots);
            if keep_resident {
                pool.linear_memory_keep_resident(1 << 20)
                    .table_keep_resident(64 << 10)
                    .pagemap_scan(Enabled::Auto);
            }
            cfg.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
            cfg.memory_init_cow(cow);
        };
        match self {
            WasmtimeVariant::Default => {}
            WasmtimeVariant::Pooling => pooling(&mut cfg, true),
            WasmtimeVariant::PoolingNoCow => pooling(&mut cfg, false),
            WasmtimeVariant::Winch => {
                cfg.strategy(Strategy::Winch);
            }
            WasmtimeVariant::O0 => {
                cfg.cranelift_opt_level(OptLevel::None);
            }
        }
        cfg
    }
}

struct Host {
    wasi: WasiP1Ctx,
    limits: StoreLimits,
}

/// An embedded wasmtime engine in one configuration.
pub struct Wasmtime {
    engine: Engine,
    linker: Linker<Host>,
}

fn other(e: impl std::fmt::Display) -> Failure {
    Failure::Other(format!("{e:#}"))
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
        let mut result = None;
        let took =
            super::wasmeter_measured_region(&mut || result = Some(start.call(&mut store, ())));
        let result = result.expect("the execute phase ran");
        it.wall(Phase::Execute, took);

        let t = Instant::now();
        drop(store);
        it.wall(Phase::Teardown, t.elapsed());
        it.wall(Phase::Total, whole.elapsed());

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
