//! The native baseline inside the worker: the C build of a test as a shared library,
//! loaded, called and unloaded each iteration, so it can alternate with embedded engines in
//! one process (`run --pair native-dlopen,wasmtime`) and share that process's code
//! placement, CPU and moment, as tango-bench and Duet pair their arms.

use super::native::link_dirs;
use super::{Failure, Iteration, Job, LIBRARY_MAIN, Phase, Runtime};
use std::ffi::{CStr, CString, c_char, c_int};
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::time::Instant;

/// The id of the in-process native baseline.
pub const NATIVE_DLOPEN: &str = "native-dlopen";

/// Runs native tests built as shared libraries ([`super::NativeForm::Library`]).
#[derive(Debug, Default)]
pub struct NativeLibraryRuntime;

/// The renamed `main` of a library build.
type Main = unsafe extern "C" fn(c_int, *mut *mut c_char) -> c_int;

impl Runtime for NativeLibraryRuntime {
    fn run(&self, job: &Job) -> Result<Iteration, Failure> {
        if !job.program.is_file() {
            return Err(Failure::MissingFile(job.program.display().to_string()));
        }
        if !job.env.is_empty() || job.invoke.is_some() {
            return Err(Failure::Unavailable(format!(
                "{NATIVE_DLOPEN} calls a test's main inside the worker, which has no environment or export of its own to give it; use native"
            )));
        }
        link_dirs(job)?;
        let path = cstring(job.program.as_os_str().as_bytes(), &job.program)?;
        let mut argv_owned = vec![path.clone()];
        for a in &job.args {
            argv_owned.push(cstring(a.as_bytes(), &job.program)?);
        }
        let mut argv: Vec<*mut c_char> = argv_owned
            .iter()
            .map(|a| a.as_ptr().cast_mut())
            .chain(std::iter::once(std::ptr::null_mut()))
            .collect();
        let argc = c_int::try_from(argv_owned.len())
            .map_err(|_| Failure::Other("too many arguments".into()))?;

        let out_path = job.scratch.join(".native-dlopen.stdout");
        let err_path = job.scratch.join(".native-dlopen.stderr");
        let mut it = Iteration::default();
        let code = {
            let _io = Redirected::new(job, &out_path, &err_path)?;
            call(&path, &job.program, argc, &mut argv, &mut it)?
        };
        let read = |p: &Path| std::fs::read(p).unwrap_or_default();
        it.stdout = read(&out_path);
        it.stderr = read(&err_path);
        let _ = std::fs::remove_file(&out_path);
        let _ = std::fs::remove_file(&err_path);
        if it.stdout.len() > job.stdout_limit {
            return Err(Failure::stdout_over(job.stdout_limit));
        }
        if code != 0 {
            return Err(Failure::ExitCode(code));
        }
        Ok(it)
    }
}

/// A path or argument as a C string; an inner NUL byte is the job's error.
fn cstring(bytes: &[u8], program: &Path) -> Result<CString, Failure> {
    CString::new(bytes)
        .map_err(|_| Failure::Other(format!("{}: a NUL byte in an argument", program.display())))
}

