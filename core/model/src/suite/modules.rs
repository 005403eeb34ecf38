//! A suite made on the fly from modules given by path (`wasmeter run FILE.wasm …`): each
//! `.wasm` a test named after its file, copied with a manifest into a folder of its own so
//! that the run keeps what it measured ([`Suite::saved_with_run`]) and loads like any
//! suite afterwards.

use super::module_run::{ModuleRun, Preopen};
use super::{Suite, SuiteError};
use std::path::{Path, PathBuf};

/// The name of every suite of modules given by path: runs of them diff test by test, by
/// file name (a diff warns when a module's bytes differ).
pub const MODULES_SUITE: &str = "modules";

/// The test every suite of modules ends with: an empty command, so that each runtime's
/// start-up can be taken out of CLI runtimes' whole-process times (labelled so).
pub const STARTUP_TEST: &str = "_startup";

/// The empty WASI command of [`STARTUP_TEST`]: `_start` returns at once. It exports its
/// memory, which some WASI hosts (node's) require, and imports `proc_exit` without calling
/// it, by which others (wasmer's) tell a WASI module.
pub fn empty_command() -> Vec<u8> {
    use wasm_encoder::{
        CodeSection, EntityType, ExportKind, ExportSection, Function, FunctionSection,
        ImportSection, Instruction, MemorySection, MemoryType, Module, TypeSection, ValType,
    };
    let mut m = Module::new();
    let mut types = TypeSection::new();
    types.ty().function([], []);
    types.ty().function([ValType::I32], []);
    m.section(&types);
    let mut imports = ImportSection::new();
    imports.import(
        "wasi_snapshot_preview1",
        "proc_exit",
        EntityType::Function(1),
    );
    m.section(&imports);
    let mut funcs = FunctionSection::new();
    funcs.function(0);
    m.section(&funcs);
    let mut mem = MemorySection::new();
    mem.memory(MemoryType {
        minimum: 1,
        maximum: None,
        memory64: false,
        shared: false,
        page_size_log2: None,
    });
    m.section(&mem);
    let mut exports = ExportSection::new();
    // Function 0 is the import; 1 is `_start`.
    exports.export("_start", ExportKind::Func, 1);
    exports.export("memory", ExportKind::Memory, 0);
    m.section(&exports);
    let mut code = CodeSection::new();
    let mut f = Function::new([]);
    f.instruction(&Instruction::End);
    code.function(&f);
    m.section(&code);
    m.finish()
}

/// What the first eight bytes of a file say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WasmHeader {
    /// A core module (`\0asm`, version 1).
    Module,
    /// A component (`\0asm`, layer 1).
    Component,
}

impl WasmHeader {
    /// What the first eight bytes of `head` say it is; `None` for anything else (not wasm,
    /// too short, an unknown version).
    pub fn of(head: &[u8]) -> Option<WasmHeader> {
        match head.get(..8)? {
            [0, b'a', b's', b'm', 1, 0, 0, 0] => Some(WasmHeader::Module),
            [0, b'a', b's', b'm', _, _, 1, 0] => Some(WasmHeader::Component),
            _ => None,
        }
    }
}

/// The interface a `wasi:http/proxy` component serves requests through.
pub const HTTP_HANDLER: &str = "wasi:http/incoming-handler@";

/// Whether `bytes` are a component that exports `wasi:http/incoming-handler` (any 0.2
/// version): a server's guest, which a command runtime can only run by serving it a
/// request, not through `wasi:cli/run`. Exports of nested components do not count.
pub fn serves_http(bytes: &[u8]) -> bool {
    use wasmparser::{Parser, Payload};
    if WasmHeader::of(bytes) != Some(WasmHeader::Component) {
        return false;
    }
    let mut depth = 0usize;
    for payload in Parser::new(0).parse_all(bytes) {
        match payload {
            Ok(Payload::ModuleSection { .. } | Payload::ComponentSection { .. }) => depth += 1,
            Ok(Payload::End(_)) => depth = depth.saturating_sub(1),
            Ok(Payload::ComponentExportSection(exports)) if depth == 0 => {
                let found = exports
                    .into_iter()
                    .flatten()
                    .any(|e| e.name.name.starts_with(HTTP_HANDLER));
                if found {
                    return true;
                }
            }
            Ok(_) => {}
            Err(_) => return false,
        }
    }
    false
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
    WasmHeader::of(&head).ok_or_else(|| {
        format!(
            "{}: unknown WebAssembly version {:02x?}",
            path.display(),
            &head[4..]
        )
    })
}

