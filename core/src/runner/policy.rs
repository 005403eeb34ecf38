//! Run policy: what a run does where the user said nothing. The CLI, the terminal UI and
//! the desktop page (through its commands) all ask here instead of deciding themselves, so
//! the same choices make the same plan whichever front end they came from: the defaults
//! of a suite, which timeout wins, whether a runtime applies to a suite and why not.
//! The diff's noise threshold is [`crate::analysis::DEFAULT_THRESHOLD_PCT`].

use super::request::{Repetition, RunRequest};
use crate::config::Config;
use crate::http_suites::HttpSettings;
use crate::runtime::{RuntimeInfo, applies_to};
use crate::store::{Measure, RunOrder};
use crate::suite::{Build, Execution, SuiteKind};
use crate::suite::{Size, Suite, TestCase};
use serde::Serialize;
use std::time::Duration;

/// Seconds an iteration may take when neither the user nor the suite says.
pub const DEFAULT_TIMEOUT_SECS: u64 = 60;
/// Memory cap of a cell when the user does not say, MiB.
pub const DEFAULT_MEMORY_CAP_MIB: u64 = 4096;
/// Live sampling interval when the user does not say, ms.
pub const DEFAULT_SAMPLE_INTERVAL_MS: u64 = 100;
/// The runtime others are compared against when the user does not say.
pub const DEFAULT_BASELINE: &str = "native";

/// Where a run's per-iteration timeout comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TimeoutSource {
    /// The user set it.
    Explicit,
    /// The suite's manifest sets its own (`timeout_secs`: faults 10 s, libsodium 600 s).
    Suite,
    /// [`DEFAULT_TIMEOUT_SECS`].
    Default,
}

/// The per-iteration timeout, seconds, and where it came from: what the user set, else
/// the suite's own, else [`DEFAULT_TIMEOUT_SECS`]. A suite's own timeout is neither a floor
/// nor a ceiling: faults keeps its short one and libsodium its long one unless told.
pub fn resolve_timeout(explicit: Option<u64>, suite: &Suite) -> (u64, TimeoutSource) {
    match (explicit, suite.timeout_secs) {
        (Some(t), _) => (t, TimeoutSource::Explicit),
        (None, Some(t)) => (t, TimeoutSource::Suite),
        (None, None) => (DEFAULT_TIMEOUT_SECS, TimeoutSource::Default),
    }
}

/// The gateway's runtimes in a run that names none: native, embedded wasmtime (pooling, as
/// deployed) and wasmer, a wasi:http component per request (`wasmtime-http`), a runtime CLI
/// per request (`wasmtime-cli`) and the native gateway in a container: one of each way of
/// serving. Every variant loads a server for seconds per test, so the other 20 run when
/// named (`--runtimes all` runs every one).
pub const GATEWAY_DEFAULTS: [&str; 6] = [
    "native",
    "wasmtime-pooling",
    "wasmer-cranelift",
    "wasmtime-http",
    "wasmtime-cli",
    crate::runtime::container::VARIANT,
];

/// Whether a runtime joins a run of a suite of this kind that names no runtimes (when it is
/// available and applies): where the gateway serves each request [`GATEWAY_DEFAULTS`],
/// else every runtime but those that run only when named ([`crate::runtime::in_defaults`]).
pub fn in_default_run(id: &str, kind: SuiteKind) -> bool {
    match kind.execution() {
        Execution::PerRequest => GATEWAY_DEFAULTS.contains(&id),
        Execution::Commands | Execution::InProcess | Execution::ServerPrograms => {
            crate::runtime::in_defaults(id)
        }
    }
}

/// The runtimes a front end starts with selected (the TUI's runtime list, the desktop's
/// Setup for each suite), of `runtimes`: native and the embedded engines that are
/// available and apply, or native and the CLI runtimes where no embedded engine applies
/// (the servers suite); never one that runs only when named
/// ([`crate::runtime::in_defaults`]). The one rule both front ends show; a headless run
/// that names no runtimes runs more ([`in_default_run`]: the CLI runtimes too).
pub fn preselected(
    runtimes: &[RuntimeInfo],
    applies: impl Fn(&RuntimeInfo) -> bool,
) -> Vec<String> {
    use crate::runtime::RuntimeKind;
    let ok: Vec<&RuntimeInfo> = runtimes
        .iter()
        .filter(|r| r.available() && crate::runtime::in_defaults(&r.id) && applies(r))
        .collect();
    let second = if ok.iter().any(|r| r.kind == RuntimeKind::Embedded) {
        RuntimeKind::Embedded
    } else {
        RuntimeKind::Cli
    };
    ok.into_iter()
        .filter(|r| r.kind == RuntimeKind::Native || r.kind == second)
        .map(|r| r.id.clone())
        .collect()
}

