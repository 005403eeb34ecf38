//! wasmeter-report: what saved runs say. Statistics, diffs and gates ([`analysis`]),
//! profiles explained function by function ([`explain`]), history across runs
//! ([`history`]), tables ([`table`]), the feature matrix ([`features`]) and exports
//! ([`export`]). It reads the store and never runs a guest: it depends on the model and the
//! profiler's names, not on the engines.

pub mod analysis;
pub mod explain;
pub mod export;
pub mod features;
#[cfg(feature = "parquet")]
pub mod history;
pub mod table;

// The lower crates' modules this crate builds on, under the paths its code names them by.
use wasmeter_model::{VERSION, format, model, random, sample, store, suite, text};
use wasmeter_profile::profile;
