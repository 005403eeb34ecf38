//! `suite.toml`: the list of tests of a suite and how their guests are built.

use super::http::{HttpTest, RawHttp, RawServer, http_test};
use crate::lifecycle::ModuleSpec;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use toml::Spanned;

/// Errors in a suite manifest; every one names the file, and the line where one is known.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// The manifest could not be read.
    #[error("{path}: cannot read suite manifest: {source}")]
    Io {
        /// Manifest path.
        path: PathBuf,
        /// Underlying error.
        source: std::io::Error,
    },
    /// The manifest is not valid TOML or does not have the expected shape.
    #[error("{path}:{line}: {message}")]
    Parse {
        /// Manifest path.
        path: PathBuf,
        /// 1-based line of the problem.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// No suite with that name was found.
    #[error("unknown suite '{name}' (known: {known})")]
    UnknownSuite {
        /// Requested name.
        name: String,
        /// Comma-separated known names.
        known: String,
    },
    /// A suite that a build script makes has not been built yet.
    #[error("suite '{name}' is not built yet: run `wasmeter suite build {name}` (runs {script})")]
    NotBuilt {
        /// Suite name.
        name: String,
        /// Its build script.
        script: PathBuf,
    },
    /// A test name that the suite does not have.
    #[error("unknown test '{name}' in suite '{suite}' (known: {known})")]
    UnknownTest {
        /// Suite name.
        suite: String,
        /// Requested test.
        name: String,
        /// Comma-separated known tests.
        known: String,
    },
}

/// Problem size of a run: every test takes it as its first argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Size {
    /// Well under a second per run natively.
    Quick,
    /// A few seconds per run natively.
    Full,
}

impl Size {
    /// The word passed to the guest and used in file names.
    pub fn as_str(self) -> &'static str {
        match self {
            Size::Quick => "quick",
            Size::Full => "full",
        }
    }
}

impl std::str::FromStr for Size {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "quick" => Ok(Size::Quick),
            "full" => Ok(Size::Full),
            other => Err(format!("unknown size '{other}' (known: quick, full)")),
        }
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What kind of tests a suite has, which decides how they run and on what.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum SuiteKind {
    /// WASI commands built from C sources, checked against known answers and timing
    /// themselves; run on every kind of runtime.
    #[default]
    Command,
    /// Host-driven measurements of an instance's life cycle on generated modules; embedded
    /// runtimes only (native and CLIs have no equivalent).
    Lifecycle,
    /// An HTTP gateway: each test is a request the gateway answers by running its wasm
    /// guest per request (embedded or a CLI), or natively; measured under load.
    Gateway,
    /// External HTTP servers, one command per runtime, started and measured under load.
    Servers,
}

impl SuiteKind {
    /// Every kind.
    pub const ALL: [SuiteKind; 4] = [
        SuiteKind::Command,
        SuiteKind::Lifecycle,
        SuiteKind::Gateway,
        SuiteKind::Servers,
    ];

    /// The word used in manifests and saved runs.
    pub fn as_str(self) -> &'static str {
        match self {
            SuiteKind::Command => "command",
            SuiteKind::Lifecycle => "lifecycle",
            SuiteKind::Gateway => "gateway",
            SuiteKind::Servers => "servers",
        }
    }

    /// True for the HTTP suites, measured with the load generator.
    pub fn is_http(self) -> bool {
        matches!(self, SuiteKind::Gateway | SuiteKind::Servers)
    }

    /// True for [`SuiteKind::Command`] (the default, left out of saved metadata).
    pub fn is_command(&self) -> bool {
        *self == SuiteKind::Command
    }
}

