//! A test double for measuring wasmeter itself at scale (issue 10): a plan of
//! `runtimes × tests` cells whose worker is a shell script that reports one measurement and
//! exits. Each cell is still a real process through the real runner; no engine runs, so what
//! is measured is the runner, the store and the UIs. Never offered as a runtime: it exists
//! only in the tests, benches and examples that construct it, with the `testing` feature.

use super::Plan;
use crate::runtime::WorkerCommand;
use crate::runtime::{RuntimeInfo, RuntimeKind};
use crate::store::RunSettings;
use crate::suite::{Build, CommandTest, Guest, Suite, TestCase, TestKind};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// What the stand-in worker prints for its cell: one iteration of 1 µs self-timed execute.
const WORKER: &str = "#!/bin/sh\ncat >/dev/null\n\
    echo '{\"type\":\"started\",\"iteration\":0}'\n\
    echo '{\"type\":\"iteration\",\"iteration\":0,\"warmup\":false,\"values\":[{\"phase\":\"execute\",\"metric\":\"self_ns\",\"value\":1000}]}'\n\
    echo '{\"type\":\"done\"}'\n";

/// A plan of `runtimes × tests` stand-in cells (`native`, `rt001`…; `t000`…), one run each,
/// and the worker that answers them, written into `dir`.
pub fn stand_in_run(
    dir: &Path,
    runtimes: usize,
    tests: usize,
) -> std::io::Result<(Plan, WorkerCommand)> {
    let worker = dir.join("stand-in-worker.sh");
    std::fs::write(&worker, WORKER)?;
    std::fs::set_permissions(&worker, std::fs::Permissions::from_mode(0o755))?;
    let runtimes = (0..runtimes)
        .map(|i| RuntimeInfo {
            id: if i == 0 {
                "native".into()
            } else {
                format!("rt{i:03}")
            },
            kind: RuntimeKind::Embedded,
            version: "0".into(),
            config: "stand-in".into(),
            unavailable: None,
            hint: None,
            command: None,
        })
        .collect();
    // Prebuilt tests need no answer file or build: the stand-in never opens them.
    let tests: Vec<TestCase> = (0..tests)
        .map(|i| {
            let guest = Guest {
                wasm: dir.join("none.wasm"),
                build: Build::Prebuilt {
                    native: dir.join("none"),
                    sized: false,
                    wasm_error: None,
                    native_error: None,
                },
            };
            TestCase::new(
                format!("t{i:03}"),
                TestKind::Command(CommandTest { guest, check: None }),
            )
        })
        .collect();
    let plan = Plan {
        suite: Suite {
            name: "scale".into(),
            dir: dir.to_path_buf(),
            tests: tests.clone(),
            ..Default::default()
        },
        tests,
        runtimes,
        settings: RunSettings {
            timeout_secs: 10,
            ..RunSettings::new(1, 1)
        },
        label: None,
        skipped: Vec::new(),
        not_applicable: Vec::new(),
    };
    Ok((
        plan,
        WorkerCommand {
            program: worker,
            args: Vec::new(),
        },
    ))
}
