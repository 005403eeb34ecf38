//! The `features` suite's probes: each committed module is its `.wat` source, valid with
//! every proposal on, and uses its feature (invalid with just that one off), so a runtime's
//! ✗ is about the feature and not the probe. Which runtimes pass which probe is tested end
//! to end by app's `features` tests, through the real workers.

use std::path::{Path, PathBuf};
use wasmeter_core::features::{PROPOSALS, used_by};
use wasmeter_core::suite::{WasmHeader, serves_http};
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
                    matches!(
                        name.as_str(),
                        "component-model" | "wasi-p2-command" | "wasi-http-proxy"
                    ),
                    "{name}"
                );
                // Only the proxy probe is a server's guest, run by serving it a request.
                assert_eq!(serves_http(&bytes), name == "wasi-http-proxy", "{name}");
                // A component needs the component model, which names a failed cell.
                let uses: &[&str] = if component { &["component-model"] } else { &[] };
                assert_eq!(used_by(&bytes), uses, "{name}");
            }
        }
    }
}

/// What a probe printed on wasmi, or the engine's error: `config` says which proposals it
/// takes, and `without`, if given, is a WASI call the host answers with ENOSYS (52), as a
/// WASI that lacks the call does (wasm3's CLI for `fd_readdir` and `poll_oneoff`).
fn on_wasmi(config: &wasmi::Config, bytes: &[u8], without: Option<&str>) -> Result<String, String> {
    use std::sync::{Arc, RwLock};
    use wasmi::{Engine, ExternType, Linker, Module, Store, Val};
    use wasmi_wasi::wasi_common::pipe::WritePipe;
    let engine = Engine::new(config);
    let module = Module::new(&engine, bytes).map_err(|e| e.to_string())?;
    let mut linker = Linker::new(&engine);
    wasmi_wasi::add_to_linker(&mut linker, |c: &mut wasmi_wasi::WasiCtx| c)
        .map_err(|e| e.to_string())?;
    if let Some(call) = without {
        let ty = module
            .imports()
            .find(|i| i.name() == call)
            .and_then(|i| match i.ty() {
                ExternType::Func(ty) => Some(ty.clone()),
                _ => None,
            })
            .unwrap_or_else(|| panic!("the probe does not import {call}"));
        linker.allow_shadowing(true);
        linker
            .func_new(
                "wasi_snapshot_preview1",
                call,
                ty,
                |_, _, out: &mut [Val]| {
                    out[0] = Val::I32(52);
                    Ok(())
                },
            )
            .map_err(|e| e.to_string())?;
    }
    let out = Arc::new(RwLock::new(Vec::new()));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a"), "a").unwrap();
    let mut b = wasmi_wasi::WasiCtxBuilder::new();
    b.stdout(Box::new(WritePipe::from_shared(out.clone())));
    let preopen =
        wasmi_wasi::Dir::open_ambient_dir(dir.path(), wasmi_wasi::ambient_authority()).unwrap();
    b.preopened_dir(preopen, ".").unwrap();
    let mut store = Store::new(&engine, b.build());
    let instance = linker
        .instantiate_and_start(&mut store, &module)
        .map_err(|e| e.to_string())?;
    instance
        .get_typed_func::<(), ()>(&store, "_start")
        .and_then(|f| f.call(&mut store, ()))
        .map_err(|e| e.to_string())?;
    drop(store);
    let printed = out.read().unwrap().clone();
    Ok(String::from_utf8_lossy(&printed).into_owned())
}

/// wasmi with one proposal off, for each probe of a proposal wasmi implements and can
/// switch (`wasmi::Config::wasm_*`): a real engine that lacks just that feature, and the
/// words its validator then refuses the probe with.
fn wasmi_without(probe: &str) -> Option<(wasmi::Config, &'static str)> {
    type Switch = fn(&mut wasmi::Config, bool) -> &mut wasmi::Config;
    let (off, words): (Switch, &str) = match probe {
        "sign-extension" => (wasmi::Config::wasm_sign_extension, "sign extension"),
        "non-trapping-float-to-int" => (
            wasmi::Config::wasm_saturating_float_to_int,
            "saturating float to int",
        ),
        "multi-value" => (wasmi::Config::wasm_multi_value, "multi-value"),
        "bulk-memory" => (wasmi::Config::wasm_bulk_memory, "bulk memory"),
        "reference-types" => (wasmi::Config::wasm_reference_types, "reference types"),
        "tail-calls" => (wasmi::Config::wasm_tail_call, "tail calls"),
        "extended-const" => (
            wasmi::Config::wasm_extended_const,
            "constant expression required",
        ),
        "multi-memory" => (wasmi::Config::wasm_multi_memory, "multiple memories"),
        "simd" => (wasmi::Config::wasm_simd, "SIMD support"),
        "relaxed-simd" => (wasmi::Config::wasm_relaxed_simd, "relaxed SIMD"),
        _ => return None,
    };
    let mut c = wasmi::Config::default();
    off(&mut c, false);
    Some((c, words))
}

/// The proposals every runtime here passes (sign-extension, non-trapping float-to-int: no
/// runtime installed here predates WebAssembly 2.0) still have a "not" side: wasmi with
/// that one proposal off refuses the probe, in the validator's words, and with it on (its
/// default, wasmi's README: github.com/wasmi-labs/wasmi#webassembly-proposals) prints ok.
#[test]
fn each_proposal_probe_runs_on_wasmi_and_is_refused_with_its_proposal_off() {
    let mut checked = Vec::new();
    for (name, bytes) in probes() {
        let Some((off, words)) = wasmi_without(&name) else {
            continue;
        };
        assert_eq!(
            on_wasmi(&wasmi::Config::default(), &bytes, None).as_deref(),
            Ok("ok\n"),
            "{name} on wasmi"
        );
        let e = on_wasmi(&off, &bytes, None).expect_err(&format!("{name} without it"));
        assert!(e.contains(words), "{name}: {e}");
        checked.push(name);
    }
    assert_eq!(checked.len(), 10, "{checked:?}");
}

/// The WASI probes and the MVP control print ok on a WASI that answers their call, and
/// nothing on one that lacks it (answers ENOSYS): a ✗ there is the call's, not the probe's.
#[test]
fn each_wasi_probe_prints_ok_only_when_its_call_answers() {
    let calls = [
        ("mvp", "fd_write"),
        ("wasi-clocks", "clock_time_get"),
        ("wasi-random", "random_get"),
        ("wasi-fd-readdir", "fd_readdir"),
        ("wasi-poll", "poll_oneoff"),
    ];
    let probes = probes();
    for (probe, call) in calls {
        let (_, bytes) = probes.iter().find(|(n, _)| n == probe).unwrap();
        let config = wasmi::Config::default();
        assert_eq!(
            on_wasmi(&config, bytes, None).as_deref(),
            Ok("ok\n"),
            "{probe}"
        );
        assert_eq!(
            on_wasmi(&config, bytes, Some(call)).as_deref(),
            Ok(""),
            "{probe} without {call}"
        );
    }
    let preview1 = probes
        .iter()
        .filter(|(n, b)| n.starts_with("wasi-") && WasmHeader::of(b) == Some(WasmHeader::Module))
        .count();
    assert_eq!(preview1, calls.len() - 1, "a WASI probe not checked here");
}
