//! How a module given as it is runs (`wasmeter run FILE.wasm`, or a manifest's module
//! test): its arguments, environment, stdin, expected output, preopened folders, the export
//! it calls and its native build.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// How a module given as it is runs: what `wasmeter run FILE.wasm` was told, or a
/// manifest's module test says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModuleRun {
    /// Arguments after the program name (after the function's name with `invoke`).
    pub args: Vec<String>,
    /// Environment variables the guest gets (`--env K=V`).
    pub env: Vec<(String, String)>,
    /// A file the guest reads as its stdin (`--stdin FILE`).
    pub stdin: Option<PathBuf>,
    /// The output every runtime must print (`--expect FILE`).
    pub expect: Option<PathBuf>,
    /// Host folders the guest sees besides its scratch folder (`--dir HOST[::GUEST]`).
    pub dirs: Vec<Preopen>,
    /// An exported function called instead of `_start` (`--invoke NAME`), its arguments
    /// the [`ModuleRun::args`] and its results printed one a line.
    pub invoke: Option<String>,
    /// A native build of the same program, run with the same arguments, environment and
    /// stdin as the baseline (`--native PROGRAM`).
    pub native: Option<PathBuf>,
}

/// A host folder a guest sees under a name of its own: a WASI preopen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preopen {
    /// The folder on the host (absolute).
    pub host: PathBuf,
    /// The name the guest opens it by.
    pub guest: String,
}

impl Preopen {
    /// Parses `HOST[::GUEST]` (the guest name is HOST as written when not given); the host
    /// folder must exist. The error names the folder.
    pub fn parse(spec: &str) -> Result<Preopen, String> {
        let (host, guest) = match spec.split_once("::") {
            Some((h, g)) => (h, g.to_string()),
            None => (spec, spec.to_string()),
        };
        if host.is_empty() || guest.is_empty() {
            return Err(format!("--dir takes HOST[::GUEST], not '{spec}'"));
        }
        let meta = std::fs::metadata(host).map_err(|e| format!("{host}: {e}"))?;
        if !meta.is_dir() {
            return Err(format!("{host}: not a folder (--dir preopens folders)"));
        }
        let host = std::fs::canonicalize(host).map_err(|e| format!("{host}: {e}"))?;
        Ok(Preopen { host, guest })
    }

    /// `HOST::GUEST`, as a manifest's `dirs` and `--dir` write it.
    pub fn spec(&self) -> String {
        format!("{}::{}", self.host.display(), self.guest)
    }
}