impl std::fmt::Display for SuiteKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    suite: RawSuite,
    #[serde(default, rename = "test")]
    tests: Vec<Spanned<RawTest>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSuite {
    name: Spanned<String>,
    kind: Option<Spanned<String>>,
    #[serde(default)]
    description: String,
    #[serde(default)]
    includes: Vec<Spanned<String>>,
    #[serde(default)]
    wasm_cflags: Vec<String>,
    #[serde(default)]
    native_cflags: Vec<String>,
    #[serde(default)]
    native_libs: Vec<String>,
    self_timed_iterations: Option<Spanned<u32>>,
    timeout_secs: Option<Spanned<u64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCheck {
    wasm: Spanned<String>,
    native: Spanned<String>,
    expected: Spanned<String>,
    result: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTest {
    name: Spanned<String>,
    source: Option<Spanned<String>>,
    #[serde(default)]
    description: String,
    #[serde(default)]
    tags: Vec<String>,
    wasm: Option<Spanned<String>>,
    native: Option<Spanned<String>>,
    check: Option<Spanned<RawCheck>>,
    untimed: Option<Spanned<String>>,
    wasm_cflags: Option<Spanned<Vec<String>>>,
    native_cflags: Option<Spanned<Vec<String>>>,
    path: Option<Spanned<String>>,
    body: Option<String>,
    connections: Option<Spanned<u32>>,
    duration_secs: Option<Spanned<f64>>,
    #[serde(default)]
    server: Vec<RawServer>,
}

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
}

/// One test of a suite: a WASI command built from one C source, or (lifecycle suites) a
/// generated module.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TestCase {
    /// Test name (unique in its suite).
    pub name: String,
    /// One-line description.
    pub description: String,
    /// Category tags (hashing, float, ...).
    pub tags: Vec<String>,
    /// C source file (empty for lifecycle tests and prebuilt ones).
    pub source: PathBuf,
    /// Prebuilt WebAssembly module (empty for lifecycle tests).
    pub wasm: PathBuf,
    /// A prebuilt native executable, run as the baseline instead of building `source`
    /// (suites built by a script, like libsodium's). Prebuilt tests take no arguments and
    /// have no answer file: a check step, if any, checks them.
    pub native: Option<PathBuf>,
    /// A checking build run once before a cell's iterations.
    pub check: Option<CheckStep>,
    /// Why a test with a check step is only checked, not timed (it measures nothing
    /// comparable: libsodium's AES-GCM tests return at once where the CPU has no AES, as
    /// in wasm). Its cells run the check and no iteration, and stay out of the means.
    pub untimed: Option<String>,
    /// The generated module of a lifecycle test (its name is its specification).
    pub module: Option<ModuleSpec>,
    /// All wasm compiler flags, the suite's then the test's.
    pub wasm_cflags: Vec<String>,
    /// All native compiler flags, the suite's then the test's.
    pub native_cflags: Vec<String>,
    /// What an HTTP suite's test requests (and its servers).
    pub http: Option<HttpTest>,
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
}

