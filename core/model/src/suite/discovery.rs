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
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../suites"))
}

/// Where suites built by a script register themselves: `<cache>/suites/<name>`, a link to
/// (or copy of) the directory holding the generated `suite.toml` (libsodium's lives beside
/// its build outside the repository).
pub fn generated_suites_dir() -> PathBuf {
    crate::cache::cache_root().join("suites")
}

/// All suites found under a root and among the generated ones, sorted by name.
#[derive(Debug, Clone)]
pub struct SuiteCatalog {
    /// Suites that loaded.
    pub suites: Vec<Suite>,
    /// Suites whose manifest does not load, with why: listed (as a broken saved run is)
    /// so the others still list and run; asking for one gives its error.
    pub broken: Vec<BrokenSuite>,
    /// Suites that a build script makes but that are not built yet: name and script.
    pub unbuilt: Vec<(String, PathBuf)>,
    /// Build scripts that generate their suites outside the root (no manifest beside
    /// them): the suite each is named after, and the script.
    generators: Vec<(String, PathBuf)>,
}

/// A suite whose manifest does not load.
#[derive(Debug, Clone, PartialEq)]
pub struct BrokenSuite {
    /// The name its manifest gives when that much can be read, else its folder's: what a
    /// user would ask for.
    pub name: String,
    /// Its manifest.
    pub manifest: PathBuf,
    /// Why it does not load: one line naming the manifest and, where known, the line.
    pub error: String,
}

impl BrokenSuite {
    /// The broken suite in `dir`, from the error loading its manifest.
    fn new(dir: &Path, error: &SuiteError) -> BrokenSuite {
        let manifest = dir.join("suite.toml");
        let folder = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        BrokenSuite {
            name: declared_name(&manifest).unwrap_or(folder),
            manifest,
            error: error.to_string(),
        }
    }
}

/// `[suite] name` of a manifest that is TOML, whatever else is wrong with it.
fn declared_name(manifest: &Path) -> Option<String> {
    let text = std::fs::read_to_string(manifest).ok()?;
    let table: toml::Table = toml::from_str(&text).ok()?;
    let name = table.get("suite")?.get("name")?.as_str()?.trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// Directories under `root` holding `file`, sorted.
fn dirs_with(root: &Path, file: &str) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join(file).is_file())
        .collect();
    dirs.sort();
    dirs
}

/// Suites under `root` that have a build script (`<name>/build.sh`): name and script,
/// sorted. What `wasmeter suite build` can run.
pub fn build_scripts(root: &Path) -> Vec<(String, PathBuf)> {
    dirs_with(root, "build.sh")
        .into_iter()
        .filter_map(|d| Some((d.file_name()?.to_str()?.to_string(), d.join("build.sh"))))
        .collect()
}

impl SuiteCatalog {
    /// Loads every `*/suite.toml` under `root`, then the generated suites
    /// ([`generated_suites_dir`]) whose names the root does not use. A broken manifest is
    /// listed in [`SuiteCatalog::broken`], not skipped (a user who wrote one wants to hear
    /// about it) and not fatal (one bad suite must not stop the others). Only a root that
    /// cannot be read is an error.
    pub fn discover(root: &Path) -> Result<SuiteCatalog, SuiteError> {
        Self::discover_in(root, &generated_suites_dir())
    }

    /// [`SuiteCatalog::discover`] with the generated suites taken from `generated`.
    pub fn discover_in(root: &Path, generated: &Path) -> Result<SuiteCatalog, SuiteError> {
        std::fs::read_dir(root).map_err(|source| SuiteError::Io {
            path: root.to_path_buf(),
            source,
        })?;
        let mut cat = SuiteCatalog {
            suites: Vec::new(),
            broken: Vec::new(),
            unbuilt: Vec::new(),
            generators: build_scripts(root)
                .into_iter()
                .filter(|(_, script)| !script.with_file_name("suite.toml").is_file())
                .collect(),
        };
        for dir in dirs_with(root, "suite.toml") {
            match Suite::load(&dir) {
                Ok(suite) => cat.suites.push(suite),
                Err(e) => cat.broken.push(BrokenSuite::new(&dir, &e)),
            }
        }
        // A generated suite never hides the root's own of the same name, loaded or broken.
        for dir in dirs_with(generated, "suite.toml") {
            match Suite::load(&dir) {
                Ok(suite) if !cat.has(&suite.name) => cat.suites.push(suite),
                Err(e) => {
                    let broken = BrokenSuite::new(&dir, &e);
                    if !cat.has(&broken.name) {
                        cat.broken.push(broken);
                    }
                }
                Ok(_) => {}
            }
        }
        cat.suites.sort_by(|a, b| a.name.cmp(&b.name));
        cat.broken.sort_by(|a, b| a.name.cmp(&b.name));
        // A directory with a build script and no manifest makes its suite when built.
        cat.unbuilt = cat
            .generators
            .iter()
            .filter(|(name, _)| !cat.has(name))
            .cloned()
            .collect();
        Ok(cat)
    }

    /// Whether a suite of that name was found, loaded or broken.
    fn has(&self, name: &str) -> bool {
        self.suites.iter().any(|s| s.name == name) || self.broken.iter().any(|b| b.name == name)
    }

