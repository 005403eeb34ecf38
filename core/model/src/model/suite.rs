//! The kind of a suite (which decides how its tests run and on what), how front ends show
//! each kind, and the problem size of a run.

use super::Phase;

/// Problem size of a run: every test takes it as its first argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Size {
    /// Well under a second per run natively.
    Quick,
    /// A few seconds per run natively.
    Full,
}

impl Size {
    /// The word passed to the guest and used in file names.
    pub fn as_str(self) -> &'static str {
        match self {
            Size::Quick => "quick",
            Size::Full => "full",
        }
    }
}

impl std::str::FromStr for Size {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "quick" => Ok(Size::Quick),
            "full" => Ok(Size::Full),
            other => Err(format!("unknown size '{other}' (known: quick, full)")),
        }
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What kind of tests a suite has, which decides how they run and on what.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum SuiteKind {
    /// WASI commands built from C sources, checked against known answers and timing
    /// themselves; run on every kind of runtime.
    #[default]
    Command,
    /// Host-driven measurements of an instance's life cycle on generated modules; embedded
    /// runtimes only (native and CLIs have no equivalent).
    Lifecycle,
    /// An HTTP gateway: each test is a request the gateway answers by running its wasm
    /// guest per request (embedded or a CLI), or natively; measured under load.
    Gateway,
    /// External HTTP servers, one command per runtime, started and measured under load.
    Servers,
    /// A kind made in this crate's tests only (`suite/manifest/trivial.rs`), to show and
    /// check what a new kind costs: its entries in this table and its manifest arm, no more.
    #[cfg(test)]
    Trivial,
}

impl SuiteKind {
    /// Every kind.
    pub const ALL: &[SuiteKind] = &[
        SuiteKind::Command,
        SuiteKind::Lifecycle,
        SuiteKind::Gateway,
        SuiteKind::Servers,
        #[cfg(test)]
        SuiteKind::Trivial,
    ];

    /// The word used in manifests and saved runs.
    pub fn as_str(self) -> &'static str {
        match self {
            SuiteKind::Command => "command",
            SuiteKind::Lifecycle => "lifecycle",
            SuiteKind::Gateway => "gateway",
            SuiteKind::Servers => "servers",
            #[cfg(test)]
            SuiteKind::Trivial => "trivial",
        }
    }

    /// How its cells run, which decides what can run them ([`Execution`]).
    pub fn execution(self) -> Execution {
        match self {
            SuiteKind::Command => Execution::Commands,
            SuiteKind::Lifecycle => Execution::InProcess,
            SuiteKind::Gateway => Execution::PerRequest,
            SuiteKind::Servers => Execution::ServerPrograms,
            #[cfg(test)]
            SuiteKind::Trivial => Execution::Commands,
        }
    }

    /// True for the HTTP suites, measured with the load generator.
    pub fn is_http(self) -> bool {
        self.execution().is_http()
    }

    /// True for [`SuiteKind::Command`] itself: the default, left out of saved metadata.
    pub fn is_command(&self) -> bool {
        *self == SuiteKind::Command
    }

    /// True for a kind driven in-process: host-driven, on embedded engines only.
    pub fn is_lifecycle(self) -> bool {
        self.execution().is_in_process()
    }
}

/// How a kind's cells run, which decides the runtimes that can take part. A runtime says
/// what it can run by these, never by a kind's name: a new kind that runs as one of these
/// costs no runtime a decision (docs/architecture.md counts what it does cost).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Execution {
    /// Each iteration runs a WASI command, or the native program, timed by the guest.
    Commands,
    /// The worker drives an embedded engine through an instance's life itself.
    InProcess,
    /// wasmeter's gateway answers each request by running the guest: embedded, by a
    /// CLI, natively or in a container.
    PerRequest,
    /// Each runtime starts a server program of its own.
    ServerPrograms,
}

impl Execution {
    /// Cells run commands whose execute phase is timed: they can be profiled, counted,
    /// paired in one worker, and aim at a precision by default.
    pub fn runs_commands(self) -> bool {
        match self {
            Execution::Commands => true,
            Execution::InProcess | Execution::PerRequest | Execution::ServerPrograms => false,
        }
    }

    /// Cells are requests under load, measured with the load generator.
    pub fn is_http(self) -> bool {
        match self {
            Execution::PerRequest | Execution::ServerPrograms => true,
            Execution::Commands | Execution::InProcess => false,
        }
    }

    /// The worker drives an engine itself.
    pub fn is_in_process(self) -> bool {
        match self {
            Execution::InProcess => true,
            Execution::Commands | Execution::PerRequest | Execution::ServerPrograms => false,
        }
    }

