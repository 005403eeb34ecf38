//! Finding suites on disk: every directory with a `suite.toml` under the suites root.

use super::{Suite, SuiteError};
use std::path::{Path, PathBuf};

/// The suites root: env `WASMETER_SUITES`, else `./suites`, else the copy an installed
/// package ships (`<exe>/../lib/wasmeter/suites`), else the one this binary was built from
/// (so `cargo run` works from anywhere in the checkout).
pub fn default_suites_dir() -> PathBuf {
    if let Some(p) = std::env::var_os("WASMETER_SUITES") {
        return PathBuf::from(p);
    }
    let has_suites = |d: &Path| d.join("compute").join("suite.toml").is_file();
    let local = PathBuf::from("suites");
    if has_suites(&local) {
        return local;
    }
    let packaged = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("lib/wasmeter/suites")));
    if let Some(p) = packaged.filter(|p| has_suites(p)) {
        return p;
    }
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../suites"))
}

/// All suites found under a root, sorted by name.
#[derive(Debug, Clone)]
pub struct SuiteCatalog {
    /// Suites that loaded.
    pub suites: Vec<Suite>,
}

impl SuiteCatalog {
    /// Loads every `*/suite.toml` under `root`. A broken manifest is an error, not skipped:
    /// a user who wrote one wants to hear about it.
    pub fn discover(root: &Path) -> Result<SuiteCatalog, SuiteError> {
        let entries = std::fs::read_dir(root).map_err(|source| SuiteError::Io {
            path: root.to_path_buf(),
            source,
        })?;
        let mut dirs: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("suite.toml").is_file())
            .collect();
        dirs.sort();
        let suites = dirs
            .iter()
            .map(|d| Suite::load(d))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(SuiteCatalog { suites })
    }

    /// The suite called `name`, or an error listing the known ones.
    pub fn get(&self, name: &str) -> Result<&Suite, SuiteError> {
        self.suites
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| SuiteError::UnknownSuite {
                name: name.to_string(),
                known: self
                    .suites
                    .iter()
                    .map(|s| s.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}
