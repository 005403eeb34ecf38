//! The committed compute suite: known answers on the embedded runtimes, and wasm that
//! matches its sources.

use std::path::{Path, PathBuf};
use wasmeter_core::config::Config;
use wasmeter_core::runtime::{Job, instantiate, known_runtimes};
use wasmeter_core::store::PairOf;
use wasmeter_core::suite::{
    Build, OutputCheck, Size, Suite, SuiteCatalog, SuiteKind, TestCase, check_output, parse_output,
};

fn suite() -> Suite {
    Suite::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/compute")).unwrap()
}

fn job(program: PathBuf, name: &str, scratch: &Path) -> Job {
    Job {
        args: vec!["quick".into()],
        ..Job::plain(program, name, scratch)
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
    // Lifecycle suites generate their modules and servers suites build theirs into the
    // cache: nothing is committed for them. The features suite's probes are checked
    // against their .wat sources by the features tests.
    for s in catalog.suites.iter().filter(|s| {
        matches!(s.kind, SuiteKind::Command | SuiteKind::Gateway)
            && s.name != wasmeter_core::features::SUITE
    }) {
        let lock = std::fs::read_to_string(s.dir.join("wasm/build.lock")).expect("wasm/build.lock");
        for t in &s.tests {
            let want = s.build_hash(t).unwrap();
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
            // The gateway's wasi:http component, from its C source and bindings.
            let component = s.dir.join("build-component.sh");
            if component.is_file() {
                let st = std::process::Command::new("bash")
                    .arg(&component)
                    .arg("--check")
                    .status()
                    .unwrap();
                assert!(
                    st.success(),
                    "suites/{}/build-component.sh --check: committed component differs from a rebuild",
                    s.name
                );
            }
        } else {
            assert!(
                std::env::var("CI").is_err(),
                "CI must have clang-19 to check the committed wasm"
            );
        }
    }
}

/// The plan of `--pair a,b[,c]` over the compute suite's first three tests on three embedded
/// runtimes.
fn paired_plan(pair: &[&str], tests: &[&str]) -> Result<wasmeter_core::runner::Plan, String> {
    use wasmeter_core::runner::{Plan, RunChoices, RunRequest};
    Plan::new(RunRequest::from_choices(
        suite(),
        RunChoices {
            tests: tests.iter().map(|t| t.to_string()).collect(),
            runtimes: vec!["wasmtime".into(), "wasmtime-pooling".into(), "wasmi".into()],
            invocations: Some(5),
            seed: Some(42),
            pair: Some(pair.iter().map(|a| a.to_string()).collect()),
            ..RunChoices::default()
        },
        Config::default(),
    ))
    .map_err(|e| e.to_string())
}

/// The cells of one round of a schedule, in the order they run.
fn round_of(schedule: &[(usize, u32)], round: u32) -> Vec<usize> {
    schedule
        .iter()
        .filter(|(_, r)| *r == round)
        .map(|(c, _)| *c)
        .collect()
}

#[test]
fn paired_arms_run_side_by_side_in_every_round() {
    let names: Vec<String> = suite()
        .tests
        .iter()
        .take(3)
        .map(|t| t.name.clone())
        .collect();
    let tests: Vec<&str> = names.iter().map(String::as_str).collect();
    // Two runtimes: each test's wasmtime and wasmtime-pooling invocations of a round are
    // adjacent, in both orders over the run; every cell runs once a round.
    let plan = paired_plan(&["wasmtime", "wasmtime-pooling"], &tests).unwrap();
    assert_eq!(
        plan.settings.pair,
        Some(vec!["wasmtime".to_string(), "wasmtime-pooling".to_string()])
    );
    // Decided once, saved with the run: the arms are runtimes (issue 61).
    assert_eq!(plan.settings.pair_of, Some(PairOf::Runtimes));
    let cells = plan.cells();
    let s = plan.schedule();
    assert_eq!(s.len(), cells.len() * 5);
    let (mut a_first, mut b_first) = (0, 0);
    for round in 0..5u32 {
        let order = round_of(&s, round);
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(
            sorted,
            (0..cells.len()).collect::<Vec<_>>(),
            "round {round}"
        );
        for t in &tests {
            let at = |rt: &str| {
                order
                    .iter()
                    .position(|c| cells[*c].0.id == rt && cells[*c].1.name == *t)
                    .unwrap()
            };
            let (a, b) = (at("wasmtime"), at("wasmtime-pooling"));
            assert_eq!(a.abs_diff(b), 1, "round {round}, {t}: {order:?}");
            if a < b {
                a_first += 1;
            } else {
                b_first += 1;
            }
        }
    }
    assert!(a_first > 0 && b_first > 0, "{a_first} vs {b_first}");
    // Two tests: each runtime's cells of the two tests are adjacent.
    let plan = paired_plan(&[tests[0], tests[2]], &tests).unwrap();
    assert_eq!(plan.settings.pair_of, Some(PairOf::Tests));
    let cells = plan.cells();
    let s = plan.schedule();
    for round in 0..5u32 {
        let order = round_of(&s, round);
        for rt in ["wasmtime", "wasmtime-pooling", "wasmi"] {
            let at = |t: &str| {
                order
                    .iter()
                    .position(|c| cells[*c].0.id == rt && cells[*c].1.name == t)
                    .unwrap()
            };
            assert_eq!(at(tests[0]).abs_diff(at(tests[2])), 1, "{rt}: {order:?}");
        }
    }
    // Three arms, named as the group `embedded`: each test's three cells run as one block
    // every round, in an order drawn per round, so each arm leads in some round.
    let plan = paired_plan(&["embedded"], &tests).unwrap();
    let arms = ["wasmtime", "wasmtime-pooling", "wasmi"];
    assert_eq!(
        plan.settings.pair,
        Some(arms.iter().map(|a| a.to_string()).collect())
    );
    let cells = plan.cells();
    let groups = plan.pair_groups().unwrap();
    let s = plan.schedule();
    let mut led = std::collections::BTreeSet::new();
    for round in 0..5u32 {
        let order = round_of(&s, round);
        for t in &tests {
            let mut at: Vec<usize> = arms
                .iter()
                .map(|rt| {
                    order
                        .iter()
                        .position(|c| cells[*c].0.id == *rt && cells[*c].1.name == *t)
                        .unwrap()
                })
                .collect();
            let lead = arms[(0..3).min_by_key(|&k| at[k]).unwrap()];
            led.insert(lead);
            at.sort();
            assert_eq!(at[2] - at[0], 2, "round {round}, {t}: {order:?}");
            // Every arm's group is the test's three cells.
            let c = order[at[0]];
            assert_eq!(groups[c].len(), 3);
            assert!(groups[c].iter().all(|&x| cells[x].1.name == *t));
        }
    }
    assert_eq!(led.len(), 3, "{led:?}");
    // Bad arms: one line each.
    for (pair, want) in [
        (
            &["wasmtime", "wasmtime"][..],
            "--pair needs different arms, got 'wasmtime' twice",
        ),
        (
            &["wasmtime", tests[0]][..],
            "--pair takes runtimes or tests of the run, all of one kind",
        ),
        (
            &["wasmtime"][..],
            "--pair needs two or more arms, got 'wasmtime'",
        ),
    ] {
        let e = paired_plan(pair, &tests).unwrap_err();
        assert!(e.contains(want), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}

#[test]
fn a_cell_left_out_as_not_applicable_is_never_scheduled_and_its_partner_runs_alone() {
    let names: Vec<String> = suite()
        .tests
        .iter()
        .take(2)
        .map(|t| t.name.clone())
        .collect();
    let tests: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut plan = paired_plan(&["wasmtime", "wasmtime-pooling"], &tests).unwrap();
    let all = plan.cells().len();
    plan.not_applicable
        .push(wasmeter_core::store::NotApplicable {
            runtime: "wasmtime-pooling".into(),
            test: Some(tests[1].into()),
            why: "a test double's reason".into(),
        });
    let cells = plan.cells();
    assert_eq!(cells.len(), all - 1);
    assert!(
        !cells
            .iter()
            .any(|(r, t)| r.id == "wasmtime-pooling" && t.name == tests[1])
    );
    let at = |rt: &str, t: &str| {
        cells
            .iter()
            .position(|(r, x)| r.id == rt && x.name == t)
            .unwrap()
    };
    let groups = plan.pair_groups().unwrap();
    let mut pair = vec![at("wasmtime", tests[0]), at("wasmtime-pooling", tests[0])];
    pair.sort();
    assert_eq!(groups[at("wasmtime", tests[0])], pair);
    assert!(groups[at("wasmtime", tests[1])].is_empty());
    assert!(groups[at("wasmi", tests[1])].is_empty());
    // Every remaining cell once a round, the left-out one never.
    let s = plan.schedule();
    assert_eq!(s.len(), cells.len() * 5);
    for round in 0..5u32 {
        let mut order = round_of(&s, round);
        order.sort();
        assert_eq!(order, (0..cells.len()).collect::<Vec<_>>(), "round {round}");
    }
}

#[test]
fn a_run_that_names_no_runtimes_leaves_the_in_process_native_out() {
    use wasmeter_core::runner::{Plan, RunChoices, RunRequest};
    let plan = |runtimes: Vec<String>| {
        Plan::new(RunRequest::from_choices(
            suite(),
            RunChoices {
                tests: vec!["nbody".into()],
                runtimes,
                skip_missing: true,
                ..RunChoices::default()
            },
            Config::default(),
        ))
        .unwrap()
    };
    let ids = |p: &Plan| -> Vec<String> { p.runtimes.iter().map(|r| r.id.clone()).collect() };
    let default = ids(&plan(Vec::new()));
    assert!(
        default.contains(&"native".to_string()) && !default.iter().any(|r| r == "native-dlopen"),
        "{default:?}"
    );
    let named = ids(&plan(vec!["native-dlopen".into(), "wasmtime".into()]));
    assert_eq!(named, ["native-dlopen", "wasmtime"]);
}