/// 1-based line of a byte offset, for error messages that name file and line.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// An error message kept to one line: values quoted from the file may hold newlines or
/// other control characters (found by fuzzing the config parser); they are escaped.
pub(crate) fn one_line(message: String) -> String {
    if !message.chars().any(char::is_control) {
        return message;
    }
    message
        .chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

impl Suite {
    /// Reads and validates `dir/suite.toml` (or a manifest file path).
    pub fn load(path: &Path) -> Result<Suite, SuiteError> {
        let manifest = if path.is_dir() {
            path.join("suite.toml")
        } else {
            path.to_path_buf()
        };
        let text = std::fs::read_to_string(&manifest).map_err(|source| SuiteError::Io {
            path: manifest.clone(),
            source,
        })?;
        Self::parse(&manifest, &text)
    }

    /// Parses manifest text; `manifest` is used for paths and error messages.
    pub fn parse(manifest: &Path, text: &str) -> Result<Suite, SuiteError> {
        let err = |offset: usize, message: String| SuiteError::Parse {
            path: manifest.to_path_buf(),
            line: line_of(text, offset),
            message: one_line(message),
        };
        let raw: RawManifest = toml::from_str(text).map_err(|e| {
            let offset = e.span().map(|s| s.start).unwrap_or(0);
            err(offset, e.message().to_string())
        })?;
        let dir = manifest.parent().map(Path::to_path_buf).unwrap_or_default();
        let dir = if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir
        };
        // Absolute, so runtimes started in a scratch directory still find the modules.
        let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
        let name = raw.suite.name.get_ref().trim().to_string();
        if !valid_name(&name) {
            return Err(err(
                raw.suite.name.span().start,
                format!("invalid suite name '{name}' (use letters, digits, '-', '_')"),
            ));
        }
        let mut includes = Vec::new();
        for inc in &raw.suite.includes {
            let p = dir.join(inc.get_ref());
            if !p.is_file() {
                return Err(err(
                    inc.span().start,
                    format!("include file '{}' does not exist", inc.get_ref()),
                ));
            }
            includes.push(p);
        }
        let kind = match &raw.suite.kind {
            None => SuiteKind::Command,
            Some(k) => SuiteKind::ALL
                .into_iter()
                .find(|x| x.as_str() == k.get_ref().trim())
                .ok_or_else(|| {
                    err(
                        k.span().start,
                        format!(
                            "unknown suite kind '{}' (known: {})",
                            k.get_ref(),
                            SuiteKind::ALL.map(SuiteKind::as_str).join(", ")
                        ),
                    )
                })?,
        };
        if kind == SuiteKind::Lifecycle {
            let build = [
                ("includes", !raw.suite.includes.is_empty()),
                ("wasm_cflags", !raw.suite.wasm_cflags.is_empty()),
                ("native_cflags", !raw.suite.native_cflags.is_empty()),
                ("native_libs", !raw.suite.native_libs.is_empty()),
            ];
            if let Some((field, _)) = build.iter().find(|(_, set)| *set) {
                return Err(err(
                    raw.suite.name.span().start,
                    format!(
                        "'{field}' does not apply to a lifecycle suite: its modules are generated, not built"
                    ),
                ));
            }
        }
        let mut tests: Vec<TestCase> = Vec::new();
        for spanned in &raw.tests {
            let t = spanned.get_ref();
            let tname = t.name.get_ref().trim().to_string();
            if !valid_name(&tname) {
                return Err(err(
                    t.name.span().start,
                    format!("invalid test name '{tname}' (use letters, digits, '-', '_')"),
                ));
            }
            if tests.iter().any(|x| x.name == tname) {
                return Err(err(
                    t.name.span().start,
                    format!("duplicate test name '{tname}'"),
                ));
            }
            if kind == SuiteKind::Lifecycle {
                tests.push(lifecycle_test(t, &tname, &err)?);
                continue;
            }
            let raw_http = RawHttp {
                path: t.path.as_ref(),
                body: t.body.as_ref(),
                connections: t.connections.as_ref(),
                duration_secs: t.duration_secs.as_ref(),
                servers: &t.server,
            };
            let http = if kind.is_http() {
                Some(http_test(
                    raw_http,
                    &tname,
                    t.name.span().start,
                    kind == SuiteKind::Servers,
                    &err,
                )?)
            } else {
                if let Some(p) = &t.path {
                    return Err(err(
                        p.span().start,
                        format!("'path' applies only to HTTP suites, not a {kind} suite"),
                    ));
                }
                if !t.server.is_empty() {
                    return Err(err(
                        t.name.span().start,
                        "[[test.server]] applies only to a servers suite".into(),
                    ));
                }
                None
            };
            if kind == SuiteKind::Servers {
                // Nothing is built or run from files: only the servers' command lines.
                tests.push(TestCase {
                    name: tname,
                    description: t.description.clone(),
                    tags: t.tags.clone(),
                    http,
                    ..TestCase::default()
                });
                continue;
            }
            let file = |f: &Spanned<String>| -> Result<PathBuf, SuiteError> {
                let p = dir.join(f.get_ref());
                if p.is_file() {
                    Ok(p)
                } else {
                    Err(err(
                        f.span().start,
                        format!("file '{}' does not exist", f.get_ref()),
                    ))
                }
            };
            let native = t.native.as_ref().map(&file).transpose()?;
            let check = match &t.check {
                None => None,
                Some(c) => {
                    let c = c.get_ref();
                    let result = c.result.get_ref().trim();
                    if !valid_name(&result.replace('.', "_")) {
                        return Err(err(
                            c.result.span().start,
                            format!("'result' must be a plain file name, not '{result}'"),
                        ));
                    }
                    Some(CheckStep {
                        wasm: file(&c.wasm)?,
                        native: file(&c.native)?,
                        expected: file(&c.expected)?,
                        result: result.to_string(),
                    })
                }
            };
            let untimed = match &t.untimed {
                Some(u) if check.is_none() => {
                    return Err(err(
                        u.span().start,
                        format!("'untimed' needs a 'check': test '{tname}' would do nothing"),
                    ));
                }
                u => u.as_ref().map(|u| u.get_ref().trim().to_string()),
            };
            let source = match (&t.source, &native) {
                (Some(src), None) => {
                    let source = dir.join(src.get_ref());
                    if !source.is_file() {
                        return Err(err(
                            src.span().start,
                            format!("source file '{}' does not exist", src.get_ref()),
                        ));
                    }
                    source
                }
                (None, Some(_)) if t.wasm.is_some() => PathBuf::new(),
                (None, Some(_)) => {
                    return Err(err(
                        t.name.span().start,
                        format!("prebuilt test '{tname}' needs 'wasm' beside 'native'"),
                    ));
                }
                (Some(src), Some(_)) => {
                    return Err(err(
                        src.span().start,
                        format!(
                            "test '{tname}' has both 'source' and a prebuilt 'native': give one"
                        ),
                    ));
                }
                (None, None) => {
                    return Err(err(
                        t.name.span().start,
                        format!(
                            "test '{tname}' has no 'source' (the C file its wasm is built from) nor a prebuilt 'native'"
                        ),
                    ));
                }
            };
            let wasm = match &t.wasm {
                Some(w) if native.is_some() => file(w)?,
                Some(w) => dir.join(w.get_ref()),
                None => dir.join("wasm").join(format!("{tname}.wasm")),
            };
            let flags = |f: &Option<Spanned<Vec<String>>>| {
                f.as_ref().map(|f| f.get_ref().clone()).unwrap_or_default()
            };
            tests.push(TestCase {
                name: tname,
                description: t.description.clone(),
                tags: t.tags.clone(),
                source,
                wasm,
                native,
                check,
                untimed,
                module: None,
                wasm_cflags: concat(&raw.suite.wasm_cflags, &flags(&t.wasm_cflags)),
                native_cflags: concat(&raw.suite.native_cflags, &flags(&t.native_cflags)),
                http,
            });
        }
        if tests.is_empty() {
            return Err(err(text.len(), "suite has no [[test]] entries".into()));
        }
        let counts = [
            (
                "self_timed_iterations",
                raw.suite
                    .self_timed_iterations
                    .as_ref()
                    .map(|n| (n.span().start, u64::from(*n.get_ref()))),
            ),
            (
                "timeout_secs",
                raw.suite
                    .timeout_secs
                    .as_ref()
                    .map(|n| (n.span().start, *n.get_ref())),
            ),
        ];
        if let Some((field, Some((at, _)))) = counts.iter().find(|(_, v)| matches!(v, Some((_, 0))))
        {
            return Err(err(*at, format!("'{field}' must be at least 1")));
        }
        Ok(Suite {
            name,
            kind,
            description: raw.suite.description,
            dir,
            includes,
            native_cflags: raw.suite.native_cflags,
            native_libs: raw.suite.native_libs,
            self_timed_iterations: raw.suite.self_timed_iterations.map(Spanned::into_inner),
            timeout_secs: raw.suite.timeout_secs.map(Spanned::into_inner),
            tests,
        })
    }

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

    /// Hash of everything the test's wasm is built from: source, includes, then flags.
    ///
    /// The same definition as `build.sh` writes into `wasm/build.lock`, so staleness is
    /// detectable without a compiler and runs can record exactly what they measured.
    ///
    /// A lifecycle test's hash is that of its generated module: what was instantiated.
    pub fn source_hash(&self, test: &TestCase) -> std::io::Result<String> {
        let mut h = Sha256::new();
        if let Some(m) = &test.module {
            h.update(m.wasm());
            return Ok(hex(&h.finalize()));
        }
        if test.source.as_os_str().is_empty()
            && let Some(http) = &test.http
        {
            // A servers test: what was started is its command lines.
            h.update(format!("{:?}", http.servers).as_bytes());
            return Ok(hex(&h.finalize()));
        }
        if test.native.is_some() {
            // A prebuilt test: what is measured is the module itself (and its check).
            h.update(std::fs::read(&test.wasm)?);
            if let Some(c) = &test.check {
                h.update(std::fs::read(&c.wasm)?);
            }
            return Ok(hex(&h.finalize()));
        }
        h.update(std::fs::read(&test.source)?);
        for inc in &self.includes {
            h.update(std::fs::read(inc)?);
        }
        h.update(test.wasm_cflags.join(" ").as_bytes());
        Ok(hex(&h.finalize()))
    }
}