/// Whether a runtime can run a suite, and if not why (shown as "not applicable"): the
/// rule of the suite's kind ([`applies_to`]: embedded engines only for lifecycle, no
/// embedded engine for servers, Docker for the gateway only, lifecycle-only
/// configurations) and, for a servers suite, whether any of its tests has a server the
/// runtime runs.
pub fn applicability(info: &RuntimeInfo, suite: &Suite) -> Result<(), String> {
    applies_to(info, suite.kind).and_then(|()| serves(suite, &info.id))
}

/// Whether a runtime that serves the suite can run this one of its tests; a cell it cannot
/// is n/a in the plan, never a failure.
pub fn cell_applicability(info: &RuntimeInfo, test: &TestCase) -> Result<(), String> {
    test.http()
        .and_then(|h| crate::http_suites::gateway::cell_unavailable(&info.id, h))
        .map_or(Ok(()), Err)
}

/// The precision a default run of a command suite aims at: each cell's interval within
/// ±3 %, rounds added by Stein's rule to the cells whose planned rounds' spread needs them,
/// while the run is within 10 minutes (the planned rounds always run). A quiet host adds
/// few rounds; a noisy one spends the budget where the noise is and names the cells that
/// still miss (docs/statistics.md §1).
pub const DEFAULT_PRECISION: crate::store::Precision = crate::store::Precision {
    pct: 3.0,
    budget_secs: Some(600),
};

/// What a run of a suite does where the user says nothing: what front ends show before
/// anything is changed (the desktop page gets it from its `list_suites` command).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunDefaults {
    /// Invocations, warm-up and runs of the suite's kind ([`Repetition::default_for`]).
    pub repetition: Repetition,
    /// The precision a run of the suite aims at when its rounds are left to core (neither
    /// `--invocations` nor `--pair` nor a precision of its own, measured by time, rounds
    /// interleaved): [`DEFAULT_PRECISION`] for a command suite, none for the others.
    pub precision: Option<crate::store::Precision>,
    /// Invocations (rounds) of a run with `--pair`: for a command suite
    /// [`crate::analysis::DEFAULT_PAIR_ROUNDS`], enough for a signed-rank verdict over a
    /// family of many rows and for an interval no single wild round sets; the kind's own
    /// otherwise.
    pub pair_invocations: u32,
    /// Order of the cells' invocations.
    pub order: RunOrder,
    /// Per-iteration timeout, seconds ([`resolve_timeout`] with nothing explicit).
    pub timeout_secs: u64,
    /// Whether that timeout is the suite's own or the general default.
    pub timeout_source: TimeoutSource,
    /// Problem size.
    pub size: Size,
    /// Memory cap per cell, MiB.
    pub memory_cap_mib: u64,
    /// Live sampling interval, ms.
    pub sample_interval_ms: u64,
    /// Baseline runtime.
    pub baseline: String,
    /// HTTP suites: the load (levels, durations, threads); `None` for other kinds.
    pub http: Option<HttpSettings>,
    /// Samples a second of a profiled run (`--profile` without a rate).
    pub profile_hz: u32,
}

impl RunDefaults {
    /// The defaults of a run of `suite`.
    pub fn for_suite(suite: &Suite) -> RunDefaults {
        let (timeout_secs, timeout_source) = resolve_timeout(None, suite);
        // Commands timed by the guest aim at a precision and pair in many rounds.
        let commands = suite.kind.execution().runs_commands();
        RunDefaults {
            repetition: Repetition::default_for(suite.kind),
            precision: commands.then_some(DEFAULT_PRECISION),
            pair_invocations: if commands {
                crate::analysis::DEFAULT_PAIR_ROUNDS
            } else {
                Repetition::default_for(suite.kind).invocations
            },
            order: RunOrder::Interleaved,
            timeout_secs,
            timeout_source,
            size: Size::Quick,
            memory_cap_mib: DEFAULT_MEMORY_CAP_MIB,
            sample_interval_ms: DEFAULT_SAMPLE_INTERVAL_MS,
            baseline: DEFAULT_BASELINE.into(),
            http: suite
                .kind
                .is_http()
                .then(|| HttpSettings::for_size(Size::Quick)),
            profile_hz: crate::profile::DEFAULT_HZ,
        }
    }
}

