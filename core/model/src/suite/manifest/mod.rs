//! `suite.toml`: the list of tests of a suite and how their guests are built. The suite
//! section is read here; each kind of test in its own file. Every error names the file and
//! line; every path stays inside the suite folder ([`paths`]).

mod command;
mod http;
mod lifecycle;
mod paths;
#[cfg(test)]
mod trivial;

use super::{Suite, SuiteError, SuiteKind, TestCase, TestKind};
use crate::text::{line_of, one_line};
pub use http::COMPONENT_RUNTIMES;
use http::RawServer;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use toml::Spanned;

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

/// A `[[test]]` as written: the fields of every kind, each kind taking its own.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTest {
    name: Spanned<String>,
    #[serde(default)]
    description: String,
    #[serde(default)]
    tags: Vec<String>,
    source: Option<Spanned<String>>,
    wasm: Option<Spanned<String>>,
    native: Option<Spanned<String>>,
    check: Option<Spanned<RawCheck>>,
    untimed: Option<Spanned<String>>,
    sized: Option<Spanned<bool>>,
    wasm_build_error: Option<Spanned<String>>,
    native_build_error: Option<Spanned<String>>,
    wasm_cflags: Option<Spanned<Vec<String>>>,
    native_cflags: Option<Spanned<Vec<String>>>,
    path: Option<Spanned<String>>,
    body: Option<Spanned<String>>,
    connections: Option<Spanned<crate::suite::test::OneOrMany>>,
    rates: Option<Spanned<Vec<i64>>>,
    duration_secs: Option<Spanned<f64>>,
    args: Option<Spanned<Vec<String>>>,
    expect: Option<Spanned<String>>,
    env: Option<Spanned<Vec<String>>>,
    stdin: Option<Spanned<String>>,
    dirs: Option<Spanned<Vec<String>>>,
    invoke: Option<Spanned<String>>,
    native_program: Option<Spanned<String>>,
    component: Option<Spanned<String>>,
    #[serde(default)]
    server: Vec<RawServer>,
}

impl RawTest {
    /// The first of `fields` the test sets, in [`RawTest::kind_fields`]' order, with
    /// where it starts: for the checks that some fields apply only to one kind of build.
    fn first_set(&self, fields: &[&str]) -> Option<(&'static str, usize)> {
        self.kind_fields()
            .into_iter()
            .find(|(field, _)| fields.contains(field))
    }

    /// The fields beyond name, description and tags that are set, with where they start
    /// (`[[test.server]]` entries at the test's name).
    fn kind_fields(&self) -> Vec<(&'static str, usize)> {
        fn at<T>(field: &Option<Spanned<T>>) -> Option<usize> {
            field.as_ref().map(|f| f.span().start)
        }
        [
            ("source", at(&self.source)),
            ("wasm", at(&self.wasm)),
            ("native", at(&self.native)),
            ("check", at(&self.check)),
            ("untimed", at(&self.untimed)),
            ("sized", at(&self.sized)),
            ("wasm_build_error", at(&self.wasm_build_error)),
            ("native_build_error", at(&self.native_build_error)),
            ("wasm_cflags", at(&self.wasm_cflags)),
            ("native_cflags", at(&self.native_cflags)),
            ("path", at(&self.path)),
            ("body", at(&self.body)),
            ("connections", at(&self.connections)),
            ("duration_secs", at(&self.duration_secs)),
            ("args", at(&self.args)),
            ("expect", at(&self.expect)),
            ("env", at(&self.env)),
            ("stdin", at(&self.stdin)),
            ("dirs", at(&self.dirs)),
            ("invoke", at(&self.invoke)),
            ("native_program", at(&self.native_program)),
            ("component", at(&self.component)),
            (
                "server",
                (!self.server.is_empty()).then(|| self.name.span().start),
            ),
        ]
        .into_iter()
        .filter_map(|(field, at)| Some((field, at?)))
        .collect()
    }
}

/// The manifest being read: its path and text (errors name file and line) and the suite
/// folder its paths are resolved in.
struct Manifest<'a> {
    path: &'a Path,
    text: &'a str,
    /// The suite folder, absolute (canonical when it exists), so runtimes started in a
    /// scratch directory still find the modules.
    dir: PathBuf,
}