/// The modules the paths name: a file as it is, a folder as its `.wasm` files (not its
/// subfolders) in name order; core modules and components. Errors name the path: missing,
/// a folder without modules, not wasm, two modules of one name.
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
        wasm_header(f)?;
        let name = test_name(f);
        if name == STARTUP_TEST {
            return Err(format!(
                "{}: '{STARTUP_TEST}' is the name of wasmeter's own empty module; rename the file",
                f.display()
            ));
        }
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

/// A module's test name: its file name without `.wasm`; every front end names modules so.
pub fn test_name(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "module".into())
}

/// Gives each module its run: `run` as it is, and the native build that `--native` names
/// for it: `PROGRAM` beside a single module, `TEST=PROGRAM` for the module of that test
/// name. Errors name the program or the test.
pub fn with_natives(
    modules: &[PathBuf],
    run: &ModuleRun,
    natives: &[String],
) -> Result<Vec<(PathBuf, ModuleRun)>, String> {
    let mut out: Vec<(PathBuf, ModuleRun)> = modules
        .iter()
        .map(|m| {
            (
                m.clone(),
                ModuleRun {
                    native: None,
                    ..run.clone()
                },
            )
        })
        .collect();
    for spec in natives {
        let (test, program) = match spec.split_once('=') {
            Some((t, p)) if !t.is_empty() && !t.contains('/') => (Some(t), p),
            _ => (None, spec.as_str()),
        };
        let index = match test {
            Some(t) => out
                .iter()
                .position(|(m, _)| test_name(m) == t)
                .ok_or_else(|| format!("--native {spec}: no module named '{t}'"))?,
            None if out.len() == 1 => 0,
            None => {
                return Err(format!(
                    "--native {spec}: {} modules are given; say which one with TEST=PROGRAM",
                    out.len()
                ));
            }
        };
        let path = native_program(program)?;
        let slot = &mut out[index].1.native;
        if slot.is_some() {
            return Err(format!(
                "--native {spec}: module '{}' has a native build already",
                test_name(&out[index].0)
            ));
        }
        *slot = Some(path);
    }
    Ok(out)
}

/// An executable file given as a path, or a program found on PATH.
fn native_program(program: &str) -> Result<PathBuf, String> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &Path| {
        p.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    let candidates: Vec<PathBuf> = if program.contains('/') {
        vec![PathBuf::from(program)]
    } else {
        std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).map(|d| d.join(program)).collect())
            .unwrap_or_default()
    };
    match candidates.iter().find(|p| executable(p)) {
        Some(p) => std::fs::canonicalize(p).map_err(|e| format!("{program}: {e}")),
        None if program.contains('/') && Path::new(program).exists() => {
            Err(format!("{program}: not an executable file (--native)"))
        }
        None => Err(format!("{program}: no such executable (--native)")),
    }
}