    /// Runtimes start server programs of their own.
    pub fn starts_servers(self) -> bool {
        match self {
            Execution::ServerPrograms => true,
            Execution::Commands | Execution::InProcess | Execution::PerRequest => false,
        }
    }
}

/// One table or view of a saved run. Which a kind has, in the order shown, is its shape's
/// `views`: the CLI, the Markdown and HTML exports, the TUI and the desktop page iterate
/// that list instead of matching on kinds, so a new kind names its views here once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum View {
    /// The typical time per test × runtime relative to the baseline, with each runtime's
    /// geometric mean.
    Matrix,
    /// CLI runtimes' whole-process times less their start-up (only where measured).
    StartupCorrected,
    /// Two runtimes or two tests of the run, diffed round by round.
    Paired,
    /// The selected cell's iterations as a distribution.
    Distribution,
    /// CPU and memory of the run's processes.
    Resources,
    /// The median of each phase per cell.
    Phases,
    /// Module, native and compiled sizes (only for runs that have them).
    Sizes,
    /// Each operation of an instance's life, per module and runtime: median (p99).
    Operations,
    /// Operations against heap size, dense and sparse, per runtime.
    Heap,
    /// Per request: cold start, latency, throughput, memory and CPU, and requests per
    /// second at each concurrency level.
    Requests,
}

/// How much of a run a text front end tells: the fewer tables, the shorter the words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Depth {
    /// What `run` prints when the run ends.
    Brief,
    /// What `show` prints.
    Shown,
    /// Everything: `show --phases` and the exports.
    All,
}

/// A view of a kind, and from which depth a text front end shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct KindView {
    /// The view.
    pub view: View,
    /// The least depth that shows it.
    pub from: Depth,
}

/// How often a cell is repeated: fresh processes (invocations), each with warm-ups and
/// measured iterations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Repetition {
    /// Fresh worker processes per cell.
    pub invocations: u32,
    /// Warm-up iterations per invocation.
    pub warmup: u32,
    /// Measured iterations per invocation.
    pub runs: u32,
}

impl Repetition {
    /// The defaults of a suite kind ([`SuiteShape::repetition`]).
    pub fn default_for(kind: SuiteKind) -> Repetition {
        kind.shape().repetition
    }
}

/// How every front end shows a kind of suite, decided here once: the desktop page gets
/// the four as generated data (`suiteShapes.ts` beside its bindings) and reads these facts
/// instead of comparing kind words.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SuiteShape {
    /// The kind it describes.
    pub kind: SuiteKind,
    /// Its tables and views, in the order every front end shows them.
    pub views: Vec<KindView>,
    /// What its matrix's cells are ("time", "latency over one connection"), after
    /// "typical".
    pub measure: String,
    /// The sentence printed over its tables, saying what their figures are, if any.
    pub note: Option<String>,
    /// How often its cells are repeated unless asked otherwise. Between-process noise is
    /// the larger part on a shared machine (a kernel's speed can differ by 40 % from one
    /// process to the next, with its code and data layout), and intervals count processes,
    /// so values are spread over several invocations rather than piled into one: 6 × 1
    /// finds a planted 10 % change where 3 × 2, for the same cost, does not
    /// (docs/statistics.md §6). Every default gives at least 3 values and 2 invocations a
    /// cell, the least a verdict needs. A command iteration compiles, instantiates and runs
    /// afresh and the guest times only its own loop, so a warm-up iteration buys little
    /// there; HTTP iterations start a fresh server each and warm up per level.
    pub repetition: Repetition,
    /// The phases its cells measure, in the order they happen (an HTTP run adds a
    /// throughput phase per concurrency level it measured).
    pub phases: Vec<Phase>,
    /// The phases a diff shows until the user picks some (an HTTP diff adds every
    /// throughput level it has).
    pub default_phases: Vec<Phase>,
    /// What a cell is compared by when it has no values (a failed cell).
    pub primary: Phase,
    /// Cells are HTTP measurements: latency percentiles, rates over concurrency.
    pub http: bool,
    /// Cells are an instance's life on generated modules, on embedded engines: no
    /// baseline ratios, the heap chart.
    pub lifecycle: bool,
    /// Runtimes are shown relative to a baseline runtime.
    pub baseline: bool,
    /// Runs time a command's execute phase: they can be profiled (`--profile`) and counted
    /// (`--measure instructions`).
    pub profiles: bool,
    /// Runs start server programs: the servers suite's app and load options.
    pub servers: bool,
    /// Runtimes a group brought in that do not apply are left out without a word, unless
    /// named: a command suite's lifecycle-only configurations, a servers suite's runtimes
    /// without a server. Otherwise each is said as not applicable.
    pub quiet_left_out: bool,
    /// The word over the live table's value column: a median of iterations, or the
    /// typical (median of invocation medians) time.
    pub live_value: String,
}

