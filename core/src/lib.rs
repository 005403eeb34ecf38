//! wasmeter-core: everything that is not a screen.
//!
//! Suites are parsed from manifests ([`suite`]), run on runtimes ([`runtime`]) by the
//! [`runner`] in isolated worker processes that are sampled live ([`sample`]), saved as
//! they go ([`store`]), summarised ([`analysis`]), explained function by function
//! ([`profile`], [`explain`]), and shown as tables ([`table`]) whose figures are written one
//! way everywhere ([`format`]).
//!
//! Core is five crates, each layer importing only those below it (docs/architecture.md):
//! `wasmeter-model` (vocabulary, suites, config, samples, store), `wasmeter-profile`,
//! `wasmeter-engines` (the runtimes), `wasmeter-report` (analysis, tables, exports) and this
//! one, which runs suites: the runner, the HTTP suites ([`http_suites`], on the HTTP kit
//! [`http`]), the instance life cycle, and the run in flight as front ends show it
//! ([`live`]). It
//! re-exports the others' modules, so front ends name everything as `wasmeter_core::…`.

pub mod http_suites;
pub mod lifecycle;
pub mod live;
pub mod runner;

pub use wasmeter_engines::runtime;
/// The HTTP kit (codec, server, load generator, guest protocol) the HTTP suites run on.
pub use wasmeter_http as http;
pub use wasmeter_model::{
    VERSION, cache, config, format, machine, model, random, sample, store, suite, text,
};
pub use wasmeter_profile::profile;
#[cfg(feature = "parquet")]
pub use wasmeter_report::history;
pub use wasmeter_report::{analysis, explain, export, features, table};

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// Core's crates, as README's layout names their folders.
    const CRATES: [&str; 5] = [
        "core/",
        "core/model/",
        "core/profile/",
        "core/engines/",
        "core/report/",
    ];

    /// The modules of a crate's src: its folders and its `.rs` files but lib.rs.
    fn modules(krate: &str) -> Vec<String> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(krate)
            .join("src");
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

    /// The modules README's layout section names under a crate's folder (`core/model/`): the
    /// first word (`name/` or `name.rs`) of each indented line after the line that starts
    /// with that folder.
    fn readme_modules(readme: &str, krate: &str) -> Vec<String> {
        let layout: Vec<&str> = readme
            .lines()
            .skip_while(|l| *l != "## Layout")
            .take_while(|l| !l.starts_with("## ") || *l == "## Layout")
            .collect();
        let mut names: Vec<String> = layout
            .iter()
            .skip_while(|l| l.split_whitespace().next() != Some(krate))
            .skip(1)
            .skip_while(|l| l.starts_with("          "))
            .take_while(|l| l.starts_with("  ") && !l.starts_with("          "))
            .filter_map(|l| l.split_whitespace().next())
            .map(|word| {
                let name = word.strip_suffix('/').or_else(|| word.strip_suffix(".rs"));
                name.unwrap_or_else(|| panic!("README layout: `{word}` is no module of {krate}"))
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
        for krate in CRATES {
            let modules = modules(krate);
            assert!(!modules.is_empty(), "{krate}: {modules:?}");
            // Both ways: no module left out, none listed that is gone.
            assert_eq!(
                readme_modules(&readme, krate),
                modules,
                "README's layout section (under `{krate}`) against {krate}src"
            );
        }
    }

    #[test]
    fn readme_modules_are_read_from_the_layout_block_only() {
        let readme = "## Layout\n\n```\napp/ x\ncore/     y:\n          more of y\n  a/   z\n  b.rs w\n\
                      core/fuzz/ f\n   cont\ncore/m/ n:\n  c/ d\n```\n\n## Other\n\ncore/ q\n  e/ no\n";
        assert_eq!(readme_modules(readme, "core/"), ["a", "b"]);
        assert_eq!(readme_modules(readme, "core/m/"), ["c"]);
    }
}
