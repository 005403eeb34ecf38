//! The settings CLI runtimes take on their command lines, declared as the embedded engines
//! declare theirs ([`super::settings`]): `--set wasmtime-cli.opt-level=none,speed` or
//! `wasmtime-cli[allocator=pooling]` runs the adapter's command with the flags each value
//! stands for. The command lines were checked against the versions in docs/runtimes.md.

use super::settings::{CliArgs, EngineSettings, Setting, Values};

/// wasmtime's CLI: the embedded engine's settings, under the same names and values, as
/// `-O`, `-C` and `-W` options of `wasmtime run`.
const WASMTIME_CLI_SETTINGS: EngineSettings = EngineSettings {
    engine: "wasmtime-cli",
    base: "wasmtime-cli",
    settings: super::embedded::WASMTIME_SETTINGS.settings,
    cli: Some(CliArgs {
        after: 1,
        args: &[
            ("compiler", "*", &["-C", "compiler={}"]),
            ("opt-level", "none", &["-O", "opt-level=0"]),
            ("opt-level", "speed", &["-O", "opt-level=2"]),
            ("opt-level", "speed-and-size", &["-O", "opt-level=s"]),
            ("allocator", "pooling", &["-O", "pooling-allocator=y"]),
            ("allocator", "on-demand", &["-O", "pooling-allocator=n"]),
            ("cow", "on", &["-O", "memory-init-cow=y"]),
            ("cow", "off", &["-O", "memory-init-cow=n"]),
            ("guard-size", "*", &["-O", "memory-guard-size={}"]),
            ("bounds-checks", "signals", &["-O", "signals-based-traps=y"]),
            (
                "bounds-checks",
                "explicit",
                &["-O", "signals-based-traps=n"],
            ),
            ("parallel-compile", "on", &["-C", "parallel-compilation=y"]),
            ("parallel-compile", "off", &["-C", "parallel-compilation=n"]),
            // Epoch interruption alone traps at the first check (its deadline is 0): the
            // CLI's timeout sets one, far past any run, and ticks the epoch.
            (
                "interrupt",
                "epoch",
                &["-W", "epoch-interruption=y", "-W", "timeout=1000000s"],
            ),
            ("interrupt", "fuel", &["-W", "fuel=18446744073709551615"]),
        ],
    }),
};

/// node's V8: which compilers run the module, and whether functions compile on first call.
const NODE_SETTINGS: EngineSettings = EngineSettings {
    engine: "node",
    base: "node",
    settings: &[
        Setting {
            name: "tier",
            values: Values::OneOf(&["tiered", "liftoff", "turbofan"]),
            default: "tiered",
            what: "Liftoff first then TurboFan for hot functions, Liftoff only, or TurboFan only",
        },
        Setting {
            name: "lazy",
            values: Values::OneOf(&["on", "off"]),
            default: "on",
            what: "functions compiled on their first call, or all before the start",
        },
    ],
    cli: Some(CliArgs {
        after: 0,
        args: &[
            ("tier", "liftoff", &["--liftoff-only"]),
            ("tier", "turbofan", &["--no-liftoff"]),
            ("lazy", "on", &["--wasm-lazy-compilation"]),
            ("lazy", "off", &["--no-wasm-lazy-compilation"]),
        ],
    }),
};

/// wazero's CLI: its compiler or its interpreter.
const WAZERO_SETTINGS: EngineSettings = EngineSettings {
    engine: "wazero",
    base: "wazero",
    settings: &[Setting {
        name: "engine",
        values: Values::OneOf(&["compiler", "interpreter"]),
        default: "compiler",
        what: "wazero's optimising compiler, or its interpreter",
    }],
    cli: Some(CliArgs {
        after: 1,
        args: &[("engine", "interpreter", &["-interpreter"])],
    }),
};

/// Every CLI runtime that declares settings.
pub const SETTINGS: [EngineSettings; 3] = [WASMTIME_CLI_SETTINGS, NODE_SETTINGS, WAZERO_SETTINGS];