/// A lifecycle test: its name names the generated module; nothing is built from files.
fn lifecycle_test(
    t: &RawTest,
    name: &str,
    err: &dyn Fn(usize, String) -> SuiteError,
) -> Result<TestCase, SuiteError> {
    let misplaced = [
        ("source", t.source.as_ref().map(|s| s.span().start)),
        ("wasm", t.wasm.as_ref().map(|s| s.span().start)),
        ("native", t.native.as_ref().map(|s| s.span().start)),
        ("check", t.check.as_ref().map(|s| s.span().start)),
        ("untimed", t.untimed.as_ref().map(|s| s.span().start)),
        (
            "wasm_cflags",
            t.wasm_cflags.as_ref().map(|s| s.span().start),
        ),
        (
            "native_cflags",
            t.native_cflags.as_ref().map(|s| s.span().start),
        ),
    ];
    if let Some((field, Some(at))) = misplaced.iter().find(|(_, at)| at.is_some()) {
        return Err(err(
            *at,
            format!(
                "'{field}' does not apply to a lifecycle test: its module is generated from its name"
            ),
        ));
    }
    let module = ModuleSpec::parse(name).map_err(|e| err(t.name.span().start, e))?;
    if module.name() != name {
        return Err(err(
            t.name.span().start,
            format!("write lifecycle module '{name}' as '{}'", module.name()),
        ));
    }
    Ok(TestCase {
        name: name.to_string(),
        description: t.description.clone(),
        tags: t.tags.clone(),
        module: Some(module),
        ..TestCase::default()
    })
}

