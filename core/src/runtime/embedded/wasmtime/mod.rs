//! wasmtime, embedded: its configurations, and the engine behind the command suites
//! ([`command`]), the lifecycle suite ([`lifecycle`]) and the gateway ([`gateway`], with
//! its own WASI subset, [`gateway_wasi`]; [`gateway_http`] for wasi:http components). Adding a wasmtime configuration is a
//! [`WasmtimeVariant`] here and its row in [`super::EMBEDDED`].

#[cfg(feature = "engines")]
mod command;
#[cfg(feature = "engines")]
mod component;
#[cfg(feature = "engines")]
pub(crate) mod gateway;
#[cfg(feature = "engines")]
pub(crate) mod gateway_http;
#[cfg(feature = "engines")]
mod gateway_wasi;
#[cfg(feature = "engines")]
mod host;
#[cfg(feature = "engines")]
pub(crate) mod lifecycle;

#[cfg(feature = "engines")]
use crate::runtime::Failure;
#[cfg(feature = "engines")]
pub use command::Wasmtime;
#[cfg(feature = "engines")]
use wasmtime::{
    Config, Enabled, InstanceAllocationStrategy, OptLevel, PoolingAllocationConfig, Strategy,
};

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
    /// Cranelift compiling one function at a time on one thread (the lifecycle suite's
    /// contrast to the default, which compiles functions in parallel on every core).
    Serial,
}

#[cfg(feature = "engines")]
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
            WasmtimeVariant::Serial => {
                cfg.parallel_compilation(false);
            }
        }
        cfg
    }
}

/// A wasmtime error as a failure, with its chain of causes.
#[cfg(feature = "engines")]
fn other(e: impl std::fmt::Display) -> Failure {
    Failure::Other(format!("{e:#}"))
}
