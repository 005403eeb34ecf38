//! The load an HTTP run puts on each server (levels, durations, rates, its SLO): part of
//! the run's settings, saved with it; and the one rule by which a rate meets the SLO.

use serde::{Deserialize, Serialize};

/// Longest a request of an open-model level may take before it counts as a timeout, ms.
pub const RATE_REQUEST_TIMEOUT_MS: u64 = 5000;

/// How an HTTP suite loads each server, recorded with the run; what a front end or plan
/// file leaves out takes its default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HttpSettings {
    /// Concurrency levels (connections) of the throughput phases.
    pub levels: Vec<u32>,
    /// Load per level, ms (a fifth of it, at most 500 ms, is warm-up).
    pub duration_ms: u64,
    /// Warm latency over one connection, ms.
    pub latency_ms: u64,
    /// Server threads of the gateway.
    pub server_threads: usize,
    /// Load generator threads.
    pub client_threads: usize,
    /// Most guest processes a CLI gateway runs at once.
    pub cli_inflight: usize,
    /// Longest a server may take to answer its first 200 OK, ms.
    pub ready_timeout_ms: u64,
    /// Offered rates of the open-model phases, requests/s (empty: the tests' own `rates`,
    /// else none). Each is loaded for `duration_ms` after the concurrency levels.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rates: Vec<u32>,
    /// The latency objective of the knee: the highest rate whose corrected p99 stays at
    /// or under this, ms.
    #[serde(default = "default_slo_p99_ms")]
    pub slo_p99_ms: f64,
    /// Connections that carry the open-model load (each sends on its own schedule).
    #[serde(default = "default_rate_connections")]
    pub rate_connections: u32,
    /// Time per iteration for stepping the rate past the highest listed one (doubling
    /// it) while the SLO still holds, ms; 0 measures the listed rates only.
    #[serde(default = "default_knee_budget_ms")]
    pub knee_budget_ms: u64,
}

/// Default SLO of the knee: p99 within 100 ms.
pub const DEFAULT_SLO_P99_MS: f64 = 100.0;

fn default_slo_p99_ms() -> f64 {
    DEFAULT_SLO_P99_MS
}

fn default_rate_connections() -> u32 {
    64
}

fn default_knee_budget_ms() -> u64 {
    20_000
}

impl Default for HttpSettings {
    fn default() -> HttpSettings {
        HttpSettings {
            levels: vec![1, 10, 50, 100, 200, 400],
            duration_ms: 2000,
            latency_ms: 1000,
            server_threads: 2,
            client_threads: 2,
            cli_inflight: 8,
            ready_timeout_ms: 20_000,
            rates: Vec::new(),
            slo_p99_ms: DEFAULT_SLO_P99_MS,
            rate_connections: default_rate_connections(),
            knee_budget_ms: default_knee_budget_ms(),
        }
    }
}

impl HttpSettings {
    /// The load of a run of this size where nobody set one: `quick` (the default) loads
    /// 1, 10 and 100 connections for 0.8 s each after 0.4 s of latency, about 3.5 s an
    /// iteration, so a default gateway run is one a person waits for (docs/http.md);
    /// `full` loads as the published gateway study did ([`HttpSettings::default`]: six
    /// levels of 2 s, 1 s of latency, about 16 s an iteration).
    pub fn for_size(size: crate::suite::Size) -> HttpSettings {
        match size {
            crate::suite::Size::Full => HttpSettings::default(),
            crate::suite::Size::Quick => HttpSettings {
                levels: vec![1, 10, 100],
                duration_ms: 800,
                latency_ms: 400,
                ..HttpSettings::default()
            },
        }
    }

    /// Longest one iteration of a cell can take when every server behaves: what the
    /// runner's per-iteration timeout is extended by. `test_rates` is the most rates any
    /// test lists itself (used when the run sets none).
    pub fn iteration_budget(&self, test_rates: usize) -> std::time::Duration {
        let levels = self.levels.len() as u64;
        let rates = if self.rates.is_empty() {
            test_rates
        } else {
            self.rates.len()
        } as u64;
        // A rate level waits up to the request timeout for its last requests.
        let knee = if rates > 0 && self.knee_budget_ms > 0 {
            self.knee_budget_ms + self.duration_ms + RATE_REQUEST_TIMEOUT_MS + 3000
        } else {
            0
        };
        std::time::Duration::from_millis(
            self.ready_timeout_ms
                + self.latency_ms
                + levels * (self.duration_ms + 3000)
                + rates * (self.duration_ms + RATE_REQUEST_TIMEOUT_MS + 3000)
                + knee
                + 5000,
        )
    }

    /// Every number in range ([`crate::model::limits`]), in the words of the CLI's flags: what the
    /// plan holds any front end's load to.
    pub fn check(&self) -> Result<(), String> {
        use crate::model::limits::{
            CLI_INFLIGHT, CONCURRENCY, DURATION, KNEE_BUDGET, LATENCY, RATE_CONNECTIONS, RATES,
            READY_TIMEOUT, THREADS, check_slo_p99_ms,
        };
        CONCURRENCY.check_all(&self.levels, true)?;
        DURATION.check(self.duration_ms)?;
        LATENCY.check(self.latency_ms)?;
        READY_TIMEOUT.check(self.ready_timeout_ms)?;
        RATES.check_all(&self.rates, false)?;
        check_slo_p99_ms(self.slo_p99_ms)?;
        RATE_CONNECTIONS.check(u64::from(self.rate_connections))?;
        KNEE_BUDGET.check(self.knee_budget_ms)?;
        for n in [self.server_threads, self.client_threads] {
            THREADS.check(n as u64)?;
        }
        CLI_INFLIGHT.check(self.cli_inflight as u64)?;
        Ok(())
    }

    /// The rates a test that lists `own` is loaded at, ascending: the run's when it sets
    /// any, else the test's.
    pub fn rates_for(&self, own: &[u32]) -> Vec<u32> {
        let mut v = if self.rates.is_empty() {
            own.to_vec()
        } else {
            self.rates.clone()
        };
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// What one offered rate did, as the SLO judges it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RateOutcome {
    /// Offered requests per second.
    pub offered: f64,
    /// Successful requests per second.
    pub achieved: f64,
    /// Corrected p99 latency, ns (`None` when no request succeeded).
    pub p99_ns: Option<f64>,
    /// Failed requests, timeouts among them.
    pub errors: f64,
    /// Timed-out requests.
    pub timeouts: f64,
    /// Seconds the rate was offered for.
    pub seconds: f64,
}

impl RateOutcome {
    /// The one rule for meeting the SLO, wherever a verdict is drawn: corrected p99 within
    /// it, at least 95 % of the rate achieved, no timeouts, errors under 1 % of the
    /// requests due.
    pub fn meets(&self, slo_p99_ms: f64) -> bool {
        self.p99_ns.is_some_and(|p| p <= slo_p99_ms * 1e6)
            && self.achieved >= 0.95 * self.offered
            && self.timeouts == 0.0
            && self.errors < 0.01 * (self.offered * self.seconds).max(1.0)
    }
}
