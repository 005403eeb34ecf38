//! The runtimes wasmeter knows (native, embedded, the CLI adapter table, the config's own),
//! and how to make one in the worker.

use super::cli::{CliRuntime, cli_runtimes, is_cli_adapter, is_server_only};
use super::embedded::{Embedded, presets};
use super::{
    Failure, NATIVE_DLOPEN, NativeCompiler, NativeLibraryRuntime, NativeRuntime, Runtime,
    RuntimeKind,
};
use crate::config::Config;
use crate::model::RuntimeInfo;
use crate::suite::{Execution, SuiteKind};

/// Runtimes that only make sense for the lifecycle suite: for a WASI command, turning
/// copy-on-write off changes nothing worth a column, and one-thread or lazy compilation
/// shows in start-up, which the lifecycle suite measures apart from running.
const LIFECYCLE_ONLY: &[&str] = &["wasmtime-pooling-nocow", "wasmtime-serial", "wasmi-lazy"];

/// Whether a variant serves the test's `wasi:http` component rather than its WASI command:
/// embedded `wasmtime-http` and the wasmtime CLI's `serve`.
pub fn serves_components(id: &str) -> bool {
    crate::suite::COMPONENT_RUNTIMES.contains(&id)
}

/// Whether a runtime can run a kind of suite; if not, why (shown as "not applicable").
/// Each rule says how the kind's cells run ([`Execution`]), never its name, and matches on
/// every way, so a new way of running has to be placed and a new kind that runs as one of
/// these costs nothing here.
pub fn applies_to(info: &RuntimeInfo, kind: SuiteKind) -> Result<(), String> {
    use Execution::{Commands, InProcess, PerRequest, ServerPrograms};
    let id = info.id.as_str();
    let how = kind.execution();
    let engine_rule = || match super::embedded::Embedded::parse(id).and_then(|e| e.not_for(how)) {
        Some(why) => Err(why.into()),
        None => Ok(()),
    };
    match how {
        InProcess if info.kind != RuntimeKind::Embedded => Err(
            "the lifecycle suite drives an engine in-process; native and CLI runtimes have none"
                .into(),
        ),
        h if id == NATIVE_DLOPEN => match h {
            Commands => Ok(()),
            InProcess | PerRequest | ServerPrograms => Err(
                "loads a C test into the worker and calls its main: command suites only".into(),
            ),
        },
        h if crate::runtime::container::is_variant(id) => match h {
            PerRequest => Ok(()),
            Commands | InProcess | ServerPrograms => {
                Err("the container variants are the gateway suite's".into())
            }
        },
        PerRequest | ServerPrograms if serves_components(id) => Ok(()),
        ServerPrograms if info.kind == RuntimeKind::Embedded => Err(
            "the servers suite starts server programs; an embedded engine runs none (the gateway suite measures embedded serving)"
                .into(),
        ),
        _ if id == super::cli::WASMTIME_SERVE => {
            Err("serves wasi:http components: the gateway and servers suites only".into())
        }
        h if is_server_only(id) => match h {
            ServerPrograms => engine_rule(),
            Commands | InProcess | PerRequest => Err(
                "a JS runtime for the servers suite only: it runs no WASI command module".into(),
            ),
        },
        h if LIFECYCLE_ONLY.contains(&id) => match h {
            InProcess => engine_rule(),
            Commands | PerRequest | ServerPrograms => {
                Err("a configuration for the lifecycle suite only".into())
            }
        },
        _ => engine_rule(),
    }
}

/// True for ids wasmeter defines itself (config files may not reuse them).
pub fn is_builtin(id: &str) -> bool {
    id == "native"
        || id == NATIVE_DLOPEN
        || crate::runtime::container::is_variant(id)
        || presets().any(|p| p.id == id)
        || is_cli_adapter(id)
}

/// The user's configuration ([`Config::load_default`]), refused when one of its runtimes
/// takes a built-in id: what every front end loads.
pub fn load_config() -> Result<Config, crate::config::ConfigError> {
    Config::load_default()?.reserve(is_builtin)
}

