//! The WASI preview 1 context of the interpreters (wasmi, wasm3): wasi-common's `WasiCtx`,
//! built the same way for both, so a guest sees the same arguments, environment,
//! directory and output limits on either. Compiled with either engine's feature.

use crate::runtime::{Failure, Job};
use std::io::Write;
use std::sync::{Arc, RwLock};
use wasmeter_http::guest::GuestCall;
use wasmi_wasi::wasi_common::pipe::{ReadPipe, WritePipe};
use wasmi_wasi::{WasiCtx, WasiCtxBuilder, ambient_authority};

/// Most bytes a gateway guest may answer with.
pub const REPLY_LIMIT: usize = 16 << 20;

/// Captured output that refuses to grow past its limit: the guest's write fails, and the
/// cell fails as over the limit, as on the other engines.
pub struct Capped {
    bytes: Vec<u8>,
    limit: usize,
}

impl Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = self.limit.saturating_sub(self.bytes.len());
        if room == 0 && !buf.is_empty() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::StorageFull,
                "output limit reached",
            ));
        }
        let n = buf.len().min(room);
        self.bytes.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Output a guest writes, shared with its pipe.
pub type Output = Arc<RwLock<Capped>>;

/// Output captured in memory up to `limit` bytes: the shared buffer, and the pipe the
/// guest writes to.
fn capture(limit: usize) -> (Output, Box<WritePipe<Capped>>) {
    let shared = Arc::new(RwLock::new(Capped {
        bytes: Vec::new(),
        limit,
    }));
    (shared.clone(), Box::new(WritePipe::from_shared(shared)))
}

/// What the guest wrote so far.
pub fn take(c: &Output) -> Vec<u8> {
    std::mem::take(&mut c.write().unwrap_or_else(|p| p.into_inner()).bytes)
}

/// A command job's context: its arguments (the test's name first) and environment, its
/// scratch directory preopened as `.` and its host folders under their guest names, stdout captured up to the job's limit and stderr up
/// to 1 MiB. Returns the context and the two outputs.
pub fn for_job(job: &Job) -> Result<(WasiCtx, Output, Output), Failure> {
    let (stdout, stdout_pipe) = capture(job.stdout_limit);
    let (stderr, stderr_pipe) = capture(1 << 20);
    let mut b = WasiCtxBuilder::new();
    let mut argv = vec![job.name.clone()];
    argv.extend(job.args.iter().cloned());
    b.args(&argv).map_err(|e| Failure::Other(e.to_string()))?;
    b.envs(&job.env)
        .map_err(|e| Failure::Other(e.to_string()))?;
    b.stdout(stdout_pipe).stderr(stderr_pipe);
    if let Some(p) = &job.stdin {
        let bytes = std::fs::read(p).map_err(|_| Failure::MissingFile(p.display().to_string()))?;
        b.stdin(Box::new(ReadPipe::from(bytes)));
    }
    let scratch = wasmi_wasi::Dir::open_ambient_dir(&job.scratch, ambient_authority())
        .map_err(|e| Failure::Other(format!("{}: {e}", job.scratch.display())))?;
    b.preopened_dir(scratch, ".")
        .map_err(|e| Failure::Other(format!("{}: {e}", job.scratch.display())))?;
    for d in &job.dirs {
        let dir = wasmi_wasi::Dir::open_ambient_dir(&d.host, ambient_authority())
            .map_err(|e| Failure::Other(format!("{}: {e}", d.host.display())))?;
        b.preopened_dir(dir, &d.guest)
            .map_err(|e| Failure::Other(format!("{}: {e}", d.host.display())))?;
    }
    Ok((b.build(), stdout, stderr))
}

/// A gateway request's context: the request on stdin, the reply captured from stdout.
pub fn for_call(call: &GuestCall) -> Result<(WasiCtx, Output), String> {
    let (stdout, stdout_pipe) = capture(REPLY_LIMIT);
    let mut b = WasiCtxBuilder::new();
    b.args(&call.argv()).map_err(|e| e.to_string())?;
    b.stdin(Box::new(ReadPipe::from(call.stdin.clone())))
        .stdout(stdout_pipe);
    Ok((b.build(), stdout))
}
