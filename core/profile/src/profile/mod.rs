//! Profiles: where a cell's execute phase spends its time, function by function, so that
//! engines and native meet on one key, the function's name. The worker samples the
//! execute phase ([`sampler`]: the kernel's software CPU clock, no code changed), names
//! each sample ([`symbols`]: the engine's perf map, the native build's symbols) and sends
//! one [`ProfileRow`] per invocation as folded stacks; the run keeps them in
//! `profiles.jsonl`; [`explain`] joins them by name across runtimes, the one model every
//! front end shows.
//!
//! Which runtimes can be attributed, and how, is the runner's profiler's to say
//! (`runner::profiler`): this module knows samples and names, not runtimes.

pub mod checks;
pub mod code;
pub mod counts;
pub mod marks;
pub mod names;
pub mod sampler;
pub mod symbols;

use sampler::{Capture, Mapping, Sampler, Target};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;
use symbols::{Frame, Outside, Resolver};

pub use crate::store::{
    CodeChecks, Counts, FunctionCounts, PROFILES_FILE, ProfileRow, read_profiles,
};

/// How often a profiled thread is sampled a second of its own CPU time when the run does
/// not say: each sample is a timer interrupt, which costs a KVM guest about 20 µs (2 % of
/// the guest's time at 1 kHz, 8 % at 4 kHz: docs/profiles.md).
pub const DEFAULT_HZ: u32 = 1000;
/// The slowest rate `--profile` takes.
pub const MIN_HZ: u32 = 10;
/// The fastest rate `--profile` takes (every 100 µs).
pub const MAX_HZ: u32 = 10_000;

/// Fewer samples than this cannot rank functions: a profile says so.
pub const MIN_SAMPLES: u64 = 200;

/// What the run asks of each cell's worker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileSpec {
    /// Sampling period, nanoseconds of the sampled thread's CPU time.
    pub period_ns: u64,
}

impl ProfileSpec {
    /// Sampling `hz` times a second of CPU time.
    pub fn at_hz(hz: u32) -> ProfileSpec {
        ProfileSpec {
            period_ns: 1_000_000_000 / u64::from(hz.max(1)),
        }
    }
}

impl Default for ProfileSpec {
    fn default() -> ProfileSpec {
        ProfileSpec::at_hz(DEFAULT_HZ)
    }
}

