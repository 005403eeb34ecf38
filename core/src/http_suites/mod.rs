//! HTTP suites: the wasm-vs-native [`gateway`], and the [`driver`] that takes one cell (a
//! server variant × a request) through cold start, warm latency and throughput at each
//! concurrency level. The codec, server, load generator and guest protocol they run on
//! are the `wasmeter-http` crate (`wasmeter_core::http`).

pub mod driver;
pub mod gateway;
pub(crate) mod upstream;

pub use crate::store::{DEFAULT_SLO_P99_MS, HttpSettings, RATE_REQUEST_TIMEOUT_MS, RateOutcome};

/// The most rates any of `tests` lists itself (what [`HttpSettings::iteration_budget`]
/// allows for when a run sets none).
pub fn most_own_rates<'a>(tests: impl IntoIterator<Item = &'a crate::suite::TestCase>) -> usize {
    tests
        .into_iter()
        .filter_map(|t| t.http())
        .map(|h| h.rates.len())
        .max()
        .unwrap_or(0)
}
