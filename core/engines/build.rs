//! Records the versions of the embedded engines from Cargo.lock (and wasm3's from its
//! vendored header), so runs can name them; with the `wasm3` feature, compiles the
//! vendored wasm3 that the embedded `wasm3` runtime links.

use std::path::Path;

fn locked_version(lock: &str, name: &str) -> Option<String> {
    let needle = format!("name = \"{name}\"\nversion = \"");
    let i = lock.find(&needle)?;
    let rest = &lock[i + needle.len()..];
    rest.find('"').map(|j| rest[..j].to_string())
}

fn main() {
    // Relative to this package, so a target dir shared by several checkouts (CI clones)
    // always tracks the lock file of the checkout being built.
    println!("cargo:rerun-if-changed=../../Cargo.lock");
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let path = Path::new(&dir).join("../../Cargo.lock");
    let lock = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: cannot read the workspace lock file: {e}",
            path.display()
        )
    });
    for (krate, var) in [
        ("wasmtime", "WASMETER_WASMTIME_VERSION"),
        ("wasmer", "WASMETER_WASMER_VERSION"),
        ("wasmi", "WASMETER_WASMI_VERSION"),
    ] {
        let v = locked_version(&lock, krate)
            .unwrap_or_else(|| panic!("{}: no locked version of {krate}", path.display()));
        println!("cargo:rustc-env={var}={v}");
    }
    let wasm3 = Path::new(&dir).join("../../assets/runtimes/wasm3/source");
    println!(
        "cargo:rustc-env=WASMETER_WASM3_VERSION={}",
        wasm3_version(&wasm3)
    );
    if std::env::var_os("CARGO_FEATURE_WASM3").is_some() {
        let own = Path::new(&dir).join("src/runtime/embedded/wasm3");
        build_wasm3(&wasm3, &own.join("cap.c"));
        // Profiles are sampled on Linux only: elsewhere no marked copy is needed.
        if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
            build_marked_wasm3(&wasm3, &own.join("cap.c"), &own.join("mark.c"));
        }
    }
}

/// `M3_VERSION_MAJOR.MINOR.REV` from the vendored wasm3.h.
fn wasm3_version(source: &Path) -> String {
    let header = source.join("wasm3.h");
    println!("cargo:rerun-if-changed={}", header.display());
    let text = std::fs::read_to_string(&header)
        .unwrap_or_else(|e| panic!("{}: cannot read wasm3's header: {e}", header.display()));
    let part = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("#define {name} ")))
            .map(|v| v.trim().to_string())
            .unwrap_or_else(|| panic!("{}: no {name}", header.display()))
    };
    format!(
        "{}.{}.{}",
        part("M3_VERSION_MAJOR"),
        part("M3_VERSION_MINOR"),
        part("M3_VERSION_REV")
    )
}

/// wasm3's engine files (not its own WASI, libc or tracer bindings: ours is wasi-common).
fn wasm3_files(source: &Path) -> Vec<std::path::PathBuf> {
    println!("cargo:rerun-if-changed={}", source.display());
    let mut files: Vec<_> = std::fs::read_dir(source)
        .unwrap_or_else(|e| panic!("{}: {e}", source.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".c") && !name.starts_with("m3_api_")
        })
        .collect();
    files.sort();
    files
}

/// Upstream's release flags but for LTO and `-march=native`, always optimised: the engine
/// measured must not depend on the profile wasmeter is built with.
fn wasm3_build(source: &Path) -> cc::Build {
    let mut b = cc::Build::new();
    b.include(source)
        .opt_level(3)
        .debug(false)
        .warnings(false)
        .flag_if_supported("-std=c11")
        .flag_if_supported("-fstrict-aliasing")
        .define("d_m3LogOutput", "0");
    b
}

/// wasm3 as upstream wrote it, with cap.c: what every unprofiled cell runs.
fn build_wasm3(source: &Path, cap: &Path) {
    println!("cargo:rerun-if-changed={}", cap.display());
    wasm3_build(source)
        .files(wasm3_files(source))
        .file(cap)
        .compile("wasm3");
}

