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
}

impl SuiteKind {
    /// Every kind.
    pub const ALL: [SuiteKind; 4] = [
        SuiteKind::Command,
        SuiteKind::Lifecycle,
        SuiteKind::Gateway,
        SuiteKind::Servers,
    ];

    /// The word used in manifests and saved runs.
    pub fn as_str(self) -> &'static str {
        match self {
            SuiteKind::Command => "command",
            SuiteKind::Lifecycle => "lifecycle",
            SuiteKind::Gateway => "gateway",
            SuiteKind::Servers => "servers",
        }
    }

    /// True for the HTTP suites, measured with the load generator.
    pub fn is_http(self) -> bool {
        match self {
            SuiteKind::Gateway | SuiteKind::Servers => true,
            SuiteKind::Command | SuiteKind::Lifecycle => false,
        }
    }

    /// True for [`SuiteKind::Command`] (the default, left out of saved metadata).
    pub fn is_command(&self) -> bool {
        match self {
            SuiteKind::Command => true,
            SuiteKind::Lifecycle | SuiteKind::Gateway | SuiteKind::Servers => false,
        }
    }

    /// True for [`SuiteKind::Lifecycle`]: host-driven, on embedded engines only.
    pub fn is_lifecycle(self) -> bool {
        match self {
            SuiteKind::Lifecycle => true,
            SuiteKind::Command | SuiteKind::Gateway | SuiteKind::Servers => false,
        }
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
    /// Runs can be profiled (`--profile`).
    pub profiles: bool,
    /// Runs start server programs: the servers suite's app and load options.
    pub servers: bool,
    /// The word over the live table's value column: a median of iterations, or the
    /// typical (median of invocation medians) time.
    pub live_value: String,
}

impl SuiteKind {
    /// How front ends show this kind ([`SuiteShape`]).
    pub fn shape(self) -> SuiteShape {
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
        };
        SuiteShape {
            kind: self,
            phases: phases.to_vec(),
            default_phases: default_phases.to_vec(),
            primary,
            http: self.is_http(),
            lifecycle: self.is_lifecycle(),
            baseline: !self.is_lifecycle(),
            profiles: self.is_command(),
            servers: self == SuiteKind::Servers,
            live_value: if self.is_command() {
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
