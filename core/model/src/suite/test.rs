//! One test of a suite, by kind: each kind holds only the fields it uses, so a lifecycle
//! test has no source, a servers test no guest, and `untimed` cannot lack a check step.

use super::ModuleRun;
use super::{LifecycleModule, ModuleSpec};
use std::path::{Path, PathBuf};

/// One number or a list of them (a manifest's `connections = 50` or `[50, 400]`).
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(untagged)]
pub enum OneOrMany {
    One(u32),
    Many(Vec<u32>),
}

impl OneOrMany {
    /// The numbers, in order.
    pub fn to_vec(&self) -> Vec<u32> {
        match self {
            OneOrMany::One(n) => vec![*n],
            OneOrMany::Many(v) => v.clone(),
        }
    }
}

fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<u32>, D::Error> {
    let v: Option<OneOrMany> = serde::Deserialize::deserialize(d)?;
    Ok(v.map(|v| v.to_vec()).unwrap_or_default())
}

/// One test of a suite: its name and description, and what runs ([`TestKind`], the
/// suite's kind).
#[derive(Debug, Clone, PartialEq)]
pub struct TestCase {
    /// Test name (unique in its suite).
    pub name: String,
    /// One-line description.
    pub description: String,
    /// Category tags (hashing, float, ...).
    pub tags: Vec<String>,
    /// What the test runs; always of its suite's kind.
    pub kind: TestKind,
}

/// What a test runs, one variant per [`SuiteKind`].
#[derive(Debug, Clone, PartialEq)]
pub enum TestKind {
    /// A WASI command that checks its answer and times itself (command suites).
    Command(CommandTest),
    /// A module whose life cycle the host measures (lifecycle suites): generated from the
    /// test's name, or a file.
    Lifecycle(LifecycleModule),
    /// A request answered by the gateway, whose wasm guest runs per request (gateway
    /// suites).
    Gateway(GatewayTest),
    /// A request answered by external servers, one command per runtime (servers suites);
    /// nothing is built from files.
    Servers(HttpTest),
}

/// A command test: its guest, and a checking build run once per cell before timing.
#[derive(Debug, Clone, PartialEq)]
pub struct CommandTest {
    /// The module and what it is built from.
    pub guest: Guest,
    /// A checking build (libsodium's), with whether the test is only checked.
    pub check: Option<CheckStep>,
}

/// A gateway test: the request, and the guest that answers it per request.
#[derive(Debug, Clone, PartialEq)]
pub struct GatewayTest {
    /// What the load generator requests.
    pub request: HttpTest,
    /// The module the gateway runs per request and what it is built from.
    pub guest: Guest,
}

/// A WebAssembly guest and what it is built from.
#[derive(Debug, Clone, PartialEq)]
pub struct Guest {
    /// The module every wasm runtime runs (committed, or made by the suite's build script).
    pub wasm: PathBuf,
    /// Where the module and the native baseline come from.
    pub build: Build,
}

/// Where a guest and its native baseline come from.
#[derive(Debug, Clone, PartialEq)]
pub enum Build {
    /// One C source: the wasm built by the suite's `build.sh` and committed, the native
    /// executable built at run time by the system C compiler. Takes the size argument and
    /// has known-answer files.
    Source(SourceBuild),
    /// Prebuilt by a suite's build script (libsodium's, apps'): a native executable beside
    /// the module, run as the baseline. Unless `sized`, it takes no arguments and has no
    /// answer file: a check step, if any, checks it.
    Prebuilt {
        /// The native executable.
        native: PathBuf,
        /// Takes the size word and has known answers (`expected/<test>.<size>.txt`), as a
        /// test built from a source does (the apps suite's programs).
        sized: bool,
        /// Why the script could not build the module: every wasm cell fails with it, the
        /// native one still runs.
        wasm_error: Option<String>,
        /// Why the script could not build the native executable: the native cell fails
        /// with it.
        native_error: Option<String>,
    },
    /// A module as given (`wasmeter run FILE.wasm`, or a test with only `wasm`): no
    /// source and no known answer unless the user gave them; run as it says. Without an
    /// answer the runtimes' answers are compared with each other.
    Module(ModuleRun),
}

/// A test built from one C source.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SourceBuild {
    /// The C source file.
    pub source: PathBuf,
    /// All wasm compiler flags, the suite's then the test's.
    pub wasm_cflags: Vec<String>,
    /// All native compiler flags, the suite's then the test's.
    pub native_cflags: Vec<String>,
}