fn concat(a: &[String], b: &[String]) -> Vec<String> {
    a.iter().chain(b).cloned().collect()
}

fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Lower-case hex of bytes.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_suite(manifest: &str) -> (tempfile::TempDir, Result<Suite, SuiteError>) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/a.c"), "int main(){return 0;}").unwrap();
        std::fs::write(dir.path().join("src/common.h"), "").unwrap();
        std::fs::write(dir.path().join("suite.toml"), manifest).unwrap();
        let r = Suite::load(dir.path());
        (dir, r)
    }

    #[test]
    fn parses_a_valid_manifest() {
        let (dir, s) = write_suite(
            "[suite]\nname = \"s\"\nincludes = [\"src/common.h\"]\nwasm_cflags = [\"-O2\"]\n\n[[test]]\nname = \"a\"\nsource = \"src/a.c\"\nwasm_cflags = [\"-msimd128\"]\n",
        );
        let s = s.unwrap();
        assert_eq!(s.name, "s");
        assert_eq!(s.tests.len(), 1);
        assert_eq!(s.tests[0].wasm, dir.path().join("wasm/a.wasm"));
        assert_eq!(s.tests[0].wasm_cflags, vec!["-O2", "-msimd128"]);
        let hash = s.source_hash(&s.tests[0]).unwrap();
        let mut h = Sha256::new();
        h.update(b"int main(){return 0;}");
        h.update(b"-O2 -msimd128");
        assert_eq!(hash, hex(&h.finalize()));
    }

    #[test]
    fn errors_name_file_and_line() {
        let (_d, r) = write_suite(
            "[suite]\nname = \"s\"\n\n[[test]]\nname = \"a\"\nsource = \"src/missing.c\"\n",
        );
        let msg = r.unwrap_err().to_string();
        assert!(msg.contains("suite.toml:6:"), "{msg}");
        assert!(msg.contains("src/missing.c"), "{msg}");

        let (_d, r) = write_suite(
            "[suite]\nname = \"s\"\n[[test]]\nname = \"a\"\nsource = \"src/a.c\"\nbogus = 1\n",
        );
        let msg = r.unwrap_err().to_string();
        assert!(msg.contains("suite.toml:6:"), "{msg}");
        assert!(msg.contains("bogus"), "{msg}");

        let (_d, r) = write_suite("[suite\nname = 1");
        assert!(r.unwrap_err().to_string().contains("suite.toml:1:"));

        let (_d, r) = write_suite(
            "[suite]\nname = \"s\"\n[[test]]\nname = \"a\"\nsource = \"src/a.c\"\n[[test]]\nname = \"a\"\nsource = \"src/a.c\"\n",
        );
        let msg = r.unwrap_err().to_string();
        assert!(msg.contains(":7:") && msg.contains("duplicate"), "{msg}");
    }

    #[test]
    fn lifecycle_suites_generate_their_modules() {
        let (_d, s) = write_suite(
            "[suite]\nname = \"l\"\nkind = \"lifecycle\"\n[[test]]\nname = \"hello\"\n[[test]]\nname = \"heap-256k-sparse\"\n",
        );
        let s = s.unwrap();
        assert_eq!(s.kind, SuiteKind::Lifecycle);
        assert_eq!(s.tests[0].module, Some(ModuleSpec::Hello));
        let heap = s.tests[1].module.unwrap();
        assert_eq!(heap.heap_bytes(), 256 << 10);
        // The hash is the generated module's: what was instantiated.
        let mut h = Sha256::new();
        h.update(heap.wasm());
        assert_eq!(s.source_hash(&s.tests[1]).unwrap(), hex(&h.finalize()));

        for (manifest, line, words) in [
            (
                "[suite]\nname = \"l\"\nkind = \"lifecycle\"\n[[test]]\nname = \"hello\"\nsource = \"src/a.c\"\n",
                6,
                "'source' does not apply to a lifecycle test",
            ),
            (
                "[suite]\nname = \"l\"\nkind = \"lifecycle\"\n\n[[test]]\nname = \"heap-100k-dense\"\n",
                6,
                "unknown lifecycle module 'heap-100k-dense'",
            ),
            (
                "[suite]\nname = \"l\"\nkind = \"lifecycle\"\n[[test]]\nname = \"heap-1024k-dense\"\n",
                5,
                "write lifecycle module 'heap-1024k-dense' as 'heap-1m-dense'",
            ),
            (
                "[suite]\nname = \"l\"\nkind = \"lifecycel\"\n[[test]]\nname = \"hello\"\n",
                3,
                "unknown suite kind 'lifecycel' (known: command, lifecycle, gateway, servers)",
            ),
            (
                "[suite]\nname = \"l\"\nkind = \"lifecycle\"\nwasm_cflags = [\"-O2\"]\n[[test]]\nname = \"hello\"\n",
                2,
                "'wasm_cflags' does not apply to a lifecycle suite",
            ),
            (
                "[suite]\nname = \"c\"\n[[test]]\nname = \"a\"\n",
                4,
                "test 'a' has no 'source'",
            ),
        ] {
            let (_d, r) = write_suite(manifest);
            let msg = r.unwrap_err().to_string();
            assert!(msg.contains(&format!("suite.toml:{line}: ")), "{msg}");
            assert!(msg.contains(words), "{msg}");
        }
    }

    #[test]
    fn prebuilt_tests_with_a_check_step() {
        let dir = tempfile::tempdir().unwrap();
        for f in ["b/x.wasm", "b/x", "c/x.wasm", "c/x", "exp/x.exp"] {
            let p = dir.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, f).unwrap();
        }
        let head = "[suite]\nname = \"p\"\nself_timed_iterations = 5\ntimeout_secs = 600\n[[test]]\nname = \"x\"\n";
        let good = format!(
            "{head}wasm = \"b/x.wasm\"\nnative = \"b/x\"\ncheck = {{ wasm = \"c/x.wasm\", native = \"c/x\", expected = \"exp/x.exp\", result = \"x.res\" }}\n"
        );
        std::fs::write(dir.path().join("suite.toml"), &good).unwrap();
        let s = Suite::load(dir.path()).unwrap();
        let t = &s.tests[0];
        let root = std::fs::canonicalize(dir.path()).unwrap();
        assert_eq!(
            (s.self_timed_iterations, s.timeout_secs),
            (Some(5), Some(600))
        );
        assert_eq!(t.native.as_deref(), Some(root.join("b/x").as_path()));
        assert_eq!(t.wasm, root.join("b/x.wasm"));
        let c = t.check.as_ref().unwrap();
        assert_eq!(
            (c.native.clone(), c.result.as_str()),
            (root.join("c/x"), "x.res")
        );
        // What was measured: the module and its checking build.
        let mut h = Sha256::new();
        h.update(b"b/x.wasm");
        h.update(b"c/x.wasm");
        assert_eq!(s.source_hash(t).unwrap(), hex(&h.finalize()));

        for (manifest, line, words) in [
            (
                format!("{head}wasm = \"b/x.wasm\"\nnative = \"b/missing\"\n"),
                8,
                "file 'b/missing' does not exist",
            ),
            (
                format!("{head}native = \"b/x\"\n"),
                6,
                "prebuilt test 'x' needs 'wasm' beside 'native'",
            ),
            (
                format!(
                    "{head}wasm = \"b/x.wasm\"\nnative = \"b/x\"\ncheck = {{ wasm = \"c/x.wasm\", native = \"c/x\", expected = \"exp/x.exp\", result = \"../x.res\" }}\n"
                ),
                9,
                "'result' must be a plain file name",
            ),
            (
                format!(
                    "{head}wasm = \"b/x.wasm\"\nnative = \"b/x\"\ncheck = {{ wasm = \"c/x.wasm\", native = \"c/x\", expected = \"exp/x.exp\" }}\n"
                ),
                9,
                "missing field `result`",
            ),
            (
                good.replace("self_timed_iterations = 5", "self_timed_iterations = 0"),
                3,
                "'self_timed_iterations' must be at least 1",
            ),
        ] {
            std::fs::write(dir.path().join("suite.toml"), &manifest).unwrap();
            let msg = Suite::load(dir.path()).unwrap_err().to_string();
            assert!(msg.contains(&format!("suite.toml:{line}: ")), "{msg}");
            assert!(msg.contains(words), "{msg}");
        }
    }

    #[test]
    fn unknown_test_lists_known() {
        let (_d, s) =
            write_suite("[suite]\nname = \"s\"\n[[test]]\nname = \"a\"\nsource = \"src/a.c\"\n");
        let e = s.unwrap().test("zz").unwrap_err().to_string();
        assert_eq!(e, "unknown test 'zz' in suite 's' (known: a)");
    }
}
