//! A suite made on the fly from modules given by path (`wasmeter run FILE.wasm …`): each
//! `.wasm` a test named after its file, copied with a manifest into a folder of its own so
//! that the run keeps what it measured ([`Suite::saved_with_run`]) and loads like any
//! suite afterwards.

use super::{Suite, SuiteError};
use std::path::{Path, PathBuf};

/// The name of every suite of modules given by path: runs of them diff test by test, by
/// file name (a diff warns when a module's bytes differ).
pub const MODULES_SUITE: &str = "modules";

/// What the first eight bytes of a file say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WasmHeader {
    /// A core module (`\0asm`, version 1).
    Module,
    /// A component (`\0asm`, layer 1).
    Component,
}

/// Reads a file's WebAssembly header; the error says what the file is not.
pub fn wasm_header(path: &Path) -> Result<WasmHeader, String> {
    use std::io::Read;
    let mut head = [0u8; 8];
    let n = std::fs::File::open(path)
        .and_then(|mut f| {
            let mut n = 0;
            while n < 8 {
                match f.read(&mut head[n..])? {
                    0 => break,
                    k => n += k,
                }
            }
            Ok(n)
        })
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if n < 8 || &head[..4] != b"\0asm" {
        return Err(format!(
            "{}: not a WebAssembly module (no \\0asm header)",
            path.display()
        ));
    }
    match head[4..] {
        [1, 0, 0, 0] => Ok(WasmHeader::Module),
        [_, _, 1, 0] => Ok(WasmHeader::Component),
        _ => Err(format!(
            "{}: unknown WebAssembly version {:02x?}",
            path.display(),
            &head[4..]
        )),
    }
}

/// The modules the paths name: a file as it is, a folder as its `.wasm` files (not its
/// subfolders) in name order. Errors name the path: missing, a folder without modules,
/// not wasm, a component, two modules of one name.
pub fn find_modules(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut found = Vec::new();
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|e| format!("{}: {e}", p.display()))?;
        if meta.is_dir() {
            let mut here: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| format!("{}: {e}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file() && f.extension().is_some_and(|x| x == "wasm"))
                .collect();
            if here.is_empty() {
                return Err(format!("{}: no .wasm modules in this folder", p.display()));
            }
            here.sort();
            found.extend(here);
        } else {
            found.push(p.clone());
        }
    }
    let mut names: Vec<(String, &PathBuf)> = Vec::new();
    for f in &found {
        if wasm_header(f)? == WasmHeader::Component {
            return Err(format!(
                "{}: a WebAssembly component; `wasmeter run` takes core modules (wasm32-wasip1 commands) so far",
                f.display()
            ));
        }
        let name = test_name(f);
        if let Some((_, other)) = names.iter().find(|(n, _)| *n == name) {
            return Err(format!(
                "{}: a second module named '{name}' (the first is {}); rename one, tests are named after files",
                f.display(),
                other.display()
            ));
        }
        names.push((name, f));
    }
    Ok(found)
}

/// An environment variable as `--env` and a manifest's `env` give it: `KEY=VALUE` with a
/// key; `None` for anything else.
pub fn env_var(kv: &str) -> Option<(String, String)> {
    match kv.split_once('=') {
        Some((k, v)) if !k.is_empty() => Some((k.to_string(), v.to_string())),
        _ => None,
    }
}

/// A module's test name: its file name without `.wasm`.
fn test_name(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "module".into())
}

/// How every module of a suite of modules runs: what `wasmeter run FILE.wasm` was told.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModuleRun {
    /// Arguments after the program name.
    pub args: Vec<String>,
    /// Environment variables the guest gets (`--env K=V`).
    pub env: Vec<(String, String)>,
    /// A file the guest reads as stdin (`--stdin FILE`).
    pub stdin: Option<PathBuf>,
    /// The output every runtime must print (`--expect FILE`).
    pub expect: Option<PathBuf>,
}