/// Every runtime wasmeter knows — native, embedded, CLI, custom — with availability
/// checked now.
pub fn known_runtimes(config: &Config) -> Vec<RuntimeInfo> {
    let native = native_info();
    let dlopen = native_dlopen_info(&native);
    let mut v = vec![native, dlopen];
    v.extend(presets().map(|p| embedded_info(p.id, &(p.make)(), p.description.to_string())));
    v.extend(cli_runtimes(config));
    v.extend(container_info());
    v
}

/// The gateway's container variants (docker or podman): the native gateway in a container,
/// as the published study ran it in Docker, and the guest in a container per request, the
/// heaviest isolation; each says how to get an engine when none answers.
fn container_info() -> [RuntimeInfo; 2] {
    use crate::runtime::container::{HINT, PER_REQUEST, VARIANT, detect};
    let (version, unavailable) = match detect() {
        Ok(e) => (e.version, None),
        Err(why) => ("-".to_string(), Some(why)),
    };
    let info = |id: &str, config: &str| RuntimeInfo {
        id: id.into(),
        kind: RuntimeKind::Cli,
        version: version.clone(),
        config: config.into(),
        unavailable: unavailable.clone(),
        hint: Some(HINT.into()),
        command: None,
    };
    [
        info(
            VARIANT,
            "gateway suite: the native gateway in an OCI container (bridge network, port published on 127.0.0.1; proxy's upstream in a sidecar sharing its network), image made locally from the wasmeter binary",
        ),
        info(
            PER_REQUEST,
            "gateway suite: the native gateway on the host runs the test's C guest, built natively, in a fresh container per request (no network, stdin/stdout), image made locally from the native build",
        ),
    ]
}

/// The native baseline as a runtime: the C compiler found here, or why there is none.
pub fn native_info() -> RuntimeInfo {
    let (version, config, unavailable) = match NativeCompiler::detect() {
        Ok(c) => (
            c.version.clone(),
            format!("C sources built by '{}'", c.program),
            None,
        ),
        Err(e) => (
            "-".into(),
            "C sources built by the system compiler".into(),
            Some(e),
        ),
    };
    RuntimeInfo {
        id: "native".into(),
        kind: RuntimeKind::Native,
        version,
        config,
        unavailable,
        hint: Some("install a C compiler (Debian: gcc or clang-19)".into()),
        command: None,
    }
}

/// The in-process native baseline: native's compiler, the test built as a shared library.
fn native_dlopen_info(native: &RuntimeInfo) -> RuntimeInfo {
    RuntimeInfo {
        id: NATIVE_DLOPEN.into(),
        config: format!(
            "{}, as a shared library loaded into the worker (alternates with embedded engines in one process)",
            native.config
        ),
        ..native.clone()
    }
}

/// Every engine's settings declaration (`runtimes --settings`): the embedded engines',
/// then the CLI runtimes' (declared in their table, `cli/runtimes.toml`).
pub fn engine_settings() -> &'static [super::settings::EngineSettings] {
    static ALL: std::sync::LazyLock<Vec<super::settings::EngineSettings>> =
        std::sync::LazyLock::new(|| {
            (super::embedded::settings().iter())
                .chain(super::cli::settings())
                .copied()
                .collect()
        });
    &ALL
}

/// The engine and values of a settings id among the engines wasmeter knows.
pub fn parse_settings_id(id: &str) -> Option<Result<super::settings::ParsedId, String>> {
    super::settings::parse_id(id, engine_settings())
}

/// The runtimes of a run with sweeps ([`super::settings::expand`] over wasmeter's engines).
pub fn expand_settings(
    runtimes: &[String],
    sets: &[String],
    yes: bool,
) -> Result<Vec<String>, String> {
    super::settings::expand(runtimes, sets, yes, engine_settings())
}

