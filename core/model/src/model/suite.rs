//! The kind of a suite (which decides how its tests run and on what) and the problem size
//! of a run.

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
