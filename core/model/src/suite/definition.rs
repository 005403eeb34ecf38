//! A suite as loaded from its manifest: its tests and what they share, every path absolute.

use super::LifecycleModule;
use super::{Build, Size, SuiteError, SuiteKind, TestCase, TestKind};
use crate::text::hex;
use sha2::{Digest, Sha256};
use std::path::PathBuf;

/// A suite loaded from its manifest, with every path made absolute.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Suite {
    /// Suite name (unique among suites).
    pub name: String,
    /// One-line description.
    pub description: String,
    /// What kind of tests it has.
    pub kind: SuiteKind,
    /// Directory holding `suite.toml`.
    pub dir: PathBuf,
    /// Files every test's source depends on (part of each source hash).
    pub includes: Vec<PathBuf>,
    /// Compiler flags of the native build, before each test's own.
    pub native_cflags: Vec<String>,
    /// Libraries of the native link.
    pub native_libs: Vec<String>,
    /// Set when every test times itself in libsodium's benchmark format: stdout is one
    /// integer, picoseconds per iteration of a loop of this many iterations. A test that
    /// prints none fails; the loop's whole time is what is recorded.
    pub self_timed_iterations: Option<u32>,
    /// Seconds an iteration may take unless the user says otherwise (slow suites).
    pub timeout_secs: Option<u64>,
    /// Tests in manifest order.
    pub tests: Vec<TestCase>,
    /// Made from modules given by path ([`super::modules_suite`]): a run copies the suite
    /// into its own directory, since the files it was made from may change or vanish.
    pub saved_with_run: bool,
}

impl Suite {
    /// The test called `name`, or an error listing the known ones.
    pub fn test(&self, name: &str) -> Result<&TestCase, SuiteError> {
        self.tests
            .iter()
            .find(|t| t.name == name)
            .ok_or_else(|| SuiteError::UnknownTest {
                suite: self.name.clone(),
                name: name.to_string(),
                known: self.test_names().join(", "),
            })
    }

    /// Test names in manifest order.
    pub fn test_names(&self) -> Vec<String> {
        self.tests.iter().map(|t| t.name.clone()).collect()
    }

    /// The known-answer file for a test at a size.
    pub fn expected_path(&self, test: &TestCase, size: Size) -> PathBuf {
        self.dir
            .join("expected")
            .join(format!("{}.{}.txt", test.name, size.as_str()))
    }

    /// Whether every test is a module as given (no native build, no known answer): a
    /// suite of `wasmeter run FILE.wasm`.
    pub fn modules_only(&self) -> bool {
        !self.tests.is_empty()
            && self.tests.iter().all(|t| {
                t.guest()
                    .is_some_and(|g| matches!(g.build, Build::Module(_)))
            })
    }

    /// Hash of what a test measures, recorded with runs (a diff warns when it changed):
    /// its [`Suite::build_hash`], and for a gateway test with a `wasi:http` component, that
    /// component too (the variants serving it measure it).
    pub fn source_hash(&self, test: &TestCase) -> std::io::Result<String> {
        let build = self.build_hash(test)?;
        let component = match &test.kind {
            TestKind::Gateway(g) => g.request.component.as_ref(),
            _ => None,
        };
        let Some(component) = component else {
            return Ok(build);
        };
        let mut h = Sha256::new();
        h.update(build.as_bytes());
        h.update(b"\0component\0");
        h.update(std::fs::read(component)?);
        Ok(hex(&h.finalize()))
    }

    /// Hash of a test's module and what it is made from.
    ///
    /// Built from a source: the source, the includes, then the wasm flags — the same
    /// definition as `build.sh` writes into `wasm/build.lock`, so staleness is detectable
    /// without a compiler. Prebuilt: the module (or why it was not built) and its checking
    /// build. A module as given: its bytes, then its arguments. Gateway: the guest as for a
    /// command. Lifecycle: the generated module, or the file (or why it was not built).
    /// Servers: the servers' command lines.
    pub fn build_hash(&self, test: &TestCase) -> std::io::Result<String> {
        let mut h = Sha256::new();
        match &test.kind {
            TestKind::Lifecycle(LifecycleModule::Generated(module)) => h.update(module.wasm()),
            TestKind::Lifecycle(LifecycleModule::File { wasm, build_error }) => match build_error {
                Some(e) => h.update(format!("not built: {e}").as_bytes()),
                None => h.update(std::fs::read(wasm)?),
            },
            TestKind::Servers(http) => h.update(format!("{:?}", http.servers).as_bytes()),
            TestKind::Command(c) => match &c.guest.build {
                Build::Prebuilt { wasm_error, .. } => {
                    // A module the script could not build: what it said instead.
                    match wasm_error {
                        Some(e) => h.update(format!("not built: {e}").as_bytes()),
                        None => h.update(std::fs::read(&c.guest.wasm)?),
                    }
                    if let Some(check) = &c.check {
                        h.update(std::fs::read(&check.wasm)?);
                    }
                }
                Build::Module(r) => {
                    h.update(std::fs::read(&c.guest.wasm)?);
                    h.update(r.args.join("\0").as_bytes());
                    for (k, v) in &r.env {
                        h.update(format!("\0{k}={v}").as_bytes());
                    }
                    for f in [&r.expect, &r.stdin, &r.native].into_iter().flatten() {
                        h.update(std::fs::read(f)?);
                    }
                    for d in &r.dirs {
                        h.update(format!("\0dir {}", d.spec()).as_bytes());
                    }
                    if let Some(f) = &r.invoke {
                        h.update(format!("\0invoke {f}").as_bytes());
                    }
                }
                Build::Source(src) => self.hash_source(&mut h, src)?,
            },
            TestKind::Gateway(g) => match &g.guest.build {
                Build::Prebuilt { .. } | Build::Module(_) => {
                    h.update(std::fs::read(&g.guest.wasm)?)
                }
                Build::Source(src) => self.hash_source(&mut h, src)?,
            },
        }
        Ok(hex(&h.finalize()))
    }

    /// The source, the includes, then the wasm flags: what `build.sh` hashes.
    fn hash_source(&self, h: &mut Sha256, src: &super::SourceBuild) -> std::io::Result<()> {
        h.update(std::fs::read(&src.source)?);
        for inc in &self.includes {
            h.update(std::fs::read(inc)?);
        }
        h.update(src.wasm_cflags.join(" ").as_bytes());
        Ok(())
    }
}