/// Loads the library, calls its main and unloads it: load, execute and unload timed as
/// instantiate, execute and teardown, the whole as total. A fresh load each iteration gives
/// the test fresh static data, as a fresh process or instance would.
#[allow(unsafe_code)]
fn call(
    path: &CStr,
    program: &Path,
    argc: c_int,
    argv: &mut [*mut c_char],
    it: &mut Iteration,
) -> Result<c_int, Failure> {
    let whole = Instant::now();
    let t = Instant::now();
    // SAFETY: `path` is a NUL-terminated string that outlives the call; RTLD_LOCAL keeps
    // the library's symbols out of the worker's namespace.
    let handle = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    if handle.is_null() {
        return Err(Failure::Other(format!(
            "{}: cannot load: {}",
            program.display(),
            dl_error()
        )));
    }
    it.wall(Phase::Instantiate, t.elapsed());
    let name = CString::new(LIBRARY_MAIN).expect("no NUL in the entry name");
    // SAFETY: `handle` is a live handle from dlopen and `name` a NUL-terminated string.
    let sym = unsafe { libc::dlsym(handle, name.as_ptr()) };
    if sym.is_null() {
        // SAFETY: `handle` is live and closed once.
        unsafe { libc::dlclose(handle) };
        return Err(Failure::Other(format!(
            "{}: no {LIBRARY_MAIN} (not a {NATIVE_DLOPEN} build of a C test)",
            program.display()
        )));
    }
    // SAFETY: a library build renames the test's C `main(int, char **)` to this symbol.
    let main: Main = unsafe { std::mem::transmute::<*mut libc::c_void, Main>(sym) };
    // A profiled cell samples the call, its library still mapped when the sampler stops.
    let sampled = crate::profile::start_here();
    let t = Instant::now();
    // SAFETY: argv holds argc NUL-terminated strings and a final null, alive for the call,
    // as C's main expects; the test runs single-threaded in this thread.
    let code = unsafe { main(argc, argv.as_mut_ptr()) };
    // SAFETY: flushing every C stream is always allowed; the test's printf buffers go to
    // the redirected descriptors before they are restored.
    unsafe { libc::fflush(std::ptr::null_mut()) };
    it.wall(Phase::Execute, t.elapsed());
    if let Some(s) = sampled {
        s.stop();
    }
    let t = Instant::now();
    // SAFETY: `handle` is live and closed once; nothing of the library is used after.
    unsafe { libc::dlclose(handle) };
    it.wall(Phase::Teardown, t.elapsed());
    it.wall(Phase::Total, whole.elapsed());
    Ok(code)
}

/// The last dynamic-linker error, as text.
#[allow(unsafe_code)]
fn dl_error() -> String {
    // SAFETY: dlerror returns null or a NUL-terminated string valid until the next call.
    let e = unsafe { libc::dlerror() };
    if e.is_null() {
        return "unknown error".into();
    }
    // SAFETY: non-null from dlerror: a valid C string.
    unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned()
}

/// The test's standard streams and working folder while it runs in the worker: stdin from
/// the job's file (else nothing), stdout and stderr into files, the scratch folder as the
/// current directory. Dropping it puts the worker's own back.
struct Redirected {
    saved: [(c_int, c_int); 3],
    cwd: std::path::PathBuf,
}

impl Redirected {
    #[allow(unsafe_code)]
    fn new(job: &Job, out: &Path, err: &Path) -> Result<Redirected, Failure> {
        let io = |p: &Path, e: std::io::Error| Failure::Other(format!("{}: {e}", p.display()));
        let stdin = match &job.stdin {
            Some(p) => {
                std::fs::File::open(p).map_err(|_| Failure::MissingFile(p.display().to_string()))?
            }
            None => std::fs::File::open("/dev/null").map_err(|e| io(Path::new("/dev/null"), e))?,
        };
        let stdout = std::fs::File::create(out).map_err(|e| io(out, e))?;
        let stderr = std::fs::File::create(err).map_err(|e| io(err, e))?;
        let cwd = std::env::current_dir().map_err(|e| io(Path::new("."), e))?;
        std::env::set_current_dir(&job.scratch).map_err(|e| io(&job.scratch, e))?;
        let mut saved = [(0, -1), (1, -1), (2, -1)];
        for ((fd, keep), file) in saved.iter_mut().zip([&stdin, &stdout, &stderr]) {
            // SAFETY: dup and dup2 act on descriptors this process owns; the copy is
            // restored and closed on drop, and `file` outlives the dup2.
            unsafe {
                *keep = libc::dup(*fd);
                libc::dup2(file.as_raw_fd(), *fd);
            }
        }
        Ok(Redirected { saved, cwd })
    }
}

impl Drop for Redirected {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        for (fd, keep) in self.saved {
            if keep >= 0 {
                // SAFETY: `keep` is this process's copy of `fd` from `new`, closed once.
                unsafe {
                    libc::dup2(keep, fd);
                    libc::close(keep);
                }
            }
        }
        let _ = std::env::set_current_dir(&self.cwd);
    }
}
