//! A trivial suite kind, compiled in this crate's tests only, to show (and check) what a new
//! kind costs, as `runtime/embedded/trivial` does for an engine: its entries in the kind's
//! table (`model/suite.rs`: its word, how it runs, its shape) and its arm in the manifest's
//! dispatch (its tests are command tests, read by `command.rs`). Nothing else in wasmeter
//! names a kind: which runtimes run it follows from how it runs (`Execution`), and every
//! front end shows it from its shape (core/tests/all/kind_cost.rs holds that to
//! docs/architecture.md).

use crate::model::{Depth, Execution, Phase, Repetition, View};
use crate::suite::{Suite, SuiteKind, TestKind};

#[test]
fn a_kind_added_in_its_file_and_the_table_loads_runs_as_commands_and_has_its_shape() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hi.wasm"), b"\0asm\x01\0\0\0").unwrap();
    std::fs::write(
        dir.path().join("suite.toml"),
        "[suite]\nname = \"tiny\"\nkind = \"trivial\"\n\n[[test]]\nname = \"hi\"\nwasm = \"hi.wasm\"\n",
    )
    .unwrap();
    let suite = Suite::load(dir.path()).unwrap();
    assert_eq!(suite.kind, SuiteKind::Trivial);
    assert_eq!(suite.kind.to_string(), "trivial");
    assert!(matches!(suite.tests[0].kind, TestKind::Command(_)));
    // How it runs decides its runtimes; it is no HTTP or lifecycle kind.
    assert_eq!(suite.kind.execution(), Execution::Commands);
    assert!(!suite.kind.is_http() && !suite.kind.is_lifecycle());
    // What every front end reads to show it.
    let shape = suite.kind.shape();
    assert_eq!(
        shape.views_at(Depth::Brief).collect::<Vec<_>>(),
        [View::Matrix]
    );
    assert!(shape.has(View::Distribution) && !shape.has(View::Sizes));
    assert_eq!(
        shape.repetition,
        Repetition {
            invocations: 2,
            warmup: 0,
            runs: 2
        }
    );
    assert_eq!(shape.primary, Phase::Execute);
    assert!(shape.profiles && shape.baseline && !shape.servers);
    // It is a kind like the others: listed, and saved by its word.
    assert!(SuiteKind::ALL.contains(&SuiteKind::Trivial));
    assert_eq!(
        serde_json::to_string(&SuiteKind::Trivial).unwrap(),
        "\"trivial\""
    );
    std::fs::write(
        dir.path().join("suite.toml"),
        "[suite]\nname = \"tiny\"\nkind = \"trivia\"\n",
    )
    .unwrap();
    let e = Suite::load(dir.path()).unwrap_err().to_string();
    assert!(
        e.contains(
            "unknown suite kind 'trivia' (known: command, lifecycle, gateway, servers, trivial)"
        ),
        "{e}"
    );
}
