//! Records the versions of the embedded engines from Cargo.lock, so runs can name them.

fn locked_version(lock: &str, name: &str) -> String {
    let needle = format!("name = \"{name}\"\nversion = \"");
    lock.find(&needle)
        .and_then(|i| {
            let rest = &lock[i + needle.len()..];
            rest.find('"').map(|j| rest[..j].to_string())
        })
        .unwrap_or_else(|| "unknown".to_string())
}

fn main() {
    let lock_path = concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock");
    println!("cargo:rerun-if-changed={lock_path}");
    let lock = std::fs::read_to_string(lock_path).unwrap_or_default();
    for (krate, var) in [
        ("wasmtime", "WASMETER_WASMTIME_VERSION"),
        ("wasmer", "WASMETER_WASMER_VERSION"),
    ] {
        println!("cargo:rustc-env={var}={}", locked_version(&lock, krate));
    }
}