impl Manifest<'_> {
    /// An error at a byte offset of the manifest.
    fn err(&self, offset: usize, message: String) -> SuiteError {
        SuiteError::Parse {
            path: self.path.to_path_buf(),
            line: line_of(self.text, offset),
            message: one_line(message),
        }
    }

    /// Refuses the fields of `t` that its kind does not use, naming the first in the file
    /// with `why` (given the field as written: `'source'`, `[[test.server]]`).
    fn only(
        &self,
        t: &RawTest,
        allowed: &[&str],
        why: impl Fn(&str) -> String,
    ) -> Result<(), SuiteError> {
        let first = t
            .kind_fields()
            .into_iter()
            .filter(|(field, _)| !allowed.contains(field))
            .min_by_key(|(_, at)| *at);
        match first {
            None => Ok(()),
            Some((field, at)) => {
                let label = if field == "server" {
                    "[[test.server]]".to_string()
                } else {
                    format!("'{field}'")
                };
                Err(self.err(at, why(&label)))
            }
        }
    }
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
        let dir = manifest
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let m = Manifest {
            path: manifest,
            text,
            dir: std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf()),
        };
        let raw: RawManifest = toml::from_str(text).map_err(|e| {
            m.err(
                e.span().map(|s| s.start).unwrap_or(0),
                e.message().to_string(),
            )
        })?;
        let mut suite = suite_section(&m, &raw.suite)?;
        for spanned in &raw.tests {
            let case = test(&m, &raw.suite, suite.kind, spanned.get_ref(), &suite.tests)?;
            suite.tests.push(case);
        }
        if suite.tests.is_empty() {
            return Err(m.err(text.len(), "suite has no [[test]] entries".into()));
        }
        Ok(suite)
    }
}

