//! What one iteration measures: its phases (compile, instantiate, execute, a throughput
//! level…) and metrics (wall time, CPU, RSS…), as data with stable names that saved runs
//! store as text.

use serde::{Deserialize, Serialize};

/// Phases of one iteration, as data (sightglass-style). Names are stable: saved runs
/// store them as text (`throughput_c50` for [`Phase::Throughput`] at 50 connections).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
    /// Turning bytes into machine code (and linking it against the host).
    Compile,
    /// Creating an instance, after the WASI context is built.
    Instantiate,
    /// Running `_start`.
    Execute,
    /// Dropping the instance and its store.
    Teardown,
    /// The whole iteration as seen from outside (a whole process for native and CLIs).
    Total,
    /// Loading a precompiled module from disk (deserialising it), lifecycle suite.
    Load,
    /// A call round trip host → wasm → host of a trivial export, steady state.
    Call,
    /// The first instantiation in a fresh process (lazy process-wide set-up included).
    FirstInstantiate,
    /// The first call in a fresh process, on its first instance.
    FirstCall,
    /// HTTP suites: from spawning the server process to its first `200 OK`.
    ColdStart,
    /// HTTP suites: request latency over one persistent connection, one request at a time.
    Latency,
    /// HTTP suites: the server under load from this many concurrent connections.
    Throughput(u32),
    /// HTTP suites: the server offered this many requests per second (open model).
    Rate(u32),
    /// HTTP suites: the highest offered rate at which the p99 latency met the SLO.
    Knee,
}

impl Phase {
    /// Every phase with a fixed name ([`Phase::Throughput`] takes any concurrency and
    /// [`Phase::Rate`] any rate).
    pub const ALL: [Phase; 12] = [
        Phase::Compile,
        Phase::Load,
        Phase::Instantiate,
        Phase::FirstInstantiate,
        Phase::Execute,
        Phase::Call,
        Phase::FirstCall,
        Phase::Teardown,
        Phase::Total,
        Phase::ColdStart,
        Phase::Latency,
        Phase::Knee,
    ];

    /// The phases of running a WASI command, in the order they happen.
    pub const COMMAND: [Phase; 5] = [
        Phase::Compile,
        Phase::Instantiate,
        Phase::Execute,
        Phase::Teardown,
        Phase::Total,
    ];

    /// The phases the lifecycle suite measures, in the order of an instance's life.
    pub const LIFECYCLE: [Phase; 7] = [
        Phase::Compile,
        Phase::Load,
        Phase::Instantiate,
        Phase::FirstInstantiate,
        Phase::Call,
        Phase::FirstCall,
        Phase::Teardown,
    ];

    /// Stable name used in files and exports.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Compile => "compile",
            Phase::Instantiate => "instantiate",
            Phase::Execute => "execute",
            Phase::Teardown => "teardown",
            Phase::Total => "total",
            Phase::Load => "load",
            Phase::Call => "call",
            Phase::FirstInstantiate => "first_instantiate",
            Phase::FirstCall => "first_call",
            Phase::ColdStart => "cold_start",
            Phase::Latency => "latency",
            Phase::Throughput(c) => leveled_name(THROUGHPUT_PREFIX, c),
            Phase::Rate(r) => leveled_name(RATE_PREFIX, r),
            Phase::Knee => "knee",
        }
    }

    /// Parses [`Phase::as_str`] back.
    pub fn parse(s: &str) -> Option<Phase> {
        // Only the canonical spelling of a level, so that names round-trip exactly.
        let level = |c: &str| {
            c.parse::<u32>()
                .ok()
                .filter(|n| *n > 0 && n.to_string() == c)
        };
        if let Some(c) = s.strip_prefix(THROUGHPUT_PREFIX) {
            return level(c).map(Phase::Throughput);
        }
        if let Some(r) = s.strip_prefix(RATE_PREFIX) {
            return level(r).map(Phase::Rate);
        }
        Phase::ALL.into_iter().find(|p| p.as_str() == s)
    }

    /// The concurrency of a [`Phase::Throughput`].
    pub fn concurrency(self) -> Option<u32> {
        match self {
            Phase::Throughput(c) => Some(c),
            _ => None,
        }
    }

    /// The offered requests per second of a [`Phase::Rate`].
    pub fn rate(self) -> Option<u32> {
        match self {
            Phase::Rate(r) => Some(r),
            _ => None,
        }
    }
}

