//! Paths in a manifest are relative to the suite folder and stay inside it: an absolute
//! path, a `..` that climbs out, or a symbolic link that leads out is refused, naming the
//! field. A suite is something a user may have downloaded; it must not point wasmeter at
//! `/etc/passwd` or another user's files.

use super::{Manifest, SuiteError};
use std::path::{Component, Path, PathBuf};
use toml::Spanned;

impl Manifest<'_> {
    /// The path a field names, inside the suite folder; it need not exist yet (a module
    /// its build script makes).
    pub(super) fn inside(
        &self,
        field: &str,
        value: &Spanned<String>,
    ) -> Result<PathBuf, SuiteError> {
        let raw = value.get_ref();
        resolve(&self.dir, raw).map_err(|why| {
            self.err(
                value.span().start,
                format!("'{field}' path '{raw}' {why}: paths are relative to the suite folder and stay inside it"),
            )
        })
    }

    /// The file a field names, inside the suite folder, which must exist; `what` names it
    /// in the error when it does not ("source file").
    pub(super) fn existing(
        &self,
        field: &str,
        value: &Spanned<String>,
        what: &str,
    ) -> Result<PathBuf, SuiteError> {
        let path = self.inside(field, value)?;
        if path.is_file() {
            Ok(path)
        } else {
            Err(self.err(
                value.span().start,
                format!("{what} '{}' does not exist", value.get_ref()),
            ))
        }
    }
}

/// `rel` joined to `dir`, or how it leaves `dir`: by being absolute, by `..`, or (where
/// the file, or the deepest folder on its way, exists) through a symbolic link.
fn resolve(dir: &Path, rel: &str) -> Result<PathBuf, String> {
    let path = Path::new(rel);
    // Folders below the suite folder so far: a `..` with none climbs out.
    let mut inner = PathBuf::new();
    for c in path.components() {
        match c {
            Component::Prefix(_) | Component::RootDir => return Err("is absolute".into()),
            Component::CurDir => {}
            Component::ParentDir => {
                if !inner.pop() {
                    return Err("leaves the suite folder".into());
                }
            }
            Component::Normal(part) => inner.push(part),
        }
    }
    let joined = dir.join(path);
    // Where it really is, links and `..` resolved by the system: the file itself when it
    // exists, else the deepest existing folder on its way.
    let real = joined
        .ancestors()
        .take_while(|a| a.starts_with(dir))
        .find_map(|a| std::fs::canonicalize(a).ok());
    let root = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    match real {
        Some(real) if !real.starts_with(&root) => Err(format!(
            "leads outside the suite folder (through a symbolic link, to {})",
            real.display()
        )),
        _ => Ok(joined),
    }
}

#[cfg(test)]
mod tests {
    use super::resolve;
    use std::path::Path;

    #[test]
    fn paths_stay_inside_the_suite_folder() {
        let d = tempfile::tempdir().unwrap();
        let dir = std::fs::canonicalize(d.path()).unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src/a.c"), "").unwrap();
        std::fs::write(outside.path().join("secret"), "").unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.join("out")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), dir.join("src/s.c")).unwrap();
        std::os::unix::fs::symlink(dir.join("src/a.c"), dir.join("in.c")).unwrap();

        assert_eq!(resolve(&dir, "src/a.c"), Ok(dir.join("src/a.c")));
        assert_eq!(
            resolve(&dir, "src/../src/a.c"),
            Ok(dir.join("src/../src/a.c"))
        );
        assert_eq!(
            resolve(&dir, "./wasm/new.wasm"),
            Ok(dir.join("./wasm/new.wasm"))
        );
        // A link that stays inside is fine.
        assert_eq!(resolve(&dir, "in.c"), Ok(dir.join("in.c")));
        assert_eq!(resolve(&dir, "/etc/passwd"), Err("is absolute".into()));
        assert_eq!(
            resolve(&dir, "../../../../../../etc/passwd"),
            Err("leaves the suite folder".into())
        );
        assert_eq!(
            resolve(&dir, "src/../../x"),
            Err("leaves the suite folder".into())
        );
        let real = std::fs::canonicalize(outside.path()).unwrap();
        let link = |p: &Path| {
            format!(
                "leads outside the suite folder (through a symbolic link, to {})",
                p.display()
            )
        };
        assert_eq!(resolve(&dir, "src/s.c"), Err(link(&real.join("secret"))));
        assert_eq!(resolve(&dir, "out/secret"), Err(link(&real.join("secret"))));
        // Not there yet, but its folder is a link out, or `..` climbs out of a link.
        assert_eq!(resolve(&dir, "out/new/x.wasm"), Err(link(&real)));
        let above = std::fs::canonicalize(real.parent().unwrap()).unwrap();
        assert_eq!(resolve(&dir, "out/../new.wasm"), Err(link(&above)));
    }
}
