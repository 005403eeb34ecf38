//! Summaries of saved runs, diffs between runs (or runtimes) with confidence intervals.

mod compare;
mod diff;
mod gate;
mod headline;
mod heap;
mod http;
mod live;
mod noise;
mod normal;
mod quiet;
mod signed_rank;
mod sizes;
mod stats;
mod summary;
mod sweep;

pub use crate::format::Unit;
pub use crate::random::{Rng, seed_for};
pub use compare::{
    COMPARE_NORMALIZE, CompareCell, CompareColumn, CompareError, CompareOptions, Comparison,
    compare_runs,
};
pub use diff::{
    ALPHA, Counts, DEFAULT_NORMALIZE, DEFAULT_PAIR_ROUNDS, DEFAULT_THRESHOLD_PCT, Diff, DiffError,
    DiffKey, DiffOptions, DiffRow, Dropped, MIN_INVOCATIONS, MIN_VALUES, Verdict, check_threshold,
    compare_runtimes, compare_tests, diff_runs, level_text,
};
pub use gate::{FailOn, Gate, GateRule, gate, shown_bound};
pub use headline::{diff_headline, run_headline};
pub use heap::{HeapPoint, HeapSeries, MEASURES, Measure, heap_series, heap_sizes};
pub use http::{
    HttpCell, KneePoint, LevelPoint, RatePoint, SaturatedLevel, http_cells, levels_of, rates_of,
};
pub use live::LiveValues;
pub use noise::{CellNoise, HostNoise, Noise, PairNoise, noise};
pub use normal::normal_cdf;
pub use quiet::{BUSY_SHARE, RunLoad, busy_invocation};
pub use sizes::{CellSizes, cell_sizes};
pub use stats::{
    Groups, LogMean, RatioEstimate, Stats, bh_adjust, geomean, median, median_ratio,
    paired_estimate, paired_units, ratio_estimate, t_cdf, t_quantile,
};
pub use summary::{
    CellSummary, Corrected, Index, OTHER_METRICS, RunSummary, RuntimeSummary, default_baseline,
    summarize,
};
pub use sweep::{ScanPoint, ScanTest, SettingEffect, Sweep, sweep};

/// Version of the figures a run's summary gives a cell: its typical value
/// ([`Stats::typical`]) and its 95 % interval. Figures kept from earlier summaries (the
/// history index, `results/.history`) are made afresh when it differs, so bump it whenever
/// the typical value's or the interval's formula changes.
pub const STATS_VERSION: u32 = 1;
