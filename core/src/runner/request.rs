//! What the user asked for, with every choice made: the request a plan is checked from,
//! and how often a cell repeats. Plain data; the policy ([`super::policy`]) fills it.

use crate::config::Config;
use crate::http_suites::HttpSettings;
pub use crate::model::Repetition;
use crate::store::{Measure, PairMode, RunOrder};
use crate::suite::{Size, Suite};
use std::time::Duration;

/// What the user asked for.
#[derive(Debug, Clone)]
pub struct RunRequest {
    /// The suite.
    pub suite: Suite,
    /// Test names; empty means all.
    pub tests: Vec<String>,
    /// Runtime ids; empty means every available runtime.
    pub runtimes: Vec<String>,
    /// Warm-up iterations per invocation.
    pub warmup: u32,
    /// Measured iterations per invocation.
    pub runs: u32,
    /// Fresh worker processes per cell.
    pub invocations: u32,
    /// Order of the cells' invocations.
    pub order: RunOrder,
    /// Seed of the interleaved order; `None` draws one (saved with the run either way).
    pub seed: Option<u64>,
    /// Time, or also instructions (embedded runtimes under callgrind).
    pub measure: Measure,
    /// Per-iteration timeout, resolved ([`super::resolve_timeout`]: explicit, else the
    /// suite's own, else 60 s).
    pub timeout: Duration,
    /// Problem size.
    pub size: Size,
    /// User label.
    pub label: Option<String>,
    /// Memory cap per cell, bytes.
    pub memory_cap: u64,
    /// Live sampling interval.
    pub sample_interval: Duration,
    /// Baseline runtime id.
    pub baseline: String,
    /// Paths and custom runtimes.
    pub config: Config,
    /// Drop named runtimes that are unavailable (with a warning) instead of refusing.
    pub skip_missing: bool,
    /// HTTP suites: load settings (defaults when `None`).
    pub http: Option<HttpSettings>,
    /// The hash of the plan file this request came from, saved with the run.
    pub plan_hash: Option<String>,
    /// Two or more runtimes, or tests, whose invocations run side by side in every round.
    pub pair: Option<Vec<String>>,
    /// How the pair's arms share the machine; `None`: [`PairMode::Alternate`] where it can
    /// (a command suite measured by time), else [`PairMode::Processes`].
    pub pair_mode: Option<PairMode>,
    /// Rounds added until every cell's interval is this narrow (or the budget is spent).
    pub precision: Option<crate::store::Precision>,
    /// Engine settings swept, `ENGINE.NAME=V1,V2` each: every combination a runtime.
    pub settings: Vec<String>,
    /// Run a sweep of more than [`crate::runtime::settings::MAX_COMBINATIONS`] runtimes.
    pub yes: bool,
    /// Sample the measured iterations' execute phase this many times a second of its CPU
    /// time (`run --profile[=HZ]`).
    pub profile: Option<u32>,
}