/// A checking-mode build of a test (libsodium's): run once per cell before timing, in a
/// scratch directory holding `expected`; it writes `result`, which must equal `expected`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CheckStep {
    /// The checking build's module.
    pub wasm: PathBuf,
    /// The checking build's native executable.
    pub native: PathBuf,
    /// The known answer, copied into the scratch directory under its file name.
    pub expected: PathBuf,
    /// File name the program writes its output to, in its working directory.
    pub result: String,
    /// Why the test is only checked, not timed (it measures nothing comparable:
    /// libsodium's AES-GCM tests return at once where the CPU has no AES, as in wasm). Its
    /// cells run the check and no iteration, and stay out of the means.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub untimed: Option<String>,
}

/// What an HTTP test sends, and the servers that answer it (servers suites).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HttpTest {
    /// Request target, path and query (`/compute?n=1000`).
    pub path: String,
    /// `GET`, or `POST` when the test has a body.
    pub method: String,
    /// Request body.
    pub body: Vec<u8>,
    /// The servers suite's load levels, connections each (empty: the run's concurrency
    /// levels). Saved runs before lists hold one number or null.
    #[serde(default, deserialize_with = "one_or_many")]
    pub connections: Vec<u32>,
    /// Offered rates of the open-model phases, requests/s (the run's `--rates` replace
    /// them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rates: Vec<u32>,
    /// Seconds of load per level, overriding the run's setting.
    pub duration_secs: Option<f64>,
    /// Servers suite: how each runtime serves this test.
    pub servers: Vec<ServerDef>,
    /// Gateway suite: the same workload as a `wasi:http/proxy` component, for the variants
    /// that serve components per request (`wasmtime-http`, `wasmtime-serve`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub component: Option<std::path::PathBuf>,
}

/// One way to serve a servers-suite test: a command run by one runtime.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ServerDef {
    /// The runtime id this server stands for in the results (`node`, `native`, ...).
    pub runtime: String,
    /// argv with placeholders `{runtime}`, `{suite}`, `{port}`, `{cache}`; empty for a
    /// `component` server.
    pub command: Vec<String>,
    /// A `wasi:http` component (placeholders expanded) that this runtime serves instead of
    /// running a command: `wasmtime-http` embedded, or `wasmtime serve`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub component: Option<String>,
    /// Environment added to the server's (placeholders expanded).
    pub env: Vec<(String, String)>,
    /// Path polled with GET until it answers 200.
    pub ready: String,
    /// A fixed port, for servers that cannot take one; otherwise a free one is picked.
    #[serde(default)]
    pub port: Option<u16>,
    /// argv run once in the suite folder before the first start (placeholders expanded).
    pub build: Option<Vec<String>>,
}

impl TestCase {
    /// A test with no description or tags (tests and stand-ins build these).
    pub fn new(name: impl Into<String>, kind: TestKind) -> TestCase {
        TestCase {
            name: name.into(),
            description: String::new(),
            tags: Vec::new(),
            kind,
        }
    }

    /// The wasm guest of a command or gateway test.
    pub fn guest(&self) -> Option<&Guest> {
        match &self.kind {
            TestKind::Command(c) => Some(&c.guest),
            TestKind::Gateway(g) => Some(&g.guest),
            TestKind::Lifecycle(_) | TestKind::Servers(_) => None,
        }
    }

    /// The module file a wasm runtime runs, for tests that have one.
    pub fn wasm(&self) -> Option<&Path> {
        self.guest().map(|g| g.wasm.as_path())
    }

    /// What an HTTP test (gateway or servers) requests.
    pub fn http(&self) -> Option<&HttpTest> {
        match &self.kind {
            TestKind::Gateway(g) => Some(&g.request),
            TestKind::Servers(h) => Some(h),
            TestKind::Command(_) | TestKind::Lifecycle(_) => None,
        }
    }

    /// The module file of a lifecycle test that reads one.
    pub fn lifecycle_file(&self) -> Option<&Path> {
        match &self.kind {
            TestKind::Lifecycle(LifecycleModule::File { wasm, .. }) => Some(wasm),
            _ => None,
        }
    }

    /// The generated module of a lifecycle test.
    pub fn module(&self) -> Option<ModuleSpec> {
        match &self.kind {
            TestKind::Lifecycle(m) => m.generated(),
            _ => None,
        }
    }

    /// Whether the runtimes' answers to this test are compared with each other (a module
    /// as given without an answer to hold it to).
    pub fn cross_checked(&self) -> bool {
        self.guest()
            .is_some_and(|g| matches!(&g.build, Build::Module(run) if run.expect.is_none()))
    }

    /// The checking build of a command test.
    pub fn check(&self) -> Option<&CheckStep> {
        match &self.kind {
            TestKind::Command(c) => c.check.as_ref(),
            _ => None,
        }
    }
}