/// What a user chose in a front end. `None` (and an empty list) means "not set": core's
/// policy decides, so no front end carries a default of its own. A plan file's `[run]`
/// table is this, as TOML (what is not set is left out).
#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize)]
#[serde(default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct RunChoices {
    /// Test names; empty means all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tests: Vec<String>,
    /// Runtime ids or groups (`all`, `embedded`, `cli`); empty means every available one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runtimes: Vec<String>,
    /// Warm-up iterations per invocation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warmup: Option<u32>,
    /// Measured iterations per invocation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs: Option<u32>,
    /// Fresh worker processes per cell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invocations: Option<u32>,
    /// Order of the cells' invocations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<RunOrder>,
    /// Seed of the interleaved order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Time, or also instructions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measure: Option<Measure>,
    /// Per-iteration timeout, seconds ([`resolve_timeout`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_secs: Option<u64>,
    /// Problem size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<Size>,
    /// Label of the saved run; blank means none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Memory cap per cell, MiB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_cap_mib: Option<u64>,
    /// Live sampling interval, ms (in [`crate::model::limits::SAMPLE_MS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample_interval_ms: Option<u64>,
    /// Baseline runtime.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<String>,
    /// Leave out named runtimes that are unavailable instead of refusing (never written
    /// into a plan file: a plan run always does).
    #[serde(skip_serializing)]
    pub skip_missing: bool,
    /// HTTP suites: the load (ignored for other kinds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http: Option<HttpSettings>,
    /// Two or more runtimes, or tests, whose invocations run side by side in every round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair: Option<Vec<String>>,
    /// How the pair's arms share the machine (default: alternating in one worker for
    /// command suites measured by time, else processes side by side).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair_mode: Option<crate::store::PairMode>,
    /// Add rounds until every cell's interval is this narrow, within a budget. Not set:
    /// core's default ([`RunDefaults::precision`]) where the rounds are left to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<crate::store::Precision>,
    /// Aim at no precision, not even core's default (`--precision off`): the planned
    /// rounds and no more.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub precision_off: bool,
    /// Engine settings to sweep, `ENGINE.NAME=V1,V2` each (`--set`): every combination
    /// runs as a runtime of its own, `wasmtime[allocator=pooling,cow=off]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub settings: Vec<String>,
    /// Run a sweep of more than 64 combinations (`--yes`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub yes: bool,
    /// Profile the execute phase of every cell that can be, sampling this many times a
    /// second (`--profile[=HZ]`; [`crate::profile::DEFAULT_HZ`] when asked without a rate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<u32>,
}

impl RunChoices {
    /// The precision a run of these choices aims at: the one asked for; none with
    /// `precision_off`; else the suite's default ([`RunDefaults::precision`]) where the
    /// rounds are core's to choose (no `--invocations`, no `--pair`, measured by time,
    /// interleaved). Front ends show it from here, so they keep no rule of their own.
    pub fn precision_in(&self, d: &RunDefaults) -> Option<crate::store::Precision> {
        if self.precision_off {
            return None;
        }
        self.precision.or_else(|| {
            let left_to_core = self.invocations.is_none()
                && self.pair.is_none()
                && self.measure.unwrap_or_default() == Measure::Time
                && self.order.unwrap_or(d.order) == RunOrder::Interleaved;
            d.precision.filter(|_| left_to_core)
        })
    }
}

impl RunRequest {
    /// A request with every choice left to the policy ([`RunRequest::from_choices`] with
    /// none made): all tests, available runtimes, the suite kind's [`Repetition`],
    /// interleaved, the suite's own timeout or 60 s, quick, 4 GiB, 100 ms.
    pub fn new(suite: Suite) -> RunRequest {
        RunRequest::from_choices(suite, RunChoices::default(), Config::default())
    }

