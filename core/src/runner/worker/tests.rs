//! The worker's own tests: messages across the pipe, check steps, self-timed suites.

use super::command::*;
use super::*;
use crate::runtime::NativeRuntime;
use std::os::unix::fs::PermissionsExt;

/// A profile row crosses the worker's pipe whole, hot-code offsets, code sizes and counts
/// included (a map keyed by integers did not: serde cannot read those through a tagged
/// enum).
#[test]
fn a_profile_message_reads_back_whole() {
    let counts = crate::profile::Counts {
        functions: [(
            "fe_mul".to_string(),
            crate::profile::FunctionCounts {
                entries: 3,
                calls: [("__multi3".to_string(), 64)].into(),
                ..Default::default()
            },
        )]
        .into(),
        run_ns: 9,
    };
    let row = crate::profile::ProfileRow {
        method: "m".into(),
        period_ns: 250_000,
        iterations: 1,
        stacks: [("main;fe_mul".to_string(), 7)].into(),
        functions: vec!["fe_mul".into()],
        module: Some("/x/y.wasm".into()),
        code_sha256: Some("ab".into()),
        offsets: [("fe_mul".to_string(), vec![(4, 3), (19, 4)])].into(),
        sizes: [("fe_mul".to_string(), 2848)].into(),
        counts: Some(counts),
        ..Default::default()
    };
    let msg = WorkerMsg::Profile {
        iteration: 2,
        row: Box::new(row.clone()),
    };
    let line = serde_json::to_string(&msg).unwrap();
    match serde_json::from_str::<WorkerMsg>(&line).unwrap() {
        WorkerMsg::Profile { iteration, row: r } => {
            assert_eq!(iteration, 2);
            assert_eq!(*r, row);
        }
        other => panic!("{other:?}"),
    }
}

/// A job whose program is a shell script, run natively in a scratch directory.
fn script(dir: &Path, body: &str) -> Job {
    let program = dir.join(format!("prog{}.sh", body.len()));
    std::fs::write(&program, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    let scratch = dir.join("scratch");
    std::fs::create_dir_all(&scratch).unwrap();
    Job {
        program,
        name: "t".into(),
        args: Vec::new(),
        env: Vec::new(),
        scratch,
        memory_limit: 1 << 30,
        stdout_limit: 1 << 20,
        stdin: None,
        dirs: Vec::new(),
        invoke: None,
    }
}

/// Runs `f` again while exec says "Text file busy": a script just written can be held
/// open for a moment by a child that another test thread forks.
fn busy_retry<T>(f: impl Fn() -> Result<T, Failure>) -> Result<T, Failure> {
    for _ in 0..50 {
        match f() {
            Err(Failure::Other(m)) if m.contains("Text file busy") => {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            other => return other,
        }
    }
    f()
}

fn check(dir: &Path, body: &str) -> Result<(), Failure> {
    let expected = dir.join("t.exp");
    std::fs::write(&expected, "a\nb\n").unwrap();
    let job = script(dir, body);
    let check = CheckJob {
        program: job.program.clone(),
        expected,
        result: "t.res".into(),
    };
    let out = busy_retry(|| check_step(&NativeRuntime, &job, &check));
    // The scratch directory is left as it was found.
    assert!(!job.scratch.join("t.res").exists() && !job.scratch.join("t.exp").exists());
    out
}

#[test]
fn the_check_step_compares_what_the_test_wrote() {
    let d = tempfile::tempdir().unwrap();
    // libsodium's tests read their .exp from the working directory.
    check(d.path(), "cat t.exp > t.res").unwrap();
    assert_eq!(
        check(d.path(), "printf 'a\\nc\\n' > t.res; exit 99"),
        Err(Failure::WrongOutput(
            "check: t.res line 2: expected 'b', got 'c'".into()
        ))
    );
    assert_eq!(
        check(d.path(), "cat t.exp > t.res; exit 99"),
        Err(Failure::WrongOutput(
            "check: the test reported a failed check (exit 99)".into()
        ))
    );
    // Ended early (libsodium's `_exit(0)` from a signal handler): its own pass.
    check(d.path(), "true").unwrap();
    check(d.path(), "printf 'a\\n' > t.res").unwrap();
    assert_eq!(
        check(d.path(), "printf 'x\\n' > t.res"),
        Err(Failure::WrongOutput(
            "check: t.res line 1: expected 'a', got 'x'".into()
        ))
    );
    assert_eq!(check(d.path(), "exit 3"), Err(Failure::ExitCode(3)));
}

#[test]
fn self_timed_suites_need_a_timing_and_record_the_whole_loop() {
    let d = tempfile::tempdir().unwrap();
    let cmd = CommandJob {
        self_timed_iterations: Some(5),
        ..CommandJob::default()
    };
    let run = |body: &str| {
        let job = script(d.path(), body);
        busy_retry(|| iterate(&NativeRuntime, &job, &cmd))
    };
    let values = run("echo 12000").unwrap();
    let own: Vec<f64> = values
        .iter()
        .filter(|v| v.metric == Metric::SelfNs)
        .map(|v| v.value)
        .collect();
    // 12,000 ps per iteration, 5 iterations: 60 ns.
    assert_eq!(own, vec![60.0]);
    assert_eq!(
        run("true").unwrap_err(),
        Failure::WrongOutput(
            "printed no timing (expected one integer: picoseconds per iteration)".into()
        )
    );
    assert_eq!(
        run("echo hello").unwrap_err(),
        Failure::WrongOutput(
            "expected one integer (picoseconds per iteration), got 'hello'".into()
        )
    );
}
