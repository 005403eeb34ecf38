//! `--measure instructions`: a second opinion that noise cannot move. These VMs expose no
//! hardware counters, so the worker of an embedded runtime runs under Valgrind's callgrind,
//! which counts the instructions executed inside the execute phase only (the guest's
//! `_start`, JIT code included: Valgrind translates generated code like any other), as
//! CodSpeed and iai-callgrind do. The count is callgrind's total when the worker exits,
//! over its iterations (callgrind 3.19 writes no per-call dumps for a Rust function here),
//! so each invocation gives one value: instructions per iteration. CLI runtimes and native
//! run outside Valgrind (their processes would be traced whole, start-up included), so they
//! keep their times.

use crate::runtime::WorkerCommand;
use std::path::{Path, PathBuf};

/// The function that brackets the execute phase of every embedded engine; callgrind counts
/// only while inside it.
pub const REGION: &str = "wasmeter_measured_region";

/// The callgrind output inside a cell's directory.
const OUT: &str = "callgrind.out";

/// Where Valgrind is, or why it cannot be used.
pub fn valgrind() -> Result<PathBuf, String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join("valgrind"))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            "--measure instructions needs Valgrind on PATH (Debian package valgrind)".into()
        })
}

/// The worker command run under callgrind, writing its dumps into `dir`.
pub fn wrap(valgrind: &Path, worker: &WorkerCommand, dir: &Path) -> WorkerCommand {
    let mut args = vec![
        "--tool=callgrind".to_string(),
        "--quiet".into(),
        "--collect-atstart=no".into(),
        format!("--toggle-collect=*{REGION}*"),
        format!("--callgrind-out-file={}", dir.join(OUT).display()),
        // Code the engines generate at run time is re-translated when rewritten.
        "--smc-check=all-non-file".into(),
        worker.program.display().to_string(),
    ];
    args.extend(worker.args.iter().cloned());
    WorkerCommand {
        program: valgrind.to_path_buf(),
        args,
    }
}

/// The instructions callgrind counted in the region over a worker's life, read (and
/// removed) after it exited; `None` without a count.
pub fn take_total(dir: &Path) -> Option<f64> {
    let path = dir.join(OUT);
    let total = std::fs::read_to_string(&path)
        .ok()
        .and_then(|text| parse_total(&text));
    let _ = std::fs::remove_file(&path);
    total
}

/// The `totals:` (or `summary:`) line of a callgrind dump: instructions executed (Ir).
fn parse_total(text: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse::<u64>().ok())
        .map(|n| n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_total_and_clears_it() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(
            d.path().join(OUT),
            "version: 1\ncmd: x\nevents: Ir\nfn=(1) f\n3 5\ntotals: 250\n",
        )
        .unwrap();
        assert_eq!(take_total(d.path()), Some(250.0));
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
        assert_eq!(take_total(d.path()), None);
        assert_eq!(parse_total("summary: 42\n"), Some(42.0));
        assert_eq!(parse_total("events: Ir\n"), None);
        let w = wrap(
            Path::new("/usr/bin/valgrind"),
            &WorkerCommand {
                program: "/bin/wasmeter".into(),
                args: vec!["worker".into()],
            },
            d.path(),
        );
        assert_eq!(w.program, Path::new("/usr/bin/valgrind"));
        assert_eq!(&w.args[w.args.len() - 2..], ["/bin/wasmeter", "worker"]);
        assert!(w.args.contains(&format!("--toggle-collect=*{REGION}*")));
    }
}
