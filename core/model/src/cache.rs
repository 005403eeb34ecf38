//! Where wasmeter keeps what it builds and downloads (native builds, compiled modules, built
//! suites, runtime CLIs), so that every part finds the same place.

use std::path::PathBuf;

/// wasmeter's cache: `$WASMETER_CACHE`, else `$XDG_CACHE_HOME/wasmeter`, else
/// `~/.cache/wasmeter`.
pub fn cache_root() -> PathBuf {
    std::env::var_os("WASMETER_CACHE")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("XDG_CACHE_HOME").map(|p| PathBuf::from(p).join("wasmeter")))
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/wasmeter")))
        .unwrap_or_else(|| std::env::temp_dir().join("wasmeter-cache"))
}
