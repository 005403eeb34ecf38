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
        build_wasm3(
            &wasm3,
            &Path::new(&dir).join("src/runtime/embedded/wasm3/cap.c"),
        );
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

/// wasm3's engine files (not its own WASI, libc or tracer bindings: ours is wasi-common)
/// with upstream's release flags but for LTO and `-march=native`, always optimised: the
/// engine measured must not depend on the profile wasmeter is built with.
fn build_wasm3(source: &Path, cap: &Path) {
    println!("cargo:rerun-if-changed={}", source.display());
    println!("cargo:rerun-if-changed={}", cap.display());
    let mut files: Vec<_> = std::fs::read_dir(source)
        .unwrap_or_else(|e| panic!("{}: {e}", source.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".c") && !name.starts_with("m3_api_")
        })
        .collect();
    files.sort();
    cc::Build::new()
        .files(files)
        .file(cap)
        .include(source)
        .opt_level(3)
        .debug(false)
        .warnings(false)
        .flag_if_supported("-std=c11")
        .flag_if_supported("-fstrict-aliasing")
        .define("d_m3LogOutput", "0")
        .compile("wasm3");
}
