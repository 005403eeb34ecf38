//! The `features` suite's probes: each committed module is its `.wat` source, valid with
//! every proposal on, and uses its feature (invalid with just that one off), so a runtime's
//! ✗ is about the feature and not the probe. Which runtimes pass which probe is tested end
//! to end by app's `features` tests, through the real workers.

use std::path::{Path, PathBuf};
use wasmeter_core::features::{PROPOSALS, used_by};
use wasmeter_core::suite::WasmHeader;
use wasmparser::{Validator, WasmFeatures};

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/features")
}

/// Each probe's name and its bytes as compiled now from `probes/NAME.wat`.
fn probes() -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(suite_dir().join("probes"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "wat"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            let bytes = wat::parse_file(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (name, bytes)
        })
        .collect();
    v.sort();
    v
}

/// The proposal a probe is about (core's table, which failed cells are explained by);
/// `None` for the MVP control and the WASI calls.
fn feature(name: &str) -> Option<WasmFeatures> {
    let known = PROPOSALS.iter().find(|(p, _)| *p == name).map(|(_, f)| *f);
    if known.is_none() {
        assert!(
            name == "mvp" || name == "component-model" || name.starts_with("wasi-"),
            "probe {name} has no proposal in core's table: add it"
        );
    }
    known
}

fn valid(bytes: &[u8], features: WasmFeatures) -> Result<(), String> {
    Validator::new_with_features(features)
        .validate_all(bytes)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

#[test]
fn every_probe_is_its_source_and_every_test_of_the_suite_a_probe() {
    let bless = std::env::var_os("WASMETER_BLESS").is_some();
    let manifest = std::fs::read_to_string(suite_dir().join("suite.toml")).unwrap();
    let probes = probes();
    assert!(probes.len() >= 20, "{} probes", probes.len());
    for (name, bytes) in &probes {
        let wasm = suite_dir().join(format!("wasm/{name}.wasm"));
        if bless {
            std::fs::write(&wasm, bytes).unwrap();
        }
        let committed = std::fs::read(&wasm).unwrap_or_default();
        assert!(
            committed == *bytes,
            "{} is not probes/{name}.wat compiled (WASMETER_BLESS=1 rewrites it)",
            wasm.display()
        );
        assert!(
            manifest.contains(&format!("name = \"{name}\"")),
            "suite.toml has no test {name}"
        );
    }
    assert_eq!(
        manifest.matches("[[test]]").count(),
        probes.len(),
        "a test without a probe"
    );
}

#[test]
fn every_probe_is_valid_and_uses_its_feature() {
    for (name, bytes) in probes() {
        valid(&bytes, WasmFeatures::all()).unwrap_or_else(|e| panic!("{name}: {e}"));
        match feature(&name) {
            Some(f) => {
                let e = valid(&bytes, WasmFeatures::all() - f)
                    .expect_err(&format!("{name} validates without its feature"));
                assert!(!e.is_empty(), "{name}");
                assert!(used_by(&bytes).contains(&name.as_str()), "{name}");
            }
            // The MVP control and the WASI probes need no proposal at all; the component
            // probes the component model alone, around MVP core modules.
            None => {
                let component = WasmHeader::of(&bytes) == Some(WasmHeader::Component);
                let base = if component {
                    WasmFeatures::WASM1 | WasmFeatures::COMPONENT_MODEL
                } else {
                    WasmFeatures::WASM1
                };
                valid(&bytes, base).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(
                    component,
                    name == "component-model" || name == "wasi-p2-command",
                    "{name}"
                );
                // A component needs the component model, which names a failed cell.
                let uses: &[&str] = if component { &["component-model"] } else { &[] };
                assert_eq!(used_by(&bytes), uses, "{name}");
            }
        }
    }
}
