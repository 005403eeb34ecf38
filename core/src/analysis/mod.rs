//! Summaries of saved runs, diffs between runs (or runtimes) with confidence intervals.

mod diff;
mod heap;
mod http;
mod stats;
mod summary;

pub use diff::{Diff, DiffError, DiffKey, DiffRow, Verdict, compare_runtimes, diff_runs};
pub use heap::{HeapPoint, HeapSeries, MEASURES, Measure, Unit, heap_series, heap_sizes};
pub use http::{HttpCell, LevelPoint, http_cells, levels_of};
pub use stats::{Rng, Stats, geomean, median, median_interval, ratio_interval, seed_for};
pub use summary::{CellSummary, Index, OTHER_METRICS, RunSummary, RuntimeSummary, summarize};