/// How a runtime's execute phase is profiled: by sampling (and which code it names), or
/// not at all, with why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Method {
    /// An engine in the worker that writes a perf map of the code it compiles.
    EnginePerfMap(&'static str),
    /// A CLI runtime's process, asked on its command line for a perf map (the engine's
    /// name): the whole process is sampled, start-up and compilation included.
    CliPerfMap(&'static str),
    /// A native build: a child process (`false`) or a library in the worker (`true`),
    /// named by its symbols.
    NativeSymbols {
        /// Loaded into the worker (`native-dlopen`).
        in_worker: bool,
    },
    /// An engine in the worker whose machine code has no function names (why), sampled all
    /// the same: the samples that pool under `pooled` (an interpreter's loop, Singlepass's
    /// unnamed code) are put on functions by the engine's own mark of the function it runs
    /// ([`marks`]), where it keeps one, else by a counting run ([`counts`]).
    EngineUnnamed {
        /// Why its code has no names.
        why: String,
        /// The pseudo-frame its guest's samples land in.
        pooled: symbols::Outside,
        /// The engine marks the guest function it runs (wasm3).
        marked: bool,
    },
    /// No attribution to functions is possible: why.
    Unattributed(String),
}

impl Method {
    /// Words for [`ProfileRow::method`].
    pub fn describe(&self, period: Duration) -> String {
        let clock = format!("software CPU clock every {} µs", period.as_micros().max(1));
        match self {
            Method::EnginePerfMap(engine) => {
                format!("{clock}, named by {engine}'s perf map (the module's name section)")
            }
            Method::CliPerfMap(engine) => format!(
                "{clock} of the runtime's main thread from exec to exit (start-up and compilation are the engine's), named by {engine}'s perf map (the module's name section)"
            ),
            Method::NativeSymbols { in_worker: false } => {
                format!("{clock}, named by the native build's symbols")
            }
            Method::NativeSymbols { in_worker: true } => {
                format!("{clock}, named by the loaded library's symbols")
            }
            Method::EngineUnnamed {
                why,
                pooled,
                marked: false,
            } => format!(
                "{clock}; {why}, so its {} samples are put on functions by the instructions each executed in a counting run of the module (docs/profiles.md)",
                pooled.label()
            ),
            Method::EngineUnnamed {
                why,
                pooled,
                marked: true,
            } => format!(
                "{clock}; {why}, so its {} samples are put on functions by the guest function the engine marked itself in, read by a second thread at the same rate (docs/profiles.md)",
                pooled.label()
            ),
            Method::Unattributed(why) => format!("not attributable: {why}"),
        }
    }
}

static PERF_MAPS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Asks the engines this process makes from now on to write perf maps: a profiled worker
/// (one cell per process) says so before it makes its runtime (an embedded engine's
/// configuration, or a CLI runtime's flag, which the profiler adds). Child processes' maps
/// are then removed once they have ended.
pub fn want_perf_maps() {
    PERF_MAPS.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether engines made now write perf maps.
pub fn perf_maps_wanted() -> bool {
    PERF_MAPS.load(std::sync::atomic::Ordering::Relaxed)
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// What the samplers of one iteration collected on this thread.
#[derive(Default)]
struct Session {
    period: Duration,
    captures: Vec<(Capture, u32)>,
    marks: BTreeMap<u32, u64>,
    failure: Option<String>,
}

/// What a closed session collected.
#[derive(Debug, Default)]
pub struct Closed {
    /// Each capture with the pid it sampled.
    pub captures: Vec<(Capture, u32)>,
    /// CPU nanoseconds under an interpreter's mark by function index ([`marks`]); empty
    /// for any other engine.
    pub marks: BTreeMap<u32, u64>,
}

/// Opens a profile session on this thread: the execute phases run on it until
/// [`close_session`] are sampled.
pub fn open_session(period: Duration) {
    SESSION.with(|s| {
        *s.borrow_mut() = Some(Session {
            period,
            ..Session::default()
        })
    });
}

/// Closes the session: what it collected, or why sampling failed.
pub fn close_session() -> Result<Closed, String> {
    let session = SESSION.with(|s| s.borrow_mut().take()).unwrap_or_default();
    match session.failure {
        Some(why) => Err(why),
        None => Ok(Closed {
            captures: session.captures,
            marks: session.marks,
        }),
    }
}

/// The sampling period of the session open on this thread, if one is.
fn session_period() -> Option<Duration> {
    SESSION.with(|s| s.borrow().as_ref().map(|s| s.period))
}

/// Adds the CPU time under an interpreter's marks to the session open on this thread.
fn add_marks(ns: BTreeMap<u32, u64>) {
    SESSION.with(|s| {
        if let Some(s) = s.borrow_mut().as_mut() {
            for (i, n) in ns {
                *s.marks.entry(i).or_insert(0) += n;
            }
        }
    });
}

/// A sampler running for the open session.
pub struct Running {
    sampler: Sampler,
    pid: u32,
    mappings: Vec<Mapping>,
    this_thread: bool,
    watcher: Option<MapsWatcher>,
}

/// How often a sampled process's mappings are read again while it runs.
const MAPS_EVERY: Duration = Duration::from_millis(20);

/// Reads a sampled process's executable mappings again every [`MAPS_EVERY`] until it is
/// stopped. The sampler records the mappings its process's sampled thread makes, but not
/// those its other threads make: V8 maps a wasm module's code space from its compiling
/// threads, so the jump table every wasm call goes through (and no perf map line names)
/// would be an address in no mapping. Whatever the process has mapped at any reading is
/// kept: code it unmaps before its end still names the samples taken in it.
struct MapsWatcher {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<Vec<Mapping>>,
}

impl MapsWatcher {
    fn start(pid: u32) -> Option<MapsWatcher> {
        use std::sync::atomic::{AtomicBool, Ordering};
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let stopped = std::sync::Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("wasmeter-maps".into())
            .spawn(move || {
                // The mappings as exec left them were read just before it starts.
                let mut seen: Vec<Mapping> = Vec::new();
                while !stopped.load(Ordering::Relaxed) {
                    // Woken at once by `stop`, which then waits for one last read only.
                    std::thread::park_timeout(MAPS_EVERY);
                    for m in sampler::process_mappings(Some(pid)) {
                        if !seen.contains(&m) {
                            seen.push(m);
                        }
                    }
                }
                seen
            })
            .ok()?;
        Some(MapsWatcher { stop, thread })
    }

    /// Every mapping read, in the order first read.
    fn stop(self) -> Vec<Mapping> {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.thread.thread().unpark();
        self.thread.join().unwrap_or_default()
    }
}

/// Starts sampling this thread, when a session is open on it.
pub fn start_here() -> Option<Running> {
    start(Target::ThisThread)
}

/// Starts sampling a child process, when a session is open on this thread; its mappings
/// are read as soon as its program is mapped (spawning returns while exec is still under
/// way), later ones come from the sampler's records.
pub fn start_process(pid: u32) -> Option<Running> {
    let mut running = start(Target::Process(pid))?;
    let deadline = std::time::Instant::now() + Duration::from_millis(200);
    loop {
        let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok();
        running.mappings = sampler::process_mappings(Some(pid));
        let mapped = exe.is_some_and(|e| {
            running
                .mappings
                .iter()
                .any(|m| Path::new(&m.path) == e.as_path())
        });
        if mapped || std::time::Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    running.watcher = MapsWatcher::start(pid);
    Some(running)
}

fn start(target: Target) -> Option<Running> {
    let period = session_period()?;
    match Sampler::start(target, period) {
        Ok(sampler) => Some(Running {
            sampler,
            pid: match target {
                Target::ThisThread => std::process::id(),
                Target::Process(pid) => pid,
            },
            mappings: Vec::new(),
            this_thread: target == Target::ThisThread,
            watcher: None,
        }),
        Err(e) => {
            SESSION.with(|s| {
                if let Some(s) = s.borrow_mut().as_mut() {
                    s.failure = Some(e.to_string());
                }
            });
            None
        }
    }
}

impl Running {
    /// Stops sampling and keeps the capture in the session, with the mappings it needs
    /// (this process's, read now, while a loaded library is still mapped).
    pub fn stop(self) {
        let Running {
            sampler,
            pid,
            mut mappings,
            this_thread,
            watcher,
        } = self;
        let mut capture = sampler.stop();
        if this_thread {
            mappings = sampler::process_mappings(None);
        }
        if let Some(w) = watcher {
            // Before the sampler's own records, which name the latest mapping of an
            // address and so come last.
            let more: Vec<Mapping> = w
                .stop()
                .into_iter()
                .filter(|m| !mappings.contains(m))
                .collect();
            mappings.extend(more);
        }
        mappings.append(&mut capture.mappings);
        capture.mappings = mappings;
        SESSION.with(|s| {
            if let Some(s) = s.borrow_mut().as_mut() {
                s.captures.push((capture, pid));
            }
        });
    }
}

/// Runs `f` with this thread's session put aside, so a process it starts (a CLI
/// runtime's ahead-of-time compile step) is not sampled into the profile.
pub fn unsampled<T>(f: impl FnOnce() -> T) -> T {
    let saved = SESSION.with(|s| s.borrow_mut().take());
    let out = f();
    SESSION.with(|s| *s.borrow_mut() = saved);
    out
}

/// The perf map a process's engine writes.
pub fn perf_map_path(pid: u32) -> PathBuf {
    PathBuf::from(format!("/tmp/perf-{pid}.map"))
}

/// Folds captures into stacks and adds them to `row`. `program`: the native build (or
/// library) whose symbols name the program's functions; `None` for an engine, whose
/// perf map names them.
pub fn fold_into(row: &mut ProfileRow, captures: &[(Capture, u32)], program: Option<&Path>) {
    let mut offsets: BTreeMap<String, BTreeMap<u32, u64>> = std::mem::take(&mut row.offsets)
        .into_iter()
        .map(|(f, pairs)| (f, pairs.into_iter().collect()))
        .collect();
    for (capture, pid) in captures {
        let perf_map = std::fs::read_to_string(perf_map_path(*pid)).unwrap_or_default();
        if *pid != std::process::id() {
            // A CLI runtime's map, read once: its process has ended.
            let _ = std::fs::remove_file(perf_map_path(*pid));
        }
        let others = if program.is_some() && *pid != std::process::id() {
            Outside::Startup
        } else {
            Outside::Engine
        };
        let mut resolver = Resolver::new(capture.mappings.clone(), &perf_map, program, others);
        if row.functions.is_empty() {
            row.functions = resolver.program_functions();
            row.sizes = resolver.program_sizes();
        }
        row.lost += capture.lost;
        row.kernel |= capture.kernel;
        for (stack, n) in &capture.stacks {
            let (folded, library) = fold(&mut resolver, stack);
            if let Some((name, lib)) = library {
                row.libraries.insert(name, lib);
            }
            if let Some((function, offset)) = stack.first().and_then(|a| resolver.jit_offset(*a)) {
                *offsets
                    .entry(function.replace(';', ":"))
                    .or_default()
                    .entry(offset)
                    .or_insert(0) += n;
            }
            *row.stacks.entry(folded).or_insert(0) += n;
        }
    }
    row.offsets = offsets
        .into_iter()
        .map(|(f, by)| (f, by.into_iter().collect()))
        .collect();
}

/// One stack, outermost first: the sampled frame and, above engine-compiled code (which
/// keeps frame pointers), its callers while they are functions; a native build keeps no
/// frame pointers, so only its innermost frame is trusted. Returns the stack and, when the
/// innermost function came from a C library, its name and library.
fn fold(resolver: &mut Resolver, stack: &[u64]) -> (String, Option<(String, String)>) {
    let mut frames: Vec<String> = Vec::new();
    let mut library = None;
    for (i, addr) in stack.iter().enumerate() {
        match resolver.frame(*addr, i > 0) {
            Frame::Function {
                name,
                jit,
                library: lib,
            } => {
                let name = name.replace(';', ":");
                if i == 0
                    && let Some(lib) = lib
                {
                    library = Some((name.clone(), lib));
                }
                frames.push(name);
                if !jit {
                    break;
                }
            }
            Frame::Outside(o) => {
                if i == 0 {
                    frames.push(o.label().to_string());
                }
                break;
            }
        }
    }
    frames.reverse();
    (frames.join(";"), library)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stacks_fold_through_engine_code_and_stop_at_native_code() {
        let map =
            "0x1000 100 inner\n0x1100 100 outer\n0x1200 10 wasm[0]::array_to_wasm_trampoline[0]\n";
        let mut r = Resolver::new(Vec::new(), map, None, Outside::Engine);
        // inner ← outer ← trampoline: the engine's stub ends the guest's stack.
        let (s, lib) = fold(&mut r, &[0x1010, 0x1150, 0x1205, 0x9999]);
        assert_eq!(s, "outer;inner");
        assert!(lib.is_none());
        let (s, _) = fold(&mut r, &[0x1205, 0x1150]);
        assert_eq!(s, "[engine & host]");
        let (s, _) = fold(&mut r, &[0xffff_ffff_8100_0000, 0x1010]);
        assert_eq!(s, "[kernel]");
    }
}
