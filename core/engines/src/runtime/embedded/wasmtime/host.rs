//! A job's host side, the same for a core module and a component: its WASI context, its
//! memory cap, and what a wasmtime error means for the cell.

use crate::runtime::{Failure, Job};
use wasmtime::{StoreLimits, StoreLimitsBuilder};
use wasmtime_wasi::p2::pipe::{MemoryInputPipe, MemoryOutputPipe};
use wasmtime_wasi::{FsPerms, WasiCtxBuilder};

/// A job's WASI context so far (arguments with the test's name first, environment, stdin,
/// the scratch folder as `.` and the host folders), the same for a core module (preview 1)
/// and a component (preview 2); with the captured stdout and stderr.
pub(super) fn wasi_builder(
    job: &Job,
) -> Result<(WasiCtxBuilder, MemoryOutputPipe, MemoryOutputPipe), Failure> {
    let stdout = MemoryOutputPipe::new(job.stdout_limit);
    let stderr = MemoryOutputPipe::new(1 << 20);
    let mut b = WasiCtxBuilder::new();
    let mut argv = vec![job.name.clone()];
    argv.extend(job.args.iter().cloned());
    b.args(&argv).stdout(stdout.clone()).stderr(stderr.clone());
    // File I/O on this thread, as the wasmtime CLI does: else each read is a round trip
    // through tokio's blocking pool, which made a module reading 5.4 MB measure 94 ms on
    // embedded wasmtime against 30 ms on the CLI (the harness measured, not the engine).
    b.allow_blocking_current_thread(true);
    for (k, v) in &job.env {
        b.env(k, v);
    }
    if let Some(p) = &job.stdin {
        let bytes = std::fs::read(p).map_err(|_| Failure::MissingFile(p.display().to_string()))?;
        b.stdin(MemoryInputPipe::new(bytes));
    }
    b.preopened_dir(&job.scratch, ".", FsPerms::ReadWrite)
        .map_err(|e| Failure::Other(format!("{}: {e:#}", job.scratch.display())))?;
    for d in &job.dirs {
        b.preopened_dir(&d.host, &d.guest, FsPerms::ReadWrite)
            .map_err(|e| Failure::Other(format!("{}: {e:#}", d.host.display())))?;
    }
    Ok((b, stdout, stderr))
}

/// The job's memory cap; a refused memory.grow ends the cell as out of memory instead of
/// leaving the guest to limp on with a NULL from malloc.
pub(super) fn store_limits(job: &Job) -> StoreLimits {
    StoreLimitsBuilder::new()
        .memory_size(usize::try_from(job.memory_limit).unwrap_or(usize::MAX))
        .trap_on_grow_failure(true)
        .build()
}

/// What a wasmtime error means for the cell: out of memory at the cap, a trap, or other.
pub(super) fn classify(e: wasmtime::Error) -> Failure {
    let msg = format!("{e:#}");
    if msg.contains("forcing trap when growing memory") || msg.contains("memory minimum size") {
        // The line that says it, not the backtrace around it.
        let line = msg
            .split([':', '\n'])
            .map(str::trim)
            .find(|l| l.contains("forcing trap") || l.contains("memory minimum size"))
            .unwrap_or(&msg);
        return Failure::OutOfMemory(format!("linear memory over the cap ({line})"));
    }
    if let Some(trap) = e.downcast_ref::<wasmtime::Trap>() {
        return Failure::Trap(trap.to_string());
    }
    Failure::Other(msg)
}
