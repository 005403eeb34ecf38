//! A trivial embedded engine, compiled in this crate's tests only, to show (and check) what
//! adding an engine takes: this folder, one word in `engines!` (embedded/mod.rs), and, for
//! an engine with a crate of its own, its Cargo feature. It runs command suites on wasmi's
//! interpreter under an id of its own, so it rides on wasmi's feature, and takes no part in
//! the others.

use super::{Embedded, EmbeddedEngine, Feature, Preset, Registration};
use crate::profile::Method;
use crate::suite::Execution;

/// The engine, in its one configuration.
#[derive(Debug, Clone, Copy)]
pub struct Trivial;

/// Its registration: one preset, no settings.
pub const ENGINE: Registration = Registration {
    presets: &[Preset {
        id: "trivial",
        make: || Embedded::new(Trivial),
        description: "a test's engine: wasmi's interpreter under another id",
    }],
    settings: None,
};

impl EmbeddedEngine for Trivial {
    fn version(&self) -> &'static str {
        "0.0.1"
    }

    fn feature(&self) -> Feature {
        Feature {
            name: "wasmi",
            on: cfg!(feature = "wasmi"),
        }
    }

    fn not_for(&self, how: Execution) -> Option<&'static str> {
        match how {
            Execution::Commands => None,
            Execution::InProcess | Execution::PerRequest | Execution::ServerPrograms => {
                Some("the trivial engine runs command suites only")
            }
        }
    }

    fn profile_method(&self) -> Method {
        Method::EngineUnnamed {
            why: "the trivial engine interprets".into(),
            pooled: crate::profile::symbols::Outside::Engine,
            marked: false,
        }
    }

    #[cfg(feature = "wasmi")]
    fn runtime(&self) -> Result<Box<dyn crate::runtime::Runtime>, crate::runtime::Failure> {
        Ok(Box::new(super::wasmi::Wasmi::new(
            super::wasmi::WasmiTranslation::Eager,
        )?))
    }
}

#[cfg(all(test, feature = "wasmi"))]
mod tests {
    use crate::config::Config;
    use crate::runtime::registry::{applies_to, instantiate, known_runtimes};
    use crate::runtime::{Job, RuntimeKind};
    use crate::suite::SuiteKind;
    use std::path::Path;

    /// Registered by its folder and one word, the engine is a runtime like the others:
    /// listed with its version and description, applicable where it says, and running a
    /// real guest through the worker's path.
    #[test]
    fn an_engine_registered_in_one_line_is_listed_applied_and_runs() {
        let known = known_runtimes(&Config::default());
        let info = known.iter().find(|r| r.id == "trivial").expect("listed");
        assert_eq!(info.kind, RuntimeKind::Embedded);
        assert_eq!(info.version, "0.0.1");
        assert_eq!(
            info.config,
            "a test's engine: wasmi's interpreter under another id"
        );
        assert!(info.available(), "{:?}", info.unavailable);
        assert_eq!(applies_to(info, SuiteKind::Command), Ok(()));
        assert_eq!(
            applies_to(info, SuiteKind::Lifecycle).unwrap_err(),
            "the trivial engine runs command suites only"
        );

        let tmp = tempfile::tempdir().unwrap();
        let program = tmp.path().join("hi.wasm");
        let wasm = crate::runtime::hello_guest("hi from trivial\n");
        std::fs::write(&program, wasm).unwrap();
        let job = Job::plain(program, "hi", tmp.path());
        let out = instantiate(info).unwrap().run(&job).unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "hi from trivial\n");
    }

    /// The engine's name appears nowhere in the crate's code but its folder and the one
    /// line that registers it: adding an engine touches nothing else.
    #[test]
    fn the_engine_is_named_only_in_its_folder_and_its_registration() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let folder = src.join("runtime/embedded/trivial");
        let mut code = Vec::new();
        let mut stack = vec![src];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    if path != folder {
                        stack.push(path);
                    }
                } else if path.extension().is_some_and(|x| x == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    code.extend(
                        text.lines()
                            .map(str::trim)
                            .filter(|l| l.contains("trivial") && !l.starts_with("//"))
                            .map(|l| format!("{}: {l}", path.display())),
                    );
                }
            }
        }
        assert_eq!(code.len(), 1, "{code:#?}");
        assert!(
            code[0].ends_with("engines!(wasmtime, wasmer, wasmi, wasm3; tests only: trivial);"),
            "{code:#?}"
        );
    }
}
