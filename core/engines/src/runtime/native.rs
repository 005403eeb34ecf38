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
        link_dirs(job)?;
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

/// Shows a job's host folders to a native program where the guest sees them: a relative
/// guest name as a link in its working folder (the scratch folder, the guest's `.`); an
/// absolute one only when it is the host folder itself.
pub(super) fn link_dirs(job: &Job) -> Result<(), Failure> {
    for d in &job.dirs {
        let guest = std::path::Path::new(&d.guest);
        if guest.is_absolute() {
            if guest != d.host {
                return Err(Failure::Unavailable(format!(
                    "a native program sees {} as it is, not as {}",
                    d.host.display(),
                    d.guest
                )));
            }
            continue;
        }
        let link = job.scratch.join(guest);
        if link.symlink_metadata().is_ok() {
            continue;
        }
        if let Some(parent) = link.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| Failure::Other(format!("{}: {e}", parent.display())))?;
        }
        std::os::unix::fs::symlink(&d.host, &link)
            .map_err(|e| Failure::Other(format!("{}: {e}", link.display())))?;
    }
    Ok(())
}