const THROUGHPUT_PREFIX: &str = "throughput_c";
const RATE_PREFIX: &str = "rate_r";

/// The name of a throughput or rate phase, made once per level and kept for the life of
/// the process, so that [`Phase::as_str`] can stay `&'static` like the fixed names.
fn leveled_name(prefix: &'static str, n: u32) -> &'static str {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<HashMap<(&'static str, u32), &'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    names
        .entry((prefix, n))
        .or_insert_with(|| Box::leak(format!("{prefix}{n}").into_boxed_str()))
}

/// The page's `Phase`: the fixed names, and the levelled ones as template literals, all
/// from [`Phase::ALL`] and the prefixes (a phase is text on the wire).
#[cfg(feature = "ts")]
impl ts_rs::TS for Phase {
    type WithoutGenerics = Phase;
    type OptionInnerType = Phase;

    fn docs() -> Option<String> {
        Some("/**\n * A phase of an iteration, as saved runs spell it.\n */\n".into())
    }
    fn name(_: &ts_rs::Config) -> String {
        "Phase".into()
    }
    fn inline(_: &ts_rs::Config) -> String {
        Phase::ALL
            .iter()
            .map(|p| format!("\"{}\"", p.as_str()))
            .chain(
                [THROUGHPUT_PREFIX, RATE_PREFIX]
                    .iter()
                    .map(|pre| format!("`{pre}${{number}}`")),
            )
            .collect::<Vec<_>>()
            .join(" | ")
    }
    fn decl(cfg: &ts_rs::Config) -> String {
        format!("type Phase = {};", Self::inline(cfg))
    }
    fn decl_concrete(cfg: &ts_rs::Config) -> String {
        Self::decl(cfg)
    }
    fn output_path() -> Option<std::path::PathBuf> {
        Some("Phase.ts".into())
    }
}

impl Serialize for Phase {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Phase {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Phase, D::Error> {
        let s = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Phase::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("unknown phase '{s}'")))
    }
}

/// What a measurement measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Metric {
    /// Wall-clock nanoseconds measured by the harness.
    WallNs,
    /// Nanoseconds the guest measured itself (self-timing protocol).
    SelfNs,
    /// User CPU nanoseconds of a child process.
    UserNs,
    /// System CPU nanoseconds of a child process.
    SysNs,
    /// Peak resident set of a child process, KiB.
    MaxRssKib,
    /// Growth of resident memory per live instance, bytes (lifecycle suite).
    RssPerInstanceBytes,
    /// Instantiate-and-drop round trips per second on one thread (lifecycle suite).
    InstancesPerSec,
    /// HTTP: 90th percentile of request latency, ns (the median is `wall_ns`).
    P90Ns,
    /// HTTP: 99th percentile of request latency, ns.
    P99Ns,
    /// HTTP: 99.9th percentile of request latency, ns.
    P999Ns,
    /// HTTP at a rate: median latency timed from the actual write, without the correction
    /// for coordinated omission, ns (the corrected one is `wall_ns`).
    UncorrectedP50Ns,
    /// HTTP at a rate: uncorrected 90th percentile, ns.
    UncorrectedP90Ns,
    /// HTTP at a rate: uncorrected 99th percentile, ns.
    UncorrectedP99Ns,
    /// HTTP at a rate: uncorrected 99.9th percentile, ns.
    UncorrectedP999Ns,
    /// HTTP: requests that timed out (also counted in `errors`).
    Timeouts,
    /// HTTP at a rate: the load generator could start only this many requests per second,
    /// short of an offered rate that needs nearly all of its threads' CPU: the level
    /// measured the generator, not the server.
    GeneratorBoundRps,
    /// HTTP offered rate: requests due in the measured phase that were never started,
    /// every connection still waiting on the server when the phase ended (only when some
    /// were).
    UnsentRequests,
    /// HTTP knee: 1 when no tested rate broke the SLO within the budget (or the generator
    /// ran out first), so the knee is only a lower bound.
    Unbroken,
    /// HTTP: successful requests per second.
    Rps,
    /// HTTP: CPU time of the server (its children included) per 1,000 requests, ns.
    #[serde(rename = "cpu_ns_per_1k")]
    CpuNsPer1k,
    /// HTTP: resident memory of the server (its children included) under load, bytes.
    RssBytes,
    /// HTTP: failed requests (connect, timeout, I/O, bad status or body).
    Errors,
    /// HTTP: the level saturated — fewer than one request completed within its duration —
    /// so its throughput was below this many requests per second (1 / duration). A
    /// measurement of the server, not a failure; such a level records no `rps`, so no
    /// reader takes the bound for a rate.
    SaturatedBelowRps,
    /// Instructions executed in the execute phase, counted by callgrind
    /// (`--measure instructions`, embedded runtimes).
    Instructions,
    /// Bytes of the compiled artifact an engine can save and load instead of compiling
    /// (wasmtime's and wasmer's serialized module, a CLI's precompiled file), recorded
    /// with the compile phase: the size a deployment ships besides the module.
    ArtifactBytes,
}