/// The `[suite]` section: everything but the tests.
fn suite_section(m: &Manifest, raw: &RawSuite) -> Result<Suite, SuiteError> {
    let name = raw.name.get_ref().trim().to_string();
    if !valid_name(&name) {
        return Err(m.err(
            raw.name.span().start,
            format!("invalid suite name '{name}' (use letters, digits, '-', '_')"),
        ));
    }
    let includes = raw
        .includes
        .iter()
        .map(|inc| m.existing("includes", inc, "include file"))
        .collect::<Result<Vec<_>, _>>()?;
    let kind = match &raw.kind {
        None => SuiteKind::Command,
        Some(k) => SuiteKind::ALL
            .iter()
            .copied()
            .find(|x| x.as_str() == k.get_ref().trim())
            .ok_or_else(|| {
                m.err(
                    k.span().start,
                    format!(
                        "unknown suite kind '{}' (known: {})",
                        k.get_ref(),
                        SuiteKind::ALL
                            .iter()
                            .map(|k| k.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            })?,
    };
    if kind.is_lifecycle() {
        let build = [
            ("includes", !raw.includes.is_empty()),
            ("wasm_cflags", !raw.wasm_cflags.is_empty()),
            ("native_cflags", !raw.native_cflags.is_empty()),
            ("native_libs", !raw.native_libs.is_empty()),
        ];
        if let Some((field, _)) = build.iter().find(|(_, set)| *set) {
            return Err(m.err(
                raw.name.span().start,
                format!(
                    "'{field}' does not apply to a lifecycle suite: its modules are generated, not built"
                ),
            ));
        }
    }
    let at_least_one = |field: &str, n: Option<(usize, u64)>| match n {
        Some((at, 0)) => Err(m.err(at, format!("'{field}' must be at least 1"))),
        _ => Ok(()),
    };
    let span = |n: &Spanned<u32>| (n.span().start, u64::from(*n.get_ref()));
    at_least_one(
        "self_timed_iterations",
        raw.self_timed_iterations.as_ref().map(span),
    )?;
    // A suite's own timeout is held to the range `--timeout` is (model::limits).
    if let Some(n) = &raw.timeout_secs {
        let l = crate::model::limits::TIMEOUT_SECS;
        if l.check(*n.get_ref()).is_err() {
            return Err(m.err(
                n.span().start,
                format!("'timeout_secs' must be from {} to {} seconds", l.min, l.max),
            ));
        }
    }
    Ok(Suite {
        name,
        kind,
        description: raw.description.clone(),
        dir: m.dir.clone(),
        includes,
        native_cflags: raw.native_cflags.clone(),
        native_libs: raw.native_libs.clone(),
        self_timed_iterations: raw.self_timed_iterations.as_ref().map(|n| *n.get_ref()),
        timeout_secs: raw.timeout_secs.as_ref().map(|n| *n.get_ref()),
        tests: Vec::new(),
        saved_with_run: false,
    })
}

/// One `[[test]]`: its name, then what its suite's kind makes of the rest.
fn test(
    m: &Manifest,
    suite: &RawSuite,
    kind: SuiteKind,
    t: &RawTest,
    before: &[TestCase],
) -> Result<TestCase, SuiteError> {
    let name = t.name.get_ref().trim().to_string();
    if !valid_name(&name) {
        return Err(m.err(
            t.name.span().start,
            format!("invalid test name '{name}' (use letters, digits, '-', '_')"),
        ));
    }
    if before.iter().any(|x| x.name == name) {
        return Err(m.err(t.name.span().start, format!("duplicate test name '{name}'")));
    }
    let kind: TestKind = match kind {
        SuiteKind::Command => command::test(m, suite, t, &name)?,
        SuiteKind::Lifecycle => lifecycle::test(m, t, &name)?,
        SuiteKind::Gateway => http::gateway_test(m, suite, t, &name)?,
        SuiteKind::Servers => http::servers_test(m, t, &name)?,
        #[cfg(test)]
        SuiteKind::Trivial => command::test(m, suite, t, &name)?,
    };
    Ok(TestCase {
        name,
        description: t.description.clone(),
        tags: t.tags.clone(),
        kind,
    })
}

fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::{Build, SourceBuild};
    use crate::suite::{LifecycleModule, ModuleSpec};
    use crate::text::hex;
    use sha2::{Digest, Sha256};

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
    fn a_module_test_takes_folders_an_export_and_a_native_build() {
        let data = tempfile::tempdir().unwrap();
        let host = std::fs::canonicalize(data.path()).unwrap();
        let head = "[suite]\nname = \"s\"\n\n[[test]]\nname = \"m\"\nwasm = \"src/a.c\"\n";
        let (_dir, s) = write_suite(&format!(
            "{head}dirs = [\"{}::data\"]\ninvoke = \"run\"\nnative_program = \"src/common.h\"\n",
            host.display()
        ));
        let s = s.unwrap();
        let Build::Module(run) = &s.tests[0].guest().unwrap().build else {
            panic!("a module as given: {:?}", s.tests[0]);
        };
        assert_eq!(
            run.dirs,
            [crate::suite::Preopen {
                host: host.clone(),
                guest: "data".into()
            }]
        );
        assert_eq!(run.invoke.as_deref(), Some("run"));
        assert!(run.native.as_ref().unwrap().ends_with("src/common.h"));
        for (extra, words) in [
            (
                "dirs = [\"/no/such/dir\"]\n",
                "suite.toml:7: 'dirs': /no/such/dir: No such file",
            ),
            (
                "invoke = \"\"\n",
                "suite.toml:7: 'invoke' names an exported function",
            ),
            (
                "native_program = \"src/none\"\n",
                "suite.toml:7: file 'src/none' does not exist",
            ),
        ] {
            let e = write_suite(&format!("{head}{extra}"))
                .1
                .unwrap_err()
                .to_string();
            assert!(e.contains(words), "{words}: {e}");
        }
        let e = write_suite("[suite]\nname = \"s\"\n\n[[test]]\nname = \"a\"\nsource = \"src/a.c\"\ninvoke = \"f\"\n")
            .1
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("'invoke' applies only to a test that is a module as given"),
            "{e}"
        );
    }

    #[test]
    fn parses_a_valid_manifest() {
        let (dir, s) = write_suite(
            "[suite]\nname = \"s\"\nincludes = [\"src/common.h\"]\nwasm_cflags = [\"-O2\"]\nnative_cflags = [\"-O1\"]\n\n[[test]]\nname = \"a\"\nsource = \"src/a.c\"\nwasm_cflags = [\"-msimd128\"]\n",
        );
        let s = s.unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        assert_eq!(s.name, "s");
        assert_eq!(s.includes, [root.join("src/common.h")]);
        assert_eq!(s.tests.len(), 1);
        assert_eq!(s.tests[0].wasm(), Some(root.join("wasm/a.wasm").as_path()));
        assert_eq!(
            s.tests[0].guest().unwrap().build,
            Build::Source(SourceBuild {
                source: root.join("src/a.c"),
                wasm_cflags: vec!["-O2".into(), "-msimd128".into()],
                native_cflags: vec!["-O1".into()],
            })
        );
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

    /// Every path field refuses an absolute path, a `..` out of the folder and a link out,
    /// naming the file, the line and the field.
    #[test]
    fn every_path_field_stays_inside_the_suite_folder() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("x"), "secret").unwrap();
        for f in ["src/a.c", "b/x.wasm", "b/x", "c/x.wasm", "c/x", "exp/x.exp"] {
            let p = dir.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, f).unwrap();
        }
        std::os::unix::fs::symlink(outside.path().join("x"), dir.path().join("link")).unwrap();
        let manifest = dir.path().join("suite.toml");
        let prebuilt = |wasm: &str, native: &str, cw: &str, cn: &str, ce: &str| {
            format!(
                "[suite]\nname = \"p\"\n[[test]]\nname = \"x\"\nwasm = \"{wasm}\"\nnative = \"{native}\"\ncheck = {{ wasm = \"{cw}\", native = \"{cn}\", expected = \"{ce}\", result = \"x.res\" }}\n"
            )
        };
        let good = ["b/x.wasm", "b/x", "c/x.wasm", "c/x", "exp/x.exp"];
        let mut cases = vec![
            (
                "[suite]\nname = \"s\"\nincludes = [\"src/a.c\", \"BAD\"]\n[[test]]\nname = \"a\"\nsource = \"src/a.c\"\n".to_string(),
                3,
                "includes",
            ),
            (
                "[suite]\nname = \"s\"\n[[test]]\nname = \"a\"\nsource = \"BAD\"\n".to_string(),
                5,
                "source",
            ),
            (
                "[suite]\nname = \"s\"\n[[test]]\nname = \"a\"\nsource = \"src/a.c\"\nwasm = \"BAD\"\n".to_string(),
                6,
                "wasm",
            ),
            (
                "[suite]\nname = \"g\"\nkind = \"gateway\"\n[[test]]\nname = \"a\"\npath = \"/\"\nsource = \"BAD\"\n".to_string(),
                7,
                "source",
            ),
        ];
        for (i, field) in [
            "wasm",
            "native",
            "check.wasm",
            "check.native",
            "check.expected",
        ]
        .into_iter()
        .enumerate()
        {
            let mut v = good;
            v[i] = "BAD";
            let line = if i < 2 { 5 + i } else { 7 };
            cases.push((prebuilt(v[0], v[1], v[2], v[3], v[4]), line, field));
        }
        for (text, line, field) in cases {
            for (bad, why) in [
                ("/etc/passwd", "is absolute".to_string()),
                (
                    "../../../../../../etc/passwd",
                    "leaves the suite folder".into(),
                ),
                ("src/../../x", "leaves the suite folder".into()),
                (
                    "link",
                    format!(
                        "leads outside the suite folder (through a symbolic link, to {})",
                        std::fs::canonicalize(outside.path().join("x"))
                            .unwrap()
                            .display()
                    ),
                ),
            ] {
                let text = text.replace("BAD", bad);
                let msg = Suite::parse(&manifest, &text).unwrap_err().to_string();
                assert_eq!(
                    msg,
                    format!(
                        "{}:{line}: '{field}' path '{bad}' {why}: paths are relative to the suite folder and stay inside it",
                        manifest.display()
                    ),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn fields_of_another_kind_are_refused() {
        for (manifest, line, words) in [
            (
                "[suite]\nname = \"c\"\n[[test]]\nname = \"a\"\nsource = \"src/a.c\"\nbody = \"x\"\n",
                6,
                "'body' applies only to HTTP suites, not a command suite",
            ),
            (
                "[suite]\nname = \"c\"\n[[test]]\nname = \"a\"\nsource = \"src/a.c\"\n[[test.server]]\nruntime = \"node\"\ncommand = [\"n\"]\n",
                4,
                "[[test.server]] applies only to a servers suite",
            ),
            (
                "[suite]\nname = \"l\"\nkind = \"lifecycle\"\n[[test]]\nname = \"hello\"\npath = \"/\"\n",
                6,
                "'path' does not apply to a lifecycle test",
            ),
            (
                "[suite]\nname = \"g\"\nkind = \"gateway\"\n[[test]]\nname = \"a\"\npath = \"/\"\nsource = \"src/a.c\"\nuntimed = \"why\"\n",
                8,
                "'untimed' does not apply to a gateway test",
            ),
            (
                "[suite]\nname = \"s\"\nkind = \"servers\"\n[[test]]\nname = \"a\"\npath = \"/\"\nsource = \"src/a.c\"\n",
                7,
                "'source' does not apply to a servers test",
            ),
            (
                "[suite]\nname = \"c\"\n[[test]]\nname = \"a\"\nuntimed = \"why\"\nsource = \"src/a.c\"\n",
                5,
                "'untimed' needs a 'check'",
            ),
        ] {
            let (_d, r) = write_suite(manifest);
            let msg = r.unwrap_err().to_string();
            assert!(msg.contains(&format!("suite.toml:{line}: ")), "{msg}");
            assert!(msg.contains(words), "{msg}");
        }
    }

    #[test]
    fn lifecycle_suites_generate_their_modules() {
        let (_d, s) = write_suite(
            "[suite]\nname = \"l\"\nkind = \"lifecycle\"\n[[test]]\nname = \"hello\"\n[[test]]\nname = \"heap-256k-sparse\"\n",
        );
        let s = s.unwrap();
        assert_eq!(s.kind, SuiteKind::Lifecycle);
        assert_eq!(
            s.tests[0].kind,
            TestKind::Lifecycle(LifecycleModule::Generated(ModuleSpec::Hello))
        );
        assert_eq!((s.tests[0].wasm(), s.tests[0].http()), (None, None));
        let heap = s.tests[1].module().unwrap();
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
                // (and, in this crate's tests only, the trivial kind)
                "unknown suite kind 'lifecycel' (known: command, lifecycle, gateway, servers",
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
    fn lifecycle_tests_read_module_files() {
        let head = "[suite]\nname = \"l\"\nkind = \"lifecycle\"\n";
        // `src/a.c` stands in for a module: the manifest checks only that it exists.
        let (dir, s) = write_suite(&format!(
            "{head}[[test]]\nname = \"sqlite\"\nwasm = \"src/a.c\"\n[[test]]\nname = \"lua\"\nwasm = \"wasm/lua.wasm\"\nwasm_build_error = \"clang: no setjmp.h\"\n"
        ));
        let s = s.unwrap();
        assert_eq!(
            s.tests[0].kind,
            TestKind::Lifecycle(LifecycleModule::File {
                wasm: dir.path().join("src/a.c"),
                build_error: None
            })
        );
        assert_eq!(s.tests[0].module(), None);
        let TestKind::Lifecycle(LifecycleModule::File { build_error, .. }) = &s.tests[1].kind
        else {
            panic!("{:?}", s.tests[1].kind)
        };
        assert_eq!(build_error.as_deref(), Some("clang: no setjmp.h"));
        // The hash follows the file's bytes, or the reason it was not built.
        let mut h = Sha256::new();
        h.update(b"int main(){return 0;}");
        assert_eq!(s.source_hash(&s.tests[0]).unwrap(), hex(&h.finalize()));
        assert_ne!(
            s.source_hash(&s.tests[1]).unwrap(),
            s.source_hash(&s.tests[0]).unwrap()
        );

        for (test, line, words) in [
            (
                "[[test]]\nname = \"x\"\nwasm = \"wasm/x.wasm\"\n",
                6,
                "module 'wasm/x.wasm' does not exist",
            ),
            (
                "[[test]]\nname = \"hello\"\nwasm = \"src/a.c\"\n",
                5,
                "reads 'wasm', so it may not take the name of a generated module",
            ),
            (
                "[[test]]\nname = \"x\"\nwasm_build_error = \"no\"\n",
                6,
                "'wasm_build_error' applies only to a lifecycle test with 'wasm'",
            ),
            (
                "[[test]]\nname = \"x\"\nwasm = \"src/a.c\"\nnative = \"src/a.c\"\n",
                7,
                "'native' does not apply to a lifecycle test",
            ),
            ("[[test]]\nname = \"x\"\nwasm = \"../a.wasm\"\n", 6, ".."),
        ] {
            let (_d, r) = write_suite(&format!("{head}{test}"));
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
            "{head}wasm = \"b/x.wasm\"\nnative = \"b/x\"\ncheck = {{ wasm = \"c/x.wasm\", native = \"c/x\", expected = \"exp/x.exp\", result = \"x.res\" }}\nuntimed = \"no AES\"\n"
        );
        std::fs::write(dir.path().join("suite.toml"), &good).unwrap();
        let s = Suite::load(dir.path()).unwrap();
        let t = &s.tests[0];
        let root = std::fs::canonicalize(dir.path()).unwrap();
        assert_eq!(
            (s.self_timed_iterations, s.timeout_secs),
            (Some(5), Some(600))
        );
        assert_eq!(
            t.guest().unwrap().build,
            Build::Prebuilt {
                native: root.join("b/x"),
                sized: false,
                wasm_error: None,
                native_error: None,
            }
        );
        assert_eq!(t.wasm(), Some(root.join("b/x.wasm").as_path()));
        assert_eq!(
            t.check(),
            Some(&crate::suite::CheckStep {
                wasm: root.join("c/x.wasm"),
                native: root.join("c/x"),
                expected: root.join("exp/x.exp"),
                result: "x.res".into(),
                untimed: Some("no AES".into()),
            })
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
                format!("{head}wasm = \"b/x.wasm\"\nnative = \"b/x\"\nwasm_cflags = [\"-O3\"]\n"),
                9,
                "'wasm_cflags' does not apply to prebuilt test 'x'",
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
            (
                good.replace("timeout_secs = 600", "timeout_secs = 0"),
                4,
                "'timeout_secs' must be from 1 to 86400 seconds",
            ),
            (
                good.replace("timeout_secs = 600", "timeout_secs = 90000"),
                4,
                "'timeout_secs' must be from 1 to 86400 seconds",
            ),
        ] {
            std::fs::write(dir.path().join("suite.toml"), &manifest).unwrap();
            let msg = Suite::load(dir.path()).unwrap_err().to_string();
            assert!(msg.contains(&format!("suite.toml:{line}: ")), "{msg}");
            assert!(msg.contains(words), "{msg}");
        }
    }

    #[test]
    fn sized_prebuilt_tests_and_builds_the_script_could_not_make() {
        let dir = tempfile::tempdir().unwrap();
        for f in ["wasm/a.wasm", "native/a", "native/b"] {
            let p = dir.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, f).unwrap();
        }
        let head = "[suite]\nname = \"apps\"\n";
        let good = format!(
            "{head}[[test]]\nname = \"a\"\nwasm = \"wasm/a.wasm\"\nnative = \"native/a\"\nsized = true\n\
             [[test]]\nname = \"b\"\nwasm = \"wasm/b.wasm\"\nnative = \"native/b\"\nsized = true\nwasm_build_error = \"wasm32-wasi build: no setjmp.h\"\n"
        );
        std::fs::write(dir.path().join("suite.toml"), &good).unwrap();
        let s = Suite::load(dir.path()).unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let build = |i: usize| s.tests[i].guest().unwrap().build.clone();
        assert_eq!(
            build(0),
            Build::Prebuilt {
                native: root.join("native/a"),
                sized: true,
                wasm_error: None,
                native_error: None,
            }
        );
        assert_eq!(
            build(1),
            Build::Prebuilt {
                native: root.join("native/b"),
                sized: true,
                wasm_error: Some("wasm32-wasi build: no setjmp.h".into()),
                native_error: None,
            }
        );
        // The missing module's hash is its reason, so a fixed build shows as a change.
        let mut h = Sha256::new();
        h.update(b"not built: wasm32-wasi build: no setjmp.h");
        assert_eq!(s.source_hash(&s.tests[1]).unwrap(), hex(&h.finalize()));

        for (manifest, line, words) in [
            (
                good.replace("wasm_build_error", "native_build_error"),
                10,
                "file 'wasm/b.wasm' does not exist",
            ),
            (
                format!("{head}[[test]]\nname = \"c\"\nsource = \"native/a\"\nsized = true\n"),
                6,
                "'sized' applies only to a prebuilt test",
            ),
            (
                format!(
                    "{head}[[test]]\nname = \"c\"\nwasm = \"wasm/a.wasm\"\nwasm_build_error = \"x\"\n"
                ),
                6,
                "'wasm_build_error' applies only to a prebuilt test",
            ),
            (
                format!(
                    "{head}[[test]]\nname = \"c\"\nwasm = \"wasm/a.wasm\"\nnative = \"native/a\"\nsized = \"yes\"\n"
                ),
                7,
                "invalid type",
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

    /// What parsing made of a suite, one line for it and one per test, paths relative to
    /// its folder: compared with `core/tests/data/bundled_suites.txt`, written from the
    /// parser before tests became one enum per kind.
    fn describe(s: &Suite) -> Vec<String> {
        let rel = |p: &Path| p.strip_prefix(&s.dir).unwrap_or(p).display().to_string();
        let mut lines = vec![format!(
            "suite {} kind={} includes=[{}] native_cflags=[{}] native_libs=[{}] self_timed={:?} timeout={:?}: {}",
            s.name,
            s.kind,
            s.includes
                .iter()
                .map(|p| rel(p))
                .collect::<Vec<_>>()
                .join(" "),
            s.native_cflags.join(" "),
            s.native_libs.join(" "),
            s.self_timed_iterations,
            s.timeout_secs,
            s.description
        )];
        for t in &s.tests {
            let source = |g: &crate::suite::Guest| match &g.build {
                Build::Source(b) => format!(
                    "wasm={} source={} wasm_cflags=[{}] native_cflags=[{}]",
                    rel(&g.wasm),
                    rel(&b.source),
                    b.wasm_cflags.join(" "),
                    b.native_cflags.join(" ")
                ),
                Build::Prebuilt {
                    native,
                    sized,
                    wasm_error,
                    native_error,
                } => {
                    format!(
                        "wasm={} native={} sized={sized} wasm_error={wasm_error:?} native_error={native_error:?}",
                        rel(&g.wasm),
                        rel(native)
                    )
                }
                Build::Module(r) => format!(
                    "wasm={} args={:?} expect={:?} env={:?} stdin={:?} dirs={:?} invoke={:?} native={:?}",
                    rel(&g.wasm),
                    r.args,
                    r.expect.as_deref().map(rel),
                    r.env,
                    r.stdin.as_deref().map(rel),
                    r.dirs.iter().map(|d| d.spec()).collect::<Vec<_>>(),
                    r.invoke,
                    r.native.as_deref().map(rel)
                ),
            };
            let request = |h: &crate::suite::HttpTest| {
                // One level hashes as it did when `connections` was a single number.
                let connections = match &h.connections[..] {
                    [] => "None".to_string(),
                    [one] => format!("Some({one})"),
                    many => format!("{many:?}"),
                };
                format!(
                    "request={} {} body={:?} connections={connections} duration={:?}",
                    h.method,
                    h.path,
                    String::from_utf8_lossy(&h.body),
                    h.duration_secs
                )
            };
            let what = match &t.kind {
                TestKind::Command(c) => {
                    format!("command {} check={}", source(&c.guest), c.check.is_some())
                }
                TestKind::Lifecycle(LifecycleModule::Generated(m)) => {
                    format!("lifecycle module={}", m.name())
                }
                TestKind::Lifecycle(LifecycleModule::File { wasm, build_error }) => {
                    format!("lifecycle wasm={} error={build_error:?}", rel(wasm))
                }
                TestKind::Gateway(g) => {
                    format!("gateway {} {}", source(&g.guest), request(&g.request))
                }
                TestKind::Servers(h) => format!("servers {} servers={:?}", request(h), h.servers),
            };
            lines.push(format!(
                "  {} [{}] {what}: {}",
                t.name,
                t.tags.join(","),
                t.description
            ));
        }
        lines
    }

    /// Every suite in the repository parses to the same suites and tests as before tests
    /// were split by kind (`WASMETER_BLESS=1` rewrites the file after a deliberate change).
    #[test]
    fn bundled_suites_parse_to_the_same_tests() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../suites");
        let no_generated = tempfile::tempdir().unwrap();
        let cat = crate::suite::SuiteCatalog::discover_in(&root, no_generated.path()).unwrap();
        assert!(cat.broken.is_empty(), "{:?}", cat.broken);
        let got: String = cat
            .suites
            .iter()
            .flat_map(describe)
            .map(|l| l + "\n")
            .collect();
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/bundled_suites.txt");
        if std::env::var_os("WASMETER_BLESS").is_some() {
            std::fs::write(&file, &got).unwrap();
        }
        let want = std::fs::read_to_string(&file).unwrap();
        assert!(got == want, "{} differs; now:\n{got}", file.display());
    }
}