    /// The suite called `name`, or why not: broken (its error), not built yet, or
    /// unknown (listing the known ones). A build script may make further suites, named
    /// after its own (`apps-lifecycle` is made by `apps/build.sh`).
    pub fn get(&self, name: &str) -> Result<&Suite, SuiteError> {
        if let Some(suite) = self.suites.iter().find(|s| s.name == name) {
            return Ok(suite);
        }
        if let Some(b) = self.broken.iter().find(|b| b.name == name) {
            return Err(SuiteError::Broken {
                name: b.name.clone(),
                error: b.error.clone(),
            });
        }
        let made_by = |n: &str| {
            name == n
                || name
                    .strip_prefix(n)
                    .is_some_and(|rest| rest.starts_with('-'))
        };
        if let Some((by, script)) = self.generators.iter().find(|(n, _)| made_by(n)) {
            return Err(SuiteError::NotBuilt {
                name: name.to_string(),
                by: by.clone(),
                script: script.clone(),
            });
        }
        Err(SuiteError::UnknownSuite {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn suite(dir: &Path, name: &str, description: &str) {
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src/a.c"), "").unwrap();
        std::fs::write(
            dir.join("suite.toml"),
            format!("[suite]\nname = \"{name}\"\ndescription = \"{description}\"\n[[test]]\nname = \"a\"\nsource = \"src/a.c\"\n"),
        )
        .unwrap();
    }

    #[test]
    fn generated_suites_join_the_catalog_and_unbuilt_ones_say_how_to_build() {
        let d = tempfile::tempdir().unwrap();
        let (root, generated) = (d.path().join("suites"), d.path().join("generated"));
        suite(&root.join("compute"), "compute", "repo");
        std::fs::create_dir_all(root.join("libsodium")).unwrap();
        std::fs::write(root.join("libsodium/build.sh"), "").unwrap();
        let cat = SuiteCatalog::discover_in(&root, &generated).unwrap();
        assert_eq!(cat.suites.len(), 1);
        assert_eq!(
            cat.get("libsodium").unwrap_err().to_string(),
            format!(
                "suite 'libsodium' is not built yet: run `wasmeter suite build libsodium` (runs {})",
                root.join("libsodium/build.sh").display()
            )
        );

        // Built: its manifest lives elsewhere, linked from the generated directory.
        let built = d.path().join("cache/libsodium/1.0");
        suite(&built, "libsodium", "generated");
        std::fs::create_dir_all(&generated).unwrap();
        std::os::unix::fs::symlink(&built, generated.join("libsodium")).unwrap();
        // A generated suite never hides the repository's own of the same name.
        suite(&generated.join("compute"), "compute", "generated");
        let cat = SuiteCatalog::discover_in(&root, &generated).unwrap();
        let names: Vec<(&str, &str)> = cat
            .suites
            .iter()
            .map(|s| (s.name.as_str(), s.description.as_str()))
            .collect();
        assert_eq!(names, [("compute", "repo"), ("libsodium", "generated")]);
        let s = cat.get("libsodium").unwrap();
        assert_eq!(s.dir, std::fs::canonicalize(&built).unwrap());
        // A further suite the script makes, named after it, says which build makes it;
        // a name that only starts the same way does not.
        assert_eq!(
            cat.get("libsodium-lifecycle").unwrap_err().to_string(),
            format!(
                "suite 'libsodium-lifecycle' is not built yet: run `wasmeter suite build libsodium` (runs {})",
                root.join("libsodium/build.sh").display()
            )
        );
        let e = cat.get("libsodiumx").unwrap_err().to_string();
        assert!(e.starts_with("unknown suite 'libsodiumx'"), "{e}");
        // A script that rebuilds a suite kept in the root (its manifest beside it) makes
        // no further suites.
        std::fs::write(root.join("compute/build.sh"), "").unwrap();
        let cat = SuiteCatalog::discover_in(&root, &generated).unwrap();
        let e = cat.get("compute-x").unwrap_err().to_string();
        assert!(e.starts_with("unknown suite 'compute-x'"), "{e}");
    }

    #[test]
    fn a_broken_manifest_is_listed_with_its_error_and_the_others_load() {
        let d = tempfile::tempdir().unwrap();
        let (root, generated) = (d.path().join("suites"), d.path().join("generated"));
        suite(&root.join("compute"), "compute", "fine");
        // Valid TOML naming itself, but a path that leaves the folder.
        suite(&root.join("evil-dir"), "evil", "bad");
        let evil = root.join("evil-dir/suite.toml");
        let text = std::fs::read_to_string(&evil).unwrap();
        std::fs::write(
            &evil,
            text.replace("src/a.c", "../../../../../../etc/passwd"),
        )
        .unwrap();
        // Not TOML at all: known by its folder's name.
        std::fs::create_dir_all(root.join("junk")).unwrap();
        std::fs::write(root.join("junk/suite.toml"), "[suite\nname = 1").unwrap();
        let cat = SuiteCatalog::discover_in(&root, &generated).unwrap();
        let names: Vec<&str> = cat.suites.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["compute"]);
        let why = format!(
            "{}:6: 'source' path '../../../../../../etc/passwd' leaves the suite folder: paths are relative to the suite folder and stay inside it",
            evil.display()
        );
        assert_eq!(
            cat.broken[0],
            BrokenSuite {
                name: "evil".into(),
                manifest: evil.clone(),
                error: why.clone(),
            }
        );
        let junk = root.join("junk/suite.toml");
        assert_eq!(
            (cat.broken[1].name.as_str(), &cat.broken[1].manifest),
            ("junk", &junk)
        );
        let error = &cat.broken[1].error;
        assert!(
            error.starts_with(&format!("{}:1: ", junk.display())),
            "{error}"
        );
        assert!(!error.contains('\n'), "{error}");
        assert_eq!(cat.broken.len(), 2);
        assert!(cat.get("compute").is_ok());
        assert_eq!(
            cat.get("evil").unwrap_err().to_string(),
            format!("suite 'evil' is broken: {why}")
        );
    }
}
