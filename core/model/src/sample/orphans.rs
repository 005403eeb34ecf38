//! A runtime CLI's grandchildren that outlive it (a killed CLI, a wrapper that forked) are
//! reparented to init, which reaps them: their CPU time never reaches wasmeter's
//! `getrusage`, so the load meter counted it as *other* processes' load, and a diff could
//! leave out an invocation for load that wasmeter itself caused. As the child subreaper
//! of its tree, a headless run adopts them instead and reaps them after each invocation,
//! so their time is its own (`RUSAGE_CHILDREN`).

/// Makes this process the reaper of its orphaned descendants. Only for a process whose
/// children are all the runner's (the headless `wasmeter run`): [`reap`] waits for any
/// zombie child, which would steal the exit status of another thread's child.
#[allow(unsafe_code)]
pub fn adopt_orphans() -> bool {
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes an integer flag and has no memory
    // effects.
    unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 }
}

/// Whether this process adopts its orphaned descendants ([`adopt_orphans`]).
#[allow(unsafe_code)]
pub fn adopts_orphans() -> bool {
    let mut flag: libc::c_int = 0;
    // SAFETY: PR_GET_CHILD_SUBREAPER writes one int through the pointer it is given.
    let ok = unsafe {
        libc::prctl(
            libc::PR_GET_CHILD_SUBREAPER,
            &mut flag as *mut libc::c_int as libc::c_ulong,
            0,
            0,
            0,
        )
    };
    ok == 0 && flag != 0
}

/// Reaps every child of this process that has ended (adopted orphans, once the worker that
/// owned them has been waited for); returns how many. Nothing unless [`adopt_orphans`]
/// was called.
#[allow(unsafe_code)]
pub fn reap() -> usize {
    if !adopts_orphans() {
        return 0;
    }
    let mut n = 0;
    loop {
        let mut status = 0;
        // SAFETY: waitpid writes the status into the int it is given.
        let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if pid <= 0 {
            return n;
        }
        n += 1;
    }
}

/// This process's children, as every thread's `/proc/self/task/*/children` lists them
/// (an orphan is adopted by one of the subreaper's threads).
pub fn children() -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
        .flat_map(|s| {
            s.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}

/// Reaps child `pid` if it has ended; whether it was.
#[allow(unsafe_code)]
pub fn reap_one(pid: u32) -> bool {
    let mut status = 0;
    // SAFETY: waitpid writes the status into the int it is given.
    unsafe { libc::waitpid(pid as libc::pid_t, &mut status, libc::WNOHANG) == pid as libc::pid_t }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_reaped_unless_orphans_are_adopted() {
        // The unit-test harness runs tests on threads that spawn children: it must never
        // adopt, and then reaping does nothing.
        assert!(!adopts_orphans());
        assert_eq!(reap(), 0);
    }
}
