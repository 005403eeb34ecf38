//! The native baseline: runs the C build of a test as a child process.

use super::process::{exit_failure, run_process};
use super::{Failure, Iteration, Job, Phase, Runtime};

/// Runs native executables.
#[derive(Debug, Default)]
pub struct NativeRuntime;

impl Runtime for NativeRuntime {
    fn run(&self, job: &Job) -> Result<Iteration, Failure> {
        if !job.program.is_file() {
            return Err(Failure::MissingFile(job.program.display().to_string()));
        }
        let done = run_process(
            &job.program,
            &job.args,
            &job.scratch,
            Some(&job.env),
            job.stdin.as_deref(),
            job.stdout_limit,
        )?;
        if done.stdout_over {
            return Err(Failure::stdout_over(job.stdout_limit));
        }
        if let Some(f) = exit_failure(done.status) {
            return Err(f);
        }
        let mut it = Iteration::default();
        done.record(&mut it, Phase::Total);
        it.stdout = done.stdout;
        it.stderr = done.stderr;
        Ok(it)
    }
}