impl Metric {
    /// Stable name used in files and exports.
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::WallNs => "wall_ns",
            Metric::SelfNs => "self_ns",
            Metric::UserNs => "user_ns",
            Metric::SysNs => "sys_ns",
            Metric::MaxRssKib => "max_rss_kib",
            Metric::RssPerInstanceBytes => "rss_per_instance_bytes",
            Metric::InstancesPerSec => "instances_per_sec",
            Metric::P90Ns => "p90_ns",
            Metric::P99Ns => "p99_ns",
            Metric::P999Ns => "p999_ns",
            Metric::UncorrectedP50Ns => "uncorrected_p50_ns",
            Metric::UncorrectedP90Ns => "uncorrected_p90_ns",
            Metric::UncorrectedP99Ns => "uncorrected_p99_ns",
            Metric::UncorrectedP999Ns => "uncorrected_p999_ns",
            Metric::Timeouts => "timeouts",
            Metric::GeneratorBoundRps => "generator_bound_rps",
            Metric::UnsentRequests => "unsent_requests",
            Metric::Unbroken => "unbroken",
            Metric::Rps => "rps",
            Metric::CpuNsPer1k => "cpu_ns_per_1k",
            Metric::RssBytes => "rss_bytes",
            Metric::Errors => "errors",
            Metric::SaturatedBelowRps => "saturated_below_rps",
            Metric::Instructions => "instructions",
            Metric::ArtifactBytes => "artifact_bytes",
        }
    }

    /// Every metric.
    pub const ALL: [Metric; 25] = [
        Metric::WallNs,
        Metric::SelfNs,
        Metric::UserNs,
        Metric::SysNs,
        Metric::MaxRssKib,
        Metric::RssPerInstanceBytes,
        Metric::InstancesPerSec,
        Metric::P90Ns,
        Metric::P99Ns,
        Metric::P999Ns,
        Metric::UncorrectedP50Ns,
        Metric::UncorrectedP90Ns,
        Metric::UncorrectedP99Ns,
        Metric::UncorrectedP999Ns,
        Metric::Timeouts,
        Metric::GeneratorBoundRps,
        Metric::UnsentRequests,
        Metric::Unbroken,
        Metric::Rps,
        Metric::CpuNsPer1k,
        Metric::RssBytes,
        Metric::Errors,
        Metric::SaturatedBelowRps,
        Metric::Instructions,
        Metric::ArtifactBytes,
    ];

    /// Parses [`Metric::as_str`] back.
    pub fn parse(s: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.as_str() == s)
    }
}

/// One value of one iteration.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PhaseValue {
    /// Phase measured.
    pub phase: Phase,
    /// What was measured.
    pub metric: Metric,
    /// The value in the metric's unit.
    pub value: f64,
}

impl PhaseValue {
    /// A value of a phase.
    pub fn new(phase: Phase, metric: Metric, value: f64) -> PhaseValue {
        PhaseValue {
            phase,
            metric,
            value,
        }
    }
}