    /// The request a front end's choices describe: each choice not made takes the suite's
    /// default ([`RunDefaults::for_suite`]), the timeout by [`resolve_timeout`].
    pub fn from_choices(suite: Suite, c: RunChoices, config: Config) -> RunRequest {
        let d = RunDefaults::for_suite(&suite);
        let (timeout, _) = resolve_timeout(c.timeout_secs, &suite);
        let precision = c.precision_in(&d);
        RunRequest {
            tests: c.tests,
            runtimes: c.runtimes,
            warmup: c.warmup.unwrap_or(d.repetition.warmup),
            runs: c.runs.unwrap_or(d.repetition.runs),
            invocations: c.invocations.unwrap_or(if c.pair.is_some() {
                d.pair_invocations
            } else {
                d.repetition.invocations
            }),
            order: c.order.unwrap_or(d.order),
            seed: c.seed,
            measure: c.measure.unwrap_or_default(),
            timeout: Duration::from_secs(timeout),
            size: c.size.unwrap_or(d.size),
            label: c
                .label
                .map(|l| l.trim().to_string())
                .filter(|l| !l.is_empty()),
            // Saturating, so that a cap past any machine stays past the plan's range.
            memory_cap: c
                .memory_cap_mib
                .unwrap_or(d.memory_cap_mib)
                .saturating_mul(1 << 20),
            sample_interval: Duration::from_millis(
                c.sample_interval_ms.unwrap_or(d.sample_interval_ms),
            ),
            baseline: c.baseline.unwrap_or(d.baseline),
            config,
            skip_missing: c.skip_missing,
            http: if suite.kind.is_http() { c.http } else { None },
            plan_hash: None,
            precision,
            pair: c.pair,
            pair_mode: c.pair_mode,
            settings: c.settings,
            yes: c.yes,
            profile: c.profile,
            suite,
        }
    }
}

/// Why native has no cell in a suite of modules given as they are.
pub const NO_NATIVE: &str = "no native build of a module given as it is";

/// Why `native-dlopen` cannot run a test: it builds the library from the test's C source.
pub const NO_LIBRARY: &str = "native-dlopen builds a test's C source as a library; this test's native build is a program made elsewhere";

