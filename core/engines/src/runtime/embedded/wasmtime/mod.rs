//! wasmtime, embedded: its configurations, and the engine behind the command suites
//! ([`command`]), the lifecycle suite ([`lifecycle`]) and the gateway ([`gateway`], with
//! its own WASI subset, [`gateway_wasi`]; [`gateway_http`] for wasi:http components). Adding a wasmtime configuration is a
//! [`WasmtimeVariant`] here and its [`Preset`](super::Preset) in [`ENGINE`] (engine.rs).

mod engine;
pub use engine::ENGINE;

#[cfg(feature = "wasmtime")]
pub mod code;
#[cfg(feature = "wasmtime")]
mod command;
#[cfg(feature = "wasmtime")]
mod component;
#[cfg(feature = "wasmtime")]
pub mod gateway;
#[cfg(feature = "wasmtime")]
pub mod gateway_http;
#[cfg(feature = "wasmtime")]
mod gateway_wasi;
#[cfg(feature = "wasmtime")]
mod host;
#[cfg(feature = "wasmtime")]
pub mod lifecycle;

#[cfg(feature = "wasmtime")]
use crate::runtime::Failure;
#[cfg(feature = "wasmtime")]
pub use command::Wasmtime;
#[cfg(feature = "wasmtime")]
use wasmtime::{
    Config, Enabled, InstanceAllocationStrategy, OptLevel, PoolingAllocationConfig, Strategy,
};

/// Which compiler turns wasm into machine code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WasmtimeCompiler {
    /// Cranelift, the optimising compiler.
    Cranelift,
    /// Winch, the baseline (single-pass) compiler.
    Winch,
}

/// How running code can be interrupted, which costs checks in the compiled code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WasmtimeInterrupt {
    /// No checks (wasmtime's default).
    None,
    /// Epoch checks at every function entry and loop back-edge (`wasmtime serve`'s way of
    /// bounding a request's time).
    Epoch,
    /// Fuel counted down by every instruction run.
    Fuel,
}

/// Cranelift's optimisation level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WasmtimeOpt {
    /// Optimisations off: shows what the optimiser is worth.
    None,
    /// The default.
    Speed,
    /// Speed, and smaller code.
    SpeedAndSize,
}

/// A configuration of wasmtime: the values of its settings ([`WASMTIME_SETTINGS`]). The
/// fixed variants wasmeter has always compared are presets of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WasmtimeVariant {
    /// `compiler`.
    pub compiler: WasmtimeCompiler,
    /// `opt-level`.
    pub opt: WasmtimeOpt,
    /// `allocator=pooling`: instances from a pool of preallocated slots.
    pub pooling: bool,
    /// `cow`: linear memories initialised copy-on-write from the module's image.
    pub cow: bool,
    /// `guard-size`: bytes of guard pages after each linear memory (`None`: wasmtime's).
    pub guard: Option<u64>,
    /// `bounds-checks=explicit`: no signal handlers; every access checks its bounds.
    pub explicit_bounds: bool,
    /// `parallel-compile`: functions compiled in parallel on every core.
    pub parallel: bool,
    /// `interrupt`: epoch checks or fuel metering compiled in.
    pub interrupt: WasmtimeInterrupt,
}

impl WasmtimeVariant {
    /// Cranelift with the default configuration.
    pub const DEFAULT: WasmtimeVariant = WasmtimeVariant {
        compiler: WasmtimeCompiler::Cranelift,
        opt: WasmtimeOpt::Speed,
        pooling: false,
        cow: true,
        guard: None,
        explicit_bounds: false,
        parallel: true,
        interrupt: WasmtimeInterrupt::None,
    };
    /// Pooling instance allocator with copy-on-write memory initialisation.
    pub const POOLING: WasmtimeVariant = WasmtimeVariant {
        pooling: true,
        ..WasmtimeVariant::DEFAULT
    };
    /// Pooling instance allocator, data segments copied in at each instantiation (the
    /// lifecycle suite's contrast to [`WasmtimeVariant::POOLING`]).
    pub const POOLING_NOCOW: WasmtimeVariant = WasmtimeVariant {
        pooling: true,
        cow: false,
        ..WasmtimeVariant::DEFAULT
    };
    /// Winch, the baseline (single-pass) compiler.
    pub const WINCH: WasmtimeVariant = WasmtimeVariant {
        compiler: WasmtimeCompiler::Winch,
        ..WasmtimeVariant::DEFAULT
    };
    /// Cranelift with optimisations off.
    pub const O0: WasmtimeVariant = WasmtimeVariant {
        opt: WasmtimeOpt::None,
        ..WasmtimeVariant::DEFAULT
    };
    /// Cranelift compiling one function at a time on one thread (the lifecycle suite's
    /// contrast to the default, which compiles functions in parallel on every core).
    pub const SERIAL: WasmtimeVariant = WasmtimeVariant {
        parallel: false,
        ..WasmtimeVariant::DEFAULT
    };

