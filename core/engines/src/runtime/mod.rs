//! Runtimes: what runs a test. Embedded engines run in the worker process; native runs the
//! C build of the same test as a child process (or, `native-dlopen`, as a library loaded
//! into the worker).

mod cli;
pub mod container;
pub mod embedded;
mod helper;
pub mod launch;
#[cfg(feature = "testing")]
mod mock;
mod native;
mod native_build;
mod native_library;
pub mod process;
mod registry;
pub mod settings;
pub mod suite_api;

pub use crate::cache::cache_root;
pub use crate::model::{CliCommand, Failure, Metric, Phase, PhaseValue, RuntimeInfo, RuntimeKind};
pub use crate::model::{FLAGGED, feature_flag, flagged_variant};
pub use cli::expand;
pub use cli::{
    CliRuntime, PerfMapFlag, WASMTIME_SERVE, command_env, component_support, guest_dir_support,
    guest_env_support, invoke_support, parse_version, perf_map_flag, runtimes_dir,
};
pub use helper::{HOST_COMMANDS, SERVE_ECHO, SERVE_GATEWAY, WORKER, WorkerCommand, read_spec};
#[cfg(feature = "testing")]
pub use mock::MockRuntime;
pub use native::NativeRuntime;
pub use native_build::{LIBRARY_MAIN, NativeCompiler, NativeForm, native_cache_dir};
pub use native_library::{NATIVE_DLOPEN, NativeLibraryRuntime};
pub use registry::native_info;
pub use registry::{
    applies_to, derived_info, engine_settings, expand_settings, in_defaults, instantiate,
    is_builtin, known_runtimes, load_config, parse_settings_id, serves_components, settings_info,
};

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Everything one run of a guest needs. Paths are absolute.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Job {
    /// The `.wasm` module (embedded runtimes) or executable (native).
    pub program: PathBuf,
    /// argv[0] as the guest sees it.
    pub name: String,
    /// Arguments after argv[0].
    pub args: Vec<String>,
    /// Environment the guest sees; nothing of the host's unless put here.
    pub env: Vec<(String, String)>,
    /// The guest's private scratch directory, preopened as `.`.
    pub scratch: PathBuf,
    /// Upper bound of guest linear memory, bytes.
    pub memory_limit: u64,
    /// Upper bound of captured stdout, bytes.
    pub stdout_limit: usize,
    /// A file the guest reads as its stdin; `None`: an empty stdin.
    pub stdin: Option<PathBuf>,
    /// Host folders the guest sees besides its scratch folder.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dirs: Vec<crate::suite::Preopen>,
    /// An exported function to call instead of `_start`, with `args` as its arguments;
    /// its results are printed one a line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invoke: Option<String>,
}

/// A WASI command module that writes `text` (at most 64 bytes) to stdout: a real guest for
/// tests of a runtime.
#[cfg(test)]
pub fn hello_guest(text: &str) -> Vec<u8> {
    assert!(
        text.len() <= 64,
        "{text:?}: too long for the guest's data segment"
    );
    let data: String = text.bytes().map(|b| format!("\\{b:02x}")).collect();
    wat::parse_str(format!(
        r#"(module
             (import "wasi_snapshot_preview1" "fd_write"
               (func $write (param i32 i32 i32 i32) (result i32)))
             (memory (export "memory") 1)
             (data (i32.const 16) "{data}")
             (func (export "_start")
               (i32.store (i32.const 0) (i32.const 16))
               (i32.store (i32.const 4) (i32.const {len}))
               (drop (call $write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))"#,
        len = text.len()
    ))
    .expect("the guest's text")
}

impl Job {
    /// A job that runs `program` (argv[0] `name`) with nothing else: no arguments,
    /// environment, stdin or folders, 1 GiB of memory — what a test or a tool running one
    /// module builds on.
    pub fn plain(program: PathBuf, name: &str, scratch: &std::path::Path) -> Job {
        Job {
            program,
            name: name.into(),
            args: Vec::new(),
            env: Vec::new(),
            scratch: scratch.to_path_buf(),
            memory_limit: 1 << 30,
            stdout_limit: 1 << 20,
            stdin: None,
            dirs: Vec::new(),
            invoke: None,
        }
    }
}

/// Outcome of one successful run of a guest.
#[derive(Debug, Clone, Default)]
pub struct Iteration {
    /// Phase timings and resource figures.
    pub values: Vec<PhaseValue>,
    /// Captured stdout.
    pub stdout: Vec<u8>,
    /// Captured stderr.
    pub stderr: Vec<u8>,
}

impl Iteration {
    /// Records the size of the compiled artifact, when the engine made one (taken after
    /// the guest ran, outside every timed phase).
    pub fn artifact(&mut self, bytes: Option<usize>) {
        if let Some(b) = bytes {
            self.values.push(PhaseValue::new(
                Phase::Compile,
                Metric::ArtifactBytes,
                b as f64,
            ));
        }
    }

    /// Records a wall-clock phase duration.
    pub fn wall(&mut self, phase: Phase, d: std::time::Duration) {
        self.values.push(PhaseValue {
            phase,
            metric: Metric::WallNs,
            value: d.as_nanos() as f64,
        });
    }
    /// This iteration with a `wasi:http/proxy` component's answer to `GET /` as its output
    /// (the embedded and the CLI way of serving one request end the same): a status other
    /// than 200 fails the job with the body's start, a body over `stdout_limit` as output
    /// over its limit.
    pub fn answered(
        mut self,
        status: u16,
        body: Vec<u8>,
        stdout_limit: usize,
    ) -> Result<Iteration, Failure> {
        if status != 200 {
            let start = String::from_utf8_lossy(&body[..body.len().min(200)]);
            return Err(Failure::Other(format!(
                "the component answered GET / with {status}: {}",
                start.trim()
            )));
        }
        if stdout_limit > 0 && body.len() >= stdout_limit {
            return Err(Failure::stdout_over(stdout_limit));
        }
        self.stdout = body;
        Ok(self)
    }
}

/// A way to run guests; one instance per worker, reused across iterations.
pub trait Runtime {
    /// Runs the job once, timing each phase this runtime can see.
    fn run(&self, job: &Job) -> Result<Iteration, Failure>;
}