/// A runtime id with engine settings (`wasmtime[allocator=pooling]`), made on demand: its
/// engine's base preset with the values it names; for a CLI runtime, its base's entry
/// among `known` with the values' arguments in its command line (and the base's
/// availability). `None` for an id without settings; an error names a setting or value the
/// engine does not accept, or a configuration it refuses.
pub fn settings_info(id: &str, known: &[RuntimeInfo]) -> Option<Result<RuntimeInfo, String>> {
    let parsed = super::settings::parse_id(id, engine_settings())?;
    Some(parsed.and_then(|(decl, pairs)| {
        let set: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if decl.cli.is_some() {
            let base = known
                .iter()
                .find(|r| r.id == decl.base)
                .ok_or_else(|| format!("runtime '{id}': no runtime {}", decl.base))?;
            return Ok(RuntimeInfo {
                id: id.to_string(),
                config: format!("{}; set: {}", base.config, set.join(", ")),
                command: (base.command.as_ref()).and_then(|c| decl.cli_command(c, &pairs)),
                ..base.clone()
            });
        }
        let preset = presets()
            .find(|p| p.id == decl.base)
            .ok_or_else(|| format!("runtime '{id}': no preset {}", decl.base))?;
        let e = (preset.make)().with_all(&pairs)?;
        e.check().map_err(|why| {
            format!(
                "runtime '{id}': {} refuses these settings: {why}",
                decl.engine
            )
        })?;
        Ok(embedded_info(
            id,
            &e,
            format!("{}; set: {}", preset.description, set.join(", ")),
        ))
    }))
}

/// A runtime made from a known one: a settings id ([`settings_info`]) or a CLI runtime with
/// its feature flags on (`wasmtime-cli+flags`, [`super::flagged_variant`]), as a saved
/// features run names it when it is resumed. `None` for any other id.
pub fn derived_info(id: &str, known: &[RuntimeInfo]) -> Option<Result<RuntimeInfo, String>> {
    if let Some(base) = id.strip_suffix(super::FLAGGED) {
        let info = known.iter().find(|r| r.id == base)?;
        return Some(
            super::flagged_variant(info)
                .ok_or_else(|| format!("runtime '{id}': {base} declares no feature flags")),
        );
    }
    settings_info(id, known)
}

/// An embedded runtime's entry: unavailable only in a build without its engine's feature.
fn embedded_info(id: &str, engine: &Embedded, config: String) -> RuntimeInfo {
    RuntimeInfo {
        id: id.to_string(),
        kind: RuntimeKind::Embedded,
        version: engine.version().to_string(),
        config,
        unavailable: engine.feature().missing(),
        hint: None,
        command: None,
    }
}

/// Whether a runtime joins a run that names no runtimes (and starts ticked in the TUI):
/// `native-dlopen` is a second native column, for pairing in one process, and
/// `container-per-request` starts a container per request (a few per second), so each
/// runs only when named (or with the `all` group).
pub fn in_defaults(id: &str) -> bool {
    id != NATIVE_DLOPEN && id != crate::runtime::container::PER_REQUEST
}

/// Makes the runtime with this id, ready to run jobs (in the worker process).
pub fn instantiate(info: &RuntimeInfo) -> Result<Box<dyn Runtime>, Failure> {
    if info.kind == RuntimeKind::Cli {
        let cmd = info
            .command
            .clone()
            .ok_or_else(|| Failure::Unavailable(format!("{}: no command", info.id)))?;
        return Ok(Box::new(CliRuntime::new(cmd)));
    }
    if info.id == "native" {
        return Ok(Box::new(NativeRuntime));
    }
    if info.id == NATIVE_DLOPEN {
        return Ok(Box::new(NativeLibraryRuntime));
    }
    if let Some(engine) = Embedded::parse(&info.id) {
        return engine.runtime();
    }
    Err(Failure::Unavailable(format!(
        "unknown runtime '{}'",
        info.id
    )))
}

#[cfg(test)]
mod tests {
    use crate::profile::code::Compiler as _;
    use crate::runtime::embedded::{Feature, presets};