/// Makes the suite of `modules` (from [`find_modules`]), each run as `run` says, in `dir`
/// (created; the modules are copied into `dir/wasm/`, the answer and the stdin file beside
/// the manifest, so the suite holds everything a resumed run needs), and loads it.
pub fn modules_suite(modules: &[PathBuf], run: &ModuleRun, dir: &Path) -> Result<Suite, String> {
    let wasm_dir = dir.join("wasm");
    std::fs::create_dir_all(&wasm_dir).map_err(|e| format!("{}: {e}", wasm_dir.display()))?;
    for (file, copy) in [(&run.expect, "expected.txt"), (&run.stdin, "stdin")] {
        if let Some(f) = file {
            std::fs::copy(f, dir.join(copy)).map_err(|e| format!("{}: {e}", f.display()))?;
        }
    }
    let mut manifest = format!(
        "# Made by `wasmeter run` from modules given by path; kept with the run.\n[suite]\nname = \"{MODULES_SUITE}\"\ndescription = \"modules given to wasmeter run\"\n"
    );
    fn quoted(s: &str) -> String {
        toml::Value::String(s.to_string()).to_string()
    }
    fn list(items: impl Iterator<Item = String>) -> String {
        items.map(|s| quoted(&s)).collect::<Vec<_>>().join(", ")
    }
    for m in modules {
        let name = test_name(m);
        let copy = wasm_dir.join(format!("{name}.wasm"));
        let bytes = std::fs::copy(m, &copy)
            .map_err(|e| format!("{}: cannot copy to {}: {e}", m.display(), copy.display()))?;
        let from = std::fs::canonicalize(m).unwrap_or_else(|_| m.clone());
        manifest.push_str(&format!(
            "\n[[test]]\nname = {}\ndescription = {}\nwasm = {}\nargs = [{}]\n",
            quoted(&name),
            quoted(&format!("{} ({bytes} bytes)", from.display())),
            quoted(&format!("wasm/{name}.wasm")),
            list(run.args.iter().cloned())
        ));
        if !run.env.is_empty() {
            let vars = run.env.iter().map(|(k, v)| format!("{k}={v}"));
            manifest.push_str(&format!("env = [{}]\n", list(vars)));
        }
        if run.expect.is_some() {
            manifest.push_str("expect = \"expected.txt\"\n");
        }
        if run.stdin.is_some() {
            manifest.push_str("stdin = \"stdin\"\n");
        }
    }
    let path = dir.join("suite.toml");
    std::fs::write(&path, manifest).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut suite = Suite::load(dir).map_err(|e: SuiteError| e.to_string())?;
    suite.saved_with_run = true;
    Ok(suite)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::Build;

    fn module(dir: &Path, name: &str, head: &[u8]) -> PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, head).unwrap();
        p
    }

    const CORE: &[u8] = b"\0asm\x01\0\0\0";

    #[test]
    fn files_and_folders_become_tests_named_after_files() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path().join("mods");
        std::fs::create_dir(&d).unwrap();
        module(&d, "b.wasm", CORE);
        module(&d, "a.wasm", CORE);
        module(&d, "notes.txt", b"hello");
        let single = module(tmp.path(), "c.wasm", CORE);
        let found = find_modules(&[d.clone(), single]).unwrap();
        let names: Vec<String> = found.iter().map(|p| test_name(p)).collect();
        assert_eq!(names, ["a", "b", "c"]);

        let out = tmp.path().join("suite");
        let args = vec!["-n".to_string(), "say \"hi\"".to_string()];
        let run = ModuleRun {
            args: args.clone(),
            env: vec![("GREETING".into(), "hi there".into())],
            ..ModuleRun::default()
        };
        let s = modules_suite(&found, &run, &out).unwrap();
        assert_eq!(s.name, MODULES_SUITE);
        assert!(s.saved_with_run);
        assert_eq!(s.test_names(), ["a", "b", "c"]);
        let t = s.test("b").unwrap();
        assert_eq!(
            t.guest().unwrap().build,
            Build::Module {
                args: args.clone(),
                expect: None,
                env: run.env.clone(),
                stdin: None,
            }
        );
        assert_eq!(
            std::fs::read(t.wasm().unwrap()).unwrap(),
            CORE,
            "copied into the suite's folder"
        );
        assert!(
            t.wasm()
                .unwrap()
                .starts_with(std::fs::canonicalize(&out).unwrap())
        );
        assert!(t.description.contains("(8 bytes)"), "{}", t.description);
        // The copy loads again as it was (how a resumed run finds it).
        let again = Suite::load(&out).unwrap();
        assert_eq!(again.tests, s.tests);
        assert!(!again.saved_with_run);
    }

    #[test]
    fn bad_paths_are_named_with_the_problem() {
        let tmp = tempfile::tempdir().unwrap();
        let empty = tmp.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        let text = module(tmp.path(), "t.wasm", b"hello, not wasm");
        let comp = module(tmp.path(), "c.wasm", b"\0asm\x0d\0\x01\0");
        let sub = tmp.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let twin = module(&sub, "c.wasm", CORE);
        let first = module(tmp.path(), "x.wasm", CORE);
        let twin_x = module(&sub, "x.wasm", CORE);
        for (paths, words) in [
            (
                vec![tmp.path().join("nope.wasm")],
                "nope.wasm: No such file",
            ),
            (
                vec![empty.clone()],
                "empty: no .wasm modules in this folder",
            ),
            (vec![text], "t.wasm: not a WebAssembly module"),
            (vec![comp], "c.wasm: a WebAssembly component"),
            (vec![first, twin_x], "a second module named 'x'"),
        ] {
            let e = find_modules(&paths).unwrap_err();
            assert!(e.contains(words), "{e}");
            assert_eq!(e.lines().count(), 1, "{e}");
        }
        assert_eq!(wasm_header(&twin).unwrap(), WasmHeader::Module);
    }
}