impl SuiteShape {
    /// True when this kind has `view`.
    pub fn has(&self, view: View) -> bool {
        self.views.iter().any(|v| v.view == view)
    }

    /// The views a text front end shows at `depth`, in order.
    pub fn views_at(&self, depth: Depth) -> impl Iterator<Item = View> + '_ {
        self.views
            .iter()
            .filter(move |v| v.from <= depth)
            .map(|v| v.view)
    }
}

impl SuiteKind {
    /// How front ends show this kind ([`SuiteShape`]).
    pub fn shape(self) -> SuiteShape {
        use {Depth::*, View::*};
        let (phases, default_phases, primary): (&[Phase], &[Phase], Phase) = match self {
            SuiteKind::Command => (
                &Phase::COMMAND,
                &[Phase::Execute, Phase::Total],
                Phase::Execute,
            ),
            SuiteKind::Lifecycle => (
                &Phase::LIFECYCLE,
                &[Phase::Instantiate, Phase::Call],
                Phase::Instantiate,
            ),
            SuiteKind::Gateway | SuiteKind::Servers => (
                &[Phase::ColdStart, Phase::Latency],
                &[Phase::Latency],
                Phase::Latency,
            ),
            #[cfg(test)]
            SuiteKind::Trivial => (&[Phase::Execute], &[Phase::Execute], Phase::Execute),
        };
        let (invocations, warmup, runs) = match self {
            SuiteKind::Command => (6, 0, 1),
            SuiteKind::Lifecycle => (4, 1, 2),
            SuiteKind::Gateway | SuiteKind::Servers => (3, 0, 1),
            #[cfg(test)]
            SuiteKind::Trivial => (2, 0, 2),
        };
        // Views without a text table (paired, distribution, resources) are shown by the
        // interactive front ends at any depth.
        let (views, measure, note): (&[(View, Depth)], &str, Option<&str>) = match self {
            SuiteKind::Command => (
                &[
                    (Matrix, Brief),
                    (StartupCorrected, Brief),
                    (Paired, Shown),
                    (Distribution, Shown),
                    (Resources, Shown),
                    (Phases, All),
                    (Sizes, Shown),
                ],
                "time",
                None,
            ),
            SuiteKind::Lifecycle => (
                &[
                    (Operations, Brief),
                    (Heap, Brief),
                    (Distribution, Shown),
                    (Resources, Shown),
                ],
                "instantiation time per operation",
                Some(
                    "per operation: median (p99) over the samples; each sample times a batch of operations as one",
                ),
            ),
            SuiteKind::Gateway | SuiteKind::Servers => (
                &[(Requests, Brief), (Distribution, Shown), (Resources, Shown)],
                "latency over one connection",
                Some(
                    "medians over iterations; latency over one keep-alive connection; each iteration starts a fresh server",
                ),
            ),
            #[cfg(test)]
            SuiteKind::Trivial => (&[(Matrix, Brief), (Distribution, Shown)], "time", None),
        };
        SuiteShape {
            kind: self,
            views: views
                .iter()
                .map(|&(view, from)| KindView { view, from })
                .collect(),
            measure: measure.into(),
            note: note.map(Into::into),
            repetition: Repetition {
                invocations,
                warmup,
                runs,
            },
            phases: phases.to_vec(),
            default_phases: default_phases.to_vec(),
            primary,
            http: self.is_http(),
            lifecycle: self.is_lifecycle(),
            baseline: !self.is_lifecycle(),
            profiles: self.execution().runs_commands(),
            servers: self.execution().starts_servers(),
            quiet_left_out: match self {
                SuiteKind::Command | SuiteKind::Servers => true,
                SuiteKind::Lifecycle | SuiteKind::Gateway => false,
                #[cfg(test)]
                SuiteKind::Trivial => false,
            },
            live_value: if self.execution().runs_commands() {
                "typical"
            } else {
                "median"
            }
            .into(),
        }
    }
}

/// The HTTP suite kinds, for what only they have (an HTTP cell's job).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HttpKind {
    /// [`SuiteKind::Gateway`].
    Gateway,
    /// [`SuiteKind::Servers`].
    Servers,
}

impl std::fmt::Display for SuiteKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