/// A second wasm3 for profiled cells only: its `op_Entry` keeps a mark of the guest
/// function the thread runs (mark.c), which a profiler's thread reads. Any change to
/// m3_exec.c moves wasm3's speed (docs/profiles.md), so the vendored file stays upstream's
/// and this copy's m3_exec.c is patched here, in OUT_DIR. Every symbol the copy defines is
/// renamed with [`MARKED_PREFIX`] (binutils' nm and objcopy), so both link into one binary.
fn build_marked_wasm3(source: &Path, cap: &Path, mark: &Path) {
    println!("cargo:rerun-if-changed={}", mark.display());
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let exec = source.join("m3_exec.c");
    let text = std::fs::read_to_string(&exec)
        .unwrap_or_else(|e| panic!("{}: cannot read: {e}", exec.display()));
    let patched = mark_entry(&text)
        .unwrap_or_else(|| panic!("{}: op_Entry is not as wasmeter knows it", exec.display()));
    let marked_exec = out.join("m3_exec_marked.c");
    std::fs::write(&marked_exec, patched)
        .unwrap_or_else(|e| panic!("{}: {e}", marked_exec.display()));
    let files: Vec<_> = wasm3_files(source)
        .into_iter()
        .map(|f| if f == exec { marked_exec.clone() } else { f })
        .collect();
    let objects = wasm3_build(source)
        .out_dir(out.join("marked"))
        .files(files)
        .file(cap)
        .file(mark)
        .compile_intermediates();
    let nm = tool("NM", "nm");
    let listed = std::process::Command::new(&nm)
        .args(["--defined-only", "--extern-only", "--format=posix"])
        .args(&objects)
        .output()
        .unwrap_or_else(|e| panic!("{nm}: cannot run (binutils): {e}"));
    assert!(
        listed.status.success(),
        "{nm}: {}",
        String::from_utf8_lossy(&listed.stderr)
    );
    let mut names: Vec<String> = String::from_utf8_lossy(&listed.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| !n.ends_with(':'))
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    let map = out.join("wasm3_marked.syms");
    let text: String = names
        .iter()
        .map(|n| format!("{n} {MARKED_PREFIX}{n}\n"))
        .collect();
    std::fs::write(&map, text).unwrap_or_else(|e| panic!("{}: {e}", map.display()));
    let objcopy = tool("OBJCOPY", "objcopy");
    for o in &objects {
        let status = std::process::Command::new(&objcopy)
            .arg(format!("--redefine-syms={}", map.display()))
            .arg(o)
            .status()
            .unwrap_or_else(|e| panic!("{objcopy}: cannot run (binutils): {e}"));
        assert!(status.success(), "{objcopy}: failed on {}", o.display());
    }
    cc::Build::new()
        .out_dir(out.join("marked"))
        .objects(&objects)
        .compile("wasm3_marked");
}

/// What every symbol of the marked wasm3 starts with (ffi.rs links them by it).
const MARKED_PREFIX: &str = "wasmeter_marked_";

/// A binutils tool: `$NAME` if set, else its usual name.
fn tool(var: &str, name: &str) -> String {
    println!("cargo:rerun-if-env-changed={var}");
    std::env::var(var).unwrap_or_else(|_| name.to_string())
}

/// m3_exec.c with op_Entry keeping the mark around the function's body: the mark.c
/// thread-local set to the function on entry and the caller's put back on return.
fn mark_entry(text: &str) -> Option<String> {
    let entry = text.find("d_m3OpDef  (Entry)")?;
    let at = entry + text[entry..].find("        m3ret_t r = nextOpDirect ();")?;
    let after = at + text[at..].find('\n')? + 1;
    let mut out = String::with_capacity(text.len() + 400);
    out.push_str("extern _Thread_local void * volatile wasmeter_m3_current;\n");
    out.push_str(&text[..at]);
    out.push_str("        void * wasmeter_outer = wasmeter_m3_current;\n");
    out.push_str("        wasmeter_m3_current = function;\n");
    out.push_str(&text[at..after]);
    out.push_str("        wasmeter_m3_current = wasmeter_outer;\n");
    out.push_str(&text[after..]);
    Some(out)
}
