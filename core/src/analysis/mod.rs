//! Summaries of saved runs: per-cell statistics, speed relative to a baseline, geometric
//! means per runtime.

mod stats;
mod summary;

pub use stats::{Stats, geomean, median};
pub use summary::{CellSummary, RunSummary, RuntimeSummary, summarize};