    /// This configuration with one setting changed; the value is one the declaration
    /// accepts ([`crate::runtime::settings::EngineSettings::check`]).
    pub fn with(mut self, name: &str, value: &str) -> Result<WasmtimeVariant, String> {
        let on = value == "on";
        match name {
            "compiler" => {
                self.compiler = match value {
                    "winch" => WasmtimeCompiler::Winch,
                    _ => WasmtimeCompiler::Cranelift,
                }
            }
            "opt-level" => {
                self.opt = match value {
                    "none" => WasmtimeOpt::None,
                    "speed-and-size" => WasmtimeOpt::SpeedAndSize,
                    _ => WasmtimeOpt::Speed,
                }
            }
            "allocator" => self.pooling = value == "pooling",
            "cow" => self.cow = on,
            "guard-size" => self.guard = crate::runtime::settings::parse_bytes(value),
            "bounds-checks" => self.explicit_bounds = value == "explicit",
            "parallel-compile" => self.parallel = on,
            "interrupt" => {
                self.interrupt = match value {
                    "epoch" => WasmtimeInterrupt::Epoch,
                    "fuel" => WasmtimeInterrupt::Fuel,
                    _ => WasmtimeInterrupt::None,
                }
            }
            other => return Err(format!("wasmtime has no setting '{other}'")),
        }
        Ok(self)
    }
}

/// wasmtime's settings, as `--set wasmtime.NAME=…` and `wasmtime[NAME=…]` take them.
pub const WASMTIME_SETTINGS: crate::runtime::settings::EngineSettings = {
    use crate::runtime::settings::{EngineSettings, Setting, Values};
    const ON_OFF: Values = Values::OneOf(&["on", "off"]);
    EngineSettings {
        engine: "wasmtime",
        base: "wasmtime",
        settings: &[
            Setting {
                name: "compiler",
                values: Values::OneOf(&["cranelift", "winch"]),
                default: "cranelift",
                what: "optimising compiler, or Winch's single pass",
            },
            Setting {
                name: "opt-level",
                values: Values::OneOf(&["none", "speed", "speed-and-size"]),
                default: "speed",
                what: "Cranelift's optimisation level",
            },
            Setting {
                name: "allocator",
                values: Values::OneOf(&["on-demand", "pooling"]),
                default: "on-demand",
                what: "instances mapped when made, or taken from a pool of slots",
            },
            Setting {
                name: "cow",
                values: ON_OFF,
                default: "on",
                what: "linear memory initialised copy-on-write from the module's image",
            },
            Setting {
                name: "guard-size",
                values: Values::Bytes,
                default: "32m",
                what: "guard pages after each linear memory",
            },
            Setting {
                name: "bounds-checks",
                values: Values::OneOf(&["signals", "explicit"]),
                default: "signals",
                what: "out-of-bounds accesses caught by the MMU and a signal handler, or checked in code",
            },
            Setting {
                name: "parallel-compile",
                values: ON_OFF,
                default: "on",
                what: "functions compiled in parallel on every core",
            },
            Setting {
                name: "interrupt",
                values: Values::OneOf(&["none", "epoch", "fuel"]),
                default: "none",
                what: "epoch checks at function entries and loop back-edges, or fuel metering, compiled in (a deadline no run reaches: the checks are what is measured)",
            },
        ],
        cli: None,
    }
};

#[cfg(feature = "wasmtime")]
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
        if self.pooling {
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
        }
        cfg.memory_init_cow(self.cow);
        if self.compiler == WasmtimeCompiler::Winch {
            cfg.strategy(Strategy::Winch);
        }
        match self.opt {
            WasmtimeOpt::None => {
                cfg.cranelift_opt_level(OptLevel::None);
            }
            WasmtimeOpt::SpeedAndSize => {
                cfg.cranelift_opt_level(OptLevel::SpeedAndSize);
            }
            WasmtimeOpt::Speed => {}
        }
        if !self.parallel {
            cfg.parallel_compilation(false);
        }
        if let Some(bytes) = self.guard {
            cfg.memory_guard_size(bytes);
        }
        if self.explicit_bounds {
            cfg.signals_based_traps(false);
        }
        // A profiled worker names the code it compiles in /tmp/perf-PID.map (no code
        // changes; a line per function at compile time).
        if crate::profile::perf_maps_wanted() {
            cfg.profiler(wasmtime::ProfilingStrategy::PerfMap);
        }
        match self.interrupt {
            WasmtimeInterrupt::None => {}
            WasmtimeInterrupt::Epoch => {
                cfg.epoch_interruption(true);
            }
            WasmtimeInterrupt::Fuel => {
                cfg.consume_fuel(true);
            }
        }
        cfg
    }
}

/// A store for `engine`, runnable whatever its `interrupt` setting: an epoch deadline and
/// fuel that no run reaches, so the compiled-in checks are measured and never fire. Every
/// wasmtime store wasmeter makes comes from here (a store left at wasmtime's deadline of 0
/// would trap at its first check).
#[cfg(feature = "wasmtime")]
pub fn store<T: 'static>(engine: &wasmtime::Engine, data: T) -> wasmtime::Store<T> {
    let mut store = wasmtime::Store::new(engine, data);
    if engine.get_epoch_interruption() {
        store.set_epoch_deadline(u64::MAX / 2);
    }
    if engine.get_consume_fuel() {
        store
            .set_fuel(u64::MAX)
            .expect("an engine that consumes fuel takes fuel");
    }
    store
}

/// A wasmtime error as a failure, with its chain of causes.
#[cfg(feature = "wasmtime")]
fn other(e: impl std::fmt::Display) -> Failure {
    Failure::Other(format!("{e:#}"))
}
