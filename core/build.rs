//! Records the versions of the embedded engines from Cargo.lock, so runs can name them.

fn locked_version(lock: &str, name: &str) -> Option<String> {
    let needle = format!("name = \"{name}\"\nversion = \"");
    let i = lock.find(&needle)?;
    let rest = &lock[i + needle.len()..];
    rest.find('"').map(|j| rest[..j].to_string())
}

fn main() {
    // Relative to this package, so a target dir shared by several checkouts (CI clones)
    // always tracks the lock file of the checkout being built.
    println!("cargo:rerun-if-changed=../Cargo.lock");
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let path = std::path::Path::new(&dir).join("../Cargo.lock");
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
}
