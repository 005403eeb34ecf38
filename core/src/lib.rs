//! wasmeter-core: everything that is not a screen.
//!
//! Suites are parsed from manifests ([`suite`]), run on runtimes ([`runtime`]) by the
//! [`runner`] in isolated worker processes that are sampled live ([`sample`]), saved as
//! they go ([`store`]), summarised ([`analysis`]), explained function by function
//! ([`profile`]), and shown as tables ([`table`]) whose figures are written one way
//! everywhere ([`format`]).

pub mod analysis;
pub mod cache;
pub mod config;
pub mod explain;
pub mod export;
pub mod features;
pub mod format;
#[cfg(feature = "parquet")]
pub mod history;
pub mod http;
pub mod lifecycle;
pub mod machine;
pub mod model;
pub mod profile;
pub mod random;
pub mod runner;
pub mod runtime;
pub mod sample;
pub mod store;
pub mod suite;
pub mod table;
pub(crate) mod text;

/// Version of wasmeter itself, recorded with every run.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The modules of core/src: its folders and its `.rs` files but lib.rs.
    fn modules() -> Vec<String> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut names: Vec<String> = std::fs::read_dir(&src)
            .unwrap_or_else(|e| panic!("{}: {e}", src.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .filter_map(|path| {
                let name = path.file_name()?.to_str()?.to_string();
                if path.is_dir() {
                    Some(name)
                } else {
                    name.strip_suffix(".rs")
                        .filter(|stem| *stem != "lib")
                        .map(str::to_string)
                }
            })
            .collect();
        names.sort();
        names
    }

    /// The modules README's layout section names under `core/`: the first word (`name/` or
    /// `name.rs`) of each indented line after the `core/` line.
    fn readme_modules(readme: &str) -> Vec<String> {
        let layout: Vec<&str> = readme
            .lines()
            .skip_while(|l| *l != "## Layout")
            .take_while(|l| !l.starts_with("## ") || *l == "## Layout")
            .collect();
        let mut names: Vec<String> = layout
            .iter()
            .skip_while(|l| !l.starts_with("core/ "))
            .skip(1)
            .take_while(|l| l.starts_with(' '))
            .filter_map(|l| l.split_whitespace().next())
            .map(|word| {
                let name = word.strip_suffix('/').or_else(|| word.strip_suffix(".rs"));
                name.unwrap_or_else(|| panic!("README layout: `{word}` is no core module"))
                    .to_string()
            })
            .collect();
        names.sort();
        names
    }

    #[test]
    fn readme_layout_names_every_core_module() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md");
        let readme = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let modules = modules();
        assert!(modules.len() >= 10, "{modules:?}");
        // Both ways: no module left out, none listed that is gone.
        assert_eq!(
            readme_modules(&readme),
            modules,
            "README's layout section (under `core/`) against core/src"
        );
    }

    #[test]
    fn readme_modules_are_read_from_the_layout_block_only() {
        let readme = "## Layout\n\n```\napp/ x\ncore/     y:\n  a/   z\n  b.rs w\n\
                      core/fuzz/ f\n   cont\n```\n\n## Other\n\ncore/ q\n  c/ no\n";
        assert_eq!(readme_modules(readme), ["a", "b"]);
    }
}