/// Whether the suite's tests give the runtime something to run: native needs a native
/// build, environment variables need a runtime that can pass them, and a servers suite
/// needs a server for the runtime.
fn serves(suite: &Suite, id: &str) -> Result<(), String> {
    let runs: Vec<&crate::suite::ModuleRun> = suite
        .tests
        .iter()
        .filter_map(|t| match &t.guest()?.build {
            Build::Module(run) => Some(run),
            _ => None,
        })
        .collect();
    if id == crate::runtime::NATIVE_DLOPEN {
        let guests: Vec<&Build> = suite
            .tests
            .iter()
            .filter_map(|t| Some(&t.guest()?.build))
            .collect();
        let built_here = guests.iter().any(|b| matches!(b, Build::Source(_)));
        return if guests.is_empty() || built_here {
            Ok(())
        } else {
            Err(NO_LIBRARY.into())
        };
    }
    if id == "native"
        && suite.kind.execution().runs_commands()
        && suite.modules_only()
        && runs.iter().all(|r| r.native.is_none())
    {
        return Err(NO_NATIVE.into());
    }
    // A native build is a program: it takes environment, folders and arguments as any
    // program does.
    if id != "native" {
        if runs.iter().any(|r| !r.env.is_empty()) {
            crate::runtime::guest_env_support(id)?;
        }
        if runs.iter().any(|r| !r.dirs.is_empty()) {
            crate::runtime::guest_dir_support(id)?;
        }
        // A suite of components only (beside the empty module a run of modules adds for
        // start-up) is not for a runtime of core modules; in a suite that mixes them (the
        // features suite's component probes, modules and components given together),
        // such a runtime runs the modules and its component cells fail with its own words.
        let is_component = |g: &crate::suite::Guest| {
            crate::suite::wasm_header(&g.wasm) == Ok(crate::suite::WasmHeader::Component)
        };
        let modules: Vec<&crate::suite::Guest> = suite
            .tests
            .iter()
            .filter(|t| t.name != crate::suite::STARTUP_TEST)
            .filter_map(|t| t.guest())
            .filter(|g| matches!(g.build, Build::Module(_)))
            .collect();
        if !modules.is_empty() && modules.iter().all(|g| is_component(g)) {
            match crate::runtime::embedded::Embedded::parse(id) {
                Some(e) => e
                    .cannot_run_components()
                    .map_or(Ok(()), |why| Err(why.to_string()))?,
                None => crate::runtime::component_support(id)?,
            }
        }
        if runs.iter().any(|r| r.invoke.is_some()) {
            match crate::runtime::embedded::Embedded::parse(id) {
                Some(e) => e
                    .cannot_invoke()
                    .map_or(Ok(()), |why| Err(why.to_string()))?,
                None => crate::runtime::invoke_support(id)?,
            }
        }
    }
    // A suite that starts server programs applies to the runtimes it has a server for.
    if !suite.kind.shape().servers
        || suite.tests.iter().any(|t| {
            t.http()
                .is_some_and(|h| h.servers.iter().any(|s| s.runtime == id))
        })
    {
        Ok(())
    } else if crate::runtime::settings::base_id(id) != id {
        Err(format!(
            "suite '{}' starts its own server programs, which take no settings: run '{}' itself",
            suite.name,
            crate::runtime::settings::base_id(id)
        ))
    } else {
        Err(format!(
            "no test of suite '{}' has a server run by '{id}'",
            suite.name
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::{RuntimeKind, known_runtimes};
    use crate::suite::SuiteKind;

    fn suite(kind: SuiteKind, timeout_secs: Option<u64>) -> Suite {
        Suite {
            name: "s".into(),
            kind,
            timeout_secs,
            ..Suite::default()
        }
    }

    #[test]
    fn an_explicit_timeout_wins_then_the_suites_own_then_sixty_seconds() {
        let faults = suite(SuiteKind::Command, Some(10));
        let libsodium = suite(SuiteKind::Command, Some(600));
        let compute = suite(SuiteKind::Command, None);
        assert_eq!(resolve_timeout(None, &faults), (10, TimeoutSource::Suite));
        assert_eq!(
            resolve_timeout(None, &libsodium),
            (600, TimeoutSource::Suite)
        );
        assert_eq!(
            resolve_timeout(None, &compute),
            (60, TimeoutSource::Default)
        );
        assert_eq!(
            resolve_timeout(Some(30), &faults),
            (30, TimeoutSource::Explicit)
        );
        assert_eq!(
            resolve_timeout(Some(30), &libsodium),
            (30, TimeoutSource::Explicit)
        );
        assert_eq!(
            resolve_timeout(Some(90), &compute),
            (90, TimeoutSource::Explicit)
        );
        for (s, secs) in [(faults, 10), (libsodium, 600), (compute, 60)] {
            let req = RunRequest::from_choices(s.clone(), RunChoices::default(), Config::default());
            assert_eq!(req.timeout, Duration::from_secs(secs));
            assert_eq!(
                RunRequest::new(s.clone()).timeout,
                Duration::from_secs(secs)
            );
            let explicit = RunChoices {
                timeout_secs: Some(5),
                ..RunChoices::default()
            };
            let req = RunRequest::from_choices(s, explicit, Config::default());
            assert_eq!(req.timeout, Duration::from_secs(5));
        }
    }

    #[test]
    fn choices_not_made_take_the_suite_kinds_defaults() {
        for &kind in SuiteKind::ALL {
            let s = suite(kind, None);
            let d = RunDefaults::for_suite(&s);
            assert_eq!(d.repetition, Repetition::default_for(kind));
            assert_eq!(d.http.is_some(), kind.is_http(), "{kind}");
            let req = RunRequest::from_choices(s.clone(), RunChoices::default(), Config::default());
            assert_eq!(
                (req.invocations, req.warmup, req.runs),
                (
                    d.repetition.invocations,
                    d.repetition.warmup,
                    d.repetition.runs
                )
            );
            assert_eq!(req.order, RunOrder::Interleaved);
            assert_eq!(req.size, Size::Quick);
            assert_eq!(req.memory_cap, 4096 << 20);
            assert_eq!(req.sample_interval, Duration::from_millis(100));
            assert_eq!(req.baseline, "native");
            assert_eq!(req.label, None);
            assert_eq!(req.http, None);
        }
        assert_eq!(
            Repetition::default_for(SuiteKind::Command),
            Repetition {
                invocations: 6,
                warmup: 0,
                runs: 1
            }
        );
    }

    #[test]
    fn choices_made_are_kept_and_blank_labels_dropped() {
        let c = RunChoices {
            tests: vec!["a".into()],
            runtimes: vec!["wasmtime".into()],
            warmup: Some(4),
            runs: Some(5),
            invocations: Some(6),
            order: Some(RunOrder::Sequential),
            seed: Some(7),
            size: Some(Size::Full),
            label: Some("  mine ".into()),
            memory_cap_mib: Some(64),
            sample_interval_ms: Some(1),
            baseline: Some("wasmtime".into()),
            skip_missing: true,
            http: Some(HttpSettings::default()),
            ..RunChoices::default()
        };
        let req =
            RunRequest::from_choices(suite(SuiteKind::Command, Some(10)), c, Config::default());
        assert_eq!((req.warmup, req.runs, req.invocations), (4, 5, 6));
        assert_eq!(
            (req.order, req.seed, req.size),
            (RunOrder::Sequential, Some(7), Size::Full)
        );
        assert_eq!(req.label.as_deref(), Some("mine"));
        assert_eq!(req.memory_cap, 64 << 20);
        // Kept as asked: the plan refuses what is out of range, in the CLI's words.
        assert_eq!(req.sample_interval, Duration::from_millis(1));
        assert_eq!(req.baseline, "wasmtime");
        assert!(req.skip_missing);
        // Load settings mean nothing to a command suite.
        assert_eq!(req.http, None);
        let blank = RunChoices {
            label: Some("   ".into()),
            ..RunChoices::default()
        };
        let req =
            RunRequest::from_choices(suite(SuiteKind::Command, None), blank, Config::default());
        assert_eq!(req.label, None);
    }

    /// An available runtime of this kind, with no command.
    fn rt(id: &str, kind: RuntimeKind) -> RuntimeInfo {
        RuntimeInfo {
            id: id.into(),
            kind,
            version: "1".into(),
            config: String::new(),
            unavailable: None,
            hint: None,
            command: None,
        }
    }

    #[test]
    fn applicability_is_the_kinds_rule_with_docker_for_the_gateway_only() {
        let native = rt("native", RuntimeKind::Native);
        let wasmtime = rt("wasmtime", RuntimeKind::Embedded);
        let nocow = rt("wasmtime-pooling-nocow", RuntimeKind::Embedded);
        let cli = rt("wasmtime-cli", RuntimeKind::Cli);
        let container = rt("container", RuntimeKind::Cli);
        let per_request = rt("container-per-request", RuntimeKind::Cli);
        let ok = |r: &RuntimeInfo, k| applicability(r, &suite(k, None)).is_ok();
        use SuiteKind::*;
        let table: [(&RuntimeInfo, [bool; 3]); 6] = [
            // command, lifecycle, gateway
            (&native, [true, false, true]),
            (&wasmtime, [true, true, true]),
            (&nocow, [false, true, false]),
            (&cli, [true, false, true]),
            (&container, [false, false, true]),
            (&per_request, [false, false, true]),
        ];
        for (r, want) in table {
            assert_eq!(
                [ok(r, Command), ok(r, Lifecycle), ok(r, Gateway)],
                want,
                "{}",
                r.id
            );
        }
        for c in [&container, &per_request] {
            let why = applicability(c, &suite(Command, None)).unwrap_err();
            assert!(why.contains("gateway suite"), "{why}");
        }
        let why = applicability(&native, &suite(Lifecycle, None)).unwrap_err();
        assert!(why.contains("lifecycle suite"), "{why}");
        // A servers suite without a server for the runtime does not apply to it, whatever
        // its kind; an embedded engine never runs one.
        let why = applicability(&cli, &suite(Servers, None)).unwrap_err();
        assert!(why.contains("no test of suite 's'"), "{why}");
        let why = applicability(&wasmtime, &suite(Servers, None)).unwrap_err();
        assert!(why.contains("embedded engine runs none"), "{why}");
        // Every runtime of this machine gets an answer for every kind, the same as the
        // kind's rule where no server list is involved.
        for r in known_runtimes(&Config::default()) {
            for k in [Command, Lifecycle, Gateway] {
                assert_eq!(
                    applicability(&r, &suite(k, None)),
                    applies_to(&r, k),
                    "{} × {k}",
                    r.id
                );
            }
        }
    }

    #[test]
    fn front_ends_preselect_native_and_the_embedded_engines_else_the_clis() {
        let mut gone = rt("wasmer-cranelift", RuntimeKind::Embedded);
        gone.unavailable = Some("not built".into());
        let all = [
            rt("native", RuntimeKind::Native),
            rt(crate::runtime::NATIVE_DLOPEN, RuntimeKind::Native),
            rt("wasmtime", RuntimeKind::Embedded),
            gone,
            rt("wasmtime-cli", RuntimeKind::Cli),
        ];
        assert_eq!(preselected(&all, |_| true), ["native", "wasmtime"]);
        // No embedded engine applies (the servers suite): the CLI runtimes instead.
        assert_eq!(
            preselected(&all, |r| r.kind != RuntimeKind::Embedded),
            ["native", "wasmtime-cli"]
        );
        assert_eq!(preselected(&all, |r| r.id == "wasmtime"), ["wasmtime"]);
        assert!(preselected(&all, |_| false).is_empty());
    }
}