    /// An engine's runtimes are unavailable exactly when this build lacks its Cargo feature,
    /// and then say which feature; so are its command runtime and lifecycle engine.
    #[test]
    fn an_engine_without_its_feature_is_listed_unavailable_naming_it() {
        for p in presets() {
            let e = (p.make)();
            let info = super::embedded_info(p.id, &e, String::new());
            assert_eq!(info.unavailable, e.feature().missing(), "{}", p.id);
            if !e.feature().on {
                let why = e.runtime().err().map(|f| f.to_string()).unwrap_or_default();
                assert!(why.contains(e.feature().name), "{}: {why}", p.id);
                // The hot-code view says so too, where the engine has no reason of its own.
                if e.cannot_show_code(p.id).is_none() {
                    let code = crate::runtime::embedded::EngineCode.cannot_show(p.id);
                    let missing = e.feature().missing().map(|why| format!("{}: {why}", p.id));
                    assert_eq!(code, missing, "{}", p.id);
                }
            }
        }
        let off = Feature {
            name: "wasm3",
            on: false,
        };
        assert_eq!(
            off.missing().as_deref(),
            Some("this build of wasmeter has no embedded wasm3 (Cargo feature `wasm3`)")
        );
        assert_eq!(Feature { on: true, ..off }.missing(), None);
    }

    /// The suite format's list of the runtimes a `component` applies to names exactly the
    /// runtimes that serve components: embedded wasmtime-http and the wasmtime CLI's serve.
    #[test]
    fn the_component_runtimes_are_the_ones_that_serve_components() {
        for id in crate::suite::COMPONENT_RUNTIMES {
            assert!(
                id == super::super::WASMTIME_SERVE
                    || super::Embedded::parse(id).is_some_and(|e| {
                        e.cannot_run_components().is_none()
                            && e.not_for(crate::suite::Execution::Commands).is_some()
                    }),
                "{id}"
            );
        }
        assert!(super::serves_components(super::super::WASMTIME_SERVE));
        for id in [
            "wasmtime",
            "wasmtime-pooling",
            "wasmer-cranelift",
            "wasmtime-cli",
            "native",
        ] {
            assert!(!super::serves_components(id), "{id}");
        }
    }

    fn info(id: &str, run: &[&str], precompile: Option<&[&str]>) -> crate::runtime::RuntimeInfo {
        crate::runtime::RuntimeInfo::cli_for_tests(id, run, precompile)
    }

    #[test]
    fn derived_runtimes_are_made_from_the_known_ones() {
        use crate::runtime::derived_info;
        let known = [
            info(
                "wasmtime-cli",
                &["/bin/wasmtime", "run", "-C", "cache=n", "{wasm}"],
                None,
            ),
            info("wazero", &["/bin/wazero", "run", "{wasm}"], None),
        ];
        // A saved features run's flagged id, on resume.
        let flagged = derived_info("wasmtime-cli+flags", &known).unwrap().unwrap();
        assert_eq!(
            flagged.command.unwrap().run[2..4],
            ["-W", "shared-memory=y"]
        );
        assert!(derived_info("wazero+flags", &known).unwrap().is_err());
        assert!(derived_info("nosuch+flags", &known).is_none());
        // A CLI runtime's settings: its base's command with the values' flags after `run`.
        let set = derived_info("wasmtime-cli[opt-level=none,parallel-compile=off]", &known)
            .unwrap()
            .unwrap();
        assert_eq!(set.id, "wasmtime-cli[opt-level=none,parallel-compile=off]");
        assert_eq!(
            set.command.unwrap().run,
            [
                "/bin/wasmtime",
                "run",
                "-O",
                "opt-level=0",
                "-C",
                "parallel-compilation=n",
                "-C",
                "cache=n",
                "{wasm}"
            ]
        );
        assert!(
            set.config
                .ends_with("; set: opt-level=none, parallel-compile=off")
        );
        let interp = derived_info("wazero[engine=interpreter]", &known)
            .unwrap()
            .unwrap();
        assert_eq!(interp.command.unwrap().run[1..3], ["run", "-interpreter"]);
        assert!(derived_info("wazero", &known).is_none());
    }
}