/// Makes the suite of `modules` (from [`find_modules`], each with its run), in `dir`
/// (created; the modules are copied into `dir/wasm/`, native builds into `dir/native/`,
/// answers and stdin files beside the manifest, so the suite holds everything a resumed
/// run needs), and loads it. Host folders (`dirs`) stay where they are.
pub fn modules_suite(modules: &[(PathBuf, ModuleRun)], dir: &Path) -> Result<Suite, String> {
    let wasm_dir = dir.join("wasm");
    std::fs::create_dir_all(&wasm_dir).map_err(|e| format!("{}: {e}", wasm_dir.display()))?;
    let mut manifest = format!(
        "# Made by `wasmeter run` from modules given by path; kept with the run.\n[suite]\nname = \"{MODULES_SUITE}\"\ndescription = \"modules given to wasmeter run\"\n"
    );
    fn quoted(s: &str) -> String {
        toml::Value::String(s.to_string()).to_string()
    }
    fn list(items: impl Iterator<Item = String>) -> String {
        items.map(|s| quoted(&s)).collect::<Vec<_>>().join(", ")
    }
    // A file given for the test (answer, stdin, native build), copied beside the manifest.
    let keep = |file: &Path, rel: String| -> Result<String, String> {
        let to = dir.join(&rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::copy(file, &to)
            .map_err(|e| format!("{}: cannot copy to {}: {e}", file.display(), to.display()))?;
        Ok(rel)
    };
    for (m, run) in modules {
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
        if !run.dirs.is_empty() {
            manifest.push_str(&format!(
                "dirs = [{}]\n",
                list(run.dirs.iter().map(Preopen::spec))
            ));
        }
        if let Some(f) = &run.invoke {
            manifest.push_str(&format!("invoke = {}\n", quoted(f)));
        }
        let files = [
            ("expect", &run.expect, format!("expected/{name}.txt")),
            ("stdin", &run.stdin, format!("stdin/{name}")),
            ("native_program", &run.native, format!("native/{name}")),
        ];
        for (key, file, rel) in files {
            if let Some(f) = file {
                manifest.push_str(&format!("{key} = {}\n", quoted(&keep(f, rel)?)));
            }
        }
    }
    // The empty module, for start-up; natively the smallest program there is, when the
    // modules have native builds (else native has no cell to fail).
    let empty = wasm_dir.join(format!("{STARTUP_TEST}.wasm"));
    std::fs::write(&empty, empty_command()).map_err(|e| format!("{}: {e}", empty.display()))?;
    manifest.push_str(&format!(
        "\n[[test]]\nname = \"{STARTUP_TEST}\"\ndescription = \"an empty command: each runtime's start-up, taken out of CLI runtimes' whole-process times\"\nwasm = \"wasm/{STARTUP_TEST}.wasm\"\n"
    ));
    if modules.iter().any(|(_, r)| r.native.is_some()) {
        let t = native_program("true")?;
        manifest.push_str(&format!(
            "native_program = {}\n",
            quoted(&keep(&t, format!("native/{STARTUP_TEST}"))?)
        ));
    }
    let path = dir.join("suite.toml");
    std::fs::write(&path, manifest).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut suite = Suite::load(dir).map_err(|e: SuiteError| e.to_string())?;
    suite.saved_with_run = true;
    Ok(suite)
}

/// A folder under the results directory where a suite of modules is made before its run
/// copies it (on one file system); removed when dropped, so keep it until the run has
/// started. Every front end stages modules through it.
#[derive(Debug)]
pub struct ModuleStaging {
    dir: PathBuf,
}

impl ModuleStaging {
    /// Makes the suite of `modules` (each with its run, from [`with_natives`]) in a new
    /// staging folder of `results`. Errors name the file or folder.
    pub fn stage(
        results: &Path,
        modules: &[(PathBuf, ModuleRun)],
    ) -> Result<(ModuleStaging, Suite), String> {
        use std::sync::atomic::{AtomicU32, Ordering};
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let dir = results.join(".staging").join(format!(
            "modules-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("results directory not writable: {}: {e}", dir.display()))?;
        let staging = ModuleStaging { dir };
        let suite = modules_suite(modules, &staging.dir)?;
        Ok((staging, suite))
    }

    /// The staging folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for ModuleStaging {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        if let Some(parent) = self.dir.parent() {
            let _ = std::fs::remove_dir(parent);
        }
    }
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
        let each: Vec<(PathBuf, ModuleRun)> =
            found.iter().map(|m| (m.clone(), run.clone())).collect();
        let s = modules_suite(&each, &out).unwrap();
        assert_eq!(s.name, MODULES_SUITE);
        assert!(s.saved_with_run);
        assert_eq!(s.test_names(), ["a", "b", "c", STARTUP_TEST]);
        let t = s.test("b").unwrap();
        assert_eq!(t.guest().unwrap().build, Build::Module(run.clone()));
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
            (vec![first, twin_x], "a second module named 'x'"),
        ] {
            let e = find_modules(&paths).unwrap_err();
            assert!(e.contains(words), "{e}");
            assert_eq!(e.lines().count(), 1, "{e}");
        }
        assert_eq!(wasm_header(&twin).unwrap(), WasmHeader::Module);
        assert_eq!(wasm_header(&comp).unwrap(), WasmHeader::Component);
        assert_eq!(
            find_modules(&[comp]).unwrap().len(),
            1,
            "components are taken"
        );
    }
}
