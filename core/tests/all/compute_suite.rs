//! The committed compute suite: known answers on the embedded runtimes, and wasm that
//! matches its sources.

use std::path::{Path, PathBuf};
use wasmeter_core::config::Config;
use wasmeter_core::runtime::{Job, instantiate, known_runtimes};
use wasmeter_core::suite::{
    Build, OutputCheck, Size, Suite, SuiteCatalog, SuiteKind, TestCase, check_output, parse_output,
};

fn suite() -> Suite {
    Suite::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/compute")).unwrap()
}

fn job(program: PathBuf, name: &str, scratch: &Path) -> Job {
    Job {
        program,
        name: name.into(),
        args: vec!["quick".into()],
        env: Vec::new(),
        scratch: scratch.to_path_buf(),
        memory_limit: 1 << 30,
        stdout_limit: 1 << 20,
        stdin: None,
        dirs: Vec::new(),
        invoke: None,
    }
}

#[test]
fn suite_has_the_required_breadth() {
    let s = suite();
    assert!(s.tests.len() >= 14, "{} tests", s.tests.len());
    let tags: Vec<&str> = s
        .tests
        .iter()
        .flat_map(|t| t.tags.iter().map(String::as_str))
        .collect();
    for tag in [
        "hashing",
        "cipher",
        "mac",
        "bignum",
        "memory-hard",
        "codec",
        "vector",
        "simd",
        "branchy",
        "alloc",
        "float",
        "string",
    ] {
        assert!(tags.contains(&tag), "no test tagged {tag}");
    }
    let simd = |t: &TestCase| match &t.guest().unwrap().build {
        Build::Source(b) => b.wasm_cflags.iter().any(|f| f == "-msimd128"),
        Build::Prebuilt { .. } | Build::Module(_) => false,
    };
    assert!(s.tests.iter().any(simd));
}

#[test]
fn every_test_gives_its_known_answer_on_every_embedded_engine() {
    let s = suite();
    let scratch = tempfile::tempdir().unwrap();
    for rt_id in ["wasmtime", "wasmer-cranelift", "wasmi", "wasm3"] {
        let info = known_runtimes(&Config::default())
            .into_iter()
            .find(|r| r.id == rt_id)
            .unwrap();
        let rt = instantiate(&info).unwrap();
        for t in &s.tests {
            let expected = std::fs::read_to_string(s.expected_path(t, Size::Quick)).unwrap();
            let ran = rt.run(&job(
                t.wasm().unwrap().to_path_buf(),
                &t.name,
                scratch.path(),
            ));
            // wasm3 0.4.7 has no SIMD: its parser stops at the first v128.
            if rt_id == "wasm3" && t.name == "matmul-simd" {
                let e = ran.err().map(|f| f.to_string()).unwrap_or_default();
                assert!(e.contains("unknown value_type"), "wasm3 × matmul-simd: {e}");
                continue;
            }
            let it = ran.unwrap_or_else(|f| panic!("{rt_id} × {}: {f}", t.name));
            let out = parse_output(&String::from_utf8_lossy(&it.stdout)).unwrap();
            assert_eq!(
                check_output(&out.answer, &expected),
                OutputCheck::Match,
                "{rt_id} × {}",
                t.name
            );
            let ns = out
                .self_time_ns
                .unwrap_or_else(|| panic!("{} does not self-time", t.name));
            assert!(ns > 1e5, "{} self-timed only {ns} ns", t.name);
        }
    }
}

#[test]
fn committed_wasm_matches_its_sources_in_every_suite() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites");
    // The repository's suites only: generated ones (libsodium's) commit no wasm.
    let no_generated = tempfile::tempdir().unwrap();
    let catalog = SuiteCatalog::discover_in(&root, no_generated.path()).unwrap();
    assert!(catalog.suites.len() >= 2);
    assert!(catalog.broken.is_empty(), "{:?}", catalog.broken);
    let have_clang = std::process::Command::new("clang-19")
        .arg("--version")
        .output()
        .is_ok();
    // Lifecycle suites generate their modules: nothing is committed or built.
    for s in catalog
        .suites
        .iter()
        .filter(|s| s.kind == SuiteKind::Command)
    {
        let lock = std::fs::read_to_string(s.dir.join("wasm/build.lock")).expect("wasm/build.lock");
        for t in &s.tests {
            let want = s.source_hash(t).unwrap();
            let line = lock
                .lines()
                .find(|l| l.split_whitespace().next() == Some(t.name.as_str()))
                .unwrap_or_else(|| panic!("{} missing from {}/wasm/build.lock", t.name, s.name));
            let got = line.split_whitespace().nth(1).unwrap_or("");
            assert_eq!(
                got, want,
                "{}/{}: wasm is stale against its sources; run suites/{}/build.sh",
                s.name, t.name, s.name
            );
            let wasm = t.wasm().unwrap();
            assert!(wasm.is_file(), "{} missing", wasm.display());
        }
        // With the toolchain present, rebuild and compare bytes (CI installs it).
        if have_clang {
            let st = std::process::Command::new("bash")
                .arg(s.dir.join("build.sh"))
                .arg("--check")
                .status()
                .unwrap();
            assert!(
                st.success(),
                "suites/{}/build.sh --check: committed wasm differs from a rebuild",
                s.name
            );
        } else {
            assert!(
                std::env::var("CI").is_err(),
                "CI must have clang-19 to check the committed wasm"
            );
        }
    }
}
